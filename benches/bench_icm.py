"""ICM (issue 34 item 1 targets, not tests): the exact recursion against pokerkit's
``calculate_icm`` (which enumerates the orders of the paid places) at 9 and 10 players,
the exact recursion at 20 players all paid, and the quadrature at 1,024 players with 10
and 100 paid and 10,000 with 1,500 paid, its error estimate checked below 1e-9 of the
pool. Everything runs on one core. Results are checked equal to pokerkit's to 1e-12 of
the pool.

Run: ``python -m pytest benches/bench_icm.py --benchmark-enable``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from pokerkit import calculate_icm

from doubleholdem.icm import equities


def field(players: int, paid: int, seed: int = 34) -> tuple[list[int], list[int]]:
    rng = random.Random(seed)
    stacks = [rng.randint(1_000, 100_000) for _ in range(players)]
    payouts = [round(1_000_000 / (k + 1) ** 1.1) for k in range(paid)]
    return stacks, payouts


def run(benchmark: Any, function: Any, rounds: int) -> Any:
    return benchmark.pedantic(function, rounds=rounds, iterations=1, warmup_rounds=1)


SMALL = {
    "9 players, all paid": (9, 9),
    "10 players, all paid": (10, 10),
    "10 players, 3 paid": (10, 3),
}


@pytest.mark.parametrize("case", SMALL)
def test_doubleholdem_exact(benchmark: Any, case: str) -> None:
    stacks, payouts = field(*SMALL[case])
    benchmark.group = f"ICM exact: {case}"
    result = run(benchmark, lambda: equities(stacks, payouts, "exact"), 200)
    benchmark.extra_info["items"] = 1
    assert result.method == "exact"


@pytest.mark.parametrize("case", SMALL)
def test_pokerkit_calculate_icm(benchmark: Any, case: str) -> None:
    stacks, payouts = field(*SMALL[case])
    benchmark.group = f"ICM exact: {case}"
    paid = SMALL[case][1]
    result = run(benchmark, lambda: calculate_icm(payouts, stacks), 1 if paid > 8 else 20)
    benchmark.extra_info["items"] = 1
    ours = equities(stacks, payouts, "exact")
    assert max(abs(a - b) for a, b in zip(result, ours)) <= 1e-12 * sum(payouts)


@pytest.mark.benchmark(group="ICM exact: 20 players, all paid")
def test_doubleholdem_exact_twenty(benchmark: Any) -> None:
    stacks, payouts = field(20, 20)
    result = run(benchmark, lambda: equities(stacks, payouts), 10)
    benchmark.extra_info["items"] = 1
    assert result.method == "exact"


LARGE = {
    "1,024 players, 10 paid": (1024, 10),
    "1,024 players, 100 paid": (1024, 100),
    "10,000 players, 1,500 paid": (10_000, 1500),
}


@pytest.mark.parametrize("case", LARGE)
def test_doubleholdem_quadrature(benchmark: Any, case: str) -> None:
    stacks, payouts = field(*LARGE[case])
    benchmark.group = f"ICM quadrature: {case}"
    result = run(benchmark, lambda: equities(stacks, payouts), 3 if len(stacks) > 5000 else 30)
    benchmark.extra_info["items"] = 1
    assert result.method == "quadrature" and result.error < 1e-9 * sum(payouts)
    benchmark.extra_info["error / pool"] = result.error / sum(payouts)


@pytest.mark.benchmark(group="ICM Monte Carlo: 10 players, 3 paid, 100,000 samples, one thread")
def test_doubleholdem_monte_carlo(benchmark: Any) -> None:
    stacks, payouts = field(10, 3)
    run(benchmark, lambda: equities(stacks, payouts, samples=100_000, seed=1, threads=1), 5)
    benchmark.extra_info["items"] = 100_000
