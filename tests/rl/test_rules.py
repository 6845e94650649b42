"""The environment only encodes and decodes: episodes played through it equal the same
decisions played directly on Hand (chips, pots, events), heads-up blinds and order and
no-limit minimum raises are the rules' (TH-3, TH-15, TH-17), the Double Hold'em point
card is an action at its turn (DH-5), and a refused action changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pettingzoo")

from doubleholdem import rl
from doubleholdem.errors import IllegalAction, InvalidConfig
from doubleholdem.game import Hand
from rl_harness import random_episode


def engine_kind(env: rl.HoldemEnv, action: int) -> tuple[str, int | None]:
    """The decision the environment makes of ``action``, in the game's own words."""
    kind, amount = env.decode(action)
    legal = env.game.hand.legal_actions()
    assert legal is not None
    if kind == "call":
        return ("call" if legal.call_amount else "check"), None
    if kind == "raise":
        return ("bet" if legal.is_bet else "raise"), amount
    return kind, amount


def play(env: rl.HoldemEnv, seed: int) -> tuple[list[tuple[Hand, list[Any]]], dict[str, float]]:
    """A random episode: each hand with the decisions made in it, and each agent's
    rewards summed."""
    hands: list[tuple[Hand, list[Any]]] = []

    def record(action: int) -> None:
        hand = env.game.hand
        # the view the episode keeps for this decision is the hand's, made anew
        assert env.game.actor_view == hand.actor_view() is not None
        if not hands or hands[-1][0] is not hand:
            hands.append((hand, []))
        hands[-1][1].append(engine_kind(env, action))

    totals = random_episode(env, seed, record)
    return hands, totals


def replay(hand: Hand, decisions: list[Any]) -> Hand:
    """The same decisions played directly on a Hand dealt from the same deck."""
    again = Hand(hand.config, deck=hand.snapshot()["deck"])
    for kind, amount in decisions:
        if kind == "point":
            assert again.actor is not None
            again.choose_point(again.actor, amount)
        else:
            again.act(kind, amount)
    return again


@pytest.mark.parametrize(
    "settings",
    [
        {"players": 2},
        {"players": 6, "actions": "fcpa"},
        {"variant": "double", "players": 3, "structure": "pot-limit"},
        {"variant": "double", "players": 4, "structure": "fixed-limit", "actions": "fc"},
        {"players": 3, "hands": None, "stacks": 12, "actions": "fchpa", "ante": 1},
        {"variant": "double", "players": 5, "hands": 6, "ante": 2, "ante_type": "big-blind"},
    ],
)
def test_episodes_equal_the_same_decisions_on_hand(settings: dict[str, Any]) -> None:
    env = rl.env(**settings)
    bb = env.config.big_blind
    for seed in range(4):
        hands, totals = play(env, seed)
        for hand, decisions in hands:
            again = replay(hand, decisions)
            assert again.over and hand.over
            assert again.records == hand.records  # every event, in order
            assert again.stacks == hand.stacks
            assert again.results == hand.results  # the pots and who won them
        stacks = env.game.stacks
        start = env.config.game.stacks
        for seat, agent in enumerate(env.possible_agents):
            assert totals[agent] == pytest.approx((stacks[seat] - start[seat]) / bb)
        assert sum(stacks) == sum(start)  # no rake: chips are neither made nor lost


def test_heads_up_button_posts_small_blind_acts_first_preflop_last_after() -> None:
    env = rl.env(players=2, button=0, seed=3)
    env.reset()
    events = [(e.kind, e.seat) for e in env.game.hand.events[:2]]
    assert events == [("small_blind", 0), ("big_blind", 1)]  # TH-3
    assert env.agent_selection == "player_0"  # the button acts first before the flop
    observation = env.observe("player_0")["observation"]
    seats = env.encoder.offsets["seats"]
    assert observation[seats + 5] == 0.5  # its wager: the small blind, in big blinds
    assert observation[env.encoder.offsets["position"]] == 1.0  # on the button
    env.step(1)  # calls
    assert env.agent_selection == "player_1"  # the big blind's option
    env.step(1)  # checks
    assert env.game.hand.street == "flop"
    assert env.agent_selection == "player_1"  # after the flop the button acts last
    env.step(1)
    assert env.agent_selection == "player_0"


def test_heads_up_button_moves_between_hands() -> None:
    env = rl.env(players=2, hands=3, seed=4)
    env.reset()
    first = env.game.hand
    assert first.events[0].kind == "small_blind"
    button = env.game.seat_of[first.button]
    assert env.agent_selection == f"player_{button}"
    while env.game.hand is first:
        env.step(0 if env.observe(env.agent_selection)["action_mask"][0] else 1)
    second = env.game.hand
    assert env.game.seat_of[second.button] == 1 - button  # TH-35
    assert env.agent_selection == f"player_{1 - button}"
    assert [(e.kind, env.game.seat_of[e.seat]) for e in second.events[:2]] == [
        ("small_blind", 1 - button),
        ("big_blind", button),
    ]


def test_no_limit_minimum_raises() -> None:
    env = rl.env(players=3, button=0, seed=5)
    env.reset()
    assert env.agent_selection == "player_0"  # three-handed: the button is first
    mask = env.observe("player_0")["action_mask"]
    raise_to = env.raise_action
    assert mask[raise_to(3)] == 0 and mask[raise_to(4)] == 1  # a raise adds a big blind
    assert mask[raise_to(200)] == 1 and len(mask) == raise_to(200) + 1
    env.step(raise_to(10))  # raises by 8
    mask = env.observe("player_1")["action_mask"]
    assert mask[raise_to(17)] == 0 and mask[raise_to(18)] == 1  # TH-17: at least 8 more
    events = env.game.hand.event_count
    with pytest.raises(IllegalAction, match=r"bet or raise to 18\.\.200"):
        env.step(raise_to(17))
    assert env.game.hand.event_count == events  # refused: nothing changed
    assert env.agent_selection == "player_1"
    legal = env.observe("player_1")["observation"][env.encoder.offsets["legal"] :]
    assert legal[5] == 9.0 and legal[6] == 100.0  # 18 and 200 chips, in big blinds


def test_double_holdem_point_card_is_an_action_at_its_turn() -> None:
    env = rl.env("double", players=2, button=0, seed=6)
    env.reset()
    env.step(1)
    env.step(1)
    assert env.game.hand.street == "flop"
    agent = env.agent_selection
    seat = env.possible_agents.index(agent)
    observation = env.observe(agent)
    assert observation["action_mask"].tolist()[:5] == [0, 0, 1, 1, 1]
    assert observation["action_mask"].sum() == 3
    decision = env.encoder.offsets["decision"]
    assert observation["observation"][decision : decision + 2].tolist() == [0.0, 1.0]
    with pytest.raises(IllegalAction, match="must choose a point card"):
        env.step(1)
    env.step(4)  # the third hole card
    card = env.game.hand.hole(seat)[2]
    point = env.encoder.offsets["point"]
    assert env.observe(agent)["observation"][point + card] == 1.0
    assert env.game.hand.points[seat] == 2


def test_discrete_sizes() -> None:
    env = rl.env(players=2, button=0, actions="fcmhpa", seed=7)
    env.reset()
    base = env.game.codec.raise_base
    # facing the big blind: pot 3, call 1: the pot after a call is 4
    assert env.decode(base) == ("raise", 4)  # the minimum raise
    with pytest.raises(IllegalAction):
        env.decode(base + 1)  # half the pot after the call, 2 + 2: the minimum again
    assert env.decode(base + 2) == ("raise", 6)  # the pot: 2 + 4
    assert env.decode(base + 3) == ("raise", 200)  # all-in
    mask = env.observe("player_0")["action_mask"]
    assert mask.tolist() == [1, 1, 1, 0, 1, 1]


def test_bad_settings_and_actions_are_refused() -> None:
    with pytest.raises(InvalidConfig, match="players"):
        rl.env(players=11)
    with pytest.raises(InvalidConfig, match="actions"):
        rl.env(actions="everything")
    with pytest.raises(InvalidConfig, match="stacks"):
        rl.env(stacks=2)
    with pytest.raises(InvalidConfig, match="structure"):
        rl.env(structure="spread-limit")
    env = rl.env(seed=1)
    env.reset()
    with pytest.raises(ValueError, match="give an action number"):
        env.step(None)
    with pytest.raises(IllegalAction, match="not legal"):
        env.step(10_000)
