"""One table of the room: :class:`TableRunner` holds the table, its bots and the clients
watching it, and runs the task that plays it (hands started, bots acting, deadlines
applied on the server's clock through :meth:`Table.advance`, RULES.md TH-40, DH-7).

Every change to the table happens inside :meth:`TableRunner.change`, synchronously (so a
table needs no lock): the table changes, and what it stores (a move of the journal for a
decision or a deadline, else the table's snapshot) and sends (the replies, each client's
new state) go to the group commit, which sends only after committing. Each client
receives what its seat may see (:class:`~doubleholdem.server.tables.messages.TableMessages`).

The seat lifecycle (docs/tables.md): the room tells the table whose player has no
connection (:meth:`Table.set_away`: no time bank; sat out on its first timeout), and
the runner removes the seats sat out for ``remove_after`` seconds or busted for
``busted_after`` seconds through :meth:`Table.leave_after_hand`, the one way a seat
ends, whose leave the runner handles as any other (:meth:`release`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

from doubleholdem.errors import DatabaseBusy
from doubleholdem.server import oplog
from doubleholdem.server.cluster.leases import LeaseLost
from doubleholdem.server.money.bot_bankrolls import BotBankrolls
from doubleholdem.server.money.table_money import TableMoney
from doubleholdem.server.money.wallet_gate import WalletFailed
from doubleholdem.server.protocol import MAX_HANDS, encode
from doubleholdem.server.settings import DAY, RoomSettings
from doubleholdem.server.storage import journal
from doubleholdem.server.storage.commit import GroupCommit, Step
from doubleholdem.server.storage.lobby_rows import put_summary
from doubleholdem.server.storage.read_back import AGAIN_SECONDS, ReadBack
from doubleholdem.server.storage.storage import Storage
from doubleholdem.server.tables.connection import Connection
from doubleholdem.server.tables.messages import TableMessages
from doubleholdem.server.tables.sitters import Sitters
from doubleholdem.server.tables.watchers import Bindings, Watchers
from doubleholdem.table import Decision, Table
from doubleholdem.table.bots import BOTS, Bot
from doubleholdem.table.entries import Entry, Leave
from doubleholdem.table.history import hand_record

__all__ = ["BOT_KINDS", "Emit", "TableRunner", "publish"]

BOT_KINDS = BOTS  # the one registry of bots by name (table/bots.py)
_log = logging.getLogger("doubleholdem.server")

Emit = Callable[[Connection, "TableRunner", str], None]
Humans = dict[int, tuple[str, str]]  # seat -> (token hash, player)


@dataclass(frozen=True)
class _Kept:
    """What a runner holds besides its table and seats as last committed, to put back
    if a commit fails (:meth:`TableRunner._reload`): the seat and token each connection
    held, and who sat and left."""

    bindings: Bindings
    departing: dict[int, tuple[str, list[Connection]]]
    sitters: Sitters


class TableRunner:
    """Table ``table_id``: ``table`` with bots in the seats of ``bots`` (seat -> a kind
    of :data:`BOT_KINDS`). It is handed what it needs: the room's ``settings``, the
    group ``commit``, the table's ``money`` (of the room's kind), ``emit`` (sends a
    message about this table to a connection after the commit) and ``load`` (the table
    and its human seats as last committed, to go back to when a commit fails)."""

    def __init__(
        self,
        table_id: int,
        table: Table,
        bots: dict[int, str],
        seed: int,
        *,
        settings: RoomSettings,
        commit: GroupCommit,
        money: TableMoney,
        emit: Emit,
        load: Callable[[], tuple[Table, Humans, dict[int, str]]],
    ) -> None:
        self.id = table_id
        self.money = money
        self.table = table
        self.settings = settings
        self.bot_kinds = bots
        self.seed = seed
        self.bots: dict[int, Bot] = {s: BOT_KINDS[k](seed * 16 + s) for s, k in bots.items()}
        self.connections = Watchers(table_id)
        self.wake = asyncio.Event()
        self.next_start = 0.0
        self.humans: Humans = {}
        # the room's NOTIFY channel when its summary is stored with its snapshots, for
        # the lobbies of the room's other processes (a room in PostgreSQL:
        # :meth:`summary_step`); None on SQLite, a room of one process
        self.publish: str | None = None
        self.chat: deque[dict[str, Any]] = deque(maxlen=settings.chat_lines)  # the recent lines
        self._commit = commit
        self._emit = emit
        self._load = load
        self._store_extra: list[Step] = []
        self._replies: list[tuple[Connection, str]] = []
        self._moves: list[str] = []  # the moves of the change being made
        # seats left after the hand they play: seat -> (player, the connections told)
        self._departing: dict[int, tuple[str, list[Connection]]] = {}
        # seats released empty in the change being made: seat -> the connections told
        # ``left`` with the cash-out once the change's entries are read
        self._released: dict[int, list[Connection]] = {}
        self.sitters = Sitters()  # who sits in each human seat, and who left
        self._kept: _Kept | None = None  # as at the last commit, while a change is pending
        self.reload = ReadBack(f"table {table_id + 1}", self._reload)  # (:meth:`_reload`)
        self._logged: list[oplog.Logged] = []  # the change's events, logged once committed
        # its parts: the bots' bankrolls (top-ups, leaving, seats refilled) and the
        # messages the clients watching the table are sent
        self.bankrolls = BotBankrolls(self, dict(bots))
        self.messages = TableMessages(self, self.bankrolls.unfunded)

    def now(self) -> float:
        """The server's time for the table (never before the table's own time)."""
        return max(self.settings.clock(), self.table.now)

    # ------------------------------------------------------------------ changes

    @contextlib.contextmanager
    def change(self, *, moves: bool = False) -> Iterator[None]:
        """Wraps a change of the table: afterwards the hand's end is handled, the state
        is committed, and every client is sent what is new to it. If the change raises,
        nothing is committed or sent: a refusal leaves the table as it was; a change
        that raises after it changed the table (and so, maybe, paid) fails with every
        change pending (:meth:`GroupCommit.fail
        <doubleholdem.server.storage.commit.GroupCommit.fail>`: its payment rolled back,
        the table reloaded). With ``moves``, the change makes only moves
        (:meth:`catch_up`, :meth:`decide`), and they are stored instead of a snapshot
        unless the hand ended. A table whose last :meth:`reload` failed is read again
        first: :class:`DatabaseBusy` if it still cannot be (nothing changed)."""
        self.reload.before_change()
        table = self.table
        playing = table.in_hand
        number = table.hand_number
        start = table.log_length
        self._moves.clear()
        self._keep()
        try:
            yield
        except BaseException as error:
            self._store_extra.clear()
            self._replies.clear()
            self._released.clear()
            self._logged.clear()
            self._moves.clear()
            if table.log_length != start:  # changed part-way: nothing of it may stay
                self._commit.fail(error)
                self.reload()
            raise
        # the hand played ended, or one dealt in the change was over as dealt (a seat
        # below the small blind all in, covered: nobody to decide): stored all the same
        ended = not table.in_hand and (playing or table.hand_number != number)
        number = table.hand_number
        if ended:
            table.forget_departures(table.now - self.settings.remove_after)
        self._drop_gone()
        entries = table.table_entries(start)  # read once: the replies, the log, the money
        if self._released or self._departing:
            self._tell_left(entries)
        self._logged += oplog.seating(self.id, entries)
        messages = self.messages.updates()
        steps, self._store_extra = self._store_extra, []
        steps += self.money.settle(entries)
        if ended:
            history = table.release_history()
            history.append(hand_record(table, table_id=self.id))
            steps[:0] = [
                lambda s: s.put_hand(self.id, number, history),
                lambda s: s.seat_tokens.forget_actions(self.id, number),
            ]
            retention = self.retention(number)
            if retention is not None:
                steps.insert(2, retention)
            for connection in self.connections:
                Watchers.start_over(connection)
            self.next_start = self.now() + self.settings.pause
        if moves and not ended:
            steps += [partial(Storage.put_move, table_id=self.id, move=m) for m in self._moves]
        else:
            snapshot = table.to_json(self.settings.snapshot_key)
            steps.append(lambda s: s.put_table(self.id, snapshot))
            if self.publish is not None:
                steps.append(self.summary_step())
        self._moves.clear()
        commit = self._commit
        commit.later(steps, self.reload, self._ended, table=self.id)
        replies, self._replies = self._replies, []
        for connection, text in replies:
            commit.post(connection, text)
        logged, self._logged = self._logged, []
        for line in logged:
            commit.post(line, "")
        for connection, text in messages:
            self._emit(connection, self, text)
        self.wake.set()

    def retention(self, last: int) -> Step | None:
        """The step of the retention of the table's finished hands (``last`` the newest
        one's number), or ``None`` when the room keeps every hand: the settings'
        ``keep_hands`` and ``keep_hands_days``, sparing the last ``MAX_HANDS`` hands of
        each seat a person holds now (its occupancy's: those its ``hands`` request may
        still ask for)."""
        keep, days = self.settings.keep_hands, self.settings.keep_hands_days
        if keep is None and days is None:
            return None
        older_than = None if days is None else self.now() - days * DAY
        table = self.table
        open_seats = [
            (occupancy, player, seat)
            for seat, (_, player) in self.humans.items()
            if (occupancy := table.occupancy(seat)) is not None
        ]
        return partial(
            Storage.forget_hands,
            table_id=self.id,
            last=last,
            keep=keep,
            older_than=older_than,
            open_seats=open_seats,
            protect=MAX_HANDS,
        )

    def catch_up(self, now: float) -> bool:
        """The one place the server's clock reaches the table's deadlines (TH-40, DH-7):
        those passed by ``now`` (:meth:`now`) are applied, in a change of their own
        (:meth:`Table.advance`, stored as a move when it changed anything but the time),
        before any decision made at ``now`` (a decision that comes too late is refused
        with the timeout stored). True if a deadline had passed."""
        deadline = self.table.deadline
        if deadline is None or deadline > now:
            return False
        with self.change(moves=True):
            table = self.table
            start = table.log_length
            table.advance(now)  # the entries it returns are read once, when the change ends
            if table.log_length != start:
                self._moves.append(journal.advance_move(now))
        return True

    def decide(self, seat: int, decision: Decision, now: float) -> None:
        """:meth:`Table.decide`, noted as a move."""
        self.table.decide(seat, decision, now=now)
        self._moves.append(journal.decide_move(seat, decision, now))

    def later(self, step: Step) -> None:
        """Adds ``step`` to what the change being made stores."""
        self._store_extra.append(step)

    def reply(self, connection: Connection, text: str) -> None:
        """Sends ``text`` once the change being made is committed, before the states."""
        self._replies.append((connection, text))

    def _keep(self) -> None:
        """Notes, before the first change after a commit, what :meth:`reload` puts back
        if that change's commit fails."""
        if self._kept is None:
            self._kept = _Kept(self.connections.held(), dict(self._departing), self.sitters.copy())

    def _ended(self) -> None:
        """The commit of the changes made ended, committed or failed (after
        :meth:`reload`): what was kept for it goes; the money finishes its calls."""
        self._kept = None
        if self.bankrolls.left_committed():  # their seats may be refilled now
            self.wake.set()
        self.money.commit_ended()

    def _reload(self) -> None:
        """Back to the last committed state of the table, its seats and who holds them
        (a commit failed): a connection whose seat was not committed holds none, and
        one whose seat's end was not committed (a leave, a removal) holds it again,
        unless it holds another or a newer connection resumed it. The table's task is
        woken: it makes its own changes again once the database takes writes. If the
        table cannot be read (the database failing still), it is read again before its
        next change (:attr:`reload`, a
        :class:`~doubleholdem.server.storage.read_back.ReadBack`)."""
        self.table, self.humans, kinds = self._load()
        if kinds != self.bot_kinds:  # a bot that left with the failed commit is back
            old = self.bots
            self.bots = {
                s: old.get(s) or BOT_KINDS[k](self.seed * 16 + s) for s, k in kinds.items()
            }
            self.bot_kinds = kinds
        self.bankrolls.leaving.reloaded()
        self.money.reloaded()
        self.connections.reload({hashed for hashed, _ in self.humans.values()})
        kept, self._kept = self._kept, None
        if kept is not None:
            self._put_back(kept)
        # what the table did by itself (a removal from the clock) is to do again: its
        # task wakes, and waits for the database to take writes again before it does
        self.wake.set()

    def _put_back(self, kept: _Kept) -> None:
        """What ``kept`` noted, after a failed commit: who sat and left, and the seats
        whose end was not committed to the connections that held them (still watching,
        holding no other, not resumed by another)."""
        self._departing, self.sitters = kept.departing, kept.sitters
        tokens = {seat: hashed for seat, (hashed, _) in self.humans.items()}
        self.connections.put_back(kept.bindings, tokens)

    def say(self, connection: Connection, player: str, text: str) -> None:
        """``player`` (the name of ``connection``'s seat, or a spectator's) says ``text``
        at this table: stored with the table's hands, then sent to every client watching
        (after the commit, as every change)."""
        line = {
            "at": self.now(),
            "seat": connection.seat,
            "player": player,
            "hand": self.table.hand_number,
            "text": text,
        }
        number = self.table.hand_number
        self.chat.append(line)

        def undo() -> None:
            if line in self.chat:
                self.chat.remove(line)

        self._commit.later([lambda s: s.put_chat(self.id, number, line)], undo, table=self.id)
        message = encode("chat", table=self.id, **line)
        for watcher in self.connections:
            self._commit.post(watcher, message)

    def release(self, seat: int) -> None:
        """The token of human ``seat`` stops working (it leaves, or has left): it is
        dropped from the database with the change being made, and its connection is
        told ``left`` (``after_hand``: the seat is held until the hand it plays ends;
        ``cash_out``: the chips the seat took away, ``None`` until it goes) and watches
        on as a spectator. A seat left during a hand is played by its deadlines until
        the hand ends, as a seat whose player is away (no time bank); then its
        connection is told ``left`` again, with the cash-out. The cash-out is read from
        the change's entries when it ends (:meth:`_tell_left`)."""
        hashed, player = self.humans.pop(seat)
        self._store_extra.append(lambda s: s.seat_tokens.drop(hashed, self.id))
        held = self.table.seats()[seat] is not None
        if held:
            self.table.set_away(seat, True)
        told = self.connections.unseat(hashed)
        if not held:
            self._released[seat] = told
            return
        left = encode("left", table=self.id, seat=seat, after_hand=True, cash_out=None)
        for connection in told:
            self.reply(connection, left)
        self._departing[seat] = (player, told)

    def _tell_left(self, entries: list[Entry]) -> None:
        """The connections of the seats that ended in the change, its own ``entries``,
        are told ``left`` with the cash-out: those released empty in it (``None`` if it
        left no :class:`Leave`), and those that left a seat held for its hand, when that
        seat's ``Leave`` (of the same player) is among ``entries`` and they still watch
        without a seat."""
        leaves = [entry for entry in entries if type(entry) is Leave]
        last = {leave.seat: leave.amount for leave in leaves}
        released, self._released = self._released, {}
        for seat, told in released.items():
            cash_out = last.get(seat)
            left = encode("left", table=self.id, seat=seat, after_hand=False, cash_out=cash_out)
            for connection in told:
                self.reply(connection, left)
        for leave in leaves:
            seat = leave.seat
            if seat not in self._departing:
                continue
            player, told = self._departing.pop(seat)
            if leave.player != player:
                continue
            left = encode("left", table=self.id, seat=seat, after_hand=False, cash_out=leave.amount)
            for connection in told:
                if connection in self.connections and connection.seat is None:
                    self.reply(connection, left)

    def connected(self, seat: int) -> bool:
        """True while a connection holds human ``seat``."""
        human = self.humans.get(seat)
        return human is not None and any(c.token == human[0] for c in self.connections)

    def away_changes(self) -> list[tuple[int, bool]]:
        """The human seats whose connection came or went since the table was told:
        ``(seat, away)`` pairs for :meth:`Table.set_away`."""
        seats = self.table.seats()
        changes = []
        for seat in self.humans:
            occupant = seats[seat]
            away = not self.connected(seat)
            if occupant is not None and occupant["away"] != away:
                changes.append((seat, away))
        return changes

    def overstayed(self, now: float) -> list[int]:
        """The human seats due to be removed at ``now`` (the room's ``remove_after``
        and ``busted_after``, :meth:`Table.overstayed`)."""
        settings = self.settings
        due = self.table.overstayed(settings.remove_after, settings.busted_after, now=now)
        return [seat for seat in due if seat not in self.bots]

    def next_removal(self) -> float | None:
        """When the next human seat becomes due to be removed."""
        settings = self.settings
        due = self.table.removals(settings.remove_after, settings.busted_after)
        return min((when for seat, when in due if seat not in self.bots), default=None)

    def remove_overstayed(self, now: float) -> None:
        """Removes the seats due at ``now``, by :meth:`Table.leave_after_hand` (at once,
        or after the hand they play): their chips go back as with any leave."""
        seats = self.table.seats()
        for seat in self.overstayed(now):
            self._logged.append(oplog.removal(self.id, seat, seats[seat] or {}))
            self.table.leave_after_hand(seat, now=now)

    def _drop_gone(self) -> None:
        """Releases the seats of players who are no longer in them (and notes who each
        one who left was)."""
        seats = self.table.seats()
        for seat, (_, player) in list(self.humans.items()):
            occupant = seats[seat]
            if occupant is None or occupant["player"] != player:
                self.release(seat)
        self.sitters.gone(seats)

    # ------------------------------------------------------------------ the task

    async def run(self) -> None:
        """Plays the table until cancelled: starts hands, lets bots act, and applies
        deadlines. An unexpected error is logged and the table goes on from its last
        committed state, reloaded once the commit still pending for its changes ended
        (reloaded before, the table would lose in memory what that commit then
        stores)."""
        while True:
            try:
                await self._run()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if isinstance(error, LeaseLost):  # another process took it: it goes
                    _log.warning("table %d was taken over: %s", self.id + 1, error)
                else:
                    _log.exception("table %d stopped on an error; restoring it", self.id + 1)
                self._commit.after(self.reload)
                await asyncio.sleep(1.0)

    async def _run(self) -> None:
        settings = self.settings
        bankrolls = self.bankrolls
        ready = self._commit.ready
        while True:
            while not ready.is_set():  # a commit in flight, waiting, or refused (the
                await ready.wait()  # next may take off before this task runs again)
            if not self.reload.read():  # (its moves are read from the table)
                await asyncio.sleep(AGAIN_SECONDS)
                continue
            table = self.table  # a failed commit replaces it
            self.wake.clear()
            now = self.now()
            wait: float | None = None
            if self.overstayed(now):
                with self.change():
                    self.remove_overstayed(now)
                continue
            if table.in_hand:
                deadline = table.deadline
                seat = table.to_act
                if self.catch_up(now):
                    continue
                if seat in self.bots:
                    await asyncio.sleep(settings.bot_delay)
                    self.bot_turn(seat)
                    continue
                wait = None if deadline is None else deadline - now
            elif (short := bool(bankrolls._bots_short())) and self.money.pays_off_loop():
                await bankrolls._top_up_bots_outside()
                continue
            elif short or bankrolls.bots_missing():
                try:
                    with self.change():
                        bankrolls._top_up_bots() if short else bankrolls.replace_bots()
                except (DatabaseBusy, WalletFailed):  # the ledger is busy, a wallet failed
                    await asyncio.sleep(0.05)
                continue
            elif bankrolls.leaving:  # no hand before their seats are refilled: woken then
                pass
            elif now >= self.next_start and self._ready():
                with self.change():
                    table.start_hand(now=now)
                continue
            elif self._ready():
                wait = self.next_start - now
            removal = self.next_removal()
            if removal is not None:
                wait = removal - now if wait is None else min(wait, removal - now)
            resting = bankrolls._wallet_rest()
            if resting is not None:  # short bots wait for the wallet
                wait = resting if wait is None else min(wait, resting)
            await self._sleep(wait)

    async def _sleep(self, seconds: float | None) -> None:
        """Until woken, or ``seconds`` have passed. (Not ``wait_for``: on Python 3.11 it
        swallows a cancellation that comes as the event is set, and the task would run
        on after the room stops.)"""
        timer = None
        if seconds is not None:
            timer = asyncio.get_running_loop().call_later(max(0.0, seconds), self.wake.set)
        try:
            await self.wake.wait()
        finally:
            if timer is not None:
                timer.cancel()

    def _ready(self) -> bool:
        return self.table.can_start()

    def bot_turn(self, seat: int) -> None:
        """The bot in ``seat`` acts, if it is its turn (deadlines passed first)."""
        table = self.table
        now = self.now()
        if not table.in_hand or table.to_act != seat:
            return
        self.catch_up(now)
        if table.in_hand and table.to_act == seat:
            with self.change(moves=True):
                self.decide(seat, self.bots[seat].choose(table.observe(seat)), now)

    def add_bot(self, seat: int, kind: str) -> None:
        """A bot of ``kind`` (of :data:`BOT_KINDS`) sat down in ``seat``: stored with
        the change being made."""
        self.bot_kinds[seat] = kind
        self.bots[seat] = BOT_KINDS[kind](self.seed * 16 + seat)
        self.store_bots()

    def state_message(self, connection: Connection) -> str:
        """The whole state of the table for ``connection`` now
        (:meth:`TableMessages.state_message
        <doubleholdem.server.tables.messages.TableMessages.state_message>`)."""
        return self.messages.state_message(connection)

    def summary(self) -> dict[str, Any]:
        """The table in ``GET /api/tables`` and the lobby."""
        return self.messages.summary()

    def summary_step(self) -> Step:
        """The step that stores the table's summary as it is now, for the room's other
        processes' lobbies (:func:`publish`)."""
        text = json.dumps(self.summary(), separators=(",", ":"))
        return partial(publish, table_id=self.id, summary=text, notify=self.publish)

    def store_bots(self) -> None:
        """Stores which bots sit where with the change being made."""
        kinds = {str(s): k for s, k in self.bot_kinds.items()}
        self.later(partial(Storage.put_bots, table_id=self.id, bots=kinds))


def publish(store: Storage, table_id: int, summary: str, notify: str | None) -> None:
    """Stores a table's lobby summary in ``store``'s transaction, whose fencing (the
    table's lease) then covers it: a process that lost the table's lease writes none
    (:func:`~doubleholdem.server.storage.lobby_rows.put_summary`)."""
    store.fencing.writes(store.db, table_id)
    put_summary(store.db, table_id, summary, notify)
