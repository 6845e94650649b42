"""The ``doubleholdem`` command line: one module per command in this package.

A command's module exposes ``add_parser(subparsers)``, which registers its parser and sets
``run`` (a function of the parsed arguments that returns the exit status). Bad input exits
with status 2 and one line on stderr (``doubleholdem double: error: ...``, the command
named once). A closed output pipe (``doubleholdem stats double --classes | head``) ends a
command quietly with status 141 (:data:`CLOSED_PIPE`, what a shell reports for a program
ended by SIGPIPE); Ctrl-C with 130. Nothing in the library imports this package.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
from collections.abc import Callable, Sequence
from types import FrameType
from typing import Any

from doubleholdem.cli.base import Parser, UsageError
from doubleholdem.errors import DoubleHoldemError
from doubleholdem.wording import for_people, told

__all__ = ["CLOSED_PIPE", "COMMANDS", "UsageError", "build_parser", "entry_point", "main"]


# Each command and its module, imported only when it is needed (``doubleholdem replay``
# does not load the casino, the table or the bots).
COMMANDS = {
    name: f"doubleholdem.cli.{module}"
    for name, module in (
        ("eval", "eval"),
        ("double", "double"),
        ("equity", "equity"),
        ("icm", "icm"),
        ("point", "point"),
        ("replay", "replay"),
        ("simulate", "simulate"),
        ("tournament", "tournament"),
        ("casino", "casino"),
        ("stats", "stats"),
        ("serve", "serve"),
        ("loadtest", "loadtest"),
        ("accounts", "accounts"),
        ("db", "db"),
    )
}


CLOSED_PIPE = 141
"""The exit status of a command whose output pipe closed before it finished
(``doubleholdem stats double --classes | head``): it stops quietly, nothing on stderr,
with the status a shell reports for a program ended by SIGPIPE (128 + 13), as the
coreutils give: a pipeline's reader taking what it needs is not an error to report, but
a script checking the writer's status (``set -o pipefail``) still sees it stopped short.
(Python ignores SIGPIPE and raises ``BrokenPipeError`` instead, see its documentation's
"Note on SIGPIPE".)"""


class _Version(argparse.Action):
    """``--version``: the installed version, looked up only when asked for (reading the
    package metadata costs more than most commands' start-up)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(
            option_strings,
            dest,
            nargs=0,
            default=argparse.SUPPRESS,
            help="print the version and exit",
        )

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        import doubleholdem

        print(f"doubleholdem {doubleholdem.__version__}")
        parser.exit()


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or with ``command`` of that one alone."""
    parser = Parser(
        prog="doubleholdem",
        description="Texas Hold'em, Double Hold'em and Heads Up Hold'em: hand values, "
        "equities, hand histories, bots at a table, the casino game and the game server.",
        epilog="`doubleholdem COMMAND --help` shows the options of one command.",
    )
    parser.add_argument("--version", action=_Version)
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for name in [command] if command in COMMANDS else COMMANDS:
        add: Callable[[Any], None] = importlib.import_module(COMMANDS[name]).add_parser
        add(subparsers)
    return parser


def _one_line(error: BaseException) -> str:
    """``error`` said on one line for a person: seats and tables numbered from 1."""
    text = " ".join(for_people(told(error)).split()) or type(error).__name__
    return text if len(text) <= 500 else text[:500] + "..."


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status: 0, 2 for bad input (one line on
    stderr, never a traceback), 130 after Ctrl-C, 141 when the output pipe closed
    (:data:`CLOSED_PIPE`, quietly), 1 for an internal error (one line
    too; ``DOUBLEHOLDEM_TRACEBACK=1`` shows its traceback). No command at all prints the
    help, with status 0."""
    try:
        words = sys.argv[1:] if argv is None else list(argv)
        if not words:
            build_parser().print_help()
            return 0
        args = build_parser(words[0] if words else None).parse_args(words)
        status: int = args.run(args)
        return status
    except UsageError as error:
        print(f"{error.prog}: error: {_one_line(error)}", file=sys.stderr)
        return 2
    except (DoubleHoldemError, ValueError, TypeError, OverflowError) as error:
        print(f"doubleholdem: error: {_one_line(error)}", file=sys.stderr)
        return 2
    except RecursionError:
        print("doubleholdem: error: the input is nested too deeply", file=sys.stderr)
        return 2
    except MemoryError:
        print("doubleholdem: error: out of memory", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (``doubleholdem ... | head``)
        return CLOSED_PIPE
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


class _FirstInterrupt:
    """The command line's Ctrl-C: the first raises :class:`KeyboardInterrupt` (the
    command stops and says so, status 130) and any later one is ignored, wherever it
    lands: while the first is reported or while the interpreter shuts down (threads, the
    progress bar, the core's pool), it would otherwise end the process by the signal."""

    def __init__(self) -> None:
        self.interrupted = False

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if not self.interrupted:
            self.interrupted = True
            raise KeyboardInterrupt


def entry_point() -> None:
    """The console script: exits with :func:`main`'s status, Ctrl-C handled by
    :class:`_FirstInterrupt` (unless the process was started with it ignored). After a
    closed output pipe (:data:`CLOSED_PIPE`) what is left of the output goes nowhere,
    so that exiting does not fail to flush it."""
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _FirstInterrupt())
    status = main()
    if status == CLOSED_PIPE:  # nothing more can be written: exiting must not try
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    sys.exit(status)


if __name__ == "__main__":
    entry_point()
