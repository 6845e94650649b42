"""``doubleholdem double --hole CARDS --board CARDS [--point 0|1|2|CARD|auto] [--json]``:
a Double Hold'em hand resolved (RULES.md DH-2 to DH-6)."""

from __future__ import annotations

import argparse
from typing import Any

from doubleholdem import double
from doubleholdem.cards import CARD_NAMES, format_cards, parse_cards
from doubleholdem.cli.base import UsageError, add_json_option, point_word, print_result
from doubleholdem.cli.eval import hand_lines, hand_result
from doubleholdem.evaluate import describe, evaluate
from doubleholdem.point_card import point_error, point_index

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser("double", help="resolve a Double Hold'em hand")
    p.add_argument(
        "--hole", required=True, help='three hole cards in dealing order, e.g. "Kc Ks 6c"'
    )
    p.add_argument("--board", required=True, help="the five board cards")
    p.add_argument(
        "--point",
        default="auto",
        help="the point card: hole card 0, 1 or 2 in dealing order, the card itself "
        "(e.g. Ks) or auto (DH-6)",
    )
    add_json_option(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    hole = parse_cards(args.hole)
    point = point_index(hole, point_word(args.point)) if len(hole) == 3 else 0
    if point is None:
        raise UsageError(
            f"--point: cannot choose {point_error(hole, args.point)}", prog="doubleholdem double"
        )
    r = double.resolve(hole, point, args.board)  # refuses a hole or board that is wrong
    how = "automatic, DH-6" if args.point == "auto" else "given"
    result = hand_result(r.value, r.best_five)
    result.update(point=point, hand=r.hand, values=double.point_values(hole, args.board))
    card = CARD_NAMES[hole[point]]
    lines = [f"point:       {point} ({card}, {how})"]
    for number, pair in enumerate(_hands(hole, point), start=1):
        value = evaluate([*pair, *parse_cards(args.board)])
        lines.append(f"hand {number}:      {format_cards(pair)}  {describe(value)} ({value})")
    lines.append(f"hand:        {r.hand} (plays: the better of the two, DH-4)")
    lines.extend(hand_lines(result))
    cards = ", ".join(CARD_NAMES[c] for c in hole)
    values = " ".join(map(str, result["values"]))
    lines.append(f"values:      {values} (with point card {cards})")
    return print_result(args, result, lines)


def _hands(hole: list[int], point: int) -> list[list[int]]:
    """DH-3: the point card with the other card dealt first (hand 1), then with the
    card dealt last (hand 2)."""
    first, last = (hole[i] for i in range(3) if i != point)
    return [[hole[point], first], [hole[point], last]]
