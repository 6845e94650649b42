"""The steps of a group commit that move money in the room's own ledger (a cash-out, a
rake: :class:`MoneyStep`) run after every other step of their commit
(:func:`money_last`), so that the ledger's lock, which the first movement takes and the
``COMMIT`` releases (PostgreSQL: :func:`~doubleholdem.database.connection.serialise`),
is held for the movements and the commit's flush only, not while the batch's tables are
written: another process's money commit waits that much less. The same transaction
either way: the order changes nothing that is committed."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from doubleholdem.server.storage.storage import Storage

__all__ = ["MoneyStep", "money_last"]

_S = TypeVar("_S")


class MoneyStep:
    """A step (a function of the storage) that moves money in the ledger."""

    __slots__ = ("step",)

    def __init__(self, step: Callable[[Storage], None]) -> None:
        self.step = step

    def __call__(self, store: Storage) -> None:
        self.step(store)


def _moves_money(step: object) -> bool:
    """Whether ``step`` is a :class:`MoneyStep`, alone or as a table's step (its
    ``step``)."""
    return isinstance(step, MoneyStep) or isinstance(getattr(step, "step", None), MoneyStep)


def money_last(steps: list[_S]) -> list[_S]:
    """``steps`` in their order, those that move money last."""
    money = [s for s in steps if _moves_money(s)]
    if not money:
        return steps
    return [s for s in steps if not _moves_money(s)] + money
