"""A dead hand killed (RULES.md TH-24, TRN-21): :meth:`Hand.kill` takes a seat's hand out
of play at any moment, in turn or not, all in or not; it takes no part in the showdown
and wins nothing; the chips it put in stay in the pot for the live hands, none go back
to it; the last live hand wins without a showdown. Recorded as a ``kill`` event, written
in PHH as the player's fold (``pX f``) and read back as a kill."""

from __future__ import annotations

import warnings
from dataclasses import replace

import pokerkit
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doubleholdem.errors import IllegalAction
from doubleholdem.game import GameConfig, Hand
from doubleholdem.game.config import Variant
from doubleholdem.game.dealing import stacked_deck
from doubleholdem.game.phh import dumps, loads, replay
from doubleholdem.game.snapshot import decisions

# Three players, button 0: seat 1 posts the small blind (5), seat 2 the big blind (10),
# seat 0 acts first before the flop and seat 1 first after it. Seat 2 is dealt aces, so
# that a dead hand reaching the showdown would win it.
HOLES = {0: "7c2d", 1: "8h3s", 2: "AsAd"}
BOARD = "KcQd9h4s5c"


def _hand(stacks: tuple[int, ...], **settings: object) -> Hand:
    config = GameConfig(stacks=stacks, small_blind=5, big_blind=10, **settings)  # type: ignore[arg-type]
    holes = HOLES if config.hole_cards == 2 else {0: "7c2d6h", 1: "8h3sJd", 2: "AsAdAh"}
    return Hand(config, deck=stacked_deck(config, {s: holes[s] for s in range(3)}, BOARD))


def _play(hand: Hand, actions: list[tuple[str, int | None]]) -> None:
    for action, amount in actions:
        if action == "point":
            hand.choose_point(hand.actor, amount)  # type: ignore[arg-type]
        elif action == "kill":
            hand.kill(amount)  # type: ignore[arg-type]
        else:
            hand.act(action, amount)


CHECKS = [("check", None)] * 6  # seats 1 and 0 check the flop, turn and river

CASES = [
    # name, stacks, dead seats (killed at the deal), actions, each seat's change in chips
    ("absent big blind, folded to: the small blind wins its post", (1000, 1000, 1000), [2],
     [("fold", None)], [0, 10, -10]),
    ("absent big blind, called round: the live hands show down", (1000, 1000, 1000), [2],
     [("call", None), ("call", None), *CHECKS], [-10, 20, -10]),
    ("absent big blind facing a raise", (1000, 1000, 1000), [2],
     [("raise", 30), ("fold", None)], [15, -5, -10]),
    ("absent big blind all in by its post", (1000, 1000, 10), [2],
     [("call", None), ("call", None), *CHECKS], [-10, 20, -10]),
    ("absent big blind all in, folded to", (1000, 1000, 10), [2],
     [("fold", None)], [0, 10, -10]),
    ("absent big blind all in for less, a side pot it had no share in", (1000, 1000, 6), [2],
     [("call", None), ("call", None), *CHECKS], [-10, 16, -6]),
    ("absent first player: a fold in turn", (1000, 1000, 1000), [0],
     [("fold", None)], [0, -5, 5]),
    ("absent small blind", (1000, 1000, 1000), [1],
     [("call", None), ("check", None), ("check", None), ("check", None),
      ("check", None), ("check", None), ("check", None), ("check", None)], [-10, -5, 15]),
    ("two absent: the blinds, the button wins them", (1000, 1000, 1000), [1, 2],
     [], [15, -5, -10]),
    ("all absent but the big blind", (1000, 1000, 1000), [0, 1], [], [0, -5, 5]),
]  # fmt: skip


@pytest.mark.parametrize("dealt", [False, True], ids=["killed once dealt", "dead as dealt"])
@pytest.mark.parametrize(("stacks", "dead", "actions", "change"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])  # fmt: skip
def test_a_dead_hand_wins_nothing(
    stacks: tuple[int, ...],
    dead: list[int],
    actions: list[tuple[str, int | None]],
    change: list[int],
    dealt: bool,
) -> None:
    """Each case the same whether the hands are killed by :meth:`Hand.kill` once dealt or
    dead as dealt (``dead_hands``); its PHH (each kill its player's fold, commented
    ``dead hand``) replays to the same stacks, and pokerkit, which folds a player only
    in turn, reads a kill made in turn to them too."""
    if dealt:
        hand = _hand(stacks, dead_hands=tuple(dead))
        assert hand.killed == tuple(dead)
    else:
        hand = _hand(stacks)
        for seat in dead:
            event = hand.kill(seat)
            assert (event.kind, event.seat) == ("kill", seat)
    _play(hand, actions)
    assert hand.over
    assert [hand.stacks[s] - stacks[s] for s in range(3)] == change
    log = hand.event_log(everything=True)
    assert [e["seat"] for e in log if e["kind"] == "kill"] == dead
    assert not any(e.get("seat") in dead for e in log if e["kind"] in ("show", "hand", "win"))
    text = dumps(hand)
    order = [(hand.button + 1 + i) % 3 for i in range(3)]  # PHH players: left of the button
    assert replay(loads(text)).finishing_stacks == [hand.stacks[s] for s in order]
    if dead == [0]:  # the first to act: its kill is a fold in turn
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            *_, state = pokerkit.HandHistory.loads(text)
        assert list(state.stacks) == [hand.stacks[s] for s in order]


def test_a_kill_in_the_middle_of_a_round_leaves_the_bets_in_the_pot() -> None:
    """Killed out of turn after it called: its call stays in the pot, and the hand goes
    on with the seat to act."""
    hand = _hand((1000, 1000, 1000))
    hand.act("call")  # seat 0
    hand.kill(0)
    assert hand.actor == 1 and hand.pot == 25
    hand.act("fold")  # seat 1: seat 2 is the last live hand
    assert hand.over and hand.stacks == [990, 995, 1015]


def test_double_holdem_a_dead_hand_chooses_no_point_card() -> None:
    """DH-5: the point cards are chosen by the live hands only."""
    hand = _hand((1000, 1000, 1000), variant=Variant.DOUBLE)
    hand.kill(2)
    _play(hand, [("call", None), ("call", None), ("point", 0), ("check", None)])
    assert hand.actor == 0 and hand.decision == "point"
    _play(hand, [("point", 0), ("check", None), *CHECKS[2:]])
    assert hand.over and hand.stacks[2] == 990
    points = [e["seat"] for e in hand.event_log(everything=True) if e["kind"] == "point"]
    assert points == [1, 0]


def test_a_dead_hand_killed_while_its_point_card_is_due() -> None:
    hand = _hand((1000, 1000, 1000), variant=Variant.DOUBLE)
    _play(hand, [("call", None), ("call", None), ("check", None)])
    assert (hand.actor, hand.decision) == (1, "point")
    hand.kill(1)
    assert (hand.actor, hand.decision) == (2, "point")


@pytest.mark.parametrize(
    ("before", "seat", "match"),
    [
        ([], 3, "3 is not a seat"),
        ([("fold", None)], 0, "not in the hand"),
        ([("kill", 1)], 1, "not in the hand"),
        ([("fold", None), ("fold", None)], 2, "over"),
    ],
)
def test_a_kill_that_cannot_be_is_refused_and_changes_nothing(
    before: list[tuple[str, int | None]], seat: int, match: str
) -> None:
    hand = _hand((1000, 1000, 1000))
    _play(hand, before)
    saved = hand.to_json()
    with pytest.raises(IllegalAction, match=match):
        hand.kill(seat)
    assert hand.to_json() == saved


def test_a_kill_survives_a_snapshot() -> None:
    hand = _hand((1000, 1000, 1000))
    hand.kill(2)
    hand.act("call")
    assert decisions(hand._log.records)[0] == [2, "kill", None]
    copy = Hand.from_json(hand.to_json())
    assert copy.to_json() == hand.to_json() and copy.actor == 1


def test_a_fold_out_of_turn_in_a_phh_file_is_a_dead_hand() -> None:
    """A plain ``pX f`` out of turn, from a file of another writer, is read as a kill."""
    header = dumps(_hand((1000, 1000, 1000))).split("actions = [")[0]  # p2: the big blind
    text = header + 'actions = ["d dh p1 8h3s", "d dh p2 AsAd", "d dh p3 7c2d", "p2 f", "p3 f"]'
    assert replay(loads(text)).finishing_stacks == [1010, 990, 1000]


@given(
    stacks=st.lists(st.integers(1, 60), min_size=2, max_size=6),
    dead=st.lists(st.booleans(), min_size=6, max_size=6),
    choices=st.lists(st.integers(0, 99), min_size=60, max_size=60),
    ante=st.integers(0, 3),
    double=st.booleans(),
    seed=st.integers(0, 2**32),
)
@settings(max_examples=150, deadline=None)
def test_chips_are_conserved_and_a_dead_hand_never_gains(
    stacks: list[int],
    dead: list[bool],
    choices: list[int],
    ante: int,
    double: bool,
    seed: int,
) -> None:
    """Over random hands with random seats dead as dealt or killed once dealt (at least
    one live) and random live play: chips are conserved, a dead hand never gains a chip
    and is never asked for a decision, and the PHH and the snapshot replay to the same
    stacks."""
    n = len(stacks)
    variant = Variant.DOUBLE if double else Variant.TEXAS
    config = GameConfig(stacks=tuple(stacks), small_blind=2, big_blind=4, ante=ante,
                        variant=variant)  # fmt: skip
    killed = [s for s in range(n) if dead[s]][: n - 1]
    if choices[0] % 2:  # dead as dealt, by the config
        hand = Hand(replace(config, dead_hands=tuple(killed)), seed=seed)
        assert hand.killed == tuple(killed)
    else:  # killed one by one once dealt
        hand = Hand(config, seed=seed)
        for seat in killed:
            if not hand.over:
                hand.kill(seat)
        killed = list(hand.killed)
    for choice in choices:
        if hand.over:
            break
        assert hand.actor not in killed
        legal = hand.legal_actions()
        assert legal is not None
        if legal.decision == "point":
            hand.choose_point(hand.actor, choice % 3)  # type: ignore[arg-type]
        elif choice < 20 and legal.can_fold:
            hand.act("fold")
        elif choice < 40 and legal.min_raise_to is not None and legal.max_raise_to is not None:
            hand.bet_or_raise_to(legal.min_raise_to if choice < 30 else legal.max_raise_to)
        else:
            hand.check_or_call()
    while not hand.over:  # the rest checked or called down
        if hand.decision == "point":
            hand.choose_point(hand.actor, 0)  # type: ignore[arg-type]
        else:
            hand.check_or_call()
    assert sum(hand.stacks) == sum(stacks)
    for seat in killed:
        assert hand.stacks[seat] <= stacks[seat]
    replayed = replay(loads(dumps(hand)))
    order = [(hand.button + 1 + i) % n for i in range(n)]
    assert replayed.finishing_stacks == [hand.stacks[s] for s in order]
    assert Hand.from_json(hand.to_json()).stacks == hand.stacks


def test_dead_as_dealt_all_in_by_the_blinds_takes_no_part() -> None:
    """Both blinds all in as posted: the hand would run out at once; the dead big
    blind's, dead as dealt (``dead_hands``), is out before it does."""
    config = GameConfig(stacks=(1000, 5, 10), small_blind=5, big_blind=10, dead_hands=(2,))
    hand = Hand(config, deck=stacked_deck(config, HOLES, BOARD))
    assert hand.actor == 0 and hand.killed == (2,)
    hand.act("fold")  # the small blind is the last live hand: it wins every post
    assert hand.over and hand.stacks == [1000, 15, 0]
    called = Hand(config, deck=stacked_deck(config, HOLES, BOARD))
    called.act("call")  # a showdown of seats 0 and 1: seat 1's eight high wins the main
    assert called.over and called.stacks == [1000, 15, 0]  # pot, seat 0 its side pot
    text = dumps(called)
    assert "_dead_hands = [2]" in text and "p2 f # dead hand" in text
    assert replay(loads(text)).finishing_stacks == [15, 0, 1000]
