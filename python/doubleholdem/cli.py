"""The ``doubleholdem`` command line.

Each subcommand lives with the code it drives: a module exposes ``add_parser(subparsers)``
which registers its parser and sets ``run`` (a function of the parsed arguments that
returns the exit status). Bad input exits with status 2 and one line on stderr.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from doubleholdem.cards import format_cards
from doubleholdem.errors import DoubleHoldemError


class UsageError(DoubleHoldemError):
    """The command line itself is wrong."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def print_result(args: argparse.Namespace, result: dict[str, Any], lines: Sequence[str]) -> int:
    """Prints ``result`` as one JSON line with ``--json``, else the human ``lines``."""
    print(json.dumps(result) if args.json else "\n".join(lines))
    return 0


def _add_eval(subparsers: Any) -> None:
    p = subparsers.add_parser("eval", help="evaluate 5, 6 or 7 cards")
    p.add_argument("cards", nargs="+", help="cards, e.g. As Ks Qs Js Ts 2c 3d")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=_run_eval)


def _hand_result(value: int, five: Sequence[int]) -> dict[str, Any]:
    from doubleholdem.evaluate import category_of, describe

    return {
        "value": value,
        "category": category_of(value).label,
        "description": describe(value),
        "best_five": format_cards(five).split(),
    }


def _run_eval(args: argparse.Namespace) -> int:
    from doubleholdem.evaluate import best_five, evaluate

    cards = " ".join(args.cards)
    result = _hand_result(evaluate(cards), best_five(cards))
    return print_result(args, result, _hand_lines(result))


def _hand_lines(result: dict[str, Any]) -> list[str]:
    return [
        f"value:       {result['value']}",
        f"category:    {result['category']}",
        f"description: {result['description']}",
        f"best five:   {' '.join(result['best_five'])}",
    ]


def _add_double(subparsers: Any) -> None:
    p = subparsers.add_parser("double", help="resolve a Double Hold'em hand")
    p.add_argument(
        "--hole", required=True, help='three hole cards in dealing order, e.g. "Kc Ks 6c"'
    )
    p.add_argument("--board", required=True, help="the five board cards")
    p.add_argument("--point", default="auto", help="point card index 0, 1 or 2, or auto (DH-6)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=_run_double)


def _run_double(args: argparse.Namespace) -> int:
    from doubleholdem import double

    if args.point == "auto":
        point = double.auto_point(args.hole)
    elif args.point in ("0", "1", "2"):
        point = int(args.point)
    else:
        raise UsageError(f"--point must be 0, 1, 2 or auto, not {args.point!r}")
    r = double.resolve(args.hole, point, args.board)
    result = _hand_result(r.value, r.best_five)
    result.update(point=point, hand=r.hand, values=double.point_values(args.hole, args.board))
    lines = [f"point:       {point}", f"hand:        {r.hand}", *_hand_lines(result)]
    lines.append(f"values:      {' '.join(map(str, result['values']))}")
    return print_result(args, result, lines)


# Each subcommand and the module that registers it, imported only when it is needed
# (``doubleholdem replay`` does not load the casino, the table or the bots).
COMMANDS = {
    "eval": "",
    "double": "",
    "replay": "doubleholdem.game.phh",
    "casino": "doubleholdem.casino.cli",
    "stats": "doubleholdem.double_stats",
    "simulate": "doubleholdem.table.simulate",
    "serve": "doubleholdem.server.cli",
    "loadtest": "doubleholdem.server.loadtest",
    "equity": "doubleholdem.equity_cli",
    "point": "doubleholdem.equity_cli:add_point_parser",
}


def _adder(command: str) -> Callable[[Any], None]:
    if command == "eval":
        return _add_eval
    if command == "double":
        return _add_double
    module, _, function = COMMANDS[command].partition(":")
    add: Callable[[Any], None] = getattr(importlib.import_module(module), function or "add_parser")
    return add


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand, or with ``command`` of that one alone."""
    parser = _Parser(prog="doubleholdem", description=__doc__.split("\n")[0] if __doc__ else None)
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name in [command] if command in COMMANDS else COMMANDS:
        _adder(name)(subparsers)
    return parser


def thread_count(text: str) -> int:
    """The argparse type of ``--threads``: a whole number from 1 to
    :data:`doubleholdem.MAX_THREADS`, checked before any work starts."""
    from doubleholdem.evaluate import MAX_THREADS

    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_THREADS:
        shown = text if len(text) <= 40 else f"a number of {len(text)} characters"
        raise argparse.ArgumentTypeError(
            f"threads must be a whole number from 1 to {MAX_THREADS}, not {shown}"
        )
    return value


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 500 else text[:500] + "..."


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status: 0, 2 for bad input (one line on
    stderr, never a traceback), 130 after Ctrl-C, 1 for an internal error (one line
    too; ``DOUBLEHOLDEM_TRACEBACK=1`` shows its traceback)."""
    try:
        words = sys.argv[1:] if argv is None else list(argv)
        args = build_parser(words[0] if words else None).parse_args(words)
        status: int = args.run(args)
        return status
    except (DoubleHoldemError, ValueError, TypeError, OverflowError) as error:
        print(f"doubleholdem: error: {_one_line(error)}", file=sys.stderr)
        return 2
    except RecursionError:
        print("doubleholdem: error: the input is nested too deeply", file=sys.stderr)
        return 2
    except MemoryError:
        print("doubleholdem: error: out of memory", file=sys.stderr)
        return 2
    except OSError as error:
        where = f"{error.filename}: " if error.filename else ""
        reason = error.strerror or _one_line(error)
        print(f"doubleholdem: error: {where}{reason}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("doubleholdem: interrupted", file=sys.stderr)
        return 130
    except Exception as error:
        if os.environ.get("DOUBLEHOLDEM_TRACEBACK"):
            raise
        name = type(error).__name__
        print(
            f"doubleholdem: internal error: {name}: {_one_line(error)} (please report it)",
            file=sys.stderr,
        )
        return 1


def entry_point() -> None:
    """The console script: exits with :func:`main`'s status."""
    sys.exit(main())


if __name__ == "__main__":
    entry_point()
