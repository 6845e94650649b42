"""``doubleholdem loadtest``: bot clients over WebSockets against a running server
(:mod:`doubleholdem.server.http.loadtest`). Only for servers on this machine or your own test
hosts."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
from typing import Any

from doubleholdem.cli.base import UsageError, add_json_option, add_seed_option, bounded, seed_of
from doubleholdem.database.url import is_postgres
from doubleholdem.server.http.loadtest import run_load
from doubleholdem.server.process import raise_file_limit

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    """Registers ``loadtest``."""
    p = subparsers.add_parser("loadtest", help="bot clients over WebSockets against a server")
    p.add_argument(
        "--url",
        required=True,
        nargs="+",
        action="extend",
        help="the server, e.g. http://127.0.0.1:8000; or each process of a room served by "
        "several (the clients are spread over all of them)",
    )
    p.add_argument(
        "--clients",
        type=bounded(int, 1, 100_000, "a count of clients"),
        required=True,
        help="clients (each takes a seat)",
    )
    p.add_argument(
        "--seconds",
        type=bounded(float, 0.001, 86_400, "a number of seconds"),
        required=True,
        help="how long they play",
    )
    p.add_argument(
        "--think",
        type=bounded(float, 0, 3600, "a number of seconds"),
        default=0.5,
        help="seconds before each answer",
    )
    p.add_argument(
        "--db",
        help="the server's database (its file on this machine, or its postgresql:// URL): "
        "run the accounts audit at the end (default: no audit)",
    )
    p.add_argument(
        "--follow",
        action="store_true",
        help="a client whose connection drops finds where its table is served now "
        "(another of the URLs) and resumes its seat there",
    )
    add_seed_option(p, "the clients' choices")
    add_json_option(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """The ``loadtest`` command."""
    if args.db is not None and not is_postgres(args.db) and not os.path.isfile(args.db):
        raise UsageError(f"--db {args.db}: no such database file")
    raise_file_limit()
    seed = seed_of(args)
    result = asyncio.run(
        run_load(
            args.url,
            args.clients,
            args.seconds,
            think=args.think,
            seed=seed,
            db=args.db,
            follow=args.follow,
        )
    )
    result["seed"] = seed
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key + ':':<12} {value}")
    clean = result["errors"] == 0 and result["chip_errors"] == 0
    return 0 if clean and result["audit_ok"] is not False else 1
