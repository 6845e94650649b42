"""Table throughput (issue 4 target, not a test): ``simulate`` with 6 bots at one table,
fixed-limit Double Hold'em, hands per second on one core. Target: 5,000 hands/s.

Measured (2-core VM, other jobs running, two runs of 300 hands, seed 1): calling
stations and random bots 48.8-50.5 ms at best (6,000-6,100 hands/s), 55 ms at the
median (5,500/s); with equity bots 59-69 ms at best (4,300-5,100/s), 60-78 ms at the
median (3,800-5,000/s). Before the hand engine moved to the Rust core it was about
2,300/s (station+random) and 150/s (with equity bots).

Run: ``make bench`` or ``python -m pytest benches/bench_table.py --benchmark-enable``.
"""

from __future__ import annotations

from typing import Any

import pytest

from doubleholdem.table.simulate import simulate

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
