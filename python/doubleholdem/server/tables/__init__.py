"""The room and its tables, without HTTP: the :class:`~doubleholdem.server.tables.room.Room`
that reads each client's requests, its tables (:mod:`~doubleholdem.server.tables.tables`)
and the runner that plays each one, a client's connection, what the clients watching a
table are sent, and the requests a wallet outside the database pays for. Built on
:mod:`doubleholdem.server.money` and :mod:`doubleholdem.server.storage`."""
