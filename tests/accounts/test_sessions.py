"""Session tokens (random, stored as SHA-256 only, with expiry and revocation), the
sign-in throttle per address and name and per address, and households."""

from __future__ import annotations

import pytest

from doubleholdem.accounts.accounts import Account, Passwords, create_account, set_state
from doubleholdem.accounts.households import household, record_address, shared_addresses
from doubleholdem.accounts.sessions import (
    Throttle,
    end_all_sessions,
    end_session,
    purge_sessions,
    session_account,
    start_session,
    token_hash,
)
from doubleholdem.database.connection import Connection
from doubleholdem.errors import BadCredentials, SignInThrottled


@pytest.fixture
def ann(tx: Connection, fast: Passwords) -> Account:
    return create_account(tx, "ann", "correct horse", passwords=fast)


def test_a_token_is_random_and_stored_only_as_its_hash(tx: Connection, ann: Account) -> None:
    tokens = {start_session(tx, ann, now=0.0) for _ in range(20)}
    assert len(tokens) == 20 and all(len(t) == 43 for t in tokens)
    stored = {row[0] for row in tx.execute("SELECT hash FROM account_sessions")}
    assert stored == {token_hash(t) for t in tokens}
    assert not stored & tokens


def test_a_session_expires_and_is_revoked(tx: Connection, ann: Account) -> None:
    token = start_session(tx, ann, now=100.0, lifetime=50.0)
    assert session_account(tx, token, now=149.0) == ann
    assert session_account(tx, token, now=150.0) is None
    other = start_session(tx, ann, now=100.0)
    end_session(tx, other, now=101.0)
    assert session_account(tx, other, now=102.0) is None
    assert purge_sessions(tx, now=200.0) == 2


@pytest.mark.parametrize("token", ["", "made-up-by-the-client", "x" * 10_000, None, 5])
def test_tokens_the_server_did_not_issue_find_nobody(
    tx: Connection, ann: Account, token: object
) -> None:
    start_session(tx, ann, now=0.0)
    assert session_account(tx, token, now=1.0) is None


def test_closing_an_account_ends_its_sessions(tx: Connection, ann: Account) -> None:
    token = start_session(tx, ann, now=0.0)
    set_state(tx, "ann", "frozen")
    assert session_account(tx, token, now=1.0) is not None  # frozen: still signed in
    set_state(tx, "ann", "closed")
    assert session_account(tx, token, now=1.0) is None
    assert end_all_sessions(tx, ann, now=2.0) == 0


def test_end_all_sessions(tx: Connection, ann: Account) -> None:
    tokens = [start_session(tx, ann, now=0.0) for _ in range(3)]
    assert end_all_sessions(tx, ann, now=1.0) == 3
    assert all(session_account(tx, t, now=2.0) is None for t in tokens)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _fail(throttle: Throttle, name: str | None, address: str) -> None:
    """A guess that fails (counted, and kept)."""
    with pytest.raises(BadCredentials), throttle.guess(name, address):
        raise BadCredentials("wrong name or password")


def test_the_throttle_counts_a_name_per_address() -> None:
    clock = Clock()
    throttle = Throttle(clock=clock, per_account=(3, 60.0), per_address=(100, 60.0))
    for _ in range(3):
        assert throttle.retry_after("Ann", "10.0.0.1") == 0
        _fail(throttle, "Ann", "10.0.0.1")
        clock.now += 10
    assert throttle.retry_after("ann", "10.0.0.1") == 30  # the first failure + 60 s
    with pytest.raises(SignInThrottled) as refused, throttle.guess("ann", "10.0.0.1"):
        pytest.fail("a refused guess never runs")
    assert refused.value.retry_after == 30
    assert throttle.retry_after("ann", "10.9.9.9") == 0  # the owner elsewhere is not locked out
    assert throttle.retry_after("bob", "10.0.0.1") == 0
    clock.now += 29.5
    assert throttle.retry_after("ann", "10.0.0.1") == 1
    clock.now += 0.5
    assert throttle.retry_after("ann", "10.0.0.1") == 0


def test_the_throttle_counts_an_address_over_every_name() -> None:
    clock = Clock()
    throttle = Throttle(clock=clock, per_account=(100, 60.0), per_address=(4, 30.0))
    for i in range(4):
        _fail(throttle, f"name{i}", "203.0.113.5")
    assert throttle.retry_after("someone", "203.0.113.5") == 30
    assert throttle.retry_after(None, "203.0.113.5") == 30  # a sign-up's check too
    assert throttle.retry_after("someone", "203.0.113.6") == 0
    with throttle.guess("someone", "203.0.113.6"):  # a success elsewhere clears nothing
        pass
    assert throttle.retry_after("name0", "203.0.113.5") == 30


def test_a_name_is_bounded_over_new_addresses_but_not_known_ones() -> None:
    throttle = Throttle(clock=Clock(), per_name=(3, 3600.0))
    for n in range(3):
        _fail(throttle, "ann", f"10.0.0.{n}")
    assert throttle.retry_after("ann", "10.9.9.9") == 3600
    assert throttle.retry_after("ann", "192.0.2.1", known=True) == 0
    with throttle.guess("ann", "192.0.2.1", known=True):  # the owner, where she signed in
        pass
    assert throttle.retry_after("bob", "10.9.9.9") == 0


def test_an_ipv6_host_counts_as_its_64() -> None:
    throttle = Throttle(clock=Clock(), per_address=(2, 60.0))
    _fail(throttle, "a", "2001:db8:1:2::1")
    _fail(throttle, "b", "2001:db8:1:2:ffff::9")
    assert throttle.retry_after("c", "2001:db8:1:2:1234::1") == 60
    assert throttle.retry_after("c", "2001:db8:1:3::1") == 0


def test_a_success_and_a_refusal_inside_take_the_guess_back() -> None:
    throttle = Throttle(clock=Clock(), per_account=(1, 60.0))
    for _ in range(3):
        with throttle.guess("ann", "a"):
            pass
    with pytest.raises(SignInThrottled), throttle.guess("ann", "a"):
        raise SignInThrottled("busy", retry_after=1)
    assert throttle.retry_after("ann", "a") == 0
    _fail(throttle, "ann", "a")
    assert throttle.retry_after("ann", "a") == 60


def test_a_spent_allowance_is_kept_and_a_failed_one_taken_back() -> None:
    throttle = Throttle(clock=Clock(), per_address=(2, 3600.0), refusal="too many sign-ups")
    with pytest.raises(ValueError), throttle.spend("a"):
        raise ValueError("the name is taken")
    for _ in range(2):
        with throttle.spend("a"):
            pass
    refused = pytest.raises(SignInThrottled, match="too many sign-ups: retry in 3600 s")
    with refused, throttle.spend("a"):
        pytest.fail("a refused sign-up never runs")


def test_the_throttle_remembers_a_bounded_number_of_keys() -> None:
    clock = Clock()
    throttle = Throttle(clock=clock, per_account=(1, 60.0), per_address=(1, 60.0), max_keys=10)
    for i in range(1000):
        _fail(throttle, f"n{i}", f"a{i}")
    assert len(throttle._failures) == 10
    assert throttle.retry_after("n999", "a999") == 60


@pytest.mark.parametrize("bad", [(0, 60.0), (3, 0.0), (3, -1.0)])
def test_a_throttle_needs_a_limit_and_a_window(bad: tuple[int, float]) -> None:
    with pytest.raises(ValueError):
        Throttle(clock=Clock(), per_account=bad)


def test_households_list_accounts_sharing_an_address(tx: Connection, fast: Passwords) -> None:
    ann, bob, cy = (create_account(tx, n, "correct horse", passwords=fast) for n in "abc")
    record_address(tx, ann, "10.0.0.1", now=1.0)
    record_address(tx, ann, "10.0.0.1", now=2.0)
    record_address(tx, bob, "10.0.0.1", now=3.0)
    record_address(tx, cy, "10.0.0.2", now=4.0)
    assert [tuple(s) for s in shared_addresses(tx)] == [("10.0.0.1", ("a", "b"))]
    assert household(tx, "b") == ("a", "b")
    assert household(tx, "c") == ("c",)
    row = tx.execute(
        "SELECT first_seen, last_seen, count FROM account_addresses WHERE account_id = ?",
        (ann.id,),
    ).fetchone()
    assert row == (1.0, 2.0, 2)
