"""The casino game's public API in one place, as before the split into
:mod:`~doubleholdem.casino.rules` (pay tables and settings),
:mod:`~doubleholdem.casino.round` (a round and its advice),
:mod:`~doubleholdem.casino.strategy` (the shipped and cached strategies) and
:mod:`~doubleholdem.casino.analysis` (the exact analysis and simulation). Kept so that
``doubleholdem.casino.game`` imports keep working; ``doubleholdem.casino`` re-exports
the same names."""

from __future__ import annotations

from doubleholdem.casino.analysis import (
    Analysis,
    ClassStrategy,
    Outcome,
    Simulation,
    analysis_chunk,
    analyze,
    optimal_strategy,
    ray_runner,
    side_bets,
    simulate,
)
from doubleholdem.casino.round import (
    MAX_STAKE,
    Advice,
    Round,
    Settlement,
    Stage,
    advise,
    starting_hand_class,
)
from doubleholdem.casino.rules import (
    BAD_BEAT_TABLE,
    GAMES,
    HEADS_UP,
    NO_BAD_BEAT,
    ODDS_TABLE,
    PAY_CLASS_NAMES,
    POCKET_BONUS_TABLE,
    TRIPS_PLUS_TABLE,
    ULTIMATE,
    UTH_TRIPS_TABLE,
    Pay,
    PayTable,
    Rules,
)
from doubleholdem.casino.strategy import Strategy, preflop_table, shipped_strategy

__all__ = [
    "BAD_BEAT_TABLE",
    "GAMES",
    "HEADS_UP",
    "MAX_STAKE",
    "NO_BAD_BEAT",
    "ODDS_TABLE",
    "PAY_CLASS_NAMES",
    "POCKET_BONUS_TABLE",
    "TRIPS_PLUS_TABLE",
    "ULTIMATE",
    "UTH_TRIPS_TABLE",
    "Advice",
    "Analysis",
    "ClassStrategy",
    "Outcome",
    "Pay",
    "PayTable",
    "Round",
    "Rules",
    "Settlement",
    "Simulation",
    "Stage",
    "Strategy",
    "advise",
    "analysis_chunk",
    "analyze",
    "optimal_strategy",
    "preflop_table",
    "ray_runner",
    "shipped_strategy",
    "side_bets",
    "simulate",
    "starting_hand_class",
]
