"""Scripted table sessions that make every kind of table entry, and what a table shows of
them at its edges (the event log, its JSON, each seat's view, the released history, the
snapshot): ``tests/table/data/entries_before.json`` holds these edges as the table wrote
them before its entries were typed records (at a7926d0), and ``tests/table/test_entries.py`` checks
that the table writes them byte for byte the same.

Run as a script to write that file again (only with the code of before):
``python3 tests/entries_session.py tests/table/data/entries_before.json``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from doubleholdem.game import Rake
from doubleholdem.table import Table, TableConfig

Edges = dict[str, Any]


def _finish(table: Table, now: float) -> float:
    """Everyone checks when free, else calls (point card 0), a second apart."""
    while table.in_hand:
        seat = table.to_act
        assert seat is not None
        now += 1.0
        if table.decision == "point":
            table.choose_point(seat, 0, now=now)
            continue
        legal = table.legal_actions()
        assert legal is not None
        table.act(seat, "check" if legal.can_check else "call", now=now)
    return now


def _edges(table: Table, edges: Edges, name: str) -> None:
    """What ``table`` shows now at each edge, under ``name``."""
    edges[f"{name}.log_json"] = table.log_json()
    edges[f"{name}.everything"] = json.dumps(table.event_log(everything=True))
    for seat in [None, *range(table.config.seats)]:
        edges[f"{name}.seen_by.{seat}"] = json.dumps(table.event_log(seat))
    edges[f"{name}.seating"] = json.dumps(table.seating_entries(0))
    edges[f"{name}.snapshot"] = table.to_json()
    edges[f"{name}.restored"] = Table.from_json(table.to_json()).to_json()


def cash_game(keep: list[Table] | None = None) -> Edges:
    """Joins (one waiting for the big blind), top-ups, a sit-out and sit-ins both ways,
    missed blinds, a leave at once and one after the hand (leaving), a time bank, a timeout, a
    hand with rake, a player coming back owing blinds, and the history released (or
    the table put in ``keep``, if given, with its whole log)."""
    rake = Rake(basis_points=500, cap=30, no_flop_no_drop=False)
    config = TableConfig(small_blind=5, big_blind=10, seats=6, rake=rake, action_time=10.0,
                         time_bank=20.0, point_time=5.0, variant="double")  # fmt: skip
    table = Table(config, seed=7)
    edges: Edges = {}
    table.join(0, "ann", 1000, now=0.0)
    table.join(2, "bob", 500, now=0.5)
    table.join(4, "cy", 800, wait_for_big_blind=True, now=1.0)
    table.start_hand(now=2.0)
    now = _finish(table, 2.0)
    table.top_up(0, 10, now=now + 1)
    table.sit_out(4, now=now + 2)
    table.start_hand(now=now + 3)
    _edges(table, edges, "in_hand")  # mid-hand: the older hand written out in the snapshot
    table.leave_after_hand(2, now=now + 3.5)  # bob plays on by his deadlines
    deadline = table.deadline
    assert deadline is not None
    table.advance(deadline + 0.5)  # the time bank
    bank = table.deadline
    assert bank is not None
    table.advance(bank + 0.5)  # the timeout
    now = _finish(table, bank + 1.0)
    table.sit_in(4, wait_for_big_blind=False, now=now + 1)
    table.join(5, "dee", 400, now=now + 2)
    table.start_hand(now=now + 3)
    now = _finish(table, now + 3)
    _edges(table, edges, "between")
    table.leave(5, now=now + 1)
    table.join(2, "bob", 600, now=now + 2)  # owes what it missed (TH-37)
    table.sit_out(0, now=now + 3)
    table.sit_in(0, wait_for_big_blind=True, now=now + 4)
    table.start_hand(now=now + 5)
    now = _finish(table, now + 5)
    _edges(table, edges, "end")
    if keep is not None:  # the table with its whole log, kept instead of released
        keep.append(table)
        return edges
    edges["released"] = json.dumps(table.release_history())
    edges["after_release"] = table.to_json()
    return edges


def chip_race(keep: list[Table] | None = None) -> Edges:
    """A tournament's colour-up: chip races both ways, and a keyed snapshot. The
    table goes to ``keep`` if given."""
    config = TableConfig(small_blind=5, big_blind=10, seats=3, new_player_posts=False)
    table = Table(config, seed=3)
    table.join(0, "ann", 1000, now=0.0)
    table.join(1, "bob", 1000, now=0.0)
    table.join(2, "cy", 1000, now=0.0)
    table.adjust_stack(0, 15, now=1.0)
    table.adjust_stack(1, -5, now=1.0)
    table.start_hand(now=2.0)
    _finish(table, 2.0)
    edges: Edges = {}
    _edges(table, edges, "raced")
    edges["keyed"] = table.to_json(b"secret")
    if keep is not None:
        keep.append(table)
    return edges


SESSIONS: dict[str, Callable[..., Edges]] = {"cash_game": cash_game, "chip_race": chip_race}


def all_edges() -> dict[str, Edges]:
    return {name: play() for name, play in SESSIONS.items()}


if __name__ == "__main__":
    with open(sys.argv[1], "w") as out:
        json.dump(all_edges(), out, indent=1, sort_keys=True)
        out.write("\n")
