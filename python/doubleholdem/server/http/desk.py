"""The server's accounts desk: sign-up, sign-in, sign-out, the session of a request,
and an account's own records, on connections of its own to the room's SQLite file (one
per thread, WAL; each change a ``BEGIN IMMEDIATE`` transaction of its own), never the
group commit's. Argon2 is slow on purpose: every method that may hash is called off the
event loop (``starlette.concurrency.run_in_threadpool``), and hashes outside any write
transaction, so that no table waits on it.

>>> import os, tempfile
>>> from doubleholdem.accounts.accounts import Passwords
>>> from doubleholdem.server.settings import HASH_SLOTS, MAX_HASH_SLOTS, RoomSettings
>>> fast = Passwords(time_cost=1, memory_cost=8, insecure=True)  # tests only
>>> folder = tempfile.mkdtemp()
>>> desk = Desk(os.path.join(folder, "room.db"), RoomSettings(welcome_chips=500), passwords=fast)
>>> ann, token = desk.sign_up("ann", "correct horse", address="192.0.2.1")
>>> desk.session(token).name, desk.me("ann")["balance"]
('ann', 500)
>>> desk.sign_out(token)
>>> desk.session(token) is None
True
>>> desk.close()
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from doubleholdem.accounts import accounts, ledger, sessions
from doubleholdem.accounts.accounts import Account, Passwords
from doubleholdem.accounts.schema import ensure_schema
from doubleholdem.accounts.sessions import Throttle
from doubleholdem.accounts.wallet import LedgerWallet
from doubleholdem.database.connection import Connection, begin, reading
from doubleholdem.database.failure import database_errors
from doubleholdem.database.postgres import PostgresConnection
from doubleholdem.errors import HashingBusy
from doubleholdem.server.cluster import leases
from doubleholdem.server.settings import HASH_SLOTS, MAX_HASH_SLOTS, RoomSettings
from doubleholdem.server.storage.hands import player_records
from doubleholdem.server.storage.thread_connections import ThreadConnections
from doubleholdem.table.history import SeatHand, seat_hands

__all__ = ["BUSY_SECONDS", "HASH_SLOTS", "MY_HANDS", "STATEMENT_PAGE", "Desk"]

BUSY_SECONDS = 5.0  # how long a change waits for the group commit's write lock
STATEMENT_PAGE = 50  # the most statement lines in one answer
SIGNUP_WINDOW = 3600.0  # seconds over which sign-ups from one address are counted
MY_HANDS = 20  # the most hands in one answer of ``GET /api/me/hands``


class Desk:
    """The accounts of the room whose database is at ``path``, as ``settings`` say
    (``welcome_chips``, ``signups_per_address``). ``passwords`` hashes (OWASP's
    Argon2id by default), in at most ``hash_slots`` threads at once (by default the
    settings', ``serve --hash-slots``: 1 to 64; one more is
    refused at once with :class:`~doubleholdem.errors.HashingBusy`: hashing never
    takes the server's thread pool); ``clock`` the wall time of sessions;
    ``throttle`` counts failed sign-ins (5 per address and account and 20 per address
    in 5 minutes by default; :class:`~doubleholdem.accounts.sessions.Throttle`), and
    sign-ups of taken names with them. Thread-safe: each thread gets its own
    connection."""

    def __init__(
        self,
        path: str,
        settings: RoomSettings,
        *,
        passwords: Passwords | None = None,
        clock: Callable[[], float] = time.time,
        throttle: Throttle | None = None,
        hash_slots: int | None = None,
    ) -> None:
        hash_slots = settings.hash_slots if hash_slots is None else hash_slots
        if not 1 <= hash_slots <= MAX_HASH_SLOTS:
            raise ValueError(f"a desk hashes in 1..{MAX_HASH_SLOTS} slots, not {hash_slots}")
        self.hash_slots = hash_slots
        self.path = path
        self.settings = settings
        self._passwords = passwords
        self._clock = clock
        self.throttle = Throttle(clock=time.monotonic) if throttle is None else throttle
        per_hour = (max(1, settings.signups_per_address), SIGNUP_WINDOW)
        self.signups = Throttle(
            clock=time.monotonic,
            per_address=per_hour,
            refusal="too many sign-ups from your address",
        )
        self._slots = threading.BoundedSemaphore(hash_slots)
        self._lock = threading.Lock()  # the hasher
        # named by the room's process: a process that finds it dead ends its sessions,
        # and so the ledger's lock one of them may hold in a transaction it never ends
        name = leases.session_name(settings.process)
        self._connections = ThreadConnections(path, busy_seconds=BUSY_SECONDS, name=name)
        with self._transaction() as db:
            ensure_schema(db)

    @property
    def passwords(self) -> Passwords:
        """The password hasher (made on first use: the defaults cost 19 MiB)."""
        with self._lock:
            if self._passwords is None:
                self._passwords = Passwords()
            return self._passwords

    def _db(self) -> Connection:
        """This thread's connection."""
        return self._connections.get()

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[Connection]:
        db = self._db()
        begin(db)
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    @contextlib.contextmanager
    def _snapshot(self) -> Iterator[Connection]:
        """A consistent read (one reading transaction, rolled back)."""
        db = self._db()
        with reading(db):
            yield db

    def close(self) -> None:
        """Closes every connection (call it once no thread uses the desk)."""
        self._connections.close()

    # ------------------------------------------------------------------ sessions

    def session(self, token: object) -> Account | None:
        """The account of a live session ``token`` (a cookie's value), or ``None``.
        A read: asked again once on a new database session if the server had ended
        this thread's (its processes end a process's sessions once it is found dead:
        one that was frozen finds them gone as it wakes), rather than failing the
        request (a WebSocket opened then was answered 500)."""
        db = self._db()
        try:
            return sessions.session_account(db, token, now=self._clock())
        except database_errors():
            if not (isinstance(db, PostgresConnection) and db.lost):
                raise
        return sessions.session_account(self._db(), token, now=self._clock())

    def sign_up(self, name: str, password: str, *, address: str) -> tuple[Account, str]:
        """A new account with the room's welcome chips (in the same transaction), signed
        in from ``address``: the account and its session token. Raises
        :class:`~doubleholdem.errors.InvalidAccountName`,
        :class:`~doubleholdem.errors.InvalidPassword` or
        :class:`~doubleholdem.errors.AccountExists` (before any hash, and counted
        against the address like a failed sign-in), or
        :class:`~doubleholdem.errors.SignInThrottled` beyond the room's
        ``signups_per_address`` an hour (reserved before the hash, taken back if the
        sign-up fails) or the address's failures; nothing is written then."""
        accounts.check_person_name(name)
        accounts.check_password(password)
        with self.throttle.guess(None, address), self._signup_allowance(address):
            with self._snapshot() as db:
                accounts.check_name_free(db, name)
            with self._hashing():
                hashed = self.passwords.hash(password)  # off the write lock
            now = self._clock()
            with self._transaction() as db:
                account = accounts.create_account(
                    db,
                    name,
                    password,
                    passwords=self.passwords,
                    welcome=self.settings.welcome_chips,
                    now=now,
                    password_hash=hashed,
                )
                token = sessions.open_session(db, account, address=address, now=now)
        return account, token

    def _signup_allowance(self, address: str) -> contextlib.AbstractContextManager[None]:
        """The room's sign-ups from ``address`` in an hour, one reserved for the block
        (none counted when the room sets no bound)."""
        if self.settings.signups_per_address <= 0:
            return contextlib.nullcontext()
        return self.signups.spend(address)

    @contextlib.contextmanager
    def _hashing(self) -> Iterator[None]:
        """One of the desk's hash slots for the block, or
        :class:`~doubleholdem.errors.HashingBusy` at once when all are taken."""
        if not self._slots.acquire(blocking=False):
            raise HashingBusy("the server is busy checking passwords: retry in 1 s", retry_after=1)
        try:
            yield
        finally:
            self._slots.release()

    def sign_in(self, name: str, password: str, *, address: str) -> tuple[Account, str]:
        """Signs ``name`` in from ``address``: the account and a new session token.
        :class:`~doubleholdem.errors.SignInThrottled` while the throttle says to wait;
        :class:`~doubleholdem.errors.BadCredentials` for an unknown name and a wrong
        password alike, after the same work (counted by the throttle before it)."""
        return sessions.sign_in(
            self._db(),
            self._transaction,
            name,
            password,
            address=address,
            passwords=self.passwords,
            clock=self._clock,
            throttle=self.throttle,
            hashing=self._hashing(),
        )

    def sign_out(self, token: object) -> None:
        """Revokes the session ``token`` (an unknown one changes nothing)."""
        with self._transaction() as db:
            sessions.end_session(db, token, now=self._clock())

    # ------------------------------------------------------------------ records

    def me(self, name: str) -> dict[str, Any]:
        """The account's name, state, balance and open seats (table ids)."""
        with self._snapshot() as db:
            account = accounts.get_account(db, name)
            return {
                "name": account.name,
                "state": account.state,
                "balance": ledger.balance(db, accounts.ledger_account(account)),
                "seats": LedgerWallet(db).seats(account.name),
            }

    def hands(self, name: str) -> dict[str, Any]:
        """The account's last :data:`MY_HANDS` hands, newest first, each as its seat saw
        it (:func:`~doubleholdem.table.history.seat_hands`): ``table`` (one-based, as
        the page and PHH number it), ``number`` and ``phh``; found through the hand index
        (:func:`~doubleholdem.server.storage.hands.player_records`: each hand's record, which
        holds its PHH). A hand of a tournament's table has ``tournament`` (from 0, as the
        tournaments' API numbers them) and ``table`` the table's number in it."""
        with self._snapshot() as db:
            logs = [[record] for record in player_records(db, name, last=MY_HANDS)]
        found = [_said(hand) for hand in seat_hands(logs, player=name)]
        return {"hands": found[:MY_HANDS]}

    def statement(self, name: str, *, before: int | None = None) -> dict[str, Any]:
        """The account's ledger lines, newest first: at most :data:`STATEMENT_PAGE`
        transactions numbered below ``before`` (all when ``None``), each with the balance
        after it, and ``next``, the ``before`` of the next page (``None``: the last)."""
        with self._snapshot() as db:
            account = accounts.get_account(db, name)
            lines = ledger.statement(
                db, accounts.ledger_account(account), last=STATEMENT_PAGE + 1, before=before
            )
        more = len(lines) > STATEMENT_PAGE
        lines = lines[:STATEMENT_PAGE]
        return {
            "lines": [line.to_json() for line in lines],
            "next": lines[-1].seq if more else None,
        }


def _said(hand: SeatHand) -> dict[str, Any]:
    """A hand of ``GET /api/me/hands``: its table one-based (a tournament's table by its
    number in the tournament, with the tournament), its number and its PHH."""
    if hand.tournament is None:
        return {"table": hand.table + 1, "number": hand.number, "phh": hand.phh}
    tournament, table = hand.tournament
    return {"tournament": tournament, "table": table, "number": hand.number, "phh": hand.phh}
