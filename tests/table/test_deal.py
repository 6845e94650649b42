"""The hand in table seats (doubleholdem.table.deal): the hand numbers its players from 0,
the table by seat; a refusal of the hand reaches the player with the table's seat
number in its text and its fields, rebuilt from the refusal's reason."""

from __future__ import annotations

import pytest

from doubleholdem.errors import IllegalAction
from doubleholdem.game import LegalActions, Variant
from doubleholdem.table import Table, TableConfig
from doubleholdem.table.deal import entry_in_seats


def _table(variant: Variant = Variant.TEXAS) -> Table:
    table = Table(TableConfig(small_blind=5, big_blind=10, variant=variant), seed=4)
    for seat, name in ((3, "ann"), (5, "bob"), (8, "cy")):
        table.join(seat, name, 1000)
    table.start_hand()
    return table


def test_a_betting_refusal_names_the_table_seat() -> None:
    table = _table()
    seat = table.to_act
    assert seat == 3 and table.dealt == [3, 5, 8]
    with pytest.raises(IllegalAction) as caught:
        table.act(3, "raise", 15)
    error = caught.value
    assert str(error) == "seat 3 cannot raise: bets and raises go to 20..1000"
    assert error.reason == "cannot raise: bets and raises go to 20..1000"
    assert error.seat == 3 and error.amount == 15
    assert isinstance(error.legal, LegalActions) and error.legal.seat == 3
    table.act(3, "call")
    with pytest.raises(IllegalAction, match=r"^seat 5 cannot check: facing a wager") as caught:
        table.act(5, "check")
    assert caught.value.seat == 5 and caught.value.legal.seat == 5  # type: ignore[attr-defined]


def test_a_point_card_refusal_names_the_table_seat() -> None:
    table = _table(Variant.DOUBLE)
    table.act(3, "call")
    table.act(5, "call")
    table.act(8, "check")
    seat = table.to_act
    assert seat is not None and table.decision == "point"
    with pytest.raises(IllegalAction) as caught:
        table.choose_point(seat, 7)
    error = caught.value
    assert str(error).startswith(
        f"seat {seat} cannot choose point 7: give 0, 1, 2, auto or one of "
    )
    assert error.seat == seat and error.legal.seat == seat  # type: ignore[attr-defined]
    with pytest.raises(IllegalAction, match=rf"^seat {seat} must first choose a point card"):
        table.act(seat, "check")


def test_a_refusal_changes_nothing_and_play_goes_on() -> None:
    table = _table()
    log = table.log_json()
    for action, amount in (("raise", 5), ("check", None), ("dance", None), ("fold", 3)):
        with pytest.raises(IllegalAction) as caught:
            table.act(3, action, amount)
        assert caught.value.seat == 3
    assert table.log_json() == log
    table.act(3, "fold")
    assert table.to_act == 5


# -- hand indices become table seats here alone (issue 31 item 5) ---------------------


def _double_table() -> Table:
    table = Table(TableConfig(seats=9, small_blind=5, big_blind=10, variant="double"), seed=3)
    for seat in (2, 5, 7):
        table.join(seat, f"p{seat}", 1000)
    table.start_hand(now=0.0)
    return table


def test_the_table_view_is_the_hand_view_in_table_seats() -> None:
    table = _double_table()
    seats = table.dealt
    assert seats == [2, 5, 7]
    while table.in_hand:
        for viewer in (None, 2, 5, 7):
            index = None if viewer is None else seats.index(viewer)
            hand = table.hand
            assert hand is not None
            own = hand.view(index)  # the game's: by hand index
            mine = table.view(viewer)["hand"]
            assert mine["stacks"] == {str(s): own["stacks"][i] for i, s in enumerate(seats)}
            assert mine["in_hand"] == {str(s): own["in_hand"][i] for i, s in enumerate(seats)}
            assert mine["shown"] == {str(seats[int(i)]): c for i, c in own["shown"].items()}
            assert mine["points"] == {str(seats[int(i)]): p for i, p in own["points"].items()}
            if own["legal"] is None:
                assert mine["legal"] is None
            else:
                assert mine["legal"] == {**own["legal"], "seat": seats[own["legal"]["seat"]]}
            assert mine["events"] == [entry_in_seats(dict(e), seats) for e in own["events"]]
        to_act = table.to_act
        assert to_act is not None
        legal = table.legal_actions()
        assert legal is not None and legal.seat == to_act
        if legal.decision == "point":
            event = table.choose_point(to_act, 0)
        else:
            event = table.act(to_act, "check" if legal.can_check else "call")
        assert event.seat == to_act  # the event handed back is in table seats too


def test_an_entry_is_numbered_by_the_seats() -> None:
    entry = {"seq": 3, "kind": "pot", "amount": 30, "pot": 0, "seats": [0, 2]}
    assert entry_in_seats(entry, [4, 6, 9])["seats"] == [4, 9]
    assert entry_in_seats({"kind": "fold", "seat": 1}, [4, 6, 9]) == {"kind": "fold", "seat": 6}
