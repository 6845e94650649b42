"""Places and their prizes (RULES.md TRN-17, TRN-19, TRN-20): the entries eliminated by one
hand ranked by the chips they started it with, ties sharing their places' prizes; a
tournament's entries placed (:func:`place`) and its winner (:func:`won_by_one`).

>>> rank_eliminations([(0, 300), (1, 500), (2, 300)], remaining=7)
[(1, 5, (5,)), (0, 6, (6, 7)), (2, 6, (6, 7))]
>>> award([(1, 5, (5,)), (0, 6, (6, 7)), (2, 6, (6, 7))], [50, 30, 20, 10, 9, 8, 5])
{1: 9, 0: 7, 2: 6}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from doubleholdem.tournament.payouts import split_tie
from doubleholdem.tournament.records import Entry, Placement

__all__ = [
    "Placing",
    "Tournament",
    "award",
    "final_places",
    "place",
    "rank_at_table",
    "rank_eliminations",
    "won_by_one",
]

Placing = tuple[int, int, tuple[int, ...]]
"""An entry (its number), the place it takes, and every place its tie shares (its own
alone if none)."""


def rank_eliminations(eliminated: Sequence[tuple[int, int]], remaining: int) -> list[Placing]:
    """TRN-17: the places of the entries ``eliminated`` by one hand (each with the chips
    it started the hand with, in order of entry) when ``remaining`` entries were still in
    before it: places ``remaining`` down to ``remaining - len + 1``, more chips higher;
    equal chips tie, each taking the best of their places."""
    ranked = sorted(eliminated, key=lambda item: -item[1])  # stable: order of entry kept
    placings: list[Placing] = []
    place = remaining - len(eliminated) + 1
    index = 0
    while index < len(ranked):
        chips = ranked[index][1]
        tied = [entry for entry, start in ranked[index:] if start == chips]
        shared = tuple(range(place, place + len(tied)))
        placings.extend((entry, place, shared) for entry in tied)
        place += len(tied)
        index += len(tied)
    return placings


def rank_at_table(busted: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """TRN-17 in hand-for-hand: the entries ``busted`` in one table's hand (each with
    the chips it started it with), each with the key that ranks it against the round's
    eliminations at every table: minus the number of larger stacks busted beside it.
    The most chips at each table rank first, those of the same rank at different tables
    tie (the TDA's simultaneous eliminations), equal chips at one table tie.

    >>> rank_at_table([(4, 300), (6, 900), (7, 300)])
    [(4, -1), (6, 0), (7, -1)]
    """
    stacks = sorted({chips for _, chips in busted}, reverse=True)
    return [(entry, -stacks.index(chips)) for entry, chips in busted]


def award(placings: Sequence[Placing], prizes: Sequence[int]) -> dict[int, int]:
    """TRN-19: each placed entry's prize (``prizes[i]`` is place i + 1's; places past
    them pay nothing); tied entries split their places' prizes equally, the odd chips
    one each to the first of them in order of entry."""
    ties: dict[tuple[int, ...], list[int]] = {}
    for entry, _, shared in placings:
        ties.setdefault(shared, []).append(entry)
    won: dict[int, int] = {}
    for shared, tied in ties.items():
        amounts = [prizes[p - 1] if p <= len(prizes) else 0 for p in shared]
        won.update(zip(tied, split_tie(amounts, len(tied))))
    return won


def final_places(placings: Sequence[Placing], entrants: Sequence[int], total: int) -> list[Placing]:
    """TRN-17 counts every entry at the end: a placing made when there were
    ``entrants[i]`` entries moves down by the ``total - entrants[i]`` that came after it.

    >>> final_places([(3, 5, (5,)), (4, 6, (6,))], [5, 7], 7)  # two came late
    [(3, 7, (7,)), (4, 6, (6,))]
    """
    moved = []
    for (entry, place, shared), then in zip(placings, entrants):
        shift = total - then
        moved.append((entry, place + shift, tuple(p + shift for p in shared)))
    return moved


class Tournament(Protocol):
    """What placing reads and changes of a :class:`~doubleholdem.tournament.Tournament`."""

    entries: list[Entry]
    remaining: int
    placings: list[Placing]
    entrants_then: list[int]
    pending: list[list[tuple[int, int]]]
    round_out: list[tuple[int, int]]

    def prizes(self) -> tuple[int, ...]: ...


def place(t: Tournament, group: list[tuple[int, int]]) -> list[Placement]:
    """TRN-17: the entries of one hand's eliminations (each with the chips it started the
    hand with) take their places."""
    placings = rank_eliminations(sorted(group), t.remaining)  # ties: order of entry
    t.remaining -= len(group)
    t.placings.extend(placings)
    t.entrants_then.extend(len(t.entries) for _ in placings)
    placed = []
    for entry, at, shared in placings:
        record = t.entries[entry]
        record.place, record.shared = at, shared
        placed.append(Placement(entry, record.player, at, shared))
    return placed


def won_by_one(t: Tournament) -> list[Placement]:
    """TRN-20: with one entry left with chips and nothing pending, it wins: it is placed,
    the places are counted over every entry (TRN-17) and each entry's prize noted
    (TRN-19); the winner's placement, or nothing while play goes on (the tournament
    then ends)."""
    if t.remaining != 1 or any(t.pending) or t.round_out:
        return []
    (winner,) = [e for e in t.entries if e.place is None]
    placed = place(t, [(winner.number, 0)])
    total = len(t.entries)
    t.placings = final_places(t.placings, t.entrants_then, total)
    t.entrants_then = [total] * len(t.placings)
    for entry, at, shared in t.placings:
        t.entries[entry].place, t.entries[entry].shared = at, shared
    won = award(t.placings, t.prizes())
    for record in t.entries:
        record.prize = won.get(record.number, 0)
    return placed
