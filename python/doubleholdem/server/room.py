"""The game server's heart, without HTTP: a :class:`Room` of tables, each run by a
:class:`TableRunner` task in one asyncio loop, and the :class:`Connection` of each client.

Every change to a table happens inside :meth:`TableRunner.change`, synchronously (so a
table needs no lock): the table changes, and what it stores (a move row for a decision or
a deadline, else the table's snapshot; :func:`restore` replays the moves) and sends (the
replies, each client's new state) wait for :meth:`Room.flush`, which commits the changes
of every table made in one turn of the event loop in one transaction (group commit) and
only then queues the messages for sending. Each client receives what
:meth:`Table.view` allows its seat (spectators: seat ``None``) and the log entries new to
it, filtered for its seat by :meth:`Table.event_log`: a whole ``state`` when it starts
watching, then an ``update`` after each change, with only what changed in its view
(:func:`protocol.diff`).
Deadlines run on the server's clock through :meth:`Table.advance` (RULES.md TH-40, DH-7).
The protocol is ``docs/PROTOCOL.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from doubleholdem.errors import DoubleHoldemError, ProtocolError, TamperedSnapshot
from doubleholdem.game import Structure, Variant
from doubleholdem.game.words import TIMEOUT
from doubleholdem.server import protocol
from doubleholdem.server.protocol import encode
from doubleholdem.server.storage import Storage, StoredTable, token_hash
from doubleholdem.table import Decision, Table, TableConfig
from doubleholdem.table.bots import BOTS, Bot

__all__ = ["Connection", "Room", "RoomSettings", "TableRunner", "default_configs", "restore"]

BOT_KINDS = BOTS  # the one registry of bots by name (table/bots.py)
_log = logging.getLogger("doubleholdem.server")
MAX_QUEUE = 512  # messages waiting for a slow client before it is dropped
RATE = 20.0  # messages a second a client may send, on average
BURST = 40.0  # and at once
FLOOD_LIMIT = 200  # messages refused for rate in a row before the connection is closed
FLUSH_RETRY = 0.001  # seconds before a commit tries again for the database's write lock
LOCK_PATIENCE = 5.0  # seconds of such tries before a commit waits for the lock (and may fail)


def default_configs() -> list[TableConfig]:
    """The tables a server runs without a config file, in turn: six-seat fixed-limit
    Double Hold'em 10/20 (DH-9) and six-seat no-limit Texas Hold'em 5/10."""
    return [
        TableConfig(
            small_blind=5,
            big_blind=10,
            seats=6,
            variant=Variant.DOUBLE,
            structure=Structure.FIXED_LIMIT,
        ),
        TableConfig(small_blind=5, big_blind=10, seats=6),
    ]


def restore(stored: StoredTable) -> Table:
    """The stored table: its snapshot with its moves replayed through the rules;
    :class:`TamperedSnapshot` if the snapshot is refused or a move cannot be replayed."""
    table = Table.from_json(stored.snapshot)
    for number, text in enumerate(stored.moves, 1):
        try:
            _replay(table, json.loads(text))
        except (DoubleHoldemError, ValueError, TypeError) as error:
            raise TamperedSnapshot(
                f"table {stored.id}: move {number} cannot be replayed: {error}"
            ) from None
    return table


def _replay(table: Table, move: list[Any]) -> None:
    """Makes again a move that :class:`TableRunner` stored."""
    kind, *args = move
    if kind == "advance" and len(args) == 1:
        table.advance(args[0])
    elif kind == "decide" and len(args) == 4:
        seat, action, amount, now = args
        table.decide(seat, Decision(action, amount), now=now)
    else:
        raise ValueError(f"not a move: {move!r}")


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:  # no event loop
        return None


@dataclass
class RoomSettings:
    """How a room runs: ``bots`` seats per new table taken by bots that act after
    ``bot_delay`` seconds; ``pause`` seconds between hands; ``clock`` the server's
    clock (seconds, wall time so that deadlines survive a restart)."""

    tables: int = 4
    bots: int = 2
    bot_delay: float = 1.0
    pause: float = 2.0
    configs: list[TableConfig] = field(default_factory=default_configs)
    clock: Callable[[], float] = time.time
    seed: int | None = None


class Connection:
    """One client: its outgoing queue, the table and seat it is bound to, and its
    rate limit (a token bucket)."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.runner: TableRunner | None = None
        self.seat: int | None = None
        self.token: str | None = None  # the hash of its seat token
        self.since = 0  # the table log position it has been sent up to
        self.view: dict[str, Any] | None = None  # the view it was sent last
        self.closed = False
        self._bucket = BURST
        self._filled = time.monotonic()
        self._refused = 0
        self._warned = 0.0

    def send(self, text: str) -> None:
        """Queues ``text`` for the client; a client too slow to read is dropped."""
        if self.closed:
            return
        if self.outbox.qsize() >= MAX_QUEUE:
            self.close()
            return
        self.outbox.put_nowait(text)

    def close(self) -> None:
        """Ends the connection (the writer sends nothing more)."""
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(None)

    def allow(self) -> bool:
        """Spends one message from the bucket; False when the client floods."""
        now = time.monotonic()
        self._bucket = min(BURST, self._bucket + (now - self._filled) * RATE)
        self._filled = now
        if self._bucket >= 1.0:
            self._bucket -= 1.0
            self._refused = 0
            return True
        self._refused += 1
        if self._refused >= FLOOD_LIMIT:
            self.close()
        elif now - self._warned >= 1.0:  # one error reply a second, not one per message
            self._warned = now
            self.send(encode("error", code="rate_limited", message="too many messages"))
        return False

    def error(self, code: str, message: str, ident: str | None = None) -> None:
        """Replies with an error (the request changed nothing), in order after the
        replies posted before it."""
        fields: dict[str, Any] = {"code": code, "message": message}
        if ident is not None:
            fields["id"] = ident
        self.room.post(self, encode("error", **fields))


class TableRunner:
    """One table, its bots, the clients watching it, and the task that plays it."""

    def __init__(
        self, room: Room, table_id: int, table: Table, bots: dict[int, str], seed: int
    ) -> None:
        self.room = room
        self.id = table_id
        self.table = table
        self.bot_kinds = bots
        self.bots: dict[int, Bot] = {s: BOT_KINDS[k](seed * 16 + s) for s, k in bots.items()}
        self.connections: set[Connection] = set()
        self.wake = asyncio.Event()
        self.next_start = 0.0
        self.timeouts: dict[int, int] = {}  # timeouts in a row of each human seat
        self.humans: dict[int, tuple[str, str]] = {}  # seat -> (token hash, player)
        self._store_extra: list[Callable[[Storage], None]] = []
        self._replies: list[tuple[Connection, str]] = []
        self._moves: list[str] = []  # the moves of the change being made

    # ------------------------------------------------------------------ changes

    @contextlib.contextmanager
    def change(self, *, moves: bool = False) -> Iterator[None]:
        """Wraps a change of the table: afterwards the hand's end is handled, the state
        is committed, and every client is sent what is new to it. If the change raises,
        nothing is committed or sent (the table refuses without changing). With
        ``moves``, the change makes only moves (:meth:`advance`, :meth:`decide`), and
        they are stored instead of a snapshot unless the hand ended."""
        table = self.table
        playing = table.in_hand
        number = table.hand_number
        self._moves.clear()
        try:
            yield
        except BaseException:
            self._store_extra.clear()
            self._replies.clear()
            self._moves.clear()
            raise
        ended = playing and not table.in_hand
        if ended:
            self._after_hand()
        messages = [(c, self.update_message(c)) for c in list(self.connections)]
        room = self.room
        steps, self._store_extra = self._store_extra, []
        if ended:
            history = table.release_history()
            steps[:0] = [
                lambda s: s.put_hand(self.id, number, history),
                lambda s: s.forget_actions(self.id, number),
            ]
            for connection in self.connections:
                connection.since = 0
            self.next_start = room.now(table) + room.settings.pause
        if moves and not ended:
            steps += [partial(Storage.put_move, table_id=self.id, move=m) for m in self._moves]
        else:
            snapshot = table.to_json()
            steps.append(lambda s: s.put_table(self.id, snapshot))
        self._moves.clear()
        steps += self._drop_gone()
        room.commit_later(self, steps)
        replies, self._replies = self._replies, []
        for connection, text in replies:
            room.post(connection, text)
        for connection, text in messages:
            room.emit(connection, self, text)
        self.wake.set()

    def advance(self, now: float) -> list[dict[str, Any]]:
        """:meth:`Table.advance`, noted as a move when it changed anything but the time
        (the next move or snapshot carries the time)."""
        entries = self.table.advance(now)
        if entries:
            self._moves.append(json.dumps(["advance", now]))
        return entries

    def decide(self, seat: int, decision: Decision, now: float) -> None:
        """:meth:`Table.decide`, noted as a move."""
        self.table.decide(seat, decision, now=now)
        self._moves.append(json.dumps(["decide", seat, *decision, now]))

    def later(self, step: Callable[[Storage], None]) -> None:
        """Adds ``step`` to what the change being made stores."""
        self._store_extra.append(step)

    def reply(self, connection: Connection, text: str) -> None:
        """Sends ``text`` once the change being made is committed, before the states."""
        self._replies.append((connection, text))

    def _after_hand(self) -> None:
        """A human seat that timed out twice in a row and is not connected sits out."""
        table = self.table
        connected = {c.seat for c in self.connections if c.seat is not None}
        for seat, count in list(self.timeouts.items()):
            if count >= 2 and seat not in connected and table.seats()[seat] is not None:
                table.sit_out(seat, now=table.now)
                self.timeouts[seat] = 0

    def _drop_gone(self) -> list[Callable[[Storage], None]]:
        """Forgets the tokens of players who left their seat: the steps that drop them
        from the database."""
        seats = self.table.seats()
        steps: list[Callable[[Storage], None]] = []
        for seat, (hashed, player) in list(self.humans.items()):
            occupant = seats[seat]
            if occupant is None or occupant["player"] != player:
                del self.humans[seat]
                steps.append(partial(Storage.drop_token, hashed=hashed))
                for connection in self.connections:
                    if connection.token == hashed:
                        connection.seat = connection.token = None
                        self.room.post(connection, encode("left", table=self.id, seat=seat))
        return steps

    def _note_timeouts(self, entries: list[dict[str, Any]]) -> None:
        for entry in entries:
            seat = entry.get("seat")
            if entry["kind"] == TIMEOUT and seat in self.humans:
                self.timeouts[seat] = self.timeouts.get(seat, 0) + 1

    # ------------------------------------------------------------------ messages

    def state_message(self, connection: Connection) -> str:
        """The whole state for ``connection`` now: its seat's view and the log entries
        new to it."""
        table = self.table
        config = table.config
        view, log = self._news(connection)
        return encode(
            "state",
            table=self.id,
            seat=connection.seat,
            now=table.now,
            clock=self.room.settings.clock(),
            view=view,
            log=log,
            times={
                "action": config.action_time,
                "bank": config.time_bank,
                "point": config.point_time,
            },
        )

    def update_message(self, connection: Connection) -> str:
        """What changed for ``connection`` since its last message: the patch from the
        view it was sent last to its view now, and the log entries new to it (a whole
        state when it holds no view)."""
        before = connection.view
        if before is None:
            return self.state_message(connection)
        view, log = self._news(connection)
        return encode(
            "update",
            table=self.id,
            seat=connection.seat,
            now=self.table.now,
            clock=self.room.settings.clock(),
            patch=protocol.diff(before, view),
            log=log,
        )

    def _news(self, connection: Connection) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The view of ``connection``'s seat now and the log entries new to it; both
        count as sent from here on."""
        table = self.table
        seat = connection.seat
        log = table.event_log(seat, since=connection.since)
        connection.since = table.log_length
        view: dict[str, Any] = table.view(seat, events=False)
        connection.view = view
        return view, log

    def summary(self) -> dict[str, Any]:
        """The table in ``GET /api/tables`` and the lobby."""
        table = self.table
        config = table.config
        seats: list[dict[str, Any] | None] = []
        for seat, public in enumerate(table.seats()):
            if public is None:
                seats.append(None)
            else:
                seats.append(
                    {
                        "player": public["player"],
                        "stack": public["stack"],
                        "bot": seat in self.bots,
                        "sitting_out": public["sitting_out"],
                    }
                )
        return {
            "id": self.id,
            "variant": config.variant.value,
            "structure": config.structure.value,
            "blinds": [config.small_blind, config.big_blind],
            "buy_in": list(config.buy_in_range),
            "seats": seats,
            "hand_number": table.hand_number,
            "chips": table.chips(),
            "rake": table.rake,
            "bought_in": table.bought_in,
        }

    # ------------------------------------------------------------------ the task

    async def run(self) -> None:
        """Plays the table until cancelled: starts hands, lets bots act, and applies
        deadlines. An unexpected error is logged and the table goes on from its last
        committed state."""
        while True:
            try:
                await self._run()
            except asyncio.CancelledError:
                raise
            except Exception:
                _log.exception("table %d stopped on an error; restoring it", self.id)
                self._restore()
                await asyncio.sleep(1.0)

    def _restore(self) -> None:
        """Back to the last committed state of the table."""
        for stored in self.room.store.tables():
            if stored.id == self.id:
                self.table = restore(stored)
                for connection in self.connections:
                    connection.since = 0
                    connection.view = None

    async def _run(self) -> None:
        room = self.room
        table = self.table
        while True:
            self.wake.clear()
            now = room.now(table)
            wait: float | None = None
            if table.in_hand:
                deadline = table.deadline
                seat = table.to_act
                if deadline is not None and deadline <= now:
                    with self.change(moves=True):
                        self._note_timeouts(self.advance(now))
                    continue
                if seat in self.bots:
                    await asyncio.sleep(room.settings.bot_delay)
                    self._bot_turn(seat)
                    continue
                wait = None if deadline is None else deadline - now
            elif self._bots_short():
                with self.change():
                    self._top_up_bots()
                continue
            elif now >= self.next_start and self._ready():
                with self.change():
                    table.start_hand(now=now)
                continue
            elif self._ready():
                wait = self.next_start - now
            await self._sleep(wait)

    async def _sleep(self, seconds: float | None) -> None:
        """Until woken, or ``seconds`` have passed. (Not ``wait_for``: on Python 3.11 it
        swallows a cancellation that comes as the event is set, and the task would run
        on after :meth:`Room.stop`.)"""
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

    def _bot_turn(self, seat: int) -> None:
        table = self.table
        now = self.room.now(table)
        if not table.in_hand or table.to_act != seat:
            return
        with self.change(moves=True):
            self._note_timeouts(self.advance(now))
            if table.in_hand and table.to_act == seat:
                self.decide(seat, self.bots[seat].choose(table.observe(seat)), now)

    def _bots_short(self) -> list[int]:
        """The bot seats below half the maximum buy-in (between hands)."""
        table = self.table
        high = table.config.buy_in_range[1]
        seats = table.seats()
        return [s for s in self.bots if seats[s] is not None and seats[s]["stack"] < high // 2]  # type: ignore[index]

    def _top_up_bots(self) -> None:
        """Bots buy back up to the maximum when they are below half of it."""
        table = self.table
        high = table.config.buy_in_range[1]
        for seat in self._bots_short():
            table.top_up(seat, high - table.stack(seat), now=table.now)

    # ------------------------------------------------------------------ requests

    def act(self, connection: Connection, message: protocol.Act) -> None:
        """A decision from the client in ``connection`` (its seat)."""
        table = self.table
        seat = connection.seat
        hashed = connection.token
        assert seat is not None and hashed is not None
        store = self.room.store
        done = (hashed, message.id)
        if done in self.room.applying or store.action_applied(*done):  # a retry
            self.room.post(connection, encode("result", id=message.id, ok=True, repeated=True))
            return
        if message.hand != table.hand_number or not table.in_hand:
            connection.error("stale", f"hand {message.hand} is not being played", message.id)
            return
        now = self.room.now(table)
        decision = Decision(message.action, message.amount)
        if table.deadline is not None and table.deadline <= now:
            with self.change(moves=True):
                self._note_timeouts(self.advance(now))
        try:
            with self.change(moves=True):
                self.decide(seat, decision, now)
                self.timeouts[seat] = 0
                self.later(lambda s: s.put_action(hashed, message.id, self.id, message.hand))
                self.room.applying.add(done)
                self.reply(connection, encode("result", id=message.id, ok=True))
        except DoubleHoldemError as error:
            connection.error("illegal", str(error), message.id)


class Room:
    """Every table of the server, its database, and the clients."""

    def __init__(self, store: Storage, settings: RoomSettings) -> None:
        self.store = store
        self.settings = settings
        self.runners: dict[int, TableRunner] = {}
        self.connections: set[Connection] = set()
        self.audit: Callable[[Connection, TableRunner, str], None] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        # what the changes of this turn of the event loop store and then send
        self._steps: list[Callable[[Storage], None]] = []
        self._sends: list[tuple[Connection, str]] = []
        self._changed: set[TableRunner] = set()
        self.applying: set[tuple[str, str]] = set()  # (token hash, action id) not committed
        self._flush: asyncio.Handle | None = None
        self._stopping = False
        self._locked_since: float | None = None  # when a commit first found the lock held

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

    def load(self) -> None:
        """Restores the stored tables and creates the missing ones."""
        settings = self.settings
        seed = settings.seed
        for stored in self.store.tables():
            table = restore(stored)
            bots = {int(s): k for s, k in stored.bots.items()}
            runner = TableRunner(self, stored.id, table, bots, (seed or 0) + stored.id)
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
                runner = TableRunner(self, table_id, table, bots, (seed or 0) + table_id)
                self.runners[table_id] = runner
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
        self._stopping = True  # the last commit waits for the database
        self.flush()
        for connection in list(self.connections):
            connection.close()
        self.store.close()

    def lobby(self) -> list[dict[str, Any]]:
        """Every table's summary."""
        return [runner.summary() for runner in self.runners.values()]

    # ------------------------------------------------------------------ connections

    def connect(self) -> Connection:
        """A new client."""
        connection = Connection(self)
        self.connections.add(connection)
        connection.send(
            encode("welcome", protocol=protocol.PROTOCOL_VERSION, tables=len(self.runners))
        )
        return connection

    def disconnect(self, connection: Connection) -> None:
        """The client has gone (its seat stays; it times out if it must act)."""
        self.connections.discard(connection)
        if connection.runner is not None:
            connection.runner.connections.discard(connection)
        connection.close()

    def emit(self, connection: Connection, runner: TableRunner, text: str) -> None:
        """Sends ``text`` about ``runner``'s table, as it is now, to ``connection`` (after
        the commit, :meth:`post`)."""
        if self.audit is not None:
            self.audit(connection, runner, text)
        self.post(connection, text)

    # ------------------------------------------------------------------ group commit

    def commit_later(self, runner: TableRunner, steps: list[Callable[[Storage], None]]) -> None:
        """Stores ``steps`` of a change of ``runner``'s table at the next :meth:`flush`."""
        self._steps += steps
        self._changed.add(runner)
        self._flush_soon()

    def post(self, connection: Connection, text: str) -> None:
        """Sends ``text`` to ``connection`` after the next :meth:`flush`'s commit (in the
        order posted)."""
        self._sends.append((connection, text))
        self._flush_soon()

    def _flush_soon(self) -> None:
        if self._flush is not None:
            return
        loop = _running_loop()
        if loop is None:  # a script or a test: at once
            self.flush()
            return
        self._flush = loop.call_soon(self.flush)

    def flush(self) -> None:
        """Commits what the changes since the last flush store, in one transaction, then
        sends what they post. If the commit fails, their tables go back to their last
        committed state and nothing is sent. While the database is locked for a moment
        (a checkpoint resetting its log) it tries again a millisecond later, and the
        event loop serves meanwhile; once the room stops, without a running event loop,
        or after ``LOCK_PATIENCE`` seconds of tries (another process holds the lock), it
        waits for the lock, and fails if it is not freed."""
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
        if self._steps and not self._stopping and not self.store.reserve():
            now = time.monotonic()
            if self._locked_since is None:
                self._locked_since = now
            loop = _running_loop()
            if loop is not None and now - self._locked_since < LOCK_PATIENCE:
                self._flush = loop.call_later(FLUSH_RETRY, self.flush)
                return
        self._locked_since = None
        steps, self._steps = self._steps, []
        sends, self._sends = self._sends, []
        changed, self._changed = self._changed, set()
        self.applying.clear()
        try:
            if steps:
                with self.store.transaction():
                    for step in steps:
                        step(self.store)
        except Exception:
            _log.exception("a commit failed; %d tables go back to their last one", len(changed))
            for runner in changed:
                runner._restore()
            return
        for connection, text in sends:
            connection.send(text)

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
            self._watch(connection, self._runner(connection, message.table), None)
        elif isinstance(message, protocol.Sit):
            self._sit(connection, message)
        elif isinstance(message, protocol.Resume):
            self._resume(connection, message.token)
        elif connection.seat is None or connection.runner is None:
            connection.error(
                "unauthorised",
                f"{type(message).__name__.lower()}: take a seat or resume with its token first",
                getattr(message, "id", None),
            )
        elif isinstance(message, protocol.Act):
            connection.runner.act(connection, message)
        else:
            self._seat_request(connection, connection.runner, message)

    def _runner(self, connection: Connection, table_id: int) -> TableRunner:
        runner = self.runners.get(table_id)
        if runner is None:
            raise ProtocolError(f"there is no table {table_id}", code="no_table")
        return runner

    def _watch(self, connection: Connection, runner: TableRunner, seat: int | None) -> None:
        """Binds ``connection`` to ``runner``'s table (as ``seat``) and sends the state."""
        if connection.runner is not None:
            connection.runner.connections.discard(connection)
        connection.runner = runner
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
        runner = self._runner(connection, message.table)
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
            table.join(seat, message.name, message.buy_in, now=self.now(table))
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
                runner.connections.discard(other)
        connection.token = hashed
        connection.send(encode("seated", table=runner.id, seat=seat, token=token))
        runner.timeouts[seat] = 0
        if runner.table.seats()[seat]["sitting_out"]:  # type: ignore[index]
            with runner.change():
                runner.table.sit_in(seat, now=self.now(runner.table))
        self._watch(connection, runner, seat)

    def _seat_request(
        self, connection: Connection, runner: TableRunner, message: protocol.Message
    ) -> None:
        table = runner.table
        seat = connection.seat
        assert seat is not None
        now = self.now(table)
        with runner.change():
            if isinstance(message, protocol.TopUp):
                table.top_up(seat, message.amount, now=now)
            elif isinstance(message, protocol.SitIn):
                table.sit_in(seat, now=now)
            elif isinstance(message, protocol.Leave):
                table.leave_after_hand(seat, now=now)
            runner.reply(connection, encode("result", id=None, ok=True))


def decode_state(text: str) -> dict[str, Any]:
    """A server message as a dict (for clients and tests)."""
    data: dict[str, Any] = json.loads(text)
    return data
