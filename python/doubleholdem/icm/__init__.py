"""The Independent Chip Model: each player's equity in a tournament's prize pool from
the chip stacks (:mod:`~doubleholdem.icm.model`), deals among the players left
(:mod:`~doubleholdem.icm.deals`), and the ICM value of calling an all-in
(:mod:`~doubleholdem.icm.allin`). The computations run in the Rust core."""

from __future__ import annotations

from doubleholdem.icm.allin import AllIn, allin
from doubleholdem.icm.deals import Deal, chip_chop, icm_deal
from doubleholdem.icm.model import METHODS, Equities, choose_method, equities, places

__all__ = [
    "METHODS",
    "AllIn",
    "Deal",
    "Equities",
    "allin",
    "chip_chop",
    "choose_method",
    "equities",
    "icm_deal",
    "places",
]
