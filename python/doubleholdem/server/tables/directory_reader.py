"""Reads, in a thread of its own, where the room's tables are served and the summaries
of those served elsewhere, for the :class:`~doubleholdem.server.tables.directory.Directory`
(a room in PostgreSQL served by many processes: docs/postgres.md). Its connection
``LISTEN``\\ s on the room's channel
(:func:`~doubleholdem.server.storage.lobby_rows.channel`), where the process serving a
table tells of each new summary it commits (payload: the table's id): the
notification is only a wake-up, and the reader reads the rows named, with the room's
owners and processes (:class:`Whereabouts`, the leases' side) again if they were read
``OWNERS_SECONDS`` ago or more, or at once if a table named had no live owner then (not
at every notification: the room's summaries come many times a second, and each read of
the owners scans PostgreSQL's locks). Without a notification it reads the owners again
every ``refresh`` seconds (an owner gone, a table taken over). What it read is handed to
the event loop (``call_soon_threadsafe``): nothing here blocks the loop. psycopg 3's
:meth:`~psycopg.Connection.notifies` waits for the notifications."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple, Protocol

from doubleholdem.database.connection import Connection
from doubleholdem.database.failure import database_errors
from doubleholdem.database.postgres import connect
from doubleholdem.server.cluster import leases
from doubleholdem.server.storage.lobby_rows import channel, read_summaries, summaries_from
from doubleholdem.server.tables.directory import NOWHERE, Directory, Place

__all__ = ["REFRESH_SECONDS", "DirectoryReader", "Leases", "Whereabouts", "elsewhere"]

REFRESH_SECONDS = 1.0  # the owners read again at least this often
OWNERS_SECONDS = 0.1  # and, woken by summaries, at most this often (each read scans pg_locks)
_log = logging.getLogger("doubleholdem.server")

Found = dict[int, tuple[Place, dict[str, Any]]]


class _Read(NamedTuple):
    """The owners and the processes as read at ``at`` (``time.monotonic``)."""

    owners: Mapping[int, Place | None]
    processes: list[Place]
    at: float


class Whereabouts(Protocol):
    """What the room's processes and their tables are, as the database says (the
    leases: which live process owns each table)."""

    def owners(self, db: Connection) -> Mapping[int, Place | None]:
        """Each table that has a lease: its owning live process, or ``None`` while no
        live process owns it."""

    def processes(self, db: Connection) -> Iterable[Place]:
        """The room's processes, live or not (the origins its pages may come from)."""


class Leases:
    """The room's :class:`Whereabouts` as its leases say
    (:mod:`doubleholdem.server.cluster.leases`)."""

    def owners(self, db: Connection) -> dict[int, Place | None]:
        """Each leased table's live owner (:func:`~doubleholdem.server.cluster.leases.owners`)."""
        return {t: None if o is None else Place(*o) for t, o in leases.owners(db).items()}

    def processes(self, db: Connection) -> list[Place]:
        """The room's processes, live or not: a page one of them served, which died
        since, follows its table here (:func:`~doubleholdem.server.cluster.leases.registered`)."""
        return [Place(*owner) for owner in leases.registered(db)]


def elsewhere(known: Found, owners: Mapping[int, Place | None]) -> Found:
    """The leased tables of ``known`` (id -> any place, summary), each with its owner
    in ``owners`` (:data:`NOWHERE` while none); a table without a lease is left out (a
    room of one process, which serves it). Those this process owns are kept too: one
    it took over and does not run yet is being moved here."""
    return {
        table_id: (owners[table_id] or NOWHERE, summary)
        for table_id, (_, summary) in known.items()
        if table_id in owners
    }


class DirectoryReader:
    """Keeps ``directory`` current from the database at ``url`` (PostgreSQL), reading
    the owners and processes through ``whereabouts``."""

    def __init__(
        self,
        url: str,
        directory: Directory,
        whereabouts: Whereabouts,
        *,
        refresh: float = REFRESH_SECONDS,
    ) -> None:
        self.url = url
        self.directory = directory
        self.whereabouts = whereabouts
        self.refresh = refresh
        self.readings = 0  # how many times it read (tests wait on it)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._known: Found = {}  # every table with a summary: (its owner, summary)

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Starts the thread, which hands what it reads to ``loop``."""
        self._loop = loop
        self._thread = threading.Thread(
            target=self._run, name="doubleholdem-directory", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        """Stops the thread (within ``refresh`` seconds) and waits for it."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._listen()
            except database_errors() as error:  # the database went away: try again
                _log.warning("the room's directory could not be read: %s", error)
                self._stop.wait(self.refresh)

    def _listen(self) -> None:
        db = connect(self.url, read_only=True)
        try:
            raw = db.connection  # psycopg's own, for its notifies()
            raw.execute(f'LISTEN "{channel(db)}"')
            self._known = self._read_all(db)
            where = self._whereabouts(db)
            self._hand_over(where)
            while not self._stop.is_set():
                # woken by the first notification (with those received in its batch)
                heard = raw.notifies(timeout=self.refresh, stop_after=1)
                changed = [int(n.payload) for n in heard if n.payload.isdecimal()]
                if changed:
                    self._known.update(
                        (i, (NOWHERE, s)) for i, s in read_summaries(db, changed).items()
                    )
                if self._due(where, changed):
                    where = self._whereabouts(db)
                self._hand_over(where)
        finally:
            db.close()

    def _whereabouts(self, db: Connection) -> _Read:
        """The owners and the live processes, as read now."""
        owners = self.whereabouts.owners(db)
        return _Read(owners, list(self.whereabouts.processes(db)), time.monotonic())

    def _due(self, read: _Read, changed: list[int]) -> bool:
        """Whether the owners are to be read again: ``refresh`` seconds after they
        were, or, woken by the summaries of ``changed``, ``OWNERS_SECONDS`` after they
        were or at once if one of those tables had no live owner then (a new table, one
        taken over)."""
        since = time.monotonic() - read.at
        if since >= self.refresh:
            return True
        return bool(changed) and (
            since >= OWNERS_SECONDS or any(read.owners.get(t) is None for t in changed)
        )

    def _read_all(self, db: Connection) -> Found:
        """Every stored summary, page by page."""
        known: Found = {}
        first = 0
        while True:
            page = summaries_from(db, first)
            known.update((i, (NOWHERE, s)) for i, s in page if s is not None)
            if not page:
                return known
            first = page[-1][0] + 1

    def _hand_over(self, read: _Read) -> None:
        """Hands the loop the tables served elsewhere and the live processes, as
        ``read`` says."""
        found = elsewhere(self._known, read.owners)
        self.readings += 1
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self.directory.replace, found, read.processes)
