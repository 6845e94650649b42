"""Writes a server database of schema 4 with finished hands (run with main's code of
Dec 2026, before the hand index): a guest room of two tables of bots that played a few
hands, and four hands of ann, bob and cy at table 0 (numbers 101 to 104, played by
calling stations), stored as the room stores a finished hand."""

import asyncio
import sys

from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage.database import SCHEMA_VERSION
from doubleholdem.server.tables.room import Room
from doubleholdem.table import Table, TableConfig
from doubleholdem.table.bots import CallingStation
from doubleholdem.table.history import hand_record

assert SCHEMA_VERSION == 4
settings = RoomSettings(tables=2, bots=2, seed=7, bot_delay=0.0, pause=0.0, guests=True)
room = Room.open(sys.argv[1], settings)


async def play() -> None:
    await room.start()
    while min(r.table.hand_number for r in room.runners.values()) < 6:
        await asyncio.sleep(0)
    await room.stop()


asyncio.run(play())
room = Room.open(sys.argv[1], settings)
table = Table(TableConfig(small_blind=5, big_blind=10, seats=3), seed=5)
for seat, name in enumerate(("ann", "bob", "cy")):
    table.join(seat, name, 1000, now=1000.0)
for number in range(101, 105):
    table.start_hand(now=1000.0 + number)
    while table.in_hand:
        seat = table.to_act
        table.decide(seat, CallingStation().choose(table.observe(seat)), now=1000.0 + number)
    with room.store.transaction():
        room.store.put_hand(0, number, [*table.release_history(), hand_record(table, table_id=0)])
room.store.close()
