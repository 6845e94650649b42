"""What every command shares: the parser class whose errors are one line and whose help
shows every option's default, JSON or human output, the ``--threads`` type, the
optional ``--seed`` (a strong random seed when absent, printed so that a run can be
repeated), and the ``--variant`` and ``--structure`` options in the names of
:class:`~doubleholdem.game.Variant` and :class:`~doubleholdem.game.Structure` (their
aliases accepted)."""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import secrets
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NoReturn

from doubleholdem.errors import DoubleHoldemError
from doubleholdem.game.config import STRUCTURE_ALIASES, VARIANT_ALIASES, Structure, Variant
from doubleholdem.table.bots import BOTS

__all__ = [
    "DefaultsFormatter",
    "Parser",
    "UsageError",
    "add_run_options",
    "add_seed_option",
    "add_structure_option",
    "add_variant_option",
    "bounded",
    "no_collections",
    "point_word",
    "print_result",
    "seed_of",
    "thread_count",
]


class UsageError(DoubleHoldemError):
    """The command line itself is wrong; ``prog`` is the command that says so
    (``doubleholdem double``), which names it once: ``doubleholdem double: error: ...``."""

    def __init__(self, message: str, *, prog: str = "doubleholdem") -> None:
        super().__init__(message)
        self.prog = prog


class DefaultsFormatter(argparse.HelpFormatter):
    """Help that shows each option's default: appended as ``(default: X)`` unless the
    help already says it, or there is none to show (a flag that is off, an option
    whose help explains what its absence means)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if (
            "default" in text
            or default is None
            or default is False
            or default == argparse.SUPPRESS
            or not action.option_strings
        ):
            return text
        return f"{text} (default: %(default)s)"


class Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", DefaultsFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise UsageError(message, prog=self.prog)


def print_result(args: argparse.Namespace, result: dict[str, Any], lines: Sequence[str]) -> int:
    """Prints ``result`` as one JSON line with ``--json``, else the human ``lines``."""
    print(json.dumps(result) if args.json else "\n".join(lines))
    return 0


def point_word(text: str) -> int | str:
    """A point card as written on the command line: ``0``, ``1`` or ``2`` as the index,
    anything else (``auto``, a card) as text, for
    :func:`doubleholdem.point_card.point_index` to read or refuse."""
    return int(text) if text in ("0", "1", "2") else text


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
    add_seed_option(p, "the Monte Carlo")
    p.add_argument("--threads", type=int, help="threads (default: all cores)")
    add_json_option(p)


def add_json_option(p: Any) -> None:
    """``--json``: the result as one JSON object instead of text."""
    p.add_argument("--json", action="store_true", help="print one JSON object (default: text)")


def add_seed_option(p: Any, what: str) -> None:
    """``--seed``, optional: :func:`seed_of` draws one when it is absent."""
    p.add_argument(
        "--seed",
        type=int,
        help=f"seed of {what}, to repeat a run (default: a strong random seed, printed)",
    )


def seed_of(args: argparse.Namespace) -> int:
    """The run's seed: ``--seed``, or a strong random one (64 bits from the operating
    system) that the command prints, so that the run can be repeated."""
    if args.seed is None:
        args.seed = secrets.randbits(64)
    seed: int = args.seed
    return seed


def _canonical(kind: type[Variant] | type[Structure]) -> Callable[[str], str]:
    """An argparse type: the name of the ``kind`` member the text names (aliases
    accepted, :class:`~doubleholdem.game.Structure`), else the text as given, for
    argparse's ``choices`` to refuse."""

    def parse(text: str) -> str:
        try:
            return str(kind(text).value)
        except ValueError:
            return text

    return parse


def add_variant_option(p: Any, default: str = Variant.TEXAS.value) -> None:
    """``--variant``: a :class:`~doubleholdem.game.Variant` name, aliases accepted."""
    also = ", ".join(VARIANT_ALIASES)
    _add_name_option(p, "--variant", Variant, default, f"the game: texas or double (also {also})")


def add_structure_option(p: Any, default: str = Structure.FIXED_LIMIT.value) -> None:
    """``--structure``: a :class:`~doubleholdem.game.Structure` name, aliases accepted."""
    also = ", ".join(STRUCTURE_ALIASES)
    _add_name_option(p, "--structure", Structure, default, f"betting structure (also {also})")


def _add_name_option(
    p: Any, flag: str, kind: type[Variant] | type[Structure], default: str, words: str
) -> None:
    """``flag``: one of ``kind``'s names (or an alias), given as its canonical name."""
    choices = [member.value for member in kind]
    p.add_argument(flag, type=_canonical(kind), choices=choices, default=default, help=words)


def add_bots_option(p: Any, defaults: Sequence[str], over: str) -> None:
    """``--bots``: bot names, comma-separated, cycled over ``over`` (seats, entrants)."""
    p.add_argument(
        "--bots",
        default=",".join(defaults),
        help=f"bot names cycled over the {over}, from {', '.join(sorted(BOTS))}",
    )


def add_bots_run_options(p: Any, seeds: str, bots: Sequence[str], over: str) -> None:
    """The options of a run of bots: ``--seed`` (of ``seeds``), ``--bots`` (``bots`` by
    default, cycled over ``over``) and ``--json``."""
    add_seed_option(p, seeds)
    add_bots_option(p, bots, over)
    add_json_option(p)


def bots_of(args: argparse.Namespace) -> tuple[str, ...]:
    """The bot names of ``--bots``; refused when one names no bot."""
    bots = tuple(name.strip() for name in args.bots.split(",") if name.strip())
    for name in bots:
        if name not in BOTS:
            raise DoubleHoldemError(f"no bot named {name!r}: one of {', '.join(sorted(BOTS))}")
    return bots


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


@contextlib.contextmanager
def no_collections() -> Iterator[None]:
    """Switches the cyclic garbage collector off for the run. Play makes millions of
    short-lived objects and no reference cycles (a simulation collects none: reference
    counting frees everything), and the collector's passes over the table's growing
    log cost several percent of the run for nothing. The command does this for its own
    process; :func:`~doubleholdem.table.simulate.simulate` and
    :func:`~doubleholdem.tournament.simulate.simulate_tournament` leave the collector alone."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
