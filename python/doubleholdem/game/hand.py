"""One hand of Texas Hold'em or Double Hold'em, from the blinds to the last chip pushed:
the :class:`Hand` state machine (RULES.md TH-1 to TH-31, DH-1 to DH-9).

A hand posts antes and blinds, deals, and then waits for decisions. Ask
:meth:`Hand.legal_actions` who acts and what they may do; answer with :meth:`Hand.act`
(:meth:`Hand.choose_point`: a point card; :meth:`Hand.timeout`, :meth:`Hand.kill`).
Everything that happens is appended to an ordered event log; :meth:`Hand.view` is what
one seat may see; :meth:`Hand.snapshot` saves the hand as JSON-ready data.

The hand holds the state and moves it on; its parts are rules of their own: the deck
and the dealing order (:mod:`~doubleholdem.game.dealing`), the posts before the deal
(:mod:`~doubleholdem.game.posting`), the betting round (:mod:`~doubleholdem.game.betting`),
why a decision is refused (:mod:`~doubleholdem.game.refusals`), the showdown and the
pots (:mod:`~doubleholdem.game.showdown`, :mod:`~doubleholdem.game.pots`), the event log
and what each seat sees of it (:mod:`~doubleholdem.game.events`) and the snapshot
(:mod:`~doubleholdem.game.snapshot`). Hand values come from the Rust core.

>>> hand = Hand(GameConfig(stacks=(1000, 1000, 1000), small_blind=5, big_blind=10), seed=7)
>>> hand.actor, hand.street, hand.pot
(0, 'preflop', 15)
>>> legal = hand.legal_actions()
>>> legal.call_amount, legal.min_raise_to, legal.max_raise_to
(10, 20, 1000)
>>> hand.act("raise", 30)
Event(seq=5, kind='raise', seat=0, amount=30, to=30)
>>> hand.act("fold"); hand.act("fold")
Event(seq=6, kind='fold', seat=1)
Event(seq=7, kind='fold', seat=2)
>>> hand.over, hand.stacks
(True, [1015, 995, 990])
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

from doubleholdem import _core
from doubleholdem.cards import CardLike, Deck
from doubleholdem.errors import IllegalAction, InvalidConfig
from doubleholdem.game import snapshot as _snapshot
from doubleholdem.game.betting import (
    BET_AT,
    CALL_AMOUNT_AT,
    CAN_CHECK_AT,
    CAN_FOLD_AT,
    CLOCKWISE,
    DECISION_AT,
    IS_BET_AT,
    MAX_RAISE_TO_AT,
    MIN_RAISE_TO_AT,
    SEAT_AT,
    Action,
    BettingRound,
    LegalActions,
    point_choice,
)
from doubleholdem.game.config import GameConfig, Variant
from doubleholdem.game.dealing import BOARD_CARDS, hand_deck, stacked_deck
from doubleholdem.game.events import Event, hand_view
from doubleholdem.game.posting import opening_of
from doubleholdem.game.pots import _uncalled_bet
from doubleholdem.game.refusals import (
    all_in_as,
    as_action,
    check_plain,
    check_raise,
    check_seat,
    expect,
    point_index,
    turn_text,
)
from doubleholdem.game.showdown import (
    HandValue,
    Settlement,
    dead_hands_money,
    hand_value,
    played_cards,
    show_order,
    showdown,
    uncontested,
)
from doubleholdem.game.snapshot import SNAPSHOT_VERSION
from doubleholdem.game.state import STREETS, HandState
from doubleholdem.game.words import BET, CALL, CHECK, FOLD, KILL, POINT, RAISE, TIMEOUT
from doubleholdem.wording import Wording, seat_said

__all__ = ["SNAPSHOT_VERSION", "STREETS", "Event", "Hand", "stacked_deck"]


class Hand(HandState):
    """One hand of poker played by the rules of RULES.md.

    ``config`` says the game; the deck is shuffled by a cryptographically strong
    generator unless ``seed`` or ``rng`` (a :class:`random.Random`) is given
    (reproducible), or ``deck`` is given (dealt in its order: replays and tests; distinct
    card numbers or names such as ``"As"``). Hole cards are dealt one at a time
    clockwise from the seat left of the button, then a card is burned before each board
    deal (TH-1).
    """

    __slots__ = ("_cursor", "_round")  # the rules' own: where play is, the betting round

    def __init__(
        self,
        config: GameConfig,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        deck: Deck | Sequence[CardLike] | None = None,
    ) -> None:
        if not isinstance(config, GameConfig):
            raise InvalidConfig(f"a Hand needs a GameConfig, not {type(config).__name__}")
        start = config.derived("_opening", opening_of)  # posts and deal order: once per config
        HandState.__init__(self, config, hand_deck(config, seed, rng, deck, start.dealt), start)
        self._cursor = start.big_blind  # left of the big blind acts first (TH-2, TH-3)
        self._round = BettingRound(
            start.betting, self._bets, self._stacks, self._in_hand, start.able
        )
        if start.dead_hands:  # TH-24: dead as soon as dealt (the config's, kept with it)
            for seat in start.dead_hands:
                self._kill(seat)
        self._proceed()

    def legal_actions(self) -> LegalActions | None:
        """What the seat to act may do, ``None`` once the hand is over."""
        legal = self._legal  # computed once per decision
        if legal is None:
            seat = self._actor
            if seat is None:
                return None
            if self._decision == POINT:
                legal = point_choice(seat, self._bets[seat], self._stacks[seat])
            else:
                betting = self._round
                pot = sum(self._committed) + self._dead if betting.pot_limit else 0
                legal = betting.legal(seat, pot, self._live)
            self._legal = legal
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
        legal = self._legal or self.legal_actions()
        pot = sum(self._committed) + self._dead
        return self._decision, legal, self._holes[seat], self._board, pot, self._live  # type: ignore[return-value]

    # ------------------------------------------------------------------ decisions

    def act(
        self, action: Action | str, amount: int | None = None, seat: int | None = None
    ) -> Event:
        """Applies a betting decision of the seat to act (``seat``, if given, must be that
        seat) and returns the :class:`Event` it recorded (a ``fold``, ``check``,
        ``call``, ``bet`` or ``raise``: an all-in is recorded as the call, bet or raise
        it is, with ``all_in`` set). ``amount`` is the total to bet or raise *to*, or for
        a call, if given, the call amount. Raises :class:`IllegalAction` (carrying the
        legal options) and changes nothing if the action is not allowed now."""
        if self._legal is None and isinstance(action, str):  # a word or an Action member
            plain = _PLAIN.get(action)  # a fold, check or call needs no LegalActions
            actor = self._actor
            if (
                plain is not None
                and actor is not None
                and (seat is None or (type(seat) is int and seat == actor))
                and self._decision == BET
            ):
                chips = self._round.plain(actor, plain, amount)
                if chips is not None:  # the round says it may: no LegalActions needed
                    if plain is _CALL:
                        return self._call(actor, chips)
                    return self._fold(actor) if plain is _FOLD else self._check(actor)
        legal = self._legal or self.legal_actions()  # made once per decision, when asked
        if (
            legal is None
            or legal[DECISION_AT] != BET
            or not (seat is None or (type(seat) is int and seat == self._actor))
        ):  # else the options of this betting decision are known: no need to check again
            legal = self._expect(BET, seat, action, amount)
        try:
            kind = _ACTIONS[action]
        except (KeyError, TypeError):
            kind = as_action(action, legal, amount)
        if kind is _ALL_IN:
            kind, amount = all_in_as(legal, amount)
        actor = legal[SEAT_AT]
        if kind is _CALL:
            chips = legal[CALL_AMOUNT_AT]
            if chips <= 0 or not (amount is None or amount == chips):
                check_plain(legal, kind, amount)
            return self._call(actor, chips)
        if kind is _FOLD:
            if not legal[CAN_FOLD_AT] or amount is not None:
                check_plain(legal, kind, amount)
            return self._fold(actor)
        if kind is _CHECK:
            if not legal[CAN_CHECK_AT] or amount is not None:
                check_plain(legal, kind, amount)
            return self._check(actor)
        return self._raise(legal, kind, amount)

    def fold(self) -> Event:
        """:meth:`act` with ``fold``."""
        seat = self._actor
        if (
            seat is not None
            and self._decision == BET
            and self._round.plain(seat, _FOLD, None) is not None
        ):
            return self._fold(seat)
        return self.act(_FOLD)  # refused by act, with the options

    def check_or_call(self) -> Event:
        """Checks if nothing is owed, else calls."""
        seat = self._actor
        if seat is not None and self._decision == BET:
            plain = self._round.plain
            chips = plain(seat, _CALL, None)
            if chips is not None:
                return self._call(seat, chips)
            if plain(seat, _CHECK, None) is not None:
                return self._check(seat)
        legal = self._expect(BET, None, Action.CALL, None)
        return self.act(Action.CHECK if legal.can_check else Action.CALL)

    def bet_or_raise_to(self, amount: int) -> Event:
        """Bets or raises to ``amount``; returns its event."""
        # a betting decision is awaited: its options; else the refusal of the raise
        legal = self.legal_actions() if self._decision == BET else None
        if legal is None:
            legal = self._expect(BET, None, Action.RAISE, amount)
        return self._raise(legal, _BET if legal[IS_BET_AT] else _RAISE, amount)

    def choose_point(self, seat: int, point: int | str) -> Event:
        """Seat ``seat`` chooses its Double Hold'em point card (DH-2, DH-5): an index
        0..2 into its hole cards in dealing order, the card itself as text ("Kc") or
        "auto" (DH-6), as :func:`doubleholdem.point_card.point_index` reads them.
        Only at that seat's turn on the flop, before it acts. Returns the ``point``
        :class:`Event` it recorded."""
        if (
            self._decision == POINT
            and type(seat) is int
            and seat == self._actor
            and type(point) is int
            and 0 <= point < 3
        ):  # the common case, plainly legal
            index = point
        else:
            check_seat(seat, len(self._stacks))
            legal = self._expect(POINT, seat, POINT, None)
            index = point_index(self._holes[seat], legal, point)
        return self._choose(seat, index)

    def timeout(self, seat: int) -> tuple[Event, Event]:
        """Seat ``seat`` ran out of time: its point card is chosen by DH-6, a betting
        decision checks if free, else folds (TH-40). Returns the events it recorded:
        the ``timeout`` and the ``point``, ``check`` or ``fold`` it made."""
        check_seat(seat, len(self._stacks))
        if self._actor != seat:
            turn = turn_text(self._actor, self._decision)
            why = Wording(seat_said(seat), " cannot time out: it is ", turn)
            raise IllegalAction(why, seat=seat, action=TIMEOUT, legal=self.legal_actions())
        legal = self.legal_actions()
        assert legal is not None  # a seat acts
        timed_out = self._log.add(TIMEOUT, seat)
        if legal.decision == POINT:
            return timed_out, self._choose(seat, _core.auto_point(self._holes[seat]))
        return timed_out, self.act(Action.CHECK if legal.can_check else Action.FOLD)

    def kill(self, seat: int) -> Event:
        """Kills ``seat``'s hand, in turn or not, all in or not: it wins nothing, its
        chips stay in the pot (TH-24; an absent player's, TRN-21). Returns its event."""
        check_seat(seat, len(self._stacks))
        if self.over or not self._in_hand[seat]:
            why = "the hand is over" if self.over else "it is not in the hand"
            raise IllegalAction(Wording(seat_said(seat), " cannot be killed: ", why), seat=seat)
        event = self._kill(seat)
        if seat == self._actor:
            self._cursor = seat
        self._proceed()
        return event

    def _kill(self, seat: int) -> Event:
        self._in_hand[seat] = False
        self._live -= 1
        self._round.fold(seat)
        self._points_due -= self._needs_point[seat]  # DH-5: it chooses none
        self._needs_point[seat] = False
        self._killed += (seat,)
        return self._log.add(KILL, seat)

    def _choose(self, seat: int, index: int) -> Event:
        card = self._holes[seat][index]
        self._points[seat] = index
        self._needs_point[seat] = False
        self._points_due -= 1
        record = self._log.cards(POINT, seat, (card,), index)
        if seat != self._betting_actor:
            self._cursor = seat
        self._proceed()
        return _new_event(Event, record)

    def _expect(
        self, decision: str, seat: int | None, action: object, amount: object
    ) -> LegalActions:
        if seat is not None:
            check_seat(seat, len(self._stacks))
        return expect(self.legal_actions(), decision, seat, action, amount)

    # ------------------------------------------------------------------ chips

    # each applies a decision allowed by the rules, moves the hand on and returns its event

    def _fold(self, seat: int) -> Event:
        self._in_hand[seat] = False
        self._live -= 1
        self._round.fold(seat)
        record = self._log.action(FOLD, seat, None, None, False)
        self._cursor = seat
        self._proceed()
        return _new_event(Event, record)

    def _check(self, seat: int) -> Event:
        self._round.match(seat, False)
        record = self._log.action(CHECK, seat, None, None, False)
        self._cursor = seat
        self._proceed()
        return _new_event(Event, record)

    def _call(self, seat: int, chips: int) -> Event:
        stacks = self._stacks
        stacks[seat] -= chips
        self._bets[seat] += chips
        self._committed[seat] += chips
        all_in = stacks[seat] == 0
        self._round.match(seat, all_in)
        record = self._log.action(CALL, seat, chips, None, all_in)
        self._cursor = seat
        self._proceed()
        return _new_event(Event, record)

    def _raise(self, legal: LegalActions, kind: Action, amount: object) -> Event:
        low, high = legal[MIN_RAISE_TO_AT], legal[MAX_RAISE_TO_AT]
        if type(amount) is not int or low is None or high is None or not low <= amount <= high:
            check_raise(legal, kind, amount)
        assert isinstance(amount, int)
        seat = legal[SEAT_AT]
        chips = amount - legal[BET_AT]
        stacks = self._stacks
        stacks[seat] -= chips
        self._bets[seat] = amount
        self._committed[seat] += chips
        all_in = stacks[seat] == 0
        self._round.record_raise(seat, amount, all_in, self._live)
        record = self._log.action(BET if legal[IS_BET_AT] else RAISE, seat, chips, amount, all_in)
        self._cursor = seat
        self._proceed()
        return _new_event(Event, record)

    def _return(self, seat: int, chips: int) -> None:
        self._committed[seat] -= chips
        if seat in self._killed:  # TH-24: a dead hand's chips stay in the pot
            self._dead += chips
            return
        self._stacks[seat] += chips
        self._log.action("return", seat, chips, None, False)

    # ------------------------------------------------------------------ the hand's flow

    def _clockwise(self, start: int) -> tuple[int, ...]:
        """Every seat clockwise from ``start`` (included)."""
        n = len(self._stacks)
        return CLOCKWISE[n][start % n]

    def _proceed(self) -> None:
        """Moves on until a decision is needed or the hand is over."""
        self._legal = None
        while True:
            if self._live == 1:
                self._end()
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
                self._end()
                return
            self._street += 1
            self._deal_board()
            self._cursor = self.config.button  # left of the button acts first (TH-2)
            self._round.next_street(self._street)

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

    def _close_round(self) -> None:
        """The end of a betting round: the part of a bet nobody matched goes back to its
        owner (TH-20); the bets go into the pot; if at most one player in the hand has
        chips left, the rest of the hand is a run-out with every hand face up (TH-22)."""
        bets = self._bets
        returned = _uncalled_bet(bets)
        if returned is not None:
            seat, chips = returned
            self._return(seat, chips)
            if self._in_hand[seat]:
                self._round.give_back(seat)
        bets[:] = [0] * len(bets)  # the same list: the round holds it
        able = self._round.able  # the players in the hand with chips
        if not self._runout and not able & (able - 1):
            self._runout = True  # TH-22: every hand is turned face up
            order = show_order(self._in_hand, self.config.button, None, True)
            for seat in order:
                self._show(seat)

    def _deal_board(self) -> None:
        deck, burn, log = self._deck, self._next_card, self._log
        dealt = burn + 1 + BOARD_CARDS[self._street]
        self._next_card = dealt
        cards = tuple(deck[burn + 1 : dealt])
        self._board += cards
        log.board(deck[burn], STREETS[self._street], cards)
        if self._street == 1 and self.config.variant is _DOUBLE:
            self._needs_point = list(self._in_hand)
            self._points_due = self._live

    # ------------------------------------------------------------------ the end

    def _show(self, seat: int) -> None:
        self._shown[seat] = True
        self._log.cards("show", seat, self._holes[seat], self._points[seat])

    def _end(self) -> None:
        """The end of the hand: the last player left wins without showing (TH-5), else
        the players left show down (:mod:`~doubleholdem.game.showdown`: TH-19 to TH-23,
        TH-30, TH-31, DH-4)."""
        config, board = self.config, self._board
        if self._killed:  # TH-24: this round's uncalled bet, and what no live hand matched
            if (returned := _uncalled_bet(self._bets)) is not None:
                self._return(*returned)
            self._bets[:] = [0] * len(self._bets)
            self._dead += dead_hands_money(self._committed, self._in_hand, self._killed)
        if self._live == 1:
            flop_dealt = len(board) >= 3
            ending = uncontested(
                self._committed,
                self._bets,
                self._in_hand,
                self._dead,
                config.rake,
                flop_dealt,
                config.show_uncontested,
            )
        else:
            last_bettor = self._round.last_aggressor
            order = show_order(self._in_hand, config.button, last_bettor, self._runout)
            values = self._values(order)
            ending = showdown(
                self._committed,
                self._in_hand,
                self._stacks,
                self._dead,
                order,
                values,
                self._shown,
                config.rake,
                config.button,
                config.muck_losing,
            )
        self._settle(ending)

    def _values(self, order: list[int]) -> dict[int, HandValue | None]:
        """The value of each hand at the showdown (of the seats in show ``order``); a
        replayed hand history gives ``None`` for a hand that forfeits (mucked)."""
        holes, points, board = self._holes, self._points, self._board
        double = self.config.variant is _DOUBLE
        values: dict[int, HandValue | None] = {}  # a loop, not a comprehension: every showdown
        for s in order:
            values[s] = hand_value(holes[s], points[s], board, double)
        return values

    def _settle(self, ending: Settlement) -> None:
        """Applies the end of the hand: the chips that go back, each showing, then each
        pot's rake and awards; the hand is over."""
        self._street = 4
        returned, showings, results = ending
        log, stacks, committed = self._log, self._stacks, self._committed
        for seat, chips in returned:
            stacks[seat] += chips
            committed[seat] -= chips
            log.action("return", seat, chips, None, False)
        for seat, show, value in showings:
            if show:
                self._show(seat)
            if value is not None:  # DH-3, DH-4: the hole cards that played, in Double Hold'em
                worth, which, cards = value
                played = played_cards(self._holes[seat], self._points[seat], which)
                log.hand(seat, cards, worth, which, played)
            elif not show:
                log.add("muck", seat)
        for result in results:
            for seat, share in zip(result[4], result[5]):  # winners, shares
                stacks[seat] += share
        log.settled(results)  # each pot's events, then the end
        zeros = [0] * len(stacks)
        self._bets[:] = zeros  # the same lists: the round and readers hold them
        committed[:] = zeros
        self._dead = 0
        self._results = results
        self._actor = self._decision = self._betting_actor = self._legal = None
        self.over = True

    # ------------------------------------------------------------------ log and views

    def event_log(
        self, seat: int | None = None, *, everything: bool = False
    ) -> list[dict[str, Any]]:
        """The event log as JSON-ready dicts: everything (``everything=True``, the
        server's record), or what ``seat`` may see (``None``: a spectator)."""
        return self._log.dicts(seat, reveal_point=self.config.reveal_point, everything=everything)

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
            check_seat(seat, len(self._stacks))
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
        so a snapshot restores to exactly this hand, or is refused
        (:mod:`doubleholdem.game.snapshot`)."""
        return _snapshot.snapshot(self.config, self._deck, self._log.records)

    def to_json(self) -> str:
        """:meth:`snapshot` as compact JSON text."""
        return json.dumps(self.snapshot(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Hand:
        """The hand saved by :meth:`to_json`."""
        return cls.restore(_snapshot.loads(text))

    @classmethod
    def restore(cls, data: dict[str, Any]) -> Hand:
        """The hand saved by :meth:`snapshot`: its decisions are played again on its deck
        by the rules, so a snapshot that is not a hand raises :class:`InvalidSnapshot`
        saying what is wrong."""
        return _snapshot.restore(data, lambda config, deck: cls(config, deck=deck))


_FOLD, _CHECK, _CALL, _BET, _RAISE, _ALL_IN = Action
_new_event = tuple.__new__  # Event(*record), faster
# enum members as module constants: Python 3.11 looks attributes of an Enum class up slowly
_DOUBLE = Variant.DOUBLE
_ACTIONS: dict[object, Action] = {**{a.value: a for a in Action}, **{a: a for a in Action}}
_PLAIN = {a.value: a for a in (_FOLD, _CHECK, _CALL)}  # a member finds its word: a str enum
