"""Writes a room database of schema 5 with a tournament stored as schema 5 stored it, in
one row holding the library's whole snapshot (run with main's code of 2026-12-05 before
the tables of a tournament were stored apart, from the tests' folder): a sit-and-go of
seven entrants (ann, bob and five bots) on two tables, stopped in the middle of a hand
after a few; and beside the database, the tournament as that code held it
(``schema5_tournaments.json``: its row's text and the library's whole snapshot)."""

import json
import sys

from doubleholdem.server.storage.database import SCHEMA_VERSION
from tournaments_room import passive, people_act, registered, sit_and_go

assert SCHEMA_VERSION == 5
room, tournaments, runner, clock = registered(sys.argv[1], sit_and_go(7, bots=5))
while runner.tournament.hands < 6 or not any(t.in_hand for t in runner.tournament.tables.values()):
    if not people_act(runner, ("ann",), passive):  # bob never acts: his deadlines pass
        wait = runner.step(clock.now)
        clock.now += 0.01 if wait is None else max(0.01, min(wait, 5.0))
assert len(runner.tournament.tables) == 2
row = room.store.db.execute("SELECT state FROM tournaments WHERE id = 0").fetchone()[0]
expected = {"row": row, "tournament": runner.tournament.to_json(), "clock": clock.now}
room.store.close()
with open(sys.argv[2], "w") as out:
    json.dump(expected, out, indent=0)
