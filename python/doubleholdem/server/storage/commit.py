"""The group commit: what the changes of every table made in one turn of the event loop
store is committed in one transaction, and only then are their replies and states sent.

The parts that change hand it callbacks: the *steps* of a change (functions of the
:class:`~doubleholdem.server.storage.storage.Storage`), an *undo* that takes their table back to
its last committed state if the commit fails, what to do once the commit *ended*,
either way (call a wallet outside the database), the messages to *post* after the
commit (to anything with a ``send(text)``) and those to send *instead* if it fails;
an *answer* that no change made (an error, an ``elsewhere``) goes in its place either
way (:mod:`~doubleholdem.server.storage.batch`). It holds no table and no connection.

A commit never blocks the event loop and never spins. While another connection holds the
database's write lock it tries again, backing off from a millisecond to
``RETRY_LONGEST``; after ``LOCK_PATIENCE`` seconds, or at once on any other failure (a
full disk, an I/O error, a failed ``COMMIT``), the commit fails: the transaction is rolled
back with every cache derived from it, each changed table goes back to its last committed
state, and the room *refuses* writes (:attr:`GroupCommit.refusing` says why) until a
heartbeat commit succeeds, tried every ``PROBE_SECONDS`` and before each new change.
:attr:`GroupCommit.ready` is set while tables may change: neither waiting nor refusing.

A payment that may be refused (a buy-in the ledger's balance cannot pay) is written into
the next commit's transaction at once, and committed by it with the change it pays for
(:meth:`GroupCommit.paying`); what must be committed before anything else happens (a
call to a wallet outside the database, noted first) is written in a transaction of its
own (:meth:`GroupCommit.write_now`). Both wait ``PAY_PATIENCE`` seconds at most for the
write lock.

On PostgreSQL (:attr:`Storage.commits_off_loop
<doubleholdem.server.storage.storage.Storage.commits_off_loop>`) a commit's statements
(some forty round trips to the server at a hand's end) run on a worker thread of the
room's own, one commit at a time, while the event loop goes on serving clients; the
changes their requests make meanwhile gather for the next commit, which begins once this
one *lands* back on the loop, in order. The tables' own tasks (bots, deadlines) wait for
it to land (:attr:`GroupCommit.ready` is clear meanwhile), as they waited for a commit
on the loop: a loop that ran ahead of its commits would gather without bound. The rest
is as above and happens on the loop: the replies sent after the commit, the undos if it
failed (with those of the changes gathered meanwhile, made on top of it), the refusing
and the heartbeat. Whatever else would begin a transaction (a payment, a write that must
be committed now) waits for the commit in flight to end first
(:class:`~doubleholdem.server.storage.turns.WriterTurn`). Reads on the loop meanwhile (a
resumed token, a retried action id) answer from what is committed
(:meth:`Storage.committed <doubleholdem.server.storage.storage.Storage.committed>`, which
neither waits for the commit's statements nor sees its rows) and what the room holds in
memory: the seats taken and the action ids applied (:attr:`GroupCommit.applying`) whose
commit has not landed. SQLite
commits on the loop, as before: its commit is a function call and a write to the log (a
few hundred microseconds), less than the hop to a thread and back.

Fencing (a room whose tables are leased to many processes:
:mod:`doubleholdem.server.cluster`). A change hands in its table's id with its steps;
the commit's first statement locks the leases of the tables it writes (*the fencing
step*, :meth:`Fence.fence <doubleholdem.server.cluster.fencing.Fence.fence>`), and
the steps of a table whose lease this process lost are left out: the others' are
committed, that table's replies are not sent (those it asked to send instead are), and
it is handed to :attr:`GroupCommit.lost` (its runner goes, its clients are told where to
go): a lost table is no failure of the database. A payment for a table fences it at
once (:meth:`GroupCommit.paying`). Should the database itself refuse a write (its
fencing triggers: a table written under a lease that moved, which this process's own
check did not see), nothing of that commit is written: its tables go back to their
last committed state as after any failed commit, the refused table is handed to
:attr:`GroupCommit.lost` (counted: ``writes_fenced``), and the room goes on taking
writes."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import time
from collections.abc import Callable, Iterator
from typing import TypeVar

from doubleholdem.database.failure import database_errors
from doubleholdem.errors import DatabaseBusy
from doubleholdem.server import oplog
from doubleholdem.server.cluster.fencing import refused_tables
from doubleholdem.server.cluster.leases import LeaseLost
from doubleholdem.server.metrics import Metrics
from doubleholdem.server.storage.batch import (
    Answer,
    Batch,
    Recipient,
    Step,
    TableStep,
    answers,
)
from doubleholdem.server.storage.money_step import money_last
from doubleholdem.server.storage.storage import Storage

__all__ = [
    "FLUSH_RETRY",
    "LOCK_PATIENCE",
    "PAY_PATIENCE",
    "PROBE_SECONDS",
    "RETRY_LONGEST",
    "GroupCommit",
    "Recipient",
    "Step",
    "TableStep",
    "running_loop",
]

FLUSH_RETRY = 0.001  # seconds before a commit first tries again for the write lock
RETRY_LONGEST = 0.05  # the longest wait between such tries
LOCK_PATIENCE = 5.0  # seconds of such tries before the commit fails
PROBE_SECONDS = 0.1  # between heartbeat commits while the database refuses writes
STOP_PATIENCE = 1.0  # seconds the last commit waits for the write lock when stopping
PAY_PATIENCE = 0.1  # how long a payment waits for the write lock (a checkpoint resetting the log)

_NONE_APPLYING: set[tuple[str, str]] = set()  # a batch's when there are none (never changed)
_T = TypeVar("_T")


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop, or ``None`` (a script or a test without one)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:  # no event loop
        return None


class GroupCommit:
    """Commits to ``store`` what the changes of one turn of the event loop store."""

    def __init__(self, store: Storage, metrics: Metrics | None = None) -> None:
        self.store = store
        self.metrics = metrics if metrics is not None else Metrics()
        # the thread PostgreSQL's commits run on (made on the first), and the one in flight
        self._threaded = store.commits_off_loop
        self._worker: concurrent.futures.ThreadPoolExecutor | None = None
        self._flying: Batch | None = None
        self._steps: list[Step] = []
        self._sends: list[tuple[Recipient, str]] = []
        self._instead: list[tuple[Recipient, str]] = []
        self._undo: set[Callable[[], None]] = set()
        self._ended: dict[Callable[[], None], None] = {}  # in order, each once
        self.applying: set[tuple[str, str]] = set()  # (token hash, action id) not committed
        self._flush: asyncio.Handle | None = None
        self._probe: asyncio.Handle | None = None
        self.stopping = False  # the last commit: it waits a little for the database
        self._locked_since: float | None = None  # when a commit first found the lock held
        self._tries = 0
        self.refusing: str | None = None  # why the database refuses writes, or None
        self.failures = 0  # commits that failed so far (their changes undone)
        # the tables may change on their own: set unless waiting, committing off the loop
        # or refusing
        self.ready = asyncio.Event()
        self.ready.set()
        # called on the loop with the tables whose leases this process lost
        self.lost: Callable[[set[int]], None] = _nothing_lost

    def later(
        self,
        steps: list[Step],
        undo: Callable[[], None],
        ended: Callable[[], None] | None = None,
        *,
        table: int | None = None,
    ) -> None:
        """Stores ``steps`` at the next :meth:`flush`; if that commit fails, ``undo`` is
        called; once it ended, committed or failed (after the undos), ``ended`` is
        (before the messages are sent). Each once however often it is handed in.
        ``table``: the table they change (fenced: see the module)."""
        if table is None:
            self._steps += steps
        else:
            epoch = self.store.fencing.epochs.get(table, -1)
            self._steps += [TableStep(table, epoch, s) for s in steps]
        self._undo.add(undo)
        if ended is not None:
            self._ended[ended] = None
        self._flush_soon()

    def after(self, then: Callable[[], None]) -> None:
        """Calls ``then`` once the changes handed in are committed or failed: at once if
        none is pending; else the commit is tried now (if it must wait for the write
        lock, ``then`` waits with it), and ``then`` called when it ended, after the
        undos and what else waited for it."""
        if not self._steps and not self._undo and self._flying is None:
            then()
            return
        self._ended[then] = None
        self.flush()

    @contextlib.contextmanager
    def paying(self, table: int | None = None) -> Iterator[None]:
        """A change that may be refused (a buy-in the balance cannot pay): what the
        block writes goes at once into the next commit's transaction (begun now,
        :meth:`Storage.reserve <doubleholdem.server.storage.storage.Storage.reserve>`),
        which :meth:`flush` then commits with the table change it pays for, or rolls
        back with it. If the block raises, what it wrote is undone (a savepoint; the
        whole transaction, and its write lock, when it held nothing else) and the error
        raised. :class:`~doubleholdem.errors.DatabaseBusy` when the write lock is held
        elsewhere for more than ``PAY_PATIENCE`` seconds (nothing written);
        :class:`~doubleholdem.server.cluster.leases.LeaseLost` when this process lost
        the lease of ``table``, the table it pays at (nothing written)."""
        store = self.store
        self._connection_free()
        began = not store.in_transaction
        self._begin_now()
        lost = set() if table is None else store.fencing.fence(store.db, {table})
        if lost:
            if began:
                store.abandon()
            self._lose(lost)
            raise LeaseLost(lost)
        store.db.execute("SAVEPOINT paying")
        try:
            yield
        except BaseException as error:
            with contextlib.suppress(*database_errors()):
                store.db.execute("ROLLBACK TO paying")
                store.db.execute("RELEASE paying")
            if began:  # nothing else is in the transaction: the write lock goes at once
                store.abandon()
            if refused := refused_tables(error):  # by the database's fencing
                self._lose(refused, by_database=True)
                raise LeaseLost(refused, by_database=True) from error
            raise
        store.db.execute("RELEASE paying")

    def write_now(self, write: Callable[[Storage], _T]) -> _T:
        """``write(store)`` committed now, before anything else happens (a call to a
        wallet outside the database, noted before it is asked), with what the next
        commit's transaction holds already; its result.
        :class:`~doubleholdem.errors.DatabaseBusy` if the database cannot take it
        within ``PAY_PATIENCE`` seconds or refuses it (nothing written)."""
        try:
            self._connection_free()
            self._begin_now()
            with self.store.transaction():
                return write(self.store)
        except database_errors() as error:
            raise DatabaseBusy(f"the database refuses writes for now ({error})") from None

    def _begin_now(self) -> None:
        """Begins the next commit's transaction now; :class:`DatabaseBusy` when the
        write lock is held elsewhere for more than ``PAY_PATIENCE`` seconds."""
        if not self.store.reserve(PAY_PATIENCE):
            raise DatabaseBusy("the database is busy (another process writes): try again")

    def post(self, recipient: Recipient, text: str) -> None:
        """Sends ``text`` to ``recipient`` after the next :meth:`flush`'s commit (in the
        order posted)."""
        self._sends.append((recipient, text))
        self._flush_soon()

    def answer(self, recipient: Recipient, text: str) -> None:
        """Sends ``text`` to ``recipient`` after the next :meth:`flush`'s commit (in the
        order posted), whether it succeeds or fails: an answer that no change made (an
        error, an ``elsewhere``, a watch's state). Posted, a failed commit swallowed it
        and the client waited for good (a resume at a process just woken)."""
        self.post(Answer(recipient), text)

    def instead(self, recipient: Recipient, text: str) -> None:
        """Sends ``text`` to ``recipient`` if the next :meth:`flush`'s commit fails."""
        self._instead.append((recipient, text))

    def idle(self) -> bool:
        """Whether nothing waits to be committed and no commit is in flight."""
        return self._flying is None and self._flush is None and not self._steps

    def health(self) -> str | None:
        """``None`` while the database takes writes; else what is wrong."""
        if self.refusing is not None:
            return f"the database refuses writes: {self.refusing}"
        if self._locked_since is not None:
            waited = time.monotonic() - self._locked_since
            if waited >= 1.0:
                return f"waiting {waited:.1f} s for the database's write lock"
        return None

    def writable(self) -> bool:
        """Whether changes may be made now: True unless the database refuses writes and
        a heartbeat commit, tried now without waiting, still fails."""
        if self.refusing is None:
            return True
        idle = self._flush is None and self._flying is None and not self._steps
        if idle and self.store.writable():
            self._accepting()
        return self.refusing is None

    def _flush_soon(self) -> None:
        if self._flush is not None:
            return
        loop = running_loop()
        if loop is None:  # a script or a test: at once
            self.flush()
            return
        self._flush = loop.call_soon(self.flush)

    def flush(self) -> None:
        """Commits what the changes since the last flush store, in one transaction, then
        sends what they post; if the commit fails, calls their undos and sends what they
        asked to send instead (see the module's text). While a commit is in flight the
        flush waits for it to land (stopping: here, blocking)."""
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
        if self._flying is not None:
            if not self.stopping:
                return  # it flushes again when it lands
            self._connection_free()
            self._landed(self._flying)
        if self.stopping and self._worker is not None:
            self._worker.shutdown()
            self._worker = None
        if not self._steps and not self._undo:  # nothing to commit: sent, called at once
            self._locked_since = None
            self._tries = 0
            ended, sends = self._ended, self._sends
            self._ended, self._sends, self._instead = {}, [], []
            self._delivered(ended, sends)
            return
        off_loop = self._off_loop()
        if self._steps and not off_loop and not self._reserve():
            return
        self._locked_since = None
        self._tries = 0
        batch = self._take()
        if batch.steps and off_loop:
            self._fly(batch)
            return
        self._land(batch, self._commit(batch.steps, batch.lost))

    def _off_loop(self) -> bool:
        """Whether the next commit runs on the worker thread: on PostgreSQL, from a
        running event loop, unless stopping."""
        return self._threaded and not self.stopping and running_loop() is not None

    def _commit(self, steps: list[Step], lost: set[int]) -> BaseException | None:
        """Runs ``steps`` in one transaction, but those of tables whose leases are
        lost (added to ``lost``: the fencing step), and commits it (on whichever
        thread); what failed, or ``None``. Its time is the commit latency's."""
        if not steps:
            return None
        began = time.perf_counter()
        try:
            with self.store.transaction():
                lost |= self._fence(steps)
                for step in money_last(steps):  # the ledger's lock held the least
                    if not lost or getattr(step, "table", None) not in lost:
                        step(self.store)
        except Exception as error:
            return error
        finally:
            self.metrics.observe("commit_seconds", time.perf_counter() - began)
        return None

    def _commit_off_loop(self, steps: list[Step], lost: set[int]) -> BaseException | None:
        """:meth:`_commit` on the commit's thread, the write connection lent to it."""
        self.store.turn.take()
        try:
            return self._commit(steps, lost)
        finally:
            self.store.turn.give_back()

    def _fence(self, steps: list[Step]) -> set[int]:
        """The fencing step: the tables of ``steps`` whose leases this process lost
        (the others' locked until the transaction ends)."""
        epochs = {(s.table, s.epoch) for s in steps if isinstance(s, TableStep)}
        return self.store.fencing.fence_epochs(self.store.db, epochs) if epochs else set()

    def _lose(self, tables: set[int], *, by_database: bool = False) -> None:
        """Hands ``tables``, whose leases this process lost, to :attr:`lost`;
        ``by_database``: found so by the database refusing a write of theirs (its
        fencing triggers), counted apart (``writes_fenced``)."""
        if by_database:
            oplog.event("writes_fenced", tables=sorted(tables))
            self.metrics.count("writes_fenced")
        oplog.event("leases_lost", tables=sorted(tables))
        self.metrics.count("leases_lost", len(tables))
        self.lost(tables)

    def _fly(self, batch: Batch) -> None:
        """Commits ``batch`` on the worker thread; it lands on the loop when done."""
        loop = asyncio.get_running_loop()
        if self._worker is None:
            self._worker = concurrent.futures.ThreadPoolExecutor(
                1, thread_name_prefix="doubleholdem-commit"
            )
        self._flying = batch
        self.ready.clear()  # the tables' own moves wait for it to land, as on the loop
        self.store.turn.lend()
        batch.future = self._worker.submit(self._commit_off_loop, batch.steps, batch.lost)

        def done(_: object) -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(self._landed, batch)

        batch.future.add_done_callback(done)

    def _connection_free(self) -> None:
        """Waits for the commit in flight's statements to end (the connection is
        then the loop's again); it still lands later, on the loop."""
        if self._flying is not None and self._flying.future is not None:
            concurrent.futures.wait([self._flying.future])

    def _landed(self, batch: Batch) -> None:
        """The commit of ``batch`` ended on the worker: its replies or its undos, then
        the next commit if changes gathered meanwhile (once each)."""
        if self._flying is not batch or batch.future is None:
            return
        self._flying = None
        self._land(batch, batch.future.result())
        if not self.stopping and (self._steps or self._sends or self._ended):
            self._flush_soon()  # (stopping, the flush that landed it goes on)

    def _land(self, batch: Batch, error: BaseException | None) -> None:
        """What follows a commit of ``batch`` that ended (``error`` if it failed)."""
        if batch.lost:
            self._left_out(batch)
        if error is not None:
            # the changes gathered meanwhile were made on top of the failed ones: they fail too
            pending = self._take_pending()
            self._failed(
                error,
                batch.undo | pending.undo,
                batch.instead + pending.instead + answers(batch.sends + pending.sends),
                {**batch.ended, **pending.ended},
            )
            return
        if batch.applying:
            self.applying -= batch.applying
        if batch.steps and self.refusing is not None:
            self._accepting()
        self._delivered(batch.ended, batch.sends)

    def _delivered(
        self, ended: dict[Callable[[], None], None], sends: list[tuple[Recipient, str]]
    ) -> None:
        """After a commit (or none was due): what waited for it is called, then what
        was posted sent."""
        if self.refusing is None:
            self.ready.set()
        for then in ended:
            then()
        for recipient, text in sends:
            recipient.send(text)

    def _left_out(self, batch: Batch) -> None:
        """The tables of ``batch`` left out of its commit, their leases lost: their
        clients are sent what they asked instead, not their replies, and the tables go
        to :attr:`lost`."""
        lost = batch.lost

        def theirs(recipient: Recipient) -> bool:
            return getattr(recipient, "table", None) in lost

        batch.sends = [(r, text) for r, text in batch.sends if not theirs(r)]
        for recipient, text in batch.instead:
            if theirs(recipient):
                recipient.send(text)
        batch.instead = [(r, text) for r, text in batch.instead if not theirs(r)]
        self._lose(lost)

    def _take(self) -> Batch:
        """The changes handed in since the last commit, taken for the next (their
        action ids stay in ``applying`` until that commit landed)."""
        applying = set(self.applying) if self.applying else _NONE_APPLYING
        batch = Batch(self._steps, self._sends, self._instead, self._undo, self._ended, applying)
        self._steps, self._sends, self._instead = [], [], []
        self._undo, self._ended = set(), {}
        return batch

    def _take_pending(self) -> Batch:
        """The changes not yet committed, taken to fail (a payment written into the
        next transaction already is rolled back with them)."""
        pending = self._take()
        self.applying.clear()
        self.store.abandon()
        return pending

    def _reserve(self) -> bool:
        """Takes the write lock for the commit: True; False when the commit waits for
        it (a later :meth:`flush` is due) or failed for good. Without an event loop,
        or when stopping, it sleeps between tries instead."""
        loop = None if self.stopping else running_loop()
        patience = STOP_PATIENCE if self.stopping else LOCK_PATIENCE
        while True:
            try:
                if self.store.reserve():
                    return True
            except database_errors() as error:
                self._fail_pending(error)
                return False
            now = time.monotonic()
            if self._locked_since is None:
                self._locked_since = now
            if now - self._locked_since >= patience:
                self._fail_pending(DatabaseBusy("another process holds the lock"))
                return False
            self.ready.clear()
            delay = min(RETRY_LONGEST, FLUSH_RETRY * 2**self._tries)
            self._tries += 1
            if loop is None:
                time.sleep(delay)
                continue
            self._flush = loop.call_later(delay, self.flush)
            return False

    def fail(self, error: BaseException) -> None:
        """A change raised part-way, after it changed its table or paid (a defect):
        every change pending fails as if its commit had (what they wrote in the next
        commit's transaction is rolled back, their tables go back to their last committed
        state, their requests are told so), so that nothing of that change is committed
        without the rest of it. A commit in flight lands as it would."""
        self._connection_free()
        self._fail_pending(error)

    def _fail_pending(self, error: BaseException) -> None:
        self._locked_since = None
        self._tries = 0
        pending = self._take_pending()
        self._failed(error, pending.undo, pending.instead + answers(pending.sends), pending.ended)

    def _failed(
        self,
        error: BaseException,
        undo: set[Callable[[], None]],
        instead: list[tuple[Recipient, str]],
        ended: dict[Callable[[], None], None],
    ) -> None:
        """The commit failed: every changed table goes back to its last committed state,
        the room refuses writes until a heartbeat commit succeeds, what waited for the
        commit to end is called, and the requests of the failed commit are told so. A
        commit that wrote a table whose lease was lost (:class:`LeaseLost`) is no
        failure of the database: that table goes (:attr:`lost`), the room goes on."""
        oplog.event("commit_failed", error=str(error) or type(error).__name__, tables=len(undo))
        self.metrics.count("commits_refused")
        self.failures += 1
        if not isinstance(error, LeaseLost):
            self.refusing = str(error) or type(error).__name__
        self.ready.clear()
        for back in undo:
            back()
        for then in ended:
            then()
        for recipient, text in instead:
            recipient.send(text)
        if isinstance(error, LeaseLost):
            self._lose(set(error.tables), by_database=error.by_database)
            if self.refusing is None:
                self.ready.set()
        else:
            self._schedule_probe()

    def _schedule_probe(self) -> None:
        loop = running_loop()
        if loop is not None and self._probe is None and not self.stopping:
            self._probe = loop.call_later(PROBE_SECONDS, self._heartbeat)

    def _heartbeat(self) -> None:
        self._probe = None
        if self.refusing is None or self.stopping:
            return
        if self.writable():
            return
        self._schedule_probe()

    def _accepting(self) -> None:
        """The database takes writes again."""
        oplog.event("writes_again")
        self.refusing = None
        if self._probe is not None:
            self._probe.cancel()
            self._probe = None
        self.ready.set()


def _nothing_lost(tables: set[int]) -> None:
    """What :attr:`GroupCommit.lost` does until the room says."""
