"""Throttles that hold under concurrency (issue 30, item 2), over HTTP: bursts of 40 to
60 requests at once (threads released together by a barrier) at sign-in and sign-up,
counting the Argon2 work done (a counting password hasher) and the accounts made. A
guess is counted before its hash and released only on success; the sign-up bound is
reserved likewise; a taken name is refused before any hash, and the sign-up path is
throttled per address like sign-in; hashing takes at most the desk's hash slots (429
beyond); a lockout is counted per address and account, so guesses from elsewhere never
lock the owner out, and those from many addresses are bounded per name except from the
addresses the owner signed in from; ``X-Forwarded-For`` is believed only from the
addresses the server is told to trust (item 4)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from doubleholdem.accounts.bank import Bank
from doubleholdem.accounts.sessions import Throttle
from doubleholdem.server.http.desk import Desk
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from http_harness import PASSWORD, Browser, Reply
from passwords_double import CountingPasswords
from server_harness import ServerThread

WRONG = "wrong horse battery"


class HeldPasswords(CountingPasswords):
    """Verifications and hashes that wait until the test lets them go (``go``), counting
    those that have started (``entered``, with ``changed`` notified)."""

    def __init__(self) -> None:
        super().__init__()
        self.changed = threading.Condition()
        self.entered = 0
        self.go = threading.Event()
        self.go.set()
        assert self.dummy  # made now, not inside a burst
        self.hashed = self.entered = 0

    def _enter(self) -> None:
        with self.changed:
            self.entered += 1
            self.changed.notify_all()
        assert self.go.wait(60)

    def verify(self, hashed: str, password: str) -> bool:
        self._enter()
        return super().verify(hashed, password)

    def hash(self, password: str) -> str:
        self._enter()
        return super().hash(password)

    def wait_entered(self, count: int) -> None:
        with self.changed:
            assert self.changed.wait_for(lambda: self.entered >= count, 60)


class Served:
    def __init__(self, server: ServerThread, desk: Desk, hasher: HeldPasswords) -> None:
        self.server, self.desk, self.hasher = server, desk, hasher
        self.browser = Browser(server.port)


def _serve(
    room_db: str,
    *,
    hasher: HeldPasswords | None = None,
    hash_slots: int | None = 64,
    room_hash_slots: int = 4,
    signups_per_address: int = 20,
    throttle: Throttle | None = None,
    **options: Any,
) -> Iterator[Served]:
    settings = RoomSettings(
        tables=1,
        bots=0,
        bot_delay=0.0,
        pause=600.0,
        signup=True,
        welcome_chips=100,
        signups_per_address=signups_per_address,
        hash_slots=room_hash_slots,
    )
    room = Room.open(room_db, settings)
    hasher = HeldPasswords() if hasher is None else hasher
    desk = Desk(
        room.store.path, settings, passwords=hasher, hash_slots=hash_slots, throttle=throttle
    )
    with ServerThread(room, desk=desk, **options) as server:
        yield Served(server, desk, hasher)


@pytest.fixture
def served(room_db: str) -> Iterator[Served]:
    yield from _serve(room_db)


def _burst(calls: list[Callable[[], Reply]], held: HeldPasswords | None = None) -> list[Reply]:
    """Runs ``calls`` at once, each in a thread of its own, released together. With
    ``held``, its verifications wait until every call has either started one or been
    answered: the burst's guesses all overlap, whatever the speed of the machine."""
    start = threading.Barrier(len(calls))
    answered = [0]
    if held is not None:
        held.go.clear()

    def run(call: Callable[[], Reply]) -> Reply:
        start.wait(60)
        try:
            return call()
        finally:
            if held is not None:
                with held.changed:
                    answered[0] += 1
                    held.changed.notify_all()

    with ThreadPoolExecutor(len(calls)) as pool:
        futures = [pool.submit(run, call) for call in calls]
        if held is not None:
            with held.changed:  # (a minute at most: a server without the fix may queue)
                held.changed.wait_for(lambda: held.entered + answered[0] >= len(calls), 60)
            held.go.set()
        return [future.result(120) for future in futures]


def _statuses(replies: list[Reply]) -> dict[int, int]:
    found: dict[int, int] = {}
    for reply in replies:
        found[reply.status] = found.get(reply.status, 0) + 1
    return found


def _from(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def test_forty_guesses_at_once_at_one_account_verify_five(served: Served) -> None:
    assert served.browser.sign_up("ann").status == 201
    before = served.hasher.verified
    replies = _burst([lambda: served.browser.sign_in("ann", WRONG)] * 40, served.hasher)
    assert _statuses(replies) == {401: 5, 429: 35}
    assert served.hasher.verified - before == 5
    assert all(r.body["error"] == "throttled" for r in replies if r.status == 429)


def test_sixty_guesses_at_once_from_one_address_verify_twenty(served: Served) -> None:
    names = [f"name{n}" for n in range(60)]
    calls = [lambda name=name: served.browser.sign_in(name, WRONG) for name in names]
    replies = _burst(calls, served.hasher)
    assert _statuses(replies) == {401: 20, 429: 40}
    assert served.hasher.verified == 20


def test_the_right_password_in_a_burst_of_guesses_is_one_of_the_bound(served: Served) -> None:
    assert served.browser.sign_up("ann").status == 201
    before = served.hasher.verified
    calls = [lambda: served.browser.sign_in("ann", WRONG)] * 39
    calls.insert(20, lambda: served.browser.sign_in("ann", PASSWORD))
    statuses = _statuses(_burst(calls, served.hasher))
    assert statuses.get(401, 0) + statuses.get(200, 0) == 5
    assert statuses.get(200, 0) <= 1 and statuses[429] == 35
    assert served.hasher.verified - before == 5


def test_sixty_sign_ups_at_once_make_at_most_the_bound(served: Served) -> None:
    names = [f"player{n}" for n in range(60)]
    replies = _burst(
        [lambda name=name: served.browser.sign_up(name) for name in names], served.hasher
    )
    assert _statuses(replies) == {201: 20, 429: 40}
    assert served.hasher.hashed == 20
    with Bank(served.desk.path) as bank:
        made = bank.db.execute("SELECT COUNT(*) FROM accounts WHERE role = 'player'").fetchone()
        paid = bank.db.execute(
            "SELECT COUNT(*) FROM ledger_transactions WHERE kind = 'welcome'"
        ).fetchone()
        assert made[0] == paid[0] == 20
        assert bank.audit()["ok"]


def test_a_taken_name_costs_no_hash_and_is_throttled_like_a_guess(served: Served) -> None:
    assert served.browser.sign_up("ann").status == 201
    hashed = served.hasher.hashed
    statuses = [served.browser.sign_up(name).status for name in ["ann", "ANN"] * 15]
    assert statuses == [409] * 20 + [429] * 10  # the address's 20 failures, then no oracle
    assert served.hasher.hashed == hashed
    assert served.browser.sign_in("ann").status == 429  # one count for the address
    assert served.browser.sign_in("ann", headers=_from("198.51.100.9")).status == 429


def test_a_taken_name_burst_hashes_nothing(served: Served) -> None:
    assert served.browser.sign_up("ann").status == 201
    hashed, verified = served.hasher.hashed, served.hasher.verified
    replies = _burst([lambda: served.browser.sign_up("ann")] * 50, served.hasher)
    assert _statuses(replies) == {409: 20, 429: 30}
    assert (served.hasher.hashed, served.hasher.verified) == (hashed, verified)


@pytest.mark.parametrize("told", ["desk", "room"])
def test_hashing_takes_at_most_its_slots_and_429_beyond(room_db: str, told: str) -> None:
    """Two slots, given to the desk or by the room's settings (``serve --hash-slots``)."""
    hasher = HeldPasswords()
    slots: dict[str, int | None] = {"hash_slots": 2} if told == "desk" else {"hash_slots": None}
    room_slots = 2 if told == "room" else 4
    for served in _serve(room_db, hasher=hasher, room_hash_slots=room_slots, **slots):
        hasher.go.set()
        assert served.browser.sign_up("ann").status == 201
        hasher.go.clear()
        before, verified = hasher.entered, hasher.verified
        with ThreadPoolExecutor(2) as pool:
            held = [pool.submit(served.browser.sign_in, "ann") for _ in range(2)]
            hasher.wait_entered(before + 2)
            busy = served.browser.sign_in("ann")
            assert (busy.status, busy.body["error"]) == (429, "busy")
            assert busy.headers["retry-after"] == "1"
            assert served.browser.sign_up("bob").status == 429  # a sign-up hashes too
            assert served.browser.request("GET", "/healthz").status == 200
            hasher.go.set()
            assert [future.result(60).status for future in held] == [200, 200]
        assert hasher.verified - verified == 2
        assert served.browser.sign_up("bob").status == 201  # the refusals were not counted


def test_guesses_from_five_addresses_do_not_lock_the_owner_out(room_db: str) -> None:
    for served in _serve(room_db, forwarded_allow_ips="127.0.0.1"):
        assert served.browser.sign_up("ann", headers=_from("192.0.2.1")).status == 201
        for n in range(5):
            reply = served.browser.sign_in("ann", WRONG, headers=_from(f"203.0.113.{n}"))
            assert reply.status == 401
        assert served.browser.sign_in("ann", headers=_from("192.0.2.1")).status == 200
        assert served.browser.sign_in("ann", headers=_from("192.0.2.77")).status == 200
        for _ in range(5):  # one address's guesses lock out that address alone
            assert served.browser.sign_in("ann", WRONG, headers=_from("203.0.113.50")).status == 401
        locked = served.browser.sign_in("ann", headers=_from("203.0.113.50"))
        assert locked.status == 429
        assert served.browser.sign_in("ann", headers=_from("192.0.2.1")).status == 200


def test_forwarded_addresses_are_not_believed_unless_trusted(served: Served) -> None:
    assert served.browser.sign_up("ann", headers=_from("10.9.9.9")).status == 201
    names = [f"name{n}" for n in range(60)]
    calls = [
        lambda n=n, name=name: served.browser.sign_in(name, WRONG, headers=_from(f"10.0.{n}.1"))
        for n, name in enumerate(names)
    ]
    replies = _burst(calls, served.hasher)
    assert _statuses(replies) == {401: 20, 429: 40}  # all from 127.0.0.1: its bound holds
    assert served.hasher.verified == 20
    with Bank(served.desk.path) as bank:
        assert [s.address for s in bank.shared_addresses()] == []
        rows = bank.db.execute("SELECT address FROM account_addresses").fetchall()
    assert rows == [("127.0.0.1",)]


def test_trusted_forwarded_addresses_are_each_throttled(room_db: str) -> None:
    for served in _serve(room_db, forwarded_allow_ips="127.0.0.1"):
        calls = [
            lambda n=n, b=served.browser: b.sign_in(f"name{n}", WRONG, headers=_from(f"10.0.{n}.1"))
            for n in range(40)
        ]
        assert _statuses(_burst(calls, served.hasher)) == {401: 40}


def test_guesses_from_many_addresses_are_bounded_per_name_but_spare_the_owners(
    room_db: str,
) -> None:
    """60 addresses guessing ann's password at once verify the name's bound (10 here)
    and no more; ann still signs in from the address she signed in from before, while a
    new address waits."""
    throttle = Throttle(clock=time.monotonic, per_name=(10, 3600.0))
    for served in _serve(room_db, throttle=throttle, forwarded_allow_ips="127.0.0.1"):
        assert served.browser.sign_up("ann", headers=_from("192.0.2.1")).status == 201
        before = served.hasher.verified
        calls = [
            lambda n=n, b=served.browser: b.sign_in("ann", WRONG, headers=_from(f"203.0.113.{n}"))
            for n in range(60)
        ]
        assert _statuses(_burst(calls, served.hasher)) == {401: 10, 429: 50}
        assert served.hasher.verified - before == 10
        assert served.browser.sign_in("ann", headers=_from("192.0.2.1")).status == 200
        assert served.browser.sign_in("ann", headers=_from("198.51.100.1")).status == 429
