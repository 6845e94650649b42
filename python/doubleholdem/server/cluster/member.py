"""This process's membership of a room (:class:`Membership`): its ``processes`` row,
kept alive by a thread of its own with a connection of its own (a heartbeat every
:data:`~doubleholdem.server.cluster.leases.RENEW_SECONDS`, never on the event loop),
which also takes over the tables whose owner died and gives back those it was asked to
hand over, telling the room through callbacks run on its event loop.

Its share of the room is the tables' count over the live processes', rounded up: at its
start it acquires that many takeable tables (waiting, up to a lease's length, for those
of a process that just died: a restart after ``kill -9`` finds its tables again), and
each second it takes takeable tables up to its share and offers to hand over what it
holds beyond it (:attr:`Membership.surplus`), so that the tables spread over the live
processes. A process that holds the whole room (``exclusive``: SQLite's lock file, or a
repair) takes every table at its start, whoever held it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import secrets
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from doubleholdem.database.connection import Connection
from doubleholdem.database.failure import database_error, database_errors
from doubleholdem.database.postgres import PostgresConnection
from doubleholdem.database.url import connect
from doubleholdem.server.cluster import leases
from doubleholdem.server.cluster.leases import LEASE_SECONDS, RENEW_SECONDS

__all__ = ["Membership", "Reader"]

_log = logging.getLogger("doubleholdem.server")
_START_POLL = 0.05  # seconds between tries at the start while a dead owner's tables wait

# reads the tables acquired (table -> epoch) on the membership's connection, off the loop
Reader = Callable[[Connection, dict[int, int]], Any]


class Membership:
    """This process in the room at ``target`` (a SQLite file or a PostgreSQL URL),
    reachable by clients at ``address``, named ``process`` in the room (by default its
    machine, process id and a random part); ``exclusive`` when it holds the whole room.
    ``lease_seconds`` and ``renew_seconds`` are the lease rules' (shorter in tests)."""

    def __init__(
        self,
        target: str,
        address: str,
        *,
        process: str | None = None,
        exclusive: bool,
        lease_seconds: float = LEASE_SECONDS,
        renew_seconds: float = RENEW_SECONDS,
    ) -> None:
        self.id = process or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(4)}"
        self.address = address
        self.exclusive = exclusive
        self.lease_seconds = lease_seconds
        self.renew_seconds = renew_seconds
        self._target = target
        try:
            # made here, used by its heartbeat's thread, closed where the room stops
            self._db: Connection = connect(target, mode="rw", any_thread=True)
        except database_errors() as error:
            raise database_error(target, error) from None
        self._lock: int | None = None
        if isinstance(self._db, PostgresConnection):  # held for its life: its liveness
            self._lock = secrets.randbits(62)
            self._session(self._db)
        lock = self._lock
        leases.register(self._db, self.id, address, lock=lock, seconds=lease_seconds)
        self.held: dict[int, int] = {}  # table -> epoch, as the event loop knows them
        # taken by the thread, not yet installed by the loop (:meth:`installed`): the
        # loop alone writes ``held`` (the epochs its storage fences with), once a stale
        # copy of such a table, from before it was lost, is gone
        self.taking: dict[int, int] = {}
        # let go by the loop, handed over once their last changes are committed (not
        # this process's share meanwhile); then handed over, to release (the loop
        # writes both, the thread reads a copy of the one and takes from the other)
        self._letting: set[int] = set()
        self._handing: deque[set[int]] = deque()
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self.renewed: Callable[[int], None] = _nothing  # told the leases each heartbeat renewed
        # what else each heartbeat does on its thread with its connection, after the
        # tables' work (a part of the room leased apart: its tournaments); not stopping
        self.beats: list[Callable[[Connection], None]] = []

    def _session(self, db: PostgresConnection) -> None:
        """PostgreSQL: this process's liveness, its advisory lock, taken on the
        membership's session, whose transactions (a lease acquired or released, its
        rows locked until it commits) end with the session if left open a lease's
        length: a process frozen in one (SIGSTOP) holds no lease row from the others
        while it sleeps, and counts as dead as its session ends. The session is named
        by the process (ended by the others once it is dead:
        :func:`~doubleholdem.server.cluster.leases.end_dead_sessions`); both settings
        are the session's again when it opens anew."""
        db.set_session("idle_in_transaction_session_timeout", f"{int(self.lease_seconds * 1000)}ms")
        db.set_session("application_name", leases.session_name(self.id))
        self._hold_liveness(db)

    def _hold_liveness(self, db: PostgresConnection) -> None:
        db.execute("SELECT pg_advisory_lock(?)", (self._lock,)).close()

    def _reopen_if_lost(self) -> None:
        """A new session in place of one the server ended (see :meth:`_session`), the
        advisory lock taken again and this process's row renewed at once: live again
        before the others' next look. The others end the sessions of a process whose
        row expired a while ago (frozen or cut off for longer than a lease and
        ``SESSIONS_END_SECONDS``) at each of their looks, every second, until its row
        is renewed: renewed only at its next tick, a second later, each new session
        was ended before it, and the process never served a table again (seen in
        benches/failover.py's SIGSTOP cycles)."""
        if isinstance(self._db, PostgresConnection) and self._db.lost:
            _log.warning("the room's membership session was ended by the server: a new one opens")
            self._db.reopen()
            self._hold_liveness(self._db)
            self._beat()

    def _beat(self) -> None:
        """The heartbeat: this process's row renewed (registered again if it was
        swept as dead, a minute without heartbeats: its tables long taken)."""
        if not leases.heartbeat(self._db, self.id, self.lease_seconds):
            leases.register(
                self._db, self.id, self.address, lock=self._lock, seconds=self.lease_seconds
            )

    def _recover(self) -> None:
        """After a tick that failed on a database error: its transaction rolled back and
        a session the server ended replaced (tried again at the next tick)."""
        with contextlib.suppress(*database_errors()):
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
        with contextlib.suppress(*database_errors()):
            self._reopen_if_lost()

    # ------------------------------------------------------------------ at the start

    def claim(self) -> dict[int, int]:
        """Acquires this process's share of the room's tables, at its start (see the
        module): table -> epoch. It waits, a lease's length at most, for the tables of a
        process that just died (PostgreSQL ends a killed process's session, and so its
        advisory lock, only moments later) or that the others hand over."""
        if self.exclusive:
            return self._acquire(want=2**31, steal=True)
        deadline = time.monotonic() + self.lease_seconds + self.renew_seconds
        taken: dict[int, int] = {}
        while True:
            leases.heartbeat(self._db, self.id, self.lease_seconds)  # live while it waits
            taken.update(self._acquire(want=self.share() - len(taken), steal=False))
            if len(taken) >= self.share() or time.monotonic() >= deadline:
                return taken
            time.sleep(_START_POLL)

    def share(self) -> int:
        """The tables this process is to hold: the room's over the live processes',
        rounded up (this one counted)."""
        (tables,) = self._db.execute("SELECT COUNT(*) FROM leases WHERE table_id >= 0").fetchone()
        live = {p.process for p in leases.live_processes(self._db)} | {self.id}
        return math.ceil(int(tables) / len(live))

    def _acquire(self, *, want: int, steal: bool) -> dict[int, int]:
        """A look for takeable tables: the sessions of dead processes ended first
        (:func:`~doubleholdem.server.cluster.leases.end_dead_sessions`: their locks gone
        by the next look), then at most ``want`` tables acquired (``steal``: any)."""
        if not steal:
            leases.end_dead_sessions(self._db)
        if want <= 0:
            return {}
        return leases.acquire(self._db, self.id, want=want, steal=steal)

    # ------------------------------------------------------------------ while serving

    def start(
        self,
        loop: asyncio.AbstractEventLoop,
        *,
        read: Reader,
        took: Callable[[Any, dict[int, int]], None],
        lost: Callable[[set[int]], None],
        surplus: Callable[[int], None],
    ) -> None:
        """Starts the thread (see the module): ``took`` is called on ``loop`` with what
        ``read`` read (on the thread) of the tables it acquired and their epochs (to
        hand to :meth:`installed` once served), ``lost`` with those
        another process holds now, ``surplus`` with how many this one holds beyond its
        share."""
        if self._thread is not None:
            return

        def tell(callback: Callable[..., None], *args: object) -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(callback, *args)

        def run() -> None:
            while not self._stop.is_set():
                try:
                    self._tick(tell, read, took, lost, surplus)
                except database_errors() as error:  # the next tick tries again
                    _log.warning("the room's leases could not be renewed: %s", error)
                    self._recover()
                self._wake.wait(self.renew_seconds)
                self._wake.clear()

        self._thread = threading.Thread(target=run, name="doubleholdem-leases", daemon=True)
        self._thread.start()

    def _tick(
        self,
        tell: Callable[..., None],
        read: Reader,
        took: Callable[[Any, dict[int, int]], None],
        lost: Callable[[set[int]], None],
        surplus: Callable[[int], None],
    ) -> None:
        self._beat()
        self.renewed(len(self.held))
        handing: set[int] = set()
        while self._handing:
            handing |= self._handing.popleft()
        if handing:
            leases.release(self._db, self.id, handing)
        # (copies made at once: the loop changes both meanwhile; parts: their beat's)
        held = {t: epoch for t, epoch in dict(self.held).items() if t >= 0}
        letting = frozenset(self._letting)
        stored = dict(
            self._db.execute("SELECT table_id, epoch FROM leases WHERE owner = ?", (self.id,))
        )
        gone = {t for t, epoch in held.items() if stored.get(t) != epoch}
        if gone:
            tell(lost, gone)
        if self._stop.is_set():
            return
        share = self.share()
        mine = len(held.keys() - letting - gone) + len(self.taking)
        taken = self._acquire(want=share - mine, steal=False)
        if taken:  # the loop installs them (:meth:`installed`), then writes them
            self.taking.update(taken)
            tell(took, read(self._db, taken), taken)
        elif mine > share:
            tell(surplus, mine - share)
        for beat in self.beats:
            beat(self._db)

    def installed(self, epochs: dict[int, int]) -> None:
        """Called on the loop: the tables of ``epochs`` (taken by the thread) are served
        from now on, their writes fenced with these epochs."""
        self.held.update(epochs)
        for table_id in epochs:
            self.taking.pop(table_id, None)

    def letting_go(self, tables: set[int]) -> None:
        """Called on the loop: ``tables`` are let go, to be handed over once their last
        changes are committed (:meth:`hand_over`); this process's share does not count
        them meanwhile (a tick while that commit is pending would shed as many more)."""
        self._letting |= tables

    def hand_over(self, tables: set[int]) -> None:
        """Called on the loop: releases the leases of ``tables`` at the thread's next
        tick, called at once (their last changes committed: another process takes
        them)."""
        for table_id in tables:
            self.held.pop(table_id, None)
        self._letting -= tables
        self._handing.append(set(tables))
        self._wake.set()

    def halt(self) -> None:
        """Stops renewing (the thread ends; its row is left as it is): a process that
        froze or lost the database, as tests make one. Its leases expire unless
        :meth:`start` is called again."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        self._stop.clear()

    def stopping(self) -> None:
        """This process stops: nobody counts it live from now on (its tables are
        released by :meth:`close`, once its last commit is done)."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        with contextlib.suppress(*database_errors()):
            leases.stopping(self._db, self.id)

    def close(self) -> None:
        """Releases every lease of this process and its row, at once (another process
        takes its tables at its next look), and closes its connection (and so, on
        PostgreSQL, its advisory lock)."""
        self.stopping()
        try:
            leases.release(self._db, self.id)
        except database_errors() as error:  # they expire instead
            _log.warning("the room's leases were not released: %s", error)
        finally:
            with contextlib.suppress(*database_errors()):
                self._db.close()


def _nothing(count: int) -> None:
    """What :attr:`Membership.renewed` does until the room says."""
