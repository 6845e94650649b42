"""``doubleholdem replay FILE... [--json]``: PHH hand histories replayed to their
finishing stacks (:mod:`doubleholdem.game.phh`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from doubleholdem.errors import DoubleHoldemError
from doubleholdem.game.phh import load, replay

__all__ = ["add_parser", "run"]


def _reason(error: BaseException) -> str:
    if isinstance(error, RecursionError):
        return "not a hand history: values nested too deeply"
    if isinstance(error, MemoryError):
        return "not a hand history: too large to read"
    text = str(error)
    text = text if len(text) <= 300 else text[:300] + "..."
    return text.replace("\n", " ")


def add_parser(subparsers: Any) -> None:
    """Registers ``doubleholdem replay FILE... [--json]``."""
    p = subparsers.add_parser("replay", help="replay PHH hand histories to their finishing stacks")
    p.add_argument(
        "files", nargs="+", metavar="FILE", help="PHH files (regular files of at most 1 MiB)"
    )
    p.add_argument("--json", action="store_true", help="one JSON line per file")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Prints each file's finishing stacks (PHH player order). A file that cannot be
    read or replayed (see :func:`load`) is named on stderr in one line with the reason
    (and the action number); the others are still replayed, and the exit status is 2."""
    status = 0
    out = sys.stdout
    for path in args.files:
        try:
            result = replay(load(path))
        except (DoubleHoldemError, ValueError, TypeError, RecursionError, MemoryError) as error:
            print(f"doubleholdem: error: {path}: {_reason(error)}", file=sys.stderr)
            status = 2
            continue
        if args.json:
            out.write(json.dumps(result.to_dict(), separators=(", ", ": ")) + "\n")
        else:
            out.write(f"{path}: {' '.join(map(str, result.finishing_stacks))}\n")
    return status
