"""A table's settings (RULES.md TH-36, TH-38, TH-40, DH-7): the rules its hands are
played by and the table's own, checked once when made.

>>> config = TableConfig(small_blind=5, big_blind=10, seats=6)
>>> config.buy_in_range, config.button_rule.value
((200, 1000), 'moving')
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass

from doubleholdem.errors import InvalidConfig
from doubleholdem.game.config import GameConfig, GameRules

__all__ = ["MAX_SEATS", "ButtonRule", "TableConfig"]

MAX_SEATS = 10


class ButtonRule(str, enum.Enum):
    """TH-38: the moving button always advances to the next player and the blinds
    follow; with the dead button the big blind goes to the player due and the button and
    small blind are placed to suit, even on an empty seat."""

    MOVING = "moving"
    DEAD = "dead"


@dataclass(frozen=True)
class TableConfig(GameRules):
    """A table's settings: the :class:`~doubleholdem.game.config.GameRules` its hands are
    played by (blinds, structure, variant, antes, cap, rake, ...) and the table's own.
    Give every field by name.

    - ``seats``: 2 to 10.
    - ``min_buy_in``, ``max_buy_in``: the buy-in range (TH-36); default 20 and 100 big
      blinds. A top-up may bring a stack up to the maximum.
    - ``button_rule``: moving (default) or dead button (TH-38).
    - ``new_player_posts``: a new player posts a big blind or waits for it (TH-36,
      default); ``False`` at a tournament table: posts nothing and is dealt in at once,
      except between the button and the small blind (TRN-12).
    - ``absent_dealt_in``: a seat sitting out (its player absent) is dealt in, posts its
      blinds and antes, and its hand is killed at once (TRN-21, TH-24: it wins nothing,
      its posts are dead money for the live hands); ``False`` (default, a cash table):
      it is dealt out and misses its blinds (TH-37).
    - ``action_time``: seconds for each decision; ``time_bank``: extra seconds for a
      betting decision when they run out (TH-40, 30 by default, restored after each
      use); ``point_time``: seconds to choose a point card, no bank (DH-7).
    """

    seats: int = MAX_SEATS
    min_buy_in: int | None = None
    max_buy_in: int | None = None
    button_rule: ButtonRule = ButtonRule.MOVING
    new_player_posts: bool = True
    absent_dealt_in: bool = False
    action_time: float = 15.0
    time_bank: float = 30.0
    point_time: float = 15.0

    def __post_init__(self) -> None:
        super().__post_init__()
        set_ = object.__setattr__
        try:
            set_(self, "button_rule", ButtonRule(self.button_rule))
        except ValueError:
            raise InvalidConfig(
                f"button_rule: {self.button_rule!r} is not moving or dead", field="button_rule"
            ) from None
        _require(
            isinstance(self.new_player_posts, bool),
            "new_player_posts",
            f"{self.new_player_posts!r} is not true or false",
        )
        _require(
            isinstance(self.absent_dealt_in, bool),
            "absent_dealt_in",
            f"{self.absent_dealt_in!r} is not true or false",
        )
        _require(
            is_int(self.seats) and 2 <= self.seats <= MAX_SEATS,
            "seats",
            f"a table has 2 to {MAX_SEATS} seats, not {self.seats!r}",
        )
        low = 20 * self.big_blind if self.min_buy_in is None else self.min_buy_in
        high = 100 * self.big_blind if self.max_buy_in is None else self.max_buy_in
        _require(is_int(low) and low >= 1, "min_buy_in", f"{low!r} is not a positive amount")
        _require(is_int(high) and high >= low, "max_buy_in", f"{high!r} is below {low}")
        set_(self, "min_buy_in", low)
        set_(self, "max_buy_in", high)
        for name in ("action_time", "time_bank", "point_time"):
            value = getattr(self, name)
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
            _require(
                ok and math.isfinite(value) and value >= 0,
                name,
                f"{value!r} is not a number of seconds",
            )
        _require(self.action_time > 0, "action_time", "a decision needs some time")
        _require(self.point_time > 0, "point_time", "a point card needs some time")

    @property
    def buy_in_range(self) -> tuple[int, int]:
        """(minimum, maximum) buy-in."""
        assert self.min_buy_in is not None and self.max_buy_in is not None
        return self.min_buy_in, self.max_buy_in

    def hand_config(
        self,
        stacks: Sequence[int],
        *,
        button: int,
        blind_seats: tuple[int | None, int] | None = None,
        live_posts: Sequence[int] = (),
        dead_posts: Sequence[int] = (),
        muck_losing: Sequence[bool] = (),
        show_uncontested: Sequence[bool] = (),
        dead_hands: Sequence[int] = (),
    ) -> GameConfig:
        """The :class:`GameConfig` of one hand at this table."""
        return GameConfig(
            stacks=tuple(stacks),
            button=button,
            blind_seats=blind_seats,
            live_posts=tuple(live_posts),
            dead_posts=tuple(dead_posts),
            muck_losing=tuple(muck_losing),
            show_uncontested=tuple(show_uncontested),
            dead_hands=tuple(dead_hands),
            **self.rules(),
        )


def is_int(value: object) -> bool:
    """An int that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def _require(ok: bool, name: str, reason: str) -> None:
    if not ok:
        raise InvalidConfig(f"{name}: {reason}", field=name)
