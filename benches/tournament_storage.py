"""What a room's tournament writes per change (issue 34 item 3), side by side in one run:
schema 5's one row (the room's state with the library's whole snapshot, every table's
in it, rewritten at every change) against schema 6's rows per table
(:class:`~doubleholdem.server.tournaments.stored.Pending`: a decision as one move row of
its table, a hand's end as the tournament's own row and the tables it changed).

For 9, 100 and 1,000 entrants (9 seats a table, no-limit Texas Hold'em, calling stations), a
scheduled tournament is started and played; after each decision and each hand's end
both forms store the same state, each in a SQLite file of its own (WAL,
``synchronous=NORMAL``, as ``serve``), in turn (which goes first alternates). Per change
and per form: the milliseconds from the state in memory to the commit returned (the
texts made, the rows written, the commit), the bytes of row text written, and the bytes
the commit added to the write-ahead log (whole 4 KiB pages and their headers; the log
is reset past 32 MiB, outside the timing). The one-row writer is schema 5's
(``Stored.to_text(tables=True)``: the room writes it no more). Progress on stderr;
Ctrl-C stops it (exit 130).

Run: ``python benches/tournament_storage.py [--sizes 9 100 1000] [--decisions 200]
[--hands 20] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from types import SimpleNamespace
from typing import Any

from doubleholdem.server.storage import tournament_rows
from doubleholdem.server.storage.database import open_database
from doubleholdem.server.storage.journal import decide_move
from doubleholdem.server.tournaments.spec import spec_from_entry
from doubleholdem.server.tournaments.stored import Pending, Stored
from doubleholdem.table.bots import make_bot
from doubleholdem.tournament import Tournament

KINDS = {"decision": "a decision", "start": "a hand's start", "end": "a hand's end"}
KEY = b"bench-snapshot-key"  # a room's snapshot key: every snapshot under an HMAC
WAL_RESET = 32 * 2**20  # the log is reset past this size (outside the timing)


def one_row_text(stored: Stored, tournament: Tournament, key: bytes | None) -> str:
    """Schema 5's row: the room's state with the library's whole snapshot."""
    return stored.to_text(tournament, key, tables=True)


class Form:
    """One way of storing, on a SQLite file of its own."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.db = open_database(path, "normal", busy_seconds=5.0)
        self.db.execute("PRAGMA wal_autocheckpoint=0")
        self.store = SimpleNamespace(db=self.db)
        self.times: dict[str, list[float]] = {kind: [] for kind in KINDS}
        self.text: dict[str, list[int]] = {kind: [] for kind in KINDS}
        self.wal: dict[str, list[int]] = {kind: [] for kind in KINDS}

    def commit(self, kind: str, make: Callable[[], tuple[list[Any], int]]) -> None:
        """Makes the change's steps (``make``: the steps and their bytes of text), writes
        them in one transaction and commits, timed; the log's growth noted."""
        wal = self.path + "-wal"
        if os.path.getsize(wal) > WAL_RESET:
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        before = os.path.getsize(wal)
        start = time.perf_counter()
        steps, size = make()
        self.db.execute("BEGIN IMMEDIATE")
        for step in steps:
            step(self.store)
        self.db.execute("COMMIT")
        self.times[kind].append((time.perf_counter() - start) * 1000)
        self.text[kind].append(size)
        self.wal[kind].append(os.path.getsize(wal) - before)


def _size(steps: list[Any]) -> int:
    """The bytes of row text a list of steps writes."""
    total = 0
    for step in steps:
        words = step.keywords if isinstance(step, partial) else {}
        total += sum(len(str(words[k])) for k in ("text", "snapshot", "move") if k in words)
    return total


def run(
    entrants: int, decisions: int, hands: int, folder: str, say: Callable[[str], None]
) -> dict[str, Any]:
    spec = spec_from_entry({"name": "bench", "kind": "scheduled", "capacity": entrants,
                            "minimum": 2, "seats": 9, "starting_stack": 10_000,
                            "start_at": 0, "level_by": "hands", "level_length": 30})  # fmt: skip
    tournament = Tournament(spec.config, seed=entrants)
    stored = Stored(0, spec)
    for n in range(entrants):
        tournament.register(f"p{n}")
        stored.sales += 1
        stored.bots[f"p{n}"] = "random"
    tournament.start(now=0.0)
    stored.status = "running"
    opened = len(tournament.tables)
    old, new = Form(f"{folder}/one-row-{entrants}.db"), Form(f"{folder}/per-table-{entrants}.db")
    pending = Pending(set())
    first = one_row_text(stored, tournament, KEY)
    old.commit("start", lambda: ([partial(_put, text=first)], 0))
    new.commit("start", lambda: (pending.steps(stored, tournament, KEY), 0))
    for form in (old, new):
        for values in (*form.times.values(), *form.text.values(), *form.wal.values()):
            values.clear()
    bots: dict[str, Any] = {}
    turn = 0
    now = 0.0

    def both(kind: str) -> None:
        nonlocal turn
        text = one_row_text  # the one-row form's text and steps, made inside its timing

        def one_row() -> tuple[list[Any], int]:
            row = text(stored, tournament, KEY)
            return [partial(_put, text=row)], len(row)

        def per_table() -> tuple[list[Any], int]:
            steps = pending.steps(stored, tournament, KEY)
            return steps, _size(steps)

        order = [(old, one_row), (new, per_table)]
        for form, make in order if turn % 2 == 0 else order[::-1]:
            form.commit(kind, make)
        turn += 1

    made = ended = 0
    while tournament.state == "running" and (made < decisions or ended < hands):
        for number in tournament.ready_tables(now):
            if tournament.state != "running" or number not in tournament.ready_tables(now):
                continue  # broken or halted by the hands before
            table = tournament.start_hand(number, now=now)
            pending.tables.add(number)
            pending.state = True
            both("start")
            while table.in_hand:
                seat = table.to_act
                assert seat is not None
                now += 1.0
                bot = bots.setdefault(table.player(seat), make_bot("station", seed=len(bots)))
                decision = bot.choose(table.observe(seat))
                table.decide(seat, decision, now=now)
                if table.in_hand and made < decisions:
                    pending.move(number, decide_move(seat, decision, now))
                    both("decision")
                    made += 1
            tournament.finish_hand(number, now=now)
            table.release_history(read=False)
            pending.tables.add(number)
            pending.state = True
            both("end")
            ended += 1
            if ended % 5 == 0:
                say(f"{entrants} entrants: {made} decisions, {ended} hands' ends stored")
            if made >= decisions and ended >= hands:
                break
    result = {"entrants": entrants, "tables": opened, "tables_left": len(tournament.tables)}
    for name, form in (("one_row", old), ("per_table", new)):
        for kind in KINDS:
            result[f"{name}_{kind}"] = {
                "changes": len(form.times[kind]),
                "ms_median": statistics.median(form.times[kind]),
                "ms_p90": statistics.quantiles(form.times[kind], n=10)[-1],
                "text_bytes_median": statistics.median(form.text[kind]),
                "wal_bytes_median": statistics.median(form.wal[kind]),
            }
        form.db.close()
    return result


def _put(store: Any, *, text: str) -> None:
    tournament_rows.put(store.db, 0, text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[9, 100, 1000])
    parser.add_argument("--decisions", type=int, default=200)
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    say = partial(print, file=sys.stderr, flush=True)
    results = []
    try:
        with tempfile.TemporaryDirectory() as folder:
            for size in args.sizes:
                results.append(run(size, args.decisions, args.hands, folder, say))
    except KeyboardInterrupt:
        say("stopped")
        return 130
    if args.json:
        print(json.dumps(results, indent=1))
        return 0
    print("| entrants (tables: at the start, left) | change | one row: ms (p90) "
          "| per table: ms (p90) | ratio | one row: text, WAL "
          "| per table: text, WAL |")  # fmt: skip
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for r in results:
        for kind, said in KINDS.items():
            a, b = r[f"one_row_{kind}"], r[f"per_table_{kind}"]
            print(f"| {r['entrants']:,} ({r['tables']}, {r['tables_left']}) | {said} "
                  f"| {a['ms_median']:.2f} ({a['ms_p90']:.2f}) "
                  f"| {b['ms_median']:.3f} ({b['ms_p90']:.3f}) "
                  f"| {a['ms_median'] / b['ms_median']:.0f}x "
                  f"| {_kib(a['text_bytes_median'])}, {_kib(a['wal_bytes_median'])} "
                  f"| {_kib(b['text_bytes_median'])}, {_kib(b['wal_bytes_median'])} |")  # fmt: skip
    return 0


def _kib(size: float) -> str:
    return f"{size:,.0f} B" if size < 4096 else f"{size / 1024:,.0f} KiB"


if __name__ == "__main__":
    sys.exit(main())
