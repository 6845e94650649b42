"""Heads Up Hold'em, the casino game (RULES.md HU-1 to HU-11): pay tables as data, a
round and its settlement, the advice, the exact analysis, side bets and simulation
(:mod:`.game`), and the ``doubleholdem casino`` command (:mod:`.cli`)."""

from doubleholdem.casino import game
from doubleholdem.casino.game import *  # noqa: F403 (the casino's API is game's)

__all__ = game.__all__
