"""The size of a tournament watcher's patches (issue 34: sized by the change, not by the
entrants): a scheduled tournament of ENTRANTS (bots and one person) on tables of 9, with
late registration, watched by a spectator over the room's sockets (no event loop: each
change committed at once, in-memory SQLite); one person registers while it is watched,
then it starts and CHANGES changes are played. For each ``tournament_update`` sent, side
by side on the same pair of views: the room's patch (doubleholdem.server.patches), the
patch of the previous format (arrays that grew or shrank sent whole), and RFC 6902's
``jsonpatch.make_patch`` (python-json-patch), in bytes of compact JSON, with the time
to make each; and the whole view's size. Then, per change of play, the event loop's
time to make what every watcher shares and its patch, side by side on the same states:
made whole and compared whole (``views.detail`` and ``diff``, as every push did before)
and made from the last view's parts (``SharedView``, as a push does now).

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
from doubleholdem.server.tournaments import views
from doubleholdem.server.tournaments.shared_view import SharedView
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


class Timed:
    """Seconds a push spends in the :class:`SharedView` (its update and the patch from
    the view held), once a change."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._update, self._patch_from = SharedView.update, SharedView.patch_from
        SharedView.update = self._timing(self._update)  # type: ignore[method-assign]
        SharedView.patch_from = self._timing(self._patch_from)  # type: ignore[method-assign]

    def _timing(self, real: Any) -> Any:
        def timed(*args: Any) -> Any:
            started = time.perf_counter()
            try:
                return real(*args)
            finally:
                self.seconds += time.perf_counter() - started

        return timed

    def close(self) -> None:
        SharedView.update, SharedView.patch_from = self._update, self._patch_from  # type: ignore[method-assign]


def made_whole(runner: Any, now: float, last: Any) -> tuple[Any, float]:
    """What every watcher shares made whole and compared whole with ``last`` (as every
    push did before), and the seconds it took."""
    started = time.perf_counter()
    shared = views.detail(runner.stored, runner.tournament, now, None)
    shared["deal"] = copy.deepcopy(shared["deal"])
    diff(last, shared)
    return shared, time.perf_counter() - started


def _person_acts(runner: Any) -> bool:
    """The person (ann) checks or folds if it is its turn: True if it did."""
    own = runner.tournament.entries_of("ann")
    number = own[-1].table if own else None
    table = None if number is None else runner.tournament.tables[number]
    if table is None or not table.in_hand or table.to_act != own[-1].seat:
        return False
    legal = table.legal_actions()
    runner.act("ann", table.hand_number, "check" if legal.can_check else "fold", None)
    return True


def measure(entrants: int, changes: int) -> dict[str, list[tuple[int, float]]]:
    """Per method, (bytes, seconds) of each update's patch; "registration" apart; the
    seconds per change of play to make the shared view whole ("made whole") and from
    its parts ("made from parts")."""
    timed = Timed()
    try:
        return _measure(entrants, changes, timed)
    finally:
        timed.close()


def _measure(entrants: int, changes: int, timed: Timed) -> dict[str, list[tuple[int, float]]]:
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
    last = views.detail(runner.stored, runner.tournament, clock.now, None)
    found["made whole"], found["made from parts"] = [], []
    found["one table: made whole"], found["one table: made from parts"] = [], []
    while done < changes and runner.stored.status != "finished":
        version = runner.version
        timed.seconds = 0.0
        one = _person_acts(runner)  # a change at one table
        wait = None if one else runner.step(clock.now)  # a step at every table due
        if runner.version == version:
            clock.now += 0.01 if wait is None else max(0.01, min(wait, 5.0))
            continue
        last, whole = made_whole(runner, clock.now, last)
        if done:  # the first change is the start
            prefix = "one table: " if one else ""
            found[f"{prefix}made whole"].append((0, whole))
            found[f"{prefix}made from parts"].append((0, timed.seconds))
        done += runner.version - version
        read("play" if done > 1 else "start")
    room.store.close()
    return found


def main() -> None:
    given = [int(a) for a in sys.argv[1:3]]
    entrants, changes = given + [1000, 300][len(given) :]
    found = measure(entrants, changes)
    whole = statistics.median(size for size, _ in found.pop("whole"))
    made = {name: sorted(s * 1000 for _, s in found.pop(name))
            for name in ("made whole", "made from parts", "one table: made whole",
                         "one table: made from parts")}  # fmt: skip
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
    print()
    print("| a change of play: the shared view and its patch | changes | median ms | p99 | max |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, ms in made.items():
        if ms:
            p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
            print(f"| {name} | {len(ms)} | {statistics.median(ms):.3f} | {p99:.3f} "
                  f"| {ms[-1]:.3f} |")  # fmt: skip
    for prefix in ("", "one table: "):
        whole, parts = made[f"{prefix}made whole"], made[f"{prefix}made from parts"]
        if whole and parts:
            ratio = statistics.median(whole) / statistics.median(parts)
            print(f"{prefix or 'every table due: '}made from parts {ratio:.1f}x faster (medians)")


if __name__ == "__main__":
    main()
