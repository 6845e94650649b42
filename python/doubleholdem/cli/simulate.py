"""``doubleholdem simulate``: bots against each other at one table
(:mod:`doubleholdem.table.simulate`)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from doubleholdem.cli.base import (
    add_bots_run_options,
    add_structure_option,
    add_variant_option,
    bots_of,
    no_collections,
    seed_of,
)
from doubleholdem.progress import ProgressBar
from doubleholdem.table.simulate import DEFAULT_BOTS, simulate

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    """Registers ``doubleholdem simulate``."""
    p = subparsers.add_parser("simulate", help="bots against each other at one table")
    add_variant_option(p, default="double")
    add_structure_option(p, default="fixed-limit")
    p.add_argument("--players", type=int, default=6, help="seats, 2 to 10")
    p.add_argument("--hands", type=int, default=10_000, help="hands to play")
    add_bots_run_options(p, "the deals and the bots", DEFAULT_BOTS, "seats")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """``doubleholdem simulate``."""
    bots = bots_of(args)
    bar = ProgressBar(f"simulate: {args.hands:,} hands")
    try:
        with no_collections():
            result = simulate(
                players=args.players,
                hands=args.hands,
                seed=seed_of(args),
                variant=args.variant,
                structure=args.structure,
                bots=bots,
                progress=bar,
            )
    finally:
        bar.close()
    if args.json:
        print(json.dumps(result.to_dict()))
        return 0
    print(f"{result.variant} {result.structure}: {result.hands:,} hands, seed {result.seed}")
    print(f"{'seat':>4}  {'bot':8} {'net chips':>12} {'bb/100':>9}")
    for seat in result.seats:
        print(f"{seat.seat:>4}  {seat.bot:8} {seat.net:>12,} {seat.bb_per_100:>9.2f}")
    print(f"hands played {result.hands:,}, {result.hands_per_second:,.0f} hands/s")
    return 0
