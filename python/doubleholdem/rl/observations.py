"""The observation of one seat (:class:`Encoder`): a flat float32 vector of a fixed shape,
written straight into a given array, with nothing the seat may not see."""

from __future__ import annotations

import struct
from typing import Any, Protocol

import numpy as np

from doubleholdem.game import Hand, LegalActions
from doubleholdem.game.words import POINT
from doubleholdem.rl.actions import ActionCodec
from doubleholdem.rl.config import EnvConfig


class Game(Protocol):
    """What the encoder reads of the episode being played
    (:class:`doubleholdem.rl.episode.Game`)."""

    config: EnvConfig
    hand: Hand
    actor: int | None  # the seat to act
    seat_of: list[int]  # hand index -> seat
    index_of: list[int]  # seat -> hand index, -1: not dealt in
    history: list[tuple[int, bytes]]  # the seat and packed features of past actions


__all__ = ["KINDS", "STREET_INDEX", "Encoder", "pack_past_action"]

_PAST = struct.Struct("=11f")  # a past action's features after its seat
_PAST_BYTES = _PAST.size
STREET_INDEX = {"preflop": 0, "flop": 1, "turn": 2, "river": 3, "showdown": 4}
KINDS = {"fold": 0, "check": 1, "call": 2, "bet": 3, "raise": 4}


def pack_past_action(kind: int, street: int, chips: float, after: float) -> bytes:
    """The history row of a past action after its seat, as float32 bytes: the action's
    kind (fold, check, call, bet, raise), street, chips put in and wager after it."""
    features = [0.0] * 11
    features[kind] = 1.0
    features[5 + street] = 1.0
    features[9] = chips
    features[10] = after
    return _PAST.pack(*features)


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
                raw[start : start + _PAST_BYTES] = features_bytes
                at += width

    def _legal(self, o: Any, decision: str, legal: LegalActions, pot: int, mask: Any) -> None:
        """The decision, legal and mask blocks of the seat to act."""
        if decision == POINT:
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
