"""Betting decisions (RULES.md TH-4) and the options of the player to act: what
:meth:`Hand.legal_actions <doubleholdem.game.Hand.legal_actions>` returns and
:class:`~doubleholdem.errors.IllegalAction` carries.

The betting rules themselves (TH-5, TH-10 to TH-18: who acts, bet sizes, the cap, the
incomplete all-in rules) are the Rust core's (``rust/core/src/game/betting.rs``).

>>> from doubleholdem.game import GameConfig, Hand
>>> hand = Hand(GameConfig(stacks=(1000, 1000, 1000), small_blind=50, big_blind=100), seed=1)
>>> legal = hand.legal_actions()
>>> legal.call_amount, legal.min_raise_to, legal.max_raise_to
(100, 200, 1000)
>>> [action.value for action in legal.actions()]
['fold', 'call', 'raise', 'all_in']
"""

from __future__ import annotations

import enum
from typing import Any, NamedTuple

__all__ = ["Action", "LegalActions"]


class Action(str, enum.Enum):
    """A betting decision (TH-4). ``BET`` and ``RAISE`` take the total the player's wager
    in this round is raised *to*; ``ALL_IN`` wagers the whole stack, whether that is a
    call for less, a call, or a raise."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALL_IN = "all_in"


class LegalActions(NamedTuple):
    """What the player to act may do now.

    - ``seat``: who acts.
    - ``can_fold`` (only when facing a wager), ``can_check``.
    - ``call_amount``: chips a call puts in (less than the bet if it is all of the
      player's stack); 0 when there is nothing to call.
    - ``min_raise_to``, ``max_raise_to``: the range of totals a bet or raise may make
      the player's wager in this round; both ``None`` when betting or raising is not
      allowed. When the stack is short of a full raise, both are the all-in total.
    - ``all_in_to``: the player's total wager if they put in their whole stack.
    - ``is_bet``: True if nobody has wagered in this round yet (a wager is a bet).
    - ``bet``: what the player has already wagered in this round.
    - ``decision``: ``"bet"`` for a betting decision, ``"point"`` when the player must
      first choose a Double Hold'em point card (DH-5): then ``points`` lists the
      indices 0..2 of the hole cards to choose from and every betting option is off.
    """

    seat: int
    can_fold: bool
    can_check: bool
    call_amount: int
    min_raise_to: int | None
    max_raise_to: int | None
    all_in_to: int
    is_bet: bool
    bet: int
    decision: str = "bet"
    points: tuple[int, ...] = ()

    @property
    def can_call(self) -> bool:
        """True when there is a wager to call."""
        return self.call_amount > 0

    @property
    def can_raise(self) -> bool:
        """True when a bet or raise is allowed."""
        return self.min_raise_to is not None

    def actions(self) -> list[Action]:
        """The legal actions, in the order fold, check, call, bet/raise, all-in."""
        _, can_fold, can_check, call, low, high, all_in_to, is_bet, bet = self[:9]
        found = []
        if can_fold:
            found.append(_FOLD)
        if can_check:
            found.append(_CHECK)
        if call > 0:
            found.append(_CALL)
        if low is not None:
            found.append(_BET if is_bet else _RAISE)
        stack = all_in_to - bet
        if (stack > 0 and call == stack) or high == all_in_to:  # can_all_in
            found.append(_ALL_IN)
        return found

    @property
    def can_all_in(self) -> bool:
        """True when the whole stack may go in: as a call (for less, or exactly), or as
        a bet or raise within the allowed range."""
        return (self.stack > 0 and self.call_amount == self.stack) or (
            self.max_raise_to == self.all_in_to
        )

    @property
    def stack(self) -> int:
        """The chips the player has behind."""
        return self.all_in_to - self.bet

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "seat": self.seat,
            "can_fold": self.can_fold,
            "can_check": self.can_check,
            "call_amount": self.call_amount,
            "min_raise_to": self.min_raise_to,
            "max_raise_to": self.max_raise_to,
            "all_in_to": self.all_in_to,
            "is_bet": self.is_bet,
            "bet": self.bet,
            "decision": self.decision,
            "points": list(self.points),
        }


_FOLD, _CHECK, _CALL, _BET, _RAISE, _ALL_IN = Action
