"""One betting round: who must act, what each player may do, and how a wager changes the
round (RULES.md TH-4, TH-5, TH-10 to TH-18).

The round keeps the amount to match (``level``), the last *full* bet or raise, which
players have acted since, and who still owes an action. That is all the incomplete all-in
rules need:

- no/pot limit (TH-15, TH-17): a raise must add at least the last full bet or raise; an
  all-in that adds less is not a full raise and does not reopen the betting for a player
  who already acted, unless several short all-ins together make the amount that player
  faces at least a full raise;
- fixed limit (TH-14): an all-in of half a bet or more counts as a full bet or raise (and
  towards the cap); a smaller one reopens nothing, and a player who may still raise
  completes it to a full bet;
- the cap (TH-12) and its heads-up exception (TH-13).

>>> from doubleholdem.game.config import GameRules
>>> stacks, in_hand = [1000, 1000, 1000], [True] * 3
>>> rules = round_rules(GameRules(small_blind=50, big_blind=100))
>>> r = BettingRound(rules, [0, 0, 0], stacks, in_hand); r.next_street(1)  # the flop
>>> legal = r.legal(0, pot=300, players_in_hand=3)
>>> legal.can_check, legal.min_raise_to, legal.max_raise_to
(True, 100, 1000)
>>> r.match(0, all_in=False); r.next_actor(after=0)
1
"""

from __future__ import annotations

import enum
from itertools import compress
from operator import itemgetter, mul
from typing import Any, Final, NamedTuple

from doubleholdem.game import words
from doubleholdem.game.config import GameRules, Structure

__all__ = [
    "BET_AT",
    "CALL_AMOUNT_AT",
    "CAN_CHECK_AT",
    "CAN_FOLD_AT",
    "CLOCKWISE",
    "DECISION_AT",
    "IS_BET_AT",
    "MAX_RAISE_TO_AT",
    "MIN_RAISE_TO_AT",
    "SEAT_AT",
    "Action",
    "BettingRound",
    "LegalActions",
    "RoundRules",
    "bet_presets",
    "options_shape",
    "point_choice",
    "pot_fraction_to",
    "round_rules",
]


class Action(str, enum.Enum):
    """A betting decision (TH-4). ``BET`` and ``RAISE`` take the total the player's wager
    in this round is raised *to*; ``ALL_IN`` wagers the whole stack, whether that is a
    call for less, a call, or a raise."""

    FOLD = words.FOLD
    CHECK = words.CHECK
    CALL = words.CALL
    BET = words.BET
    RAISE = words.RAISE
    ALL_IN = words.ALL_IN


class LegalActions(NamedTuple):
    """What the player to act may do now.

    - ``seat``: who acts.
    - ``can_fold`` (only when facing a wager), ``can_check``.
    - ``call_amount``: chips a call puts in (less than the bet if it is all of the
      player's stack); 0 when there is nothing to call.
    - ``min_raise_to``, ``max_raise_to``: the range of totals a bet or raise may make
      the player's wager in this round; both ``None`` when betting or raising is not
      allowed. When the stack is short of a full raise, both are the all-in total.
    - ``all_in_to``: the player's total wager if they put in their whole stack.
    - ``is_bet``: True if nobody has wagered in this round yet (a wager is a bet).
    - ``bet``: what the player has already wagered in this round.
    - ``decision``: ``"bet"`` for a betting decision, ``"point"`` when the player must
      first choose a Double Hold'em point card (DH-5): then ``points`` lists the
      indices 0..2 of the hole cards to choose from and every betting option is off.
    """

    seat: int
    can_fold: bool
    can_check: bool
    call_amount: int
    min_raise_to: int | None
    max_raise_to: int | None
    all_in_to: int
    is_bet: bool
    bet: int
    decision: str = words.BET
    points: tuple[int, ...] = ()

    @property
    def can_call(self) -> bool:
        """True when there is a wager to call."""
        return self.call_amount > 0

    @property
    def can_raise(self) -> bool:
        """True when a bet or raise is allowed."""
        return self.min_raise_to is not None

    def actions(self) -> list[Action]:
        """The legal actions, in the order fold, check, call, bet/raise, all-in."""
        _, can_fold, can_check, call, low, high, all_in_to, is_bet, bet = self[:9]
        found = []
        if can_fold:
            found.append(_FOLD)
        if can_check:
            found.append(_CHECK)
        if call > 0:
            found.append(_CALL)
        if low is not None:
            found.append(_BET if is_bet else _RAISE)
        stack = all_in_to - bet
        if (stack > 0 and call == stack) or high == all_in_to:  # can_all_in
            found.append(_ALL_IN)
        return found

    @property
    def can_all_in(self) -> bool:
        """True when the whole stack may go in: as a call (for less, or exactly), or as
        a bet or raise within the allowed range."""
        return (self.stack > 0 and self.call_amount == self.stack) or (
            self.max_raise_to == self.all_in_to
        )

    @property
    def stack(self) -> int:
        """The chips the player has behind."""
        return self.all_in_to - self.bet

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "seat": self.seat,
            "can_fold": self.can_fold,
            "can_check": self.can_check,
            "call_amount": self.call_amount,
            "min_raise_to": self.min_raise_to,
            "max_raise_to": self.max_raise_to,
            "all_in_to": self.all_in_to,
            "is_bet": self.is_bet,
            "bet": self.bet,
            "decision": self.decision,
            "points": list(self.points),
        }


def bet_presets(legal: LegalActions, pot: int, structure: Structure) -> dict[str, int]:
    """The totals a page offers as one-click bet sizes for ``legal`` (``pot``: every chip
    in the middle, this round's bets included), each within the legal range and each
    total once: ``min`` (the smallest bet or raise), ``half_pot`` and ``pot`` (the total
    that adds half of, or all of, the pot after calling: at most the pot-limit maximum,
    TH-16), ``all_in`` when the whole stack is a legal bet or raise. None in fixed limit
    (one size, TH-14) or when no bet or raise is allowed.

    >>> from doubleholdem.game import Structure
    >>> legal = LegalActions(0, True, False, 10, 20, 990, 990, False, 0)
    >>> bet_presets(legal, 15, Structure.NO_LIMIT)
    {'min': 20, 'half_pot': 22, 'pot': 35, 'all_in': 990}
    >>> bet_presets(legal._replace(max_raise_to=35), 15, Structure.POT_LIMIT)  # TH-16
    {'min': 20, 'half_pot': 22, 'pot': 35}
    >>> bet_presets(legal._replace(min_raise_to=40, max_raise_to=40), 15, Structure.FIXED_LIMIT)
    {}
    """
    low, high = legal.min_raise_to, legal.max_raise_to
    if structure is _FIXED_LIMIT or low is None or high is None:
        return {}
    sizes = {
        "min": low,
        "half_pot": pot_fraction_to(legal, pot, 0.5),
        "pot": pot_fraction_to(legal, pot, 1.0),
    }
    if high == legal.all_in_to:
        sizes["all_in"] = high
    found: dict[str, int] = {}
    for name, total in sizes.items():
        if total not in found.values():
            found[name] = total
    return found


def pot_fraction_to(legal: LegalActions, pot: int, fraction: float) -> int:
    """The total a bet or raise of ``fraction`` of the pot makes (``pot``: every chip
    in the middle, this round's bets included): the call, then ``fraction`` of the pot
    after the call (rounded down) on top, kept within the legal range. Pot-sized
    (1.0) is the pot-limit maximum (TH-16). Only for a decision that allows a bet or
    raise (``min_raise_to`` set).

    >>> legal = LegalActions(0, True, False, 10, 20, 990, 990, False, 0)
    >>> pot_fraction_to(legal, 15, 0.5), pot_fraction_to(legal, 15, 1.0)
    (22, 35)
    """
    call, low, high = legal.call_amount, legal.min_raise_to, legal.max_raise_to
    to = legal.bet + call + int(fraction * (pot + call))
    if to < low:  # type: ignore[operator]
        return low  # type: ignore[return-value]
    return to if to < high else high  # type: ignore[operator,return-value]


# where each field of LegalActions is, by name: the fast accessor of hot loops
# (``legal[CALL_AMOUNT_AT]`` costs less than ``legal.call_amount``); checked against the
# fields when the module loads, so a new field shifts no meaning silently
SEAT_AT: Final = 0
CAN_FOLD_AT: Final = 1
CAN_CHECK_AT: Final = 2
CALL_AMOUNT_AT: Final = 3
MIN_RAISE_TO_AT: Final = 4
MAX_RAISE_TO_AT: Final = 5
IS_BET_AT: Final = 7
BET_AT: Final = 8
DECISION_AT: Final = 9
_AT = {
    "seat": SEAT_AT,
    "can_fold": CAN_FOLD_AT,
    "can_check": CAN_CHECK_AT,
    "call_amount": CALL_AMOUNT_AT,
    "min_raise_to": MIN_RAISE_TO_AT,
    "max_raise_to": MAX_RAISE_TO_AT,
    "is_bet": IS_BET_AT,
    "bet": BET_AT,
    "decision": DECISION_AT,
}
if any(LegalActions._fields[at] != name for name, at in _AT.items()):  # pragma: no cover
    raise ImportError("LegalActions' fields moved: update betting.py's *_AT accessors")

options_shape = itemgetter(slice(CAN_FOLD_AT, MAX_RAISE_TO_AT + 1))
"""``options_shape(legal)``: the tuple ``(can_fold, can_check, call_amount,
min_raise_to, max_raise_to)`` of a :class:`LegalActions`, by one C-level call (what a
betting decision's options look like, for code that keys on it at every decision)."""


def point_choice(seat: int, bet: int, stack: int) -> LegalActions:
    """The options of a player who must choose a point card (DH-5): no betting option."""
    return LegalActions(
        seat, False, False, 0, None, None, bet + stack, False, bet, words.POINT, (0, 1, 2)
    )


_FOLD, _CHECK, _CALL, _BET, _RAISE, _ALL_IN = Action
_BETTING = words.BET

# enum members as module constants: Python 3.11 looks attributes of an Enum class up slowly
_FIXED_LIMIT, _POT_LIMIT = Structure.FIXED_LIMIT, Structure.POT_LIMIT

CLOCKWISE = {
    n: tuple(tuple((start + i) % n for i in range(n)) for start in range(n)) for n in range(2, 11)
}
"""``CLOCKWISE[n][start]``: the seats of an ``n``-seat hand clockwise from ``start``."""
_new_legal = tuple.__new__
_NEVER = 1 << 62  # more bets than any round makes
# sets of seats as bits: every seat but ``s``, and the lowest seat in a set, plus one
_ALL_BUT = tuple(~(1 << s) for s in range(10))
_BITS = tuple(1 << s for s in range(10))
_LOWEST = tuple((m & -m).bit_length() for m in range(1 << 10))


def _owed(level: int, wager: int, stack: int) -> int:
    """What a seat owes, the chips a call puts in (TH-4, TH-18): the wager to match
    (``level``) less the seat's own (``wager``), or its whole ``stack`` if less; 0 when
    it owes nothing. What it may then do without betting is :meth:`BettingRound.plain`'s."""
    call = level - wager
    if call <= 0:
        return 0
    return call if call < stack else stack


class BettingRound:
    """The state of one betting round; the hand owns the stacks and who is in the hand,
    and tells the round of each decision (:meth:`fold`, :meth:`match`,
    :meth:`record_raise`) and of an uncalled bet given back (:meth:`give_back`);
    :meth:`next_street` starts the next street's round.

    ``bets`` are the players' wagers in this round (blinds included pre-flop), ``level``
    the amount to match (pre-flop the full big blind even if its poster was short,
    TH-18); the round reads ``bets``, ``stacks`` and ``in_hand`` as the hand changes
    them. ``bet_size`` is the fixed-limit bet of the round (``small_bet`` on the first
    two streets, ``big_bet`` after, TH-10), ``min_bet`` the no/pot-limit minimum bet;
    ``bets_made`` counts the bet and full raises so far (pre-flop the big blind counts
    as the bet, TH-12). ``able`` and ``pending`` are sets of seats as bits (seat ``s``
    is ``1 << s``): the players in the hand with chips, and those of them who still owe
    an action (they have not acted, or not matched the level since).
    """

    __slots__ = (
        "able",
        "acted",
        "bet_size",
        "bets",
        "bets_made",
        "big_bet",
        "cap",
        "cap_bets",
        "capped",
        "full_level",
        "full_raise",
        "heads_up_uncapped",
        "in_hand",
        "last_aggressor",
        "level",
        "limit",
        "min_bet",
        "pending",
        "pot_limit",
        "small_bet",
        "stacks",
    )

    def __init__(
        self,
        rules: RoundRules,
        bets: list[int],
        stacks: list[int],
        in_hand: list[bool],
        able: int | None = None,
    ) -> None:
        """The pre-flop round of a hand under ``rules``: the big blind is the wager to
        match and counts as the bet (TH-2, TH-12); :meth:`next_street` starts the next.
        ``able``, if given, is the set of seats in the hand with chips (else read off
        ``stacks`` and ``in_hand``: a hand's opening knows it)."""
        (
            self.limit,
            self.pot_limit,
            big_blind,
            self.min_bet,
            self.small_bet,
            self.big_bet,
            self.cap,
            self.heads_up_uncapped,
        ) = rules
        self.bets = bets
        self.stacks = stacks
        self.in_hand = in_hand
        # the bets made from which _at_cap is asked (below them the cap is not reached)
        self.cap_bets = self.cap if self.limit and self.cap is not None else _NEVER
        if able is None:  # the seats in the hand with chips: stack * in hand is truthy
            able = sum(compress(_BITS, map(mul, stacks, in_hand)))
        self.able = self.pending = able  # nobody has acted: every one of them owes it
        # :meth:`next_street` of the pre-flop round, then the big blind is the wager to
        # match and is the bet (TH-2, TH-12): in place, as every hand starts here
        self.bet_size = bet_size = self.small_bet
        self.full_raise = bet_size if self.limit else self.min_bet
        self.capped = False
        self.acted: list[int | None] = [None] * len(bets)
        self.last_aggressor: int | None = None
        self.level = self.full_level = big_blind
        self.bets_made = 1

    def next_street(self, street: int) -> None:
        """The round of ``street`` (0 pre-flop, 1 flop, 2 turn, 3 river) over the same
        hand, the bets back at zero: nothing to match, no bet made, every player in the
        hand with chips to act (TH-5, TH-10)."""
        self.level = self.full_level = 0
        self.bet_size = bet_size = self.small_bet if street < 2 else self.big_bet
        self.full_raise = bet_size if self.limit else self.min_bet
        self.bets_made = 0
        self.capped = False
        self.acted = [None] * len(self.bets)
        self.last_aggressor = None
        self.pending = self.able

    # -- who acts -------------------------------------------------------------------

    def next_actor(self, after: int) -> int | None:
        """The first seat clockwise after ``after`` that must act, or ``None`` when the
        round is over (TH-5): nobody owes an action, or one player with chips is left
        and has matched the level."""
        pending = self.pending
        if not pending:
            return None  # nobody owes an action
        later = pending >> (after + 1)  # the seats after ``after``, then round the table
        first = after + _LOWEST[later] if later else _LOWEST[pending] - 1
        able = self.able
        if able & (able - 1):
            return first  # someone else with chips is in the hand
        return first if self.bets[first] < self.level else None  # alone with chips

    # -- what the actor may do ------------------------------------------------------

    def plain(self, seat: int, kind: Action, amount: object) -> int | None:
        """What ``seat`` owes and may do without betting or raising, stated once (TH-4,
        TH-18): the chips a fold, check or call (``kind``) puts in if it may take it
        now, else ``None``. A seat facing a wager (the level above its own) may fold
        (0 chips) or call: the level less its wager, or its whole stack if less, and no
        other amount; a seat facing none may check (0 chips). :meth:`legal` and
        :meth:`call_amount` read the call here; a hand applies a plain decision by it
        without making the whole :class:`LegalActions`."""
        call = _owed(self.level, self.bets[seat], self.stacks[seat])
        if kind is _CALL:
            return call if call and (amount is None or amount == call) else None
        if amount is not None or (call > 0) is (kind is _CHECK):
            return None  # a fold facing no wager, a check facing one
        return 0

    def call_amount(self, seat: int) -> int:
        """The chips a call by ``seat`` puts in (:meth:`plain`); 0 when nothing is
        owed."""
        return _owed(self.level, self.bets[seat], self.stacks[seat])

    def legal(self, seat: int, pot: int, players_in_hand: int) -> LegalActions:
        """The options of ``seat``; ``pot`` is every chip already in the middle, this
        round's bets included (read for the pot-limit maximum only, TH-16)."""
        bet, stack, level = self.bets[seat], self.stacks[seat], self.level
        call = _owed(level, bet, stack)  # what it owes: fold, check, call (:meth:`plain`)
        all_in_to = bet + stack
        low: int | None = None
        high: int | None = None
        if stack > call and self._may_raise(seat, players_in_hand):
            # the totals a bet or raise may go to (TH-10, TH-14 to TH-16), all-in at most
            if self.limit:  # one size: a full bet above the last full level (TH-14)
                target = self.full_level + self.bet_size
                if target <= level:
                    target = level + self.bet_size
                low = high = target if target < all_in_to else all_in_to
            else:  # at least a full raise (TH-15)
                low = level + self.full_raise
                if low > all_in_to:
                    low = all_in_to
                high = all_in_to
                if self.pot_limit:  # at most the pot after the call (TH-16)
                    high = level + pot + call
                    if high > all_in_to:
                        high = all_in_to
                    if high < low:
                        high = low
        return _new_legal(
            LegalActions,
            (
                seat,
                call > 0,  # can_fold: facing a wager (TH-4)
                call == 0,  # can_check: nothing owed
                call,  # call_amount
                low,
                high,
                all_in_to,
                level == 0,  # is_bet
                bet,
                _BETTING,
                (),
            ),
        )

    def _may_raise(self, seat: int, players_in_hand: int) -> bool:
        acted = self.acted[seat]
        # no full bet or raise since this player acted (TH-14, TH-17); in no/pot limit
        # several short all-ins together may still reopen the betting
        if (
            acted is not None
            and self.full_level <= acted
            and (self.limit or self.level - acted < self.full_raise)
        ):
            return False
        if self.capped or (self.bets_made >= self.cap_bets and self._at_cap(players_in_hand)):
            return False  # TH-12, TH-13
        # somebody else in the hand must be able to answer: more than the level in
        # chips and wagers; the others with chips first, lowest seat first
        level, bets, stacks = self.level, self.bets, self.stacks
        others = self.able & _ALL_BUT[seat]
        while others:
            s = _LOWEST[others] - 1
            if stacks[s] + bets[s] > level:
                return True
            others &= others - 1
        # an all-in player is above the level only after a live post above it (TH-36)
        in_hand = self.in_hand
        return any(wager > level and in_hand[s] and s != seat for s, wager in enumerate(bets))

    def _at_cap(self, players_in_hand: int) -> bool:
        """The fixed-limit cap: the bet and full raises made reach it (TH-12), unless
        the game is uncapped heads-up and two players are left (TH-13)."""
        return (
            self.limit
            and self.cap is not None
            and self.bets_made >= self.cap
            and not (self.heads_up_uncapped and players_in_hand == 2)
        )

    # -- applying a decision --------------------------------------------------------

    def record_raise(self, seat: int, to: int, all_in: bool, players_in_hand: int) -> None:
        """The player's wager became ``to`` (more than the level): a bet or raise."""
        increment = to - self.level
        if self.limit:
            full = not all_in or 2 * increment >= self.bet_size
        else:
            full = not all_in or increment >= self.full_raise
        if full:
            self.full_level = to
            if not self.limit:
                self.full_raise = increment
            self.bets_made += 1
            if self.bets_made >= self.cap_bets and self._at_cap(players_in_hand):
                self.capped = True
        self.level = to
        self.acted[seat] = to
        self.last_aggressor = seat
        if all_in:
            self.able &= _ALL_BUT[seat]
        self.pending = self.able & _ALL_BUT[seat]  # everyone else with chips faces more

    def match(self, seat: int, all_in: bool) -> None:
        """The player checked or called (``all_in``: with the last of their chips)."""
        self.acted[seat] = self.level
        self.pending &= _ALL_BUT[seat]
        if all_in:
            self.able &= _ALL_BUT[seat]

    def fold(self, seat: int) -> None:
        """The player folded."""
        self.pending &= _ALL_BUT[seat]
        self.able &= _ALL_BUT[seat]

    def give_back(self, seat: int) -> None:
        """Chips went back to ``seat``, in the hand (an uncalled bet, TH-20): it has
        chips again."""
        self.able |= 1 << seat


class RoundRules(NamedTuple):
    """What a game's rules say of each of its betting rounds (:func:`round_rules`): the
    structure (``limit`` for fixed limit, ``pot_limit``), the ``big_blind`` (the
    pre-flop wager to match, TH-2), the no/pot-limit ``min_bet`` (TH-15), the
    fixed-limit ``small_bet`` and ``big_bet`` (0 in no/pot limit, TH-10), the ``cap``
    on bets and raises and whether heads-up play is uncapped (TH-12, TH-13)."""

    limit: bool
    pot_limit: bool
    big_blind: int
    min_bet: int
    small_bet: int
    big_bet: int
    cap: int | None
    heads_up_uncapped: bool


def round_rules(rules: GameRules) -> RoundRules:
    """The :class:`RoundRules` of a game of ``rules``: made once per config (it is part
    of each hand's :class:`~doubleholdem.game.posting.Opening`)."""
    small_bet = big_bet = 0
    if rules.structure is _FIXED_LIMIT:
        assert rules.small_bet is not None and rules.big_bet is not None
        small_bet, big_bet = rules.small_bet, rules.big_bet
    return RoundRules(
        rules.structure is _FIXED_LIMIT,
        rules.structure is _POT_LIMIT,
        rules.big_blind,
        rules.minimum_bet,
        small_bet,
        big_bet,
        rules.cap,
        rules.heads_up_uncapped,
    )
