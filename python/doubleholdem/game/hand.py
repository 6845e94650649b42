"""One hand of Texas Hold'em or Double Hold'em, from the blinds to the last chip pushed:
the :class:`Hand` state machine (RULES.md TH-1 to TH-31, DH-1 to DH-9).

A hand posts antes and blinds, deals, and then waits for decisions. Ask
:meth:`Hand.legal_actions` who acts and what they may do; answer with :meth:`Hand.act`
(or :meth:`Hand.choose_point` for a Double Hold'em point card, or :meth:`Hand.timeout`).
Everything that happens is appended to an ordered event log; :meth:`Hand.view` is what
one seat may see; :meth:`Hand.snapshot` saves the whole state as JSON-ready data.

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
from typing import Any, NamedTuple

from doubleholdem import _core
from doubleholdem.cards import CARD_NAMES, CardLike, Deck, parse_card, parse_cards, shuffled
from doubleholdem.errors import IllegalAction, InvalidConfig, InvalidSnapshot
from doubleholdem.game.betting import Action, LegalActions
from doubleholdem.game.config import AnteType, GameConfig, Variant
from doubleholdem.game.pots import PotResult

__all__ = ["SNAPSHOT_VERSION", "STREETS", "Event", "Hand"]

STREETS = ("preflop", "flop", "turn", "river", "showdown")
SNAPSHOT_VERSION = 2
BET = "bet"
POINT = "point"


class Event(NamedTuple):
    """One entry of the event log; fields that do not apply are ``None`` or empty.

    ``kind`` is one of: ``ante``, ``small_blind``, ``big_blind``, ``post`` and
    ``post_dead`` (a table's live and dead posts, TH-36, TH-37), ``deal`` (hole cards),
    ``burn``, ``flop``, ``turn``, ``river`` (board cards), ``fold``, ``check``, ``call``,
    ``bet``, ``raise`` (``amount`` is the chips put in; ``to`` the total wager for bets
    and raises), ``timeout``, ``point`` (a Double Hold'em point card: ``point`` is its
    index, ``cards`` the card), ``return`` (an uncalled bet, TH-20), ``show``, ``muck``,
    ``hand`` (a shown hand's ``value``, best five ``cards`` and, in Double Hold'em, which
    ``hand`` played, DH-4), ``pot`` (``pot`` index, ``amount``, eligible ``seats``),
    ``rake``, ``award`` (``seat`` wins ``amount`` from ``pot``) and ``end``.
    """

    seq: int
    kind: str
    seat: int | None = None
    amount: int | None = None
    to: int | None = None
    cards: tuple[int, ...] = ()
    all_in: bool = False
    pot: int | None = None
    seats: tuple[int, ...] = ()
    point: int | None = None
    value: int | None = None
    hand: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict without the fields that do not apply; cards as text."""
        data: dict[str, Any] = {"seq": self.seq, "kind": self.kind}
        for name in ("seat", "amount", "to"):
            if getattr(self, name) is not None:
                data[name] = getattr(self, name)
        if self.cards:
            data["cards"] = [CARD_NAMES[c] for c in self.cards]
        if self.all_in:
            data["all_in"] = True
        if self.pot is not None:
            data["pot"] = self.pot
        if self.seats:
            data["seats"] = list(self.seats)
        for name in ("point", "value", "hand"):
            if getattr(self, name) is not None:
                data[name] = getattr(self, name)
        return data


class Hand:
    """One hand of poker played by the rules of RULES.md.

    ``config`` says the game; the deck is shuffled by a cryptographically strong
    generator unless ``seed`` or ``rng`` is given (reproducible), or ``deck`` is given
    (dealt in its order: replays and tests; a list of distinct card numbers is dealt as
    it is). Hole cards are dealt one at a time clockwise from the seat left of the
    button, then a card is burned before each board deal (TH-1). The state machine
    itself is the Rust core's (``_core.HandCore``); this class checks arguments, raises
    :class:`IllegalAction` and keeps the log as :class:`Event` tuples.
    """

    __slots__ = ("_core", "_events", "_legal", "_results", "config")

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
        if deck is None:
            cards = shuffled(list(range(52)), seed, rng)
        elif seed is not None or rng is not None:
            raise InvalidConfig("give a deck or a seed/generator, not both")
        else:
            cards = deck.deal(len(deck)) if isinstance(deck, Deck) else _card_order(deck)
        n = config.players
        if len(cards) < n * config.hole_cards + 8:
            raise InvalidConfig(f"the deck has {len(cards)} cards, too few for {n} players")
        self._start(config, _new_core(config, cards))

    def _start(self, config: GameConfig, core: _core.HandCore) -> None:
        self.config = config
        self._core = core
        self._events: list[Event] = []
        self._legal: LegalActions | None = None
        self._results: list[PotResult] | None = None

    # ------------------------------------------------------------------ public view

    @property
    def players(self) -> int:
        """Seats dealt in."""
        return len(self.config.stacks)

    @property
    def button(self) -> int:
        """The button's seat."""
        return self.config.button

    @property
    def actor(self) -> int | None:
        """The seat whose decision is awaited, ``None`` once the hand is over."""
        return self._core.actor

    @property
    def decision(self) -> str | None:
        """``"bet"``, ``"point"`` (Double Hold'em point card, DH-5) or ``None``."""
        return self._core.decision

    @property
    def over(self) -> bool:
        """True once every pot is awarded."""
        return self._core.actor is None

    @property
    def street(self) -> str:
        """``preflop``, ``flop``, ``turn``, ``river`` or ``showdown`` (also after a hand
        won without a showdown)."""
        return STREETS[self._core.street]

    @property
    def board(self) -> list[int]:
        """The community cards dealt so far."""
        return list(self._core.board)

    @property
    def stacks(self) -> list[int]:
        """Chips each seat has behind (after the awards, once the hand is over)."""
        return self._core.stacks

    @property
    def bets(self) -> list[int]:
        """Each seat's wager in the current betting round."""
        return self._core.bets

    @property
    def committed(self) -> list[int]:
        """Each seat's chips in the middle this hand (big-blind ante excluded)."""
        return self._core.committed

    @property
    def pot(self) -> int:
        """Every chip in the middle, this round's bets included."""
        return self._core.pot

    @property
    def in_hand(self) -> list[bool]:
        """False for the seats that folded."""
        return self._core.in_hand

    @property
    def live(self) -> int:
        """Players who have not folded."""
        return self._core.live

    @property
    def points(self) -> list[int | None]:
        """Double Hold'em point card index of each seat (``None``: not chosen)."""
        return self._core.points

    @property
    def results(self) -> list[PotResult]:
        """How each pot was settled, side pots first (empty until the hand is over)."""
        if self._results is None:
            results = [_pot_result(r) for r in self._core.results()]
            if not results:
                return []
            self._results = results
        return list(self._results)

    @property
    def rake(self) -> int:
        """Chips the house took from this hand's pots (TH-31)."""
        return self._core.rake

    @property
    def events(self) -> tuple[Event, ...]:
        """The whole event log, in order."""
        return tuple(self._synced_events())

    def _synced_events(self) -> list[Event]:
        """The log as :class:`Event` tuples, built from the core's events as far as they
        go (the list itself: read, do not change)."""
        events = self._events
        if len(events) < self._core.event_count:
            events.extend([_new_tuple(Event, t) for t in self._core.events(len(events))])
        return events

    @property
    def event_count(self) -> int:
        """The number of events so far (without building them)."""
        return self._core.event_count

    @property
    def payoffs(self) -> list[int]:
        """Chips won (positive) or lost by each seat so far."""
        return [now - before for now, before in zip(self._core.stacks, self.config.stacks)]

    def hole(self, seat: int) -> list[int]:
        """The hole cards of ``seat`` in dealing order (server side: no secrecy here)."""
        self._check_seat(seat)
        return list(self._core.hole(seat))

    def actor_view(
        self,
    ) -> tuple[LegalActions, tuple[int, ...], tuple[int, ...], int, int] | None:
        """What the seat to act decides on, in one call: its options, its hole cards, the
        board, the pot and the number of players in the hand; ``None`` once the hand is
        over."""
        view = self._core.actor_view()
        if view is None:
            return None
        fields, hole, board, pot, live = view
        legal = self._legal
        if legal is None:
            legal = self._legal = _new_tuple(LegalActions, fields)
        return legal, hole, board, pot, live

    def legal_actions(self) -> LegalActions | None:
        """What the seat to act may do, ``None`` once the hand is over."""
        legal = self._legal
        if legal is None:  # computed once per decision
            fields = self._core.legal()
            if fields is None:
                return None
            legal = self._legal = _new_tuple(LegalActions, fields)
        return legal

    # ------------------------------------------------------------------ decisions

    def act(
        self, action: Action | str, amount: int | None = None, *, seat: int | None = None
    ) -> None:
        """Applies a betting decision of the seat to act (``seat``, if given, must be that
        seat). ``amount`` is the total to bet or raise *to*, or for a call, if given, the
        call amount. Raises :class:`IllegalAction` (carrying the legal options) and
        changes nothing if the action is not allowed now."""
        if seat is not None and not (type(seat) is int and 0 <= seat < len(self.config.stacks)):
            self._check_seat(seat)
        refusal = self._core.act(action, amount, seat)
        if refusal is None:  # self._answer(refusal, ...), faster
            self._legal = None
            return
        self._answer(refusal, seat, action, amount)

    def fold(self) -> None:
        """:meth:`act` with ``fold``."""
        self._answer(self._core.act(Action.FOLD, None, None), None, Action.FOLD, None)

    def check_or_call(self) -> None:
        """Checks if nothing is owed, else calls."""
        self._answer(self._core.check_or_call(), None, Action.CALL, None)

    def bet_or_raise_to(self, amount: int) -> None:
        """Bets or raises to ``amount``."""
        self._answer(self._core.bet_or_raise_to(amount), None, Action.RAISE, amount)

    def choose_point(self, seat: int, point: int | str) -> None:
        """Seat ``seat`` chooses its Double Hold'em point card (DH-2, DH-5): an index
        0..2 into its hole cards in dealing order, or the card itself as text ("Kc").
        Only at that seat's turn on the flop, before it acts."""
        self._check_seat(seat)
        if isinstance(point, str):
            try:
                card = parse_card(point)
            except ValueError:
                card = 255  # no card: refused below
            refusal = self._core.choose_point(seat, None, card)
        else:
            refusal = self._core.choose_point(seat, point)
        self._answer(refusal, seat, POINT, point)

    def timeout(self, seat: int) -> None:
        """Seat ``seat`` ran out of time: its point card is chosen by DH-6, a betting
        decision checks if free, else folds (TH-40)."""
        self._check_seat(seat)
        self._answer(self._core.timeout(seat), seat, "timeout", None)

    def _answer(
        self,
        refusal: tuple[str, str, str | None] | None,
        seat: int | None,
        action: object,
        amount: object,
    ) -> None:
        """After a decision: forget the options it answered, or raise its refusal."""
        if refusal is None:
            self._legal = None
            return
        legal = self.legal_actions()
        what, message, rule = refusal
        if what == "over":
            raise IllegalAction(message, seat=seat, action=action, amount=_amount(amount))
        assert legal is not None
        who = legal.seat if seat is None else seat
        if what == "turn":
            raise IllegalAction(
                message, seat=who, action=action, amount=_amount(amount), legal=legal
            )
        if what == "action":
            names = ", ".join(a.value for a in Action)
            message = f"{action!r} is not an action (one of {names})"
            raise IllegalAction(
                message, seat=who, action=action, amount=_amount(amount), legal=legal
            )
        if what == "point":
            cards = " ".join(CARD_NAMES[c] for c in self._core.hole(legal.seat))
            message = f"seat {who} cannot choose point {amount!r}: give 0, 1 or 2 or one of {cards}"
            raise IllegalAction(message, seat=who, action=POINT, legal=legal)
        assert rule is not None
        if what == "total":
            message = f"give the total to raise to, not {amount!r}"
        kind = Action(rule)
        raise IllegalAction(
            f"seat {who} cannot {kind.value}: {message}",
            seat=who,
            action=kind,
            amount=_amount(amount),
            legal=legal,
        )

    def _check_seat(self, seat: object) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalAction(
                f"{seat!r} is not a seat (seats 0..{self.players - 1})", action=None
            )

    # ------------------------------------------------------------------ log and views

    def event_log(
        self, seat: int | None = None, *, everything: bool = False
    ) -> list[dict[str, Any]]:
        """The event log as JSON-ready dicts: everything (``everything=True``, the
        server's record), or what ``seat`` may see (``None``: a spectator)."""
        if everything:
            return [event.to_dict() for event in self._synced_events()]
        return [self._visible(event, seat).to_dict() for event in self._synced_events()]

    def log_json(self) -> str:
        """The full event log as compact JSON: equal seeds and actions give equal bytes."""
        return json.dumps(self.event_log(everything=True), separators=(",", ":"))

    def _visible(self, event: Event, seat: int | None) -> Event:
        kind = event.kind
        if kind == "burn":
            return event._replace(cards=())
        if event.seat == seat:
            return event
        if kind == "deal":
            return event._replace(cards=())
        if kind == "point" and not self.config.reveal_point:
            return event._replace(cards=(), point=None)
        return event

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may see, JSON-ready (``None``: a spectator): public state, its own
        hole cards and point card, hands that were shown, its legal options when it is
        to act, and the event log without anything hidden from it. Never another
        player's unshown cards or hidden point card, never the deck."""
        if seat is not None:
            self._check_seat(seat)
        core = self._core
        legal = self.legal_actions()
        shown_seats = core.shown
        points = core.points
        shown = {
            str(s): [CARD_NAMES[c] for c in core.hole(s)]
            for s in range(self.players)
            if shown_seats[s]
        }
        visible_points = {
            str(s): points[s]
            for s in range(self.players)
            if points[s] is not None and (s == seat or shown_seats[s] or self.config.reveal_point)
        }
        return {
            "seat": seat,
            "config": self.config.to_dict(),
            "street": self.street,
            "button": self.button,
            "board": [CARD_NAMES[c] for c in core.board],
            "stacks": self.stacks,
            "bets": self.bets,
            "pot": self.pot,
            "in_hand": self.in_hand,
            "to_act": self.actor,
            "decision": self.decision,
            "hole": [CARD_NAMES[c] for c in core.hole(seat)] if seat is not None else [],
            "shown": shown,
            "points": visible_points,
            "legal": legal.to_dict() if legal is not None and legal.seat == seat else None,
            "over": self.over,
            "events": self.event_log(seat),
        }

    # ------------------------------------------------------------------ snapshots

    def snapshot(self) -> dict[str, Any]:
        """The whole state (deck included: keep it on the server), JSON-ready and
        versioned; :meth:`restore` continues the hand identically."""
        return {
            "version": SNAPSHOT_VERSION,
            "config": self.config.to_dict(),
            "state": json.loads(self._core.state_json()),
        }

    def to_json(self) -> str:
        """:meth:`snapshot` as compact JSON text."""
        return json.dumps(self.snapshot(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Hand:
        """The hand saved by :meth:`to_json`."""
        try:
            data = json.loads(text)
        except ValueError as error:
            raise InvalidSnapshot(f"a snapshot is JSON: {error}") from None
        return cls.restore(data)

    @classmethod
    def restore(cls, data: dict[str, Any]) -> Hand:
        """The hand saved by :meth:`snapshot`; :class:`InvalidSnapshot` if it is not one."""
        if not isinstance(data, dict) or data.get("version") != SNAPSHOT_VERSION:
            found = data.get("version") if isinstance(data, dict) else None
            raise InvalidSnapshot(
                f"not a version {SNAPSHOT_VERSION} hand snapshot (version {found!r})"
            )
        try:
            config = GameConfig.from_dict(data["config"])
            core = _new_core(config, list(range(52)), state=json.dumps(data["state"]))
        except (KeyError, TypeError, IndexError, ValueError) as error:
            raise InvalidSnapshot(f"broken hand snapshot: {error}") from None
        hand = cls.__new__(cls)
        hand._start(config, core)
        return hand


def _new_core(config: GameConfig, deck: list[int], state: str | None = None) -> _core.HandCore:
    """The Rust state machine for ``config``: dealing ``deck``, or restoring ``state``."""
    rake = config.rake
    try:
        return _core.HandCore(
            config.structure.value,
            config.variant is Variant.DOUBLE,
            list(config.stacks),
            (config.small_blind, config.big_blind),
            config.button,
            (config.small_bet or 0, config.big_bet or 0),
            config.minimum_bet,
            (config.ante, config.ante_type is AnteType.BIG_BLIND),
            (config.cap, config.heads_up_uncapped),
            None if rake is None else (rake.basis_points, rake.cap, rake.no_flop_no_drop),
            config.blind_seats,
            (list(config.live_posts), list(config.dead_posts)),
            deck,
            state,
        )
    except OverflowError:
        raise InvalidConfig("chip amounts must be below 2**63") from None
    except ValueError as error:  # what GameConfig lets through: amounts adding up too far
        raise InvalidConfig(str(error)) from None


def _pot_result(fields: tuple[Any, ...]) -> PotResult:
    pot, amount, rake, eligible, winners, shares = fields
    return PotResult(pot, amount, rake, tuple(eligible), tuple(winners), tuple(shares))


_new_tuple = tuple.__new__


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


def _amount(amount: object) -> int | None:
    return amount if isinstance(amount, int) and not isinstance(amount, bool) else None


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
        if action == "point":
            assert hand.actor is not None and amount is not None
            hand.choose_point(hand.actor, amount)
        else:
            hand.act(action, amount)
    return hand
