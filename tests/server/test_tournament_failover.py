"""A room's tournaments taken over when the process running them dies (issue 33 item 4,
issue 34 item 3): two real ``serve`` processes on one PostgreSQL room, a multi-table
tournament of bots run by the first; ``kill -9`` it during play, and the second takes
the tournaments' lease and restores them from the database as a restart does; the
tournament plays to its end there: every entrant placed once, the prizes the pool, paid
through the ledger, the audit clean, every hand of its tables stored once. A client
follows the tournaments from process to process (``elsewhere``), and a registration
sent to the process that does not run them reaches the one that does.

The takeover of a frozen process's tournaments, and its late writes refused, is
:func:`test_a_frozen_process_writes_nothing_of_the_tournaments_taken_over`."""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path
from typing import Any

import pytest

from cluster_harness import ROOM, Served, ServedRoom, audit_problems
from doubleholdem.accounts import ledger
from doubleholdem.database.connection import begin
from doubleholdem.database.url import connect
from doubleholdem.server.cluster.leases import TOURNAMENTS
from doubleholdem.server.storage.hands import TOURNAMENT_TABLES
from doubleholdem.server.tournaments.stored import Stored, load
from http_harness import Browser

ENTRANTS, STACK, BUY_IN, FEE = 12, 600, 100, 10
CONFIG = f"""
[[tournament]]
name = "mtt"
kind = "scheduled"
start_at = {{start_at}}
minimum = 2
capacity = {ENTRANTS + 1}
seats = 4
starting_stack = {STACK}
buy_in = {BUY_IN}
fee = {FEE}
bots = {ENTRANTS}
level_by = "hands"
level_length = 3
pause = 0.05
hand_for_hand_at = [10, 9, 8, 7, 6, 5]  # most of the multi-table play (TRN-16)
levels = [{{small_blind = 5, big_blind = 10}}, {{small_blind = 10, big_blind = 20}},
          {{small_blind = 25, big_blind = 50}}, {{small_blind = 50, big_blind = 100}},
          {{small_blind = 100, big_blind = 200}}, {{small_blind = 200, big_blind = 400}},
          {{small_blind = 500, big_blind = 1000}}, {{small_blind = 1000, big_blind = 2000}},
          {{small_blind = 2000, big_blind = 4000}}, {{small_blind = 5000, big_blind = 10000}}]

[[tournament]]
name = "sng"
kind = "sit-and-go"
capacity = 3
seats = 3
starting_stack = 500
buy_in = {BUY_IN}
fee = {FEE}
bots = 1
"""
START_DELAY = 4  # seconds from the room's start to the tournament's
MTT, SNG = 0, 1  # the tournaments' ids, in the order of the configuration


def _room(postgres_url: str, tmp_path: Path) -> ServedRoom:
    config = tmp_path / "room.toml"
    # the tournament starts a few seconds on, once both processes serve the room (and
    # the registration below is checked): a tournament killed a few hands into play
    config.write_text(CONFIG.replace("{start_at}", str(int(time.time()) + START_DELAY)))
    extra = ("--bot-delay", "0.01", "--pause", "0.02", *ROOM, "--config", str(config))
    return ServedRoom(postgres_url, 2, tmp_path, tables=0, bots=0, extra=extra)


def _runner_of_tournaments(room: ServedRoom) -> Served | None:
    """The live process of the room that holds the tournaments' lease."""
    with contextlib.closing(connect(room.db)) as db:
        row = db.execute(
            "SELECT p.address FROM leases l JOIN processes p ON p.id = l.owner"
            " WHERE l.table_id = ?",
            (TOURNAMENTS,),
        ).fetchone()
    if row is None:
        return None
    port = int(str(row[0]).rpartition(":")[2])
    return next((p for p in room.live if p.port == port), None)


def _wait(what: str, check: Any, seconds: float = 120.0, every: float = 0.05) -> Any:
    """Until ``check()`` is true (each look reads the database: its commits are the
    events); what it returned."""
    deadline = time.monotonic() + seconds
    while not (found := check()):
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: not within {seconds} s")
        time.sleep(every)
    return found


def _in_hand_for_hand(db: str, tournament_id: int) -> bool:
    """Whether the tournament's row as last committed says hand-for-hand is played
    (its row alone: a cheap look, made often); :class:`AssertionError` once it is over
    (hand-for-hand passed unseen)."""
    with contextlib.closing(connect(db)) as store:
        row = store.execute("SELECT state FROM tournaments WHERE id = ?", (tournament_id,))
        stored, snapshot = Stored.from_text(tournament_id, row.fetchone()[0])
    assert stored.status != "finished", "the tournament ended before hand-for-hand was seen"
    return bool(json.loads(snapshot)["tournament"]["hand_for_hand"])


def _stored(db: str, tournament_id: int) -> Any:
    with contextlib.closing(connect(db)) as store:
        begin(store, write=False)  # one snapshot while the processes write
        return load(store, tournament_id, None)


def _tournament_hands(db: str, tournament_id: int) -> list[tuple[int, int]]:
    """The stored hands of the tournament's tables: (the table's key, hand number)
    (:func:`~doubleholdem.server.storage.hands.tournament_key`)."""
    with contextlib.closing(connect(db)) as store:
        rows = store.execute("SELECT table_id, number FROM hands WHERE table_id < 0").fetchall()
    return [
        (int(key), int(number))
        for key, number in rows
        if (-1 - int(key)) // TOURNAMENT_TABLES == tournament_id
    ]


class Client:
    """A signed-in WebSocket client of the tournaments that follows ``elsewhere``."""

    def __init__(self, served: Served, token: str) -> None:
        self.token = token
        self.home = served
        self.socket: Any = None
        self._open = contextlib.ExitStack()
        self.url = ""
        self.moves = 0  # elsewhere replies followed

    def connect(self, url: str) -> None:
        from websockets.sync.client import connect as ws_connect

        self.close()
        self.url = url
        socket_url = url.replace("http", "ws", 1) + "/ws"
        headers = {"Cookie": f"dh_session={self.token}", "Origin": url}
        opened = ws_connect(socket_url, additional_headers=headers, open_timeout=30)
        self.socket = self._open.enter_context(opened)
        assert self.receive("welcome")["type"] == "welcome"

    def close(self) -> None:
        if self.socket is not None:
            with contextlib.suppress(Exception):
                self._open.close()
            self.socket = None

    def receive(self, *kinds: str) -> dict[str, Any]:
        """The next message of one of ``kinds`` (or ``elsewhere``, ``error``)."""
        while True:
            message: dict[str, Any] = json.loads(self.socket.recv(timeout=60))
            if message["type"] in (*kinds, "elsewhere", "error"):
                return message

    def ask(self, request: dict[str, Any], *kinds: str) -> dict[str, Any]:
        """Sends ``request`` where the tournaments run, following ``elsewhere`` (from
        home when the process it was at has gone, asking again while they move);
        the answer of one of ``kinds``."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if self.socket is None:
                    self.connect(self.home.url)
                self.socket.send(json.dumps({"v": 2, **request}))
                answer = self.receive(*kinds)
            except Exception:  # the process died: ask home
                self.socket = None
                continue
            if answer["type"] != "elsewhere":
                return answer
            assert answer["tournaments"] is True
            if answer["address"] is None:  # moving: ask again in a moment
                time.sleep(0.1)
                continue
            self.moves += 1
            self.connect(answer["address"])
        raise TimeoutError(f"no answer to {request}")


@pytest.mark.parametrize("moment", ["play", "hand_for_hand"])
def test_a_killed_process_tournaments_are_taken_over_and_played_to_the_end(
    postgres_url: str, tmp_path: Path, moment: str
) -> None:
    """Killed during play (a few hands in), or during hand-for-hand (TRN-16: a round
    of the tables' hands under way when the process dies)."""
    with _room(postgres_url, tmp_path) as room:
        first, second = room.processes
        assert _runner_of_tournaments(room) is first  # the first started runs them

        # a registration sent to the second reaches the first (elsewhere), refunded after
        browser = Browser(second.port)
        token = browser.sign_up("ann").token
        client = Client(second, token)
        before = _balance(room.db, "ann")
        entered = client.ask({"type": "tournament_register", "tournament": SNG}, "result")
        assert entered["ok"] is True and client.moves == 1 and client.url == first.url
        assert _balance(room.db, "ann") == before - BUY_IN - FEE
        left = client.ask({"type": "tournament_unregister", "tournament": SNG}, "result")
        assert left["ok"] is True
        assert _balance(room.db, "ann") == before
        # the HTTP API of the second sends a program to the first
        moved = Browser(second.port).request("GET", "/api/tournaments")
        assert moved.status == 307 and moved.headers["Location"].startswith(first.url)

        # the multi-table tournament in play; its runner killed
        view = client.ask({"type": "tournament_watch", "tournament": MTT}, "tournament")
        assert len(view["view"]["entries"]) == ENTRANTS
        if moment == "play":
            _wait("hands played", lambda: len(_tournament_hands(room.db, MTT)) >= 3)
        else:
            _wait("hand-for-hand", lambda: _in_hand_for_hand(room.db, MTT), every=0.005)
        first.kill()
        at_kill = len(_tournament_hands(room.db, MTT))
        started = time.monotonic()
        _wait("the tournaments taken over", lambda: _runner_of_tournaments(room) is second, 60)
        taken_in = time.monotonic() - started
        # the client, its process gone, finds them at the second (from home)
        client.home = second
        view = client.ask({"type": "tournament_watch", "tournament": MTT}, "tournament")
        assert view["view"]["status"] in ("running", "finished")
        client.close()

        stored = _wait(
            "the tournament finished",
            lambda: (s := _stored(room.db, MTT)) and s[0].status == "finished" and s,
        )
        assert audit_problems(room.db) == []
    _check_the_end(room.db, *stored)
    assert len(_tournament_hands(room.db, MTT)) > at_kill  # played on at the second
    print(
        f"tournaments taken over in {taken_in:.2f} s; hands {at_kill} at the kill, "
        f"{len(_tournament_hands(room.db, MTT))} in all"
    )


def _balance(db: str, name: str) -> int:
    with contextlib.closing(connect(db)) as store:
        return ledger.balance(store, ledger.player(name))


def _check_the_end(db: str, stored: Any, tournament: Any) -> None:
    """Every entrant placed once, the prizes the pool, paid through the ledger (the
    pool empty, each bot's bankroll its prize), every hand of its tables stored once."""
    entries = tournament.entries
    assert len(entries) == ENTRANTS
    places = sorted(e.place for e in entries)  # each placed once; a tie shares one (TRN-16)
    assert places == [1 + places.index(place) for place in places]
    assert places[0] == 1 and places.count(1) == 1
    pool = ENTRANTS * BUY_IN
    assert tournament.pool == pool
    assert sum(stored.paid.values()) == pool
    with contextlib.closing(connect(db)) as store:
        assert ledger.balance(store, ledger.tournament(MTT)) == 0
        for entry in entries:
            # each bot was given one buy-in and fee, paid it, and holds its prize
            assert ledger.balance(store, ledger.bot(entry.player)) == stored.paid.get(
                entry.number, 0
            )
    assert tournament.chips_in_play() == tournament.issued == ENTRANTS * STACK  # none made or lost
    hands = _tournament_hands(db, MTT)
    assert len(hands) == len(set(hands))  # none settled twice
    by_table: dict[int, list[int]] = {}
    for table, number in hands:
        by_table.setdefault(table, []).append(number)
    for table, numbers in by_table.items():  # and none missing
        assert sorted(numbers) == list(range(1, len(numbers) + 1)), table


def test_a_frozen_process_writes_nothing_of_the_tournaments_taken_over(
    postgres_url: str, tmp_path: Path
) -> None:
    """``SIGSTOP`` the process running the tournaments: once its heartbeat expired the
    other takes them over and plays on; woken (``SIGCONT``), the frozen one finds the
    lease another's (its heartbeat's look, or its commit fenced out) and stops running
    them, having written nothing of them: the tournament ends as one process played it."""
    with _room(postgres_url, tmp_path) as room:
        first, second = room.processes
        assert _runner_of_tournaments(room) is first
        _wait("hands played", lambda: len(_tournament_hands(room.db, MTT)) >= 3)
        first.freeze()
        _wait("the tournaments taken over", lambda: _runner_of_tournaments(room) is second, 60)
        taken = len(_tournament_hands(room.db, MTT))
        _wait("play at the second", lambda: len(_tournament_hands(room.db, MTT)) > taken)
        first.thaw()
        _wait("the first let them go", lambda: "tournaments_lost" in first.log.read_text(), 60)
        stored = _wait(
            "the tournament finished",
            lambda: (s := _stored(room.db, MTT)) and s[0].status == "finished" and s,
        )
        assert _runner_of_tournaments(room) is second
        assert audit_problems(room.db) == []
    _check_the_end(room.db, *stored)
