"""Sign-in sessions and the sign-in throttle.

A session is a random token (``secrets.token_urlsafe(32)``: 256 bits) handed to the
client once; the database keeps only its SHA-256, with an expiry and, after sign-out,
the time it was revoked. A token the server did not issue, an expired or revoked one,
or one of a closed account finds no account.

:class:`Throttle` counts failed sign-ins per address and account name, and per address,
over a sliding window; each guess is counted before its hash and taken back only if it
succeeds, and a guess beyond the bound is refused with the seconds to wait (a server
turns that into HTTP 429 with ``Retry-After``). It keeps its counts in memory, bounded.

>>> import sqlite3
>>> from doubleholdem.accounts.schema import ensure_schema
>>> from doubleholdem.accounts.accounts import Passwords, create_account
>>> db = sqlite3.connect(":memory:", isolation_level=None)
>>> ensure_schema(db)
>>> _ = db.execute("BEGIN")
>>> fast = Passwords(time_cost=1, memory_cost=8, insecure=True)  # tests only
>>> ann = create_account(db, "ann", "correct horse", passwords=fast)
>>> token = start_session(db, ann, now=1000.0)
>>> session_account(db, token, now=1001.0).name
'ann'
>>> end_session(db, token, now=1002.0)
>>> session_account(db, token, now=1003.0) is None
True
>>> db.execute("COMMIT").close()
>>> clock = [0.0]
>>> throttle = Throttle(clock=lambda: clock[0], per_account=(2, 60.0))
>>> for _ in range(2):
...     try:
...         with throttle.guess("ann", "10.0.0.1"):
...             raise ValueError("a wrong password")
...     except ValueError:
...         pass
>>> throttle.retry_after("ann", "10.0.0.1"), throttle.retry_after("ann", "10.0.0.2")
(60, 0)
>>> clock[0] = 59.5
>>> throttle.retry_after("ANN", "10.0.0.1")
1
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import math
import secrets
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, nullcontext

from doubleholdem.accounts import households
from doubleholdem.accounts.accounts import Account, Passwords, check_sign_in, set_password_hash
from doubleholdem.database.connection import Connection
from doubleholdem.errors import NotInTransaction, SignInThrottled

__all__ = [
    "SESSION_SECONDS",
    "Throttle",
    "address_key",
    "end_all_sessions",
    "end_session",
    "open_session",
    "purge_sessions",
    "session_account",
    "sign_in",
    "sign_in_guess",
    "start_session",
    "token_hash",
]

SESSION_SECONDS = 14 * 24 * 3600.0
MAX_TOKEN = 200  # characters of a token worth hashing


def token_hash(token: str) -> str:
    """What the database keeps of a session token (never the token itself)."""
    return hashlib.sha256(token.encode()).hexdigest()


def _need_transaction(db: Connection) -> None:
    if not db.in_transaction:
        raise NotInTransaction("sessions are written inside the caller's transaction")


def start_session(
    db: Connection, account: Account, *, now: float, lifetime: float = SESSION_SECONDS
) -> str:
    """A new session of ``account`` valid for ``lifetime`` seconds from ``now``: the
    token, to hand to the client (only its hash is stored)."""
    _need_transaction(db)
    if not 0 < lifetime <= 10 * 365 * 24 * 3600.0:
        raise ValueError(f"a session lasts from 0 to ten years, not {lifetime} seconds")
    token = secrets.token_urlsafe(32)
    db.execute(
        "INSERT INTO account_sessions (hash, account_id, created, expires) VALUES (?, ?, ?, ?)",
        (token_hash(token), account.id, now, now + lifetime),
    )
    return token


def session_account(db: Connection, token: object, *, now: float) -> Account | None:
    """The account of a live session ``token``, or ``None`` (unknown, expired, revoked,
    or the account closed). A frozen account still has its session."""
    if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN:
        return None
    row = db.execute(
        "SELECT a.id, a.name, a.role, a.state, a.created FROM account_sessions s "
        "JOIN accounts a ON a.id = s.account_id "
        "WHERE s.hash = ? AND s.revoked IS NULL AND s.expires > ? AND a.state != 'closed'",
        (token_hash(token), now),
    ).fetchone()
    if row is None:
        return None
    id_, name, role, state, created = row
    return Account(int(id_), str(name), str(role), str(state), float(created))


def end_session(db: Connection, token: object, *, now: float) -> None:
    """Revokes a session (sign-out); a token that is not a live session is ignored."""
    _need_transaction(db)
    if isinstance(token, str) and 0 < len(token) <= MAX_TOKEN:
        db.execute(
            "UPDATE account_sessions SET revoked = ? WHERE hash = ? AND revoked IS NULL",
            (now, token_hash(token)),
        )


def end_all_sessions(db: Connection, account: Account, *, now: float) -> int:
    """Revokes every live session of ``account``; returns how many."""
    _need_transaction(db)
    cursor = db.execute(
        "UPDATE account_sessions SET revoked = ? WHERE account_id = ? AND revoked IS NULL",
        (now, account.id),
    )
    return cursor.rowcount


def purge_sessions(db: Connection, *, now: float) -> int:
    """Deletes the sessions that expired or were revoked before ``now``; returns how
    many."""
    _need_transaction(db)
    cursor = db.execute(
        "DELETE FROM account_sessions WHERE expires <= ? OR revoked <= ?", (now, now)
    )
    return cursor.rowcount


class Throttle:
    """Attempts counted over a sliding window, per address and account name (without
    case): at most ``per_account[0]`` failed sign-ins of one name from one address per
    ``per_account[1]`` seconds, and ``per_address`` likewise for an address whatever the
    names; and ``per_name`` for a name from every address it never signed in from
    (``known`` False), against guessers with many addresses. An attempt is counted
    (reserved) before its work, under a lock, so that attempts at once cannot all pass
    the check before any is counted. Counting a name per address, and sparing the
    addresses it signed in from before, means that guesses from elsewhere never lock
    its owner out there: an attacker locks out only the addresses it guesses from (and,
    past ``per_name``, the name from new addresses, for an hour at most after its last
    guess). An IPv6 address counts as its /64 (a
    single host usually holds a whole /64). Names that do not exist are counted like the
    others (the answer tells nothing about which names exist). ``clock`` gives the time
    in seconds (``time.monotonic`` in a server); ``refusal`` begins the message of the
    :class:`~doubleholdem.errors.SignInThrottled` raised. At most ``max_keys`` keys are
    remembered; the least recently counted are forgotten first."""

    def __init__(
        self,
        *,
        clock: Callable[[], float],
        per_account: tuple[int, float] = (5, 300.0),
        per_address: tuple[int, float] = (20, 300.0),
        per_name: tuple[int, float] = (50, 3600.0),
        max_keys: int = 100_000,
        refusal: str = "too many failed sign-ins",
    ) -> None:
        for limit, window in (per_account, per_address, per_name):
            if limit < 1 or not window > 0:
                raise ValueError("a throttle allows at least 1 failure over a positive window")
        self._clock = clock
        self._limits = {"account": per_account, "address": per_address, "name": per_name}
        self._failures: OrderedDict[tuple[str, ...], deque[float]] = OrderedDict()
        self._max_keys = max_keys
        self._refusal = refusal
        self._lock = threading.Lock()

    def _keys(self, name: str | None, address: str, known: bool) -> list[tuple[str, ...]]:
        where = address_key(address)
        keys: list[tuple[str, ...]] = [("address", where)]
        if name is not None:
            keys.append(("account", where, name.lower()))
            if not known:
                keys.append(("name", name.lower()))
        return keys

    def _recent(self, key: tuple[str, ...], now: float) -> deque[float]:
        times = self._failures.get(key)
        if times is None:
            return deque()
        window = self._limits[key[0]][1]
        while times and times[0] <= now - window:
            times.popleft()
        if not times:
            del self._failures[key]
        return times

    def _wait(self, keys: list[tuple[str, ...]], now: float) -> int:
        wait = 0.0
        for key in keys:
            times = self._recent(key, now)
            limit, window = self._limits[key[0]]
            if len(times) >= limit:
                wait = max(wait, times[len(times) - limit] + window - now)
        return max(1, math.ceil(wait)) if wait > 0 else 0

    def retry_after(self, name: str | None, address: str, *, known: bool = False) -> int:
        """0 if an attempt at ``name`` (``None``: no name, only the address counts) from
        ``address`` may be made now, else the whole number of seconds (at least 1) until
        it may."""
        with self._lock:
            return self._wait(self._keys(name, address, known), self._clock())

    def _reserve(
        self, name: str | None, address: str, known: bool = False
    ) -> tuple[list[tuple[str, ...]], float]:
        """Counts an attempt now, or raises SignInThrottled (counting nothing)."""
        keys = self._keys(name, address, known)
        with self._lock:
            now = self._clock()
            wait = self._wait(keys, now)
            if wait:
                raise SignInThrottled(f"{self._refusal}: retry in {wait} s", retry_after=wait)
            for key in keys:
                times = self._recent(key, now)
                times.append(now)
                self._failures[key] = times
                self._failures.move_to_end(key)
            while len(self._failures) > self._max_keys:
                self._failures.popitem(last=False)
        return keys, now

    def _release(self, keys: list[tuple[str, ...]], at: float) -> None:
        """Takes back an attempt counted at ``at``."""
        with self._lock:
            for key in keys:
                times = self._failures.get(key)
                if times is not None and at in times:
                    times.remove(at)
                    if not times:
                        del self._failures[key]

    @contextlib.contextmanager
    def guess(self, name: str | None, address: str, *, known: bool = False) -> Iterator[None]:
        """A guess at ``name``'s password from ``address`` (``None``: a guess at a name
        free for sign-up, counted for the address alone; ``known``: an address the name
        signed in from before, outside its ``per_name`` count), counted before the block
        runs, or :class:`~doubleholdem.errors.SignInThrottled` while the throttle says
        to wait. A block that ends well takes it back, and so does one that raises
        :class:`~doubleholdem.errors.SignInThrottled` (nothing was tried); any other
        error leaves it counted (the name's earlier failures stay counted after a
        success too: guesses in flight at once keep theirs)."""
        keys, at = self._reserve(name, address, known)
        try:
            yield
        except SignInThrottled:
            self._release(keys, at)
            raise
        self._release(keys, at)

    @contextlib.contextmanager
    def spend(self, address: str) -> Iterator[None]:
        """One use of a bounded allowance by ``address`` (a sign-up), counted before the
        block runs, or :class:`~doubleholdem.errors.SignInThrottled` while the
        allowance is spent; taken back if the block raises, kept if it ends well."""
        keys, at = self._reserve(None, address)
        try:
            yield
        except BaseException:
            self._release(keys, at)
            raise


def sign_in_guess(
    throttle: Throttle, db: Connection, name: str, address: str
) -> AbstractContextManager[None]:
    """The sign-in rule, of the server's desk and of the bank alike: a guess at
    ``name``'s password from ``address``, counted by ``throttle``
    (:meth:`Throttle.guess`), with the address ``known`` (spared the name's count
    against guessers with many addresses) when the name signed in from it before, as
    ``db`` keeps it (:func:`~doubleholdem.accounts.households.signed_in`)."""
    return throttle.guess(name, address, known=households.signed_in(db, name, address))


def open_session(db: Connection, account: Account, *, address: str, now: float) -> str:
    """``account`` signed in (or up) from ``address`` at ``now``, inside the caller's
    transaction: the address recorded (:func:`~doubleholdem.accounts.households.record_address`)
    and a new session started; its token."""
    households.record_address(db, account, address, now=now)
    return start_session(db, account, now=now)


def sign_in(
    db: Connection,
    transaction: Callable[[], AbstractContextManager[Connection]],
    name: str,
    password: str,
    *,
    address: str,
    passwords: Passwords,
    clock: Callable[[], float],
    throttle: Throttle | None = None,
    hashing: AbstractContextManager[object] | None = None,
) -> tuple[Account, str]:
    """Signs ``name`` in from ``address``: the account and a new session token; the one
    sign-in of the server's desk and of the command line's bank. With a ``throttle``,
    refused with :class:`~doubleholdem.errors.SignInThrottled` while it says to wait,
    each guess counted by :func:`sign_in_guess` before the password is checked. The
    password is checked on ``db`` outside any write transaction (Argon2 holds no
    lock), within ``hashing`` (a bound on the hashes at once, if any), by
    :func:`~doubleholdem.accounts.accounts.check_sign_in`, which says what is refused
    and makes a weaker hash anew; then, in one ``transaction()`` (a write transaction,
    yielding its connection), the new hash is stored, the address recorded and the
    session started, at ``clock()``."""
    guess = nullcontext() if throttle is None else sign_in_guess(throttle, db, name, address)
    with guess:
        with nullcontext() if hashing is None else hashing:
            account, rehashed = check_sign_in(db, name, password, passwords=passwords)
        now = clock()
        with transaction() as tx:
            if rehashed is not None:
                set_password_hash(tx, account, rehashed)
            token = open_session(tx, account, address=address, now=now)
    return account, token


def address_key(address: str) -> str:
    """What the throttle counts of ``address``: an IPv6 address's /64, any other
    address (IPv4, or text that is not an IP address) as given.

    >>> address_key("2001:db8:1:2:aaaa::1"), address_key("203.0.113.7")
    ('2001:db8:1:2::/64', '203.0.113.7')
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)
