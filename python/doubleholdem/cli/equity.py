"""``doubleholdem equity``: each player's share of the pot, for hands and ranges
(:mod:`doubleholdem.equity`)."""

from __future__ import annotations

import argparse
from typing import Any

from doubleholdem.cli.base import (
    add_run_options,
    add_variant_option,
    point_word,
    print_result,
    seed_of,
)
from doubleholdem.equity import calculate
from doubleholdem.progress import ProgressBar

__all__ = ["add_parser", "run"]


def _points(text: str | None) -> list[int | str] | None:
    """``--points``: one point per player, comma-separated (checked by ``calculate``)."""
    return None if text is None else [point_word(word.strip()) for word in text.split(",")]


def add_parser(subparsers: Any) -> None:
    """Registers ``doubleholdem equity``."""
    p = subparsers.add_parser("equity", help="each player's share of the pot")
    p.add_argument(
        "players", nargs="+", help='a hand or range per player, e.g. AhKh "QQ+,AKs" random'
    )
    p.add_argument(
        "--board", default="", help='0, 3, 4 or 5 board cards, e.g. "Kh 8h 2c" (default: none)'
    )
    p.add_argument("--dead", default="", help="cards out of the deck (default: none)")
    add_variant_option(p)
    p.add_argument(
        "--points",
        help="Double Hold'em point card per player, comma-separated: 0, 1, 2 (a hole card "
        "in dealing order), the card itself (e.g. Kh) or auto (DH-6) (default: auto for "
        "every player)",
    )
    how = p.add_mutually_exclusive_group()
    how.add_argument("--exact", action="store_true", help="enumerate every deal")
    how.add_argument(
        "--samples",
        type=int,
        help="Monte Carlo with this many samples (default: exact when it is cheap, else "
        "Monte Carlo)",
    )
    how.add_argument(
        "--stderr", type=float, help="Monte Carlo to this standard error (default: none)"
    )
    add_run_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """``doubleholdem equity``."""
    bar = ProgressBar("equity")
    try:
        result = calculate(
            args.players,
            args.board,
            args.dead,
            variant=args.variant,
            points=_points(args.points),
            exact=True if args.exact else None,
            samples=args.samples,
            stderr=args.stderr,
            seed=seed_of(args),
            threads=args.threads,
            progress=bar,
        )
    finally:
        bar.close()
    kind = "exact" if result.exact else f"Monte Carlo, seed {args.seed}"
    lines = [f"{result.showdowns:,} showdowns ({kind})", f"why: {result.reason}"]
    width = max(len(p) for p in args.players)
    for i, player in enumerate(args.players):
        error = "" if result.stderr is None else f" ± {result.stderr[i]:.4%}"
        lines.append(
            f"{player:<{width}}  equity {result.equity[i]:8.4%}{error}  "
            f"win {result.win[i]:8.4%}  tie {result.tie[i]:8.4%}"
        )
    seed = {} if result.exact else {"seed": args.seed}  # an exact answer has no chance in it
    return print_result(args, {**result.as_json(), **seed}, lines)
