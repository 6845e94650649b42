"""CPU time per call of ICM (``time.process_time``, the median of several calls), so
that a loaded machine's waiting does not count, beside pokerkit's ``calculate_icm``
where it finishes, on the fields of ``bench_icm.py``.

Run: ``PYTHONPATH=python taskset -c 0 python3 benches/icm_times.py``.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from functools import partial

from pokerkit import calculate_icm

from bench_icm import field
from doubleholdem.icm import equities


def cpu_ms(call: Callable[[], object], calls: int) -> float:
    times = []
    for _ in range(calls):
        start = time.process_time()
        call()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1e3


def main() -> None:
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


if __name__ == "__main__":
    main()
