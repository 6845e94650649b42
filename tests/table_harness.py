"""Helpers of the table tests: play a hand out simply, who posted what, the chips."""

from __future__ import annotations

from doubleholdem.table import Table


def finish(table: Table) -> None:
    """Everyone checks when free, else folds; point card 0."""
    while table.in_hand:
        seat = table.to_act
        assert seat is not None
        if table.decision == "point":
            table.choose_point(seat, 0)
            continue
        legal = table.legal_actions()
        assert legal is not None
        table.act(seat, "check" if legal.can_check else "fold")


def posts(table: Table, number: int | None = None) -> dict[str, list[tuple[int, int]]]:
    """Who posted what in hand ``number`` (default: the last)."""
    number = table.hand_number if number is None else number
    found: dict[str, list[tuple[int, int]]] = {}
    for entry in table.event_log(everything=True):
        if entry.get("hand_number") == number and entry["kind"] in (
            "small_blind",
            "big_blind",
            "post",
            "post_dead",
        ):
            found.setdefault(entry["kind"], []).append((entry["seat"], entry["amount"]))
    return found


def play_hand(table: Table) -> None:
    table.start_hand()
    finish(table)


def check_chips(table: Table) -> None:
    assert table.chips() + table.rake == table.bought_in
