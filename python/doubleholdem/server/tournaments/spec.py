"""The tournaments a room runs (docs/tournaments.md), from the ``[[tournament]]`` entries
of its TOML settings file: each a :class:`TournamentSpec`, the library's
:class:`~doubleholdem.tournament.TournamentConfig` with what the room adds (a name, bot
entrants, a start time, the pause between hands).

>>> spec = spec_from_entry({"name": "Turbo", "kind": "sit-and-go", "capacity": 3,
...                         "starting_stack": 1500, "buy_in": 100, "fee": 10, "bots": 2,
...                         "level_by": "hands", "level_length": 5})
>>> spec.name, spec.config.capacity, spec.config.blinds.by.value, spec.bots
('Turbo', 3, 'hands', 2)
>>> spec_from_entry({"name": "x", "bots": 3, "kind": "sit-and-go", "capacity": 3})
Traceback (most recent call last):
...
doubleholdem.errors.InvalidConfig: tournament 'x': bots must leave a seat for a person ...
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from doubleholdem.errors import InvalidConfig
from doubleholdem.server.settings import read_toml
from doubleholdem.table.bots import BOTS
from doubleholdem.tournament import (
    BlindStructure,
    Clocking,
    Kind,
    Level,
    Rebuys,
    TournamentConfig,
)

__all__ = [
    "MAX_TOURNAMENTS",
    "TournamentSpec",
    "load_tournaments",
    "spec_from_entry",
    "specs_from_toml",
]

MAX_TOURNAMENTS = 100
"""The most ``[[tournament]]`` entries a settings file may hold."""

# the keys of an entry the room reads itself; the others are TournamentConfig's
_ROOM_KEYS = ("name", "bots", "bot_kinds", "start_at", "pause", "level_by", "level_length",
              "levels", "rebuys")  # fmt: skip
_CONFIG_KEYS = ("kind", "capacity", "minimum", "seats", "starting_stack", "buy_in", "fee",
                "betting", "variant", "late_registration", "re_entries",
                "hand_for_hand", "hand_for_hand_at")  # fmt: skip


@dataclass(frozen=True)
class TournamentSpec:
    """A tournament the room runs: ``name`` (unique in the room), its ``config``, the
    ``bots`` entrants the room registers at once (each paid from a bankroll the house
    gives it) of ``bot_kinds`` in turn, ``start_at`` (a scheduled tournament's start,
    seconds since the epoch), and ``pause`` seconds between a table's hands. A
    sit-and-go is opened anew each time the last one starts (TRN-2); a scheduled one
    runs once."""

    name: str
    config: TournamentConfig
    bots: int = 0
    bot_kinds: tuple[str, ...] = ("equity",)
    start_at: float | None = None
    pause: float = 1.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (:func:`spec_from_dict` reads it back)."""
        return {
            "name": self.name,
            "config": self.config.to_dict(),
            "bots": self.bots,
            "bot_kinds": list(self.bot_kinds),
            "start_at": self.start_at,
            "pause": self.pause,
        }


def spec_from_dict(data: dict[str, Any]) -> TournamentSpec:
    """The spec of :meth:`TournamentSpec.to_dict`."""
    return TournamentSpec(
        data["name"],
        TournamentConfig.from_dict(data["config"]),
        data["bots"],
        tuple(data["bot_kinds"]),
        data["start_at"],
        data["pause"],
    )


def _number(name: str, key: str, value: object, low: float, high: float) -> float:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not ok or not math.isfinite(value) or not low <= value <= high:  # type: ignore[arg-type,operator]
        raise InvalidConfig(f"tournament {name!r}: {key} must be a number in {low}..{high}",
                            field=key)  # fmt: skip
    return float(value)  # type: ignore[arg-type]


def _blinds(name: str, entry: dict[str, Any]) -> BlindStructure:
    """The entry's structure: its ``levels`` (tables of ``small_blind``, ``big_blind``,
    ``ante``, ``length``), else the standard one; by ``level_by`` (``time``: minutes,
    ``hands``) with levels of ``level_length``."""
    by = entry.get("level_by", "time")
    if by not in ("time", "hands"):
        raise InvalidConfig(f"tournament {name!r}: level_by is \"time\" or \"hands\"",
                            field="level_by")  # fmt: skip
    length = entry.get("level_length", 10)
    if type(length) is not int or not 1 <= length <= 10_000:
        raise InvalidConfig(f"tournament {name!r}: level_length must be 1 to 10000",
                            field="level_length")  # fmt: skip
    levels = entry.get("levels")
    if levels is None:
        return BlindStructure.standard(by=Clocking(by), length=length)
    if not isinstance(levels, list) or not all(isinstance(level, dict) for level in levels):
        raise InvalidConfig(f"tournament {name!r}: levels is a list of tables", field="levels")
    try:
        made = tuple(Level(**{"length": length, **level}) for level in levels)
    except TypeError as error:
        raise InvalidConfig(f"tournament {name!r}: levels: {error}", field="levels") from None
    return BlindStructure(made, Clocking(by))


def _rebuys(name: str, entry: dict[str, Any]) -> Rebuys | None:
    """The entry's ``rebuys`` table (TRN-6: ``until_level``, ``price``, ``chips``,
    ``most``, ``threshold``, ``add_on_price``, ``add_on_chips``), or none."""
    rules = entry.get("rebuys")
    if rules is None:
        return None
    if not isinstance(rules, dict):
        raise InvalidConfig(f"tournament {name!r}: rebuys is a table", field="rebuys")
    try:
        return Rebuys(**rules)
    except TypeError as error:
        raise InvalidConfig(f"tournament {name!r}: rebuys: {error}", field="rebuys") from None


def spec_from_entry(entry: dict[str, Any]) -> TournamentSpec:
    """The spec of one ``[[tournament]]`` entry, or :class:`InvalidConfig` naming the
    tournament and the key."""
    name = entry.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= 40 or not name.isprintable():
        raise InvalidConfig("a tournament needs a name of 1 to 40 printable characters",
                            field="name")  # fmt: skip
    unknown = sorted(set(entry) - set(_ROOM_KEYS) - set(_CONFIG_KEYS))
    if unknown:
        raise InvalidConfig(f"tournament {name!r}: no option {unknown[0]!r}", field=unknown[0])
    fields = {key: entry[key] for key in _CONFIG_KEYS if key in entry}
    try:
        config = TournamentConfig(blinds=_blinds(name, entry), rebuys=_rebuys(name, entry),
                                  **fields)  # fmt: skip
    except InvalidConfig as error:
        raise InvalidConfig(f"tournament {name!r}: {error}", field=error.field) from None
    kinds = entry.get("bot_kinds", ["equity"])
    kinds = [kinds] if isinstance(kinds, str) else kinds
    if not isinstance(kinds, list) or not kinds or not all(k in BOTS for k in kinds):
        raise InvalidConfig(f"tournament {name!r}: bot_kinds: kinds of {', '.join(sorted(BOTS))}",
                            field="bot_kinds")  # fmt: skip
    most = config.capacity - 1
    bots = entry.get("bots", 0)
    if type(bots) is not int or not 0 <= bots <= most:
        raise InvalidConfig(f"tournament {name!r}: bots must leave a seat for a person "
                            f"(0 to {most}), not {bots!r}", field="bots")  # fmt: skip
    start_at = entry.get("start_at")
    if config.kind is Kind.SCHEDULED:
        start_at = _number(name, "start_at", start_at, 0, 1e11)
    elif start_at is not None:
        raise InvalidConfig(f"tournament {name!r}: a sit-and-go starts when full, not at a time",
                            field="start_at")  # fmt: skip
    pause = _number(name, "pause", entry.get("pause", 1.0), 0, 60)
    return TournamentSpec(name, config, bots, tuple(kinds), start_at, pause)


def specs_from_toml(data: dict[str, Any], path: str) -> list[TournamentSpec]:
    """The specs of the ``[[tournament]]`` entries of a settings file's ``data`` (none
    without such entries), with distinct names."""
    entries = data.get("tournament", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise InvalidConfig(f"{path}: [[tournament]] entries are tables")
    if len(entries) > MAX_TOURNAMENTS:
        raise InvalidConfig(f"{path}: at most {MAX_TOURNAMENTS} [[tournament]] entries")
    specs = []
    for entry in entries:
        try:
            specs.append(spec_from_entry(entry))
        except InvalidConfig as error:
            raise InvalidConfig(f"{path}: {error}", field=error.field) from None
    names = [spec.name for spec in specs]
    for name in names:
        if names.count(name) > 1:
            raise InvalidConfig(f"{path}: two tournaments are named {name!r}", field="name")
    return specs


def load_tournaments(path: str) -> list[TournamentSpec]:
    """The tournaments of the TOML settings file at ``path``: its ``[[tournament]]``
    entries (none without), else :class:`~doubleholdem.errors.InvalidConfig`."""
    return specs_from_toml(read_toml(path), path)
