"""Why a decision is refused: a decision checked against the :class:`LegalActions` of
the seat to act (RULES.md TH-4, TH-10 to TH-17, DH-2, DH-5), and the
:class:`~doubleholdem.errors.IllegalAction` that says what was wrong and carries the
legal options. A :class:`~doubleholdem.game.Hand` calls these only when a decision is not
plainly legal, so the common decision costs nothing here.

>>> from doubleholdem.game.betting import point_choice
>>> legal = point_choice(seat=1, bet=0, stack=100)
>>> point_index((48, 49, 51), legal, "As")
2
>>> try:
...     point_index((48, 49, 51), legal, 3)
... except IllegalAction as error:
...     print(error)
seat 1 cannot choose point 3: give 0, 1, 2, auto or one of Ac Ad As
"""

from __future__ import annotations

from doubleholdem.errors import IllegalAction
from doubleholdem.game.betting import Action, LegalActions
from doubleholdem.game.words import POINT
from doubleholdem.point_card import point_error
from doubleholdem.point_card import point_index as index_of
from doubleholdem.wording import Wording, not_a_seat, seat_said

__all__ = [
    "all_in_as",
    "amount_field",
    "as_action",
    "check_plain",
    "check_raise",
    "check_seat",
    "expect",
    "point_index",
    "raise_range_text",
    "refusal",
    "require",
    "turn_text",
]


def amount_field(amount: object) -> int | None:
    """``amount`` for the ``amount`` field of a refusal: a whole number, else ``None``."""
    return amount if isinstance(amount, int) and not isinstance(amount, bool) else None


def refusal(legal: LegalActions, reason: str, action: object, amount: object) -> IllegalAction:
    """The refusal of what the seat to act tried, ``"seat {seat} {reason}"``; its
    ``reason`` field lets a table say it with its own seat number."""
    return _illegal(Wording(seat_said(legal.seat), " ", reason), legal, action, amount, reason)


def _illegal(
    message: str, legal: LegalActions, action: object, amount: object, reason: str | None
) -> IllegalAction:
    """The :class:`IllegalAction` of ``action`` for the seat of ``legal``."""
    return IllegalAction(
        message,
        seat=legal.seat,
        action=action,
        amount=amount_field(amount),
        legal=legal,
        reason=reason,
    )


def require(
    ok: bool, reason: str, legal: LegalActions, kind: Action, amount: object = None
) -> None:
    """Refuses ``kind`` for ``reason`` unless ``ok``."""
    if not ok:
        raise refusal(legal, f"cannot {kind.value}: {reason}", kind, amount)


def as_action(action: object, legal: LegalActions, amount: object) -> Action:
    """The :class:`Action` that ``action`` names; refused if it names none."""
    try:
        return Action(action)
    except ValueError:
        names = ", ".join(a.value for a in Action)
        message = f"{action!r} is not an action (one of {names})"
        raise _illegal(message, legal, action, amount, None) from None


def expect(
    legal: LegalActions | None, decision: str, seat: int | None, action: object, amount: object
) -> LegalActions:
    """``legal``, the options of the seat to act, if ``seat`` (``None``: whoever is to
    act) may take a ``decision`` (``"bet"`` or ``"point"``) now; else the refusal of
    ``action`` with ``amount``: the hand is over, it is another seat's turn, or the seat
    must first take the other decision (DH-5)."""
    if legal is None:
        raise IllegalAction(
            "the hand is over", seat=seat, action=action, amount=amount_field(amount)
        )
    if seat is not None and seat != legal.seat:
        raise IllegalAction(
            Wording(seat_said(seat), " cannot act: it is ", turn_text(legal.seat, legal.decision)),
            seat=seat,
            action=action,
            amount=amount_field(amount),
            legal=legal,
        )
    if legal.decision != decision:
        wanted = "choose a point card" if legal.decision == POINT else "act on the betting"
        raise refusal(legal, f"must first {wanted}", action, amount)
    return legal


def check_plain(legal: LegalActions, kind: Action, amount: object) -> None:
    """Refuses a fold, check or call (``kind``) that is not allowed now, or given an
    ``amount`` it does not take (TH-4)."""
    if kind is Action.FOLD:
        require(legal.can_fold, "there is nothing to call: check instead", legal, kind)
        require(amount is None, "a fold takes no amount", legal, kind, amount)
    elif kind is Action.CHECK:
        require(legal.can_check, "facing a wager: fold, call or raise", legal, kind)
        require(amount is None, "a check takes no amount", legal, kind, amount)
    else:
        require(legal.can_call, "there is nothing to call: check instead", legal, kind)
        chips = legal.call_amount
        require(amount is None or amount == chips, f"a call is {chips}", legal, kind, amount)


def raise_range_text(legal: LegalActions) -> str:
    """The bets and raises allowed now, said for a refusal."""
    if legal.min_raise_to is None:
        return "no bet or raise is allowed now"
    if legal.min_raise_to == legal.max_raise_to:
        return f"the only bet or raise is to {legal.min_raise_to}"
    return f"bets and raises go to {legal.min_raise_to}..{legal.max_raise_to}"


def check_raise(legal: LegalActions, kind: Action, amount: object) -> None:
    """Refuses a bet or raise that is not allowed, or not to a whole number of chips in
    the legal range."""
    require(legal.can_raise, raise_range_text(legal), legal, kind, amount)
    if isinstance(amount, bool) or not isinstance(amount, int):
        require(False, f"give the total to raise to, not {amount!r}", legal, kind)
    assert isinstance(amount, int)
    low, high = legal.min_raise_to, legal.max_raise_to
    assert low is not None and high is not None
    require(low <= amount <= high, raise_range_text(legal), legal, kind, amount)


def all_in_as(legal: LegalActions, amount: object) -> tuple[Action, int | None]:
    """An all-in (TH-4) as the call or the bet or raise it is, with its amount; refused
    if it is neither allowed nor given without an amount."""
    require(amount is None, "an all-in takes no amount", legal, Action.ALL_IN, amount)
    if legal.stack > 0 and legal.call_amount == legal.stack:
        return Action.CALL, None
    require(
        legal.max_raise_to == legal.all_in_to,
        raise_range_text(legal),
        legal,
        Action.ALL_IN,
    )
    return (Action.BET if legal.is_bet else Action.RAISE), legal.all_in_to


def point_index(hole: tuple[int, ...], legal: LegalActions, point: object) -> int:
    """The index in ``hole`` of the point card chosen (DH-2, DH-5): an index 0..2,
    ``"auto"`` (DH-6) or the card as text (:func:`doubleholdem.point_card.point_index`);
    refused if it is none of them."""
    index = index_of(hole, point)
    if index is None:
        raise refusal(legal, f"cannot choose {point_error(hole, point)}", POINT, None)
    return index


def check_seat(seat: object, players: int) -> None:
    """Refuses ``seat`` unless it is one of the seats ``0..players - 1``."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise IllegalAction(not_a_seat(seat, players), action=None)


def turn_text(actor: int | None, decision: str | None) -> str:
    """Whose turn it is, said for a refusal."""
    if actor is None:
        return "the end of the hand"
    what = "choose a point card" if decision == POINT else "act"
    return Wording(seat_said(actor, "turn"), f"'s turn to {what}")
