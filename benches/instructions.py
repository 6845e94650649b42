"""Instructions the game and the table cost, counted by callgrind (issue 18's speed
guard: the VM's speed drifts too much for a 3% comparison by the clock, instruction
counts do not). Two workloads:

- ``replay``: a run replays the first N files of ``tests/data/phh/pluribus`` with
  :func:`doubleholdem.game.phh.load` and :func:`~doubleholdem.game.phh.replay`;
- ``simulate``: a run plays N hands of :func:`doubleholdem.table.simulate.simulate`
  (six seats of fixed-limit Double Hold'em, calling stations and random
  players, seed 1: the rules and the table only, no equity bots);
- ``fold``, ``showdown``, ``six``, ``phh``: a hand's construction and settlement
  (issue 21): N heads-up no-limit hands built from one prepared config and a seeded
  generator, the first to act folding (``fold``) or both checking down to the showdown
  (``showdown``); six seats checking down (``six``); ``showdown`` with each hand
  written as PHH text (``phh``);
- ``room-guests``, ``room-accounts``: N hands of ``benches/bench_money.py``'s room on a
  SQLite file (one six-seat table of calling stations, every change its own commit, no
  event loop), a guest room and a room with accounts (issue 33's "SQLite room speed");
- ``served``: a served room with accounts on a SQLite file, on its event loop (the
  group commit), two tables of three bots with bankrolls, a watcher at each, until each
  table has dealt N hands.

A unit's cost (a file, a hand) is (total at N = 201 - total at N = 1) / 200 (the rooms:
at N = 30 - at N = 10, ``ROOM_COUNTS``): imports and start-up cancel out. The hash seed
moves the count by up to 2%, so each tree is compared with itself seed by seed.

Compare two source trees (each a checkout with its ``python/doubleholdem/_core*.so``):

    python3 benches/instructions.py compare BEFORE AFTER --workload replay --seeds 0 1 2 3

which runs, for each tree, seed and N, ``PYTHONHASHSEED=S PYTHONPATH=TREE/python
valgrind --tool=callgrind PYTHON benches/instructions.py run WORKLOAD N`` (the real
interpreter binary, ``sys.executable`` resolved, not a pyenv shim). ``run WORKLOAD N``
alone runs the workload; ``measure TREE`` gives one tree's figures. ``--main-thread``
counts the main thread only (callgrind's ``--separate-threads=yes``): a SQLite room's
write-ahead log is checkpointed by a thread of its own woken by the wall clock, whose
share moves from run to run (the room workloads checkpoint only as the room closes).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

PLURIBUS = Path(__file__).resolve().parent.parent / "tests/data/phh/pluribus"
FEW, MANY = 1, 201
ROOM_COUNTS = (10, 30)  # hands of the room workloads (a hand costs some 17 million)


def replay_files(count: int) -> None:
    """Replays the first ``count`` Pluribus files."""
    from doubleholdem.game.phh import load, replay

    for path in sorted(PLURIBUS.glob("*.phh"))[:count]:
        replay(load(path))


def simulate_hands(count: int) -> None:
    """Plays ``count`` hands of six seats of fixed-limit Double Hold'em."""
    from doubleholdem.table.simulate import simulate

    simulate(
        hands=count,
        players=6,
        variant="double",
        structure="fixed-limit",
        seed=1,
        bots=("station", "random"),
    )


def built_hands(count: int, players: int, fold: bool, phh: bool = False) -> None:
    """Builds ``count`` no-limit Texas hands of ``players`` seats from one config and a
    seeded generator; the first to act folds (``fold``) or everyone checks or calls to
    the showdown; each hand written as PHH text if ``phh``."""
    import random

    from doubleholdem.game import GameConfig, Hand
    from doubleholdem.game.phh import dumps

    config = GameConfig(stacks=(200,) * players, small_blind=1, big_blind=2)
    rng = random.Random(1)
    for _ in range(count):
        hand = Hand(config, rng=rng)
        if fold:
            hand.fold()
        while not hand.over:
            hand.check_or_call()
        if phh:
            dumps(hand)


def _no_checkpoints() -> None:
    """The room's write-ahead log is not checkpointed while it plays (only as it
    closes): the checkpoint thread wakes by the wall clock, so where its checkpoints
    fall, and how long a log the main thread reads through, moved the count of a
    run by up to 5%."""
    from doubleholdem.server.storage import database

    database.CHECKPOINT_SECONDS = 3600.0


def room_hands(count: int, guests: bool) -> None:
    """``count`` hands of ``bench_money``'s room (guests or accounts) on a new file."""
    import tempfile

    _no_checkpoints()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_money import _room, play

    with tempfile.TemporaryDirectory() as folder:
        room = _room(Path(folder) / "room.db", guests)
        play(room.runners[0], count)
        room.store.close()


def served_hands(count: int) -> None:
    """A served room with accounts on a new file: its tables' bots play until each
    table has dealt ``count`` hands, a watcher at each table."""
    import asyncio
    import tempfile

    from doubleholdem.server.settings import RoomSettings
    from doubleholdem.server.tables.room import Room

    _no_checkpoints()
    settings = RoomSettings(
        tables=2, bots=3, bot_delay=0.0, pause=0.0, seed=5, guests=False, bot_bankroll=10**12
    )

    async def play(room: Room) -> None:
        await room.start()
        try:
            for runner in room.runners.values():
                connection = room.connect()
                connection.outbox.put_nowait = lambda text: None  # type: ignore[method-assign]
                room._watch(connection, runner, None)
            while any(r.table.hand_number <= count for r in room.runners.values()):
                await asyncio.sleep(0.01)
        finally:
            await room.stop()

    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(play(Room.open(str(Path(folder) / "room.db"), settings)))


WORKLOADS = {
    "replay": replay_files,
    "simulate": simulate_hands,
    "fold": lambda count: built_hands(count, 2, fold=True),
    "showdown": lambda count: built_hands(count, 2, fold=False),
    "six": lambda count: built_hands(count, 6, fold=False),
    "phh": lambda count: built_hands(count, 2, fold=False, phh=True),
    "room-guests": lambda count: room_hands(count, guests=True),
    "room-accounts": lambda count: room_hands(count, guests=False),
    "served": served_hands,
}


def instructions(tree: Path, workload: str, seed: int, count: int, main_thread: bool) -> int:
    """Callgrind's total instructions of ``run workload count`` on ``tree``'s package
    (of its main thread only if ``main_thread``)."""
    env = {
        **os.environ,
        "PYTHONHASHSEED": str(seed),
        "PYTHONPATH": str(tree / "python"),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "callgrind.out"
        threads = ["--separate-threads=yes"] if main_thread else []
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                *threads,
                f"--callgrind-out-file={out}",
                os.path.realpath(sys.executable),
                __file__,
                "run",
                workload,
                str(count),
            ],
            env=env,
            check=True,
            capture_output=True,
        )
        written = Path(f"{out}-01") if main_thread else out
        found = re.search(r"^totals: (\d+)", written.read_text(), re.MULTILINE)
        assert found is not None, "callgrind wrote no totals"
        return int(found.group(1))


def per_unit(tree: Path, workload: str, seed: int, main_thread: bool = False) -> float:
    """Instructions a unit of ``workload`` costs on ``tree`` under hash seed ``seed``."""
    few, many = ROOM_COUNTS if workload.startswith(("room", "served")) else (FEW, MANY)
    counted = [instructions(tree, workload, seed, n, main_thread) for n in (many, few)]
    return (counted[0] - counted[1]) / (many - few)


def compare(
    before: Path, after: Path, workload: str, seeds: list[int], main_thread: bool = False
) -> None:
    """Prints a Markdown table of the cost of a unit before and after, seed by seed."""
    print("| PYTHONHASHSEED | before | after | after / before |")
    print("| --- | ---: | ---: | ---: |")
    for seed in seeds:
        old = per_unit(before, workload, seed, main_thread)
        new = per_unit(after, workload, seed, main_thread)
        print(f"| {seed} | {old:,.0f} | {new:,.0f} | {100 * (new / old - 1):+.1f}% |", flush=True)


def measure(tree: Path, workload: str, seeds: list[int], main_thread: bool = False) -> None:
    """Prints the cost of a unit on one tree, seed by seed."""
    for seed in seeds:
        cost = per_unit(tree, workload, seed, main_thread)
        print(f"PYTHONHASHSEED={seed}: {cost:,.0f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run N units of a workload (under callgrind)")
    run.add_argument("workload", choices=WORKLOADS)
    run.add_argument("count", type=int)
    both = commands.add_parser("compare", help="instructions a unit, tree against tree")
    both.add_argument("before", type=Path)
    both.add_argument("after", type=Path)
    one = commands.add_parser("measure", help="instructions a unit on one tree")
    one.add_argument("tree", type=Path)
    for command in (both, one):
        command.add_argument("--workload", choices=WORKLOADS, default="replay")
        command.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3])
        command.add_argument("--main-thread", action="store_true", help="its main thread only")
    args = parser.parse_args()
    if args.command == "run":
        WORKLOADS[args.workload](args.count)
    elif args.command == "measure":
        measure(args.tree.resolve(), args.workload, args.seeds, args.main_thread)
    else:
        before, after = args.before.resolve(), args.after.resolve()
        compare(before, after, args.workload, args.seeds, args.main_thread)


if __name__ == "__main__":
    main()
