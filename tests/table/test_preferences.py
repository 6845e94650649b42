"""A seat's showdown preferences at a table (RULES.md TH-22): kept with the seat, carried
into each hand it is dealt (in table seats: the hand's config lists them by hand index),
changed in the middle of a hand too, kept by a snapshot, and private to the seat."""

from __future__ import annotations

import pytest

from doubleholdem.errors import TableError
from doubleholdem.table import Table, TableConfig

CONFIG = TableConfig(small_blind=5, big_blind=10, seats=6)


def _table() -> Table:
    table = Table(CONFIG, seed=11)
    for seat, name in ((1, "ann"), (3, "bob"), (4, "cy")):
        table.join(seat, name, 1000, now=0.0)
    return table


def _check_down(table: Table) -> None:
    while table.in_hand:
        seat = table.to_act
        legal = table.legal_actions()
        assert seat is not None and legal is not None
        table.act(seat, "check" if legal.can_check else "call")


def _ends(table: Table) -> dict[int, str]:
    """Each table seat's showdown event in the last hand: show, or muck."""
    number = table.hand_number
    ends: dict[int, str] = {}
    for entry in table.event_log(everything=True):
        if entry.get("hand_number") == number and entry["kind"] in ("show", "muck"):
            ends[entry["seat"]] = entry["kind"]
    return ends


def test_a_seat_s_preferences_reach_its_hands_by_table_seat() -> None:
    table = _table()
    table.set_preferences(3, muck_losing=False, show_uncontested=True)
    table.start_hand(now=1.0)
    hand = table.hand
    assert hand is not None and table.dealt == [1, 3, 4]
    assert hand.config.muck_losing == (True, False, True)
    assert hand.config.show_uncontested == (False, True, False)
    _check_down(table)
    assert _ends(table)[3] == "show"  # bob never mucks: shown, win or lose
    assert table.view(3)["preferences"] == {"muck_losing": False, "show_uncontested": True}
    assert table.view(1)["preferences"] == {"muck_losing": True, "show_uncontested": False}
    assert table.view(None)["preferences"] is None


def test_defaults_leave_the_hand_config_as_it_was() -> None:
    table = _table()
    table.start_hand(now=1.0)
    assert table.hand is not None
    assert table.hand.config.muck_losing == () and table.hand.config.show_uncontested == ()


def test_no_muck_anywhere_once_every_seat_shows_and_a_change_mid_hand_counts() -> None:
    """With the defaults some hands end in a muck; with every seat's muck_losing turned
    off in the middle of each hand (after the deal), none does."""
    mucked = 0
    table = _table()
    for _ in range(12):
        table.start_hand(now=table.now + 1)
        _check_down(table)
        mucked += list(_ends(table).values()).count("muck")
    assert mucked > 0
    table = _table()
    for _ in range(12):
        table.start_hand(now=table.now + 1)
        for seat in (1, 3, 4):
            table.set_preferences(seat, muck_losing=False)
        copy = Table.from_json(table.to_json())  # a snapshot keeps them, in the hand too
        assert copy.hand is not None and copy.hand.config.muck_losing == (False,) * 3
        _check_down(table)
        assert "muck" not in _ends(table).values()
        for seat in (1, 3, 4):
            table.set_preferences(seat, muck_losing=True)


def test_preferences_are_checked() -> None:
    table = _table()
    with pytest.raises(TableError, match="muck_losing is true or false"):
        table.set_preferences(1, muck_losing=1)  # type: ignore[arg-type]
    with pytest.raises(TableError, match="empty"):
        table.set_preferences(0, muck_losing=False)


def test_the_defaults_again_and_a_changed_seat_leaving_leave_configs_right() -> None:
    """A hand's config carries the preferences only once a seat changed its own (the
    table checks that when they change): back to the defaults it carries none, and a
    seat that changed them and left takes them away with it."""
    table = _table()
    table.set_preferences(3, show_uncontested=True)
    table.set_preferences(3, show_uncontested=False)
    table.start_hand(now=1.0)
    assert table.hand is not None and table.hand.config.show_uncontested == ()
    _check_down(table)
    table.set_preferences(4, muck_losing=False)
    table.leave(4)
    table.join(4, "dee", 1000)
    table.start_hand(now=2.0)
    assert table.hand is not None and table.hand.config.muck_losing == ()
    table.set_preferences(1, muck_losing=False)  # mid-hand: this hand, then the next
    assert table.hand.config.muck_losing == tuple(s != 1 for s in table.dealt)
    copy = Table.from_json(table.to_json())
    for each in (table, copy):
        _check_down(each)
        each.start_hand(now=3.0)
        assert each.hand is not None and len(each.dealt) == 3
        assert each.hand.config.muck_losing == (False, True, True)
