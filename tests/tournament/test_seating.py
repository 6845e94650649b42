"""Seating, balancing and breaking by the TDA rules (RULES.md TRN-3, TRN-4, TRN-13 to
TRN-15), table-driven over the pure decisions of doubleholdem.tournament.seating."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doubleholdem.tournament import seating


@given(st.integers(2, 400), st.integers(2, 10), st.integers(0, 2**32))
@settings(max_examples=60, deadline=None)
def test_draw_seats_everyone_once_in_tables_of_even_size(
    players: int, seats: int, seed: int
) -> None:
    """TRN-3: ceil(n / seats) tables whose sizes differ by at most one; every player in
    exactly one seat, seats within a table distinct."""
    names = [f"p{n}" for n in range(players)]
    tables = seating.draw(names, seats, random.Random(seed))
    assert len(tables) == -(-players // seats)
    sizes = [len(table) for table in tables]
    assert max(sizes) - min(sizes) <= 1 and max(sizes) <= seats
    seated = [player for table in tables for player in table.values()]
    assert sorted(seated) == sorted(names)
    assert all(0 <= seat < seats for table in tables for seat in table)


def test_draw_is_random_and_reproducible() -> None:
    """TRN-3: the same seed draws the same seats; others draw others."""
    names = [f"p{n}" for n in range(30)]
    first = seating.draw(names, 9, random.Random(1))
    assert seating.draw(names, 9, random.Random(1)) == first
    assert any(seating.draw(names, 9, random.Random(seed)) != first for seed in range(2, 5))


@pytest.mark.parametrize(
    ("counts", "source", "short"),
    [
        ({1: 9, 2: 7, 3: 9}, 1, 2),  # two more than the shortest: give
        ({1: 9, 2: 8, 3: 9}, 1, None),  # one more: balanced enough
        ({1: 8, 2: 6, 3: 6}, 1, 2),  # equal short tables: the lowest numbered
        ({1: 6, 2: 8, 3: 6}, 2, 1),
        ({1: 7, 2: 9}, 1, None),  # the source is the short table itself
        ({4: 9, 7: 5}, 4, 7),
    ],
)
def test_short_table(counts: dict[int, int], source: int, short: int | None) -> None:
    """TRN-13: which table a table whose hand ended gives a player to."""
    assert seating.short_table(counts, source) == short


@pytest.mark.parametrize(
    ("occupied", "last_big", "due"),
    [
        ([0, 1, 3, 4, 6], 4, 6),  # the next occupied seat clockwise
        ([0, 1, 3, 4, 6], 6, 0),  # around the table
        ([2, 5, 8], 8, 2),
        ([2, 5, 8], 3, 5),  # the last big blind's seat is empty now (busted)
    ],
)
def test_next_big_blind(occupied: list[int], last_big: int, due: int) -> None:
    """TRN-13: the player who moves is the one due the big blind next (dead button)."""
    assert seating.next_big_blind(occupied, 9, last_big) == due


@pytest.mark.parametrize(
    ("occupied", "last_big", "worst"),
    [
        ([0, 1, 3, 4, 6], 4, 5),  # right after the big blind: the next big blind
        ([0, 1, 3, 4, 5, 6, 7, 8], 4, 2),  # around to the first open seat
        ([0, 1, 2, 3, 4, 5, 6, 7], 8, 8),  # the last big blind busted: its seat comes last
        ([1, 2, 3], 3, 4),
    ],
)
def test_worst_seat(occupied: list[int], last_big: int, worst: int) -> None:
    """TRN-13: the worst position is the open seat that will be big blind soonest, never
    the small blind (the last big blind's seat, occupied)."""
    assert seating.worst_seat(occupied, 9, last_big=last_big, rng=random.Random(0)) == worst


def test_worst_seat_before_any_hand_is_drawn() -> None:
    """TRN-13: a table that dealt no hand takes the mover in a random open seat."""
    found = {seating.worst_seat([0, 1], 9, last_big=None, rng=random.Random(n)) for n in range(40)}
    assert found <= set(range(2, 9)) and len(found) > 3


@pytest.mark.parametrize(
    ("counts", "seats", "broken"),
    [
        ({1: 5, 2: 4, 3: 4}, 9, 3),  # 13 players fit in two tables of 9
        ({1: 7, 2: 6, 3: 6}, 9, None),  # 19 do not
        ({1: 6, 2: 6, 3: 6}, 9, 3),  # exactly two tables' worth
        ({1: 9}, 9, None),  # the final table never breaks
        ({1: 1, 2: 1}, 2, 2),
        ({2: 5, 5: 5, 9: 3}, 6, None),
        ({2: 3, 5: 2, 9: 2}, 6, 9),  # the highest numbered breaks
    ],
)
def test_table_to_break(counts: dict[int, int], seats: int, broken: int | None) -> None:
    """TRN-14: a table breaks once the players fit in one table fewer."""
    assert seating.table_to_break(counts, seats) == broken


@pytest.mark.parametrize(
    ("counts", "table", "stopped"),
    [
        ({1: 9, 2: 6}, 2, True),  # three short of the fullest
        ({1: 9, 2: 7}, 2, False),
        ({1: 9, 2: 1}, 2, True),  # one player cannot play
        ({1: 2}, 1, False),
    ],
)
def test_halted(counts: dict[int, int], table: int, stopped: bool) -> None:
    """TRN-15: a table three or more players short, or alone, starts no hand."""
    assert seating.halted(counts[table], max(counts.values())) is stopped


def test_arrivals_fill_the_tables_with_the_fewest_players() -> None:
    """TRN-4, TRN-14: each arrival takes a random open seat at a table with the fewest
    players; with none open, table -1 (the caller opens one)."""
    occupied = {1: [0, 1, 2, 3, 4], 2: [0, 1, 2], 3: [0, 1, 2, 3]}
    placed = seating.place_arrivals(["a", "b", "c"], occupied, 9, random.Random(3))
    tables = [table for _, table, _ in placed]
    assert tables.count(2) == 2 and tables.count(3) == 1
    seats = [(table, seat) for _, table, seat in placed]
    assert len(set(seats)) == 3 and all(seat not in occupied[t] for t, seat in seats)
    full = {1: list(range(9))}
    assert seating.place_arrivals(["z"], full, 9, random.Random(1)) == [("z", -1, -1)]
