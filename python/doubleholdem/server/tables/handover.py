"""Tables changing hands between the processes of one room (issue 33), the tables' side:
what a process reads of the tables it took over (:func:`read_taken`, off the event loop),
which tables it hands over when it holds more than its share (:func:`surplus`), and its
clients told to go when it stops serving a table (:func:`let_go`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from doubleholdem.database.connection import Connection as Database
from doubleholdem.server import protocol
from doubleholdem.server.storage.storage import Storage, token_hash
from doubleholdem.server.storage.survey import StoredTable, read_chat, read_table
from doubleholdem.server.tables.directory import Directory
from doubleholdem.server.tables.runner import TableRunner

__all__ = ["Taken", "elsewhere", "let_go", "read_taken", "surplus"]

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


def elsewhere(
    message: protocol.Message, store: Storage, directory: Directory, served: Mapping[int, object]
) -> str | None:
    """The ``elsewhere`` reply (docs/PROTOCOL.md) to a ``watch``, ``sit`` or
    ``resume`` of a table that another process of the room serves (``address``
    ``null`` while no live process does: its owner died and none took it over
    yet, or it moves to or from this process); ``None`` for any other
    message, a table served here, or none in the room.
    A ``resume`` by token finds its table in the room's database (whichever process
    serves it) when the token is not of a seat here."""
    if isinstance(message, (protocol.Watch, protocol.Sit)):
        table_id: int | None = message.table
    elif isinstance(message, protocol.Resume) and message.token is None:
        table_id = message.table
    elif isinstance(message, protocol.Resume) and message.token is not None:
        found = store.seat_tokens.find(token_hash(message.token))
        table_id = None if found is None else found[0]
    else:
        return None
    place = None if table_id is None else directory.where(table_id)
    if place is None or table_id in served:
        return None
    return protocol.encode(
        "elsewhere",
        table=table_id,
        process=place.process or None,
        address=place.address or None,
    )
