"""A PostgreSQL connection that reads the package's SQL text: psycopg 3
(``pip install doubleholdem[postgres]``) in autocommit mode, each ``?`` placeholder
sent as PostgreSQL's own ``$1``, ``$2``, ... (server-side parameters: no value is ever
spliced into the text). Statements run often are prepared by psycopg on their own.

>>> native("SELECT name FROM accounts WHERE state != 'a?' AND id = ? AND name = ?")
"SELECT name FROM accounts WHERE state != 'a?' AND id = $1 AND name = $2"
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from doubleholdem.database.connection import POSTGRESQL
from doubleholdem.extras import require

if TYPE_CHECKING:
    import psycopg

__all__ = ["PostgresConnection", "connect", "native"]

# what a placeholder may not be found in: quoted text, quoted names, $$ bodies
_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|\"[^\"]*\"|\$\$.*?\$\$|\?", re.DOTALL)


@functools.lru_cache(maxsize=1024)
def native(sql: str) -> str:
    """``sql`` with its ``?`` placeholders numbered as PostgreSQL's ``$n`` (those inside
    quotes left as they are)."""
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        if match.group() != "?":
            return match.group()
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, sql)


class PostgresConnection:
    """A :class:`~doubleholdem.database.connection.Connection` over a psycopg 3
    connection in autocommit mode (which it takes over: it closes it)."""

    dialect = POSTGRESQL

    def __init__(
        self, connection: psycopg.Connection[Any], opener: Callable[[], psycopg.Connection[Any]]
    ) -> None:
        self.connection = connection
        self._opener = opener  # a new session, as the first was opened
        self._settings: dict[str, str] = {}  # the session's own (set_session)
        # whether a session the server ended while no transaction was open on it is
        # replaced at the next statement (:meth:`_session`); set by the owner that wants it
        self.renews = False
        self._outside = True  # no transaction was open after the last statement that ran

    @property
    def lost(self) -> bool:
        """Whether the session is lost: ended under it (the server ended it: an idle
        transaction's timeout, ``pg_terminate_backend``, a restart), or left busy in
        pipeline mode (psycopg's ``executemany`` runs in one: the server ending the
        session in its midst may leave the connection there, open, with every later
        statement refused, "cannot exit pipeline mode while busy"; seen in CI's runs of
        test_cluster_room). Every statement on it fails until :meth:`reopen`."""
        connection = self.connection
        return bool(connection.closed) or connection.pgconn.pipeline_status != 0

    def set_session(self, name: str, value: str) -> None:
        """Sets the session's setting ``name`` to ``value``, again on each new session
        (:meth:`reopen`)."""
        self.execute("SELECT set_config(?, ?, false)", (name, value)).close()
        self._settings[name] = value

    def reopen(self) -> None:
        """A new session in place of the lost one (whoever holds this object uses the
        new one), as the first was opened, with the settings :meth:`set_session` set."""
        self.connection.close()
        self.connection = self._opener()
        self._outside = True
        for name, value in self._settings.items():
            self.execute("SELECT set_config(?, ?, false)", (name, value)).close()

    @property
    def in_transaction(self) -> bool:
        """True between a ``BEGIN`` and its ``COMMIT`` or ``ROLLBACK`` (a failed
        transaction too, until it is rolled back; one the server ended with the session,
        until the session is opened anew)."""
        if self.lost:
            return not self._outside
        return self.connection.pgconn.transaction_status != _idle()

    def _session(self) -> psycopg.Connection[Any]:
        """Before a statement: the session, a new one (:meth:`reopen`) in place of one
        :attr:`lost` while no transaction was open on it if :attr:`renews` (a read on
        the event loop between two commits: without this every such read failed until
        the next commit, and a table whose next move began with one, a bot's bankroll,
        failed each second for good). One ended inside a transaction stays lost until
        its owner ends that transaction and reopens it: the rest of the transaction
        must not run, in autocommit, on a new session."""
        if self.renews and self._outside and self.lost:
            self.reopen()
        return self.connection

    def _ran(self) -> None:
        """After a statement that succeeded: whether a transaction is open now."""
        self._outside = self.connection.pgconn.transaction_status == _idle()

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> psycopg.RawCursor[Any]:
        """Runs one statement; its cursor."""
        import psycopg

        cursor = psycopg.RawCursor(self._session())
        cursor.execute(native(sql), parameters or None)
        self._ran()
        return cursor

    def executemany(
        self, sql: str, parameters: Iterable[Sequence[Any]], /
    ) -> psycopg.RawCursor[Any]:
        """Runs one statement once per set of ``parameters``."""
        import psycopg

        cursor = psycopg.RawCursor(self._session())
        cursor.executemany(native(sql), parameters)
        self._ran()
        return cursor

    def close(self) -> None:
        """Closes the connection (a transaction left open is rolled back)."""
        self.connection.close()


@functools.cache
def _idle() -> int:
    """psycopg's status of a session with no transaction open (imported once: psycopg
    is an extra, and this runs at each statement)."""
    from psycopg.pq import TransactionStatus

    return TransactionStatus.IDLE


def connect(url: str, *, read_only: bool = False, timeout: float = 10.0) -> PostgresConnection:
    """A connection to the PostgreSQL database at ``url`` (libpq's URL or key=value
    text), in autocommit mode; ``read_only`` makes every transaction of it read only.
    ``timeout``: seconds to wait for the server."""
    require("psycopg", "postgres", "a PostgreSQL database")
    import psycopg

    def opened() -> psycopg.Connection[Any]:
        # text as UTF-8 whatever the database's encoding (in a SQL_ASCII one psycopg
        # would otherwise give text back as bytes)
        connection = psycopg.connect(
            url, autocommit=True, connect_timeout=max(1, round(timeout)), client_encoding="utf8"
        )
        if read_only:
            connection.execute("SET default_transaction_read_only = on")
        return connection

    return PostgresConnection(opened(), opened)
