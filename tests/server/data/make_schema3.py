"""Writes a server database of schema 3. It ran once, on commit 345871e (the last of schema
3): check that commit out to run it again, as these imports are that commit's module paths
(the server's tree moved them later; the file it wrote, schema3.db, is what the tests read)."""

import sys

from doubleholdem.server.room import Room
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage import SCHEMA_VERSION
from doubleholdem.table import Decision

assert SCHEMA_VERSION == 3
room = Room.open(sys.argv[1], RoomSettings(tables=2, bots=2, seed=7, clock=lambda: 100.0))
r0 = room.runners[0]
with r0.change():
    r0.table.join(3, "ann", 500, now=100.0)
with r0.change():
    r0.table.start_hand(now=100.0)
for _ in range(2):  # a hand in progress: chips in the pot
    with r0.change(moves=True):
        seat = r0.table.to_act
        r0.decide(seat, Decision("call"), 100.0)
r1 = room.runners[1]
with r1.change():
    r1.table.join(4, "Bob Lee", 300, now=100.0)
print({i: (r.table.chips(), r.table.in_hand) for i, r in room.runners.items()})
room.store.close()
