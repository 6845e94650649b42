"""Fuzzing the rules of play: thousands of random hands of Texas and Double Hold'em in all
three structures, 2 to 10 players, tiny and huge stacks, uniform and big-blind antes,
rake, extreme bet sizes, and random legal and illegal decisions.

Checked after every call: nothing but the package's typed errors is raised, chips are
conserved (TH-6), no stack goes negative, a refused call leaves the snapshot
byte-identical, and every hand ends, with every pot awarded (TH-23). A snapshot taken
at random restores to the same hand (and the tamper test changes every field of
mid-hand snapshots: each is refused or is a hand that conserves chips and deals
distinct cards)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from doubleholdem.cards import CARD_NAMES
from doubleholdem.errors import DoubleHoldemError, InvalidConfig, InvalidSnapshot
from doubleholdem.game import AnteType, GameConfig, Hand, Rake, Structure, Variant

HANDS = 3000
MAX_CALLS = 2000
SCALES = [1, 3, 100, 10**6, 2**62, 10**30]


def random_config(rng: random.Random) -> GameConfig:
    """Valid settings from every corner: short and huge stacks, antes larger than the
    stacks, bet sizes far beyond them."""
    while True:
        n = rng.randint(2, 10)
        scale = rng.choice(SCALES)
        big = rng.randint(1, 4) * scale
        tiny = rng.random() < 0.3
        stacks = tuple(
            rng.randint(1, 3 * big) if tiny else rng.randint(1, 200 * big) for _ in range(n)
        )
        structure = rng.choice(list(Structure))
        sizes: dict[str, Any] = {}
        extreme = rng.choice([1, big, 2**63 - 1, 10**40])
        if structure is Structure.FIXED_LIMIT:
            if rng.random() < 0.5:
                sizes = {"small_bet": extreme, "big_bet": extreme * rng.choice([1, 2])}
            sizes["cap"] = rng.choice([None, 1, 2, 4, 5])
        elif rng.random() < 0.5:
            sizes["min_bet"] = extreme
        try:
            return GameConfig(
                stacks=stacks,
                small_blind=rng.randint(0, big),
                big_blind=big,
                structure=structure,
                variant=rng.choice(list(Variant)),
                button=rng.randrange(n),
                ante=rng.choice([0, 0, 1, big // 2, 5 * big, 400 * big]),
                ante_type=rng.choice(list(AnteType)),
                heads_up_uncapped=rng.random() < 0.5,
                rake=rng.choice([None, Rake(500, cap=3 * big), Rake(10_000), Rake(1, None, False)]),
                reveal_point=rng.random() < 0.5,
                **sizes,
            )
        except InvalidConfig:  # a typed refusal of a combination: draw again
            continue


def legal_call(hand: Hand, rng: random.Random) -> tuple[str, tuple[Any, ...]]:
    legal = hand.legal_actions()
    assert legal is not None
    if legal.decision == "point":  # an index, or the card itself as text
        point = rng.choice([0, 1, 2, CARD_NAMES[hand.hole(legal.seat)[rng.randrange(3)]]])
        return "choose_point", (legal.seat, point)
    options: list[tuple[str, tuple[Any, ...]]] = [("check_or_call", ())]
    if legal.can_fold:
        options.append(("act", ("fold",)))
    if legal.min_raise_to is not None and legal.max_raise_to is not None:
        low, high = legal.min_raise_to, legal.max_raise_to
        options.append(("act", ("bet" if legal.is_bet else "raise", rng.randint(low, high))))
        options.append(("bet_or_raise_to", (high,)))
    if legal.can_all_in:
        options.append(("act", ("all_in",)))
    options.append(("timeout", (legal.seat,)))
    return rng.choice(options)


JUNK: list[Any] = [
    -1,
    -(2**70),
    2**70,
    0,
    True,
    1.5,
    "10",
    None,
    float("nan"),
    [],
    "As",
    "Zz",
    3,
]


def illegal_call(hand: Hand, rng: random.Random) -> tuple[str, tuple[Any, ...], dict[str, Any]]:
    """A call that may or may not be allowed: random actions, amounts, seats."""
    legal = hand.legal_actions()
    seat = rng.choice([*range(-1, 11), legal.seat if legal else 0, "1", None, True])
    action = rng.choice(["fold", "check", "call", "bet", "raise", "all_in", "dance", "", 7])
    amount = rng.choice(JUNK)
    name, args, kwargs = rng.choice(
        [
            ("act", (action, amount), {}),
            ("act", (action, amount), {"seat": seat}),
            ("choose_point", (seat, amount), {}),
            ("timeout", (seat,), {}),
            ("bet_or_raise_to", (amount,), {}),
            ("fold", (), {}),
            ("check_or_call", (), {}),
        ]
    )
    return name, args, kwargs


def chips(hand: Hand) -> int:
    return sum(hand.stacks) + hand.pot + hand.rake


def play_random_hand(rng: random.Random) -> Hand:
    config = random_config(rng)
    total = sum(config.stacks)
    hand = Hand(config, rng=rng)
    calls = 0
    while not hand.over:
        calls += 1
        assert calls < MAX_CALLS, "the hand does not end"
        if rng.random() < 0.3:
            name, args, kwargs = illegal_call(hand, rng)
        else:
            (name, args), kwargs = legal_call(hand, rng), {}
        before = hand.to_json()
        try:
            getattr(hand, name)(*args, **kwargs)
        except DoubleHoldemError:
            assert hand.to_json() == before, f"a refused {name}{args} changed the hand"
        assert chips(hand) == total
        assert min(hand.stacks) >= 0
        if rng.random() < 0.02:
            assert Hand.from_json(hand.to_json()).to_json() == hand.to_json()
    assert sum(hand.stacks) + hand.rake == total
    awarded = sum(sum(result.shares) + result.rake for result in hand.results)
    assert awarded == sum(result.amount for result in hand.results)
    assert hand.events[-1].kind == "end"
    return hand


def test_random_hands_keep_every_rule_of_the_contract() -> None:
    rng = random.Random(2026)
    seen: set[tuple[str, str, int]] = set()
    for _ in range(HANDS):
        hand = play_random_hand(rng)
        config = hand.config
        seen.add((config.variant.value, config.structure.value, config.players))
    variants = {(v, s) for v, s, _ in seen}
    assert len(variants) == 6 and {n for _, _, n in seen} == set(range(2, 11))


# ---------------------------------------------------------------- snapshot tampering


def mid_hand_snapshots(count: int) -> list[dict[str, Any]]:
    rng = random.Random(9)
    found = []
    while len(found) < count:
        config = random_config(rng)
        hand = Hand(config, rng=rng)
        stop = rng.randint(0, 12)
        for _ in range(stop):
            if hand.over:
                break
            name, args = legal_call(hand, rng)
            getattr(hand, name)(*args)
        found.append(hand.snapshot())
    return found


def tampered(value: Any, rng: random.Random) -> Any:
    return rng.choice(
        [
            None,
            -1,
            0,
            1,
            51,
            52,
            2**64,
            -(2**64),
            True,
            "x",
            [],
            {},
            [0, "call", None],
            value if not isinstance(value, int) or isinstance(value, bool) else value + 1,
            value if not isinstance(value, int) or isinstance(value, bool) else -value,
        ]
    )


def paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a snapshot: dict keys and list positions, nested."""
    found = [prefix] if prefix else []
    if isinstance(data, dict):
        for key, value in data.items():
            found += paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += paths(value, (*prefix, index))
    return found


def set_at(data: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def get_at(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


@pytest.mark.parametrize("seed", range(4))
def test_every_field_of_a_tampered_snapshot_is_refused_or_a_sound_hand(seed: int) -> None:
    """Change each field of mid-hand snapshots: the result is InvalidSnapshot, or a hand
    that conserves its chips, deals distinct cards and plays to its end."""
    rng = random.Random(seed)
    restored = refused = 0
    for snapshot in mid_hand_snapshots(12):
        for path in paths(snapshot):
            data = copy.deepcopy(snapshot)
            set_at(data, path, tampered(get_at(data, path), rng))
            try:
                hand = Hand.from_json(json.dumps(data))
            except InvalidSnapshot:
                refused += 1
                continue
            restored += 1
            total = sum(hand.config.stacks)
            cards = [c for s in range(hand.players) for c in hand.hole(s)] + hand.board
            assert len(set(cards)) == len(cards) and set(cards) <= set(range(52))
            while not hand.over:
                name, args = legal_call(hand, rng)
                getattr(hand, name)(*args)
                assert chips(hand) == total and min(hand.stacks) >= 0
            assert sum(hand.stacks) + hand.rake == total
    assert refused and restored  # both outcomes were met
