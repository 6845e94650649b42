"""The observation of one seat (:class:`Encoder`): a flat float32 vector of a fixed shape,
written straight into a given array, with nothing the seat may not see."""

from __future__ import annotations

from sys import getrefcount
from typing import Any, Protocol

import numpy as np

from doubleholdem.game import Hand, LegalActions
from doubleholdem.game.betting import CALL_AMOUNT_AT, CAN_FOLD_AT, MAX_RAISE_TO_AT, MIN_RAISE_TO_AT
from doubleholdem.game.words import POINT
from doubleholdem.rl.actions import ActionCodec
from doubleholdem.rl.config import EnvConfig
from doubleholdem.rl.layout import (
    CARDS,
    FLOAT_BYTES,
    HAND_OVER,
    LEGAL_FEATURES,
    LEGAL_ROW,
    POINT_DECISION,
    SEAT_FEATURES,
    TO_ACT,
    Layout,
)
from doubleholdem.rl.rows import SEAT_BYTES, PublicRows


class Game(Protocol):
    """What the encoder reads of the episode being played
    (:class:`doubleholdem.rl.episode.Game`)."""

    config: EnvConfig
    hand: Hand
    actor: int | None  # the seat to act
    seat_of: list[int]  # hand index -> seat
    index_of: list[int]  # seat -> hand index, -1: not dealt in
    public: PublicRows  # the seats' rows and the past actions, kept up to date
    actor_view: Any  # the hand's actor_view, read once per decision


__all__ = ["Encoder"]


class Encoder:
    """The observation of one seat: a flat float32 vector, the same shape at every step
    (:meth:`describe` lists its blocks). Seats are numbered relative to the observer:
    0 is the observer, 1 the next seat clockwise, and so on. Chips are in big blinds.
    Nothing in it is hidden from the observer by the rules: its own hole and point
    cards, the board, hands that were shown, point cards shown or revealed (DH-8), the
    public chips and the public actions.
    """

    SEAT_FEATURES = SEAT_FEATURES
    LEGAL_FEATURES = LEGAL_FEATURES

    def __init__(self, config: EnvConfig, codec: ActionCodec) -> None:
        n = self.players = config.players
        self.double = config.double
        self.bb = float(config.big_blind)
        self.history = config.history
        self.codec = codec
        layout = self.layout = Layout(
            n, self.double, self.history, None if codec.exact else codec.size
        )
        self.row = layout.past.size  # one past action
        self.blocks = [(block.name, block.size, block.meaning) for block in layout.blocks]
        self.offsets = layout.offsets
        self.size = layout.size
        self.high = max(1.0, sum(config.game.stacks) / config.big_blind)
        self._features = layout.seat_row
        # the layout's offsets kept on the encoder: read at every observation
        self._board, self._street, self._pot = layout.board, layout.street, layout.pot
        self._position, self._seats = layout.position, layout.seats
        self._decision, self._legal_at, self._mask = layout.decision, layout.legal, layout.mask
        self._shown, self._point, self._shown_points = (
            layout.shown, layout.point, layout.shown_points
        )  # fmt: skip
        self._history = layout.history
        self._reveal = config.reveal_point
        self._ended: tuple[Hand | None, int] = (None, 0)  # a hand over and its pot
        self._slab = _Slab(self.size, codec.size)
        self._spare = _Slab(self.size, codec.size)  # the slab before (:meth:`_next_slab`)

    def describe(self) -> list[tuple[str, int, int, str]]:
        """The blocks of the observation: (name, first index, size, meaning)."""
        return self.layout.describe()

    def observation(self, game: Game, seat: int) -> dict[str, np.ndarray]:
        """Seat ``seat``'s observation in new arrays, as the environments give it: a dict
        with ``observation`` (float32) and ``action_mask`` (int8), the agent's own (no
        later step writes into them)."""
        slab = self._slab
        slot = slab.taken
        if slot == _SLOTS:
            slab = self._next_slab()
            slot = 0
        slab.taken = slot + 1
        self.write(game, seat, slab.o, slab.raw, slot * self.size, slab.mask, slot * slab.count)
        return slab.handed[slot]

    def _next_slab(self) -> _Slab:
        """The slab to hand observations out of when the one in use is full: the one
        before it, zeroed, if nothing outside holds any of its arrays any more (the
        usual loop drops each observation at the next step), else a new one."""
        spare, self._spare = self._spare, self._slab
        if not spare.recycled():
            spare = _Slab(self.size, self.codec.size)
        self._slab = spare
        return spare

    def encode(self, game: Game, seat: int, out: Any, mask: Any) -> None:
        """Writes seat ``seat``'s observation into the zeroed float32 array ``out`` and
        its legal-action mask into the zeroed int8 array ``mask``."""
        o: Any = memoryview(out)
        self.write(game, seat, o, o.cast("B"), 0, memoryview(mask), 0)

    def write(
        self, game: Game, seat: int, o: Any, raw: Any, at: int, mask: Any, mask_at: int
    ) -> None:
        """:meth:`encode` into memoryviews of many observations: ``o`` of float32 (and
        ``raw``, the same memory as bytes) from index ``at``, ``mask`` of int8 from index
        ``mask_at``, all zeroed there."""
        hand = game.hand
        n = self.players
        actor = game.actor
        public = game.public
        if actor == seat:
            decision, legal, hole, board, pot, _ = game.actor_view
            self.write_legal(o, raw, at, decision, legal, pot, mask, mask_at)
        else:
            holes, board, _, _ = hand.card_lists()
            index = game.index_of[seat]  # the seat's index in the hand, -1: not dealt in
            hole = holes[index] if index >= 0 else ()
            if actor is None:  # the hand is over: its pot, read once for every seat
                ended = self._ended
                if ended[0] is not hand:
                    ended = self._ended = (hand, hand.pot)
                pot = ended[1]
            else:
                pot = hand.pot
        for card in hole:
            o[at + card] = 1.0
        base = at + self._board
        for card in board:
            o[base + card] = 1.0
        o[at + self._street + (public.street if actor is not None else HAND_OVER)] = 1.0
        o[at + self._pot] = pot / self.bb
        o[at + self._position + (seat - public.button) % n] = 1.0
        # the seats, relative to the observer: the kept rows turned to start at it
        rows = public.seats
        start = (at + self._seats) * FLOAT_BYTES
        if seat:
            middle = start + (n - seat) * SEAT_BYTES
            raw[start:middle] = rows[seat * SEAT_BYTES :]
            raw[middle : start + n * SEAT_BYTES] = rows[: seat * SEAT_BYTES]
        else:  # seat 0's rows as they are kept
            raw[start : start + n * SEAT_BYTES] = rows
        if actor is not None:
            o[at + self._seats + (actor - seat) % n * self._features + TO_ACT] = 1.0
        if public.cards_seen:
            self.write_cards_seen(o, at, game, seat)
        view = public.views[seat]
        if view:
            start = (at + self._history) * FLOAT_BYTES
            raw[start : start + len(view)] = view

    def write_legal(
        self,
        o: Any,
        raw: Any,
        at: int,
        decision: str,
        legal: LegalActions,
        pot: int,
        mask: Any,
        mask_at: int,
    ) -> None:
        """The decision, legal and mask blocks of the seat to act."""
        codec = self.codec
        if decision == POINT:
            o[at + self._decision + POINT_DECISION] = 1.0
            codec.fill(mask, decision, legal, pot, mask_at)
            if not codec.exact:
                size = codec.size
                start = (at + self._mask) * FLOAT_BYTES
                ints = mask[mask_at : mask_at + size].tobytes()
                raw[start : start + size * FLOAT_BYTES] = _FLOATS[ints]
            return
        o[at + self._decision] = 1.0
        can_fold, call = legal[CAN_FOLD_AT], legal[CALL_AMOUNT_AT]
        low, high = legal[MIN_RAISE_TO_AT], legal[MAX_RAISE_TO_AT]
        bb = self.bb
        if low is None:
            block = LEGAL_ROW.pack(
                1.0 if can_fold else 0.0, 0.0 if call else 1.0, 1.0 if call else 0.0, call / bb,
                0.0, 0.0, 0.0,
            )  # fmt: skip
        else:
            block = LEGAL_ROW.pack(
                1.0 if can_fold else 0.0, 0.0 if call else 1.0, 1.0 if call else 0.0, call / bb,
                1.0, low / bb, high / bb,  # type: ignore[operator]
            )  # fmt: skip
        start = (at + self._legal_at) * FLOAT_BYTES
        if codec.exact:
            raw[start : start + LEGAL_ROW.size] = block
            codec.fill(mask, decision, legal, pot, mask_at)
        else:  # the mask block follows the legal block
            ints, floats = codec.mask_bytes(legal, pot)
            mask[mask_at : mask_at + codec.size] = ints
            raw[start : start + LEGAL_ROW.size + len(floats)] = block + floats

    def write_cards_seen(self, o: Any, at: int, game: Game, seat: int) -> None:
        """Hole cards shown (TH-22) and point cards the seat may see (DH-5, DH-8): its
        own point card, and the others' only once shown (or revealed, DH-8)."""
        holes, _, shown, points = game.hand.card_lists()
        index = game.index_of[seat]
        if index >= 0:
            point = points[index]
            if point is not None:
                o[at + self._point + holes[index][point]] = 1.0
        reveal = self._reveal
        if not reveal and True not in shown:
            return
        n = self.players
        for i, s in enumerate(game.seat_of):
            k = (s - seat) % n
            if not k:
                continue
            if shown[i]:
                base = at + self._shown + (k - 1) * CARDS
                for card in holes[i]:
                    o[base + card] = 1.0
            point = points[i]
            if point is not None and (reveal or shown[i]):
                o[at + self._shown_points + (k - 1) * CARDS + holes[i][point]] = 1.0


_SLOTS = 32  # observations cut from one slab (:class:`_Slab`)


class _Slab:
    """Zeroed room for :data:`_SLOTS` observations and their masks, from which
    :meth:`Encoder.observation` hands out each one's arrays in turn: a slice of an array
    made before costs about 1,700 instructions (a row of a 2-d array cut with the
    others, about 1,100), a new array (a copy, ``np.zeros``, ``np.frombuffer``) 2,300
    to 3,500 and the memoryview to write into it 2,000 more.
    Each slot is written once, before its arrays are handed out, so they stay their
    holder's own; a slab lives as long as any of its arrays is held."""

    def __init__(self, size: int, count: int) -> None:
        slots = _SLOTS
        self.observations = np.zeros(slots * size, np.float32)
        self.masks = np.zeros(slots * count, np.int8)
        self.count = count
        # each slot's arrays, cut all at once (a row of a 2-d array costs less than a
        # slice), in the dict handed out
        self.handed: list[dict[str, np.ndarray]] = [
            {"observation": observation, "action_mask": mask}
            for observation, mask in zip(
                self.observations.reshape(slots, size), self.masks.reshape(slots, count)
            )
        ]
        self.o: Any = memoryview(self.observations)  # type: ignore[arg-type]
        self.raw = self.o.cast("B")
        self.mask: Any = memoryview(self.masks)  # type: ignore[arg-type]
        self.taken = 0  # slots written
        # what may be held outside (the dicts, the arrays in them, any view of the
        # memory holds its base), and their reference counts when none is
        self._held = [*self.handed, *self.observations_rows(), self.observations, self.masks]
        self._free = sum(map(getrefcount, self._held))

    def observations_rows(self) -> list[np.ndarray]:
        """Every array handed out: each slot's observation and mask."""
        return [array for handed in self.handed for array in handed.values()]

    def recycled(self) -> bool:
        """True if nothing outside holds anything of this slab (no reference to any of
        its dicts or arrays, nor any view of its memory): then it is zeroed and every
        slot may be written and handed out again."""
        if sum(map(getrefcount, self._held)) != self._free:
            return False
        self.observations.fill(0)
        self.masks.fill(0)
        self.taken = 0
        return True


class _Floats(dict[bytes, bytes]):
    """The float32 bytes of an int8 mask, made once per mask seen."""

    def __missing__(self, key: bytes) -> bytes:
        value = np.frombuffer(key, np.int8).astype(np.float32).tobytes()
        self[key] = value
        return value


_FLOATS = _Floats()
