"""What every learning environment shares, over the game's :class:`~doubleholdem.game.Hand`
(one-hand episodes) and :class:`~doubleholdem.table.Table` (episodes of many hands): the
settings (:class:`EnvConfig`), the action codec (:class:`ActionCodec`: an action number to a
decision and the legal-action mask), the observation encoder (:class:`Encoder`, its layout
documented by :meth:`Encoder.describe`) and the episode driver (:class:`Game`).

The rules stay in the game: the driver only asks the hand what is legal and hands it the
decision; every refusal comes from the rules. Only numpy is needed here.
"""

from __future__ import annotations

import random
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Union, cast

import numpy as np

from doubleholdem.errors import IllegalAction, InvalidConfig
from doubleholdem.game import AnteType, GameConfig, Hand, LegalActions, Rake, Structure, Variant
from doubleholdem.game.phh import dumps
from doubleholdem.table import Observation, Table, TableConfig

__all__ = ["PRESETS", "ActionCodec", "Encoder", "EnvConfig", "Game"]

FOLD, CALL, POINT_BASE = 0, 1, 2
"""Action numbers: 0 folds, 1 checks or calls, 2..4 choose point card 0..2 (Double
Hold'em only); bets and raises follow (:attr:`ActionCodec.raise_base`)."""

RaiseToken = Union[str, float]  # "min", "all-in" or a fraction of the pot

PRESETS: dict[str, tuple[RaiseToken, ...]] = {
    "fc": (),
    "fcpa": (1.0, "all-in"),
    "fchpa": (0.5, 1.0, "all-in"),
    "fcmhpa": ("min", 0.5, 1.0, "all-in"),
    "fcmqhpda": ("min", 0.25, 0.5, 1.0, 2.0, "all-in"),
}
"""Discrete action sets by name: fold, check/call, then the bets and raises (``min``: the
minimum raise; a number: that fraction of the pot after a call; ``all-in``)."""

_REST = struct.Struct("=11f")  # a past action's features after its seat
_REST_BYTES = _REST.size
STREET_INDEX = {"preflop": 0, "flop": 1, "turn": 2, "river": 3, "showdown": 4}
KINDS = {"fold": 0, "check": 1, "call": 2, "bet": 3, "raise": 4}


@dataclass(frozen=True)
class EnvConfig:
    """The settings of an environment, validated on construction (:class:`InvalidConfig`
    names the field). Money is in chips; observations and rewards are in big blinds.

    - ``variant``: ``"texas"`` or ``"double"`` (DH-1); ``structure``: ``"no-limit"``,
      ``"pot-limit"`` or ``"fixed-limit"``; ``players``: 2 to 10.
    - ``small_blind``, ``big_blind`` (default 1 and 2 chips), ``stacks``: chips of every
      seat (one number for all, or one per seat; default 100 big blinds), ``ante`` and
      ``ante_type`` (``"uniform"`` or ``"big-blind"``, TH-19), ``rake`` (default none).
    - ``hands``: hands per episode (default 1); more carry the stacks over at a
      :class:`~doubleholdem.table.Table` (moving button, TH-35, TH-38) until that many
      hands or one player is left; ``None``: until one player is left.
    - ``actions``: ``"exact"`` (fold, check/call, bet or raise to any legal total) or a
      discrete set: a name of :data:`PRESETS` or a sequence of raise sizes.
    - ``history``: the number of past actions in the observation (default 8).
    - ``button``: the button's seat of a one-hand episode (``None``: drawn at random each
      episode); a many-hand episode starts with the button at seat 0.
    - ``reveal_point``: DH-8; ``phh``: put each finished hand's PHH text in the infos.
    """

    variant: str = "texas"
    structure: str = "no-limit"
    players: int = 2
    small_blind: int = 1
    big_blind: int = 2
    stacks: int | tuple[int, ...] | None = None
    ante: int = 0
    ante_type: str = "uniform"
    rake: Rake | None = None
    hands: int | None = 1
    actions: str | tuple[RaiseToken, ...] = "exact"
    history: int = 8
    button: int | None = None
    reveal_point: bool = False
    phh: bool = True
    game: GameConfig = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        players = self.players
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 10:
            raise InvalidConfig(f"players: {players!r} is not 2 to 10", field="players")
        stacks = self.stacks
        if stacks is None:
            stacks = (100 * self.big_blind,) * players
        elif isinstance(stacks, int) and not isinstance(stacks, bool):
            stacks = (stacks,) * players
        else:
            stacks = tuple(cast(Sequence[int], stacks))
            if len(stacks) != players:
                raise InvalidConfig(
                    f"stacks: give one stack or {players}, not {len(stacks)}", field="stacks"
                )
        object.__setattr__(self, "stacks", stacks)
        least = self.big_blind + self.ante
        if not all(isinstance(s, int) and s > least for s in stacks):
            raise InvalidConfig(
                f"stacks: every stack must be more than the big blind and ante ({least}) so "
                f"that the first hand has a decision, not {list(stacks)}",
                field="stacks",
            )
        actions = self.actions
        if not isinstance(actions, str):
            object.__setattr__(self, "actions", tuple(actions))
        _raise_tokens(self.actions)  # refuses a bad action set
        for name, value, low in (("history", self.history, 0), ("hands", self.hands, 1)):
            if value is None and name == "hands":
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise InvalidConfig(f"{name}: {value!r} is not a whole number >= {low}", field=name)
        if self.button is not None and (
            isinstance(self.button, bool)
            or not isinstance(self.button, int)
            or not 0 <= self.button < players
        ):
            raise InvalidConfig(
                f"button: {self.button!r} is not a seat 0..{players - 1}", field="button"
            )
        game = GameConfig(
            stacks=stacks,
            small_blind=self.small_blind,
            big_blind=self.big_blind,
            structure=cast(Structure, self.structure),  # GameConfig checks the names
            variant=cast(Variant, self.variant),
            ante=self.ante,
            ante_type=cast(AnteType, self.ante_type),
            rake=self.rake,
            reveal_point=self.reveal_point,
            button=self.button or 0,
        )
        object.__setattr__(self, "game", game)
        if not isinstance(self.phh, bool):
            raise InvalidConfig(f"phh: {self.phh!r} is not true or false", field="phh")

    @property
    def many_hands(self) -> bool:
        """True when an episode may have more than one hand."""
        return self.hands != 1

    @property
    def double(self) -> bool:
        """True for Double Hold'em."""
        return self.game.variant is Variant.DOUBLE

    @property
    def max_to(self) -> int:
        """The largest total any wager can reach: every chip at the table when stacks
        carry over, else the largest stack."""
        stacks = self.game.stacks
        return sum(stacks) if self.many_hands else max(stacks)


def _raise_tokens(actions: object) -> tuple[RaiseToken, ...] | None:
    """The bet and raise sizes of a discrete action set (``None``: exact actions)."""
    if actions == "exact":
        return None
    if isinstance(actions, str):
        if actions not in PRESETS:
            names = ", ".join(["exact", *PRESETS])
            raise InvalidConfig(f"actions: {actions!r} is not one of {names}", field="actions")
        return PRESETS[actions]
    tokens: list[RaiseToken] = []
    for token in actions:  # type: ignore[attr-defined]
        if token in ("min", "all-in"):
            tokens.append(token)
        elif token == "pot":
            tokens.append(1.0)
        elif isinstance(token, (int, float)) and not isinstance(token, bool) and 0 < token <= 100:
            tokens.append(float(token))
        else:
            raise InvalidConfig(
                f"actions: {token!r} is not 'min', 'all-in', 'pot' or a pot fraction (0, 100]",
                field="actions",
            )
    return tuple(tokens)


# ---------------------------------------------------------------------------- actions


class ActionCodec:
    """Action numbers to decisions, and the legal-action mask.

    The numbers: ``0`` fold, ``1`` check or call, in Double Hold'em ``2``, ``3``, ``4``
    choose point card 0, 1, 2 (in dealing order, DH-5), then from :attr:`raise_base` the
    bets and raises: with exact actions ``raise_base + to - 1`` bets or raises **to**
    ``to`` chips (any total in the legal range); with a discrete set, one number per
    size, clamped to the legal range (a size equal to an earlier one is masked out).
    """

    def __init__(self, config: EnvConfig) -> None:
        self.tokens = _raise_tokens(config.actions)
        self.raise_base = POINT_BASE + (3 if config.double else 0)
        self.exact = self.tokens is None
        self.max_to = config.max_to
        self.size = self.raise_base + (self.max_to if self.tokens is None else len(self.tokens))
        self._sized: tuple[LegalActions | None, list[int | None]] = (None, [])
        self._ones: Any = memoryview(np.ones(self.size, np.int8))  # type: ignore[arg-type]

    def raise_action(self, to: int) -> int:
        """The exact action number of a bet or raise to ``to`` chips."""
        if not self.exact:
            raise InvalidConfig("raise_action: only exact actions have a number per total")
        return self.raise_base + to - 1

    def amounts(self, legal: LegalActions, pot: int) -> list[int | None]:
        """The total of each discrete bet or raise now (``None``: not legal)."""
        if legal is self._sized[0]:  # asked again for the same decision (mask, decode)
            return self._sized[1]
        found = self._amounts(legal, pot)
        self._sized = (legal, found)
        return found

    def _amounts(self, legal: LegalActions, pot: int) -> list[int | None]:
        low, high = legal.min_raise_to, legal.max_raise_to
        tokens = self.tokens
        assert tokens is not None
        if low is None or high is None:
            return [None] * len(tokens)
        call = legal.call_amount
        base = legal.bet + call
        after_call = pot + call
        found: list[int | None] = []
        seen = set()
        for token in tokens:
            if token == "min":
                to = low
            elif token == "all-in":
                to = high
            else:
                to = base + int(cast(float, token) * after_call)
                to = low if to < low else high if to > high else to
            if to in seen:
                found.append(None)
            else:
                seen.add(to)
                found.append(to)
        return found

    def fill(self, mask: Any, decision: str | None, legal: LegalActions | None, pot: int) -> None:
        """Writes the legal-action mask of the seat to act (all zeros otherwise) into the
        zeroed memoryview or array ``mask``."""
        if legal is None or decision is None:
            return
        if decision == "point":
            mask[2] = mask[3] = mask[4] = 1
            return
        if legal.can_fold:
            mask[0] = 1
        mask[1] = 1  # a check or a call is always possible at a betting decision
        low = legal.min_raise_to
        if low is None:
            return
        base = self.raise_base
        if self.exact:
            high = legal.max_raise_to
            assert high is not None
            mask[base + low - 1 : base + high] = self._ones[: high - low + 1]
            return
        for i, to in enumerate(self.amounts(legal, pot)):
            if to is not None:
                mask[base + i] = 1

    def decode(
        self, action: int, decision: str | None, legal: LegalActions | None, pot: int
    ) -> tuple[str, int | None]:
        """The decision of action number ``action``: ``(kind, amount)`` with ``kind`` one
        of ``fold``, ``call`` (a check or a call), ``raise`` (a bet or raise to
        ``amount``) and ``point`` (``amount`` the index); :class:`IllegalAction` names the
        legal options if the number is not legal now."""
        if legal is None or decision is None:
            raise IllegalAction("the hand is over: nobody may act", action=action)
        if decision == "point":
            if POINT_BASE <= action < POINT_BASE + 3 and self.raise_base > POINT_BASE:
                return "point", action - POINT_BASE
            raise IllegalAction(
                f"seat {legal.seat} must choose a point card: actions 2, 3 or 4, not {action}",
                seat=legal.seat,
                action=action,
                legal=legal,
            )
        if action == FOLD and legal.can_fold:
            return "fold", None
        if action == CALL:
            return "call", None
        index = action - self.raise_base
        low, high = legal.min_raise_to, legal.max_raise_to
        if low is not None and high is not None and index >= 0:
            if self.exact:
                to = index + 1
                if low <= to <= high:
                    return "raise", to
            elif index < len(self.tokens or ()):
                to_or_none = self.amounts(legal, pot)[index]
                if to_or_none is not None:
                    return "raise", to_or_none
        raise IllegalAction(
            f"action {action} is not legal for seat {legal.seat} now: {self.legal_text(legal)}",
            seat=legal.seat,
            action=action,
            legal=legal,
        )

    def legal_text(self, legal: LegalActions) -> str:
        """The legal action numbers, in words."""
        parts = ["0 fold"] if legal.can_fold else []
        parts.append("1 check" if legal.can_check else "1 call")
        low, high = legal.min_raise_to, legal.max_raise_to
        if low is not None and high is not None:
            if self.exact:
                parts.append(
                    f"{self.raise_base + low - 1}..{self.raise_base + high - 1} "
                    f"bet or raise to {low}..{high}"
                )
            else:
                parts.append(f"{self.raise_base}.. the bets and raises the mask allows")
        return ", ".join(parts)


# ---------------------------------------------------------------------------- observations


class Encoder:
    """The observation of one seat: a flat float32 vector, the same shape at every step
    (:meth:`describe` lists its blocks). Seats are numbered relative to the observer:
    0 is the observer, 1 the next seat clockwise, and so on. Chips are in big blinds.
    Nothing in it is hidden from the observer by the rules: its own hole and point
    cards, the board, hands that were shown, point cards shown or revealed (DH-8), the
    public chips and the public actions.
    """

    SEAT_FEATURES = (
        "dealt in this hand",
        "still in the hand (not folded)",
        "all-in",
        "to act now",
        "stack behind (bb)",
        "wager this round (bb)",
        "chips put in this hand (bb)",
    )
    LEGAL_FEATURES = (
        "may fold",
        "may check",
        "may call",
        "chips a call puts in (bb)",
        "may bet or raise",
        "smallest bet or raise to (bb)",
        "largest bet or raise to (bb)",
    )

    def __init__(self, config: EnvConfig, codec: ActionCodec) -> None:
        n = self.players = config.players
        self.double = config.double
        self.bb = float(config.big_blind)
        self.history = config.history
        self.codec = codec
        self.row = n + 5 + 4 + 2  # one past action
        blocks: list[tuple[str, int, str]] = [
            ("hole", 52, "own hole cards (one per card, 0..51 as in doubleholdem.cards)"),
        ]
        if self.double:
            blocks.append(("point", 52, "own chosen point card (DH-5)"))
        blocks += [
            ("board", 52, "board cards"),
            ("street", 5, "preflop, flop, turn, river, hand over"),
            ("decision", 2, "to act on the betting, to choose a point card"),
            ("position", n, "own seat's distance clockwise from the button (0: button)"),
            (
                "seats",
                n * len(self.SEAT_FEATURES),
                "per relative seat: " + "; ".join(self.SEAT_FEATURES),
            ),
            ("pot", 1, "every chip in the middle (bb)"),
            ("legal", len(self.LEGAL_FEATURES), "; ".join(self.LEGAL_FEATURES)),
        ]
        if not codec.exact:
            blocks.append(("mask", codec.size, "the legal-action mask (as action_mask)"))
        blocks.append(("shown", (n - 1) * 52, "per other relative seat: hole cards shown"))
        if self.double:
            blocks.append(
                ("shown_points", (n - 1) * 52, "per other relative seat: point card seen")
            )
        blocks.append(
            (
                "history",
                self.history * self.row,
                f"the last {self.history} actions of this hand, oldest first: relative seat "
                f"({n}), fold/check/call/bet/raise (5), street (4), chips put in (bb), "
                "wager after it (bb)",
            )
        )
        self.blocks = blocks
        self.offsets: dict[str, int] = {}
        start = 0
        for name, size, _ in blocks:
            self.offsets[name] = start
            start += size
        self.size = start
        self.high = max(1.0, sum(config.game.stacks) / config.big_blind)
        self._features = len(self.SEAT_FEATURES)
        at = self.offsets.get
        self._board, self._street, self._pot = at("board", 0), at("street", 0), at("pot", 0)
        self._position, self._seats, self._decision = (
            at("position", 0),
            at("seats", 0),
            at("decision", 0),
        )
        self._legal_at, self._mask, self._shown = at("legal", 0), at("mask", 0), at("shown", 0)
        self._point, self._shown_points = at("point", 0), at("shown_points", 0)
        self._history = at("history", 0)

    def describe(self) -> list[tuple[str, int, int, str]]:
        """The blocks of the observation: (name, first index, size, meaning)."""
        return [(name, self.offsets[name], size, text) for name, size, text in self.blocks]

    def encode(self, game: Game, seat: int, out: Any, mask: Any) -> None:
        """Writes seat ``seat``'s observation into the zeroed float32 array ``out`` and
        its legal-action mask into the zeroed int8 array ``mask``."""
        o: Any = memoryview(out)
        hand = game.hand
        bb = self.bb
        n = self.players
        index = game.index_of[seat]  # the seat's index in the hand, -1: not dealt in
        actor = game.actor
        if actor == seat:
            decision, legal, hole, board, pot, _ = hand.actor_view()  # type: ignore[misc]
            self._legal(o, decision, legal, pot, mask)
        else:
            hole = hand.hole(index) if index >= 0 else ()
            board, pot = hand.board, hand.pot
        for card in hole:
            o[card] = 1.0
        base = self._board
        for card in board:
            o[base + card] = 1.0
        o[self._street + (STREET_INDEX[hand.street] if actor is not None else 4)] = 1.0
        o[self._pot] = pot / bb
        seat_of = game.seat_of
        o[self._position + (seat - seat_of[hand.button]) % n] = 1.0
        # the seats, relative to the observer
        stacks, bets, committed, in_hand = hand.stacks, hand.bets, hand.committed, hand.in_hand
        features = self._features
        base = self._seats
        for i, s in enumerate(seat_of):
            at = base + (s - seat) % n * features
            o[at] = 1.0
            stack = stacks[i]
            if in_hand[i]:
                o[at + 1] = 1.0
                if not stack:
                    o[at + 2] = 1.0
            if s == actor:
                o[at + 3] = 1.0
            o[at + 4] = stack / bb
            o[at + 5] = bets[i] / bb
            o[at + 6] = committed[i] / bb
        if self.double or actor is None or True in hand.shown:
            self._cards_seen(o, game, seat)
        history = game.history
        if history:
            raw = o.cast("B")  # the same memory as bytes: a past action's features in one copy
            at = self._history
            width = self.row
            for past, features_bytes in history:
                o[at + (past - seat) % n] = 1.0
                start = (at + n) * 4
                raw[start : start + _REST_BYTES] = features_bytes
                at += width

    def _legal(self, o: Any, decision: str, legal: LegalActions, pot: int, mask: Any) -> None:
        """The decision, legal and mask blocks of the seat to act."""
        if decision == "point":
            o[self._decision + 1] = 1.0
        else:
            bb = self.bb
            o[self._decision] = 1.0
            base = self._legal_at
            call = legal.call_amount
            if legal.can_fold:
                o[base] = 1.0
            if call:
                o[base + 2] = 1.0
                o[base + 3] = call / bb
            else:
                o[base + 1] = 1.0
            low = legal.min_raise_to
            if low is not None:
                o[base + 4] = 1.0
                o[base + 5] = low / bb
                o[base + 6] = legal.max_raise_to / bb  # type: ignore[operator]
        codec = self.codec
        codec.fill(memoryview(mask), decision, legal, pot)
        if not codec.exact:
            o.cast("B")[self._mask * 4 : (self._mask + codec.size) * 4] = _FLOATS[bytes(mask)]

    def _cards_seen(self, o: Any, game: Game, seat: int) -> None:
        """Hole cards shown (TH-22) and point cards the seat may see (DH-5, DH-8)."""
        hand = game.hand
        n = self.players
        shown, points = hand.shown, hand.points
        reveal = game.config.reveal_point
        for i, s in enumerate(game.seat_of):
            k = (s - seat) % n
            if k and shown[i]:
                at = self._shown + (k - 1) * 52
                for card in hand.hole(i):
                    o[at + card] = 1.0
            point = points[i]
            if point is not None:
                if not k:
                    o[self._point + hand.hole(i)[point]] = 1.0
                elif shown[i] or reveal:
                    o[self._shown_points + (k - 1) * 52 + hand.hole(i)[point]] = 1.0


class _Floats(dict[bytes, bytes]):
    """The float32 bytes of an int8 mask, made once per mask seen."""

    def __missing__(self, key: bytes) -> bytes:
        value = np.frombuffer(key, np.int8).astype(np.float32).tobytes()
        self[key] = value
        return value


_FLOATS = _Floats()


# ---------------------------------------------------------------------------- episodes


class Game:
    """The episode being played: the hand (and, for many-hand episodes, the table), who
    acts, the action window, and what the last hand paid. Seats are the agents' numbers
    0..players-1."""

    def __init__(self, config: EnvConfig) -> None:
        self.config = config
        self.codec = ActionCodec(config)
        n = config.players
        self._configs = [
            GameConfig(**{**_config_fields(config.game), "button": b}) for b in range(n)
        ]
        self.table: Table | None = None
        self.hand: Hand = Hand(self._configs[0], seed=0)
        self.seat_of: list[int] = list(range(n))  # hand index -> seat
        self.index_of: list[int] = list(range(n))  # seat -> hand index, -1: not dealt
        self.actor: int | None = None  # the seat to act
        self.hands_played = 0
        self.payoffs = [0] * n  # chips won by each seat in the hand that ended last
        self.stacks = list(config.game.stacks)  # chips of each seat between hands
        self.phh: str | None = None  # the hand the last decision ended, as PHH text
        self.later_phh: list[str] = []  # hands dealt after it that needed no decision
        # the last actions of this hand, oldest first: the seat, and the other features
        # of the observation's history row as float32 bytes
        self.history: list[tuple[int, bytes]] = []
        self.episode_over = False

    # the episode

    def reset(
        self, rng: random.Random, *, deck: Sequence[int] | None = None, button: int | None = None
    ) -> None:
        """A new episode: fresh stacks, the first hand dealt from ``rng``, or for a
        one-hand episode from ``deck`` (card numbers in dealing order, TH-1: replays,
        duplicate deals) with the button at ``button`` (default: the settings')."""
        config = self.config
        if (deck is not None or button is not None) and config.many_hands:
            raise InvalidConfig("deck and button are for one-hand episodes (hands=1)")
        self.hands_played = 0
        self.stacks = list(config.game.stacks)
        self.episode_over = False
        if config.many_hands:
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
            self.table = table
        else:
            self.table = None
        self._deal(rng, deck, button)

    def _deal(
        self, rng: random.Random, deck: Sequence[int] | None = None, button: int | None = None
    ) -> None:
        table = self.table
        n = self.config.players
        if table is None:
            if button is None:
                button = self.config.button
            if button is None:
                button = int(rng.random() * n)
            elif isinstance(button, bool) or not isinstance(button, int) or not 0 <= button < n:
                raise InvalidConfig(f"button: {button!r} is not a seat 0..{n - 1}", field="button")
            if deck is None:
                self.hand = Hand(self._configs[button], rng=rng)
            else:
                self.hand = Hand(self._configs[button], deck=list(deck))
        else:
            table.start_hand()
            hand = table.hand
            assert hand is not None
            self.hand = hand
            dealt = table.dealt
            self.seat_of = dealt
            index_of = [-1] * n
            for i, s in enumerate(dealt):
                index_of[s] = i
            self.index_of = index_of
        self.history = []
        self._after_change()

    def _after_change(self) -> None:
        actor = self.hand.actor
        self.actor = None if actor is None else self.seat_of[actor]

    # decisions

    def legal(self) -> tuple[str | None, LegalActions | None, int]:
        """The decision, options and pot of the seat to act."""
        view = self.hand.actor_view()
        if view is None:
            return None, None, self.hand.pot
        return view[0], view[1], view[4]

    def step(self, action: int, rng: random.Random) -> bool:
        """Applies action number ``action`` of the seat to act; True if it ended a hand
        (:attr:`payoffs` and :attr:`phh` are that hand's; the next hand, if the episode
        goes on, is dealt at once)."""
        view = self.hand.actor_view()
        if view is None:
            raise IllegalAction("the episode is over: reset it", action=action)
        decision, legal, _, _, pot, _ = view
        kind, amount = self.codec.decode(action, decision, legal, pot)
        if kind == "call":
            kind = "call" if legal.call_amount else "check"
        elif kind == "raise":
            kind = "bet" if legal.is_bet else "raise"
        return self._play(legal, kind, amount, rng)

    def decide(self, action: str, amount: int | None, rng: random.Random) -> bool:
        """Applies a decision as the game takes it (``fold``, ``check``, ``call``,
        ``bet``, ``raise``, ``all_in`` with the total, or ``point`` with the index: what
        the library's bots answer); the rules refuse what is not legal. True if it ended
        a hand, as :meth:`step`."""
        legal = self.hand.legal_actions()
        if legal is None:
            raise IllegalAction("the episode is over: reset it", action=action)
        if action == "all_in" and amount is None and legal.decision == "bet":
            if legal.stack > 0 and legal.call_amount == legal.stack:
                action = "call"
            elif legal.max_raise_to == legal.all_in_to:
                action, amount = ("bet" if legal.is_bet else "raise"), legal.all_in_to
        return self._play(legal, str(action), amount, rng)

    def _play(self, legal: LegalActions, kind: str, amount: int | None, rng: random.Random) -> bool:
        index = legal.seat
        table = self.table
        if kind == "point":
            if table is None:
                self.hand.choose_point(index, amount)  # type: ignore[arg-type]
            else:
                table.choose_point(self.seat_of[index], amount)  # type: ignore[arg-type]
        else:
            street = STREET_INDEX[self.hand.street]
            if table is None:
                self.hand.act(kind, amount)
            else:
                table.act(self.seat_of[index], kind, amount)
            if kind == "call":
                chips = legal.call_amount
                self._record(index, 2, street, chips, legal.bet + chips)
            elif kind == "bet" or kind == "raise":
                assert amount is not None
                self._record(index, KINDS[kind], street, amount - legal.bet, amount)
            else:
                self._record(index, KINDS[kind], street, 0, legal.bet)
        self._after_change()
        if self.actor is not None:
            return False
        self._end_hand(rng)
        return True

    def _record(self, index: int, kind: int, street: int, chips: int, after: int) -> None:
        """Notes a betting action for the observations' window of past actions."""
        rows = self.config.history
        if not rows:
            return
        features = [0.0] * 11
        features[kind] = 1.0
        features[5 + street] = 1.0
        bb = self.config.big_blind
        features[9] = chips / bb
        features[10] = after / bb
        history = self.history
        history.append((self.seat_of[index], _REST.pack(*features)))
        if len(history) > rows:
            del history[0]

    def _end_hand(self, rng: random.Random) -> None:
        """Settles the hand that just ended and, if the episode goes on, deals the next
        one; a hand dealt with no decision to make (every player all-in from the blinds
        and antes) is settled too, and so on until a seat must decide."""
        config = self.config
        payoffs = [0] * config.players
        stacks = self.stacks
        texts = []
        while True:
            hand = self.hand
            seat_of = self.seat_of
            for i, (now, before) in enumerate(zip(hand.stacks, hand.config.stacks)):
                seat = seat_of[i]
                payoffs[seat] += now - before
                stacks[seat] = now
            self.hands_played += 1
            if config.phh:
                texts.append(dumps(hand))
            alive = sum(1 for s in stacks if s > 0)
            if (
                not config.many_hands
                or alive < 2
                or (config.hands is not None and self.hands_played >= config.hands)
            ):
                self.episode_over = True
                break
            self._deal(rng)
            if self.actor is not None:
                break
        self.payoffs = payoffs
        self.phh = texts[0] if texts else None
        self.later_phh = texts[1:]

    # what a seat may know

    def bot_observation(self, seat: int) -> Observation:
        """What the seat to act knows, as the library's bots take it."""
        view = self.hand.actor_view()
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


def _config_fields(config: GameConfig) -> dict[str, Any]:
    return {**config.rules(), "stacks": config.stacks}
