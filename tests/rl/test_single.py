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


def _aggressive(words: bool) -> Any:
    """An opponent that raises the minimum when it may, else goes all in when that
    calls, else checks or calls: answering with Action members or with their words."""
    from doubleholdem.game import Action

    def choose(observation: Any) -> tuple[Any, int | None]:
        legal = observation.legal
        if legal.decision == "point":
            return "point", 0
        if legal.min_raise_to is not None:
            kind, amount = (Action.BET if legal.is_bet else Action.RAISE), legal.min_raise_to
        elif legal.stack > 0 and legal.call_amount == legal.stack:
            kind, amount = Action.ALL_IN, None
        else:
            kind, amount = (Action.CHECK if legal.can_check else Action.CALL), None
        return (kind.value if words else kind), amount

    return choose


@pytest.mark.parametrize("variant", ["texas", "double"])
def test_opponents_may_answer_with_action_members(variant: str) -> None:
    """An opponent's Action.RAISE plays as "raise": the same observations and rewards
    (the answer was once refused: str() of a member is its name, not its word)."""
    runs = []
    for words in (True, False):
        env = rl.HoldemGymEnv(
            opponents=_aggressive(words), seed=3, players=3, hands=5, variant=variant
        )
        observation, _ = env.reset(seed=7)
        seen, terminated = [observation["observation"].tobytes()], False
        while not terminated:
            legal = np.flatnonzero(observation["action_mask"])
            observation, reward, terminated, _, _ = env.step(int(legal[0]))
            seen.append((observation["observation"].tobytes(), reward))
        runs.append(seen)
    assert len(runs[0]) > 2 and runs[0] == runs[1]
