"""What happens in a hand and what each player may see of it: the :class:`Event` of the
log, the one rule of what is hidden from whom (RULES.md TH-1, DH-8), and the JSON view
of a hand from one seat's side. A :class:`~doubleholdem.game.Hand` and a table both
use them, so a card is hidden by the same rule wherever it is shown.

>>> deal = Event(0, "deal", 1, cards=(51, 50))
>>> visible(deal.to_dict(), own=False, reveal_point=False)
{'seq': 0, 'kind': 'deal', 'seat': 1}
>>> visible(deal.to_dict(), own=True, reveal_point=False)["cards"]
['As', 'Ah']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple, Protocol

from doubleholdem import _core
from doubleholdem.cards import CARD_NAMES
from doubleholdem.game.betting import LegalActions, bet_presets
from doubleholdem.game.config import GameConfig
from doubleholdem.game.words import POINT

__all__ = ["Event", "HandLog", "PlayedHand", "hand_view", "hidden", "visible"]


class Event(NamedTuple):
    """One entry of the event log; fields that do not apply are ``None`` or empty.

    ``kind`` is one of: ``ante``, ``small_blind``, ``big_blind``, ``post`` and
    ``post_dead`` (a table's live and dead posts, TH-36, TH-37), ``deal`` (hole cards),
    ``burn``, ``flop``, ``turn``, ``river`` (board cards), ``fold``, ``check``, ``call``,
    ``bet``, ``raise`` (``amount`` is the chips this action *adds*; ``to``, for bets and
    raises, the player's total wager in the round after it: a big blind of 10 raising
    to 90 logs ``amount=80, to=90``), ``timeout``, ``point`` (a Double Hold'em point
    card: ``point`` is its index, ``cards`` the card), ``return`` (an uncalled bet,
    TH-20, or chips no live player can win, TH-19), ``show``, ``muck``, ``hand`` (a
    shown hand's ``value``, best five ``cards`` and, in Double Hold'em, which ``hand``
    played, 1 or 2, and its two hole cards, ``played``: the point card first, DH-3,
    DH-4; its JSON adds the ``name`` of the value, "Two Pair, Kings and Sevens"),
    ``pot`` (``pot`` index, 0 the main pot, ``amount``, eligible ``seats``), ``rake``,
    ``award`` (``seat`` wins ``amount`` from ``pot``) and ``end``. A ``show`` without a
    ``hand`` after it is a winner showing a hand nobody contested (TH-22).

    ``amount`` is always chips that moved in the event (posted, added, returned, pooled,
    raked or won), never a running total; ``all_in`` marks the event that put a
    player's last chip in. The words are :mod:`doubleholdem.game.words`';
    ``docs/events.md`` explains them with an example.
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
    played: tuple[int, ...] = ()

    def __repr__(self) -> str:
        """The fields that apply (those not at their defaults), in order."""
        shown = [f"seq={self.seq!r}", f"kind={self.kind!r}"]
        for name, default in _DEFAULTS:
            value = getattr(self, name)
            if value != default:
                shown.append(f"{name}={value!r}")
        return f"Event({', '.join(shown)})"

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
        if self.value is not None:  # a shown hand, named when it is read (not in play)
            data["name"] = _core.describe(self.value)
        if self.played:
            data["played"] = [CARD_NAMES[c] for c in self.played]
        return data


_DEFAULTS = tuple(Event._field_defaults.items())  # left out of a repr at these


class HandLog:
    """The event log of one hand, in order: :class:`Event` fields kept as plain tuples
    (``records``), cheap to append; :class:`Event` records and JSON-ready dicts on
    demand.

    >>> log = HandLog()
    >>> log.add("deal", 0, cards=(51, 50))
    Event(seq=0, kind='deal', seat=0, cards=(51, 50))
    >>> log.action("fold", 1, None, None, False)  # its record: a plain tuple
    (1, 'fold', 1, None, None, (), False, None, (), None, None, None, ())
    >>> log.events()[1]
    Event(seq=1, kind='fold', seat=1)
    >>> log.dicts(1, reveal_point=False)[0]
    {'seq': 0, 'kind': 'deal', 'seat': 0}
    """

    __slots__ = ("records",)

    def __init__(self, records: Iterable[tuple[Any, ...]] = ()) -> None:
        """A log that starts with ``records`` (a hand's posts, made once per config)."""
        self.records: list[tuple[Any, ...]] = list(records)

    def add(
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
        played: tuple[int, ...] = (),
    ) -> Event:
        """Appends an event of ``kind`` with the fields given; returns it."""
        records = self.records
        record = (
            len(records),
            kind,
            seat,
            amount,
            to,
            cards,
            all_in,
            pot,
            seats,
            point,
            value,
            hand,
            played,
        )
        records.append(record)
        return _new_event(Event, record)

    def action(
        self, kind: str, seat: int, amount: int | None, to: int | None, all_in: bool
    ) -> tuple[Any, ...]:
        """:meth:`add` of an event of a seat, chips, a total and the all-in flag (a
        betting action or a post), the common case; returns its record, the plain tuple
        the log keeps (the garbage collector stops tracking those; ``Event._make``
        reads it)."""
        records = self.records
        record = (len(records), kind, seat, amount, to, (), all_in, None, (), None, None, None, ())
        records.append(record)
        return record

    def cards(
        self, kind: str, seat: int, cards: tuple[int, ...], point: int | None
    ) -> tuple[Any, ...]:
        """:meth:`add` of an event of a seat's ``cards`` and point index (``point`` or
        ``show``): positional, as every Double Hold'em flop and every showdown logs
        them; returns its record."""
        records = self.records
        seq = len(records)
        record = (seq, kind, seat, None, None, cards, False, None, (), point, None, None, ())
        records.append(record)
        return record

    def hand(
        self,
        seat: int,
        cards: tuple[int, ...],
        value: int,
        hand: int | None,
        played: tuple[int, ...],
    ) -> None:
        """:meth:`add` of the ``hand`` event of a shown hand: positional, as every
        showdown logs them."""
        records = self.records
        records.append(
            (
                len(records),
                "hand",
                seat,
                None,
                None,
                cards,
                False,
                None,
                (),
                None,
                value,
                hand,
                played,
            )
        )

    def board(self, burnt: int, kind: str, cards: tuple[int, ...]) -> None:
        """:meth:`add` of the ``burn`` event of the card ``burnt`` and of the ``flop``,
        ``turn`` or ``river`` event (``kind``) of the board ``cards`` dealt after it: in
        one call, as every street deals them."""
        records = self.records
        seq = len(records)
        records.append(
            (seq, "burn", None, None, None, (burnt,), False, None, (), None, None, None, ())
        )
        records.append(
            (seq + 1, kind, None, None, None, cards, False, None, (), None, None, None, ())
        )

    def settled(self, results: Iterable[tuple[Any, ...]]) -> None:
        """The events that end a hand, in one call: for each pot's
        :class:`~doubleholdem.game.pots.PotResult` (side pots first), a ``pot`` event, a
        ``rake`` event if any was taken and an ``award`` event for each winner's share;
        then the ``end`` event."""
        records = self.records
        append = records.append
        seq = len(records)
        for pot, amount, rake, eligible, winners, shares in results:
            append((seq, "pot", None, amount, None, (), False, pot, eligible, None, None, None, ()))
            seq += 1
            if rake:
                append((seq, "rake", None, rake, None, (), False, pot, (), None, None, None, ()))
                seq += 1
            for seat, share in zip(winners, shares):
                append((seq, "award", seat, share, None, (), False, pot, (), None, None, None, ()))
                seq += 1
        append((seq, "end", None, None, None, (), False, None, (), None, None, None, ()))

    def deals(self, order: Sequence[int], holes: Sequence[tuple[int, ...]]) -> None:
        """A ``deal`` event of each seat's hole cards, the seats in dealing ``order``."""
        records = self.records
        append = records.append  # a loop, not a comprehension: one per hand dealt
        for seq, seat in enumerate(order, len(records)):
            append(
                (seq, "deal", seat, None, None, holes[seat], False, None, (), None, None, None, ())
            )

    @classmethod
    def dealt(
        cls,
        records: Sequence[tuple[Any, ...]],
        order: Sequence[int],
        holes: Sequence[tuple[int, ...]],
    ) -> HandLog:
        """A log of ``records`` (a hand's posts) then the :meth:`deals` of ``holes`` in
        dealing ``order``: every hand's log starts so (one call, no ``__init__``)."""
        log = _new_object(cls)
        log.records = [*records]
        log.deals(order, holes)
        return log

    def events(self) -> tuple[Event, ...]:
        """The whole log as :class:`Event` records."""
        return tuple([_new_event(Event, record) for record in self.records])

    def dicts(
        self, seat: int | None, *, reveal_point: bool, everything: bool = False
    ) -> list[dict[str, Any]]:
        """The log as JSON-ready dicts: everything (``everything=True``), or what the
        player ``seat`` may see (``None``: a spectator; :func:`visible`)."""
        if everything:
            return [event.to_dict() for event in self.events()]
        return [
            visible(event.to_dict(), event.seat == seat, reveal_point) for event in self.events()
        ]


_new_event = tuple.__new__
_new_object = object.__new__
_SECRET_FIELDS = ("cards", "point")


def hidden(kind: str, own: bool, reveal_point: bool) -> bool:
    """True if the cards (and point index) of an event of ``kind`` are hidden from a
    viewer: burnt cards from everyone (TH-1); hole cards dealt, and a chosen point card
    unless the game reveals it at once (DH-8), from everyone but the player they were
    dealt to (``own``: the viewer is that player, the very one, not a namesake)."""
    if kind == "burn":
        return True
    return not own and (kind == "deal" or (kind == POINT and not reveal_point))


def visible(entry: dict[str, Any], own: bool, reveal_point: bool) -> dict[str, Any]:
    """A copy of the log ``entry`` (an :meth:`Event.to_dict`, or a table's log entry)
    without what :func:`hidden` hides from its viewer."""
    if not hidden(entry["kind"], own, reveal_point):
        return dict(entry)
    return {k: v for k, v in entry.items() if k not in _SECRET_FIELDS}


class PlayedHand(Protocol):
    """What :func:`hand_view` reads of a hand (a :class:`~doubleholdem.game.Hand`)."""

    config: GameConfig

    @property
    def players(self) -> int: ...
    @property
    def street(self) -> str: ...
    @property
    def board(self) -> list[int]: ...
    @property
    def pot(self) -> int: ...
    @property
    def stacks(self) -> list[int]: ...
    @property
    def bets(self) -> list[int]: ...
    @property
    def in_hand(self) -> list[bool]: ...
    @property
    def decision(self) -> str | None: ...
    @property
    def shown(self) -> list[bool]: ...
    @property
    def points(self) -> list[int | None]: ...
    @property
    def over(self) -> bool: ...
    @property
    def events(self) -> tuple[Event, ...]: ...
    def hole(self, seat: int) -> list[int]: ...
    def legal_actions(self) -> LegalActions | None: ...


def hand_view(hand: PlayedHand, index: int | None, *, events: bool = True) -> dict[str, Any]:
    """What the player dealt in at hand index ``index`` (``None``: a spectator, or
    someone not dealt in) may see of ``hand``, JSON-ready: the public state, its own
    hole cards and point card, the hands shown, its options when it is to act, and the
    events without what is hidden from it (unless ``events`` is False). Never another
    player's unshown cards or hidden point card, never the deck.

    Players are hand indices: the per-player values are lists by index, the shown hands
    and point cards dicts keyed by the index as text (a table numbers them by its seats:
    :meth:`doubleholdem.table.deal.Deal.view_in_seats`)."""
    shown_flags = hand.shown
    shown = [i for i, face_up in enumerate(shown_flags) if face_up]
    reveal = hand.config.reveal_point
    legal = hand.legal_actions()
    view = {
        "street": hand.street,
        "board": [CARD_NAMES[c] for c in hand.board],
        "pot": hand.pot,
        "stacks": hand.stacks,
        "bets": hand.bets,
        "in_hand": hand.in_hand,
        "decision": hand.decision,
        "hole": [] if index is None else [CARD_NAMES[c] for c in hand.hole(index)],
        "shown": {str(i): [CARD_NAMES[c] for c in hand.hole(i)] for i in shown},
        "points": {
            str(i): point
            for i, point in enumerate(hand.points)
            if point is not None and (i == index or shown_flags[i] or reveal)
        },
        "legal": None
        if legal is None or legal.seat != index
        else {
            **legal.to_dict(),
            "presets": bet_presets(legal, hand.pot, hand.config.structure),
        },
        "over": hand.over,
    }
    if events:
        view["events"] = [
            visible(event.to_dict(), event.seat == index, reveal) for event in hand.events
        ]
    return view
