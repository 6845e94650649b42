"""Many tables stepped per call (:class:`VectorEnv`): self-play at every table, the
observation of each table's seat to act written into preallocated arrays, episodes reset
automatically, a seed per table."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from doubleholdem.errors import IllegalAction, InvalidConfig
from doubleholdem.rl.config import EnvConfig
from doubleholdem.rl.episode import Game
from doubleholdem.rl.observations import Encoder
from doubleholdem.rl.rows import TableArrays

__all__ = ["VectorEnv"]


class VectorEnv:
    """``num_envs`` tables of the same :class:`~doubleholdem.rl.EnvConfig` settings
    (``phh`` off unless asked: writing hand histories costs more than a decision).

    After :meth:`reset` and each :meth:`step`, these arrays (allocated once, rewritten in
    place) describe every table:

    - ``observations`` (num_envs, size) float32: the observation of the seat to act;
    - ``action_masks`` (num_envs, actions) int8: its legal actions;
    - ``agents`` (num_envs,) int64: the seat to act;
    - ``rewards`` (num_envs, players) float32: chips each seat won or lost in big blinds
      in the hands that ended during the step;
    - ``dones`` (num_envs,) bool: the episode ended during the step (the table was reset
      at once: its observation is the next episode's first).

    :meth:`step` takes one action number per table (the seat to act's) and returns
    ``(observations, action_masks, agents, rewards, dones)``. With ``phh=True``,
    :attr:`phh` holds each table's last finished hand as PHH text.
    """

    def __init__(self, num_envs: int, *, seed: int | Sequence[int] | None = None, **settings: Any):
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise InvalidConfig(f"num_envs: {num_envs!r} is not a whole number >= 1")
        settings.setdefault("phh", False)
        self.config = config = EnvConfig(**settings)
        self.num_envs = num_envs
        self.games = [Game(config) for _ in range(num_envs)]
        self._kept = kept = TableArrays(config, num_envs)
        for game, rows in zip(self.games, kept.rows):
            game.public = rows  # the kept rows in the shared arrays
        self.encoder = encoder = Encoder(config, self.games[0].codec)
        self.observation_size = encoder.size
        self.action_count = encoder.codec.size
        self.observations = np.zeros((num_envs, encoder.size), np.float32)
        self.action_masks = np.zeros((num_envs, encoder.codec.size), np.int8)
        self.agents = np.zeros(num_envs, np.int64)
        self.rewards = np.zeros((num_envs, config.players), np.float32)
        self.dones = np.zeros(num_envs, bool)
        self.phh: list[str | None] = [None] * num_envs
        self._views: list[Any] = []  # each hand's actor_view: what the actions answer
        self._rngs = self._generators(seed)
        self._rows = np.arange(num_envs)
        # the arrays' memory as flat views: each table's observation written in place
        observations, masks = cast(Any, self.observations), cast(Any, self.action_masks)
        raw: Any = memoryview(observations).cast("B")
        self._flat = (raw.cast("f"), raw, memoryview(masks).cast("B").cast("b"))

    def _generators(self, seed: int | Sequence[int] | None) -> list[random.Random]:
        n = self.num_envs
        if seed is None:
            return [random.Random() for _ in range(n)]
        if isinstance(seed, int) and not isinstance(seed, bool):
            return [random.Random(seed + i) for i in range(n)]
        seeds = list(cast(Sequence[int], seed))
        if len(seeds) != n:
            raise InvalidConfig(f"seed: give one seed or {n}, not {len(seeds)}", field="seed")
        return [random.Random(s) for s in seeds]

    def reset(
        self, seed: int | Sequence[int] | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Starts an episode at every table (``seed``: one for all, table ``i`` gets
        ``seed + i``, or one per table); returns ``(observations, action_masks,
        agents)``."""
        if seed is not None:
            self._rngs = self._generators(seed)
        self.observations.fill(0)
        self.action_masks.fill(0)
        self.rewards.fill(0)
        self.dones.fill(False)
        for game, rng in zip(self.games, self._rngs):
            game.reset(rng)
        self._write_all()
        return self.observations, self.action_masks, self.agents

    def _write_all(self) -> None:
        """Every table's seat to act and its observation, into the zeroed arrays."""
        games = self.games
        self._views = views = [game.hand.actor_view() for game in games]
        self.agents[:] = self.encoder.write_tables(
            games, views, self._kept, self.observations, self.action_masks, self._flat
        )

    def step(
        self, actions: Sequence[int] | np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One decision at every table (see the class docstring). Every action is
        checked against the masks first: a number that is not legal at its table raises
        :class:`~doubleholdem.errors.IllegalAction` naming the table, and no table moves."""
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or chosen.dtype.kind not in "iu":
            raise InvalidConfig(
                f"actions: give {self.num_envs} action numbers, not an array of shape "
                f"{chosen.shape} and type {chosen.dtype}"
            )
        inside = (chosen >= 0) & (chosen < self.action_count)
        if not inside.all() or not self.action_masks[self._rows, chosen].all():
            self._refuse(chosen, inside)
        observations, masks, rewards, dones = (
            self.observations,
            self.action_masks,
            self.rewards,
            self.dones,
        )
        observations.fill(0)
        masks.fill(0)
        rewards.fill(0)
        dones.fill(False)
        bb = float(self.config.big_blind)
        tables = zip(self.games, chosen.tolist(), self._views, self._rngs)
        for i, (game, action, view, rng) in enumerate(tables):
            if game.step(action, rng, view):
                row = rewards[i]
                for seat, chips in enumerate(game.payoffs):
                    if chips:
                        row[seat] = chips / bb
                if game.phh is not None:
                    self.phh[i] = game.phh
                if game.episode_over:
                    dones[i] = True
                    game.reset(rng)
        self._write_all()
        return observations, masks, self.agents, rewards, dones

    def _refuse(self, chosen: np.ndarray, inside: np.ndarray) -> None:
        """Raises the game's refusal of the first action that is not legal."""
        legal = self.action_masks[self._rows, np.where(inside, chosen, 0)].astype(bool)
        table = int(np.flatnonzero(~(inside & legal))[0])
        game = self.games[table]
        decision, options, pot = game.legal()
        try:
            game.codec.decode(int(chosen[table]), decision, options, pot)
        except IllegalAction as error:
            raise IllegalAction(
                f"table {table}: {error}", seat=error.seat, action=error.action, legal=error.legal
            ) from None
        raise IllegalAction(f"table {table}: action {int(chosen[table])} is masked out")
