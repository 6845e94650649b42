"""The big-blind ante's posting order (RULES.md TRN-9, the TDA's rule): a big blind too
short for both posts the blind first, then what is left as the ante; a cash game keeps
TH-19's order (the ante first), and a uniform ante is unchanged."""

from __future__ import annotations

import pytest

from doubleholdem.errors import InvalidConfig
from doubleholdem.game import GameConfig, Hand
from doubleholdem.tournament import BlindStructure, Level, TournamentConfig


def _posts(config: GameConfig) -> list[tuple[str, int, int]]:
    hand = Hand(config, seed=1)
    return [(e["kind"], e["seat"], e["amount"]) for e in hand.event_log()
            if e["kind"] in ("ante", "small_blind", "big_blind")]  # fmt: skip


@pytest.mark.parametrize(
    ("big_stack", "posts"),
    [
        (150, [("small_blind", 1, 50), ("big_blind", 2, 100), ("ante", 2, 50)]),
        (80, [("small_blind", 1, 50), ("big_blind", 2, 80), ("ante", 2, 0)]),
        (1000, [("small_blind", 1, 50), ("big_blind", 2, 100), ("ante", 2, 100)]),
    ],
)
def test_a_short_big_blind_posts_the_blind_before_the_ante(
    big_stack: int, posts: list[tuple[str, int, int]]
) -> None:
    structure = BlindStructure((Level(50, 100, ante=100),), ante_type="big-blind")
    table = TournamentConfig(blinds=structure).table_config(0)
    config = table.hand_config((1000, 1000, big_stack), button=0)
    assert _posts(config) == posts
    hand = Hand(config, seed=1)
    assert sum(hand.stacks) + hand.pot == 2000 + big_stack


def test_a_cash_game_and_uniform_antes_keep_the_ante_first() -> None:
    cash = GameConfig(stacks=(1000, 1000, 150), small_blind=50, big_blind=100, ante=100,
                      ante_type="big-blind", button=0)  # fmt: skip
    assert _posts(cash)[0] == ("ante", 2, 100) and _posts(cash)[-1] == ("big_blind", 2, 50)
    uniform = GameConfig(stacks=(1000, 1000, 150), small_blind=50, big_blind=100, ante=100,
                         button=0, blind_before_ante=True)  # fmt: skip
    assert [kind for kind, _, _ in _posts(uniform)][:3] == ["ante"] * 3
    assert "blind_before_ante" not in Hand(cash).to_json()
    with pytest.raises(InvalidConfig, match="blind_before_ante"):
        GameConfig(stacks=(9, 9), small_blind=1, big_blind=2, blind_before_ante=1)  # type: ignore[arg-type]
