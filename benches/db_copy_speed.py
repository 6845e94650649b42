"""``doubleholdem db copy`` on a room of 120,000 rows (48 MB): a room with accounts, a
hand played, then 100,000 chat lines and 20,000 stored hands of 2 KB each added, copied
into a durable PostgreSQL cluster started for the run (tests/postgres_cluster.py).

Run: ``python benches/db_copy_speed.py`` from the repository (psycopg and Debian's
postgresql installed); prints the seconds, rows and megabytes.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from doubleholdem.cli import main
from money_room import money_room, send, sign_up
from postgres_cluster import start_cluster

CHAT_LINES, HANDS = 100_000, 20_000


def room_file(directory: str) -> str:
    path = os.path.join(directory, "room.db")
    room = money_room(path=path)
    ann, bob = sign_up(room, "ann", 1000), sign_up(room, "bob", 1000)
    send(room, ann, type="sit", table=0, name="ann", buy_in=400)
    send(room, bob, type="sit", table=0, name="bob", buy_in=300)
    room.store.close()
    log = json.dumps([{"kind": "note", "text": "a" * 2000}])
    with sqlite3.connect(path) as db:
        line = "hello there, a chat line of forty chars"
        db.executemany(
            "INSERT INTO chat (table_id, hand, line) VALUES (0, ?, ?)",
            [(i, line) for i in range(CHAT_LINES)],
        )
        db.executemany("INSERT INTO hands VALUES (1, ?, ?)", [(i, log) for i in range(HANDS)])
    return path


def main_speed() -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = room_file(directory)
        cluster = start_cluster(settings=())
        try:
            with cluster.schema() as url:
                started = time.perf_counter()
                status = main(["db", "copy", path, url, "--json"])
                seconds = time.perf_counter() - started
        finally:
            cluster.stop()
        megabytes = os.path.getsize(path) / 1e6
        print(f"status {status}: {seconds:.2f} s for {megabytes:.0f} MB")


if __name__ == "__main__":
    main_speed()
