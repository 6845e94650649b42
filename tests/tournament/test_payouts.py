"""Payouts, prizes and places (RULES.md TRN-17 to TRN-19)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doubleholdem.errors import InvalidConfig
from doubleholdem.tournament.payouts import DEFAULT_PAYOUTS, PayoutTable, prizes, split_tie
from doubleholdem.tournament.places import award, rank_eliminations


@pytest.mark.parametrize(
    ("entries", "shares"),
    [(2, (100,)), (4, (100,)), (5, (65, 35)), (7, (65, 35)), (8, (50, 30, 20)), (10, (50, 30, 20))],
)
def test_default_table_for_small_fields(entries: int, shares: tuple[int, ...]) -> None:
    """TRN-18: the documented default for 2 to 10 entries."""
    assert DEFAULT_PAYOUTS.shares(entries) == shares


@pytest.mark.parametrize(
    ("entries", "paid"), [(11, 2), (20, 3), (100, 15), (1000, 150), (1001, 151)]
)
def test_default_table_pays_fifteen_percent_by_one_over_place(entries: int, paid: int) -> None:
    """TRN-18: from 11 entries, ceil(15%) places in proportion to 1 / place."""
    shares = DEFAULT_PAYOUTS.shares(entries)
    assert len(shares) == paid
    assert all(shares[0] // (place + 1) - shares[place] in (0, 1) for place in range(paid))


@given(st.integers(0, 10**13), st.integers(2, 5000))
@settings(max_examples=200, deadline=None)
def test_prizes_are_whole_and_add_up_to_the_pool(pool: int, entries: int) -> None:
    """TRN-19: whole chips summing to the pool exactly, never rising down the places,
    each within one chip of its exact share."""
    shares = DEFAULT_PAYOUTS.shares(entries)
    paid = prizes(pool, shares)
    assert sum(paid) == pool
    assert all(a >= b for a, b in zip(paid, paid[1:]))
    total = sum(shares)
    assert all(-total < prize * total - pool * share <= total for prize, share in zip(paid, shares))


def test_odd_chips_go_to_the_first_places() -> None:
    """TRN-19: what floor() leaves goes one chip each from the first place."""
    assert prizes(10, (1, 1, 1)) == (4, 3, 3)
    assert prizes(11, (1, 1, 1)) == (4, 4, 3)
    assert prizes(0, (50, 30, 20)) == (0, 0, 0)


def test_custom_tables() -> None:
    """TRN-18: bands of entries, each with its own shares; the last band beyond."""
    table = PayoutTable(((6, (70, 30)), (20, (50, 30, 20))))
    assert PayoutTable(((6, (50, 30, 20)),)).shares(2) == (50, 30)  # no more than entries
    assert table.shares(6) == (70, 30) and table.shares(7) == (50, 30, 20)
    assert table.shares(500) == (50, 30, 20)
    assert PayoutTable.from_dict(table.to_dict()) == table


@pytest.mark.parametrize(
    "bands",
    [
        (),
        ((6, (30, 70)),),
        ((6, (0,)),),
        ((6, (50,)), (5, (50,))),
        ((2, (50, 30, 20)),),
        ((6, ("1",)),),
    ],
)
def test_bad_tables_are_refused(bands: tuple) -> None:  # type: ignore[type-arg]
    """A table that cannot pay (rising shares, zero, falling bands, more places than
    entries, not numbers) is refused with InvalidConfig."""
    with pytest.raises(InvalidConfig):
        PayoutTable(bands)


def test_bad_pools_and_entries_are_refused() -> None:
    with pytest.raises(InvalidConfig):
        prizes(-1, (1,))
    with pytest.raises(InvalidConfig):
        DEFAULT_PAYOUTS.shares(1)


@pytest.mark.parametrize(
    ("eliminated", "remaining", "expected"),
    [
        # one elimination: the last place of those still in
        ([(4, 500)], 9, [(4, 9, (9,))]),
        # same hand: more chips at its start finishes higher
        ([(1, 300), (2, 800), (3, 500)], 10, [(2, 8, (8,)), (3, 9, (9,)), (1, 10, (10,))]),
        # equal chips tie: the best of their places, sharing both
        ([(1, 300), (2, 300)], 5, [(1, 4, (4, 5)), (2, 4, (4, 5))]),
        ([(7, 100), (8, 900), (9, 100)], 3, [(8, 1, (1,)), (7, 2, (2, 3)), (9, 2, (2, 3))]),
    ],
)
def test_same_hand_eliminations(
    eliminated: list[tuple[int, int]],
    remaining: int,
    expected: list[tuple[int, int, tuple[int, ...]]],
) -> None:
    """TRN-17: players out on the same hand ranked by their chips at its start."""
    assert rank_eliminations(eliminated, remaining) == expected


def test_tied_places_split_their_prizes() -> None:
    """TRN-19: a tie splits the sum of its places' prizes, odd chips to the first
    in order of entry."""
    placings = rank_eliminations([(5, 200), (6, 200)], 3)  # they share places 2 and 3
    won = award(placings, (60, 25, 10))
    assert won == {5: 18, 6: 17}
    assert split_tie((7, 0), 2) == (4, 3)
    assert award(rank_eliminations([(1, 50)], 9), (60, 25, 10)) == {1: 0}  # out of the money


def test_ties_across_tables_share_in_order_of_entry() -> None:
    """TRN-19 with TRN-16: entries tied in one hand-for-hand hand, whatever the tables'
    order, split their places' prizes with the odd chip to the first entry."""
    placings = rank_eliminations(sorted([(9, 400), (2, 400)]), 3)
    assert [entry for entry, _, _ in placings] == [2, 9]
    assert award(placings, (10, 4, 3)) == {2: 4, 9: 3}
