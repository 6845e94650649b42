"""One hand of Texas Hold'em or Double Hold'em, from the blinds to the last chip pushed:
the :class:`Hand` state machine (RULES.md TH-1 to TH-31, DH-1 to DH-9).

A hand posts antes and blinds, deals, and then waits for decisions. Ask
:meth:`Hand.legal_actions` who acts and what they may do; answer with :meth:`Hand.act`
(or :meth:`Hand.choose_point` for a Double Hold'em point card, or :meth:`Hand.timeout`).
Everything that happens is appended to an ordered event log; :meth:`Hand.view` is what
one seat may see; :meth:`Hand.snapshot` saves the hand as JSON-ready data.

The betting round is :mod:`doubleholdem.game.betting`'s and the pots are
:mod:`doubleholdem.game.pots`'; hand values come from the Rust core.

>>> hand = Hand(GameConfig(stacks=(1000, 1000, 1000), small_blind=5, big_blind=10), seed=7)
>>> hand.actor, hand.street, hand.pot
(0, 'preflop', 15)
>>> legal = hand.legal_actions()
>>> legal.call_amount, legal.min_raise_to, legal.max_raise_to
(10, 20, 1000)
>>> hand.act("raise", 30)
>>> hand.act("fold"); hand.act("fold")
>>> hand.over, hand.stacks
(True, [1015, 995, 990])
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from doubleholdem import _core
from doubleholdem.cards import (
    CARD_NAMES,
    FULL_DECK,
    CardLike,
    Deck,
    parse_card,
    parse_cards,
    shuffled,
)
from doubleholdem.errors import DoubleHoldemError, IllegalAction, InvalidConfig, InvalidSnapshot
from doubleholdem.game.betting import CLOCKWISE, Action, BettingRound, LegalActions, point_choice
from doubleholdem.game.config import AnteType, GameConfig, Structure, Variant
from doubleholdem.game.events import Event, hand_view, visible
from doubleholdem.game.pots import (
    Pot,
    PotResult,
    _award,
    _rake_amounts,
    _side_pots,
    _uncalled_bet,
    _unwinnable,
)
from doubleholdem.game.words import BET, CALL, CHECK, FOLD, POINT, RAISE, TIMEOUT

__all__ = ["SNAPSHOT_VERSION", "STREETS", "Event", "Hand", "play_through", "stacked_deck"]

STREETS = ("preflop", "flop", "turn", "river", "showdown")
SNAPSHOT_VERSION = 3
_BOARD_CARDS = (0, 3, 1, 1)


class Hand:
    """One hand of poker played by the rules of RULES.md.

    ``config`` says the game; the deck is shuffled by a cryptographically strong
    generator unless ``seed`` or ``rng`` (a :class:`random.Random`) is given
    (reproducible), or ``deck`` is given (dealt in its order: replays and tests; a list
    of distinct card numbers is dealt as it is). Hole cards are dealt one at a time
    clockwise from the seat left of the button, then a card is burned before each board
    deal (TH-1).
    """

    __slots__ = (
        "_actor",
        "_bets",
        "_betting_actor",
        "_board",
        "_committed",
        "_cursor",
        "_dead",
        "_decision",
        "_deck",
        "_events",
        "_holes",
        "_in_hand",
        "_legal",
        "_live",
        "_needs_point",
        "_next_card",
        "_points",
        "_points_due",
        "_results",
        "_round",
        "_runout",
        "_shown",
        "_stacks",
        "_street",
        "config",
    )

    def __init__(
        self,
        config: GameConfig,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        deck: Deck | Sequence[int] | None = None,
    ) -> None:
        if not isinstance(config, GameConfig):
            raise InvalidConfig(f"a Hand needs a GameConfig, not {type(config).__name__}")
        if rng is not None and not isinstance(rng, random.Random):
            raise InvalidConfig(f"rng: give a random.Random, not {type(rng).__name__}")
        if deck is None:
            cards = shuffled(FULL_DECK, seed, rng)
        elif seed is not None or rng is not None:
            raise InvalidConfig("give a deck or a seed/generator, not both")
        else:
            cards = deck.deal(len(deck)) if isinstance(deck, Deck) else _card_order(deck)
        n = config.players
        if len(cards) < n * config.hole_cards + 8:
            raise InvalidConfig(f"the deck has {len(cards)} cards, too few for {n} players")
        self.config = config
        self._deck = cards
        self._next_card = 0
        self._stacks = list(config.stacks)
        self._bets = [0] * n
        self._committed = [0] * n
        self._dead = 0
        self._in_hand = [True] * n
        self._live = n
        self._holes: list[tuple[int, ...]] = [()] * n
        self._points: list[int | None] = [None] * n
        self._needs_point = [False] * n
        self._points_due = 0
        self._board: tuple[int, ...] = ()
        self._street = 0
        self._events: list[tuple[Any, ...]] = []  # Event fields, as plain tuples
        self._shown = [False] * n
        self._runout = False
        self._results: list[PotResult] = []
        self._actor: int | None = None
        self._decision: str | None = None
        self._betting_actor: int | None = None
        self._legal: LegalActions | None = None
        self._post()
        self._deal_holes()
        self._round = self._open_round()
        self._proceed()

    # ------------------------------------------------------------------ public view

    @property
    def players(self) -> int:
        """Seats dealt in."""
        return len(self._stacks)

    @property
    def button(self) -> int:
        """The button's seat."""
        return self.config.button

    @property
    def actor(self) -> int | None:
        """The seat whose decision is awaited, ``None`` once the hand is over."""
        return self._actor

    @property
    def decision(self) -> str | None:
        """``"bet"``, ``"point"`` (Double Hold'em point card, DH-5) or ``None``."""
        return self._decision

    def turn(self) -> tuple[int | None, str | None]:
        """:attr:`actor` and :attr:`decision` in one call (a table asks after each
        change)."""
        return self._actor, self._decision

    @property
    def over(self) -> bool:
        """True once every pot is awarded."""
        return self._actor is None

    @property
    def street(self) -> str:
        """``preflop``, ``flop``, ``turn``, ``river`` or ``showdown`` (also after a hand
        won without a showdown)."""
        return STREETS[self._street]

    @property
    def board(self) -> list[int]:
        """The community cards dealt so far."""
        return list(self._board)

    @property
    def stacks(self) -> list[int]:
        """Chips each seat has behind (after the awards, once the hand is over)."""
        return list(self._stacks)

    @property
    def bets(self) -> list[int]:
        """Each seat's wager in the current betting round."""
        return list(self._bets)

    @property
    def committed(self) -> list[int]:
        """Each seat's chips in the middle this hand (big-blind ante excluded)."""
        return list(self._committed)

    @property
    def pot(self) -> int:
        """Every chip in the middle, this round's bets included."""
        return sum(self._committed) + self._dead

    @property
    def in_hand(self) -> list[bool]:
        """False for the seats that folded."""
        return list(self._in_hand)

    @property
    def live(self) -> int:
        """Players who have not folded."""
        return self._live

    @property
    def shown(self) -> list[bool]:
        """True for the seats whose hole cards were turned face up (TH-22)."""
        return list(self._shown)

    @property
    def points(self) -> list[int | None]:
        """Double Hold'em point card index of each seat (``None``: not chosen)."""
        return list(self._points)

    @property
    def results(self) -> list[PotResult]:
        """How each pot was settled, side pots first (empty until the hand is over)."""
        return list(self._results)

    @property
    def rake(self) -> int:
        """Chips the house took from this hand's pots (TH-31)."""
        return sum(result.rake for result in self._results)

    @property
    def events(self) -> tuple[Event, ...]:
        """The whole event log, in order."""
        return tuple([_new_event(Event, record) for record in self._events])

    @property
    def records(self) -> tuple[tuple[Any, ...], ...]:
        """The event log as plain tuples in :class:`Event`'s field order (what a table
        or server keeps of a finished hand: ``Event._make(record)`` reads one back)."""
        return tuple(self._events)

    @property
    def event_count(self) -> int:
        """The number of events so far."""
        return len(self._events)

    @property
    def payoffs(self) -> list[int]:
        """Chips won (positive) or lost by each seat so far."""
        return [now - before for now, before in zip(self._stacks, self.config.stacks)]

    def hole(self, seat: int) -> list[int]:
        """The hole cards of ``seat`` in dealing order (server side: no secrecy here)."""
        self._check_seat(seat)
        return list(self._holes[seat])

    def legal_actions(self) -> LegalActions | None:
        """What the seat to act may do, ``None`` once the hand is over."""
        legal = self._legal  # computed once per decision
        if legal is None:
            view = self.actor_view()
            return None if view is None else view[1]
        return legal

    def actor_view(
        self,
    ) -> tuple[str, LegalActions, tuple[int, ...], tuple[int, ...], int, int] | None:
        """What the seat to act decides on, in one call: the decision (:attr:`decision`),
        its options, its hole cards, the board, the pot and the number of players in the
        hand; ``None`` once the hand is over."""
        seat = self._actor
        if seat is None:
            return None
        pot = sum(self._committed) + self._dead
        legal = self._legal
        if legal is None:
            if self._decision == POINT:
                legal = point_choice(seat, self._bets[seat], self._stacks[seat])
            else:
                legal = self._round.legal(seat, self._stacks, self._in_hand, pot)
            self._legal = legal
        return self._decision, legal, self._holes[seat], self._board, pot, self._live  # type: ignore[return-value]

    # ------------------------------------------------------------------ decisions

    def act(self, action: Action | str, amount: int | None = None, seat: int | None = None) -> None:
        """Applies a betting decision of the seat to act (``seat``, if given, must be that
        seat). ``amount`` is the total to bet or raise *to*, or for a call, if given, the
        call amount. Raises :class:`IllegalAction` (carrying the legal options) and
        changes nothing if the action is not allowed now."""
        legal = self._legal
        if (
            legal is None
            or self._decision != BET
            or not (seat is None or (type(seat) is int and seat == self._actor))
        ):  # else the options of this betting decision are known: no need to check again
            legal = self._expect(BET, seat, action, amount)
        try:
            kind = _ACTIONS[action]
        except (KeyError, TypeError):
            kind = _action(action, legal, amount)
        if kind is _ALL_IN:
            kind, amount = self._all_in_as(legal, amount)
        actor = legal.seat
        if kind is _FOLD:
            if not legal.can_fold or amount is not None:
                reason = "there is nothing to call: check instead"
                self._require(legal.can_fold, reason, legal, kind)
                self._require(amount is None, "a fold takes no amount", legal, kind, amount)
            self._fold(actor)
        elif kind is _CHECK:
            if not legal.can_check or amount is not None:
                self._require(legal.can_check, "facing a wager: fold, call or raise", legal, kind)
                self._require(amount is None, "a check takes no amount", legal, kind, amount)
            self._check(actor)
        elif kind is _CALL:
            chips = legal.call_amount
            if chips <= 0 or not (amount is None or amount == chips):
                reason = "there is nothing to call: check instead"
                self._require(legal.can_call, reason, legal, kind)
                self._require(
                    amount is None or amount == chips, f"a call is {chips}", legal, kind, amount
                )
            self._call(actor, chips)
        else:
            self._raise(legal, kind, amount)
        self._cursor = actor
        self._proceed()

    def fold(self) -> None:
        """:meth:`act` with ``fold``."""
        seat = self._actor
        if (
            self._legal is None
            and self._decision == BET
            and seat is not None
            and self._round.level > self._bets[seat]  # facing a wager: always allowed
        ):
            self._fold(seat)
            self._cursor = seat
            self._proceed()
            return
        self.act(Action.FOLD)

    def check_or_call(self) -> None:
        """Checks if nothing is owed, else calls."""
        seat = self._actor
        if self._legal is None and self._decision == BET and seat is not None:
            # always allowed: no need for the whole LegalActions
            to_call = self._round.level - self._bets[seat]
            if to_call > 0:
                stack = self._stacks[seat]
                self._call(seat, to_call if to_call < stack else stack)
            else:
                self._check(seat)
            self._cursor = seat
            self._proceed()
            return
        legal = self._expect(BET, None, Action.CALL, None)
        self.act(Action.CHECK if legal.can_check else Action.CALL)

    def bet_or_raise_to(self, amount: int) -> None:
        """Bets or raises to ``amount``."""
        legal = self._expect(BET, None, Action.RAISE, amount)
        self.act(Action.BET if legal.is_bet else Action.RAISE, amount)

    def choose_point(self, seat: int, point: int | str) -> None:
        """Seat ``seat`` chooses its Double Hold'em point card (DH-2, DH-5): an index
        0..2 into its hole cards in dealing order, or the card itself as text ("Kc").
        Only at that seat's turn on the flop, before it acts."""
        if (
            self._decision == POINT
            and type(seat) is int
            and seat == self._actor
            and type(point) is int
            and 0 <= point < 3
        ):  # the common case, plainly legal
            index = point
        else:
            self._check_seat(seat)
            index = self._point_index(self._expect(POINT, seat, POINT, None), point)
        self._choose(seat, index)

    def timeout(self, seat: int) -> None:
        """Seat ``seat`` ran out of time: its point card is chosen by DH-6, a betting
        decision checks if free, else folds (TH-40)."""
        self._check_seat(seat)
        if self._actor != seat:
            raise IllegalAction(
                f"seat {seat} cannot time out: it is {self._turn_text()}",
                seat=seat,
                action=TIMEOUT,
                legal=self.legal_actions(),
            )
        legal = self.legal_actions()
        assert legal is not None  # a seat acts
        self._log(TIMEOUT, seat)
        if legal.decision == POINT:
            self._choose(seat, _core.auto_point(self._holes[seat]))
        else:
            self.act(Action.CHECK if legal.can_check else Action.FOLD)

    def _choose(self, seat: int, index: int) -> None:
        card = self._holes[seat][index]
        self._points[seat] = index
        self._needs_point[seat] = False
        self._points_due -= 1
        self._log(POINT, seat, cards=(card,), point=index)
        if seat != self._betting_actor:
            self._cursor = seat
        self._proceed()

    # ------------------------------------------------------------------ validation

    def _expect(self, decision: str, seat: int | None, action: object, amount: object) -> Any:
        if seat is not None and not (type(seat) is int and 0 <= seat < len(self._stacks)):
            self._check_seat(seat)
        legal = self.legal_actions()
        if legal is None:
            raise IllegalAction(
                "the hand is over", seat=seat, action=action, amount=_amount(amount)
            )
        if seat is not None and seat != legal.seat:
            raise IllegalAction(
                f"seat {seat} cannot act: it is {self._turn_text()}",
                seat=seat,
                action=action,
                amount=_amount(amount),
                legal=legal,
            )
        if legal.decision != decision:
            wanted = "choose a point card" if legal.decision == POINT else "act on the betting"
            raise _refusal(legal, f"must first {wanted}", action, amount)
        return legal

    def _turn_text(self) -> str:
        if self._actor is None:
            return "the end of the hand"
        what = "choose a point card" if self._decision == POINT else "act"
        return f"seat {self._actor}'s turn to {what}"

    def _check_seat(self, seat: object) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalAction(
                f"{seat!r} is not a seat (seats 0..{self.players - 1})", action=None
            )

    @staticmethod
    def _require(
        ok: bool, reason: str, legal: LegalActions, kind: Action, amount: object = None
    ) -> None:
        if not ok:
            raise _refusal(legal, f"cannot {kind.value}: {reason}", kind, amount)

    def _all_in_as(self, legal: LegalActions, amount: object) -> tuple[Action, int | None]:
        self._require(amount is None, "an all-in takes no amount", legal, Action.ALL_IN, amount)
        if legal.stack > 0 and legal.call_amount == legal.stack:
            return Action.CALL, None
        self._require(
            legal.max_raise_to == legal.all_in_to,
            _raise_range_text(legal),
            legal,
            Action.ALL_IN,
        )
        return (Action.BET if legal.is_bet else Action.RAISE), legal.all_in_to

    def _point_index(self, legal: LegalActions, point: object) -> int:
        hole = self._holes[legal.seat]
        if isinstance(point, str):
            try:
                card = parse_card(point)
            except ValueError:
                card = -1
            if card in hole:
                return hole.index(card)
        elif isinstance(point, int) and not isinstance(point, bool) and 0 <= point < len(hole):
            return point
        cards = " ".join(CARD_NAMES[c] for c in hole)
        reason = f"cannot choose point {point!r}: give 0, 1 or 2 or one of {cards}"
        raise _refusal(legal, reason, POINT, None)

    # ------------------------------------------------------------------ chips

    def _wager(self, seat: int, chips: int) -> None:
        self._stacks[seat] -= chips
        self._bets[seat] += chips
        self._committed[seat] += chips

    def _fold(self, seat: int) -> None:
        self._in_hand[seat] = False
        self._live -= 1
        self._round.fold(seat)
        self._log_event(FOLD, seat, None, None, False)

    def _check(self, seat: int) -> None:
        self._round.match(seat, False)
        self._log_event(CHECK, seat, None, None, False)

    def _call(self, seat: int, chips: int) -> None:
        stacks = self._stacks
        stacks[seat] -= chips
        self._bets[seat] += chips
        self._committed[seat] += chips
        all_in = stacks[seat] == 0
        self._round.match(seat, all_in)
        self._log_event(CALL, seat, chips, None, all_in)

    def _raise(self, legal: LegalActions, kind: Action, amount: object) -> None:
        low, high = legal.min_raise_to, legal.max_raise_to
        if type(amount) is not int or low is None or high is None or not low <= amount <= high:
            self._check_raise(legal, kind, amount)
        assert isinstance(amount, int)
        seat = legal.seat
        self._wager(seat, amount - legal.bet)
        all_in = self._stacks[seat] == 0
        self._round.record_raise(seat, amount, all_in=all_in, players_in_hand=self._live)
        kind_text = BET if legal.is_bet else RAISE
        self._log_event(kind_text, seat, amount - legal.bet, amount, all_in)

    def _check_raise(self, legal: LegalActions, kind: Action, amount: object) -> None:
        """Refuses a bet or raise that is not allowed, or not to a whole number of chips
        in the legal range."""
        self._require(legal.can_raise, _raise_range_text(legal), legal, kind, amount)
        if isinstance(amount, bool) or not isinstance(amount, int):
            self._require(False, f"give the total to raise to, not {amount!r}", legal, kind)
        assert isinstance(amount, int)
        low, high = legal.min_raise_to, legal.max_raise_to
        assert low is not None and high is not None
        self._require(low <= amount <= high, _raise_range_text(legal), legal, kind, amount)

    def _return(self, seat: int, chips: int) -> None:
        self._stacks[seat] += chips
        self._committed[seat] -= chips
        self._log("return", seat, amount=chips)

    # ------------------------------------------------------------------ the hand's flow

    def _clockwise(self, start: int) -> tuple[int, ...]:
        """Every seat clockwise from ``start`` (included)."""
        n = len(self._stacks)
        return CLOCKWISE[n][start % n]

    def _blind_seats(self) -> tuple[int | None, int]:
        if self.config.blind_seats is not None:  # placed by a table (TH-38)
            return self.config.blind_seats
        button, n = self.config.button, self.players
        if n == 2:  # TH-3: the button posts the small blind
            return button, (button + 1) % n
        return (button + 1) % n, (button + 2) % n

    def _post(self) -> None:
        """Antes (TH-19) then blinds (TH-2, TH-18); a short player posts what they have."""
        config = self.config
        small, big = self._blind_seats()
        seat: int | None
        if config.ante:
            if config.ante_type is _UNIFORM:
                for seat in self._clockwise(config.button + 1):
                    chips = min(config.ante, self._stacks[seat])
                    self._stacks[seat] -= chips
                    self._committed[seat] += chips
                    self._log("ante", seat, amount=chips, all_in=self._stacks[seat] == 0)
            else:
                chips = min(config.ante, self._stacks[big])
                self._stacks[big] -= chips
                self._dead += chips
                self._log("ante", big, amount=chips, all_in=self._stacks[big] == 0)
        for seat, blind, kind in (
            (small, config.small_blind, "small_blind"),
            (big, config.big_blind, "big_blind"),
        ):
            if seat is None:
                continue
            chips = min(blind, self._stacks[seat])
            if chips:
                self._wager(seat, chips)
                self._log(kind, seat, amount=chips, all_in=self._stacks[seat] == 0)
        if config.live_posts or config.dead_posts:
            self._post_for_table()

    def _post_for_table(self) -> None:
        """A table's extra posts, clockwise from the button: a live post (TH-36, TH-37)
        is a wager like a blind; a dead post (TH-37) goes whole into the main pot."""
        config = self.config
        for seat in self._clockwise(config.button + 1):
            live = config.live_posts[seat] if config.live_posts else 0
            chips = min(live, self._stacks[seat])
            if chips:
                self._wager(seat, chips)
                self._log("post", seat, amount=chips, all_in=self._stacks[seat] == 0)
            dead = config.dead_posts[seat] if config.dead_posts else 0
            chips = min(dead, self._stacks[seat])
            if chips:
                self._stacks[seat] -= chips
                self._dead += chips
                self._log("post_dead", seat, amount=chips, all_in=self._stacks[seat] == 0)

    def _draw(self, count: int) -> tuple[int, ...]:
        start = self._next_card
        self._next_card = start + count
        return tuple(self._deck[start : start + count])

    def _deal_holes(self) -> None:
        order = self._clockwise(self.config.button + 1)
        deck, holes, n = self._deck, self._holes, len(order)
        start = self._next_card
        rounds = self.config.hole_cards
        for i, seat in enumerate(order):  # one card at a time, clockwise (TH-1)
            holes[seat] = tuple(deck[start + i : start + i + rounds * n : n])
        self._next_card = start + rounds * n
        events = self._events
        for seat in order:  # self._log("deal", seat, cards=...), faster
            held = holes[seat]
            events.append(
                (len(events), "deal", seat, None, None, held, False, None, (), None, None, None)
            )

    def _open_round(self) -> BettingRound:
        config = self.config
        limit = config.structure is _FIXED_LIMIT
        bet_size = 0
        if limit:
            assert config.small_bet is not None and config.big_bet is not None
            bet_size = config.small_bet if self._street < 2 else config.big_bet
        if self._street == 0:
            self._cursor = self._blind_seats()[1]
            level, bets_made = config.big_blind, 1
        else:
            self._cursor = config.button
            level, bets_made = 0, 0
        return BettingRound(
            config.structure,
            self._bets,
            self._stacks,
            self._in_hand,
            level=level,
            min_bet=config.minimum_bet,
            bet_size=bet_size,
            bets_made=bets_made,
            cap=config.cap,
            heads_up_uncapped=config.heads_up_uncapped,
        )

    def _proceed(self) -> None:
        """Moves on until a decision is needed or the hand is over."""
        self._legal = None
        while True:
            if self._live == 1:
                self._win_uncontested()
                return
            actor = self._round.next_actor(self._cursor)
            self._betting_actor = actor
            if self._points_due and self._point_due(actor):
                return
            if actor is not None:
                self._actor, self._decision = actor, BET
                return
            self._close_round()
            if self._street == 3:
                self._showdown()
                return
            self._street += 1
            self._deal_board()
            self._round = self._open_round()

    def _point_due(self, actor: int | None) -> bool:
        """DH-5: each player chooses a point card at their turn, all-in players included:
        True (and that player acts) if one comes before ``actor``, the next to bet."""
        needs = self._needs_point
        for seat in self._clockwise(self._cursor + 1):
            if needs[seat]:
                self._actor, self._decision = seat, POINT
                return True
            if seat == actor:
                break
        return False

    def _return_uncalled(self) -> None:
        """TH-20: the part of a bet nobody matched goes back to its owner."""
        returned = _uncalled_bet(self._bets)
        if returned is not None:
            self._return(*returned)

    def _close_round(self) -> None:
        self._return_uncalled()
        bets = self._bets
        bets[:] = [0] * len(bets)  # the same list: the round holds it
        with_chips = 0
        for alive, stack in zip(self._in_hand, self._stacks):
            if alive and stack:
                with_chips += 1
        if not self._runout and with_chips <= 1:
            self._runout = True  # TH-22: every hand is turned face up
            for seat in self._showdown_order():
                self._show(seat)

    def _deal_board(self) -> None:
        self._log("burn", cards=self._draw(1))
        cards = self._draw(_BOARD_CARDS[self._street])
        self._board += cards
        self._log(STREETS[self._street], cards=cards)
        if self._street == 1 and self.config.variant is _DOUBLE:
            self._needs_point = list(self._in_hand)
            self._points_due = self._live

    # ------------------------------------------------------------------ the end

    def _showdown_order(self) -> list[int]:
        """TH-22: the last bettor or raiser of the final round first, else the first
        player left of the button; then clockwise."""
        aggressor = self._round.last_aggressor
        start = self.config.button + 1 if self._runout or aggressor is None else aggressor
        return [s for s in self._clockwise(start) if self._in_hand[s]]

    def _show(self, seat: int) -> None:
        self._shown[seat] = True
        self._log("show", seat, cards=self._holes[seat], point=self._points[seat])

    def _value(self, seat: int) -> tuple[int, int | None, tuple[int, ...]]:
        hole = self._holes[seat]
        if self.config.variant is _DOUBLE:
            point = self._points[seat]
            assert point is not None  # DH-5: everyone in the hand chose on the flop
            value, which, five = _core.resolve(hole, point, self._board)
            return value, which, tuple(five)
        cards = [*hole, *self._board]
        return _core.evaluate(cards), None, tuple(_core.best_five(cards))

    def _return_unwinnable(self) -> None:
        """Chips that no live player can win (a uniform ante above every remaining
        stake, TH-19) go back to whoever put them in."""
        for seat, chips in enumerate(_unwinnable(self._committed, self._in_hand)):
            if chips:
                self._return(seat, chips)

    def _showdown(self) -> None:
        self._street = 4
        self._return_unwinnable()
        pots = _side_pots(
            self._committed, self._in_hand, [s == 0 for s in self._stacks], self._dead
        )
        values: dict[int, int] = {}
        for seat in self._showdown_order():
            value, which, five = self._value(seat)
            if self._shown[seat] or _can_win(seat, value, values, pots):
                if not self._shown[seat]:
                    self._show(seat)
                values[seat] = value
                self._log("hand", seat, cards=five, value=value, hand=which)
            else:
                self._log("muck", seat)
        rakes = _rake_amounts(pots, self.config.rake, True)
        self._settle(_award(pots, values, self.config.button, self.players, rakes))

    def _win_uncontested(self) -> None:
        """TH-5: the last player in the hand wins every pot without showing."""
        self._return_uncalled()
        self._return_unwinnable()
        winner = self._in_hand.index(True)
        pot = Pot(sum(self._committed) + self._dead, (winner,))
        (rake,) = _rake_amounts([pot], self.config.rake, len(self._board) >= 3)
        self._street = 4
        self._settle([PotResult(0, pot.amount, rake, (winner,), (winner,), (pot.amount - rake,))])

    def _settle(self, results: list[PotResult]) -> None:
        for result in results:
            self._log("pot", pot=result.pot, amount=result.amount, seats=result.eligible)
            if result.rake:
                self._log("rake", pot=result.pot, amount=result.rake)
            for seat, share in zip(result.winners, result.shares):
                self._stacks[seat] += share
                self._log("award", seat, pot=result.pot, amount=share)
        for seat in range(self.players):
            self._bets[seat] = 0
            self._committed[seat] = 0
        self._dead = 0
        self._results = results
        self._actor = self._decision = self._betting_actor = None
        self._log("end")

    # ------------------------------------------------------------------ log and views

    def _log(
        self,
        kind: str,
        seat: int | None = None,
        *,
        amount: int | None = None,
        to: int | None = None,
        cards: tuple[int, ...] = (),
        all_in: bool = False,
        pot: int | None = None,
        seats: tuple[int, ...] = (),
        point: int | None = None,
        value: int | None = None,
        hand: int | None = None,
    ) -> None:
        events = self._events
        events.append(
            (len(events), kind, seat, amount, to, cards, all_in, pot, seats, point, value, hand)
        )

    def _log_event(
        self, kind: str, seat: int, amount: int | None, to: int | None, all_in: bool
    ) -> None:
        """:meth:`_log` of a betting action, the common case."""
        events = self._events
        events.append((len(events), kind, seat, amount, to, (), all_in, None, (), None, None, None))

    def event_log(
        self, seat: int | None = None, *, everything: bool = False
    ) -> list[dict[str, Any]]:
        """The event log as JSON-ready dicts: everything (``everything=True``, the
        server's record), or what ``seat`` may see (``None``: a spectator)."""
        if everything:
            return [event.to_dict() for event in self.events]
        reveal = self.config.reveal_point
        return [visible(event.to_dict(), event.seat == seat, reveal) for event in self.events]

    def log_json(self) -> str:
        """The full event log as compact JSON: equal seeds and actions give equal bytes."""
        return json.dumps(self.event_log(everything=True), separators=(",", ":"))

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may see, JSON-ready (``None``: a spectator): public state, its own
        hole cards and point card, hands that were shown, its legal options when it is
        to act, and the event log without anything hidden from it
        (:func:`~doubleholdem.game.events.hand_view`). Never another player's unshown
        cards or hidden point card, never the deck."""
        if seat is not None:
            self._check_seat(seat)
        return {
            "seat": seat,
            "config": self.config.to_dict(),
            "button": self.button,
            "to_act": self._actor,
            **hand_view(self, seat),
        }

    # ------------------------------------------------------------------ snapshots

    def snapshot(self) -> dict[str, Any]:
        """The hand as JSON-ready data (the deck included: keep it on the server),
        versioned: the settings, the deck and every decision so far as ``[seat, kind,
        amount]`` (``kind`` a betting action, ``point`` or ``timeout``; ``amount`` the
        total of a bet or raise, or the point index). :meth:`restore` plays them again,
        so a snapshot restores to exactly this hand, or is refused."""
        return {
            "version": SNAPSHOT_VERSION,
            "config": self.config.to_dict(),
            "deck": list(self._deck),
            "decisions": self._decisions(),
        }

    def _decisions(self) -> list[list[Any]]:
        """Every decision so far as ``[seat, kind, amount]``, read off the log: a
        timeout, or the action or point card the seat chose (the event after a timeout
        is what the timeout did)."""
        decisions: list[list[Any]] = []
        timed_out = False
        for _, kind, seat, _, to, _, _, _, _, point, _, _ in self._events:
            if kind not in _DECIDED:
                continue
            if kind == TIMEOUT:
                decisions.append([seat, TIMEOUT, None])
            elif not timed_out:
                decisions.append([seat, kind, point if kind == POINT else to])
            timed_out = kind == TIMEOUT
        return decisions

    def to_json(self) -> str:
        """:meth:`snapshot` as compact JSON text."""
        return json.dumps(self.snapshot(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Hand:
        """The hand saved by :meth:`to_json`."""
        try:
            data = json.loads(text)
        except (ValueError, TypeError, RecursionError) as error:
            raise InvalidSnapshot(f"a snapshot is JSON text: {error}") from None
        return cls.restore(data)

    @classmethod
    def restore(cls, data: dict[str, Any]) -> Hand:
        """The hand saved by :meth:`snapshot`: its decisions are played again on its deck
        by the rules, so a snapshot that is not a hand raises :class:`InvalidSnapshot`
        saying what is wrong."""
        found = data.get("version") if isinstance(data, dict) else None
        if found != SNAPSHOT_VERSION or isinstance(found, bool):
            raise InvalidSnapshot(
                f"not a version {SNAPSHOT_VERSION} hand snapshot (version {found!r}); "
                "older versions cannot be restored"
            )
        unknown = sorted(set(data) - {"version", "config", "deck", "decisions"})
        if unknown:
            raise InvalidSnapshot(f"broken hand snapshot: unknown fields {unknown}")
        try:
            hand = cls(GameConfig.from_dict(data["config"]), deck=_snapshot_deck(data["deck"]))
        except KeyError as error:
            raise InvalidSnapshot(f"broken hand snapshot: {error} is missing") from None
        except DoubleHoldemError as error:
            raise InvalidSnapshot(f"broken hand snapshot: {error}") from None
        decisions = data.get("decisions")
        if not isinstance(decisions, list):
            raise InvalidSnapshot("broken hand snapshot: decisions is not a list")
        for number, decision in enumerate(decisions):
            try:
                hand._replay(decision)
            except (DoubleHoldemError, ValueError, TypeError) as error:
                raise InvalidSnapshot(f"broken hand snapshot: decision {number}: {error}") from None
        return hand

    def _replay(self, decision: object) -> None:
        """One ``[seat, kind, amount]`` decision of a snapshot, checked like any other."""
        if not (isinstance(decision, list) and len(decision) == 3):
            raise InvalidSnapshot(f"{decision!r} is not [seat, kind, amount]")
        seat, kind, amount = decision
        if amount is not None and (isinstance(amount, bool) or not isinstance(amount, int)):
            raise InvalidSnapshot(f"{amount!r} is not an amount")
        if kind == TIMEOUT and amount is None:
            self.timeout(seat)
        elif kind == POINT and amount is not None:
            self.choose_point(seat, amount)
        elif kind in _ACTIONS and kind != Action.ALL_IN.value:
            self.act(kind, amount, seat=seat)
        else:
            raise InvalidSnapshot(f"{kind!r} with {amount!r} is not a decision")


_new_event = tuple.__new__
_FOLD, _CHECK, _CALL, _ALL_IN = Action.FOLD, Action.CHECK, Action.CALL, Action.ALL_IN
# enum members as module constants: Python 3.11 looks attributes of an Enum class up slowly
_FIXED_LIMIT, _DOUBLE, _UNIFORM = Structure.FIXED_LIMIT, Variant.DOUBLE, AnteType.UNIFORM
_ACTIONS: dict[object, Action] = {**{a.value: a for a in Action}, **{a: a for a in Action}}
_DECIDED = frozenset({FOLD, CHECK, CALL, BET, RAISE, POINT, TIMEOUT})


def _can_win(seat: int, value: int, shown: dict[int, int], pots: Sequence[Pot]) -> bool:
    """A hand that cannot win or tie any pot it is in may be mucked (TH-22)."""
    for _, eligible in pots:
        if seat in eligible:
            for other in eligible:
                if shown.get(other, -1) > value:
                    break
            else:
                return True
    return False


def _card_order(cards: Sequence[int]) -> list[int]:
    order = list(cards)
    distinct = set(order)
    if (
        len(distinct) != len(order)
        or not distinct.issubset(_CARDS)
        or not set(map(type, order)).issubset(_INT)
    ):
        parse_cards(order)  # names the bad or repeated card
    return order


_CARDS = frozenset(range(52))
_INT = frozenset({int})


def _snapshot_deck(deck: object) -> list[int]:
    if not isinstance(deck, list) or not all(type(c) is int for c in deck):
        raise InvalidSnapshot("broken hand snapshot: the deck is a list of card numbers")
    return _card_order(deck)


def _amount(amount: object) -> int | None:
    return amount if isinstance(amount, int) and not isinstance(amount, bool) else None


def _refusal(legal: LegalActions, reason: str, action: object, amount: object) -> IllegalAction:
    """The refusal of what the seat to act tried, ``"seat {seat} {reason}"``; its
    ``reason`` field lets a table say it with its own seat number."""
    return IllegalAction(
        f"seat {legal.seat} {reason}",
        seat=legal.seat,
        action=action,
        amount=_amount(amount),
        legal=legal,
        reason=reason,
    )


def _action(action: object, legal: LegalActions, amount: object) -> Action:
    try:
        return Action(action)
    except ValueError:
        names = ", ".join(a.value for a in Action)
        raise IllegalAction(
            f"{action!r} is not an action (one of {names})",
            seat=legal.seat,
            action=action,
            amount=_amount(amount),
            legal=legal,
        ) from None


def _raise_range_text(legal: LegalActions) -> str:
    if legal.min_raise_to is None:
        return "no bet or raise is allowed now"
    if legal.min_raise_to == legal.max_raise_to:
        return f"the only bet or raise is to {legal.min_raise_to}"
    return f"bets and raises go to {legal.min_raise_to}..{legal.max_raise_to}"


def stacked_deck(
    config: GameConfig,
    holes: Mapping[int, str | Iterable[CardLike]],
    board: str | Iterable[CardLike] = (),
) -> Deck:
    """A deck that deals seat ``s`` the cards ``holes[s]`` (in dealing order) and then
    the ``board`` (up to five cards), following the dealing order of TH-1 (one card at
    a time from the seat left of the button, a burn before each board deal). Cards not
    given are the lowest unused ones, so the deal is reproducible.

    >>> from doubleholdem.cards import format_cards
    >>> config = GameConfig(stacks=(100, 100), small_blind=1, big_blind=2)
    >>> hand = Hand(config, deck=stacked_deck(config, {0: "AsAd", 1: "KcKd"}, "2c7h9s3d4h"))
    >>> [format_cards(hand.hole(s)) for s in (0, 1)]
    ['As Ad', 'Kc Kd']
    """
    n, k = config.players, config.hole_cards
    given = {seat: parse_cards(cards) for seat, cards in holes.items()}
    table = parse_cards(board)
    for seat, cards in given.items():
        if not 0 <= seat < n or len(cards) != k:
            raise InvalidConfig(f"seat {seat} cannot be dealt {len(cards)} cards ({k} each)")
    if len(table) > 5:
        raise InvalidConfig(f"a board has at most 5 cards, not {len(table)}")
    used = [c for cards in given.values() for c in cards] + table
    parse_cards(used)  # DuplicateCard names a card given twice
    spare = iter(c for c in range(52) if c not in set(used))
    order = []
    for r in range(k):
        for i in range(n):
            seat = (config.button + 1 + i) % n
            order.append(given[seat][r] if seat in given else next(spare))
    table += [next(spare) for _ in range(5 - len(table))]
    order += [next(spare), *table[:3], next(spare), table[3], next(spare), table[4]]
    return Deck(order=order)


def play_through(hand: Hand, decisions: Iterable[tuple[str, int | None]]) -> Hand:
    """Applies ``(action, amount)`` pairs in order (``("point", index)`` for a point
    card); a convenience for tests and examples."""
    for action, amount in decisions:
        if action == POINT:
            if hand.actor is None or amount is None:
                raise IllegalAction("no point card to choose now", action=POINT)
            hand.choose_point(hand.actor, amount)
        else:
            hand.act(action, amount)
    return hand
