"""``update`` messages (docs/PROTOCOL.md, protocol 2): a client that applies each update's
patch to the view it holds has, after every change, exactly the view the table gives its
seat, over many random hands of bots at both variants, for every seat and a spectator;
and no update shows what the seat may not see (RULES.md DH-8)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from doubleholdem.game import Structure, Variant
from doubleholdem.server.protocol import apply_patch, diff
from doubleholdem.server.settings import RoomSettings, default_configs
from doubleholdem.server.tables.connection import Connection
from doubleholdem.server.tables.room import Room
from doubleholdem.server.tables.runner import TableRunner
from doubleholdem.table import TableConfig
from server_harness import leaks, until_hands

HANDS = 40  # per table


class Audit:
    """Holds each connection's view as a client would and checks it after each message."""

    def __init__(self) -> None:
        self.views: dict[Connection, Any] = {}
        self.updates = 0
        self.problems: list[str] = []

    def __call__(self, connection: Connection, runner: TableRunner, text: str) -> None:
        message = json.loads(text)
        if message["type"] == "state":
            self.views[connection] = message["view"]
        else:
            assert message["type"] == "update"
            self.updates += 1
            self.views[connection] = apply_patch(self.views[connection], message["patch"])
        exact = runner.table.view(message["seat"], events=False)
        held = self.views[connection]
        if json.dumps(held, sort_keys=True) != json.dumps(exact, sort_keys=True):
            self.problems.append(f"table {runner.id} seat {message['seat']}: {held} != {exact}")
        self.problems.extend(leaks(runner, connection, text, held))


async def _drain(connection: Connection) -> None:
    while await connection.outbox.get() is not None:
        pass


async def _play(room: Room, audit: Audit) -> None:
    await room.start()
    drains = []
    try:
        for runner in room.runners.values():
            for seat in [None, *range(runner.table.config.seats)]:
                connection = room.connect()
                drains.append(asyncio.create_task(_drain(connection)))
                room._watch(connection, runner, seat)  # a client bound to the seat
        await until_hands(room, HANDS)
    finally:
        await room.stop()
        for task in drains:
            task.cancel()


@pytest.mark.parametrize(
    ("room_db", "seed"),
    [("sqlite", 1), ("sqlite", 2), ("postgresql", 1)],  # PostgreSQL: its commits batch the sends
    indirect=["room_db"],
)
def test_updates_reproduce_every_view_over_random_hands(room_db: str, seed: int) -> None:
    double = TableConfig(
        small_blind=5, big_blind=10, seats=4, variant=Variant.DOUBLE,
        structure=Structure.NO_LIMIT,
    )  # fmt: skip
    settings = RoomSettings(
        tables=3, bots=6, bot_delay=0.0, pause=0.0, seed=seed,
        configs=[*default_configs(), double],
        bot_bankroll=10**12,  # bots that never go broke: every table plays HANDS hands
    )  # fmt: skip
    room = Room.open(room_db, settings)
    audit = Audit()
    room.audit = audit
    asyncio.run(_play(room, audit))
    assert audit.problems == []
    assert all(r.table.hand_number > HANDS for r in room.runners.values())
    assert audit.updates > 1000


def test_diff_then_apply_gives_the_new_value() -> None:
    old: Any = {"a": [1, {"b": 2}], "c": None, "d": {"e": True}, "f": [1]}
    new: Any = {"a": [1, {"b": 3}], "c": {"x": 1}, "d": {"e": False}, "f": [1, 2]}
    patch = diff(old, new)
    assert apply_patch(json.loads(json.dumps(old)), patch) == new
    assert patch == [[["a", 1, "b"], 3], [["c"], {"x": 1}], [["d", "e"], False], [["f"], 1, 0, [2]]]
    assert diff(new, new) == []
    assert apply_patch(old, diff(old, [1])) == [1]
