"""``GET /metrics`` (python/doubleholdem/server/http/metrics.py): the process's metrics in
the Prometheus text format, for the operator's token only, off without one; the tables
owned, the clients connected, the commits and their latency as they are."""

from __future__ import annotations

import asyncio
import http.client
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from server_harness import Client, ServerThread

TOKEN = b"operator-secret-of-thirty-two-characters"


def _get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, Any, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.headers, response.read().decode()
    finally:
        connection.close()


def _scraped(port: int) -> dict[str, float]:
    status, headers, text = _get(port, "/metrics", {"Authorization": f"Bearer {TOKEN.decode()}"})
    assert status == 200 and headers["content-type"].startswith("text/plain; version=0.0.4")
    return {
        sample.name: sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if not sample.labels
    }


@pytest.fixture
def served(room_db: str) -> Iterator[ServerThread]:
    settings = RoomSettings(tables=2, bots=0, pause=600.0)
    with ServerThread(Room.open(room_db, settings), operator_token=TOKEN) as server:
        yield server


def test_metrics_need_the_operators_token(served: ServerThread) -> None:
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN.decode()}):
        status, sent, text = _get(served.port, "/metrics", headers)
        assert status == 401 and sent["www-authenticate"].startswith("Bearer")
        assert "not_an_operator" in text and "doubleholdem_" not in text


def test_metrics_say_the_tables_clients_and_commits(served: ServerThread) -> None:
    before = _scraped(served.port)
    assert before["doubleholdem_tables_owned"] == 2
    assert before["doubleholdem_clients_connected"] == 0
    assert before["doubleholdem_commits_refused_total"] == 0
    renewed = before["doubleholdem_leases_renewed_total"]  # heartbeats renew them (PostgreSQL)
    assert renewed == 0 or served.room.store.path.startswith("postgresql")

    async def sit() -> float:
        client = await Client.connect(served.ws_url)
        await client.send(type="sit", table=0, seat=0, name="ann", buy_in=1000)
        await client.next("seated")  # sent once its commit landed
        during = _scraped(served.port)
        await client.close()
        assert during["doubleholdem_clients_connected"] == 1
        return during["doubleholdem_commit_seconds_count"]

    commits = asyncio.run(sit())
    assert commits > before["doubleholdem_commit_seconds_count"]
    after = _scraped(served.port)
    assert after["doubleholdem_commit_seconds_count"] >= commits
    assert after["doubleholdem_commit_seconds_sum"] > 0
    assert after["doubleholdem_leases_renewed_total"] >= renewed


def test_metrics_are_off_without_an_operator_token(tmp_path: Any) -> None:
    room = Room.open(str(tmp_path / "room.db"), RoomSettings(tables=1, bots=0))
    with ServerThread(room) as server:
        status, _, text = _get(server.port, "/metrics")
    assert status == 404 and "metrics_off" in text and "--operator-token" in text


@pytest.mark.parametrize("room_db", ["sqlite"], indirect=True)
def test_metrics_without_prometheus_client_name_the_extra(
    served: ServerThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server installed without the ``metrics`` extra answers 501 with the command
    that installs it, and goes on serving."""
    monkeypatch.setitem(sys.modules, "prometheus_client", None)  # import fails
    headers = {"Authorization": f"Bearer {TOKEN.decode()}"}
    status, _, text = _get(served.port, "/metrics", headers)
    assert status == 501 and "no_prometheus_client" in text
    assert "prometheus_client" in text and "[metrics]" in text  # pip install ...[metrics]
    monkeypatch.delitem(sys.modules, "prometheus_client")
    assert _get(served.port, "/metrics", headers)[0] == 200
