"""Deals among the players left in a tournament: the prize pool (the payouts of the
places still to be decided) shared now instead of played for, in whole chips.

A **chip chop** gives each player the smallest of the payouts (the last place's, 0
when fewer places are paid than players are left) and shares the rest in proportion to
the stacks. An **ICM deal** gives each player their ICM equity
(:func:`~doubleholdem.icm.model.equities`).

Either may leave ``left`` chips to play for: they come off the first prize (at most the
difference between the first and second prizes), the rest is dealt, and the players
play on for ``left``, winner takes all. In an ICM deal each player's deal plus their
chance of first place (their share of the chips) times ``left`` is their ICM equity of
the whole pool, so leaving chips to play for changes nobody's expectation.

Amounts are whole chips: each player gets the whole part of their share, and the chips
left over go one each to the largest remainders (ties: the larger stack, then the
earlier player).

>>> d = icm_deal([5000, 3000, 2000], [500, 300, 200])
>>> d.amounts, sum(d.amounts)
((384, 327, 289), 1000)
>>> chip_chop([5000, 3000, 2000], [500, 300, 200]).amounts
(400, 320, 280)
>>> d = icm_deal([5000, 3000, 2000], [500, 300, 200], left=100)
>>> d.amounts, d.left
((334, 297, 269), 100)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from doubleholdem.errors import InvalidICM
from doubleholdem.icm.model import check_payouts, check_stacks, equities

__all__ = ["Deal", "chip_chop", "icm_deal", "round_shares"]


@dataclass(frozen=True)
class Deal:
    """A deal: ``amounts`` in whole chips per player (adding up to the pool less
    ``left``), ``shares`` before rounding, ``left`` the chips still played for,
    ``kind`` ``"chip chop"`` or ``"icm"``."""

    amounts: tuple[int, ...]
    shares: tuple[float, ...]
    left: int
    kind: str

    def as_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "amounts": list(self.amounts),
            "shares": list(self.shares),
            "left": self.left,
        }


def round_shares(shares: Sequence[Fraction], total: int, stacks: Sequence[int]) -> tuple[int, ...]:
    """Whole amounts adding up to ``total``: the whole parts of ``shares`` (which add
    up to ``total``), then one chip each to the largest remainders (ties: the larger
    stack, then the earlier player)."""
    amounts = [int(s) for s in shares]  # shares are never negative: int() is the floor
    order = sorted(range(len(shares)), key=lambda i: (-(shares[i] - amounts[i]), -stacks[i], i))
    for i in order[: total - sum(amounts)]:
        amounts[i] += 1
    return tuple(amounts)


def _checked(
    stacks: Sequence[int], payouts: Sequence[int], left: int
) -> tuple[list[int], list[int]]:
    chips = check_stacks(stacks)
    if 0 in chips:
        i = chips.index(0)
        raise InvalidICM(
            f"player {i + 1} has no chips: a player out of the tournament is not in a deal",
            field="stacks",
            index=i,
            value=0,
        )
    prizes = check_payouts(payouts, len(chips))
    if not prizes:
        raise InvalidICM("a deal needs the payouts still to be won", field="payouts")
    room = prizes[0] - (prizes[1] if len(prizes) > 1 else 0)
    if isinstance(left, bool) or not isinstance(left, int) or not 0 <= left <= room:
        raise InvalidICM(
            f"left must be a whole number from 0 to {room:,} (the first prize less the "
            f"second), not {left!r}",
            field="left",
            value=left,
        )
    return chips, prizes


def chip_chop(stacks: Sequence[int], payouts: Sequence[int], left: int = 0) -> Deal:
    """The chip chop of the module docstring."""
    chips, prizes = _checked(stacks, payouts, left)
    n = len(chips)
    floor = prizes[-1] if len(prizes) == n else 0
    rest = sum(prizes) - left - n * floor
    total = sum(chips)
    shares = [floor + Fraction(rest * s, total) for s in chips]
    return Deal(
        round_shares(shares, sum(prizes) - left, chips),
        tuple(map(float, shares)),
        left,
        "chip chop",
    )


def icm_deal(
    stacks: Sequence[int], payouts: Sequence[int], left: int = 0, method: str | None = None
) -> Deal:
    """The ICM deal of the module docstring (``method`` as in
    :func:`~doubleholdem.icm.model.equities`; exact fractions when they are cheap)."""
    chips, prizes = _checked(stacks, payouts, left)
    dealt = [prizes[0] - left, *prizes[1:]]
    if method is None:
        try:
            result = equities(chips, dealt, "fractions")
        except InvalidICM:
            result = equities(chips, dealt)
    else:
        result = equities(chips, dealt, method)
    if result.fractions is not None:
        shares = list(result.fractions)
    else:
        # Floating-point equities, scaled to add up exactly (a float is a fraction).
        raw = [Fraction(max(e, 0.0)) for e in result.values]
        scale = Fraction(sum(dealt)) / sum(raw)
        shares = [r * scale for r in raw]
    return Deal(round_shares(shares, sum(dealt), chips), tuple(result.values), left, "icm")
