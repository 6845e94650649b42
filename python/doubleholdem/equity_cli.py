"""``doubleholdem equity`` and ``doubleholdem point``: equities of hands and ranges, and
the Double Hold'em point-card advisor, from the command line."""

from __future__ import annotations

import argparse
from typing import Any

from doubleholdem.errors import InvalidHand

__all__ = ["add_parser", "add_point_parser"]


def _points(text: str | None) -> list[int | str] | None:
    if text is None:
        return None
    points: list[int | str] = []
    for word in text.split(","):
        word = word.strip()
        if word == "auto":
            points.append("auto")
        elif word in ("0", "1", "2"):
            points.append(int(word))
        else:
            raise InvalidHand(f"--points takes 0, 1, 2 or auto per player, not {word!r}")
    return points


def _add_run_options(p: Any) -> None:
    """The options both commands take: the Monte Carlo's seed, threads and JSON output."""
    p.add_argument("--seed", type=int, help="seed of the Monte Carlo (reproducible)")
    p.add_argument("--threads", type=int, help="threads (default: all cores)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def add_parser(subparsers: Any) -> None:
    """Registers ``doubleholdem equity``."""
    p = subparsers.add_parser("equity", help="each player's share of the pot")
    p.add_argument(
        "players", nargs="+", help='a hand or range per player, e.g. AhKh "QQ+,AKs" random'
    )
    p.add_argument("--board", default="", help='0, 3, 4 or 5 board cards, e.g. "Kh 8h 2c"')
    p.add_argument("--dead", default="", help="cards out of the deck")
    p.add_argument("--variant", choices=("texas", "double"), default="texas")
    p.add_argument("--points", help="Double Hold'em point per player: 0, 1, 2 or auto")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--exact", action="store_true", help="enumerate every deal")
    how.add_argument("--samples", type=int, help="Monte Carlo with this many samples")
    how.add_argument("--stderr", type=float, help="Monte Carlo to this standard error")
    _add_run_options(p)
    p.set_defaults(run=run_equity)


def run_equity(args: argparse.Namespace) -> int:
    """``doubleholdem equity``."""
    from doubleholdem.cli import print_result
    from doubleholdem.equity import calculate
    from doubleholdem.progress import ProgressBar

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
            seed=args.seed,
            threads=args.threads,
            progress=bar,
        )
    finally:
        bar.close()
    kind = "exact" if result.exact else "Monte Carlo"
    lines = [f"{result.showdowns:,} showdowns ({kind})"]
    width = max(len(p) for p in args.players)
    for i, player in enumerate(args.players):
        error = "" if result.stderr is None else f" ± {result.stderr[i]:.4%}"
        lines.append(
            f"{player:<{width}}  equity {result.equity[i]:8.4%}{error}  "
            f"win {result.win[i]:8.4%}  tie {result.tie[i]:8.4%}"
        )
    return print_result(args, result.as_json(), lines)


def add_point_parser(subparsers: Any) -> None:
    """Registers ``doubleholdem point``."""
    p = subparsers.add_parser("point", help="Double Hold'em: which point card to choose")
    p.add_argument("--hole", required=True, help='three hole cards in dealing order, "Kc Ks 6c"')
    p.add_argument("--flop", required=True, help='the three flop cards, "Kd 6h 2s"')
    against = p.add_mutually_exclusive_group()
    against.add_argument("--opponents", type=int, help="this many random opponents (default 1)")
    against.add_argument(
        "--against", help='opponents\' holes, comma-separated: "Ah Qd Jc, 9s 9d 2c"'
    )
    p.add_argument("--samples", type=int, help="Monte Carlo with this many samples")
    _add_run_options(p)
    p.set_defaults(run=run_point)


def run_point(args: argparse.Namespace) -> int:
    """``doubleholdem point``."""
    from doubleholdem.cli import print_result
    from doubleholdem.double import advise_point

    opponents: int | list[str] = 1 if args.opponents is None else args.opponents
    if args.against is not None:
        opponents = [hole.strip() for hole in args.against.split(",")]
    advice = advise_point(
        args.hole,
        args.flop,
        opponents,
        samples=args.samples,
        seed=args.seed,
        threads=args.threads,
    )
    result = {
        "choices": [vars(choice) for choice in advice.choices],
        "exact": advice.exact,
        "showdowns": advice.showdowns,
    }
    lines = [f"best point card: {advice.best.card} ({'exact' if advice.exact else 'Monte Carlo'})"]
    for c in advice.choices:
        error = "" if c.stderr is None else f" ± {c.stderr:.4%}"
        lines.append(f"point {c.point} {c.card}  equity {c.equity:8.4%}{error}")
    return print_result(args, result, lines)
