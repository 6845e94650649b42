"""A tournament's blind structure as data (RULES.md TRN-7 to TRN-10): the levels, each a
small blind, a big blind, an ante, a length in minutes or hands, an optional break after
it and the smallest chip in play; the ante type of every level.

>>> structure = BlindStructure.standard(by="hands", length=10)
>>> structure.levels[0]
Level(small_blind=10, big_blind=20, ante=0, length=10, break_after=0, chip_unit=5)
>>> structure.level_after_hands(0), structure.level_after_hands(10), structure.level_after_hands(25)
(0, 1, 2)
>>> timed = BlindStructure((Level(10, 20, length=20, break_after=5), Level(20, 40, length=20)))
>>> timed.at_time(19 * 60), timed.at_time(22 * 60), timed.at_time(26 * 60)
(Moment(level=0, on_break=False), Moment(level=0, on_break=True), Moment(level=1, on_break=False))
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, NamedTuple

from doubleholdem.errors import InvalidConfig
from doubleholdem.game.config import AnteType
from doubleholdem.table.config import is_int

__all__ = ["BlindStructure", "Clocking", "Level", "Moment", "require_whole"]


class Clocking(str, enum.Enum):
    """TRN-7: levels last a number of minutes, or a number of hands (counted at the
    table that has dealt the most)."""

    TIME = "time"
    HANDS = "hands"


@dataclass(frozen=True)
class Level:
    """One level (TRN-7): its blinds, its ``ante`` (TRN-9), its ``length`` (minutes or
    hands, as the structure says), the minutes of a ``break_after`` it (TRN-8, levels by
    time only) and its ``chip_unit``, the smallest chip in play (TRN-10)."""

    small_blind: int
    big_blind: int
    ante: int = 0
    length: int = 10
    break_after: int = 0
    chip_unit: int = 1

    def __post_init__(self) -> None:
        require_whole("level.small_blind", self.small_blind, 0)
        require_whole("level.big_blind", self.big_blind, 1)
        require_whole("level.ante", self.ante, 0)
        require_whole("level.length", self.length, 1)
        require_whole("level.break_after", self.break_after, 0)
        require_whole("level.chip_unit", self.chip_unit, 1)
        if self.small_blind > self.big_blind:
            raise InvalidConfig(
                f"level: small blind {self.small_blind} is more than the big blind "
                f"{self.big_blind}",
                field="small_blind",
            )


class Moment(NamedTuple):
    """Where a time falls in a structure by time: the ``level`` being played (during a
    break, the level before it) and whether it is a break (TRN-8)."""

    level: int
    on_break: bool


@dataclass(frozen=True)
class BlindStructure:
    """The levels of a tournament, how they are clocked and the ante type of their
    antes (TRN-9). Checked when made: at least one level; chip units that never fall,
    each a multiple of the one before (TRN-10); breaks only with levels by time."""

    levels: tuple[Level, ...]
    by: Clocking = Clocking.TIME
    ante_type: AnteType = AnteType.UNIFORM

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "by", Clocking(self.by))
            object.__setattr__(self, "ante_type", AnteType(self.ante_type))
        except ValueError as error:
            raise InvalidConfig(f"structure: {error}", field="structure") from None
        levels = tuple(self.levels)
        object.__setattr__(self, "levels", levels)
        if not levels or not all(isinstance(level, Level) for level in levels):
            raise InvalidConfig("structure: give one Level or more", field="levels")
        for before, after in zip(levels, levels[1:]):
            if after.chip_unit % before.chip_unit:
                raise InvalidConfig(
                    f"structure: chip unit {after.chip_unit} is not a multiple of "
                    f"{before.chip_unit} (TRN-10)",
                    field="chip_unit",
                )
        if self.by is Clocking.HANDS and any(level.break_after for level in levels):
            raise InvalidConfig("structure: breaks need levels by time (TRN-8)", field="by")

    @classmethod
    def standard(
        cls,
        *,
        by: Clocking | str = Clocking.TIME,
        length: int = 20,
        ante_type: AnteType | str = AnteType.UNIFORM,
        breaks: bool = False,
    ) -> BlindStructure:
        """The default structure for a starting stack of 10,000 (TRN-7): 10/20 rising
        about 1.5 times a level, antes from the fifth level (an eighth of the big blind,
        or the big blind itself as a big-blind ante), chip units from 5 to 25,000
        (TRN-10), and with ``breaks`` (by time) a 5-minute break after every fourth
        level."""
        big_ante = AnteType(ante_type) is AnteType.BIG_BLIND
        timed = Clocking(by) is Clocking.TIME
        levels = []
        for number, (small, big, unit) in enumerate(_STANDARD_LEVELS):
            ante = 0 if number < 4 else (big if big_ante else max(unit, big // 8 // unit * unit))
            pause = 5 if breaks and timed and number % 4 == 3 else 0
            levels.append(Level(small, big, ante, length, pause, unit))
        return cls(tuple(levels), Clocking(by), AnteType(ante_type))

    def level_after_hands(self, hands: int) -> int:
        """The level of the next hand once ``hands`` hands were dealt (levels by hands)."""
        for number, level in enumerate(self.levels):
            if hands < level.length:
                return number
            hands -= level.length
        return len(self.levels) - 1

    def at_time(self, seconds: float) -> Moment:
        """The level (and whether it is a break) ``seconds`` after the start (by time)."""
        for number, level in enumerate(self.levels):
            seconds -= level.length * 60
            if seconds < 0:
                return Moment(number, False)
            seconds -= level.break_after * 60
            if seconds < 0:
                return Moment(number, True)
        return Moment(len(self.levels) - 1, False)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (:meth:`from_dict` reads it back)."""
        return {
            "by": self.by.value,
            "ante_type": self.ante_type.value,
            "levels": [list(_fields(level)) for level in self.levels],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BlindStructure:
        """The structure of :meth:`to_dict`; :class:`InvalidConfig` if it is not one."""
        try:
            levels = tuple(Level(*fields) for fields in data["levels"])
            return cls(levels, data["by"], data["ante_type"])
        except (KeyError, TypeError) as error:
            raise InvalidConfig(f"structure: not a blind structure ({error})") from None


_STANDARD_LEVELS = (  # small blind, big blind, chip unit
    (10, 20, 5), (15, 30, 5), (25, 50, 25), (50, 100, 25), (75, 150, 25), (100, 200, 25),
    (150, 300, 25), (200, 400, 100), (300, 600, 100), (400, 800, 100), (500, 1000, 100),
    (600, 1200, 100), (800, 1600, 100), (1000, 2000, 500), (1500, 3000, 500),
    (2000, 4000, 500), (3000, 6000, 1000), (4000, 8000, 1000), (6000, 12000, 1000),
    (8000, 16000, 1000), (10000, 20000, 1000), (15000, 30000, 5000), (20000, 40000, 5000),
    (30000, 60000, 5000), (40000, 80000, 5000), (50000, 100000, 5000),
    (75000, 150000, 25000), (100000, 200000, 25000),
)  # fmt: skip


def _fields(level: Level) -> tuple[int, int, int, int, int, int]:
    return (
        level.small_blind,
        level.big_blind,
        level.ante,
        level.length,
        level.break_after,
        level.chip_unit,
    )


def require_whole(name: str, value: object, minimum: int) -> None:
    """:class:`InvalidConfig` naming ``name`` unless ``value`` is a whole number of at
    least ``minimum``."""
    if not is_int(value) or value < minimum:  # type: ignore[operator]
        raise InvalidConfig(f"{name}: must be a whole number >= {minimum}, not {value!r}",
                            field=name)  # fmt: skip
