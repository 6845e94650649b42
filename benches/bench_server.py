"""Game server targets (issue 11; benchmarks, not tests): 1,000 WebSocket clients on 200
tables in one server process, p50 action round trip under 5 ms and p99 under 50 ms with
no errors and no chip lost; and a restart with 200 tables mid-hand serving again within
2 s. The server and the load run as separate processes on 127.0.0.1.

Run: ``python -m pytest benches/bench_server.py --benchmark-enable -s`` (prints the
figures; ``DOUBLEHOLDEM_LOAD_CLIENTS``, ``..._TABLES``, ``..._SECONDS`` and ``..._THINK``
change the load). Measured figures are in benches/README.md.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

CLIENTS = int(os.environ.get("DOUBLEHOLDEM_LOAD_CLIENTS", "1000"))
TABLES = int(os.environ.get("DOUBLEHOLDEM_LOAD_TABLES", "200"))
SECONDS = float(os.environ.get("DOUBLEHOLDEM_LOAD_SECONDS", "30"))
THINK = float(os.environ.get("DOUBLEHOLDEM_LOAD_THINK", "0.5"))


def _serve(db: Path, *extra: str, guests: bool = True) -> tuple[subprocess.Popen[str], int, float]:
    started = time.perf_counter()
    command = [sys.executable, "-m", "doubleholdem.cli", "serve", "--db", str(db)]
    command += ["--port", "0", "--tables", str(TABLES), "--pause", "0.5", *extra]
    command += ["--per-address", "0"]  # the load's clients all come from 127.0.0.1
    if guests:  # the load's clients sit under chosen names
        command += ["--guests"]
    else:  # they sign up (welcome chips above any buy-in) and sign in
        command += ["--signup", "open", "--welcome-chips", "100000"]
        command += ["--signups-per-address", "0"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    port = int(line.rsplit(":", 1)[1].strip("/\n"))
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=30) as r:
        assert r.read() == b"ok"
    return process, port, time.perf_counter() - started


def _stop(process: subprocess.Popen[str], sig: int = signal.SIGTERM) -> None:
    process.send_signal(sig)
    process.wait(60)


@pytest.mark.parametrize("accounts", ["guests", "signed_in"])
def test_load_1000_clients_200_tables(benchmark: Any, tmp_path: Path, accounts: str) -> None:
    """Guests, or signed-in accounts (each signs up and in through the HTTP API first,
    with OWASP's Argon2id; the audit runs on the database at the end)."""
    benchmark.group = "server: action round trip under load"
    db = tmp_path / "load.db"
    process, port, _ = _serve(db, "--bots", "0", guests=accounts == "guests")
    try:
        command = [
            sys.executable, "-m", "doubleholdem.cli", "loadtest",
            "--url", f"http://127.0.0.1:{port}", "--clients", str(CLIENTS),
            "--seconds", str(SECONDS), "--think", str(THINK), "--json", "--db", str(db),
        ]  # fmt: skip

        def load() -> dict[str, Any]:
            out = subprocess.run(command, capture_output=True, text=True, check=False)
            result: dict[str, Any] = json.loads(out.stdout)
            return result

        result = benchmark.pedantic(load, rounds=1, iterations=1)
    finally:
        _stop(process)
    benchmark.extra_info.update(result)
    print(f"\nload ({accounts}):", json.dumps(result))
    assert result["errors"] == 0 and result["chip_errors"] == 0
    assert result["audit_ok"] is not False


def test_restart_200_tables_mid_hand(benchmark: Any, tmp_path: Path) -> None:
    benchmark.group = "server: restart with every table mid-hand"
    db = tmp_path / "restart.db"
    process, _, _ = _serve(db, "--bots", "6", "--bot-delay", "0.05")
    time.sleep(3.0)  # every table is in a hand
    _stop(process, signal.SIGKILL)

    def restart() -> float:
        process, _, seconds = _serve(db, "--bots", "6", "--bot-delay", "0.05")
        _stop(process, signal.SIGKILL)
        return seconds

    seconds = benchmark.pedantic(restart, rounds=3, iterations=1)
    benchmark.extra_info["seconds_to_serving"] = seconds
    print(f"\nrestart of {TABLES} tables mid-hand: serving after {seconds:.2f} s")


def test_sign_in_cost(benchmark: Any, tmp_path: Path) -> None:
    """One sign-in as the server does it (OWASP's Argon2id verification, the session and
    the address written in a transaction of their own), on the server's Desk."""
    from doubleholdem.server.http.desk import Desk
    from doubleholdem.server.settings import RoomSettings

    benchmark.group = "server: one sign-in (Argon2id, OWASP)"
    desk = Desk(str(tmp_path / "signin.db"), RoomSettings())
    desk.sign_up("ann", "correct horse battery", address="127.0.0.1")
    try:
        benchmark(desk.sign_in, "ann", "correct horse battery", address="127.0.0.1")
    finally:
        desk.close()
