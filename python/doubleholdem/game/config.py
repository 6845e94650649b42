"""The settings of a game (:class:`GameRules`) and of one hand (:class:`GameConfig`:
the rules and the seats), frozen and validated.

Every setting marked **[setting]** in RULES.md is a field here, with the rule's default.
Money is integers in the smallest unit (chips or cents).

>>> config = GameConfig(stacks=(1000, 1000, 1000), small_blind=5, big_blind=10)
>>> config.structure.value, config.variant.value, config.players
('no-limit', 'texas', 3)
>>> limit_blinds(500)  # $5/$10 fixed limit, in cents (TH-11)
(200, 500)
>>> GameConfig(stacks=(1000,), small_blind=5, big_blind=10)
Traceback (most recent call last):
...
doubleholdem.errors.InvalidConfig: stacks: a hand needs 2 to 10 players, not 1
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from doubleholdem.errors import InvalidConfig

__all__ = [
    "STRUCTURE_ALIASES",
    "VARIANT_ALIASES",
    "AnteType",
    "GameConfig",
    "GameRules",
    "Rake",
    "Structure",
    "Variant",
    "limit_blinds",
]

MIN_PLAYERS = 2
MAX_PLAYERS = 10


class Variant(str, enum.Enum):
    """Texas Hold'em (two hole cards) or Double Hold'em (three, DH-1).

    The names ``texas`` and ``double`` are the ones used everywhere (command line,
    server config, JSON); a few other spellings are accepted as aliases
    (:data:`VARIANT_ALIASES`, any case, ``_`` for ``-``):

    >>> [Variant(name).value for name in ("texas", "Double-Holdem", "TH")]
    ['texas', 'double', 'texas']
    """

    TEXAS = "texas"
    DOUBLE = "double"

    @classmethod
    def _missing_(cls, value: object) -> Variant | None:
        return _alias(cls, VARIANT_ALIASES, value)


class Structure(str, enum.Enum):
    """The betting structure (TH-10, TH-15, TH-16).

    The names ``fixed-limit``, ``pot-limit`` and ``no-limit`` are the ones used
    everywhere (command line, server config, JSON; PHH spells them in its variant
    codes: ``FT``, ``PT``, ``NT``); the old command-line spellings ``limit``, ``pot`` and
    ``no`` and a few others are accepted as aliases (:data:`STRUCTURE_ALIASES`, any
    case, ``_`` for ``-``):

    >>> [Structure(name).value for name in ("limit", "NL", "pot_limit", "no-limit")]
    ['fixed-limit', 'no-limit', 'pot-limit', 'no-limit']
    """

    FIXED_LIMIT = "fixed-limit"
    POT_LIMIT = "pot-limit"
    NO_LIMIT = "no-limit"

    @classmethod
    def _missing_(cls, value: object) -> Structure | None:
        return _alias(cls, STRUCTURE_ALIASES, value)


VARIANT_ALIASES = {
    "holdem": "texas",
    "texas-holdem": "texas",
    "th": "texas",
    "double-holdem": "double",
    "dh": "double",
}
"""Other spellings of :class:`Variant` names, accepted everywhere a variant is read."""

STRUCTURE_ALIASES = {
    "limit": "fixed-limit",
    "fixed": "fixed-limit",
    "fl": "fixed-limit",
    "pot": "pot-limit",
    "pl": "pot-limit",
    "no": "no-limit",
    "nl": "no-limit",
}
"""Other spellings of :class:`Structure` names (the first three of each were the
command line's), accepted everywhere a structure is read."""

_E = Any
_Member = TypeVar("_Member", bound=enum.Enum)
_Derived = TypeVar("_Derived")


def _alias(kind: type[_Member], aliases: dict[str, str], value: object) -> _Member | None:
    """The member ``value`` names in another spelling, or ``None`` (a ValueError)."""
    if not isinstance(value, str):
        return None
    word = value.strip().lower().replace("_", "-")
    word = aliases.get(word, word)
    for member in kind:
        if member.value == word:
            return member
    return None


class AnteType(str, enum.Enum):
    """TH-19: a uniform ante from every player, or one ante for the table from the big
    blind."""

    UNIFORM = "uniform"
    BIG_BLIND = "big-blind"


def limit_blinds(small_bet: int, unit: int = 100) -> tuple[int, int]:
    """The (small blind, big blind) of a fixed-limit table (TH-10, TH-11).

    The big blind is the small bet; the small blind is half of it, rounded down to a
    whole ``unit`` (a dollar of 100 cents by default) when the small bet is above one
    unit.

    >>> limit_blinds(1000), limit_blinds(1500), limit_blinds(100), limit_blinds(300)
    ((500, 1000), (700, 1500), (50, 100), (100, 300))
    """
    _require_int("small_bet", small_bet, minimum=1)
    _require_int("unit", unit, minimum=1)
    half = small_bet // 2
    if small_bet > unit:
        half = half // unit * unit
    return half, small_bet


@dataclass(frozen=True)
class Rake:
    """The house share (TH-31): ``basis_points`` of each pot (500 = 5%), rounded down,
    at most ``cap`` per hand (``None``: no cap), and with ``no_flop_no_drop`` nothing is
    taken from a hand that ends before the flop."""

    basis_points: int
    cap: int | None = None
    no_flop_no_drop: bool = True

    def __post_init__(self) -> None:
        _require_int("rake.basis_points", self.basis_points, minimum=0)
        if self.basis_points > 10_000:
            raise InvalidConfig(
                f"rake.basis_points: {self.basis_points} is more than the whole pot (10000)",
                field="rake.basis_points",
            )
        if self.cap is not None:
            _require_int("rake.cap", self.cap, minimum=0)
        _require_bool("rake.no_flop_no_drop", self.no_flop_no_drop)


@dataclass(frozen=True)
class GameRules:
    """The rules a game is played by, the same at every hand of a table (RULES.md
    settings): a :class:`GameConfig` adds the seats of one hand, a table's
    ``TableConfig`` the table's own settings. Validated on construction
    (:class:`InvalidConfig` says why).

    - ``small_blind``, ``big_blind``: the blinds (TH-2; TH-11 helper :func:`limit_blinds`).
    - ``structure``: fixed limit, pot limit or no limit (default no limit).
    - ``variant``: Texas or Double Hold'em (DH-1).
    - ``small_bet``, ``big_bet``: fixed limit only; default the big blind and twice the
      small bet (TH-10).
    - ``min_bet``: no/pot limit minimum bet, default the big blind (TH-15).
    - ``ante`` and ``ante_type``: TH-19 (default no ante); ``blind_before_ante``: a
      big-blind ante is posted after the big blind, so a big blind short of both posts
      the blind first (TRN-9, the tournament rule; default off: the ante first, TH-19).
    - ``cap``: fixed limit bets per round counting the bet, ``None`` for no cap (TH-12,
      default 4: a bet and three raises); ``heads_up_uncapped`` (TH-13, default on).
    - ``rake``: TH-31 (default none).
    - ``reveal_point`` shows a chosen point card to everyone at once instead of at
      showdown (DH-8, default hidden).
    """

    small_blind: int
    big_blind: int
    structure: Structure = Structure.NO_LIMIT
    variant: Variant = Variant.TEXAS
    small_bet: int | None = None
    big_bet: int | None = None
    min_bet: int | None = None
    ante: int = 0
    ante_type: AnteType = AnteType.UNIFORM
    blind_before_ante: bool = False
    cap: int | None = 4
    heads_up_uncapped: bool = True
    rake: Rake | None = None
    reveal_point: bool = False

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "structure", _enum(Structure, "structure", self.structure))
        set_(self, "variant", _enum(Variant, "variant", self.variant))
        set_(self, "ante_type", _enum(AnteType, "ante_type", self.ante_type))
        self._check_blinds()
        self._check_bets()
        _require_int("ante", self.ante, minimum=0)
        if self.cap is not None:
            _require_int("cap", self.cap, minimum=1)
        _require_bool("heads_up_uncapped", self.heads_up_uncapped)
        _require_bool("blind_before_ante", self.blind_before_ante)
        _require_bool("reveal_point", self.reveal_point)
        if self.rake is not None and not isinstance(self.rake, Rake):
            raise InvalidConfig("rake: give a Rake or None", field="rake")

    def rules(self) -> dict[str, Any]:
        """The :class:`GameRules` fields and their values (what a table hands to each
        hand's :class:`GameConfig`)."""
        return {name: getattr(self, name) for name in _RULES}

    def _check_blinds(self) -> None:
        _require_int("small_blind", self.small_blind, minimum=0)
        _require_int("big_blind", self.big_blind, minimum=1)
        if self.small_blind > self.big_blind:
            raise InvalidConfig(
                f"small_blind: {self.small_blind} is more than the big blind {self.big_blind}",
                field="small_blind",
            )

    def _check_bets(self) -> None:
        if self.structure is Structure.FIXED_LIMIT:
            small = self.big_blind if self.small_bet is None else self.small_bet
            _require_int("small_bet", small, minimum=1)
            big = 2 * small if self.big_bet is None else self.big_bet
            _require_int("big_bet", big, minimum=small)
            object.__setattr__(self, "small_bet", small)
            object.__setattr__(self, "big_bet", big)
        elif self.small_bet is not None or self.big_bet is not None:
            raise InvalidConfig(
                f"small_bet/big_bet: only fixed limit has fixed bets, not {self.structure.value}",
                field="small_bet",
            )
        if self.min_bet is not None:
            if self.structure is Structure.FIXED_LIMIT:
                raise InvalidConfig(
                    "min_bet: fixed limit bets are small_bet and big_bet", field="min_bet"
                )
            _require_int("min_bet", self.min_bet, minimum=1)

    @property
    def hole_cards(self) -> int:
        """Hole cards per player: 2, or 3 in Double Hold'em (DH-1)."""
        return 3 if self.variant is Variant.DOUBLE else 2

    @property
    def minimum_bet(self) -> int:
        """The smallest no/pot-limit bet (TH-15): ``min_bet`` or the big blind."""
        return self.big_blind if self.min_bet is None else self.min_bet


_RULES = tuple(f.name for f in dataclasses.fields(GameRules))


@dataclass(frozen=True)
class GameConfig(GameRules):
    """One hand's settings: the :class:`GameRules` and the seats, validated on
    construction (:class:`InvalidConfig` says why). Give every field by name.

    - ``stacks``: chips of each seat at the start of the hand (2 to 10 seats, TH-1, TH-6),
      seats numbered clockwise from 0.
    - ``button``: the button's seat. With two players the button posts the small blind
      (TH-3); otherwise the small blind sits left of it (TH-2).

    What a table (``doubleholdem.table``) needs beyond one hand, all off by default:

    - ``blind_seats``: ``(small, big)`` seats that post the blinds instead of the seats
      the button gives (TH-2, TH-3); ``small`` may be ``None``: no small blind this hand
      (a dead small blind, TH-38).
    - ``live_posts``: chips each seat posts live before the deal besides the blinds (a
      new or returning player's big blind, TH-36, TH-37): they count as that seat's
      wager pre-flop, and it keeps its option. Empty, or one amount per seat.
    - ``dead_posts``: chips each seat posts dead into the main pot (the small-blind part
      of missed blinds, TH-37). Empty, or one amount per seat.
    - ``dead_hands``: the seats whose hands are dead, killed as soon as dealt (TH-24: an
      absent tournament player's, TRN-21); at least one hand stays live.
    - ``muck_losing``, ``show_uncontested``: each seat's showdown preferences (TH-22),
      empty or one ``True``/``False`` per seat: a hand that can no longer win is mucked
      (default on; off: it is shown in its turn of the show order), and a winner nobody
      contested shows its cards (default off).
    """

    stacks: tuple[int, ...] = ()
    button: int = 0
    blind_seats: tuple[int | None, int] | None = None
    live_posts: tuple[int, ...] = ()
    dead_posts: tuple[int, ...] = ()
    dead_hands: tuple[int, ...] = ()
    muck_losing: tuple[bool, ...] = ()
    show_uncontested: tuple[bool, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "stacks", _stacks(self.stacks))
        _require_int("button", self.button, minimum=0)
        if self.button >= len(self.stacks):
            raise InvalidConfig(
                f"button: seat {self.button} does not exist (seats 0..{len(self.stacks) - 1})",
                field="button",
            )
        super().__post_init__()
        self._check_table_fields()

    def _check_table_fields(self) -> None:
        n = len(self.stacks)
        if self.blind_seats is not None:
            seats = tuple(self.blind_seats)
            if len(seats) != 2:
                raise InvalidConfig(
                    f"blind_seats: give (small, big), not {self.blind_seats!r}",
                    field="blind_seats",
                )
            small, big = seats
            for name, seat in (("small", small), ("big", big)):
                if seat is None and name == "small":
                    continue
                _require_int(f"blind_seats.{name}", seat, minimum=0)
                assert isinstance(seat, int)
                if seat >= n:
                    raise InvalidConfig(
                        f"blind_seats: seat {seat} does not exist (seats 0..{n - 1})",
                        field="blind_seats",
                    )
            if small == big:
                raise InvalidConfig(
                    f"blind_seats: seat {big} cannot post both blinds", field="blind_seats"
                )
            object.__setattr__(self, "blind_seats", seats)
        for name in ("live_posts", "dead_posts"):
            posts = tuple(getattr(self, name))
            if posts and len(posts) != n:
                raise InvalidConfig(
                    f"{name}: give one amount per seat ({n}), not {len(posts)}", field=name
                )
            _require_ints(name, posts, minimum=0)
            object.__setattr__(self, name, posts)
        if self.dead_hands:  # TH-24
            dead = tuple(self.dead_hands)
            _require_ints("dead_hands", dead, minimum=0)
            if len(set(dead)) != len(dead) or max(dead) >= n or len(dead) >= n:
                raise InvalidConfig(
                    f"dead_hands: distinct seats of 0..{n - 1}, fewer than {n}, "
                    f"not {self.dead_hands!r}",
                    field="dead_hands",
                )
            object.__setattr__(self, "dead_hands", dead)
        for name in ("muck_losing", "show_uncontested"):
            flags = tuple(getattr(self, name))
            if flags and len(flags) != n:
                raise InvalidConfig(
                    f"{name}: give one true or false per seat ({n}), not {len(flags)}", field=name
                )
            _require_bools(name, flags)
            object.__setattr__(self, name, flags)

    @property
    def players(self) -> int:
        """The number of seats dealt in."""
        return len(self.stacks)

    def derived(self, name: str, make: Callable[[GameConfig], _Derived]) -> _Derived:
        """``make(self)``, made once for this config and kept with it under ``name``
        (what every hand of the config starts from: its posts, its PHH header), so that
        hands built from one config do no config work. Kept with the config it was made
        for: a config whose fields were copied from another's (a table's template) makes
        its own."""
        kept = self.__dict__.get(name)
        if kept is not None and kept[0] == id(self):
            return kept[1]  # type: ignore[no-any-return]
        value = make(self)
        # kept with the config's id, not the config: no reference cycle (a copy is made
        # while its original lives, so their ids differ)
        self.__dict__[name] = (id(self), value)
        return value

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; :meth:`from_dict` reads it back."""
        data = {name: getattr(self, name) for name in _FIELDS}  # no deep copy: all plain
        if not self.blind_before_ante:  # written only when on: older texts unchanged
            del data["blind_before_ante"]
        for name in ("structure", "variant", "ante_type"):
            data[name] = data[name].value
        if self.rake is not None:
            data["rake"] = dataclasses.asdict(self.rake)
        data["stacks"] = list(self.stacks)
        for name in _SEAT_LISTS:
            value = data.pop(name)
            if value:
                data[name] = list(value)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameConfig:
        """The config written by :meth:`to_dict`."""
        if not isinstance(data, dict):
            raise InvalidConfig("a config is a JSON object")
        fields = dict(data)
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(fields) - names)
        if unknown:
            raise InvalidConfig(f"unknown config fields: {', '.join(unknown)}")
        for name in ("stacks", *_SEAT_LISTS):
            if isinstance(fields.get(name), list):
                fields[name] = tuple(fields[name])
        rake = fields.get("rake")
        if isinstance(rake, dict):
            try:
                fields["rake"] = Rake(**rake)
            except TypeError as error:
                raise InvalidConfig(f"rake: {error}", field="rake") from None
        try:
            return cls(**fields)
        except TypeError as error:
            raise InvalidConfig(f"config: {error}") from None


def _require_int(name: str, value: object, *, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidConfig(f"{name}: {value!r} is not a whole number", field=name)
    if value < minimum:
        raise InvalidConfig(f"{name}: {value} is below the minimum {minimum}", field=name)


def _require_ints(name: str, values: tuple[object, ...], *, minimum: int) -> None:
    """:func:`_require_int` of each of ``values``, named ``name[seat]``; the names are
    made only for a refusal (a config is made at every hand of a table)."""
    if not all(type(value) is int and value >= minimum for value in values):
        for seat, value in enumerate(values):
            _require_int(f"{name}[{seat}]", value, minimum=minimum)


def _require_bool(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise InvalidConfig(f"{name}: {value!r} is not true or false", field=name)


def _require_bools(name: str, values: tuple[object, ...]) -> None:
    """:func:`_require_bool` of each of ``values``, named ``name[seat]`` (made only for
    a refusal)."""
    if not all(type(value) is bool for value in values):
        for seat, value in enumerate(values):
            _require_bool(f"{name}[{seat}]", value)


def _enum(kind: type[_E], name: str, value: object) -> _E:
    if type(value) is kind:  # a member already: Python 3.11's Enum call is slow
        return value
    try:
        return kind(value)
    except ValueError:
        choices = ", ".join(member.value for member in kind)
        raise InvalidConfig(f"{name}: {value!r} is not one of {choices}", field=name) from None


def _stacks(stacks: object) -> tuple[int, ...]:
    if isinstance(stacks, (str, bytes)) or not hasattr(stacks, "__iter__"):
        raise InvalidConfig(f"stacks: {stacks!r} is not a list of chip counts", field="stacks")
    values = tuple(stacks)
    if not MIN_PLAYERS <= len(values) <= MAX_PLAYERS:
        raise InvalidConfig(
            f"stacks: a hand needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(values)}",
            field="stacks",
        )
    _require_ints("stacks", values, minimum=1)
    return values


_FIELDS = tuple(f.name for f in dataclasses.fields(GameConfig))
# the per-seat fields a JSON config leaves out while they are empty
_SEAT_LISTS = (
    "blind_seats",
    "live_posts",
    "dead_posts",
    "dead_hands",
    "muck_losing",
    "show_uncontested",
)
