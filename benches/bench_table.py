"""Table throughput (issue 4 target, not a test): ``simulate`` with 6 bots at one table,
fixed-limit Double Hold'em, hands per second on one core. Target: 5,000 hands/s.
Measured (2-core VM, other jobs running): station+random about 2,300 hands/s (300 hands
in 0.13 s; it was about 1,000 before the engine and table fast paths).

Run: ``make bench`` or ``python -m pytest benches/bench_table.py --benchmark-enable``.
"""

from __future__ import annotations

from typing import Any

import pytest

from doubleholdem.simulate import simulate

HANDS = 300


@pytest.mark.parametrize(
    "bots",
    [("station", "random"), ("equity", "random", "station")],
    ids=["station+random", "equity+random+station"],
)
def test_doubleholdem_simulate_6_bots_limit_double(benchmark: Any, bots: tuple[str, ...]) -> None:
    benchmark.group = "table: hands per second, 6 bots, fixed-limit Double Hold'em"
    benchmark.extra_info["items"] = HANDS
    result = benchmark(
        simulate,
        players=6,
        hands=HANDS,
        seed=1,
        variant="double",
        structure="fixed-limit",
        bots=bots,
    )
    assert result.hands == HANDS
