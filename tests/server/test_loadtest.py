"""``doubleholdem loadtest`` against a server on 127.0.0.1, with a small number of
clients (the 1,000-client target is a benchmark: benches/bench_server.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from doubleholdem.cli import main
from doubleholdem.server.room import Room
from doubleholdem.server.settings import RoomSettings
from server_harness import ServerThread


def test_loadtest_small(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = RoomSettings(tables=3, bots=0, bot_delay=0.0, pause=0.01)
    room = Room.open(str(tmp_path / "tables.db"), settings)
    with ServerThread(room) as server:
        args = ["--clients", "12", "--seconds", "3", "--think", "0.01", "--json"]
        status = main(["loadtest", "--url", server.url, *args])
        result = json.loads(capsys.readouterr().out)
        assert server.leaks == []
        assert server.mismatches == []
        refused = main(["loadtest", "--url", server.url, "--clients", "999", "--seconds", "1"])
        assert refused == 2 and "open seats" in capsys.readouterr().err
    assert status == 0
    assert result["clients"] == 12 and result["tables"] == 3
    assert result["actions"] > 0 and result["errors"] == 0 and result["chip_errors"] == 0
    assert 0 < result["p50_ms"] <= result["p99_ms"]
    # the percentiles count steady play, after the last client sat; p99_all_ms everything
    assert 0 < result["seated_s"] < 3 and result["p99_all_ms"] > 0
