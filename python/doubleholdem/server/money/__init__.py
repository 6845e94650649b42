"""Money at the tables: one interface for a table's money
(:mod:`~doubleholdem.server.money.table_money`) with one implementation per kind, chosen
once per room (:mod:`~doubleholdem.server.money.choose`): play chips, the ledger, an
embedder's wallet; the calls to a wallet outside the database and the gate they pass
through, the bots' bankrolls, and the room's audit
(:mod:`~doubleholdem.server.money.money`). Built on :mod:`doubleholdem.server.storage`."""
