"""The episode being played (:class:`Game`): over the game's :class:`~doubleholdem.game.Hand`
(one-hand episodes) or :class:`~doubleholdem.table.Table` (episodes of many hands). The
rules stay in the game: the driver asks the hand what is legal and hands it the decision;
every refusal comes from the rules."""

from __future__ import annotations

import random
from collections.abc import Sequence
from operator import sub
from typing import Any

from doubleholdem.errors import IllegalAction, InvalidConfig
from doubleholdem.game import Action, GameConfig, Hand, LegalActions
from doubleholdem.game.betting import BET_AT, CALL_AMOUNT_AT, SEAT_AT
from doubleholdem.game.phh import dumps
from doubleholdem.game.words import CALL, CHECK, POINT
from doubleholdem.rl.actions import ActionCodec
from doubleholdem.rl.config import EnvConfig
from doubleholdem.rl.rewards import IcmRewards
from doubleholdem.rl.rows import KINDS, PublicRows
from doubleholdem.table import Observation, Table, TableConfig

__all__ = ["ActorView", "Game"]

ActorView = tuple[str, LegalActions, tuple[int, ...], tuple[int, ...], int, int]
"""What the seat to act decides on (:meth:`~doubleholdem.game.Hand.actor_view`)."""


class Game:
    """The episode being played: the hand (and, for many-hand episodes, the table), who
    acts, the action window, and what the last hand paid. Seats are the agents' numbers
    0..players-1."""

    def __init__(self, config: EnvConfig) -> None:
        self.config = config
        self.codec = ActionCodec(config)
        n = config.players
        # a one-hand episode's hand config for each button, made once
        self._configs = [
            GameConfig(**{**_config_fields(config.game), "button": b}) for b in range(n)
        ]
        # the seats' rows of a one-hand episode's hand just dealt, by button (_deal_one)
        self._opening_rows: list[bytes | None] = [None] * n
        self.table: Table | None = None
        self.hand: Hand = Hand(self._configs[0], seed=0)
        self.seat_of: list[int] = list(range(n))  # hand index -> seat
        self.index_of: list[int] = list(range(n))  # seat -> hand index, -1: not dealt
        self.actor: int | None = None  # the seat to act
        # the hand's actor_view (None once it is over), read once per decision: the
        # observation of the seat to act shows it and the step answers it
        self.actor_view: ActorView | None = None
        self.hands_played = 0
        self.payoffs = [0] * n  # chips won by each seat in the hand that ended last
        # reward="icm": each seat's ICM equity and its change in the hand that ended last
        self.icm = None if config.payouts is None else IcmRewards(config.payouts, config.others)
        self.stacks = list(config.game.stacks)  # chips of each seat between hands
        self.phh: str | None = None  # the hand the last decision ended, as PHH text
        self.later_phh: list[str] = []  # hands dealt after it that needed no decision
        self.public = PublicRows(config)  # the seats' rows and the past actions
        self.episode_over = False
        self._many = config.many_hands
        self._start = config.game.stacks

    # the episode

    def reset(
        self, rng: random.Random, *, deck: Sequence[int] | None = None, button: int | None = None
    ) -> None:
        """A new episode: fresh stacks, the first hand dealt from ``rng``, or for a
        one-hand episode from ``deck`` (card numbers in dealing order, TH-1: replays,
        duplicate deals) with the button at ``button`` (default: the settings')."""
        if deck is not None or button is not None:
            if self._many:
                raise InvalidConfig("deck and button are for one-hand episodes (hands=1)")
            if button is not None:
                _check_button(button, self.config.players)
        self.hands_played = 0
        self.stacks = list(self._start)
        self.episode_over = False
        if self.icm is not None:
            self.icm.reset(self.stacks)
        if self._many:
            self.table = self._seated_table(rng)
            self._deal_at_table(rng)
        else:
            self._deal_one(rng, self.config.button if button is None else button, deck)

    def _seated_table(self, rng: random.Random) -> Table:
        """A many-hand episode's table, every agent seated with its starting stack."""
        config = self.config
        table = Table(
            TableConfig(
                seats=config.players,
                min_buy_in=1,
                max_buy_in=max(config.game.stacks),
                **config.game.rules(),
            ),
            rng=rng,
        )
        for seat, stack in enumerate(config.game.stacks):
            table.join(seat, f"player_{seat}", stack)
        return table

    def _deal_one(
        self, rng: random.Random, button: int | None, deck: Sequence[int] | None = None
    ) -> None:
        """The hand of a one-hand episode (its seats are the agents': :attr:`seat_of` is
        the identity), the button drawn from ``rng`` if ``None``."""
        if button is None:
            button = int(rng.random() * len(self._configs))
        config = self._configs[button]
        hand = Hand(config, rng=rng) if deck is None else Hand(config, deck=list(deck))
        self.hand = hand
        rows = self._opening_rows[button]
        if rows is None and hand.actor is not None:
            # before the first decision the seats' rows hold the posts only: the same
            # for every hand with this button, so computed once
            rows = self._opening_rows[button] = self.public.rebuilt_seats(hand, self.seat_of)
        self.public.new_hand(hand, self.seat_of, rows)
        self.actor = hand.actor
        self.actor_view = hand.actor_view()

    def _deal_at_table(self, rng: random.Random) -> None:
        """The table's next hand (its seats are the dealt players, :attr:`seat_of`)."""
        table = self.table
        assert table is not None
        table.start_hand()
        hand = table.hand
        assert hand is not None
        self.hand = hand
        dealt = table.dealt
        self.seat_of = dealt
        index_of = [-1] * self.config.players
        for i, s in enumerate(dealt):
            index_of[s] = i
        self.index_of = index_of
        self.public.new_hand(hand, dealt)
        actor = hand.actor
        self.actor = None if actor is None else dealt[actor]
        self.actor_view = hand.actor_view()

    # decisions

    def legal(self) -> tuple[str | None, LegalActions | None, int]:
        """The decision, options and pot of the seat to act."""
        view = self.actor_view
        if view is None:
            return None, None, self.hand.pot
        decision, legal, _, _, pot, _ = view
        return decision, legal, pot

    def step(self, action: int, rng: random.Random) -> bool:
        """Applies action number ``action`` of the seat to act; True if it ended a hand
        (:attr:`payoffs` and :attr:`phh` are that hand's; the next hand, if the episode
        goes on, is dealt at once)."""
        view = self.actor_view
        if view is None:
            raise IllegalAction("the episode is over: reset it", action=action)
        decision, legal, _, _, pot, _ = view
        kind, amount = self.codec.decode(action, decision, legal, pot)
        if kind == CALL and not legal[CALL_AMOUNT_AT]:  # action 1: a check or a call
            kind = CHECK
        return self._play(legal, kind, amount, rng)

    def decide(self, action: str, amount: int | None, rng: random.Random) -> bool:
        """Applies a decision as the game takes it (``fold``, ``check``, ``call``,
        ``bet``, ``raise``, ``all_in`` with the total, or ``point`` with the index: what
        the library's bots answer); the rules refuse what is not legal. True if it ended
        a hand, as :meth:`step`."""
        legal = self.hand.legal_actions()
        if legal is None:
            raise IllegalAction("the episode is over: reset it", action=action)
        return self._play(legal, action, amount, rng)

    def _play(
        self, legal: LegalActions, kind: Action | str, amount: int | None, rng: random.Random
    ) -> bool:
        """Applies ``kind`` with ``amount`` for the seat to act (``legal`` its options);
        the rows record the event the game handed back."""
        index = legal[SEAT_AT]
        table = self.table
        hand = self.hand
        public = self.public
        seat_of = self.seat_of
        if kind == POINT:
            if table is None:
                hand.choose_point(index, amount)  # type: ignore[arg-type]
            else:
                table.choose_point(seat_of[index], amount)  # type: ignore[arg-type]
            public.update(hand, seat_of, index)
        else:
            if table is None:
                event = hand.act(kind, amount)
            else:
                event = table.act(seat_of[index], kind, amount)
            chips = event.amount or 0  # what it put in (an all-in: the call, bet or raise)
            public.played(hand, seat_of, index, KINDS[event.kind], chips, legal[BET_AT] + chips)
        view = self.actor_view = hand.actor_view()
        if view is not None:  # the seat to act: the one its options are for
            _, options, _, _, _, _ = view
            self.actor = seat_of[options.seat]
            return False
        self.actor = None
        self._end_hand(rng)
        return True

    def _end_hand(self, rng: random.Random) -> None:
        """Settles the hand that just ended and, if the episode goes on, deals the next
        one; a hand dealt with no decision to make (every player all-in from the blinds
        and antes) is settled too, and so on until a seat must decide."""
        if self.table is None:
            self._settle_one()
            return
        config = self.config
        payoffs = [0] * config.players
        stacks = self.stacks
        texts = []
        icm = self.icm
        settled = False  # a hand was settled in this call before this one
        while True:
            hand = self.hand
            seat_of = self.seat_of
            start = stacks if icm is None else stacks.copy()
            for i, (now, before) in enumerate(zip(hand.stacks, hand.config.stacks)):
                seat = seat_of[i]
                payoffs[seat] += now - before
                stacks[seat] = now
            if icm is not None:
                icm.hand(start, stacks, add=settled)
            settled = True
            self.hands_played += 1
            if config.phh:
                texts.append(dumps(hand))
            alive = sum(1 for s in stacks if s > 0)
            if alive < 2 or (config.hands is not None and self.hands_played >= config.hands):
                self.episode_over = True
                break
            self._deal_at_table(rng)
            if self.actor is not None:
                break
        self.payoffs = payoffs
        self.phh = texts[0] if texts else None
        self.later_phh = texts[1:]

    def _settle_one(self) -> None:
        """Settles a one-hand episode's hand: the episode is over. (:attr:`later_phh`
        stays the empty list it was made: no hand follows.)"""
        hand = self.hand
        final = hand.seat_lists()[0]
        self.payoffs = list(map(sub, final, self._start))  # chips won by each seat
        self.stacks[:] = final
        if self.icm is not None:
            self.icm.hand(self._start, final)
        self.hands_played = 1
        self.phh = dumps(hand) if self.config.phh else None
        self.episode_over = True

    # what a seat may know

    def bot_observation(self, seat: int) -> Observation:
        """What the seat to act knows, as the library's bots take it."""
        view = self.actor_view
        if view is None or self.actor != seat:
            raise IllegalAction(f"seat {seat} has no decision to make now", seat=seat)
        decision, legal, hole, board, pot, live = view
        if self.table is not None:
            return self.table.observe(seat)
        config = self.config.game
        return Observation(
            seat, decision, legal, hole, board, pot, config.big_blind, live - 1, config.variant
        )

    def view(self, seat: int) -> dict[str, Any]:
        """The game's own JSON view of what ``seat`` may see (cards as text)."""
        if self.table is not None:
            return self.table.view(seat)
        return self.hand.view(seat)


def _check_button(button: object, players: int) -> None:
    if isinstance(button, bool) or not isinstance(button, int) or not 0 <= button < players:
        raise InvalidConfig(f"button: {button!r} is not a seat 0..{players - 1}", field="button")


def _config_fields(config: GameConfig) -> dict[str, Any]:
    return {**config.rules(), "stacks": config.stacks}
