"""A tournament's snapshot (RULES.md TRN-20): restored at any point, play goes on
identically; an edited snapshot is refused."""

from __future__ import annotations

import copy
import json

import pytest

from doubleholdem.errors import InvalidSnapshot, TamperedSnapshot
from doubleholdem.tournament import BlindStructure, Rebuys, Tournament, TournamentConfig

from .driver import Checked

CONFIG = TournamentConfig(
    kind="scheduled",
    capacity=40,
    seats=6,
    starting_stack=400,
    buy_in=10,
    blinds=BlindStructure.standard(by="hands", length=3),
    variant="double",
    betting="pot-limit",
    late_registration=2,
    re_entries=1,
    rebuys=Rebuys(until_level=1, price=10, chips=400),
)


def _started() -> Checked:
    tournament = Tournament(CONFIG, seed=5)
    for n in range(20):
        tournament.register(f"p{n}")
    tournament.start()
    return Checked(tournament, ("random", "station"))


@pytest.mark.parametrize("hands", [0, 1, 7, 30, 80])
def test_round_trip_between_hands_plays_on_identically(hands: int) -> None:
    driver = _started()
    driver.play(hands=hands)
    text = driver.tournament.to_json()
    restored = Tournament.from_json(text)
    assert restored.to_json() == text
    twin = Checked(restored, driver.names)
    twin.bots = copy.deepcopy(driver.bots)
    twin.start = dict(driver.start)
    driver.play()
    twin.play()
    assert twin.tournament.result() == driver.tournament.result()
    twin.check_result()


def test_round_trip_during_a_hand() -> None:
    """Saved with a hand being played, the copy finishes it the same way."""
    driver = _started()
    driver.play(hands=3)
    tournament = driver.tournament
    number = tournament.ready_tables()[0]
    table = tournament.start_hand(number)
    restored = Tournament.from_json(tournament.to_json())
    other = restored.tables[number]
    assert other.in_hand and other.to_act == table.to_act
    while table.in_hand:
        seat = table.to_act
        legal = table.legal_actions()
        action = "check" if legal is not None and legal.can_check else "fold"
        table.act(seat, action)  # type: ignore[arg-type]
        other.act(seat, action)  # type: ignore[arg-type]
    assert tournament.finish_hand(number) == restored.finish_hand(number)
    assert restored.to_json() == tournament.to_json()


def test_edited_snapshots_are_refused() -> None:
    driver = _started()
    driver.play(hands=5)
    text = driver.tournament.to_json()
    data = json.loads(text)
    data["tournament"]["pool"] += 1
    with pytest.raises(TamperedSnapshot):
        Tournament.from_json(json.dumps(data))
    with pytest.raises(InvalidSnapshot):
        Tournament.from_json("{not json")
    with pytest.raises(InvalidSnapshot):
        Tournament.from_json(json.dumps({"version": 99}))


def test_keyed_snapshots() -> None:
    """With a secret key the snapshot (and every table's) carries an HMAC: read with the
    key only."""
    driver = _started()
    driver.play(hands=4)
    key = b"secret"
    text = driver.tournament.to_json(key)
    assert '"hmac"' in text and Tournament.from_json(text, key).to_json(key) == text
    with pytest.raises(TamperedSnapshot):
        Tournament.from_json(text)
    with pytest.raises(TamperedSnapshot):
        Tournament.from_json(text, b"other")
    with pytest.raises(TamperedSnapshot):
        Tournament.from_json(driver.tournament.to_json(), key)
