"""TRN-11, TRN-12 through the tournament: a late entry (TRN-4, TRN-5) arriving at a table left
heads-up never stalls it. Waiting between the dead button and the small blind (TH-38),
it leaves the table heads-up for a hand, which starts, and is dealt in once the button
passed; in the button's, the small blind's or the big blind's seat it plays at once.

Each situation is built through the tournament's own calls: three entrants, the button
folds, the small blind moves all in and the big blind calls, one of them busts; then a
late entry, a new player (TRN-4) or the busted one re-entering (TRN-5), is seated by the
tournament's draw. The seeds are searched until the draw gives the seat wanted, so the
test does not depend on where one seed puts it."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from doubleholdem.table.table import Table
from doubleholdem.tournament import Tournament, TournamentConfig

from .driver import Checked

SEATS = 9
STACK = 1000
CONFIG = TournamentConfig(seats=SEATS, starting_stack=STACK, late_registration=1, re_entries=1)


class Arrival(NamedTuple):
    """A tournament whose table 1 is heads-up after a bust, the late entry's ``seat``,
    and the next hand's positions by the dead button (TH-38), worked out here: the
    ``button`` on the last small blind's seat, the ``small`` blind on the last big
    blind's."""

    tournament: Tournament
    seat: int
    button: int
    small: int


def _between(start: int, seat: int, end: int) -> bool:
    """``seat`` lies clockwise strictly after ``start`` and before ``end``."""
    return 0 < (seat - start) % SEATS < (end - start) % SEATS


def _place(seat: int, button: int, small: int) -> str:
    if seat == button:
        return "button"
    if seat == small:
        return "small blind"
    return "between" if _between(button, seat, small) else "elsewhere"


def _play_out(table: Table, *, shove: bool = False) -> None:
    """The button folds (three or more dealt), the others move all in (``shove``) or
    call and check to the end."""
    while table.in_hand:
        seat, legal = table.to_act, table.legal_actions()
        assert seat is not None and legal is not None
        if seat == table.button and len(table.dealt) > 2 and shove:
            table.act(seat, "fold")
        elif shove:
            table.act(seat, "all_in")
        else:
            table.act(seat, "check" if legal.can_check else "call")


def _arrival(busting: str, place: str, re_entry: bool) -> Arrival:
    """A late entry (the busted player's ``re_entry``, or a new player) seated in
    ``place`` after the last hand's ``busting`` blind busted."""
    for seed in range(500):
        tournament = Tournament(CONFIG, seed=seed)
        for name in ("a", "b", "c"):
            tournament.register(name)
        tournament.start()
        table = tournament.start_hand(1)
        _play_out(table, shove=True)
        small, big = table.blinds
        assert small is not None and big is not None
        gone = table.player(small if busting == "small blind" else big)
        report = tournament.finish_hand(1)
        if [p.player for p in report.eliminated] != [gone]:
            continue
        arriving = gone if re_entry else "late"
        if re_entry:
            tournament.re_enter(gone)
        else:
            tournament.register("late")
        seat = tournament.entries_of(arriving)[-1].seat
        assert seat is not None
        if _place(seat, small, big) == place:
            return Arrival(tournament, seat, small, big)
    raise AssertionError(f"no seed seats a late entry {place} after the {busting} busts")


CASES = [
    ("small blind", "between", False),  # waits for the button to pass (TRN-12)
    ("big blind", "between", False),
    ("small blind", "button", True),  # on the dead button's seat: the button
    ("big blind", "small blind", True),  # on the dead small blind's seat: posts it
    ("small blind", "elsewhere", True),  # after the small blind: the big blind or later
    ("big blind", "elsewhere", True),
]


@pytest.mark.parametrize("re_entry", [False, True], ids=["late entry", "re-entry"])
@pytest.mark.parametrize(("busting", "place", "dealt"), CASES)
def test_arrival_at_a_table_left_heads_up(
    busting: str, place: str, dealt: bool, re_entry: bool
) -> None:
    """TRN-12: the table is offered and starts its hand; the arrival is dealt in at
    once, posting nothing but a blind its seat is due, except between the button and
    the small blind; TRN-11: the dead button and small blind stay where TH-38 puts them."""
    arrival = _arrival(busting, place, re_entry)
    tournament, seat = arrival.tournament, arrival.seat
    table = tournament.tables[1]
    assert len(tournament.seats[1]) == 3 and table.can_start()
    assert tournament.ready_tables() == [1]
    tournament.start_hand(1)
    assert (seat in table.dealt) is dealt
    if dealt:  # three-handed at once, the button and small blind where TH-38 says
        assert len(table.dealt) == 3
        assert (table.button, table.blinds[0]) == (arrival.button, arrival.small)
        level = CONFIG.table_config(0)
        posted = {arrival.small: level.small_blind, table.blinds[1]: level.big_blind}
        assert STACK - table.stack(seat) == posted.get(seat, 0)
    else:  # heads-up without it: the button posts the small blind (TH-3, TRN-11)
        assert len(table.dealt) == 2 and table.blinds[0] == table.button
        assert table.stack(seat) == STACK
    _play_out(table)
    tournament.finish_hand(1)
    assert tournament.ready_tables() == [1]
    tournament.start_hand(1)
    assert seat in table.dealt  # the button has passed it: dealt in, still owing nothing
    _play_out(table)
    tournament.finish_hand(1)
    Checked(tournament).play(hands=30)  # and the tournament goes on


@pytest.mark.parametrize("side", ["after the big blind", "after the button"])
def test_arrival_at_a_heads_up_table_plays_at_once(side: str) -> None:
    """TRN-11, TRN-12: after a heads-up hand (the button posted the small blind) no seat
    lies between the button and the small blind: an arrival on either side of the two
    players plays the next hand, three-handed, as its big blind."""
    for seed in range(500):
        tournament = Tournament(CONFIG, seed=seed)
        tournament.register("a")
        tournament.register("b")
        tournament.start()
        table = tournament.start_hand(1)
        _play_out(table)
        tournament.finish_hand(1)
        button, big = table.button, table.blinds[1]
        assert button is not None and big is not None and table.blinds[0] == button
        tournament.register("late")
        seat = tournament.entries_of("late")[0].seat
        assert seat is not None
        if _between(big, seat, button) == (side == "after the big blind"):
            break
    else:
        raise AssertionError(f"no seed seats a late entry {side}")
    assert tournament.ready_tables() == [1]
    tournament.start_hand(1)
    assert len(table.dealt) == 3 and table.blinds[1] == seat
    assert STACK - table.stack(seat) == CONFIG.table_config(0).big_blind
    _play_out(table)
    tournament.finish_hand(1)
    Checked(tournament).play(hands=30)
