"""The game server's heart, without HTTP: a :class:`Room` of tables, each played by a
:class:`~doubleholdem.server.runner.TableRunner` task in one asyncio loop, its clients
(:class:`~doubleholdem.server.connection.Connection`), its database and the group commit
(:class:`~doubleholdem.server.commit.GroupCommit`) that stores the changes of one turn of
the event loop in one transaction before anything about them is sent. The room reads
each client's requests and routes them to the tables. The protocol is
``docs/PROTOCOL.md``."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import Any

from doubleholdem.errors import DoubleHoldemError, ProtocolError
from doubleholdem.server import protocol
from doubleholdem.server.commit import GroupCommit
from doubleholdem.server.connection import Connection
from doubleholdem.server.journal import restore
from doubleholdem.server.protocol import encode
from doubleholdem.server.runner import TableRunner
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage import Storage, token_hash
from doubleholdem.table import Decision, Table

__all__ = ["Room"]


class Room:
    """Every table of the server, its database, and the clients."""

    def __init__(self, store: Storage, settings: RoomSettings) -> None:
        self.store = store
        self.settings = settings
        self.commit = GroupCommit(store)
        self.runners: dict[int, TableRunner] = {}
        self.connections: set[Connection] = set()
        self.audit: Callable[[Connection, TableRunner, str], None] | None = None
        self._tasks: list[asyncio.Task[None]] = []

    @classmethod
    def open(cls, path: str, settings: RoomSettings, *, synchronous: str = "normal") -> Room:
        """The room of the database at ``path``: its stored tables restored where they
        were, and new tables up to ``settings.tables``."""
        room = cls(Storage(path, synchronous=synchronous), settings)
        room.load()
        return room

    def now(self, table: Table) -> float:
        """The server's time for ``table`` (never before the table's own time)."""
        return max(self.settings.clock(), table.now)

    def _runner(self, table_id: int, table: Table, bots: dict[int, str]) -> TableRunner:
        """The runner of table ``table_id``, handed what it needs of the room."""
        return TableRunner(
            table_id,
            table,
            bots,
            (self.settings.seed or 0) + table_id,
            settings=self.settings,
            commit=self.commit,
            emit=self.emit,
            load=lambda: restore(self.store.table(table_id)),
        )

    def load(self) -> None:
        """Restores the stored tables and creates the missing ones."""
        settings = self.settings
        seed = settings.seed
        for stored in self.store.tables():
            table = restore(stored)
            runner = self._runner(stored.id, table, {int(s): k for s, k in stored.bots.items()})
            for hashed, seat, player in self.store.tokens(stored.id):
                runner.humans[seat] = (hashed, player)
            self.runners[stored.id] = runner
        with self.store.transaction():
            for table_id in range(len(self.runners), settings.tables):
                config = settings.configs[table_id % len(settings.configs)]
                rng_seed = None if seed is None else seed * 1000 + table_id
                table = Table(config, seed=rng_seed)
                now = settings.clock()
                kinds = ("random", "station")
                bots = {s: kinds[s % 2] for s in range(min(settings.bots, config.seats))}
                for seat in bots:
                    table.join(seat, f"bot-{table_id}-{seat}", config.buy_in_range[1], now=now)
                self.runners[table_id] = self._runner(table_id, table, bots)
                self.store.put_table(
                    table_id, table.to_json(), {str(s): k for s, k in bots.items()}
                )

    async def start(self) -> None:
        """Starts every table's task (a hand in play goes on where it was)."""
        for runner in self.runners.values():
            self._tasks.append(asyncio.create_task(runner.run()))

    async def stop(self) -> None:
        """Stops the tables and closes the database."""
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks.clear()
        self.commit.stopping = True
        self.commit.flush()
        for connection in list(self.connections):
            connection.close()
        self.store.close()

    def lobby(self) -> list[dict[str, Any]]:
        """Every table's summary."""
        return [runner.summary() for runner in self.runners.values()]

    # ------------------------------------------------------------------ connections

    def connect(self) -> Connection:
        """A new client."""
        connection = Connection(self.commit.post)
        self.connections.add(connection)
        connection.send(
            encode("welcome", protocol=protocol.PROTOCOL_VERSION, tables=len(self.runners))
        )
        return connection

    def disconnect(self, connection: Connection) -> None:
        """The client has gone (its seat stays; it times out if it must act)."""
        self.connections.discard(connection)
        self._unbind(connection)
        connection.close()

    def _unbind(self, connection: Connection) -> None:
        """``connection`` stops watching its table."""
        if connection.table is not None:
            self.runners[connection.table].connections.discard(connection)
            connection.table = None

    def emit(self, connection: Connection, runner: TableRunner, text: str) -> None:
        """Sends ``text`` about ``runner``'s table, as it is now, to ``connection`` (after
        the commit)."""
        if self.audit is not None:
            self.audit(connection, runner, text)
        self.commit.post(connection, text)

    # ------------------------------------------------------------------ requests

    def handle(self, connection: Connection, text: str | bytes) -> None:
        """One message from a client: decoded, checked, applied; every refusal is an
        error reply and changes nothing."""
        if not connection.allow():
            return
        try:
            message = protocol.decode(text)
        except ProtocolError as error:
            connection.error(error.code, str(error))
            return
        try:
            self._dispatch(connection, message)
        except ProtocolError as error:
            connection.error(error.code, str(error))
        except DoubleHoldemError as error:
            connection.error("refused", str(error))

    def _dispatch(self, connection: Connection, message: protocol.Message) -> None:
        if isinstance(message, protocol.Ping):
            connection.send(encode("pong", clock=self.settings.clock()))
        elif isinstance(message, protocol.Lobby):
            connection.send(encode("lobby", tables=self.lobby()))
        elif isinstance(message, protocol.Watch):
            self._watch(connection, self._table(message.table), None)
        elif isinstance(message, protocol.Sit):
            self._sit(connection, message)
        elif isinstance(message, protocol.Resume):
            self._resume(connection, message.token)
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

    def _table(self, table_id: int) -> TableRunner:
        runner = self.runners.get(table_id)
        if runner is None:
            raise ProtocolError(f"there is no table {table_id}", code="no_table")
        return runner

    def _watch(self, connection: Connection, runner: TableRunner, seat: int | None) -> None:
        """Binds ``connection`` to ``runner``'s table (as ``seat``) and sends the state."""
        self._unbind(connection)
        connection.table = runner.id
        connection.seat = seat
        if seat is None:
            connection.token = None
        connection.since = 0
        runner.connections.add(connection)
        self.emit(connection, runner, runner.state_message(connection))

    def _sit(self, connection: Connection, message: protocol.Sit) -> None:
        if connection.seat is not None:
            connection.error("already_seated", f"you sit in seat {connection.seat} already")
            return
        runner = self._table(message.table)
        table = runner.table
        seat = message.seat
        if seat is None:
            open_seats = [s for s, p in enumerate(table.seats()) if p is None]
            if not open_seats:
                connection.error("table_full", f"table {message.table} has no open seat")
                return
            seat = open_seats[0]
        token = secrets.token_urlsafe(24)
        hashed = token_hash(token)
        with runner.change():
            table.join(seat, message.name, message.buy_in, now=runner.now())
            runner.humans[seat] = (hashed, message.name)
            runner.later(lambda s: s.put_token(hashed, runner.id, seat, message.name))
            runner.reply(connection, encode("seated", table=runner.id, seat=seat, token=token))
        connection.token = hashed
        self._watch(connection, runner, seat)

    def _resume(self, connection: Connection, token: str) -> None:
        hashed = token_hash(token)
        found = self.store.token(hashed)
        runner = None if found is None else self.runners.get(found[0])
        if found is None or runner is None or runner.humans.get(found[1]) != (hashed, found[2]):
            connection.error("bad_token", "this token holds no seat")
            return
        seat = found[1]
        for other in list(runner.connections):  # the seat's older connection
            if other is not connection and other.token == hashed:
                other.send(encode("replaced", table=runner.id, seat=seat))
                other.seat = other.token = None
                other.table = None
                runner.connections.discard(other)
        connection.token = hashed
        connection.send(encode("seated", table=runner.id, seat=seat, token=token))
        runner.timeouts[seat] = 0
        if runner.table.seats()[seat]["sitting_out"]:  # type: ignore[index]
            with runner.change():
                runner.table.sit_in(seat, now=runner.now())
        self._watch(connection, runner, seat)

    def _act(self, connection: Connection, runner: TableRunner, message: protocol.Act) -> None:
        """A decision from the client in ``connection`` (its seat)."""
        table = runner.table
        seat = connection.seat
        hashed = connection.token
        assert seat is not None and hashed is not None
        commit = self.commit
        done = (hashed, message.id)
        if done in commit.applying or self.store.action_applied(*done):  # a retry
            commit.post(connection, encode("result", id=message.id, ok=True, repeated=True))
            return
        if message.hand != table.hand_number or not table.in_hand:
            connection.error("stale", f"hand {message.hand} is not being played", message.id)
            return
        now = runner.now()
        decision = Decision(message.action, message.amount)
        if table.deadline is not None and table.deadline <= now:
            with runner.change(moves=True):
                runner.note_timeouts(runner.advance(now))
        try:
            with runner.change(moves=True):
                runner.decide(seat, decision, now)
                runner.timeouts[seat] = 0
                runner.later(lambda s: s.put_action(hashed, message.id, runner.id, message.hand))
                commit.applying.add(done)
                runner.reply(connection, encode("result", id=message.id, ok=True))
        except DoubleHoldemError as error:
            connection.error("illegal", str(error), message.id)

    def _seat_request(
        self, connection: Connection, runner: TableRunner, message: protocol.Message
    ) -> None:
        table = runner.table
        seat = connection.seat
        assert seat is not None
        now = runner.now()
        with runner.change():
            if isinstance(message, protocol.TopUp):
                table.top_up(seat, message.amount, now=now)
            elif isinstance(message, protocol.SitIn):
                table.sit_in(seat, now=now)
            elif isinstance(message, protocol.Leave):
                table.leave_after_hand(seat, now=now)
            runner.reply(connection, encode("result", id=None, ok=True))
