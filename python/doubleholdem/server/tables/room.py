"""The game server's heart, without HTTP: a :class:`Room` of tables and its clients
(:class:`~doubleholdem.server.tables.connection.Connection`). The room reads each
client's requests and routes them to the tables. It is made of parts it holds, each
with a small interface: its tables (:attr:`Room.tables`, a
:class:`~doubleholdem.server.tables.tables.RoomTables`: the database, the runners and
the group commit), the requests a wallet outside the database pays for, off the event
loop (:attr:`Room.paid`, a
:class:`~doubleholdem.server.tables.wallet_requests.WalletRequests`, handed the room's
ways to take a seat and make a seat's request), the signed-in clients' accounts
(:attr:`Room.accounts`, an :class:`~doubleholdem.server.tables.accounts_watch.AccountsWatch`),
the ``hands`` request (:attr:`Room.hands`, a
:class:`~doubleholdem.server.tables.hands_replies.HandsReplies`) and the action ids applied
(:attr:`Room.applied`). The protocol is ``docs/PROTOCOL.md``."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypedDict

from doubleholdem.accounts.wallet import Wallet
from doubleholdem.errors import DoubleHoldemError, IllegalAction
from doubleholdem.server import oplog, protocol
from doubleholdem.server.money.wallet_calls import WalletCall
from doubleholdem.server.protocol import UNAVAILABLE, ProtocolError, encode, unavailable
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage.commit import GroupCommit
from doubleholdem.server.storage.storage import Storage, token_hash
from doubleholdem.server.tables.accounts_watch import MAX_ADDRESSES, AccountsWatch
from doubleholdem.server.tables.applied_actions import AppliedActions
from doubleholdem.server.tables.connection import CHAT_BURST, CHAT_SECONDS, Connection
from doubleholdem.server.tables.hands_replies import HandsReplies
from doubleholdem.server.tables.runner import TableRunner
from doubleholdem.server.tables.tables import RoomTables
from doubleholdem.server.tables.tournament_requests import TournamentRequests
from doubleholdem.server.tables.wallet_requests import WalletRequests, answering
from doubleholdem.table import Decision, Table
from doubleholdem.wording import Wording, seat_said, table_said, told

if TYPE_CHECKING:
    from typing import Unpack  # Python 3.11 (mypy's); only read by the type checker

__all__ = ["MAX_ADDRESSES", "RETENTION_SECONDS", "UNAVAILABLE", "Room"]

RETENTION_SECONDS = 10.0  # how often tables without a hand ended meanwhile forget old hands


class Opening(TypedDict, total=False):
    """How :meth:`Room.open` opens a room's database (:meth:`RoomTables.open
    <doubleholdem.server.tables.tables.RoomTables.open>`)."""

    synchronous: str
    repair: bool
    wallet: Wallet | None
    lease_seconds: float  # how long its leases outlive its last heartbeat


class Room:
    """Every table of the server, its database, and the clients. ``tables``: the room's
    tables when they are made already (:meth:`open`), else new ones over ``store``, paid
    for by ``wallet``."""

    def __init__(
        self,
        store: Storage,
        settings: RoomSettings,
        *,
        wallet: Wallet | None = None,
        tables: RoomTables | None = None,
    ) -> None:
        self.tables = RoomTables(store, settings, wallet=wallet) if tables is None else tables
        self.paid = WalletRequests(
            self.tables.runners,
            take_seat=self._take_seat,
            seat_request=self._seat_request,
            seated_elsewhere=self._seated_elsewhere,
        )
        self.connections: set[Connection] = set()
        self.accounts = AccountsWatch(self.tables.store, self.connections)
        self.hands = HandsReplies(self.tables.store, self.tables.runners)
        self.applied = AppliedActions(self.tables.store, self.tables.commit)
        self.tournaments: TournamentRequests | None = None  # answers tournament messages
        self._connected = 0  # connections so far (a spectator's name in the chat)
        self._tasks: list[asyncio.Task[None]] = []  # the room's own (the tables' are theirs)

    @classmethod
    def open(cls, path: str, settings: RoomSettings, **options: Unpack[Opening]) -> Room:
        """The room of the database at ``path``, opened with ``options`` (``synchronous``,
        ``repair``, ``wallet``, ``lease_seconds``: :meth:`RoomTables.open
        <doubleholdem.server.tables.tables.RoomTables.open>`: its tables restored, made,
        or refused as damaged unless ``repair``)."""
        tables = RoomTables.open(path, settings, **options)
        return cls(tables.store, tables.settings, tables=tables)

    # ------------------------------------------------------------------ the tables

    @property
    def store(self) -> Storage:
        """The room's database."""
        return self.tables.store

    @property
    def settings(self) -> RoomSettings:
        """How the room runs."""
        return self.tables.settings

    @property
    def commit(self) -> GroupCommit:
        """The group commit every change of the room goes through."""
        return self.tables.commit

    @property
    def runners(self) -> dict[int, TableRunner]:
        """Each table's runner, by table id."""
        return self.tables.runners

    @property
    def repaired(self) -> list[str]:
        """What a repair did, table by table (:meth:`open` with ``repair``)."""
        return self.tables.repaired

    @property
    def wallet(self) -> Wallet | None:
        """What pays for the seats, or ``None`` in a guest room."""
        return self.tables.wallet

    @property
    def audit(self) -> Callable[[Connection, TableRunner, str], None] | None:
        """Called with each message about a table sent to a client (tests check what
        each client was sent with it)."""
        return self.tables.audit

    @audit.setter
    def audit(self, audit: Callable[[Connection, TableRunner, str], None] | None) -> None:
        self.tables.audit = audit

    def now(self, table: Table) -> float:
        """The server's time for ``table`` (never before the table's own time)."""
        return self.tables.now(table)

    def health(self) -> str | None:
        """``None`` while all is well; else what is wrong (:meth:`RoomTables.health
        <doubleholdem.server.tables.tables.RoomTables.health>`)."""
        return self.tables.health()

    def lobby(self, first: int = 0) -> tuple[list[dict[str, Any]], int | None]:
        """A page of the tables' summaries and where the next one starts
        (:meth:`RoomTables.lobby <doubleholdem.server.tables.tables.RoomTables.lobby>`)."""
        return self.tables.lobby(first)

    async def wallet_calls_ended(self) -> None:
        """Until no request paid by a wallet outside the database is under way and no
        table makes calls to it (:meth:`WalletRequests.ended
        <doubleholdem.server.tables.wallet_requests.WalletRequests.ended>`)."""
        await self.paid.ended()

    async def stop(self) -> None:
        """Stops the tables and closes the database."""
        tasks = [*self._tasks, *self.hands.reading, *self.paid.under_way]
        for task in tasks:
            task.cancel()
        await self.tables.stop()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()
        self.commit.stopping = True
        self.commit.flush()
        oplog.event("shutdown", tables=len(self.runners), connections=len(self.connections))
        for connection in list(self.connections):
            connection.close()
        self.store.close()

    # ------------------------------------------------------------------ connections

    def connect(
        self,
        *,
        account: str | None = None,
        address: str = "",
        session: str | None = None,
        active: bool = True,
    ) -> Connection:
        """A new client: signed in as ``account`` (by the session whose token hashes to
        ``session``, read at its handshake; ``active`` False when the account was frozen
        already), or ``None``; ``address`` where it connects from."""
        connection = Connection(self.commit.answer, account=account, address=address)
        connection.session = session
        connection.active = active
        self._connected += 1
        connection.number = self._connected
        if account is None:
            connection.identity = f"guest:{connection.number}"
        self.connections.add(connection)
        if account is not None:
            self.accounts.connected(account, address)
        connection.send(
            encode("welcome", protocol=protocol.PROTOCOL_VERSION, tables=len(self.runners))
        )
        return connection

    async def start(self) -> None:
        """Starts every table's task, and in a room with accounts the watch for
        accounts frozen or closed by another process (:meth:`check_accounts`)."""
        await self.tables.start()
        if not self.settings.guests:
            self._tasks.append(asyncio.create_task(self.accounts.watch()))
        if self.settings.keep_hands_days is not None:
            self._tasks.append(asyncio.create_task(self._forget_old_hands()))

    async def _forget_old_hands(self) -> None:
        """Every ``RETENTION_SECONDS``: the retention at each table that ended no hand
        meanwhile (a table forgets as its hands end; hands age at idle tables too)."""
        while True:
            now = self.settings.clock()
            for runner in list(self.runners.values()):
                step = runner.retention(runner.table.hand_number)
                if step is not None and runner.next_start < now - RETENTION_SECONDS:
                    self.commit.later([step], _nothing, table=runner.id)
            await asyncio.sleep(RETENTION_SECONDS)

    def check_accounts(self) -> None:
        """Closes the connections of accounts frozen or closed meanwhile, each told why
        (:meth:`AccountsWatch.check
        <doubleholdem.server.tables.accounts_watch.AccountsWatch.check>`)."""
        self.accounts.check()

    def signed_out(self, session: str) -> None:
        """The session whose token hashes to ``session`` was revoked: its connections
        are closed (a seat stays, away, until its account signed in again resumes it)."""
        self.accounts.signed_out(session)

    def disconnect(self, connection: Connection) -> None:
        """The client has gone. Its seat stays, away: it gets the action time without
        the time bank, and sits out if it times out (docs/tables.md)."""
        table = connection.table
        seated = connection.seat is not None
        self.connections.discard(connection)
        self._unbind(connection)
        if self.tournaments is not None:
            self.tournaments.drop(connection)
        connection.close()
        if seated and table is not None:
            self.tables.mark_away(self.runners[table])

    def _unbind(self, connection: Connection) -> None:
        """``connection`` stops watching its table."""
        if connection.table is not None:
            self.runners[connection.table].connections.drop(connection)

    # ------------------------------------------------------------------ requests

    def handle(self, connection: Connection, text: str | bytes) -> None:
        """One message from a client: decoded, checked, applied; every refusal is an
        error reply and changes nothing."""
        if not connection.allow():
            return
        if not isinstance(text, str):
            connection.error("binary_frame", "messages are JSON in text frames, not binary")
            return
        try:
            message = protocol.decode(text)
        except ProtocolError as error:
            connection.error(error.code, str(error))
            return
        with answering(connection):
            self._dispatch(connection, message)

    def _dispatch(self, connection: Connection, message: protocol.Message) -> None:
        if isinstance(message, protocol.Ping):
            connection.send(encode("pong", clock=self.settings.clock()))
        elif isinstance(message, protocol.Lobby):
            tables, after = self.lobby(message.first)
            connection.send(encode("lobby", tables=tables, next=after))
        elif (moved := self.tables.elsewhere(message)) is not None:
            self.commit.answer(connection, moved)  # another process serves the table
        elif isinstance(message, protocol.Watch):
            runner = self._table(message.table)
            if connection.seat is not None and connection.table == runner.id:
                self._watch(connection, runner, connection.seat, connection.token)  # its own view
            elif not self._seated_elsewhere(connection, None):
                self._watch(connection, runner, None)
        elif isinstance(message, protocol.TOURNAMENT_MESSAGES):
            if self.tournaments is None:
                connection.error("no_tournament", "this room runs no tournaments")
            else:
                self.tournaments.handle(connection, message)
        elif isinstance(message, protocol.Hands):
            self.hands.ask(connection, message, self.tournaments)
        elif not isinstance(message, protocol.Resume) and not self.commit.writable():
            self._unavailable(connection, getattr(message, "id", None))
        elif isinstance(message, protocol.Sit):
            self._sit(connection, message)
        elif isinstance(message, protocol.Resume):
            self._resume(connection, message)
        elif isinstance(message, protocol.Chat):
            self._chat(connection, message.text)
        elif not self._owns(connection):
            connection.error("not_your_seat", "this seat belongs to another account")
        elif connection.seat is None or connection.table is None:
            connection.error(
                "unauthorised",
                f"{type(message).__name__.lower()}: take a seat or resume with its token first",
                getattr(message, "id", None),
            )
        elif isinstance(message, protocol.Act):
            self._act(connection, self.runners[connection.table], message)
        else:
            self._seat_request(connection, self.runners[connection.table], message)

    def _chat(self, connection: Connection, text: str) -> None:
        """A chat line from ``connection`` at the table it sits at or watches."""
        if connection.table is None:
            connection.error("unauthorised", "chat: watch or sit at a table first")
            return
        runner = self.runners[connection.table]
        seat = connection.seat
        if not self._owns(connection):
            connection.error("not_your_seat", "chat: this seat belongs to another account")
            return
        if seat is None and not self.settings.chat_for_spectators:
            connection.error(
                "read_only", "chat: spectators read this table's chat but may not write in it"
            )
            return
        if not connection.chat_allowed():
            connection.error(
                "chat_rate",
                f"chat: at most {CHAT_BURST:.0f} messages at once, then one every "
                f"{CHAT_SECONDS:.0f} s",
            )
            return
        player = runner.humans[seat][1] if seat is not None else f"watcher-{connection.number}"
        runner.say(connection, player, text)
        self.commit.instead(connection, unavailable(None))

    def _unavailable(self, connection: Connection, ident: str | None) -> None:
        """Says that a change cannot be made now: the database refuses writes."""
        connection.send(unavailable(ident))

    def _table(self, table_id: int) -> TableRunner:
        runner = self.runners.get(table_id)
        if runner is None:
            raise ProtocolError(Wording("there is no ", table_said(table_id)), code="no_table")
        return runner

    def _seated_elsewhere(self, connection: Connection, hashed: str | None) -> bool:
        """A connection holds one seat, and watches only its table: True (and an error
        reply) when ``connection`` holds a seat other than that of token ``hashed``."""
        if connection.seat is None or connection.token == hashed:
            return False
        connection.error(
            "already_seated",
            Wording(
                "you sit in ",
                seat_said(connection.seat),
                " at ",
                table_said(connection.table or 0),
                ": leave it first",
            ),
        )
        return True

    def _watch(
        self,
        connection: Connection,
        runner: TableRunner,
        seat: int | None,
        token: str | None = None,
        *,
        answer: bool = True,
    ) -> None:
        """Binds ``connection`` to ``runner``'s table (as ``seat``, holding the seat of
        token hash ``token``) and sends the state: an answer (sent whether the next
        commit succeeds or fails), unless a change made it (``answer`` False: a seat
        taken, whose state a failed commit must not send)."""
        self._unbind(connection)
        runner.connections.watch(connection, seat, token)
        self.tables.emit(connection, runner, runner.state_message(connection), answer=answer)

    def _seat_name(self, connection: Connection, message: protocol.Sit) -> str | None:
        """The name ``connection`` sits under: in a guest room the one it chose; else its
        account's (refused without a session, or when the message names another). With
        ``households``, refused when another account from its address sits at the table.
        ``None`` after an error reply."""
        if self.settings.guests:
            if message.name is None:
                connection.error("bad_field", "sit: name is missing (a guest room)")
            return message.name
        account = connection.account
        if account is None:
            connection.error("not_signed_in", "sit: sign in first (POST /api/signin)")
            return None
        if message.name is not None and message.name.lower() != account.lower():
            connection.error("not_your_name", f"sit: you are signed in as {account}")
            return None
        if self.settings.households and self.accounts.household_at(
            connection, self.runners.get(message.table)
        ):
            connection.error(
                "household",
                Wording("another account from your address sits at ", table_said(message.table)),
            )
            return None
        return account

    def _sit(self, connection: Connection, message: protocol.Sit) -> None:
        if self._seated_elsewhere(connection, None):
            return
        name = self._seat_name(connection, message)
        if name is None:
            return
        runner = self._table(message.table)
        back = protocol.Resume(None, message.table)  # the account's own seat there, if any
        if not self.settings.guests and self._seat_of(connection, back) is not None:
            self._resume(connection, back)
            return
        table = runner.table
        seat = message.seat
        if seat is None:
            open_seats = [s for s, p in enumerate(table.seats()) if p is None]
            if not open_seats:
                connection.error("table_full", table_said(message.table) + " has no open seat")
                return
            seat = open_seats[0]
        if runner.money.pays_off_loop():
            self.paid.sit(connection, runner, seat, name, message.buy_in)
            return
        self._take_seat(connection, runner, seat, name, message.buy_in)

    def _take_seat(
        self,
        connection: Connection,
        runner: TableRunner,
        seat: int,
        name: str,
        buy_in: int,
        paid: WalletCall | None = None,
    ) -> None:
        table = runner.table
        token = secrets.token_urlsafe(24)
        hashed = token_hash(token)
        with runner.change():
            now = runner.now()
            table.forget_departures(now - self.settings.remove_after)
            identity = connection.identity
            stranger = runner.sitters.stranger(name, identity)
            runner.money.buy_in(table, seat, name, buy_in, now=now, stranger=stranger, paid=paid)
            runner.sitters.seated(seat, name, identity)
            runner.humans[seat] = (hashed, name)
            runner.later(lambda s: s.seat_tokens.put(hashed, runner.id, seat, name))
            runner.reply(connection, encode("seated", table=runner.id, seat=seat, token=token))
            self.commit.instead(connection, unavailable(None))
        if runner.humans.get(seat) == (hashed, name):  # not undone by a commit failed already
            self._watch(connection, runner, seat, hashed, answer=False)

    def _resume(self, connection: Connection, message: protocol.Resume) -> None:
        """Binds ``connection`` to the seat of ``message``'s token or, signed in, to its
        account's own seat at ``message``'s table. In a room with accounts only the
        seat's own account resumes it (a token alone is not enough)."""
        account = connection.account
        if not self.settings.guests and account is None:
            connection.error("not_signed_in", "resume: sign in first (POST /api/signin)")
            return
        found = self._seat_of(connection, message)
        if found is None:
            connection.error("bad_token", "this token holds no seat")
            return
        runner, seat, hashed = found
        owner = runner.humans[seat][1]
        if account is not None and not self.settings.guests and owner.lower() != account.lower():
            connection.error("not_your_seat", f"resume: this seat is not {account}'s")
            return
        if self._seated_elsewhere(connection, hashed):
            return
        self._bind_seat(connection, runner, seat, hashed, message.token)

    def _seat_of(
        self, connection: Connection, message: protocol.Resume
    ) -> tuple[TableRunner, int, str] | None:
        """The table, seat and token hash ``message`` names: by its token, or the seat
        of ``connection``'s account at its table (in a room with accounts)."""
        if message.token is not None:  # the seats held here, their commit landed or not
            hashed = token_hash(message.token)
            for here in self.runners.values():
                for seat, (held, _) in here.humans.items():
                    if held == hashed:
                        return here, seat, hashed
            return None
        runner = self.runners.get(message.table or 0)
        account = (connection.account or "").lower()
        if runner is None or self.settings.guests or not account:
            return None
        for seat, (hashed, player) in runner.humans.items():
            if player.lower() == account:
                return runner, seat, hashed
        return None

    def _owns(self, connection: Connection) -> bool:
        """True unless, in a room with accounts, ``connection``'s seat belongs to another
        account than the one it is signed in as (or it is signed in as none)."""
        if self.settings.guests or connection.seat is None or connection.table is None:
            return True
        held = self.runners[connection.table].humans.get(connection.seat)
        account = connection.account
        return held is not None and account is not None and held[1].lower() == account.lower()

    def _bind_seat(
        self,
        connection: Connection,
        runner: TableRunner,
        seat: int,
        hashed: str,
        token: str | None,
    ) -> None:
        """``connection`` takes over ``runner``'s ``seat`` (token hash ``hashed``; the
        token itself, when the client gave it, goes back in ``seated``)."""
        for other in runner.connections.replace(hashed, connection):  # the seat's older one
            other.send(encode("replaced", table=runner.id, seat=seat))
        _, player = runner.humans[seat]
        connection.identity = runner.sitters.identity(seat, player, connection.identity)
        connection.send(encode("seated", table=runner.id, seat=seat, token=token))
        self._watch(connection, runner, seat, hashed)
        self.tables.mark_away(runner)  # back: the time bank is there again

    def _act(self, connection: Connection, runner: TableRunner, message: protocol.Act) -> None:
        """A decision from the client in ``connection`` (its seat)."""
        table = runner.table
        seat = connection.seat
        hashed = connection.token
        assert seat is not None and hashed is not None
        commit = self.commit
        done = (hashed, message.id)
        if done in commit.applying or self.applied.applied(runner, message.hand, done):
            # (posted: applied only if the commit in flight succeeds; if not, "unavailable")
            commit.post(connection, encode("result", id=message.id, ok=True, repeated=True))
            return
        if message.hand != table.hand_number or not table.in_hand:
            connection.error("stale", f"hand {message.hand} is not being played", message.id)
            return
        now = runner.now()
        decision = Decision(message.action, message.amount)
        runner.catch_up(now)
        try:
            with runner.change(moves=True):
                runner.decide(seat, decision, now)
                runner.later(
                    lambda s: s.seat_tokens.put_action(hashed, message.id, runner.id, message.hand)
                )
                commit.applying.add(done)
                self.applied.add(runner, message.hand, done)
                runner.reply(connection, encode("result", id=message.id, ok=True))
                commit.instead(connection, unavailable(message.id))
        except DoubleHoldemError as error:
            reason = error.reason if isinstance(error, IllegalAction) else None
            connection.error("illegal", told(error), message.id, reason=reason)

    def _seat_request(
        self,
        connection: Connection,
        runner: TableRunner,
        message: protocol.Message,
        paid: WalletCall | None = None,
    ) -> None:
        table = runner.table
        seat = connection.seat
        assert seat is not None
        paying = runner.money.pays_off_loop()
        if isinstance(message, protocol.TopUp) and paying and paid is None:
            self.paid.top_up(connection, runner, message)
            return
        now = runner.now()
        with runner.change():
            if isinstance(message, protocol.TopUp):
                runner.money.top_up(table, seat, message.amount, now=now, paid=paid)
            elif isinstance(message, protocol.SitIn):
                table.sit_in(seat, wait_for_big_blind=message.wait, now=now)
            elif isinstance(message, protocol.SitOut):
                table.sit_out(seat, now=now)
            elif isinstance(message, protocol.Preferences):
                table.set_preferences(
                    seat,
                    muck_losing=message.muck_losing,
                    show_uncontested=message.show_uncontested,
                    now=now,
                )
            elif isinstance(message, protocol.Leave):
                table.leave_after_hand(seat, now=now)
            fields: dict[str, Any] = {"id": None, "ok": True}
            if isinstance(message, protocol.Leave) and table.seats()[seat] is not None:
                fields["after_hand"] = True  # it plays on by its deadlines, then goes
            runner.reply(connection, encode("result", **fields))
            self.commit.instead(connection, unavailable(None))
            if isinstance(message, protocol.Leave):  # its token stops now, not at the hand's end
                runner.release(seat)


def _nothing() -> None:
    """The undo of a change that changed no table (the retention's)."""
