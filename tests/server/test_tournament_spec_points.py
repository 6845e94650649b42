"""A ``[[tournament]]`` entry of the serve settings states hand-for-hand's points
(RULES.md TRN-16, ``hand_for_hand_at``) as TournamentConfig reads them; a bad list stops
``serve`` naming the tournament and the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from doubleholdem.errors import InvalidConfig
from doubleholdem.server.tournaments.spec import load_tournaments, spec_from_dict

ENTRY = '[[tournament]]\nname = "Sunday"\nkind = "sit-and-go"\ncapacity = 27\n'


def test_the_points_are_read_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "room.toml"
    path.write_text(ENTRY + "hand_for_hand_at = [10, 19]\n")
    (spec,) = load_tournaments(str(path))
    assert spec.config.hand_for_hand_at == (19, 10) and spec.config.hand_for_hand
    assert spec_from_dict(spec.to_dict()) == spec


@pytest.mark.parametrize("value", ['"10"', "[1]", "[true]", "10"])
def test_a_bad_list_is_named(tmp_path: Path, value: str) -> None:
    path = tmp_path / "room.toml"
    path.write_text(ENTRY + f"hand_for_hand_at = {value}\n")
    with pytest.raises(InvalidConfig, match=r"Sunday.*hand_for_hand_at"):
        load_tournaments(str(path))
