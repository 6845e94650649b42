"""``doubleholdem point``: Double Hold'em, which point card to choose on the flop
(:func:`doubleholdem.double.advise_point`)."""

from __future__ import annotations

import argparse
from typing import Any

from doubleholdem.cli.base import add_run_options, print_result, seed_of
from doubleholdem.double import advise_point

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    """Registers ``doubleholdem point``."""
    p = subparsers.add_parser("point", help="Double Hold'em: which point card to choose")
    p.add_argument("--hole", required=True, help='three hole cards in dealing order, "Kc Ks 6c"')
    p.add_argument("--flop", required=True, help='the three flop cards, "Kd 6h 2s"')
    against = p.add_mutually_exclusive_group()
    against.add_argument("--opponents", type=int, help="this many random opponents (default: 1)")
    against.add_argument(
        "--against",
        help='opponents\' holes, comma-separated: "Ah Qd Jc, 9s 9d 2c" (default: random holes, '
        "as many as --opponents)",
    )
    p.add_argument(
        "--samples",
        type=int,
        help="Monte Carlo with this many samples (default: exact against known holes, "
        "else to a standard error of 0.001)",
    )
    add_run_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """``doubleholdem point``."""
    opponents: int | list[str] = 1 if args.opponents is None else args.opponents
    if args.against is not None:
        opponents = [hole.strip() for hole in args.against.split(",")]
    advice = advise_point(
        args.hole,
        args.flop,
        opponents,
        samples=args.samples,
        seed=seed_of(args),
        threads=args.threads,
    )
    result = {
        "choices": [vars(choice) for choice in advice.choices],
        "exact": advice.exact,
        "showdowns": advice.showdowns,
    }
    if not advice.exact:
        result["seed"] = args.seed
    how = "exact" if advice.exact else f"Monte Carlo, seed {args.seed}"
    lines = [f"best point card: {advice.best.card} ({how})"]
    for c in advice.choices:
        error = "" if c.stderr is None else f" ± {c.stderr:.4%}"
        lines.append(f"point {c.point} {c.card}  equity {c.equity:8.4%}{error}")
    return print_result(args, result, lines)
