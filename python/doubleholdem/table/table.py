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

The table is a facade over parts that own their state: its settings
(:mod:`~doubleholdem.table.config`), the seats and their chips
(:mod:`~doubleholdem.table.seats`), the plan of the button and blinds
(:mod:`~doubleholdem.table.blinds`), the clock (:mod:`~doubleholdem.table.clock`), the
hand in table seats (:mod:`~doubleholdem.table.deal`), the log
(:mod:`~doubleholdem.table.log`) and the snapshot (:mod:`~doubleholdem.table.snapshot`).

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

import json
import random
from typing import Any

from doubleholdem.errors import (
    HandInProgress,
    IllegalAction,
    InvalidConfig,
    NotEnoughPlayers,
    TableError,
)
from doubleholdem.game.betting import Action, LegalActions
from doubleholdem.game.events import hand_view
from doubleholdem.game.hand import Hand
from doubleholdem.table import snapshot
from doubleholdem.table.blinds import Positions, passed_blind, plan_blinds
from doubleholdem.table.clock import Clock
from doubleholdem.table.config import MAX_SEATS as MAX_SEATS
from doubleholdem.table.config import ButtonRule, TableConfig
from doubleholdem.table.deal import Deal, HandConfigs, deal_hand, out_of_turn
from doubleholdem.table.decisions import POINT, Decision, Observation
from doubleholdem.table.log import TableLog
from doubleholdem.table.seats import Seat, Seating

__all__ = [
    "ButtonRule",
    "Decision",
    "Observation",
    "Table",
    "TableConfig",
]

TABLE_SNAPSHOT_VERSION = snapshot.VERSION  # of Table.to_json
_new_tuple = tuple.__new__


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
        self._configs = HandConfigs(config)
        if rng is None and seed is not None:
            rng = random.Random(seed)
        self._rng = rng
        self._seating = Seating(config.seats, config.buy_in_range)
        self._positions = Positions()
        self._deal: Deal | None = None  # the hand being played or last played
        self._log = TableLog()
        self._clock = Clock(
            action_time=config.action_time,
            time_bank=config.time_bank,
            point_time=config.point_time,
        )
        self._hand_number = 0
        self._rake = 0

    # ------------------------------------------------------------------ state

    @property
    def hand(self) -> Hand | None:
        """The hand being played or last played (server side: every card is in it)."""
        return None if self._deal is None else self._deal.hand

    @property
    def in_hand(self) -> bool:
        """True while a hand is being played."""
        return self._deal is not None and not self._deal.hand.over

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
        return self._deal.hand.decision if self.in_hand and self._deal else None

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

    def stack(self, seat: int) -> int:
        """The chips in front of ``seat`` now (during a hand: what it has behind)."""
        return self._live_stack(seat, self._seating.occupant(seat))

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

    def seating_entries(self, since: int) -> list[dict[str, Any]]:
        """The table's own log entries (joins, top-ups, leaves, hand ends, ...; no hand
        events) from log position ``since`` on: what a server pays or cashes out for.
        Cheaper than :meth:`event_log`: hand events are skipped, not written out."""
        self._log.sync()
        return [item for item in self._log.items[since:] if isinstance(item, dict)]

    def seat_of(self, player: str) -> int | None:
        """The seat of ``player``, or ``None``."""
        return self._seating.seat_of(player)

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
        self._clock.tick(now)
        self._seating.sit_down(seat, player, buy_in, post=not wait_for_big_blind)
        self._record("join", seat, player=player, amount=buy_in)

    def leave(self, seat: int, *, now: float | None = None) -> int:
        """``seat`` leaves and takes its chips (returned). Refused with
        :class:`HandInProgress` while it is dealt into a hand being played (see
        :meth:`leave_after_hand`)."""
        self._clock.tick(now)
        self._seating.occupant(seat)
        self._require_between_hands(seat, "leave")
        return self._remove(seat)

    def leave_after_hand(self, seat: int, *, now: float | None = None) -> None:
        """``seat`` leaves as soon as it is not in a hand being played (at once if it
        is not)."""
        self._clock.tick(now)
        occupant = self._seating.occupant(seat)
        if self._playing(seat):
            occupant.leaving = True
            self._record("leaving", seat)
        else:
            self._remove(seat)

    def sit_out(self, seat: int, *, now: float | None = None) -> None:
        """``seat`` is not dealt in from the next hand on; blinds that pass it meanwhile
        are missed (TH-37). The time it sat out starts the clock of :meth:`overstayed`."""
        self._clock.tick(now)
        occupant = self._seating.occupant(seat)
        if not occupant.sitting_out:
            occupant.sitting_out = True
            occupant.sat_out_at = self._clock.now
            self._record("sit_out", seat)

    def set_away(self, seat: int, away: bool, *, now: float | None = None) -> None:
        """The player of ``seat`` has lost its connection (``away``) or is back. A seat
        whose player is away gets the action time for a decision but not the time bank
        (TH-40); one that times out while away sits out at once, and its decisions left
        in the hand time out as they come: a player who is gone costs the table one
        action time, once. Coming back restores the bank and clears the missed
        decisions."""
        self._clock.tick(now)
        occupant = self._seating.occupant(seat)
        if occupant.away == away:
            return
        occupant.away = away
        if not away:
            occupant.timeouts = 0
        if self.in_hand and self.to_act == seat:
            self._clock.away(away)

    def sit_in(
        self, seat: int, *, wait_for_big_blind: bool = False, now: float | None = None
    ) -> None:
        """``seat`` comes back: it posts the blinds it missed at the next hand (the big
        blind part live, the small blind part dead) or, with ``wait_for_big_blind``,
        waits until the big blind reaches it (TH-37)."""
        self._clock.tick(now)
        occupant = self._seating.occupant(seat)
        occupant.post = not wait_for_big_blind
        occupant.timeouts = 0
        if occupant.sitting_out:
            occupant.sitting_out = False
            occupant.sat_out_at = None
            self._record("sit_in", seat, wait=wait_for_big_blind)

    def set_preferences(
        self,
        seat: int,
        *,
        muck_losing: bool | None = None,
        show_uncontested: bool | None = None,
        now: float | None = None,
    ) -> None:
        """``seat``'s showdown preferences (TH-22; ``None``: unchanged): muck a hand that
        cannot win (default on) and show a hand nobody contested (default off). They
        hold at once, in the hand being played too, and in every hand after."""
        self._clock.tick(now)
        occupant = self._seating.occupant(seat)
        for name, value in (("muck_losing", muck_losing), ("show_uncontested", show_uncontested)):
            if value is not None and not isinstance(value, bool):
                raise TableError(f"seat {seat}: {name} is true or false, not {value!r}", seat=seat)
        if muck_losing is not None:
            occupant.muck_losing = muck_losing
        if show_uncontested is not None:
            occupant.show_uncontested = show_uncontested
        deal = self._deal
        index = None if deal is None else deal.owned_index(seat, occupant.occupancy)
        if deal is not None and index is not None and not deal.hand.over:
            deal.prefer(index, occupant.muck_losing, occupant.show_uncontested)

    def top_up(self, seat: int, amount: int, *, now: float | None = None) -> None:
        """Adds ``amount`` chips to ``seat`` between its hands, up to the maximum buy-in."""
        self._clock.tick(now)
        self._seating.occupant(seat)
        self._require_between_hands(seat, "top up")
        self._seating.top_up(seat, amount)
        self._record("top_up", seat, amount=amount)

    # ------------------------------------------------------------------ hands

    def able(self) -> list[int]:
        """The seats able to play the next hand: sitting in, with chips."""
        return self._seating.able()

    def can_start(self) -> bool:
        """True when a hand may start: none is being played and at least two players are
        able to play."""
        return not self.in_hand and len(self.able()) >= 2

    def start_hand(self, now: float | None = None) -> None:
        """Places the button and blinds (TH-35, TH-38), collects posts (TH-36, TH-37),
        deals, and starts the first decision's clock."""
        self._clock.tick(now)
        if self.in_hand:
            raise HandInProgress(f"hand {self._hand_number} is still being played")
        able = self.able()
        if len(able) < 2:
            raise NotEnoughPlayers(
                f"a hand needs two players able to play, not {len(able)} (seats {able})"
            )
        config, seating = self.config, self._seating
        debts = seating.debts()
        plan = plan_blinds(
            debts, able, self._positions, config.button_rule, config.small_blind, config.big_blind
        )
        if self._configs.config is not config:  # the settings were replaced
            self._configs = HandConfigs(config)
        number = self._hand_number + 1
        deal = deal_hand(plan, seating, self._configs, self._rng, number)  # may refuse
        self._hand_number = number  # the table changes once the hand is dealt
        self._positions = plan.positions(debts)
        for seat, blind in plan.missed:  # TH-37
            seating.miss(seat, blind)
            self._record("missed_blind", seat, blind=blind)
        for departure in seating.departed.values():  # blinds passing a departed player
            passed = passed_blind(
                plan.button, plan.small_position, plan.big, departure.seat, config.seats
            )
            if passed == "big":
                departure.missed_big = True
            elif passed == "small":
                departure.missed_small = True
        for seat in plan.dealt:
            seating.at(seat).settle_debts()
        self._record(
            "hand_start",
            number=self._hand_number,
            button=plan.button,
            small_blind=plan.small,
            big_blind=plan.big,
            seats=list(plan.dealt),
        )
        self._deal = deal
        self._log.begin(deal.hand, number, deal.seats, deal.occupancies)
        self._after_change(self._clock.now)

    # ------------------------------------------------------------------ decisions

    def legal_actions(self) -> LegalActions | None:
        """The options of the seat to act, with table seat numbers."""
        return None if self._deal is None else self._deal.legal_actions()

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
        deal = self._deal
        if now is None and deal is not None and seat == deal.to_act and type(seat) is int:
            index = deal.actor  # the seat to act, at the table's time: no need to check
        else:
            deal, index = self._turn(seat, now, action, amount)
        awaited = deal.decide(index, action, amount)
        decided = self._seating.seats[seat]
        if decided is not None and decided.timeouts:
            decided.timeouts = 0
        if awaited is None:  # the hand is over
            self._finish(deal)
        else:
            self._start_clock(self._clock.now, awaited, deal)

    def observe(self, seat: int) -> Observation:
        """What ``seat`` knows for the decision it must make now."""
        deal = self._deal
        view = None if deal is None else deal.hand.actor_view()
        if view is None or deal is None or deal.to_act != seat:
            raise IllegalAction(f"seat {seat} has no decision to make now", seat=seat)
        decision, legal, hole, board, pot, live = view
        if deal.actor != seat:  # the hand numbers its seats from 0
            legal = deal.legal_actions()  # type: ignore[assignment]
        config = self.config
        fields = (seat, decision, legal, hole, board, pot,
                  config.big_blind, live - 1, config.variant)  # fmt: skip
        return _new_tuple(Observation, fields)  # Observation(*fields), faster

    def _turn(
        self, seat: int, now: float | None, action: object, amount: object
    ) -> tuple[Deal, int]:
        """The deal and hand index of ``seat`` if it is to act (after time runs to
        ``now``); else :class:`IllegalAction`."""
        if now is not None:
            self._seating.check_number(seat)
            self.advance(now)
        deal = self._deal
        if deal is not None and seat == deal.to_act and type(seat) is int:
            return deal, deal.actor
        self._seating.check_number(seat)
        raise out_of_turn(seat, self.to_act, action, amount, self.legal_actions())

    # ------------------------------------------------------------------ time

    def advance(self, now: float) -> list[dict[str, Any]]:
        """Time is ``now``: starts the time bank of a seat whose action time ran out
        (TH-40), times out a seat whose time is all spent (check if free, else fold;
        a point card by DH-6, DH-7), and so on while deadlines lie in the past. Returns
        the log entries this added."""
        start = self.log_length
        clock = self._clock
        clock.tick(now)
        while self.in_hand:
            expired = clock.expired(now)
            if expired is None:
                break
            deal = self._deal
            assert deal is not None
            bank = clock.start_bank(deal.hand.decision)
            if bank is not None:
                self._record("time_bank", deal.to_act, at=bank[0], until=bank[1])
                continue
            seat = deal.to_act
            deal.timeout()
            if seat is not None:
                self._missed_decision(seat)
            self._after_change(expired)
        return self._log.entries(start)

    def _missed_decision(self, seat: int) -> None:
        """``seat`` timed out: it sits out if its player is away, or if it missed two
        decisions in a row (it is dealt out from the next hand on)."""
        occupant = self._seating.at(seat)
        occupant.timeouts += 1
        if occupant.away or occupant.timeouts >= 2:
            self.sit_out(seat)

    def overstayed(
        self, remove_after: float, busted_after: float, *, now: float | None = None
    ) -> list[int]:
        """The seats due to be removed at ``now`` (default: the table's time): sat out
        for ``remove_after`` seconds or more, or without chips for ``busted_after``
        seconds or more (not topped up), and not yet leaving. A server removes them with
        :meth:`leave_after_hand`, the one way a seat ends."""
        if now is None:
            now = self._clock.now
        return [seat for seat, due in self.removals(remove_after, busted_after) if due <= now]

    def next_removal(self, remove_after: float, busted_after: float) -> float | None:
        """When the next seat becomes due to be removed (see :meth:`overstayed`)."""
        return min((due for _, due in self.removals(remove_after, busted_after)), default=None)

    def removals(self, remove_after: float, busted_after: float) -> list[tuple[int, float]]:
        """Each seat that will be due for removal (see :meth:`overstayed`), and when."""
        due: list[tuple[int, float]] = []
        for seat, occupant in enumerate(self._seating.seats):
            if occupant is None or occupant.leaving:
                continue
            times = []
            if occupant.sitting_out and occupant.sat_out_at is not None:
                times.append(occupant.sat_out_at + remove_after)
            if occupant.stack == 0 and occupant.busted_at is not None:
                times.append(occupant.busted_at + busted_after)
            if times:
                due.append((seat, min(times)))
        return due

    def forget_departures(self, before: float) -> None:
        """Forgets the players who left before time ``before``: sitting down again they
        are new players (TH-36), no longer owing the blinds they missed (TH-37)."""
        self._seating.forget_departures(before)

    def _after_change(self, when: float) -> None:
        """Notes who is to act and starts their clock, or finishes the hand."""
        deal = self._deal
        assert deal is not None
        decision = deal.next_turn()
        if decision is None:  # the hand is over
            self._finish(deal)
        else:
            self._start_clock(when, decision, deal)

    def _start_clock(self, when: float, decision: str, deal: Deal) -> None:
        """Starts the clock of the seat to act: without the bank if its player is away,
        with no time if it timed out while away (see :meth:`set_away`)."""
        seat = deal.to_act
        assert seat is not None
        occupant = self._seating.seats[seat]
        if occupant is not None and occupant.away:
            self._clock.start(when, decision, away=True, spent=occupant.timeouts > 0)
        else:
            self._clock.start(when, decision)

    def _finish(self, deal: Deal) -> None:
        hand = deal.hand
        self._clock.stop()
        occupants = [self._seating.at(s) for s in deal.seats]
        for occupant, stack in zip(occupants, hand.stacks):
            occupant.stack = stack
            if stack == 0 and occupant.busted_at is None:
                occupant.busted_at = self._clock.now
        rake = hand.rake
        self._rake += rake
        stacks = deal.by_seat(hand.stacks)
        self._record("hand_end", number=self._hand_number, stacks=stacks, rake=rake)
        self._log.end(hand)
        for s, occupant in zip(deal.seats, occupants):
            if occupant.leaving:
                self._remove(s)

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
            hand = hand_view(deal.hand, index, deal.seats, events=events)
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
            "preferences": self._preferences(seat),
            "hand": hand,
        }

    def _preferences(self, seat: int | None) -> dict[str, bool] | None:
        """The showdown preferences of the player in ``seat`` (none for a spectator)."""
        occupant = None if seat is None else self._seating.seats[seat]
        return None if occupant is None else occupant.preferences()

    def secret_cards(self, seat: int | None) -> set[str]:
        """Server side: the cards ``seat`` must not see now (other players' unshown hole
        cards, and the undealt deck is never in a view). For checking what was sent."""
        deal = self._deal
        return set() if deal is None else deal.secret_cards(self._own_index(deal, seat))

    def _own_index(self, deal: Deal, seat: int | None) -> int | None:
        """The hand index of ``seat`` if whoever sits there now was dealt in there (the
        same occupancy: a namesake who sat down later was not)."""
        return deal.owned_index(seat, self._seating.occupancy(seat))

    # ------------------------------------------------------------------ snapshots, memory

    def to_json(self, key: bytes | None = None) -> str:
        """The whole table as versioned JSON text (the hand's deck included: keep it on
        the server). :meth:`from_json` restores it and play goes on identically; an edited
        or inconsistent snapshot is refused (a checksum, or an HMAC under a secret ``key``).

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
        return snapshot.dump(
            snapshot.TableState(
                self.config,
                self._rng,
                self._seating,
                self._positions,
                self._deal,
                self._log,
                self._clock,
                self._hand_number,
                self._rake,
            ),
            key,
        )

    @classmethod
    def from_json(cls, text: str | bytes, key: bytes | None = None) -> Table:
        """The table saved by :meth:`to_json` (with the same ``key``), else
        :class:`~doubleholdem.errors.InvalidSnapshot` (:func:`.snapshot.load`)."""
        state = snapshot.load(text, key)
        table = cls(state.config, rng=state.rng)
        table._seating = state.seating
        table._positions = state.positions
        table._deal = state.deal
        table._log = state.log
        table._clock = state.clock
        table._hand_number = state.hand_number
        table._rake = state.rake
        snapshot.check(table.chips() + table._rake == table.bought_in, "chips do not add up")
        return table

    def release_history(self, *, read: bool = True) -> list[dict[str, Any]]:
        """Between hands: returns the whole log (as ``event_log(everything=True)``; with
        ``read=False`` nothing, unread: ``simulate``) and forgets it, with the finished
        hands' records, so that memory stays bounded (a server stores what this returns).
        :attr:`log_length` starts from 0; the last hand stays in :attr:`hand`, :meth:`view`.

        >>> table = Table(TableConfig(small_blind=5, big_blind=10), seed=3)
        >>> table.join(0, "ann", 1000); table.join(1, "bob", 1000)
        >>> table.start_hand(now=0.0); table.act(0, "fold", now=1.0)
        >>> [entry["kind"] for entry in table.release_history()][-2:], table.log_length
        (['end', 'hand_end'], 0)
        """
        if self.in_hand:
            raise HandInProgress(f"hand {self._hand_number} is still being played")
        return self._log.release(read)

    # ------------------------------------------------------------------ helpers

    def _record(self, kind: str, seat: int | None = None, **fields: Any) -> None:
        self._log.record(kind, seat, self._clock.now, fields)

    def _live_stack(self, seat: int, occupant: Seat) -> int:
        deal = self._deal
        if deal is not None:
            stack = deal.stack(seat)
            if stack is not None:
                return stack
        return occupant.stack

    def _playing(self, seat: int) -> bool:
        deal = self._deal
        return deal is not None and not deal.hand.over and deal.index_of(seat) is not None

    def _require_between_hands(self, seat: int, what: str) -> None:
        if self._playing(seat):
            raise HandInProgress(
                f"seat {seat} cannot {what} during hand {self._hand_number}: wait for its end",
                seat=seat,
            )

    def _remove(self, seat: int) -> int:
        occupant = self._seating.remove(seat, now=self._clock.now)
        self._record("leave", seat, player=occupant.player, amount=occupant.stack)
        return occupant.stack
