"""``doubleholdem tournament simulate``: a whole tournament of bots
(:mod:`doubleholdem.tournament.simulate`); ``doubleholdem tournament cancel``: a room's
tournament cancelled on its database while no server serves it
(:mod:`doubleholdem.server.tournaments.offline`)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from doubleholdem.cli.base import (
    Parser,
    add_bots_run_options,
    add_structure_option,
    add_variant_option,
    bots_of,
    bounded,
    no_collections,
    seed_of,
)
from doubleholdem.errors import DoubleHoldemError
from doubleholdem.progress import ProgressBar
from doubleholdem.tournament.simulate import DEFAULT_BOTS, MOST_PLAYERS, simulate_tournament

__all__ = ["add_parser", "run"]

SHOWN = 10  # places printed as text (the JSON has them all)


def add_parser(subparsers: Any) -> None:
    """Registers ``doubleholdem tournament``."""
    parser = subparsers.add_parser("tournament", help="tournaments by the TDA rules")
    commands = parser.add_subparsers(dest="tournament_command", required=True, parser_class=Parser)
    p = commands.add_parser("simulate", help="a whole tournament of bots, to the last chip")
    p.add_argument("--players", type=bounded(int, 2, MOST_PLAYERS, "a number of players"),
                   default=1000, help="entrants")  # fmt: skip
    p.add_argument("--seats", type=bounded(int, 2, 10, "a number of seats"), default=9,
                   help="seats a table")  # fmt: skip
    p.add_argument("--stack", type=bounded(int, 1, 10**12, "a stack"), default=10_000,
                   help="starting stack")  # fmt: skip
    p.add_argument("--hands-per-level", type=bounded(int, 1, 10**6, "a number of hands"),
                   default=10, help="hands a level (the standard structure)")  # fmt: skip
    p.add_argument("--buy-in", type=bounded(int, 0, 10**12, "a buy-in"), default=100,
                   help="each entry's buy-in into the prize pool")  # fmt: skip
    add_variant_option(p, default="texas")
    add_structure_option(p, default="no-limit")
    add_bots_run_options(p, "the draw, the deals and the bots", DEFAULT_BOTS, "entrants")
    p.set_defaults(run=run)
    c = commands.add_parser(
        "cancel",
        help="cancel a room's tournament (no server serving the room)",
        description="Cancels tournament ID of the room's database by the room's rule "
        "(docs/room-tournaments.md): before the start every buy-in and fee goes back; "
        "after it the pool is paid out (fees kept), once the hand in play (if any) has "
        "ended at the room's next start. Refused while a server serves the room: cancel "
        "through its POST /api/tournaments/{id}/cancel as an operator instead.",
    )
    c.add_argument("id", type=bounded(int, 1, 10**9, "a tournament number"), metavar="ID",
                   help="the tournament's number, as the page shows it (from 1)")  # fmt: skip
    c.add_argument("--db", required=True, metavar="DB",
                   help="the room's database: a SQLite file or a postgresql:// URL")  # fmt: skip
    c.add_argument("--snapshot-key", metavar="FILE",
                   help="the room's snapshot key (serve --snapshot-key; default: none, for a "
                   "room whose snapshots carry checksums)")  # fmt: skip
    c.add_argument("--json", action="store_true", help="print one JSON object")
    c.set_defaults(run=run_cancel)


def run_cancel(args: argparse.Namespace) -> int:
    """``doubleholdem tournament cancel``."""
    from doubleholdem.cli.serve import read_key
    from doubleholdem.server.tournaments.offline import cancel_stored

    key = read_key(args.snapshot_key) if args.snapshot_key else None
    done = cancel_stored(args.db, args.id - 1, key)
    if args.json:
        print(json.dumps(done))
        return 0
    said = f"tournament {args.id} ({done['name']})"
    if done["status"] == "cancelling":
        print(f"{said} is cancelling: a hand is in play; the room pays out the pool by the "
              "settlement when it has ended (at its next start)")  # fmt: skip
        return 0
    print(f"{said} cancelled")
    for sale in done["refunded"]:
        print(f"  refunded {sale['player']}: {sale['buy_in']} + {sale['fee']} ({sale['what']})")
    for paid in done["paid"]:
        print(f"  paid {paid['player']} (entry {paid['entry'] + 1}): {paid['chips']}")
    return 0


def run(args: argparse.Namespace) -> int:
    """``doubleholdem tournament simulate``."""
    bots = bots_of(args)
    if not bots:
        raise DoubleHoldemError("--bots: give at least one bot")
    bar = ProgressBar(f"tournament: {args.players:,} players")
    try:
        with no_collections():
            run_ = simulate_tournament(
                players=args.players,
                seed=seed_of(args),
                variant=args.variant,
                betting=args.structure,
                bots=bots,
                seats=args.seats,
                starting_stack=args.stack,
                hands_per_level=args.hands_per_level,
                buy_in=args.buy_in,
                progress=bar,
            )
    finally:
        bar.close()
    if args.json:
        print(json.dumps(run_.to_dict()))
        return 0
    result = run_.result
    print(f"{run_.variant} {run_.betting}: {result.entrants:,} players at {run_.tables:,} tables, "
          f"seed {run_.seed}")  # fmt: skip
    print(f"{'place':>5}  {'player':16} {'prize':>12}")
    for place in result.places[:SHOWN]:
        print(f"{place.place:>5}  {place.player:16} {result.prizes.get(place.entry, 0):>12,}")
    paid = sum(1 for prize in result.prizes.values() if prize)
    print(f"pool {result.pool:,} over {paid:,} places; {result.hands:,} hands, "
          f"level {result.level}; {run_.seconds:.1f} s")  # fmt: skip
    return 0
