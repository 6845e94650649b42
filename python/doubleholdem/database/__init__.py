"""The database behind one interface: SQLite (the embedded default, one file, nothing to
install) or PostgreSQL (``pip install doubleholdem[postgres]``: one database that many
processes share, that others back up, replicate and query), chosen by the text an
operator gives (``--db room.db`` or ``--db postgresql://...``).

The code above writes one SQL text for both (``?`` placeholders, ``INSERT ... ON
CONFLICT``, ``RETURNING``-free inserts) and never asks which database it has, except
through the few things that differ, each said once:

- :mod:`~doubleholdem.database.connection`: the :class:`Connection` protocol (a
  ``sqlite3.Connection`` is one as it is) and what differs by dialect: how a transaction
  begins, how writers are serialised, the id of a new row, the schema's catalogue;
- :mod:`~doubleholdem.database.postgres`: a psycopg 3 connection that reads that text;
- :mod:`~doubleholdem.database.url`: the chooser, from a path or a ``postgresql://`` URL;
- :mod:`~doubleholdem.database.failure`: each database's errors as the package's.
"""
