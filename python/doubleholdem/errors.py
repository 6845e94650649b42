"""The exceptions of doubleholdem: one root, :class:`DoubleHoldemError`, and a typed
subclass for each kind of bad input. Each also derives from the built-in exception a
caller would expect (``ValueError``), and carries what was wrong as attributes."""

from __future__ import annotations


class DoubleHoldemError(Exception):
    """Root of every error this package raises on purpose."""


class InvalidCard(DoubleHoldemError, ValueError):
    """Text or a number that is not a card. ``card`` holds the offending input;
    ``row`` the row of a batch it was found in, if any."""

    def __init__(self, message: str, *, card: object = None, row: int | None = None) -> None:
        super().__init__(message)
        self.card = card
        self.row = row


class DuplicateCard(InvalidCard):
    """The same card twice where cards must be distinct."""


class InvalidHand(DoubleHoldemError, ValueError):
    """A wrong number of cards, a bad point index or a bad array shape."""

    def __init__(self, message: str, *, card: object = None, row: int | None = None) -> None:
        super().__init__(message)
        self.card = card
        self.row = row


class InvalidValue(DoubleHoldemError, ValueError):
    """A number that is not a hand value produced by the evaluator."""

    def __init__(self, message: str, *, card: object = None, row: int | None = None) -> None:
        super().__init__(message)
        self.row = row
