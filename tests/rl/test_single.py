"""The Gymnasium wrapper: the learner's rewards add up to its chips won or lost, hands
it never acted in included, and illegal numbers are played as the setting says."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from doubleholdem import rl
from doubleholdem.errors import IllegalAction, InvalidConfig
from doubleholdem.table.bots import CallingStation


@pytest.mark.parametrize(
    "settings",
    [
        {"players": 3, "hands": 20, "actions": "fcpa"},
        {"players": 2, "hands": None, "stacks": 20, "variant": "double"},
    ],
)
def test_rewards_add_up_to_the_chips_won(settings: dict[str, Any]) -> None:
    env = rl.HoldemGymEnv(seat=1, seed=4, **settings)
    rng = np.random.default_rng(0)
    for episode in range(3):
        observation, _ = env.reset(seed=episode)
        total, terminated = 0.0, False
        while not terminated:
            legal = np.flatnonzero(observation["action_mask"])
            observation, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
            assert not truncated and "illegal" not in info
            total += reward
        won = env.game.stacks[1] - env.config.game.stacks[1]
        assert total == pytest.approx(won / env.config.big_blind)


def test_illegal_numbers() -> None:
    env = rl.HoldemGymEnv(players=2, opponents=CallingStation(), seed=1, button=1)
    env.reset()
    _, _, _, _, info = env.step(10_000)  # played as check or call
    assert info["illegal"] is True
    strict = rl.HoldemGymEnv(players=2, seed=1, illegal="raise")
    strict.reset()
    with pytest.raises(IllegalAction):
        strict.step(10_000)
    with pytest.raises(InvalidConfig, match="illegal"):
        rl.HoldemGymEnv(illegal="ignore")
    with pytest.raises(InvalidConfig, match="opponents"):
        rl.HoldemGymEnv(players=3, opponents=[CallingStation()])
