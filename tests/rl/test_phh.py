"""When a hand ends every agent's ``info["phh"]`` holds it as PHH text, and replaying that
text (``doubleholdem replay``) gives the same finishing stacks."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from doubleholdem import rl
from doubleholdem.game import Variant
from doubleholdem.game.phh import loads, replay, stacks_agree

pokerkit = pytest.importorskip("pokerkit")


def finished_hands(env: rl.HoldemEnv, seed: int) -> list[tuple[str, list[int]]]:
    """Each hand's PHH text and its finishing stacks in PHH order (the button last)."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    found = []
    for _ in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        hand = env.game.hand
        env.step(int(legal[int(rng.random() * len(legal))]))
        if hand.over:
            texts = {env.infos[a]["phh"] for a in env.agents}
            assert len(texts) == 1  # every agent gets the same hand
            n = hand.players
            order = [(hand.button + 1 + i) % n for i in range(n)]
            found.append((texts.pop(), [hand.stacks[i] for i in order]))
            assert env.infos[env.agents[0]]["hand"] == env.game.hands_played
    return found


@pytest.mark.parametrize(
    "settings",
    [
        {"players": 2},
        {"players": 6, "actions": "fcpa", "ante": 1},
        {"variant": "double", "structure": "fixed-limit", "players": 3},
        {"variant": "double", "structure": "pot-limit", "players": 4, "reveal_point": True},
        {"players": 3, "hands": None, "stacks": 10, "actions": "fcpa"},
        {"variant": "double", "players": 3, "hands": 4, "ante": 1, "ante_type": "big-blind"},
    ],
)
def test_phh_in_info_replays_to_the_same_stacks(settings: dict[str, Any]) -> None:
    env = rl.env(**settings)
    hands = [hand for seed in range(3) for hand in finished_hands(env, seed)]
    assert hands
    for text, stacks in hands:
        history = loads(text)
        assert list(history.finishing_stacks or ()) == stacks
        assert replay(history).finishing_stacks == stacks
        if history.config.variant is Variant.TEXAS:  # pokerkit reads Texas Hold'em's
            *_, state = pokerkit.HandHistory.loads(text)
            assert stacks_agree(stacks, list(state.stacks)), text


def test_replay_command_reads_the_info_text(tmp_path: Path) -> None:
    env = rl.env("double", players=3, actions="fcpa")
    text, stacks = finished_hands(env, 5)[0]
    path = tmp_path / "hand.phh"
    path.write_text(text)
    result = subprocess.run(
        [sys.executable, "-m", "doubleholdem.cli", "replay", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.split()[-len(stacks) :] == [str(s) for s in stacks]
