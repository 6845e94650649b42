"""Exact equities against OMPEval (pokerfast's exact mode), one thread each, the same
spots in the same run (issue 10 targets, not tests), and the Monte Carlo rate.

Run: ``python -m pytest benches/bench_equity.py --benchmark-enable``. pokerfast reads
``JJ-88`` as ``JJ``, so its range is spelled out (``JJ,TT,99,88``); the results are
checked equal to 1e-12.
"""

from __future__ import annotations

from typing import Any

import pytest

from doubleholdem.equity import calculate

SPOTS = {
    "heads-up pre-flop": (["AhKh", "QsQd"], ["AhKh", "QsQd"], ""),
    "3-way pre-flop": (["AhKh", "QsQd", "7c6c"], ["AhKh", "QsQd", "7c6c"], ""),
    "range vs range pre-flop": (
        ["QQ+,AKs", "JJ-88,AQs+"],
        ["QQ+,AKs", "JJ,TT,99,88,AQs+"],
        "",
    ),
    "range vs range on a flop": (
        ["QQ+,AKs", "JJ-88,AQs+"],
        ["QQ+,AKs", "JJ,TT,99,88,AQs+"],
        "Kh8h2c",
    ),
}


def run(benchmark: Any, function: Any, rounds: int = 15) -> Any:
    return benchmark.pedantic(function, rounds=rounds, iterations=1, warmup_rounds=2)


@pytest.mark.parametrize("spot", SPOTS)
def test_doubleholdem_exact(benchmark: Any, spot: str) -> None:
    ours, _, board = SPOTS[spot]
    benchmark.group = f"exact equity: {spot}, one thread"
    result = run(benchmark, lambda: calculate(ours, board, exact=True, threads=1))
    benchmark.extra_info["items"] = result.showdowns


@pytest.mark.parametrize("spot", SPOTS)
def test_ompeval_pokerfast_exact(benchmark: Any, spot: str) -> None:
    from pokerfast import equity

    ours, theirs, board = SPOTS[spot]
    benchmark.group = f"exact equity: {spot}, one thread"
    result = run(benchmark, lambda: equity.equity(theirs, board, exact=True, threads=1))
    expected = calculate(ours, board, exact=True)
    assert all(abs(a - b) < 1e-12 for a, b in zip(result, expected.equity))
    benchmark.extra_info["items"] = expected.showdowns


@pytest.mark.benchmark(group="Monte Carlo, heads-up pre-flop, one thread")
def test_doubleholdem_monte_carlo(benchmark: Any) -> None:
    samples = 10_000_000
    benchmark.extra_info["items"] = samples
    run(benchmark, lambda: calculate(["AhKh", "QsQd"], samples=samples, seed=1, threads=1), 5)
