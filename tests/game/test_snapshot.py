"""The hand's snapshot format (:mod:`doubleholdem.game.snapshot`) is unchanged: the same
hand gives the same bytes as before the hand was split into parts (issue 18), restores to
the same hand, and its event log is the same byte for byte."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import pytest

from doubleholdem.errors import IllegalAction, InvalidSnapshot
from doubleholdem.game import GameConfig, Hand, Rake
from doubleholdem.game.snapshot import SNAPSHOT_VERSION, decisions, replay

# What the hand wrote before the split (commit da14c23), byte for byte, and the SHA-256
# of its event log (log_json).
DOUBLE_SNAPSHOT = (
    '{"version":3,"config":{"small_blind":1,"big_blind":2,"structure":"fixed-limit","vari'
    'ant":"double","small_bet":2,"big_bet":4,"min_bet":null,"ante":1,"ante_type":"uniform'
    '","cap":4,"heads_up_uncapped":true,"rake":null,"reveal_point":false,"stacks":[300,20'
    '0,500],"button":1},"deck":[11,5,19,50,35,32,24,2,0,7,43,45,51,9,8,34,23,31,10,36,47,'
    "17,26,48,40,22,20,12,37,49,46,44,42,18,16,25,28,33,27,4,6,41,15,30,3,38,13,1,21,29,1"
    '4,39],"decisions":[[1,"raise",4],[2,"timeout",null],[0,"call",null],[0,"point",1],[0'
    ',"bet",2],[1,"timeout",null],[1,"call",null],[0,"check",null],[1,"check",null],[0,"c'
    'heck",null],[1,"check",null]]}'
)
DOUBLE_LOG = "5ad962bf5951da9a06bd83a2d4c1a0cda8ee84dd6f019e799ed22012e9d075f1"
TEXAS_SNAPSHOT = (
    '{"version":3,"config":{"small_blind":5,"big_blind":10,"structure":"no-limit","varian'
    't":"texas","small_bet":null,"big_bet":null,"min_bet":null,"ante":0,"ante_type":"unif'
    'orm","cap":4,"heads_up_uncapped":true,"rake":{"basis_points":500,"cap":30,"no_flop_n'
    'o_drop":true},"reveal_point":false,"stacks":[1000,40,500,700],"button":3},"deck":[4,'
    "47,32,41,39,43,36,37,38,6,3,24,40,11,15,49,23,25,0,22,33,21,20,17,26,28,9,27,45,16,2"
    ',18,51,35,34,19,50,30,48,7,12,42,29,8,44,13,5,46,31,10,1,14],"decisions":[[2,"raise"'
    ',30],[3,"call",null],[0,"fold",null],[1,"raise",40],[2,"call",null],[3,"call",null],'
    '[2,"bet",10],[3,"call",null],[2,"bet",10],[3,"call",null],[2,"bet",10],[3,"call",nul'
    "l]]}"
)
TEXAS_LOG = "be459db4baf4dbb7551f397571aaf6a32f4c07699e59b21025ef7a5d39b5243c"


def double_hand() -> Hand:
    """Fixed-limit Double Hold'em with antes: timeouts on a bet and on a point card
    (DH-6, TH-40), a point card chosen, a showdown."""
    config = GameConfig(
        stacks=(300, 200, 500),
        small_blind=1,
        big_blind=2,
        variant="double",
        structure="fixed-limit",
        small_bet=2,
        big_bet=4,
        ante=1,
        button=1,
    )
    hand = Hand(config, seed=11)
    hand.act("raise", 4)
    hand.timeout(2)
    hand.check_or_call()
    hand.choose_point(0, 1)
    hand.act("bet", 2)
    hand.timeout(1)
    hand.check_or_call()
    while not hand.over:
        legal = hand.legal_actions()
        assert legal is not None
        if legal.decision == "point":
            hand.timeout(legal.seat)
        else:
            hand.check_or_call()
    return hand


def texas_hand() -> Hand:
    """No-limit Texas Hold'em with rake: a short all-in, a side pot (TH-21, TH-31)."""
    config = GameConfig(
        stacks=(1000, 40, 500, 700),
        small_blind=5,
        big_blind=10,
        button=3,
        rake=Rake(basis_points=500, cap=30),
    )
    hand = Hand(config, seed=5)
    hand.act("raise", 30)
    hand.check_or_call()
    hand.fold()
    hand.act("all_in")
    hand.check_or_call()
    hand.act("call", 10)
    while not hand.over:
        legal = hand.legal_actions()
        assert legal is not None
        if legal.can_raise and legal.is_bet:
            hand.act("bet", legal.min_raise_to)
        else:
            hand.check_or_call()
    return hand


@pytest.mark.parametrize(
    ("play", "text", "log"),
    [(double_hand, DOUBLE_SNAPSHOT, DOUBLE_LOG), (texas_hand, TEXAS_SNAPSHOT, TEXAS_LOG)],
)
def test_the_snapshot_and_the_log_are_what_they_were(
    play: Callable[[], Hand], text: str, log: str
) -> None:
    hand = play()
    assert hand.to_json() == text
    assert hashlib.sha256(hand.log_json().encode()).hexdigest() == log
    again = Hand.from_json(text)
    assert again.to_json() == text and again.log_json() == hand.log_json()
    assert again.stacks == hand.stacks and again.results == hand.results


def test_decisions_are_read_off_the_log_a_timeout_once() -> None:
    """A timeout is one decision; the action it caused is not another (TH-40, DH-6)."""
    hand = double_hand()
    found = decisions(hand.records)
    assert found[:3] == [[1, "raise", 4], [2, "timeout", None], [0, "call", None]]
    assert found[3:6] == [[0, "point", 1], [0, "bet", 2], [1, "timeout", None]]
    assert hand.snapshot()["version"] == SNAPSHOT_VERSION == 3


@pytest.mark.parametrize(
    ("decision", "error", "reason"),
    [
        ([0, "call"], InvalidSnapshot, "is not \\[seat, kind, amount\\]"),
        ([0, "raise", True], InvalidSnapshot, "True is not an amount"),
        ([0, "all_in", None], InvalidSnapshot, "'all_in' with None is not a decision"),
        ([0, "point", None], InvalidSnapshot, "'point' with None is not a decision"),
        ([2, "check", None], IllegalAction, "seat 2 cannot act: it is seat 0's turn to act"),
    ],
)
def test_a_decision_that_is_not_one_is_refused(
    decision: list[object], error: type[Exception], reason: str
) -> None:
    hand = Hand(GameConfig(stacks=(100, 100, 100), small_blind=1, big_blind=2), seed=1)
    with pytest.raises(error, match=reason):
        replay(hand, decision)
    assert hand.event_count == 5  # nothing changed: two blinds, three deals
