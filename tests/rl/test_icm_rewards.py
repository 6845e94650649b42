"""ICM rewards at a tournament table (issue 34 item 4): ``reward="icm"`` in the AEC,
Gymnasium and vector environments. The rewards of an episode add up to each seat's
change of ICM equity (checked against :func:`doubleholdem.icm.equities` directly), the
table's and the other tables' equity add up to the pool, and when the payouts make ICM
linear the rewards are the chips won times a constant."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from hypothesis import given, settings
from hypothesis import strategies as st

from doubleholdem import rl
from doubleholdem.errors import InvalidConfig
from doubleholdem.icm import equities
from doubleholdem.rl.rewards import IcmRewards
from rl_harness import random_episode


def field_equity(stacks: list[int], others: list[int], payouts: list[int]) -> list[float]:
    """Each player's equity among the stacks with chips (the table's, then the others'),
    straight from the ICM."""
    alive = [s for s in stacks if s] + others
    return list(equities(alive, payouts[: len(alive)]))


# -- settings ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({"reward": "dollars"}, "reward"),
        ({"payouts": (10,)}, "payouts"),
        ({"others": (100,)}, "others"),
        ({"reward": "icm"}, "payouts"),
        ({"reward": "icm", "payouts": (3, 5)}, "payouts"),
        ({"reward": "icm", "payouts": (5, 3, 2)}, "payouts"),  # three places, two players
        ({"reward": "icm", "payouts": (5, -1)}, "payouts"),
        ({"reward": "icm", "payouts": (5,), "others": (100, 0)}, "others"),
        ({"reward": "icm", "payouts": (5,), "others": (100, 2.5)}, "others"),
        ({"reward": "icm", "payouts": (5,), "others": 100}, "others"),
        ({"reward": "icm", "payouts": (5,), "others": (2**53,)}, "others"),
    ],
)
def test_settings_are_refused_by_name(settings: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidConfig) as refused:
        rl.env(**settings)
    assert refused.value.field == field
    assert field in str(refused.value)


def test_three_places_with_other_tables() -> None:
    config = rl.EnvConfig(reward="icm", payouts=[5, 3, 2], others=[150])
    assert config.payouts == (5, 3, 2) and config.others == (150,)


# -- what the rewards add up to ---------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(
    players=st.integers(2, 4),
    others=st.lists(st.integers(1, 400), max_size=3),
    shares=st.lists(st.integers(0, 1000), min_size=1, max_size=7),
    many=st.booleans(),
    seed=st.integers(0, 10_000),
)
def test_the_rewards_add_up_to_the_change_of_icm_equity(
    players: int, others: list[int], shares: list[int], many: bool, seed: int
) -> None:
    payouts = sorted(shares, reverse=True)[: players + len(others)]
    stacks = [40 + 13 * seat for seat in range(players)]
    env = rl.env(
        players=players,
        actions="fcpa",
        stacks=stacks,
        hands=None if many else 1,
        reward="icm",
        payouts=payouts,
        others=others,
    )
    won = random_episode(env, seed)
    final = env.game.stacks
    start = field_equity(stacks, others, payouts)
    end = field_equity(final, others, payouts)
    alive = [seat for seat in range(players) if final[seat]]
    pool = sum(payouts[: players + len(others)])
    for k, seat in enumerate(alive):
        assert won[f"player_{seat}"] == pytest.approx(end[k] - start[seat], abs=1e-9 * pool)
    # the chips the table lost or won went to or came from the other tables' equity
    table_change = sum(won.values())
    others_change = sum(end[len(alive) :]) - sum(start[players:])
    assert table_change == pytest.approx(-others_change, abs=1e-9 * pool)
    # a seat out holds a prize of the places below everyone still in
    places_left = len(alive) + len(others)
    for seat in set(range(players)) - set(alive):
        prize = start[seat] + won[f"player_{seat}"]
        below = [*payouts[places_left:], 0]
        assert min(below) - 1e-9 <= prize <= max(below) + 1e-9


@settings(max_examples=20, deadline=None)
@given(
    players=st.integers(2, 5),
    others=st.lists(st.integers(1, 300), max_size=3),
    many=st.booleans(),
    seed=st.integers(0, 10_000),
)
def test_winner_takes_all_rewards_are_the_chips(
    players: int, others: list[int], many: bool, seed: int
) -> None:
    """One payout: the equity is the pool's share of the chips, so the rewards are the
    chips won (the pool here is every chip in play)."""
    settings = {"players": players, "actions": "fcpa", "stacks": 30, "hands": None if many else 1}
    pool = 30 * players + sum(others)
    chips = random_episode(rl.env(**settings), seed)
    icm = random_episode(rl.env(**settings, reward="icm", payouts=[pool], others=others), seed)
    for agent, won in chips.items():
        assert icm[agent] == pytest.approx(won * 2, abs=1e-9 * pool)  # big blind: 2 chips


@pytest.mark.parametrize("seed", range(5))
def test_two_players_rewards_are_linear_in_the_chips(seed: int) -> None:
    """Two players in all, payouts a > b: equity = b + (a - b) * stack / chips."""
    settings = {"actions": "fcpa", "stacks": 50, "hands": None}
    chips = random_episode(rl.env(**settings), seed)
    icm = random_episode(rl.env(**settings, reward="icm", payouts=[70, 30]), seed)
    for agent, won in chips.items():
        assert icm[agent] == pytest.approx(won * 2 * 40 / 100, abs=1e-9)
    assert sorted(icm.values()) == pytest.approx([-20.0, 20.0])  # one wins it all


def test_a_seat_busted_by_a_hand_is_placed_and_keeps_its_prize() -> None:
    """TRN-17: busted in the same hand, more chips at its start finish higher."""
    rewards = IcmRewards(payouts=(50, 30, 20), others=())
    rewards.reset([100, 60, 40])
    before = list(rewards.equity)
    changes = rewards.hand([100, 60, 40], [200, 0, 0])
    assert rewards.equity == [50.0, 30.0, 20.0]  # 60 chips took second, 40 third
    assert changes == pytest.approx([50.0 - before[0], 30.0 - before[1], 20.0 - before[2]])
    assert rewards.hand([200, 0, 0], [200, 0, 0]) == [0.0, 0.0, 0.0]


def test_hands_settled_together_add_their_rewards() -> None:
    rewards = IcmRewards(payouts=(50, 30, 20), others=(100,))
    rewards.reset([100, 100, 100])
    first = rewards.hand([100, 100, 100], [150, 50, 100])
    second = rewards.hand([150, 50, 100], [200, 0, 100], add=True)
    assert rewards.rewards == pytest.approx([a + b for a, b in zip(first, second)])
    direct = field_equity([200, 0, 100], [100], [50, 30, 20])
    assert rewards.equity[0] == pytest.approx(direct[0])
    assert rewards.equity[1] == 0.0  # fourth of four: three places are paid


# -- the Gymnasium and vector environments ----------------------------------------------


def learner_total(**settings: Any) -> tuple[float, rl.HoldemGymEnv]:
    """One episode of the Gymnasium environment to its end, the learner always taking
    the last legal action (the largest raise); its rewards added up."""
    env = rl.HoldemGymEnv(seat=0, seed=4, players=3, stacks=30, hands=None, **settings)
    observation, _ = env.reset(seed=4)
    total, done = 0.0, False
    while not done:
        action = int(np.flatnonzero(observation["action_mask"])[-1])
        observation, reward, done, _, _ = env.step(action)
        total += reward
    return total, env


def test_gymnasium_learner_gets_its_icm_rewards() -> None:
    chips, _ = learner_total(actions="fcpa")
    assert chips != 0
    # winner takes all, the pool is every chip: the rewards are the chips
    icm, _ = learner_total(actions="fcpa", reward="icm", payouts=[90])
    assert icm == pytest.approx(chips * 2)
    # three places paid 50, 30, 10 (30 each at the start): the learner's total is its
    # prize less 30, a place's or a tie's share of places
    paid, env = learner_total(actions="fcpa", reward="icm", payouts=[50, 30, 10])
    assert env.game.stacks[0] == 0 or env.game.episode_over
    prize = env.game.icm.equity[0]
    assert paid == pytest.approx(prize - 30)
    assert prize in (50, 30, 10, 40, 20)


def test_vector_rewards_with_winner_takes_all_are_the_chips() -> None:
    settings = {"players": 3, "stacks": 20, "hands": None, "structure": "fixed-limit"}
    chips = rl.VectorEnv(4, seed=2, **settings)
    icm = rl.VectorEnv(4, seed=2, reward="icm", payouts=[60], **settings)
    chips.reset()
    _, masks, _ = icm.reset()
    generator = np.random.default_rng(0)
    for _ in range(200):
        actions = (generator.random(masks.shape) * masks).argmax(axis=1)
        _, _, _, won, _ = chips.step(actions)
        _, masks, _, rewards, _ = icm.step(actions)
        assert np.allclose(rewards, won * 2, atol=1e-5)


def test_vector_episode_rewards_end_at_the_prizes() -> None:
    """Three players paid 50, 30 and 20 (33.33 each at the start): each table's rewards
    over an episode add up, per seat, to its prize (or a tie's share) less 33.33."""
    tables = rl.VectorEnv(
        3, seed=5, players=3, stacks=20, hands=None, reward="icm", payouts=[50, 30, 20]
    )
    _, masks, _ = tables.reset()
    totals = np.zeros((3, 3))
    ended = np.zeros(3, bool)
    generator = np.random.default_rng(1)
    while not ended.all():
        actions = (generator.random(masks.shape) * masks).argmax(axis=1)
        _, masks, _, rewards, dones = tables.step(actions)
        totals[~ended] += rewards[~ended]
        ended |= dones
    start = 100 / 3
    prizes = {50.0, 30.0, 20.0, 40.0, 25.0, 100 / 3}  # a place, or tied places shared
    for table in totals:
        assert table.sum() == pytest.approx(0.0, abs=1e-5)
        for total in table:
            assert min(abs(total + start - prize) for prize in prizes) < 1e-4
