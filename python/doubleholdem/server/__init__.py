"""The reference game server: tables in one asyncio process, a browser page, WebSockets
(``docs/PROTOCOL.md``), SQLite for durability. Needs ``pip install doubleholdem[server]``
for the app itself (:mod:`doubleholdem.server.app`); :mod:`~doubleholdem.server.protocol`
and :mod:`~doubleholdem.server.storage` need nothing beyond the standard library."""
