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

The table keeps the flow (seating, hands, decisions, time); what it shows, its state and
each seat's view, is its base :class:`~doubleholdem.table.views.TableViews`. It is a
facade over parts that own their state: its settings
(:mod:`~doubleholdem.table.config`), the seats and their chips
(:mod:`~doubleholdem.table.seats`), the plan of the button and blinds
(:mod:`~doubleholdem.table.blinds`), the clock (:mod:`~doubleholdem.table.clock`), the
seat lifecycle's clocks (:mod:`~doubleholdem.table.lifecycle`), the showdown
preferences (:mod:`~doubleholdem.table.preferences`), the hand in table seats
(:mod:`~doubleholdem.table.deal`), the log (:mod:`~doubleholdem.table.log`) of its own
entries (:mod:`~doubleholdem.table.entries`) and the hands' events, and the
snapshot (:mod:`~doubleholdem.table.snapshot`).

>>> table = Table(TableConfig(small_blind=5, big_blind=10), seed=1)
>>> table.join(0, "ann", 1000); table.join(3, "bob", 1000); table.join(5, "cy", 1000)
>>> table.start_hand(now=0.0)
>>> table.button, table.blinds, table.to_act
(0, (3, 5), 0)
>>> table.act(0, "fold", now=2.0)
Event(seq=5, kind='fold', seat=0)
>>> table.act(3, "fold", now=3.0)
Event(seq=6, kind='fold', seat=3)
>>> table.in_hand, table.stack(5)
(False, 1005)
>>> table.start_hand(now=10.0)
>>> table.button, table.blinds
(3, (5, 0))
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from doubleholdem.errors import HandInProgress, IllegalAction, InvalidConfig, NotEnoughPlayers
from doubleholdem.game.betting import Action, LegalActions
from doubleholdem.game.events import Event
from doubleholdem.table import snapshot
from doubleholdem.table.blinds import Positions, plan_blinds
from doubleholdem.table.clock import Clock
from doubleholdem.table.config import MAX_SEATS as MAX_SEATS
from doubleholdem.table.config import ButtonRule, TableConfig
from doubleholdem.table.deal import Deal, HandConfigs, deal_hand, out_of_turn
from doubleholdem.table.decisions import POINT, Chooser, Decision, Observation
from doubleholdem.table.entries import (
    ChipRace,
    HandEnd,
    HandStart,
    Join,
    Leave,
    Leaving,
    MissedBlind,
    SitIn,
    SitOut,
    TimeBank,
    TopUp,
)
from doubleholdem.table.lifecycle import Lifecycle
from doubleholdem.table.log import TableLog
from doubleholdem.table.preferences import Preferences, prefer
from doubleholdem.table.seats import Seating
from doubleholdem.table.views import TableViews
from doubleholdem.wording import Wording, seat_said

__all__ = ["ButtonRule", "Decision", "Observation", "Table", "TableConfig"]

TABLE_SNAPSHOT_VERSION = snapshot.VERSION  # of Table.to_json
_new_tuple = tuple.__new__


class Table(TableViews):
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
        self._deal: Deal | None = None
        self._log = TableLog()
        self._clock = Clock(
            action_time=config.action_time,
            time_bank=config.time_bank,
            point_time=config.point_time,
        )
        self._hand_number = 0
        self._rake = 0
        self._bind()

    def _bind(self) -> None:
        """The parts over the seats and the clock (again after a snapshot replaced them)."""
        self._lifecycle = Lifecycle(self._seating, self._clock)
        self._preferences = Preferences(self._seating)

    # ------------------------------------------------------------------ seating

    def join(
        self,
        seat: int,
        player: str,
        buy_in: int,
        *,
        wait_for_big_blind: bool = False,
        now: float | None = None,
        stranger: bool = False,
    ) -> None:
        """Seats ``player`` with ``buy_in`` chips (TH-36: in the table's range). A new
        player posts a big blind to be dealt in at the next hand, or with
        ``wait_for_big_blind`` waits until the big blind reaches it. Allowed during a
        hand: the player is dealt in from the next one. A player who left owing blinds
        owes them again (TH-37), unless ``stranger``: a server that tells people apart
        by more than a name says that another person takes the name."""
        self._clock.tick(now)
        post = not wait_for_big_blind
        occupant = self._seating.sit_down(seat, player, buy_in, post=post, stranger=stranger)
        self._log.add(Join(seat, player, buy_in, occupant.occupancy, self._clock.now))

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
            self._log.add(Leaving(seat, self._clock.now))
        else:
            self._remove(seat)

    def sit_out(self, seat: int, *, now: float | None = None) -> None:
        """``seat`` is not dealt in from the next hand on; blinds that pass it meanwhile
        are missed (TH-37). The time it sat out starts the clock of :meth:`overstayed`."""
        self._clock.tick(now)
        if self._lifecycle.sit_out(seat):
            self._log.add(SitOut(seat, self._clock.now))

    def set_away(self, seat: int, away: bool, *, now: float | None = None) -> None:
        """The player of ``seat`` has lost its connection (``away``) or is back. A seat
        whose player is away gets the action time for a decision but not the time bank
        (TH-40); one that times out while away sits out at once, and its decisions left
        in the hand time out as they come: a player who is gone costs the table one
        action time, once. Coming back restores the bank and clears the missed
        decisions."""
        self._clock.tick(now)
        deal = self._deal
        to_act = deal is not None and deal.to_act == seat
        self._lifecycle.set_away(seat, away, to_act=to_act)

    def sit_in(
        self, seat: int, *, wait_for_big_blind: bool = False, now: float | None = None
    ) -> None:
        """``seat`` comes back: it posts the blinds it missed at the next hand (the big
        blind part live, the small blind part dead) or, with ``wait_for_big_blind``,
        waits until the big blind reaches it (TH-37)."""
        self._clock.tick(now)
        if self._lifecycle.sit_in(seat, post=not wait_for_big_blind):
            self._log.add(SitIn(seat, wait_for_big_blind, self._clock.now))

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
        self._preferences.set(seat, muck_losing=muck_losing, show_uncontested=show_uncontested)
        occupant = self._seating.at(seat)
        deal = self._deal
        index = None if deal is None else deal.owned_index(seat, occupant.occupancy)
        if deal is not None and index is not None and deal.to_act is not None:
            prefer(deal.hand, index, occupant.muck_losing, occupant.show_uncontested)

    def top_up(self, seat: int, amount: int, *, now: float | None = None) -> None:
        """Adds ``amount`` chips to ``seat`` between its hands, up to the maximum buy-in."""
        self._clock.tick(now)
        occupant = self._seating.occupant(seat)
        self._require_between_hands(seat, "top up")
        self._seating.top_up(seat, amount)
        self._log.add(TopUp(seat, occupant.player, amount, occupant.occupancy, self._clock.now))

    def adjust_stack(self, seat: int, amount: int, *, now: float | None = None) -> None:
        """Adds ``amount`` chips to ``seat`` between its hands, or takes them away when
        negative (never its last chip): the chip race of a tournament's colour-up
        (RULES.md TRN-10), recorded as ``chip_race``."""
        self._clock.tick(now)
        self._seating.occupant(seat)
        self._require_between_hands(seat, "race chips")
        self._seating.adjust(seat, amount)
        self._log.add(ChipRace(seat, amount, self._clock.now))

    # ------------------------------------------------------------------ hands

    def able(self) -> list[int]:
        """The seats able to play the next hand: sitting in, with chips."""
        return self._seating.able(absent_dealt_in=self.config.absent_dealt_in)

    def can_start(self) -> bool:
        """True when a hand may start: none is being played and at least two players are
        able to play."""
        return not self.in_hand and len(self.able()) >= 2

    def start_hand(self, now: float | None = None) -> None:
        """Places the button and blinds (TH-35, TH-38), collects posts (TH-36, TH-37),
        deals, and starts the first decision's clock."""
        if now is not None:
            self._clock.tick(now)
        deal = self._deal
        if deal is not None and deal.to_act is not None:
            raise HandInProgress(f"hand {self._hand_number} is still being played")
        config, seating = self.config, self._seating
        absent_dealt_in = config.absent_dealt_in
        able = seating.able(absent_dealt_in=absent_dealt_in)
        if len(able) < 2:
            raise NotEnoughPlayers(
                f"a hand needs two players able to play, not {len(able)} (seats {able})"
            )
        debts = seating.debts()
        plan = plan_blinds(
            debts,
            able,
            self._positions,
            config.button_rule,
            config.small_blind,
            config.big_blind,
            new_player_posts=config.new_player_posts,
        )
        if self._configs.config is not config:  # the settings were replaced
            self._configs = HandConfigs(config)
        number = self._hand_number + 1
        deal = deal_hand(plan, seating, self._configs, self._preferences, self._rng, number)
        self._hand_number = number  # the table changes once the hand is dealt (above)
        self._positions = plan.positions(debts)
        log, now = self._log, self._clock.now
        for seat, blind in plan.missed:  # TH-37
            seating.miss(seat, blind)
            log.add(MissedBlind(seat, blind, now))
        if seating.departed:
            seating.passed_departed(plan.button, plan.small_position, plan.big)
        seating.settle_debts(plan.dealt)
        log.add(HandStart(number, plan.button, plan.small, plan.big, list(plan.dealt), now))
        self._deal = deal
        log.begin(deal.hand, number, deal.seats, deal.occupancies)
        self._lifecycle.new_hand()
        if absent_dealt_in:  # TRN-21: who is absent now has a dead hand (killed as dealt)
            deal.dead = frozenset(s for s in plan.dealt if seating.at(s).sitting_out)
        self._after_change(now)

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
    ) -> Event:
        """A betting decision of ``seat`` (see :meth:`Hand.act`); ``("point", index)``
        chooses a point card, as :meth:`choose_point`. With ``now``, time runs first: a
        decision that comes after the seat ran out of time is refused. Returns the
        :class:`~doubleholdem.game.Event` the hand recorded, its seat the table's."""
        deal = self._deal
        if now is None and deal is not None and seat == deal.to_act and type(seat) is int:
            index = deal.actor  # the seat to act, at the table's time: no need to check
        else:
            deal, index = self._turn(seat, now, action, amount)
        hand = deal.hand
        try:
            if action != POINT:
                event = hand.act(action, amount, index)
            else:  # the hand refuses a point card that is not one (None too)
                event = hand.choose_point(index, amount)  # type: ignore[arg-type]
        except IllegalAction as error:
            raise deal.in_table_seats(error) from None
        if seat != index:  # the hand numbers its seats from 0
            event = deal.event_in_seats(event)
        actor, awaited = hand.turn()  # deal.next_turn(), inlined: the hot path
        lifecycle = self._lifecycle
        if not lifecycle.quiet:
            lifecycle.decided(seat)
        if actor is None:  # the hand is over
            deal.to_act, deal.actor = None, -1
            self._finish(deal)
            return event
        to_act = deal.seats[actor]
        deal.to_act, deal.actor = to_act, actor
        clock = self._clock
        if lifecycle.quiet:  # clock.start(clock.now, awaited), inlined: the hot path
            clock.phase, time = clock.plain[awaited]  # type: ignore[index]
            clock.deadline = clock.now + time
        else:
            lifecycle.start(clock.now, awaited, to_act)  # type: ignore[arg-type]
        return event

    def choose_point(self, seat: int, point: int | str, *, now: float | None = None) -> Event:
        """``seat`` chooses its Double Hold'em point card (DH-5); returns its event."""
        return self.act(seat, POINT, point, now=now)  # type: ignore[arg-type]

    def decide(self, seat: int, decision: Decision, *, now: float | None = None) -> Event:
        """Applies a :class:`Decision` (what bots and remote players send): a betting
        action or a point card, as :meth:`act` and :meth:`choose_point` do."""
        action, amount = decision
        return self.act(seat, action, amount, now=now)

    def play_out(self, players: Sequence[Chooser] | Mapping[int, Chooser]) -> None:
        """Plays the hand in play to its end (nothing if there is none): the player of
        the seat to act (``players[seat]``, a bot of :mod:`~doubleholdem.table.bots`)
        chooses from what :meth:`observe` gives it and the table applies the decision as
        :meth:`act` does, until no seat is to act (``simulate`` plays its hands so)."""
        observe, act = self.observe, self.act
        while True:
            deal = self._deal
            seat = None if deal is None else deal.to_act  # the seat to act, if any
            if seat is None:
                return
            action, amount = players[seat].choose(observe(seat))
            act(seat, action, amount)

    def observe(self, seat: int) -> Observation:
        """What ``seat`` knows for the decision it must make now."""
        deal = self._deal
        if deal is None or deal.to_act != seat:
            raise IllegalAction(Wording(seat_said(seat), " has no decision to make now"), seat=seat)
        decision, legal, hole, board, pot, live = deal.hand.actor_view()  # type: ignore[misc]
        if deal.actor != seat:  # the hand numbers its seats from 0
            legal = deal.legal_actions()
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
                self._log.add(TimeBank(deal.to_act, bank[0], bank[1]))  # type: ignore[arg-type]
                continue
            seat = deal.to_act
            deal.timeout()
            if seat is not None and self._lifecycle.missed(seat):  # TH-40: away, or twice
                self.sit_out(seat)
            self._after_change(expired)
        return self._log.entries(start)

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
        """Each seat that will be due for removal (see :meth:`overstayed`), and when;
        none at a tournament's table (``absent_dealt_in``), whose seats the tournament
        ends: an absent entrant's chips stay in play (TRN-21)."""
        if self.config.absent_dealt_in:
            return []
        return self._lifecycle.removals(remove_after, busted_after)

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
            self._lifecycle.start(when, decision, deal.to_act)  # type: ignore[arg-type]

    def _finish(self, deal: Deal) -> None:
        hand = deal.hand
        self._clock.stop()
        seats = self._seating.seats
        stacks = hand.stacks
        for s, stack in zip(deal.seats, stacks):
            occupant = seats[s]
            assert occupant is not None
            occupant.stack = stack
            if stack == 0:
                self._lifecycle.busted(occupant)
        rake = hand.rake
        self._rake += rake
        ended = HandEnd(self._hand_number, dict(zip(deal.seats, stacks)), rake, self._clock.now)
        self._log.add(ended)
        self._log.end(hand)
        for s in deal.seats:
            if seats[s].leaving:  # type: ignore[union-attr]
                self._remove(s)

    # ------------------------------------------------------------------ snapshots, memory

    def to_json(self, key: bytes | None = None) -> str:
        """The whole table as versioned JSON text (the hand's deck included: keep it on
        the server). :meth:`from_json` restores it and play goes on identically; an edited
        or inconsistent snapshot is refused (a checksum, or an HMAC under a secret ``key``).

        >>> table = Table(TableConfig(small_blind=5, big_blind=10), seed=3)
        >>> table.join(0, "ann", 1000); table.join(1, "bob", 1000)
        >>> table.start_hand(now=0.0); table.act(0, "call", now=1.0)
        Event(seq=4, kind='call', seat=0, amount=5)
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
        table._bind()
        deal = state.deal
        if deal is not None and deal.to_act is not None and deal.kill_dead(table.blinds[1]):
            table._after_change(table._clock.now)  # TRN-21: saved before dead hands were
            # killed at once, they are killed now
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
        Event(seq=4, kind='fold', seat=0)
        >>> [entry["kind"] for entry in table.release_history()][-2:], table.log_length
        (['end', 'hand_end'], 0)
        """
        if self.in_hand:
            raise HandInProgress(f"hand {self._hand_number} is still being played")
        return self._log.release(read)

    # ------------------------------------------------------------------ helpers

    def _playing(self, seat: int) -> bool:
        deal = self._deal
        return deal is not None and deal.to_act is not None and deal.index_of(seat) is not None

    def _require_between_hands(self, seat: int, what: str) -> None:
        if self._playing(seat):
            raise HandInProgress(
                Wording(
                    seat_said(seat),
                    f" cannot {what} during hand {self._hand_number}: wait for its end",
                ),
                seat=seat,
            )

    def _remove(self, seat: int) -> int:
        now = self._clock.now
        occupant = self._seating.remove(seat, now=now)
        self._log.add(Leave(seat, occupant.player, occupant.stack, occupant.occupancy, now))
        return occupant.stack
