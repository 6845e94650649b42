"""The PettingZoo AEC environment (:class:`HoldemEnv`, made by :func:`doubleholdem.rl.env`):
agents ``player_0`` .. ``player_{n-1}`` act in turn; each observation is a dict with
``observation`` (the float32 vector of :class:`~doubleholdem.rl.observations.Encoder`) and
``action_mask`` (int8, 1 for each legal action number), as in PettingZoo's classic
environments. Rewards are chips won or lost, in big blinds, when a hand ends (or with
``reward="icm"`` the change of each agent's ICM equity, :mod:`doubleholdem.rl.rewards`);
then every agent's ``info["phh"]`` holds that hand as PHH text.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env import AECIterable

from doubleholdem.rl.config import EnvConfig
from doubleholdem.rl.episode import Game
from doubleholdem.rl.observations import Encoder
from doubleholdem.table import Observation

__all__ = ["HoldemEnv"]

Obs = dict[str, np.ndarray]


class HoldemEnv(AECEnv[str, Obs, int]):  # type: ignore[misc]
    """Texas or Double Hold'em for PettingZoo's AEC API (see the module docstring).

    ``seed`` seeds the first episode; ``reset(seed=...)`` reseeds, a plain ``reset()``
    goes on with the same generator, so a seeded sequence of episodes is reproducible.
    Beyond the AEC API: :meth:`view` (the game's JSON view of a seat, for rule-based
    agents), :meth:`bot_observation` (what the library's bots decide from),
    :meth:`decode` and :meth:`raise_action` (action numbers), :meth:`encoding` (the
    observation's layout) and :attr:`game` (the driver: the hand being played is
    ``env.game.hand``).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "doubleholdem_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self, config: EnvConfig, *, seed: int | None = None, render_mode: str | None = None
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode: {render_mode!r} is not None or 'ansi'")
        self.render_mode = render_mode
        self.config = config
        self.game = Game(config)
        codec = self.game.codec
        self.encoder = encoder = Encoder(config, codec)
        n = config.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seats = {name: i for i, name in enumerate(self.possible_agents)}
        observation = spaces.Dict(
            {
                "observation": spaces.Box(0.0, encoder.high, (encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (codec.size,), np.int8),
            }
        )
        self.observation_spaces = {a: observation for a in self.possible_agents}
        action = spaces.Discrete(codec.size)
        self.action_spaces = {a: action for a in self.possible_agents}
        self._rng = random.Random(seed)
        self._bb = float(config.big_blind)
        self._rewarded = False  # rewards hold the last hand's: zeroed at the next step
        # a new episode's dicts, copied (cheaper than made afresh)
        self._zeros = dict.fromkeys(self.possible_agents, 0.0)
        self._falses = dict.fromkeys(self.possible_agents, False)
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]
        self._skip_agent_selection: str | None = None
        # agent_iter()'s: it holds no state of its own (each loop over it starts afresh)
        self._agent_iterable = _AgentIterable(self, 2**63)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new episode. ``options`` may hold ``deck`` (card numbers in dealing order)
        and ``button`` for a one-hand episode: a chosen deal (duplicate play, tests)."""
        if seed is not None:
            self._rng = random.Random(seed)
        if options:
            self.game.reset(self._rng, deck=options.get("deck"), button=options.get("button"))
        else:
            self.game.reset(self._rng)
        names = self.possible_agents
        self.agents = names.copy()
        self.rewards = self._zeros.copy()
        self._cumulative_rewards = self._zeros.copy()
        self.terminations = self._falses.copy()
        self.truncations = self._falses.copy()
        self.infos = {name: {} for name in names}
        self._rewarded = False
        self._skip_agent_selection = None
        actor = self.game.actor
        if actor is not None:
            self.agent_selection = names[actor]

    def observe(self, agent: str) -> Obs:
        return self.encoder.observation(self.game, self._seats[agent])

    def last(self, observe: bool = True) -> tuple[Obs | None, float, bool, bool, dict[str, Any]]:
        """The observation, cumulative reward, termination, truncation and info of the
        agent to step (PettingZoo's ``last``)."""
        agent = self.agent_selection
        return (
            self.encoder.observation(self.game, self._seats[agent]) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable[str, Obs, int]:
        """The agent to step, until no agent is left or after ``max_iter`` steps."""
        if max_iter == 2**63:  # the usual loop: the iterable made once
            return self._agent_iterable
        return _AgentIterable(self, max_iter)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: give an action number, not None")
        if self._rewarded:  # the last hand's rewards go at the next decision
            rewards = self.rewards
            for name in rewards:
                rewards[name] = 0.0
            self._rewarded = False
        self._cumulative_rewards[agent] = 0.0
        game = self.game
        if game.step(int(action), self._rng):
            self._hand_ended()
            return
        self.agent_selection = self.possible_agents[game.actor]  # type: ignore[index]

    def _hand_ended(self) -> None:
        """Rewards and infos of the hand that ended; the agents out are terminated and
        step first (PettingZoo's dead steps)."""
        game = self.game
        info: dict[str, Any] = {"hand": game.hands_played}
        if game.phh is not None:
            info["phh"] = game.phh
        if game.later_phh:
            info["later_phh"] = list(game.later_phh)
        icm, seats = game.icm, self._seats
        # chips in big blinds, or with reward="icm" the changes of ICM equity
        payoffs, bb = (game.payoffs, self._bb) if icm is None else (icm.rewards, 1.0)
        rewards, cumulative, infos = self.rewards, self._cumulative_rewards, self.infos
        agents = self.agents
        for name in agents:
            reward = payoffs[seats[name]] / bb
            rewards[name] = reward
            cumulative[name] += reward
            infos[name] = info.copy()
        self._rewarded = True
        terminations = self.terminations
        if game.episode_over:  # every agent is out: the first steps first
            for name in agents:
                terminations[name] = True
            self._skip_agent_selection = self.agent_selection
            self.agent_selection = agents[0]
            return
        names = self.possible_agents
        for seat, stack in enumerate(game.stacks):
            if stack == 0 and names[seat] in terminations:
                terminations[names[seat]] = True
        self.agent_selection = names[game.actor]  # type: ignore[index]
        self._deads_step_first()

    def _was_dead_step(self, action: int | None) -> None:
        """PettingZoo's step of an agent that is out (it is removed; the next agent out
        steps next, else the agent to act), in fewer operations."""
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        terminations, truncations, rewards = self.terminations, self.truncations, self.rewards
        del terminations[agent], truncations[agent], rewards[agent]
        del self._cumulative_rewards[agent], self.infos[agent]
        agents = self.agents
        agents.remove(agent)
        for name in agents:
            if terminations[name] or truncations[name]:
                if self._skip_agent_selection is None:
                    self._skip_agent_selection = agent
                self.agent_selection = name
                break
        else:
            if self._skip_agent_selection is not None:
                self.agent_selection = self._skip_agent_selection
            self._skip_agent_selection = None
        for name in rewards:
            rewards[name] = 0

    # beyond the AEC API

    def view(self, agent: str) -> dict[str, Any]:
        """The game's JSON view of what ``agent`` may see (cards as text, its legal
        options when it acts, the visible event log)."""
        return self.game.view(self._seats[agent])

    def bot_observation(self, agent: str) -> Observation:
        """What ``agent`` knows for its decision, as the library's bots take it."""
        return self.game.bot_observation(self._seats[agent])

    def decode(self, action: int) -> tuple[str, int | None]:
        """What action number ``action`` does now for the agent to act: ``("fold",
        None)``, ``("call", None)`` (check or call), ``("raise", to)`` or ``("point",
        index)``; :class:`~doubleholdem.errors.IllegalAction` if it is not legal."""
        decision, legal, pot = self.game.legal()
        return self.game.codec.decode(int(action), decision, legal, pot)

    def raise_action(self, to: int) -> int:
        """The exact action number of a bet or raise to ``to`` chips."""
        return self.game.codec.raise_action(to)

    def encoding(self) -> list[tuple[str, int, int, str]]:
        """The observation's blocks: (name, first index, size, meaning)."""
        return self.encoder.describe()

    def render(self) -> str | None:
        """The public state of the hand as text (``render_mode="ansi"``)."""
        if self.render_mode is None:
            return None
        hand = self.game.hand
        from doubleholdem.cards import format_cards

        return (
            f"{hand.street} board [{format_cards(hand.board)}] pot {hand.pot} "
            f"stacks {hand.stacks} bets {hand.bets} to act {self.game.actor}"
        )

    def close(self) -> None:
        """Nothing to release."""


class _AgentIterable(AECIterable):  # type: ignore[misc]
    """PettingZoo's ``agent_iter`` as a generator (cheaper than its iterator's method
    call a step)."""

    def __init__(self, env: HoldemEnv, max_iter: int) -> None:
        self.env, self.max_iter = env, max_iter

    def __iter__(self) -> Iterator[str]:
        env, left = self.env, self.max_iter
        if left >= 2**63:  # the default: a limit no loop reaches, so none is counted
            while env.agents:
                yield env.agent_selection
            return
        while env.agents and left > 0:
            left -= 1
            yield env.agent_selection
