"""The words of play, defined once: what a player may decide, the kinds of decision a
seat is asked for, and the time running out. The betting actions are also
:class:`~doubleholdem.game.Action`'s values; every module that writes or reads one of
these words (the hand, PHH, the table, the bots, the server's protocol) takes it from
here. Plain strings, not enum members: they are compared on every decision, and a module
constant is the fastest name for them. The list of every event kind and what its
fields mean is in ``docs/events.md``.

>>> ACTIONS
('fold', 'check', 'call', 'bet', 'raise', 'all_in', 'point')
>>> DECISIONS
('bet', 'point')
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "ACTIONS",
    "ALL_IN",
    "BET",
    "BETTING_ACTIONS",
    "CALL",
    "CHECK",
    "DECISIONS",
    "FOLD",
    "KILL",
    "POINT",
    "RAISE",
    "TIMEOUT",
]

FOLD: Final = "fold"
CHECK: Final = "check"
CALL: Final = "call"
BET: Final = "bet"
"""A bet (the first wager of a round), and the kind of a betting decision."""
RAISE: Final = "raise"
ALL_IN: Final = "all_in"
"""The whole stack: a call for less, a call, a bet or a raise, whichever it makes."""
POINT: Final = "point"
"""A Double Hold'em point card (DH-2, DH-5): the decision, the answer and its event."""
TIMEOUT: Final = "timeout"
"""The clock ran out (TH-40): the table checks or folds for the player (its event)."""
KILL: Final = "kill"
"""A hand killed, dead (TH-24; an absent player's, TRN-21): out of the hand as by a fold,
its chips left in the pot; not a player's decision but the rules' (its event)."""

BETTING_ACTIONS: Final = (FOLD, CHECK, CALL, BET, RAISE, ALL_IN)
"""The betting actions (TH-4); ``bet`` and ``raise`` take the total wager *to*."""
ACTIONS: Final = (*BETTING_ACTIONS, POINT)
"""Everything a player may answer a decision with."""
DECISIONS: Final = (BET, POINT)
"""The kinds of decision a seat is asked for: a betting decision, or a point card."""
