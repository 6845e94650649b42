"""Pre-flop shares of the pot from a shipped table, for the equity bot.

Before the flop a hole's share of the pot against random hands (a win counts 1, a tie
with k others 1/(k+1); hands valued as the best five cards, EV-1) depends only on the
hole's *class*: its ranks and which cards share a suit, whatever the suits are called
and in whatever order the cards came. In Double Hold'em the hole's value is that of its
best point card (DH-3, DH-4), the best of its three two-card Hold'em hands, so card
order does not matter there either; opponents always get their best point.

- Texas Hold'em: 169 classes, named as usual: ``AA``, ``AKs`` (suited), ``AKo``.
- Double Hold'em: 1,755 classes of three cards (286 rank sets times 5 suit patterns, 156
  pairs with a kicker times 2, 13 trips). A class is named by its ranks, high to low,
  each followed by a suit letter ``a``, ``b``, ``c`` in order of first appearance (the
  smallest such name over the orders of equal ranks): ``AaKaQa`` all one suit,
  ``AaKbQc`` three suits, ``AaKaQb`` / ``AaKbQa`` / ``AaKbQb`` for the suited pair,
  ``AaAbKa`` / ``AaAbKc`` for a pair whose kicker does / does not share a suit, and
  ``AaAbAc`` for trips.

The tables (``data/preflop_equity_texas.json``, ``data/preflop_equity_double.json``) hold,
for every class, the share against 1 to 9 opponents, estimated by the core's Monte Carlo
(``_core.equities``) on a large sample; ``python -m doubleholdem.cli.preflop_table --write``
regenerates them. Their headers give the sample size, the seeds and the standard error.

>>> preflop_class("Ah Ad"), preflop_class("7c 2d"), preflop_class("Ks Qs")
('AA', '72o', 'KQs')
>>> preflop_class("Qh Ah Kd"), preflop_class("Kd Ad Ac"), preflop_class("2c 2d 2h")
('AaKbQa', 'AaAbKa', '2a2b2c')
>>> len(preflop_classes(2)), len(preflop_classes(3))
(169, 1755)
>>> round(preflop_share(parse_cards("Ac Ad"), 1), 2)
0.85
>>> preflop_share(parse_cards("Ac Ad 7h"), 9) > preflop_share(parse_cards("7c 2d 4h"), 9)
True
"""

from __future__ import annotations

import functools
import json
import os
import sys
import zlib
from collections.abc import Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from importlib import resources
from itertools import combinations
from typing import Any, TextIO

from doubleholdem import _core
from doubleholdem.cards import RANKS, CardLike, parse_cards
from doubleholdem.errors import InvalidHand
from doubleholdem.progress import ProgressBar

__all__ = [
    "MAX_OPPONENTS",
    "VARIANTS",
    "preflop_class",
    "preflop_classes",
    "preflop_share",
    "preflop_table",
]

MAX_OPPONENTS = 9
"""The table covers 1 to 9 opponents: ten players is the most a table seats."""
VARIANTS = {2: "texas", 3: "double"}
"""The variant of each hole size, as named in the data files."""
GAMES = {"texas": "Texas Hold'em", "double": "Double Hold'em"}

# generation: per (class, opponents) `samples` deals with the seed
# (SEED << 32) | crc32("<variant>/<class>/<opponents>")
SAMPLES = 200_000
SEED = 20_250_601
DECIMALS = 4

_SUIT_LETTERS = "abc"


def preflop_class(cards: str | Iterable[CardLike]) -> str:
    """The class of a hole of 2 cards (Texas Hold'em) or 3 (Double Hold'em) under
    relabelling of the suits and reordering of the cards (see the module's docstring).

    >>> preflop_class("2h Ts"), preflop_class([51, 47])
    ('T2o', 'AKs')
    >>> preflop_class("Jd 9c Jc"), preflop_class("9c Jc Jd"), preflop_class("Jd 9s Jc")
    ('JaJb9a', 'JaJb9a', 'JaJb9c')
    """
    hole = parse_cards(cards)
    if len(hole) == 2:
        return _texas_class(hole)
    if len(hole) == 3:
        return _double_class(hole)
    raise InvalidHand(f"a hole has 2 cards (Texas Hold'em) or 3 (Double Hold'em), not {len(hole)}")


def _texas_class(hole: Sequence[int]) -> str:
    high, low = sorted(hole, reverse=True)
    if high >> 2 == low >> 2:
        return RANKS[high >> 2] * 2
    return RANKS[high >> 2] + RANKS[low >> 2] + ("s" if high & 3 == low & 3 else "o")


def _double_class(hole: Sequence[int]) -> str:
    first, second, third = sorted(hole, reverse=True)
    ranks = (first >> 2, second >> 2, third >> 2)
    suits = (first & 3, second & 3, third & 3)
    if ranks[0] == ranks[1] == ranks[2]:
        letters = "abc"
    elif ranks[0] == ranks[1]:  # a pair, then its kicker: sharing a suit with one card
        letters = "aba" if suits[2] in suits[:2] else "abc"
    elif ranks[1] == ranks[2]:  # the kicker, then a pair
        letters = "aab" if suits[0] in suits[1:] else "abc"
    else:
        letters = _letters(suits)
    return "".join(RANKS[r] + letter for r, letter in zip(ranks, letters))


def _letters(suits: Sequence[int]) -> str:
    """Suit letters in order of first appearance: (3, 1, 3) -> 'aba'."""
    seen: list[int] = []
    for suit in suits:
        if suit not in seen:
            seen.append(suit)
    return "".join(_SUIT_LETTERS[seen.index(suit)] for suit in suits)


@functools.lru_cache(maxsize=2)
def preflop_classes(size: int) -> dict[str, tuple[int, ...]]:
    """Every class of holes of ``size`` cards (2 or 3), strongest ranks first, each with
    one hole of the class (the lowest cards).

    >>> classes = preflop_classes(2)
    >>> list(classes)[:4], classes["AKo"]
    (['AA', 'AKs', 'AKo', 'AQs'], (44, 49))
    """
    if size not in VARIANTS:
        raise InvalidHand(f"a hole has 2 cards (Texas Hold'em) or 3 (Double Hold'em), not {size}")
    classify = _texas_class if size == 2 else _double_class
    found: dict[str, tuple[int, ...]] = {}
    for hole in combinations(range(52), size):
        found.setdefault(classify(hole), hole)

    def strength(name: str) -> tuple[tuple[int, ...], str]:
        # high ranks first; then suited before offsuit, or by suit letters
        ranks, suits = (name[:2], name[2:] or "o") if size == 2 else (name[::2], name[1::2])
        suits = {"s": "0", "o": "1"}.get(suits, suits)
        return tuple(-RANKS.index(r) for r in ranks), suits

    return {name: found[name] for name in sorted(found, key=strength)}


@functools.lru_cache(maxsize=2)
def preflop_table(variant: str) -> dict[str, tuple[float, ...]]:
    """The shipped table of ``variant`` (``"texas"`` or ``"double"``): for every class the
    share against 1, 2, ... 9 random opponents.

    >>> table = preflop_table("texas")
    >>> len(table), len(table["AA"]), table["AA"][0] > table["AA"][8]
    (169, 9, True)
    """
    if variant not in GAMES:
        raise ValueError(f"no pre-flop table for {variant!r}: one of {', '.join(GAMES)}")
    name = f"preflop_equity_{variant}.json"
    text = resources.files("doubleholdem").joinpath("data", name).read_text(encoding="utf-8")
    classes: dict[str, list[float]] = json.loads(text)["classes"]
    return {name: tuple(shares) for name, shares in classes.items()}


# the share row of each hole seen so far, by its sorted cards
_ROWS: dict[tuple[int, ...], tuple[float, ...]] = {}


def preflop_share(hole: Sequence[int], opponents: int) -> float:
    """The pre-flop share of the pot of ``hole`` (2 or 3 cards as integers; in Double
    Hold'em with the best point card) against ``opponents`` (1 to 9) random hands, from
    the shipped table. After a hole's first look-up this is a dict look-up.

    >>> preflop_share([51, 50], 1) == preflop_table("texas")["AA"][0]
    True
    """
    if not 1 <= opponents <= MAX_OPPONENTS:
        raise ValueError(f"opponents must be 1 to {MAX_OPPONENTS}, not {opponents}")
    key = tuple(sorted(hole))
    row = _ROWS.get(key)
    if row is None:
        name = preflop_class(key)
        row = _ROWS[key] = preflop_table(VARIANTS[len(key)])[name]
    return row[opponents - 1]


# generation: python -m doubleholdem.cli.preflop_table --write


def _seed(variant: str, name: str, opponents: int) -> int:
    return SEED << 32 | zlib.crc32(f"{variant}/{name}/{opponents}".encode())


def _estimate(
    variant: str, name: str, hole: tuple[int, ...], opponents: int, samples: int
) -> float:
    seed = _seed(variant, name, opponents)
    return _core.equities(list(hole), [], opponents, samples, [None], seed)[0]


def generate(
    variant: str, samples: int = SAMPLES, threads: int | None = None, stream: TextIO | None = None
) -> dict[str, Any]:
    """The table of ``variant`` with its header: every class against 1 to 9 opponents,
    ``samples`` deals each, on ``threads`` threads (default: one per core; the core runs
    without the GIL). Progress goes to ``stream`` (default stderr)."""
    size = {v: k for k, v in VARIANTS.items()}[variant]
    classes = preflop_classes(size)
    tasks = [(name, opponents) for name in classes for opponents in range(1, MAX_OPPONENTS + 1)]
    shares: dict[tuple[str, int], float] = {}
    progress = ProgressBar(variant, stream or sys.stderr, tenths=True)
    pool = ThreadPoolExecutor(max_workers=threads or os.cpu_count() or 1)
    try:
        futures: dict[Future[float], tuple[str, int]] = {
            pool.submit(_estimate, variant, name, classes[name], opponents, samples): (
                name,
                opponents,
            )
            for name, opponents in tasks
        }
        for done, future in enumerate(as_completed(futures), 1):
            shares[futures[future]] = future.result()
            progress(done, len(tasks))
    finally:
        # after Ctrl-C: drop the queued estimates, let the running ones end
        pool.shutdown(wait=True, cancel_futures=True)
        progress.close()
    error = 0.5 / samples**0.5
    return {
        "game": GAMES[variant],
        "command": "python -m doubleholdem.cli.preflop_table --write",
        "share": "pre-flop share of the pot against 1..9 random opponents (a win 1, a tie "
        "with k others 1/(k+1)); Double Hold'em: the best point card, opponents too",
        "opponents": list(range(1, MAX_OPPONENTS + 1)),
        "samples": samples,
        "seed": SEED,
        "seeds": f"per class and opponents: (seed << 32) | crc32('{variant}/<class>/<opponents>')",
        "standard_error": round(error, 5),
        "standard_error_note": "at most sqrt(0.25 / samples): a deal's share is in [0, 1]; "
        "rounding adds at most 0.00005",
        "classes": {
            name: [round(shares[name, k], DECIMALS) for k in range(1, MAX_OPPONENTS + 1)]
            for name in classes
        },
    }


def dumps(table: dict[str, Any]) -> str:
    """The table as JSON: the header fields, then one line per class."""
    header = {key: value for key, value in table.items() if key != "classes"}
    lines = [f" {json.dumps(key)}: {json.dumps(value)}," for key, value in header.items()]
    rows = [f"  {json.dumps(name)}: {json.dumps(row)}" for name, row in table["classes"].items()]
    return "{\n" + "\n".join(lines) + '\n "classes": {\n' + ",\n".join(rows) + "\n }\n}\n"
