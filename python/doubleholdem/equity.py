"""Equities: each player's share of the pot, exact or by Monte Carlo, for 2 to 10
players holding hands or ranges (:mod:`doubleholdem.ranges`), with a board of 0, 3, 4 or
5 cards and dead cards, in Texas Hold'em or Double Hold'em. The work runs in Rust.

A showdown gives the pot to the best value (RULES.md EV-1); a tie among k players
gives each 1/k. ``win`` is the fraction of showdowns a player wins alone, ``tie`` the
fraction they share, and ``equity`` the share of the pot.

>>> r = calculate(["AhAs", "KcKd"])
>>> r.exact, r.showdowns, round(r.equity[0], 4)
(True, 1712304, 0.8126)
>>> r.reason
'1 deal of hands and 1,712,304 showdowns to enumerate (at most 2,000,000 and 4,000,000,000)'

>>> r.fractions[0]
Fraction(29603, 36432)
>>> r = calculate(["QQ+,AKs", "JJ-88,AQs+"], board="Kh 8h 2c")
>>> [round(e, 4) for e in r.equity], r.showdowns
([0.7935, 0.2065], 454410)

Double Hold'em (DH-1 to DH-6): three hole cards, each player's point card an index
0..2, ``"auto"`` (DH-6, the default) or one of its cards, known from the hole alone, so
pre-flop equity works too:

>>> r = calculate(["AhKh7c", "QsQd2c"], board="Kd 8h 2s", variant="double", points=[0, "auto"])
>>> [round(e, 4) for e in r.equity]
[0.8427, 0.1573]

Monte Carlo reports each player's standard error; the seed makes it reproducible:

>>> r = calculate(["AhKh", "random", "random"], samples=100_000, seed=1)
>>> r.exact, r.showdowns, all(0 < s < 0.002 for s in r.stderr)
(False, 100000, True)
>>> r.reason
'samples=100000 asked for Monte Carlo'

By default the method is chosen by the size of the enumeration, counted only as far as
the choice needs (at most :data:`EXACT_DEALS` deals of hands), and the result says why:

>>> calculate(["random"] * 3, seed=1).reason
'more than 2,000,000 deals of hands: Monte Carlo to a standard error of 0.0005'
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import chain
from typing import Any, Union

from doubleholdem import _core
from doubleholdem.cards import CardLike, format_card, format_cards, parse_cards
from doubleholdem.errors import DuplicateCard, InvalidHand, InvalidThreads, RangeError
from doubleholdem.point_card import Point, point_error, point_index
from doubleholdem.ranges import Range, parse_range
from doubleholdem.scale import ray_map

__all__ = [
    "DEFAULT_STDERR",
    "EXACT_DEALS",
    "EXACT_SHOWDOWNS",
    "MAX_SAMPLES",
    "MIN_STDERR",
    "Equity",
    "Question",
    "calculate",
    "choose_method",
    "equity_chunk",
    "ray_runner",
]

PlayerLike = Union[str, Range, Iterable[CardLike]]
"""A player: range text (``"QQ+,AKs"``, ``"AhKh"``, ``"random"``), a parsed
:class:`~doubleholdem.ranges.Range`, or one hand as cards."""


EXACT_SHOWDOWNS = 4_000_000_000
EXACT_DEALS = 2_000_000
"""``exact=None`` enumerates when the enumeration counts at most :data:`EXACT_SHOWDOWNS`
showdowns and :data:`EXACT_DEALS` deals of hands (``exact=True`` takes up to 20 million
deals of hands)."""

DEFAULT_STDERR = 0.0005
"""``exact=None`` samples until every standard error is at most this, when the
enumeration would be too long."""

MIN_STDERR = 0.0001
"""The smallest ``stderr=`` target: a share's variance is at most 1/4, so it takes at
most 25 million samples (ask for ``samples=`` to go further)."""

MAX_SAMPLES = 2**36
"""The most samples one Monte Carlo run takes (about 6.9e10)."""

VARIANTS = ("texas", "double")


@dataclass(frozen=True)
class Question:
    """A checked question, as the Rust core takes it (picklable, for runners): per
    player the cards of every hand one after another and a weight per hand."""

    variant: str
    players: tuple[tuple[bytes, tuple[int, ...]], ...]
    board: tuple[int, ...]
    dead: tuple[int, ...]

    def core_args(self) -> tuple[str, list[tuple[bytes, list[int]]], list[int], list[int]]:
        players = [(cards, list(weights)) for cards, weights in self.players]
        return self.variant, players, list(self.board), list(self.dead)


@dataclass(frozen=True)
class Equity:
    """The result: per player in order ``equity``, ``win`` and ``tie``; the number of
    ``showdowns`` counted; whether it is ``exact``; ``stderr`` per player (Monte Carlo;
    ``None`` when exact); ``fractions``, the equities as exact fractions (``None`` for
    Monte Carlo)."""

    equity: tuple[float, ...]
    win: tuple[float, ...]
    tie: tuple[float, ...]
    showdowns: int
    exact: bool
    stderr: tuple[float, ...] | None
    fractions: tuple[Fraction, ...] | None
    reason: str = ""
    """Why this method: what the caller asked for, or the size of the enumeration."""

    def as_json(self) -> dict[str, Any]:
        """The result as JSON-ready values (without the fractions)."""
        return {
            "equity": list(self.equity),
            "win": list(self.win),
            "tie": list(self.tie),
            "showdowns": self.showdowns,
            "exact": self.exact,
            "reason": self.reason,
            "stderr": None if self.stderr is None else list(self.stderr),
        }


def _player_hands(
    player: PlayerLike, hole_cards: int, index: int
) -> list[tuple[tuple[int, ...], int]]:
    if isinstance(player, Range):
        return list(player.combos)
    if isinstance(player, str):
        try:
            return list(parse_range(player, hole_cards).combos)
        except RangeError as error:
            raise RangeError(
                f"player {index + 1}: {error}", token=error.token, position=error.position
            ) from None
    cards = tuple(parse_cards(player))
    if len(cards) != hole_cards:
        raise InvalidHand(f"player {index + 1}: a hand has {hole_cards} cards, not {len(cards)}")
    return [(cards, 1)]


@lru_cache(maxsize=4)
def _arranged_random(point: Point | str) -> tuple[tuple[tuple[int, ...], int], ...]:
    """``random`` in Double Hold'em, every hole with its point card first: by DH-6 for
    ``"auto"``; for an index, a random hole is dealt in random order, so its point card
    is any of the three. Built once (a ten-player question takes ten)."""
    from itertools import combinations

    def first(hole: tuple[int, ...], p: int) -> tuple[int, ...]:
        return (hole[p], *(c for i, c in enumerate(hole) if i != p))

    holes = combinations(range(52), 3)
    if point == "auto":
        return tuple((first(h, _core.auto_point(list(h))), 1) for h in holes)
    return tuple((first(h, p), 1) for h in holes for p in range(3))


def _arrange(
    hands: list[tuple[tuple[int, ...], int]], point: Point | str, random: bool, index: int
) -> list[tuple[tuple[int, ...], int]]:
    """Double Hold'em hands with the point card first (DH-2, DH-3): the point an index
    0..2, ``"auto"`` (DH-6) or a card each hole holds (:func:`~doubleholdem.double.point_index`;
    a random hand's point is an index or ``"auto"``)."""
    if random:
        if point != "auto" and (isinstance(point, bool) or point not in (0, 1, 2)):
            raise InvalidHand(
                f"player {index + 1}: point {point!r} of a random hand is not 0, 1, 2 or auto"
            )
        return list(_arranged_random(point))
    out = []
    for hole, weight in hands:
        p = point_index(hole, point)
        if p is None:
            raise InvalidHand(f"player {index + 1}: cannot choose {point_error(hole, point)}")
        out.append(((hole[p], *(c for i, c in enumerate(hole) if i != p)), weight))
    return out


def _text(player: PlayerLike, hands: list[tuple[tuple[int, ...], int]]) -> str:
    """A player as its errors name it: range text as given, a hand given as cards by
    their names (never their numbers)."""
    if isinstance(player, (str, Range)):
        return str(player)
    return format_cards(hands[0][0]) if len(hands) == 1 else str(player)


def _remove_impossible(
    ranges: list[list[tuple[tuple[int, ...], int]]], known: set[int], texts: list[str]
) -> None:
    """Drops hands that collide with the board and dead cards, and with a player's only
    hand (repeatedly); a player left with none is a :class:`RangeError`."""

    def empty(i: int, why: str) -> RangeError:
        return RangeError(
            f"player {i + 1}: no hand of {texts[i]!r} is left once {why} are taken out",
            token=None,
            position=None,
        )

    given = [len(hands) == 1 for hands in ranges]  # one hand, as the caller gave it
    for i, hands in enumerate(ranges):
        if known:
            hands[:] = [h for h in hands if known.isdisjoint(h[0])]
        if not hands:
            raise empty(i, "the board and dead cards")
    changed = True
    while changed:
        changed = False
        for i, hands in enumerate(ranges):
            if len(hands) != 1:
                continue
            fixed = set(hands[0][0])
            for j, others in enumerate(ranges):
                if j == i:
                    continue
                if given[i] and given[j] and fixed.intersection(others[0][0]):
                    card = min(fixed.intersection(others[0][0]))
                    raise DuplicateCard(
                        f"players {i + 1} and {j + 1} both hold {format_card(card)}", card=card
                    )
                before = len(others)
                others[:] = [h for h in others if not fixed.intersection(h[0])]
                if not others:
                    raise empty(j, f"player {i + 1}'s cards")
                changed |= len(others) != before


def _is_random(player: PlayerLike) -> bool:
    return isinstance(player, str) and player.strip().lower() == "random"


def question(
    players: Sequence[PlayerLike],
    board: str | Iterable[CardLike] | None = None,
    dead: str | Iterable[CardLike] | None = None,
    *,
    variant: str = "texas",
    points: Sequence[Point | str] | None = None,
) -> Question:
    """Checks and shapes the input of :func:`calculate` for the Rust core."""
    if variant not in VARIANTS:
        raise InvalidHand(f"variant is 'texas' or 'double', not {variant!r}")
    if isinstance(players, (str, Range)) or not 2 <= len(players) <= 10:
        n = "one" if isinstance(players, (str, Range)) else len(players)
        raise InvalidHand(f"equity needs a list of 2 to 10 players, not {n}")
    hole_cards = 3 if variant == "double" else 2
    board_cards = parse_cards(board or [])
    dead_cards = parse_cards(dead or [])
    if len(board_cards) not in (0, 3, 4, 5):
        raise InvalidHand(f"a board has 0, 3, 4 or 5 cards, not {len(board_cards)}")
    known = board_cards + dead_cards
    if len(set(known)) != len(known):
        card = next(c for c in known if known.count(c) > 1)
        raise DuplicateCard(f"duplicate card {format_card(card)} on the board or dead", card=card)
    if points is not None and variant != "double":
        raise InvalidHand("points are for Double Hold'em (variant='double') only")
    if points is not None and (isinstance(points, str) or len(points) != len(players)):
        raise InvalidHand(f"give one point per player ({len(players)}), as a list")
    ranges = [_player_hands(p, hole_cards, i) for i, p in enumerate(players)]
    texts = [_text(p, r) for p, r in zip(players, ranges)]
    if variant == "double":
        chosen: Sequence[Point | str] = points if points is not None else ["auto"] * len(players)
        ranges = [_arrange(r, chosen[i], _is_random(players[i]), i) for i, r in enumerate(ranges)]
    _remove_impossible(ranges, set(known), texts)
    shaped = []
    for hands in ranges:
        weights = [w for _, w in hands]
        divisor = math.gcd(*weights)
        cards = bytes(chain.from_iterable(hand for hand, _ in hands))
        shaped.append((cards, tuple(w // divisor for w in weights)))
    return Question(variant, tuple(shaped), tuple(board_cards), tuple(dead_cards))


def equity_chunk(
    q: Question, start: int, stop: int
) -> tuple[int, int, list[int], list[int], list[int]]:
    """Units ``start:stop`` of the exact enumeration of ``q``, on one thread: integer
    tallies (showdowns, weight, win, tie, units) that add up over chunks in any order."""
    showdowns, weight, win, tie, units, _ = _core.showdown_exact(
        *q.core_args(), start, stop, None, 1
    )
    return showdowns, weight, list(win), list(tie), list(units)


Runner = Callable[
    [Sequence[tuple[Question, int, int]]],
    Sequence[tuple[int, int, list[int], list[int], list[int]]],
]
"""Runs :func:`equity_chunk` on each argument tuple and returns the results in order."""


def ray_runner(
    tasks: Sequence[tuple[Question, int, int]],
) -> list[tuple[int, int, list[int], list[int], list[int]]]:
    """A :data:`Runner` on a Ray cluster (``pip install doubleholdem[ray]``; call
    ``ray.init(...)`` first): :func:`doubleholdem.scale.ray_map` of :func:`equity_chunk`."""
    return ray_map(equity_chunk, tasks)


def _exact_result(
    showdowns: int,
    weight: int,
    win: Sequence[int],
    tie: Sequence[int],
    units: Sequence[int],
    reason: str,
) -> Equity:
    unit = 2520
    fractions = tuple(Fraction(u, weight * unit) for u in units)
    return Equity(
        equity=tuple(float(f) for f in fractions),
        win=tuple(w / weight for w in win),
        tie=tuple(t / weight for t in tie),
        showdowns=showdowns,
        exact=True,
        stderr=None,
        fractions=fractions,
        reason=reason,
    )


def _whole(value: object, name: str, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidHand(f"{name} must be a whole number from {low:,} to {high:,}, not {value!r}")


def _check_options(
    exact: bool | None,
    samples: int | None,
    stderr: float | None,
    seed: int | None,
    threads: int | None,
) -> None:
    """Every option checked before any work (a refused call does nothing)."""
    if exact is not None and not isinstance(exact, bool):
        raise InvalidHand(f"exact is True, False or None, not {exact!r}")
    if samples is not None and stderr is not None:
        raise InvalidHand("give samples or stderr, not both")
    if exact and (samples is not None or stderr is not None):
        raise InvalidHand("exact=True takes no samples or stderr: those are for Monte Carlo")
    if samples is not None:
        _whole(samples, "samples", 1, MAX_SAMPLES)
    if stderr is not None and not (
        isinstance(stderr, (int, float)) and not isinstance(stderr, bool) and 0 < stderr < 1
    ):
        raise InvalidHand(f"stderr must be above 0 and below 1, not {stderr!r}")
    if stderr is not None and stderr < MIN_STDERR:
        raise InvalidHand(
            f"stderr must be at least {MIN_STDERR} (up to 25 million samples), not {stderr!r}: "
            "ask for samples=N to sample longer"
        )
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InvalidHand(f"seed must be a whole number (or None), not {seed!r}")
    if threads is not None and (
        isinstance(threads, bool)
        or not isinstance(threads, int)
        or not 1 <= threads <= _core.MAX_THREADS
    ):
        raise InvalidThreads(
            f"threads must be a whole number from 1 to {_core.MAX_THREADS}, not {threads!r}",
            value=threads,
        )


def _boards(q: Question) -> int:
    """Completions of the board once every player holds a hand."""
    hole_cards = 3 if q.variant == "double" else 2
    left = 52 - len(q.board) - len(q.dead) - hole_cards * len(q.players)
    return math.comb(left, 5 - len(q.board))


def choose_method(q: Question) -> tuple[bool, str]:
    """Whether ``exact=None`` enumerates ``q``, and why. The deals of hands are counted
    only up to :data:`EXACT_DEALS` + 1 (a few milliseconds at most), the showdowns
    follow in closed form (deals times boards)."""
    deals = _core.showdown_count(*q.core_args(), EXACT_DEALS + 1)[0]
    sample = f"Monte Carlo to a standard error of {DEFAULT_STDERR}"
    if deals > EXACT_DEALS:
        return False, f"more than {EXACT_DEALS:,} deals of hands: {sample}"
    showdowns = deals * _boards(q)
    if showdowns > EXACT_SHOWDOWNS:
        return False, f"{showdowns:,} showdowns, more than {EXACT_SHOWDOWNS:,}: {sample}"
    # The core's 128-bit tallies take the weights' product times the deals, boards
    # and a share (it refuses an enumeration past that bound).
    bound = math.prod(max(w) for _, w in q.players) * deals
    if bound * math.comb(52, 5 - len(q.board)) * 2520 >= 2**126:
        return False, f"the weights are too fine for exact tallies: {sample}"
    plural = "deal" if deals == 1 else "deals"
    return True, (
        f"{deals:,} {plural} of hands and {showdowns:,} showdowns to enumerate "
        f"(at most {EXACT_DEALS:,} and {EXACT_SHOWDOWNS:,})"
    )


def _asked(exact: bool | None, samples: int | None, stderr: float | None) -> str | None:
    """The reason when the caller chose the method."""
    if samples is not None:
        return f"samples={samples} asked for Monte Carlo"
    if stderr is not None:
        return f"stderr={stderr} asked for Monte Carlo"
    if exact is not None:
        return f"exact={exact} asked for " + ("an enumeration" if exact else "Monte Carlo")
    return None


def calculate(
    players: Sequence[PlayerLike],
    board: str | Iterable[CardLike] | None = None,
    dead: str | Iterable[CardLike] | None = None,
    *,
    variant: str = "texas",
    points: Sequence[Point | str] | None = None,
    exact: bool | None = None,
    samples: int | None = None,
    stderr: float | None = None,
    seed: int | None = None,
    threads: int | None = None,
    runner: Runner | None = None,
    chunks: int = 16,
    progress: Callable[[int, int], object] | None = None,
) -> Equity:
    """Each player's equity, win and tie fractions (see the module docstring).

    ``exact=True`` enumerates every deal of the players' hands and every board;
    ``samples=N`` (1 to :data:`MAX_SAMPLES`) or ``stderr=E`` (stop once every player's
    standard error is at most E, at least :data:`MIN_STDERR`) ask for Monte Carlo,
    reproducible with ``seed``; by default (``exact=None``) the enumeration runs when it
    takes at most :data:`EXACT_DEALS` deals of hands and :data:`EXACT_SHOWDOWNS`
    showdowns, else Monte Carlo to :data:`DEFAULT_STDERR` (:func:`choose_method`; the
    result's ``reason`` says which and why). ``threads`` (all cores by default),
    ``progress(done, total)`` about ten times a second; Ctrl-C stops the work
    (KeyboardInterrupt). With ``runner`` (e.g. :func:`ray_runner`) an exact enumeration
    is split into ``chunks`` chunks run there; the result is identical.
    """
    _check_options(exact, samples, stderr, seed, threads)
    q = question(players, board, dead, variant=variant, points=points)
    reason = _asked(exact, samples, stderr)
    if reason is None:
        exact, reason = choose_method(q)
    if exact:
        if runner is None:
            showdowns, weight, win, tie, units, _ = _core.showdown_exact(
                *q.core_args(), None, None, progress, threads
            )
            return _exact_result(showdowns, weight, win, tie, units, reason)
        return _run_chunks(q, runner, chunks, reason)
    if runner is not None:
        raise InvalidHand("runner= splits exact enumerations; Monte Carlo runs locally")
    if samples is None and stderr is None:
        stderr = DEFAULT_STDERR
    if seed is None:
        seed = secrets.randbits(64)
    count, win, tie, units, squares = _core.showdown_sample(
        *q.core_args(), samples, stderr, seed % 2**64, progress, threads
    )
    unit = 2520
    errors = []
    for total, square in zip(units, squares):
        mean = total / count
        variance = max(square / count - mean * mean, 0.0) * count / max(count - 1, 1)
        errors.append(math.sqrt(variance / count) / unit)
    return Equity(
        equity=tuple(u / (count * unit) for u in units),
        win=tuple(w / count for w in win),
        tie=tuple(t / count for t in tie),
        showdowns=count,
        exact=False,
        stderr=tuple(errors),
        fractions=None,
        reason=reason,
    )


def _run_chunks(q: Question, runner: Runner, chunks: int, reason: str) -> Equity:
    """The exact enumeration split into ``chunks`` chunks run by ``runner``; a runner
    that does not answer each chunk with its tallies is refused."""
    _whole(chunks, "chunks", 1, 1_000_000)
    total = _core.showdown_exact(*q.core_args(), 0, 0, None, 1)[5]
    bounds = [total * i // chunks for i in range(chunks + 1)]
    tasks = [(q, a, b) for a, b in zip(bounds, bounds[1:]) if b > a]
    results = list(runner(tasks))
    n = len(q.players)
    if len(results) != len(tasks) or not all(_is_tally(r, n) for r in results):
        raise InvalidHand(
            f"runner= must return one tally of equity_chunk per task ({len(tasks)} tasks), "
            f"got {len(results)} results"
            + ("" if len(results) != len(tasks) else " not all of them tallies")
        )
    return _exact_result(
        sum(r[0] for r in results),
        sum(r[1] for r in results),
        [sum(r[2][i] for r in results) for i in range(n)],
        [sum(r[3][i] for r in results) for i in range(n)],
        [sum(r[4][i] for r in results) for i in range(n)],
        reason,
    )


def _is_tally(result: object, players: int) -> bool:
    """Whether ``result`` has the shape of an :func:`equity_chunk` tally."""
    if not isinstance(result, (tuple, list)) or len(result) != 5:
        return False
    counts, lists = result[:2], result[2:]
    return all(isinstance(c, int) and c >= 0 for c in counts) and all(
        isinstance(x, (list, tuple)) and len(x) == players for x in lists
    )
