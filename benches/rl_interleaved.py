"""Issue 21's comparison, interleaved: on a loaded machine pytest-benchmark's rounds of
one library after another see different loads, so this runs every measurement of
``bench_rl.py`` once per rotation, each in a fresh process (best of three runs after a
warm-up), and prints the medians over the rotations.

    PYTHONPATH=python python benches/rl_interleaved.py 5
    PYTHONPATH=python python benches/rl_interleaved.py --one vector --count 640

``--one NAME --count N`` runs one loop for N decisions twice (no timing): a warm-up,
then the same through ``itertools.starmap``, so that callgrind counts the second alone,
instructions a decision being the count over N:

    PYTHONHASHSEED=0 PYTHONPATH=python valgrind --tool=callgrind --collect-atstart=no \
        --toggle-collect=starmap_next python3 benches/rl_interleaved.py --one fcpa --count 1000

(the whole process's count varies by about 2,000 instructions a decision from run to
run, the loop's alone by less than 100). ``--one episodes`` counts the many-hand
episodes (hands a ``Table`` deals and plays), a loop of no other library.
"""

from __future__ import annotations

import itertools
import os
import statistics
import subprocess
import sys
import time
from typing import Any, Callable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bench_rl

NAMES = (
    "fcpa", "exact", "vector", "rlcard", "pettingzoo", "spiel", "engine", "engine6", "floor"
)  # fmt: skip
ONE_ONLY = ("episodes",)  # counted by --one, not in the rates' rotation


def loop(name: str) -> Callable[[int], int]:
    """The loop of ``name``: decisions in, decisions played out."""
    if name in ("fcpa", "exact"):
        return lambda n: bench_rl.doubleholdem_aec(n, name)
    if name == "floor":
        return bench_rl.floor_aec
    if name == "episodes":
        return bench_rl.doubleholdem_episodes
    if name == "rlcard":
        return bench_rl.rlcard_env
    if name == "pettingzoo":
        return bench_rl.pettingzoo_env
    if name == "spiel":
        game = bench_rl.open_spiel_game()
        return lambda n: bench_rl.open_spiel(game, n)
    if name == "engine":  # recorded once, whatever the count: --one's N and 3N differ in play only
        deals, decisions = bench_rl.recorded_hands(max(bench_rl.DECISIONS, 12_000))
        return lambda n: bench_rl.engine_alone(deals, decisions, n)
    if name == "engine6":
        return bench_rl.engine_six_max
    if name == "vector":
        import numpy as np

        from doubleholdem import rl

        env = rl.VectorEnv(
            bench_rl.TABLES, seed=1, players=6, structure="fixed-limit", actions="exact"
        )
        env.reset()
        rng = np.random.default_rng(3)
        return lambda n: bench_rl.vector_steps(env, max(1, n // bench_rl.TABLES), rng)
    raise SystemExit(f"unknown loop {name!r}: one of {', '.join(NAMES + ONE_ONLY)}")


def rate(name: str) -> float:
    """Decisions a second of ``name``: the best of three runs after a warm-up."""
    run = loop(name)
    count = bench_rl.DECISIONS // 4 if name == "pettingzoo" else bench_rl.DECISIONS
    run(count)
    best = 0.0
    for _ in range(3):
        start = time.perf_counter()
        done = run(count)
        best = max(best, done / (time.perf_counter() - start))
    return best


def rotations(count: int) -> dict[str, list[float]]:
    rates: dict[str, list[float]] = {name: [] for name in NAMES}
    for _ in range(count):
        for name in NAMES:
            out = subprocess.run(
                [sys.executable, __file__, "--rate", name], capture_output=True, text=True
            )
            if out.returncode == 0:  # else the library is missing: skipped
                rates[name].append(float(out.stdout.split()[-1]))
    return rates


def main(argv: list[str]) -> None:
    if argv[:1] == ["--rate"]:
        print(rate(argv[1]))
        return
    if argv[:1] == ["--one"]:
        count = int(argv[argv.index("--count") + 1]) if "--count" in argv else 1000
        run = loop(argv[1])
        run(count)  # the warm-up: imports, caches, compiled files
        # then the same again, the only call through starmap: callgrind started with
        # --collect-atstart=no --toggle-collect=starmap_next counts it and nothing else
        list(itertools.starmap(run, [(count,)]))
        return
    rates = rotations(int(argv[0]) if argv else 5)
    medians: dict[str, Any] = {name: statistics.median(r) for name, r in rates.items() if r}
    for name in medians:
        line = f"{name:12s} {medians[name]:10,.0f} /s"
        if name in ("fcpa", "exact"):
            line += "".join(
                f"  {medians[name] / medians[other]:.2f}x {other}"
                for other in ("rlcard", "spiel", "pettingzoo")
                if other in medians
            )
        elif name == "vector" and "engine6" in medians:
            line += f"  {medians['vector'] / medians['engine6']:.2f}x engine6"
        print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
