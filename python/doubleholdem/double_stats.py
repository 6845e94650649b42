"""Exact Double Hold'em statistics (RULES.md DH-3, DH-4, DH-6) over all
C(52,3) x C(49,5) = 42,142,136,400 deals of three hole cards and a board: the player's
category with the automatic point card (DH-6) and with the best one in hindsight, and
for each of the 1,755 suit classes of holes how often each point choice is best.

>>> counts = hole_counts("As Ah 7c", "Ad 7d 2c")
>>> counts["deals"], sum(counts["auto"].values())
(1035, 1035)

The whole enumeration takes minutes; its result ships with the package
(``data/double_stats.json``, written by :func:`write_statistics`) and loads at once:

>>> shipped = shipped_statistics()
>>> shipped.total == ALL_DEALS, len(shipped.classes), shipped.auto["Pair"]
(True, 1755, 16622390016)
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from doubleholdem import _core
from doubleholdem.cards import CardLike, format_cards, parse_cards
from doubleholdem.errors import InvalidHand

__all__ = [
    "ALL_DEALS",
    "DoubleStatistics",
    "HoleClass",
    "differences",
    "hole_counts",
    "shipped_statistics",
    "statistics",
    "write_statistics",
]

ALL_DEALS = 42_142_136_400
"""C(52,3) x C(49,5)."""


def _by_category(counts: Iterable[int]) -> dict[str, int]:
    return dict(zip(_core.CATEGORY_NAMES, counts))


def hole_counts(
    hole: str | Iterable[CardLike], board: str | Iterable[CardLike] = ()
) -> dict[str, Any]:
    """Counts over every completion of ``board`` (0 to 5 cards) for one hole: categories
    with the automatic and the best point card, and how often each point is best."""
    cards = parse_cards(hole)
    if len(cards) != 3:
        raise InvalidHand(f"a Double Hold'em hole has 3 cards, not {len(cards)}")
    raw = _core.double_counts(cards, parse_cards(board))
    return {**raw, "auto": _by_category(raw["auto"]), "best": _by_category(raw["best"])}


@dataclass(frozen=True)
class HoleClass:
    """One suit class of holes: a representative, its size, the DH-6 point card of the
    representative, and over every deal of the class how often each point card (by
    position in the representative) is a best choice (ties count for each)."""

    hole: str
    weight: int
    auto_point: int
    point_best: tuple[int, int, int]
    auto_best: int
    deals: int


@dataclass(frozen=True)
class DoubleStatistics:
    """Totals by category name, the number of deals, and the 1,755 hole classes."""

    auto: dict[str, int]
    best: dict[str, int]
    total: int
    auto_best: int
    classes: list[HoleClass]

    def as_json(self, *, classes: bool = False) -> dict[str, Any]:
        """``{"auto": {...}, "best": {...}, "total": n}`` (and the classes if asked)."""
        result: dict[str, Any] = {"auto": self.auto, "best": self.best, "total": self.total}
        if classes:
            result["auto_best"] = self.auto_best
            result["classes"] = [vars(c) for c in self.classes]
        return result


def statistics(
    *, threads: int | None = None, progress: Callable[[int, int], object] | None = None
) -> DoubleStatistics:
    """Enumerates all 42,142,136,400 deals in Rust (one hole per suit class, weighted);
    ``progress(done, total)`` about ten times a second; Ctrl-C stops it."""
    raw = _core.double_stats(progress, threads)
    classes = [
        HoleClass(
            format_cards(c["hole"]),
            c["weight"],
            c["auto_point"],
            tuple(c["point_best"]),
            c["auto_best"],
            c["deals"],
        )
        for c in raw["classes"]
    ]
    return DoubleStatistics(
        _by_category(raw["auto"]),
        _by_category(raw["best"]),
        raw["deals"],
        raw["auto_best"],
        classes,
    )


SHIPPED = "double_stats.json"
"""The shipped result of :func:`statistics`, in ``doubleholdem/data``."""


def write_statistics(stats: DoubleStatistics, path: Path) -> None:
    """Writes ``stats`` with every class as JSON (the format of the shipped file)."""
    data = {
        "command": "python -c 'from pathlib import Path; from doubleholdem import double_stats "
        "as d; d.write_statistics(d.statistics(), "
        'Path("python/doubleholdem/data/double_stats.json"))\'',
        "auto": stats.auto,
        "best": stats.best,
        "total": stats.total,
        "auto_best": stats.auto_best,
        "classes": [asdict(c) for c in stats.classes],
    }
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")


@functools.lru_cache(maxsize=1)
def shipped_statistics() -> DoubleStatistics:
    """The result of :func:`statistics` as shipped (computed once, by
    :func:`write_statistics`); ``stats double --recompute`` checks it."""
    text = resources.files("doubleholdem").joinpath("data", SHIPPED).read_text(encoding="utf-8")
    data = json.loads(text)
    classes = [HoleClass(**{**c, "point_best": tuple(c["point_best"])}) for c in data["classes"]]
    return DoubleStatistics(data["auto"], data["best"], data["total"], data["auto_best"], classes)


def differences(a: DoubleStatistics, b: DoubleStatistics) -> list[str]:
    """What differs between two results, one line each (empty when they agree)."""
    lines = []
    for name in ("total", "auto_best"):
        if getattr(a, name) != getattr(b, name):
            lines.append(f"{name}: {getattr(a, name):,} != {getattr(b, name):,}")
    for kind in ("auto", "best"):
        x, y = getattr(a, kind), getattr(b, kind)
        for category in dict.fromkeys([*x, *y]):
            if x.get(category) != y.get(category):
                lines.append(f"{kind} {category}: {x.get(category)} != {y.get(category)}")
    if len(a.classes) != len(b.classes):
        lines.append(f"classes: {len(a.classes)} != {len(b.classes)}")
    for c, d in zip(a.classes, b.classes):
        if c != d:
            lines.append(f"class {c.hole}: {c} != {d}")
    return lines
