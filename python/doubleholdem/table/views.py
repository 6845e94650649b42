"""The read side of a table (:class:`~doubleholdem.table.Table`, which keeps the flow:
seating, hands, decisions, time): its state, its log, and what each seat may see of
them (its own cards only, and its own showdown preferences), JSON-ready."""

from __future__ import annotations

import json
from typing import Any, Protocol

from doubleholdem.game.events import hand_view
from doubleholdem.game.hand import Hand
from doubleholdem.table.blinds import Positions
from doubleholdem.table.clock import Clock
from doubleholdem.table.config import TableConfig
from doubleholdem.table.deal import Deal
from doubleholdem.table.entries import Entry
from doubleholdem.table.log import TableLog
from doubleholdem.table.preferences import Preferences
from doubleholdem.table.seats import Seat, Seating

__all__ = ["TableParts", "TableViews"]


class TableParts(Protocol):
    """What the read side of a table needs: the parts a
    :class:`~doubleholdem.table.Table` owns and keeps (see
    :mod:`doubleholdem.table.table`), which :class:`TableViews` only reads."""

    config: TableConfig
    _deal: Deal | None  # the hand being played or last played
    _seating: Seating
    _positions: Positions
    _clock: Clock
    _log: TableLog
    _preferences: Preferences
    _hand_number: int
    _rake: int


class TableViews(TableParts):
    """What a :class:`~doubleholdem.table.Table` shows, read off the parts
    :class:`TableParts` names (the table sets them; this class never does)."""

    def __repr__(self) -> str:
        """Short: the game, the blinds, the seats taken, the hand and its pot.

        >>> from doubleholdem.table import Table, TableConfig
        >>> table = Table(TableConfig(small_blind=5, big_blind=10, seats=6), seed=1)
        >>> table.join(0, "ann", 1000); table.join(3, "bob", 1000)
        >>> table
        <Table texas no-limit 5/10, 2 of 6 seats taken, no hand yet>
        >>> table.start_hand(); table
        <Table texas no-limit 5/10, 2 of 6 seats taken, hand 1: preflop, pot 15>
        >>> _ = table.act(table.to_act, "fold"); table
        <Table texas no-limit 5/10, 2 of 6 seats taken, hand 1 over>
        """
        config = self.config
        taken = sum(seat is not None for seat in self._seating.seats)
        hand = self.hand
        if hand is None:
            now = "no hand yet"
        elif self.in_hand:
            now = f"hand {self._hand_number}: {hand.street}, pot {hand.pot}"
        else:
            now = f"hand {self._hand_number} over"
        return (
            f"<{type(self).__name__} {config.variant.value} {config.structure.value} "
            f"{config.small_blind}/{config.big_blind}, {taken} of {config.seats} seats taken, "
            f"{now}>"
        )

    # ------------------------------------------------------------------ state

    @property
    def hand(self) -> Hand | None:
        """The hand being played or last played (server side: every card is in it)."""
        return None if self._deal is None else self._deal.hand

    @property
    def in_hand(self) -> bool:
        """True while a hand is being played."""
        deal = self._deal
        return deal is not None and deal.to_act is not None  # None once the hand is over

    @property
    def hand_number(self) -> int:
        """Hands started so far."""
        return self._hand_number

    @property
    def dealt(self) -> list[int]:
        """The seats dealt into the current or last hand, clockwise from seat 0."""
        return [] if self._deal is None else list(self._deal.seats)

    @property
    def dealt_players(self) -> list[str]:
        """The names of the players dealt into the current or last hand, as :attr:`dealt`."""
        return [] if self._deal is None else list(self._deal.players)

    @property
    def dealt_occupancies(self) -> list[int]:
        """The occupancies (:meth:`occupancy`) of the players dealt into the current or
        last hand, as :attr:`dealt`."""
        return [] if self._deal is None else list(self._deal.occupancies)

    @property
    def button(self) -> int | None:
        """The button's seat in the current or last hand (may be an empty seat, TH-38)."""
        return self._positions.button

    @property
    def blinds(self) -> tuple[int | None, int | None]:
        """The (small, big) blind seats of the current or last hand; the small blind
        seat may hold nobody who posts (a dead small blind, TH-38)."""
        return self._positions.small, self._positions.big

    @property
    def to_act(self) -> int | None:
        """The seat whose decision is awaited."""
        return None if self._deal is None else self._deal.to_act

    @property
    def decision(self) -> str | None:
        """``"bet"`` or ``"point"`` while a decision is awaited."""
        deal = self._deal
        return None if deal is None or deal.to_act is None else deal.hand.decision

    @property
    def deadline(self) -> float | None:
        """When the seat to act runs out of time (its action time, then its time bank)."""
        return self._clock.deadline

    @property
    def time_bank_running(self) -> bool:
        """True once the seat to act has started its time bank (TH-40)."""
        return self._clock.bank_running

    @property
    def now(self) -> float:
        """The latest time the table was given."""
        return self._clock.now

    @property
    def rake(self) -> int:
        """Chips the house took so far (TH-31)."""
        return self._rake

    @property
    def bought_in(self) -> int:
        """Chips brought to the table (buy-ins and top-ups) minus chips taken away by
        players who left."""
        return self._seating.brought - self._seating.taken

    def chips(self) -> int:
        """Every chip at the table: stacks, and during a hand the pot. Always
        ``chips() + rake == bought_in``."""
        deal = self._deal
        moved = 0 if deal is None else deal.chips_moved(self._seating)
        return self._seating.chips() + moved

    def seats(self) -> list[dict[str, Any] | None]:
        """The public state of every seat: player, stack (before the current hand),
        sitting out, and what it owes to come in (TH-36, TH-37)."""
        return [
            None if seat is None else seat.public(self._live_stack(number, seat))
            for number, seat in enumerate(self._seating.seats)
        ]

    def player(self, seat: int) -> str:
        """The name of the player in ``seat``."""
        return self._seating.occupant(seat).player

    def sitting_out(self, seat: int) -> bool:
        """True if the player in ``seat`` sits out (at a tournament table: is absent,
        dealt in with a dead hand, RULES.md TRN-21)."""
        return self._seating.occupant(seat).sitting_out

    def stack(self, seat: int) -> int:
        """The chips in front of ``seat`` now (during a hand: what it has behind)."""
        occupant = self._seating.occupant(seat)
        deal = self._deal
        if deal is None or deal.to_act is None:  # between hands
            return occupant.stack
        return self._live_stack(seat, occupant)

    def bought_in_by(self, seat: int) -> int:
        """The chips the player in ``seat`` brought: buy-in plus top-ups."""
        return self._seating.occupant(seat).bought_in

    def occupancy(self, seat: int) -> int | None:
        """The occupancy of whoever sits in ``seat`` now (a number never given twice at
        this table, so it names one sitting-down), or ``None`` for an empty seat."""
        self._seating.check_number(seat)
        return self._seating.occupancy(seat)

    @property
    def next_occupancy(self) -> int:
        """The occupancy the next player to sit down gets."""
        return self._seating.next_occupancy

    def table_entries(self, since: int) -> list[Entry]:
        """The table's own entries (:mod:`~doubleholdem.table.entries`: joins, top-ups,
        leaves with their occupancies, hand ends with their rake, ...; no hand events)
        from log position ``since`` on, as typed records: what a server pays or cashes
        out for. Cheaper than :meth:`event_log`: hand events are skipped, not written
        out.

        >>> from doubleholdem.table import Table, TableConfig
        >>> table = Table(TableConfig(small_blind=5, big_blind=10), seed=1)
        >>> table.join(0, "ann", 1000, now=1.0); table.leave(0, now=2.0)
        1000
        >>> table.table_entries(0)[-1]
        Leave(seat=0, player='ann', amount=1000, occupancy=0, at=2.0)
        """
        return self._log.table_entries(since)

    def seating_entries(self, since: int) -> list[dict[str, Any]]:
        """:meth:`table_entries` as the dicts of the event log."""
        return [entry.to_dict() for entry in self._log.table_entries(since)]

    def seat_of(self, player: str) -> int | None:
        """The seat of ``player``, or ``None``."""
        return self._seating.seat_of(player)

    # ------------------------------------------------------------------ log and views

    def event_log(
        self, seat: int | None = None, *, everything: bool = False, since: int = 0
    ) -> list[dict[str, Any]]:
        """The table's log (seating, hands, posts, decisions, time banks, timeouts,
        awards) from entry ``since`` on: everything (the server's record), or what
        ``seat`` may see. :attr:`log_length` is where the next entry will go, so a server
        can send each seat only what is new."""
        if everything:
            return [dict(entry) for entry in self._log.entries(since)]
        if seat is not None:
            self._seating.check_number(seat)
        viewer = self._seating.occupancy(seat)
        return self._log.visible_to(since, viewer, self.config.reveal_point)

    @property
    def log_length(self) -> int:
        """The number of entries in the log so far."""
        return len(self._log)

    def log_json(self) -> str:
        """The whole log as compact JSON: the same seed and calls give the same bytes."""
        return json.dumps(self._log.entries(0), separators=(",", ":"))

    def view(self, seat: int | None = None, *, events: bool = True) -> dict[str, Any]:
        """What ``seat`` may see now (``None``: a spectator), JSON-ready: the seats, the
        button and blinds, the deadline, and the hand from that seat's side (its own
        cards only, with its options when it is to act, and the hand's events without
        what is hidden from it, unless ``events`` is False)."""
        if seat is not None:
            self._seating.check_number(seat)
        deal = self._deal
        hand = None
        if deal is not None:
            index = self._own_index(deal, seat)
            hand = deal.view_in_seats(hand_view(deal.hand, index, events=events))
        return {
            "seat": seat,
            "hand_number": self._hand_number,
            "variant": self.config.variant.value,
            "big_blind": self.config.big_blind,
            "seats": self.seats(),
            "button": self.button,
            "blinds": list(self.blinds),
            "to_act": self.to_act,
            "deadline": self._clock.deadline,
            "time_bank_running": self.time_bank_running,
            "preferences": self._preferences.of_seat(seat),
            "hand": hand,
        }

    def secret_cards(self, seat: int | None) -> set[str]:
        """Server side: the cards ``seat`` must not see now (other players' unshown hole
        cards, and the undealt deck is never in a view). For checking what was sent."""
        deal = self._deal
        return set() if deal is None else deal.secret_cards(self._own_index(deal, seat))

    def _own_index(self, deal: Deal, seat: int | None) -> int | None:
        """The hand index of ``seat`` if whoever sits there now was dealt in there (the
        same occupancy: a namesake who sat down later was not)."""
        return deal.owned_index(seat, self._seating.occupancy(seat))

    # ------------------------------------------------------------------ helpers

    def _live_stack(self, seat: int, occupant: Seat) -> int:
        deal = self._deal
        if deal is None or deal.to_act is None:  # between hands
            return occupant.stack
        stack = deal.stack(seat)
        return occupant.stack if stack is None else stack
