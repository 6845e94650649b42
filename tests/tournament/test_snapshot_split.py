"""A tournament's snapshot without its tables (what a server stores apart from each
table's, RULES.md TRN-20), and the tables its own steps changed (``touched``): a table
not named there is unchanged, so a server that stores only those loses nothing. Its
state cut into parts (``snapshot.parts``: one per entry, table and placing), read back
through JSON, is the tournament; a part missing or foreign is refused."""

from __future__ import annotations

import contextlib
import dataclasses
import json

import pytest

from doubleholdem.errors import InvalidSnapshot, TamperedSnapshot, TournamentError
from doubleholdem.table import Table
from doubleholdem.table.bots import make_bot
from doubleholdem.tournament import Rebuys, Tournament, snapshot

from .test_snapshot import CONFIG as BASE

# the snapshot tests' tournament, with add-ons and late registration to level 3
CONFIG = dataclasses.replace(
    BASE,
    late_registration=3,
    rebuys=Rebuys(until_level=2, price=10, chips=400, add_on_price=10, add_on_chips=400),
)


def _tables_of(tournament: Tournament, key: bytes | None = None) -> dict[int, str]:
    return {n: table.to_json(key) for n, table in tournament.tables.items()}


def _split(tournament: Tournament, key: bytes | None = None) -> Tournament:
    """The tournament read back from its snapshot without tables and each table's own."""
    core = tournament.to_json(key, tables=False)
    tables = {n: Table.from_json(text, key) for n, text in _tables_of(tournament, key).items()}
    return Tournament.from_json(core, key, tables=tables)


def _by_parts(tournament: Tournament, key: bytes | None = None) -> Tournament:
    """The tournament read back from its parts (through JSON) and each table's own."""
    found = json.loads(json.dumps(snapshot.parts(tournament)))
    tables = {n: Table.from_json(text, key) for n, text in _tables_of(tournament, key).items()}
    return snapshot.from_parts(Tournament, found, key, tables)


def _checked_step(tournament: Tournament, step: object, *args: object, **kw: object) -> object:
    """Calls ``step``; every table it did not name in ``touched`` is as before."""
    before = _tables_of(tournament)
    tournament.touched.clear()
    try:
        result = step(*args, **kw)  # type: ignore[operator]
    finally:
        after = _tables_of(tournament)
        for number, text in after.items():
            if number not in tournament.touched:
                assert before.get(number) == text, f"table {number} changed, not touched"
    return result


@pytest.mark.parametrize("seed", [1, 2])
def test_the_tables_a_step_changes_are_touched(seed: int) -> None:
    """Registration, the start, late entries, hands, rebuys, add-ons, re-entries,
    breaking and balancing: a table the step did not note is unchanged."""
    tournament = Tournament(CONFIG, seed=seed)
    for n in range(22):
        _checked_step(tournament, tournament.register, f"p{n}")
    _checked_step(tournament, tournament.start)
    bots = {}
    hands = late = 0
    while tournament.state == "running" and hands < 400:
        for number in tournament.ready_tables():
            if tournament.state != "running" or number not in tournament.ready_tables():
                continue
            table = _checked_step(tournament, tournament.start_hand, number)
            assert isinstance(table, Table)
            while table.in_hand:
                seat = table.to_act
                assert seat is not None
                player = table.player(seat)
                bot = bots.setdefault(player, make_bot("random", seed=len(bots)))
                table.decide(seat, bot.choose(table.observe(seat)))
            _checked_step(tournament, tournament.finish_hand, number)
            hands += 1
            busted = [
                tournament.entries[e].player for group in tournament.pending for e, _ in group
            ]
            out = [e.player for e in tournament.entries if e.place is not None]
            for player in [*busted, *out[-1:], tournament.entries[hands % 22].player]:
                for buy in (tournament.rebuy, tournament.add_on, tournament.re_enter):
                    with contextlib.suppress(TournamentError):  # refused: changed nothing
                        _checked_step(tournament, buy, player)
            if late < 3 and tournament.late_registration_open():
                _checked_step(tournament, tournament.register, f"late{late}")
                late += 1
            if hands % 10 == 0:
                assert _split(tournament).to_json() == tournament.to_json()
                assert _by_parts(tournament).to_json() == tournament.to_json()
    assert tournament.state == "finished"
    assert _by_parts(tournament).to_json() == tournament.to_json()


def test_its_parts_are_one_per_entry_table_and_placing_and_read_back_checked() -> None:
    tournament = Tournament(CONFIG, seed=5)
    for n in range(14):
        tournament.register(f"p{n}")
    tournament.start()
    found = snapshot.parts(tournament)
    assert set(found) == snapshot.part_names(found["tournament"])
    assert {n for n in found if n.startswith("entry/")} == {f"entry/{e}" for e in range(14)}
    assert {n for n in found if n.startswith("table/")} == {"table/1", "table/2", "table/3"}
    assert _by_parts(tournament).to_json() == tournament.to_json()
    tables = {n: Table.from_json(t.to_json()) for n, t in tournament.tables.items()}
    missing = {n: v for n, v in found.items() if n != "entry/3"}
    with pytest.raises(TamperedSnapshot, match=r"missing or foreign parts \['entry/3'\]"):
        snapshot.from_parts(Tournament, missing, None, tables)
    foreign = {**found, "entry/14": found["entry/3"]}
    with pytest.raises(TamperedSnapshot, match=r"missing or foreign parts \['entry/14'\]"):
        snapshot.from_parts(Tournament, foreign, None, tables)
    broken = {**found, "tournament": {**found["tournament"], "issued": 1}}
    with pytest.raises(TamperedSnapshot, match="chips do not add up"):
        snapshot.from_parts(Tournament, broken, None, tables)


def test_without_its_tables_it_names_them_and_takes_them_back() -> None:
    tournament = Tournament(CONFIG, seed=4)
    for n in range(14):
        tournament.register(f"p{n}")
    tournament.start()
    key = b"secret"
    core = tournament.to_json(key, tables=False)
    assert json.loads(core)["tournament"]["tables"] == [1, 2, 3]
    assert len(core) < len(tournament.to_json(key)) / 2
    assert _split(tournament, key).to_json(key) == tournament.to_json(key)
    tables = {n: Table.from_json(text, key) for n, text in _tables_of(tournament, key).items()}
    with pytest.raises(InvalidSnapshot, match="written without its tables"):
        Tournament.from_json(core, key)
    with pytest.raises(InvalidSnapshot, match="its tables are in it"):
        Tournament.from_json(tournament.to_json(key), key, tables=tables)
    missing = {n: t for n, t in tables.items() if n != 2}
    with pytest.raises(TamperedSnapshot, match=r"tables \[1, 2, 3\], not \[1, 3\]"):
        Tournament.from_json(core, key, tables=missing)
    tables[1].top_up(0, 100)  # a table with chips the tournament never issued
    with pytest.raises(TamperedSnapshot, match="chips do not add up"):
        Tournament.from_json(core, key, tables=tables)
    with pytest.raises(TamperedSnapshot):
        Tournament.from_json(
            core.replace('"tables":[1,2,3]', '"tables":[1,2]'), key, tables=missing
        )
