"""The action ids a cash table applied, answered from memory
(python/doubleholdem/server/tables/applied_actions.py, issue 33's throughput): a decision
resent with an applied id is answered ``repeated`` exactly when the database holds that
id (never applied twice, never refused as a repeat of one undone), through new hands,
resends of earlier hands' ids, failed commits and a restart; and the database is read
once per table and hand at most, not once per decision."""

from __future__ import annotations

import random
from typing import Any

import pytest

from doubleholdem.server.storage import action_rows
from doubleholdem.server.storage.storage import token_hash
from doubleholdem.server.tables.connection import Connection
from doubleholdem.server.tables.room import Room
from faults import fail_next_commit_statement
from money_room import money_room, send, sent


def _seated(room: Room) -> tuple[list[Connection], list[str]]:
    players = [room.connect() for _ in range(2)]
    tokens = []
    for seat, player in enumerate(players):
        told = send(room, player, type="sit", table=0, seat=seat, name=f"p{seat}", buy_in=1000)
        tokens.append(next(m["token"] for m in told if m["type"] == "seated"))
    return players, tokens


def _in_hand(room: Room) -> None:
    runner = room.runners[0]
    if not runner.table.in_hand:
        with runner.change():
            runner.table.start_hand(now=100.0)


def _answer(replies: list[dict[str, Any]], ident: str) -> dict[str, Any]:
    return next(m for m in replies if m.get("id") == ident and m["type"] in ("result", "error"))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_resent_id_is_repeated_exactly_when_the_database_holds_it(
    room_db: str, seed: int
) -> None:
    rng = random.Random(seed)
    room = money_room(guests=True, path=room_db)
    players, tokens = _seated(room)
    sent_ids: list[dict[str, Any]] = []  # every act sent with a new id, as sent
    repeated = restarts = failures = 0
    try:
        for step in range(60):
            _in_hand(room)
            runner = room.runners[0]
            choice = rng.random()
            if step in (20, 40):  # the room stops and starts again (a new runner)
                room.store.close()
                room = money_room(guests=True, path=room_db)
                players = [room.connect() for _ in tokens]
                for player, token in zip(players, tokens, strict=True):
                    send(room, player, type="resume", token=token)
                restarts += 1
                continue
            if choice < 0.45 and sent_ids:  # a resend of any id sent before
                act = rng.choice(sent_ids)
                seat = act["seat"]
                held = room.store.seat_tokens.action_applied(token_hash(tokens[seat]), act["id"])
                fields = {k: v for k, v in act.items() if k != "seat"}
                answer = _answer(send(room, players[seat], **fields), act["id"])
                assert (answer.get("repeated") is True) == held, (step, act, answer)
                repeated += held
                continue
            seat = runner.table.to_act
            assert seat is not None
            legal = runner.table.legal_actions()
            assert legal is not None
            action = "call" if legal.can_call else "check"
            act = {"type": "act", "id": f"a{step}", "hand": runner.table.hand_number}
            act["action"] = action
            sent_ids.append({**act, "seat": seat})
            fails = choice > 0.9
            if fails:
                fail_next_commit_statement(room)
                failures += 1
            answer = _answer(send(room, players[seat], **act), act["id"])
            assert answer["ok"] is not fails if answer["type"] == "result" else fails
            if fails:
                assert room.commit.writable()  # writes taken again
                for player in players:
                    sent(player)
        assert repeated and failures and restarts  # each path taken
    finally:
        room.store.close()


def test_the_database_is_read_once_per_table_and_hand(
    room_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[tuple[int, int]] = []
    real = action_rows.hand_actions

    def counted(db: Any, table_id: int, hand: int) -> set[tuple[str, str]]:
        reads.append((table_id, hand))
        return real(db, table_id, hand)

    monkeypatch.setattr("doubleholdem.server.tables.applied_actions.hand_actions", counted)
    room = money_room(guests=True, path=room_db)
    players, _ = _seated(room)
    decisions = 0
    try:
        for _ in range(3):  # three hands, each played out by its decisions
            _in_hand(room)
            runner = room.runners[0]
            while runner.table.in_hand:
                seat = runner.table.to_act
                legal = runner.table.legal_actions()
                assert seat is not None and legal is not None
                number = runner.table.hand_number
                act = {"type": "act", "id": f"d{decisions}", "hand": number}
                act["action"] = "call" if legal.can_call else "check"
                assert _answer(send(room, players[seat], **act), act["id"])["ok"]
                decisions += 1
        assert decisions > 6
        assert len(reads) == 1  # the first decision of the runner; later hands begin here
    finally:
        room.store.close()
