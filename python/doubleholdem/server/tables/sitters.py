"""Who sits in each human seat of a table and who each player that left it was, so
that another person taking a name does not owe the blinds the one who left under it
missed (TH-37; the same person sitting down again does)."""

from __future__ import annotations

from typing import Any

__all__ = ["MAX_DEPARTED", "Sitters"]

MAX_DEPARTED = 1000  # who left each table under each name: at most this many remembered


class Sitters:
    """The people of a table's human seats, each known by its
    :attr:`Connection.identity <doubleholdem.server.tables.connection.Connection.identity>`.

    >>> sitters = Sitters()
    >>> sitters.seated(2, "ann", "person-1")
    >>> sitters.gone([None, None, None])  # ann left seat 2
    >>> sitters.stranger("ann", "person-2"), sitters.stranger("ann", "person-1")
    (True, False)
    """

    def __init__(self) -> None:
        self.seats: dict[int, tuple[str, str]] = {}  # seat -> (player, identity)
        self.departed: dict[str, str] = {}  # player -> identity, the oldest first

    def copy(self) -> Sitters:
        """A copy (kept to put back if a commit fails)."""
        kept = Sitters()
        kept.seats, kept.departed = dict(self.seats), dict(self.departed)
        return kept

    def gone(self, seats: list[dict[str, Any] | None]) -> None:
        """Notes who left each seat whose occupant (``seats``: the table's) is no
        longer the one who sat there."""
        for seat, (player, identity) in list(self.seats.items()):
            occupant = seats[seat]
            if occupant is None or occupant["player"] != player:
                del self.seats[seat]
                self.departed[player] = identity

    def stranger(self, player: str, identity: str) -> bool:
        """True if someone other than the person ``identity`` left this table as
        ``player``: sitting down under that name, this person owes none of the blinds
        that one missed (TH-37; the same person sitting down again does; a name whose
        leaving this room did not see, as before a restart, keeps the table's rule)."""
        left = self.departed.get(player)
        return left is not None and left != identity

    def seated(self, seat: int, player: str, identity: str) -> None:
        """The person ``identity`` sat down in ``seat`` as ``player``."""
        self.departed.pop(player, None)
        self.seats[seat] = (player, identity)
        while len(self.departed) > MAX_DEPARTED:  # the oldest go first
            del self.departed[next(iter(self.departed))]

    def identity(self, seat: int, player: str, identity: str) -> str:
        """Who sits in human ``seat`` as ``player``: the person who sat down, whom a
        connection resuming the seat stands for (``identity``: that connection's own,
        which the seat takes if it does not know its sitter, as after a restart)."""
        return self.seats.setdefault(seat, (player, identity))[1]
