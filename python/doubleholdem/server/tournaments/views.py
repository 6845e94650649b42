"""What the lobby and the page show of a tournament (docs/tournaments.md, "The API"),
JSON-ready: :func:`summary` for the lobby (structure, entrants, prize pool, level) and
:func:`detail` for one tournament (the payouts, every entrant with its place and prize,
the tables, the level and its clock, hand-for-hand, the moves between tables, a deal
offered, and for a signed-in entrant its own table as its seat sees it). Tables are
numbered from 1 as the tournament numbers them; seats from 0, as in the protocol."""

from __future__ import annotations

from typing import Any, NamedTuple

from doubleholdem.server.tournaments.stored import REGISTERING, Stored
from doubleholdem.tournament import Clocking, Tournament, TournamentConfig

__all__ = [
    "Parts",
    "clock",
    "detail",
    "entry_row",
    "me",
    "shared",
    "structure",
    "summary",
    "table_row",
]


def summary(stored: Stored, tournament: Tournament, now: float) -> dict[str, Any]:
    """The lobby's line of a tournament."""
    config = tournament.config
    level = _level(stored, tournament, now)
    blinds = config.blinds.levels[level]
    return {
        "id": stored.id,
        "name": stored.spec.name,
        "kind": config.kind.value,
        "status": "cancelling" if stored.cancelling else stored.status,
        "ended_by": stored.ended_by,
        "variant": config.variant.value,
        "betting": config.betting.value,
        "buy_in": config.buy_in,
        "fee": config.fee,
        "starting_stack": config.starting_stack,
        "capacity": config.capacity,
        "entrants": len(tournament.entries),
        "left": tournament.remaining,
        "pool": tournament.pool,
        "start_at": stored.spec.start_at,
        "level": level + 1,
        "blinds": {"small": blinds.small_blind, "big": blinds.big_blind, "ante": blinds.ante},
        "tables": len(tournament.tables),
    }


def _level(stored: Stored, tournament: Tournament, now: float) -> int:
    if stored.status == REGISTERING:
        return 0
    return tournament.current_level(now)


def clock(tournament: Tournament, now: float) -> dict[str, Any]:
    """The level of the next hand (from 1) and its clock (TRN-7, TRN-8): by time, the
    seconds until the level (or the break) ends; by hands, the hands left in it."""
    blinds = tournament.config.blinds
    if tournament.state == REGISTERING:
        return {"level": 1, "by": blinds.by.value, "on_break": False, "ends_in": None}
    if blinds.by is Clocking.HANDS:
        level = blinds.level_after_hands(tournament.most_hands)
        end = sum(lv.length for lv in blinds.levels[: level + 1])
        last = level == len(blinds.levels) - 1
        left = None if last else end - tournament.most_hands
        return {"level": level + 1, "by": "hands", "on_break": False, "hands_left": left}
    elapsed = now - tournament.started_at
    moment = blinds.at_time(elapsed)
    ends = 0.0
    for number, lv in enumerate(blinds.levels[: moment.level + 1]):
        ends += lv.length * 60
        if number < moment.level or moment.on_break:
            ends += lv.break_after * 60
    last = moment.level == len(blinds.levels) - 1 and not moment.on_break
    return {"level": moment.level + 1, "by": "time", "on_break": moment.on_break,
            "ends_in": None if last else max(0.0, ends - elapsed)}  # fmt: skip


def detail(
    stored: Stored, tournament: Tournament, now: float, viewer: str | None
) -> dict[str, Any]:
    """The page's view of a tournament, for the signed-in account ``viewer``."""
    view = shared(stored, tournament, now, parts(stored, tournament))
    view["me"] = me(stored, tournament, viewer)
    return view


def parts(stored: Stored, tournament: Tournament) -> Parts:
    """The :class:`Parts` of the tournament as it is now, made whole (they change only
    with its changes: the clock and the other small parts are :func:`shared`'s)."""
    return Parts(
        structure(tournament.config),
        list(tournament.prizes()),
        [entry_row(stored, tournament, e.number) for e in tournament.entries],
        [table_row(tournament, number) for number in sorted(tournament.tables)],
    )


class Parts(NamedTuple):
    """The parts of :func:`detail` that grow with the field, made apart (and kept apart
    by :class:`~doubleholdem.server.tournaments.shared_view.SharedView`): the levels
    (:func:`structure`), the prize of each paid place, every entry's row
    (:func:`entry_row`) and every table's (:func:`table_row`, in number order)."""

    structure: list[dict[str, Any]]
    payouts: list[int]
    entries: list[dict[str, Any]]
    tables: list[dict[str, Any]]


def shared(stored: Stored, tournament: Tournament, now: float, parts: Parts) -> dict[str, Any]:
    """:func:`detail` without ``me`` (what every watcher sees), of ``parts``."""
    view = summary(stored, tournament, now)
    view["structure"] = parts.structure
    view["level_by"] = tournament.config.blinds.by.value
    view["payouts"] = parts.payouts
    view["clock"] = clock(tournament, now)
    view["hand_for_hand"] = tournament.hand_for_hand
    view["entries"] = parts.entries
    view["tables"] = parts.tables
    view["moves"] = stored.moves[-20:]
    view["deal"] = stored.deal
    return view


def structure(config: TournamentConfig) -> list[dict[str, Any]]:
    """The levels of ``config``'s blind structure."""
    return [
        {"level": n + 1, "small": lv.small_blind, "big": lv.big_blind, "ante": lv.ante,
         "length": lv.length, "break": lv.break_after}
        for n, lv in enumerate(config.blinds.levels)
    ]  # fmt: skip


def table_row(tournament: Tournament, number: int) -> dict[str, Any]:
    """Table ``number``'s row: its hand, and each seated player's chips."""
    table = tournament.tables[number]
    return {"table": number, "hand": table.hand_number, "in_hand": table.in_hand,
            "players": [{"seat": seat, "player": table.player(seat), "chips": table.stack(seat)}
                        for seat in sorted(tournament.seats[number])]}  # fmt: skip


def entry_row(stored: Stored, tournament: Tournament, number: int) -> dict[str, Any]:
    """Entry ``number``'s row: its place, prize, chips and seat."""
    entry = tournament.entries[number]
    chips = None
    if entry.table is not None and entry.seat is not None:
        chips = tournament.tables[entry.table].stack(entry.seat)
    prize = stored.paid.get(number, 0) if stored.paid else entry.prize
    return {"entry": number, "player": entry.player, "bot": entry.player in stored.bots,
            "place": entry.place, "shared": list(entry.shared), "prize": prize,
            "chips": chips, "table": entry.table, "seat": entry.seat}  # fmt: skip


def me(stored: Stored, tournament: Tournament, viewer: str | None) -> dict[str, Any] | None:
    """What :func:`detail` shows ``viewer`` of its own: its entry, its place and prize,
    its last move between tables and its table's view from its seat (its cards and its
    options); ``None`` for no viewer."""
    if viewer is None:
        return None
    own = tournament.entries_of(viewer)
    if not own:
        return {"player": viewer, "registered": False}
    entry = own[-1]
    me: dict[str, Any] = {"player": viewer, "registered": True, "entry": entry.number,
                          "place": entry.place, "table": entry.table, "seat": entry.seat,
                          "prize": stored.paid.get(entry.number, 0)}  # fmt: skip
    moved = [m for m in stored.moves if m["player"] == viewer]
    me["last_move"] = moved[-1] if moved else None
    if entry.table is not None and entry.seat is not None:
        me["view"] = tournament.tables[entry.table].view(entry.seat, events=False)
    return me
