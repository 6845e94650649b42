"""The group commit on PostgreSQL runs its transactions on a worker thread
(python/doubleholdem/server/storage/commit.py): the event loop goes on meanwhile, and
commits land back on it in order, their replies sent only then; a failed commit undoes
the changes gathered on top of it too. On SQLite the commit stays on the loop."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator

import pytest

from doubleholdem.server.storage.commit import GroupCommit
from doubleholdem.server.storage.storage import Storage


class Inbox:
    def __init__(self) -> None:
        self.texts: list[str] = []

    def send(self, text: str) -> None:
        self.texts.append(text)


@pytest.fixture
def store(room_db: str) -> Iterator[Storage]:
    store = Storage(room_db)
    yield store
    store.close()


def _table(table_id: int) -> Callable[[Storage], None]:
    return lambda s: s.add_table(table_id, f'{{"snapshot": {table_id}}}', {})


async def _until(done: Callable[[], bool]) -> None:
    """Turns the event loop until ``done()`` (a bounded number of turns)."""
    for _ in range(10_000):
        if done():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("never happened")


def test_the_commit_runs_on_the_commit_thread_while_the_loop_goes_on(store: Storage) -> None:
    off_loop = store.commits_off_loop
    assert off_loop == store.path.startswith("postgresql")

    async def scenario() -> None:
        commit = GroupCommit(store)
        loop_thread = threading.get_ident()
        release = threading.Event()
        seen: list[int] = []
        inbox = Inbox()

        def blocking(s: Storage) -> None:
            seen.append(threading.get_ident())
            if threading.get_ident() != loop_thread:
                release.wait()  # until the event loop, still turning, says so
            _table(0)(s)

        commit.later([blocking], lambda: None)
        commit.post(inbox, "table 0 made")
        await asyncio.sleep(0)  # the flush
        if not off_loop:  # SQLite: committed on the loop, then sent
            assert seen == [loop_thread] and inbox.texts == ["table 0 made"]
            return
        await _until(lambda: bool(seen))
        assert seen[0] != loop_thread
        assert inbox.texts == [] and not commit.idle()  # nothing sent before the commit
        assert not commit.ready.is_set()  # the tables' own moves wait for it
        release.set()  # the loop turned while the commit waited
        await _until(commit.idle)
        assert inbox.texts == ["table 0 made"] and store.count() == 1
        assert commit.ready.is_set()

    asyncio.run(scenario())


def test_commits_land_in_order_each_replies_after_its_own(store: Storage) -> None:
    async def scenario() -> None:
        commit = GroupCommit(store)
        release = threading.Event()
        inbox = Inbox()
        counted: list[tuple[str, int]] = []

        def first(s: Storage) -> None:
            if s.commits_off_loop:
                release.wait()
            _table(0)(s)

        commit.later([first], lambda: None)
        commit.post(inbox, "first")
        await asyncio.sleep(0)
        # gathered while the first commit is in flight: the next commit's
        commit.later([_table(1)], lambda: None, lambda: counted.append(("ended", store.count())))
        commit.post(inbox, "second")
        await asyncio.sleep(0)
        if store.commits_off_loop:
            assert inbox.texts == []
            release.set()
        await _until(lambda: commit.idle() and len(inbox.texts) == 2)
        assert inbox.texts == ["first", "second"]
        assert counted == [("ended", 2)]  # after its own commit, before its replies

    asyncio.run(scenario())


def test_a_failed_commit_undoes_what_was_gathered_on_top_of_it(store: Storage) -> None:
    async def scenario() -> None:
        commit = GroupCommit(store)
        release = threading.Event()
        inbox = Inbox()
        undone: list[str] = []

        def failing(s: Storage) -> None:
            if s.commits_off_loop:
                release.wait()
            _table(0)(s)
            raise OSError("the disk is full")

        commit.later([failing], lambda: undone.append("first"))
        commit.post(inbox, "first done")
        commit.instead(inbox, "first refused")
        commit.applying.add(("token", "a1"))
        await asyncio.sleep(0)
        commit.later([_table(1)], lambda: undone.append("second"))
        commit.post(inbox, "second done")
        commit.instead(inbox, "second refused")
        commit.applying.add(("token", "a2"))
        release.set()
        await _until(lambda: bool(undone) and commit._flush is None)
        if store.commits_off_loop:  # the second was gathered on top of the first
            assert commit.refusing == "the disk is full"
            assert sorted(undone) == ["first", "second"]
            assert inbox.texts == ["first refused", "second refused"]
            assert commit.applying == set()
            assert store.count() == 0 and not store.in_transaction
            await _until(lambda: commit.refusing is None)  # the heartbeat commit
        else:  # on the loop, the first failed before the second was made
            assert undone == ["first"] and inbox.texts == ["first refused", "second done"]
            assert store.count() == 2
        commit.later([_table(2)], lambda: undone.append("third"))
        await _until(commit.idle)
        assert store.count() == 3 and "third" not in undone

    asyncio.run(scenario())


def test_a_payment_waits_for_the_commit_in_flight_and_joins_the_next(store: Storage) -> None:
    async def scenario() -> None:
        commit = GroupCommit(store)
        release = threading.Event()
        inbox = Inbox()

        def first(s: Storage) -> None:
            release.wait()
            _table(0)(s)

        commit.later([first], lambda: None)
        await asyncio.sleep(0)
        threading.Timer(0.05, release.set).start()  # the commit in flight ends
        with commit.paying():  # waits for it, then writes into the next transaction
            store.add_table(1, '{"snapshot": 1}', {})
        assert store.in_transaction
        commit.later([_table(2)], lambda: None)
        commit.post(inbox, "paid")
        await _until(lambda: commit.idle() and inbox.texts == ["paid"])
        assert store.count() == 3 and not store.in_transaction

    if not store.commits_off_loop:
        pytest.skip("SQLite commits on the event loop: no commit is ever in flight")
    asyncio.run(scenario())


def test_stopping_lands_the_commit_in_flight_first(store: Storage) -> None:
    async def scenario() -> None:
        commit = GroupCommit(store)
        inbox = Inbox()
        commit.later([_table(0)], lambda: None)
        commit.post(inbox, "first")
        await asyncio.sleep(0)
        commit.later([_table(1)], lambda: None)
        commit.post(inbox, "last")
        commit.stopping = True
        commit.flush()  # as the room stops: both committed, in order, before it returns
        assert inbox.texts == ["first", "last"] and commit.idle()
        assert store.count() == 2

    asyncio.run(scenario())


def test_a_transaction_begun_elsewhere_waits_for_the_commit_in_flight(store: Storage) -> None:
    """A write committed at once from the loop (a wallet call's note) while a commit is
    in flight on the commit's thread waits for it and is a transaction of its own: it
    never joins the commit's transaction unawares."""
    from doubleholdem.database.url import connect

    async def scenario() -> None:
        commit = GroupCommit(store)
        release = threading.Event()

        def first(s: Storage) -> None:
            release.wait()
            _table(0)(s)

        commit.later([first], lambda: None)
        await asyncio.sleep(0)
        threading.Timer(0.05, release.set).start()  # the commit in flight ends
        with store.transaction():  # on the loop, as wallet_calls writes
            store.add_table(1, '{"snapshot": 1}', {})
        other = connect(store.path)
        try:  # committed as the block ended, with the commit before it
            assert other.execute("SELECT COUNT(*) FROM tables").fetchone()[0] == 2
        finally:
            other.close()
        await _until(commit.idle)
        commit.later([_table(2)], lambda: None)
        await _until(commit.idle)
        assert store.count() == 3 and not store.in_transaction

    if not store.commits_off_loop:
        pytest.skip("SQLite commits on the event loop: no commit is ever in flight")
    asyncio.run(scenario())


def test_a_failed_commit_still_sends_the_answers_posted_with_it(store: Storage) -> None:
    """An answer (a reply that no change made: an error, an ``elsewhere``, a watch's
    state) goes after the commit whether it succeeds or fails, in its place. Posted, it
    went down with a failed commit's replies, also when posted while that commit was
    in flight: the client waited for good (benches/failover.py's SIGSTOP cycles: a
    resume at a process just woken, whose commit in flight failed as its session had
    been ended, was never answered, and its client stayed seated)."""

    async def scenario() -> None:
        commit = GroupCommit(store)
        release = threading.Event()
        inbox = Inbox()

        def failing(s: Storage) -> None:
            if s.commits_off_loop:
                release.wait()
            raise OSError("the session was ended")

        commit.later([failing], lambda: None)
        commit.post(inbox, "done")
        commit.instead(inbox, "refused")
        commit.answer(inbox, "an answer with it")
        await asyncio.sleep(0)  # the flush (on PostgreSQL, in flight until released)
        commit.answer(inbox, "an answer meanwhile")
        release.set()
        await _until(lambda: len(inbox.texts) == 3)
        assert inbox.texts == ["refused", "an answer with it", "an answer meanwhile"]
        await _until(lambda: commit.refusing is None and commit.idle())

    asyncio.run(scenario())
