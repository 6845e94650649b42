"""The exceptions of doubleholdem: one root, :class:`DoubleHoldemError`, and a typed
subclass for each kind of bad input. Each also derives from the built-in exception a
caller would expect (``ValueError``), and carries what was wrong as attributes.

The server's own failures live beside the code that raises them (``ProtocolError`` in
:mod:`doubleholdem.server.protocol`, ``WalletFailed`` and ``WalletUnavailable`` in
:mod:`doubleholdem.server.money.wallet_gate`, ``DatabaseInUse`` in
:mod:`doubleholdem.server.storage.lock`, ``DatabaseNotEmpty`` in
:mod:`doubleholdem.server.storage.copy`, ``MoneyKindMismatch`` in
:mod:`doubleholdem.server.tables.money_kind`); their old names here still work for a release,
with a ``DeprecationWarning``."""

from __future__ import annotations

import importlib
import warnings


class DoubleHoldemError(Exception):
    """Root of every error this package raises on purpose."""


class InvalidInput(DoubleHoldemError, ValueError):
    """Bad cards or values given to the evaluator. ``card`` holds the offending input
    where one card is to blame; ``row`` the row of a batch it was found in, if any."""

    def __init__(self, message: str, *, card: object = None, row: int | None = None) -> None:
        super().__init__(message)
        self.card = card
        self.row = row


class InvalidCard(InvalidInput):
    """Text or a number that is not a card."""


class DuplicateCard(InvalidCard):
    """The same card twice where cards must be distinct."""


class InvalidHand(InvalidInput):
    """A wrong number of cards, a bad point index or a bad array shape."""


class InvalidValue(InvalidInput):
    """A number that is not a hand value produced by the evaluator."""


class InvalidArgument(DoubleHoldemError, ValueError):
    """An argument outside its legal range; the message names the value and the range,
    ``value`` holds what was given."""

    def __init__(self, message: str, *, value: object = None) -> None:
        super().__init__(message)
        self.value = value


class InvalidThreads(InvalidArgument):
    """A ``threads=`` that is not a whole number from 1 to
    :data:`doubleholdem.MAX_THREADS` (a ``TypeError`` when it is not an integer at all)."""


class InvalidConfig(DoubleHoldemError, ValueError):
    """A game configuration that cannot be played; the message says which field and why.
    ``field`` names the offending setting."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class IllegalAction(DoubleHoldemError, ValueError):
    """An action the rules do not allow now. The hand is left exactly as it was.

    ``seat`` is the seat that tried to act, ``action`` and ``amount`` what it tried, and
    ``legal`` the legal options at that moment (a ``doubleholdem.game.LegalActions``, or
    ``None`` when nobody may act, for example after the hand is over). ``reason``, when
    the message is ``"seat {seat} {reason}"``, is that message without its seat: a table
    numbering its seats otherwise than the hand re-raises it with its own seat number."""

    def __init__(
        self,
        message: str,
        *,
        seat: int | None = None,
        action: object = None,
        amount: int | None = None,
        legal: object = None,
        reason: str | None = None,
    ) -> None:
        super().__init__(message)
        self.seat = seat
        self.action = action
        self.amount = amount
        self.legal = legal
        self.reason = reason


class InvalidSnapshot(DoubleHoldemError, ValueError):
    """A saved hand state that is not a snapshot this version can restore."""


class TamperedSnapshot(InvalidSnapshot):
    """A table snapshot whose checksum does not match its content, or whose content does
    not hold together (seats, the hand, the log, chips that do not add up)."""


class DamagedDatabase(TamperedSnapshot):
    """A game server database that cannot be used as it is: not a doubleholdem database
    (empty, foreign), written by an unknown schema, or damaged (rows missing or extra,
    moves truncated, seats out of range, a bad bots column). The message names each
    table and its problem; nothing of it is used."""


class MissingTriggers(DamagedDatabase):
    """A room database whose ledger lost append-only triggers (someone dropped them: the
    audit says what changed since). ``missing`` names them, in order. Opening it is
    refused rather than re-making them in silence; ``serve --repair`` restores them on
    purpose."""

    def __init__(self, message: str, *, missing: tuple[str, ...]) -> None:
        super().__init__(message)
        self.missing = missing


class DatabaseBusy(DoubleHoldemError, RuntimeError):
    """The database's write lock is held by another process for now (the command line
    writing to the ledger): a payment that must be written at once was not; nothing
    changed, try again."""

    code = "unavailable"


class DatabaseUnavailable(DoubleHoldemError, RuntimeError):
    """A PostgreSQL database that cannot be reached, or that refused the connection (no
    server there, a wrong user or password, no such database): the message names it
    (never its password) and says what the server answered. Nothing was done."""

    code = "unavailable"


class InvalidHandHistory(DoubleHoldemError, ValueError):
    """A PHH hand history that cannot be read or that breaks the rules.

    ``action_number`` is the 1-based index into the file's ``actions`` list of the
    offending action (``None`` when the problem is in the header fields); ``path`` the
    file, when known."""

    def __init__(
        self, message: str, *, action_number: int | None = None, path: str | None = None
    ) -> None:
        super().__init__(message)
        self.action_number = action_number
        self.path = path


class InvalidRules(DoubleHoldemError, ValueError):
    """Casino game settings that cannot be played: a pay table of the wrong length or
    with a payout that is not ``to:per`` with ``to >= -1`` and ``per >= 1``, or a raise
    multiple outside 1..8 (RULES.md HU-11)."""

    def __init__(self, message: str, *, card: object = None, row: int | None = None) -> None:
        super().__init__(message)
        self.row = row


class InvalidWager(DoubleHoldemError, ValueError):
    """A wager the casino game does not take now (RULES.md HU-1 to HU-4): negative,
    an Odds bet different from the Ante, a raise that is not allowed at this point, or
    any action after the round is settled. ``allowed`` lists what is allowed instead."""

    def __init__(self, message: str, *, allowed: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.allowed = allowed


class TableError(DoubleHoldemError, ValueError):
    """A table refused a request (RULES.md TH-35 to TH-40): ``seat`` is the table seat
    concerned (``None`` when the request is about the whole table)."""

    def __init__(self, message: str, *, seat: int | None = None) -> None:
        super().__init__(message)
        self.seat = seat


class SeatTaken(TableError):
    """Joining a seat that is not empty, or with a player name already seated."""


class SeatEmpty(TableError):
    """A request for a seat where nobody sits."""


class NoSuchSeat(TableError):
    """A seat number the table lacks (or not a whole number): the message names it and
    the table's seats; ``seat`` is the number asked for (``None`` if not a number),
    ``seats`` how many the table has (numbered 0 to ``seats - 1``)."""

    def __init__(self, message: str, *, seat: int | None, seats: int) -> None:
        super().__init__(message, seat=seat)
        self.seats = seats


class BuyInOutOfRange(TableError):
    """A buy-in or top-up outside the table's range (TH-36). ``amount`` is what was
    offered, ``low`` and ``high`` the allowed range for it."""

    def __init__(self, message: str, *, seat: int | None, amount: object, low: int, high: int):
        super().__init__(message, seat=seat)
        self.amount = amount
        self.low = low
        self.high = high


class HandInProgress(TableError):
    """Something only allowed between hands (leaving, topping up, starting a hand) asked
    for while the seat plays a hand."""


class NotEnoughPlayers(TableError):
    """A hand cannot start: fewer than two players are able to play."""


class RangeError(DoubleHoldemError, ValueError):
    """A hand range that cannot be read, or one left empty (``doubleholdem.ranges``).
    ``token`` is the offending token as written and ``position`` where it starts in the
    range text (0-based, in characters); both are ``None`` when the range as a whole is
    wrong. Nothing of a refused range is used."""

    def __init__(self, message: str, *, token: str | None, position: int | None) -> None:
        super().__init__(message)
        self.token = token
        self.position = position


class MissingExtra(DoubleHoldemError, ImportError):
    """An optional dependency is not installed; the message names the extra that brings
    it (``pip install doubleholdem[ray]``), and ``extra`` holds its name."""

    def __init__(self, message: str, *, extra: str) -> None:
        super().__init__(message)
        self.extra = extra


class AccountError(DoubleHoldemError, ValueError):
    """An accounts, sessions or ledger request refused (:mod:`doubleholdem.accounts`).
    ``code`` is the short machine-readable reason a server replies with (each subclass
    has its own, e.g. ``insufficient_funds``); ``account`` names the account concerned,
    when one is. Nothing of a refused request is written."""

    code = "account_error"

    def __init__(self, message: str, *, account: str | None = None) -> None:
        super().__init__(message)
        self.account = account


class InvalidAccountName(AccountError):
    """A name outside the allowed characters or length (``accounts.NAME_RULE``)."""

    code = "bad_name"


class InvalidPassword(AccountError):
    """A password too short or too long for the rules (``accounts.PASSWORD_RULE``)."""

    code = "bad_password"


class AccountExists(AccountError):
    """Creating an account whose name is taken (names compare without case)."""

    code = "name_taken"


class UnknownAccount(AccountError):
    """An account name that does not exist."""

    code = "no_account"


class BadCredentials(AccountError):
    """A sign-in refused: the same error, message and work for an unknown name, a wrong
    password and an account that cannot sign in (a bot)."""

    code = "bad_credentials"


class AccountFrozen(AccountError):
    """The account is frozen: it cannot take a seat, top up or withdraw; its balance is
    held."""

    code = "account_frozen"


class AccountClosed(AccountError):
    """The account is closed: it cannot sign in, sit, deposit or withdraw; its balance
    is held."""

    code = "account_closed"


class AccountStateError(AccountError):
    """A change of state the rules do not allow (unfreezing an active or a closed
    account, closing one twice)."""

    code = "bad_state"


class InsufficientFunds(AccountError):
    """A movement asking for more than an account holds. ``balance`` is what it holds,
    ``amount`` what was asked."""

    code = "insufficient_funds"

    def __init__(self, message: str, *, account: str | None, balance: int, amount: int) -> None:
        super().__init__(message, account=account)
        self.balance = balance
        self.amount = amount


class AlreadySeated(AccountError):
    """A buy-in for a table where the account already has a seat (one seat per account
    per table). ``table_id`` is that table."""

    code = "already_seated"

    def __init__(self, message: str, *, account: str | None, table_id: int) -> None:
        super().__init__(message, account=account)
        self.table_id = table_id


class NotSeated(AccountError):
    """A top-up or a cash-out for a table where the account has no seat."""

    code = "not_seated"

    def __init__(self, message: str, *, account: str | None, table_id: int) -> None:
        super().__init__(message, account=account)
        self.table_id = table_id


class SignInThrottled(AccountError):
    """Too many failed sign-ins for this account or from this address lately;
    ``retry_after`` is the whole number of seconds to wait."""

    code = "throttled"

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class HashingBusy(SignInThrottled):
    """Every password-hashing slot of the server is taken: nothing was tried or
    counted; retry after ``retry_after`` seconds."""

    code = "busy"


class InvalidAmount(AccountError):
    """An amount of chips that is not a whole number in ``low``..``high`` (the ledger's
    amounts and balances fit SQLite's 64-bit integers), or a movement that would take
    a balance out of that range. ``amount`` is what was given."""

    code = "bad_amount"

    def __init__(self, message: str, *, amount: object, low: int, high: int) -> None:
        super().__init__(message)
        self.amount = amount
        self.low = low
        self.high = high


class InvalidKey(AccountError):
    """An idempotency key or a reference that is not text of 1 to 200 printable
    characters."""

    code = "bad_key"


class KeyConflict(AccountError):
    """An idempotency key already used for a different movement: the retry of a request
    must carry the same content. ``key`` is the key."""

    code = "key_conflict"

    def __init__(self, message: str, *, key: str) -> None:
        super().__init__(message)
        self.key = key


class NotInTransaction(AccountError):
    """A ledger function called on a connection that is not inside a transaction (the
    caller owns the transaction and commits it with its own changes)."""

    code = "no_transaction"


class SchemaMismatch(AccountError):
    """A database whose accounts schema is of another version than this code's;
    ``found`` and ``expected`` are the two versions."""

    code = "schema"

    def __init__(self, message: str, *, found: str, expected: int) -> None:
        super().__init__(message)
        self.found = found
        self.expected = expected


class TournamentError(DoubleHoldemError, ValueError):
    """A tournament refused a request (RULES.md TRN): ``player`` names the player
    concerned (``None`` when the request is about the whole tournament). A refused
    request changes nothing."""

    def __init__(self, message: str, *, player: str | None = None) -> None:
        super().__init__(message)
        self.player = player


class RegistrationRefused(TournamentError):
    """An entry, re-entry or unregistration the tournament does not allow now (TRN-2,
    TRN-4, TRN-5): full, closed, already registered, or not registered."""


class RebuyRefused(TournamentError):
    """A rebuy or add-on the tournament does not allow now (TRN-6)."""


class TournamentStateError(TournamentError):
    """A step asked for at the wrong moment: starting a hand at a table that may not
    start one (TRN-8, TRN-15, TRN-16), finishing one that is still played, or playing
    before the start or after the end."""


class InvalidICM(DoubleHoldemError, ValueError):
    """Stacks, payouts or options that the Independent Chip Model cannot take: a
    negative or fractional stack, payouts that increase, more payouts than players, a
    total past 2**53, an unknown method. ``field`` names the argument (``"stacks"``,
    ``"payouts"``, ...), ``index`` the position in it (from 0) when one entry is to
    blame, and ``value`` the offending value."""

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        index: int | None = None,
        value: object = None,
    ) -> None:
        super().__init__(message)
        self.field = field
        self.index = index
        self.value = value


# The server's failures by their old names, for a release (the ground floor imports no
# server module: the alias finds it by name only when an old name is asked for).
_MOVED = {
    "ProtocolError": "doubleholdem.server.protocol",
    "WalletFailed": "doubleholdem.server.money.wallet_gate",
    "WalletUnavailable": "doubleholdem.server.money.wallet_gate",
    "DatabaseInUse": "doubleholdem.server.storage.lock",
    "DatabaseNotEmpty": "doubleholdem.server.storage.copy",
    "MoneyKindMismatch": "doubleholdem.server.tables.money_kind",
}


def __getattr__(name: str) -> type[DoubleHoldemError]:
    home = _MOVED.get(name)
    if home is None:
        raise AttributeError(f"module 'doubleholdem.errors' has no attribute {name!r}")
    warnings.warn(
        f"doubleholdem.errors.{name} is {home}.{name} now", DeprecationWarning, stacklevel=2
    )
    moved: type[DoubleHoldemError] = getattr(importlib.import_module(home), name)
    return moved
