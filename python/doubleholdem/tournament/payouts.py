"""Payouts and prizes (RULES.md TRN-18, TRN-19): each paid place's share as a function of
the number of entries, and the prizes, whole chips that add up to the pool exactly.

>>> DEFAULT_PAYOUTS.shares(9)
(50, 30, 20)
>>> prizes(1001, DEFAULT_PAYOUTS.shares(9))
(501, 300, 200)
>>> custom = PayoutTable(((6, (70, 30)), (10, (50, 30, 20))))
>>> custom.shares(4), custom.shares(10)
((70, 30), (50, 30, 20))
>>> split_tie((100, 60, 41), 3)
(67, 67, 67)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from doubleholdem.errors import InvalidConfig
from doubleholdem.table.config import is_int

__all__ = ["DEFAULT_PAYOUTS", "PayoutTable", "harmonic_shares", "prizes", "split_tie"]

_HARMONIC_SCALE = 10**12  # place i's share is this // i: 1 / i in whole units


def harmonic_shares(paid: int) -> tuple[int, ...]:
    """TRN-18: ``paid`` places, place i in proportion to 1 / i, in whole units.

    >>> harmonic_shares(3)
    (1000000000000, 500000000000, 333333333333)
    """
    return tuple(_HARMONIC_SCALE // place for place in range(1, paid + 1))


@dataclass(frozen=True)
class PayoutTable:
    """The shares of the paid places (TRN-18) for ranges of entries: ``bands`` holds
    ``(most entries, shares)`` pairs in rising order of entries, each band's shares for
    the entries above the band before it, up to its own; shares are whole, positive and
    never rise from one place to the next. Beyond the last band, with ``harmonic`` (a
    fraction of the field, in percent) the top ceil(harmonic% of entries) places are
    paid in proportion to 1 / place; without it, the last band's shares."""

    bands: tuple[tuple[int, tuple[int, ...]], ...]
    harmonic: int | None = None

    def __post_init__(self) -> None:
        bands = tuple((most, tuple(shares)) for most, shares in self.bands)
        object.__setattr__(self, "bands", bands)
        if not bands:
            raise InvalidConfig("payouts: give at least one band", field="payouts")
        previous = 1
        for most, shares in bands:
            if not is_int(most) or most <= previous:
                raise InvalidConfig(
                    f"payouts: band limits must rise above {previous}, not {most!r}",
                    field="payouts",
                )
            _check_shares(shares, most)
            previous = most
        if self.harmonic is not None and not (is_int(self.harmonic) and 0 < self.harmonic <= 100):
            raise InvalidConfig(
                f"payouts: harmonic must be a percent 1 to 100, not {self.harmonic!r}",
                field="payouts",
            )

    def shares(self, entries: int) -> tuple[int, ...]:
        """The shares of the places paid with ``entries`` entries (at least 2): never
        more places than entries."""
        return _shares(self, entries)

    def _shares(self, entries: int) -> tuple[int, ...]:
        if not is_int(entries) or entries < 2:
            raise InvalidConfig(f"payouts: entries must be 2 or more, not {entries!r}")
        for most, shares in self.bands:
            if entries <= most:
                return shares[:entries]
        if self.harmonic is None:
            return self.bands[-1][1]
        paid = -(-entries * self.harmonic // 100)
        return harmonic_shares(min(paid, entries))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (:meth:`from_dict` reads it back)."""
        return {"bands": [[most, list(shares)] for most, shares in self.bands],
                "harmonic": self.harmonic}  # fmt: skip

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PayoutTable:
        """The table of :meth:`to_dict`; :class:`InvalidConfig` if it is not one."""
        try:
            return cls(tuple((most, tuple(shares)) for most, shares in data["bands"]),
                       data["harmonic"])  # fmt: skip
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidConfig(f"payouts: not a payout table ({error})") from None


@lru_cache(maxsize=1024)
def _shares(table: PayoutTable, entries: int) -> tuple[int, ...]:
    return table._shares(entries)


def prizes(pool: int, shares: Sequence[int]) -> tuple[int, ...]:
    """TRN-19: the prize of each paid place, whole chips that add up to ``pool``: place
    i gets floor(pool x share_i / total), and what is left goes one chip each to the
    places from the first."""
    if not is_int(pool) or pool < 0:
        raise InvalidConfig(f"payouts: the pool must be whole chips, not {pool!r}")
    _check_shares(shares, len(shares))
    total = sum(shares)
    paid = [pool * share // total for share in shares]
    left = pool - sum(paid)
    for place in range(left):  # fewer than len(shares) chips
        paid[place] += 1
    return tuple(paid)


def split_tie(prizes_of_places: Sequence[int], entries: int) -> tuple[int, ...]:
    """TRN-19: ``entries`` tied entries share the prizes of their places equally; what
    does not divide goes one chip each to the first of them (in order of entry)."""
    total = sum(prizes_of_places)
    each, left = divmod(total, entries)
    return tuple(each + (1 if number < left else 0) for number in range(entries))


def _check_shares(shares: Sequence[int], entries: int) -> None:
    if not shares or not all(is_int(share) and share > 0 for share in shares):
        raise InvalidConfig(
            f"payouts: shares must be whole and positive, not {list(shares)!r}", field="payouts"
        )
    if any(after > before for before, after in zip(shares, shares[1:])):
        raise InvalidConfig(
            f"payouts: a lower place cannot be paid more: {list(shares)!r}", field="payouts"
        )
    if len(shares) > entries:
        raise InvalidConfig(
            f"payouts: {len(shares)} places paid with at most {entries} entries", field="payouts"
        )


DEFAULT_PAYOUTS = PayoutTable(((4, (100,)), (7, (65, 35)), (10, (50, 30, 20))), harmonic=15)
"""TRN-18's default: 2 to 4 entries pay the winner, 5 to 7 pay 65/35, 8 to 10 pay
50/30/20, and from 11 the top 15% (rounded up) in proportion to 1 / place."""
