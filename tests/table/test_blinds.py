"""The plan of the button and the blinds (RULES.md TH-3, TH-35 to TH-38) as a pure
function, table-driven: the seats and the last hand in, the plan out."""

from __future__ import annotations

from typing import Any

import pytest

from doubleholdem.table.blinds import BlindPlan, Debts, Positions, plan_blinds
from doubleholdem.table.config import ButtonRule

SB, BB = 5, 10
MOVING, DEAD = ButtonRule.MOVING, ButtonRule.DEAD

# one letter per seat: "." empty, "p" plays (owes nothing), "o" sits out, "n" new and
# posts, "w" new and waits for the big blind, "m" missed both blinds and posts, "M" the
# same but waits, "b" missed the big blind only and posts; the occupancy is the seat
_SEATS = {
    "p": Debts(0),
    "o": Debts(0),
    "n": Debts(0, new=True),
    "w": Debts(0, new=True, post=False),
    "m": Debts(0, missed_small=True, missed_big=True),
    "M": Debts(0, missed_small=True, missed_big=True, post=False),
    "b": Debts(0, missed_big=True),
}


def _plan(seats: str, last: Positions, rule: ButtonRule = MOVING) -> BlindPlan:
    debts = [None if c == "." else _SEATS[c]._replace(occupancy=s) for s, c in enumerate(seats)]
    able = [s for s, c in enumerate(seats) if c not in ".o"]
    return plan_blinds(debts, able, last, rule, SB, BB)


def _last(button: int, small: int, big: int, occupancy: int | None = None) -> Positions:
    """The last hand's places; its big blind posted by whoever sits there now, unless
    ``occupancy`` says someone else did."""
    return Positions(button, small, big, (big, big if occupancy is None else occupancy))


CASES: list[tuple[str, str, Positions, ButtonRule, dict[str, Any]]] = [
    (
        "TH-38 the first hand: the button on the first player from seat 0",
        "pp.p",
        Positions(),
        MOVING,
        {"button": 0, "small": 1, "big": 3, "dealt": (0, 1, 3)},
    ),
    (
        "TH-38 moving button: one player on, the blinds follow",
        "pppp",
        _last(0, 1, 2),
        MOVING,
        {"button": 1, "small": 2, "big": 3, "dealt": (0, 1, 2, 3)},
    ),
    (
        "TH-36 a new player posts a live big blind, one waits, one lands on the big blind",
        "pnpwpn",
        _last(0, 2, 4),
        MOVING,
        {"button": 2, "small": 4, "big": 5, "dealt": (0, 1, 2, 4, 5), "live": {1: BB}},
    ),
    (
        "TH-36 a new player between the button and the big blind waits",
        "p...pnp",
        _last(0, 4, 6),
        MOVING,
        {"button": 4, "small": 6, "big": 0, "dealt": (0, 4, 6)},
    ),
    (
        "TH-37 missed blinds: the big part live, the small part dead",
        "pppm",
        _last(2, 0, 1),
        MOVING,
        {
            "button": 0,
            "small": 1,
            "big": 2,
            "dealt": (0, 1, 2, 3),
            "live": {3: BB},
            "dead": {3: SB},
        },
    ),
    (
        "TH-37 missed blinds waited out: not dealt in before the big blind",
        "pppM",
        _last(2, 0, 1),
        MOVING,
        {"button": 0, "small": 1, "big": 2, "dealt": (0, 1, 2)},
    ),
    (
        "TH-37 only the big blind missed: posts it live, nothing dead",
        "ppbp",
        _last(1, 3, 0),
        MOVING,
        {"button": 3, "small": 0, "big": 1, "dealt": (0, 1, 2, 3), "live": {2: BB}},
    ),
    (
        "TH-36, TH-37 one who owes between the button and the big blind waits, and the "
        "small blind passes it",
        "ppbp",
        _last(0, 1, 3),
        MOVING,
        {"button": 1, "small": 3, "big": 0, "dealt": (0, 1, 3), "missed": ((2, "small"),)},
    ),
    (
        "TH-37 the big blind passes a player sitting out: missed",
        "pppo",
        _last(0, 1, 2),
        MOVING,
        {"button": 1, "small": 2, "big": 0, "dealt": (0, 1, 2), "missed": ((3, "big"),)},
    ),
    (
        "TH-37 then the small blind",
        "pppo",
        _last(1, 2, 0),
        MOVING,
        {"button": 2, "small": 0, "big": 1, "dealt": (0, 1, 2), "missed": ((3, "small"),)},
    ),
    (
        "TH-38 moving button when the big blind left",
        "pp.p",
        _last(0, 1, 2, occupancy=-1),
        MOVING,
        {"button": 1, "small": 3, "big": 0, "dealt": (0, 1, 3)},
    ),
    (
        "TH-38 dead button when the big blind left: the small blind is dead",
        "pp.p",
        _last(0, 1, 2, occupancy=-1),
        DEAD,
        {"button": 1, "small": None, "big": 3, "dealt": (0, 1, 3), "small_position": 2},
    ),
    (
        "TH-38 dead button on an empty seat",
        "p.pp",
        _last(1, 2, 3),
        DEAD,
        {"button": 2, "small": 3, "big": 0, "dealt": (0, 2, 3)},
    ),
    (
        "TH-3, TH-35 heads-up: the button posts the small blind, no big blind twice",
        ".pp",
        _last(0, 1, 2),
        MOVING,
        {"button": 2, "small": 2, "big": 1, "dealt": (1, 2)},
    ),
    (
        "TH-35 someone else now in the last big blind's seat may take the big blind",
        ".pp",
        _last(0, 1, 2, occupancy=99),
        MOVING,
        {"button": 1, "small": 1, "big": 2, "dealt": (1, 2)},
    ),
    (
        "TH-35 back to a new game: the last big blind is not the big blind again",
        "nnn",
        _last(0, 2, 0),
        MOVING,
        {"button": 2, "small": 0, "big": 1, "dealt": (0, 1, 2)},
    ),
    (
        "a new game: nobody owes, nobody posts",
        "nn.m",
        _last(1, 3, 0, occupancy=-1),
        MOVING,
        {"button": 3, "small": 0, "big": 1, "dealt": (0, 1, 3)},
    ),
]


@pytest.mark.parametrize(
    ("seats", "last", "rule", "expected"),
    [pytest.param(*case[1:], id=case[0]) for case in CASES],
)
def test_plan(seats: str, last: Positions, rule: ButtonRule, expected: dict[str, Any]) -> None:
    plan = _plan(seats, last, rule)
    found = {
        "button": plan.button,
        "small": plan.small,
        "big": plan.big,
        "dealt": plan.dealt,
        "live": plan.live,
        "dead": plan.dead,
        "missed": plan.missed,
        "small_position": plan.small_position,
    }
    wanted = {"live": {}, "dead": {}, "missed": (), "small_position": expected["small"]}
    wanted.update(expected)
    assert found == wanted
    assert plan.hand_button in plan.dealt
    assert plan.positions([_SEATS["p"]._replace(occupancy=s) for s in range(len(seats))]) == (
        plan.button,
        plan.small_position,
        plan.big,
        (plan.big, plan.big),
    )


def test_the_plan_is_pure() -> None:
    """Planning twice from the same data gives the same plan and changes nothing."""
    debts = [Debts(0, new=True), Debts(1), None, Debts(3, missed_big=True)]
    before = list(debts)
    first = plan_blinds(debts, [0, 1, 3], _last(0, 1, 3), MOVING, SB, BB)
    assert plan_blinds(debts, [0, 1, 3], _last(0, 1, 3), MOVING, SB, BB) == first
    assert debts == before
