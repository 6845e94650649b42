"""The room past one process (issue 33; a script, not a test): failover and throughput
of ``serve`` processes on one PostgreSQL room, on this machine, PostgreSQL durable
(fsync and synchronous commit on: tests/postgres_cluster.py's cluster with its
defaults) and on 127.0.0.1.

``failover``: N processes (3) on one room, bots and signed-in load clients (following
their tables) at every table; again and again (``--cycles``, 100) the owner of a table
in a hand is killed (``kill -9``; ``--signal stop``: frozen with SIGSTOP, woken with
SIGCONT once its tables moved) and the time measured from the signal until every table
it owned is owned by a live process again and listed in that process's lobby (lease
expiry included); the process is started again on its port. Prints each cycle, then
p50, p99 and the slowest (target: p99 within 5 s), and the room's checks at the end
(the audit, every hand settled once, every acknowledged decision in the database).

``throughput``: one process against two, each rung of a ladder of offered loads (guest
clients, two a table, thinking less and less), for each tables' count: steady play's
actions a second and p99 (``doubleholdem loadtest`` in a process of its own). The
figures are each side's most actions a second at a p99 no worse than one process's at
its own most (the same p99), and within ``--budget-ms`` (50), with their ratios to one
process (target 1.6x). ``--sides one,two,rooms`` adds two processes serving two
rooms (a schema each, half the tables each): what the machine allows with no lease at
all, for comparison.

Run: ``python benches/failover.py failover`` and ``python benches/failover.py
throughput``. Progress goes to standard error; Ctrl-C stops it (exit 130), the
processes and the cluster stopped. Figures: benches/README.md ("Failover").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from cluster_harness import (
    ROOM,
    ServedRoom,
    audit_problems,
    missing_moves,
    unsettled_hands,
    wait_hands,
    wait_in_hand,
)
from doubleholdem.server.http.load_client import Move
from doubleholdem.server.http.loadtest import run_load
from postgres_cluster import Cluster, start_cluster


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@contextlib.contextmanager
def _durable() -> Iterator[Cluster]:
    cluster = start_cluster(settings=())
    try:
        yield cluster
    finally:
        cluster.stop()


def _cycle(room: ServedRoom, stop_signal: str) -> tuple[float, int]:
    """One failover: the seconds until the victim's tables are served again, and how
    many there were."""
    live = [p for p in room.live]
    owned = [t for t, p in room.owners().items() if p is not None and p in live]
    table = wait_in_hand(room.db, owned)
    owner = room.owners()[table]
    assert owner is not None
    moved = room.tables_of(owner)
    started = time.monotonic()
    if stop_signal == "kill":
        owner.kill()
    else:
        owner.freeze()
    room.wait_served(moved, seconds=120.0)
    seconds = time.monotonic() - started
    if stop_signal == "kill":
        room.start(port=owner.port)
    else:
        owner.thaw()
    return seconds, len(moved)


def failover(args: argparse.Namespace) -> dict[str, Any]:
    with _durable() as cluster, cluster.schema() as db, tempfile.TemporaryDirectory() as folder:
        extra = ["--bot-delay", "0.05", "--pause", "0.2", *ROOM]
        room = ServedRoom(db, args.processes, Path(folder), tables=args.tables, extra=extra)
        moves: list[Move] = []
        with room:
            seconds, tables = asyncio.run(_failovers(room, args, moves))
        checks = {
            "moves_acknowledged": len(moves),
            "moves_missing": len(missing_moves(db, moves)),
            "audit_problems": len(audit_problems(db)),
            "unsettled_hands": len(unsettled_hands(db)),
        }
    return {
        "cycles": len(seconds),
        "signal": args.signal,
        "processes": args.processes,
        "tables": args.tables,
        "tables_moved_mean": round(sum(tables) / max(1, len(tables)), 1),
        "p50_s": round(_percentile(seconds, 0.50), 3),
        "p99_s": round(_percentile(seconds, 0.99), 3),
        "max_s": round(max(seconds), 3),
        **checks,
    }


async def _failovers(
    room: ServedRoom, args: argparse.Namespace, moves: list[Move]
) -> tuple[list[float], list[int]]:
    """The cycles under a load of signed-in clients (one a table, beside its bots)."""
    stop, seated = asyncio.Event(), asyncio.Event()
    load = asyncio.create_task(
        run_load(
            room.urls, args.tables, 86_400.0, think=0.05, follow=True, stop=stop, record=moves,
            all_seated=seated,
        )
    )  # fmt: skip
    times: list[float] = []
    moved: list[int] = []
    try:
        await seated.wait()  # every client sits before the first kill
        await asyncio.to_thread(wait_hands, room.db, args.tables)
        for cycle in range(args.cycles):
            seconds, tables = await asyncio.to_thread(_cycle, room, args.signal)
            times.append(seconds)
            moved.append(tables)
            _say(
                f"cycle {cycle + 1}/{args.cycles}: {tables} tables served again in {seconds:.2f} s"
            )
    finally:
        stop.set()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(load, 120.0)
    return times, moved


def _cpu(pid: int) -> float:
    """The CPU seconds process ``pid`` used so far (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _postgres(cluster: Cluster) -> list[int]:
    """The cluster's postmaster and its children (the backends, the writers)."""
    with open(cluster.directory / "data" / "postmaster.pid") as lines:
        master = int(lines.readline())
    found = [master]
    for entry in os.listdir("/proc"):
        if entry.isdecimal():
            with contextlib.suppress(OSError), open(f"/proc/{entry}/stat") as stat:
                if int(stat.read().rsplit(")", 1)[1].split()[1]) == master:
                    found.append(int(entry))
    return found


def _load(
    room: ServedRoom, cluster: Cluster, clients: int, think: float, seconds: float
) -> tuple[dict[str, Any], dict[str, float]]:
    """``doubleholdem loadtest`` in a process of its own against ``room``: its figures,
    and the cores each part used meanwhile (the servers, the load, PostgreSQL)."""
    command = [
        sys.executable, "-m", "doubleholdem.cli", "loadtest", "--url", *room.urls,
        "--clients", str(clients), "--seconds", str(seconds), "--think", str(think), "--json",
    ]  # fmt: skip
    servers, database = [p.pid for p in room.processes], _postgres(cluster)
    before = [sum(map(_cpu, servers)), sum(map(_cpu, database))]
    started = time.monotonic()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as errors:
        load = subprocess.Popen(command, stdout=out, stderr=errors, text=True)
        _, status, usage = os.wait4(load.pid, 0)
        load.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - started
        out.seek(0)
        errors.seek(0)
        text, failure = out.read(), errors.read()
    if not text.strip():
        raise RuntimeError(f"loadtest failed: {failure[-2000:]}")
    after = [sum(map(_cpu, servers)), sum(map(_cpu, database))]
    cores = {
        "serve": round((after[0] - before[0]) / wall, 2),
        "postgres": round((after[1] - before[1]) / wall, 2),
        "load": round((usage.ru_utime + usage.ru_stime) / wall, 2),
    }
    result: dict[str, Any] = json.loads(text)
    return result, cores


# the sides compared: (processes, rooms)
SIDES = {"one": (1, 1), "two": (2, 1), "rooms": (2, 2)}


def _ladder(
    cluster: Cluster, side: str, tables: int, args: argparse.Namespace, folder: Path
) -> list[dict[str, Any]]:
    """Each rung of the offered load against one side: one process, two processes on
    one room, or two processes on two rooms (half the tables each)."""
    processes, rooms = SIDES[side]
    rungs = []
    with contextlib.ExitStack() as stack:
        dbs = [stack.enter_context(cluster.schema()) for _ in range(rooms)]
        served = dbs if rooms > 1 else dbs * processes
        extra = ["--guests", "--pause", "0.05"]
        room = ServedRoom(served, processes, folder, tables=tables // rooms, bots=0, extra=extra)
        stack.enter_context(room)
        for think in args.think:
            found, cores = _load(room, cluster, 2 * tables, think, args.seconds)
            rung = {key: found[key] for key in ("actions_per_s", "p50_ms", "p99_ms", "errors")}
            rungs.append({"think": think, **rung, "cores": cores})
            rungs[-1]["load_average"] = round(os.getloadavg()[0], 1)
            _say(f"  {side}, {tables} tables: {json.dumps(rungs[-1])}")
    return rungs


def _best(rungs: list[dict[str, Any]], budget: float) -> float:
    within = [r["actions_per_s"] or 0.0 for r in rungs if r["p99_ms"] <= budget]
    return max(within, default=0.0)


def throughput(args: argparse.Namespace) -> dict[str, Any]:
    """Each side's most actions a second within the p99 budget, and at the p99 one
    process had at its own most (the same p99, however loaded the machine), with the
    ratios to one process."""
    found: dict[str, Any] = {"budget_ms": args.budget_ms, "by_tables": {}}
    with _durable() as cluster, tempfile.TemporaryDirectory() as folder:
        for tables in args.tables:
            where = Path(folder)
            sides = {side: _ladder(cluster, side, tables, args, where) for side in args.sides}
            peak = max(sides["one"], key=lambda r: r["actions_per_s"] or 0.0)
            same = {side: _best(rungs, peak["p99_ms"]) for side, rungs in sides.items()}
            budget = {side: _best(rungs, args.budget_ms) for side, rungs in sides.items()}
            found["by_tables"][tables] = {
                "rungs": sides,
                "p99_of_ones_peak_ms": peak["p99_ms"],
                "at_that_p99": same,
                "ratio_at_that_p99": _ratios(same),
                "within_budget": budget,
                "ratio_within_budget": _ratios(budget),
            }
            _say(f"{tables} tables, at p99 {peak['p99_ms']} ms: {same}, {_ratios(same)}")
    return found


def _ratios(best: dict[str, float]) -> dict[str, float | None]:
    one = best.get("one") or 0.0
    return {side: round(b / one, 2) if one else None for side, b in best.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    fail = commands.add_parser("failover", help="kill -9 (or SIGSTOP) cycles")
    fail.add_argument("--cycles", type=int, default=100)
    fail.add_argument("--processes", type=int, default=3)
    fail.add_argument("--tables", type=int, default=12)
    fail.add_argument("--signal", choices=("kill", "stop"), default="kill")
    load = commands.add_parser("throughput", help="one process against two")
    load.add_argument("--tables", type=lambda t: [int(x) for x in t.split(",")], default=[8, 32])
    load.add_argument(
        "--think", type=lambda t: [float(x) for x in t.split(",")], default=[0.2, 0.1, 0.05, 0.02]
    )
    load.add_argument("--seconds", type=float, default=15.0)
    load.add_argument("--budget-ms", type=float, default=50.0)
    load.add_argument(
        "--sides",
        type=lambda t: t.split(","),
        default=["one", "two"],
        help="one: one process; two: two processes on one room; rooms: two processes on two "
        "rooms (default: one,two)",
    )
    args = parser.parse_args()
    machine = f"{platform.node()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    _say(f"{args.command} on {machine}")
    try:
        report = failover(args) if args.command == "failover" else throughput(args)
    except KeyboardInterrupt:
        _say("interrupted")
        return 130
    report["machine"] = machine
    report["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
