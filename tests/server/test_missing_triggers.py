"""A room database whose ledger lost its append-only triggers is refused when the server
opens it, naming them (issue 30): re-making them in silence would erase the evidence the
audit reports. ``serve --repair`` restores them on purpose and says so; a new database
gets them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from doubleholdem.accounts.schema import APPEND_ONLY_TRIGGERS, ensure_schema, missing_triggers
from doubleholdem.errors import DamagedDatabase, MissingTriggers
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.storage.database import open_database
from doubleholdem.server.tables.room import Room

SETTINGS = RoomSettings(tables=1, bots=0, bot_delay=0.0, pause=0.0, seed=3)
DROPPED = sorted(APPEND_ONLY_TRIGGERS)[:2]


def _triggers(path: Path) -> list[str]:
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall()
    return sorted(str(name) for (name,) in rows if str(name) in APPEND_ONLY_TRIGGERS)


def _dropped(tmp_path: Path) -> Path:
    """A room database with two of its append-only triggers dropped, as a tamperer would."""
    path = tmp_path / "room.db"
    Room.open(str(path), SETTINGS).store.close()
    db = sqlite3.connect(path)
    for name in DROPPED:
        db.execute(f"DROP TRIGGER {name}")
    db.commit()
    db.close()
    return path


def test_a_new_database_gets_every_trigger(tmp_path: Path) -> None:
    open_database(str(tmp_path / "new.db"), "normal", busy_seconds=1.0).close()
    assert _triggers(tmp_path / "new.db") == sorted(APPEND_ONLY_TRIGGERS)


def test_opening_a_room_whose_triggers_were_dropped_is_refused(tmp_path: Path) -> None:
    path = _dropped(tmp_path)
    with pytest.raises(MissingTriggers) as refused:
        Room.open(str(path), SETTINGS)
    assert isinstance(refused.value, DamagedDatabase)
    assert refused.value.missing == tuple(DROPPED)
    text = str(refused.value)
    assert str(path) in text and all(name in text for name in DROPPED)
    assert "doubleholdem accounts audit" in text and "serve --repair" in text
    assert _triggers(path) == sorted(set(APPEND_ONLY_TRIGGERS) - set(DROPPED))  # left so


def test_repair_restores_the_triggers_and_says_so(tmp_path: Path) -> None:
    path = _dropped(tmp_path)
    room = Room.open(str(path), SETTINGS, repair=True)
    try:
        said = "\n".join(room.repaired)
    finally:
        room.store.close()
    assert "restored" in said and all(name in said for name in DROPPED)
    assert _triggers(path) == sorted(APPEND_ONLY_TRIGGERS)
    Room.open(str(path), SETTINGS).store.close()  # opened as any other since


def test_ensure_schema_refuses_and_changes_nothing_unless_told() -> None:
    db = sqlite3.connect(":memory:", isolation_level=None)
    ensure_schema(db)
    db.execute(f"DROP TRIGGER {DROPPED[0]}")
    with pytest.raises(MissingTriggers, match=DROPPED[0]):
        ensure_schema(db)
    assert not db.in_transaction
    assert missing_triggers(db) == (DROPPED[0],)
    ensure_schema(db, restore_triggers=True)
    assert missing_triggers(db) == ()
    ensure_schema(db)
