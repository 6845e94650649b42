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
(the audit, every hand settled once, every acknowledged decision in the database,
the load's clients all seated and none still seated at its end; for each client still
seated, what it last sent and was told, on standard error).

``tournaments``: two processes on one room, the first running its tournaments (one
multi-table tournament of bots in play, stacks deep enough to last the run); again and
again (``--cycles``, 10) the process running them is killed (``kill -9``) and the time
measured from the signal until the other holds their lease and answers a request for
the tournament itself (``GET /api/tournaments/0``: 200, where a process not running them
answers 307), restored from the database; the killed one is started again on its port
(the next cycle kills the other). Prints each cycle, then p50, the slowest, the
tournament's hands stored and the audit.

Run: ``python benches/failover.py failover`` (the throughput of one process against two
is benches/room_throughput.py's). Progress goes to standard error; Ctrl-C stops it
(exit 130), the processes and the cluster stopped. Figures: benches/README.md ("Failover").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
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
    Served,
    ServedRoom,
    audit_problems,
    missing_moves,
    tournaments_runner,
    unsettled_hands,
    wait_hands,
    wait_in_hand,
)
from doubleholdem.database.url import connect
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
        if load is not None and load["still_seated_trails"]:  # why each client stayed
            _say(f"clients still seated: {json.dumps(load['still_seated_trails'], indent=1)}")
        checks = {
            "clients_still_seated": None if load is None else load["still_seated"],
            "clients_refused_a_seat": None if load is None else load["sit_refused"],
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


# bots play it through the run: blinds small against the stacks, levels long
MTT = """
[[tournament]]
name = "mtt"
kind = "scheduled"
start_at = {start_at}
minimum = 2
capacity = 13
seats = 4
starting_stack = 100000
buy_in = 100
fee = 10
bots = 12
level_by = "hands"
level_length = 1000
levels = [{{small_blind = 5, big_blind = 10}}]
"""


def _tournament_served(served: Served) -> bool:
    """Whether ``served`` answers the tournament's own request itself (not a redirect to
    the process running them, not an error of a process that is gone)."""
    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=5)
    try:
        connection.request("GET", "/api/tournaments/0")
        return connection.getresponse().status == 200
    except OSError:
        return False
    finally:
        connection.close()


def _tournament_hands(db: str) -> int:
    with contextlib.closing(connect(db)) as store:
        return int(store.execute("SELECT COUNT(*) FROM hands WHERE table_id < 0").fetchone()[0])


def _takeover(room: ServedRoom) -> float:
    """One takeover: the runner killed, the seconds until the other serves the
    tournament; the killed one started again on its port."""
    runner = tournaments_runner(room)
    assert runner is not None and _tournament_served(runner)
    other = next(p for p in room.live if p is not runner)
    at_kill = _tournament_hands(room.db)
    started = time.monotonic()
    runner.kill()
    deadline = started + 120.0
    while not (tournaments_runner(room) is other and _tournament_served(other)):
        if time.monotonic() > deadline:
            raise TimeoutError("the tournaments were not taken over in 120 s")
        time.sleep(0.01)
    seconds = time.monotonic() - started
    room.start(port=runner.port)
    while _tournament_hands(room.db) <= at_kill:  # played on there before the next kill
        time.sleep(0.05)
    return seconds


def tournaments(args: argparse.Namespace) -> dict[str, Any]:
    with _durable() as cluster, cluster.schema() as db, tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "room.toml"
        config.write_text(MTT.format(start_at=int(time.time()) + 3))
        extra = ["--bot-delay", "0.02", "--pause", "0.05", *ROOM, "--config", str(config)]
        room = ServedRoom(db, 2, Path(folder), tables=0, bots=0, extra=extra)
        seconds: list[float] = []
        with room:
            while _tournament_hands(db) < 3:  # the tournament in play
                time.sleep(0.05)
            for cycle in range(args.cycles):
                seconds.append(_takeover(room))
                _say(f"cycle {cycle + 1}/{args.cycles}: taken over in {seconds[-1]:.2f} s")
            hands = _tournament_hands(db)
        problems = audit_problems(db)
    return {
        "cycles": len(seconds),
        "p50_s": round(_percentile(seconds, 0.50), 3),
        "max_s": round(max(seconds), 3),
        "each_s": [round(s, 3) for s in seconds],
        "tournament_hands": hands,
        "audit_problems": len(problems),
    }


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
    taken = commands.add_parser("tournaments", help="kill -9 the tournaments' runner")
    taken.add_argument("--cycles", type=int, default=10)
    args = parser.parse_args()
    if args.command == "tournaments":
        return reported("tournaments", lambda: tournaments(args))
    return reported("failover", lambda: failover(args))


if __name__ == "__main__":
    sys.exit(main())
