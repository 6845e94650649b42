"""``doubleholdem accounts ...``: a room's accounts and cashier from the command line
(:mod:`doubleholdem.accounts`). Every subcommand takes ``--db PATH``, the server's
database: a SQLite file, or a PostgreSQL URL ``postgresql://USER@HOST:PORT/NAME``
(docs/postgres.md). Only ``create`` makes a new file, or writes the accounts' tables into
a database; the others refuse one that is not a room database, and ``show``, ``audit``
and ``shared-addresses`` open it read-only.

- ``create NAME [--admin] [--welcome N]``: the password is read from standard input
  (its first line) or, on a terminal, asked twice; never an argument;
- ``freeze|unfreeze|close NAME``;
- ``deposit|withdraw NAME AMOUNT --ref TEXT``: a reference used twice is applied once;
- ``show NAME [--json]``: balance, state, seats and the last statement lines;
- ``audit [--json] [--snapshot-key FILE]``: exit status 0 when the ledger holds
  together, 1 when not; on a game server's database each table's chips (stacks and
  the pot of the hand in progress) must equal its ledger account too;
- ``shared-addresses [--json]``: accounts that signed in from one address.
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from typing import Any

from doubleholdem.accounts.accounts import MAX_PASSWORD
from doubleholdem.accounts.bank import Bank, Receipt
from doubleholdem.accounts.ledger import MAX_AMOUNT
from doubleholdem.cli.base import Parser, UsageError, bounded
from doubleholdem.database.connection import has_table
from doubleholdem.database.failure import database_error, database_errors

__all__ = ["add_parser", "run"]

_STATES = {"freeze": "frozen", "unfreeze": "active", "close": "closed"}


def add_parser(subparsers: Any) -> None:
    """Registers ``doubleholdem accounts SUBCOMMAND ...``."""
    p = subparsers.add_parser("accounts", help="accounts, the cashier and the ledger's audit")
    commands = p.add_subparsers(dest="subcommand", required=True, parser_class=Parser)
    common = Parser(add_help=False)
    common.add_argument(
        "--db",
        required=True,
        metavar="PATH",
        help="the server's database: a SQLite file or a postgresql:// URL",
    )
    amount = bounded(int, 1, MAX_AMOUNT, "an amount of chips")

    create = commands.add_parser("create", parents=[common], help="create an account")
    create.add_argument("name", metavar="NAME")
    create.add_argument("--admin", action="store_true", help="an operator's account")
    create.add_argument(
        "--welcome",
        type=bounded(int, 0, MAX_AMOUNT, "an amount of chips"),
        default=0,
        help="chips given from the house (default 0)",
    )
    for verb in _STATES:
        state = commands.add_parser(verb, parents=[common], help=f"{verb} an account")
        state.add_argument("name", metavar="NAME")
    for verb in ("deposit", "withdraw"):
        money = commands.add_parser(verb, parents=[common], help=f"{verb} chips")
        money.add_argument("name", metavar="NAME")
        money.add_argument("amount", metavar="AMOUNT", type=amount)
        money.add_argument(
            "--ref", required=True, help="the outside reference (applied once per reference)"
        )
    show = commands.add_parser("show", parents=[common], help="an account's balance and seats")
    show.add_argument("name", metavar="NAME")
    show.add_argument("--json", action="store_true", help="print one JSON object")
    check = commands.add_parser("audit", parents=[common], help="check the ledger (exit 0 or 1)")
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.add_argument(
        "--snapshot-key",
        metavar="FILE",
        help="the room's snapshot key (serve --snapshot-key), to read a keyed server "
        "database (default: none, for a room whose snapshots carry checksums)",
    )
    shared = commands.add_parser(
        "shared-addresses", parents=[common], help="accounts that signed in from one address"
    )
    shared.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


_READ_ONLY = frozenset({"show", "audit", "shared-addresses"})


def run(args: argparse.Namespace) -> int:
    """Runs the subcommand; the exit status. Only ``create`` writes into a file that
    is not a room database yet; ``show``, ``audit`` and ``shared-addresses`` open the
    database read-only. The databases' errors are typed errors naming the database (one
    line and exit status 2: :func:`~doubleholdem.database.failure.database_error`)."""
    try:
        return _run(args)
    except database_errors() as error:
        raise database_error(args.db, error) from None


def _run(args: argparse.Namespace) -> int:
    create, read_only = args.subcommand == "create", args.subcommand in _READ_ONLY
    with Bank(args.db, create=create, read_only=read_only) as bank:
        if args.subcommand == "create":
            account = bank.create(args.name, _password(), admin=args.admin, welcome=args.welcome)
            print(f"created {account.role} {account.name}")
            return 0
        if args.subcommand in _STATES:
            account = bank.set_state(args.name, _STATES[args.subcommand])
            print(f"{account.name} is {account.state}")
            return 0
        if args.subcommand in ("deposit", "withdraw"):
            move = bank.deposit if args.subcommand == "deposit" else bank.withdraw
            _print_receipt(args, move(args.name, args.amount, ref=args.ref))
            return 0
        if args.subcommand == "show":
            return _show(args, bank.show(args.name))
        if args.subcommand == "audit":
            return _audit(args, _audit_database(args, bank))
        return _shared(args, bank)


def _password() -> str:
    """The new password: the first line of standard input, or asked twice on a
    terminal (never echoed)."""
    if sys.stdin.isatty():
        first = getpass.getpass("password: ")
        if getpass.getpass("again: ") != first:
            raise UsageError("the two passwords differ")
        return first
    line = sys.stdin.readline(MAX_PASSWORD + 3)
    return line.removesuffix("\n").removesuffix("\r")


def _print_receipt(args: argparse.Namespace, receipt: Receipt) -> None:
    done = receipt.posted
    note = " (this reference was applied already: nothing changed)" if receipt.repeated else ""
    word = "deposit" if args.subcommand == "deposit" else "withdrawal"
    print(
        f"{word} {args.ref!r}: {done.transfer.amount} chips, transaction {done.seq}; "
        f"{args.name}'s balance is {receipt.balance}{note}"
    )


def _show(args: argparse.Namespace, shown: dict[str, Any]) -> int:
    if args.json:
        print(json.dumps(shown))
        return 0
    seats = ", ".join(str(table + 1) for table in shown["seats"]) or "none"  # from 1
    print(f"{shown['name']} ({shown['role']}, {shown['state']}): balance {shown['balance']}")
    print(f"seats at tables: {seats}")
    for line in shown["statement"]:
        memo = " ".join(f"{k}={v}" for k, v in sorted(line["memo"].items()))
        print(
            f"  #{line['seq']} {line['kind']} {line['amount']:+d} -> {line['balance']} "
            f"({line['other']}) {memo}".rstrip()
        )
    return 0


def _audit_database(args: argparse.Namespace, bank: Bank) -> dict[str, Any]:
    """The audit; on a game server's database with its tables' chips as well."""
    from doubleholdem.server.money.money import audit_room

    if not has_table(bank.db, "tables"):
        return bank.audit()
    key = None
    if args.snapshot_key:
        from doubleholdem.cli.serve import read_key

        key = read_key(args.snapshot_key)
    return audit_room(bank.db, key)


def _audit(args: argparse.Namespace, result: dict[str, Any]) -> int:
    if args.json:
        print(json.dumps(result))
        return 0 if result["ok"] else 1
    if result["ok"]:
        print("the ledger holds together")
    else:
        print("\n".join(["the ledger does not hold together:", *result["problems"]]))
    for text in result.get("unchecked", []):
        print(f"not checked: {text}")
    return 0 if result["ok"] else 1


def _shared(args: argparse.Namespace, bank: Bank) -> int:
    found = bank.shared_addresses()
    if args.json:
        print(json.dumps({"shared": [{"address": a, "names": list(n)} for a, n in found]}))
    else:
        print("\n".join(f"{a}: {' '.join(n)}" for a, n in found) or "no shared address")
    return 0
