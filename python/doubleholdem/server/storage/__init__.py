"""The server's durable state: its SQLite database (made, checked, upgraded), the tables'
snapshots and moves (:mod:`~doubleholdem.server.storage.storage`, the move journal),
finished hands and their index, the reading of a damaged database, the lock that keeps one
server per database, and the group commit. Needs nothing above it in the server."""
