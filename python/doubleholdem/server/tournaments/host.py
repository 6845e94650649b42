"""Which process of a room runs its tournaments (:class:`TournamentsHost`).

A room served by one process (SQLite, or a repair) runs them in that process. A room
served by many (PostgreSQL, its tables leased: :mod:`doubleholdem.server.cluster`) runs
them in one process at a time, the holder of the lease of the room's tournaments
(:data:`~doubleholdem.server.cluster.leases.TOURNAMENTS`: a tournament's tables are not
leased apart), by the lease rules of the tables:

- At its start a process takes the lease if no live process holds it, and runs the
  stored tournaments (and opens those its settings want); else it runs none for now.
- Each heartbeat of its :class:`~doubleholdem.server.cluster.member.Membership` (on its
  thread) reads who holds the lease. A process that runs none takes it once its holder
  is not live (killed: its session's advisory lock ends at once; frozen or cut off: its
  heartbeat's expiry), and restores every tournament from the database as a restart
  does (:meth:`Tournaments.open <doubleholdem.server.tournaments.room.Tournaments.open>`),
  once the changes it had handed in are committed.
- Fencing: every change of a tournament is committed under the lease's epoch (its steps
  and payments fenced as a table's, with the id of the lease:
  :meth:`GroupCommit.later <doubleholdem.server.storage.commit.GroupCommit.later>`,
  :meth:`GroupCommit.paying <doubleholdem.server.storage.commit.GroupCommit.paying>`), so
  a process that froze while another took the tournaments over writes nothing of them
  when it wakes: its commit leaves them out (or its payment is refused), and it stops
  running them (:meth:`TournamentsHost.lost`), as it does when its heartbeat finds the
  lease another's.

:attr:`TournamentsHost.run` is the tournaments run here (``None`` while another process
runs them: :attr:`TournamentsHost.owner` says which, as last read); the parts that
answer clients read it at each request, and :attr:`TournamentsHost.listeners` are told
when it changes."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from functools import partial
from typing import Any

from doubleholdem.database.connection import Connection
from doubleholdem.server import oplog
from doubleholdem.server.cluster import leases
from doubleholdem.server.cluster.leases import TOURNAMENTS, Owner
from doubleholdem.server.cluster.member import Membership
from doubleholdem.server.tournaments.room import Tournaments

__all__ = ["TournamentsHost"]

_log = logging.getLogger("doubleholdem.server")


class TournamentsHost:
    """The room's ``tournaments`` (made, not opened), run here or by another process of
    the room (see the module): each time they come here they are opened anew from the
    database. ``membership``: this process's in a room of many (``None`` or exclusive:
    it runs them alone)."""

    def __init__(self, tournaments: Tournaments, membership: Membership | None) -> None:
        self.store, self.settings = tournaments.store, tournaments.settings
        self.commit, self.specs = tournaments.commit, tournaments.specs
        self._made: Tournaments | None = tournaments  # opened the first time they run here
        self.run: Tournaments | None = None
        self.owner: Owner | None = None  # the live process that runs them, as last read
        # told (on the loop) each time :attr:`run` changes: tournaments run here, or None
        self.listeners: list[Callable[[Tournaments | None], None]] = []
        fenced = membership is not None and self.store.fencing.process is not None
        leased = fenced and membership is not None and not membership.exclusive
        self._member = membership if leased else None
        # a process that holds the room alone and fences its writes (a repair on
        # PostgreSQL): it takes the lease whoever the row names
        self._alone = membership if fenced and not leased else None
        self._epoch: int | None = None  # the lease's epoch while they run here
        self._taking = False  # taken by the heartbeat, not yet installed by the loop
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._tables_lost = self.commit.lost  # the room's, told of the tables' leases lost
        if self._member is not None:  # a commit that left them out: another runs them
            self.commit.lost = self._commit_lost

    @property
    def leased(self) -> bool:
        """Whether the tournaments are leased (a room of many processes)."""
        return self._member is not None

    def open(self) -> None:
        """At the start (before the loop runs): runs the tournaments here if this
        process serves the room alone or takes their lease; else logs who runs them."""
        member = self._member
        if member is None:
            if self._alone is not None:
                with self.store.transaction():
                    epoch = leases.acquire_part(
                        self.store.db, self._alone.id, TOURNAMENTS, steal=True
                    )
                if epoch is not None:
                    self._grant(epoch)
            self._open()
            return
        with self.store.transaction():
            epoch = leases.acquire_part(self.store.db, member.id, TOURNAMENTS)
            owner = leases.part_owner(self.store.db, TOURNAMENTS)[0]
        if epoch is not None:
            self._grant(epoch)
            self._open()
            return
        self.owner = owner
        where = "another process" if owner is None else f"process {owner.process} ({owner.address})"
        _log.warning(
            "this process runs none of the room's tournaments for now: %s runs them"
            " (it takes them over if that one stops or dies)", where
        )  # fmt: skip

    def _grant(self, epoch: int) -> None:
        self._epoch = epoch
        self.store.fencing.epochs[TOURNAMENTS] = epoch

    def _open(self) -> None:
        run, self._made = self._made, None
        if run is None:  # here again: anew, as a restart makes them
            run = Tournaments(self.store, self.settings, self.commit, self.specs)
        run.open()
        self.run = run
        self.owner = None
        for listener in self.listeners:
            listener(run)

    async def start(self) -> None:
        """Starts the tournaments run here, and (leased) the look at their lease each
        heartbeat."""
        self._loop = asyncio.get_running_loop()
        if self.run is not None:
            await self.run.start()
        if self._member is not None:
            self._member.beats.append(self._beat)

    async def stop(self) -> None:
        """Stops the tournaments' tasks (before the room's last commit)."""
        if self._member is not None and self._beat in self._member.beats:
            self._member.beats.remove(self._beat)
        if self.run is not None:
            await self.run.stop()
        for task in list(self._tasks):
            task.cancel()

    # ------------------------------------------------------------------ the lease

    def _beat(self, db: Connection) -> None:
        """On the heartbeat's thread: who holds the lease; lost, or taken if takeable."""
        assert self._member is not None
        owner, named, epoch = leases.part_owner(db, TOURNAMENTS)
        self.owner = owner
        held = self._epoch
        if held is not None:
            if named != self._member.id or epoch != held:
                self._tell(self.lost, held)
            return
        if self._taking or owner is not None:
            return
        taken = leases.acquire_part(db, self._member.id, TOURNAMENTS)
        if taken is not None:
            self._taking = True
            self._tell(self._took, taken)

    def _tell(self, callback: Callable[[int], None], epoch: int) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(callback, epoch)

    def _took(self, epoch: int) -> None:
        """On the loop: the lease taken under ``epoch``; once what was handed in is
        committed, the tournaments are restored from the database and run."""
        self.commit.after(partial(self._install, epoch))

    def _install(self, epoch: int) -> None:
        self._taking = False
        self._grant(epoch)
        try:
            self._open()
        except Exception:  # a tournament that cannot be read: for the operator
            _log.exception("the room's tournaments could not be taken over")
            return
        assert self.run is not None
        self._spawn(self.run.start())
        oplog.event("tournaments_taken", epoch=epoch, tournaments=len(self.run.runners))

    def lost(self, epoch: int) -> None:
        """On the loop: the lease of ``epoch`` is another process's now. The
        tournaments stop here at once (what they hand in is fenced out); the clients
        are told where they run (:attr:`listeners`)."""
        if self._epoch != epoch:
            return  # lost already, or taken back since under another epoch
        self._epoch = None
        self.store.fencing.epochs.pop(TOURNAMENTS, None)
        run, self.run = self.run, None
        if run is not None:
            self._spawn(run.stop())
        oplog.event("tournaments_lost", epoch=epoch)
        for listener in self.listeners:
            listener(None)

    def _commit_lost(self, tables: set[int]) -> None:
        """The group commit's leases lost: the tournaments' lease among them (a change
        fenced out), the tables' to the room."""
        if TOURNAMENTS in tables and self._epoch is not None:
            self.lost(self._epoch)
        rest = tables - {TOURNAMENTS}
        if rest:
            self._tables_lost(rest)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
