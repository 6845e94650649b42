"""Rebuys and add-ons (RULES.md TRN-6): what a player buys during a tournament, checked
against its rules; the :class:`~doubleholdem.tournament.Tournament` methods ``rebuy``
and ``add_on`` are these. A refusal raises :class:`~doubleholdem.errors.RebuyRefused`
and changes nothing."""

from __future__ import annotations

from collections.abc import Collection
from typing import Protocol

from doubleholdem.errors import RebuyRefused
from doubleholdem.table.table import Table
from doubleholdem.tournament.config import TournamentConfig
from doubleholdem.tournament.records import Entry

__all__ = ["Tournament", "add_on", "rebuy"]


class Tournament(Protocol):
    """What a purchase reads and changes of a
    :class:`~doubleholdem.tournament.Tournament`."""

    config: TournamentConfig
    state: str
    tables: dict[int, Table]
    pending: list[list[tuple[int, int]]]
    pool: int
    issued: int
    touched: set[int]

    def current_level(self, now: float = 0.0) -> int: ...

    def entries_of(self, player: str) -> list[Entry]: ...

    def _seat_arrivals(
        self, entries: list[int], stacks: dict[int, int], absent: Collection[int] = ()
    ) -> list[tuple[int, int, int]]: ...


def rebuy(t: Tournament, player: str, now: float) -> None:
    """``player`` buys a rebuy: between its hands with at most the threshold, or just
    busted (then seated again by draw)."""
    entry, rules = _live_entry(t, player), t.config.rebuys
    if rules is None or t.current_level(now) >= rules.until_level:
        raise RebuyRefused("no rebuys now", player=player)
    if rules.most is not None and entry.rebuys >= rules.most:
        raise RebuyRefused(f"{player} has had its {rules.most} rebuys", player=player)
    limit = t.config.starting_stack if rules.threshold is None else rules.threshold
    busted = _pending_index(t, entry.number)
    if busted is None:
        table = _idle_table(t, entry)
        stack = table.stack(entry.seat)  # type: ignore[arg-type]
        if stack > limit:
            raise RebuyRefused(f"{player} has {stack} chips, more than {limit}", player=player)
        table.top_up(entry.seat, rules.chips)  # type: ignore[arg-type]
        t.touched.add(entry.table)  # type: ignore[arg-type]
    else:
        t.pending[busted] = [(e, c) for e, c in t.pending[busted] if e != entry.number]
        t._seat_arrivals([entry.number], {entry.number: rules.chips})
    entry.rebuys += 1
    t.pool += rules.price
    t.issued += rules.chips


def add_on(t: Tournament, player: str, now: float) -> None:
    """``player`` buys its one add-on, between its hands, during the level after the
    rebuy period."""
    entry, rules = _live_entry(t, player), t.config.rebuys
    level = t.current_level(now)
    if rules is None or not rules.add_on_chips or level != rules.until_level:
        raise RebuyRefused("no add-ons now", player=player)
    if entry.add_on:
        raise RebuyRefused(f"{player} has had its add-on", player=player)
    if _pending_index(t, entry.number) is not None:
        raise RebuyRefused(f"{player} has no chips: rebuy instead", player=player)
    table = _idle_table(t, entry)
    table.top_up(entry.seat, rules.add_on_chips)  # type: ignore[arg-type]
    t.touched.add(entry.table)  # type: ignore[arg-type]
    entry.add_on = True
    t.pool += rules.add_on_price
    t.issued += rules.add_on_chips


def _live_entry(t: Tournament, player: str) -> Entry:
    own = t.entries_of(player)
    if own and own[-1].place is None and t.state == "running":
        return own[-1]
    raise RebuyRefused(f"{player} has no entry in play", player=player)


def _idle_table(t: Tournament, entry: Entry) -> Table:
    table = t.tables[entry.table]  # type: ignore[index]
    if table.in_hand and entry.seat in table.dealt:
        raise RebuyRefused(f"{entry.player} is in a hand", player=entry.player)
    return table


def _pending_index(t: Tournament, entry: int) -> int | None:
    for index, group in enumerate(t.pending):
        if any(e == entry for e, _ in group):
            return index
    return None
