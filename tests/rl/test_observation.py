"""Every observation audited for hidden information: the cards in it are exactly those
the game's own view of that seat shows (its hole and point cards, the board, hands shown,
point cards shown or revealed, DH-8), and dealing the opponents other cards changes
nothing a seat observes until those cards are shown."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from doubleholdem import rl
from doubleholdem.cards import parse_card


def cards_in(observation: np.ndarray, start: int, size: int = 52) -> set[int]:
    block = observation[start : start + size]
    assert set(np.unique(block)) <= {0.0, 1.0}
    return {int(c) for c in np.flatnonzero(block)}


def audit(env: rl.HoldemEnv, agent: str) -> None:
    """The observation's cards against the game's view of what ``agent`` may see."""
    observation = env.observe(agent)["observation"]
    seat = env.possible_agents.index(agent)
    view = env.view(agent)
    view = view.get("hand") or view  # a table's view holds the hand's
    offsets = env.encoder.offsets
    n = env.config.players
    assert cards_in(observation, offsets["hole"]) == {parse_card(c) for c in view["hole"]}
    assert cards_in(observation, offsets["board"]) == {parse_card(c) for c in view["board"]}
    hole = [parse_card(c) for c in view["hole"]]
    points = view["points"]
    if env.config.double:
        own = {hole[points[str(seat)]]} if str(seat) in points else set()
        assert cards_in(observation, offsets["point"]) == own
    for k in range(1, n):
        other = (seat + k) % n
        shown = {parse_card(c) for c in view["shown"].get(str(other), [])}
        assert cards_in(observation, offsets["shown"] + (k - 1) * 52) == shown
        if env.config.double:
            seen = cards_in(observation, offsets["shown_points"] + (k - 1) * 52)
            if str(other) in points:
                assert seen == {env.game.hand.hole(env.game.index_of[other])[points[str(other)]]}
            else:
                assert seen == set()


@pytest.mark.parametrize(
    "settings",
    [
        {"players": 2},
        {"players": 4, "actions": "fcpa"},
        {"variant": "double", "players": 3},
        {"variant": "double", "players": 3, "reveal_point": True, "actions": "fcpa"},
        {"variant": "double", "players": 6, "hands": None, "stacks": 10, "actions": "fcpa"},
    ],
)
def test_every_observation_shows_only_what_the_seat_may_see(settings: dict[str, Any]) -> None:
    env = rl.env(**settings)
    rng = random.Random(1)
    for seed in range(3):
        env.reset(seed=seed)
        for _ in env.agent_iter():
            for other in env.agents:
                audit(env, other)
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))


@pytest.mark.parametrize("variant", ["texas", "double"])
def test_other_deals_change_nothing_a_seat_observes(variant: str) -> None:
    """The same public play with the opponents dealt other cards: seat 0 observes the
    very same arrays until a hand is shown."""
    players = 3
    env, twin = rl.env(variant, players=players), rl.env(variant, players=players)
    cards = players * (3 if variant == "double" else 2)
    rng = random.Random(2)
    for trial in range(10):
        deck = list(range(52))
        random.Random(trial).shuffle(deck)
        # the holes are dealt one card at a time from seat 1 (the button is seat 0):
        # seat 0's cards are every third card of the deal; give the others unused cards
        other = deck[:]
        for position in range(cards):
            if position % players != players - 1:  # not seat 0's card
                spare = deck[-1 - position]
                other[position], other[-1 - position] = spare, deck[position]
        env.reset(options={"deck": deck, "button": 0})
        twin.reset(options={"deck": other, "button": 0})
        assert env.game.hand.hole(0) == twin.game.hand.hole(0)
        assert env.game.hand.hole(1) != twin.game.hand.hole(1)
        while env.game.actor is not None and not any(env.game.hand.shown):
            ours, theirs = env.observe("player_0"), twin.observe("player_0")
            assert np.array_equal(ours["observation"], theirs["observation"])
            assert np.array_equal(ours["action_mask"], theirs["action_mask"])
            mask = env.observe(env.agent_selection)["action_mask"]
            legal = np.flatnonzero(mask)
            if variant == "double":  # the same point choices either way
                legal = legal[legal != 1] if mask[2] else legal
            action = int(legal[int(rng.random() * len(legal))])
            env.step(action)
            twin.step(action)


@pytest.mark.parametrize(
    "settings",
    [
        {"players": 2, "structure": "no-limit"},
        {"players": 6, "structure": "fixed-limit", "ante": 1},
        {"variant": "double", "players": 3, "stacks": 12, "actions": "fcpa"},
        {"players": 4, "hands": None, "stacks": 20, "structure": "pot-limit"},
    ],
)
def test_kept_seat_rows_are_those_computed_afresh(settings: dict[str, Any]) -> None:
    """The seats' rows kept up to date decision by decision (only the seat that acted,
    all of them when the street changes) equal the rows computed from the hand at every
    step, so no observation reads a stale chip count."""
    env = rl.env(**settings)
    rng = random.Random(3)
    steps = 0
    for seed in range(20):
        env.reset(seed=seed)
        for _ in env.agent_iter():
            game = env.game
            fresh = game.public.rebuilt_seats(game.hand, game.seat_of)
            assert bytes(game.public.seats) == fresh
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
    assert steps > 50


def test_observations_handed_out_stay_their_holders_own() -> None:
    """An agent may keep its observations (a replay buffer): no later step, hand or
    observation writes into an array handed out before."""
    env = rl.env(players=3, actions="fcpa", hands=None, stacks=40)
    rng = random.Random(4)
    kept: list[tuple[dict[str, np.ndarray], bytes, bytes]] = []
    for seed in range(10):
        env.reset(seed=seed)
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            assert observation is not None
            kept.append(
                (
                    observation,
                    observation["observation"].tobytes(),
                    observation["action_mask"].tobytes(),
                )
            )
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
    assert len(kept) > 100  # more than one slab of observations
    for observation, floats, mask in kept:
        assert observation["observation"].tobytes() == floats
        assert observation["action_mask"].tobytes() == mask
        assert observation["observation"].flags.writeable


def test_observations_nobody_holds_are_written_again_and_only_those() -> None:
    """The usual loop drops each observation at the next step: their arrays are then
    written again (two slabs of them take turns), while whatever is still held (the
    dict, one of its arrays, or a view of either) is never written into."""
    env = rl.env(players=3, actions="fcpa", hands=None, stacks=40)
    rng = random.Random(5)
    slabs: list[Any] = []  # every slab handed out of (kept: their arrays stay unheld)
    held: list[tuple[Any, bytes]] = []
    holds = (
        lambda o: o,  # the dict
        lambda o: o["observation"],
        lambda o: o["action_mask"],
        lambda o: o["observation"][3:40],  # a view of the slab's memory
        lambda o: np.frombuffer(o["action_mask"], np.uint8),
    )
    count = 0
    for seed in range(30):
        env.reset(seed=seed)
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            assert observation is not None
            if all(slab is not env.encoder._slab for slab in slabs):
                slabs.append(env.encoder._slab)
            count += 1
            if seed < 10 and count % 7 == 0:
                kept = holds[count // 7 % len(holds)](observation)
                held.append((kept, _bytes(kept)))
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
    assert len(held) > 20
    for kept, before in held:
        assert _bytes(kept) == before
    # every slab holding a kept array was left alone; once none is kept, two take turns
    assert count > 20 * 32
    assert len(slabs) < count // 32 - 10


def _bytes(kept: Any) -> bytes:
    if isinstance(kept, dict):
        return kept["observation"].tobytes() + kept["action_mask"].tobytes()
    return bytes(kept.tobytes())
