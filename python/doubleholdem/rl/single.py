"""One learner at one seat for Gymnasium (:class:`HoldemGymEnv`): the other seats are
played by the library's bots (:mod:`doubleholdem.table.bots`) or by any callables that
answer a :class:`~doubleholdem.table.Observation` with a
:class:`~doubleholdem.table.Decision`."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Union

import gymnasium
import numpy as np
from gymnasium import spaces

from doubleholdem.errors import IllegalAction, InvalidConfig
from doubleholdem.game.words import CALL, FOLD, RAISE
from doubleholdem.rl.config import EnvConfig
from doubleholdem.rl.episode import Game
from doubleholdem.rl.observations import Encoder
from doubleholdem.table import Decision, Observation
from doubleholdem.table.bots import Bot, RandomBot

__all__ = ["HoldemGymEnv"]

Player = Union[Bot, Callable[[Observation], Decision]]
Obs = dict[str, np.ndarray]


class HoldemGymEnv(gymnasium.Env[Obs, int]):
    """The learner plays seat ``seat``; ``opponents`` plays the others: one bot or
    callable for all, a sequence (one per other seat, in seat order) or a mapping from
    seat to player; default a seeded :class:`~doubleholdem.table.bots.RandomBot` at each.
    The other settings are :class:`~doubleholdem.rl.EnvConfig`'s.

    Observations and actions are the AEC environment's (a dict with ``observation`` and
    ``action_mask``; action numbers of :class:`~doubleholdem.rl.actions.ActionCodec`). The
    reward of a step is the learner's chips won or lost, in big blinds, in the hands that
    ended during it (``reward="icm"``: the change of its ICM equity). A hand that ends
    before the learner acts (everybody folds to its big blind) is not an episode of its
    own: its result is added to the reward of the learner's next step, so no chip goes
    uncounted. ``info["phh"]`` holds the last
    finished hand.

    ``illegal`` says what an action number that is not legal now does (Gymnasium's
    checks, and unmasked policies, send any number): ``"call"`` (the default) checks or
    calls instead, ``"fold"`` checks if free, else folds; either way ``info["illegal"]``
    is True for that step. ``"raise"`` raises :class:`~doubleholdem.errors.IllegalAction`.
    """

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 (Gymnasium's own type)

    def __init__(
        self,
        seat: int = 0,
        opponents: Player | Sequence[Player] | Mapping[int, Player] | None = None,
        *,
        seed: int | None = None,
        illegal: str = "call",
        **settings: Any,
    ) -> None:
        config = EnvConfig(**settings)
        if illegal not in (CALL, FOLD, RAISE):
            raise InvalidConfig(
                f"illegal: {illegal!r} is not 'call', 'fold' or 'raise'", field="illegal"
            )
        self.illegal = illegal
        n = config.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise InvalidConfig(f"seat: {seat!r} is not a seat 0..{n - 1}", field="seat")
        self.config = config
        self.seat = seat
        self.game = Game(config)
        self.encoder = Encoder(config, self.game.codec)
        self.players = _players(opponents, seat, n, seed)
        self._own_bots = opponents is None  # reseeded with the environment
        self.observation_space: spaces.Space[Any] = spaces.Dict(
            {
                "observation": spaces.Box(0.0, self.encoder.high, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.game.codec.size,), np.int8),
            }
        )
        self.action_space: spaces.Space[Any] = spaces.Discrete(self.game.codec.size)
        self._rng = random.Random(seed)
        self._pending = 0.0  # results of hands that ended before the learner acted
        self._info: dict[str, Any] = {}
        self._mask = np.zeros(self.game.codec.size, np.int8)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
            if self._own_bots:
                self.players = _players(None, self.seat, self.config.players, seed)
        self._pending = 0.0
        self._info = {}
        self._new_episode()
        return self._observe(), dict(self._info)

    def _new_episode(self) -> None:
        """Deals until the learner has a decision (see the class docstring)."""
        while True:
            self.game.reset(self._rng)
            if not self._others():
                return

    def _others(self) -> bool:
        """Plays the other seats until the learner acts; True if the episode ended."""
        game = self.game
        while game.actor is not None and game.actor != self.seat:
            player: Any = self.players[game.actor]
            # a bot's method or the callable itself (no typing.cast: its generic type
            # would be built at every decision)
            choose: Callable[[Observation], Decision] = getattr(player, "choose", player)
            action, amount = choose(game.bot_observation(game.actor))
            if game.decide(action, amount, self._rng):
                self._pending += self._won()
                if game.phh is not None:
                    self._info = {"phh": game.phh}
                if game.episode_over or game.stacks[self.seat] == 0:
                    return True
        return game.actor is None

    def step(self, action: int) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        game = self.game
        if game.actor != self.seat:
            raise IllegalAction("the episode is over: reset it", action=action)
        reward, self._pending = self._pending, 0.0
        info_illegal = False
        try:  # the rules refuse an action number that is not legal now, changing nothing
            ended = game.step(int(action), self._rng)
        except IllegalAction:
            if self.illegal == RAISE:
                raise
            info_illegal = True
            decision, legal, pot = game.legal()
            mask = self._mask
            mask[:] = 0
            game.codec.fill(memoryview(mask), decision, legal, pot)  # type: ignore[arg-type]
            ended = game.step(_substitute(mask, self.illegal), self._rng)
        if ended:
            reward += self._won()
            if game.phh is not None:
                self._info = {"phh": game.phh}
        terminated = ended and (game.episode_over or game.stacks[self.seat] == 0)
        if not terminated:
            terminated = self._others()
            reward += self._pending
            self._pending = 0.0
        info = dict(self._info)
        if info_illegal:
            info["illegal"] = True
        return self._observe(), reward, terminated, False, info

    def _won(self) -> float:
        """The learner's reward for the hands that just ended: chips in big blinds, or
        with ``reward="icm"`` the change of its ICM equity."""
        game = self.game
        if game.icm is None:
            return game.payoffs[self.seat] / self.config.big_blind
        return game.icm.rewards[self.seat]

    def _observe(self) -> Obs:
        return self.encoder.observation(self.game, self.seat)

    def action_masks(self) -> np.ndarray:
        """The legal-action mask now (the name sb3-contrib's MaskablePPO looks for)."""
        return self._observe()["action_mask"]


def _substitute(mask: np.ndarray, rule: str) -> int:
    """The legal action played instead of an illegal one."""
    if mask[1] and (rule == CALL or not mask[0]):
        return 1  # check or call
    if mask[0]:
        return 0  # fold
    return int(np.flatnonzero(mask)[0])  # a point card: the first


def _players(
    opponents: Player | Sequence[Player] | Mapping[int, Player] | None,
    seat: int,
    n: int,
    seed: int | None,
) -> dict[int, Player]:
    others = [s for s in range(n) if s != seat]
    if opponents is None:
        base = 0 if seed is None else seed
        return {s: RandomBot(None if seed is None else base + s) for s in others}
    if isinstance(opponents, Mapping):
        players = dict(opponents)
        missing = sorted(set(others) - set(players))
        if missing or seat in players:
            raise InvalidConfig(
                f"opponents: give a player for each of seats {others}, not {sorted(players)}",
                field="opponents",
            )
        return players
    if isinstance(opponents, Sequence) and not isinstance(opponents, str):
        if len(opponents) != len(others):
            raise InvalidConfig(
                f"opponents: give {len(others)} players (seats {others}), not {len(opponents)}",
                field="opponents",
            )
        return dict(zip(others, opponents))
    if not (hasattr(opponents, "choose") or callable(opponents)):
        raise InvalidConfig(
            f"opponents: {opponents!r} is not a bot or a callable", field="opponents"
        )
    return dict.fromkeys(others, opponents)
