"""A whole tournament of bots (issue 34 target, not a test): 1,000 equity bots, no-limit
Texas Hold'em, played to the last chip; target under a minute. No other Python library
runs a tournament (pokerkit has none), so the figure stands against the target. Measured
as the library function and as the command in its own process (which also switches the
cyclic garbage collector off). Figures are in benches/README.md.

Run: ``python -m pytest benches/bench_tournament.py --benchmark-enable -s``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from doubleholdem.tournament.simulate import simulate_tournament

PLAYERS = 1000


def test_doubleholdem_tournament_1000_equity_bots(benchmark: Any) -> None:
    benchmark.group = "tournament: 1,000 equity bots to the end"
    benchmark.extra_info["items"] = PLAYERS
    run = benchmark.pedantic(
        simulate_tournament, kwargs={"players": PLAYERS, "seed": 1}, rounds=1, iterations=1
    )
    assert len(run.result.places) == PLAYERS
    print(f"\n{run.result.hands:,} hands at {run.tables} tables in {run.seconds:.1f} s")


def test_tournament_command_1000_equity_bots(benchmark: Any) -> None:
    benchmark.group = "tournament: the command, 1,000 equity bots"
    command = [sys.executable, "-m", "doubleholdem.cli", "tournament", "simulate"]
    command += ["--players", str(PLAYERS), "--seed", "1", "--json"]
    seconds: list[float] = []

    def run() -> None:
        out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        seconds.append(json.loads(out)["seconds"])

    benchmark.pedantic(run, rounds=2, iterations=1)
    benchmark.extra_info["seconds"] = seconds
    print(f"\ntournament command: {', '.join(f'{s:.1f}' for s in seconds)} s")
