"""Tables changing hands between the processes of one room (issue 33), the tables' side:
what a process reads of the tables it took over (:func:`read_taken`, off the event loop),
which tables it hands over when it holds more than its share (:func:`surplus`), and its
clients told to go when it stops serving a table (:func:`let_go`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from doubleholdem.database.connection import Connection as Database
from doubleholdem.server import protocol
from doubleholdem.server.storage.survey import StoredTable, read_chat, read_table
from doubleholdem.server.tables.runner import TableRunner

__all__ = ["Taken", "let_go", "read_taken", "surplus"]

Taken = list[tuple[StoredTable, list[dict[str, Any]]]]  # each table taken, with its chat


def read_taken(db: Database, epochs: dict[int, int], *, chat_lines: int) -> Taken:
    """The stored tables of ``epochs`` (table -> epoch) with their last ``chat_lines``
    chat lines, read on ``db`` (the membership's connection, off the event loop)."""
    return [
        (read_table(db, table_id), read_chat(db, table_id, chat_lines))
        for table_id in sorted(epochs)
    ]


def surplus(runners: Iterable[TableRunner], count: int) -> set[int]:
    """The ``count`` tables to hand over: those with the fewest people, then with no
    hand in play, then the newest."""

    def busy(runner: TableRunner) -> tuple[int, bool, int]:
        return (len(runner.humans), runner.table.in_hand, -runner.id)

    return {runner.id for runner in sorted(runners, key=busy)[:count]}


def let_go(runner: TableRunner) -> None:
    """This process serves ``runner``'s table no more: each client watching it holds
    no seat here, is told ``elsewhere`` (another process serves the table: the lobby
    says which) and is closed (it connects again, and is sent where to go)."""
    for connection in runner.connections.let_go():
        connection.send(protocol.encode("elsewhere", table=runner.id))
        connection.close()
