"""``doubleholdem eval CARDS... [--json]``: the value of 5, 6 or 7 cards."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from doubleholdem.cards import format_cards
from doubleholdem.cli.base import print_result
from doubleholdem.evaluate import best_five, category_of, describe, evaluate

__all__ = ["add_parser", "hand_lines", "hand_result", "run"]


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser("eval", help="evaluate 5, 6 or 7 cards")
    p.add_argument("cards", nargs="+", help="cards, e.g. As Ks Qs Js Ts 2c 3d")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def hand_result(value: int, five: Sequence[int]) -> dict[str, Any]:
    return {
        "value": value,
        "category": category_of(value).label,
        "description": describe(value),
        "best_five": format_cards(five).split(),
    }


def run(args: argparse.Namespace) -> int:
    cards = " ".join(args.cards)
    result = hand_result(evaluate(cards), best_five(cards))
    return print_result(args, result, hand_lines(result))


def hand_lines(result: dict[str, Any]) -> list[str]:
    return [
        f"value:       {result['value']}",
        f"category:    {result['category']}",
        f"description: {result['description']}",
        f"best five:   {' '.join(result['best_five'])}",
    ]
