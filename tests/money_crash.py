"""Money through ``kill -9`` (issue 19): a room with accounts runs in a forked child
process (no interpreter to start: a cycle costs tens of milliseconds) where several
clients buy in, top up, play, leave and are cashed out, bots buy in from their bankrolls
and hands pay rake, while this process deposits and withdraws through the cashier (its
own connection, competing for the write lock). The child writes to a pipe the key of
every movement a client was told about (after the reply arrived: after its commit); this
process kills the child with SIGKILL at a random moment, and before the next start
checks the audit of the database (every table's chips against its ledger account,
deposits - withdrawals == balances + chips at tables + house) and that every movement
told about is in the ledger, once (a key is unique). The test runs it 200 times, the
benchmark ``benches/bench_money_crash.py`` 1,000."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
import time
from dataclasses import dataclass, field
from typing import Any

from doubleholdem.accounts.bank import Bank
from doubleholdem.database.connection import Connection as Database
from doubleholdem.database.url import connect
from doubleholdem.errors import DatabaseBusy, DoubleHoldemError
from doubleholdem.game import Rake
from doubleholdem.server.money.money import audit_room
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.connection import Connection
from doubleholdem.server.tables.room import Room
from doubleholdem.server.tables.runner import TableRunner
from doubleholdem.table import TableConfig
from passwords_double import FAST

PLAYERS = [f"p{i}" for i in range(6)]
TABLE = TableConfig(
    small_blind=5,
    big_blind=10,
    seats=4,
    rake=Rake(500, no_flop_no_drop=False),
    action_time=0.5,
    time_bank=0.5,
)


def settings(seed: int) -> RoomSettings:
    """The room of the crash test: two four-seat tables, one bot each with a bankroll of
    two buy-ins (it leaves when it is gone)."""
    return RoomSettings(
        tables=2,
        bots=1,
        bot_delay=0.0,
        pause=0.0,
        configs=[TABLE],
        seed=seed,
        guests=False,
        bot_bankroll=2000,
    )


def prepare(path: str) -> None:
    """The accounts of the players, each with a deposit."""
    with Bank(path, passwords=FAST, create=True) as bank:
        for name in PLAYERS:
            bank.create(name, "password-" + name)
            bank.deposit(name, 3000, ref=f"first-{name}")


@dataclass
class Client:
    """A signed-in player of the child: its connection and what it waits for. Seats are
    keyed by (table, seat): on PostgreSQL (the commit off the loop) a client may sit
    again at a table, even before the messages of the seat it left there arrive."""

    connection: Connection
    pending: str | None = None  # the key of the movement of the request not answered
    sitting: tuple[int, int] | None = None  # (table, occupancy) of the sit not answered
    occupancy: dict[tuple[int, int], int] = field(default_factory=dict)  # seats held
    leaving: dict[tuple[int, int], int] = field(default_factory=dict)  # seats told left


def _tell(fd: int, key: str) -> None:
    os.write(fd, (key + "\n").encode())


def _read(client: Client, fd: int, room: Room) -> None:
    """What ``client`` was sent: replies to its request, and the leaves and hand ends
    in the log of the table it watches (a cash-out and a hand's rake told about)."""
    connection = client.connection
    while not connection.outbox.empty():
        text = connection.outbox.get_nowait()
        if text is None:
            return
        message = json.loads(text)
        kind = message["type"]
        # a sit where the account sits already takes that seat back (issue 32 item 3):
        # "seated" without a token, nothing paid, the seat's own occupancy
        resumed = kind == "seated" and message["token"] is None
        if kind in ("seated", "result", "error"):
            if kind != "error" and client.pending is not None and not resumed:
                _tell(fd, client.pending)
            client.pending = None
        if kind == "seated":
            _seated(client, fd, room, message, resumed)
        elif kind == "left":
            _tell(fd, f"unseat {room_name(client)}")
            where = (message["table"], message["seat"])
            if where in client.occupancy:  # (a seat left in a hand is told twice)
                client.leaving[where] = client.occupancy.pop(where)
        elif kind == "update":  # (a whole state repeats the table's older entries)
            _read_log(client, fd, message["table"], message["log"])


def _seated(client: Client, fd: int, room: Room, message: dict[str, Any], resumed: bool) -> None:
    """``client`` holds the seat of ``message``: its occupancy noted (and, given a token,
    told, so that the next child resumes the seat)."""
    table, seat = message["table"], message["seat"]
    sitting, client.sitting = client.sitting, None
    if resumed or sitting is None or sitting[0] != table:
        occupancy = room.runners[table].table.occupancy(seat)
        assert occupancy is not None
    else:
        occupancy = sitting[1]
    client.occupancy[(table, seat)] = occupancy
    if message["token"] is not None:
        _tell(fd, f"seat {room_name(client)} {table} {occupancy} {message['token']}")


def _read_log(client: Client, fd: int, table: int, log: list[dict[str, Any]]) -> None:
    """The rake of each hand end in ``log`` and the cash-out of each seat ``client``
    was told it left, told about."""
    for entry in log:
        if entry["kind"] == "hand_end" and entry.get("rake"):
            _tell(fd, f"rake:{table}:{entry['number']}")
        elif entry["kind"] == "leave" and (table, entry["seat"]) in client.leaving:
            occupancy = client.leaving.pop((table, entry["seat"]))
            _tell(fd, f"cashout:{table}:{occupancy}")


def room_name(client: Client) -> str:
    account = client.connection.account
    assert account is not None
    return account


def _request(client: Client, room: Room, rng: random.Random) -> None:
    """One random request of ``client``: sit, top up, leave, or act when its turn."""
    connection = client.connection
    if client.pending is not None:
        return
    if connection.seat is None:
        runner = room.runners[rng.randrange(len(room.runners))]
        if None not in runner.table.seats():
            return
        occupancy = runner.table.next_occupancy
        client.pending = f"buyin:{runner.id}:{occupancy}"
        client.sitting = (runner.id, occupancy)
        amount = rng.choice([200, 500, 1000, 5000])
        _send(room, connection, type="sit", table=runner.id, buy_in=amount, name=room_name(client))
        if connection.seat is None:  # refused: no occupancy was taken
            client.sitting = None
        return
    table_id, seat = connection.table, connection.seat
    assert table_id is not None
    runner = room.runners[table_id]
    table = runner.table
    if table.in_hand and table.to_act == seat:
        _act(client, room, runner, rng)
    elif rng.random() < 0.15 and (table_id, seat) in client.occupancy:
        amount = rng.choice([10, 100, 400])
        before = table.bought_in_by(seat)
        occupancy = client.occupancy[(table_id, seat)]
        client.pending = f"topup:{table_id}:{occupancy}:{before}"
        _send(room, connection, type="top_up", amount=amount)
    elif rng.random() < 0.08:
        client.pending = "leave"
        _send(room, connection, type="leave")


def _act(client: Client, room: Room, runner: TableRunner, rng: random.Random) -> None:
    legal = runner.table.legal_actions()
    assert legal is not None
    action = "call" if legal.can_call else "check"
    if legal.can_call and rng.random() < 0.3:
        action = "fold"
    ident = f"a{rng.getrandbits(48)}"
    client.pending = "act"
    hand = runner.table.hand_number
    _send(room, client.connection, type="act", id=ident, hand=hand, action=action)


def _send(room: Room, connection: Connection, **fields: Any) -> None:
    room.handle(connection, json.dumps({"v": 2, **fields}))


def child(path: str, fd: int, seed: int, seats: dict[str, str]) -> None:
    """The room, played until killed; ``seats``: name -> "table occupancy token" of the
    seats the clients held when the last child was killed (they resume them)."""
    rng = random.Random(seed)

    async def play() -> None:
        room = Room.open(path, settings(seed))
        await room.start()
        clients = []
        for name in PLAYERS:
            connection = room.connect()
            connection.account = name
            client = Client(connection)
            clients.append(client)
            if name in seats:
                table, occupancy, token = seats[name].split()
                client.sitting = (int(table), int(occupancy))
                client.pending = "resume"
                _send(room, connection, type="resume", token=token)
        _tell(fd, "ready")
        while True:
            for client in clients:
                _read(client, fd, room)
            _request(rng.choice(clients), room, rng)
            await asyncio.sleep(0.0005)

    asyncio.run(play())


def _cashier(path: str, rng: random.Random, cycle: int) -> str | None:
    """A deposit or withdrawal through the command line's bank: its key, or ``None``
    when it was refused."""
    name = rng.choice(PLAYERS)
    ref = f"{rng.choice('wd')}{cycle}"
    with Bank(path, passwords=FAST) as bank:
        try:
            if ref.startswith("w"):
                bank.withdraw(name, rng.choice([50, 500]), ref=ref)
            else:
                bank.deposit(name, rng.choice([100, 1000]), ref=ref)
        except DoubleHoldemError:
            return None
        except (sqlite3.OperationalError, DatabaseBusy):  # the lock was held: not told about
            return None
    return f"cashier:{ref}"


@dataclass
class Outcome:
    cycles: int = 0
    told: int = 0
    problems: list[str] = field(default_factory=list)
    created: int = 0  # chips created (or, below 0, lost), summed over the checks


def _drain(reader: int, buffer: bytearray) -> list[str]:
    while True:
        try:
            chunk = os.read(reader, 65536)
        except BlockingIOError:
            break
        if not chunk:
            break
        buffer += chunk
    *lines, rest = buffer.decode().split("\n")
    buffer[:] = rest.encode()
    return lines


def _check(path: str, told: set[str], outcome: Outcome) -> None:
    db = connect(path)
    try:
        found = audit_room(db)
        outcome.problems += found["problems"]
        keys = {key for (key,) in db.execute("SELECT key FROM ledger_transactions")}
        missing = told - keys
        outcome.problems += [f"told about but not in the ledger: {key}" for key in missing]
        outcome.created += _created(db)
    finally:
        db.close()


def _created(db: Database) -> int:
    """Chips held (players, bots, tables, house) minus deposits net of withdrawals."""
    (held,) = db.execute(
        "SELECT COALESCE(SUM(balance), 0) FROM ledger_accounts WHERE kind != 'cashier'"
    ).fetchone()
    (cashier,) = db.execute(
        "SELECT COALESCE(SUM(balance), 0) FROM ledger_accounts WHERE kind = 'cashier'"
    ).fetchone()
    return int(held) + int(cashier)


def crash_cycles(path: str, cycles: int, seed: int = 0) -> Outcome:
    """Runs ``cycles`` kill -9 cycles on the database at ``path`` (see the module)."""
    prepare(path)
    rng = random.Random(seed)
    told: set[str] = set()
    seats: dict[str, str] = {}
    outcome = Outcome()
    for cycle in range(cycles):
        reader, writer = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            os.close(reader)
            try:
                child(path, writer, seed * 100_003 + cycle, seats)
            finally:
                os._exit(1)
        os.close(writer)
        os.set_blocking(reader, False)
        buffer = bytearray()
        lines: list[str] = []
        deadline = time.monotonic() + 10.0
        while "ready" not in lines and time.monotonic() < deadline:
            time.sleep(0.002)
            lines += _drain(reader, buffer)
        if rng.random() < 0.5:
            key = _cashier(path, rng, cycle)
            if key is not None:
                told.add(key)
        time.sleep(rng.uniform(0.005, 0.1))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        lines += _drain(reader, buffer)
        os.close(reader)
        for line in lines:
            word, _, rest = line.partition(" ")
            if word == "seat":
                name, _, seat = rest.partition(" ")
                seats[name] = seat
            elif word == "unseat":
                seats.pop(rest, None)
            elif line and ":" in line:
                told.add(line)
        _check(path, told, outcome)
        outcome.cycles += 1
        if outcome.problems:
            break
    outcome.told = len(told)
    return outcome
