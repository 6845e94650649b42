"""The ledger on PostgreSQL against SQLite (issue 33: "a durable commit ... in
milliseconds against SQLite's"; benchmarks, not tests).

Run: ``python -m pytest benches/bench_postgres.py --benchmark-enable``. Both databases
durable: a SQLite file in WAL mode with ``synchronous=FULL``; a PostgreSQL cluster
started for the run as the tests start theirs (tests/postgres_cluster.py) but with its
defaults (``fsync``, ``synchronous_commit`` on), over TCP on 127.0.0.1. What is measured:

- a deposit as the command line makes it (:meth:`Bank.deposit`: its own transaction,
  the checks, the transfer, the commit);
- a transfer inside an open transaction (a hand's rake, its commit the table's).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from doubleholdem.accounts import ledger
from doubleholdem.accounts.bank import Bank
from doubleholdem.database.connection import begin
from doubleholdem.server.storage.storage import Storage
from doubleholdem.server.tables.room import Room
from doubleholdem.server.tables.runner import publish
from passwords_double import FAST
from postgres_cluster import Cluster

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench_money's room and hands


@pytest.fixture(params=["sqlite", "postgresql"])
def bank(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Bank]:
    if request.param == "sqlite":
        with Bank(str(tmp_path / "room.db"), passwords=FAST, create=True) as bank:
            bank.db.execute("PRAGMA synchronous=FULL")
            bank.create("ann", "correct horse")
            yield bank
        return
    cluster = request.getfixturevalue("durable")
    with cluster.schema() as url, Bank(url, passwords=FAST, create=True) as bank:
        bank.create("ann", "correct horse")
        yield bank


def test_a_deposit_committed(benchmark: Any, bank: Bank) -> None:
    benchmark.group = "ledger: a deposit in its own transaction, durable commit"
    refs = itertools.count()
    benchmark(lambda: bank.deposit("ann", 5, ref=f"wire-{next(refs)}"))
    benchmark.extra_info["items"] = 1
    assert bank.audit()["ok"]


def test_a_transfer_in_an_open_transaction(benchmark: Any, bank: Bank) -> None:
    benchmark.group = "ledger: a transfer inside an open transaction"
    keys = itertools.count()
    begin(bank.db)
    benchmark(
        lambda: ledger.transfer(
            bank.db, f"rake:{next(keys)}", "deposit", ledger.CASHIER, ledger.HOUSE, 3
        )
    )
    bank.db.execute("COMMIT")
    benchmark.extra_info["items"] = 1


@pytest.mark.parametrize("connections", [1, 4])
def test_deposits_from_several_connections(
    benchmark: Any, durable: Cluster, connections: int
) -> None:
    """Deposits a second, each in its own durable transaction, from ``connections``
    connections at once to one PostgreSQL room: the ledger's writers go one at a time
    (one hash chain), so more connections gain only what they overlap outside the lock."""
    import threading

    benchmark.group = "ledger on PostgreSQL: 200 deposits, durable, from N connections"
    with durable.schema() as url:
        with Bank(url, passwords=FAST, create=True) as bank:
            bank.create("ann", "correct horse")
        banks = [Bank(url, passwords=FAST) for _ in range(connections)]
        rounds = itertools.count()

        def burst() -> None:
            number = next(rounds)

            def send(bank: Bank, part: int) -> None:
                for i in range(part, 200, connections):
                    bank.deposit("ann", 1, ref=f"r{number}-{i}")

            threads = [
                threading.Thread(target=send, args=(bank, part)) for part, bank in enumerate(banks)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()

        benchmark.pedantic(burst, rounds=3, iterations=1)
        benchmark.extra_info["items"] = 200
        assert banks[0].audit()["ok"]
        for bank in banks:
            bank.close()


TICK = 0.001  # how often the stall's ticker asks to wake


def _hand_ends(room: Room, hands: int) -> list[tuple[float, float]]:
    """Plays ``hands`` hands of the room's table 0 on an event loop, each change
    committed by the group commit before the next; for each hand's end (its snapshot,
    its log and index, its ledger entries) the commit's time, from the change made to
    the commit landed, and the event loop's longest stall meanwhile (seconds): the
    longest gap between the wake-ups of a task that asks to wake every ``TICK``
    seconds, less ``TICK``."""
    from bench_money import play

    runner = room.runners[0]
    found: list[tuple[float, float]] = []

    async def scenario() -> None:
        wakes: list[float] = []
        stop = asyncio.Event()

        async def ticker() -> None:
            while not stop.is_set():
                await asyncio.sleep(TICK)
                wakes.append(time.perf_counter())

        async def landed() -> None:
            while not room.commit.idle():
                await asyncio.sleep(TICK / 2)

        ticking = asyncio.create_task(ticker())
        play(runner, 2)  # warm: statements prepared, the ledger's rows made
        await landed()
        for _ in range(hands):
            if runner.bankrolls._bots_short():
                with runner.change():
                    runner.bankrolls._top_up_bots()
                await landed()
            with runner.change():
                runner.table.start_hand(now=100.0)
            await landed()
            while runner.table.in_hand:
                seat = runner.table.to_act
                assert seat is not None
                await asyncio.sleep(2 * TICK)
                runner.bot_turn(seat)  # the change, on the loop: its commit is due
                began = time.perf_counter()
                del wakes[:]
                await landed()
                ended = time.perf_counter()
                await asyncio.sleep(2 * TICK)  # the ticker woke since
                if not runner.table.in_hand:
                    after = [t for t in wakes if t >= ended][:1]
                    times = [began, *(t for t in wakes if t < ended), *(after or [ended])]
                    gaps = [b - a for a, b in zip(times, times[1:])]
                    found.append((ended - began, max(0.0, max(gaps) - TICK)))
        stop.set()
        await ticking

    asyncio.run(scenario())
    return found


def test_a_hands_end_commit_and_the_event_loops_stall(
    durable: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 33: a durable commit of a hand's end with its ledger entries, SQLite
    (``synchronous=FULL``) against PostgreSQL, and the event loop's longest stall during
    it: PostgreSQL's commit on the loop (as before) and on the commit's thread. Side by
    side in one run, interleaved; printed (``-s``)."""
    from bench_money import _room

    hands, rounds = 10, 5
    kinds = ("sqlite", "postgresql, commit on the loop", "postgresql, commit's thread")
    results: dict[str, list[tuple[float, float]]] = {kind: [] for kind in kinds}
    with durable.schema() as on_loop, durable.schema() as off_loop:
        rooms = {
            kinds[0]: _room(tmp_path / "room.db", False, synchronous="full"),
            kinds[1]: _room(on_loop, False),
            kinds[2]: _room(off_loop, False),
        }
        for _ in range(rounds):
            for kind, room in rooms.items():
                with monkeypatch.context() as patched:
                    if kind == kinds[1]:
                        patched.setattr(Storage, "commits_off_loop", property(lambda s: False))
                    results[kind] += _hand_ends(room, hands)
        for room in rooms.values():
            room.store.close()
    print(f"\na hand's end committed ({hands * rounds} hands each), milliseconds")
    print("| room | commit, median | commit, p90 | loop's longest stall, median | max |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for kind, found in results.items():
        commits = sorted(c for c, _ in found)
        stalls = sorted(s for _, s in found)
        print(
            f"| {kind} | {_ms(commits, 0.5)} | {_ms(commits, 0.9)} "
            f"| {_ms(stalls, 0.5)} | {_ms(stalls, 1.0)} |"
        )
        assert found


def _ms(values: list[float], at: float) -> str:
    return f"{values[min(len(values) - 1, int(at * len(values)))] * 1000:.2f}"


def _deposits_a_second(url: str, connections: int, deposits: int, tag: str) -> float:
    """Durable deposits a second, ``deposits`` of them sent from ``connections`` at once."""
    import threading

    banks = [Bank(url, passwords=FAST) for _ in range(connections)]

    def send(bank: Bank, part: int) -> None:
        for i in range(part, deposits, connections):
            bank.deposit("ann", 1, ref=f"{tag}-{i}")

    threads = [threading.Thread(target=send, args=(b, n)) for n, b in enumerate(banks)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    took = time.perf_counter() - began
    for bank in banks:
        bank.close()
    return deposits / took


def test_where_a_movements_time_goes(durable: Cluster) -> None:
    """Issue 33: the ledger's one lock and one chain bound the room's money movements.
    A durable deposit's time on PostgreSQL split into its statements (the ledger's lock
    taken first, so all of it is held under the lock) and its ``COMMIT`` (the flush of
    the write-ahead log); then deposits a second from 1 and 4 connections on the
    cluster as an operator runs it and on one with ``commit_delay`` (2 ms, with
    ``commit_siblings = 1``), side by side. Printed (``-s``)."""
    from doubleholdem.accounts import cashier
    from postgres_cluster import start_cluster

    with durable.schema() as url, Bank(url, passwords=FAST, create=True) as bank:
        bank.create("ann", "correct horse")
        statements, commits = [], []
        for i in range(200):
            began = time.perf_counter()
            begin(bank.db)
            cashier.deposit(bank.db, "ann", 1, ref=f"split-{i}")
            written = time.perf_counter()
            bank.db.execute("COMMIT")
            statements.append(written - began)
            commits.append(time.perf_counter() - written)
        assert bank.audit()["ok"]
    statements.sort()
    commits.sort()
    print("\na durable deposit on PostgreSQL, medians of 200 (all of it under the ledger's lock)")
    print(f"statements {_ms(statements, 0.5)} ms, COMMIT {_ms(commits, 0.5)} ms")
    delayed = start_cluster(settings=("commit_delay=2000", "commit_siblings=1"))
    try:
        clusters = {"defaults": durable, "commit_delay 2 ms": delayed}
        rates: dict[tuple[str, int], list[float]] = {}
        with durable.schema() as plain, delayed.schema() as late:
            urls = {"defaults": plain, "commit_delay 2 ms": late}
            for url in urls.values():
                with Bank(url, passwords=FAST, create=True) as made:
                    made.create("ann", "correct horse")
            for round_ in range(3):
                for name in clusters:
                    for connections in (1, 4):
                        rate = _deposits_a_second(
                            urls[name], connections, 200, f"r{round_}-{connections}"
                        )
                        rates.setdefault((name, connections), []).append(rate)
    finally:
        delayed.stop()
    print("| cluster | deposits a second, 1 connection | 4 connections |")
    print("| --- | ---: | ---: |")
    for name in clusters:
        one, four = (sorted(rates[(name, n)])[1] for n in (1, 4))
        print(f"| {name} | {one:.0f} | {four:.0f} |")


def test_fencing_and_the_leases_cost(durable: Cluster) -> None:
    """Issue 33: a hand's end committed on PostgreSQL with its tables' leases fenced by
    the writer (the commit's first statement locks them, ``SELECT ... FOR SHARE``, and
    declares the epochs it writes under) and by the database (schema 7: its triggers
    check each row of the table's state and money against the lease), against the same
    commit fenced by the writer alone (the triggers dropped: as before schema 7) and
    unfenced (as before leases), side by side in one run, interleaved; and what a
    heartbeat costs (one row renewing every lease of a process) and a takeover's
    acquire. Printed (``-s``)."""
    from doubleholdem.database.url import connect
    from doubleholdem.server.cluster import leases

    hands, rounds = 10, 5
    with contextlib.ExitStack() as schemas:
        urls = tuple(schemas.enter_context(durable.schema()) for _ in FENCED_KINDS)
        results = _fenced_hand_ends(urls, hands, rounds)
        db = connect(urls[-1])
        try:
            leases.register(db, "bench", "http://bench", lock=None)
            beats = []
            for _ in range(200):
                began = time.perf_counter()
                leases.heartbeat(db, "bench")
                beats.append(time.perf_counter() - began)
            acquires = []
            for _ in range(50):
                began = time.perf_counter()
                leases.acquire(db, "bench", want=1, steal=True)
                acquires.append(time.perf_counter() - began)
                leases.release(db, "bench", [0])
        finally:
            db.close()
    _print_fenced(f"a hand's end committed on PostgreSQL ({hands * rounds} hands each)", results)
    beats.sort()
    acquires.sort()
    print(
        f"heartbeat (renews all of a process's leases): median {_ms(beats, 0.5)} ms, "
        f"p90 {_ms(beats, 0.9)} ms; a takeover's acquire: median {_ms(acquires, 0.5)} ms"
    )


FENCED_KINDS = (
    "unfenced (before leases)",
    "fenced by the writer (before schema 7)",
    "fenced by the writer and schema 8's triggers",
    "fenced by the writer and the database (schema 9)",
)
# the fencing triggers of schema 7 (and 8): a table's state and money
SCHEMA_7_TRIGGERS = tuple(
    f"doubleholdem_fence_{name}"
    for name in ("tables", "heads", "moves", "hands", "ledger_accounts")
)


def _drop_triggers(room: Room, *, keep: tuple[str, ...] = ()) -> None:
    """Drops the fencing triggers of ``room``'s database but those of ``keep``."""
    from doubleholdem.server.cluster.fencing import FENCE_TRIGGERS

    for name, table in FENCE_TRIGGERS.items():
        if name not in keep:
            room.store.db.execute(f"DROP TRIGGER {name} ON {table}").close()


def _fenced_hand_ends(
    urls: tuple[str, ...], hands: int, rounds: int
) -> dict[str, list[tuple[float, float]]]:
    """:func:`_hand_ends` of a room at each of ``urls``, one of each kind of
    :data:`FENCED_KINDS` (the database's fencing triggers dropped from the first two,
    those schema 9 added from the third), interleaved round by round."""
    from bench_money import _room

    rooms = {kind: _room(url, False) for kind, url in zip(FENCED_KINDS, urls)}
    rooms[FENCED_KINDS[0]].store.fencing.process = None
    _drop_triggers(rooms[FENCED_KINDS[0]])
    _drop_triggers(rooms[FENCED_KINDS[1]])
    _drop_triggers(rooms[FENCED_KINDS[2]], keep=SCHEMA_7_TRIGGERS)
    results: dict[str, list[tuple[float, float]]] = {kind: [] for kind in FENCED_KINDS}
    try:
        for _ in range(rounds):
            for kind, room in rooms.items():
                results[kind] += _hand_ends(room, hands)
    finally:
        for room in rooms.values():
            room.store.close()
    return results


def _print_fenced(title: str, results: dict[str, list[tuple[float, float]]]) -> None:
    print(f"\n{title}, milliseconds")
    print("| room | commit, median | commit, p90 |")
    print("| --- | ---: | ---: |")
    for kind, found in results.items():
        commits = sorted(c for c, _ in found)
        print(f"| {kind} | {_ms(commits, 0.5)} | {_ms(commits, 0.9)} |")
        assert found


def test_the_database_fencing_cost_without_the_disk() -> None:
    """Issue 33: :func:`test_fencing_and_the_leases_cost`'s four rooms on a cluster
    that does not flush (``fsync`` and ``synchronous_commit`` off, as the tests run
    theirs): the commit is then its statements and the server's work, the fencing
    triggers' cost no longer hidden under a disk flush. Printed (``-s``)."""
    from postgres_cluster import start_cluster

    cluster = start_cluster()
    try:
        with contextlib.ExitStack() as schemas:
            urls = tuple(schemas.enter_context(cluster.schema()) for _ in FENCED_KINDS)
            results = _fenced_hand_ends(urls, 20, 5)
    finally:
        cluster.stop()
    _print_fenced("a hand's end committed on PostgreSQL without flushing (100 hands each)", results)


def test_a_hands_writes_with_and_without_the_fencing_triggers() -> None:
    """Issue 33: the fencing triggers' own cost, apart from the event loop and the disk:
    a hand's writes at one table (ten moves, each with a player's action id, then its
    end: the snapshot that drops them, its head, its log and index, its action ids
    forgotten, a chat line, its lobby row, its rake in the ledger) in one transaction
    and committed, on a cluster that does not flush, by a room with the database's
    fencing triggers of schema 9, one with those of schema 7 and 8 only and one with
    them dropped (its writer fences alike), interleaved, 300 transactions each.
    Printed (``-s``)."""
    from bench_money import _room, play
    from doubleholdem.accounts.wallet import LedgerWallet
    from postgres_cluster import start_cluster

    kinds = ("triggers dropped (before schema 7)", "schema 8's triggers", "schema 9's triggers")
    found: dict[str, list[float]] = {kind: [] for kind in kinds}
    cluster = start_cluster()
    try:
        with contextlib.ExitStack() as schemas:
            urls = [schemas.enter_context(cluster.schema()) for _ in kinds]
            rooms = {kind: _room(url, False) for kind, url in zip(kinds, urls)}
            _drop_triggers(rooms[kinds[0]])
            _drop_triggers(rooms[kinds[1]], keep=SCHEMA_7_TRIGGERS)
            for room in rooms.values():
                play(room.runners[0], 2)  # statements prepared, the ledger's rows made
            for number in range(300):
                for kind, room in rooms.items():
                    found[kind].append(_a_hands_writes(room, number, LedgerWallet))
            for room in rooms.values():
                room.store.close()
    finally:
        cluster.stop()
    print("\na hand's writes at one table, one transaction, no flush: milliseconds")
    print("| room | median | p90 |")
    print("| --- | ---: | ---: |")
    for kind, times in found.items():
        times.sort()
        print(f"| {kind} | {_ms(times, 0.5)} | {_ms(times, 0.9)} |")


def _a_hands_writes(room: Room, number: int, wallet: Any) -> float:
    """Seconds of one transaction of a hand's writes at table 0 (see the caller)."""
    store = room.store
    snapshot = room.runners[0].table.to_json()
    hand = 10_000 + number
    began = time.perf_counter()
    with store.transaction():
        for move in range(10):
            store.put_move(0, '["advance", 100.0]')
            store.seat_tokens.put_action("bench-token", f"{hand}-{move}", 0, hand)
        store.put_table(0, snapshot)
        store.put_hand(0, hand, [{"kind": "hand_end", "at": 100.0}])
        store.seat_tokens.forget_actions(0, hand)
        store.put_chat(0, hand, {"text": "gg"})
        publish(store, 0, '{"id": 0}', None)
        store.fencing.writes(store.db, 0)
        wallet(store.db).rake(0, 1, key=f"bench-rake:{number}")
    return time.perf_counter() - began
