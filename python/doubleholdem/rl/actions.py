"""Action numbers to decisions, and the legal-action mask (:class:`ActionCodec`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from doubleholdem.errors import IllegalAction, InvalidConfig
from doubleholdem.game import LegalActions
from doubleholdem.game.betting import pot_fraction_to
from doubleholdem.game.words import POINT
from doubleholdem.rl.config import EnvConfig, raise_tokens

__all__ = ["CALL", "FOLD", "POINTS", "POINT_BASE", "ActionCodec"]

FOLD, CALL, POINT_BASE = 0, 1, 2
POINTS = 3  # the point cards to choose from (DH-5): action numbers POINT_BASE on
"""Action numbers: 0 folds, 1 checks or calls, 2..4 choose point card 0..2 (Double
Hold'em only); bets and raises follow (:attr:`ActionCodec.raise_base`)."""


class ActionCodec:
    """Action numbers to decisions, and the legal-action mask.

    The numbers: ``0`` fold, ``1`` check or call, in Double Hold'em ``2``, ``3``, ``4``
    choose point card 0, 1, 2 (in dealing order, DH-5), then from :attr:`raise_base` the
    bets and raises: with exact actions ``raise_base + to - 1`` bets or raises **to**
    ``to`` chips (any total in the legal range); with a discrete set, one number per
    size, clamped to the legal range (a size equal to an earlier one is masked out).
    """

    def __init__(self, config: EnvConfig) -> None:
        self.tokens = raise_tokens(config.actions)
        self.raise_base = POINT_BASE + (POINTS if config.double else 0)
        self.exact = self.tokens is None
        self.max_to = config.max_to
        self.size = self.raise_base + (self.max_to if self.tokens is None else len(self.tokens))
        self._sized: tuple[LegalActions | None, list[int | None], tuple[Any, bytes]] = (
            None,
            [],
            (memoryview(b""), b""),
        )
        # each discrete size as (0: the minimum, 1: a pot fraction, 2: all-in; fraction)
        self._sizes = [
            (0, 0.0) if token == "min" else (2, 0.0) if token == "all-in" else (1, float(token))
            for token in self.tokens or ()
        ]
        self._ones: Any = memoryview(np.ones(self.size, np.int8))  # type: ignore[arg-type]
        self._patterns = _Patterns(self.size)

    def raise_action(self, to: int) -> int:
        """The exact action number of a bet or raise to ``to`` chips."""
        if not self.exact:
            raise InvalidConfig("raise_action: only exact actions have a number per total")
        return self.raise_base + to - 1

    def amounts(self, legal: LegalActions, pot: int) -> list[int | None]:
        """The total of each discrete bet or raise now (``None``: not legal)."""
        return self._sized_now(legal, pot)[1]

    def mask_bytes(self, legal: LegalActions, pot: int) -> tuple[Any, bytes]:
        """A betting decision's legal-action mask with a discrete set of sizes, as an
        int8 memoryview and as float32 bytes (what the observation's mask block
        holds)."""
        _, _, mask = self._sized_now(legal, pot)
        return mask

    def _sized_now(
        self, legal: LegalActions, pot: int
    ) -> tuple[LegalActions | None, list[int | None], tuple[Any, bytes]]:
        """The discrete sizes of the decision ``legal`` and their mask, computed once a
        decision (the mask, the observation and the decoding ask for them)."""
        sized = self._sized
        if legal is not sized[0]:
            found, bits = self._amounts(legal, pot)
            if legal.can_fold:
                bits |= 1
            sized = self._sized = (legal, found, self._patterns[bits])
        return sized

    def _amounts(self, legal: LegalActions, pot: int) -> tuple[list[int | None], int]:
        """The discrete sizes' totals (``None``: not legal) and the mask's bits (bit
        ``j`` set: action number ``j`` legal) of a check or call and those sizes."""
        low, high = legal.min_raise_to, legal.max_raise_to
        if low is None or high is None:
            return [None] * len(self._sizes), 2
        found: list[int | None] = []
        bits, bit = 2, 1 << self.raise_base
        for code, fraction in self._sizes:
            to = low if code == 0 else high if code == 2 else pot_fraction_to(legal, pot, fraction)
            if to in found:  # a size equal to an earlier one
                found.append(None)
            else:
                found.append(to)
                bits |= bit
            bit <<= 1
        return found, bits

    def fill(
        self, mask: Any, decision: str | None, legal: LegalActions | None, pot: int, at: int = 0
    ) -> None:
        """Writes the legal-action mask of the seat to act (all zeros otherwise) into the
        zeroed int8 memoryview or array ``mask`` from index ``at``."""
        if legal is None or decision is None:
            return
        if decision == POINT:
            for point in range(at + POINT_BASE, at + POINT_BASE + POINTS):
                mask[point] = 1
            return
        if legal.can_fold:
            mask[at] = 1
        mask[at + 1] = 1  # a check or a call is always possible at a betting decision
        low = legal.min_raise_to
        if low is None:
            return
        base = at + self.raise_base
        if self.exact:
            high = legal.max_raise_to
            assert high is not None
            mask[base + low - 1 : base + high] = self._ones[: high - low + 1]
            return
        mask[at : at + self.size] = self.mask_bytes(legal, pot)[0]

    def decode(
        self, action: int, decision: str | None, legal: LegalActions | None, pot: int
    ) -> tuple[str, int | None]:
        """The decision of action number ``action``: ``(kind, amount)`` with ``kind`` one
        of ``fold``, ``call`` (a check or a call), ``raise`` (a bet or raise to
        ``amount``) and ``point`` (``amount`` the index); :class:`IllegalAction` names the
        legal options if the number is not legal now."""
        if legal is None or decision is None:
            raise IllegalAction("the hand is over: nobody may act", action=action)
        if decision == POINT:
            if POINT_BASE <= action < POINT_BASE + POINTS and self.raise_base > POINT_BASE:
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


class _Patterns(dict[int, tuple[Any, bytes]]):
    """A legal-action mask of ``size`` action numbers by its bits (bit ``j`` set: number
    ``j`` legal), as an int8 memoryview and as float32 bytes, made the first time it is seen
    (at most two to the number of discrete sizes plus two)."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def __missing__(self, bits: int) -> tuple[Any, bytes]:
        mask = np.array([(bits >> j) & 1 for j in range(self.size)], np.int8)
        ints = memoryview(mask.tobytes()).cast("b")
        value = self[bits] = (ints, mask.astype(np.float32).tobytes())
        return value
