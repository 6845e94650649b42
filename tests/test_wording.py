"""Messages whose seat and table numbers stay numbers (issue 31 item 5): a library
refusal keeps its seats apart from its words, so the edges a person reads number them
from 1 from the numbers, never by rewriting English text. Held against the regular
expression the server used to renumber its messages with (kept here as the reference:
it said every message right that a table raises), over refusals of random tables."""

from __future__ import annotations

import pickle
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doubleholdem.errors import DoubleHoldemError, IllegalAction, TableError
from doubleholdem.game import Variant
from doubleholdem.table import Table, TableConfig
from doubleholdem.wording import (
    Number,
    Wording,
    for_people,
    joined,
    not_a_seat,
    seat_said,
    table_said,
    told,
)

_NUMBERED = re.compile(r"\b(seats?|tables?) (\d+)(?:\.\.(\d+))?")
_NOT_A_SEAT = re.compile(r"\b(\d+) is not a seat")


def renumbered(text: str) -> str:
    """The server's old ``protocol.for_people``: every "seat N", "seats A..B", "table N"
    and "N is not a seat" of ``text`` counted from 1 (the reference)."""

    def renumber(match: re.Match[str]) -> str:
        word, first, last = match.groups()
        said = f"{word} {int(first) + 1}"
        return said if last is None else f"{said}..{int(last) + 1}"

    text = _NOT_A_SEAT.sub(lambda m: f"{int(m.group(1)) + 1} is not a seat", text)
    return _NUMBERED.sub(renumber, text)


def test_a_wording_is_its_text_from_zero_and_says_it_from_one() -> None:
    said = Wording(seat_said(2), " cannot fold: it is ", seat_said(1, "turn"), "'s turn")
    assert said == "seat 2 cannot fold: it is seat 1's turn"
    assert isinstance(said, str)
    assert said.for_people() == for_people(said) == "seat 3 cannot fold: it is seat 2's turn"
    assert said.fields() == {"seat": 2, "turn": 1}
    assert for_people(not_a_seat(5, 3)) == "6 is not a seat (seats 1..3)"
    assert not_a_seat(5, 3).fields() == {"seat": 5}
    assert for_people(not_a_seat(-1, 3)) == "0 is not a seat (seats 1..3)"  # what people ask
    assert not_a_seat("x", 3) == "'x' is not a seat (seats 0..2)"
    assert not_a_seat("x", 3).fields() == {}
    assert for_people("table 0 as plain text") == "table 0 as plain text"  # not rewritten


def test_joining_keeps_the_numbers() -> None:
    said = "at " + table_said(0) + ": " + seat_said(4) + " left"
    assert isinstance(said, Wording) and said == "at table 0: seat 4 left"
    assert said.for_people() == "at table 1: seat 5 left"
    assert said.fields() == {"table": 0, "seat": 4}
    both = joined([table_said(0), table_said(2, None), "no number"], "; ")
    assert both.for_people() == "table 1; table 3; no number"
    assert both.fields() == {"table": 0}
    assert joined([]) == "" and joined([]).fields() == {}


def test_removing_a_prefix_keeps_the_numbers_after_it() -> None:
    said = table_said(12) + ": " + seat_said(3) + " stack"
    rest = said.removeprefix("table 12: ")
    assert rest == "seat 3 stack" and rest.for_people() == "seat 4 stack"
    assert said.removeprefix("table 1") == "2: seat 3 stack"  # inside a number: words
    assert said.removeprefix("elsewhere") is said
    assert said.removeprefix("") is said


def test_a_wording_survives_pickling_and_an_error() -> None:
    said = Wording(seat_said(0), " is empty")
    again = pickle.loads(pickle.dumps(said))
    assert type(again) is Wording and again.parts == said.parts
    error = TableError(said, seat=0)
    assert str(error) == "seat 0 is empty" and told(error) is said
    assert told(ValueError("seat 0 plain")) == "seat 0 plain"
    assert told(DoubleHoldemError()) == ""
    assert Number(3).field is None


def _table(seats: int, players: int, double: bool, seed: int) -> Table:
    variant = Variant.DOUBLE if double else Variant.TEXAS
    table = Table(TableConfig(small_blind=5, big_blind=10, seats=seats, variant=variant), seed=seed)
    for seat in range(players):
        table.join(seat * (seats // players), f"p{seat}", 500 + 10 * seat)
    table.start_hand()
    return table


_REQUESTS = st.tuples(
    st.sampled_from(["act", "point", "join", "top_up", "sit_out", "leave", "observe"]),
    st.integers(0, 10),  # (the old rewrite said "-1 is not a seat" as "-2 is not a seat")
    st.sampled_from(["fold", "check", "call", "bet", "raise", "all_in", "steal"]),
    st.one_of(st.none(), st.integers(-5, 2000)),
)


def _refusal(table: Table, request: tuple[str, int, str, int | None]) -> Exception | None:
    kind, seat, action, amount = request
    try:
        if kind == "act":
            table.act(seat, action, amount)
        elif kind == "point":
            table.choose_point(seat, amount if amount is not None else 0)
        elif kind == "join":
            table.join(seat, "p0" if amount is None else f"q{amount}", amount or 400)
        elif kind == "top_up":
            table.top_up(seat, amount or 0)
        elif kind == "sit_out":
            table.sit_out(seat)
        elif kind == "leave":
            table.leave(seat)
        else:
            table.observe(seat)
    except DoubleHoldemError as error:
        return error
    return None


@settings(max_examples=150, deadline=None)
@given(
    seats=st.integers(2, 9),
    players=st.integers(2, 9),
    double=st.booleans(),
    seed=st.integers(0, 1000),
    requests=st.lists(_REQUESTS, min_size=1, max_size=12),
)
def test_every_refusal_of_a_table_is_said_from_one_as_the_old_rewrite_said_it(
    seats: int, players: int, double: bool, seed: int, requests: list[Any]
) -> None:
    table = _table(seats, min(players, seats), double, seed)
    for request in requests:
        error = _refusal(table, request)
        if error is None:
            continue
        said = told(error)
        assert said == str(error)
        assert for_people(said) == renumbered(str(error)), request
        named = said.fields() if isinstance(said, Wording) else {}
        if "seat" in named and isinstance(error, (IllegalAction, TableError)):
            assert named["seat"] == error.seat  # the field is the error's own seat
        if re.search(r"\b(seats?|tables?) \d|\d+ is not a seat", str(error)):
            assert isinstance(said, Wording), str(error)  # numbers a person reads stay numbers


def test_the_refusal_a_player_reads_names_the_seat_whose_turn_it_is() -> None:
    table = _table(6, 3, False, 1)
    actor = table.to_act
    assert actor is not None
    other = next(s for s in (0, 2, 4) if s != actor)
    with pytest.raises(IllegalAction) as refused:
        table.act(other, "fold")
    said = told(refused.value)
    assert isinstance(said, Wording)
    assert said.fields() == {"seat": other, "turn": actor}
    assert for_people(said) == f"seat {other + 1} cannot fold: it is seat {actor + 1}'s turn"
