"""A room's hand histories replay (issue 32 item 1): a room plays 200 hands with its bots
at a Texas Hold'em and a Double Hold'em table, and every hand it stored, as each player
dealt in gets it (:func:`~doubleholdem.table.history.seat_hands`, what the ``hands``
message, ``GET /api/me/hands`` and the page's download give), replays with
``doubleholdem replay`` to the stacks it records; pokerkit reads the Texas ones to the
same stacks."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from doubleholdem.cli import main
from doubleholdem.game import Structure, Variant
from doubleholdem.game.phh import loads, stacks_agree
from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.room import Room
from doubleholdem.table import TableConfig
from doubleholdem.table.history import seat_hands

pokerkit = pytest.importorskip("pokerkit")

HANDS = 200
CONFIGS = [
    TableConfig(small_blind=5, big_blind=10, seats=6),
    TableConfig(
        small_blind=5,
        big_blind=10,
        seats=4,
        variant=Variant.DOUBLE,
        structure=Structure.FIXED_LIMIT,
    ),
]


def _played(tmp_path: Path) -> list[str]:
    """Every stored hand as each player dealt in gets it, once the room played HANDS."""
    settings = RoomSettings(
        tables=2, bots=6, bot_delay=0.0, pause=0.0, guests=True, seed=32, configs=CONFIGS
    )
    room = Room.open(str(tmp_path / "tables.db"), settings)

    async def scenario() -> list[list[dict[str, Any]]]:
        await room.start()
        while sum(runner.table.hand_number for runner in room.runners.values()) < HANDS:
            await asyncio.sleep(0.01)
        logs = [log for t in range(2) for _, log in room.store.hands(t, last=HANDS)]
        await room.stop()
        return logs

    files = []
    for log in asyncio.run(scenario()):
        for player in log[-1]["players"]:
            files += [hand.phh for hand in seat_hands([log], player=player)]
    return files


def test_every_file_a_room_hands_out_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = _played(tmp_path)
    assert len(files) >= HANDS * 3
    mucked_unseen = sum(
        any(a.endswith(" sm") for a in loads(text).actions) and "??" in text for text in files
    )
    assert mucked_unseen > 0
    paths = []
    for i, text in enumerate(files):
        path = tmp_path / f"{i}.phh"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    assert main(["replay", *paths]) == 0
    out, err = capsys.readouterr()
    assert err == "" and len(out.splitlines()) == len(paths)
    texas = [text for text in files if loads(text).config.variant is Variant.TEXAS]
    assert texas
    for text in texas:
        *_, state = pokerkit.HandHistory.loads(text)
        recorded = loads(text).finishing_stacks
        assert recorded is not None and stacks_agree(recorded, list(state.stacks)), text
