"""A tournament as JSON text that survives a restart (RULES.md TRN-20): its settings,
its random generator, its entries and places, and every table's own snapshot
(:meth:`Table.to_json <doubleholdem.table.Table.to_json>`), under a checksum. Without its
tables (``tables=False``) it names their numbers only, and is read back with the tables
given (each restored from its own snapshot): a server stores each table apart, and
writes again only those that changed.

>>> from doubleholdem.tournament import Tournament, TournamentConfig
>>> tournament = Tournament(TournamentConfig(kind="sit-and-go", capacity=2), seed=4)
>>> _ = tournament.register("ann"); _ = tournament.register("bob")
>>> copy = Tournament.from_json(tournament.to_json())
>>> copy.to_json() == tournament.to_json()
True
>>> core = tournament.to_json(tables=False)
>>> tables = {n: Table.from_json(t.to_json()) for n, t in tournament.tables.items()}
>>> Tournament.from_json(core, tables=tables).to_json() == tournament.to_json()
True
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
from collections.abc import Mapping
from typing import Any, TypeVar

from doubleholdem.errors import DoubleHoldemError, InvalidSnapshot, TamperedSnapshot
from doubleholdem.table.table import Table
from doubleholdem.tournament.config import TournamentConfig
from doubleholdem.tournament.records import Entry

__all__ = ["VERSION", "dump", "load"]

T = TypeVar("T")

VERSION = 1
_PLAIN = ("state", "started_at", "hands", "most_hands", "issued", "pool", "fees",
          "remaining", "hand_for_hand", "level")  # fmt: skip


def dump(tournament: Any, key: bytes | None = None, *, tables: bool = True) -> str:
    """The text of a :class:`~doubleholdem.tournament.Tournament`:
    ``{"version":1,"sha256":...,"tournament":{...}}``; with a secret ``key``, an HMAC
    (``"hmac"``) over it and over every table's snapshot instead. Without ``tables``,
    its ``tables`` are their numbers only (each table's snapshot stored apart)."""
    t = tournament
    version, inner, gauss = t.rng.getstate()
    body: dict[str, Any] = {name: getattr(t, name) for name in _PLAIN}
    body.update(
        config=t.config.to_dict(),
        rng=[version, list(inner), gauss],
        entries=[[e.number, e.player, e.table, e.seat, e.place, list(e.shared), e.prize,
                  e.rebuys, e.add_on] for e in t.entries],
        tables=({str(n): table.to_json(key) for n, table in t.tables.items()} if tables
                else list(t.tables)),
        seats={str(n): {str(s): e for s, e in seats.items()} for n, seats in t.seats.items()},
        table_levels={str(n): level for n, level in t.table_levels.items()},
        start_chips={str(n): {str(e): c for e, c in chips.items()}
                     for n, chips in t.start_chips.items()},
        placings=[[e, place, list(shared)] for e, place, shared in t.placings],
        entrants_then=t.entrants_then,
        pending=[[list(pair) for pair in group] for group in t.pending],
        round_played=sorted(t.round_played),
        round_out=[list(pair) for pair in t.round_out],
    )  # fmt: skip
    if t.tables_opened > max(t.tables, default=0):  # a broken table's number is not reused
        body["tables_opened"] = t.tables_opened  # (else it is the highest table's)
    text = _text(body)
    kind = "sha256" if key is None else "hmac"
    return f'{{"version":{VERSION},"{kind}":"{_digest(text, key)}","tournament":{text}}}'


def load(
    cls: type[T],
    text: str | bytes,
    key: bytes | None = None,
    tables: Mapping[int, Table] | None = None,
) -> T:
    """The tournament :func:`dump` wrote (with the same ``key``); one written without
    its tables takes ``tables`` (number -> table, exactly the numbers it names);
    :class:`~doubleholdem.errors.InvalidSnapshot` (:class:`~doubleholdem.errors.TamperedSnapshot`
    if its checksum, its HMAC, its tables or its chips do not add up) if it is not one."""
    try:
        data = json.loads(text)
    except (ValueError, TypeError, RecursionError) as error:
        raise InvalidSnapshot(f"a tournament snapshot is JSON text: {error}") from None
    if not isinstance(data, dict) or data.get("version") != VERSION:
        raise InvalidSnapshot(f"not a version {VERSION} tournament snapshot")
    body = data.get("tournament")
    digest = data.get("sha256" if key is None else "hmac")
    if not isinstance(body, dict):
        raise InvalidSnapshot("tournament snapshot: not in the form to_json writes")
    if not isinstance(digest, str):
        keyed = "hmac" in data
        raise TamperedSnapshot(
            "tournament snapshot: it is keyed (hmac): read it with its key"
            if keyed
            else "tournament snapshot: not keyed, but a key was given"
        )
    if not hmac.compare_digest(_digest(_text(body), key), digest):
        what = "checksum" if key is None else "HMAC"
        raise TamperedSnapshot(f"tournament snapshot: the {what} does not match")
    try:
        tournament = _restore(cls, body, key, _tables(body["tables"], tables, key))
    except DoubleHoldemError as error:
        raise TamperedSnapshot(f"tournament snapshot: {error}") from None
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as error:
        raise TamperedSnapshot(f"tournament snapshot: {type(error).__name__}: {error}") from None
    restored = tournament.tables.values()  # type: ignore[attr-defined]
    if sum(table.bought_in for table in restored) != tournament.issued:  # type: ignore[attr-defined]
        raise TamperedSnapshot("tournament snapshot: the chips do not add up")
    return tournament


def _tables(
    stored: Any, given: Mapping[int, Table] | None, key: bytes | None
) -> list[tuple[int, Table]]:
    """The tables of a snapshot, by number: its own (an object of snapshots), or those
    ``given`` for the numbers it names (a list)."""
    if isinstance(stored, dict):
        if given is not None:
            raise InvalidSnapshot("its tables are in it: none may be given")
        return [(int(n), Table.from_json(text, key)) for n, text in _by_number(stored)]
    if given is None:
        raise InvalidSnapshot("it was written without its tables: they must be given")
    if sorted(stored) != sorted(given):
        raise InvalidSnapshot(f"it has tables {sorted(stored)}, not {sorted(given)}")
    return [(int(n), given[n]) for n in stored]


def _restore(
    cls: type[T], body: dict[str, Any], key: bytes | None, tables: list[tuple[int, Table]]
) -> T:
    rng = random.Random()
    version, inner, gauss = body["rng"]
    rng.setstate((version, tuple(inner), gauss))
    t: Any = cls(TournamentConfig.from_dict(body["config"]), rng=rng)  # type: ignore[call-arg]
    for name in _PLAIN:
        setattr(t, name, body[name])
    t.entries = [Entry(n, p, tb, st, pl, tuple(sh), pr, rb, ad)
                 for n, p, tb, st, pl, sh, pr, rb, ad in body["entries"]]  # fmt: skip
    t.tables = dict(tables)
    for number, table in t.tables.items():  # the settings of its level, as this version
        table.config = t.config.table_config(body["table_levels"][str(number)])  # has them
    t.seats = {int(n): {int(s): e for s, e in _by_number(seats)}
               for n, seats in _by_number(body["seats"])}  # fmt: skip
    t.table_levels = {int(n): level for n, level in _by_number(body["table_levels"])}
    t.start_chips = {int(n): {int(e): c for e, c in chips.items()}
                     for n, chips in body["start_chips"].items()}  # fmt: skip
    t.placings = [(e, place, tuple(shared)) for e, place, shared in body["placings"]]
    t.entrants_then = list(body["entrants_then"])
    t.pending = [[(e, c) for e, c in group] for group in body["pending"]]
    t.round_played = set(body["round_played"])
    t.round_out = [(e, c) for e, c in body["round_out"]]
    # written where a table above those it holds was opened (and broke); else theirs
    t.tables_opened = int(body.get("tables_opened", max(t.tables, default=0)))
    return t  # type: ignore[no-any-return]


def _by_number(items: dict[str, Any]) -> list[tuple[str, Any]]:
    """The items of a JSON object whose keys are numbers, in the numbers' order (the
    order the tournament made them in)."""
    return sorted(items.items(), key=lambda item: int(item[0]))


def _text(body: dict[str, Any]) -> str:
    return json.dumps(body, separators=(",", ":"), sort_keys=True)


def _digest(text: str, key: bytes | None = None) -> str:
    if key is None:
        return hashlib.sha256(text.encode()).hexdigest()
    return hmac.new(key, text.encode(), hashlib.sha256).hexdigest()
