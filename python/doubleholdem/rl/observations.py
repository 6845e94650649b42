"""The observation of one seat (:class:`Encoder`): a flat float32 vector of a fixed shape,
written straight into a given array, with nothing the seat may not see."""

from __future__ import annotations

import struct
from sys import getrefcount
from typing import Any, Protocol

import numpy as np

from doubleholdem.game import Hand, LegalActions
from doubleholdem.game.words import POINT
from doubleholdem.rl.actions import ActionCodec
from doubleholdem.rl.config import EnvConfig
from doubleholdem.rl.rows import SEAT_BYTES, SEAT_FEATURES, PublicRows


class Game(Protocol):
    """What the encoder reads of the episode being played
    (:class:`doubleholdem.rl.episode.Game`)."""

    config: EnvConfig
    hand: Hand
    actor: int | None  # the seat to act
    seat_of: list[int]  # hand index -> seat
    index_of: list[int]  # seat -> hand index, -1: not dealt in
    public: PublicRows  # the seats' rows and the past actions, kept up to date


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
        self._reveal = config.reveal_point
        self._ended: tuple[Hand | None, int] = (None, 0)  # a hand over and its pot
        self._slab = _Slab(self.size, codec.size)
        self._spare = _Slab(self.size, codec.size)  # the slab before (:meth:`_next_slab`)

    def describe(self) -> list[tuple[str, int, int, str]]:
        """The blocks of the observation: (name, first index, size, meaning)."""
        return [(name, self.offsets[name], size, text) for name, size, text in self.blocks]

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
            decision, legal, hole, board, pot, _ = hand.actor_view()  # type: ignore[misc]
            self._legal(o, raw, at, decision, legal, pot, mask, mask_at)
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
        o[at + self._street + (public.street if actor is not None else 4)] = 1.0
        o[at + self._pot] = pot / self.bb
        o[at + self._position + (seat - public.button) % n] = 1.0
        # the seats, relative to the observer: the kept rows turned to start at it
        rows = public.seats
        start = (at + self._seats) * 4
        if seat:
            middle = start + (n - seat) * SEAT_BYTES
            raw[start:middle] = rows[seat * SEAT_BYTES :]
            raw[middle : start + n * SEAT_BYTES] = rows[: seat * SEAT_BYTES]
        else:  # seat 0's rows as they are kept
            raw[start : start + n * SEAT_BYTES] = rows
        if actor is not None:
            o[at + self._seats + (actor - seat) % n * self._features + 3] = 1.0
        if public.cards_seen:
            self._cards_seen(o, at, game, seat)
        view = public.views[seat]
        if view:
            start = (at + self._history) * 4
            raw[start : start + len(view)] = view

    def _legal(
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
            o[at + self._decision + 1] = 1.0
            codec.fill(mask, decision, legal, pot, mask_at)
            if not codec.exact:
                size = codec.size
                start = (at + self._mask) * 4
                raw[start : start + size * 4] = _FLOATS[mask[mask_at : mask_at + size].tobytes()]
            return
        o[at + self._decision] = 1.0
        can_fold, call, low, high = (
            legal.can_fold,
            legal.call_amount,
            legal.min_raise_to,
            legal.max_raise_to,
        )
        bb = self.bb
        if low is None:
            block = _LEGAL.pack(
                1.0 if can_fold else 0.0, 0.0 if call else 1.0, 1.0 if call else 0.0, call / bb,
                0.0, 0.0, 0.0,
            )  # fmt: skip
        else:
            block = _LEGAL.pack(
                1.0 if can_fold else 0.0, 0.0 if call else 1.0, 1.0 if call else 0.0, call / bb,
                1.0, low / bb, high / bb,  # type: ignore[operator]
            )  # fmt: skip
        start = (at + self._legal_at) * 4
        if codec.exact:
            raw[start : start + _LEGAL.size] = block
            codec.fill(mask, decision, legal, pot, mask_at)
        else:  # the mask block follows the legal block
            ints, floats = codec.mask_bytes(legal, pot)
            mask[mask_at : mask_at + codec.size] = ints
            raw[start : start + _LEGAL.size + len(floats)] = block + floats

    def _cards_seen(self, o: Any, at: int, game: Game, seat: int) -> None:
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
                base = at + self._shown + (k - 1) * 52
                for card in holes[i]:
                    o[base + card] = 1.0
            point = points[i]
            if point is not None and (reveal or shown[i]):
                o[at + self._shown_points + (k - 1) * 52 + holes[i][point]] = 1.0


_LEGAL = struct.Struct(f"={len(Encoder.LEGAL_FEATURES)}f")  # the legal block
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
