"""The reference game server: tables in one asyncio process, a browser page, WebSockets
(``docs/PROTOCOL.md``), SQLite for durability, as a tree of its four concerns, each built
on the ones after it:

- :mod:`~doubleholdem.server.http`: the front door (the ASGI app, its page, the accounts'
  HTTP API); needs ``pip install doubleholdem[server]``;
- :mod:`~doubleholdem.server.tables`: the room, its tables and their clients;
- :mod:`~doubleholdem.server.money`: money at the tables, wallets outside the database;
- :mod:`~doubleholdem.server.storage`: the database, snapshots and moves, the group commit;

and, beside them, what all four share: the wire format (:mod:`~doubleholdem.server.protocol`),
the room's settings, the operator's log, the process's metrics and its tuning.
:mod:`~doubleholdem.server.protocol` and :mod:`~doubleholdem.server.storage` need nothing
beyond the standard library."""
