"""PettingZoo's own checks (api_test, seed_test) and Gymnasium's (check_env) on every
variant and structure, with 2, 3, 6 and 10 players (issue 21), and with ICM rewards."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from doubleholdem import rl
from doubleholdem.table.bots import CallingStation, EquityBot

VARIANTS = ("texas", "double")
STRUCTURES = ("no-limit", "pot-limit", "fixed-limit")
PLAYERS = (2, 3, 6, 10)


def _quiet(check: Any, *args: Any, **kwargs: Any) -> None:
    """Runs a checker without its advice on dict observations (PettingZoo's classic
    environments get the same): its assertions still fail the test."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check(*args, **kwargs)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("structure", STRUCTURES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_api_and_seed(variant: str, structure: str, players: int) -> None:
    # one-hand episodes with exact actions, and episodes played out with a discrete set
    _quiet(api_test, rl.env(variant, structure, players, seed=1), num_cycles=20)
    _quiet(seed_test, lambda: rl.env(variant, structure, players), num_cycles=20)
    many = {"actions": "fcpa", "hands": None, "stacks": 20}
    _quiet(api_test, rl.env(variant, structure, players, seed=2, **many), num_cycles=20)
    _quiet(seed_test, lambda: rl.env(variant, structure, players, **many), num_cycles=20)


@pytest.mark.parametrize(
    "settings",
    [
        {},
        {"variant": "double", "structure": "fixed-limit", "players": 3, "actions": "fchpa"},
        {"players": 6, "hands": 5, "ante": 1},
    ],
)
def test_gymnasium_check_env(settings: dict[str, Any]) -> None:
    _quiet(check_env, rl.HoldemGymEnv(seed=1, **settings), skip_render_check=True)


def test_gymnasium_with_bots_and_callables() -> None:
    def folder(observation: Any) -> tuple[str, None]:
        return ("check", None) if observation.legal.can_check else ("fold", None)

    env = rl.HoldemGymEnv(
        seat=1,
        opponents={0: EquityBot(seed=1, samples=32), 2: CallingStation(), 3: folder},
        players=4,
        variant="double",
        seed=3,
    )
    _quiet(check_env, env, skip_render_check=True)


def test_icm_rewards_pass_the_checkers() -> None:
    """reward="icm" (issue 34 item 4): a table of a tournament with two other tables."""
    icm = {"reward": "icm", "payouts": [60, 30, 10], "others": [40, 80]}
    _quiet(api_test, rl.env(players=3, seed=1, **icm), num_cycles=20)
    many = {"actions": "fcpa", "hands": None, "stacks": 20, **icm}
    _quiet(api_test, rl.env(players=3, seed=2, **many), num_cycles=20)
    _quiet(seed_test, lambda: rl.env(players=3, **many), num_cycles=20)
    _quiet(check_env, rl.HoldemGymEnv(seed=1, players=3, **many), skip_render_check=True)
