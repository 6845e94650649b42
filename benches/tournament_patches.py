"""The size of a tournament watcher's patches (issue 34: sized by the change, not by the
entrants): a scheduled tournament of ENTRANTS (bots and one person) on tables of 9, with
late registration, watched by a spectator over the room's sockets (no event loop: each
change committed at once, in-memory SQLite); one person registers while it is watched,
then it starts and CHANGES changes are played. For each ``tournament_update`` sent, side
by side on the same pair of views: the room's patch (doubleholdem.server.patches), the
patch of the previous format (arrays that grew or shrank sent whole), and RFC 6902's
``jsonpatch.make_patch`` (python-json-patch), in bytes of compact JSON, with the time
to make each; and the whole view's size.

    PYTHONPATH=python python3 benches/tournament_patches.py [ENTRANTS] [CHANGES]
"""

from __future__ import annotations

import copy
import json
import statistics
import sys
import time
from typing import Any

import jsonpatch

from doubleholdem.server.patches import apply_patch, diff
from doubleholdem.server.protocol import TournamentWatch
from tournament_push import Clock, watched_room

START = 2000.0


def whole_arrays(old: Any, new: Any, path: list[Any] | None = None) -> list[list[Any]]:
    """The previous format's patch: objects that keep their keys and arrays that keep
    their length member by member, anything else sent whole."""
    path = [] if path is None else path
    if type(old) is type(new) and old == new:
        return []
    if type(old) is dict and type(new) is dict and old.keys() == new.keys():
        return [op for k in new for op in whole_arrays(old[k], new[k], [*path, k])]
    if type(old) is list and type(new) is list and len(old) == len(new):
        return [op for i, v in enumerate(new) for op in whole_arrays(old[i], v, [*path, i])]
    return [[path, new]]


def _bytes(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":")))


def _timed(make: Any, old: Any, new: Any) -> tuple[int, float]:
    started = time.perf_counter()
    patch = make(old, new)
    seconds = time.perf_counter() - started
    return _bytes(patch if isinstance(patch, list) else patch.patch), seconds


def measure(entrants: int, changes: int) -> dict[str, list[tuple[int, float]]]:
    """Per method, (bytes, seconds) of each update's patch; "registration" apart."""
    clock = Clock()
    room, tournaments, sockets = watched_room(":memory:", {
        "name": "mtt", "kind": "scheduled", "capacity": entrants + 10, "seats": 9,
        "starting_stack": 5000, "buy_in": 10, "fee": 1, "bots": entrants - 1,
        "level_by": "hands", "level_length": 10, "late_registration": 2,
        "start_at": START, "pause": 0}, clock)  # fmt: skip
    spectator = room.connect()
    sockets.handle(spectator, TournamentWatch(0))
    runner = tournaments.runner(0)
    held: Any = None
    found: dict[str, list[tuple[int, float]]] = {"whole": [], "registration": []}

    def read(kind: str) -> None:
        nonlocal held
        while not spectator.outbox.empty():
            message = json.loads(str(spectator.outbox.get_nowait()))
            if message["type"] == "tournament":
                held = message["view"]
            if message["type"] != "tournament_update":
                continue
            before = copy.deepcopy(held)
            held = apply_patch(held, message["patch"])
            found["whole"].append((_bytes(held), 0.0))
            for name, make in (("room", diff), ("previous", whole_arrays),
                               ("jsonpatch", jsonpatch.make_patch)):  # fmt: skip
                found.setdefault(f"{kind} {name}", []).append(_timed(make, before, held))

    read("start")
    tournaments.register(0, "ann")
    read("registration")
    clock.now = START
    done = 0
    while done < changes and runner.stored.status != "finished":
        version = runner.version
        wait = runner.step(clock.now)
        if runner.version == version:
            clock.now += 0.01 if wait is None else max(0.01, min(wait, 5.0))
        done += runner.version - version
        read("play" if done > 1 else "start")  # the first change is the start
    room.store.close()
    return found


def main() -> None:
    given = [int(a) for a in sys.argv[1:3]]
    entrants, changes = given + [1000, 300][len(given) :]
    found = measure(entrants, changes)
    whole = statistics.median(size for size, _ in found.pop("whole"))
    print(f"{entrants} entrants, {changes} changes; the whole view {whole / 1024:.1f} KiB")
    print("| change | method | updates | median bytes | p99 | max | median ms to make |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for name, rows in found.items():
        sizes = sorted(size for size, _ in rows)
        if not sizes:
            continue
        ms = statistics.median(seconds for _, seconds in rows) * 1000
        p99 = sizes[min(len(sizes) - 1, int(len(sizes) * 0.99))]
        kind, method = name.split()
        print(f"| {kind} | {method} | {len(sizes)} | {statistics.median(sizes):.0f} | {p99} "
              f"| {sizes[-1]} | {ms:.2f} |")  # fmt: skip


if __name__ == "__main__":
    main()
