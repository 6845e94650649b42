"""A round of the casino game (RULES.md HU-1 to HU-11): the wagers, three decisions and
the settlement, and the exact advice at each decision.

One player against the dealer, a fresh deck every round. The player bets an Ante and
an equal Odds bet (HU-1), then checks or raises 3x before the flop (HU-2), checks or
raises 2x on the flop (HU-3) and, after two checks, raises 1x or folds at the river
(HU-4). Money is integers; a 3:2 payout on an odd amount rounds down.

>>> r = Round(10, trips=5, seed=7)
>>> r.stage.value, r.legal()
('preflop', ('check', 'raise 3'))
>>> r.check(); r.stage.value, len(r.board)
('flop', 3)
>>> r.act(advise(r).best); r.stage.value in ("river", "settled")
True
>>> Round(10, odds=5)
Traceback (most recent call last):
...
doubleholdem.errors.InvalidWager: the Odds bet must equal the Ante (10), not 5
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from doubleholdem import _core
from doubleholdem.cards import CardLike, Deck, format_cards, parse_cards
from doubleholdem.casino.rules import HEADS_UP, Rules, rules_of
from doubleholdem.casino.strategy import preflop_table
from doubleholdem.errors import InvalidHand, InvalidRules, InvalidWager

__all__ = [
    "MAX_STAKE",
    "Advice",
    "Round",
    "Settlement",
    "Stage",
    "action_name",
    "advise",
    "starting_hand_class",
]


class Stage(str, enum.Enum):
    """Where a round stands."""

    PREFLOP = "preflop"
    FLOP = "flop"
    RIVER = "river"
    SETTLED = "settled"


@dataclass(frozen=True)
class Settlement:
    """Net result of each bet (won positive, lost negative), in money units (HU-6)."""

    ante: int
    odds: int
    play: int
    trips: int
    pocket_bonus: int

    @property
    def total(self) -> int:
        """The player's net result of the round."""
        return self.ante + self.odds + self.play + self.trips + self.pocket_bonus


MAX_STAKE = 2**63 - 1
"""The largest amount of one wager. Every settlement of stakes up to it is exact (the
core settles in 128-bit integers); a larger stake is refused when the round is made."""


def _stake(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidWager(f"the {name} must be an integer amount, not {value!r}")
    if value < 0:
        raise InvalidWager(f"the {name} cannot be negative ({value})")
    if value > MAX_STAKE:
        raise InvalidWager(f"the {name} must be at most {MAX_STAKE} (MAX_STAKE), not {value}")
    return value


def action_name(multiple: int | None, stage: Stage) -> str:
    """The name of an option: a raise multiple, or ``None`` (fold at the river, else
    check)."""
    if multiple is None:
        return "fold" if stage is Stage.RIVER else "check"
    return f"raise {multiple}"


class Round:
    """One round against the dealer: wagers, three decisions, settlement.

    ``odds`` defaults to the Ante and must equal it (HU-1); ``trips`` and
    ``pocket_bonus`` are the optional side bets (0: not played). Each stake is a whole
    amount up to :data:`MAX_STAKE` (2**63 - 1), and settles exactly. ``rules`` is a
    :class:`Rules` or the name of a game of :data:`GAMES`. The deck is shuffled
    by a strong generator unless ``seed`` or ``rng`` is given; ``order`` deals known
    cards first: player, player, dealer, dealer, then the five board cards.
    """

    def __init__(
        self,
        ante: int,
        *,
        odds: int | None = None,
        trips: int = 0,
        pocket_bonus: int = 0,
        rules: Rules | str = HEADS_UP,
        seed: int | None = None,
        rng: Any = None,
        order: Sequence[CardLike] = (),
    ) -> None:
        rules = rules_of(rules)
        if isinstance(order, bytes) or not isinstance(order, (str, Sequence)):
            raise InvalidHand(
                f"order is the cards to deal first (text or a sequence), not {order!r}"[:120]
            )
        self.ante = _stake(ante, "Ante")
        if self.ante == 0:
            raise InvalidWager("the Ante must be positive")
        odds = self.ante if odds is None else _stake(odds, f"{rules.second_bet} bet")
        if odds != self.ante:
            raise InvalidWager(
                f"the {rules.second_bet} bet must equal the Ante ({ante}), not {odds}"
            )
        self.trips = _stake(trips, f"{rules.trips_name} bet")
        self.pocket_bonus = _stake(pocket_bonus, "Pocket Bonus bet")
        self.rules = rules
        rules.core()
        deck = Deck(seed, rng=rng, order=order)
        self.player: list[int] = deck.deal(2)
        self._dealer: list[int] = deck.deal(2)
        self._board: list[int] = deck.deal(5)
        self.stage = Stage.PREFLOP
        self.play: int | None = None
        self.history: list[str] = []
        self.settlement: Settlement | None = None

    @property
    def board(self) -> list[int]:
        """The board cards the player can see now."""
        shown = {Stage.PREFLOP: 0, Stage.FLOP: 3}.get(self.stage, 5)
        return self._board[:shown]

    @property
    def dealer(self) -> list[int] | None:
        """The dealer's cards, once the round is settled."""
        return list(self._dealer) if self.stage is Stage.SETTLED else None

    def _raises(self) -> tuple[int, ...]:
        return {
            Stage.PREFLOP: self.rules.preflop_raises,
            Stage.FLOP: self.rules.flop_raises,
            Stage.RIVER: self.rules.river_raises,
        }.get(self.stage, ())

    def legal(self) -> tuple[str, ...]:
        """The actions allowed now: 'check' or 'fold' first, then each raise."""
        if self.stage is Stage.SETTLED:
            return ()
        return (action_name(None, self.stage), *(f"raise {m}" for m in self._raises()))

    def act(self, action: str) -> None:
        """Plays an action by name: 'check', 'fold', 'raise 3' (or '3x')."""
        if not isinstance(action, str):
            raise InvalidWager(
                f"an action is text such as 'check' or 'raise 3', not {action!r}"[:120],
                allowed=self.legal(),
            )
        text = action.strip().lower()
        if text in ("check", "fold"):
            (self.check if text == "check" else self.fold)()
            return
        digits = text.removeprefix("raise").strip().removesuffix("x").strip()
        if not (digits.isascii() and digits.isdigit()) or len(digits) > 4:
            raise InvalidWager(f"{action[:40]!r} is not an action", allowed=self.legal())
        self.raise_(int(digits))

    def _refuse(self, what: str) -> InvalidWager:
        where = (
            "after the round is settled"
            if self.stage is Stage.SETTLED
            else f"now ({self.stage.value})"
        )
        return InvalidWager(
            f"cannot {what} {where}; allowed: {', '.join(self.legal()) or 'nothing'}",
            allowed=self.legal(),
        )

    def raise_(self, multiple: int) -> None:
        """Bets Play = ``multiple`` x Ante, if that raise is allowed now (HU-2 to HU-4)."""
        if (
            isinstance(multiple, bool)
            or not isinstance(multiple, int)
            or multiple not in self._raises()
        ):
            raise self._refuse(f"raise {multiple!r}x")
        self._settle(multiple, f"raise {multiple}")

    def check(self) -> None:
        """Checks before the flop or on the flop (HU-2, HU-3)."""
        if self.stage not in (Stage.PREFLOP, Stage.FLOP):
            raise self._refuse("check")
        self.history.append("check")
        self.stage = Stage.FLOP if self.stage is Stage.PREFLOP else Stage.RIVER

    def fold(self) -> None:
        """Folds at the river after two checks (HU-4): Ante and Odds lose."""
        if self.stage is not Stage.RIVER:
            raise self._refuse("fold")
        self._settle(None, "fold")

    def _settle(self, play: int | None, action: str) -> None:
        # Settled first, then the round changes: a refused settlement changes nothing.
        result = _core.casino_settle(
            self.rules.core(),
            self.ante,
            self.trips,
            self.pocket_bonus,
            play,
            self.player,
            self._board,
            self._dealer,
        )
        self.settlement = Settlement(*result)
        self.history.append(action)
        self.play = play
        self.stage = Stage.SETTLED

    def __repr__(self) -> str:
        board = format_cards(self.board) or "-"
        return (
            f"Round({self.rules.name}: {format_cards(self.player)} | {board} | {self.stage.value})"
        )


@dataclass(frozen=True)
class Advice:
    """The exact expected value of each option now, of the Ante, Odds and Play bets per
    unit of Ante (side bets do not depend on decisions); ``best`` has the highest."""

    stage: Stage
    options: dict[str, float]

    @property
    def best(self) -> str:
        """The option of highest EV (the first listed among equals)."""
        return max(self.options, key=lambda name: self.options[name])


def advise(round: Round, *, preflop: dict[str, dict[str, float]] | None = None) -> Advice:
    """The EV of every option at the round's current decision: pre-flop from the exact
    169-class table (shipped for the built-in games, or ``preflop`` from
    :func:`preflop_table` of an :class:`Analysis`), flop and river by enumerating every
    unseen card in Rust."""
    core = round.rules.core()
    if round.stage is Stage.PREFLOP:
        table = preflop if preflop is not None else preflop_table(round.rules)
        return Advice(round.stage, _preflop_options(round, table))
    if round.stage is Stage.FLOP:
        options = _core.casino_flop_options(core, round.player, round.board)
    elif round.stage is Stage.RIVER:
        options = _core.casino_river_options(core, round.player, round.board)
    else:
        raise InvalidWager("the round is settled: there is nothing left to decide")
    return Advice(round.stage, {action_name(m, round.stage): ev for m, ev in options})


def _preflop_options(round: Round, table: object) -> dict[str, float]:
    """The options of the round's starting hand in a pre-flop table, checked: a
    mapping of class names to the EV of each legal pre-flop option."""
    name = starting_hand_class(round.player)
    entry = table.get(name) if isinstance(table, Mapping) else None
    legal = set(round.legal())
    if (
        not isinstance(entry, Mapping)
        or set(entry) != legal
        or not all(
            isinstance(ev, (int, float)) and not isinstance(ev, bool) for ev in entry.values()
        )
    ):
        raise InvalidRules(
            f"preflop must map each starting-hand class (here {name}) to the EV of each "
            f"option ({', '.join(round.legal())}), as preflop_table() does; "
            f"got {entry!r}"[:200]
        )
    return {option: float(ev) for option, ev in entry.items()}


def starting_hand_class(cards: str | Iterable[CardLike]) -> str:
    """'AKs', 'AKo' or 'AA' for two hole cards."""
    hole = parse_cards(cards)
    if len(hole) != 2:
        raise InvalidHand(f"a starting hand has 2 cards, not {len(hole)}")
    ranks = "23456789TJQKA"
    high, low = sorted((c >> 2 for c in hole), reverse=True)
    if high == low:
        return ranks[high] * 2
    return ranks[high] + ranks[low] + ("s" if hole[0] & 3 == hole[1] & 3 else "o")
