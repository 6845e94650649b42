"""The room's failure paths against a real ``serve`` process (issue 17; benchmarks, not
tests: the tests in tests/server/test_failures.py check the same things in short form).

- Another process holds the database's write lock for ``DOUBLEHOLDEM_HOLD_SECONDS`` (12):
  the slowest ``/healthz`` answer during the hold (target under 100 ms), and how long after
  the release until every table has dealt a new hand (target: moving again within 2 s;
  the figure includes the hand itself).
- A disk that fills and frees, ``DOUBLEHOLDEM_DISK_CYCLES`` (20) times, on a small tmpfs
  (skipped where mounting is not allowed): tables frozen after the space is freed,
  databases refused at restart, and hands a spectator was sent that the restarted server
  does not have (targets: 0, 0, 0).

Run: ``python -m pytest benches/bench_server_failures.py --benchmark-enable -s``.
Figures: benches/README.md ("The server's failure paths").
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import websockets

from doubleholdem.server.protocol import apply_patch
from server_harness import fill

HOLD = float(os.environ.get("DOUBLEHOLDEM_HOLD_SECONDS", "12"))
CYCLES = int(os.environ.get("DOUBLEHOLDEM_DISK_CYCLES", "20"))
TABLES = 20
HOLDER = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
print("held", flush=True)
time.sleep(float(sys.argv[2]))
db.execute("COMMIT")
"""


def _serve(db: Path) -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, "-m", "doubleholdem.cli", "serve", "--db", str(db), "--port", "0"]
    command += ["--tables", str(TABLES), "--bots", "2", "--bot-delay", "0.01", "--pause", "0.1"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    assert "open http://" in line, line
    return process, line.rsplit(" ", 1)[1].strip().rstrip("/")


def _get(url: str, timeout: float = 30) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def _hands(url: str) -> dict[int, int]:
    return {t["id"]: t["hand_number"] for t in json.loads(_get(url + "/api/tables")[1])}


def _all_moved(url: str, before: dict[int, int], seconds: float) -> float | None:
    """Seconds until every table dealt a hand after ``before``, or None."""
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        now = _hands(url)
        if all(now[i] > before[i] for i in before):
            return time.perf_counter() - start
        time.sleep(0.02)
    return None


def _stop(process: subprocess.Popen[str]) -> float:
    """SIGTERM; the seconds the server took to exit."""
    start = time.perf_counter()
    process.send_signal(signal.SIGTERM)
    process.wait(60)
    return time.perf_counter() - start


def test_a_writer_holds_the_lock(benchmark: Any, tmp_path: Path) -> None:
    benchmark.group = "server: another process holds the write lock"
    db = tmp_path / "tables.db"
    process, url = _serve(db)

    def hold() -> dict[str, Any]:
        time.sleep(1.0)
        holder = subprocess.Popen(
            [sys.executable, "-c", HOLDER, str(db), str(HOLD)], stdout=subprocess.PIPE, text=True
        )
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        slowest, answers, refusing = 0.0, 0, 0
        while holder.poll() is None:
            start = time.perf_counter()
            status, _ = _get(url + "/healthz", timeout=30)
            slowest = max(slowest, time.perf_counter() - start)
            answers += 1
            refusing += status == 503
            time.sleep(0.02)
        released = _hands(url)
        moved = _all_moved(url, released, 30)
        return {
            "hold_s": HOLD,
            "healthz_answers": answers,
            "healthz_503": refusing,
            "healthz_slowest_ms": round(slowest * 1000, 1),
            "every_table_new_hand_s": None if moved is None else round(moved, 2),
        }

    try:
        result = benchmark.pedantic(hold, rounds=1, iterations=1)
    finally:
        result_stop = _stop(process)
    result["sigterm_exit_s"] = round(result_stop, 2)
    benchmark.extra_info.update(result)
    print("\nlock held:", json.dumps(result))


async def _spectate(url: str, table: int, seen: dict[int, int], stop: asyncio.Event) -> None:
    """Watches ``table``; ``seen[table]``: the highest hand number it was sent."""
    with contextlib.suppress(Exception):
        async with websockets.connect(url.replace("http", "ws") + "/ws") as socket:
            await socket.send(json.dumps({"v": 2, "type": "watch", "table": table}))
            view: Any = None
            while not stop.is_set():
                try:
                    message = json.loads(await asyncio.wait_for(socket.recv(), 0.5))
                except asyncio.TimeoutError:
                    continue
                if message["type"] == "state":
                    view = message["view"]
                elif message["type"] == "update":
                    view = apply_patch(view, message["patch"])
                if view is not None:
                    seen[table] = max(seen.get(table, 0), view["hand_number"])


async def _cycles(db: Path, disk: Path) -> dict[str, Any]:
    process, url = _serve(db)
    seen: dict[int, int] = {}
    stop = asyncio.Event()
    watchers = [asyncio.create_task(_spectate(url, t, seen, stop)) for t in range(TABLES)]
    frozen = unfilled = 0
    recover: list[float] = []
    try:
        for _ in range(CYCLES):
            await asyncio.sleep(0.5)
            filler = fill(disk)
            deadline = time.perf_counter() + 20
            while _get(url + "/healthz")[0] == 200 and time.perf_counter() < deadline:
                await asyncio.sleep(0.05)
            unfilled += _get(url + "/healthz")[0] == 200
            await asyncio.sleep(1.0)
            before = _hands(url)
            os.unlink(filler)
            moved = await asyncio.to_thread(_all_moved, url, before, 10)
            if moved is None:
                frozen += 1
            else:
                recover.append(moved)
    finally:
        await asyncio.sleep(0.5)
        stop.set()
        await asyncio.gather(*watchers)
        exit_s = _stop(process)
    restarted = subprocess.run(
        [sys.executable, "-c", RESTART, str(db)], capture_output=True, text=True, check=False
    )
    refused = int(restarted.returncode != 0)
    database_mb = round(os.path.getsize(db) / 2**20, 1)
    lost = 0
    if not refused:
        stored = json.loads(restarted.stdout)
        lost = sum(1 for t, number in seen.items() if stored[str(t)] < number)
    return {
        "cycles": CYCLES,
        "disk_never_refused": unfilled,
        "tables_frozen": frozen,
        "slowest_recovery_s": round(max(recover, default=0.0), 2),
        "sigterm_exit_s": round(exit_s, 2),
        "databases_refused": refused,
        "database_mb": database_mb,
        "tables_behind_what_was_sent": lost,
    }


RESTART = """
import json, sys
from doubleholdem.server.tables.room import Room
from doubleholdem.server.settings import RoomSettings
room = Room.open(sys.argv[1], RoomSettings(tables=0))
print(json.dumps({i: r.table.hand_number for i, r in room.runners.items()}))
room.store.close()
"""


def test_a_disk_that_fills_and_frees(benchmark: Any, tmp_path: Path) -> None:
    benchmark.group = "server: a disk that fills and frees"
    disk = tmp_path / "disk"
    disk.mkdir()
    mount = ["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(disk)]
    if subprocess.run(mount, capture_output=True, check=False).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        result = benchmark.pedantic(
            lambda: asyncio.run(_cycles(disk / "tables.db", disk)), rounds=1, iterations=1
        )
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)
    benchmark.extra_info.update(result)
    print("\ndisk full:", json.dumps(result))
    assert result["tables_frozen"] == 0 and result["databases_refused"] == 0
    assert result["tables_behind_what_was_sent"] == 0
