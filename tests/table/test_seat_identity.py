"""Who may see a hand's private cards is decided by who was dealt them (an id per
occupancy of a seat: a new one each time someone sits down), never by the player's name
(issue 17): a player who folds and leaves takes the right to see their cards along, and
whoever sits down next, under any name and in any seat, sees none of them, in the view,
the log and the leak audit, at both variants and across snapshots."""

from __future__ import annotations

import hashlib
import json
import re

import pytest

from doubleholdem.cards import CARD_NAMES
from doubleholdem.game import Variant
from doubleholdem.table import Table, TableConfig

SB, BB = 5, 10


def _table(variant: Variant) -> Table:
    table = Table(TableConfig(small_blind=SB, big_blind=BB, seats=6, variant=variant), seed=11)
    for seat, name in enumerate(("ann", "bob", "cy")):
        table.join(seat, name, 1000)
    return table


def _texas_fold_fold(table: Table) -> None:
    """Button 0, blinds 1 and 2: ann (seat 0) folds, bob folds, cy wins."""
    table.start_hand()
    assert table.to_act == 0
    table.act(0, "fold")
    table.act(1, "fold")
    assert not table.in_hand


def _double_points_then_folds(table: Table) -> None:
    """Everyone sees the flop and chooses a point card (DH-5); bob bets, cy folds and ann
    folds last, her point card chosen and hidden (reveal_point is off)."""
    table.start_hand()
    table.act(0, "call")
    table.act(1, "call")
    table.act(2, "check")
    while table.in_hand:
        seat = table.to_act
        assert seat is not None
        if table.decision == "point":
            table.choose_point(seat, 1)
        elif seat == 1:
            legal = table.legal_actions()
            assert legal is not None and legal.min_raise_to is not None
            table.act(1, "bet", legal.min_raise_to)
        else:
            table.act(seat, "fold")
    hand = table.hand
    assert hand is not None and hand.points[0] == 1 and not hand.shown[0]


def _play(table: Table, variant: Variant) -> list[str]:
    """Plays the hand of ``variant`` and returns ann's hole cards (seat 0)."""
    if variant is Variant.DOUBLE:
        _double_points_then_folds(table)
    else:
        _texas_fold_fold(table)
    hand = table.hand
    assert hand is not None
    return [CARD_NAMES[c] for c in hand.hole(0)]


def _cards_in(value: object) -> set[str]:
    return set(re.findall(r'"([2-9TJQKA][cdhs])"', json.dumps(value)))


def _sees_nothing_of_the_first_ann(table: Table, seat: int, mucked: list[str]) -> None:
    view = table.view(seat)
    assert view["hand"]["hole"] == []
    assert "0" not in view["hand"]["points"]
    assert not _cards_in(view) & set(mucked)
    log = table.event_log(seat)
    assert not _cards_in(log) & set(mucked)
    for entry in log:
        if entry["kind"] == "point" and entry["seat"] == 0:
            assert "point" not in entry and "cards" not in entry
    assert set(mucked) <= table.secret_cards(seat)


VARIANTS = [Variant.TEXAS, Variant.DOUBLE]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_dealt_player_sees_their_own_mucked_cards(variant: Variant) -> None:
    """The other side: the checks below can fail, since ann herself sees her cards."""
    table = _table(variant)
    mucked = _play(table, variant)
    view = table.view(0)
    assert view["hand"]["hole"] == mucked
    assert set(mucked) <= _cards_in(table.event_log(0))
    assert not set(mucked) & table.secret_cards(0)
    if variant is Variant.DOUBLE:
        assert view["hand"]["points"] == {"0": 1}
        assert any(e["kind"] == "point" and e.get("point") == 1 for e in table.event_log(0))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", ["ann", "dan"])
def test_a_new_player_in_the_seat_sees_no_mucked_cards(variant: Variant, name: str) -> None:
    """Issue 17: three players join, the first folds, the second folds, the first
    leaves, a new "ann" (or anyone) joins seat 0."""
    table = _table(variant)
    mucked = _play(table, variant)
    table.leave(0)
    table.join(0, name, 1000)
    _sees_nothing_of_the_first_ann(table, 0, mucked)
    copy = Table.from_json(table.to_json())
    _sees_nothing_of_the_first_ann(copy, 0, mucked)
    assert copy.view(0) == table.view(0)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_same_name_in_another_seat_sees_no_mucked_cards(variant: Variant) -> None:
    table = _table(variant)
    mucked = _play(table, variant)
    table.leave(0)
    table.join(3, "ann", 1000)
    _sees_nothing_of_the_first_ann(table, 3, mucked)
    table.join(0, "eve", 1000)
    _sees_nothing_of_the_first_ann(table, 0, mucked)


@pytest.mark.parametrize("variant", VARIANTS)
def test_coming_back_is_a_new_occupancy(variant: Variant) -> None:
    """Sitting down again is a new occupancy, even for the same player in the same seat:
    nothing tells a returning player from someone else who took the name."""
    table = _table(variant)
    mucked = _play(table, variant)
    table.leave(0)
    table.join(0, "ann", 1000)
    table.leave(0)
    table.join(0, "ann", 1000)
    _sees_nothing_of_the_first_ann(table, 0, mucked)


@pytest.mark.parametrize("variant", VARIANTS)
def test_leaving_after_the_hand_then_a_new_player(variant: Variant) -> None:
    """ann asks to leave during the hand (she is dealt in): she goes at its end."""
    table = _table(variant)
    table.start_hand()
    table.leave_after_hand(0)
    while table.in_hand:
        seat = table.to_act
        assert seat is not None
        if table.decision == "point":
            table.choose_point(seat, 0)
        else:
            legal = table.legal_actions()
            assert legal is not None
            table.act(seat, "check" if legal.can_check else "fold")
    hand = table.hand
    assert hand is not None and table.seats()[0] is None
    mucked = [CARD_NAMES[c] for c in hand.hole(0)]
    table.join(0, "ann", 1000)
    if not hand.shown[0]:
        _sees_nothing_of_the_first_ann(table, 0, mucked)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_snapshot_keeps_who_was_dealt_in(variant: Variant) -> None:
    """Restored before the leave, the table still tells the first ann from the second."""
    table = _table(variant)
    mucked = _play(table, variant)
    table = Table.from_json(table.to_json())
    assert table.view(0)["hand"]["hole"] == mucked
    table.leave(0)
    table = Table.from_json(table.to_json())
    table.join(0, "ann", 1000)
    table = Table.from_json(table.to_json())
    _sees_nothing_of_the_first_ann(table, 0, mucked)


def test_a_new_big_blind_player_is_not_the_last_big_blind() -> None:
    """TH-35 asks whether the *player* in a seat posted the last big blind: someone new
    under the same name in that seat did not."""
    same, other = _table(Variant.TEXAS), _table(Variant.TEXAS)
    for table, name in ((same, "cy"), (other, "zed")):
        _texas_fold_fold(table)  # cy (seat 2) posted the big blind
        table.leave(2)
        table.join(2, name, 1000)
        table.sit_out(0)
        table.start_hand()  # heads-up, a new game: seats 1 and 2
        assert table.dealt == [1, 2]
    assert (same.button, same.blinds) == (other.button, other.blinds) == (1, (1, 2))


def _legacy(text: str) -> str:
    """``text`` as the tables before occupancy ids wrote it (version 1 without them)."""
    data = json.loads(text)
    body = data["table"]
    for seat in body["seats"]:
        if seat is not None:
            del seat["occupancy"]
    del body["next_occupancy"]
    del body["dealt_occupancies"]
    if body["last_big"] is not None:
        seat, _ = body["last_big"]
        occupant = body["seats"][seat]
        player = occupant["player"] if occupant is not None else "somebody"
        body["last_big"] = [seat, player]
    fields = json.dumps(body, separators=(",", ":"))
    digest = hashlib.sha256(fields.encode()).hexdigest()
    return f'{{"version":1,"sha256":"{digest}","table":{fields}}}'


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_snapshot_without_occupancy_ids_is_read(variant: Variant) -> None:
    """Snapshots written before occupancy ids load: ids are given on load, and a player
    who joined after the last hand started was not dealt in it (the log says so)."""
    table = _table(variant)
    mucked = _play(table, variant)
    kept = Table.from_json(_legacy(table.to_json()))
    assert kept.view(0)["hand"]["hole"] == mucked  # the same ann, still seated
    assert kept.log_json() == table.log_json()
    table.leave(0)
    table.join(0, "ann", 1000)
    restored = Table.from_json(_legacy(table.to_json()))
    _sees_nothing_of_the_first_ann(restored, 0, mucked)
    assert Table.from_json(restored.to_json()).view(0) == restored.view(0)


def test_a_legacy_snapshot_mid_hand_plays_on() -> None:
    table = _table(Variant.DOUBLE)
    table.start_hand()
    table.act(0, "call")
    restored = Table.from_json(_legacy(table.to_json()))
    for seat in (None, 0, 1, 2):
        assert restored.view(seat) == table.view(seat)
    restored.act(1, "call")
    table.act(1, "call")
    assert restored.log_json() == table.log_json()
