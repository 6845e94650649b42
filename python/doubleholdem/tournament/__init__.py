"""Tournaments by the Poker TDA rules (RULES.md TRN): sit-and-go and multi-table, a
state machine over :mod:`doubleholdem.table` tables; blind structures, payouts, seating,
balancing and breaking, places and prizes, snapshots and a simulator of bots."""

from doubleholdem.tournament.config import Kind, Rebuys, TournamentConfig
from doubleholdem.tournament.payouts import DEFAULT_PAYOUTS, PayoutTable, prizes
from doubleholdem.tournament.structure import BlindStructure, Clocking, Level
from doubleholdem.tournament.tournament import (
    Entry,
    HandReport,
    Move,
    Placement,
    Result,
    Tournament,
)

__all__ = [
    "DEFAULT_PAYOUTS",
    "BlindStructure",
    "Clocking",
    "Entry",
    "HandReport",
    "Kind",
    "Level",
    "Move",
    "PayoutTable",
    "Placement",
    "Rebuys",
    "Result",
    "Tournament",
    "TournamentConfig",
    "prizes",
]
