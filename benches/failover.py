"""The room past one process (issue 33; a script, not a test): failover of ``serve``
processes on one PostgreSQL room, on this machine, PostgreSQL durable
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

Run: ``python benches/failover.py failover`` (the throughput of one process against two
is benches/room_throughput.py's). Progress goes to standard error; Ctrl-C stops it
(exit 130), the processes and the cluster stopped. Figures: benches/README.md ("Failover").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
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
from doubleholdem.server.http.loadtest import LoadResult, run_load
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
            seconds, tables, load = asyncio.run(_failovers(room, args, moves))
        checks = {
            "clients_still_seated": None if load is None else load["still_seated"],
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
) -> tuple[list[float], list[int], LoadResult | None]:
    """The cycles under a load of signed-in clients (one a table, beside its bots), and
    the load's result (``None`` if it failed)."""
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
        result = None
        with contextlib.suppress(Exception):
            result = await asyncio.wait_for(load, 120.0)
    return times, moved, result


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


def reported(title: str, work: Callable[[], dict[str, Any]]) -> int:
    """Runs ``work`` and prints its report as JSON with the machine and the date (its
    progress on standard error); Ctrl-C: exit 130."""
    machine = f"{platform.node()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    _say(f"{title} on {machine}")
    try:
        report = work()
    except KeyboardInterrupt:
        _say("interrupted")
        return 130
    report["machine"] = machine
    report["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(json.dumps(report))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    fail = commands.add_parser("failover", help="kill -9 (or SIGSTOP) cycles")
    fail.add_argument("--cycles", type=int, default=100)
    fail.add_argument("--processes", type=int, default=3)
    fail.add_argument("--tables", type=int, default=12)
    fail.add_argument("--signal", choices=("kill", "stop"), default="kill")
    args = parser.parse_args()
    return reported("failover", lambda: failover(args))


if __name__ == "__main__":
    sys.exit(main())
