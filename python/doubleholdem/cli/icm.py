"""``doubleholdem icm``: each player's equity in a tournament's prize pool from the chip
stacks (:mod:`doubleholdem.icm`), and deals."""

from __future__ import annotations

import argparse
from typing import Any

from doubleholdem.cli.base import UsageError, add_json_option, add_seed_option, print_result
from doubleholdem.icm import METHODS, chip_chop, equities, icm_deal
from doubleholdem.progress import ProgressBar

__all__ = ["add_parser", "run"]


def _amounts(text: str) -> list[int]:
    """Whole numbers separated by commas or spaces, as argparse's type."""
    words = text.replace(",", " ").split()
    try:
        return [int(w) for w in words]
    except ValueError:
        bad = next(w for w in words if not w.lstrip("-").isdigit())
        shown = bad if len(bad) <= 40 else f"a word of {len(bad)} characters"
        raise argparse.ArgumentTypeError(f"{shown} is not a whole number of chips") from None


def add_parser(subparsers: Any) -> None:
    """Registers ``doubleholdem icm``."""
    p = subparsers.add_parser(
        "icm",
        help="each player's equity in a tournament's prize pool (ICM), and deals",
        description="Each player's equity under the Independent Chip Model "
        "(Malmuth-Harville) from the chip stacks, in the order given. A zero stack is out: "
        "the players without chips share the places after the others.",
    )
    p.add_argument(
        "stacks", nargs="+", type=_amounts, help="each player's chips, e.g. 5000 3000 2000"
    )
    p.add_argument(
        "--payouts",
        type=_amounts,
        required=True,
        help='the prizes of the places still to be decided, first place first: "500,300,200"',
    )
    p.add_argument(
        "--method",
        choices=METHODS,
        help="exact, fractions, quadrature or montecarlo (default: exact when it is cheap, "
        "else the quadrature)",
    )
    p.add_argument("--samples", type=int, help="Monte Carlo samples (default: 100,000)")
    p.add_argument(
        "--deal",
        choices=("icm", "chop"),
        help="also deal the pool now: by ICM or a chip chop (default: no deal)",
    )
    p.add_argument(
        "--left",
        type=int,
        default=0,
        help="chips left to play for in a deal (default: 0, all dealt)",
    )
    add_seed_option(p, "the Monte Carlo")
    add_json_option(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """``doubleholdem icm``."""
    stacks = [s for group in args.stacks for s in group]
    if args.left and not args.deal:
        raise UsageError("doubleholdem icm: --left is for a deal (--deal icm or --deal chop)")
    bar = ProgressBar("icm")
    try:
        result = equities(
            stacks, args.payouts, args.method, samples=args.samples, seed=args.seed, progress=bar
        )
    finally:
        bar.close()
    out: dict[str, Any] = {"stacks": stacks, "payouts": args.payouts, **result.as_json()}
    total = sum(stacks)
    width = len(f"{max(stacks):,}")
    lines = [f"{result.method}: {result.reason}"]
    if result.error and result.stderr is None:
        lines.append(f"estimated error over all players: {result.error:.2e}")
    for i, (stack, equity) in enumerate(zip(stacks, result)):
        error = "" if result.stderr is None else f" ± {result.stderr[i]:.4f}"
        lines.append(
            f"player {i + 1:>3}  stack {stack:>{width},} ({stack / total:7.2%})  "
            f"equity {equity:14.4f}{error}"
        )
    if args.deal:
        deal = (icm_deal if args.deal == "icm" else chip_chop)(stacks, args.payouts, args.left)
        out["deal"] = deal.as_json()
        left = f", {deal.left:,} left to play for" if deal.left else ""
        lines.append(f"deal ({deal.kind}{left}): " + ", ".join(f"{a:,}" for a in deal.amounts))
    return print_result(args, out, lines)
