"""The state of one hand and what anyone may read of it: the chips (stacks, this round's
bets, what each seat put in), who is in the hand, the cards dealt, the point cards
chosen, whose decision is awaited, the results and the event log.
:class:`~doubleholdem.game.Hand` is this state moved on by the rules of play (RULES.md);
the state itself decides nothing.

>>> from doubleholdem.game import GameConfig, Hand
>>> hand = Hand(GameConfig(stacks=(100, 100), small_blind=1, big_blind=2), seed=1)
>>> isinstance(hand, HandState), hand.street, hand.bets, hand.pot
(True, 'preflop', [1, 2], 3)
"""

from __future__ import annotations

from typing import Any

from doubleholdem.game.betting import LegalActions
from doubleholdem.game.config import GameConfig
from doubleholdem.game.events import Event, HandLog
from doubleholdem.game.posting import Opening
from doubleholdem.game.pots import PotResult
from doubleholdem.game.refusals import check_seat

__all__ = ["STREETS", "HandState"]

STREETS = ("preflop", "flop", "turn", "river", "showdown")


class HandState:
    """A hand of ``config`` dealt from ``deck``, its posts made and its hole cards
    dealt as ``start`` says: every seat in the hand, no board card dealt, nobody to
    act.

    ``over`` is True once every pot is awarded: a plain attribute, not a property, as
    players read it at every decision; read it, never set it."""

    __slots__ = (
        "_actor",
        "_bets",
        "_betting_actor",
        "_board",
        "_committed",
        "_dead",
        "_decision",
        "_deck",
        "_holes",
        "_in_hand",
        "_killed",
        "_legal",
        "_live",
        "_log",
        "_needs_point",
        "_next_card",
        "_points",
        "_points_due",
        "_results",
        "_runout",
        "_shown",
        "_stacks",
        "_street",
        "config",
        "over",
    )

    def __init__(self, config: GameConfig, deck: list[int], start: Opening) -> None:
        self.config = config
        self._deck = deck
        n = len(start.stacks)
        holes = self._holes = start.holes(deck)  # each seat's cards
        self._next_card = start.dealt
        self._stacks = list(start.stacks)
        self._bets = list(start.bets)
        self._committed = list(start.committed)
        self._dead = start.dead
        self._in_hand = [True] * n
        self._live = n
        self._killed: tuple[int, ...] = ()  # the seats whose hands were killed (TH-24)
        self._points: list[int | None] = [None] * n
        self._needs_point = [False] * n
        self._points_due = 0
        self._board: tuple[int, ...] = ()
        self._street = 0
        self._log = HandLog.dealt(start.records, start.order, holes)
        self._shown = [False] * n
        self._runout = False
        self._results: list[PotResult] = []
        self._actor: int | None = None
        self._decision: str | None = None
        self._betting_actor: int | None = None
        self._legal: LegalActions | None = None
        self.over = False

    # ------------------------------------------------------------------ public view

    @property
    def players(self) -> int:
        """Seats dealt in."""
        return len(self._stacks)

    @property
    def button(self) -> int:
        """The button's seat."""
        return self.config.button

    @property
    def actor(self) -> int | None:
        """The seat whose decision is awaited, ``None`` once the hand is over."""
        return self._actor

    @property
    def decision(self) -> str | None:
        """``"bet"``, ``"point"`` (Double Hold'em point card, DH-5) or ``None``."""
        return self._decision

    def turn(self) -> tuple[int | None, str | None]:
        """:attr:`actor` and :attr:`decision` in one call (a table asks after each
        change)."""
        return self._actor, self._decision

    @property
    def street(self) -> str:
        """``preflop``, ``flop``, ``turn``, ``river`` or ``showdown`` (also after a hand
        won without a showdown)."""
        return STREETS[self._street]

    def __repr__(self) -> str:
        """Short: the game, the blinds, the seats, the street and the pot.

        >>> from doubleholdem.game import GameConfig, Hand
        >>> Hand(GameConfig(stacks=(100, 100, 100), small_blind=1, big_blind=2), seed=1)
        <Hand texas no-limit 1/2, 3 seats, preflop, pot 3>
        """
        config = self.config
        street = "over" if self.over else STREETS[self._street]
        return (
            f"<{type(self).__name__} {config.variant.value} {config.structure.value} "
            f"{config.small_blind}/{config.big_blind}, {len(self._stacks)} seats, {street}, "
            f"pot {self.pot}>"
        )

    @property
    def board(self) -> list[int]:
        """The community cards dealt so far."""
        return list(self._board)

    @property
    def stacks(self) -> list[int]:
        """Chips each seat has behind (after the awards, once the hand is over)."""
        return list(self._stacks)

    @property
    def bets(self) -> list[int]:
        """Each seat's wager in the current betting round."""
        return list(self._bets)

    @property
    def committed(self) -> list[int]:
        """Each seat's chips in the middle this hand (big-blind ante excluded)."""
        return list(self._committed)

    @property
    def pot(self) -> int:
        """Every chip in the middle, this round's bets included."""
        return sum(self._committed) + self._dead

    @property
    def in_hand(self) -> list[bool]:
        """False for the seats that folded."""
        return list(self._in_hand)

    @property
    def killed(self) -> tuple[int, ...]:
        """The seats whose hands were killed (dead hands, TH-24), in the order killed."""
        return self._killed

    @property
    def live(self) -> int:
        """Players who have not folded."""
        return self._live

    @property
    def shown(self) -> list[bool]:
        """True for the seats whose hole cards were turned face up (TH-22)."""
        return list(self._shown)

    @property
    def points(self) -> list[int | None]:
        """Double Hold'em point card index of each seat (``None``: not chosen)."""
        return list(self._points)

    @property
    def results(self) -> list[PotResult]:
        """How each pot was settled, side pots first (empty until the hand is over)."""
        return list(self._results)

    @property
    def rake(self) -> int:
        """Chips the house took from this hand's pots (TH-31)."""
        return sum(result.rake for result in self._results)

    @property
    def events(self) -> tuple[Event, ...]:
        """The whole event log, in order."""
        return self._log.events()

    @property
    def records(self) -> tuple[tuple[Any, ...], ...]:
        """The event log as plain tuples in :class:`Event`'s field order (what a table
        or server keeps of a finished hand: ``Event._make(record)`` reads one back)."""
        return tuple(self._log.records)

    @property
    def event_count(self) -> int:
        """The number of events so far."""
        return len(self._log.records)

    @property
    def payoffs(self) -> list[int]:
        """Chips won (positive) or lost by each seat so far."""
        return [now - before for now, before in zip(self._stacks, self.config.stacks)]

    def seat_lists(self) -> tuple[list[int], list[int], list[int], list[bool]]:
        """The hand's own lists of :attr:`stacks`, :attr:`bets`, :attr:`committed` and
        :attr:`in_hand`, not copies, in one call: for code that reads them at every
        decision (the learning environments' encoding). Read them, never change them."""
        return self._stacks, self._bets, self._committed, self._in_hand

    def card_lists(
        self,
    ) -> tuple[list[tuple[int, ...]], tuple[int, ...], list[bool], list[int | None]]:
        """The hand's own hole cards of each seat, board, :attr:`shown` and
        :attr:`points`, not copies, in one call: for code that encodes what a seat may
        see at every decision (the learning environments). Read them, never change
        them (server side: no secrecy here)."""
        return self._holes, self._board, self._shown, self._points

    def hole(self, seat: int) -> list[int]:
        """The hole cards of ``seat`` in dealing order (server side: no secrecy here)."""
        check_seat(seat, len(self._stacks))
        return list(self._holes[seat])
