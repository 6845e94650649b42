"""CPU time per call of ICM (``time.process_time``, the median of several calls), so
that a loaded machine's waiting does not count, beside pokerkit's ``calculate_icm``
where it finishes, on the fields of ``bench_icm.py``; and instructions per call counted
by callgrind, for two trees side by side (the machine's speed drifts, counts do not).

Run from ``benches/``::

    PYTHONPATH=../python taskset -c 0 python3 icm_times.py
    python3 icm_times.py instructions BEFORE AFTER   # trees with their _core*.so

A call's count is (the count of 3 calls - the count of 1) / 2: start-up cancels out.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from bench_icm import field

CASES = [(20, 20), (1024, 10), (1024, 100), (10_000, 1500)]


def cpu_ms(call: Callable[[], object], calls: int) -> float:
    times = []
    for _ in range(calls):
        start = time.process_time()
        call()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1e3


def times() -> None:
    from pokerkit import calculate_icm

    from doubleholdem.icm import equities

    for players, paid, method, calls in [
        (10, 3, "exact", 2000),
        (10, 10, "exact", 2000),
        (20, 20, None, 15),
        (1024, 10, None, 40),
        (1024, 100, None, 40),
        (10_000, 1500, None, 3),
        (10_000, 10_000, None, 1),
    ]:
        stacks, payouts = field(players, paid)
        result = equities(stacks, payouts, method)
        ms = cpu_ms(partial(equities, stacks, payouts, method), calls)
        share = result.error / sum(payouts)
        print(
            f"doubleholdem {players:>6,} players {paid:>6,} paid  {result.method:<10} "
            f"{ms:10.3f} ms  error estimate / pool {share:.1e}"
        )
    for players, paid, calls in [(10, 3, 50), (9, 9, 1), (10, 10, 1)]:
        stacks, payouts = field(players, paid)
        ms = cpu_ms(partial(calculate_icm, payouts, stacks), calls)
        print(f"pokerkit     {players:>6,} players {paid:>6,} paid  {'orders':<10} {ms:10.3f} ms")


def calls(players: int, paid: int, count: int) -> None:
    from doubleholdem.icm import equities

    stacks, payouts = field(players, paid)
    for _ in range(count):
        equities(stacks, payouts)


def counted(tree: str, players: int, paid: int, count: int) -> int:
    """Instructions of ``count`` calls in a fresh interpreter with ``tree``'s package."""
    environment = {**os.environ, "PYTHONPATH": str(Path(tree) / "python"), "PYTHONHASHSEED": "0"}
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    command += [os.path.realpath(sys.executable), __file__, "calls"]
    command += [str(players), str(paid), str(count)]
    done = subprocess.run(command, env=environment, capture_output=True, text=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode or found is None:
        raise SystemExit(f"callgrind failed in {tree}:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def instructions(before: str, after: str) -> None:
    for players, paid in CASES:
        each = [
            (counted(tree, players, paid, 3) - counted(tree, players, paid, 1)) / 2
            for tree in (before, after)
        ]
        print(
            f"{players:>6,} players {paid:>6,} paid: {each[0] / 1e6:9.1f} M -> "
            f"{each[1] / 1e6:9.1f} M instructions a call ({each[0] / each[1]:.2f}x)"
        )


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if not arguments:
        times()
    elif arguments[0] == "calls" and len(arguments) == 4:
        calls(*map(int, arguments[1:]))
    elif arguments[0] == "instructions" and len(arguments) == 3:
        instructions(arguments[1], arguments[2])
    else:
        raise SystemExit(__doc__)
