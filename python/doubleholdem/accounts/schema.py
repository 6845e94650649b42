"""The tables of :mod:`doubleholdem.accounts` in a SQLite or PostgreSQL database
(:mod:`doubleholdem.database`), created if missing and versioned in a row of their own
(``accounts_meta``). They share the file with the
game server's tables (``meta``, ``tables``, ``moves``, ``hands``, ``tokens``,
``actions``) and never touch them: every name here starts with ``account`` or
``ledger_``.

The two databases hold the same tables, columns and constraints, written once in SQLite's
words (:data:`SQLITE_TABLES`) and said in PostgreSQL's (:data:`POSTGRES_TABLES`, by
:func:`doubleholdem.database.ddl.postgres`): SQLite's ``COLLATE NOCASE`` names are
PostgreSQL's ``citext`` (its contrib extension, created if missing), whole numbers are
64-bit (``BIGINT``) and times ``DOUBLE PRECISION`` there.

Ledger rows are append-only: triggers refuse an ``UPDATE`` or a ``DELETE`` of a
transaction or an entry (and on PostgreSQL a ``TRUNCATE``, in PL/pgSQL) (a writer with
the database in hand can drop the triggers; the hash
chain, checked by :func:`doubleholdem.accounts.audit.audit`, still shows the change). A
database that has the accounts' tables but lost triggers is refused
(:class:`~doubleholdem.errors.MissingTriggers`) unless they are restored on purpose:
re-making them in silence would hide that they were dropped.

>>> import sqlite3
>>> db = sqlite3.connect(":memory:", isolation_level=None)
>>> ensure_schema(db)
>>> ensure_schema(db)  # idempotent
>>> schema_version(db)
'2'
>>> _ = db.execute("DROP TRIGGER ledger_entries_delete_refused")
>>> from doubleholdem.errors import MissingTriggers
>>> try:
...     ensure_schema(db)
... except MissingTriggers as refused:
...     print(refused.missing)
('ledger_entries_delete_refused',)
>>> ensure_schema(db, restore_triggers=True)
>>> missing_triggers(db)
()
"""

from __future__ import annotations

from doubleholdem.database.connection import (
    SQLITE,
    Connection,
    begin,
    dialect,
    has_table,
    serialise,
    trigger_names,
)
from doubleholdem.database.ddl import postgres
from doubleholdem.errors import DamagedDatabase, MissingTriggers, SchemaMismatch

__all__ = [
    "APPEND_ONLY_TRIGGERS",
    "LEDGER_KINDS",
    "POSTGRES_TABLES",
    "POSTGRES_TRIGGERS",
    "SCHEMA_VERSION",
    "SQLITE_TABLES",
    "UPGRADES_FROM",
    "append_only_triggers",
    "check_schema",
    "create_tables",
    "ensure_schema",
    "missing_triggers",
    "schema_version",
]

SCHEMA_VERSION = 2
UPGRADES_FROM = ("1",)  # upgraded in place: 1 lacked the ledger's tournament accounts
_VERSION_KEY = "schema"
LEDGER_KINDS = ("player", "bot", "table", "tournament", "house", "cashier")
_KINDS = ", ".join(f"'{kind}'" for kind in LEDGER_KINDS)
# the ledger's accounts with their cached balance (one of SQLITE_TABLES)
_LEDGER_ACCOUNTS = f"""CREATE TABLE IF NOT EXISTS ledger_accounts (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ({_KINDS})),
        name TEXT NOT NULL,
        balance INTEGER NOT NULL DEFAULT 0,
        UNIQUE (kind, name)
    )"""

# The ledger accounts every database has; their names are fixed.
HOUSE = ("house", "house")
CASHIER = ("cashier", "cashier")

SQLITE_TABLES = (
    "CREATE TABLE IF NOT EXISTS accounts_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    # people and bots; names are unique without regard to case
    """CREATE TABLE IF NOT EXISTS accounts (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        role TEXT NOT NULL CHECK (role IN ('player', 'admin', 'bot')),
        state TEXT NOT NULL CHECK (state IN ('active', 'frozen', 'closed')),
        password_hash TEXT,
        created REAL NOT NULL
    )""",
    # each account's name key (accounts.lookalike): names that look alike are one
    """CREATE TABLE IF NOT EXISTS account_name_keys (
        account_id INTEGER PRIMARY KEY REFERENCES accounts (id),
        key TEXT NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS account_name_keys_by_key ON account_name_keys (key)",
    # sign-in sessions: the SHA-256 of the token, never the token
    """CREATE TABLE IF NOT EXISTS account_sessions (
        hash TEXT PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES accounts (id),
        created REAL NOT NULL,
        expires REAL NOT NULL,
        revoked REAL
    )""",
    "CREATE INDEX IF NOT EXISTS account_sessions_by_account ON account_sessions (account_id)",
    # addresses accounts signed in from (households)
    """CREATE TABLE IF NOT EXISTS account_addresses (
        account_id INTEGER NOT NULL REFERENCES accounts (id),
        address TEXT NOT NULL,
        first_seen REAL NOT NULL,
        last_seen REAL NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (account_id, address)
    )""",
    "CREATE INDEX IF NOT EXISTS account_addresses_by_address ON account_addresses (address)",
    # the open seats of accounts (one per account per table)
    """CREATE TABLE IF NOT EXISTS account_seats (
        account_id INTEGER NOT NULL REFERENCES accounts (id),
        table_id INTEGER NOT NULL,
        PRIMARY KEY (account_id, table_id)
    )""",
    # the ledger: accounts with their cached balance, transactions, entries
    _LEDGER_ACCOUNTS,
    """CREATE TABLE IF NOT EXISTS ledger_transactions (
        seq INTEGER PRIMARY KEY,
        key TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        memo TEXT NOT NULL,
        created REAL NOT NULL,
        prev TEXT NOT NULL,
        hash TEXT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS ledger_entries (
        seq INTEGER NOT NULL,
        account_id INTEGER NOT NULL,
        amount INTEGER NOT NULL,
        PRIMARY KEY (seq, account_id)
    )""",
    "CREATE INDEX IF NOT EXISTS ledger_entries_by_account ON ledger_entries (account_id, seq)",
)

# the same tables in PostgreSQL's words (doubleholdem.database.ddl), with the contrib
# extension of the names without case (trusted: a database's owner may create it)
POSTGRES_TABLES = ("CREATE EXTENSION IF NOT EXISTS citext", *map(postgres, SQLITE_TABLES))

APPEND_ONLY_TRIGGERS = {
    f"ledger_{table}_{verb}_refused": (
        f"CREATE TRIGGER IF NOT EXISTS ledger_{table}_{verb}_refused "
        f"BEFORE {verb.upper()} ON ledger_{table} "
        "BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END"
    )
    for table in ("transactions", "entries")
    for verb in ("update", "delete")
}

# the one function the append-only triggers call (an integrity error, as SQLite's)
_APPEND_ONLY_FUNCTION = """CREATE OR REPLACE FUNCTION ledger_append_only() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'the ledger is append-only'
            USING ERRCODE = 'integrity_constraint_violation';
    END $$"""

POSTGRES_TRIGGERS = {
    f"ledger_{table}_{verb}_refused": (
        f"CREATE OR REPLACE TRIGGER ledger_{table}_{verb}_refused "
        f"BEFORE {verb.upper()} ON ledger_{table} "
        f"FOR EACH {'STATEMENT' if verb == 'truncate' else 'ROW'} "
        "EXECUTE FUNCTION ledger_append_only()"
    )
    for table in ("transactions", "entries")
    for verb in ("update", "delete", "truncate")
}
_POSTGRES_APPEND_ONLY = (_APPEND_ONLY_FUNCTION, *POSTGRES_TRIGGERS.values())


def schema_version(db: Connection) -> str | None:
    """The accounts schema version stored in ``db`` (text), or ``None`` if it has none."""
    if not has_table(db, "accounts_meta"):
        return None
    row = db.execute("SELECT value FROM accounts_meta WHERE key = ?", (_VERSION_KEY,)).fetchone()
    return None if row is None else str(row[0])


def ensure_schema(db: Connection, *, restore_triggers: bool = False) -> None:
    """Creates the accounts tables of ``db`` if missing (idempotent), with the house
    and cashier ledger accounts. Inside the caller's transaction when there is one
    (never committing it), else in one of its own. A database of another schema
    version is refused with :class:`~doubleholdem.errors.SchemaMismatch` naming both
    (version 1 is upgraded in place to 2: :data:`UPGRADES_FROM`); one that has the
    accounts' tables but lacks append-only triggers with
    :class:`~doubleholdem.errors.MissingTriggers` naming them, unless
    ``restore_triggers`` (then they are made anew)."""
    own = not db.in_transaction
    if own:
        begin(db)
    try:
        serialise(db, "schema")
        _create(db, restore_triggers=restore_triggers)
    except BaseException:
        if own:
            db.execute("ROLLBACK")
        raise
    if own:
        db.execute("COMMIT")


def append_only_triggers(db: Connection) -> dict[str, str]:
    """The append-only triggers of ``db``'s dialect: name -> the statement that makes
    it (:data:`APPEND_ONLY_TRIGGERS` on SQLite, :data:`POSTGRES_TRIGGERS`)."""
    return APPEND_ONLY_TRIGGERS if dialect(db) == SQLITE else POSTGRES_TRIGGERS


def missing_triggers(db: Connection) -> tuple[str, ...]:
    """The append-only triggers ``db`` lacks (or, on PostgreSQL, has disabled), by name
    in order (reads only)."""
    present = trigger_names(db)
    return tuple(name for name in sorted(append_only_triggers(db)) if name not in present)


def check_schema(db: Connection, path: str) -> None:
    """Refuses, reading only, a database ``db`` (the file at ``path``) that holds no
    accounts' tables (:class:`~doubleholdem.errors.DamagedDatabase`: not a doubleholdem
    room database) or those of another version (:class:`SchemaMismatch`)."""
    found = schema_version(db)
    if found is None:
        raise DamagedDatabase(
            f"{path}: not a doubleholdem room database (it has no accounts tables)"
        )
    _same_version(found)


def _same_version(found: str | None) -> None:
    if found is not None and found != str(SCHEMA_VERSION) and found not in UPGRADES_FROM:
        raise SchemaMismatch(
            f"the database's accounts schema is version {found}, this doubleholdem reads "
            f"version {SCHEMA_VERSION}: use the doubleholdem that wrote it",
            found=found,
            expected=SCHEMA_VERSION,
        )


def create_tables(db: Connection, *, triggers: bool = True) -> None:
    """Creates the accounts' tables, indexes and (``triggers``) append-only triggers
    that ``db`` lacks, and no row (:func:`ensure_schema` adds the version and the house's
    and cashier's accounts; a copy of a room brings its own). SQLite's triggers are
    made "IF NOT EXISTS" each time; PostgreSQL's are replaced (which locks their
    tables), so only made when asked."""
    sqlite = dialect(db) == SQLITE
    for statement in SQLITE_TABLES if sqlite else POSTGRES_TABLES:
        db.execute(statement)
    if sqlite or triggers:
        for statement in append_only_triggers(db).values() if sqlite else _POSTGRES_APPEND_ONLY:
            db.execute(statement)


def _create(db: Connection, *, restore_triggers: bool) -> None:
    found = schema_version(db)
    _same_version(found)
    missing = () if found is None else missing_triggers(db)
    if missing and not restore_triggers:
        raise _missing(missing)
    if found in UPGRADES_FROM:
        _upgrade_ledger_accounts(db, sqlite=dialect(db) == SQLITE)
    create_tables(db, triggers=found is None or bool(missing))
    db.execute(
        "INSERT INTO accounts_meta VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = ?",
        (_VERSION_KEY, str(SCHEMA_VERSION), str(SCHEMA_VERSION)),
    )
    for kind, name in (HOUSE, CASHIER):
        db.execute(
            "INSERT INTO ledger_accounts (kind, name) VALUES (?, ?) ON CONFLICT DO NOTHING",
            (kind, name),
        )
    _key_names(db)


def _upgrade_ledger_accounts(db: Connection, *, sqlite: bool) -> None:
    """Version 1 to 2: ``ledger_accounts`` takes the kinds of :data:`LEDGER_KINDS` (its
    CHECK names them), its rows kept, ids included (the entries name accounts by id; no
    trigger or view reads the table). SQLite cannot change a CHECK: the table is made
    anew; PostgreSQL's constraint is replaced."""
    if not sqlite:
        db.execute(
            "ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_check, "
            f"ADD CONSTRAINT ledger_accounts_kind_check CHECK (kind IN ({_KINDS}))"
        )
        return
    db.execute("ALTER TABLE ledger_accounts RENAME TO ledger_accounts_v1")
    db.execute(_LEDGER_ACCOUNTS)
    db.execute("INSERT INTO ledger_accounts SELECT id, kind, name, balance FROM ledger_accounts_v1")
    db.execute("DROP TABLE ledger_accounts_v1")


def _missing(missing: tuple[str, ...]) -> MissingTriggers:
    """The refusal of a database that lost the append-only triggers ``missing``."""
    which = "trigger" if len(missing) == 1 else "triggers"
    verb = "is" if len(missing) == 1 else "are"
    return MissingTriggers(
        f"the ledger's append-only {which} {', '.join(missing)} {verb} missing (dropped: "
        "ledger rows may have been changed since): run `doubleholdem accounts audit --db "
        "DB` to see what changed, then `doubleholdem serve --repair` restores them",
        missing=missing,
    )


def _key_names(db: Connection) -> None:
    """Gives the accounts made before name keys existed theirs."""
    missing = db.execute(
        "SELECT id, name FROM accounts WHERE id NOT IN (SELECT account_id FROM account_name_keys)"
    ).fetchall()
    if missing:
        from doubleholdem.accounts.lookalike import name_key

        db.executemany(
            "INSERT INTO account_name_keys VALUES (?, ?)",
            [(id_, name_key(str(name))) for id_, name in missing],
        )
