"""The ledger's one lock across processes (issue 33 item 5; a script, not a test): how
long a group commit holds the ledger's advisory lock, how often two processes' commits
wait for it, and money movements a second with one and two writer processes, on a
durable PostgreSQL on this machine (tests/postgres_cluster.py's cluster with its
defaults: ``fsync`` and ``synchronous_commit`` on, TCP on 127.0.0.1).

Each writer process is shaped as a served room's group commit: one transaction holding
``--tables`` tables' hand ends, each of them ``--rows`` rows written (the snapshot, the
log, the hand: an upsert of a 1 KiB text each, one round trip each, as the storage's) and
one rake posted to the ledger (``LedgerWallet.rake``: about ten round trips under the
lock), then ``COMMIT``. Each process has tables of its own (as leased tables are). Three
shapes of the commit, each with one and then two writer processes:

- ``first``: the money steps first (the lock is held for the whole commit, as when a
  hand's end of the first table in the batch posts its rake before the other tables'
  rows are written);
- ``last``: every table's rows first, the money steps right before ``COMMIT`` (the lock
  held for the rakes and the flush only);
- ``none``: the rows only (no ledger lock at all: what the commits cost without it).

Per commit: whether the lock was free (``pg_try_advisory_xact_lock`` first, then the
waiting one), the wait, and the hold (from the lock taken to ``COMMIT`` returned). Per
side: commits and movements a second over the whole run (from the start signal to the
last writer's end), and the CPU seconds per second used by the writers and by
PostgreSQL's processes.

Run: ``PYTHONPATH=python python3 benches/ledger_processes.py`` (``--commits 150
--tables 4 --rows 12 --rounds 2``). Progress goes to standard error; Ctrl-C stops it
(exit 130). Figures: benches/README.md ("The ledger's lock across processes").
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import multiprocessing.synchronize
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from doubleholdem.accounts import ledger
from doubleholdem.accounts.schema import ensure_schema
from doubleholdem.accounts.wallet import LedgerWallet
from doubleholdem.database.connection import begin
from doubleholdem.database.url import connect
from failover import _cpu, _durable, _percentile, _postgres, _say

SHAPES = ("first", "last", "none")
PAYLOAD = "x" * 1024
FUNDS = 10**12  # each table's chips, opened from the house, that the rakes take


def _prepare(url: str, writers: int, tables: int) -> None:
    """The accounts' schema, the rows' table and every writer's tables funded."""
    db = connect(url)
    try:
        ensure_schema(db)
        db.execute(
            "CREATE TABLE IF NOT EXISTS bench_rows (id BIGINT PRIMARY KEY, body TEXT NOT NULL)"
        )
        begin(db)
        for table_id in range(writers * tables):
            target = ledger.table(table_id)
            key = f"opening:{table_id}"
            ledger.transfer(db, key, "opening", ledger.HOUSE, target, FUNDS)
        db.execute("COMMIT")
    finally:
        db.close()


def _money(
    db: Any, wallet: LedgerWallet, tables: list[int], commit: int
) -> tuple[bool, float, float]:
    """Takes the ledger's lock (free at once or waited for) and posts each table's
    rake: whether it was free, the wait, and when it was taken."""
    began = time.perf_counter()
    row = db.execute(
        "SELECT pg_try_advisory_xact_lock(hashtext(?), hashtext(current_schema()))",
        ("doubleholdem:ledger",),
    ).fetchone()  # the lock serialise(db, "ledger") takes
    free = bool(row[0])
    if not free:
        ledger.lock(db)
    taken = time.perf_counter()
    for table_id in tables:
        wallet.rake(table_id, 1, key=f"rake:{table_id}:{commit}")
    return free, 0.0 if free else taken - began, taken


def _rows(db: Any, tables: list[int], rows: int, commit: int) -> None:
    for table_id in tables:
        for row in range(rows):
            db.execute(
                "INSERT INTO bench_rows VALUES (?, ?) "
                "ON CONFLICT (id) DO UPDATE SET body = excluded.body",
                (table_id * 1000 + row, f"{commit}:{PAYLOAD}"),
            )


def _writer(
    url: str,
    number: int,
    args: dict[str, Any],
    go: multiprocessing.synchronize.Event,
    out: Any,
) -> None:
    """One writer process: ``commits`` group commits of its own tables."""
    shape, tables_each = args["shape"], args["tables"]
    tables = [number * tables_each + t for t in range(tables_each)]
    db = connect(url)
    wallet = LedgerWallet(db)
    held, waits, waited = [], [], 0
    backend = int(db.execute("SELECT pg_backend_pid()").fetchone()[0])
    go.wait()
    cpu, backend_cpu = time.process_time(), _cpu(backend)
    for commit in range(args["commits"]):
        begin(db)
        locked = None
        if shape == "first":
            locked = _money(db, wallet, tables, commit)
        _rows(db, tables, args["rows"], commit)
        if shape == "last":
            locked = _money(db, wallet, tables, commit)
        db.execute("COMMIT")
        if locked is not None:
            free, wait, taken = locked
            held.append(time.perf_counter() - taken)
            waits.append(wait)
            waited += not free
    out.put(
        {
            "ended": time.perf_counter(),
            "held": held,
            "waits": waits,
            "waited": waited,
            "cpu": time.process_time() - cpu,
            "backend_cpu": _cpu(backend) - backend_cpu,
            "backend": backend,
        }
    )
    db.close()


def _side(url: str, cluster: Any, writers: int, args: dict[str, Any]) -> dict[str, Any]:
    """``writers`` processes at once; the side's figures."""
    context = multiprocessing.get_context("spawn")
    go, out = context.Event(), context.Queue()
    processes = [
        context.Process(target=_writer, args=(url, n, args, go, out)) for n in range(writers)
    ]
    for process in processes:
        process.start()
    time.sleep(1.0)  # the writers connected and waiting (spawn imports the package)
    postgres = _postgres(cluster)  # its own processes (the writers' backends counted apart)
    pg_cpu = {pid: _cpu(pid) for pid in postgres}
    began = time.perf_counter()
    go.set()
    results = [out.get() for _ in processes]
    for process in processes:
        process.join()
    wall = max(r["ended"] for r in results) - began
    lasting = set(_postgres(cluster)) & set(pg_cpu) - {r["backend"] for r in results}
    pg_cpu_used = sum(_cpu(pid) - pg_cpu[pid] for pid in lasting)
    pg_cpu_used += sum(r["backend_cpu"] for r in results)
    commits = writers * args["commits"]
    money = args["shape"] != "none"
    held = [h for r in results for h in r["held"]]
    waits = [w for r in results for w in r["waits"]]
    return {
        "commits_per_s": commits / wall,
        "movements_per_s": commits * args["tables"] / wall if money else 0.0,
        "held_ms_p50": 1000 * _percentile(held, 0.5) if money else None,
        "held_ms_p90": 1000 * _percentile(held, 0.9) if money else None,
        "waited_share": sum(r["waited"] for r in results) / commits if money else None,
        "wait_ms_p50_of_waits": (
            1000 * _percentile([w for w in waits if w > 0], 0.5)
            if any(w > 0 for w in waits)
            else 0.0
        ),
        "writers_cpu_per_s": sum(r["cpu"] for r in results) / wall,
        "postgres_cpu_per_s": pg_cpu_used / wall,
    }


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    figures: list[dict[str, Any]] = []
    with _durable() as cluster:
        for round_ in range(args.rounds):
            for shape in SHAPES:
                for writers in (1, 2):
                    with cluster.schema() as url:
                        _prepare(url, writers, args.tables)
                        shaped = {
                            "shape": shape,
                            "tables": args.tables,
                            "rows": args.rows,
                            "commits": args.commits,
                        }
                        found = _side(url, cluster, writers, shaped)
                    found.update(round=round_, shape=shape, writers=writers)
                    _say(f"round {round_} {shape} x{writers}: {_line(found)}")
                    figures.append(found)
    return figures


def _line(found: dict[str, Any]) -> str:
    return ", ".join(
        f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}"
        for k, v in found.items()
        if k not in ("round", "shape", "writers")
    )


def _table(figures: list[dict[str, Any]]) -> None:
    print(
        "| shape | writers | commits/s | movements/s | lock held p50 / p90 ms | "
        "commits that waited | their wait p50 ms | writers' CPU/s | PostgreSQL's CPU/s |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for f in figures:
        held = (
            f"{f['held_ms_p50']:.2f} / {f['held_ms_p90']:.2f}"
            if f["held_ms_p50"] is not None
            else "-"
        )
        waited = f"{100 * f['waited_share']:.0f}%" if f["waited_share"] is not None else "-"
        print(
            f"| {f['shape']} (round {f['round']}) | {f['writers']} | {f['commits_per_s']:.0f} | "
            f"{f['movements_per_s']:.0f} | {held} | {waited} | {f['wait_ms_p50_of_waits']:.2f} | "
            f"{f['writers_cpu_per_s']:.2f} | {f['postgres_cpu_per_s']:.2f} |"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commits", type=int, default=150, help="group commits per writer")
    parser.add_argument("--tables", type=int, default=4, help="tables' hand ends per commit")
    parser.add_argument("--rows", type=int, default=12, help="rows written per table")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    try:
        figures = run(args)
    except KeyboardInterrupt:
        _say("stopped")
        return 130
    print(
        f"\n{platform.node()}, {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.1f}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
    )
    _table(figures)
    return 0


if __name__ == "__main__":
    with contextlib.suppress(BrokenPipeError):
        sys.exit(main())
