"""Benchmarks of the exact analyses (``make bench``; benches/README.md records
the figures): the full Heads Up and Ultimate Texas Hold'em analyses (27.8 trillion
deals each), the Double Hold'em statistics (42.1 billion deals) and a million
simulated rounds of each game on one thread. Each runs once; the figures land in the
benchmark's extra info."""

from __future__ import annotations

from typing import Any

import pytest

from doubleholdem import casino, double_stats


@pytest.mark.parametrize("game", sorted(casino.GAMES))
def test_exact_analysis(benchmark: Any, game: str) -> None:
    result = benchmark.pedantic(casino.analyze, args=(casino.GAMES[game],), rounds=1, iterations=1)
    benchmark.extra_info.update(result.summary())
    assert result.deals == 27_813_810_024_000


def test_double_statistics(benchmark: Any) -> None:
    stats = benchmark.pedantic(double_stats.statistics, rounds=1, iterations=1)
    benchmark.extra_info.update(total=stats.total, auto=stats.auto, best=stats.best)
    assert stats.total == double_stats.ALL_DEALS


@pytest.mark.parametrize("game", sorted(casino.GAMES))
def test_million_rounds_one_thread(benchmark: Any, game: str) -> None:
    """``casino simulate --rounds 1000000`` from the shipped strategy, on one core
    (issue 22 target: under 10 s; it used to run the whole analysis first)."""
    rules = casino.GAMES[game]
    sim = benchmark.pedantic(
        casino.simulate, args=(1_000_000, 1, rules), kwargs={"threads": 1}, rounds=1, iterations=1
    )
    benchmark.extra_info.update(mean=sim.mean, ci95=sim.ci95, exact=sim.expected_value)
    assert sim.strategy == "shipped" and sim.expected_value is not None
    assert sim.ci95[0] <= sim.expected_value <= sim.ci95[1]
