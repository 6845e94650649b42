"""Each player's equity under the Independent Chip Model (Malmuth-Harville): the first
place goes to a player with probability their share of the chips, the next among the
others likewise, and so on; a player's equity is their expected prize.

>>> r = equities([5000, 3000, 2000], [500, 300, 200])
>>> [round(e, 2) for e in r]
[383.93, 327.5, 288.57]
>>> r.method, r.reason
('exact', 'the exact recursion takes 12 steps (at most 16,777,216)')

Exact fractions where asked (up to :data:`FRACTION_STEPS` steps):

>>> equities([2, 1, 1], [3, 1], method="fractions").fractions
(Fraction(11, 6), Fraction(13, 12), Fraction(13, 12))

The rules of the input:

- Stacks and payouts are whole numbers of chips (or cents), 0 or more; payouts are
  listed from first place down and never increase; their totals are at most 2**53.
- Equal stacks get equal equity (bit for bit).
- A zero stack is out: players with chips take the first places, and the players
  without chips share the places after them equally.

>>> list(equities([100, 0, 0], [60, 30, 10]))
[60.0, 20.0, 20.0]

- No more payouts than players: the payouts are those of the places still to be
  decided, so a longer list is refused (:class:`~doubleholdem.errors.InvalidICM`).

The method is chosen by size unless asked: the exact recursion when it takes at most
:data:`EXACT_STEPS` steps, else the quadrature (a few milliseconds for a thousand
players, well under a second for ten thousand), whose ``error`` estimates the total
error over all players (kept below 1e-9 of the pool). Monte Carlo reports standard
errors:

>>> big = equities([1000 + i for i in range(1024)], [100 - k for k in range(100)])
>>> big.method, big.error < 1e-9 * sum(range(1, 101))
('quadrature', True)
>>> mc = equities([5000, 3000, 2000], [500, 300, 200], method="montecarlo", seed=1)
>>> abs(mc[0] - r[0]) < 5 * mc.stderr[0]
True
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, overload

from doubleholdem import _core
from doubleholdem.errors import InvalidICM

__all__ = [
    "DEFAULT_SAMPLES",
    "EXACT_STEPS",
    "FRACTION_STEPS",
    "MAX_EXACT_STEPS",
    "MAX_PLAYERS",
    "MAX_TOTAL",
    "METHODS",
    "Equities",
    "check_payouts",
    "check_stacks",
    "choose_method",
    "equities",
    "places",
]

METHODS = ("exact", "fractions", "quadrature", "montecarlo")
"""The methods: the exact recursion in floating point, the same in exact fractions,
the quadrature for large fields, and Monte Carlo."""

EXACT_STEPS = 1 << 24
"""``method=None`` runs the exact recursion up to this many steps (20 players all paid:
10,485,760), else the quadrature."""

MAX_EXACT_STEPS = 1 << 28
"""The most steps ``method="exact"`` takes (and at most 64 players)."""

FRACTION_STEPS = 60_000
"""The most steps ``method="fractions"`` takes (13 players all paid)."""

DEFAULT_SAMPLES = 100_000
"""Monte Carlo samples when ``samples`` is not given."""

MAX_SAMPLES = 1 << 36

MAX_PLAYERS = 1_000_000

MAX_TOTAL = 1 << 53
"""The most chips in play, and the largest prize pool: totals up to 2**53 are exact in
floating point."""


@dataclass(frozen=True)
class Equities(Sequence[float]):
    """Each player's equity, in the order of the stacks (a sequence of floats), with how
    it was computed: ``method`` and ``reason``; ``error``, an estimate of the total
    absolute error over all players (0 for the exact methods, the quadrature's
    estimate, or for Monte Carlo the sum of the standard errors); ``stderr`` per
    player (Monte Carlo); ``fractions`` (``method="fractions"``)."""

    values: tuple[float, ...]
    method: str
    reason: str
    error: float = 0.0
    stderr: tuple[float, ...] | None = None
    fractions: tuple[Fraction, ...] | None = None

    @overload
    def __getitem__(self, index: int) -> float: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[float, ...]: ...
    def __getitem__(self, index: int | slice) -> float | tuple[float, ...]:
        return self.values[index]

    def __len__(self) -> int:
        return len(self.values)

    def __iter__(self) -> Iterator[float]:
        return iter(self.values)

    def as_json(self) -> dict[str, Any]:
        """The result as JSON-ready values (fractions as ``"p/q"`` strings)."""
        return {
            "equity": list(self.values),
            "method": self.method,
            "reason": self.reason,
            "error": self.error,
            "stderr": None if self.stderr is None else list(self.stderr),
            "fractions": None if self.fractions is None else [str(f) for f in self.fractions],
        }


def _whole_numbers(values: object, field: str, what: str) -> list[int]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise InvalidICM(f"{field} must be a list of {what}, not {values!r}", field=field)
    out = []
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            shown = repr(v) if len(repr(v)) <= 40 else f"a value of {len(repr(v))} characters"
            raise InvalidICM(
                f"{what[:-1]} {i + 1} is {shown}: {field} are whole numbers, 0 or more",
                field=field,
                index=i,
                value=v,
            )
        out.append(v)
    total = sum(out)
    if total > MAX_TOTAL:
        raise InvalidICM(
            f"{field} add up to {total:,}, more than 2**53 ({MAX_TOTAL:,})",
            field=field,
            value=total,
        )
    return out


def check_stacks(stacks: object) -> list[int]:
    """The stacks as a list of ints, or :class:`~doubleholdem.errors.InvalidICM`."""
    out = _whole_numbers(stacks, "stacks", "stacks")
    if not 1 <= len(out) <= MAX_PLAYERS:
        raise InvalidICM(
            f"ICM takes 1 to {MAX_PLAYERS:,} players, not {len(out):,}",
            field="stacks",
            value=len(out),
        )
    if not any(out):
        raise InvalidICM("no player has chips: ICM needs chips in play", field="stacks")
    return out


def check_payouts(payouts: object, players: int) -> list[int]:
    """The payouts as a list of ints (never increasing, at most one per player), or
    :class:`~doubleholdem.errors.InvalidICM`."""
    out = _whole_numbers(payouts, "payouts", "payouts")
    for k in range(1, len(out)):
        if out[k] > out[k - 1]:
            raise InvalidICM(
                f"payout {k + 1} ({out[k]:,}) is more than payout {k} ({out[k - 1]:,}): "
                "payouts are listed from first place down and never increase",
                field="payouts",
                index=k,
                value=out[k],
            )
    if len(out) > players:
        raise InvalidICM(
            f"{len(out)} payouts for {players} players: give the payouts of the places "
            "still to be decided, at most one per player",
            field="payouts",
            value=len(out),
        )
    return out


def choose_method(players: int, paid: int) -> tuple[str, str]:
    """The method ``method=None`` takes for ``players`` players with chips and ``paid``
    places paid among them, and why."""
    steps = _core.icm_exact_cost(players, paid)
    if steps <= EXACT_STEPS:
        return "exact", f"the exact recursion takes {steps:,} steps (at most {EXACT_STEPS:,})"
    shown = "more than 2**64" if steps >= 2**64 - 1 else f"{steps:,}"
    return "quadrature", f"the exact recursion would take {shown} steps, more than {EXACT_STEPS:,}"


def _fractions(stacks: list[int], payouts: list[int]) -> list[Fraction]:
    """The exact recursion over subsets (see the core's ``icm::exact``) in fractions."""
    n, total = len(stacks), sum(stacks)
    equity = [Fraction(0)] * n
    layer: dict[int, tuple[Fraction, int]] = {0: (Fraction(1), 0)}
    for k, pay in enumerate(payouts):
        following: dict[int, tuple[Fraction, int]] = {}
        for mask, (p, chips) in layer.items():
            share = p / (total - chips)
            for j, stack in enumerate(stacks):
                if mask >> j & 1:
                    continue
                q = share * stack
                equity[j] += q * pay
                if k + 1 < len(payouts):
                    before = following.get(mask | 1 << j, (Fraction(0), chips + stack))
                    following[mask | 1 << j] = (before[0] + q, before[1])
        layer = following
    return equity


def _live(
    stacks: list[int], payouts: list[int], method: str, reason: str, run: Callable[..., Equities]
) -> Equities:
    """Applies the zero-stack rule around ``run`` over the players with chips."""
    live = [i for i, s in enumerate(stacks) if s > 0]
    paid = payouts[: len(live)]
    inner = run([stacks[i] for i in live], paid, method, reason)
    n, out = len(stacks), len(live)
    rest = Fraction(sum(payouts[out:]), n - out) if n > out else Fraction(0)
    values = [float(rest)] * n
    fractions: list[Fraction] | None = [rest] * n if inner.fractions is not None else None
    stderr: list[float] | None = [0.0] * n if inner.stderr is not None else None
    for k, i in enumerate(live):
        values[i] = inner.values[k]
        if fractions is not None and inner.fractions is not None:
            fractions[i] = inner.fractions[k]
        if stderr is not None and inner.stderr is not None:
            stderr[i] = inner.stderr[k]
    return Equities(
        tuple(values),
        inner.method,
        inner.reason,
        inner.error,
        None if stderr is None else tuple(stderr),
        None if fractions is None else tuple(fractions),
    )


def equities(
    stacks: Sequence[int],
    payouts: Sequence[int],
    method: str | None = None,
    *,
    samples: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    progress: Callable[[int, int], object] | None = None,
) -> Equities:
    """Each player's equity, in the order of ``stacks`` (see the module docstring for
    the rules). ``method`` is one of :data:`METHODS` or ``None`` (chosen by size,
    :func:`choose_method`); Monte Carlo takes ``samples`` (default
    :data:`DEFAULT_SAMPLES`) and ``seed`` (a strong random one by default) and
    ``threads``. ``progress(done, total)`` is called during long work; Ctrl-C stops it
    (KeyboardInterrupt)."""
    chips = check_stacks(stacks)
    prizes = check_payouts(payouts, len(chips))
    if method is not None and method not in METHODS:
        raise InvalidICM(
            f"method is one of {', '.join(METHODS)} (or None), not {method!r}",
            field="method",
            value=method,
        )
    if samples is not None and (
        isinstance(samples, bool) or not isinstance(samples, int) or not 2 <= samples <= MAX_SAMPLES
    ):
        raise InvalidICM(
            f"samples must be a whole number from 2 to 2**36, not {samples!r}",
            field="samples",
            value=samples,
        )
    if samples is not None and method not in (None, "montecarlo"):
        raise InvalidICM(f"samples are for Monte Carlo, not method={method!r}", field="samples")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InvalidICM(f"seed must be a whole number, not {seed!r}", field="seed", value=seed)
    live = sum(1 for s in chips if s > 0)
    paid = prizes[:live]
    paid = paid[: next((k + 1 for k in range(len(paid) - 1, -1, -1) if paid[k]), 0)]
    if samples is not None and method is None:
        method = "montecarlo"
    if method is None:
        method, reason = choose_method(live, len(paid))
    else:
        reason = f"method={method!r} asked for"
    steps = _core.icm_exact_cost(live, len(paid))
    limit = {"exact": MAX_EXACT_STEPS, "fractions": FRACTION_STEPS}.get(method)
    if limit is not None and steps > limit:
        raise InvalidICM(
            f"method={method!r} would take more than {limit:,} steps for {live} players "
            f"with {len(paid)} paid: use the quadrature (method=None)",
            field="method",
            value=method,
        )

    def run(s: list[int], p: list[int], method: str, reason: str) -> Equities:
        return _compute(s, p, method, reason, samples, seed, threads, progress)

    result = _live(chips, prizes, method, reason, run)
    if result.fractions is None or method == "fractions":
        return result
    # Trivial fields are exact whatever the method: keep only what was asked for.
    return Equities(result.values, result.method, result.reason, result.error, result.stderr)


def _compute(
    stacks: list[int],
    payouts: list[int],
    method: str,
    reason: str,
    samples: int | None,
    seed: int | None,
    threads: int | None,
    progress: Callable[[int, int], object] | None,
) -> Equities:
    """Equities of players who all have chips, by ``method``."""
    if len(stacks) == 1 or not payouts:
        trivial = (Fraction(payouts[0]) if payouts else Fraction(0),) * len(stacks)
        return Equities(tuple(map(float, trivial)), method, reason, fractions=trivial)
    if method == "fractions":
        exact = tuple(_fractions(stacks, payouts))
        return Equities(tuple(map(float, exact)), method, reason, fractions=exact)
    if method == "exact":
        return Equities(tuple(_core.icm_exact(stacks, payouts)), method, reason)
    if method == "quadrature":
        found, error, _ = _core.icm_quadrature(stacks, payouts, progress)
        return Equities(tuple(found), method, reason, error)
    chosen = secrets.randbits(64) if seed is None else seed % 2**64
    count = DEFAULT_SAMPLES if samples is None else samples
    means, errors = _core.icm_sample(stacks, payouts, count, chosen, progress, threads)
    why = f"{reason} ({count:,} samples, seed {chosen})"
    return Equities(tuple(means), method, why, sum(errors), tuple(errors))


def places(stacks: Sequence[int], count: int | None = None) -> list[list[float]]:
    """Each player's probability of each of the first ``count`` places (all by
    default), exactly (players with chips only; at most 64 of them).

    >>> [[round(p, 3) for p in row] for row in places([2, 1, 1])]
    [[0.5, 0.333, 0.167], [0.25, 0.333, 0.417], [0.25, 0.333, 0.417]]
    """
    chips = check_stacks(stacks)
    if 0 in chips:
        raise InvalidICM("places() takes players with chips only", field="stacks")
    n = len(chips)
    count = n if count is None else count
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= n:
        raise InvalidICM(
            f"count must be a whole number from 0 to {n}, not {count!r}", field="count"
        )
    if _core.icm_exact_cost(n, count) > MAX_EXACT_STEPS:
        raise InvalidICM(
            f"places() of {n} players would take more than {MAX_EXACT_STEPS:,} steps",
            field="stacks",
        )
    flat = _core.icm_places(chips, count)
    return [flat[i * count : (i + 1) * count] for i in range(n)]
