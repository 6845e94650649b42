"""A tournament's settings (RULES.md TRN-1 to TRN-9, TRN-18), checked once when made,
and the table settings of each level.

>>> config = TournamentConfig(kind="sit-and-go", capacity=9, starting_stack=1500, buy_in=100)
>>> config.kind.value, config.seats, config.table_config(0).big_blind
('sit-and-go', 9, 20)
>>> TournamentConfig(seats=11)
Traceback (most recent call last):
...
doubleholdem.errors.InvalidConfig: seats: a table has 2 to 10 seats, not 11
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any

from doubleholdem.errors import InvalidConfig
from doubleholdem.game.config import Structure, Variant
from doubleholdem.table.config import MAX_SEATS, ButtonRule, TableConfig, is_int
from doubleholdem.tournament.payouts import DEFAULT_PAYOUTS, PayoutTable
from doubleholdem.tournament.structure import BlindStructure, require_whole

__all__ = ["MOST_CHIPS", "Kind", "Rebuys", "TournamentConfig"]

MOST_CHIPS = 10**15
"""The largest stack a tournament table accepts (its maximum buy-in)."""


class Kind(str, enum.Enum):
    """TRN-2: a sit-and-go starts when full; a scheduled tournament when told."""

    SIT_AND_GO = "sit-and-go"
    SCHEDULED = "scheduled"


@dataclass(frozen=True)
class Rebuys:
    """TRN-6: rebuys until the end of level ``until_level`` (counted from 1) for
    ``price`` (into the pool) and ``chips``, at most ``most`` per entry (``None``: no
    limit), by a player with at most ``threshold`` chips (``None``: the starting
    stack); then one add-on each until the end of the next level for ``add_on_price``
    and ``add_on_chips`` (0 chips: no add-on)."""

    until_level: int
    price: int
    chips: int
    most: int | None = None
    threshold: int | None = None
    add_on_price: int = 0
    add_on_chips: int = 0

    def __post_init__(self) -> None:
        require_whole("rebuys.until_level", self.until_level, 1)
        require_whole("rebuys.price", self.price, 0)
        require_whole("rebuys.chips", self.chips, 1)
        require_whole("rebuys.add_on_price", self.add_on_price, 0)
        require_whole("rebuys.add_on_chips", self.add_on_chips, 0)
        if self.most is not None:
            require_whole("rebuys.most", self.most, 1)
        if self.threshold is not None:
            require_whole("rebuys.threshold", self.threshold, 0)


@dataclass(frozen=True)
class TournamentConfig:
    """A tournament's settings. Give every field by name.

    - ``kind``: sit-and-go (starts when ``capacity`` players registered) or scheduled
      (default; starts when told, with ``minimum`` entrants at least, TRN-2).
    - ``capacity``: most entries at once (a sit-and-go's size); ``seats``: per table.
    - ``starting_stack``, ``buy_in`` (into the pool) and ``fee`` (the house's, TRN-1).
    - ``blinds``: the :class:`BlindStructure` (TRN-7 to TRN-10); ``betting`` and
      ``variant``: the betting structure and the game of every table.
    - ``late_registration``: entries accepted until the end of this level (counted
      from 1; 0: none, TRN-4); ``re_entries``: per player (TRN-5).
    - ``rebuys``: :class:`Rebuys` or ``None`` (TRN-6).
    - ``payouts``: the :class:`PayoutTable` (TRN-18); ``hand_for_hand``: on the money
      bubble (TRN-16); ``hand_for_hand_at``: the numbers of entries left at which
      hand-for-hand is played too (other pay jumps, the final table: TRN-16).
    """

    kind: Kind = Kind.SCHEDULED
    capacity: int = 10_000
    minimum: int = 2
    seats: int = 9
    starting_stack: int = 10_000
    buy_in: int = 0
    fee: int = 0
    blinds: BlindStructure = field(default_factory=BlindStructure.standard)
    betting: Structure = Structure.NO_LIMIT
    variant: Variant = Variant.TEXAS
    late_registration: int = 0
    re_entries: int = 0
    rebuys: Rebuys | None = None
    payouts: PayoutTable = DEFAULT_PAYOUTS
    hand_for_hand: bool = True
    hand_for_hand_at: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        for name, kind in (("kind", Kind), ("betting", Structure), ("variant", Variant)):
            try:
                set_(self, name, kind(getattr(self, name)))
            except ValueError:
                raise InvalidConfig(
                    f"{name}: {getattr(self, name)!r} is not one of "
                    f"{', '.join(member.value for member in kind)}",
                    field=name,
                ) from None
        if not is_int(self.seats) or not 2 <= self.seats <= MAX_SEATS:
            raise InvalidConfig(
                f"seats: a table has 2 to {MAX_SEATS} seats, not {self.seats!r}", field="seats"
            )
        require_whole("minimum", self.minimum, 2)
        require_whole("capacity", self.capacity, self.minimum)
        require_whole("starting_stack", self.starting_stack, 1)
        require_whole("buy_in", self.buy_in, 0)
        require_whole("fee", self.fee, 0)
        require_whole("late_registration", self.late_registration, 0)
        require_whole("re_entries", self.re_entries, 0)
        if self.re_entries and not self.late_registration:
            raise InvalidConfig("re_entries: re-entry needs late registration (TRN-5)",
                                field="re_entries")  # fmt: skip
        if not isinstance(self.blinds, BlindStructure):
            raise InvalidConfig("blinds: give a BlindStructure", field="blinds")
        if not isinstance(self.payouts, PayoutTable):
            raise InvalidConfig("payouts: give a PayoutTable", field="payouts")
        if self.rebuys is not None and not isinstance(self.rebuys, Rebuys):
            raise InvalidConfig("rebuys: give Rebuys or None", field="rebuys")
        if not isinstance(self.hand_for_hand, bool):
            raise InvalidConfig("hand_for_hand: true or false", field="hand_for_hand")
        at = self.hand_for_hand_at
        if isinstance(at, (str, bytes)) or not isinstance(at, (tuple, list)):
            raise InvalidConfig(f"hand_for_hand_at: numbers of entries left, not {at!r}",
                                field="hand_for_hand_at")  # fmt: skip
        for players in at:
            require_whole("hand_for_hand_at", players, 2)
        set_(self, "hand_for_hand_at", tuple(sorted(set(at), reverse=True)))
        if self.kind is Kind.SIT_AND_GO and self.late_registration:
            raise InvalidConfig("late_registration: a sit-and-go starts full (TRN-2)",
                                field="late_registration")  # fmt: skip
        self.table_config(0)  # the tables' settings can be made

    def table_config(self, level: int) -> TableConfig:
        """The settings of a table at ``level`` (counted from 0): the level's blinds and
        ante, the dead button (TRN-11), new players dealt in without posting (TRN-12),
        absent players dealt in with dead hands (TRN-21), and any stack accepted."""
        return _table_config(self, level)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (:meth:`from_dict` reads it back)."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        for name in ("kind", "betting", "variant"):
            data[name] = data[name].value
        data["blinds"] = self.blinds.to_dict()
        data["payouts"] = self.payouts.to_dict()
        data["rebuys"] = None if self.rebuys is None else vars(self.rebuys).copy()
        data["hand_for_hand_at"] = list(self.hand_for_hand_at)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentConfig:
        """The settings of :meth:`to_dict`; :class:`InvalidConfig` if they are not."""
        try:
            values = dict(data)
            values["blinds"] = BlindStructure.from_dict(values["blinds"])
            values["payouts"] = PayoutTable.from_dict(values["payouts"])
            if values["rebuys"] is not None:
                values["rebuys"] = Rebuys(**values["rebuys"])
            return cls(**values)
        except (KeyError, TypeError) as error:
            raise InvalidConfig(f"tournament: not a configuration ({error})") from None


@lru_cache(maxsize=256)
def _table_config(config: TournamentConfig, level: int) -> TableConfig:
    blinds = config.blinds.levels[level]
    return TableConfig(
        small_blind=blinds.small_blind,
        big_blind=blinds.big_blind,
        ante=blinds.ante,
        ante_type=config.blinds.ante_type,
        blind_before_ante=True,
        structure=config.betting,
        variant=config.variant,
        seats=config.seats,
        min_buy_in=1,
        max_buy_in=MOST_CHIPS,
        button_rule=ButtonRule.DEAD,
        new_player_posts=False,
        absent_dealt_in=True,
    )
