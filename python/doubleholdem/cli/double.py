"""``doubleholdem double --hole CARDS --board CARDS [--point 0|1|2|auto] [--json]``:
a Double Hold'em hand resolved (RULES.md DH-2 to DH-6)."""

from __future__ import annotations

import argparse
from typing import Any

from doubleholdem import double
from doubleholdem.cli.base import UsageError, print_result
from doubleholdem.cli.eval import hand_lines, hand_result

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser("double", help="resolve a Double Hold'em hand")
    p.add_argument(
        "--hole", required=True, help='three hole cards in dealing order, e.g. "Kc Ks 6c"'
    )
    p.add_argument("--board", required=True, help="the five board cards")
    p.add_argument("--point", default="auto", help="point card index 0, 1 or 2, or auto (DH-6)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.point == "auto":
        point = double.auto_point(args.hole)
    elif args.point in ("0", "1", "2"):
        point = int(args.point)
    else:
        raise UsageError(f"--point must be 0, 1, 2 or auto, not {args.point!r}")
    r = double.resolve(args.hole, point, args.board)
    result = hand_result(r.value, r.best_five)
    result.update(point=point, hand=r.hand, values=double.point_values(args.hole, args.board))
    lines = [f"point:       {point}", f"hand:        {r.hand}", *hand_lines(result)]
    lines.append(f"values:      {' '.join(map(str, result['values']))}")
    return print_result(args, result, lines)
