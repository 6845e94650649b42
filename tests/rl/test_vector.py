"""The vector environment: preallocated arrays rewritten in place, a seed per table,
automatic resets, and each table the same as the AEC environment with its seed."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from doubleholdem import rl
from doubleholdem.errors import IllegalAction, InvalidConfig

SETTINGS = {"players": 6, "structure": "fixed-limit", "actions": "exact"}


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return (rng.random(masks.shape) * masks).argmax(axis=1)


def test_arrays_are_preallocated_and_rewritten_in_place() -> None:
    env = rl.VectorEnv(8, seed=1, **SETTINGS)
    observations, masks, agents = env.reset()
    assert observations.shape == (8, env.observation_size) and observations.dtype == np.float32
    assert masks.shape == (8, env.action_count) and masks.dtype == np.int8
    rng = np.random.default_rng(0)
    done = 0
    totals = np.zeros(6)
    for _ in range(300):
        out = env.step(random_actions(masks, rng))
        assert out[0] is observations and out[1] is masks and out[2] is agents
        assert masks.sum(axis=1).min() >= 1  # the seat to act always has a legal action
        rewards, dones = out[3], out[4]
        assert np.allclose(rewards.sum(axis=1), 0)  # no rake: a zero-sum game
        totals += rewards.sum(axis=0)
        done += int(dones.sum())
    assert done > 8  # episodes ended and the tables went on


def test_each_table_is_the_aec_environment_with_its_seed() -> None:
    tables = rl.VectorEnv(3, seed=[7, 8, 9], **SETTINGS)
    tables.reset()
    singles = [rl.env(seed=s, **SETTINGS) for s in (7, 8, 9)]
    for env in singles:
        env.reset()
    rng = np.random.default_rng(1)
    for _ in range(120):
        for i, env in enumerate(singles):
            agent = env.agent_selection
            assert agent == f"player_{tables.agents[i]}"
            observation = env.observe(agent)
            assert np.array_equal(observation["observation"], tables.observations[i])
            assert np.array_equal(observation["action_mask"], tables.action_masks[i])
        actions = random_actions(tables.action_masks, rng)
        _, _, _, rewards, dones = tables.step(actions)
        for i, env in enumerate(singles):
            env.step(int(actions[i]))
            if dones[i]:
                got = np.array([env.rewards[a] for a in env.possible_agents], np.float32)
                assert np.array_equal(got, rewards[i])
                while env.agents:
                    env.step(None)
                env.reset()


def test_same_seeds_same_tables() -> None:
    first, second = rl.VectorEnv(4, seed=3, **SETTINGS), rl.VectorEnv(4, seed=3, **SETTINGS)
    first.reset()
    second.reset()
    rng = np.random.default_rng(2)
    for _ in range(50):
        actions = random_actions(first.action_masks, rng)
        a, b = first.step(actions), second.step(actions)
        for x, y in zip(a, b):
            assert np.array_equal(x, y)


def test_refusals() -> None:
    with pytest.raises(InvalidConfig, match="num_envs"):
        rl.VectorEnv(0)
    env = rl.VectorEnv(2, seed=1, **SETTINGS)
    env.reset()
    with pytest.raises(InvalidConfig, match="give 2"):
        env.step([1])
    before = env.observations.copy()
    with pytest.raises(IllegalAction, match="table 0"):
        env.step([10_000, 1])
    with pytest.raises(IllegalAction, match="table 1: action 10000 is not legal"):
        env.step([1, 10_000])
    assert np.array_equal(env.observations, before)  # refused: no table moved


@pytest.mark.parametrize(
    "settings",
    [
        {"players": 3, "variant": "double", "hands": 4, "actions": "fcpa"},
        {"players": 4, "structure": "pot-limit", "history": 0},
        {"players": 2, "hands": None, "stacks": 20, "history": 3},
    ],
)
@pytest.mark.parametrize("shapes", [2, 4096])
def test_tables_written_at_once_equal_the_aec_observations(
    settings: dict[str, object], shapes: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every table's observation, written for all tables at once from the kept arrays
    (with the option shapes' rows made again when few are kept), is the AEC
    environment's observation of the same seat."""
    from doubleholdem.rl import vector

    monkeypatch.setattr(vector, "_SHAPES", shapes)
    tables = rl.VectorEnv(4, seed=[1, 2, 3, 4], **settings)  # type: ignore[arg-type]
    tables.reset()
    singles = [rl.env(seed=s, **settings) for s in (1, 2, 3, 4)]  # type: ignore[arg-type]
    for env in singles:
        env.reset()
    rng = np.random.default_rng(5)
    for _ in range(150):
        for i, env in enumerate(singles):
            while env.agents and env.terminations[env.agent_selection]:
                env.step(None)  # the dead steps at the end of a hand or an episode
            if not env.agents:
                env.reset()
            observation = env.observe(env.agent_selection)
            assert np.array_equal(observation["observation"], tables.observations[i])
            assert np.array_equal(observation["action_mask"], tables.action_masks[i])
        actions = random_actions(tables.action_masks, rng)
        tables.step(actions)
        for i, env in enumerate(singles):
            env.step(int(actions[i]))


@pytest.mark.parametrize(
    "settings",
    [
        {"players": 6, "structure": "fixed-limit", "stacks": 12},
        {"players": 3, "structure": "no-limit", "stacks": 30, "hands": 5},
        {"players": 4, "variant": "double", "structure": "pot-limit", "stacks": 25},
    ],
)
def test_kept_seat_rows_are_those_computed_afresh(settings: dict[str, object]) -> None:
    """The seats' rows each table keeps in the shared arrays (the seat that acted after
    each decision; at a new street in Texas Hold'em only the wagers cleared) equal the
    rows computed from the hand, with short stacks: all-ins, bets returned, run-outs."""
    env = rl.VectorEnv(6, seed=11, **settings)  # type: ignore[arg-type]
    env.reset()
    rng = np.random.default_rng(6)
    kept = env._kept
    for _ in range(300):
        env.step(random_actions(env.action_masks, rng))
        for i, game in enumerate(env.games):
            fresh = game.public.rebuilt_seats(game.hand, game.seat_of)
            assert kept.seats[i, :-1].tobytes() == fresh  # the last row: scratch
