"""What one server process counts for its operator (``/metrics``): named counters, gauges
read when asked, and histograms of durations, each declared here once with what it
means. Cheap (an addition under a lock: a commit's worker thread observes too) and
bounded (a fixed set of names, a fixed set of buckets); nothing is read from the
database to answer. The parts that count call :meth:`Metrics.count` (the commits
refused, the leases renewed) or :meth:`Metrics.observe` (a commit's latency); the room
says how its gauges are read (:meth:`Metrics.gauge`).

>>> metrics = Metrics()
>>> metrics.count("leases_renewed")
>>> metrics.observe("commit_seconds", 0.003)
>>> metrics.gauge("clients_connected", lambda: 2)
>>> seen = metrics.read()
>>> seen.counters["leases_renewed"], seen.gauges["clients_connected"]
(1, 2.0)
>>> seen.histograms["commit_seconds"].count, seen.histograms["commit_seconds"].cumulative[:4]
(1, (0, 0, 0, 1))
>>> metrics.count("chips_made")
Traceback (most recent call last):
...
doubleholdem.server.metrics.UnknownMetric: no metric named 'chips_made'
"""

from __future__ import annotations

import bisect
import threading
from collections.abc import Callable
from dataclasses import dataclass

from doubleholdem.errors import DoubleHoldemError

__all__ = [
    "BUCKETS",
    "COUNTERS",
    "GAUGES",
    "HISTOGRAMS",
    "Histogram",
    "Metrics",
    "Reading",
    "UnknownMetric",
]


class UnknownMetric(DoubleHoldemError, ValueError):
    """A metric this module does not declare was counted, observed or read."""


COUNTERS = {
    "commits_refused": "Group commits that failed (rolled back, their tables undone).",
    "leases_renewed": "Table leases this process renewed.",
    "leases_taken": "Table leases this process acquired (at its start, or taken over).",
    "leases_lost": "Table leases this process lost to another (found when writing).",
    "writes_fenced": "Writes the database refused: their table's lease had moved.",
}
GAUGES = {
    "tables_owned": "Tables this process serves.",
    "clients_connected": "Clients connected to this process (WebSockets).",
}
HISTOGRAMS = {
    "commit_seconds": "Seconds a group commit's transaction took, its statements and COMMIT.",
}
# upper bounds (seconds) of the histograms' buckets, the last one +Inf
BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


@dataclass(frozen=True)
class Histogram:
    """A histogram as read: how many observations fell at or below each of
    :data:`BUCKETS` (cumulative), how many in all, and their sum."""

    cumulative: tuple[int, ...]
    count: int
    total: float


@dataclass(frozen=True)
class Reading:
    """Every metric's value at one moment."""

    counters: dict[str, int]
    gauges: dict[str, float]
    histograms: dict[str, Histogram]


class Metrics:
    """One process's metrics (see the module's text)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counters = dict.fromkeys(COUNTERS, 0)
        self._gauges: dict[str, Callable[[], float]] = {name: lambda: 0.0 for name in GAUGES}
        self._buckets = {name: [0] * (len(BUCKETS) + 1) for name in HISTOGRAMS}
        self._sums = dict.fromkeys(HISTOGRAMS, 0.0)

    def count(self, name: str, amount: int = 1) -> None:
        """Adds ``amount`` to the counter ``name`` (one of :data:`COUNTERS`)."""
        _known(name, COUNTERS)
        with self._lock:
            self._counters[name] += amount

    def observe(self, name: str, value: float) -> None:
        """Notes ``value`` in the histogram ``name`` (one of :data:`HISTOGRAMS`)."""
        buckets = self._buckets.get(name)
        if buckets is None:
            _known(name, HISTOGRAMS)
            return
        index = bisect.bisect_left(BUCKETS, value)
        with self._lock:
            buckets[index] += 1
            self._sums[name] += value

    def gauge(self, name: str, read: Callable[[], float]) -> None:
        """The gauge ``name`` (one of :data:`GAUGES`) is ``read()`` when asked (on the
        event loop: it must be cheap, a ``len``)."""
        _known(name, GAUGES)
        self._gauges[name] = read

    def read(self) -> Reading:
        """Every metric's value now."""
        gauges = {name: float(read()) for name, read in self._gauges.items()}
        with self._lock:
            counters = dict(self._counters)
            histograms = {}
            for name, buckets in self._buckets.items():
                running, cumulative = 0, []
                for bucket in buckets[:-1]:
                    running += bucket
                    cumulative.append(running)
                histograms[name] = Histogram(tuple(cumulative), sum(buckets), self._sums[name])
        return Reading(counters, gauges, histograms)


def _known(name: str, kind: dict[str, str]) -> None:
    if name not in kind:
        raise UnknownMetric(f"no metric named {name!r}")
