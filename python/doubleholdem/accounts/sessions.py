"""Sign-in sessions and the sign-in throttle.

A session is a random token (``secrets.token_urlsafe(32)``: 256 bits) handed to the
client once; the database keeps only its SHA-256, with an expiry and, after sign-out,
the time it was revoked. A token the server did not issue, an expired or revoked one,
or one of a closed account finds no account.

:class:`Throttle` counts failed sign-ins per account name and per address over a
sliding window and answers how many seconds to wait before the next try (a server turns
that into HTTP 429 with ``Retry-After``). It keeps its counts in memory, bounded.

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
>>> throttle.failed("ann", "10.0.0.1"); throttle.failed("ann", "10.0.0.2")
>>> throttle.retry_after("ann", "10.0.0.3")
60
>>> clock[0] = 59.5
>>> throttle.retry_after("ann", "10.0.0.3")
1
"""

from __future__ import annotations

import hashlib
import math
import secrets
import sqlite3
from collections import OrderedDict, deque
from collections.abc import Callable

from doubleholdem.accounts.accounts import Account
from doubleholdem.errors import NotInTransaction

__all__ = [
    "SESSION_SECONDS",
    "Throttle",
    "end_all_sessions",
    "end_session",
    "purge_sessions",
    "session_account",
    "start_session",
    "token_hash",
]

SESSION_SECONDS = 14 * 24 * 3600.0
MAX_TOKEN = 200  # characters of a token worth hashing


def token_hash(token: str) -> str:
    """What the database keeps of a session token (never the token itself)."""
    return hashlib.sha256(token.encode()).hexdigest()


def _need_transaction(db: sqlite3.Connection) -> None:
    if not db.in_transaction:
        raise NotInTransaction("sessions are written inside the caller's transaction")


def start_session(
    db: sqlite3.Connection, account: Account, *, now: float, lifetime: float = SESSION_SECONDS
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


def session_account(db: sqlite3.Connection, token: object, *, now: float) -> Account | None:
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


def end_session(db: sqlite3.Connection, token: object, *, now: float) -> None:
    """Revokes a session (sign-out); a token that is not a live session is ignored."""
    _need_transaction(db)
    if isinstance(token, str) and 0 < len(token) <= MAX_TOKEN:
        db.execute(
            "UPDATE account_sessions SET revoked = ? WHERE hash = ? AND revoked IS NULL",
            (now, token_hash(token)),
        )


def end_all_sessions(db: sqlite3.Connection, account: Account, *, now: float) -> int:
    """Revokes every live session of ``account``; returns how many."""
    _need_transaction(db)
    cursor = db.execute(
        "UPDATE account_sessions SET revoked = ? WHERE account_id = ? AND revoked IS NULL",
        (now, account.id),
    )
    return cursor.rowcount


def purge_sessions(db: sqlite3.Connection, *, now: float) -> int:
    """Deletes the sessions that expired or were revoked before ``now``; returns how
    many."""
    _need_transaction(db)
    cursor = db.execute(
        "DELETE FROM account_sessions WHERE expires <= ? OR revoked <= ?", (now, now)
    )
    return cursor.rowcount


class Throttle:
    """Failed sign-ins counted per account name (without case) and per address: at
    most ``per_account[0]`` failures per ``per_account[1]`` seconds for a name, and
    likewise ``per_address`` for an address. Names that do not exist are counted like
    the others (the answer tells nothing about which names exist). ``clock`` gives the
    time in seconds (``time.monotonic`` in a server). At most ``max_keys`` names and
    addresses are remembered; the least recently failed are forgotten first."""

    def __init__(
        self,
        *,
        clock: Callable[[], float],
        per_account: tuple[int, float] = (5, 300.0),
        per_address: tuple[int, float] = (20, 300.0),
        max_keys: int = 100_000,
    ) -> None:
        for limit, window in (per_account, per_address):
            if limit < 1 or not window > 0:
                raise ValueError("a throttle allows at least 1 failure over a positive window")
        self._clock = clock
        self._limits = {"name": per_account, "address": per_address}
        self._failures: OrderedDict[tuple[str, str], deque[float]] = OrderedDict()
        self._max_keys = max_keys

    def _keys(self, name: str, address: str) -> list[tuple[str, str]]:
        return [("name", name.lower()), ("address", address)]

    def _recent(self, key: tuple[str, str], now: float) -> deque[float]:
        times = self._failures.get(key)
        if times is None:
            return deque()
        window = self._limits[key[0]][1]
        while times and times[0] <= now - window:
            times.popleft()
        if not times:
            del self._failures[key]
        return times

    def retry_after(self, name: str, address: str) -> int:
        """0 if a sign-in of ``name`` from ``address`` may be tried now, else the
        whole number of seconds (at least 1) until it may."""
        now = self._clock()
        wait = 0.0
        for key in self._keys(name, address):
            times = self._recent(key, now)
            limit, window = self._limits[key[0]]
            if len(times) >= limit:
                wait = max(wait, times[len(times) - limit] + window - now)
        return max(1, math.ceil(wait)) if wait > 0 else 0

    def failed(self, name: str, address: str) -> None:
        """Counts a failed sign-in of ``name`` from ``address``."""
        now = self._clock()
        for key in self._keys(name, address):
            times = self._recent(key, now)
            times.append(now)
            self._failures[key] = times
            self._failures.move_to_end(key)
            limit = self._limits[key[0]][0]
            while len(times) > limit:
                times.popleft()
        while len(self._failures) > self._max_keys:
            self._failures.popitem(last=False)

    def succeeded(self, name: str) -> None:
        """Forgets the failures of ``name`` after it signed in (the address keeps its
        count: one address guessing many names stays throttled)."""
        self._failures.pop(self._keys(name, "")[0], None)
