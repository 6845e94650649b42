"""Many real ``doubleholdem serve`` processes on one room's database (issue 33), for the
failover tests and benches/failover.py: each started on 127.0.0.1 and a free port, ready
once it printed its address and its ``/healthz`` answered ``ok``; each can be killed
(``kill -9``), frozen (``SIGSTOP``) and woken (``SIGCONT``); the ``leases`` rows say which
process owns which table (:meth:`ServedRoom.owners`). The checks after a failover read
the database: :func:`unsettled_hands` and :func:`missing_moves`; the audit is
:func:`audit_problems`."""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from doubleholdem.database.connection import begin
from doubleholdem.database.url import connect, is_postgres
from doubleholdem.server.cluster.leases import TOURNAMENTS
from doubleholdem.server.http.load_client import Move

__all__ = [
    "BUY_IN",
    "DECISIONS",
    "FEE",
    "SIT_AND_GO",
    "Served",
    "ServedRoom",
    "audit_problems",
    "hands_stored",
    "in_hand",
    "missing_moves",
    "stored_tables",
    "tournaments_runner",
    "unsettled_hands",
    "wait_hands",
    "wait_in_hand",
    "wait_played",
]

# the log's decisions of a seat (a "timeout" entry comes before the one its deadline made)
DECISIONS = frozenset({"fold", "check", "call", "bet", "raise", "all_in", "point"})
# a room's sit-and-go (a ``serve --config`` file's entry): a bot in it, waiting for two more
BUY_IN, FEE = 100, 10
SIT_AND_GO = f"""
[[tournament]]
name = "sng"
kind = "sit-and-go"
capacity = 3
seats = 3
starting_stack = 500
buy_in = {BUY_IN}
fee = {FEE}
bots = 1
"""
ROOM = ("--signup", "open", "--welcome-chips", "100000", "--signups-per-address", "0")


# the room's sessions but the one asking: its process, state, seconds in it, statement
_SESSIONS = (
    "SELECT pid, application_name, state,"
    " round(EXTRACT(EPOCH FROM clock_timestamp() - state_change)::numeric, 1), left(query, 80)"
    " FROM pg_stat_activity WHERE datname = current_database() AND pid != pg_backend_pid()"
    " ORDER BY pid"
)


def _state(pid: int) -> str:
    """The state letter of process ``pid`` (``T``: stopped), ``""`` once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return ""


def _wait_state(pid: int, stopped: bool, seconds: float = 30.0) -> None:
    """Until process ``pid`` is stopped (``T``) or not (the kernel's signal delivery)."""
    deadline = time.monotonic() + seconds
    while (_state(pid) == "T") != stopped:
        if time.monotonic() > deadline:
            raise TimeoutError(f"process {pid} is still in state {_state(pid)!r}")
        time.sleep(0.001)


def health(url: str, timeout: float = 5.0) -> str | None:
    """``/healthz``'s answer at ``url`` (``"ok"`` while all is well), ``None`` without
    one."""
    try:
        with urllib.request.urlopen(f"{url}/healthz", timeout=timeout) as response:
            return str(response.read().decode())
    except urllib.error.HTTPError as error:
        return str(error.read().decode())
    except OSError:
        return None


class Served:
    """One ``serve`` process: started by :class:`ServedRoom`, its operator's log in a
    file beside the room's other processes' logs."""

    def __init__(self, command: list[str], log: Path) -> None:
        self.log = log
        with open(log, "w") as errors:
            self.process = subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=errors, text=True
            )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()  # printed once it listens: an event
        if "open http://127.0.0.1:" not in line:
            self.process.wait(30)
            raise RuntimeError(f"serve did not start ({line!r}): {log.read_text()[-2000:]}")
        self.port = int(line.rsplit(":", 1)[1].strip("/\n"))
        self.url = f"http://127.0.0.1:{self.port}"
        self.pid = self.process.pid
        answer = health(self.url, timeout=30.0)
        if answer != "ok":
            raise RuntimeError(f"serve at {self.url} is not healthy: {answer!r}")

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        """``kill -9``, and the process reaped."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)

    def freeze(self) -> None:
        """``SIGSTOP``: returns once the process is stopped."""
        self.process.send_signal(signal.SIGSTOP)
        _wait_state(self.pid, stopped=True)

    def thaw(self) -> None:
        """``SIGCONT``: returns once the process runs again."""
        self.process.send_signal(signal.SIGCONT)
        _wait_state(self.pid, stopped=False)

    def stop(self) -> None:
        """A clean stop (``SIGTERM``; a frozen process woken first), else ``kill -9``."""
        if not self.alive:
            return
        self.process.send_signal(signal.SIGCONT)
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(60)
        except subprocess.TimeoutExpired:
            self.kill()


class ServedRoom:
    """``count`` ``serve`` processes on the room's database ``db`` (a PostgreSQL URL),
    each with ``tables`` tables of ``bots`` bots (a room of accounts with open sign-up
    for the load's clients, unless ``extra`` says otherwise); stopped on leaving the
    ``with``."""

    def __init__(
        self,
        db: str | list[str],
        count: int,
        directory: Path,
        *,
        tables: int = 3,
        bots: int = 2,
        extra: Iterable[str] = ("--bot-delay", "0.02", "--pause", "0.05", *ROOM),
    ) -> None:
        self.dbs = [db] * count if isinstance(db, str) else list(db)
        self.db = self.dbs[0]
        self.directory = directory
        self.tables, self.bots, self.extra = tables, bots, list(extra)
        self.processes: list[Served] = []

    def command(self, db: str, port: int = 0) -> list[str]:
        return [
            sys.executable, "-m", "doubleholdem.cli", "serve", "--db", db,
            "--host", "127.0.0.1", "--port", str(port), "--tables", str(self.tables),
            "--bots", str(self.bots), "--per-address", "0", "--log-level", "warning",
            *self.extra,
        ]  # fmt: skip

    def start(self, db: str | None = None, port: int = 0) -> Served:
        """One more process (on the room's database, or ``db``; on ``port``, or a free
        one), once it is healthy."""
        number = len(self.processes)
        log = self.directory / f"serve-{number}.log"
        served = Served(self.command(db or self.db, port), log)
        self.processes.append(served)
        return served

    def __enter__(self) -> ServedRoom:
        try:
            for db in self.dbs:
                self.start(db)
            if len(self.dbs) > 1 and len(set(self.dbs)) == 1:  # one room, leased
                self.wait_spread()
        except BaseException:
            self.close()
            raise
        return self

    def wait_spread(self, seconds: float = 60.0) -> None:
        """Until every table of the room is owned by one of its live processes and none
        holds more than its share (the tables over the processes, rounded up): the
        tables spread, as the lease rules spread them (each change a commit: the
        event)."""
        deadline = time.monotonic() + seconds
        while True:
            owners = self.owners()
            live = self.live
            share = -(-len(owners) // max(1, len(live)))
            held = Counter(id(p) for p in owners.values() if p is not None)
            placed = all(p is not None and p in live for p in owners.values())
            if owners and placed and max(held.values(), default=0) <= share:
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"the tables did not spread in {seconds} s: {owners}")
            time.sleep(0.05)

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for served in self.processes:
            served.stop()

    @property
    def live(self) -> list[Served]:
        """The processes running and not frozen."""
        return [p for p in self.processes if p.alive and _state(p.pid) != "T"]

    @property
    def urls(self) -> list[str]:
        return [p.url for p in self.processes]

    def leases(self) -> dict[int, tuple[str | None, int]]:
        """The ``leases`` rows: each table's owner (a ``processes`` id, or ``None``)
        and epoch."""
        with contextlib.closing(connect(self.db)) as db:
            rows = db.execute("SELECT table_id, owner, epoch FROM leases").fetchall()
        return {int(table): (owner, int(epoch)) for table, owner, epoch in rows}

    def owners(
        self, leases: dict[int, tuple[str | None, int]] | None = None
    ) -> dict[int, Served | None]:
        """Each table's owner among this room's processes (``None``: none, or a process
        not of this harness), by the lease rows read now or ``leases``: a lease's owner
        is a ``processes`` row, whose address names the process's port; of the rows of
        one address (a process started again on the port of one killed) only the newest
        is that port's process."""
        with contextlib.closing(connect(self.db)) as db:
            rows = db.execute("SELECT id, address, started FROM processes").fetchall()
        newest: dict[str, tuple[float, str]] = {}
        for process, address, started in rows:
            newest[address] = max(newest.get(address, (started, process)), (started, process))
        by_port: dict[int | None, Served] = {p.port: p for p in self.processes if p.alive}
        ids = {process: by_port.get(_port(address)) for address, (_, process) in newest.items()}
        held = self.leases() if leases is None else leases
        return {table: ids.get(owner or "") for table, (owner, _) in held.items()}

    def tables_of(
        self, served: Served, leases: dict[int, tuple[str | None, int]] | None = None
    ) -> list[int]:
        """The tables ``served`` owns now (or by the lease rows ``leases``)."""
        return [table for table, owner in self.owners(leases).items() if owner is served]

    def wait_served(self, tables: Iterable[int], seconds: float = 60.0) -> float:
        """Until every table of ``tables`` is owned by a live process of the room and
        answers in its lobby; the seconds it took. The lease rows are read again and
        again (each takeover is a commit of its own: the event)."""
        wanted = set(tables)
        started = time.monotonic()
        while True:
            owners = self.owners()
            live = self.live
            serving = {t: owners.get(t) for t in wanted}
            placed = [(t, p) for t, p in serving.items() if p is not None]
            if len(placed) == len(wanted) and all(
                p in live and self._listed(p, t) for t, p in placed
            ):
                return time.monotonic() - started
            if time.monotonic() - started > seconds:
                raise TimeoutError(f"tables {sorted(wanted)} not served{self.account()}")
            time.sleep(0.01)

    def account(self) -> str:
        """What the room's processes and its database say, to tell why a wait failed:
        the end of each process's log, the leases, the processes (seconds until each
        expires) and, on PostgreSQL, the sessions (each named by its process, with its
        state, the seconds it has been in it and its statement)."""
        text = "".join(f"\n--- {p.log.name}:\n{p.log.read_text()[-3000:]}" for p in self.processes)
        with contextlib.closing(connect(self.db)) as db:
            leased = db.execute("SELECT * FROM leases ORDER BY table_id").fetchall()
            rows = db.execute("SELECT id, address, expires FROM processes").fetchall()
            now = time.time()  # (the database's clock is this machine's)
            alive = [(i, address, round(expires - now, 1)) for i, address, expires in rows]
            text += f"\n--- leases (table, owner, epoch): {leased}"
            text += f"\n--- processes (id, address, seconds until it expires): {alive}"
            if is_postgres(self.db):
                text += "".join(f"\n--- session {row}" for row in db.execute(_SESSIONS))
        return text

    @staticmethod
    def _listed(served: Served, table: int) -> bool:
        """Whether ``served``'s lobby lists ``table`` as served there (its runner
        restored): every process lists the whole room, each table with the ``process``
        serving it (``None``: nobody for the moment) and its ``address``."""
        try:
            address = f"{served.url}/api/tables?from={table}"
            with urllib.request.urlopen(address, timeout=5) as response:
                page = json.loads(response.read())
        except OSError:
            return False
        if not page or page[0]["id"] != table or page[0].get("process", "") is None:
            return False  # not listed, or listed as served by nobody for the moment
        address = page[0].get("address")
        return address is None or _port(address) == served.port


def tournaments_runner(room: ServedRoom) -> Served | None:
    """The live process of ``room`` that holds the tournaments' lease (``None``: none
    does, as the database says now)."""
    runner = room.owners().get(TOURNAMENTS)
    return runner if runner in room.live else None


def _port(address: str) -> int | None:
    """The port of a process's ``address`` (``http://127.0.0.1:PORT``)."""
    text = address.rstrip("/").rpartition(":")[2]
    return int(text) if text.isdecimal() else None


def hands_stored(db: str) -> int:
    """The finished hands in the room's ``hands`` table."""
    with contextlib.closing(connect(db)) as store:
        (count,) = store.execute("SELECT COUNT(*) FROM hands").fetchone()
    return int(count)


def wait_hands(db: str, at_least: int, seconds: float = 120.0) -> None:
    """Until the room has stored ``at_least`` finished hands (each a commit: the event
    read again and again)."""
    deadline = time.monotonic() + seconds
    while hands_stored(db) < at_least:
        if time.monotonic() > deadline:
            raise TimeoutError(f"fewer than {at_least} hands stored in {seconds} s")
        time.sleep(0.01)


def in_hand(db: str, tables: Iterable[int]) -> list[int]:
    """The tables of ``tables`` whose stored state is in a hand."""
    wanted = set(tables)
    stored = stored_tables(db, hands=False)
    return [t for t in sorted(wanted) if t in stored and stored[t][0].in_hand]


def wait_in_hand(db: str, tables: Iterable[int], seconds: float = 60.0) -> int:
    """A table of ``tables`` in a hand, once there is one (each step a commit)."""
    wanted = list(tables)
    deadline = time.monotonic() + seconds
    while not (found := in_hand(db, wanted)):
        if time.monotonic() > deadline:
            raise TimeoutError(f"none of tables {wanted} in a hand in {seconds} s")
        time.sleep(0.05)  # each look restores the tables: not too often
    return found[0]


def wait_played(db: str, tables: Iterable[int], seconds: float = 120.0) -> None:
    """Until each table of ``tables`` has dealt a hand past the one it is at now (play
    goes on there)."""
    start = {t: stored[0].hand_number for t, stored in stored_tables(db, hands=False).items()}
    waiting = set(tables)
    deadline = time.monotonic() + seconds
    while waiting:
        now = stored_tables(db, hands=False)
        waiting = {t for t in waiting if now[t][0].hand_number <= start[t]}
        if waiting and time.monotonic() > deadline:
            raise TimeoutError(f"tables {sorted(waiting)} dealt no new hand in {seconds} s")
        time.sleep(0.05)  # each look restores the tables: not too often


def audit_problems(db: str) -> list[Any]:
    """The accounts audit of the room (every table of every process against the
    ledger, in one snapshot): its problems, none when clean."""
    from doubleholdem.accounts.bank import Bank
    from doubleholdem.server.money.money import audit_room

    with Bank(db) as bank:
        found = audit_room(bank.db)
    return list(found["problems"])


Logs = list[tuple[int, list[dict[str, Any]]]]


def stored_tables(db: str, *, hands: bool = True) -> dict[int, tuple[Any, Logs]]:
    """Each stored table by id: the table restored from its journal (a restore refuses
    anything inconsistent), and its finished hands' logs by number (none unless
    ``hands``: the waits read the tables alone, again and again), all read in one
    snapshot of the database."""
    from doubleholdem.server.storage.journal import restore
    from doubleholdem.server.storage.storage import read_tables

    with contextlib.closing(connect(db)) as store:
        begin(store, write=False)  # one snapshot while the processes write
        tables = {stored.id: restore(stored) for stored in read_tables(store)}
        logs: dict[int, Logs] = {}
        rows = "SELECT table_id, number, log FROM hands ORDER BY table_id, number"
        for table_id, number, log in store.execute(rows) if hands else ():
            logs.setdefault(table_id, []).append((number, json.loads(log)))
    return {table_id: (table, logs.get(table_id, [])) for table_id, table in tables.items()}


def unsettled_hands(db: str) -> list[str]:
    """What breaks "every hand settled once": a table whose chips and rake are not what
    was bought in, a finished hand missing from the ``hands`` table or stored twice."""
    problems = []
    for table_id, (table, logs) in stored_tables(db).items():
        if table.chips() + table.rake != table.bought_in:
            problems.append(f"table {table_id}: chips {table.chips()} + {table.rake} rake")
        numbers = [number for number, _ in logs]
        finished = table.hand_number - (1 if table.in_hand else 0)
        if numbers != list(range(1, finished + 1)):
            repeated = [n for n, c in Counter(numbers).items() if c > 1]
            absent = sorted(set(range(1, finished + 1)) - set(numbers))
            extra = sorted(set(numbers) - set(range(1, finished + 1)))
            problems.append(
                f"table {table_id}: {len(numbers)} hands stored of {finished}, missing"
                f" {absent}, beyond {extra}, repeated {repeated} (in hand: {table.in_hand})"
            )
    return problems


def _decisions(entries: Iterable[dict[str, Any]]) -> Counter[tuple[int, int]]:
    """Each seat's own decisions by hand: ``(hand, seat) -> count`` (a decision its
    deadline made is not its own)."""
    counts: Counter[tuple[int, int]] = Counter()
    hand, timed_out = 0, set[int]()
    for entry in entries:
        kind = entry["kind"]
        if kind == "hand_start":
            hand, timed_out = entry["number"], set()
        elif kind == "timeout":
            timed_out.add(entry["seat"])
        elif kind in DECISIONS and entry.get("seat") is not None:
            seat = entry["seat"]
            if seat in timed_out:
                timed_out.discard(seat)
            else:
                counts[hand, seat] += 1
    return counts


def missing_moves(db: str, moves: Iterable[Move]) -> list[Move]:
    """The acknowledged decisions ``moves`` not in the database: for each table, hand
    and seat, more acknowledged than the stored log holds of that seat's own decisions
    (finished hands from the ``hands`` table, the hand being played from the table's
    journal)."""
    stored: dict[int, Counter[tuple[int, int]]] = {}
    for table_id, (table, logs) in stored_tables(db).items():
        found = _decisions(entry for _, log in logs for entry in log)
        live = _decisions(table.event_log(everything=True))
        for key, count in live.items():
            found[key] = max(found[key], count)
        stored[table_id] = found
    by_seat: dict[tuple[int, int, int], list[Move]] = {}
    for move in moves:
        by_seat.setdefault((move.table, move.hand, move.seat), []).append(move)
    missing = []
    for (table, hand, seat), acknowledged in by_seat.items():
        have = stored.get(table, Counter())[hand, seat]
        missing += acknowledged[have:]
    return missing
