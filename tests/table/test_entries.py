"""A table's own entries as typed records (issue 31 item 1): each record's dict at the
edges (the event log, each seat's view, the released history, the snapshot) is the dict
the table wrote before its entries were records, byte for byte
(``data/entries_before.json``, written by the code of a7926d0 from the scripted
sessions of ``tests/entries_session.py``), and the records carry what the dicts do not: the
occupancy a join, a top-up or a leave belongs to."""

from __future__ import annotations

import json
import typing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doubleholdem.errors import TableError
from doubleholdem.table import Table, TableConfig
from doubleholdem.table.entries import (
    Entry,
    HandEnd,
    HandStart,
    Join,
    Leave,
    Stored,
    TopUp,
)
from entries_session import SESSIONS, all_edges

BEFORE = json.loads((Path(__file__).parent / "data" / "entries_before.json").read_text())
RECORDS = [kind for kind in typing.get_args(Entry) if kind is not Stored]
EDGES = all_edges()


def test_the_sessions_are_those_written_before() -> None:
    assert set(BEFORE) == set(SESSIONS)
    for session, edges in BEFORE.items():
        assert set(EDGES[session]) == set(edges), session


@pytest.mark.parametrize(
    ("session", "edge"), [(s, e) for s, edges in sorted(BEFORE.items()) for e in sorted(edges)]
)
def test_every_edge_is_written_as_before(session: str, edge: str) -> None:
    assert EDGES[session][edge] == BEFORE[session][edge]


def _played() -> list[tuple[Table, list[Any]]]:
    """Each session's table at its end with the dicts written before of its own
    entries (``*.seating`` of the last edges taken with the whole log)."""
    tables: list[Table] = []
    for play in SESSIONS.values():
        play(keep=tables)
    lasts = {"cash_game": "end.seating", "chip_race": "raced.seating"}
    return [
        (table, json.loads(BEFORE[name][lasts[name]]))
        for table, name in zip(tables, SESSIONS, strict=True)
    ]


PLAYED = _played()


@pytest.mark.parametrize("record", RECORDS, ids=lambda kind: kind.__name__)
def test_each_record_is_the_dict_written_before(record: type[Any]) -> None:
    """Each kind of record, wherever the sessions made one, turns into the dict the
    table wrote there before (compared as JSON text: the keys in the same order)."""
    found = 0
    for table, before in PLAYED:
        entries = table.table_entries(0)
        assert len(entries) == len(before)
        for entry, written in zip(entries, before, strict=True):
            if type(entry) is record:
                assert json.dumps(entry.to_dict()) == json.dumps(written)
                found += 1
    assert found, f"no session made a {record.__name__}"


def test_the_records_know_the_occupancy_of_each_seating() -> None:
    """A join's occupancy is the seat's while it sits (its top-ups carry it) and its
    leave ends that very occupancy, never predicted: bob leaves seat 2 after a hand
    and sits down there again under a new one."""
    table, _ = PLAYED[0]
    entries = table.table_entries(0)
    joins = [(e.seat, e.player, e.occupancy) for e in entries if type(e) is Join]
    leaves = [(e.seat, e.player, e.occupancy) for e in entries if type(e) is Leave]
    assert joins == [(0, "ann", 0), (2, "bob", 1), (4, "cy", 2), (5, "dee", 3), (2, "bob", 4)]
    assert leaves == [(2, "bob", 1), (5, "dee", 3)]
    assert [(e.seat, e.player, e.occupancy) for e in entries if type(e) is TopUp] == [(0, "ann", 0)]
    assert table.occupancy(2) == 4
    ends = [e for e in entries if type(e) is HandEnd]
    assert [e.number for e in ends] == [1, 2, 3, 4]
    assert sum(e.rake for e in ends) == table.rake
    assert [list(e.stacks) for e in ends] == [e.seats for e in entries if type(e) is HandStart]


def test_a_snapshot_gives_its_entries_back_as_stored() -> None:
    """Read back from a snapshot, the entries are the dicts it holds (it holds nothing
    more of them), and what comes after is typed again."""
    table, before = PLAYED[0]
    copy = Table.from_json(table.to_json())
    entries = copy.table_entries(0)
    assert all(type(entry) is Stored for entry in entries)
    assert [entry.to_dict() for entry in entries] == before
    start = copy.log_length
    copy.top_up(2, 10, now=copy.now + 1)
    assert copy.table_entries(start) == [TopUp(2, "bob", 10, 4, copy.now)]


def test_seating_entries_are_the_records_as_dicts() -> None:
    for table, before in PLAYED:
        assert table.seating_entries(0) == [e.to_dict() for e in table.table_entries(0)]
        assert json.dumps(table.seating_entries(0)) == json.dumps(before)


_MOVES = st.lists(
    st.tuples(st.sampled_from(["join", "leave", "top_up", "start", "act"]), st.integers(0, 3)),
    max_size=40,
)


def _move(table: Table, move: str, seat: int, now: float) -> None:
    """One thing a player or the dealer does at ``table``: sit down in ``seat``, leave
    it (after the hand it plays, if it plays one), top it up, start a hand, or make the
    decision of the seat to act (check when free, else call)."""
    if move == "join":
        table.join(seat, f"p{seat}", 500, now=now)
    elif move == "leave":
        table.leave_after_hand(seat, now=now)
    elif move == "top_up":
        table.top_up(seat, 10, now=now)
    elif move == "start":
        table.start_hand(now=now)
    elif table.in_hand:
        to_act, legal = table.to_act, table.legal_actions()
        assert to_act is not None and legal is not None
        table.act(to_act, "check" if legal.can_check else "call", now=now)


@settings(max_examples=80, deadline=None)
@given(_MOVES)
def test_every_leave_ends_the_occupancy_its_seat_had(moves: list[tuple[str, int]]) -> None:
    """Whatever players do, each leave (at once, or after the hand it plays) names the
    occupancy the seat was given when its player sat down and the chips it took, each
    top-up the occupancy it has, and each join a new one; a refused call records
    nothing; the log's dicts are the records'."""
    table = Table(TableConfig(small_blind=5, big_blind=10, seats=4), seed=5)
    sitting: dict[int, int] = {}  # seat -> occupancy, as the joins said
    for number, (move, seat) in enumerate(moves):
        start = table.log_length
        stacks = {s: table.stack(s) for s in sitting}
        try:
            _move(table, move, seat, float(number))
        except TableError:
            assert table.log_length == start  # refused: nothing recorded
            continue
        ended: dict[int, int] = {}  # the stacks a hand that ended in the move left
        for entry in table.table_entries(start):
            if type(entry) is Join:
                assert entry.seat not in sitting
                assert entry.occupancy not in sitting.values()
                sitting[entry.seat] = entry.occupancy
            elif type(entry) is TopUp:
                assert sitting[entry.seat] == entry.occupancy
            elif type(entry) is HandEnd:
                ended = entry.stacks
            elif type(entry) is Leave:
                assert sitting.pop(entry.seat) == entry.occupancy
                assert entry.amount == ended.get(entry.seat, stacks[entry.seat])
    assert sitting == {
        seat: table.occupancy(seat) for seat in range(4) if table.occupancy(seat) is not None
    }
    assert table.seating_entries(0) == [e.to_dict() for e in table.table_entries(0)]
