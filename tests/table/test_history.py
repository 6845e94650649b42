"""A seat's hands (table/history.py): the PHH of what that seat saw, parsed and replayed
by game/phh.py, never another player's unshown hole cards or hidden point card (DH-8)."""

from __future__ import annotations

import pytest

from doubleholdem.cards import CARD_NAMES
from doubleholdem.game import Structure, Variant, phh
from doubleholdem.table import Table, TableConfig
from doubleholdem.table.history import hand_record, seat_hands


def _played(reveal: bool) -> tuple[Table, list[dict[str, object]]]:
    """Three players of Double Hold'em: all call, pick point card 0 on the flop, then the
    first to bet takes the pot (nobody shows)."""
    config = TableConfig(
        small_blind=5,
        big_blind=10,
        seats=3,
        variant=Variant.DOUBLE,
        structure=Structure.FIXED_LIMIT,
        reveal_point=reveal,
    )
    table = Table(config, seed=11)
    for seat, name in enumerate(("ann", "bob", "cy")):
        table.join(seat, name, 1000)
    table.start_hand(now=0.0)
    bet = False
    while table.in_hand:
        seat = table.to_act
        assert seat is not None
        legal = table.hand.legal_actions() if table.hand else None
        assert legal is not None
        if legal.decision == "point":
            table.act(seat, "point", 0, now=1.0)
        elif table.hand is not None and table.hand.street == "flop" and not bet:
            table.act(seat, "bet", legal.min_raise_to, now=1.0)
            bet = True
        elif table.hand is not None and table.hand.street == "flop":
            table.act(seat, "fold", now=1.0)
        else:
            table.act(seat, "check" if legal.can_check else "call", now=1.0)
    return table, [*table.release_history(), hand_record(table, table_id=4)]


@pytest.mark.parametrize("reveal", [False, True])
def test_each_seat_sees_its_own_cards_only(reveal: bool) -> None:
    table, log = _played(reveal)
    hand = table.hand
    assert hand is not None
    for seat, name in enumerate(("ann", "bob", "cy")):
        [seen] = seat_hands([log], seat=seat, player=name)
        history = phh.loads(seen.phh)
        assert history.fields["table"] == 5 and history.fields["players"]
        index = table.dealt.index(seat)
        own = "".join(CARD_NAMES[c] for c in hand.hole(index))
        others = [i for i in range(3) if i != index]
        assert own in seen.phh
        for other in others:
            for card in hand.hole(other):
                assert CARD_NAMES[card] not in seen.phh.split("actions")[1].split("d db")[0]
        points = [a for a in history.actions if " pc " in a]
        hidden = [a for a in points if a.endswith("??")]
        assert len(points) == 3 and len(hidden) == (0 if reveal else 2)
        replayed = phh.replay(history)
        assert replayed.finishing_stacks == list(history.finishing_stacks or [])
        deals = [e for e in seen.log if e["kind"] == "deal"]
        assert {e["seat"] for e in deals if "cards" in e} == {seat}


def test_another_player_in_the_seat_sees_nothing() -> None:
    _, log = _played(False)
    assert seat_hands([log], seat=0, player="bob") == []
    assert seat_hands([log[:-1]], seat=0, player="ann") == []  # no record: not listed
