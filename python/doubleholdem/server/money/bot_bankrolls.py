"""The bots' chips at a table (:class:`BotBankrolls`, a part the
table's runner, :class:`~doubleholdem.server.tables.runner.TableRunner`, holds; what it
needs of the runner is :class:`BotTable`): between hands a bot below half the
maximum buy-in tops up from its bankroll while it lasts, and a bot with no chips and
no bankroll leaves. A wallet outside the database (an embedding server's) is asked
off the event loop (:mod:`doubleholdem.server.money.wallet_gate`): while it fails, the short
bots sit out, and the table plays on without them until it answers again."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Protocol

from doubleholdem.server.money.table_money import TableMoney
from doubleholdem.server.storage.batch import Awaiting, Step
from doubleholdem.table import Table
from doubleholdem.table.bots import Bot

__all__ = ["BotBankrolls", "BotTable"]

_log = logging.getLogger("doubleholdem.server")


class BotTable(Protocol):
    """What the bots' bankrolls need of their table's runner: the table (replaced when
    a failed commit reloads it), its bots by seat and their kinds, its money, a change
    of the table to make their movements in, and a way to store which bots sit."""

    @property
    def id(self) -> int: ...

    @property
    def table(self) -> Table: ...

    @property
    def bots(self) -> dict[int, Bot]: ...

    @property
    def bot_kinds(self) -> dict[int, str]: ...

    @property
    def money(self) -> TableMoney: ...

    def change(self, *, moves: bool = False) -> contextlib.AbstractContextManager[None]: ...

    def store_bots(self) -> None: ...

    def later(self, step: Step) -> None: ...


class BotBankrolls:
    """The bots' top-ups at the table of ``runner``, which keeps ``wanted`` bots
    (seat -> kind)."""

    def __init__(self, runner: BotTable, wanted: dict[int, str]) -> None:
        self._runner = runner
        # bots and a wallet outside the database: those it sat out by failing, and those
        # found with no bankroll (seat -> the hand number then)
        self._sat_out: set[int] = set()
        self._broke: dict[int, int] = {}
        # the bots the table is configured with (seat -> kind), kept to that count: a
        # bot that left is replaced by ``seat_bot(seat, kind)`` (the room's: ``None`` once
        # seated, else why not, kept in ``unfunded`` with the hand number it was tried at)
        self.wanted_bots = wanted
        self.seat_bot: Callable[[int, str], str | None] | None = None
        self.unfunded: dict[int, str] = {}
        self._unfunded_at: dict[int, int] = {}
        # the seats whose bot left in a change not yet committed: refilled only once
        # the commit that wrote that change ended (its cash-out closes the bot's seat in
        # the ledger), not the one in flight as it left (a commit off the loop)
        self.leaving: Awaiting[int] = Awaiting()

    @property
    def id(self) -> int:
        return self._runner.id

    @property
    def table(self) -> Table:
        return self._runner.table

    @property
    def bots(self) -> dict[int, Bot]:
        return self._runner.bots

    @property
    def money(self) -> TableMoney:
        return self._runner.money

    def change(self, *, moves: bool = False) -> contextlib.AbstractContextManager[None]:
        return self._runner.change(moves=moves)

    def left_committed(self) -> bool:
        """A commit of the table's changes ended: the seats whose bot left in a change
        it wrote may be refilled now (True if there were any)."""
        return bool(self.leaving.ended())

    def _short(self) -> list[int]:
        """The bot seats below half the maximum buy-in."""
        table = self.table
        high = table.config.buy_in_range[1]
        seats = table.seats()
        return [s for s in self.bots if seats[s] is not None and seats[s]["stack"] < high // 2]  # type: ignore[index]

    def _bots_short(self) -> list[int]:
        """The bot seats below half the maximum buy-in (between hands) that can top up
        (or must leave: no chips and no bankroll). Paid off the loop (a wallet outside
        the database, served), whose balance is asked off the loop: none while the
        wallet rests after failures or another movement is paid, and a bot found with
        no bankroll this hand is not asked about again before the next."""
        table = self.table
        short = self._short()
        money = self.money
        if money.pays_off_loop():
            if money.busy():
                return []  # the wallet rests, or a call is in flight: woken once it ends
            return [s for s in short if self._broke.get(s) != table.hand_number]
        return [s for s in short if table.stack(s) == 0 or self._bankroll(s, 1) > 0]

    def _wallet_rest(self) -> float | None:
        """Seconds until the wallet may be asked for the short bots again, if they wait
        for it (``None``: they do not)."""
        wait = self.money.resting()
        return wait if wait > 0 and self._short() else None

    async def _top_up_bots_outside(self) -> None:
        """:meth:`_top_up_bots` with a wallet outside the database, asked off the loop
        (:meth:`TableMoney.balance <doubleholdem.server.money.table_money.TableMoney.balance>`,
        :meth:`~doubleholdem.server.money.table_money.TableMoney.prepay`): if it fails, the bot
        sits out, with the other short bots, until it answers again (the table plays on
        without them), then sits in."""
        money = self.money
        high = self.table.config.buy_in_range[1]
        for seat in self._bots_short():
            player = self.table.player(seat)
            try:
                bankroll = await money.balance(player)
                amount = min(high - self.table.stack(seat), bankroll)
                if amount > 0:
                    async with money.moving:
                        key = money.top_up_key(self.table, seat)
                        paid = await money.prepay(player, amount, key, "top_up")
                        with self.change():
                            money.top_up(self.table, seat, amount, now=self.table.now, paid=paid)
                            self._bot_in(seat)
                elif self.table.stack(seat) == 0:
                    with self.change():
                        self._bot_leaves(seat)
                else:  # it plays on with its chips; asked again after the hand
                    self._broke[seat] = self.table.hand_number
                    with self.change():
                        self._bot_in(seat)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the wallet failed (or refused), or the database
                short = [s for s in self._short() if s not in self._sat_out]
                count, table = len(short), self.id + 1
                _log.warning("%d short bots sit out at table %d: %s", count, table, error)
                with self.change():
                    for each in short:  # until the wallet answers
                        self.table.sit_out(each, now=self.table.now)
                        self._sat_out.add(each)
                await asyncio.sleep(0.05)  # a busy database: the next try a little later
                return

    def _bot_in(self, seat: int) -> None:
        """The bot in ``seat`` sits in again if the wallet had sat it out."""
        if seat in self._sat_out:
            self._sat_out.discard(seat)
            self.table.sit_in(seat, now=self.table.now)

    def _bankroll(self, seat: int, want: int) -> int:
        """The chips, up to ``want``, the bot in ``seat`` can top up with now."""
        return self.money.bankroll(self.table.player(seat), want)

    def _top_up_bots(self) -> None:
        """Bots buy back up to the maximum when they are below half of it, from their
        bankroll while it lasts (play chips: always), and a bot with no chips and no
        bankroll leaves."""
        table = self.table
        high = table.config.buy_in_range[1]
        for seat in self._bots_short():
            amount = self._bankroll(seat, high - table.stack(seat))
            if amount > 0:
                self.money.top_up(table, seat, amount, now=table.now)
            else:
                self._bot_leaves(seat)

    def bots_missing(self) -> dict[int, str]:
        """The configured bot seats left empty (their bot left, no human sat down)
        that the room has not yet tried to fill at this hand number: seat -> kind."""
        if self.seat_bot is None:
            return {}
        seats = self.table.seats()
        hand = self.table.hand_number
        return {
            seat: kind
            for seat, kind in self.wanted_bots.items()
            if seats[seat] is None
            and self._unfunded_at.get(seat) != hand
            and seat not in self.leaving
        }

    def replace_bots(self) -> None:
        """Seats a bot in each of :meth:`bots_missing` (in the change being made); a
        seat the room cannot fill is noted with why, and tried again after the next
        hand."""
        assert self.seat_bot is not None
        for seat, kind in self.bots_missing().items():
            why = self.seat_bot(seat, kind)
            if why is None:
                self.unfunded.pop(seat, None)
                self._unfunded_at.pop(seat, None)
            else:
                self.unfunded[seat] = why
                self._unfunded_at[seat] = self.table.hand_number

    def _bot_leaves(self, seat: int) -> None:
        """The bot in ``seat`` leaves (no chips, no bankroll)."""
        self.table.leave(seat, now=self.table.now)
        self.bots.pop(seat)
        self._runner.bot_kinds.pop(seat)
        self._sat_out.discard(seat)
        self._runner.later(self.leaving.add(seat))
        self._runner.store_bots()
