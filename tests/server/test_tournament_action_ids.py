"""Tournament decisions by id (issue 34 item 3, docs/PROTOCOL.md "Tournaments"): a
``tournament_act`` (or the HTTP API's ``act``) resent after it was applied, as a client
retrying after a dropped connection does, is answered ``repeated`` and applied once,
after a restart and a ``kill -9`` too; its id sent with another decision is refused
(``id_reused``); a commit that fails forgets the id (the retry is then applied); and the
ids are forgotten with their table's hands and with the tournament. On SQLite and
PostgreSQL (``room_db``), driven step by step on the test's clock (each change committed
at once) but for the failed commit, which runs on the event loop as the server does."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from typing import Any

import pytest

from doubleholdem.server.http.tournament_sockets import TournamentSockets
from doubleholdem.server.tables.connection import Connection
from doubleholdem.server.tables.room import Room
from doubleholdem.server.tournaments.runner import TournamentRunner
from tournaments_room import Clock, audit, open_room, sign_up, sit_and_go


@pytest.fixture(autouse=True)
def _no_rate_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Connection, "allow", lambda self: True)


def _open(path: str, clock: Clock) -> tuple[Room, TournamentRunner]:
    room, tournaments = open_room(path, sit_and_go(), clock)
    room.tournaments = TournamentSockets(tournaments)
    return room, tournaments.runner(0)


def _send(room: Room, connection: Connection, **fields: Any) -> list[dict[str, Any]]:
    """Sends a ``tournament_act``; the replies (``result``, ``error``) it got."""
    message = {"v": 2, "type": "tournament_act", "tournament": 0, **fields}
    room.handle(connection, json.dumps(message))
    replies = []
    while not connection.outbox.empty():
        text = connection.outbox.get_nowait()
        assert text is not None
        reply = json.loads(text)
        if reply["type"] in ("result", "error"):
            replies.append(reply)
    return replies


def _started(path: str) -> tuple[Room, TournamentRunner, Clock]:
    """Ann and bob registered in the sit-and-go of two bots, which starts."""
    clock = Clock()
    room, runner = _open(path, clock)
    for name in ("ann", "bob"):
        sign_up(room, name, 1000)
        runner.register(name)
    assert runner.stored.status == "running"
    return room, runner, clock


def _turn(runner: TournamentRunner, clock: Clock, name: str) -> tuple[int, str]:
    """Steps the tournament (bob checks or folds) until it is ``name``'s turn: the
    hand's number and a legal decision of ``name`` (check or call); ``(0, "")`` once
    ``name`` is out."""
    for _ in range(10_000):
        for player in ("ann", "bob"):
            [entry] = runner.tournament.entries_of(player)
            if entry.table is None:
                if player == name:
                    return 0, ""
                continue
            table = runner.tournament.tables[entry.table]
            if table.in_hand and table.to_act == entry.seat:
                legal = table.legal_actions()
                assert legal is not None
                if player == name:
                    return table.hand_number, "call" if legal.call_amount else "check"
                runner.act(player, table.hand_number, "check" if legal.can_check else "fold", None)
                break
        else:
            wait = runner.step(clock.now)
            clock.now += 0.01 if wait is None else max(0.01, min(wait, 5.0))
    raise AssertionError(f"never {name}'s turn")


def _moves(runner: TournamentRunner) -> int:
    """Decisions and deadlines made at every table so far (each table's log)."""
    return sum(table.log_length for table in runner.tournament.tables.values())


def _ids(room: Room) -> list[tuple[Any, ...]]:
    rows = room.store.db.execute(
        "SELECT player, id, table_number, hand, decision FROM tournament_actions"
        " ORDER BY player, id"
    ).fetchall()
    return [tuple(row) for row in rows]


def test_a_decision_sent_twice_with_one_id_is_applied_once(room_db: str) -> None:
    room, runner, clock = _started(room_db)
    ann = room.connect(account="ann")
    hand, action = _turn(runner, clock, "ann")
    assert _send(room, ann, id="d1", hand=hand, action=action) == [
        {"v": 2, "type": "result", "id": "d1", "ok": True, "tournament": 0}
    ]
    made = _moves(runner)
    again = _send(room, ann, id="d1", hand=hand, action=action)
    assert again == [
        {"v": 2, "type": "result", "id": "d1", "ok": True, "tournament": 0, "repeated": True}
    ]
    assert _moves(runner) == made  # not applied again
    [(player, ident, _table, noted, decision)] = _ids(room)
    assert (player, ident, noted, json.loads(decision)) == ("ann", "d1", hand, [hand, action, None])
    assert audit(room) == []
    room.store.close()


def test_a_decision_resent_after_a_restart_is_answered_repeated(room_db: str) -> None:
    room, runner, clock = _started(room_db)
    hand, action = _turn(runner, clock, "ann")
    assert _send(room, room.connect(account="ann"), id="d1", hand=hand, action=action)[0]["ok"]
    key = room.settings.snapshot_key
    before = runner.stored.to_text(runner.tournament, key), runner.tournament.to_json(key)
    room.store.close()
    room, runner = _open(room_db, clock)  # the server starts again
    [reply] = _send(room, room.connect(account="ann"), id="d1", hand=hand, action=action)
    assert reply["ok"] and reply["repeated"] is True
    assert (runner.stored.to_text(runner.tournament, key), runner.tournament.to_json(key)) == before
    room.store.close()


def test_a_decision_resent_after_kill_9_is_answered_repeated(room_db: str) -> None:
    """A child process applies ann's decision and is killed with SIGKILL right after
    the reply (the commit before it): the id is there after the kill, with the decision."""
    room, runner, clock = _started(room_db)
    hand, action = _turn(runner, clock, "ann")
    key = room.settings.snapshot_key
    room.store.close()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            child, _runner = _open(room_db, clock)
            [reply] = _send(child, child.connect(account="ann"), id="k1", hand=hand, action=action)
            if reply.get("ok"):
                os.kill(os.getpid(), signal.SIGKILL)  # no close, no checkpoint
        finally:
            os._exit(1)  # the decision was refused: the parent finds no id
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    room, runner = _open(room_db, clock)
    [(player, ident, _table, noted, decision)] = _ids(room)
    assert (player, ident, noted, json.loads(decision)) == ("ann", "k1", hand, [hand, action, None])
    after = runner.stored.to_text(runner.tournament, key), runner.tournament.to_json(key)
    [reply] = _send(room, room.connect(account="ann"), id="k1", hand=hand, action=action)
    assert reply["ok"] and reply["repeated"] is True
    assert (runner.stored.to_text(runner.tournament, key), runner.tournament.to_json(key)) == after
    assert audit(room) == []
    room.store.close()


def test_an_id_sent_with_another_decision_is_refused_and_changes_nothing(room_db: str) -> None:
    room, runner, clock = _started(room_db)
    ann = room.connect(account="ann")
    hand, action = _turn(runner, clock, "ann")
    assert _send(room, ann, id="d1", hand=hand, action=action)[0]["ok"]
    hand, _action = _turn(runner, clock, "ann")
    made, version = _moves(runner), runner.version
    [error] = _send(room, ann, id="d1", hand=hand, action="fold")
    assert error["type"] == "error" and error["code"] == "id_reused" and error["id"] == "d1"
    assert "another decision" in error["message"] and "new id" in error["message"]
    assert (_moves(runner), runner.version) == (made, version)  # nothing changed
    assert _send(room, ann, id="d2", hand=hand, action="fold")[0]["ok"]  # a new id is applied
    assert runner.version > version
    assert [row[1] for row in _ids(room)] == ["d1", "d2"]
    room.store.close()


def test_a_failed_commit_forgets_the_id_and_the_retry_is_applied(room_db: str) -> None:
    from faults import disarm, fail_next_commit_statement

    room, runner, clock = _started(room_db)
    hand, action = _turn(runner, clock, "ann")
    made = _moves(runner)

    async def answer(connection: Connection) -> dict[str, Any]:
        message = {"v": 2, "type": "tournament_act", "tournament": 0, "id": "d1",
                   "hand": hand, "action": action}  # fmt: skip
        room.handle(connection, json.dumps(message))
        for _ in range(10_000):  # turns of the loop until the reply, after the commit
            while not connection.outbox.empty():
                text = connection.outbox.get_nowait()
                assert text is not None
                reply: dict[str, Any] = json.loads(text)
                if reply["type"] in ("result", "error"):
                    return reply
            await asyncio.sleep(0)
        raise AssertionError("no reply")

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        ann = room.connect(account="ann")
        fail_next_commit_statement(room)
        failed = await answer(ann)
        disarm(room)
        return failed, await answer(ann)

    failed, retried = asyncio.run(scenario())
    assert failed["type"] == "error" and failed["code"] == "unavailable"
    assert retried == {"v": 2, "type": "result", "id": "d1", "ok": True, "tournament": 0}
    assert runner.tournament.tables and _moves(runner) == made + 1  # applied once
    assert [row[1] for row in _ids(room)] == ["d1"]
    room.store.close()


def test_ids_are_forgotten_with_their_hands_and_with_the_tournament(room_db: str) -> None:
    room, runner, clock = _started(room_db)
    ann = room.connect(account="ann")
    sent = 0
    while (turn := _turn(runner, clock, "ann"))[0]:
        hand, action = turn
        sent += 1
        assert _send(room, ann, id=f"d{sent}", hand=hand, action=action)[0]["ok"]
        for _player, _ident, table, noted, _decision in _ids(room):
            if table in runner.tournament.tables:  # its hand or the one before
                assert noted >= runner.tournament.tables[table].hand_number - 1
    assert sent > 3
    while runner.stored.status == "running":  # ann out: the others play on
        wait = runner.step(clock.now)
        clock.now += 0.01 if wait is None else max(0.01, min(wait, 5.0))
    assert runner.stored.status == "finished"
    assert _ids(room) == []  # the tournament over, every id is forgotten
    room.store.close()
