"""A tournament: a state machine over :class:`~doubleholdem.table.Table` objects by the
rules of RULES.md TRN (the Poker TDA rules).

Players register; the tournament starts (a sit-and-go when full, a scheduled one when
told), draws the seats (TRN-3) and opens the tables. The caller then drives the tables:
:meth:`Tournament.ready_tables` says which may start a hand now (not during a break,
TRN-8; not a halted table, TRN-15; in hand-for-hand each once a round, TRN-16);
:meth:`Tournament.start_hand` sets the level's blinds (TRN-7), races chips at a colour-up
(TRN-10) and deals; the players act on the :class:`Table` itself; when its hand is over
:meth:`Tournament.finish_hand` places the eliminated (TRN-17), breaks and balances tables
(TRN-13, TRN-14) and returns a :class:`HandReport`. Time is the caller's ``now`` (seconds),
as at a table; levels by hands need none.

>>> from doubleholdem.tournament.config import TournamentConfig
>>> config = TournamentConfig(kind="sit-and-go", capacity=3, starting_stack=1000)
>>> tournament = Tournament(config, seed=1)
>>> for name in ("ann", "bob", "cy"):
...     _ = tournament.register(name)
>>> tournament.state, tournament.ready_tables()
('running', [1])
>>> table = tournament.start_hand(1)
>>> while table.in_hand:
...     free = table.legal_actions().can_check
...     event = table.act(table.to_act, "check" if free else "fold")
>>> report = tournament.finish_hand(1)
>>> report.eliminated, tournament.chips_in_play() == 3000
((), True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Iterable, Mapping

from doubleholdem.errors import (
    RegistrationRefused,
    TournamentError,
    TournamentStateError,
)
from doubleholdem.table.table import Table
from doubleholdem.tournament import purchases, seating, snapshot
from doubleholdem.tournament.config import Kind, TournamentConfig
from doubleholdem.tournament.payouts import prizes
from doubleholdem.tournament.places import Placing, award, place, rank_at_table, won_by_one
from doubleholdem.tournament.race import race
from doubleholdem.tournament.records import Entry, HandReport, Move, Placement, Result
from doubleholdem.tournament.structure import Clocking

__all__ = ["Entry", "HandReport", "Move", "Placement", "Result", "Tournament"]

REGISTERING, RUNNING, FINISHED = "registering", "running", "finished"


class Tournament:
    """A tournament under ``config`` (see the module docstring); ``seed`` or ``rng``
    make its draws and its tables' deals reproducible. Refusals raise a
    :class:`~doubleholdem.errors.TournamentError` subclass and change nothing."""

    def __init__(
        self,
        config: TournamentConfig,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
    ) -> None:
        if not isinstance(config, TournamentConfig):
            raise TournamentError(f"a Tournament needs a TournamentConfig, not {config!r}")
        self.config = config
        self.rng = rng if rng is not None else random.Random(seed)
        self.state = REGISTERING
        self.entries: list[Entry] = []
        self.tables: dict[int, Table] = {}
        self.seats: dict[int, dict[int, int]] = {}  # table: {seat: entry}
        self.table_levels: dict[int, int] = {}  # the level of each table's last hand
        self.start_chips: dict[int, dict[int, int]] = {}  # table: {entry: chips}
        self.started_at = 0.0
        self.hands = 0
        self.most_hands = 0  # at the table that dealt the most (TRN-7)
        self.tables_opened = 0  # the highest number a table was opened under: never reused
        self.issued = 0  # chips given out: stacks, rebuys, add-ons, races
        self.pool = 0
        self.fees = 0
        self.remaining = 0  # entries not yet placed
        self.placings: list[Placing] = []
        self.entrants_then: list[int] = []  # the entries when each placing was made
        self.pending: list[list[tuple[int, int]]] = []  # busted, may rebuy (TRN-6)
        self.hand_for_hand = False
        self.round_played: set[int] = set()  # tables done this hand-for-hand round
        self.round_out: list[tuple[int, int]] = []  # eliminated this round, ranked
        # by rank_at_table (TRN-17)
        self.level = 0
        self._by_player: dict[str, list[Entry]] = {}  # entries_of's index
        self._indexed = 0  # of the first entries
        self._sizes: seating.Sizes | None = None
        # the tables changed by the tournament's own steps since the caller last emptied
        # it (what a server stores again; not part of the snapshot): see ``touched``
        self.touched: set[int] = set()

    # ------------------------------------------------------------------ entries

    def register(self, player: str, *, now: float = 0.0) -> int:
        """Enters ``player`` (TRN-1): before the start, or during late registration
        (TRN-4), when it is seated at once. A sit-and-go starts when this fills it
        (TRN-2). Returns the entry's number."""
        self._check_name(player)
        if self.entries_of(player):
            raise RegistrationRefused(f"{player} is already registered", player=player)
        return self._enter(player, now)

    def re_enter(self, player: str, *, now: float = 0.0) -> int:
        """A new entry for ``player``, all of whose entries are out (TRN-5)."""
        own = self.entries_of(player)
        if not own:
            raise RegistrationRefused(f"{player} never entered", player=player)
        if any(e.place is None for e in own):
            raise RegistrationRefused(f"{player} is still in", player=player)
        if len(own) > self.config.re_entries:
            raise RegistrationRefused(
                f"{player} has used its {self.config.re_entries} re-entries", player=player
            )
        return self._enter(player, now)

    def unregister(self, player: str) -> None:
        """Takes ``player``'s entry back before the start (TRN-2)."""
        if self.state != REGISTERING:
            raise RegistrationRefused("the tournament has started", player=player)
        for index, entry in enumerate(self.entries):
            if entry.player == player:
                del self.entries[index]
                for number, kept in enumerate(self.entries):
                    kept.number = number
                self._by_player, self._indexed = {}, 0
                self.pool -= self.config.buy_in
                self.fees -= self.config.fee
                self.remaining -= 1
                return
        raise RegistrationRefused(f"{player} is not registered", player=player)

    def _enter(self, player: str, now: float) -> int:
        config = self.config
        if self.state == FINISHED:
            raise RegistrationRefused("the tournament is over", player=player)
        if self.state == RUNNING and not self.late_registration_open(now):
            raise RegistrationRefused("registration is closed", player=player)
        if self.remaining >= config.capacity:
            raise RegistrationRefused(f"the tournament is full ({config.capacity})", player=player)
        entry = Entry(len(self.entries), player)
        self.entries.append(entry)
        self.pool += config.buy_in
        self.fees += config.fee
        self.remaining += 1
        if self.state == RUNNING:
            self.issued += config.starting_stack
            self._seat_arrivals([entry.number], {entry.number: config.starting_stack})
        elif config.kind is Kind.SIT_AND_GO and len(self.entries) == config.capacity:
            self.start(now=now)
        return entry.number

    def late_registration_open(self, now: float = 0.0) -> bool:
        """True while entries are still accepted after the start (TRN-4)."""
        return self.state == RUNNING and self.current_level(now) < self.config.late_registration

    def rebuy(self, player: str, *, now: float = 0.0) -> None:
        """``player`` buys a rebuy (TRN-6): between its hands with at most the threshold,
        or just busted (then seated again by draw)."""
        purchases.rebuy(self, player, now)

    def add_on(self, player: str, *, now: float = 0.0) -> None:
        """``player`` buys its one add-on (TRN-6), between its hands, during the level
        after the rebuy period."""
        purchases.add_on(self, player, now)

    def set_absent(self, player: str, absent: bool, *, now: float | None = None) -> None:
        """``player`` is gone from its seat (``absent``: left, disconnected) or back
        (TRN-21): absent, it is dealt in from the next hand with a dead hand and posts
        its blinds and antes, also after a move; back, it plays from the next hand.
        At its table: :meth:`Table.sit_out <doubleholdem.table.Table.sit_out>`, ``sit_in``."""
        own = self.entries_of(player) if isinstance(player, str) else []
        number, seat = (own[-1].table, own[-1].seat) if own else (None, None)
        if number is None or seat is None or not isinstance(absent, bool):
            raise TournamentError(f"{player!r} has no seat, or absent {absent!r} is not a bool")
        table = self.tables[number]
        (table.sit_out if absent else table.sit_in)(seat, now=now)
        self.touched.add(number)

    # ------------------------------------------------------------------ start

    def start(self, *, now: float = 0.0) -> None:
        """Starts the tournament at ``now``: draws the seats (TRN-3) and opens tables."""
        if self.state != REGISTERING:
            raise TournamentStateError(f"the tournament is {self.state}")
        if len(self.entries) < self.config.minimum:
            raise TournamentStateError(
                f"{len(self.entries)} entrants, fewer than the minimum {self.config.minimum}"
            )
        self._elapsed(now)  # a time, else refused before anything changes
        self.state, self.started_at = RUNNING, now
        names = {e.player: e.number for e in self.entries}
        for number, seats in enumerate(seating.draw(list(names), self.config.seats, self.rng)):
            self._open_table(number + 1)
            for seat, player in sorted(seats.items()):
                self._join(number + 1, seat, names[player], self.config.starting_stack)
        self.issued = self.config.starting_stack * len(self.entries)

    # ------------------------------------------------------------------ levels

    def current_level(self, now: float = 0.0) -> int:
        """The level (from 0) of the next hand: by time from ``now``, or by hands."""
        blinds = self.config.blinds
        if blinds.by is Clocking.HANDS:
            return blinds.level_after_hands(self.most_hands)
        return blinds.at_time(self._elapsed(now)).level

    def on_break(self, now: float) -> bool:
        """True during a break (TRN-8)."""
        blinds = self.config.blinds
        return blinds.by is Clocking.TIME and blinds.at_time(self._elapsed(now)).on_break

    # ------------------------------------------------------------------ hands

    def ready_tables(self, now: float = 0.0) -> list[int]:
        """The tables that may start a hand at ``now``: not playing one, not halted
        (TRN-15), not on a break (TRN-8), and in hand-for-hand not done with this round
        (TRN-16)."""
        if self.state != RUNNING or self.on_break(now):
            return []
        fullest = self.sizes().fullest()
        return [number for number in self.tables if self._may_start(number, fullest)]

    def _may_start(self, number: int, fullest: int) -> bool:
        return (
            not self.tables[number].in_hand
            and not (self.hand_for_hand and number in self.round_played)
            and not seating.halted(len(self.seats[number]), fullest)
        )

    def start_hand(self, number: int, *, now: float | None = None) -> Table:
        """Starts the next hand at table ``number`` (one of :meth:`ready_tables`): its
        level's blinds and ante (TRN-7, TRN-9), a chip race at a colour-up (TRN-10).
        Returns the table, whose players then act on it."""
        when = 0.0 if now is None else now
        if (
            self.state != RUNNING
            or number not in self.tables
            or self.on_break(when)
            or not self._may_start(number, self.sizes().fullest())
        ):
            raise TournamentStateError(f"table {number} may not start a hand now")
        self._settle_pending()
        table = self.tables[number]
        level = self.current_level(when)
        if level != self.table_levels[number]:
            self._change_level(number, level, now)
        seats = self.seats[number]
        self.start_chips[number] = {entry: table.stack(seat) for seat, entry in seats.items()}
        table.start_hand(now)
        self.touched.add(number)
        self.hands += 1
        self.level = max(self.level, level)
        return table

    def finish_hand(self, number: int, *, now: float | None = None) -> HandReport:
        """After the hand at table ``number`` is over: places the entries it eliminated
        (TRN-17) or lets them rebuy (TRN-6), runs hand-for-hand (TRN-16), breaks a table
        (TRN-14), balances (TRN-13; in hand-for-hand once the round is over), and ends the
        tournament when one entry is left."""
        table = self.tables.get(number)
        if table is None or number not in self.start_chips:
            raise TournamentStateError(f"table {number} has no hand to finish")
        if table.in_hand:
            raise TournamentStateError(f"table {number} is still playing its hand")
        eliminated: list[Placement] = self._settle_pending()
        start = self.start_chips.pop(number)
        self.most_hands = max(self.most_hands, table.hand_number)
        busted = sorted((e, start[e]) for seat, e in self.seats[number].items()
                        if table.stack(seat) == 0)  # fmt: skip
        for entry, _ in busted:
            self._unseat(entry, now)
        rebuying = self._may_rebuy(busted, 0.0 if now is None else now)
        if rebuying:
            self.pending.append(busted)
        elif self.hand_for_hand:  # TRN-17: ranked at their table, tied across tables
            self.round_out.extend(rank_at_table(busted))
            self.round_played.add(number)
        elif busted:
            eliminated += place(self, busted)
        moves: list[Move] = []
        if not self.hand_for_hand:
            broken = self._rearrange(moves, [number])
        else:  # once the round is over, every table between hands, in number order
            eliminated += self._close_round()
            broken = [] if self.round_played else self._rearrange(moves, sorted(self.tables))
        eliminated += self._update_hand_for_hand()
        if won := won_by_one(self):
            self.state = FINISHED
            eliminated += won
        return HandReport(
            number,
            tuple(eliminated),
            tuple(self.entries[e].player for e, _ in busted) if rebuying else (),
            tuple(moves),
            tuple(broken),
            self.hand_for_hand,
            self.state == FINISHED,
        )

    # ------------------------------------------------------------------ views

    def sizes(self) -> seating.Sizes:
        """How many tables have each number of players (kept as they change)."""
        if self._sizes is None:  # new, or restored from a snapshot
            self._sizes = seating.Sizes(len(seats) for seats in self.seats.values())
        return self._sizes

    def _elapsed(self, now: float) -> float:
        """Seconds from the start to ``now``, which must be a finite number."""
        if isinstance(now, bool) or not isinstance(now, (int, float)) or not math.isfinite(now):
            raise TournamentError(f"now must be a number of seconds, not {now!r}")
        return now - self.started_at

    def _resized(self, before: int | None, after: int | None) -> None:
        if self._sizes is not None:  # else built afresh when next asked for
            self._sizes.resized(before, after)

    def counts(self) -> dict[int, int]:
        """The number of players at each table."""
        return {number: len(seats) for number, seats in self.seats.items()}

    def chips_in_play(self) -> int:
        """The chips at every table (hands being played included)."""
        return sum(table.chips() for table in self.tables.values())

    def paid_places(self) -> int:
        """The places the current entries pay (TRN-18)."""
        return len(self.config.payouts.shares(max(2, len(self.entries))))

    def prizes(self) -> tuple[int, ...]:
        """The prize of each paid place now (TRN-19)."""
        return prizes(self.pool, self.config.payouts.shares(max(2, len(self.entries))))

    def result(self) -> Result:
        """TRN-20: the result record, once finished."""
        if self.state != FINISHED:
            raise TournamentStateError("the tournament is not over")
        won = award(self.placings, self.prizes())
        places = sorted(
            (Placement(e, self.entries[e].player, place, shared)
             for e, place, shared in self.placings),
            key=lambda p: (p.place, p.entry),
        )  # fmt: skip
        return Result(len(self.entries), self.pool, self.hands, self.level + 1,
                      tuple(places), won)  # fmt: skip

    # ------------------------------------------------------------------ snapshots

    def to_json(self, key: bytes | None = None, *, tables: bool = True) -> str:
        """The whole tournament as versioned JSON text (every table's snapshot with
        it, under an HMAC with a secret ``key``); :meth:`from_json` restores it and play
        goes on identically. Without ``tables`` it names its tables' numbers only: each
        table is stored apart (:meth:`Table.to_json <doubleholdem.table.Table.to_json>`),
        and given back to :meth:`from_json`."""
        return snapshot.dump(self, key, tables=tables)

    @classmethod
    def from_json(
        cls,
        text: str | bytes,
        key: bytes | None = None,
        *,
        tables: Mapping[int, Table] | None = None,
    ) -> Tournament:
        """The tournament saved by :meth:`to_json` with the same ``key`` (saved without
        its tables: with ``tables``, number -> table), else
        :class:`~doubleholdem.errors.InvalidSnapshot`."""
        return snapshot.load(cls, text, key, tables)

    # ------------------------------------------------------------------ the rules' steps

    def _change_level(self, number: int, level: int, now: float | None) -> None:
        """TRN-7, TRN-10: the table's blinds for ``level``, and a chip race if the
        smallest chip grew."""
        table, levels = self.tables[number], self.config.blinds.levels
        old = levels[self.table_levels[number]].chip_unit
        new = levels[level].chip_unit
        table.config = self.config.table_config(level)
        self.table_levels[number] = level
        if new > old:
            seats = sorted(self.seats[number])
            changes = race([table.stack(s) for s in seats], old, new, self.rng)
            for seat, change in zip(seats, changes):
                if change:
                    table.adjust_stack(seat, change, now=now)
                    self.issued += change

    def _may_rebuy(self, busted: list[tuple[int, int]], now: float) -> bool:
        """TRN-6: busted entries wait for a rebuy during the rebuy period, unless that
        would leave fewer than two players with chips or play is hand-for-hand."""
        rules = self.config.rebuys
        if not busted or rules is None or self.hand_for_hand:
            return False
        if self.current_level(now) >= rules.until_level:
            return False
        return self.sizes().players() >= 2

    def _settle_pending(self) -> list[Placement]:
        """TRN-6: busted entries that did not rebuy before this step are out."""
        placed: list[Placement] = []
        while self.pending:
            group = self.pending.pop(0)
            if group:
                placed += place(self, group)
        return placed

    def _close_round(self) -> list[Placement]:
        """TRN-16: once every table that can has played this hand-for-hand hand, its
        eliminations are placed together (TRN-17) and the next round begins."""
        fullest = self.sizes().fullest()
        waiting = [
            n for n in self.tables
            if n not in self.round_played and not seating.halted(len(self.seats[n]), fullest)
        ]  # fmt: skip
        if waiting or any(table.in_hand for table in self.tables.values()):
            return []
        out, self.round_out = self.round_out, []
        self.round_played = set()
        return place(self, out) if out else []

    def _rearrange(self, moves: list[Move], balanced: list[int]) -> list[int]:
        """A table breaks if it may (TRN-14), then the tables ``balanced`` that are left
        balance in turn (TRN-13); in hand-for-hand only once a round is over, so that
        nobody moved plays a second hand of one round (TRN-16). The tables broken."""
        broken = self._break_tables(moves)
        for number in balanced:
            if number in self.tables:
                self._balance(number, moves)
        return broken

    def _update_hand_for_hand(self) -> list[Placement]:
        """TRN-16: on while more than one table plays and the entries left are one more
        than the places paid, or one of ``hand_for_hand_at``; turned off, the round's
        eliminations are placed."""
        config = self.config
        on = len(self.tables) > 1 and (
            self.remaining in config.hand_for_hand_at
            or (config.hand_for_hand and self.remaining == self.paid_places() + 1)
        )
        if self.hand_for_hand and not on:
            self.hand_for_hand = False
            out, self.round_out = self.round_out, []
            self.round_played = set()
            return place(self, out) if out else []
        if on and not self.hand_for_hand:
            self.hand_for_hand, self.round_played = True, set()
        return []

    def _break_tables(self, moves: list[Move]) -> list[int]:
        """TRN-14: the highest numbered table breaks once the players fit in one table
        fewer and it is between hands; its players are seated by draw."""
        broken: list[int] = []
        while self.sizes().players() <= self.config.seats * (len(self.tables) - 1):
            number = seating.table_to_break(self.counts(), self.config.seats)
            if number is None or self.tables[number].in_hand:
                return broken
            table = self.tables[number]
            leaving = {
                e: (seat, table.stack(seat)) for seat, e in sorted(self.seats[number].items())
            }
            absent = {e for seat, e in self.seats[number].items() if table.sitting_out(seat)}
            for entry in leaving:
                self._unseat(entry, None)
            del self.tables[number], self.seats[number], self.table_levels[number]
            self._resized(0, None)
            self.start_chips.pop(number, None)
            self.round_played.discard(number)
            stacks = {e: stack for e, (_, stack) in leaving.items()}
            for entry, to_table, to_seat in self._seat_arrivals(list(leaving), stacks, absent):
                player = self.entries[entry].player
                moves.append(Move(player, number, leaving[entry][0], to_table, to_seat))
            broken.append(number)
        return broken

    def _balance(self, number: int, moves: list[Move]) -> None:
        """TRN-13: while table ``number`` has two players more than the shortest, the
        player due the big blind next moves to the worst seat there."""
        table = self.tables[number]
        while len(self.seats[number]) - self.sizes().fewest() >= 2:
            short = seating.short_table(self.counts(), number)
            if short is None:
                return
            last_big = table.blinds[1]
            occupied = sorted(self.seats[number])
            seat = occupied[0] if last_big is None else (
                seating.next_big_blind(occupied, self.config.seats, last_big))  # fmt: skip
            entry = self.seats[number][seat]
            absent = table.sitting_out(seat)
            stack = self._unseat(entry, None)
            target = self.tables[short]
            to_seat = seating.worst_seat(sorted(self.seats[short]), self.config.seats,
                                         last_big=target.blinds[1], rng=self.rng)  # fmt: skip
            self._join(short, to_seat, entry, stack, absent)
            moves.append(Move(self.entries[entry].player, number, seat, short, to_seat))

    def _seat_arrivals(
        self, entries: list[int], stacks: dict[int, int], absent: Collection[int] = ()
    ) -> list[tuple[int, int, int]]:
        """TRN-4, TRN-14: seats ``entries`` by random draw, opening tables as needed;
        the ``absent`` stay absent (TRN-21)."""
        names = {self.entries[e].player: e for e in entries}
        seated = []
        for player, number, seat in seating.place_arrivals(
            list(names), self.seats, self.config.seats, self.rng
        ):
            if number < 0:  # no open seat anywhere: a new table
                number, seat = max(self.tables_opened, max(self.tables, default=0)) + 1, 0
                self._open_table(number)
            entry = names[player]
            self._join(number, seat, entry, stacks[entry], entry in absent)
            seated.append((names[player], number, seat))
        return seated

    def _open_table(self, number: int) -> None:
        level = self.level if self.state == RUNNING else 0
        seed = self.rng.getrandbits(64)
        self.tables[number] = Table(self.config.table_config(level), seed=seed)
        self.tables_opened = max(self.tables_opened, number)
        self.touched.add(number)
        self.seats[number] = {}
        self.table_levels[number] = level
        self._resized(None, 0)

    def _join(self, number: int, seat: int, entry: int, stack: int, absent: bool = False) -> None:
        record, table = self.entries[entry], self.tables[number]
        table.join(seat, record.player, stack, stranger=True)
        self.touched.add(number)
        if absent:  # TRN-21: a move keeps the absence
            table.sit_out(seat)
        self.seats[number][seat] = entry
        self._resized(len(self.seats[number]) - 1, len(self.seats[number]))
        record.table, record.seat = number, seat

    def _unseat(self, entry: int, now: float | None) -> int:
        record = self.entries[entry]
        number, seat = record.table, record.seat
        assert number is not None and seat is not None
        del self.seats[number][seat]
        self._resized(len(self.seats[number]) + 1, len(self.seats[number]))
        record.table = record.seat = None
        table = self.tables[number]
        stack = table.leave(seat, now=now)
        self.touched.add(number)
        table.forget_departures(math.inf)  # TRN-12: nobody leaves owing blinds
        return stack

    def entries_of(self, player: str) -> list[Entry]:
        """The entries of ``player``, in order."""
        index = self._by_player
        for entry in self.entries[self._indexed :]:  # entries not yet in the index
            index.setdefault(entry.player, []).append(entry)
        self._indexed = len(self.entries)
        return index.get(player, [])

    @staticmethod
    def _check_name(player: object) -> None:
        if not isinstance(player, str) or not player:
            raise RegistrationRefused(f"a player needs a name, not {player!r}")

    def players(self) -> Iterable[str]:
        """The players of the entries still in."""
        return (e.player for e in self.entries if e.place is None)
