"""``GET /metrics``: the process's metrics (:mod:`doubleholdem.server.metrics`) in the
Prometheus text format, written by the maintained ``prometheus_client`` library
(``pip install doubleholdem[metrics]``), for operators only: a request must carry the
operator token the server was started with (``serve --operator-token FILE``) as
``Authorization: Bearer TOKEN``, the way a Prometheus scrape job sends its
``authorization`` credentials. A server started without one answers 404: its metrics are
off. Each metric's name begins ``doubleholdem_``; answering reads counters and ``len``\\ s
held in memory, nothing from the database.

>>> from doubleholdem.server.metrics import Metrics
>>> metrics = Metrics()
>>> metrics.count("commits_refused")
>>> text = prometheus_text(metrics).decode()
>>> "doubleholdem_commits_refused_total 1.0" in text
True
>>> 'doubleholdem_commit_seconds_bucket{le="+Inf"} 0.0' in text
True
"""

from __future__ import annotations

import hmac
from collections.abc import Iterator
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from doubleholdem.errors import MissingExtra
from doubleholdem.extras import require
from doubleholdem.server.metrics import BUCKETS, COUNTERS, GAUGES, HISTOGRAMS, Metrics

if TYPE_CHECKING:
    from prometheus_client.metrics_core import Metric

__all__ = ["PREFIX", "metrics_route", "prometheus_text"]

PREFIX = "doubleholdem_"


def prometheus_text(metrics: Metrics) -> bytes:
    """``metrics`` read now, in the Prometheus text format (``prometheus_client``, the
    ``metrics`` extra: :class:`~doubleholdem.errors.MissingExtra` without it)."""
    require("prometheus_client", "metrics", "GET /metrics")
    from prometheus_client import CollectorRegistry, generate_latest
    from prometheus_client.core import (
        CounterMetricFamily,
        GaugeMetricFamily,
        HistogramMetricFamily,
    )

    reading = metrics.read()

    class Collector:
        def collect(self) -> Iterator[Metric]:
            for name, value in reading.counters.items():
                yield CounterMetricFamily(PREFIX + name, COUNTERS[name], value=value)
            for name, level in reading.gauges.items():
                yield GaugeMetricFamily(PREFIX + name, GAUGES[name], value=level)
            for name, seen in reading.histograms.items():
                bounds = [f"{bound:g}" for bound in BUCKETS] + ["+Inf"]
                counts = [*seen.cumulative, seen.count]
                yield HistogramMetricFamily(
                    PREFIX + name,
                    HISTOGRAMS[name],
                    buckets=list(zip(bounds, map(float, counts))),
                    sum_value=seen.total,
                )

    registry = CollectorRegistry(auto_describe=False)
    registry.register(Collector())
    return bytes(generate_latest(registry))


def _refused(status: int, code: str, message: str, **headers: str) -> Response:
    body = {"error": code, "message": message}
    return JSONResponse(body, status_code=status, headers=headers or None)


def metrics_route(metrics: Metrics, operator_token: bytes | None) -> Route:
    """The route of ``GET /metrics`` (see the module's text)."""

    async def answer(request: Request) -> Response:
        if operator_token is None:
            return _refused(404, "metrics_off", "start serve with --operator-token FILE")
        given = request.headers.get("authorization", "")
        scheme, _, token = given.partition(" ")
        expected = b"Bearer " + operator_token
        if not hmac.compare_digest(f"{scheme} {token.strip()}".encode(), expected):
            return _refused(
                401, "not_an_operator", "send Authorization: Bearer TOKEN", **_CHALLENGE
            )
        try:
            text = prometheus_text(metrics)
        except MissingExtra as missing:  # the command that installs it, named
            return _refused(501, "no_prometheus_client", str(missing))
        return Response(text, media_type="text/plain; version=0.0.4; charset=utf-8")

    return Route("/metrics", answer)


_CHALLENGE = {"WWW-Authenticate": 'Bearer realm="doubleholdem"'}
