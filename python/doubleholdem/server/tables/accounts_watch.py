"""The signed-in clients' accounts (:class:`AccountsWatch`, a part the
:class:`~doubleholdem.server.tables.room.Room` holds): the addresses each account
connected from (households), the connections closed when their account is frozen or
closed elsewhere (the command line) or their session revoked."""

from __future__ import annotations

import asyncio
import logging

from doubleholdem.accounts import households
from doubleholdem.accounts.accounts import get_account, inactive
from doubleholdem.database.failure import database_errors
from doubleholdem.server import oplog, protocol
from doubleholdem.server.storage.storage import Storage
from doubleholdem.server.tables.connection import Connection
from doubleholdem.server.tables.runner import TableRunner

__all__ = ["ACCOUNTS_CHECK_SECONDS", "MAX_ADDRESSES", "AccountsWatch"]

MAX_ADDRESSES = 64  # addresses remembered per account, for households
ACCOUNTS_CHECK_SECONDS = 0.5  # how often the room looks for accounts frozen elsewhere
_log = logging.getLogger("doubleholdem.server")


class AccountsWatch:
    """The accounts of the room's ``connections`` (the room's own set, read here),
    checked in ``store``."""

    def __init__(self, store: Storage, connections: set[Connection]) -> None:
        self.store = store
        self.connections = connections
        # households: the addresses each account (lower case) connected from since start
        self.addresses: dict[str, set[str]] = {}

    def connected(self, account: str, address: str) -> None:
        """``account`` connected from ``address``."""
        seen = self.addresses.setdefault(account.lower(), set())
        if len(seen) < MAX_ADDRESSES:
            seen.add(address)

    async def watch(self) -> None:
        """Every ``ACCOUNTS_CHECK_SECONDS``: if another connection committed to the
        database since the last look (the command line freezing an account), checks
        the accounts of the open connections."""
        seen = None
        while True:
            try:
                version = self.store.data_version()
                if version != seen:
                    seen = version
                    self.check()
            except database_errors():  # the database fails for now: the next look tries again
                _log.warning("could not check the accounts' states", exc_info=True)
            await asyncio.sleep(ACCOUNTS_CHECK_SECONDS)

    def check(self) -> None:
        """Tells why and closes the connections of accounts no longer active (frozen or
        closed) that were when they connected, as a sign-out does: a seat stays; a new
        connection is signed in only as the session allows (a closed account's sessions
        are over; a frozen one's keeps its name, which cannot sit, and stays open)."""
        names = {c.account for c in self.connections if c.account is not None}
        if not names:
            return
        db = self.store.committed()  # (on the loop: a commit may be in flight)
        blocked = inactive(db, names)
        told = set()
        for connection in list(self.connections):
            if connection.active and connection.account in blocked:
                state = get_account(db, connection.account).state
                connection.send(protocol.account_blocked(state))
                connection.close()
                told.add(connection.account)
        for account in sorted(told):
            oplog.event("account_blocked", account=account)

    def signed_out(self, session: str) -> None:
        """The session whose token hashes to ``session`` was revoked: its connections
        are closed (a seat stays, away, until its account signed in again resumes it)."""
        for connection in list(self.connections):
            if connection.session == session:
                connection.close()

    def household_at(self, connection: Connection, runner: TableRunner | None) -> bool:
        """True if another account seated at ``runner``'s table shares an address with
        ``connection``'s account: one its WebSockets came from since the server started,
        or one the database keeps of its sign-ins (``account_addresses``: across
        restarts), ``connection``'s own address among them."""
        me = (connection.account or "").lower()
        others = {p.lower() for _, p in runner.humans.values()} - {me} if runner else set()
        if not others:
            return False
        db = self.store.committed()
        kept = households.household(db, me) + households.signed_in_from(db, connection.address)
        return bool(others & {name.lower() for name in kept}) or any(
            connection.address in self.addresses.get(player, ()) for player in others
        )
