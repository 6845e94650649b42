"""Hand history under load (issue 30, item 1): a room whose two tables hold ``--hands``
(200,000) stored hands each, against a real ``serve`` process on 127.0.0.1.

Table 0 is a bots' table (two bots); at table 1 four players with accounts sit (and sit
out) among two bots. Each phase lasts ``--seconds`` (15): a spectator pings every 50 ms
throughout; in the *quiet* phase nothing else happens, in the *loaded* phase each player
asks for its seat's hands over its WebSocket (``hands``, 20), for its account's hands
(``GET /api/me/hands``) and for its account (``GET /api/me``, the floor of an HTTP
request here: a session and a balance read) once every 2 seconds each, the allowed rate.
Printed: the ping's p50, p99 and max, the bots' table's hands a second in both phases and
their ratio, the latencies of the ``hands`` replies and of both HTTP requests (p50, p99,
max; measured from this client, which shares the machine).

The database is written directly (the hands from real hands' logs, renumbered, one every
10 s of the past; each player was dealt into one hand in 10,000 at table 1, the bots into
the others; the players' accounts through the ledger), at schema 4, as the
server before the hand index wrote it. With ``--baseline`` the installed doubleholdem
(``python -m doubleholdem.cli`` without this tree: main's wheel) serves it first; then
this tree's code upgrades it (timed: the hand index built) and serves it. Targets: ping
p99 under 50 ms, the bots' table loaded within 10% of its quiet rate, ``/api/me/hands``
under 20 ms. Figures: benches/README.md ("Hand history under load").

Run: ``PYTHONPATH=python python benches/bench_history.py --baseline`` (a few minutes and
about 1.5 GB of disk in the temporary directory; Ctrl-C stops it, exit 130).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import websockets

import doubleholdem
from doubleholdem.server.settings import default_configs
from doubleholdem.server.storage.database import open_database
from doubleholdem.table import Table
from doubleholdem.table.bots import CallingStation
from doubleholdem.table.history import hand_record

PLAYERS = [f"hist{k}" for k in range(4)]
RARE = 2500  # one stored hand in RARE at table 1 is a player's (each: one in 4 * RARE)
PASSWORD = "history under load"
EVERY = 2.0  # seconds between one player's requests of each kind (the allowed rate)
PING = 0.05  # seconds between the spectator's pings
SERVE = ["--tables", "2", "--bots", "2", "--bot-delay", "0.02", "--pause", "0.1"]
CONFIG = '[room]\nsignup = "open"\nwelcome_chips = 0\n'
TREE = Path(__file__).resolve().parents[1] / "python"


def _template(
    table_id: int, names: list[str], seats: list[int], occupancies: list[int] | None = None
) -> str:
    """The stored log of a real hand at table ``table_id`` (the room's default
    settings), ``names`` in ``seats`` (with ``occupancies``, seat by seat), as JSON text
    with ``@N@`` for its number and ``@T@`` for its time."""
    table = Table(default_configs()[table_id], seed=table_id + len(seats) + seats[-1])
    for seat, name in zip(seats, names, strict=True):
        table.join(seat, name, 1000, now=1.0)
    table.start_hand(now=1.0)
    while table.in_hand:
        seat = table.to_act
        assert seat is not None
        table.decide(seat, CallingStation().choose(table.observe(seat)), now=1.0)
    log = [*table.release_history(), hand_record(table, table_id=table_id)]
    for entry in log:
        if entry["kind"] == "hand_end":
            entry["at"] = "@T@"
    if occupancies is not None:
        record = log[-1]
        record["occupancies"] = [occupancies[seats.index(s - 1)] for s in record["seats"]]
    text = json.dumps(log, separators=(",", ":")).replace('"@T@"', "@T@")
    return text.replace('"hand_number":1', '"hand_number":@N@')


ROOM = """
import sys
from doubleholdem.accounts import ledger
from doubleholdem.accounts.accounts import Passwords, create_account
from doubleholdem.server.tables.room import Room
from doubleholdem.server.settings import RoomSettings
room = Room.open(sys.argv[1], RoomSettings(tables=2, bots=2, seed=1))
with room.store.transaction():
    for name in sys.argv[3:]:
        create_account(room.store.db, name, sys.argv[2], passwords=Passwords())
        to = ledger.player(name)
        ledger.transfer(room.store.db, "cashier:" + name, "deposit", ledger.CASHIER, to, 10**6)
room.store.close()
"""


def build(path: Path, hands: int, python_path: str) -> None:
    """The room's database at ``path``, at schema 4, its tables holding ``hands`` each:
    the room and the players' accounts made by the doubleholdem at ``python_path`` (the
    oldest served: what it wrote, both read)."""
    env = {**os.environ, "PYTHONPATH": python_path}
    command = [sys.executable, "-c", ROOM, str(path), PASSWORD, *PLAYERS]
    subprocess.run(command, env=env, check=True)
    bots = [_template(t, [f"bot-{t}-0", f"bot-{t}-1"], [0, 1]) for t in (0, 1)]
    players = [  # player k sits down after the bots and players 0 to k - 1
        _template(1, ["bot-1-0", "bot-1-1", name], [0, 1, 2 + k], [0, 1, 2 + k])
        for k, name in enumerate(PLAYERS)
    ]
    now = time.time()
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    for number in range(1, hands + 1):
        at, n = repr(now - 10.0 * (hands - number)), str(number)
        mine = players[number // RARE % 4] if number % RARE == 0 else bots[1]
        for table_id, text in ((0, bots[0]), (1, mine)):
            log = text.replace("@N@", n).replace("@T@", at)
            db.execute("INSERT INTO hands VALUES (?, ?, ?)", (table_id, number, log))
        if number % 20_000 == 0:
            print(f"  {number:,} of {hands:,} hands a table written", flush=True)
    db.execute("DROP TABLE IF EXISTS hand_players")
    db.execute("DROP TABLE IF EXISTS hand_index")
    db.execute("UPDATE meta SET value = '4' WHERE key = 'schema'")
    db.execute("COMMIT")
    db.close()


def _get(url: str, cookie: str | None = None) -> tuple[int, Any]:
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def _sign_in(base: str, name: str) -> str:
    body = json.dumps({"name": name, "password": PASSWORD}).encode()
    headers = {"Content-Type": "application/json", "Origin": base}
    request = urllib.request.Request(base + "/api/signin", body, headers=headers)
    with urllib.request.urlopen(request, timeout=60) as response:
        return str(response.headers["Set-Cookie"].split(";")[0])


def _percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0}
    ordered = sorted(values)
    at = lambda share: ordered[min(len(ordered) - 1, int(share * len(ordered)))]  # noqa: E731
    return {"n": len(ordered), "p50_ms": at(0.5), "p99_ms": at(0.99), "max_ms": ordered[-1]}


def _hand_number(base: str) -> int:
    return int(next(t for t in _get(base + "/api/tables")[1] if t["id"] == 0)["hand_number"])


async def _pinger(base: str, stop: asyncio.Event, rtts: list[float]) -> None:
    async with websockets.connect(base.replace("http", "ws") + "/ws", origin=base) as socket:
        await socket.recv()  # welcome
        while not stop.is_set():
            sent = time.perf_counter()
            await socket.send(json.dumps({"v": 2, "type": "ping"}))
            while json.loads(await socket.recv())["type"] != "pong":
                pass
            rtts.append(1000 * (time.perf_counter() - sent))
            await asyncio.sleep(PING)


async def _player(
    base: str, k: int, cookie: str, seated: list[asyncio.Event], out: dict[str, Any]
) -> None:
    load = out["load"]
    url = base.replace("http", "ws") + "/ws"
    headers = {"Cookie": cookie}
    async with websockets.connect(url, origin=base, additional_headers=headers) as socket:
        await seated[k].wait()  # in turn: player k's occupancy is 2 + k
        await socket.send(
            json.dumps({"v": 2, "type": "sit", "table": 1, "seat": 2 + k, "buy_in": 1000})
        )
        while json.loads(await socket.recv())["type"] not in ("seated", "error"):
            pass
        await socket.send(json.dumps({"v": 2, "type": "sit_out"}))
        seated[k + 1].set()
        await load.wait()
        await asyncio.sleep(k * EVERY / 4)
        while not out["stop"].is_set():
            sent = time.perf_counter()
            await socket.send(json.dumps({"v": 2, "type": "hands", "last": 20}))
            while True:
                message = json.loads(await socket.recv())
                if message["type"] == "hands":
                    out["ws"].append(1000 * (time.perf_counter() - sent))
                    out["found"].append(len(message["hands"]))
                    break
                if message["type"] == "error":
                    out["errors"].append(message["code"])
                    break
            for path, key in (("/api/me/hands", "http"), ("/api/me", "me")):
                await asyncio.sleep(EVERY / 3)
                sent = time.perf_counter()
                status, _ = await asyncio.to_thread(_get, base + path, cookie)
                out[key].append(1000 * (time.perf_counter() - sent))
                if status != 200:
                    out["errors"].append(status)
            await asyncio.sleep(EVERY / 3)


async def _measure(base: str, seconds: float) -> dict[str, Any]:
    cookies = [await asyncio.to_thread(_sign_in, base, name) for name in PLAYERS]
    stop, load = asyncio.Event(), asyncio.Event()
    pings: list[float] = []
    out: dict[str, Any] = {"stop": asyncio.Event(), "errors": []}
    out.update(ws=[], http=[], me=[], found=[])
    tasks = [asyncio.create_task(_pinger(base, stop, pings))]
    seated = [asyncio.Event() for _ in range(len(PLAYERS) + 1)]
    seated[0].set()
    out["load"] = load
    tasks += [
        asyncio.create_task(_player(base, k, cookie, seated, out))
        for k, cookie in enumerate(cookies)
    ]
    await asyncio.wait_for(seated[-1].wait(), 60)  # every player seated, in turn
    await asyncio.sleep(1.0)
    result: dict[str, Any] = {}
    for phase in ("quiet", "loaded"):
        if phase == "loaded":
            load.set()
        pings.clear()
        first, start = await asyncio.to_thread(_hand_number, base), time.perf_counter()
        await asyncio.sleep(seconds)
        last, took = await asyncio.to_thread(_hand_number, base), time.perf_counter() - start
        result[phase] = {"ping": _percentiles(pings), "bots_hands_per_s": (last - first) / took}
    out["stop"].set()
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    result["hands_ws"] = _percentiles(out["ws"])
    result["me_hands_http"] = _percentiles(out["http"])
    result["me_http"] = _percentiles(out["me"])  # the floor: a session and a balance read
    result["hands_found"] = sorted(set(out["found"]))
    result["errors"] = out["errors"]
    quiet, loaded = result["quiet"]["bots_hands_per_s"], result["loaded"]["bots_hands_per_s"]
    result["bots_loaded_over_quiet"] = loaded / quiet if quiet else None
    return result


def _serve(db: Path, config: Path, python_path: str) -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, "-m", "doubleholdem.cli", "serve", "--db", str(db), "--port", "0"]
    command += [*SERVE, "--config", str(config)]
    env = {**os.environ, "PYTHONPATH": python_path}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
    assert process.stdout is not None
    line = process.stdout.readline()
    if "open http://" not in line:
        process.kill()
        raise SystemExit(f"serve did not start: {line!r}")
    return process, line.rsplit(" ", 1)[1].strip().rstrip("/")


def _run(db: Path, config: Path, python_path: str, seconds: float) -> dict[str, Any]:
    probe = [sys.executable, "-c", "import doubleholdem; print(doubleholdem.__file__)"]
    code = subprocess.run(
        probe, env={**os.environ, "PYTHONPATH": python_path}, capture_output=True, text=True
    ).stdout.strip()
    process, base = _serve(db, config, python_path)
    try:
        return {"code": code, **asyncio.run(_measure(base, seconds))}
    finally:
        process.send_signal(signal.SIGINT)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(30)
        if process.poll() is None:
            process.kill()


def _summary(name: str, run: dict[str, Any]) -> str:
    quiet, loaded = run["quiet"], run["loaded"]
    return (
        f"{name}: ping p99 {quiet['ping'].get('p99_ms', 0):.1f} ms quiet, "
        f"{loaded['ping'].get('p99_ms', 0):.1f} ms loaded; bots' table "
        f"{quiet['bots_hands_per_s']:.2f} -> {loaded['bots_hands_per_s']:.2f} hands/s "
        f"(x{run['bots_loaded_over_quiet'] or 0:.3f}); hands p50/p99 "
        f"{run['hands_ws'].get('p50_ms', 0):.1f}/{run['hands_ws'].get('p99_ms', 0):.1f} ms; "
        f"/api/me/hands p50/p99 {run['me_hands_http'].get('p50_ms', 0):.1f}/"
        f"{run['me_hands_http'].get('p99_ms', 0):.1f} ms (/api/me "
        f"{run['me_http'].get('p50_ms', 0):.1f}/{run['me_http'].get('p99_ms', 0):.1f} ms); "
        f"ping max {loaded['ping'].get('max_ms', 0):.0f} ms; hands found {run['hands_found']}; "
        f"errors {run['errors']}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200_000, help="stored hands a table")
    parser.add_argument("--seconds", type=float, default=15.0, help="seconds a phase")
    parser.add_argument("--baseline", action="store_true", help="serve with main's wheel first")
    parser.add_argument("--dir", help="where the database goes (default: a temporary folder)")
    args = parser.parse_args()
    folder = Path(args.dir or tempfile.mkdtemp(prefix="bench-history-"))
    db, config = folder / "room.db", folder / "room.toml"
    config.write_text(CONFIG)
    try:
        started = time.perf_counter()
        print(f"writing {args.hands:,} hands a table into {db}", flush=True)
        build(db, args.hands, "" if args.baseline else str(TREE))
        print(f"  {time.perf_counter() - started:.1f} s, {db.stat().st_size / 2**20:,.0f} MiB")
        report: dict[str, Any] = {"hands_per_table": args.hands, "seconds": args.seconds}
        if args.baseline:  # on a copy: the players' seats stay behind in it
            print("serving a copy with the installed doubleholdem (no hand index)", flush=True)
            shutil.copy(db, folder / "copy.db")
            report["before"] = _run(folder / "copy.db", config, "", args.seconds)
            print(json.dumps(report["before"]), flush=True)
            (folder / "copy.db").unlink()
        started = time.perf_counter()
        open_database(str(db), "normal", busy_seconds=5.0).close()
        report["upgrade_s"] = time.perf_counter() - started
        print(f"upgraded to schema 5 in {report['upgrade_s']:.1f} s", flush=True)
        print(f"serving with {doubleholdem.__file__}", flush=True)
        report["after"] = _run(db, config, str(TREE), args.seconds)
        print(json.dumps(report))
        for name in ("before", "after"):
            if name in report:
                print(_summary(name, report[name]))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        if not args.dir:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
