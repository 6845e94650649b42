"""Requests a wallet outside the room's database pays for (an embedding server's own,
docs/accounts.md), served off the event loop (a part the
:class:`~doubleholdem.server.tables.room.Room` holds): a buy-in or a top-up is paid first, through
the table's gate (:meth:`TableMoney.prepay
<doubleholdem.server.money.table_money.TableMoney.prepay>`: in a thread, one call at a time, with a
timeout and a backoff), in a task of its own, then made in a change of the table (or
the payment given back); its refusals are answered as every request's
(:func:`answering`)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from typing import Any, Protocol

from doubleholdem.errors import AccountError, DatabaseBusy, DoubleHoldemError
from doubleholdem.server import protocol
from doubleholdem.server.money.wallet_calls import WalletCall
from doubleholdem.server.money.wallet_gate import WalletFailed
from doubleholdem.server.protocol import ProtocolError
from doubleholdem.server.tables.connection import Connection
from doubleholdem.server.tables.runner import TableRunner
from doubleholdem.wording import told

__all__ = ["SeatRequest", "TakeSeat", "WalletRequests", "answering"]


class TakeSeat(Protocol):
    """Seats ``name`` in ``seat`` of ``runner``'s table with ``buy_in`` chips the
    wallet ``paid`` already (the room's way to take a seat)."""

    def __call__(
        self,
        connection: Connection,
        runner: TableRunner,
        seat: int,
        name: str,
        buy_in: int,
        paid: WalletCall | None = None,
    ) -> None: ...


class SeatRequest(Protocol):
    """Makes the request ``message`` of ``connection``'s seat at ``runner``'s table,
    paid already by ``paid`` (the room's way to make a seat's request)."""

    def __call__(
        self,
        connection: Connection,
        runner: TableRunner,
        message: protocol.Message,
        paid: WalletCall | None = None,
    ) -> None: ...


class WalletRequests:
    """The requests paid off the loop, each in a task of its own (:attr:`under_way`),
    over the room's ``runners``. It is handed what it needs of the room: how to
    ``take_seat`` and make a ``seat_request`` once paid, and ``seated_elsewhere``
    (True, with an error reply, when a connection holds a seat other than that of a
    token hash)."""

    def __init__(
        self,
        runners: dict[int, TableRunner],
        *,
        take_seat: TakeSeat,
        seat_request: SeatRequest,
        seated_elsewhere: Callable[[Connection, str | None], bool],
    ) -> None:
        self.runners = runners
        self.under_way: set[asyncio.Task[None]] = set()
        self._take_seat = take_seat
        self._seat_request = seat_request
        self._seated_elsewhere = seated_elsewhere

    async def ended(self) -> None:
        """Until no request paid by a wallet outside the database is under way and no
        table makes calls to it, with the commits they made (tests wait for this)."""
        while True:
            for _ in range(2):  # the commit due at this turn, and what it hands on
                await asyncio.sleep(0)
            if self.under_way:
                await asyncio.wait(list(self.under_way))
                continue
            monies = [r.money for r in self.runners.values()]
            if not any(money.calling() for money in monies):
                return
            for money in monies:
                await money.calls_ended()

    def sit(
        self, connection: Connection, runner: TableRunner, seat: int, name: str, buy_in: int
    ) -> None:
        """A sit whose buy-in a wallet outside the database pays, asked off the loop
        (:meth:`TableMoney.prepay <doubleholdem.server.money.table_money.TableMoney.prepay>`), then
        the seat taken with it (or the payment given back)."""
        self._paying(connection, self._sit_paid(connection, runner, seat, name, buy_in))

    def top_up(self, connection: Connection, runner: TableRunner, message: protocol.TopUp) -> None:
        """A top-up a wallet outside the database pays, asked off the loop, then made
        (or the payment given back: the seat changed meanwhile)."""
        self._paying(connection, self._top_up_paid(connection, runner, message))

    async def _sit_paid(
        self, connection: Connection, runner: TableRunner, seat: int, name: str, buy_in: int
    ) -> None:
        money = runner.money
        async with _moving(runner):
            paid = await money.prepay(name, buy_in, money.buy_in_key(runner.table), "buy_in")
            if connection.seat is not None:  # it sat elsewhere meanwhile
                money.give_back(paid)
                self._seated_elsewhere(connection, None)
                return
            self._take_seat(connection, runner, seat, name, buy_in, paid)

    async def _top_up_paid(
        self, connection: Connection, runner: TableRunner, message: protocol.TopUp
    ) -> None:
        money, seat = runner.money, connection.seat
        assert seat is not None
        async with _moving(runner):
            key = money.top_up_key(runner.table, seat)
            owner = runner.table.player(seat)
            paid = await money.prepay(owner, message.amount, key, "top_up")
            if connection.seat != seat or connection.table != runner.id:  # it left meanwhile
                money.give_back(paid)
                connection.error("unauthorised", "top_up: the seat was left meanwhile")
                return
            self._seat_request(connection, runner, message, paid)

    def _paying(self, connection: Connection, work: Coroutine[Any, Any, None]) -> None:
        """Runs ``work`` (a request a wallet outside the database pays for) in a task
        of its own, its refusals answered as the room answers them."""

        async def answered() -> None:
            with answering(connection):
                await work

        task = asyncio.get_running_loop().create_task(answered())
        self.under_way.add(task)
        task.add_done_callback(self.under_way.discard)


@contextlib.asynccontextmanager
async def _moving(runner: TableRunner) -> AsyncIterator[None]:
    """Holds the lock of a movement of ``runner``'s money paid off the loop (its bots
    top up only while none is: the table is woken once it ends)."""
    try:
        async with runner.money.moving:
            yield
    finally:
        runner.wake.set()


@contextlib.contextmanager
def answering(connection: Connection) -> Iterator[None]:
    """Answers a refusal raised by the block with an error reply to ``connection``."""
    try:
        yield
    except (ProtocolError, DatabaseBusy, WalletFailed, AccountError) as error:
        connection.error(error.code, told(error))
    except DoubleHoldemError as error:
        connection.error("refused", told(error))
