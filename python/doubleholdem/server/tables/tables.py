"""The room's tables (:class:`RoomTables`): restored from the database where they were,
created up to the settings' count, a damaged one replaced on ``serve --repair``, each
with its :class:`~doubleholdem.server.tables.runner.TableRunner` task, its bots and its money
(:class:`~doubleholdem.server.money.table_money.TableMoney`, made by the room's kind of
money, chosen once: :func:`~doubleholdem.server.money.choose.room_money`). The clients and
their requests are the :class:`~doubleholdem.server.tables.room.Room`'s, which holds its
tables as a part.

A PostgreSQL room's tables are leased to its processes (:mod:`doubleholdem.server.cluster`):
this one serves those of its :class:`~doubleholdem.server.cluster.member.Membership`,
restores those it takes over as a restart does, and drops one whose lease it lost. On
SQLite one process holds every table (its lock file) through the same path."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from doubleholdem.accounts.wallet import Wallet
from doubleholdem.database.connection import POSTGRESQL, dialect, serialise
from doubleholdem.database.url import is_postgres
from doubleholdem.errors import DamagedDatabase, DatabaseBusy, TamperedSnapshot
from doubleholdem.server import oplog, protocol
from doubleholdem.server.cluster import leases
from doubleholdem.server.cluster.leases import LEASE_SECONDS
from doubleholdem.server.cluster.member import Membership
from doubleholdem.server.money.choose import room_money
from doubleholdem.server.money.table_money import TableMoney
from doubleholdem.server.money.wallet_gate import WalletFailed
from doubleholdem.server.settings import DEFAULT_BOTS, RoomSettings
from doubleholdem.server.storage.commit import GroupCommit
from doubleholdem.server.storage.journal import restore
from doubleholdem.server.storage.lobby_rows import channel
from doubleholdem.server.storage.storage import Damage, Storage, StoredTable
from doubleholdem.server.tables import handover
from doubleholdem.server.tables.connection import Connection
from doubleholdem.server.tables.directory import Directory, Place
from doubleholdem.server.tables.directory_reader import DirectoryReader, Leases, Whereabouts
from doubleholdem.server.tables.money_kind import check_money_kind
from doubleholdem.server.tables.runner import BOT_KINDS, Humans, TableRunner
from doubleholdem.table import Table
from doubleholdem.wording import Wording, for_people, seat_said, told

__all__ = ["BANKROLL_BUY_INS", "RoomTables"]


_log = logging.getLogger("doubleholdem.server")
BANKROLL_BUY_INS = 10  # a new bot's bankroll by default: this many maximum buy-ins


class RoomTables:
    """Every table of the server and its database (the room without its clients)."""

    def __init__(
        self,
        store: Storage,
        settings: RoomSettings,
        *,
        wallet: Wallet | None = None,
        membership: Membership | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        # the money at the tables, chosen once: play chips in a guest room; else
        # ``wallet``, by default the ledger in the room's own database
        self.money = room_money(store, guests=settings.guests, wallet=wallet)
        self.commit = GroupCommit(store)
        self.runners: dict[int, TableRunner] = {}
        self.commit.metrics.gauge("tables_owned", lambda: len(self.runners))
        self.audit: Callable[[Connection, TableRunner, str], None] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._playing: dict[int, asyncio.Task[None]] = {}  # each table's task
        self.repaired: list[str] = []  # what a repair did, table by table
        # the tables the room's other processes serve (none in a room of one process),
        # and the room's NOTIFY channel (lobby_rows; None on SQLite)
        self.channel = channel(store.db)
        self.directory = Directory(Place(settings.process, settings.address))
        # the room's processes and who owns each table, read by the directory's reader
        # (a room in PostgreSQL: its leases; None on SQLite, one process)
        self.whereabouts: Whereabouts | None = Leases() if self.channel is not None else None
        self.reader: DirectoryReader | None = None
        # this process's leases of the room's tables (None: it serves them all, alone)
        self.membership = membership
        if membership is not None:
            membership.held = store.fencing.epochs  # one record of the epochs held
            if dialect(store.db) == POSTGRESQL:  # SQLite's lock file fences alone
                store.fencing.process = membership.id
                idle = f"{int(membership.lease_seconds * 1000)}ms"  # frozen in a transaction:
                # its session ends, and its leases' locks with it (a new one then opens)
                store.set_session("idle_in_transaction_session_timeout", idle)
                # named by its process: ended by the others once it is dead (frozen in
                # a pipeline of statements, which is no idle transaction)
                store.set_session("application_name", leases.session_name(membership.id))
            store.closing.append(membership.close)
            membership.renewed = partial(self.commit.metrics.count, "leases_renewed")
            self.commit.lost = self._lost

    @classmethod
    def open(
        cls,
        path: str,
        settings: RoomSettings,
        *,
        synchronous: str = "normal",
        repair: bool = False,
        wallet: Wallet | None = None,
        lease_seconds: float = LEASE_SECONDS,
    ) -> RoomTables:
        """The room of the database at ``path``: its stored tables restored where they
        were, and new tables up to ``settings.tables``. A damaged database is refused
        (:class:`DamagedDatabase` naming each table and its problem) unless ``repair``:
        then the tables that hold together are kept, the others replaced by new ones
        (:attr:`repaired` says which and why, and ``PATH.before-repair`` keeps a copy of
        the database as it was); the ledger's append-only triggers someone dropped are
        likewise refused (:class:`MissingTriggers`) unless ``repair``, which makes them
        anew. ``wallet`` pays for the seats (by default the ledger in the same
        database). On PostgreSQL, without ``repair``, the room is served with the other
        processes serving it, each table by one (this one is ``settings.process``,
        reachable at ``settings.address``; its leases expire ``lease_seconds`` after its
        last heartbeat); a repair holds it alone."""
        alone = repair or not is_postgres(path)
        store = Storage(path, synchronous=synchronous, restore_triggers=repair, shared=not alone)
        member = None
        try:
            if path != ":memory:":  # (a test's database: nobody else's)
                member = Membership(
                    path,
                    settings.address,
                    process=settings.process,
                    exclusive=alone,
                    lease_seconds=lease_seconds,
                )
        except BaseException:
            store.close()
            raise
        room = cls(store, settings, wallet=wallet, membership=member)
        if store.restored_triggers:
            room.repaired.append(
                f"restored the ledger's append-only triggers {', '.join(store.restored_triggers)}"
                " (`doubleholdem accounts audit` tells whether ledger rows changed meanwhile)"
            )
        try:
            room.load(repair=repair)
        except BaseException:
            room.store.close()
            raise
        return room

    @property
    def shared(self) -> bool:
        """Whether other processes may serve the room beside this one (PostgreSQL,
        its tables leased), rather than this one alone."""
        return self.membership is not None and not self.membership.exclusive

    @property
    def wallet(self) -> Wallet | None:
        """What pays for the seats, or ``None`` in a guest room."""
        return self.money.wallet

    def monies(self) -> list[TableMoney]:
        """The money of each table, as the tables are now."""
        return [runner.money for runner in self.runners.values()]

    def now(self, table: Table) -> float:
        """The server's time for ``table`` (never before the table's own time)."""
        return max(self.settings.clock(), table.now)

    def _runner(self, table_id: int, table: Table, bots: dict[int, str]) -> TableRunner:
        """The runner of table ``table_id``, handed what it needs of the room."""
        money = self.money.table(table_id, self.commit, self.settings)
        runner = TableRunner(
            table_id,
            table,
            bots,
            (self.settings.seed or 0) + table_id,
            settings=self.settings,
            commit=self.commit,
            money=money,
            emit=self.emit,
            load=lambda: self._stored(table_id),
        )
        runner.bankrolls.wanted_bots = self._configured_bots(table_id)
        runner.publish = self.channel
        if self.money.refills_bots:  # an embedding server's wallet seats its own bots
            runner.bankrolls.seat_bot = partial(self._replace_bot, runner)
        return runner

    def _stored(self, table_id: int) -> tuple[Table, Humans, dict[int, str]]:
        """Table ``table_id``, its human seats and its bots as last committed."""
        stored = self.store.table(table_id)
        bots = {int(seat): kind for seat, kind in stored.bots.items()}
        return restore(stored, self.settings.snapshot_key), self._humans(table_id), bots

    def _humans(self, table_id: int) -> Humans:
        """The human seats of table ``table_id`` as last committed."""
        return {seat: (h, player) for h, seat, player in self.store.seat_tokens.of_table(table_id)}

    def load(self, *, repair: bool = False) -> None:
        """Restores the stored tables and creates the missing ones (see :meth:`open`)."""
        self.money.load(self.store)
        member = self.membership
        owned = None if member is None else self._claim()
        tables, damage = self.store.survey()
        if member is not None and owned is not None:  # the others' tables are theirs to check
            others = leases.held_by_others(self.store.db, member.id)
            tables = [stored for stored in tables if stored.id in owned]
            damage = [d for d in damage if d.table not in others]
        for stored in tables:
            problem = self._restore(stored)
            if problem is not None:
                damage.append(Damage(stored.id, problem))
        if damage and (not repair or any(d.table is None for d in damage)):
            listed = sorted(damage, key=lambda d: d.table or -1)
            problems = "; ".join(for_people(d.wording()) for d in listed)  # as people count
            advice = "" if repair else " (serve --repair keeps the tables that hold together)"
            raise DamagedDatabase(f"{self.store.path}: {problems}{advice}")
        if damage:
            kept = self.store.backup(self.store.path + ".before-repair")
            _log.warning("repairing the room: the database as it was is kept in %s", kept)
        with self.store.transaction():
            serialise(self.store.db, "tables")  # one process makes the room's tables
            served = [runner.table for runner in self.runners.values()]
            check_money_kind(self.store, self.money.kind, served)
            for found in damage:
                assert found.table is not None
                problem = for_people(found.problem)
                gone = self.money.write_off(self.store, found.table, problem)
                self.store.drop_table(found.table)
                self.runners.pop(found.table, None)
                replaced = found.wording() + f": replaced by a new table{gone}"
                self.repaired.append(for_people(replaced))
            self._create_missing(owned, {d.table for d in damage if d.table is not None})
            for table_id in self.store.openings():
                if table_id in self.runners:
                    runner = self.runners[table_id]
                    runner.money.open_legacy(runner.table)
            self.publish(self.runners.values())
        with self.money.starting(self.store, self.monies):
            self._seat_new_bots()

    def _create_missing(self, owned: set[int] | None, dropped: set[int]) -> None:
        """Makes the tables up to the settings' count that the room lacks, and those a
        repair ``dropped``, in the load's transaction; with leases (``owned`` the
        tables this process holds), their leases are this process's."""
        stored = self.store.count()
        new = [
            table_id
            for table_id in range(max(stored, self.settings.tables))
            if table_id not in self.runners
            and (owned is None or table_id >= stored or table_id in dropped)
        ]
        if self.membership is not None:  # leased before anything of theirs is written
            granted = leases.grant_new(self.store.db, self.membership.id, new)
            self.store.fencing.epochs.update(granted)
        for table_id in new:
            self._create(table_id)

    def _claim(self) -> set[int]:
        """Acquires this process's share of the room's tables at its start (:meth:`Membership.claim
        <doubleholdem.server.cluster.member.Membership.claim>`): their ids."""
        assert self.membership is not None
        epochs = self.membership.claim()
        self.store.fencing.epochs.update(epochs)
        self.commit.metrics.count("leases_taken", len(epochs))
        return set(epochs)

    def publish(self, runners: Iterable[TableRunner]) -> None:
        """Stores the summaries of ``runners``' tables, inside the caller's transaction,
        for the lobbies of the room's other processes (a room in PostgreSQL; nothing on
        SQLite): the tables this process takes on, restored or new."""
        for runner in runners:
            if runner.publish is not None:
                runner.summary_step()(self.store)

    def _restore(self, stored: StoredTable, chat: list[dict[str, Any]] | None = None) -> str | None:
        """Takes on a stored table (with its ``chat``, else read): ``None``, or what is
        wrong with it."""
        try:
            table = restore(stored, self.settings.snapshot_key)
        except TamperedSnapshot as error:
            return told(error).removeprefix(f"table {stored.id}: ")
        seats = range(table.config.seats)
        bots: dict[int, str] = {}
        for key, kind in stored.bots.items():
            seat = int(key)
            if seat not in seats or kind not in BOT_KINDS or table.seats()[seat] is None:
                return Wording(
                    "its bots column names ", seat_said(seat), f" ({kind!r}): not a seated bot"
                )
            bots[seat] = kind
        humans: Humans = {}
        for hashed, seat, player in stored.tokens:
            if seat not in seats or seat in humans:
                return Wording(
                    "a seat token for ", seat_said(seat), f", of {table.config.seats} seats"
                )
            humans[seat] = (hashed, player)
        runner = self._runner(stored.id, table, bots)
        runner.humans = humans
        if chat is None:
            chat = self.store.chat(stored.id, last=self.settings.chat_lines)
        runner.chat.extend(chat)
        self.runners[stored.id] = runner
        return None

    def _create(self, table_id: int) -> None:
        """A new table ``table_id``, its bots seated."""
        settings = self.settings
        seed = settings.seed
        place = table_id % len(settings.configs)
        config = settings.configs[place]
        table = Table(config, seed=None if seed is None else seed * 1000 + table_id)
        now = settings.clock()
        bots = self._configured_bots(table_id)
        runner = self._runner(table_id, table, bots)
        if self.money.bots_sit_after_load:
            # a debit to a wallet outside the database is noted and committed before
            # it is asked, which the load's transaction cannot: the bots sit down after it
            self.store.note_bots_to_seat(table_id, bots)
            runner.bots.clear()
            runner.bot_kinds.clear()  # the very dict ``bots``: none sits now
        for seat in list(bots):
            if not self._seat_bot(runner, seat, f"bot-{table_id}-{seat}", now):
                del bots[seat]
        self.runners[table_id] = runner
        snapshot = table.to_json(self.settings.snapshot_key)
        self.store.add_table(table_id, snapshot, {str(s): k for s, k in bots.items()})

    def _configured_bots(self, table_id: int) -> dict[int, str]:
        """The bots table ``table_id`` is configured with (``settings.bots`` seats from
        the first, of its settings' kinds in turn): seat -> kind."""
        settings = self.settings
        place = table_id % len(settings.configs)
        seats = settings.configs[place].seats
        kinds = settings.bot_kinds[place] if place < len(settings.bot_kinds) else DEFAULT_BOTS
        return {s: kinds[s % len(kinds)] for s in range(min(settings.bots, seats))}

    def _replace_bot(self, runner: TableRunner, seat: int, kind: str) -> str | None:
        """Seats a bot of ``kind`` in the empty ``seat`` of ``runner``'s table, in the
        change being made: ``None``, or why it could not (the house's limit). With the
        room's ledger, a bot whose bankroll cannot buy in gets a new one from the house
        while the house's balance stays at or above ``-settings.house_limit``
        (:meth:`~doubleholdem.server.money.table_money.TableMoney.fund_bot`)."""
        name = f"bot-{runner.id}-{seat}"
        table = runner.table
        why = runner.money.fund_bot(table, seat, name, self._bankroll(table))
        if why is not None:
            return why
        if not self._seat_bot(runner, seat, name, runner.now()):
            return for_people("bot " + seat_said(seat) + " cannot buy in")
        runner.add_bot(seat, kind)
        return None

    def _bankroll(self, table: Table) -> int:
        """A new bot's bankroll at ``table`` (``settings.bot_bankroll``, by default
        ``BANKROLL_BUY_INS`` maximum buy-ins)."""
        return self.settings.bot_bankroll or BANKROLL_BUY_INS * table.config.buy_in_range[1]

    def _seat_new_bots(self) -> None:
        """The bots that new tables paid by a wallet outside the database are still to
        seat (:meth:`Storage.bots_to_seat
        <doubleholdem.server.storage.storage.Storage.bots_to_seat>`: made at their creation,
        and by a restart that a crash or a failure left them to) sit down, each in a
        change of its own that forgets it (:meth:`_seat_bot`; a seat taken meanwhile, or
        a bot the wallet does not cover, is forgotten too). One whose payment failed (the
        wallet, a busy database) stays to seat at the next start."""
        now = self.settings.clock()
        for table_id, bots in self.store.bots_to_seat().items():
            runner = self.runners.get(table_id)
            if runner is None:  # another process serves it
                continue
            for seat, kind in bots.items():
                self._seat_new_bot(runner, seat, kind, now)

    def _seat_new_bot(self, runner: TableRunner, seat: int, kind: str, now: float) -> None:
        table_id = runner.id
        try:
            with runner.change():
                empty = runner.table.seats()[seat] is None
                if empty and self._seat_bot(runner, seat, f"bot-{table_id}-{seat}", now):
                    runner.add_bot(seat, kind)
                runner.later(partial(Storage.bot_seated, table_id=table_id, seat=seat))
        except (DatabaseBusy, WalletFailed) as error:  # the seat stays empty
            _log.warning("bot-%d-%d was not seated: %s", table_id, seat, error)

    def _seat_bot(self, runner: TableRunner, seat: int, name: str, now: float) -> bool:
        """Seats a bot named ``name`` in ``seat`` (inside the storage's transaction) with
        the maximum buy-in, paid as the room's money pays
        (:meth:`TableMoney.seat_bot <doubleholdem.server.money.table_money.TableMoney.seat_bot>`):
        False when it cannot (the seat stays empty)."""
        table = runner.table
        return runner.money.seat_bot(table, seat, name, self._bankroll(table), now)

    async def start(self) -> None:
        """Starts every table's task (a hand in play goes on where it was), and the
        work the room's money does while it serves. No player is connected yet: their
        seats are away until they resume (no time bank)."""
        for runner in list(self.runners.values()):
            self._play(runner)
        if self.whereabouts is not None and self.channel is not None:
            self.directory.unread = True  # until its reader's first reading
            self.reader = DirectoryReader(self.store.path, self.directory, self.whereabouts)
            self.reader.start(asyncio.get_running_loop())
        for work in self.money.background(self.monies):
            self._tasks.append(asyncio.create_task(work))
        member = self.membership
        if member is not None and not member.exclusive:
            loop = asyncio.get_running_loop()
            read = partial(handover.read_taken, chat_lines=self.settings.chat_lines)
            member.start(loop, read=read, took=self._took, lost=self._lost, surplus=self._surplus)

    def _play(self, runner: TableRunner) -> None:
        """Starts the task of ``runner``'s table (its seats away until they resume)."""
        self.mark_away(runner)
        self._playing[runner.id] = asyncio.create_task(runner.run())

    async def stop(self) -> None:
        """Stops every table's task, the directory's reader and this process's leases'
        renewal (the database stays open: the room closes it, and its leases are
        released with it)."""
        if self.membership is not None:
            self.membership.stopping()
        tasks, self._tasks = [*self._tasks, *self._playing.values()], []
        self._playing.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self.reader is not None:
            await asyncio.to_thread(self.reader.stop)
            self.reader = None

    def mark_away(self, runner: TableRunner) -> None:
        """Tells ``runner``'s table which players are connected (when it can store
        that: a database that refuses writes leaves the seats as they were)."""
        changes = runner.away_changes()
        if not changes or not self.commit.writable():
            return
        with runner.change():
            now = runner.now()
            for seat, away in changes:
                runner.table.set_away(seat, away, now=now)

    def health(self) -> str | None:
        """``None`` while all is well; else what is wrong (the database refuses writes,
        a commit has been waiting for its write lock for a second or more, or the
        wallet outside the database failed calls it still owes:
        :meth:`RoomMoney.health <doubleholdem.server.money.table_money.RoomMoney.health>`)."""
        problem = self.commit.health()
        return problem if problem is not None else self.money.health(self.store)

    def lobby(self, first: int = 0) -> tuple[list[dict[str, Any]], int | None]:
        """The summaries of at most ``LOBBY_PAGE`` of the room's tables from id
        ``first`` on, this process's and those the room's other processes serve (as
        last read: :attr:`directory`), each with the process serving it, and the id to
        ask from for the next page (``None``: there is none). A reply's size is bounded
        whatever the number of tables."""
        ids = sorted(self.runners)
        runners = self.runners
        return self.directory.page(first, protocol.LOBBY_PAGE, ids, lambda i: runners[i].summary())

    def elsewhere(self, message: protocol.Message) -> str | None:
        """The ``elsewhere`` reply to ``message`` for a table another process of the
        room serves, else ``None`` (:func:`~doubleholdem.server.tables.handover.elsewhere`)."""
        return handover.elsewhere(message, self.store, self.directory, self.runners)

    def emit(
        self, connection: Connection, runner: TableRunner, text: str, *, answer: bool = False
    ) -> None:
        """Sends ``text`` about ``runner``'s table, as it is now, to ``connection`` (after
        the commit; ``answer``: whether it succeeds or fails, :meth:`GroupCommit.answer
        <doubleholdem.server.storage.commit.GroupCommit.answer>`)."""
        if self.audit is not None:
            self.audit(connection, runner, text)
        (self.commit.answer if answer else self.commit.post)(connection, text)

    # ------------------------------------------------------------------ leases

    def _took(self, taken: handover.Taken, epochs: dict[int, int]) -> None:
        """Tables whose leases this process took (a dead process's, handed over, or its
        own taken back after it froze: a copy still here is stale and goes first); once
        the changes handed in under the old leases are committed or fenced out, each is
        restored from the journal as a restart restores it and played, its writes
        fenced with the new epochs."""
        stale = {stored.id for stored, _ in taken if stored.id in self.runners}
        if stale:
            self._lost(stale)
        self.commit.after(partial(self._install, taken, epochs))

    def _install(self, taken: handover.Taken, epochs: dict[int, int]) -> None:
        assert self.membership is not None
        self.membership.installed(epochs)
        for stored, chat in taken:
            # its head as stored, not as this process last wrote it (forgotten here, where
            # no commit can be writing the table, not when it went: a commit on its thread
            # may still be writing its last changes then)
            self.store.let_go(stored.id)
            problem = self._restore(stored, chat)
            if problem is not None:  # left unserved: its damage is for a repair
                _log.warning("table %d was not taken over: %s", stored.id, for_people(problem))
                continue
            self._play(self.runners[stored.id])
        self.commit.metrics.count("leases_taken", len(taken))
        oplog.event("tables_taken", tables=[stored.id for stored, _ in taken])

    def _lost(self, tables: set[int]) -> None:
        """Tables whose leases another process holds now: they go from this process
        at once (their state as the last commit left it is the other's now)."""
        for table_id in tables:
            self.store.fencing.epochs.pop(table_id, None)
        self._let_go(tables)

    def _surplus(self, count: int) -> None:
        """This process holds ``count`` tables beyond its share: it hands over that
        many, those with the fewest people and no hand in play first, once their last
        changes are committed (another process takes them within a second)."""
        member = self.membership
        if member is None or member.exclusive:
            return
        chosen = handover.surplus(self.runners.values(), count)
        self._let_go(chosen)
        member.letting_go(chosen)
        self.commit.after(partial(member.hand_over, chosen))

    def _let_go(self, tables: set[int]) -> None:
        """Stops serving ``tables``: their tasks end, their clients are told to go
        (:func:`~doubleholdem.server.tables.handover.let_go`)."""
        for table_id in tables:
            task = self._playing.pop(table_id, None)
            if task is not None:
                task.cancel()
            runner = self.runners.pop(table_id, None)
            if runner is not None:
                handover.let_go(runner)
        oplog.event("tables_let_go", tables=sorted(tables))
