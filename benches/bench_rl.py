"""Learning environments (issue 21 targets, not tests), side by side in one run, random
legal play, decisions per second:

- heads-up no-limit Hold'em through each library's environment API with observations:
  our PettingZoo AEC environment (fold/call/pot/all-in, and exact actions), RLCard's
  ``no-limit-holdem``, PettingZoo's own ``texas_holdem_no_limit_v6`` (built on RLCard) and
  OpenSpiel's ``universal_poker`` (C++, fold/call/pot/all-in, with observation tensors);
  targets: at least 5x RLCard and at least OpenSpiel;
- our vector environment, six-max fixed limit with observations, 64 tables, one action
  per table per call chosen in numpy; target 60,000 decisions a second on one core.

Each library picks a uniformly random legal action (from the action mask through
``mask.nonzero()`` for the two PettingZoo environments, from the list of legal actions
for RLCard and OpenSpiel), with the same stacks and blinds: 200 chips, blinds 1 and 2
(100 big blinds; RLCard's default of 100 chips is raised to 200 for RLCard and
PettingZoo's environment on it). What each loop does is not quite equal, and these
differences favour the others:

- ours computes an observation (vector and mask) at every decision and, as PettingZoo's
  AEC API has it, the terminal observation of every agent when the hand ends (and steps
  each agent out); RLCard's ``step`` returns the next player's state, its loop asks for
  the payoffs at the end; OpenSpiel's loop asks for ``observation_tensor()`` at every
  decision and the returns at the end, no terminal observation;
- OpenSpiel's game is C++: the loop is Python calling it through pybind11 (a call for
  each chance outcome dealt, each observation, each legal-action list, each action);
  RLCard and ours are Python; ours plays the exact rules (minimum raises, heads-up order
  of play), RLCard does not (see issue 21);
- the action sets differ a little: ours fold, check/call, pot, all-in (or any legal
  total with ``exact``); RLCard fold, check/call, half pot, pot, all-in; OpenSpiel
  fold, check/call, pot, all-in;
- PHH writing is off in ours (``phh=False``): nothing in the others writes a hand
  history.

The comparison libraries are the ``bench`` extra (``pip install doubleholdem[bench]``); a
missing one is skipped. Figures are in benches/README.md ("Learning environments").

Run: ``python -m pytest benches/bench_rl.py --benchmark-enable``.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
import pytest
from pettingzoo import AECEnv

from doubleholdem.game import Action

DECISIONS = 4000
STACK = 200  # chips of each seat; blinds 1 and 2
HEADS_UP = "decisions per second: heads-up no-limit, random legal play, with observations"
VECTOR = "decisions per second: vector env, six-max fixed limit, with observations"


def aec_random_play(env: Any, decisions: int) -> int:
    """Random legal play through PettingZoo's AEC API, one-hand episodes, until
    ``decisions`` are made: the loop of both PettingZoo environments and of the floor."""
    rng = random.Random(2)
    done = 0
    while done < decisions:
        env.reset()
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0]
            env.step(int(legal[int(rng.random() * len(legal))]))
            done += 1
    return done


def doubleholdem_aec(decisions: int, actions: str) -> int:
    from doubleholdem import rl

    env = rl.env("texas", "no-limit", 2, actions=actions, seed=1, phh=False, stacks=STACK)
    return aec_random_play(env, decisions)


def doubleholdem_episodes(decisions: int) -> int:
    """Many-hand episodes, whose hands a :class:`~doubleholdem.table.Table` deals and
    plays: six seats of fixed-limit Double Hold'em, ``fcpa``, 100 hands an episode."""
    from doubleholdem import rl

    env = rl.env("double", "fixed-limit", 6, actions="fcpa", seed=1, hands=100)
    return aec_random_play(env, decisions)


def floor_aec(decisions: int) -> int:
    """Not poker: an AEC environment that does nothing but PettingZoo's bookkeeping,
    hands of three decisions between two agents, an observation and mask copied from
    fixed arrays. The same loop over it is the most any Python environment through the
    AEC API can do on this machine, whatever its game costs."""
    return aec_random_play(_FloorEnv(), decisions)


class _FloorEnv(AECEnv):  # type: ignore[misc]
    metadata: ClassVar[dict[str, Any]] = {"name": "floor", "is_parallelizable": False}

    def __init__(self) -> None:
        super().__init__()
        self.possible_agents = ["player_0", "player_1"]
        self._observation = np.zeros(100, np.float32)
        self._mask = np.ones(4, np.int8)
        self._decisions = 0

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        agents = self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos = {agent: {} for agent in agents}
        self.agent_selection = agents[0]
        self._decisions = 0

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return {"observation": self._observation.copy(), "action_mask": self._mask.copy()}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._decisions += 1
        if self._decisions < 3:
            self.agent_selection = self.possible_agents[self._decisions % 2]
            return
        for name in self.agents:
            self.rewards[name] = self._cumulative_rewards[name] = 1.0
            self.terminations[name] = True
        self._deads_step_first()


def rlcard_env(decisions: int) -> int:
    import rlcard

    env = rlcard.make("no-limit-holdem", config={"seed": 1, "chips_for_each": STACK})
    rng = random.Random(2)
    done = 0
    while done < decisions:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[int(rng.random() * len(legal))])
            done += 1
        env.get_payoffs()
    return done


def pettingzoo_env(decisions: int) -> int:
    from pettingzoo.classic import texas_holdem_no_limit_v6

    env = texas_holdem_no_limit_v6.env()
    env.reset(seed=1)
    env.unwrapped.env.game.init_chips = [STACK, STACK]  # from the next hand on
    return aec_random_play(env, decisions)


def open_spiel_game() -> Any:
    pyspiel = pytest.importorskip("pyspiel")
    return pyspiel.load_game(
        "universal_poker",
        {
            "betting": "nolimit",
            "numPlayers": 2,
            "numRounds": 4,
            "blind": "2 1",
            "firstPlayer": "2 1 1 1",
            "numSuits": 4,
            "numRanks": 13,
            "numHoleCards": 2,
            "numBoardCards": "0 3 1 1",
            "stack": f"{STACK} {STACK}",
            "bettingAbstraction": "fcpa",
        },
    )


def open_spiel(game: Any, decisions: int) -> int:
    rng = random.Random(2)
    done = 0
    while done < decisions:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
                continue
            state.observation_tensor()
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
            done += 1
        state.returns()
    return done


def recorded_hands(decisions: int) -> tuple[list[Any], list[Any]]:
    """The hands and decisions the fold/call/pot/all-in AEC run plays: the same work for
    the engine alone."""
    from doubleholdem import rl

    env = rl.env("texas", "no-limit", 2, actions="fcpa", seed=1, phh=False, stacks=STACK)
    rng = random.Random(2)
    hands: list[Any] = []
    done = 0
    while done < decisions:
        env.reset()
        hands.append((env.game.hand.snapshot(), []))
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0]
            action = int(legal[int(rng.random() * len(legal))])
            kind, amount = env.decode(action)
            options = env.game.hand.legal_actions()
            assert options is not None
            if kind == "call":
                kind = "call" if options.call_amount else "check"
            elif kind == "raise":
                kind = "bet" if options.is_bet else "raise"
            hands[-1][1].append((kind, amount))
            env.step(action)
            done += 1
    from doubleholdem.game import GameConfig

    return [(GameConfig.from_dict(s["config"]), s["deck"]) for s, _ in hands], [d for _, d in hands]


def engine_alone(deals: list[Any], decisions: list[Any], limit: int | None = None) -> int:
    """Plays the recorded hands on :class:`Hand`, all of them or the first ones that
    make ``limit`` decisions."""
    from doubleholdem.game import Hand

    done = 0
    for (config, deck), made in zip(deals, decisions):
        if limit is not None and done >= limit:
            break
        hand = Hand(config, deck=deck)
        for kind, amount in made:
            hand.act(kind, amount)
        done += len(made)
    return done


def test_engine_alone_same_decisions(benchmark: Any) -> None:
    """Not an environment: the same hands and decisions played on Hand directly, the
    floor the rules in Python put under any environment built on them."""
    deals, decisions = recorded_hands(DECISIONS)
    benchmark.group = HEADS_UP
    benchmark.extra_info["items"] = sum(map(len, decisions))
    benchmark(engine_alone, deals, decisions)


@pytest.mark.parametrize("actions", ["fcpa", "exact"])
def test_doubleholdem_aec(benchmark: Any, actions: str) -> None:
    benchmark.group = HEADS_UP
    benchmark.extra_info["items"] = DECISIONS
    assert benchmark(doubleholdem_aec, DECISIONS, actions) >= DECISIONS


def test_floor_of_any_aec_environment(benchmark: Any) -> None:
    """Not poker: PettingZoo's AEC bookkeeping and the random policy alone
    (:func:`floor_aec`), the ceiling of any Python environment through that API."""
    benchmark.group = HEADS_UP
    benchmark.extra_info["items"] = DECISIONS
    assert benchmark(floor_aec, DECISIONS) >= DECISIONS


def test_rlcard(benchmark: Any) -> None:
    pytest.importorskip("rlcard")
    benchmark.group = HEADS_UP
    benchmark.extra_info["items"] = DECISIONS
    assert benchmark(rlcard_env, DECISIONS) >= DECISIONS


def test_pettingzoo_rlcard(benchmark: Any) -> None:
    pytest.importorskip("rlcard")
    pytest.importorskip("pygame")
    benchmark.group = HEADS_UP
    benchmark.extra_info["items"] = DECISIONS // 4
    assert benchmark(pettingzoo_env, DECISIONS // 4) >= DECISIONS // 4


def test_open_spiel(benchmark: Any) -> None:
    game = open_spiel_game()
    benchmark.group = HEADS_UP
    benchmark.extra_info["items"] = DECISIONS
    assert benchmark(open_spiel, game, DECISIONS) >= DECISIONS


TABLES = 64
STEPS = 100


def vector_steps(env: Any, steps: int, rng: np.random.Generator) -> int:
    masks = env.action_masks
    for _ in range(steps):
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        env.step(actions)
    return steps * env.num_envs


def engine_six_max(decisions: int) -> int:
    from doubleholdem.game import GameConfig, Hand

    config = GameConfig(stacks=(200,) * 6, small_blind=1, big_blind=2, structure="fixed-limit")
    rng = random.Random(4)
    done = 0
    while done < decisions:
        hand = Hand(config, rng=rng)
        while not hand.over:
            legal = hand.legal_actions()
            assert legal is not None
            options = legal.actions()
            action = options[int(rng.random() * len(options))]
            if action is Action.BET or action is Action.RAISE:
                hand.act(action, legal.min_raise_to)
            else:
                hand.act(action)
            done += 1
    return done


def test_engine_alone_six_max(benchmark: Any) -> None:
    """Not an environment: random legal play on Hand directly, no observation."""
    benchmark.group = VECTOR
    benchmark.extra_info["items"] = TABLES * STEPS
    assert benchmark(engine_six_max, TABLES * STEPS) >= TABLES * STEPS


def test_doubleholdem_vector(benchmark: Any) -> None:
    from doubleholdem import rl

    env = rl.VectorEnv(TABLES, seed=1, players=6, structure="fixed-limit", actions="exact")
    env.reset()
    rng = np.random.default_rng(3)
    benchmark.group = VECTOR
    benchmark.extra_info["items"] = TABLES * STEPS
    assert benchmark(vector_steps, env, STEPS, rng) == TABLES * STEPS
