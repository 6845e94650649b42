"""The casino game's settings (RULES.md HU-1 to HU-11): pay tables as data, the
:class:`Rules` of Heads Up Hold'em and of Ultimate Texas Hold'em, and the shipped
games by name (:data:`GAMES`).

>>> HEADS_UP.preflop_raises, ULTIMATE.preflop_raises
((3,), (4, 3))
>>> rules_of("ultimate") is ULTIMATE
True
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from doubleholdem import _core
from doubleholdem.errors import InvalidRules

__all__ = [
    "BAD_BEAT_TABLE",
    "GAMES",
    "HEADS_UP",
    "NO_BAD_BEAT",
    "ODDS_TABLE",
    "PAY_CLASS_NAMES",
    "POCKET_BONUS_TABLE",
    "SHOWDOWN_NAMES",
    "TRIPS_PLUS_TABLE",
    "ULTIMATE",
    "UTH_TRIPS_TABLE",
    "Pay",
    "PayTable",
    "Rules",
    "game_key",
    "rules_of",
]

Pay = tuple[int, int]
"""A payout ``(to, per)``: a win of ``to`` for every ``per`` staked (3:2 is ``(3, 2)``);
``(0, 1)`` is a push and ``(-1, 1)`` a loss."""
PayTable = tuple[Pay, ...]
"""Ten payouts by pay class: the nine categories (high card first) and the royal flush."""

PAY_CLASS_NAMES = (
    *_core.CATEGORY_NAMES,
    "Royal Flush",
)
SHOWDOWN_NAMES = (
    "win, dealer qualifies",
    "win, dealer does not qualify",
    "tie",
    "loss, dealer qualifies",
    "loss, dealer does not qualify",
)

LOSE: Pay = (-1, 1)
PUSH: Pay = (0, 1)
ODDS_TABLE: PayTable = (PUSH, PUSH, PUSH, PUSH, (1, 1), (3, 2), (3, 1), (10, 1), (50, 1), (500, 1))
"""HU-7: the Odds bet on a win (also the Ultimate Texas Hold'em Blind)."""
BAD_BEAT_TABLE: PayTable = (LOSE,) * 4 + ((4, 1), (5, 1), (6, 1), (25, 1), (500, 1), (500, 1))
"""HU-8: the Odds bet on a loss."""
NO_BAD_BEAT: PayTable = (LOSE,) * 10
"""The Ultimate Texas Hold'em Blind on a loss: always lost."""
TRIPS_PLUS_TABLE: PayTable = (LOSE,) * 3 + (
    (3, 1),
    (4, 1),
    (7, 1),
    (8, 1),
    (30, 1),
    (40, 1),
    (100, 1),
)
"""HU-9: Trips Plus."""
UTH_TRIPS_TABLE: PayTable = (LOSE,) * 3 + (
    (3, 1),
    (5, 1),
    (6, 1),
    (8, 1),
    (30, 1),
    (40, 1),
    (50, 1),
)
"""The Ultimate Texas Hold'em Trips bet (its common table: 50-40-30-8-6-5-3)."""
POCKET_BONUS_TABLE: tuple[Pay, Pay, Pay, Pay, Pay] = ((30, 1), (20, 1), (10, 1), (4, 1), LOSE)
"""HU-10: aces, ace with K/Q/J suited, ace with K/Q/J offsuit, other pair, anything else."""


@dataclass(frozen=True)
class Rules:
    """The settings of the game (HU-11); the defaults are RULES.md's Heads Up Hold'em.

    Raises are multiples of the Ante allowed at each decision; the river's other option
    is folding. ``second_bet`` and ``trips_name`` only name the bets.
    """

    name: str = "Heads Up Hold'em"
    preflop_raises: tuple[int, ...] = (3,)
    flop_raises: tuple[int, ...] = (2,)
    river_raises: tuple[int, ...] = (1,)
    qualifying_category: int = 1
    odds_win: PayTable = ODDS_TABLE
    odds_loss: PayTable = BAD_BEAT_TABLE
    trips: PayTable = TRIPS_PLUS_TABLE
    pocket_bonus: tuple[Pay, Pay, Pay, Pay, Pay] = POCKET_BONUS_TABLE
    second_bet: str = "Odds"
    trips_name: str = "Trips Plus"

    def core(self) -> _core.CasinoRules:
        """The checked Rust settings (:class:`InvalidRules` if they cannot be played)."""
        return _core_rules(self)

    def settings_key(self) -> tuple[Any, ...]:
        """Everything that changes the game's numbers (not the names)."""
        return (
            self.preflop_raises,
            self.flop_raises,
            self.river_raises,
            self.qualifying_category,
            self.odds_win,
            self.odds_loss,
            self.trips,
            self.pocket_bonus,
        )


@functools.lru_cache(maxsize=16)
def _core_rules(rules: Rules) -> _core.CasinoRules:
    try:
        return _core.CasinoRules(
            preflop_raises=list(rules.preflop_raises),
            flop_raises=list(rules.flop_raises),
            river_raises=list(rules.river_raises),
            qualifying_category=rules.qualifying_category,
            odds_win=list(rules.odds_win),
            odds_loss=list(rules.odds_loss),
            trips=list(rules.trips),
            pocket_bonus=list(rules.pocket_bonus),
        )
    except (TypeError, OverflowError) as error:
        raise InvalidRules(f"bad casino settings: {error}") from error


HEADS_UP = Rules()
"""Heads Up Hold'em with the RULES.md tables (HU-1 to HU-10)."""
ULTIMATE = Rules(
    name="Ultimate Texas Hold'em",
    preflop_raises=(4, 3),
    odds_loss=NO_BAD_BEAT,
    trips=UTH_TRIPS_TABLE,
    second_bet="Blind",
    trips_name="Trips",
)
"""Ultimate Texas Hold'em (HU-11): 4x or 3x pre-flop, a Blind without bad beat, Trips."""
GAMES = {"heads-up": HEADS_UP, "ultimate": ULTIMATE}


def rules_of(rules: object) -> Rules:
    """A :class:`Rules`, or the name of a game of :data:`GAMES`, as :class:`Rules`."""
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        if rules not in GAMES:
            raise InvalidRules(f"no game {rules!r}: choose {' or '.join(sorted(GAMES))}")
        return GAMES[rules]
    raise TypeError(f"rules must be a Rules or a game name, not {type(rules).__name__}")


def game_key(rules: Rules) -> str | None:
    """The name in :data:`GAMES` of a game with these settings (names aside), if any."""
    for key, game in GAMES.items():
        if game.settings_key() == rules.settings_key():
            return key
    return None
