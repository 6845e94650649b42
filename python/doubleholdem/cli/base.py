"""What every command shares: the parser class whose errors are one line, JSON or
human output, and the ``--threads`` type."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any, NoReturn

from doubleholdem.errors import DoubleHoldemError

__all__ = [
    "Parser",
    "UsageError",
    "add_run_options",
    "bounded",
    "print_result",
    "thread_count",
]


class UsageError(DoubleHoldemError):
    """The command line itself is wrong."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def print_result(args: argparse.Namespace, result: dict[str, Any], lines: Sequence[str]) -> int:
    """Prints ``result`` as one JSON line with ``--json``, else the human ``lines``."""
    print(json.dumps(result) if args.json else "\n".join(lines))
    return 0


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


def add_run_options(p: Any) -> None:
    """The options both commands take: the Monte Carlo's seed, threads and JSON output."""
    p.add_argument("--seed", type=int, help="seed of the Monte Carlo (reproducible)")
    p.add_argument("--threads", type=int, help="threads (default: all cores)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def bounded(kind: type[int] | type[float], low: float, high: float, what: str) -> Any:
    """An argparse type: a number of ``kind`` from ``low`` to ``high``, else one line
    naming ``what`` and the range.

    >>> port = bounded(int, 0, 65535, "a port")
    >>> port("8000")
    8000
    >>> port("70000")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 70000 is not a port in 0..65535
    """

    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or value != value or not low <= value <= high:
            shown = text if len(text) <= 40 else f"a number of {len(text)} characters"
            raise argparse.ArgumentTypeError(f"{shown} is not {what} in {low}..{high}")
        return value

    parse.__name__ = what  # argparse names the type in its messages
    return parse
