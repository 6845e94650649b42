"""Every hand history the room hands a player replays to its recorded finishing stacks
(issue 32 item 1): a scripted session of 200 hands at four tables (no-limit and fixed
limit, Texas and Double Hold'em, with and without revealed point cards), with calls to
the showdown, all-ins and side pots, and players who muck or show by preference. Each
hand's PHH, as each player dealt in sees it (:func:`~doubleholdem.table.history.seat_hands`,
the ``hands`` message and ``GET /api/me/hands``: another player's cards ``??`` unless
shown), is replayed by ``doubleholdem replay`` to the file's finishing stacks, and the
Texas ones by pokerkit to the same stacks."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from doubleholdem.cli import main
from doubleholdem.game import Structure, Variant
from doubleholdem.game.phh import loads, replay, stacks_agree
from doubleholdem.table import Table, TableConfig
from doubleholdem.table.history import hand_record, seat_hands

pokerkit = pytest.importorskip("pokerkit")

BUY_IN = 400
TABLES: list[tuple[dict[str, Any], int]] = [  # (a table's settings, its hands)
    ({"variant": Variant.TEXAS, "structure": Structure.NO_LIMIT, "seats": 6}, 60),
    ({"variant": Variant.TEXAS, "structure": Structure.FIXED_LIMIT, "seats": 4}, 40),
    ({"variant": Variant.DOUBLE, "structure": Structure.NO_LIMIT, "seats": 5}, 60),
    (
        {
            "variant": Variant.DOUBLE,
            "structure": Structure.FIXED_LIMIT,
            "seats": 3,
            "reveal_point": True,
        },
        40,
    ),
]


def _decide(table: Table, rng: random.Random) -> None:
    """One decision: a point card at random; else mostly check or call (showdowns),
    sometimes a raise (now and then all in: side pots), rarely a fold."""
    seat = table.to_act
    assert seat is not None
    if table.decision == "point":
        table.choose_point(seat, rng.randrange(3))
        return
    legal = table.legal_actions()
    assert legal is not None
    roll = rng.random()
    if legal.min_raise_to is not None and roll < 0.25:
        top = legal.max_raise_to or legal.min_raise_to
        amount = top if rng.random() < 0.3 else legal.min_raise_to
        table.act(seat, "raise" if not legal.is_bet else "bet", amount)
    elif legal.can_fold and roll > 0.9:
        table.act(seat, "fold")
    else:
        table.act(seat, "check" if legal.can_check else "call")


def _session(seed: int) -> list[tuple[str, dict[str, Any]]]:
    """The scripted session: each hand's server record and each player's PHH of it, as
    ``(player PHH, server record)``."""
    rng = random.Random(seed)
    files: list[tuple[str, dict[str, Any]]] = []
    for number, (settings, hands) in enumerate(TABLES):
        config = TableConfig(small_blind=5, big_blind=10, **settings)
        seats = config.seats
        table = Table(config, seed=seed + number)
        for seat in range(seats):
            table.join(seat, f"player{seat}", BUY_IN)
        for _ in range(hands):
            for seat in range(seats):
                if table.stack(seat) < BUY_IN // 2:
                    table.top_up(seat, BUY_IN - table.stack(seat))
                table.set_preferences(
                    seat, muck_losing=rng.random() < 0.7, show_uncontested=rng.random() < 0.2
                )
            table.start_hand()
            while table.in_hand:
                _decide(table, rng)
            record = hand_record(table, table_id=number)
            log = [*table.release_history(), record]
            for player in record["players"]:
                [seen] = seat_hands([log], player=player)
                files.append((seen.phh, record))
    return files


@pytest.fixture(scope="module")
def session() -> list[tuple[str, dict[str, Any]]]:
    return _session(seed=32)


def test_the_session_has_showdowns_mucks_and_unknown_cards_shown(
    session: list[tuple[str, dict[str, Any]]],
) -> None:
    """The session reaches what the replays must get right: hands a player did not see
    dealt and saw shown, hands mucked unseen at a showdown, side pots."""
    hands = {id(record): record for _, record in session}
    assert sum(len(record["players"]) for record in hands.values()) == len(session)
    assert len(hands) == sum(count for _, count in TABLES) == 200
    mucks = shown_unknown = 0
    for text, _ in session:
        actions = [a.split() for a in loads(text).actions]
        dealt_unknown = {w[2] for w in actions if w[:2] == ["d", "dh"] and "?" in w[3]}
        mucks += sum(1 for w in actions if len(w) == 2 and w[1] == "sm" and w[0] in dealt_unknown)
        shown_unknown += sum(
            1 for w in actions if len(w) == 3 and w[1] == "sm" and w[0] in dealt_unknown
        )
    assert mucks >= 20 and shown_unknown >= 100


def test_every_players_file_replays_to_its_recorded_stacks(
    session: list[tuple[str, dict[str, Any]]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``doubleholdem replay`` replays every file a player is handed, from every
    player's point of view, to the finishing stacks it records (the server's)."""
    paths = []
    for i, (text, _) in enumerate(session):
        path = tmp_path / f"{i}.phh"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    status = main(["replay", *paths])
    out, err = capsys.readouterr()
    assert err == "" and status == 0
    assert len(out.splitlines()) == len(paths)


def test_the_replayed_winners_are_the_servers(
    session: list[tuple[str, dict[str, Any]]],
) -> None:
    """Each replay awards each pot to the players the server awarded it to (the full
    record, every card known, replays the same pots)."""
    side_pots = 0
    for text, record in session:
        seen = replay(loads(text))
        full = replay(loads(record["text"]))
        assert seen.pots == full.pots, text
        recorded = loads(record["text"]).finishing_stacks
        assert recorded is not None
        assert seen.finishing_stacks == full.finishing_stacks == list(recorded)
        side_pots += len(seen.pots) > 1
    assert side_pots >= 20


def test_pokerkit_reads_the_texas_files_to_the_same_stacks(
    session: list[tuple[str, dict[str, Any]]],
) -> None:
    """pokerkit (an independent implementation of PHH) reads every Texas Hold'em file
    a player is handed and ends on the stacks it records."""
    read = 0
    for text, _ in session:
        history = loads(text)
        if history.config.variant is not Variant.TEXAS:
            continue
        states = list(pokerkit.HandHistory.loads(text))
        recorded = history.finishing_stacks
        assert recorded is not None
        assert stacks_agree(recorded, list(states[-1].stacks)), text
        read += 1
    assert read > 300
