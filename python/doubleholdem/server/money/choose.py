"""The one place a room's kind of money is chosen
(:class:`~doubleholdem.server.money.table_money.RoomMoney`): play chips for guests, the
ledger in the room's own database, or an embedding server's own wallet. Everything else
asks the chosen money, never which kind it is."""

from __future__ import annotations

from doubleholdem.accounts.wallet import LedgerWallet, Wallet
from doubleholdem.server.money.ledger_money import LedgerMoney
from doubleholdem.server.money.play_chips import GuestMoney
from doubleholdem.server.money.table_money import RoomMoney
from doubleholdem.server.money.wallet_money import WalletMoney
from doubleholdem.server.storage.storage import Storage

__all__ = ["room_money"]


def room_money(store: Storage, *, guests: bool, wallet: Wallet | None = None) -> RoomMoney:
    """The money of a room on ``store``: play chips if it takes ``guests`` (no wallet
    is made); else ``wallet``, by default the ledger in the room's own database (a
    :class:`~doubleholdem.accounts.wallet.LedgerWallet` handed in is that ledger too,
    written in the room's transactions); any other wallet is outside the database."""
    if guests:
        return GuestMoney()
    if wallet is None or isinstance(wallet, LedgerWallet):
        return LedgerMoney(store, wallet)
    return WalletMoney(wallet)
