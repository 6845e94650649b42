"""What the lobby across processes costs (issue 33 item 3; benchmarks, not tests).

Run: ``python -m pytest benches/bench_lobby.py -s -p no:randomly``. PostgreSQL durable,
started for the run as the tests start theirs (benches/conftest.py ``durable``). Side by
side in one run, printed:

- a hand's end committed on PostgreSQL with the table's summary stored and announced
  (``NOTIFY``) and without (the same room, its runner's ``publish`` off), interleaved;
- a summary made (``summary()`` and its JSON) on the event loop, per snapshot;
- a lobby page (100 entries) answered from memory when 1,000 tables are elsewhere;
- the reader's work off the loop: the owners of 1,000 leased tables and one summary
  read after a notification, and all 1,000 summaries read at its start.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from doubleholdem.database.url import connect
from doubleholdem.server.cluster import leases
from doubleholdem.server.storage.lobby_rows import put_summary, read_summaries
from doubleholdem.server.tables.directory import Place
from doubleholdem.server.tables.directory_reader import DirectoryReader, Leases
from postgres_cluster import Cluster

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench_postgres's hands

TABLES = 1000


def _ms(values: list[float]) -> str:
    ordered = sorted(values)
    return f"{statistics.median(ordered) * 1e3:.3f} | {ordered[int(len(ordered) * 0.9)] * 1e3:.3f}"


def test_what_the_lobby_across_processes_costs(durable: Cluster, tmp_path: Path) -> None:
    from bench_money import _room
    from bench_postgres import _hand_ends

    hands, rounds = 10, 4
    with durable.schema() as with_url, durable.schema() as without_url:
        rooms = {"summary stored": _room(with_url, False), "no summary": _room(without_url, False)}
        rooms["no summary"].runners[0].publish = None
        commits: dict[str, list[float]] = {kind: [] for kind in rooms}
        for _ in range(rounds):
            for kind, room in rooms.items():
                commits[kind] += [commit for commit, _ in _hand_ends(room, hands)]
        runner = rooms["summary stored"].runners[0]
        made = []
        for _ in range(2000):
            began = time.perf_counter()
            runner.summary_step()
            made.append(time.perf_counter() - began)
        room = rooms["summary stored"]
        there = Place("p2", "http://127.0.0.1:8002")
        summary = runner.summary()
        room.tables.directory.replace({i: (there, {**summary, "id": i}) for i in range(TABLES)})
        pages = []
        for first in range(0, TABLES, 100):
            began = time.perf_counter()
            room.lobby(first)
            pages.append(time.perf_counter() - began)
        for each in rooms.values():
            each.store.close()
        reads = _reader_work(with_url, summary)
    print(f"\na hand's end committed on PostgreSQL ({hands * rounds} hands each), ms")
    print("| room | median | p90 |")
    print("| --- | ---: | ---: |")
    for kind, found in commits.items():
        print(f"| {kind} | {_ms(found)} |")
    print(f"summary made (summary() + JSON), on the loop, per snapshot: {_ms(made)} ms")
    print(f"lobby page of 100 from memory, {TABLES} tables elsewhere: {_ms(pages)} ms")
    for name, found in reads.items():
        print(f"{name}: {_ms(found)} ms")


def _reader_work(url: str, summary: dict[str, Any]) -> dict[str, list[float]]:
    """The reader's readings off the loop in a room of ``TABLES`` leased tables, each
    with a summary: the owners and one summary (after a notification), and every
    summary (its start)."""
    db = connect(url)
    try:
        db.execute("BEGIN")
        db.executemany(
            "INSERT INTO tables VALUES (?, '{}', '{}') ON CONFLICT DO NOTHING",
            [(i,) for i in range(TABLES)],
        )
        for i in range(TABLES):
            put_summary(db, i, json.dumps({**summary, "id": i}), None)
        db.execute("COMMIT")
        leases.register(db, "p2", "http://127.0.0.1:8002", lock=None, seconds=600)
        leases.acquire(db, "p2", want=TABLES)
        found: dict[str, list[float]] = {"owners + 1 summary": [], "all summaries": []}
        reader = DirectoryReader(url, None, Leases())  # type: ignore[arg-type]
        for _ in range(20):
            began = time.perf_counter()
            Leases().owners(db)
            read_summaries(db, [7])
            found["owners + 1 summary"].append(time.perf_counter() - began)
            began = time.perf_counter()
            reader._read_all(db)
            found["all summaries"].append(time.perf_counter() - began)
        return {f"reader, {TABLES} tables: {k}": v for k, v in found.items()}
    finally:
        db.close()
