"""The engine as a server uses it: configuration (TH-10, TH-11, TH-19, TH-31, DH-8
settings), typed errors that change nothing, timeouts (TH-40), the event log, views,
snapshots, determinism, PHH writing and the ``replay`` command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dealing import make_hand, play
from doubleholdem.cards import parse_card
from doubleholdem.cli import main
from doubleholdem.errors import IllegalAction, InvalidConfig, InvalidHandHistory, InvalidSnapshot
from doubleholdem.game import AnteType, GameConfig, Hand, Rake, Structure, Variant, limit_blinds
from doubleholdem.game.phh import dumps, loads, replay

# ------------------------------------------------------------------ configuration


@pytest.mark.parametrize(
    ("small_bet", "blinds"),
    [(1000, (500, 1000)), (1500, (700, 1500)), (100, (50, 100)), (500, (200, 500))],
)
def test_th11_limit_blinds_round_down_to_whole_units(
    small_bet: int, blinds: tuple[int, int]
) -> None:
    """TH-11: small blind half the small bet, rounded down to a whole dollar above $1
    ($5/$10 -> $2 is the small bet $5... in cents: 500 -> 200)."""
    assert limit_blinds(small_bet) == blinds


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({"stacks": (100, 0)}, "stacks[1]"),
        ({"small_blind": 3, "big_blind": 2}, "small_blind"),
        ({"button": 2}, "button"),
        ({"structure": "spread-limit"}, "structure"),
        ({"small_bet": 4}, "small_bet"),
        ({"ante": -1}, "ante"),
        ({"cap": 0}, "cap"),
        ({"variant": "omaha"}, "variant"),
        ({"reveal_point": "yes"}, "reveal_point"),
        ({"stacks": (100, 100.5)}, "stacks[1]"),
    ],
)
def test_impossible_configurations_say_why(settings: dict[str, object], field: str) -> None:
    """Configuration: a bad setting is rejected naming the field."""
    base: dict[str, object] = {"stacks": (100, 100), "small_blind": 1, "big_blind": 2}
    base.update(settings)
    with pytest.raises(InvalidConfig) as caught:
        GameConfig(**base)  # type: ignore[arg-type]
    assert caught.value.field == field and field in str(caught.value)


def test_settings_round_trip_through_json() -> None:
    """TH-10, TH-12, TH-13, TH-19, TH-31, DH-8 settings survive to_dict/from_dict."""
    config = GameConfig(
        stacks=(500, 600, 700),
        small_blind=5,
        big_blind=10,
        structure=Structure.FIXED_LIMIT,
        variant=Variant.DOUBLE,
        ante=2,
        ante_type=AnteType.BIG_BLIND,
        cap=5,
        heads_up_uncapped=False,
        rake=Rake(250, cap=30),
        reveal_point=True,
    )
    assert (config.small_bet, config.big_bet) == (10, 20)
    assert GameConfig.from_dict(json.loads(json.dumps(config.to_dict()))) == config


# ------------------------------------------------------------------ decisions


def test_illegal_action_carries_the_legal_options_and_changes_nothing() -> None:
    """A rejected action raises IllegalAction with the options and leaves the state
    exactly as it was."""
    hand = make_hand([1000, 1000, 1000])
    before = hand.to_json()
    for action, amount in [("raise", 150), ("check", None), ("bet", 5000), ("dance", None)]:
        with pytest.raises(IllegalAction) as caught:
            hand.act(action, amount)
        assert caught.value.legal == hand.legal_actions()
        assert hand.to_json() == before
    with pytest.raises(IllegalAction, match="seat 1 cannot act: it is seat 2's turn"):
        hand.act("call", seat=1)
    assert hand.to_json() == before


def test_no_action_after_the_hand_is_over() -> None:
    """A finished hand accepts nothing."""
    hand = make_hand([1000, 1000])
    play(hand, "fold")
    assert hand.legal_actions() is None
    with pytest.raises(IllegalAction, match="the hand is over"):
        hand.act("check")


def test_th40_timeout_checks_if_free_else_folds() -> None:
    """TH-40: on timeout without a bank: check if free, else fold."""
    hand = make_hand([1000, 1000, 1000])
    hand.timeout(2)
    assert hand.in_hand == [True, True, False]
    play(hand, "call")
    hand.timeout(1)
    assert hand.street == "flop" and hand.in_hand == [True, True, False]
    with pytest.raises(IllegalAction):
        hand.timeout(1)


# ------------------------------------------------------------------ log, views, snapshots


def random_hand(seed: int, variant: Variant = Variant.TEXAS) -> Hand:
    config = GameConfig(stacks=(800, 1000, 1200, 50), small_blind=5, big_blind=10, variant=variant)
    hand = Hand(config, seed=seed)
    step = seed
    while not hand.over:
        legal = hand.legal_actions()
        assert legal is not None
        step = (step * 1103515245 + 12345) % 2**31
        if legal.decision == "point":
            hand.choose_point(legal.seat, step % 3)
        elif legal.can_raise and step % 4 == 0:
            assert legal.min_raise_to is not None
            hand.act("raise" if not legal.is_bet else "bet", legal.min_raise_to)
        elif legal.can_fold and step % 5 == 0:
            hand.act("fold")
        else:
            hand.check_or_call()
    return hand


def test_event_log_is_ordered_and_deterministic() -> None:
    """The same seed and actions give a byte-identical log; sequence numbers count up."""
    first, again, other = random_hand(11), random_hand(11), random_hand(12)
    assert first.log_json() == again.log_json() != other.log_json()
    assert [e.seq for e in first.events] == list(range(len(first.events)))
    assert first.events[-1].kind == "end"


@pytest.mark.parametrize("variant", list(Variant))
def test_views_never_leak(variant: Variant) -> None:
    """view(seat) shows that seat's cards and never another's before showdown, nor the
    deck, nor a hidden point card (DH-8)."""
    hand = make_hand([1000, 1000, 1000], variant=variant)
    play(hand, "call", "call", "check")
    if variant is Variant.DOUBLE:
        hand.choose_point(0, 0)
    for seat in (0, 1, 2, None):
        text = json.dumps(hand.view(seat))
        for other in range(3):
            for card in hand.view(other)["hole"]:
                assert (card in text) is (other == seat or card in hand.view(None)["board"])
        assert "deck" not in text


def test_snapshot_restores_mid_hand_and_continues_identically() -> None:
    """A versioned JSON snapshot taken mid-hand restores and plays on identically."""
    hand = make_hand([1000, 1000, 1000], variant=Variant.DOUBLE)
    play(hand, "raise 300", "call", "call")
    copy = Hand.from_json(hand.to_json())
    for h in (hand, copy):
        h.choose_point(0, 1)
        play(h, "bet 100")
        h.choose_point(1, 0)
        play(h, "call")
    assert copy.to_json() == hand.to_json()
    while not hand.over:
        for h in (hand, copy):
            if h.decision == "point":
                assert h.actor is not None
                h.choose_point(h.actor, 2)
            else:
                h.check_or_call()
    assert copy.log_json() == hand.log_json() and copy.stacks == hand.stacks


@pytest.mark.parametrize("text", ['{"version": 99}', "[]", "not json", '{"version": 1}'])
def test_bad_snapshots_are_rejected(text: str) -> None:
    """A snapshot of another version or a broken one raises InvalidSnapshot."""
    with pytest.raises(InvalidSnapshot):
        Hand.from_json(text)


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("deck", [0] * 52, "duplicate card 2c"),
        ("deck", [0, 1, 2], "the deck has 3 cards"),
        ("deck", [*range(51), 60], "60"),
        ("deck", "AsKs", "list of card numbers"),
        ("decisions", "no", "decisions is not a list"),
        ("decisions", [[2, "call", None], [9, "call", None]], "decision 1: 9 is not a seat"),
        ("decisions", [[1, "call", None]], "decision 0: seat 1 cannot act"),
        ("decisions", [[2, "raise", -5000]], "decision 0: seat 2 cannot raise"),
        ("decisions", [[2, "point", 0]], "decision 0: seat 2 must first act on the betting"),
        ("decisions", [[2, "all_in", None]], "decision 0: 'all_in' with None is not"),
        ("decisions", [[2, "call"]], "is not \\[seat, kind, amount\\]"),
        ("decisions", [[2, "call", True]], "True is not an amount"),
        ("config", {"stacks": [1000, 1000]}, "small_blind"),
        ("extra", 1, "unknown fields"),
    ],
)
def test_tampered_snapshots_are_rejected(field: str, value: object, reason: str) -> None:
    """A snapshot whose content was changed so it cannot be a hand raises InvalidSnapshot
    naming what is wrong, never a crash later in the hand: the decisions are played
    again by the rules on the snapshot's deck."""
    hand = make_hand([1000, 1000, 1000], variant=Variant.DOUBLE)
    data = hand.snapshot()
    data[field] = value
    with pytest.raises(InvalidSnapshot, match=reason):
        Hand.restore(data)


def test_a_snapshot_after_the_flop_needs_every_point_card() -> None:
    """DH-5: past the flop every player in the hand has chosen a point card; a snapshot
    without those decisions is refused rather than failing at the showdown."""
    hand = make_hand([1000, 1000, 1000], variant=Variant.DOUBLE)
    play(hand, "call", "call", "check")
    while hand.street == "flop":
        if hand.decision == "point":
            assert hand.actor is not None
            hand.choose_point(hand.actor, 0)
        else:
            hand.check_or_call()
    data = hand.snapshot()
    data["decisions"] = [d for d in data["decisions"] if d[1] != "point"]
    with pytest.raises(InvalidSnapshot, match="must first choose a point card"):
        Hand.restore(data)


def test_an_older_snapshot_version_is_refused_with_a_reason() -> None:
    """Version 2 snapshots (the state of the former Rust state machine) are refused with a
    message that says so."""
    with pytest.raises(InvalidSnapshot, match=r"version 3 .*version 2.*older versions"):
        Hand.restore({"version": 2, "config": {}, "state": {}})


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"button": 7}, "button: seat 7 does not exist"),
        ({"blind_seats": (None, 9)}, "blind_seats: seat 9 does not exist"),
        ({"stacks": (1000, -5, 1000)}, "stacks\\[1\\]: -5 is below the minimum 1"),
        ({"min_bet": -1}, "min_bet: -1 is below"),
    ],
)
def test_impossible_settings_are_refused(change: dict[str, object], reason: str) -> None:
    """GameConfig checks every setting the rules read: an InvalidConfig naming it."""
    settings: dict[str, object] = {"stacks": (1000, 1000, 1000), "small_blind": 5, "big_blind": 10}
    with pytest.raises(InvalidConfig, match=reason):
        GameConfig(**{**settings, **change})  # type: ignore[arg-type]


def test_huge_amounts_are_exact() -> None:
    """Python integers: stacks far beyond 2**63 play exactly and conserve every chip."""
    big = 2**70
    hand = Hand(
        GameConfig(stacks=(big, big, big), small_blind=big // 4, big_blind=big // 2), seed=1
    )
    hand.act("all_in")
    hand.act("all_in")
    hand.act("fold")
    assert hand.over and sum(hand.stacks) == 3 * big and min(hand.stacks) >= 0


# ------------------------------------------------------------------ PHH


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("structure", list(Structure))
def test_phh_written_hands_replay_to_the_same_stacks(
    variant: Variant, structure: Structure
) -> None:
    """A played hand written as PHH (NT, FT, PT and the Double Hold'em dialect) reads
    back and replays to the same finishing stacks, in PHH player order."""
    for seed in range(5):
        config = GameConfig(
            stacks=(800, 1000, 1200, 50),
            small_blind=5,
            big_blind=10,
            structure=structure,
            variant=variant,
            button=seed % 4,
        )
        hand = Hand(config, seed=seed)
        while not hand.over:
            if hand.decision == "point":
                assert hand.actor is not None
                hand.timeout(hand.actor)
            else:
                legal = hand.legal_actions()
                assert legal is not None
                if legal.can_raise and legal.bet == 0 and legal.min_raise_to is not None:
                    hand.act("bet" if legal.is_bet else "raise", legal.min_raise_to)
                else:
                    hand.check_or_call()
        order = [(config.button + 1 + i) % 4 for i in range(4)]
        history = loads(dumps(hand, players=["a", "b", "c", "d"]))
        assert replay(history).finishing_stacks == [hand.stacks[s] for s in order]
        assert history.finishing_stacks == tuple(hand.stacks[s] for s in order)


PHH_HEADER = """variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
"""


@pytest.mark.parametrize(
    ("actions", "number", "reason"),
    [
        ('["p1 cc"]', 1, "out of turn"),
        ('["p3 cbr 3"]', 1, "4..100"),
        ('["p3 cc", "p1 cc", "d db AsKsQs"]', 3, "before the betting round ends"),
        ('["p3 f", "p1 f", "p2 cc"]', 3, "already over"),
        ('["p3 xx"]', 1, "unknown"),
        ('["p3 cc"]', 1, "end before the hand does"),
    ],
)
def test_phh_rule_breaks_name_the_action(actions: str, number: int, reason: str) -> None:
    """A PHH file that breaks the rules is rejected with the action number and why."""
    with pytest.raises(InvalidHandHistory, match=reason) as caught:
        replay(loads(PHH_HEADER + f"actions = {actions}\n"))
    assert caught.value.action_number == number


def test_phh_unknown_cards_are_the_lowest_unused_and_a_card_twice_is_named() -> None:
    """Unknown hole and board cards ("??") are dealt as the lowest cards nobody holds
    (a burn too); a card dealt twice is named."""
    actions = ["d dh p1 AsKs", "d dh p2 ????", "d dh p3 ????", "p3 f", "p1 cc", "p2 cc"]
    for cards in ("??????", "??", "??"):
        actions += [f"d db {cards}", "p1 cc", "p2 cc"]
    history = loads(PHH_HEADER + f"actions = {actions}\n".replace("'", '"'))
    board = replay(history).hand.board
    assert len(set(board)) == 5
    assert not {parse_card("As"), parse_card("Ks")} & set(board)
    twice = PHH_HEADER + 'actions = ["d dh p1 AsKs", "d dh p2 KsQs"]\n'
    with pytest.raises(InvalidHandHistory, match="the card Ks is dealt twice"):
        replay(loads(twice))


@pytest.mark.parametrize(
    ("header", "reason"),
    [
        ('variant = "PO"', "not supported"),
        ("blinds_or_straddles = [1, 2, 4]", "straddles|only a small and a big"),
        ("antes = [1, 2, 3]", "antes"),
        ("starting_stacks = [100, 100]", "entries for 2 players"),
    ],
)
def test_phh_unsupported_games_say_why(header: str, reason: str) -> None:
    """Fields we cannot play are named."""
    key = header.split(" =")[0]
    lines = [line for line in PHH_HEADER.splitlines() if not line.startswith(key)]
    text = "\n".join([*lines, header, "actions = []"])
    with pytest.raises(InvalidHandHistory, match=reason):
        replay(loads(text))


def test_replay_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`doubleholdem replay FILE... [--json]`: finishing stacks per file, one JSON line
    per file with --json; a rejected file names the action, exit status 2."""
    good = tmp_path / "good.phh"
    good.write_text(PHH_HEADER + 'actions = ["p3 cbr 6", "p1 f", "p2 f"]\n')
    bad = tmp_path / "bad.phh"
    bad.write_text(PHH_HEADER + 'actions = ["p3 cbr 1000"]\n')
    assert main(["replay", str(good)]) == 0
    assert capsys.readouterr().out == f"{good}: finishing stacks 99 98 103\n"
    assert main(["replay", "--json", str(good), str(good)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line) for line in lines] == [
        {"finishing_stacks": [99, 98, 103], "pots": [{"amount": 5, "winners": [2]}]}
    ] * 2
    assert main(["replay", str(bad), str(good)]) == 2
    captured = capsys.readouterr()
    assert "action 1" in captured.err and "4..100" in captured.err
    assert captured.out == f"{good}: finishing stacks 99 98 103\n"
