"""Seating, balancing and breaking by the TDA rules (RULES.md TRN-3, TRN-4, TRN-13 to
TRN-15), as pure decisions: the numbers of players at each table (and the seats in
use) in, the decision out; randomness comes from the ``rng`` handed in.

>>> import random
>>> tables = draw(["a", "b", "c", "d", "e"], 3, random.Random(1))
>>> sorted(len(table) for table in tables)
[2, 3]
>>> short_table({1: 9, 2: 7, 3: 9}, 1), short_table({1: 9, 2: 8}, 1)
(2, None)
>>> table_to_break({1: 5, 2: 4, 3: 4}, 9), table_to_break({1: 7, 2: 6, 3: 6}, 9)
(3, None)
>>> worst_seat([0, 1, 3, 4, 6], 9, last_big=4, rng=random.Random(1))
5
>>> next_big_blind([0, 1, 3, 4, 6], 9, last_big=4)
6
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

__all__ = [
    "Sizes",
    "draw",
    "halted",
    "next_big_blind",
    "place_arrivals",
    "short_table",
    "table_to_break",
    "worst_seat",
]


def draw(players: Sequence[str], seats: int, rng: random.Random) -> list[dict[int, str]]:
    """TRN-3: the start's draw. The players, shuffled, are dealt in turn to
    ceil(players / seats) tables (sizes differ by at most one), each into a seat drawn
    at random; returns each table's ``{seat: player}``."""
    count = -(-len(players) // seats)
    shuffled = list(players)
    rng.shuffle(shuffled)
    tables = []
    for number in range(count):
        group = shuffled[number::count]
        chosen = rng.sample(range(seats), len(group))
        tables.append(dict(zip(chosen, group)))
    return tables


def short_table(counts: Mapping[int, int], source: int) -> int | None:
    """TRN-13: the table that ``source`` (where a hand just ended) gives a player to:
    the lowest numbered of those with the fewest players, if ``source`` has at least two
    more; else ``None``."""
    fewest = min(counts.values())
    if counts[source] - fewest < 2:
        return None
    return min(number for number, count in counts.items() if count == fewest)


def next_big_blind(occupied: Sequence[int], seats: int, last_big: int) -> int:
    """TRN-13: the player who would be big blind next at a dead-button table (TH-38):
    the first occupied seat clockwise after the last big blind."""
    taken = set(occupied)
    for step in range(1, seats + 1):
        seat = (last_big + step) % seats
        if seat in taken:
            return seat
    raise ValueError("no occupied seat")


def worst_seat(
    occupied: Sequence[int], seats: int, *, last_big: int | None, rng: random.Random
) -> int:
    """TRN-13: the worst position among the open seats of a table whose last big blind
    was ``last_big``: the first open seat clockwise after it, the one that will be big
    blind soonest (never the small blind, which the last big blind's seat becomes). A
    table that has not dealt a hand (``last_big`` ``None``) gives a seat drawn at random."""
    taken = set(occupied)
    open_seats = [seat for seat in range(seats) if seat not in taken]
    if not open_seats:
        raise ValueError("no open seat")
    if last_big is None:
        return rng.choice(open_seats)
    for step in range(1, seats + 1):
        seat = (last_big + step) % seats
        if seat not in taken:
            return seat
    raise AssertionError("unreachable")


def table_to_break(counts: Mapping[int, int], seats: int) -> int | None:
    """TRN-14: the table to break once the players left fit in one table fewer (the
    highest numbered), else ``None``."""
    if len(counts) < 2 or sum(counts.values()) > seats * (len(counts) - 1):
        return None
    return max(counts)


def place_arrivals(
    players: Sequence[str],
    occupied: Mapping[int, Iterable[int]],
    seats: int,
    rng: random.Random,
) -> list[tuple[str, int, int]]:
    """TRN-4, TRN-14: seats ``players`` (late entries, or a broken table's players) by
    random draw at the tables of ``occupied`` (table number: seats in use): in random
    order, each takes a random open seat at a random table among those with the fewest
    players. Returns ``(player, table, seat)`` for each; a player for whom no seat is
    open anywhere gets table ``-1`` (the caller opens a table)."""
    taken = {number: set(used) for number, used in occupied.items()}
    order = list(players)
    rng.shuffle(order)
    placed = []
    for player in order:
        open_tables = [n for n, used in taken.items() if len(used) < seats]
        if not open_tables:
            placed.append((player, -1, -1))
            continue
        fewest = min(len(taken[n]) for n in open_tables)
        table = rng.choice(sorted(n for n in open_tables if len(taken[n]) == fewest))
        seat = rng.choice([s for s in range(seats) if s not in taken[table]])
        taken[table].add(seat)
        placed.append((player, table, seat))
    return placed


def halted(count: int, fullest: int) -> bool:
    """TRN-15: a table of ``count`` players starts no hand while it has three or more
    players fewer than the fullest table (``fullest`` players), or fewer than two."""
    return count < 2 or fullest - count >= 3


class Sizes:
    """How many tables have each number of players, kept as players come and go, so
    that the fullest and the shortest table and the players in all are known at once,
    whatever the number of tables.

    >>> sizes = Sizes([9, 8, 9])
    >>> sizes.resized(9, 7); sizes.fullest(), sizes.fewest(), sizes.players()
    (9, 7, 24)
    """

    __slots__ = ("counts",)

    def __init__(self, sizes: Iterable[int] = ()) -> None:
        self.counts = Counter(sizes)

    def resized(self, before: int | None, after: int | None) -> None:
        """A table went from ``before`` players to ``after`` (``None``: it was opened,
        or it is gone)."""
        counts = self.counts
        if before is not None:
            counts[before] -= 1
            if not counts[before]:
                del counts[before]
        if after is not None:
            counts[after] += 1

    def fullest(self) -> int:
        return max(self.counts, default=0)

    def fewest(self) -> int:
        return min(self.counts, default=0)

    def players(self) -> int:
        return sum(size * tables for size, tables in self.counts.items())
