"""One hand in table seats: a :class:`Deal` holds the :class:`~doubleholdem.game.Hand`
(which numbers its players 0..n-1 clockwise) with the table seats dealt in, maps seats
both ways, knows who was dealt in (the occupancy of each seat, never a name), and says
the hand's refusals in table seat numbers, rebuilt from the refusal's fields.

>>> from doubleholdem.table.config import TableConfig
>>> config = TableConfig(small_blind=5, big_blind=10)
>>> hand = Hand(config.hand_config((1000, 1000), button=0), seed=1)
>>> deal = Deal(hand, 1, [2, 7], [0, 1], ["ann", "bob"])
>>> deal.next_turn(), deal.to_act, deal.index_of(7), deal.owned_index(7, 0)
('bet', 2, 1, None)
>>> try:
...     hand.act("raise", 5)
... except IllegalAction as error:
...     raise deal.in_table_seats(error) from None
Traceback (most recent call last):
...
doubleholdem.errors.IllegalAction: seat 2 cannot raise: bets and raises go to 20..1000
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any

from doubleholdem.cards import CARD_NAMES
from doubleholdem.errors import IllegalAction
from doubleholdem.game.betting import LegalActions
from doubleholdem.game.config import GameConfig
from doubleholdem.game.events import Event
from doubleholdem.game.hand import Hand
from doubleholdem.table.blinds import BlindPlan
from doubleholdem.table.config import TableConfig, is_int
from doubleholdem.table.preferences import Preferences
from doubleholdem.table.seats import Seat, Seating
from doubleholdem.wording import Wording, seat_said, told

_new_event = tuple.__new__

__all__ = ["Deal", "HandConfigs", "deal_hand", "entry_in_seats", "out_of_turn"]


class Deal:
    """``hand``, hand number ``number``, played by the table seats ``seats`` (hand index
    ``i`` sits in ``seats[i]``, clockwise from seat 0) whose occupants were
    ``occupancies[i]`` and ``players[i]`` (the name, for the record). ``to_act`` is the
    table seat whose decision is awaited and ``actor`` its hand index (``-1``: none);
    ``dead``: the seats dealt a dead hand, absent when it was dealt, killed at once
    (TRN-21, :meth:`kill_dead`)."""

    __slots__ = (
        "_index",
        "_legal",
        "actor",
        "dead",
        "hand",
        "number",
        "occupancies",
        "players",
        "seats",
        "to_act",
    )

    def __init__(
        self,
        hand: Hand,
        number: int,
        seats: list[int],
        occupancies: list[int],
        players: list[str],
    ) -> None:
        self.hand = hand
        self.number = number
        self.seats = seats
        self.occupancies = occupancies
        self.players = players
        self._index = {seat: index for index, seat in enumerate(seats)}
        self._legal: tuple[LegalActions, LegalActions] | None = None
        self.to_act: int | None = None
        self.actor = -1
        self.dead: frozenset[int] = frozenset()

    def index_of(self, seat: int | None) -> int | None:
        """The hand index of table seat ``seat``, if it was dealt in."""
        return self._index.get(seat)  # type: ignore[arg-type]

    def owned_index(self, seat: int | None, occupancy: int | None) -> int | None:
        """The hand index of ``seat`` if ``occupancy`` (who sits there now) is who was
        dealt in there: whose private cards the viewer in ``seat`` may see."""
        index = self._index.get(seat)  # type: ignore[arg-type]
        if index is None or occupancy is None or self.occupancies[index] != occupancy:
            return None
        return index

    def next_turn(self) -> str | None:
        """Notes who is to act after a change: the decision awaited (``"bet"`` or
        ``"point"``), or ``None`` once the hand is over."""
        actor, decision = self.hand.turn()
        if actor is None:
            self.to_act, self.actor = None, -1
            return None
        self.to_act, self.actor = self.seats[actor], actor
        return decision

    def timeout(self) -> None:
        """The seat to act ran out of time (TH-40, DH-6)."""
        self.hand.timeout(self.actor)

    def kill_dead(self, big_blind: int | None) -> bool:
        """Kills the hands of the seats in :attr:`dead` still in play (TRN-21, TH-24),
        the big blind's (table seat ``big_blind``) last, and stops when one hand is left:
        a hand saved before dead hands were dealt dead (:func:`deal_hand`). True if it
        killed any."""
        hand, index = self.hand, self._index
        killed = False
        for seat in sorted(self.dead, key=lambda s: s == big_blind):
            if hand.over:
                break
            if hand.in_hand[index[seat]]:
                hand.kill(index[seat])
                killed = True
        return killed

    def legal_actions(self) -> LegalActions | None:
        """The options of the seat to act, with its table seat number."""
        legal = self.hand.legal_actions()
        if legal is None:
            return None
        seat = self.seats[legal.seat]
        if seat == legal.seat:
            return legal
        cached = self._legal
        if cached is not None and cached[0] is legal:  # the hand's options of this decision
            return cached[1]
        mapped = legal._replace(seat=seat)
        self._legal = (legal, mapped)
        return mapped

    def event_in_seats(self, event: Event) -> Event:
        """The hand's ``event`` of a seat with its table seat number."""
        seat = event.seat
        if seat is None:
            return event
        # Event(*fields) with the seat replaced: _replace costs several times more
        return _new_event(Event, (event.seq, event.kind, self.seats[seat], *event[3:]))

    def view_in_seats(self, view: dict[str, Any]) -> dict[str, Any]:
        """The hand's view (:func:`~doubleholdem.game.events.hand_view`, by hand index)
        in table seats, in place: the per-player values as dicts keyed by the seat as
        text, the options' seat and the events' seats the table's."""
        seats = self.seats
        for key in ("stacks", "bets", "in_hand"):
            view[key] = {str(seats[i]): value for i, value in enumerate(view[key])}
        for key in ("shown", "points"):
            view[key] = {str(seats[int(i)]): value for i, value in view[key].items()}
        legal = view["legal"]
        if legal is not None:
            legal["seat"] = seats[legal["seat"]]
        for entry in view.get("events", ()):
            entry_in_seats(entry, seats)
        return view

    def in_table_seats(self, error: IllegalAction) -> IllegalAction:
        """The hand's refusal ``error`` with table seat numbers: its seat and options
        mapped, and its message said again from its ``reason`` for the table seat."""
        if error.seat is None:
            return error
        seat = self.seats[error.seat]
        legal = error.legal
        if isinstance(legal, LegalActions):
            legal = legal._replace(seat=self.seats[legal.seat])
        message = (
            told(error) if error.reason is None else Wording(seat_said(seat), " ", error.reason)
        )
        return IllegalAction(
            message,
            seat=seat,
            action=error.action,
            amount=error.amount,
            legal=legal,
            reason=error.reason,
        )

    def secret_cards(self, own: int | None) -> set[str]:
        """The hole cards not shown of every player but hand index ``own``."""
        hand = self.hand
        shown = hand.shown
        secret: set[str] = set()
        for index in range(len(self.seats)):
            if index != own and not shown[index]:
                secret.update(CARD_NAMES[c] for c in hand.hole(index))
        return secret

    def chips_moved(self, seating: Seating) -> int:
        """During the hand, the chips its players have behind and in the pot less the
        stacks they brought into it (0: chips are only moved about); 0 once it is over."""
        hand = self.hand
        if hand.over:
            return 0
        brought = sum(seating.at(s).stack for s in self.seats)
        return sum(hand.stacks) + hand.pot - brought

    def stack(self, seat: int) -> int | None:
        """The chips ``seat`` has behind in the hand being played, if it was dealt in."""
        index = self._index.get(seat)
        if index is None or self.hand.over:
            return None
        return self.hand.stacks[index]


def entry_in_seats(entry: dict[str, Any], seats: Sequence[int]) -> dict[str, Any]:
    """A hand event's JSON ``entry`` with its hand indices as the table seats ``seats``
    (hand index ``i`` sits in ``seats[i]``), in place: the one translation of the event
    log's seats, for the table's log and its views alike."""
    if "seat" in entry:
        entry["seat"] = seats[entry["seat"]]
    if "seats" in entry:
        entry["seats"] = [seats[s] for s in entry["seats"]]
    return entry


def out_of_turn(
    seat: int, to_act: int | None, action: object, amount: object, legal: LegalActions | None
) -> IllegalAction:
    """The refusal of a decision of ``seat`` when it is ``to_act``'s turn (or nobody's)."""
    who = "nobody" if to_act is None else seat_said(to_act, "turn")
    return IllegalAction(
        Wording(seat_said(seat), f" cannot {action}: it is ", who, "'s turn"),
        seat=seat,
        action=action,
        amount=amount if is_int(amount) else None,  # type: ignore[arg-type]
        legal=legal,
    )


def deal_hand(
    plan: BlindPlan,
    seating: Seating,
    configs: HandConfigs,
    preferences: Preferences,
    rng: Random | None,
    number: int,
) -> Deal:
    """Hand ``number`` as ``plan`` deals it to the players of ``seating`` (their stacks,
    posts and showdown preferences; the hand numbers them from 0 clockwise from seat 0).
    Changes nothing: a hand that cannot be dealt raises before the table changes."""
    dealt = list(plan.dealt)
    index = {s: i for i, s in enumerate(dealt)}
    small = index[plan.small] if plan.small is not None else None
    seats = seating.seats
    occupants: list[Seat] = [seats[s] for s in dealt]  # type: ignore[misc]
    big = index[plan.big]
    dead: tuple[int, ...] = ()
    if configs.config.absent_dealt_in:  # TRN-21: an absent player's hand is dead
        dead = tuple([i for i, occupant in enumerate(occupants) if occupant.sitting_out])
        if len(dead) == len(dealt):  # every one: the big blind's is not, it wins the posts
            dead = tuple([i for i in dead if i != big])
    config = configs.make(
        tuple([occupant.stack for occupant in occupants]),
        index[plan.hand_button],
        (small, big),
        tuple([plan.live.get(s, 0) for s in dealt]) if plan.live else (),
        tuple([plan.dead.get(s, 0) for s in dealt]) if plan.dead else (),
        *preferences.of_hand(occupants),
        dead,
    )
    hand = Hand(config, rng=rng)
    occupancies = [occupant.occupancy for occupant in occupants]
    return Deal(hand, number, dealt, occupancies, [occupant.player for occupant in occupants])


class HandConfigs:
    """Makes the :class:`GameConfig` of each hand at a table: its settings were checked
    once (a template), only the seats, stacks and posts change from hand to hand."""

    __slots__ = ("_template", "config")

    def __init__(self, config: TableConfig) -> None:
        self.config = config
        self._template = config.hand_config((config.big_blind, config.big_blind), button=0)

    def make(
        self,
        stacks: tuple[int, ...],
        button: int,
        blind_seats: tuple[int | None, int],
        live_posts: tuple[int, ...],
        dead_posts: tuple[int, ...],
        muck_losing: tuple[bool, ...] = (),
        show_uncontested: tuple[bool, ...] = (),
        dead_hands: tuple[int, ...] = (),
    ) -> GameConfig:
        """:meth:`TableConfig.hand_config`, without checking the settings again; with
        the seats' showdown preferences (empty: every seat's are the defaults) and the
        hands dealt dead (TRN-21)."""
        n = len(stacks)
        small, big = blind_seats
        if not (
            n >= 2
            and len(live_posts) in (0, n)
            and len(dead_posts) in (0, n)
            and 0 <= button < n
            and 0 <= big < n
            and (small is None or (0 <= small < n and small != big))
            and min(stacks) > 0
            and len(dead_hands) < n
        ):  # not expected: let the full validation say what is wrong
            return self.config.hand_config(
                stacks,
                button=button,
                blind_seats=blind_seats,
                live_posts=live_posts,
                dead_posts=dead_posts,
                muck_losing=muck_losing,
                show_uncontested=show_uncontested,
                dead_hands=dead_hands,
            )
        config: GameConfig = object.__new__(GameConfig)
        fields = config.__dict__
        fields.update(self._template.__dict__)
        fields["stacks"] = stacks
        fields["button"] = button
        fields["blind_seats"] = blind_seats
        fields["live_posts"] = live_posts
        fields["dead_posts"] = dead_posts
        fields["muck_losing"] = muck_losing
        fields["show_uncontested"] = show_uncontested
        if dead_hands:
            fields["dead_hands"] = dead_hands
        return config
