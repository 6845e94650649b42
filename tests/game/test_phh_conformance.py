"""Conformance: every PHH file in tests/data/phh (real hands: WSOP 2023, Dwan-Ivey 2009,
Pluribus) replays through the engine to its recorded finishing stacks (see the README
there for the source and for the 8 half-chip files, TH-30)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from doubleholdem.game.phh import load, replay

DATA = Path(__file__).resolve().parent.parent / "data" / "phh"
FILES = sorted(DATA.rglob("*.phh"))
HALF_CHIP_FILES = {
    "102-0.phh",
    "32-23.phh",
    "41b-204.phh",
    "60-88.phh",
    "75b-76.phh",
    "88-128.phh",
    "91-43.phh",
    "91-53.phh",
}


def expected_stacks(recorded: tuple[float, ...]) -> list[int]:
    """The recorded stacks with split halves rounded by TH-30: the odd chip to the first
    tied winner in PHH order (left of the button first), the other half down."""
    halves = [i for i, stack in enumerate(recorded) if stack != math.floor(stack)]
    return [
        math.floor(stack) + (1 if halves and i == halves[0] else 0)
        for i, stack in enumerate(recorded)
    ]


def test_every_file_is_here() -> None:
    """The data set is complete: 18 WSOP, 1 famous and 2,007 Pluribus files."""
    counts = {
        folder.name: len(list(folder.glob("*.phh"))) for folder in DATA.iterdir() if folder.is_dir()
    }
    assert counts == {"wsop-2023-43-5": 18, "famous": 1, "pluribus": 2007}


def test_exactly_the_listed_files_split_a_chip() -> None:
    """TH-30: the half-chip files are exactly the 8 the README lists."""
    found = set()
    for path in FILES:
        recorded = load(path).finishing_stacks
        if recorded and any(stack != math.floor(stack) for stack in recorded):
            found.add(path.name)
    assert found == HALF_CHIP_FILES


@pytest.mark.parametrize("folder", ["wsop-2023-43-5", "famous", "pluribus"])
def test_files_replay_to_recorded_finishing_stacks(folder: str) -> None:
    """TH-1 to TH-23, TH-30 on real hands: each file's finishing stacks are reached."""
    mismatches = []
    for path in sorted((DATA / folder).glob("*.phh")):
        history = load(path)
        result = replay(history)
        assert sum(result.finishing_stacks) == sum(history.config.stacks)
        if history.finishing_stacks is not None:
            expected = expected_stacks(history.finishing_stacks)
            if result.finishing_stacks != expected:
                mismatches.append((path.name, result.finishing_stacks, expected))
    assert not mismatches


def test_dwan_ivey_goes_to_dwan() -> None:
    """The famous hand has no recorded result: Dwan's 7-high straight beats Ivey's wheel
    (EV-1) and takes the only pot (TH-23); Antonius, who folded his big blind, loses his
    ante and blind (TH-19, TH-2)."""
    history = load(DATA / "famous" / "dwan-ivey-2009.phh")
    result = replay(history)
    (main_pot,) = result.pots
    assert main_pot[1] == [2]
    payoffs = [end - start for end, start in zip(result.finishing_stacks, history.config.stacks)]
    assert payoffs[1] == -(500 + 2000)
    assert payoffs[2] == -payoffs[0] - payoffs[1] > 0


@pytest.mark.parametrize(
    ("action", "word"),
    [
        ("p3 cbr \uff16", "cbr"),  # fullwidth six
        ("p3 cbr 6\u00b2", "cbr"),  # superscript two
        ("p\uff13 cbr 6", "p\uff13"),  # fullwidth three
        ("p\u0661 cc", "p\u0661"),  # Arabic-Indic one
    ],
)
def test_digits_are_ascii_only(action: str, word: str) -> None:
    """Issue 17 item 6: '²' passed str.isdigit and then broke int() (a ValueError);
    other scripts' digits were read as numbers. Both are a typed refusal now."""
    from doubleholdem.errors import InvalidHandHistory
    from doubleholdem.game.phh import loads

    text = f"""
variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ["d dh p1 AsAd", "d dh p2 QhQd", "d dh p3 KcKd", "{action}"]
"""
    with pytest.raises(InvalidHandHistory, match=r"action 4|not a player|malformed"):
        replay(loads(text))
