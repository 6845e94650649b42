"""``doubleholdem replay FILE... [--json] [--no-check]``: PHH hand histories replayed to
their finishing stacks (:mod:`doubleholdem.game.phh`), checked against the stacks a file
records."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from doubleholdem.errors import DoubleHoldemError
from doubleholdem.game.phh import load, replay, stacks_agree

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
    p.add_argument("--json", action="store_true", help="one JSON line per file (default: text)")
    p.add_argument(
        "--no-check",
        dest="check",
        action="store_false",
        help="print the replayed stacks without comparing them with the file's "
        "finishing_stacks (default: compare, and a difference is an error)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Prints each file's finishing stacks (PHH player order). A file that cannot be
    read or replayed (see :func:`load`) is named on stderr in one line with the reason
    (and the action number); the others are still replayed, and the exit status is 2.
    A file whose replay ends on other stacks than its ``finishing_stacks`` is named on
    stderr with both lists, and the exit status is 1 (unless ``--no-check``, or a file
    could not be read: 2)."""
    status = 0
    out = sys.stdout
    for path in args.files:
        try:
            history = load(path)
            result = replay(history)
        except (DoubleHoldemError, ValueError, TypeError, RecursionError, MemoryError) as error:
            print(f"doubleholdem: error: {path}: {_reason(error)}", file=sys.stderr)
            status = 2
            continue
        recorded = history.finishing_stacks
        if args.check and not _agrees(recorded, result.finishing_stacks):
            print(
                f"doubleholdem: error: {path}: replayed to finishing stacks "
                f"[{_stacks(result.finishing_stacks)}], but the file records "
                f"[{_stacks(recorded or ())}] (--no-check only prints)",
                file=sys.stderr,
            )
            status = max(status, 1)
            continue
        if args.json:
            out.write(json.dumps(result.to_dict(), separators=(", ", ": ")) + "\n")
        else:
            out.write(f"{path}: finishing stacks {_stacks(result.finishing_stacks)}\n")
    return status


def _agrees(recorded: tuple[float, ...] | None, replayed: list[int]) -> bool:
    return recorded is None or stacks_agree(recorded, replayed)


def _stacks(stacks: Sequence[float]) -> str:
    """Stacks as text: whole numbers without a decimal point (PHH may record 50.5)."""
    return " ".join(str(int(s)) if s == int(s) else str(s) for s in stacks)
