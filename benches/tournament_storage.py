"""What a room's tournament writes per change (issue 34 item 3), side by side in one run:
schema 6's rows (each table apart, a decision as one move row of its table, but the
tournament's own row, the room's state with the library's snapshot without its tables,
rewritten whole at every hand's start and end) against schema 8's
(:class:`~doubleholdem.server.tournaments.stored.Pending`: the same tables and moves,
and of the tournament's own state only the parts the change changed).

For 9, 100 and 1,000 entrants (9 seats a table, no-limit Texas Hold'em, calling stations), a
scheduled tournament is started and played; after each decision and each hand's end
both forms store the same state, each in a SQLite file of its own (WAL,
``synchronous=NORMAL``, as ``serve``), in turn (which goes first alternates). Per change
and per form: the milliseconds from the state in memory to the commit returned (the
texts made, the rows written, the commit), the bytes of row text written, and the bytes
the commit added to the write-ahead log (whole 4 KiB pages and their headers; the log
is reset past 32 MiB, outside the timing). The tournament's row of schema 6 is
``Stored.to_text`` (the room writes it no more). Progress on stderr; Ctrl-C stops it
(exit 130).

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

from doubleholdem.server.storage.database import open_database
from doubleholdem.server.storage.journal import decide_move
from doubleholdem.server.tournaments.spec import spec_from_entry
from doubleholdem.server.tournaments.stored import Pending, Stored
from doubleholdem.table.bots import make_bot
from doubleholdem.tournament import Tournament

KINDS = {"decision": "a decision", "start": "a hand's start", "end": "a hand's end"}
FORMS = ("schema 6", "schema 8")
KEY = b"bench-snapshot-key"  # a room's snapshot key: every snapshot under an HMAC
WAL_RESET = 32 * 2**20  # the log is reset past this size (outside the timing)


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
    """The bytes of row text a list of steps writes (a part's text, not its tag)."""
    return sum(_own(step) + len(_words(step).get("snapshot", "")) + len(_words(step).get(
        "move", "")) for step in steps)  # fmt: skip


def _own(step: Any) -> int:
    """The bytes of the tournament's own state a step writes: its row, or its parts."""
    words = _words(step)
    return len(words.get("text", "")) + sum(len(text) for _, text, _ in words.get("texts", ()))


def _words(step: Any) -> dict[str, Any]:
    return step.keywords if isinstance(step, partial) else {}


class Schema6(Pending):
    """Schema 6's writer: the same tables and moves as schema 8's, and the tournament's
    whole row (``Stored.to_text``) where schema 8 writes the parts that changed."""

    def _parts(
        self, stored: Stored, tournament: Tournament, key: bytes | None, summary: str | None
    ) -> list[Any]:
        stored.whole = False
        return [partial(_put, text=stored.to_text(tournament, key))]


def run(
    entrants: int, decisions: int, hands: int, folder: str, say: Callable[[str], None]
) -> dict[str, Any]:
    spec = spec_from_entry({"name": "bench", "kind": "scheduled", "capacity": entrants,
                            "minimum": 2, "seats": 9, "starting_stack": 10_000,
                            "start_at": 0, "level_by": "hands", "level_length": 30})  # fmt: skip
    tournament = Tournament(spec.config, seed=entrants)
    stored = Stored(0, spec, whole=True)
    for n in range(entrants):
        tournament.register(f"p{n}")
        stored.sales += 1
        stored.bots[f"p{n}"] = "random"
    tournament.start(now=0.0)
    stored.status = "running"
    opened = len(tournament.tables)
    forms = {name: Form(f"{folder}/{name.replace(' ', '')}-{entrants}.db") for name in FORMS}
    pendings = {"schema 6": Schema6(set(), ({}, {})), "schema 8": Pending(set(), ({}, {}))}
    own: dict[str, list[int]] = {name: [] for name in FORMS}  # the tournament's own bytes

    def made(name: str) -> Callable[[], tuple[list[Any], int]]:
        def make() -> tuple[list[Any], int]:
            steps = pendings[name].steps(stored, tournament, KEY)
            own[name].append(sum(_own(step) for step in steps))
            return steps, _size(steps)

        return make

    turn = 0

    def both(kind: str) -> None:
        nonlocal turn
        touched, whole = set(tournament.touched), stored.whole  # each form's steps read
        for name in FORMS if turn % 2 == 0 else FORMS[::-1]:  # them, then clear them
            tournament.touched.update(touched)
            stored.whole = whole
            pending = pendings[name]
            pending.state = pending.state or kind != "decision"
            forms[name].commit(kind, made(name))
        turn += 1

    both("start")
    for form in forms.values():
        for values in (*form.times.values(), *form.text.values(), *form.wal.values()):
            values.clear()
    for values in own.values():
        values.clear()
    bots: dict[str, Any] = {}
    now = 0.0
    made_decisions = ended = 0
    while tournament.state == "running" and (made_decisions < decisions or ended < hands):
        for number in tournament.ready_tables(now):
            if tournament.state != "running" or number not in tournament.ready_tables(now):
                continue  # broken or halted by the hands before
            table = tournament.start_hand(number, now=now)
            for pending in pendings.values():
                pending.tables.add(number)
            both("start")
            while table.in_hand:
                seat = table.to_act
                assert seat is not None
                now += 1.0
                bot = bots.setdefault(table.player(seat), make_bot("station", seed=len(bots)))
                decision = bot.choose(table.observe(seat))
                table.decide(seat, decision, now=now)
                if table.in_hand and made_decisions < decisions:
                    for pending in pendings.values():
                        pending.move(number, decide_move(seat, decision, now))
                    both("decision")
                    made_decisions += 1
            tournament.finish_hand(number, now=now)
            table.release_history(read=False)
            for pending in pendings.values():
                pending.tables.add(number)
            both("end")
            ended += 1
            if ended % 5 == 0:
                say(f"{entrants} entrants: {made_decisions} decisions, {ended} hands' ends stored")
            if made_decisions >= decisions and ended >= hands:
                break
    result: dict[str, Any] = {"entrants": entrants, "tables": opened,
                              "tables_left": len(tournament.tables)}  # fmt: skip
    for name in FORMS:  # of the changes that wrote it
        written = [size for size in own[name] if size]
        result[f"{name}_own_bytes_median"] = statistics.median(written) if written else 0
    for name, form in forms.items():
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
    """Schema 6's row of the tournament: its whole state."""
    store.db.execute(
        "INSERT INTO tournaments (id, state) VALUES (0, ?)"
        " ON CONFLICT (id) DO UPDATE SET state = excluded.state",
        (text,),
    )


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
    print("| entrants (tables: at the start, left) | change | schema 6: ms (p90) "
          "| schema 8: ms (p90) | ratio | schema 6: text, WAL "
          "| schema 8: text, WAL |")  # fmt: skip
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for r in results:
        for kind, said in KINDS.items():
            a, b = r[f"schema 6_{kind}"], r[f"schema 8_{kind}"]
            print(f"| {r['entrants']:,} ({r['tables']}, {r['tables_left']}) | {said} "
                  f"| {a['ms_median']:.3f} ({a['ms_p90']:.3f}) "
                  f"| {b['ms_median']:.3f} ({b['ms_p90']:.3f}) "
                  f"| {a['ms_median'] / b['ms_median']:.0f}x "
                  f"| {_kib(a['text_bytes_median'])}, {_kib(a['wal_bytes_median'])} "
                  f"| {_kib(b['text_bytes_median'])}, {_kib(b['wal_bytes_median'])} |")  # fmt: skip
    print()
    print("| entrants | the tournament's own state a change writes, median: schema 6 "
          "| schema 8 |")  # fmt: skip
    print("| --- | ---: | ---: |")
    for r in results:
        print(f"| {r['entrants']:,} | {_kib(r['schema 6_own_bytes_median'])} "
              f"| {_kib(r['schema 8_own_bytes_median'])} |")  # fmt: skip
    return 0


def _kib(size: float) -> str:
    return f"{size:,.0f} B" if size < 4096 else f"{size / 1024:,.0f} KiB"


if __name__ == "__main__":
    sys.exit(main())
