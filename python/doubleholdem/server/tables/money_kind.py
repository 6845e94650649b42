"""The kind of money a room's database holds at its tables (play chips, the built-in
ledger, an embedding server's wallet: :data:`~doubleholdem.server.storage.database.MONEY_KINDS`),
checked as a room opens it: a room refuses a database whose tables hold seats of
another kind (:class:`MoneyKindMismatch`)."""

from __future__ import annotations

from collections.abc import Sequence

from doubleholdem.errors import InvalidConfig
from doubleholdem.server.storage.storage import Storage
from doubleholdem.table import Table

__all__ = ["MoneyKindMismatch", "check_money_kind"]


class MoneyKindMismatch(InvalidConfig):
    """A room refused a database whose tables hold seats of another kind of money than
    the room pays with (cashed out, their chips would be paid from one to the other):
    ``stored`` the database's kind, ``serving`` the room's (``"guests"``, ``"ledger"`` or
    ``"wallet"``), ``chips`` at its tables, in ``seats`` seats taken."""

    def __init__(
        self, message: str, *, stored: str, serving: str, chips: int, seats: int = 0
    ) -> None:
        field = "guests" if "guests" in (stored, serving) else "wallet"
        super().__init__(message, field=field)
        self.stored = stored
        self.serving = serving
        self.chips = chips
        self.seats = seats


# each kind of money: the room a database of that kind holds, what pays, how to serve it
_ROOMS = {
    "guests": "a guest room",
    "ledger": "an account room",
    "wallet": "a room paid through an embedding server's own wallet",
}
_PAID = {
    "guests": "play chips",
    "ledger": "the built-in ledger",
    "wallet": "an embedding server's own wallet",
}
_SERVE = {
    "guests": "serve it with --guests",
    "ledger": "serve it without --guests, with the built-in ledger",
    "wallet": "serve it from the embedding server, with its wallet",
}


def check_money_kind(store: Storage, kind: str, tables: Sequence[Table]) -> None:
    """Refuses to serve, with money of ``kind``, the database of ``store`` whose
    ``tables`` hold chips of another kind of money: a guest's play chips cashed out to
    an account, or an account's chips to an embedding server's wallet, would be money
    made from nothing; a seat of the other kind never cashed out, money lost; a seat
    with no chips left (a busted guest) would be cashed out to an account with no seat
    there. A room whose tables hold no seat may change kind (noted in the database)."""
    stored = store.money_kind()
    if stored not in (None, kind):
        chips = sum(table.chips() for table in tables)
        seats = sum(seat is not None for table in tables for seat in table.seats())
        if seats:
            taken = "1 seat taken" if seats == 1 else f"{seats} seats taken"
            raise MoneyKindMismatch(
                f"{store.path} holds {_ROOMS[stored]}, with {chips} chips at its "
                f"tables and {taken} (money kind {stored!r}); this room pays with money "
                f"kind {kind!r} ({_PAID[kind]}): {_SERVE[stored]}, or serve another "
                "database",
                stored=stored,
                serving=kind,
                chips=chips,
                seats=seats,
            )
    if stored != kind:
        store.set_money_kind(kind)
