"""An account room's money: the double-entry ledger in the room's own database
(:class:`~doubleholdem.accounts.wallet.LedgerWallet`), written inside the room's own
transactions.

- A **buy-in** or a **top-up** may be refused (not enough balance, a frozen account): it
  is paid at once, inside the next commit's transaction
  (:meth:`GroupCommit.paying <doubleholdem.server.storage.commit.GroupCommit.paying>`),
  together with the table change it pays for; if either is refused, neither happens.
  The group commit then commits both, or, if the commit fails, rolls both back.
- A **cash-out** and a hand's **rake** are never refused: posted to the ledger in the
  commit of their change (:meth:`~doubleholdem.server.money.paid_seats.PaidSeats.settle`).
- A bot's account is made with a bankroll from the house, and a bot whose bankroll
  cannot buy in gets a new one while the house's balance stays above the room's limit.
- A table stored before the ledger existed: its chips are entered as the house's (an
  ``opening`` transaction) and each seat of that time gives its chips back to the house
  as it leaves (``closing``).

Each movement of a table's chips is written under the table's lease
(:meth:`Fence.writes <doubleholdem.server.cluster.fencing.Fence.writes>`; a buy-in's
through :meth:`GroupCommit.paying`), which a room in PostgreSQL declares to the
database's fencing triggers."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from doubleholdem.accounts import ledger
from doubleholdem.accounts.accounts import create_bot, get_account
from doubleholdem.accounts.wallet import LedgerWallet, Reason
from doubleholdem.errors import UnknownAccount
from doubleholdem.server.money.paid_seats import PaidSeats
from doubleholdem.server.money.table_money import RoomMoney
from doubleholdem.server.money.wallet_calls import WalletCall
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage.commit import GroupCommit
from doubleholdem.server.storage.storage import Storage
from doubleholdem.table import Table
from doubleholdem.wording import Wording, for_people, seat_said

__all__ = ["LedgerMoney", "LedgerTableMoney"]


class LedgerTableMoney(PaidSeats):
    """The ledger's money at one table (see :class:`PaidSeats
    <doubleholdem.server.money.paid_seats.PaidSeats>`); ``house_limit``: how far below
    zero the house's balance may go funding bots (``None``: no bound)."""

    wallet: LedgerWallet

    def __init__(
        self,
        table_id: int,
        wallet: LedgerWallet,
        store: Storage,
        commit: GroupCommit,
        *,
        house_limit: int | None = None,
    ) -> None:
        super().__init__(table_id, wallet, store, commit)
        self.house_limit = house_limit

    @contextlib.contextmanager
    def _paid(
        self, owner: str, amount: int, key: str, reason: Reason, paid: WalletCall | None
    ) -> Iterator[None]:
        with self.commit.paying(self.table_id):
            self.wallet.debit(owner, self.table_id, amount, key=key, reason=reason)
            yield

    def pay(self, store: Storage, call: WalletCall) -> None:
        """A cash-out or a rake, posted to the ledger in the commit's transaction."""
        store.fencing.writes(store.db, self.table_id)  # the table's money: under its lease
        if call.method == "credit":
            self.wallet.credit(call.owner, self.table_id, call.amount, key=call.key)
        else:
            self.wallet.rake(self.table_id, call.amount, key=call.key)

    def legacy_cash_out(self, store: Storage, key: str, amount: int) -> None:
        """Seated before the ledger: its chips were the house's, and go back to it."""
        store.fencing.writes(store.db, self.table_id)
        source = ledger.table(self.table_id)
        ledger.transfer(store.db, key, "closing", source, ledger.HOUSE, amount)

    def enter_legacy(self, chips: int) -> None:
        """The chips of a table older than the ledger are entered as the house's."""
        if chips:
            self.store.fencing.writes(self.store.db, self.table_id)
            target = ledger.table(self.table_id)
            key = f"opening:{self.table_id}"
            ledger.transfer(self.store.db, key, "opening", ledger.HOUSE, target, chips)

    def open_bot_account(self, name: str, bankroll: int) -> None:
        """A new bot's account, with ``bankroll`` chips from the house (in the next
        commit's transaction, with the seat it is made for: its statements are one)."""
        try:
            get_account(self.store.db, name)
        except UnknownAccount:
            with self.commit.paying(self.table_id):
                create_bot(self.store.db, name, bankroll)

    def fund_bot(self, table: Table, seat: int, name: str, bankroll: int) -> str | None:
        """Gives bot ``name`` a new bankroll of ``bankroll`` chips from the house if its
        own cannot buy in at ``table`` (a new bot's account is made with one by
        :meth:`seat_bot`): ``None``, or why the house cannot (its limit)."""
        low = table.config.buy_in_range[0]
        db = self.store.db
        try:
            account = get_account(db, name)
        except UnknownAccount:
            account = None
        if account is not None and ledger.balance(db, ledger.bot(name)) >= low:
            return None
        limit = self.house_limit
        if limit is not None and ledger.balance(db, ledger.HOUSE) - bankroll < -limit:
            why = Wording("the house cannot fund bot ", seat_said(seat), f" (house limit {limit})")
            return for_people(why)
        if account is not None:
            key = f"bankroll:{account.id}:{self.name}:{table.next_occupancy}"
            with self.commit.paying(self.table_id):
                ledger.transfer(db, key, "bankroll", ledger.HOUSE, ledger.bot(name), bankroll)
        return None


class LedgerMoney(RoomMoney):
    """An account room paid by the ledger in ``store``'s database (through ``wallet``,
    by default a :class:`~doubleholdem.accounts.wallet.LedgerWallet` on the store's
    connection)."""

    kind = "ledger"
    wallet: LedgerWallet

    def __init__(self, store: Storage, wallet: LedgerWallet | None = None) -> None:
        self.wallet = LedgerWallet(store.db) if wallet is None else wallet

    def table(self, table_id: int, commit: GroupCommit, settings: RoomSettings) -> LedgerTableMoney:
        return LedgerTableMoney(
            table_id, self.wallet, commit.store, commit, house_limit=settings.house_limit
        )

    def write_off(self, store: Storage, table_id: int, problem: str) -> str:
        """In the ledger the table's chips go to the house and its seats end
        (:meth:`LedgerWallet.write_off <doubleholdem.accounts.wallet.LedgerWallet.write_off>`),
        under the key ``repair:TABLE:N``."""
        key = f"repair:{table_id}:{store.repairs(table_id)}"
        store.fencing.writes(store.db, table_id)
        chips = self.wallet.write_off(table_id, key=key, problem=problem)
        return f"; its {chips} chips went to the house (ledger: repair)" if chips else ""
