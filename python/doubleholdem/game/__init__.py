"""The rules of play, in Python: settings (:mod:`.config`), a betting round
(:mod:`.betting`), pots (:mod:`.pots`), one hand from the blinds to the last chip
(:mod:`.hand`), hand histories (:mod:`.phh`) and the words of play (:mod:`.words`). Hand
values come from the Rust core.

>>> from doubleholdem.game import GameConfig, Hand
>>> hand = Hand(GameConfig(stacks=(200, 200), small_blind=1, big_blind=2), seed=3)
>>> hand.act("fold")
Event(seq=4, kind='fold', seat=0)
>>> hand.stacks
[199, 201]
"""

from doubleholdem.game.betting import Action, LegalActions
from doubleholdem.game.config import (
    AnteType,
    GameConfig,
    GameRules,
    Rake,
    Structure,
    Variant,
    limit_blinds,
)
from doubleholdem.game.hand import STREETS, Event, Hand, stacked_deck
from doubleholdem.game.snapshot import play_through

__all__ = [
    "STREETS",
    "Action",
    "AnteType",
    "Event",
    "GameConfig",
    "GameRules",
    "Hand",
    "LegalActions",
    "Rake",
    "Structure",
    "Variant",
    "limit_blinds",
    "play_through",
    "stacked_deck",
]
