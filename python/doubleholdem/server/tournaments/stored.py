"""A room's tournament as stored: one row of the ``tournaments`` table holding its spec,
its status, the library's snapshot (:meth:`Tournament.to_json
<doubleholdem.tournament.Tournament.to_json>`, every table's with it) and what the room
keeps beside it (the sales paid, the bots, the prizes paid, the moves, a deal offered).
The row is written in the same transaction as the ledger entries of its change, so that
after a ``kill -9`` the tournament and its money are where that transaction left them.

The audit holds each tournament's pool in the ledger against its row
(:func:`~doubleholdem.server.storage.tournament_rows.pool_problems`)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from doubleholdem.database.connection import Connection
from doubleholdem.errors import DoubleHoldemError, InvalidSnapshot
from doubleholdem.server.storage.tournament_rows import OVER, put, rows
from doubleholdem.server.tournaments.payments import Sale
from doubleholdem.server.tournaments.spec import TournamentSpec, spec_from_dict
from doubleholdem.tournament import Tournament

__all__ = [
    "CANCELLED",
    "FINISHED",
    "OVER",
    "REGISTERING",
    "RUNNING",
    "Stored",
    "load_all",
    "put",
]

REGISTERING, RUNNING, FINISHED, CANCELLED = "registering", "running", "finished", "cancelled"
MOVES_KEPT = 50  # the last moves between tables a tournament shows


@dataclass
class Stored:
    """What the room keeps of tournament ``id`` besides the library's snapshot:
    ``status``; ``sales`` made so far (each sale's number is its place in this count);
    ``open_sales``: player -> the sales a refund would give back (its registration,
    before the start); ``bots``: bot entrant -> its kind; ``paid``: entry -> prize paid
    (once over); ``moves``: the last moves between tables (TRN-13, TRN-14), each a dict;
    ``deal``: the final-table deal offered (docs/tournaments.md, "A deal"), or ``None``;
    ``cancelling``: the room cancels it once no hand is in play; ``ended_by``: how it
    ended (``play``, ``deal``, ``cancelled``)."""

    id: int
    spec: TournamentSpec
    status: str = REGISTERING
    sales: int = 0
    open_sales: dict[str, list[Sale]] = field(default_factory=dict)
    bots: dict[str, str] = field(default_factory=dict)
    paid: dict[int, int] = field(default_factory=dict)
    moves: list[dict[str, Any]] = field(default_factory=list)
    deal: dict[str, Any] | None = None
    cancelling: bool = False
    ended_by: str | None = None

    def sale(self, player: str, price: int, fee: int, what: str) -> Sale:
        """The next sale to ``player``."""
        self.sales += 1
        return Sale(self.sales - 1, player, price, fee, what)

    def to_text(self, tournament: Tournament, key: bytes | None) -> str:
        """The row's text, with ``tournament``'s snapshot."""
        return json.dumps(
            {
                "spec": self.spec.to_dict(),
                "status": self.status,
                "sales": self.sales,
                "open_sales": {p: [list(s) for s in sold] for p, sold in self.open_sales.items()},
                "bots": self.bots,
                "paid": {str(e): amount for e, amount in self.paid.items()},
                "moves": self.moves[-MOVES_KEPT:],
                "deal": self.deal,
                "cancelling": self.cancelling,
                "ended_by": self.ended_by,
                "tournament": tournament.to_json(key),
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_text(
        cls, tournament_id: int, text: str, key: bytes | None
    ) -> tuple[Stored, Tournament]:
        """The stored state and the tournament of a row (:class:`InvalidSnapshot` if it
        is not one)."""
        try:
            data = json.loads(text)
            stored = cls(
                tournament_id,
                spec_from_dict(data["spec"]),
                data["status"],
                data["sales"],
                {p: [Sale(*s) for s in sold] for p, sold in data["open_sales"].items()},
                dict(data["bots"]),
                {int(e): amount for e, amount in data["paid"].items()},
                list(data["moves"]),
                data["deal"],
                data["cancelling"],
                data["ended_by"],
            )
            return stored, Tournament.from_json(data["tournament"], key)
        except DoubleHoldemError as error:
            raise InvalidSnapshot(f"tournament {tournament_id + 1}: {error}") from None
        except (ValueError, KeyError, TypeError) as error:
            raise InvalidSnapshot(f"tournament {tournament_id + 1}: not a stored tournament "
                                  f"({type(error).__name__}: {error})") from None  # fmt: skip


def load_all(db: Connection, key: bytes | None) -> list[tuple[Stored, Tournament]]:
    """Every stored tournament (:class:`InvalidSnapshot` for one that cannot be read)."""
    return [Stored.from_text(i, text, key) for i, text in rows(db)]
