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

from cluster_harness import (
    BUY_IN,
    FEE,
    ROOM,
    SIT_AND_GO,
    Served,
    ServedRoom,
    audit_problems,
    tournaments_runner,
)
from doubleholdem.accounts import ledger
from doubleholdem.database.connection import begin
from doubleholdem.database.url import connect
from doubleholdem.server.storage.hands import TOURNAMENT_TABLES
from doubleholdem.server.tournaments.stored import load
from http_harness import Browser

ENTRANTS, STACK = 12, 1500
MTT_ENTRY = f"""
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

"""
SNG_ENTRY = SIT_AND_GO
START_DELAY = 4  # seconds from the room's start to the tournament's
MTT, SNG = 0, 0  # the tournaments' ids (each test's room has one)


def _room(postgres_url: str, tmp_path: Path, entry: str = MTT_ENTRY) -> ServedRoom:
    """Two processes on the room, with the tournament of ``entry``."""
    config = tmp_path / "room.toml"
    # the tournament starts a few seconds on, once both processes serve the room: it is
    # killed some hands into play
    config.write_text(entry.replace("{start_at}", str(int(time.time()) + START_DELAY)))
    extra = ("--bot-delay", "0.01", "--pause", "0.02", *ROOM, "--config", str(config))
    return ServedRoom(postgres_url, 2, tmp_path, tables=0, bots=0, extra=extra)


def _wait(
    what: str, check: Any, seconds: float = 120.0, every: float = 0.05, room: Any = None
) -> Any:
    """Until ``check()`` is true (each look reads the database: its commits are the
    events); what it returned. Past ``seconds``, a :class:`TimeoutError` with the
    operators' logs of ``room``'s processes."""
    deadline = time.monotonic() + seconds
    while not (found := check()):
        if time.monotonic() > deadline:
            logs = (
                ""
                if room is None
                else "".join(
                    f"\n--- {p.log.name}:\n{p.log.read_text()[-3000:]}" for p in room.processes
                )
            )
            if room is not None:
                logs += _database_state(room.db)
                import subprocess

                logs += (
                    "\n--- ports: "
                    + subprocess.run(["ss", "-tnp"], capture_output=True, text=True).stdout
                )
                logs += "\n--- pids: " + str([(p.pid, p.port) for p in room.processes])
            raise TimeoutError(f"{what}: not within {seconds} s{logs}")
        time.sleep(every)
    return found


def _hand_for_hand(db: str, tournament_id: int) -> tuple[bool, int]:
    """Whether the tournament as last committed plays hand-for-hand, and the entries
    left; :class:`AssertionError` once it is over (hand-for-hand passed unseen)."""
    stored, tournament = _stored(db, tournament_id)
    assert stored.status != "finished", "the tournament ended before hand-for-hand was seen"
    return bool(tournament.hand_for_hand), int(tournament.remaining)


def _stop_in_hand_for_hand(served: Served, db: str) -> None:
    """Leaves ``served`` (the process running the tournament) frozen once the
    tournament it committed last plays hand-for-hand. Near it (the first entry out) the
    process is stepped: it runs for a moment, then is stopped (``SIGSTOP``) while its
    committed state is read (nothing of it changes then), so that no state it commits
    goes unseen however loaded the machine (a hand takes many of its moments: the
    pause, a bot's delay at each decision)."""
    while True:
        if _hand_for_hand(db, MTT)[1] < ENTRANTS:  # hand-for-hand from 10 left
            break
        time.sleep(0.01)
    while True:
        served.freeze()
        if _hand_for_hand(db, MTT)[0]:
            return
        served.thaw()
        time.sleep(0.002)  # (its moment)


def _database_state(db: str) -> str:
    """The leases, the processes and the sessions of the room's database (a timeout's
    account)."""
    with contextlib.closing(connect(db)) as store:
        parts = {
            "leases": "SELECT * FROM leases",
            "processes": "SELECT id, address, expires, stopping, lock FROM processes",
            "now": "SELECT EXTRACT(EPOCH FROM clock_timestamp())::float8",
            "sessions": "SELECT pid, state, xact_start, state_change, backend_start,"
            " client_port, left(query, 100), application_name FROM pg_stat_activity"
            " WHERE client_port IS NOT NULL",
            "locks": "SELECT locktype, relation::regclass, mode, granted, pid, classid,"
            " objid FROM pg_locks WHERE locktype IN ('advisory', 'tuple', 'transactionid')",
        }
        return "".join(
            f"\n--- {name}:\n" + "\n".join(map(str, store.execute(query).fetchall()))
            for name, query in parts.items()
        )


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
            except Exception:  # the process died: ask home again in a moment
                self.close()
                time.sleep(0.1)
                continue
            if answer["type"] != "elsewhere":
                return answer
            assert answer["tournaments"] is True
            if answer["address"] is None:  # moving: ask again in a moment
                time.sleep(0.1)
                continue
            self.moves += 1
            try:
                self.connect(answer["address"])
            except OSError:  # died since (as last read there): ask home again
                self.close()
                time.sleep(0.1)
        raise TimeoutError(f"no answer to {request}")


@pytest.mark.parametrize("moment", ["play", "hand_for_hand"])
def test_a_killed_process_tournaments_are_taken_over_and_played_to_the_end(
    postgres_url: str, tmp_path: Path, moment: str
) -> None:
    """Killed during play (a few hands in), or during hand-for-hand (TRN-16: a round
    of the tables' hands under way when the process dies)."""
    with _room(postgres_url, tmp_path) as room:
        first, second = room.processes
        assert tournaments_runner(room) is first  # the first started runs them
        if moment == "play":
            _wait("hands played", lambda: len(_tournament_hands(room.db, MTT)) >= 3)
        else:
            _stop_in_hand_for_hand(first, room.db)
        first.kill()
        at_kill = len(_tournament_hands(room.db, MTT))
        started = time.monotonic()
        _wait(
            "the tournaments taken over",
            lambda: tournaments_runner(room) is second,
            60,
            room=room,
        )
        taken_in = time.monotonic() - started
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


def test_a_client_follows_the_tournaments_from_process_to_process(
    postgres_url: str, tmp_path: Path
) -> None:
    """A registration sent to the process that does not run the tournaments reaches
    the one that does (``elsewhere`` followed), as their HTTP API sends a program
    there; once that one is killed, the client asks its own process again and finds
    them there, taken over, where a registration is taken and refunded."""
    with _room(postgres_url, tmp_path, SNG_ENTRY) as room:
        first, second = room.processes
        browser = Browser(second.port)
        client = Client(second, browser.sign_up("ann").token)
        before = _balance(room.db, "ann")
        entered = client.ask({"type": "tournament_register", "tournament": SNG}, "result")
        assert entered["ok"] is True and client.moves == 1 and client.url == first.url
        assert _balance(room.db, "ann") == before - BUY_IN - FEE
        moved = browser.request("GET", "/api/tournaments")
        assert moved.status == 307 and moved.headers["Location"] == f"{first.url}/api/tournaments"
        view = client.ask({"type": "tournament_watch", "tournament": SNG}, "tournament")
        assert [e["player"] for e in view["view"]["entries"]][-1] == "ann"

        first.kill()  # the client's connection drops: it asks home (the second)
        view = client.ask({"type": "tournament_watch", "tournament": SNG}, "tournament")
        assert client.url == second.url and tournaments_runner(room) is second
        assert [e["player"] for e in view["view"]["entries"]][-1] == "ann"
        left = client.ask({"type": "tournament_unregister", "tournament": SNG}, "result")
        assert left["ok"] is True and _balance(room.db, "ann") == before
        again = client.ask({"type": "tournament_register", "tournament": SNG}, "result")
        assert again["ok"] is True and _balance(room.db, "ann") == before - BUY_IN - FEE
        client.close()
        assert audit_problems(room.db) == []


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
        assert tournaments_runner(room) is first
        _wait("hands played", lambda: len(_tournament_hands(room.db, MTT)) >= 3)
        first.freeze()
        _wait(
            "the tournaments taken over",
            lambda: tournaments_runner(room) is second,
            60,
            room=room,
        )
        taken = len(_tournament_hands(room.db, MTT))
        _wait("play at the second", lambda: len(_tournament_hands(room.db, MTT)) > taken)
        first.thaw()
        _wait("the first let them go", lambda: "tournaments_lost" in first.log.read_text(), 60)
        stored = _wait(
            "the tournament finished",
            lambda: (s := _stored(room.db, MTT)) and s[0].status == "finished" and s,
        )
        assert tournaments_runner(room) is second
        assert audit_problems(room.db) == []
    _check_the_end(room.db, *stored)
