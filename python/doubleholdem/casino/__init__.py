"""Heads Up Hold'em, the casino game (RULES.md HU-1 to HU-11): pay tables as data
(:mod:`.rules`), a round, its settlement and the advice (:mod:`.round`), the strategy
shipped or cached for simulations (:mod:`.strategy`), the exact analysis, side bets and
simulation (:mod:`.analysis`), and the ``doubleholdem casino`` command."""

from doubleholdem.casino import game
from doubleholdem.casino.game import *  # noqa: F403 (the casino's public names, in one list)

__all__ = game.__all__
