"""``doubleholdem stats double``: exact Double Hold'em statistics
(:mod:`doubleholdem.double_stats`)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from doubleholdem.cli.base import thread_count
from doubleholdem.double_stats import statistics
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
        "--threads", type=thread_count, default=None, help="threads (default: all cores)"
    )
    double.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """``doubleholdem stats double``."""
    bar = ProgressBar("Double Hold'em: all deals")
    try:
        stats = statistics(threads=args.threads, progress=bar)
    finally:
        bar.close()
    if args.json:
        print(json.dumps(stats.as_json(classes=args.classes)))
        return 0
    share = stats.auto_best / stats.total
    print(f"{stats.total:,} deals; the automatic point card is a best choice in {share:.4%}")
    print(f"{'category':16} {'automatic':>15} {'best':>15}")
    for name in stats.auto:
        print(f"{name:16} {stats.auto[name]:>15,} {stats.best[name]:>15,}")
    return 0
