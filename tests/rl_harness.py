"""Shared helpers of the learning environments' tests (tests/rl)."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from doubleholdem import rl


def random_episode(
    env: rl.HoldemEnv, seed: int, before_step: Callable[[int], None] | None = None
) -> dict[str, float]:
    """One episode of random legal play from ``reset(seed=seed)``, each agent's rewards
    added up; ``before_step`` sees each action number before it is played."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        action = int(legal[int(rng.random() * len(legal))])
        if before_step is not None:
            before_step(action)
        env.step(action)
    return totals
