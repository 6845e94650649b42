"""``doubleholdem db copy SOURCE TARGET``: a room's SQLite file copied into a PostgreSQL
database (docs/postgres.md), audited before and after.

The source (a room database of this version's schema, opened read-only, read in one
snapshot: stop its server first, or what it writes meanwhile is not copied) is audited
(:func:`~doubleholdem.server.money.money.audit_room`: the ledger, each table's chips
against it, the wallet's calls still owed); a room whose audit finds problems is not
copied (exit status 1). The copy is one PostgreSQL transaction into a database that holds
no room yet; it is audited again before it commits and is rolled back, writing nothing,
unless the audit finds exactly what it found in the source. ``--snapshot-key FILE``: the
room's snapshot key, for a keyed room (``serve --snapshot-key``).
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
from typing import Any

from doubleholdem.cli.base import Parser, UsageError
from doubleholdem.database.connection import begin
from doubleholdem.database.failure import database_error, database_errors
from doubleholdem.database.url import connect, is_postgres, shown, sqlite

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    """Registers ``doubleholdem db copy SOURCE TARGET``."""
    p = subparsers.add_parser("db", help="the room's database: copy it into PostgreSQL")
    commands = p.add_subparsers(dest="subcommand", required=True, parser_class=Parser)
    copy = commands.add_parser(
        "copy", help="copy a room's SQLite file into PostgreSQL, audited before and after"
    )
    copy.add_argument("source", metavar="SOURCE", help="the room's SQLite file")
    copy.add_argument(
        "target", metavar="TARGET", help="a postgresql:// URL of a database with no room yet"
    )
    copy.add_argument(
        "--snapshot-key",
        metavar="FILE",
        help="the room's snapshot key (serve --snapshot-key; default: none, for a room "
        "whose snapshots carry checksums)",
    )
    copy.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Copies the room; the exit status (0 copied, 1 an audit found problems: nothing
    copied). The databases' errors are typed errors naming the database."""
    if not is_postgres(args.target):
        raise UsageError("TARGET is a PostgreSQL URL (postgresql://USER@HOST/NAME)")
    if is_postgres(args.source) or not os.path.isfile(args.source):
        raise UsageError(f"SOURCE is a room's SQLite file: no such file {args.source}")
    key = None
    if args.snapshot_key:
        from doubleholdem.cli.serve import read_key

        key = read_key(args.snapshot_key)
    try:
        source = sqlite(args.source, mode="ro")
        try:
            return _copy(args, source, key)
        finally:
            source.close()
    except database_errors() as error:
        where = args.source if isinstance(error, sqlite3.Error) else args.target
        raise database_error(where, error) from None


def _copy(args: argparse.Namespace, source: sqlite3.Connection, key: bytes | None) -> int:
    from doubleholdem.server.money.money import audit_room
    from doubleholdem.server.storage.copy import check_source, copy_room

    source.execute("BEGIN")  # one snapshot of the file, audited and copied
    check_source(source)
    before = audit_room(source, key)
    if not before["ok"]:
        return _report(args, {"copied": False, "before": before, "after": None, "rows": {}})
    target = connect(args.target)
    try:
        begin(target)
        rows = copy_room(source, target, progress=None if args.json else _progress)
        after = audit_room(target, key)
        same = after == before
        target.execute("COMMIT" if same else "ROLLBACK")
    finally:
        target.close()
    return _report(args, {"copied": same, "before": before, "after": after, "rows": rows})


def _progress(table: str, rows: int) -> None:
    print(f"copied {table}: {rows} rows", file=sys.stderr, flush=True)


def _report(args: argparse.Namespace, result: dict[str, Any]) -> int:
    if args.json:
        print(json.dumps({"source": args.source, "target": shown(args.target), **result}))
        return 0 if result["copied"] else 1
    before, after = result["before"], result["after"]
    if after is None:
        lines = [f"{args.source}: the audit finds problems, nothing copied:", *before["problems"]]
    elif not result["copied"]:
        lines = [
            f"{shown(args.target)}: the copy's audit differs from the source's, nothing copied:",
            *after["problems"],
        ]
    else:
        total = sum(result["rows"].values())
        lines = [
            f"copied {args.source} into {shown(args.target)}: {total} rows in "
            f"{len(result['rows'])} tables; the audit holds before and after"
        ]
    lines += [f"not checked: {text}" for text in before.get("unchecked", [])]
    print("\n".join(lines))
    return 0 if result["copied"] else 1
