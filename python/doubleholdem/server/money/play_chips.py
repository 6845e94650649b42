"""A guest room's money: play chips, from nowhere and to nowhere. Anyone sits under a
chosen name with the buy-in it asks for (within the table's range), tops up as it
likes, and takes nothing away; no ledger, no wallet, no record of chips (the audit says
so: :func:`~doubleholdem.server.money.money.unchecked_tables`)."""

from __future__ import annotations

from doubleholdem.server.money.table_money import RoomMoney, TableMoney
from doubleholdem.server.money.wallet_calls import WalletCall
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage.commit import GroupCommit, Step
from doubleholdem.server.storage.storage import Storage
from doubleholdem.table import Table
from doubleholdem.table.entries import Entry

__all__ = ["GuestMoney", "PlayChips"]


class PlayChips(TableMoney):
    """The play chips of table ``table_id``."""

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        self.name = str(table_id)

    def buy_in(
        self,
        table: Table,
        seat: int,
        owner: str,
        amount: int,
        *,
        now: float | None = None,
        stranger: bool = False,
        paid: WalletCall | None = None,
    ) -> None:
        table.join(seat, owner, amount, now=now, stranger=stranger)

    def top_up(
        self,
        table: Table,
        seat: int,
        amount: int,
        *,
        now: float | None = None,
        paid: WalletCall | None = None,
    ) -> None:
        table.top_up(seat, amount, now=now)

    def settle(self, entries: list[Entry]) -> list[Step]:
        return []  # the chips go nowhere

    def seat_bot(self, table: Table, seat: int, name: str, bankroll: int, now: float) -> bool:
        table.join(seat, name, table.config.buy_in_range[1], now=now)
        return True

    def bankroll(self, owner: str, want: int) -> int:
        return want


class GuestMoney(RoomMoney):
    """A guest room: each table's money is play chips."""

    kind = "guests"
    wallet = None

    def table(self, table_id: int, commit: GroupCommit, settings: RoomSettings) -> PlayChips:
        return PlayChips(table_id)

    def write_off(self, store: Storage, table_id: int, problem: str) -> str:
        return ""  # play chips: nothing to settle
