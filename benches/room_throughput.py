"""Throughput of one PostgreSQL room served by one process against two (issue 33's
target: two processes serve at least 1.6x the actions a second of one at the same p99;
a script, not a test), on this machine, PostgreSQL durable (``fsync`` and
``synchronous_commit`` on: tests/postgres_cluster.py's cluster with its defaults) on
127.0.0.1.

For each tables' count (``--tables``, 8 and 32) and kind of room (``--kinds``: ``guests``,
play chips; ``accounts``, signed-in clients paying through the ledger, every hand raked
into it), ``--repeat`` times, side by side: a fresh room (a schema of its own) served by
one process, then by two (the tables spread over both by their leases); against each a
ladder of offered loads (``--think``: guest clients, ``--per-table`` a table, thinking
less and less), ``doubleholdem loadtest`` in a process of its own for ``--seconds``
each rung. Per rung: steady play's actions a second, p50 and p99 (an action's round
trip), and, over the steady play (read every 0.25 s: every client seated, none leaving
yet), the cores each part used (CPU seconds a second from /proc): each
serve process, PostgreSQL (the postmaster and its children), the load's process, and the
whole machine (the rest is other work); the CPU milliseconds each part spent per action,
and from them the *ceiling*: the actions a second at which the room alone would spend
every core of this machine, or each serve process a whole core (its interpreter lock),
whichever comes first (CPU time is spent, not waited for: the figure other work on the
machine disturbs least); and, from ``pg_stat_statements``, the statements PostgreSQL ran
per action, the most frequent ones (``--statements``) and the milliseconds per action
spent taking advisory transaction locks (the ledger's lock, and the schema's).

The comparison: each side's most actions a second at a p99 no worse than one process's
at its own most (the same p99), the same within ``--budget-ms`` (50), rung by rung (the
same offered load), and the sides' ceilings, each as a ratio to one process. Progress
goes to standard error, one JSON object to standard output; Ctrl-C stops it (exit 130),
the processes and the cluster stopped.

Run: ``PYTHONPATH=python python3 benches/room_throughput.py`` (``--tables 8,32 --kinds
guests,accounts --think 0.02,0.01,0 --seconds 10 --repeat 2``). Figures:
benches/README.md ("Two processes on one room").
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from cluster_harness import ROOM, ServedRoom
from failover import _cpu, _postgres, _say, reported
from postgres_cluster import Cluster, start_cluster

SAMPLE_SECONDS = 0.25  # between two readings of the parts' CPU time

# every hand raked into the ledger in a room of accounts (a money movement a hand)
RAKED = """
[[table]]
small_blind = 5
big_blind = 10
seats = 6
rake = {basis_points = 500, cap = 30, no_flop_no_drop = false}
"""


@contextlib.contextmanager
def _durable() -> Iterator[Cluster]:
    """A durable cluster (its defaults) that counts its statements."""
    settings = ("shared_preload_libraries=pg_stat_statements", "max_connections=300")
    cluster = start_cluster(settings=settings)
    try:
        import psycopg

        with psycopg.connect(cluster.url(), autocommit=True) as admin:
            admin.execute("CREATE EXTENSION pg_stat_statements")
        yield cluster
    finally:
        cluster.stop()


def _statements(cluster: Cluster, reset: bool = False) -> list[tuple[int, float, str]]:
    """The statements run in the room's database since the last reset: (calls, their
    milliseconds in the server, text), most called first."""
    import psycopg

    with psycopg.connect(cluster.url(), autocommit=True) as admin:
        if reset:
            admin.execute("SELECT pg_stat_statements_reset()")
            return []
        rows = admin.execute(
            "SELECT s.calls, s.total_exec_time, s.query FROM pg_stat_statements s"
            " JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = current_database()"
            " AND s.query NOT LIKE '%pg_stat_statements%' ORDER BY s.calls DESC"
        ).fetchall()
    return [(int(n), float(ms), " ".join(str(query).split())) for n, ms, query in rows]


def _busy() -> float:
    """The machine's CPU seconds used so far, every core, every process."""
    with open("/proc/stat") as stat:
        fields = [int(x) for x in stat.readline().split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


class _Sample(NamedTuple):
    """The CPU seconds each part had used at ``at`` (``time.monotonic``)."""

    at: float
    serve: list[float]
    postgres: dict[int, float]  # by process: backends come and go
    load: float
    busy: float


def _sample(servers: list[int], cluster: Cluster, load: int) -> _Sample:
    database = {pid: _cpu(pid) for pid in _postgres(cluster)}
    return _Sample(time.monotonic(), [_cpu(p) for p in servers], database, _cpu(load), _busy())


def _steady(samples: list[_Sample], start: float, end: float) -> tuple[_Sample, _Sample]:
    """The first and last samples within ``start`` to ``end``."""
    inside = [s for s in samples if start <= s.at <= end]
    if len(inside) < 2:
        raise RuntimeError("the steady play was too short to measure: give more --seconds")
    return inside[0], inside[-1]


def _rung(
    room: ServedRoom, cluster: Cluster, clients: int, think: float, args: argparse.Namespace
) -> dict[str, Any]:
    """``doubleholdem loadtest`` in a process of its own against ``room``: its figures,
    and, over its steady play (every client seated, none leaving yet), the cores each
    part used, their CPU per action, and the statements per action."""
    command = [
        sys.executable, "-m", "doubleholdem.cli", "loadtest", "--url", *room.urls,
        "--clients", str(clients), "--seconds", str(args.seconds), "--think", str(think),
        "--json",
    ]  # fmt: skip
    servers = [p.pid for p in room.processes]
    _statements(cluster, reset=True)
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as errors:
        load = subprocess.Popen(command, stdout=out, stderr=errors, text=True)
        samples = [_sample(servers, cluster, load.pid)]
        while load.poll() is None:
            time.sleep(SAMPLE_SECONDS)
            samples.append(_sample(servers, cluster, load.pid))
        out.seek(0)
        errors.seek(0)
        text, failure = out.read(), errors.read()
    if not text.strip():  # its exit status says whether every action went through
        raise RuntimeError(f"loadtest failed ({load.returncode}): {failure[-2000:]}")
    found: dict[str, Any] = json.loads(text)
    statements = _statements(cluster)
    # the steady play, as the load times it from its start (a margin for its own start)
    began = samples[0].at + found["sign_in_s"]
    first, last = _steady(
        samples, began + (found["seated_s"] or 0.0) + 1.5, began + args.seconds - 1.0
    )
    wall = last.at - first.at
    actions = (found["actions_per_s"] or 0.0) * wall or 1.0
    used = {
        "serve": [b - a for a, b in zip(first.serve, last.serve, strict=True)],
        "postgres": sum(
            c - first.postgres[p] for p, c in last.postgres.items() if p in first.postgres
        ),
        "load": last.load - first.load,
    }
    cpu_ms = {
        "serve": round(1000 * sum(used["serve"]) / actions, 3),
        "postgres": round(1000 * used["postgres"] / actions, 3),
        "load": round(1000 * used["load"] / actions, 3),
    }
    ours = sum(used["serve"]) + used["postgres"] + used["load"]
    cores = {
        "serve": [round(c / wall, 2) for c in used["serve"]],
        "postgres": round(used["postgres"] / wall, 2),
        "load": round(used["load"] / wall, 2),
        "machine": round((last.busy - first.busy) / wall, 2),
        "others": round(max(0.0, last.busy - first.busy - ours) / wall, 2),
    }
    every = found["actions"] or 1  # the statements: of every action, seating and leaving too
    keys = ("actions_per_s", "p50_ms", "p99_ms", "errors", "chip_errors", "still_seated")
    rung = {key: found[key] for key in keys}
    rung["statements_per_action"] = round(sum(c for c, _, _ in statements) / every, 2)
    # the time spent waiting for the ledger's lock (PostgreSQL counts it as the statement's)
    waits = sum(ms for _, ms, q in statements if "pg_advisory_xact_lock" in q)
    rung["ledger_lock_ms_per_action"] = round(waits / every, 3)
    if args.statements:
        rung["top_statements"] = [
            [round(c / every, 2), q[:160]] for c, _, q in statements[: args.statements]
        ]
    steady = bool(found["actions_per_s"])  # none: a client did not sit (no steady play)
    rung["cpu_ms_per_action"] = cpu_ms if steady else None
    rung["ceiling_per_s"] = _ceiling(cpu_ms, len(servers)) if steady else 0.0
    return {"think": think, **rung, "cores": cores, "load_average": os.getloadavg()[0]}


def _ceiling(cpu_ms: dict[str, float], processes: int) -> float:
    """The actions a second at which this machine's cores would be spent by the room
    alone (its CPU per action: the servers', PostgreSQL's, the load's), or at which
    each serve process would spend a whole core (its event loop and its commit thread
    share one interpreter lock), whichever comes first: what bounds the side where
    nothing else runs."""
    total = sum(cpu_ms.values())
    per_process = cpu_ms["serve"] / processes
    bounds = [1000 * (os.cpu_count() or 1) / total if total else 0.0]
    bounds += [1000 / per_process] if per_process else []
    return round(min(bounds), 1)


# the sides compared: how many processes serve the room
SIDES = {"one": 1, "two": 2}


def _extra(kind: str, folder: Path) -> list[str]:
    """The serve options of a room of ``kind``."""
    if kind == "guests":
        return ["--guests", "--pause", "0.05"]
    config = folder / "raked.toml"
    config.write_text(RAKED)
    return ["--config", str(config), "--pause", "0.05", *ROOM]


def _ladder(
    cluster: Cluster, side: str, tables: int, kind: str, args: argparse.Namespace, folder: Path
) -> list[dict[str, Any]]:
    """Every rung of the offered load against a fresh room of ``kind`` served by
    ``side``'s processes."""
    rungs = []
    with cluster.schema() as db:
        extra = _extra(kind, folder)
        room = ServedRoom(db, SIDES[side], folder, tables=tables, bots=0, extra=extra)
        with room:
            for think in args.think:
                rung = _rung(room, cluster, args.per_table * tables, think, args)
                rungs.append(rung)
                _say(f"  {kind}, {tables} tables, {side}: {json.dumps(rung)}")
    return rungs


def _best(rungs: list[dict[str, Any]], p99: float) -> float:
    within = [r["actions_per_s"] or 0.0 for r in rungs if r["p99_ms"] <= p99]
    return max(within, default=0.0)


def _ratio(two: float, one: float) -> float | None:
    return round(two / one, 2) if one else None


def _compare(one: list[dict[str, Any]], two: list[dict[str, Any]], budget: float) -> dict[str, Any]:
    """Two processes against one: at one's peak p99, within the budget, rung by rung."""
    peak = max(one, key=lambda r: r["actions_per_s"] or 0.0)
    same = (_best(one, peak["p99_ms"]), _best(two, peak["p99_ms"]))
    within = (_best(one, budget), _best(two, budget))
    ceilings = (max(r["ceiling_per_s"] for r in one), max(r["ceiling_per_s"] for r in two))
    by_rung = [
        _ratio(b["actions_per_s"] or 0.0, a["actions_per_s"] or 0.0)
        for a, b in zip(one, two, strict=True)
    ]
    return {
        "p99_of_ones_peak_ms": peak["p99_ms"],
        "at_that_p99": same,
        "ratio_at_that_p99": _ratio(same[1], same[0]),
        "within_budget": within,
        "ratio_within_budget": _ratio(within[1], within[0]),
        "ratio_by_rung": by_rung,
        "ceilings": ceilings,
        "ratio_of_ceilings": _ratio(ceilings[1], ceilings[0]),
    }


def throughput(args: argparse.Namespace) -> dict[str, Any]:
    found: dict[str, Any] = {"budget_ms": args.budget_ms, "runs": []}
    with _durable() as cluster, tempfile.TemporaryDirectory() as folder:
        for repeat in range(args.repeat):
            for kind in args.kinds:
                for tables in args.tables:
                    where = Path(folder)
                    sides = {s: _ladder(cluster, s, tables, kind, args, where) for s in SIDES}
                    compared = _compare(sides["one"], sides["two"], args.budget_ms)
                    found["runs"].append(
                        {"repeat": repeat, "kind": kind, "tables": tables, **compared, **sides}
                    )
                    _say(f"{kind}, {tables} tables, run {repeat}: {json.dumps(compared)}")
    return found


def _floats(text: str) -> list[float]:
    return [float(x) for x in text.split(",")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=lambda t: [int(x) for x in t.split(",")], default=[8, 32])
    parser.add_argument("--kinds", type=lambda t: t.split(","), default=["guests", "accounts"])
    parser.add_argument("--think", type=_floats, default=[0.02, 0.01, 0.0])
    parser.add_argument("--per-table", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--budget-ms", type=float, default=50.0)
    parser.add_argument(
        "--statements", type=int, default=0, help="the N most frequent statements per rung"
    )
    args = parser.parse_args()
    if not set(args.kinds) <= {"guests", "accounts"}:
        parser.error("--kinds: guests, accounts")
    return reported("room throughput", lambda: throughput(args))


if __name__ == "__main__":
    sys.exit(main())
