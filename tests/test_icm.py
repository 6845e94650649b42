"""The Independent Chip Model (doubleholdem.icm): the exact recursion against pokerkit's
``calculate_icm`` and a brute force of finishing orders, the quadrature against the
exact method and against Monte Carlo beyond it, Monte Carlo within its standard error,
properties (symmetry, sums, monotone in stack), the rules of the input, deals and the
value of calling an all-in."""

from __future__ import annotations

import math
import random
import signal
import subprocess
import sys
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import calculate_icm

from doubleholdem.errors import InvalidICM
from doubleholdem.icm import allin, chip_chop, choose_method, equities, icm_deal, places
from doubleholdem.icm.model import EXACT_STEPS, FRACTION_STEPS


def orders(stacks: list[int], payouts: list[int]) -> list[Fraction]:
    """Brute force: every ordering of the paid places, each with its Malmuth-Harville
    probability, in exact fractions."""
    equity = [Fraction(0)] * len(stacks)
    for order in permutations(range(len(stacks)), len(payouts)):
        p, left = Fraction(1), sum(stacks)
        for i in order:
            p *= Fraction(stacks[i], left)
            left -= stacks[i]
        for i, pay in zip(order, payouts):
            equity[i] += p * pay
    return equity


def field(rng: random.Random, n: int, paid: int, top: int = 10_000) -> tuple[list[int], list[int]]:
    stacks = [rng.randint(1, top) for _ in range(n)]
    payouts = sorted((rng.randint(0, 1000) for _ in range(paid)), reverse=True)
    return stacks, payouts


# The exact recursion


@pytest.mark.parametrize("seed", range(40))
def test_exact_matches_pokerkit_and_the_orders(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(2, 7)
    stacks, payouts = field(rng, n, rng.randint(1, n))
    pool = max(sum(payouts), 1)
    ours = equities(stacks, payouts, "exact")
    theirs = calculate_icm(payouts, stacks)
    truth = orders(stacks, payouts)
    for i in range(n):
        assert abs(ours[i] - theirs[i]) <= 1e-12 * pool
        assert abs(ours[i] - float(truth[i])) <= 1e-12 * pool
    assert equities(stacks, payouts, "fractions").fractions == tuple(truth)


def test_pokerkits_documented_examples() -> None:
    for payouts, chips in [
        ([70, 30], [50, 30, 20]),
        ([50, 30, 20], [25, 87, 88]),
        ([50, 30, 20], [198, 1, 1]),
    ]:
        ours = equities(chips, payouts)
        assert ours.values == pytest.approx(calculate_icm(payouts, chips), abs=1e-12)


def test_twenty_players_all_paid_exactly() -> None:
    rng = random.Random(20)
    stacks, payouts = field(rng, 20, 20)
    r = equities(stacks, payouts)
    assert r.method == "exact" and r.error == 0
    assert math.fsum(r) == pytest.approx(sum(payouts), abs=1e-9)


def test_places_are_distributions_and_first_place_goes_by_chips() -> None:
    stacks = [5, 1, 7, 3, 2]
    table = places(stacks)
    for i, row in enumerate(table):
        assert math.fsum(row) == pytest.approx(1, abs=1e-14)
        assert row[0] == pytest.approx(stacks[i] / sum(stacks), abs=1e-15)
    for k in range(5):
        assert math.fsum(row[k] for row in table) == pytest.approx(1, abs=1e-14)
    truth = orders(stacks, [1, 0, 0, 0, 0])
    assert [row[0] for row in table] == pytest.approx([float(t) for t in truth], abs=1e-15)
    assert places(stacks, 2) == [row[:2] for row in table]


# The quadrature


@pytest.mark.parametrize("seed", range(30))
def test_quadrature_matches_exact(seed: int) -> None:
    rng = random.Random(100 + seed)
    n = rng.randint(2, 18)
    top = rng.choice([10, 10_000, 2**40])
    stacks, payouts = field(rng, n, rng.randint(1, n), top)
    pool = max(sum(payouts), 1)
    quad = equities(stacks, payouts, "quadrature")
    exact = equities(stacks, payouts, "exact")
    assert max(abs(a - b) for a, b in zip(quad, exact)) <= 1e-12 * pool
    assert quad.error <= 1e-9 * pool


def test_quadrature_against_monte_carlo_beyond_the_exact_method() -> None:
    rng = random.Random(7)
    stacks, _ = field(rng, 300, 0)
    payouts = [round(100_000 / (k + 1)) for k in range(40)]
    assert choose_method(300, 40)[0] == "quadrature"
    quad = equities(stacks, payouts)
    assert quad.method == "quadrature" and quad.error < 1e-9 * sum(payouts)
    mc = equities(stacks, payouts, "montecarlo", samples=200_000, seed=3, threads=1)
    assert mc.stderr is not None
    z = [(a - b) / s for a, b, s in zip(quad, mc, mc.stderr)]
    assert max(abs(x) for x in z) < 5
    # The sum of squares of 300 standard normals is near 300.
    assert 200 < sum(x * x for x in z) < 420


def test_quadrature_on_a_large_field_of_equal_stacks() -> None:
    """Equal stacks have a known exact answer at any size: the pool shared equally."""
    payouts = [round(1e6 / (k + 1) ** 1.1) for k in range(700)]
    r = equities([1234] * 5000, payouts)
    assert r.method == "quadrature"
    share = sum(payouts) / 5000
    assert max(abs(e - share) for e in r) <= 1e-12 * sum(payouts)


def test_large_fields_sum_to_the_pool() -> None:
    rng = random.Random(8)
    stacks, _ = field(rng, 2000, 0)
    payouts = [round(1e6 / (k + 1) ** 1.1) for k in range(300)]
    r = equities(stacks, payouts)
    assert math.fsum(r) == pytest.approx(sum(payouts), rel=1e-12)
    assert r.error < 1e-9 * sum(payouts)


CHILD = """
import sys
from doubleholdem.icm import equities

def progress(done, total):
    print("working", flush=True)

try:
    equities(list(range(1, 40_001)), list(range(8_000, 0, -1)), progress=progress)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(130)
"""


def test_ctrl_c_stops_a_long_quadrature() -> None:
    """Long work reports progress and stops on Ctrl-C: the signal is sent once the first
    report came (an event, not a time)."""
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdout.readline() == "working\n"
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=120)
    assert child.returncode == 130 and out.endswith("interrupted\n")


# Monte Carlo


def test_monte_carlo_within_its_standard_error_and_seeded() -> None:
    stacks, payouts = [30, 10, 25, 5, 18, 12], [50, 30, 20]
    exact = equities(stacks, payouts)
    mc = equities(stacks, payouts, "montecarlo", samples=100_000, seed=11)
    assert mc.stderr is not None and all(0 < s < 0.2 for s in mc.stderr)
    assert all(abs(a - b) < 5 * s for a, b, s in zip(mc, exact, mc.stderr))
    again = equities(stacks, payouts, samples=100_000, seed=11, threads=1)
    assert again.values == mc.values and again.method == "montecarlo"
    assert "seed 11" in mc.reason


# Properties


stack_lists = st.lists(st.integers(1, 10**6), min_size=1, max_size=9)


@st.composite
def fields(draw: st.DrawFn) -> tuple[list[int], list[int]]:
    stacks = draw(stack_lists)
    paid = draw(st.integers(0, len(stacks)))
    payouts = sorted(
        draw(st.lists(st.integers(0, 10**6), min_size=paid, max_size=paid)), reverse=True
    )
    return stacks, payouts


@given(fields(), st.randoms(use_true_random=False))
@settings(max_examples=150, deadline=None)
def test_symmetric_in_the_players(f: tuple[list[int], list[int]], rng: random.Random) -> None:
    stacks, payouts = f
    order = list(range(len(stacks)))
    rng.shuffle(order)
    r = equities(stacks, payouts)
    s = equities([stacks[i] for i in order], payouts)
    assert list(s) == pytest.approx([r[i] for i in order], abs=1e-9 * max(1, sum(payouts)))


@given(fields())
@settings(max_examples=150, deadline=None)
def test_sums_to_the_pool(f: tuple[list[int], list[int]]) -> None:
    stacks, payouts = f
    for method in ("exact", "quadrature"):
        r = equities(stacks, payouts, method)
        assert math.fsum(r) == pytest.approx(sum(payouts), abs=1e-9 * max(1, sum(payouts)))


@given(fields())
@settings(max_examples=150, deadline=None)
def test_monotone_in_stack_and_equal_stacks_equal(f: tuple[list[int], list[int]]) -> None:
    stacks, payouts = f
    stacks = [*stacks, stacks[0]]  # a tie, for equal stacks
    payouts = payouts[: len(stacks)]
    for method in ("exact", "quadrature"):
        r = equities(stacks, payouts, method)
        tol = 1e-9 * max(1, sum(payouts))
        for i in range(len(stacks)):
            for j in range(len(stacks)):
                if stacks[i] > stacks[j]:
                    assert r[i] >= r[j] - tol
                elif stacks[i] == stacks[j]:
                    assert r[i] == r[j]  # bit for bit


@given(fields())
@settings(max_examples=60, deadline=None)
def test_fractions_are_the_exact_values(f: tuple[list[int], list[int]]) -> None:
    stacks, payouts = f
    stacks, payouts = stacks[:6], payouts[:6]
    exact = equities(stacks, payouts, "fractions")
    assert exact.fractions is not None and sum(exact.fractions) == sum(payouts)
    assert list(equities(stacks, payouts, "exact")) == pytest.approx(
        [float(x) for x in exact.fractions], abs=1e-12 * max(1, sum(payouts))
    )


# The rules of the input


def test_zero_stacks_share_the_places_after_the_players_with_chips() -> None:
    r = equities([0, 300, 0, 100], [500, 300, 150, 50], "fractions")
    assert r.fractions is not None
    assert r.fractions[0] == r.fractions[2] == Fraction(100)
    live = equities([300, 100], [500, 300], "fractions").fractions
    assert live is not None and (r.fractions[1], r.fractions[3]) == live
    assert list(equities([0, 7], [10])) == [0.0, 10.0]
    assert list(equities([5], [9])) == [9.0]
    assert list(equities([5, 6], [])) == [0.0, 0.0]


def test_the_method_is_chosen_by_size() -> None:
    assert choose_method(20, 20)[0] == "exact"
    assert choose_method(21, 21)[0] == "quadrature"
    assert choose_method(60, 3)[0] == "exact"  # few places: few subsets
    assert choose_method(100, 3)[0] == "quadrature"
    r = equities([1] * 21, list(range(21, 0, -1)))
    assert r.method == "quadrature"
    assert r.reason == f"the exact recursion would take 22,020,096 steps, more than {EXACT_STEPS:,}"
    assert equities([1] * 20, list(range(20, 0, -1))).method == "exact"
    assert equities([1, 2], [1], "quadrature").reason == "method='quadrature' asked for"


@pytest.mark.parametrize(
    ("stacks", "payouts", "field_name", "index"),
    [
        ([100, -5], [10], "stacks", 1),
        ([100, 2.5], [10], "stacks", 1),
        ([100, True], [10], "stacks", 1),
        ([100, "7"], [10], "stacks", 1),
        ("100 200", [10], "stacks", None),
        ([], [], "stacks", None),
        ([0, 0], [10], "stacks", None),
        ([2**53, 1], [10], "stacks", None),
        ([1, 2], [10, -1], "payouts", 1),
        ([1, 2], [10, 20], "payouts", 1),
        ([1, 2], [3, 2, 1], "payouts", None),
        ([1, 2], [2**53 + 1], "payouts", None),
    ],
)
def test_bad_input_is_refused_with_what_was_wrong(
    stacks: object, payouts: object, field_name: str, index: int | None
) -> None:
    with pytest.raises(InvalidICM) as error:
        equities(stacks, payouts)  # type: ignore[arg-type]
    assert error.value.field == field_name and error.value.index == index
    assert isinstance(error.value, ValueError)


def test_bad_options_are_refused() -> None:
    with pytest.raises(InvalidICM, match="method"):
        equities([1, 2], [1], "magic")
    with pytest.raises(InvalidICM, match="samples"):
        equities([1, 2], [1], "montecarlo", samples=1)
    with pytest.raises(InvalidICM, match="samples are for Monte Carlo"):
        equities([1, 2], [1], "exact", samples=100)
    with pytest.raises(InvalidICM, match="seed"):
        equities([1, 2], [1], "montecarlo", seed=1.5)  # type: ignore[arg-type]
    with pytest.raises(InvalidICM, match="quadrature"):
        equities([1] * 14, [1] * 14, "fractions")
    assert FRACTION_STEPS < 14 * 2**13
    with pytest.raises(InvalidICM, match="steps"):
        equities([1] * 30, [1] * 30, "exact")
    with pytest.raises(InvalidICM, match="count"):
        places([1, 2], 3)


# Deals


def test_icm_deal_gives_each_player_their_equity_in_whole_chips() -> None:
    stacks, payouts = [5000, 3000, 2000, 1000], [500, 300, 200, 100]
    deal = icm_deal(stacks, payouts)
    exact = equities(stacks, payouts, "fractions").fractions
    assert exact is not None and sum(deal.amounts) == 1100
    assert all(abs(a - e) < 1 for a, e in zip(deal.amounts, exact))


def test_icm_deal_of_a_field_too_large_for_fractions() -> None:
    rng = random.Random(30)
    stacks, payouts = field(rng, 30, 9)
    deal = icm_deal(stacks, payouts)
    assert sum(deal.amounts) == sum(payouts)
    equity = equities(stacks, payouts)
    assert equity.method == "quadrature" and deal.shares == equity.values
    assert all(abs(a - e) < 1 for a, e in zip(deal.amounts, equity))


def test_leaving_chips_to_play_for_keeps_every_expectation() -> None:
    stacks, payouts = [5000, 3000, 2000], [500, 300, 200]
    whole = equities(stacks, payouts, "fractions").fractions
    deal = icm_deal(stacks, payouts, left=150)
    assert whole is not None and sum(deal.amounts) == 850
    for i, s in enumerate(stacks):
        assert deal.shares[i] + 150 * s / sum(stacks) == pytest.approx(float(whole[i]), abs=1e-9)
    with pytest.raises(InvalidICM, match="left"):
        icm_deal(stacks, payouts, left=201)


def test_chip_chop() -> None:
    # Everyone keeps the last prize (200), the other 400 goes by chips.
    assert chip_chop([5000, 3000, 2000], [500, 300, 200]).amounts == (400, 320, 280)
    # Fewer prizes than players: no floor.
    assert chip_chop([1, 1, 1], [100, 50]).amounts == (50, 50, 50)
    deal = chip_chop([1, 1, 1], [101, 0])
    assert deal.amounts == (34, 34, 33) and sum(deal.amounts) == 101  # odd chips in order
    with pytest.raises(InvalidICM, match="no chips"):
        chip_chop([0, 5], [10])
    with pytest.raises(InvalidICM, match="payouts"):
        chip_chop([3, 5], [])


@given(fields())
@settings(max_examples=100, deadline=None)
def test_deals_add_up(f: tuple[list[int], list[int]]) -> None:
    stacks, payouts = f
    if not payouts:
        return
    for make in (icm_deal, chip_chop):
        deal = make(stacks, payouts)
        assert sum(deal.amounts) == sum(payouts) and min(deal.amounts) >= 0


# The all-in


def test_allin_against_the_outcomes_computed_by_hand() -> None:
    stacks, payouts = [2000, 3000, 5000], [500, 300, 200]
    a = allin(stacks, payouts, caller=0, shover=2, win=0.5)
    assert a.fold == equities(stacks, payouts)[0]
    assert a.if_win == equities([4000, 3000, 3000], payouts)[0]
    assert a.if_lose == equities([0, 3000, 7000], payouts)[0] == 200
    assert a.call == pytest.approx(0.5 * a.if_win + 0.5 * a.if_lose)
    assert a.needed > 0.5 and a.needed_chips == pytest.approx(0.5)
    assert a.gain < 0


def test_allin_with_blinds_posted_and_the_librarys_equity() -> None:
    stacks, payouts = [1500, 2500, 6000], [500, 300, 200]
    posted = [100, 2500, 50]  # the caller in the big blind, the small blind folded
    a = allin(
        stacks, payouts, caller=0, shover=1, posted=posted, hands=("AhAs", "KcKd"), board="2c 7d 9h"
    )
    assert 0.85 < a.win < 1 and a.tie >= 0
    assert a.fold == equities([1400, 2650, 5950], payouts)[0]
    assert a.if_win == equities([3050, 1000, 5950], payouts)[0]
    assert a.if_lose == equities([0, 4050, 5950], payouts)[0]
    assert a.gain > 0


def test_allin_refuses_bad_arguments() -> None:
    s, p = [100, 200, 300], [60, 40]
    with pytest.raises(InvalidICM, match="caller"):
        allin(s, p, caller=3, shover=0, win=0.5)
    with pytest.raises(InvalidICM, match="two players"):
        allin(s, p, caller=1, shover=1, win=0.5)
    with pytest.raises(InvalidICM, match="win"):
        allin(s, p, caller=0, shover=1)
    with pytest.raises(InvalidICM, match="probability"):
        allin(s, p, caller=0, shover=1, win=1.5)
    with pytest.raises(InvalidICM, match="posted"):
        allin(s, p, caller=0, shover=1, win=0.5, posted=[101, 0, 0])
