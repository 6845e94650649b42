"""Game engine throughput against pokerkit, side by side in the same run (issue 9 targets,
not tests): random 6-player no-limit hands to showdown and payout on the same action
policy, and replaying the Pluribus PHH files. The rules of play are Python.

Targets: random hands at least 50x pokerkit's rate; the replay command as a whole process
at least 5x pokerkit replaying the files in one process (the fastest of five rounds each).
Measured figures are in benches/README.md.

Run: ``make bench`` or ``python -m pytest benches/bench_game.py --benchmark-enable``.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from doubleholdem.game import GameConfig, Hand
from doubleholdem.game.phh import load, replay

HANDS = 200
PLURIBUS = sorted(
    (Path(__file__).resolve().parent.parent / "tests/data/phh/pluribus").glob("*.phh")
)


def policy(
    rng: random.Random, can_fold: bool, low: int | None, high: int | None
) -> tuple[str, int]:
    """The shared random policy: fold 20%, raise 20% (uniform in range, or all-in 20% of
    the time), else check or call."""
    roll = rng.random()
    if can_fold and roll < 0.2:
        return "fold", 0
    if low is not None and high is not None and roll < 0.4:
        return "raise", rng.randint(low, high) if rng.random() < 0.8 else high
    return "call", 0


def our_hands(count: int) -> None:
    rng = random.Random(1)
    for _ in range(count):
        stacks = tuple(rng.randint(500, 20_000) for _ in range(6))
        hand = Hand(GameConfig(stacks=stacks, small_blind=50, big_blind=100), rng=rng)
        while not hand.over:
            legal = hand.legal_actions()
            assert legal is not None
            kind, to = policy(rng, legal.can_fold, legal.min_raise_to, legal.max_raise_to)
            if kind == "fold":
                hand.act("fold")
            elif kind == "raise":
                hand.act("bet" if legal.is_bet else "raise", to)
            else:
                hand.check_or_call()


def pokerkit_hands(count: int) -> None:
    from pokerkit import Automation, NoLimitTexasHoldem

    automations = tuple(Automation)
    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    rng = random.Random(1)
    for _ in range(count):
        stacks = tuple(rng.randint(500, 20_000) for _ in range(6))
        state = NoLimitTexasHoldem.create_state(automations, True, 0, (50, 100), 100, stacks, 6)
        while state.status:
            low = state.min_completion_betting_or_raising_to_amount
            high = state.max_completion_betting_or_raising_to_amount
            kind, to = policy(rng, state.checking_or_calling_amount != 0, low, high)
            if kind == "fold":
                state.fold()
            elif kind == "raise":
                state.complete_bet_or_raise_to(to)
            else:
                state.check_or_call()


@pytest.mark.benchmark(group="random 6-player NL hands (200 per round)")
def test_doubleholdem_random_hands(benchmark: Any) -> None:
    benchmark(our_hands, HANDS)


@pytest.mark.benchmark(group="random 6-player NL hands (200 per round)")
def test_pokerkit_random_hands(benchmark: Any) -> None:
    benchmark.pedantic(pokerkit_hands, args=(HANDS,), rounds=1, iterations=1)


@pytest.mark.benchmark(group="replay 2,007 Pluribus PHH files")
def test_doubleholdem_replay_process(benchmark: Any) -> None:
    """The whole command as a process: ``doubleholdem replay FILE...``."""
    command = [sys.executable, "-m", "doubleholdem.cli", "replay", *map(str, PLURIBUS)]

    def run() -> None:
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)

    benchmark.pedantic(run, rounds=5, iterations=1)


@pytest.mark.benchmark(group="replay 2,007 Pluribus PHH files")
def test_doubleholdem_replay_in_process(benchmark: Any) -> None:
    benchmark.pedantic(lambda: [replay(load(p)) for p in PLURIBUS], rounds=5, iterations=1)


@pytest.mark.benchmark(group="replay 2,007 Pluribus PHH files")
def test_pokerkit_replay_in_process(benchmark: Any) -> None:
    from pokerkit import HandHistory

    def run() -> None:
        for path in PLURIBUS:
            with path.open("rb") as file:
                history = HandHistory.load(file)
            for _state in history:
                pass

    benchmark.pedantic(run, rounds=5, iterations=1)  # its fastest of five, like ours
