"""A digest of seeded play: equal digests from two trees mean the speed work between them
changed nothing anyone sees. It plays seeded random legal play on ``Hand`` (events, PHH,
stacks), through the AEC environment (every ``last()``: observation, mask, reward,
termination, truncation, info), the Gymnasium wrapper and the vector environment (every
array after every step), over both variants, the three structures, 2 to 10 players,
antes, rake, one-hand and many-hand episodes, exact and discrete actions.

    PYTHONPATH=python python benches/fingerprint.py          # one digest per part
    PYTHONPATH=python python benches/fingerprint.py --quick  # fewer episodes

Not a test with a golden value: run it on both trees and compare.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

import numpy as np

from doubleholdem.game import GameConfig, Hand, Rake
from doubleholdem.game.phh import dumps
from doubleholdem.game.words import POINT

VARIANTS = ("texas", "double")
STRUCTURES = ("no-limit", "pot-limit", "fixed-limit")


def _feed(digest: Any, value: Any) -> None:
    if isinstance(value, np.ndarray):
        digest.update(str((value.dtype, value.shape)).encode())
        digest.update(value.tobytes())
    elif isinstance(value, dict):
        for key in sorted(value):
            digest.update(str(key).encode())
            _feed(digest, value[key])
    elif isinstance(value, (list, tuple)):
        digest.update(b"[")
        for item in value:
            _feed(digest, item)
        digest.update(b"]")
    else:
        digest.update(repr(value).encode())


def engine(episodes: int) -> str:
    """Random legal play on Hand: every event, the PHH and the final stacks."""
    digest = hashlib.sha256()
    rng = random.Random(11)
    for k in range(episodes):
        n = (2, 3, 6, 10)[k % 4]
        config = GameConfig(
            variant=VARIANTS[k % 2],
            structure=STRUCTURES[k % 3],
            stacks=tuple(rng.choice((3, 40, 200, 1000)) for _ in range(n)),
            small_blind=1,
            big_blind=2,
            ante=(0, 1)[k % 2],
            button=k % n,
        )
        hand = Hand(config, rng=rng)
        while not hand.over:
            legal = hand.legal_actions()
            assert legal is not None
            if legal.decision == POINT:
                hand.choose_point(legal.seat, rng.randrange(3))
                continue
            action = rng.choice(legal.actions())
            if action in ("bet", "raise"):
                assert legal.min_raise_to is not None and legal.max_raise_to is not None
                hand.act(action, rng.randint(legal.min_raise_to, legal.max_raise_to))
            else:
                hand.act(action)
        digest.update(hand.log_json().encode())
        digest.update(dumps(hand).encode())
        _feed(digest, hand.stacks)
    return digest.hexdigest()


def _choose(mask: np.ndarray, rng: random.Random) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.randrange(len(legal))])


def aec(episodes: int) -> str:
    """Every ``last()`` of seeded AEC episodes, with random legal actions."""
    from doubleholdem import rl

    digest = hashlib.sha256()
    rng = random.Random(12)
    k = 0
    for variant in VARIANTS:
        for structure in STRUCTURES:
            for players in (2, 3, 6, 10):
                for actions, hands in (("exact", 1), ("fcpa", 1), ("exact", 4), ("fcpa", 3)):
                    settings: dict[str, Any] = {"hands": hands, "ante": k % 2}
                    if k % 3 == 0:
                        settings["rake"] = Rake(500, cap=3, no_flop_no_drop=False)
                    k += 1
                    env = rl.env(variant, structure, players, actions=actions, seed=k, **settings)
                    for _ in range(max(1, episodes // 24)):
                        env.reset()
                        for agent in env.agent_iter():
                            observation, reward, terminated, truncated, info = env.last()
                            _feed(digest, (agent, observation, reward, terminated, truncated))
                            _feed(digest, info)
                            if terminated or truncated:
                                env.step(None)
                            else:
                                env.step(_choose(observation["action_mask"], rng))
    return digest.hexdigest()


def gym(episodes: int) -> str:
    """The Gymnasium wrapper's observations, rewards and infos."""
    from doubleholdem import rl

    digest = hashlib.sha256()
    rng = random.Random(13)
    for k, variant in enumerate(VARIANTS):
        env = rl.HoldemGymEnv(variant=variant, players=3, actions="fcpa", hands=3)
        for episode in range(episodes // 4):
            observation, info = env.reset(seed=100 * k + episode)
            _feed(digest, (observation, info))
            done = False
            while not done:
                observation, reward, terminated, truncated, info = env.step(
                    _choose(observation["action_mask"], rng)
                )
                _feed(digest, (observation, reward, terminated, truncated, info))
                done = terminated or truncated
    return digest.hexdigest()


def vector(steps: int) -> str:
    """Every array of seeded vector environments after every step."""
    from doubleholdem import rl

    digest = hashlib.sha256()
    generator = np.random.default_rng(14)
    for variant in VARIANTS:
        # tables, history: counts that differ, so that an axis taken for the other shows
        for structure, players, actions, hands, tables, history in (
            ("fixed-limit", 6, "exact", 1, 7, 8),
            ("no-limit", 2, "fcpa", 1, 8, 3),
            ("no-limit", 3, "exact", 5, 5, 8),
            ("pot-limit", 10, "fcpa", 2, 9, 12),
        ):
            env = rl.VectorEnv(
                tables,
                seed=5,
                history=history,
                variant=variant,
                structure=structure,
                players=players,
                actions=actions,
                hands=hands,
                phh=True,
            )
            _feed(digest, env.reset())
            for _ in range(steps):
                masks = env.action_masks
                chosen = (generator.random(masks.shape) * masks).argmax(axis=1)
                _feed(digest, env.step(chosen))
                _feed(digest, env.phh)
    return digest.hexdigest()


def main(argv: list[str]) -> None:
    scale = 1 if "--quick" in argv else 4
    parts = {
        "engine": lambda: engine(500 * scale),
        "aec": lambda: aec(48 * scale),
        "gym": lambda: gym(20 * scale),
        "vector": lambda: vector(50 * scale),
    }
    result = {name: part() for name, part in parts.items()}
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
