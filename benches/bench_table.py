"""Table throughput (issue 9 target, not a test): ``doubleholdem simulate`` with 6 bots at
one table, fixed-limit Double Hold'em, hands per second on one core. Target: 3,000 hands/s
with calling stations and random bots. Measured as the library function (300 hands) and
as the command in its own process (the figure it prints; the command also switches the
cyclic garbage collector off). Figures are in benches/README.md.

Run: ``make bench`` or ``python -m pytest benches/bench_table.py --benchmark-enable -s``.
"""

from __future__ import annotations

import json
import subprocess
import sys
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


def test_simulate_command_station_random(benchmark: Any) -> None:
    benchmark.group = "table: the simulate command, 10,000 hands, stations and random bots"
    command = [sys.executable, "-m", "doubleholdem.cli", "simulate", "--variant", "double"]
    command += ["--structure", "limit", "--players", "6", "--bots", "station,random"]
    command += ["--hands", "10000", "--seed", "1", "--json"]
    rates: list[float] = []

    def run() -> None:
        out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        rates.append(json.loads(out)["hands_per_second"])

    benchmark.pedantic(run, rounds=3, iterations=1)
    benchmark.extra_info["hands_per_second"] = rates
    print(f"\nsimulate command: {', '.join(f'{r:,.0f}' for r in rates)} hands/s")
