"""Benchmark reporting: each benchmark says how many items one call handles
(``benchmark.extra_info["items"]``); the summary prints items per second at the median
time (millions per second for fast benchmarks) and the ratio of doubleholdem's rate to
every other library's rate in the same group and run."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from postgres_cluster import Cluster, ClusterUnavailable, start_cluster


@pytest.fixture(scope="module")
def durable() -> Iterator[Cluster]:
    """A PostgreSQL cluster with its defaults (``fsync``, ``synchronous_commit`` on), as
    an operator runs one, started for the module (skipped where it cannot start)."""
    try:
        cluster = start_cluster(settings=())
    except ClusterUnavailable as why:
        pytest.skip(str(why))
    yield cluster
    cluster.stop()


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    session = getattr(config, "_benchmarksession", None)
    if session is None or session.disabled:
        return
    groups: dict[str, list[tuple[str, float]]] = {}
    for bench in session.benchmarks:
        items = bench.extra_info.get("items")
        if items and bench.stats and bench.stats.median > 0:
            rate = items / bench.stats.median
            groups.setdefault(bench.group or "", []).append((bench.name, rate))
    write = terminalreporter.write_line
    for group, rates in groups.items():
        ours = max((r for name, r in rates if "doubleholdem" in name), default=None)
        write(f"\n{group}")
        for name, rate in sorted(rates, key=lambda nr: -nr[1]):
            theirs = ours and "doubleholdem" not in name
            ratio = f"   doubleholdem is {ours / rate:.1f}x" if theirs else ""
            shown = f"{rate / 1e6:10.3f} M/s" if rate >= 1e5 else f"{rate:10,.0f} /s"
            write(f"  {name:<50} {shown}{ratio}")
