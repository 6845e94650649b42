"""A seat's hands, as that seat saw them: the one place that decides what of a stored
hand a player may look at again (the server's ``hands`` message, ``GET /api/me/hands``).

When a hand ends the table's log gets one more entry, :func:`hand_record`: the hand in
PHH (:func:`doubleholdem.game.phh.dumps`, every card: the server's record) with the
table seats (one-based, as PHH numbers them), the names of the players dealt in and
their occupancies (the table's number of each seating: a player who sits down again is
another occupancy).
From a stored hand's log, :func:`seat_hands` gives a player the hands they played in a
seat: the log entries as :func:`~doubleholdem.game.events.visible` lets that seat see
them, and the PHH of :func:`seat_phh`, in which another player's hole cards are
``??`` (``????`` in Texas Hold'em) unless they were shown, and another player's point
card is ``??`` unless it was revealed (DH-8) or shown: never a card the seat did not see.

>>> from doubleholdem.table import Table, TableConfig
>>> table = Table(TableConfig(small_blind=5, big_blind=10), seed=3)
>>> table.join(0, "ann", 1000); table.join(1, "bob", 1000)
>>> table.start_hand(now=0.0); table.act(0, "fold", now=1.0)
Event(seq=4, kind='fold', seat=0)
>>> log = table.release_history() + [hand_record(table, table_id=0)]
>>> [hand] = seat_hands([log], seat=1, player="bob")
>>> hand.number, [line for line in hand.phh.splitlines() if line.startswith("  \\"d dh")]
(1, ['  "d dh p1 4hJd",', '  "d dh p2 ????",'])
>>> seat_hands([log], seat=1, player="carl")
[]
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, NamedTuple

from doubleholdem.game import phh
from doubleholdem.game.events import visible
from doubleholdem.table.table import Table

__all__ = ["RECORD", "SeatHand", "hand_record", "seat_hands", "seat_phh"]

RECORD = "phh"
"""The kind of the log entry :func:`hand_record` adds at a hand's end."""


class SeatHand(NamedTuple):
    """Hand ``number`` of table ``table`` (its id) as the seat saw it: its log entries
    and its PHH; ``tournament``: at a tournament's table, the tournament and the table's
    number in it (``None`` at a cash table)."""

    table: int
    number: int
    log: list[dict[str, Any]]
    phh: str
    tournament: tuple[int, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (without the table, which the reply names)."""
        return {"number": self.number, "log": self.log, "phh": self.phh}


def hand_record(
    table: Table, *, table_id: int, tournament: tuple[int, int] | None = None, **extra: Any
) -> dict[str, Any]:
    """The log entry of the hand ``table`` just finished: its number, the seats dealt in
    with their players and occupancies, and the hand in PHH with every card (the
    server's record). ``table_id``: the table's id where the hand is stored;
    ``tournament``: at a tournament's table, the tournament and the table's number in it
    (the PHH's ``table``, and the record's ``tournament`` and ``tournament_table``);
    ``extra``: more PHH fields (``event``: the tournament's name)."""
    hand = table.hand
    assert hand is not None and hand.over, "a hand record is made at the hand's end"
    dealt, names, occupancies = table.dealt, table.dealt_players, table.dealt_occupancies
    n = len(dealt)
    order = [(hand.config.button + 1 + i) % n for i in range(n)]  # phh.dumps' players
    seats = [dealt[i] + 1 for i in order]
    players = [names[i] for i in order]
    text = phh.dumps(
        hand,
        table=table_id + 1 if tournament is None else tournament[1],
        hand=table.hand_number,
        seat_count=table.config.seats,
        seats=seats,
        players=players,
        **extra,
    )
    number = table.hand_number
    record = {
        "kind": RECORD,
        "hand_number": number,
        "table": table_id,
        "seats": seats,
        "players": players,
        "occupancies": [occupancies[i] for i in order],
        "text": text,
    }
    if tournament is not None:
        record["tournament"], record["tournament_table"] = tournament
    return record


def seat_hands(
    logs: Iterable[list[dict[str, Any]]], *, player: str, seat: int | None = None
) -> list[SeatHand]:
    """The hands among the stored hand ``logs`` that ``player`` played in ``seat``
    (zero-based, as the table numbers it; ``None``: in any seat), in the order given, as
    that seat saw them."""
    found = []
    for log in logs:
        record = next((e for e in reversed(log) if e.get("kind") == RECORD), None)
        if record is None or player not in record["players"]:
            continue
        at = record["seats"][record["players"].index(player)] - 1
        if seat is not None and at != seat:
            continue
        reveal = "\n_reveal_point = true\n" in record["text"]
        entries = [
            visible(entry, entry.get("seat") == at, reveal)
            for entry in log
            if entry.get("kind") != RECORD
        ]
        number, text = record["hand_number"], seat_phh(record["text"], at)
        where = record.get("tournament"), record.get("tournament_table")
        at_tournament = None if where[0] is None else (int(where[0]), int(where[1]))
        found.append(SeatHand(record["table"], number, entries, text, at_tournament))
    return found


def seat_phh(text: str, seat: int) -> str:
    """The PHH ``text`` of :func:`hand_record` as ``seat`` (zero-based) saw the hand:
    another player's hole cards ``??`` each unless shown, another player's point card
    ``??`` unless revealed (DH-8) or shown."""
    fields = phh.loads(text).fields
    me = f"p{fields['seats'].index(seat + 1) + 1}"
    reveal = bool(fields.get("_reveal_point", False))
    actions = [action.split() for action in fields["actions"]]
    shown = {words[0] for words in actions if len(words) == 3 and words[1] == "sm"}
    masked = []
    for words in actions:
        if words[:2] == ["d", "dh"] and words[2] != me:
            words = [*words[:3], "??" * (len(words[3]) // 2)]
        elif words[1:2] == ["pc"] and words[0] != me and not reveal and words[0] not in shown:
            words = [words[0], "pc", "??"]
        masked.append(" ".join(words))
    fields["actions"] = masked
    return _toml(fields)


def _toml(fields: dict[str, Any]) -> str:
    """PHH text of ``fields`` (numbers, booleans, strings and lists of them), written as
    :func:`doubleholdem.game.phh.dumps` writes it."""
    lines = []
    for key, value in fields.items():
        if key == "actions":
            body = "".join(f"  {json.dumps(a)},\n" for a in value)
            lines.append(f"actions = [\n{body}]")
        else:
            lines.append(f"{key} = {json.dumps(value)}")
    return "\n".join(lines) + "\n"
