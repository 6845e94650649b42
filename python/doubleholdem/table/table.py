"""A table: hand after hand with players who come and go (RULES.md TH-35 to TH-40,
DH-5 to DH-7).

A :class:`Table` has up to ten seats. Players join with a buy-in in the table's range,
sit out and come back, top up and leave between hands; stacks carry from hand to hand.
Before each hand the table places the button and the blinds (TH-35, TH-38), asks new
players for a big blind or lets them wait for it (TH-36), collects missed blinds, the big
part live and the small part dead (TH-37), and deals the hand to the players able to
play, mapped onto a :class:`~doubleholdem.game.Hand`.

There is no clock inside: every call that may spend time takes ``now`` (seconds, any
origin, never going back), and :attr:`Table.deadline` says when the seat to act runs out
of time. :meth:`Table.advance` applies what expired: a betting decision gets the action
time, then the time bank (TH-40, restored after each use), then checks if free or folds;
a point card gets its own time and no bank (DH-7), then DH-6 chooses. Every timeout and
every start of a time bank is an event in the log. The same seed and the same calls give
the same log, byte for byte.

>>> table = Table(TableConfig(small_blind=5, big_blind=10), seed=1)
>>> table.join(0, "ann", 1000); table.join(3, "bob", 1000); table.join(5, "cy", 1000)
>>> table.start_hand(now=0.0)
>>> table.button, table.blinds, table.to_act
(0, (3, 5), 0)
>>> table.act(0, "fold", now=2.0)
>>> table.act(3, "fold", now=3.0)
>>> table.in_hand, table.stack(5)
(False, 1005)
>>> table.start_hand(now=10.0)
>>> table.button, table.blinds
(3, (5, 0))
"""

from __future__ import annotations

import bisect
import enum
import hashlib
import json
import math
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from doubleholdem.cards import CARD_NAMES
from doubleholdem.errors import (
    BuyInOutOfRange,
    HandInProgress,
    IllegalAction,
    InvalidConfig,
    InvalidSnapshot,
    NotEnoughPlayers,
    SeatEmpty,
    SeatTaken,
    TableError,
    TamperedSnapshot,
)
from doubleholdem.game.betting import Action, LegalActions
from doubleholdem.game.config import GameConfig, GameRules, Rake, Variant
from doubleholdem.game.hand import Event, Hand

__all__ = [
    "ButtonRule",
    "Decision",
    "Observation",
    "Table",
    "TableConfig",
]

MAX_SEATS = 10
TABLE_SNAPSHOT_VERSION = 1  # of Table.to_json
_SNAPSHOT_FRAME = re.compile(r'\{"version":\d+,"sha256":"([0-9a-f]{64})","table":(.*)\}', re.S)
BET = "bet"
POINT = "point"


class ButtonRule(str, enum.Enum):
    """TH-38: the moving button always advances to the next player and the blinds
    follow; with the dead button the big blind goes to the player due and the button and
    small blind are placed to suit, even on an empty seat."""

    MOVING = "moving"
    DEAD = "dead"


_MOVING = ButtonRule.MOVING  # Python 3.11 looks attributes of an Enum class up slowly


@dataclass(frozen=True)
class TableConfig(GameRules):
    """A table's settings: the :class:`~doubleholdem.game.config.GameRules` its hands are
    played by (blinds, structure, variant, antes, cap, rake, ...) and the table's own.
    Give every field by name.

    - ``seats``: 2 to 10.
    - ``min_buy_in``, ``max_buy_in``: the buy-in range (TH-36); default 20 and 100 big
      blinds. A top-up may bring a stack up to the maximum.
    - ``button_rule``: moving (default) or dead button (TH-38).
    - ``action_time``: seconds for each decision; ``time_bank``: extra seconds for a
      betting decision when they run out (TH-40, 30 by default, restored after each
      use); ``point_time``: seconds to choose a point card, no bank (DH-7).
    """

    seats: int = MAX_SEATS
    min_buy_in: int | None = None
    max_buy_in: int | None = None
    button_rule: ButtonRule = ButtonRule.MOVING
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
            _is_int(self.seats) and 2 <= self.seats <= MAX_SEATS,
            "seats",
            f"a table has 2 to {MAX_SEATS} seats, not {self.seats!r}",
        )
        low = 20 * self.big_blind if self.min_buy_in is None else self.min_buy_in
        high = 100 * self.big_blind if self.max_buy_in is None else self.max_buy_in
        _require(_is_int(low) and low >= 1, "min_buy_in", f"{low!r} is not a positive amount")
        _require(_is_int(high) and high >= low, "max_buy_in", f"{high!r} is below {low}")
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
    ) -> GameConfig:
        """The :class:`GameConfig` of one hand at this table."""
        return GameConfig(
            stacks=tuple(stacks),
            button=button,
            blind_seats=blind_seats,
            live_posts=tuple(live_posts),
            dead_posts=tuple(dead_posts),
            **self.rules(),
        )


class Decision(NamedTuple):
    """A seat's answer: a betting ``action`` (``fold``, ``check``, ``call``, ``bet``,
    ``raise``, ``all_in``) with ``amount`` the total to bet or raise to, or
    ``("point", index)`` for a Double Hold'em point card (DH-5)."""

    action: str
    amount: int | None = None


class Observation(NamedTuple):
    """What one seat knows when it must decide: its own cards and the public state,
    nothing else. Bots decide from this; :meth:`from_view` builds it from the JSON view
    a remote player receives, so a bot can sit on either side of a connection."""

    seat: int
    decision: str
    legal: LegalActions
    hole: tuple[int, ...]
    board: tuple[int, ...]
    pot: int
    big_blind: int
    opponents: int
    variant: Variant

    @classmethod
    def from_view(cls, view: dict[str, Any]) -> Observation:
        """The observation inside :meth:`Table.view` of the seat to act; a
        :class:`TableError` names what is missing or wrong in something else."""
        try:
            return cls._from_view(view)
        except TableError:
            raise
        except KeyError as error:
            raise TableError(f"not a table view: it has no {error.args[0]!r} field") from None
        except (TypeError, AttributeError, ValueError, IndexError) as error:
            raise TableError(f"not a table view: {error}") from None

    @classmethod
    def _from_view(cls, view: dict[str, Any]) -> Observation:
        from doubleholdem.cards import parse_card

        hand = view["hand"]
        if hand is None or hand["legal"] is None:
            raise TableError(f"seat {view['seat']} has no decision to make", seat=view["seat"])
        legal = dict(hand["legal"])
        legal["points"] = tuple(legal["points"])
        seat = legal.pop("seat")
        in_hand = hand["in_hand"]
        return cls(
            seat=seat,
            decision=hand["decision"],
            legal=LegalActions(seat, **legal),
            hole=tuple(parse_card(c) for c in hand["hole"]),
            board=tuple(parse_card(c) for c in hand["board"]),
            pot=hand["pot"],
            big_blind=view["big_blind"],
            opponents=sum(1 for s, alive in in_hand.items() if alive and int(s) != seat),
            variant=Variant(view["variant"]),
        )


@dataclass
class _Seat:
    """One occupied seat. ``new``: has not been dealt a hand since joining (TH-36);
    ``missed_small``/``missed_big``: blinds that passed while it sat out (TH-37);
    ``post``: pays what it owes to play at once instead of waiting for the big blind."""

    player: str
    stack: int
    bought_in: int
    sitting_out: bool = False
    new: bool = True
    missed_small: bool = False
    missed_big: bool = False
    post: bool = True
    leaving: bool = False

    @property
    def owes(self) -> bool:
        return self.new or self.missed_small or self.missed_big

    def settle_debts(self) -> None:
        """Nothing owed any more: posted, or dealt in as a blind."""
        self.new = self.missed_small = self.missed_big = False


@dataclass
class _Plan:
    """Where the button and the blinds go and who is dealt in (table seats)."""

    button: int
    small: int | None
    big: int
    dealt: list[int]
    small_position: int
    live: dict[int, int] = field(default_factory=dict)
    dead: dict[int, int] = field(default_factory=dict)


class Table:
    """Hand after hand at one table (see the module docstring).

    ``seed`` or ``rng`` make the deals reproducible; otherwise a strong shuffle is used.
    All refusals raise a :class:`~doubleholdem.errors.TableError` subclass naming the
    seat, or :class:`~doubleholdem.errors.IllegalAction` for a decision the rules do not
    allow; a refused call changes nothing.
    """

    def __init__(
        self,
        config: TableConfig,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
    ) -> None:
        if not isinstance(config, TableConfig):
            raise InvalidConfig(f"a Table needs a TableConfig, not {type(config).__name__}")
        self.config = config
        self._template = config.hand_config((config.big_blind, config.big_blind), button=0)
        self._template_of = config  # the settings the template was made from
        if rng is None and seed is not None:
            rng = random.Random(seed)
        self._rng = rng
        self._seats: list[_Seat | None] = [None] * config.seats
        self._button: int | None = None
        self._small: int | None = None
        self._big: int | None = None
        self._last_big: tuple[int, str] | None = None
        self._hand: Hand | None = None
        self._to_act: int | None = None  # the table seat of the hand's actor
        self._actor = -1  # its hand index
        self._dealt: list[int] = []
        self._dealt_players: list[str] = []
        self._synced = 0
        self._hand_number = 0
        # table records as dicts; a hand's event as its number in the hand, turned into a
        # dict only when the log is read (``_hands``: where each hand's events start in
        # the log, ``_hand_seats``: the hand (its events as plain tuples once it is over:
        # the garbage collector stops tracking those, not Event tuples), its number,
        # dealt seats and the players dealt in)
        self._log: list[dict[str, Any] | int] = []
        self._hands: list[int] = []
        self._hand_seats: list[
            tuple[Hand | tuple[tuple[Any, ...], ...], int, list[int], list[str]]
        ] = []
        self._legal: tuple[LegalActions, LegalActions] | None = None
        self._bought_in = 0
        self._cashed_out = 0
        self._rake = 0
        self._now = 0.0
        self._deadline: float | None = None
        self._phase: str | None = None

    # ------------------------------------------------------------------ state

    @property
    def hand(self) -> Hand | None:
        """The hand being played or last played (server side: every card is in it)."""
        return self._hand

    @property
    def in_hand(self) -> bool:
        """True while a hand is being played."""
        return self._hand is not None and not self._hand.over

    @property
    def hand_number(self) -> int:
        """Hands started so far."""
        return self._hand_number

    @property
    def dealt(self) -> list[int]:
        """The seats dealt into the current or last hand, clockwise from seat 0."""
        return list(self._dealt)

    @property
    def button(self) -> int | None:
        """The button's seat in the current or last hand (may be an empty seat, TH-38)."""
        return self._button

    @property
    def blinds(self) -> tuple[int | None, int | None]:
        """The (small, big) blind seats of the current or last hand; the small blind
        seat may hold nobody who posts (a dead small blind, TH-38)."""
        return self._small, self._big

    @property
    def to_act(self) -> int | None:
        """The seat whose decision is awaited."""
        return self._to_act

    @property
    def decision(self) -> str | None:
        """``"bet"`` or ``"point"`` while a decision is awaited."""
        return self._hand.decision if self.in_hand and self._hand else None

    @property
    def deadline(self) -> float | None:
        """When the seat to act runs out of time (its action time, then its time bank)."""
        return self._deadline

    @property
    def time_bank_running(self) -> bool:
        """True once the seat to act has started its time bank (TH-40)."""
        return self._phase == "bank"

    @property
    def now(self) -> float:
        """The latest time the table was given."""
        return self._now

    @property
    def rake(self) -> int:
        """Chips the house took so far (TH-31)."""
        return self._rake

    @property
    def bought_in(self) -> int:
        """Chips brought to the table (buy-ins and top-ups) minus chips taken away by
        players who left."""
        return self._bought_in - self._cashed_out

    def chips(self) -> int:
        """Every chip at the table: stacks, and during a hand the pot. Always
        ``chips() + rake == bought_in``."""
        total = sum(seat.stack for seat in self._seats if seat is not None)
        hand = self._hand
        if hand is not None and not hand.over:
            total += sum(hand.stacks) + hand.pot - sum(self._stack_of(s) for s in self._dealt)
        return total

    def seats(self) -> list[dict[str, Any] | None]:
        """The public state of every seat: player, stack (before the current hand),
        sitting out, and what it owes to come in (TH-36, TH-37)."""
        return [None if seat is None else self._public_seat(seat) for seat in self._seats]

    def player(self, seat: int) -> str:
        """The name of the player in ``seat``."""
        return self._occupant(seat).player

    def stack(self, seat: int) -> int:
        """The chips in front of ``seat`` now (during a hand: what it has behind)."""
        self._occupant(seat)
        return self._live_stack(seat)

    def bought_in_by(self, seat: int) -> int:
        """The chips the player in ``seat`` brought: buy-in plus top-ups."""
        return self._occupant(seat).bought_in

    def seat_of(self, player: str) -> int | None:
        """The seat of ``player``, or ``None``."""
        for number, seat in enumerate(self._seats):
            if seat is not None and seat.player == player:
                return number
        return None

    # ------------------------------------------------------------------ seating

    def join(
        self,
        seat: int,
        player: str,
        buy_in: int,
        *,
        wait_for_big_blind: bool = False,
        now: float | None = None,
    ) -> None:
        """Seats ``player`` with ``buy_in`` chips (TH-36: in the table's range). A new
        player posts a big blind to be dealt in at the next hand, or with
        ``wait_for_big_blind`` waits until the big blind reaches it. Allowed during a
        hand: the player is dealt in from the next one."""
        self._time(now)
        self._check_seat_number(seat)
        occupant = self._seats[seat]
        if occupant is not None:
            raise SeatTaken(f"seat {seat} is taken by {occupant.player}", seat=seat)
        if not isinstance(player, str) or not player:
            raise TableError(f"seat {seat}: a player needs a name, not {player!r}", seat=seat)
        taken = self.seat_of(player)
        if taken is not None:
            raise SeatTaken(f"{player} already sits in seat {taken}", seat=seat)
        low, high = self.config.buy_in_range
        self._check_amount(seat, buy_in, low, high, "buy-in")
        self._seats[seat] = _Seat(player, buy_in, buy_in, post=not wait_for_big_blind)
        self._bought_in += buy_in
        self._record("join", seat, player=player, amount=buy_in)

    def leave(self, seat: int, *, now: float | None = None) -> int:
        """``seat`` leaves and takes its chips (returned). Refused with
        :class:`HandInProgress` while it is dealt into a hand being played (see
        :meth:`leave_after_hand`)."""
        self._time(now)
        occupant = self._occupant(seat)
        self._require_between_hands(seat, "leave")
        return self._remove(seat, occupant)

    def leave_after_hand(self, seat: int, *, now: float | None = None) -> None:
        """``seat`` leaves as soon as it is not in a hand being played (at once if it
        is not)."""
        self._time(now)
        occupant = self._occupant(seat)
        if self._playing(seat):
            occupant.leaving = True
            self._record("leaving", seat)
        else:
            self._remove(seat, occupant)

    def sit_out(self, seat: int, *, now: float | None = None) -> None:
        """``seat`` is not dealt in from the next hand on; blinds that pass it meanwhile
        are missed (TH-37)."""
        self._time(now)
        occupant = self._occupant(seat)
        if not occupant.sitting_out:
            occupant.sitting_out = True
            self._record("sit_out", seat)

    def sit_in(
        self, seat: int, *, wait_for_big_blind: bool = False, now: float | None = None
    ) -> None:
        """``seat`` comes back: it posts the blinds it missed at the next hand (the big
        blind part live, the small blind part dead) or, with ``wait_for_big_blind``,
        waits until the big blind reaches it (TH-37)."""
        self._time(now)
        occupant = self._occupant(seat)
        occupant.post = not wait_for_big_blind
        if occupant.sitting_out:
            occupant.sitting_out = False
            self._record("sit_in", seat, wait=wait_for_big_blind)

    def top_up(self, seat: int, amount: int, *, now: float | None = None) -> None:
        """Adds ``amount`` chips to ``seat`` between its hands, up to the maximum buy-in."""
        self._time(now)
        occupant = self._occupant(seat)
        self._require_between_hands(seat, "top up")
        high = self.config.buy_in_range[1] - occupant.stack
        if high < 1:
            raise BuyInOutOfRange(
                f"seat {seat} cannot top up: its {occupant.stack} chips are the maximum",
                seat=seat,
                amount=amount,
                low=0,
                high=0,
            )
        self._check_amount(seat, amount, 1, high, "top-up")
        occupant.stack += amount
        occupant.bought_in += amount
        self._bought_in += amount
        self._record("top_up", seat, amount=amount)

    # ------------------------------------------------------------------ hands

    def able(self) -> list[int]:
        """The seats able to play the next hand: sitting in, with chips."""
        return [
            number
            for number, seat in enumerate(self._seats)
            if seat is not None and not seat.sitting_out and seat.stack > 0 and not seat.leaving
        ]

    def can_start(self) -> bool:
        """True when a hand may start: none is being played and at least two players are
        able to play."""
        return not self.in_hand and len(self.able()) >= 2

    def start_hand(self, now: float | None = None) -> None:
        """Places the button and blinds (TH-35, TH-38), collects posts (TH-36, TH-37),
        deals, and starts the first decision's clock."""
        self._time(now)
        if self.in_hand:
            raise HandInProgress(f"hand {self._hand_number} is still being played")
        able = self.able()
        if len(able) < 2:
            raise NotEnoughPlayers(
                f"a hand needs two players able to play, not {len(able)} (seats {able})"
            )
        seated = [seat for seat in self._seats if seat is not None]
        flags, logged = [vars(seat).copy() for seat in seated], self.log_length
        try:
            self._deal(self._plan(able))
        except BaseException:  # a refused start changes nothing: not a flag, not a line
            for seat, saved in zip(seated, flags):
                vars(seat).update(saved)
            del self._log[logged:]
            raise

    def _plan(self, able: list[int]) -> _Plan:
        ready = [s for s in able if not self._at(s).owes]
        if self._big is None or len(ready) < 2:
            for s in able:  # a new game: nobody owes anything
                self._settle_debts(s)
            ready = list(able)
            plan = self._moving(ready, able)
        elif self.config.button_rule is _MOVING:
            plan = self._moving(ready, able)
        else:
            plan = self._dead_button(ready, able)
        if len(plan.dealt) > 2 and self._repeats_big_blind(plan.big):
            plan = self._moving(ready, able, after=plan.button)  # TH-35
        if len(plan.dealt) == 2:
            plan = self._heads_up(plan)
        self._mark_missed(plan)
        self._set_posts(plan)
        return plan

    def _moving(self, ready: list[int], able: list[int], *, after: int | None = None) -> _Plan:
        """TH-38 moving button: the button goes to the next player who owes nothing,
        the small blind to the one after, the big blind to the next player sitting in
        (who may owe: taking the big blind settles it). ``after``: the seat to move the
        button on from (default: the last button)."""
        previous = self._button if after is None else after
        if previous is None:
            previous = self.config.seats - 1
        button = self._next(previous, ready)
        small = self._next(button, ready)
        big = self._next(small, able)
        if big == button:  # nobody else between: heads-up (TH-3)
            return _Plan(button, small, big, sorted({button, small}), small)
        return _Plan(button, small, big, self._dealt_in(able, button, big), small)

    def _dead_button(self, ready: list[int], able: list[int]) -> _Plan:
        """TH-38 dead button: the big blind to the player due (next after the last big
        blind), the small blind on the last big blind's seat, the button on the last
        small blind's seat, whoever sits there."""
        assert self._big is not None and self._small is not None
        big = self._next(self._big, able)
        button = self._small
        if big == button:  # the big blind went round to the button: heads-up
            return self._moving(ready, able)
        dealt = self._dealt_in(able, button, big)
        small = self._big if self._big in dealt else None
        return _Plan(button, small, big, dealt, self._big)

    def _dealt_in(self, able: list[int], button: int, big: int) -> list[int]:
        """Who plays: everyone able who owes nothing, the big blind, and those who owe
        and post, except between the button and the big blind (TH-36, TH-37)."""
        dealt = []
        for s in able:
            seat = self._at(s)
            if (
                s == big
                or not seat.owes
                or (seat.post and not self._between(button, s, big, include_start=True))
            ):
                dealt.append(s)
        return dealt

    def _heads_up(self, plan: _Plan) -> _Plan:
        """TH-3, TH-35: heads-up the button posts the small blind, and nobody posts the
        big blind twice in a row. Both players start square."""
        first, second = plan.dealt
        last = self._last_big
        if last is not None and self._holds(first, last):
            big = second
        elif last is not None and self._holds(second, last):
            big = first
        elif plan.big in plan.dealt and plan.big != plan.button:
            big = plan.big
        else:
            big = second if plan.button == first else first
        button = first if big == second else second
        for s in plan.dealt:
            self._settle_debts(s)
        return _Plan(button, button, big, plan.dealt, button)

    def _repeats_big_blind(self, seat: int) -> bool:
        """True if the player in ``seat`` posted the big blind in the last hand: when
        players come back to a new game, the button moves on once more (TH-35)."""
        return self._last_big is not None and self._holds(seat, self._last_big)

    def _holds(self, seat: int, last: tuple[int, str]) -> bool:
        return last[0] == seat and self._at(seat).player == last[1]

    def _mark_missed(self, plan: _Plan) -> None:
        """TH-37: a seated player not dealt in misses the big blind when the big blind
        passes its seat, and the small blind likewise."""
        small = plan.small_position
        for s, seat in enumerate(self._seats):
            if seat is None or s in plan.dealt or seat.new:
                continue
            if self._between(small, s, plan.big):
                if not seat.missed_big:
                    seat.missed_big = True
                    self._record("missed_blind", s, blind="big")
            elif (s == small or self._between(plan.button, s, small)) and not seat.missed_small:
                seat.missed_small = True
                self._record("missed_blind", s, blind="small")

    def _set_posts(self, plan: _Plan) -> None:
        """What each player who owes and is dealt in (not as the big blind) posts: a big
        blind live if new or if it missed the big blind, the small blind dead if it
        missed that (TH-36, TH-37)."""
        config = self.config
        for s in plan.dealt:
            seat = self._at(s)
            if s == plan.big or s == plan.small:
                self._settle_debts(s)
                continue
            if seat.new or seat.missed_big:
                plan.live[s] = config.big_blind
            if seat.missed_small and not seat.new:
                plan.dead[s] = config.small_blind

    def _deal(self, plan: _Plan) -> None:
        dealt = plan.dealt
        index = {s: i for i, s in enumerate(dealt)}
        button_index = index[self._previous(plan.button, dealt)]
        small = index[plan.small] if plan.small is not None else None
        occupants = [self._at(s) for s in dealt]
        config = self._hand_config(
            tuple([occupant.stack for occupant in occupants]),
            button_index,
            (small, index[plan.big]),
            tuple([plan.live.get(s, 0) for s in dealt]) if plan.live else (),
            tuple([plan.dead.get(s, 0) for s in dealt]) if plan.dead else (),
        )
        hand = Hand(config, rng=self._rng)  # first: the table changes once it is dealt
        self._hand_number += 1
        self._button, self._small, self._big = plan.button, plan.small_position, plan.big
        self._last_big = (plan.big, self._at(plan.big).player)
        self._dealt = dealt
        self._dealt_players = [occupant.player for occupant in occupants]
        for occupant in occupants:
            occupant.settle_debts()
        self._record(
            "hand_start",
            number=self._hand_number,
            button=plan.button,
            small_blind=plan.small,
            big_blind=plan.big,
            seats=list(dealt),
        )
        self._hand = hand
        self._hands.append(len(self._log))
        self._hand_seats.append((self._hand, self._hand_number, dealt, self._dealt_players))
        self._legal = None
        self._synced = 0
        self._after_change(self._now)

    # ------------------------------------------------------------------ decisions

    def _hand_config(
        self,
        stacks: tuple[int, ...],
        button: int,
        blind_seats: tuple[int | None, int],
        live_posts: tuple[int, ...],
        dead_posts: tuple[int, ...],
    ) -> GameConfig:
        """:meth:`TableConfig.hand_config` for the seats the table itself placed: the
        table's settings were validated once (``_template``), only the seats change."""
        n = len(stacks)
        small, big = blind_seats
        template = self._template
        if not (
            self._template_of is self.config
            and n >= 2
            and len(live_posts) in (0, n)
            and len(dead_posts) in (0, n)
            and 0 <= button < n
            and 0 <= big < n
            and (small is None or (0 <= small < n and small != big))
            and min(stacks) > 0
        ):  # not expected: let the full validation say what is wrong
            return self.config.hand_config(
                stacks,
                button=button,
                blind_seats=blind_seats,
                live_posts=live_posts,
                dead_posts=dead_posts,
            )
        config: GameConfig = object.__new__(GameConfig)
        fields = config.__dict__
        fields.update(template.__dict__)
        fields["stacks"] = stacks
        fields["button"] = button
        fields["blind_seats"] = blind_seats
        fields["live_posts"] = live_posts
        fields["dead_posts"] = dead_posts
        return config

    def legal_actions(self) -> LegalActions | None:
        """The options of the seat to act, with table seat numbers."""
        hand = self._hand
        if hand is None:
            return None
        legal = hand.legal_actions()
        if legal is None:
            return None
        seat = self._dealt[legal.seat]
        if seat == legal.seat:
            return legal
        cached = self._legal
        if cached is not None and cached[0] is legal:  # the hand's options of this decision
            return cached[1]
        mapped = _with_seat(legal, seat)
        self._legal = (legal, mapped)
        return mapped

    def act(
        self,
        seat: int,
        action: Action | str,
        amount: int | None = None,
        *,
        now: float | None = None,
    ) -> None:
        """A betting decision of ``seat`` (see :meth:`Hand.act`). With ``now``, time
        runs first: a decision that comes after the seat ran out of time is refused."""
        self.decide(seat, _new_tuple(Decision, (action, amount)), now=now)

    def choose_point(self, seat: int, point: int | str, *, now: float | None = None) -> None:
        """``seat`` chooses its Double Hold'em point card (DH-5)."""
        self.decide(seat, _new_tuple(Decision, (POINT, point)), now=now)

    def decide(self, seat: int, decision: Decision, *, now: float | None = None) -> None:
        """Applies a :class:`Decision` (what bots and remote players send): a betting
        action or a point card, as :meth:`act` and :meth:`choose_point` do."""
        action, amount = decision
        hand = self._hand
        if now is None and seat == self._to_act and type(seat) is int and hand is not None:
            index = self._actor  # the seat to act, at the table's time: no need to check
        else:
            hand, index = self._turn(seat, now, action, amount)
        try:
            if action != POINT:
                hand.act(action, amount, index)
            else:  # the hand refuses a point card that is not one (None too)
                hand.choose_point(index, amount)  # type: ignore[arg-type]
        except IllegalAction as error:
            _with_seat_numbers(error, self._dealt)
            raise
        self._after_change(self._now)

    def observe(self, seat: int) -> Observation:
        """What ``seat`` knows for the decision it must make now."""
        hand = self._hand
        view = None if hand is None else hand.actor_view()
        if view is None or self._to_act != seat:
            raise IllegalAction(f"seat {seat} has no decision to make now", seat=seat)
        decision, legal, hole, board, pot, live = view
        if self._actor != seat:  # the hand numbers its seats from 0
            legal = self.legal_actions()  # type: ignore[assignment]
        config = self.config
        fields = (
            seat,
            decision,
            legal,
            hole,
            board,
            pot,
            config.big_blind,
            live - 1,
            config.variant,
        )
        return _new_tuple(Observation, fields)  # Observation(*fields), faster

    def _turn(
        self, seat: int, now: float | None, action: object, amount: object
    ) -> tuple[Hand, int]:
        """The hand and hand index of ``seat`` if it is to act (after time runs to
        ``now``); else :class:`IllegalAction`."""
        if now is not None:
            self._check_seat_number(seat)
            self.advance(now)
        hand = self._hand
        if seat == self._to_act and type(seat) is int and hand is not None:
            return hand, self._actor
        self._check_seat_number(seat)
        who = "nobody" if self.to_act is None else f"seat {self.to_act}"
        raise IllegalAction(
            f"seat {seat} cannot {action}: it is {who}'s turn",
            seat=seat,
            action=action,
            amount=amount if _is_int(amount) else None,  # type: ignore[arg-type]
            legal=self.legal_actions(),
        )

    # ------------------------------------------------------------------ time

    def advance(self, now: float) -> list[dict[str, Any]]:
        """Time is ``now``: starts the time bank of a seat whose action time ran out
        (TH-40), times out a seat whose time is all spent (check if free, else fold;
        a point card by DH-6, DH-7), and so on while deadlines lie in the past. Returns
        the log entries this added."""
        start = self.log_length
        self._time(now)
        while self._deadline is not None and self._deadline <= now and self.in_hand:
            hand = self._require_hand()
            expired = self._deadline
            seat = self._dealt[hand.actor]  # type: ignore[index]
            if self._phase == "action" and hand.decision == BET and self.config.time_bank > 0:
                self._phase = "bank"
                self._deadline = expired + self.config.time_bank
                self._record("time_bank", seat, at=expired, until=self._deadline)
                continue
            hand.timeout(hand.actor)  # type: ignore[arg-type]
            self._after_change(expired)
        return self._entries(start)

    def _time(self, now: float | None) -> None:
        """Time runs to ``now`` (seconds), checked before anything changes: a finite
        number, not before the table's time."""
        if now is None:
            return
        if isinstance(now, bool) or not isinstance(now, (int, float)):
            raise TableError(f"now must be a time in seconds, not {now!r}")
        try:
            config = self.config
            latest = now + config.action_time + config.time_bank + config.point_time
            finite = math.isfinite(now) and math.isfinite(latest)
        except OverflowError:
            finite = False
        if not finite:
            raise TableError(f"now must be a finite time in seconds, not {now!r}")
        if now < self._now:
            raise TableError(f"time cannot go back from {self._now} to {now}")
        self._now = now

    def _after_change(self, when: float) -> None:
        """Notes who is to act and starts their clock, or finishes the hand."""
        hand = self._hand
        assert hand is not None
        actor, decision = hand.turn()
        if actor is None:  # the hand is over
            self._to_act, self._actor = None, -1
            self._finish()
            return
        self._to_act, self._actor = self._dealt[actor], actor
        if decision == POINT:
            self._phase = POINT
            self._deadline = when + self.config.point_time
        else:
            self._phase = "action"
            self._deadline = when + self.config.action_time

    def _finish(self) -> None:
        hand = self._require_hand()
        self._deadline = self._phase = None
        occupants = [self._at(s) for s in self._dealt]
        for occupant, stack in zip(occupants, hand.stacks):
            occupant.stack = stack
        rake = hand.rake
        self._rake += rake
        stacks = {str(s): stack for s, stack in zip(self._dealt, hand.stacks)}
        self._record("hand_end", number=self._hand_number, stacks=stacks, rake=rake)
        _, number, dealt, players = self._hand_seats[-1]
        self._hand_seats[-1] = (hand.records, number, dealt, players)
        for s, occupant in zip(self._dealt, occupants):
            if occupant.leaving:
                self._remove(s, occupant)

    # ------------------------------------------------------------------ log and views

    def event_log(
        self, seat: int | None = None, *, everything: bool = False, since: int = 0
    ) -> list[dict[str, Any]]:
        """The table's log (seating, hands, posts, decisions, time banks, timeouts,
        awards) from entry ``since`` on: everything (the server's record), or what
        ``seat`` may see. :attr:`log_length` is where the next entry will go, so a server
        can send each seat only what is new."""
        if everything:
            return [dict(entry) for entry in self._entries(since)]
        if seat is not None:
            self._check_seat_number(seat)
        occupant = None if seat is None else self._seats[seat]
        viewer = None if occupant is None else occupant.player
        return [
            self._visible(entry, seat, owner is not None and owner == viewer)
            for entry, owner in self._owned_entries(since)
        ]

    @property
    def log_length(self) -> int:
        """The number of entries in the log so far."""
        self._sync_log()
        return len(self._log)

    def _sync_log(self) -> None:
        """Copies the hand's events the log does not have yet (the log takes them when
        it is read or a table entry follows them, not at every decision)."""
        hand = self._hand
        if hand is not None:
            count = hand.event_count
            self._log.extend(range(self._synced, count))
            self._synced = count

    def log_json(self) -> str:
        """The whole log as compact JSON: the same seed and calls give the same bytes."""
        return json.dumps(self._entries(0), separators=(",", ":"))

    def _entries(self, since: int) -> list[dict[str, Any]]:
        """The log from entry ``since`` on (a slice start), hand events as dicts."""
        return [entry for entry, _ in self._owned_entries(since)]

    def _owned_entries(self, since: int) -> list[tuple[dict[str, Any], str | None]]:
        """:meth:`_entries`, each with the player a hand event's seat was dealt to
        (``None`` for the table's own entries): whose private cards it may carry."""
        self._sync_log()
        log, starts, seats = self._log, self._hands, self._hand_seats
        entries: list[tuple[dict[str, Any], str | None]] = []
        events: dict[int, Sequence[Sequence[Any]]] = {}  # of each hand read, by its place
        for index in range(len(log))[since:]:
            item = log[index]
            if isinstance(item, dict):
                entries.append((item, None))
                continue
            place = bisect.bisect_right(starts, index) - 1
            played, number, dealt, players = seats[place]
            if place not in events:
                events[place] = played if isinstance(played, tuple) else played.records
            event = _new_tuple(Event, events[place][item])
            owner = None if event.seat is None else players[event.seat]
            entries.append((_hand_entry(event, number, dealt), owner))
        return entries

    def _visible(self, entry: dict[str, Any], seat: int | None, own: bool) -> dict[str, Any]:
        """``entry`` as ``seat`` may see it: a deal or hidden point card only by the
        player it was dealt to (``own``), not by whoever sits in that seat later; burnt
        cards by nobody."""
        kind = entry["kind"]
        mine = own and entry.get("seat") == seat
        hidden = kind == "burn" or (
            not mine and (kind == "deal" or (kind == "point" and not self.config.reveal_point))
        )
        if not hidden:
            return dict(entry)
        return {k: v for k, v in entry.items() if k not in ("cards", "point")}

    def view(self, seat: int | None = None, *, events: bool = True) -> dict[str, Any]:
        """What ``seat`` may see now (``None``: a spectator), JSON-ready: the seats, the
        button and blinds, the deadline, and the hand from that seat's side (its own
        cards only, with its options when it is to act, and the hand's events without
        what is hidden from it, unless ``events`` is False)."""
        if seat is not None:
            self._check_seat_number(seat)
        return {
            "seat": seat,
            "hand_number": self._hand_number,
            "variant": self.config.variant.value,
            "big_blind": self.config.big_blind,
            "seats": self.seats(),
            "button": self._button,
            "blinds": list(self.blinds),
            "to_act": self.to_act,
            "deadline": self._deadline,
            "time_bank_running": self.time_bank_running,
            "hand": self._hand_view(seat, events) if self._hand is not None else None,
        }

    def _hand_view(self, seat: int | None, events: bool) -> dict[str, Any]:
        """The hand as :meth:`Hand.view` shows it to ``seat``, in table seat numbers."""
        hand = self._require_hand()
        dealt = self._dealt
        index = self._index_of(seat)
        shown = {i for i, face_up in enumerate(hand.shown) if face_up}
        reveal = self.config.reveal_point
        legal = hand.legal_actions()
        view = {
            "street": hand.street,
            "board": [CARD_NAMES[c] for c in hand.board],
            "pot": hand.pot,
            "stacks": _by_seat(dealt, hand.stacks),
            "bets": _by_seat(dealt, hand.bets),
            "in_hand": _by_seat(dealt, hand.in_hand),
            "decision": hand.decision,
            "hole": [] if index is None else [CARD_NAMES[c] for c in hand.hole(index)],
            "shown": {str(dealt[i]): [CARD_NAMES[c] for c in hand.hole(i)] for i in sorted(shown)},
            "points": {
                str(dealt[i]): point
                for i, point in enumerate(hand.points)
                if point is not None and (i == index or i in shown or reveal)
            },
            "legal": None
            if legal is None or legal.seat != index
            else {**legal.to_dict(), "seat": dealt[legal.seat]},
            "over": hand.over,
        }
        if events:
            view["events"] = [_remap(e, dealt) for e in hand.event_log(index)]
        return view

    def secret_cards(self, seat: int | None) -> set[str]:
        """Server side: the cards ``seat`` must not see now (other players' unshown hole
        cards, and the undealt deck is never in a view). For checking what was sent."""
        hand = self._hand
        if hand is None:
            return set()
        shown = hand.shown
        own = self._index_of(seat)
        secret: set[str] = set()
        for index in range(len(self._dealt)):
            if index != own and not shown[index]:
                secret.update(CARD_NAMES[c] for c in hand.hole(index))
        return secret

    # ------------------------------------------------------------------ helpers

    def _record(self, kind: str, seat: int | None = None, **fields: Any) -> None:
        self._sync_log()
        entry: dict[str, Any] = {"kind": kind}
        if seat is not None:
            entry["seat"] = seat
        entry.update(fields)
        if "at" not in entry:
            entry["at"] = self._now
        self._log.append(entry)

    def _public_seat(self, seat: _Seat) -> dict[str, Any]:
        number = self._seats.index(seat)
        return {
            "player": seat.player,
            "stack": self._live_stack(number),
            "sitting_out": seat.sitting_out,
            "new": seat.new,
            "missed_small": seat.missed_small,
            "missed_big": seat.missed_big,
            "waiting_for_big_blind": seat.owes and not seat.post,
        }

    def _live_stack(self, seat: int) -> int:
        hand = self._hand
        if hand is not None and not hand.over and seat in self._dealt:
            return hand.stacks[self._dealt.index(seat)]
        return self._at(seat).stack

    def _index_of(self, seat: int | None) -> int | None:
        """The hand index of ``seat`` if the player sitting there now was dealt in."""
        if seat is None or seat not in self._dealt:
            return None
        index = self._dealt.index(seat)
        occupant = self._seats[seat]
        same = occupant is not None and occupant.player == self._dealt_players[index]
        return index if same else None

    def _stack_of(self, seat: int) -> int:
        return self._at(seat).stack

    def _playing(self, seat: int) -> bool:
        return self.in_hand and seat in self._dealt

    def _require_between_hands(self, seat: int, what: str) -> None:
        if self._playing(seat):
            raise HandInProgress(
                f"seat {seat} cannot {what} during hand {self._hand_number}: wait for its end",
                seat=seat,
            )

    def _remove(self, seat: int, occupant: _Seat) -> int:
        self._seats[seat] = None
        self._cashed_out += occupant.stack
        self._record("leave", seat, player=occupant.player, amount=occupant.stack)
        return occupant.stack

    def _settle_debts(self, seat: int) -> None:
        self._at(seat).settle_debts()

    def _require_hand(self) -> Hand:
        if self._hand is None:
            raise TableError("no hand has been dealt yet")
        return self._hand

    def _at(self, seat: int) -> _Seat:
        occupant = self._seats[seat]
        assert occupant is not None
        return occupant

    def _occupant(self, seat: int) -> _Seat:
        self._check_seat_number(seat)
        occupant = self._seats[seat]
        if occupant is None:
            raise SeatEmpty(f"seat {seat} is empty", seat=seat)
        return occupant

    def _check_seat_number(self, seat: object) -> None:
        if type(seat) is int and 0 <= seat < self.config.seats:
            return
        if not _is_int(seat) or not 0 <= seat < self.config.seats:  # type: ignore[operator]
            raise SeatEmpty(
                f"{seat!r} is not a seat (seats 0..{self.config.seats - 1})",
                seat=seat if _is_int(seat) else None,  # type: ignore[arg-type]
            )

    @staticmethod
    def _check_amount(seat: int, amount: object, low: int, high: int, what: str) -> None:
        if not _is_int(amount) or not low <= amount <= high:  # type: ignore[operator]
            raise BuyInOutOfRange(
                f"seat {seat}: a {what} of {amount!r} is outside {low}..{high}",
                seat=seat,
                amount=amount,
                low=low,
                high=high,
            )

    def _next(self, after: int, candidates: Sequence[int]) -> int:
        """The first of ``candidates`` clockwise after seat ``after``."""
        n = self.config.seats
        for step in range(1, n + 1):
            if (after + step) % n in candidates:
                return (after + step) % n
        raise ValueError("no candidate seats")

    def _previous(self, at: int, candidates: Sequence[int]) -> int:
        """The first of ``candidates`` counter-clockwise from seat ``at`` (included)."""
        n = self.config.seats
        for step in range(n):
            if (at - step) % n in candidates:
                return (at - step) % n
        raise ValueError("no candidate seats")

    def _between(self, start: int, seat: int, end: int, *, include_start: bool = False) -> bool:
        """True if ``seat`` lies clockwise strictly after ``start`` and before ``end``."""
        n = self.config.seats
        offset, span = (seat - start) % n, (end - start) % n
        if include_start and seat == start:
            return True
        return 0 < offset < span

    # ------------------------------------------------------------------ snapshots, memory
    # (for servers: kept apart from the rest of the class)

    def to_json(self) -> str:
        """The whole table as versioned JSON text (the hand's deck included: keep it on
        the server). :meth:`from_json` restores it and play goes on identically; the text
        carries a checksum, and an edited or inconsistent snapshot is refused.

        >>> table = Table(TableConfig(small_blind=5, big_blind=10), seed=3)
        >>> table.join(0, "ann", 1000); table.join(1, "bob", 1000)
        >>> table.start_hand(now=0.0); table.act(0, "call", now=1.0)
        >>> copy = Table.from_json(table.to_json())
        >>> copy.to_act, copy.stack(0), copy.view(1) == table.view(1)
        (1, 990, True)
        >>> Table.from_json(table.to_json().replace('"stack":1000', '"stack":9000', 1))
        Traceback (most recent call last):
        ...
        doubleholdem.errors.TamperedSnapshot: table snapshot: the checksum does not match
        """
        fields = self._snapshot_body()
        hand = self._hand
        body = json.dumps(fields, separators=(",", ":"))
        if hand is not None:  # the hand's own snapshot text, as it is
            body = f'{body[:-1]},"hand":{hand.to_json()}}}'
        digest = hashlib.sha256(body.encode()).hexdigest()
        return f'{{"version":{TABLE_SNAPSHOT_VERSION},"sha256":"{digest}","table":{body}}}'

    @classmethod
    def from_json(cls, text: str | bytes) -> Table:
        """The table saved by :meth:`to_json`; :class:`~doubleholdem.errors.InvalidSnapshot`
        (:class:`~doubleholdem.errors.TamperedSnapshot` when the checksum or the
        consistency checks fail) if it is not one."""
        if isinstance(text, (bytes, bytearray)):
            try:
                text = bytes(text).decode()
            except UnicodeDecodeError as error:
                raise InvalidSnapshot(f"a table snapshot is JSON text: {error}") from None
        if not isinstance(text, str):
            raise InvalidSnapshot(f"a table snapshot is JSON text, not {type(text).__name__}")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as error:
            raise InvalidSnapshot(f"a table snapshot is JSON: {error}") from None
        if not isinstance(data, dict) or data.get("version") != TABLE_SNAPSHOT_VERSION:
            found = data.get("version") if isinstance(data, dict) else None
            raise InvalidSnapshot(
                f"not a version {TABLE_SNAPSHOT_VERSION} table snapshot (version {found!r})"
            )
        body = data.get("table")
        framed = _SNAPSHOT_FRAME.fullmatch(text)
        if not isinstance(body, dict) or framed is None:
            raise InvalidSnapshot("table snapshot: not in the form to_json writes")
        if hashlib.sha256(framed.group(2).encode()).hexdigest() != framed.group(1):
            raise TamperedSnapshot("table snapshot: the checksum does not match")
        try:
            table = cls._from_snapshot_body(body)
        except InvalidSnapshot:
            raise
        except (KeyError, TypeError, IndexError, ValueError, AttributeError) as error:
            raise TamperedSnapshot(f"table snapshot: {type(error).__name__}: {error}") from None
        return table

    def release_history(self) -> list[dict[str, Any]]:
        """Between hands: returns the whole log (as ``event_log(everything=True)``) and
        forgets it, with the finished hands' records, so that a long session keeps its
        memory bounded (a server stores what this returns). :attr:`log_length` starts
        from 0 again; the last hand stays readable through :attr:`hand` and :meth:`view`.

        >>> table = Table(TableConfig(small_blind=5, big_blind=10), seed=3)
        >>> table.join(0, "ann", 1000); table.join(1, "bob", 1000)
        >>> table.start_hand(now=0.0); table.act(0, "fold", now=1.0)
        >>> [entry["kind"] for entry in table.release_history()][-2:], table.log_length
        (['end', 'hand_end'], 0)
        """
        if self.in_hand:
            raise HandInProgress(f"hand {self._hand_number} is still being played")
        entries = self._entries(0)
        self._log = []
        self._hands = []
        self._hand_seats = []
        return entries

    def _snapshot_body(self) -> dict[str, Any]:
        self._sync_log()
        config = self.config
        fields = {f: getattr(config, f) for f in config.__dataclass_fields__}
        for name in ("structure", "variant", "ante_type", "button_rule"):
            fields[name] = fields[name].value
        if config.rake is not None:
            rake = config.rake
            fields["rake"] = {
                "basis_points": rake.basis_points,
                "cap": rake.cap,
                "no_flop_no_drop": rake.no_flop_no_drop,
            }
        hand = self._hand
        last = len(self._log)  # where the last hand's entries start, if still logged
        if hand is not None and self._hand_seats and self._hand_seats[-1][1] == self._hand_number:
            last = self._hands[-1]
        older: list[Any] = self._log[:last]
        if not all(isinstance(entry, dict) for entry in older):
            older = self._entries(0)[:last]  # finished hands' events written out as dicts
        log: list[Any] = [*older, *self._log[last:]]
        rng = None
        if self._rng is not None:
            version, state, gauss = self._rng.getstate()
            rng = [version, list(state), gauss]
        return {
            "config": fields,
            "rng": rng,
            "seats": [None if s is None else dict(s.__dict__) for s in self._seats],
            "button": self._button,
            "small": self._small,
            "big": self._big,
            "last_big": None if self._last_big is None else list(self._last_big),
            "hand_start": None if hand is None else last,
            "dealt": list(self._dealt),
            "dealt_players": list(self._dealt_players),
            "synced": self._synced,
            "hand_number": self._hand_number,
            "log": log,
            "bought_in": self._bought_in,
            "cashed_out": self._cashed_out,
            "rake": self._rake,
            "now": self._now,
            "deadline": self._deadline,
            "phase": self._phase,
        }

    @classmethod
    def _from_snapshot_body(cls, body: dict[str, Any]) -> Table:
        fields = dict(body["config"])
        if fields.get("rake") is not None:
            fields["rake"] = Rake(**fields["rake"])
        config = TableConfig(**fields)
        rng = None
        if body["rng"] is not None:
            version, state, gauss = body["rng"]
            rng = random.Random()
            rng.setstate((version, tuple(state), gauss))
        table = cls(config, rng=rng)
        seats = body["seats"]
        _check(isinstance(seats, list) and len(seats) == config.seats, "seats")
        for number, seat in enumerate(seats):
            if seat is not None:
                occupant = _Seat(**seat)
                _check(_is_int(occupant.stack) and occupant.stack >= 0, f"seat {number} stack")
                _check(isinstance(occupant.player, str) and occupant.player != "", "player")
                table._seats[number] = occupant
        for name in ("button", "small", "big"):
            value = body[name]
            _check(value is None or (_is_int(value) and 0 <= value < config.seats), name)
            setattr(table, f"_{name}", value)
        last_big = body["last_big"]
        table._last_big = None if last_big is None else (int(last_big[0]), str(last_big[1]))
        for name in ("hand_number", "bought_in", "cashed_out", "rake", "synced"):
            _check(_is_int(body[name]) and body[name] >= 0, name)
            setattr(table, f"_{name}", body[name])
        for name in ("now", "deadline"):
            value = body[name]
            ok = value is None or (isinstance(value, (int, float)) and not isinstance(value, bool))
            _check(ok and (value is not None or name == "deadline"), name)
            setattr(table, f"_{name}", value)
        _check(body["phase"] in (None, "action", "bank", POINT), "phase")
        table._phase = body["phase"]
        log = body["log"]
        _check(isinstance(log, list), "log")
        table._log = log
        dealt, players = body["dealt"], body["dealt_players"]
        _check(isinstance(dealt, list) and isinstance(players, list), "dealt")
        _check(len(dealt) == len(players) == len(set(dealt)), "dealt")
        _check(all(_is_int(s) and 0 <= s < config.seats for s in dealt), "dealt")
        table._dealt, table._dealt_players = list(dealt), [str(p) for p in players]
        if body.get("hand") is not None:
            hand = Hand.from_json(json.dumps(body["hand"], separators=(",", ":")))
            _check(hand.players == len(dealt), "the hand's players")
            _check(hand.event_count >= table._synced, "synced")
            start = body["hand_start"]
            _check(_is_int(start) and 0 <= start <= len(log), "hand_start")
            for index, item in enumerate(log):
                if index < start:
                    _check(isinstance(item, dict), "log entry")
                else:
                    ok = isinstance(item, dict) or (_is_int(item) and 0 <= item < table._synced)
                    _check(ok, "log entry")
            table._hand = hand
            table._hands = [start]
            played = hand.records if hand.over else hand  # as the table keeps them
            table._hand_seats = [(played, table._hand_number, table._dealt, table._dealt_players)]
            if not hand.over:
                for index, seat in enumerate(dealt):
                    occupant = table._seats[seat]
                    _check(occupant is not None, f"dealt seat {seat} is empty")
                    assert occupant is not None
                    _check(occupant.player == table._dealt_players[index], f"seat {seat}")
                    _check(occupant.stack == hand.config.stacks[index], f"seat {seat} stack")
                actor = hand.actor
                _check(actor is not None, "actor")
                assert actor is not None
                table._to_act, table._actor = dealt[actor], actor
                _check(table._deadline is not None and table._phase is not None, "deadline")
            else:
                _check(table._deadline is None, "deadline")
        else:
            _check(all(isinstance(item, dict) for item in log), "log entry")
            _check(table._deadline is None and not dealt, "no hand")
        _check(table.chips() + table._rake == table.bought_in, "chips do not add up")
        return table


_new_tuple = tuple.__new__


def _hand_entry(event: Event, number: int, dealt: list[int]) -> dict[str, Any]:
    """The log entry of a hand's event, in table seats."""
    entry = _remap(event.to_dict(), dealt)
    entry.pop("seq", None)
    entry["hand_number"] = number
    return {"kind": entry.pop("kind"), **entry}


def _with_seat_numbers(error: IllegalAction, dealt: list[int]) -> None:
    """Re-raises a hand's :class:`IllegalAction` with table seat numbers (returns if it
    names no seat)."""
    if error.seat is None:
        return
    index, seat = error.seat, dealt[error.seat]
    legal = error.legal
    raise IllegalAction(
        str(error).replace(f"seat {index} ", f"seat {seat} ", 1),
        seat=seat,
        action=error.action,
        amount=error.amount,
        legal=_with_seat(legal, dealt[legal.seat]) if isinstance(legal, LegalActions) else legal,
    ) from None


def _with_seat(legal: LegalActions, seat: int) -> LegalActions:
    return legal._replace(seat=seat)


def _by_seat(dealt: Sequence[int], values: Sequence[Any]) -> dict[str, Any]:
    return {str(dealt[i]): value for i, value in enumerate(values)}


def _remap(entry: dict[str, Any], dealt: Sequence[int]) -> dict[str, Any]:
    out = dict(entry)
    if "seat" in out:
        out["seat"] = dealt[out["seat"]]
    if "seats" in out:
        out["seats"] = [dealt[s] for s in out["seats"]]
    return out


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _require(ok: bool, name: str, reason: str) -> None:
    if not ok:
        raise InvalidConfig(f"{name}: {reason}", field=name)


def _check(ok: bool, what: str) -> None:
    """A consistency check of a table snapshot (:meth:`Table.from_json`)."""
    if not ok:
        raise TamperedSnapshot(f"table snapshot: {what} is not consistent")
