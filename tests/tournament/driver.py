"""Plays tournaments of bots for the tests, checking the TDA rules at every step from
outside the tournament (RULES.md TRN-12 to TRN-17): its own counts of players, chips and
rounds, never the tournament's word for them."""

from __future__ import annotations

import random
from collections.abc import Sequence

from doubleholdem.table.bots import Bot, make_bot
from doubleholdem.tournament import Tournament, seating
from doubleholdem.tournament.records import HandReport, Move, Placement


class Checked:
    """Drives ``tournament`` with bots (``names`` cycled over the players, made as they
    are first seen) and checks every step."""

    def __init__(self, tournament: Tournament, names: Sequence[str] = ("random", "station")):
        self.tournament = tournament
        self.names = names
        self.bots: dict[str, Bot] = {}
        self.start: dict[int, int] = {}  # each entry's chips at its last hand's start
        self.table: dict[int, int] = {}  # and the table it played it at
        self.round: set[int] = set()  # tables done in this hand-for-hand round
        self.dealt: set[int] = set()  # and the entries dealt in it
        self.reports: list[HandReport] = []
        self.moves_checked = 0  # balancing moves checked seat by seat (TRN-13)

    def bot(self, player: str) -> Bot:
        if player not in self.bots:
            name = self.names[len(self.bots) % len(self.names)]
            self.bots[player] = make_bot(name, seed=len(self.bots))
        return self.bots[player]

    def play(self, hands: int | None = None) -> None:
        """Plays to the end (or ``hands`` more hands)."""
        t = self.tournament
        played = 0
        while t.state == "running" and (hands is None or played < hands):
            ready = t.ready_tables()
            assert ready, "no table can start a hand"
            for number in ready:
                if t.state != "running" or number not in t.ready_tables():
                    continue
                self.hand(number)
                played += 1
                if hands is not None and played >= hands:
                    return

    def hand(self, number: int) -> HandReport:
        t = self.tournament
        counts = {n: len(seats) for n, seats in t.seats.items()}
        assert counts[number] >= 2 and max(counts.values()) - counts[number] < 3  # TRN-15
        if t.hand_for_hand:  # TRN-16: once a round, for a table and for a player
            assert number not in self.round
            self.round.add(number)
            dealt = set(t.seats[number].values())
            assert not dealt & self.dealt, "a player plays two hands of one round"
            self.dealt |= dealt
        else:
            self.round, self.dealt = set(), set()
        table = t.tables[number]
        before = {seat: table.stack(seat) for seat in t.seats[number]}
        since = table.log_length
        t.start_hand(number)
        for item in table.seating_entries(since):  # TRN-10: a colour-up before the deal
            if item["kind"] == "chip_race":
                before[item["seat"]] += item["amount"]
        for seat, entry in t.seats[number].items():
            self.start[entry], self.table[entry] = before[seat], number
        while table.in_hand:
            seat = table.to_act
            assert seat is not None
            table.decide(seat, self.bot(table.player(seat)).choose(table.observe(seat)))
        round_over = not t.hand_for_hand or not self.waiting(number)
        report = t.finish_hand(number)
        self.reports.append(report)
        self.check(report, round_over)
        if round_over:
            self.round, self.dealt = set(), set()
        return report

    def waiting(self, number: int) -> list[int]:
        """TRN-16: the tables still to play this hand-for-hand round once the hand at
        ``number`` is over (not halted by TRN-15 with its busted players gone)."""
        t = self.tournament
        counts = {n: sum(t.tables[n].stack(s) > 0 for s in seats) for n, seats in t.seats.items()}
        fullest = max(counts.values())
        return [n for n in counts if n not in self.round and not seating.halted(counts[n], fullest)]

    def check(self, report: HandReport, round_over: bool = True) -> None:
        """The rules after a hand; ``round_over`` False in the middle of a hand-for-hand
        round, when no table breaks or balances (TRN-16)."""
        t = self.tournament
        stacks = [t.tables[n].stack(s) for n, seats in t.seats.items() for s in seats]
        assert sum(stacks) == t.issued  # chips conserved between hands
        assert all(stack > 0 for stack in stacks)  # nobody busted stays seated
        counts = [len(seats) for seats in t.seats.values()]
        if not round_over:
            assert not report.moves and not report.broken
        elif report.table in t.tables and t.state == "running":  # TRN-13: balanced after
            assert len(t.seats[report.table]) - min(counts) <= 1
        out = [p for p in report.eliminated if p.place > 1]
        rank = {p.entry: self.rank_at_table(p.entry, out) for p in out}
        for a in out:  # TRN-17: more chips at the hand's start finishes higher, at one
            for b in out:  # table; the same rank at different tables (hand-for-hand) ties
                if rank[a.entry] < rank[b.entry]:
                    assert a.place < b.place
                elif rank[a.entry] == rank[b.entry]:
                    assert a.place == b.place and a.shared == b.shared
        if report.broken:
            return
        for source in {m.from_table for m in report.moves}:  # TRN-13, one move from a
            balancing = [m for m in report.moves if m.from_table == source]  # table: who
            if len(balancing) == 1:  # and where
                self.check_move(balancing[0])

    def rank_at_table(self, entry: int, out: list[Placement]) -> int:
        """How many larger stacks busted at ``entry``'s table in the same hand."""
        table, chips = self.table[entry], self.start[entry]
        beside = {self.start[p.entry] for p in out if self.table[p.entry] == table}
        return sum(1 for other in beside if other > chips)

    def check_move(self, move: Move) -> None:
        """TRN-13: the player due the big blind next at the source moved, to the open
        seat that will be big blind soonest at the short table."""
        t, seats = self.tournament, self.tournament.config.seats
        source = t.tables[move.from_table]
        before = sorted([*t.seats[move.from_table], move.from_seat])
        last_big = source.blinds[1]
        assert last_big is not None
        assert seating.next_big_blind(before, seats, last_big) == move.from_seat
        target = t.tables[move.to_table]
        if target.blinds[1] is not None and not target.in_hand:
            others = sorted(s for s in t.seats[move.to_table] if s != move.to_seat)
            rng = random.Random(0)  # not used: the target dealt a hand
            assert seating.worst_seat(others, seats, last_big=target.blinds[1], rng=rng) == (
                move.to_seat
            )
        assert t.seats[move.to_table][move.to_seat] == t.entries_of(move.player)[-1].number
        self.moves_checked += 1

    def check_result(self) -> None:
        """TRN-17 to TRN-20: every entry placed once, places covering 1..N with ties
        sharing, prizes adding up to the pool."""
        t = self.tournament
        result = t.result()
        entries = len(t.entries)
        assert sorted(p.entry for p in result.places) == list(range(entries))
        covered = sorted({p.shared for p in result.places})
        assert [place for shared in covered for place in shared] == list(range(1, entries + 1))
        assert sum(result.prizes.values()) == result.pool == t.pool
        assert [p.place for p in result.places if p.place == 1] == [1]
        assert t.chips_in_play() == t.issued
