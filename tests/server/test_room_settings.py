"""The ``[room]`` table of a settings file and the account options of ``serve``."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from doubleholdem.cli.serve import _room_options
from doubleholdem.errors import InvalidConfig
from doubleholdem.server.settings import RoomSettings, default_configs, load_configs, load_room


def _file(tmp_path: Path, text: str) -> str:
    path = tmp_path / "room.toml"
    path.write_text(text)
    return str(path)


def test_a_room_table_sets_the_account_options(tmp_path: Path) -> None:
    path = _file(
        tmp_path, '[room]\nguests = true\nsignup = "open"\nwelcome_chips = 7\nhouseholds = true\n'
    )
    settings = RoomSettings()
    load_room(path, settings)
    assert (settings.guests, settings.signup, settings.welcome_chips, settings.households) == (
        True,
        True,
        7,
        True,
    )
    assert load_configs(path) == default_configs()  # no [[table]]: the default tables


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[room]\nguest = true\n", "no option 'guest'"),
        ('[room]\nguests = "yes"\n', "guests must be a bool"),
        ('[room]\nsignup = "maybe"\n', 'signup is "open" or "closed"'),
        ("[room]\nwelcome_chips = -1\n", "welcome_chips must be in 0.."),
        ("[room]\nwelcome_chips = true\n", "welcome_chips must be a int"),
        ("room = 3\n", "[room] must be a table"),
        ("[room]\nremove_after = 0\n", "remove_after must be a number of seconds in 1..86400"),
        ("[room]\nbusted_after = 1e9\n", "busted_after must be a number of seconds in 1..86400"),
        ('[room]\nremove_after = "5m"\n', "remove_after must be a number of seconds"),
        ("[room]\nbusted_after = true\n", "busted_after must be a number of seconds"),
        ("[room]\nhash_slots = 0\n", "hash_slots must be in 1..64"),
        ("[room]\nhash_slots = 65\n", "hash_slots must be in 1..64"),
        ("[room]\nhash_slots = 2.5\n", "hash_slots must be a int"),
    ],
)
def test_a_bad_room_table_is_named(tmp_path: Path, text: str, says: str) -> None:
    settings = RoomSettings()
    with pytest.raises(InvalidConfig, match="room") as refused:
        load_room(_file(tmp_path, text), settings)
    assert says in str(refused.value)


def test_the_command_line_wins_over_the_file(tmp_path: Path) -> None:
    settings = RoomSettings()
    text = '[room]\nsignup = "open"\nwelcome_chips = 5\nkeep_hands = 9\nkeep_hands_days = 2\n'
    load_room(_file(tmp_path, text), settings)
    args = argparse.Namespace(
        guests=None,
        signup="closed",
        welcome_chips=None,
        households=None,
        signups_per_address=0,
        keep_hands=None,
        keep_hands_days=0.5,
        hash_slots=None,
    )
    _room_options(args, settings)
    assert (settings.signup, settings.welcome_chips, settings.guests) == (False, 5, False)
    assert settings.signups_per_address == 0
    assert (settings.keep_hands, settings.keep_hands_days) == (9, 0.5)


def test_the_seat_lifecycle_times_default_and_are_read(tmp_path: Path) -> None:
    settings = RoomSettings()
    assert (settings.remove_after, settings.busted_after) == (300.0, 60.0)
    load_room(_file(tmp_path, "[room]\nremove_after = 600\nbusted_after = 12.5\n"), settings)
    assert (settings.remove_after, settings.busted_after) == (600.0, 12.5)


def test_hash_slots_come_from_the_file_and_the_command_line(tmp_path: Path) -> None:
    """The desk's hash slots (Argon2 hashes at once): 4 by default, ``[room]
    hash_slots``, and ``serve --hash-slots`` over both; the desk takes them."""
    from doubleholdem.cli import build_parser
    from doubleholdem.server.http.desk import Desk

    settings = RoomSettings()
    assert settings.hash_slots == 4
    load_room(_file(tmp_path, "[room]\nhash_slots = 9\n"), settings)
    assert settings.hash_slots == 9
    _room_options(build_parser().parse_args(["serve"]), settings)
    assert settings.hash_slots == 9
    _room_options(build_parser().parse_args(["serve", "--hash-slots", "64"]), settings)
    assert settings.hash_slots == 64
    desk = Desk(str(tmp_path / "room.db"), settings)
    try:
        assert desk.hash_slots == 64
    finally:
        desk.close()
