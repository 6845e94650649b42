"""The ICM value of calling an all-in: the caller's equity in the prize pool if they
fold, against their expected equity if they call (win, lose or split), with the chance
of winning from the library's equity (:func:`doubleholdem.equity.calculate`) or given.

``stacks`` are every player's chips at the start of the hand, ``posted`` what each had
put in the pot before the call (blinds, antes; the shover's all-in is their whole
stack). The caller calls ``min(caller's stack, shover's stack)``; chips the others
posted are dead money for the winner; a split pot splits them (an odd chip counted
half to each).

>>> a = allin([2000, 3000, 5000], [500, 300, 200], caller=0, shover=2, win=0.5)
>>> round(a.fold, 2), round(a.call, 2), round(a.needed, 3)
(288.57, 277.14, 0.574)

At 50% the call is even in chips but loses 11.43 of the prize pool: under ICM it needs
57.4% to break even.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from doubleholdem.equity import PlayerLike, calculate
from doubleholdem.errors import InvalidICM
from doubleholdem.icm.model import check_payouts, check_stacks, equities

__all__ = ["AllIn", "allin"]


@dataclass(frozen=True)
class AllIn:
    """The caller's ICM equity if they ``fold`` and if they ``call`` (expected over
    ``win``, ``tie`` and the rest lost), in each outcome (``if_win``, ``if_lose``,
    ``if_tie``), ``gain`` = call - fold, and the chance of winning a call ``needed`` to
    break even (ties as given), beside ``needed_chips``, the same in chips."""

    fold: float
    call: float
    if_win: float
    if_lose: float
    if_tie: float
    win: float
    tie: float
    needed: float
    needed_chips: float

    @property
    def gain(self) -> float:
        return self.call - self.fold

    def as_json(self) -> dict[str, Any]:
        return {
            "fold": self.fold,
            "call": self.call,
            "gain": self.gain,
            "if_win": self.if_win,
            "if_lose": self.if_lose,
            "if_tie": self.if_tie,
            "win": self.win,
            "tie": self.tie,
            "needed": self.needed,
            "needed_chips": self.needed_chips,
        }


def _player(value: object, name: str, players: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise InvalidICM(
            f"{name} must be a player from 0 to {players - 1}, not {value!r}",
            field=name,
            value=value,
        )
    return value


def _chance(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise InvalidICM(
            f"{name} must be a probability from 0 to 1, not {value!r}", field=name, value=value
        )
    return float(value)


def allin(
    stacks: Sequence[int],
    payouts: Sequence[int],
    *,
    caller: int,
    shover: int,
    posted: Sequence[int] | None = None,
    win: float | None = None,
    tie: float = 0.0,
    hands: tuple[PlayerLike, PlayerLike] | None = None,
    board: str | None = None,
    variant: str = "texas",
    seed: int | None = None,
    method: str | None = None,
) -> AllIn:
    """The module docstring's call or fold. Give ``win`` (and ``tie``), the caller's
    chances, or ``hands``, the caller's and the shover's hands or ranges (with
    ``board`` and ``variant``), for :func:`doubleholdem.equity.calculate` to compute
    them (``seed`` for its Monte Carlo)."""
    chips = check_stacks(stacks)
    prizes = check_payouts(payouts, len(chips))
    n = len(chips)
    c, s = _player(caller, "caller", n), _player(shover, "shover", n)
    if c == s:
        raise InvalidICM("the caller and the shover are two players", field="caller", value=c)
    if chips[c] == 0 or chips[s] == 0:
        raise InvalidICM("the caller and the shover both have chips", field="stacks")
    paid = [0] * n if posted is None else list(posted)
    if (
        len(paid) != n
        or any(isinstance(p, bool) or not isinstance(p, int) for p in paid)
        or any(not 0 <= p <= chips[i] for i, p in enumerate(paid))
    ):
        raise InvalidICM(
            f"posted must give each of the {n} players a whole number of chips from 0 to "
            "their stack",
            field="posted",
        )
    if (win is None) == (hands is None):
        raise InvalidICM("give win (the caller's chance) or hands, not both", field="win")
    if hands is not None:
        result = calculate(list(hands), board, variant=variant, seed=seed)
        win, tie = result.win[0], result.tie[0]
    win, tie = _chance(win, "win"), _chance(tie, "tie")
    if win + tie > 1 + 1e-12:
        raise InvalidICM(f"win + tie is {win + tie}, more than 1", field="tie", value=tie)
    at_risk = min(chips[c], chips[s])
    dead = sum(p for i, p in enumerate(paid) if i not in (c, s))
    base = [chips[i] - (paid[i] if i not in (c, s) else 0) for i in range(n)]

    def equity_of(delta_c: int, delta_s: int) -> float:
        after = list(base)
        after[c] += delta_c
        after[s] += delta_s
        return equities(after, prizes, method)[c]

    fold = equity_of(-paid[c], paid[c] + dead)
    if_win = equity_of(at_risk + dead, -at_risk)
    if_lose = equity_of(-at_risk, at_risk + dead)
    half = dead // 2
    if_tie = (equity_of(half, dead - half) + equity_of(dead - half, half)) / 2
    call = win * if_win + tie * if_tie + (1 - win - tie) * if_lose
    # Break-even chance of winning, ties as given: fold = w*W + tie*T + (1-w-tie)*L.
    needed = _break_even(fold, if_win, if_lose, if_tie, tie)
    chips_fold = chips[c] - paid[c]
    needed_chips = _break_even(
        chips_fold, chips[c] + at_risk + dead, chips[c] - at_risk, chips[c] + dead / 2, tie
    )
    return AllIn(fold, call, if_win, if_lose, if_tie, win, tie, needed, needed_chips)


def _break_even(fold: float, won: float, lost: float, split: float, tie: float) -> float:
    if won == lost:
        return 0.0 if fold <= lost else 1.0
    w = (fold - tie * split - (1 - tie) * lost) / (won - lost)
    return min(max(w, 0.0), 1.0)
