"""doubleholdem: Texas Hold'em, Double Hold'em and Heads Up Hold'em, with a Rust core.

>>> import doubleholdem
>>> doubleholdem.describe(doubleholdem.evaluate("Kc Kd Ks 7h 7s 2c 3d"))
'Full House, Kings full of Sevens'
"""

import os
from typing import TYPE_CHECKING

from doubleholdem import _core, cards, double, errors
from doubleholdem.cards import Deck, format_card, format_cards, parse_card, parse_cards
from doubleholdem.errors import (
    DoubleHoldemError,
    DuplicateCard,
    InvalidCard,
    InvalidHand,
    InvalidValue,
)
from doubleholdem.evaluate import MAX_THREADS as MAX_THREADS
from doubleholdem.evaluate import (
    Category,
    CategoryCounts,
    best_five,
    category_counts,
    category_of,
    describe,
    evaluate,
    evaluate_batch,
    random_hands,
)

if hasattr(os, "register_at_fork"):
    # A forked child has none of the parent's worker threads: give it pools of its own.
    # The pool cache is locked across the fork, so no other thread holds it then.
    os.register_at_fork(
        before=_core.before_fork,
        after_in_parent=_core.after_fork_in_parent,
        after_in_child=_core.after_fork_in_child,
    )

__all__ = [
    "MAX_THREADS",
    "Category",
    "CategoryCounts",
    "Deck",
    "DoubleHoldemError",
    "DuplicateCard",
    "InvalidCard",
    "InvalidHand",
    "InvalidValue",
    "__version__",
    "best_five",
    "cards",
    "category_counts",
    "category_of",
    "describe",
    "double",
    "errors",
    "evaluate",
    "evaluate_batch",
    "format_card",
    "format_cards",
    "parse_card",
    "parse_cards",
    "random_hands",
]

if TYPE_CHECKING:
    __version__: str
else:

    def __getattr__(name: str) -> str:
        """``__version__``, the installed distribution's version, read when first asked
        for: importlib.metadata costs more to import than the rest of the package."""
        if name != "__version__":
            raise AttributeError(f"module 'doubleholdem' has no attribute {name!r}")
        from importlib.metadata import version

        value: str = version("doubleholdem")
        globals()["__version__"] = value
        return value
