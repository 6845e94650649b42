"""Learning environments for Texas and Double Hold'em (the ``rl`` extra: ``pip install
doubleholdem[rl]`` brings PettingZoo and Gymnasium), written over the game's rules-exact
:class:`~doubleholdem.game.Hand` and :class:`~doubleholdem.table.Table`; the environments
only encode and decode. See docs/rl.md.

- :func:`env`: a PettingZoo AEC environment (:class:`HoldemEnv`).
- :class:`HoldemGymEnv`: one learner at one seat, bots or callables at the others, for
  Gymnasium.
- :class:`VectorEnv`: many tables stepped per call into preallocated arrays.
"""

from __future__ import annotations

from typing import Any

from doubleholdem.extras import require

require("pettingzoo", "rl", "doubleholdem.rl")
require("gymnasium", "rl", "doubleholdem.rl")

from doubleholdem.rl.actions import ActionCodec  # noqa: E402
from doubleholdem.rl.aec import HoldemEnv  # noqa: E402
from doubleholdem.rl.config import PRESETS, EnvConfig  # noqa: E402
from doubleholdem.rl.episode import Game  # noqa: E402
from doubleholdem.rl.observations import Encoder  # noqa: E402
from doubleholdem.rl.single import HoldemGymEnv  # noqa: E402
from doubleholdem.rl.vector import VectorEnv  # noqa: E402

__all__ = [
    "PRESETS",
    "ActionCodec",
    "Encoder",
    "EnvConfig",
    "Game",
    "HoldemEnv",
    "HoldemGymEnv",
    "VectorEnv",
    "env",
]


def env(
    variant: str = "texas",
    structure: str = "no-limit",
    players: int = 2,
    actions: Any = "exact",
    seed: int | None = None,
    render_mode: str | None = None,
    **settings: Any,
) -> HoldemEnv:
    """A PettingZoo AEC environment of ``variant`` (``"texas"`` or ``"double"``) with
    ``structure`` (``"no-limit"``, ``"pot-limit"``, ``"fixed-limit"``), ``players``
    seats (2 to 10) and ``actions`` (``"exact"``, a preset such as ``"fcpa"``, or a
    sequence of raise sizes); the other ``settings`` are :class:`EnvConfig`'s (blinds,
    stacks, antes, rake, hands per episode, history, ...).

    >>> from doubleholdem import rl
    >>> game = rl.env(players=3, actions="fcpa", seed=1)
    >>> game.reset()
    >>> observation, reward, terminated, truncated, info = game.last()
    >>> observation["action_mask"].tolist()
    [1, 1, 1, 1]
    """
    config = EnvConfig(
        variant=variant, structure=structure, players=players, actions=actions, **settings
    )
    return HoldemEnv(config, seed=seed, render_mode=render_mode)
