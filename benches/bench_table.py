"""Table throughput (issue 9 target, not a test): ``simulate`` with 6 bots at one table,
fixed-limit Double Hold'em, hands per second on one core. Target: 3,000 hands/s with
calling stations and random bots.

Measured (2-core VM, other jobs running, four runs of 300 hands, seed 1), the rules of
play in Python: stations and random bots 121-160 ms (1,900-2,500 hands/s: the target is
not met); with equity bots 128-157 ms. With the rules in Rust it was 3,300-6,000/s.

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
