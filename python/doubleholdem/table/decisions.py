"""The seat's side of a table: the :class:`Decision` a seat sends and the
:class:`Observation` it decides from (its own cards and the public state, nothing else).
Bots and remote players use these, on either side of a connection."""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

from doubleholdem.errors import TableError
from doubleholdem.game.betting import LegalActions
from doubleholdem.game.config import Variant
from doubleholdem.game.words import BET, POINT
from doubleholdem.wording import Wording, seat_said

__all__ = ["BET", "POINT", "Chooser", "Decision", "Observation"]  # the words, for the table's parts


class Decision(NamedTuple):
    """A seat's answer: a betting ``action`` (``fold``, ``check``, ``call``, ``bet``,
    ``raise``, ``all_in``) with ``amount`` the total to bet or raise to, or
    ``("point", index)`` for a Double Hold'em point card (DH-5)."""

    action: str
    amount: int | None = None


class Observation(NamedTuple):
    """What one seat knows when it must decide: its own cards and the public state,
    nothing else. Bots decide from this; :meth:`from_view` builds it from the JSON view
    a remote player receives, so a bot can sit on either side of a connection."""

    seat: int
    decision: str
    legal: LegalActions
    hole: tuple[int, ...]
    board: tuple[int, ...]
    pot: int
    big_blind: int
    opponents: int
    variant: Variant

    @classmethod
    def from_view(cls, view: dict[str, Any]) -> Observation:
        """The observation inside :meth:`Table.view` of the seat to act; a
        :class:`TableError` names what is missing or wrong in something else."""
        try:
            return cls._from_view(view)
        except TableError:
            raise
        except KeyError as error:
            raise TableError(f"not a table view: it has no {error.args[0]!r} field") from None
        except (TypeError, AttributeError, ValueError, IndexError) as error:
            raise TableError(f"not a table view: {error}") from None

    @classmethod
    def _from_view(cls, view: dict[str, Any]) -> Observation:
        from doubleholdem.cards import parse_card

        hand = view["hand"]
        if hand is None or hand["legal"] is None:
            raise TableError(
                Wording(seat_said(view["seat"]), " has no decision to make"), seat=view["seat"]
            )
        legal = dict(hand["legal"])
        legal["points"] = tuple(legal["points"])
        seat = legal.pop("seat")
        legal.pop("presets", None)  # the page's bet sizes, made from the rest
        in_hand = hand["in_hand"]
        return cls(
            seat=seat,
            decision=hand["decision"],
            legal=LegalActions(seat, **legal),
            hole=tuple(parse_card(c) for c in hand["hole"]),
            board=tuple(parse_card(c) for c in hand["board"]),
            pot=hand["pot"],
            big_blind=view["big_blind"],
            opponents=sum(1 for s, alive in in_hand.items() if alive and int(s) != seat),
            variant=Variant(view["variant"]),
        )


class Chooser(Protocol):
    """Anything that answers a seat's :class:`Observation` with its :class:`Decision`:
    the bots of :mod:`doubleholdem.table.bots` (:meth:`Table.play_out
    <doubleholdem.table.table.Table.play_out>` asks them)."""

    def choose(self, observation: Observation) -> Decision:
        """The decision for the seat's turn."""
        ...
