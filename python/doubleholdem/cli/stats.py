"""``doubleholdem stats double``: exact Double Hold'em statistics
(:mod:`doubleholdem.double_stats`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from doubleholdem.cli.base import thread_count
from doubleholdem.double_stats import (
    DoubleStatistics,
    differences,
    shipped_statistics,
    statistics,
)
from doubleholdem.progress import ProgressBar

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    """Registers ``doubleholdem stats double``."""
    parser = subparsers.add_parser("stats", help="exact statistics")
    commands = parser.add_subparsers(dest="stats_command", required=True, parser_class=type(parser))
    double = commands.add_parser("double", help="Double Hold'em: automatic vs best point card")
    double.add_argument("--json", action="store_true", help="print one JSON object")
    double.add_argument("--classes", action="store_true", help="also list the 1,755 hole classes")
    double.add_argument(
        "--recompute",
        action="store_true",
        help="enumerate all deals again (minutes) and compare with the shipped figures",
    )
    double.add_argument(
        "--threads",
        type=thread_count,
        default=None,
        help="threads for --recompute (default: all cores)",
    )
    double.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """``doubleholdem stats double``: the shipped figures at once; with ``--recompute``
    the enumeration again, compared with them (exit 1 if they differ)."""
    stats = shipped_statistics()
    if args.recompute:
        bar = ProgressBar("Double Hold'em: all deals")
        try:
            fresh = statistics(threads=args.threads, progress=bar)
        finally:
            bar.close()
        changed = differences(stats, fresh)
        if changed:
            print("the recomputed figures differ from the shipped ones:", file=sys.stderr)
            for line in changed[:20]:
                print(f"  shipped != recomputed: {line}", file=sys.stderr)
            return 1
        stats = fresh
    if args.json:
        print(json.dumps(stats.as_json(classes=args.classes)))
        return 0
    share = stats.auto_best / stats.total
    how = "recomputed, equal to the shipped figures" if args.recompute else "shipped figures"
    print(
        f"{stats.total:,} deals ({how}); the automatic point card is a best choice in {share:.4%}"
    )
    print(f"{'category':16} {'automatic':>15} {'best':>15}")
    for name in stats.auto:
        print(f"{name:16} {stats.auto[name]:>15,} {stats.best[name]:>15,}")
    if args.classes:
        _print_classes(stats)
    return 0


def _print_classes(stats: DoubleStatistics) -> None:
    """``--classes`` as text: one line per hole class, the share of its deals in which
    the automatic point card, and each point card, is a best choice."""
    print()
    print(f"{len(stats.classes):,} hole classes (holes: how many holes the class holds)")
    heads = ("holes", 6), ("auto", 5), ("auto best", 10), ("0 best", 8), ("1 best", 8)
    print(f"{'hole':8} " + " ".join(f"{h:>{w}}" for h, w in heads) + f" {'2 best':>8}")
    for c in stats.classes:
        shares = " ".join(f"{best / c.deals:>8.2%}" for best in c.point_best)
        print(f"{c.hole:8} {c.weight:>6} {c.auto_point:>5} {c.auto_best / c.deals:>10.2%} {shares}")
