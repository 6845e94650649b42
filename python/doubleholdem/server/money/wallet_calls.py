"""Calls to a wallet outside the room's database (an embedding server's own,
docs/accounts.md), made so that no chip is created or lost whatever fails: a commit, or
the process (killed between the wallet's answer and the commit). Such a wallet cannot
share the room's transactions, so each call is *noted* in the database (the table
``wallet_calls``), where what became of it is known for sure:

- A **debit** (a buy-in or a top-up) is noted, and the note committed, *before* the
  wallet is asked, under the key ``KEY#N`` (``N`` the note's number, never given twice,
  so that a debit given back never answers a later request); the note is forgotten in
  the commit of the seat it pays for. A note still there once that commit ended
  (failed, or committed without it: the table refused the seat, the wallet failed), or
  when the room starts again, is a debit whose seat was never written: it is given back
  (:func:`give_back`).
- A **credit** (a cash-out), a **rake** or a **write-off** (a repair) is noted in the
  commit of the change it belongs to and made only once that is committed; its note is
  forgotten once it is made. A failed commit made none; a process killed after the
  commit makes them when the room starts again (:func:`finish_noted`), under the same
  keys: the wallet applies each key once.

A call the wallet fails (not a refusal: an error of its own) stays noted and is
finished after the next commit of its table
(:meth:`~doubleholdem.server.money.wallet_money.WalletTableMoney.commit_ended`), by a
serving room every few seconds (:func:`retry_failed`), or at the next start. Each
failure is counted with the note (the table ``wallet_failures``): the calls the wallet
failed and still owes (:func:`owed`) are what the room's health and the database's
audit report (:func:`owed_problems`), until a try makes them and forgets them at once.

The ledger's own wallet (:class:`~doubleholdem.accounts.wallet.LedgerWallet`) needs
none of this: it writes in the room's transactions."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from functools import partial
from typing import Literal

from doubleholdem.accounts.wallet import Reason, Refunds, Wallet, WritesOff
from doubleholdem.database.connection import Connection
from doubleholdem.database.failure import database_errors
from doubleholdem.errors import DoubleHoldemError
from doubleholdem.server import oplog
from doubleholdem.server.money.wallet_gate import WalletGate
from doubleholdem.server.storage.storage import LeaseLost, Storage, WalletCallRow, wallet_calls
from doubleholdem.wording import table_said

__all__ = [
    "WalletCall",
    "count_failure",
    "finish",
    "finish_noted",
    "finish_through",
    "give_back",
    "log_failure",
    "note",
    "noted",
    "owed",
    "owed_problems",
    "retry_failed",
]

_log = logging.getLogger("doubleholdem.server")
WRITE_PATIENCE = 0.1  # how long a failure's count waits for the write lock (else not counted)
ERROR_CHARS = 200  # of a wallet's error, kept with the call it failed
Method = Literal["debit", "credit", "rake", "write_off"]


@dataclass(frozen=True)
class WalletCall:
    """A call to a wallet about table ``table_id`` under ``key``: a ``debit`` (of
    ``amount`` from ``owner``, for ``reason``), a ``credit`` (``amount`` to ``owner``),
    a ``rake`` (``amount``), a ``write_off`` (for ``problem``); ``number`` its note's
    (0 until noted); ``attempts`` how often the wallet failed it, ``error`` how last."""

    method: Method
    table_id: int
    key: str
    owner: str = ""
    amount: int = 0
    reason: Reason = "buy_in"
    problem: str = ""
    number: int = 0
    attempts: int = 0
    error: str = ""

    @property
    def wallet_key(self) -> str:
        """The key the wallet is asked under: a debit's names its note, the others'
        what they pay (see the module's text)."""
        return f"{self.key}#{self.number}" if self.method == "debit" else self.key

    def text(self) -> str:
        """The call as stored (its table, number and failures are stored apart)."""
        fields = asdict(self)
        for apart in ("table_id", "number", "attempts", "error"):
            del fields[apart]
        return json.dumps(fields, separators=(",", ":"))


def note(store: Storage, call: WalletCall) -> WalletCall:
    """Notes ``call`` in the transaction open on ``store``; the call with its number."""
    return replace(call, number=store.add_wallet_call(call.table_id, call.text()))


def noted(store: Storage, table_id: int | None = None) -> list[WalletCall]:
    """The calls noted (about table ``table_id``, or any) and not forgotten."""
    return _calls(store.wallet_calls(table_id))


def _calls(rows: list[WalletCallRow]) -> list[WalletCall]:
    return [
        WalletCall(
            table_id=table, number=number, attempts=attempts, error=error, **json.loads(text)
        )
        for number, table, text, attempts, error in rows
    ]


def owed(db: Connection) -> list[WalletCall]:
    """The calls noted in the database ``db`` (any connection to it) that the wallet
    failed and that are still to make."""
    return [call for call in _calls(wallet_calls(db)) if call.attempts]


def owed_problems(db: Connection) -> list[str]:
    """:func:`owed`, each told for an operator (a :class:`~doubleholdem.wording.Wording`:
    tables numbered from 0, as stored, and from 1 for people)."""
    return [_owed_text(call) for call in owed(db)]


def _owed_text(call: WalletCall) -> str:
    what = {
        "debit": f"the give-back of {call.amount} chips debited from {call.owner} for no seat",
        "credit": f"a credit of {call.amount} chips to {call.owner}",
        "rake": f"a rake of {call.amount} chips",
        "write_off": "a write-off",
    }[call.method]
    times = "once" if call.attempts == 1 else f"{call.attempts} times"
    key = f"refund:{call.wallet_key}" if call.method == "debit" else call.wallet_key
    told = f"the wallet owes {key}: {what}, "
    return told + table_said(call.table_id) + f", failed {times} ({call.error})"


def give_back(wallet: Wallet, call: WalletCall) -> None:
    """A debit whose seat was never written goes back: it is asked again under its key
    (which changes nothing if the wallet took it, and is refused if it did not: then
    there is nothing to give back), then refunded under ``refund:KEY``: by the wallet's
    :meth:`~doubleholdem.accounts.wallet.Refunds.refund` if it has one, else credited."""
    owner, table_id, amount = call.owner, call.table_id, call.amount
    try:
        wallet.debit(owner, table_id, amount, key=call.wallet_key, reason=call.reason)
    except DoubleHoldemError:  # refused: it was never taken
        return
    key = f"refund:{call.wallet_key}"
    if isinstance(wallet, Refunds):
        wallet.refund(owner, table_id, amount, key=key, reason=call.reason)
    else:
        wallet.credit(owner, table_id, amount, key=key)


def finish(wallet: Wallet, call: WalletCall) -> None:
    """What a noted call still owes, once its change's fate is known: a debit's seat
    was never written (it is given back); a credit, a rake or a write-off is made (the
    write-off only to a wallet that can: :class:`~doubleholdem.accounts.wallet.WritesOff`)."""
    key = call.wallet_key
    if call.method == "debit":
        give_back(wallet, call)
    elif call.method == "credit":
        wallet.credit(call.owner, call.table_id, call.amount, key=key)
    elif call.method == "rake":
        wallet.rake(call.table_id, call.amount, key=key)
    elif isinstance(wallet, WritesOff):
        wallet.write_off(call.table_id, key=key, problem=call.problem)


def finished(store: Storage, wallet: Wallet, calls: list[WalletCall]) -> list[int]:
    """Finishes each of ``calls`` (:func:`finish`); the numbers of those done. A wallet
    that fails (unreachable) is logged and its call left noted, to finish later, with
    the failure counted; a call done after failures is forgotten at once (it is no
    longer owed)."""
    done = []
    for call in calls:
        try:
            finish(wallet, call)
        except Exception as error:  # the embedding server's code: any failure leaves the note
            count_failure(store, call, error)
            continue
        _made(store, call)
        done.append(call.number)
    return done


async def finish_through(
    gate: WalletGate, store: Storage, wallet: Wallet, calls: list[WalletCall]
) -> list[int]:
    """:func:`finished`, each call made off the event loop through ``gate`` (one at a
    time; while the gate is closed a call is not made, and counted as failed: it is
    owed, and tried again later)."""
    done = []
    for call in calls:
        try:
            await gate.call(partial(finish, wallet, call))
        except Exception as error:  # the embedding server's code, or the gate closed
            count_failure(store, call, error)
            continue
        _made(store, call)
        done.append(call.number)
    return done


def _made(store: Storage, call: WalletCall) -> None:
    """``call`` was made: forgotten at once if the wallet had failed it (it is no longer
    owed; the others are forgotten with their table's next commit)."""
    if call.attempts:
        _write_now(store, partial(Storage.forget_wallet_calls, numbers=[call.number]))


def count_failure(
    store: Storage, call: WalletCall, error: BaseException, step: str | None = None
) -> None:
    """The wallet failed ``call`` (or was not asked: :class:`WalletUnavailable`): logged
    (``step``: what failed, by default what finishing the call does), and counted with
    its note, which stays to finish later (it is owed)."""
    how = f"{type(error).__name__}: {error}"
    if len(how) > ERROR_CHARS:  # the embedding server's text: what is kept of it is bounded
        how = how[:ERROR_CHARS] + "..."
    if step is None:
        step = "give_back" if call.method == "debit" else call.method
    log_failure(call, how, step)
    _write_now(store, partial(Storage.wallet_call_failed, number=call.number, error=how))


def log_failure(call: WalletCall, how: str, step: str) -> None:
    """Logs that the wallet failed ``step`` of ``call`` (``payment``, ``give_back``,
    ``credit``, ``rake``, ``write_off``; ``how``: the error)."""
    oplog.event(
        "wallet_failed",
        step=step,
        key=call.wallet_key,
        table=call.table_id + 1,
        owner=call.owner or None,
        chips=call.amount,
        error=how,
    )


def _write_now(store: Storage, write: Callable[[Storage], None]) -> None:
    """``write`` in a transaction committed now; left unwritten if the database cannot
    take it within ``WRITE_PATIENCE`` (a failure not counted, a call made forgotten at
    its next try: the wallet applies its key once), or if the call's table moved to
    another process (:class:`LeaseLost`: its calls are that process's now)."""
    unwritten: tuple[type[Exception], ...] = (LeaseLost, *database_errors())
    try:
        if store.reserve(WRITE_PATIENCE):
            with store.transaction():
                write(store)
    except unwritten:
        _log.warning("the wallet calls' failures could not be written", exc_info=True)


def retry_failed(store: Storage, wallet: Wallet, table_id: int | None = None) -> None:
    """Tries the calls the wallet failed again (about table ``table_id``, or any: their
    fate is known, a failure is only counted once it is); those it makes are
    forgotten."""
    finished(store, wallet, [call for call in noted(store, table_id) if call.attempts])


def finish_noted(store: Storage, wallet: Wallet) -> None:
    """Finishes every call noted about the tables this process serves (the room starts:
    no change of theirs is under way; in a room of many processes the others' tables'
    calls are theirs, a debit among them maybe paying a seat being made) and forgets
    those done."""
    calls = noted(store)
    if store.fencing.process is not None:  # leased: its own tables' only
        calls = [call for call in calls if call.table_id in store.fencing.epochs]
    done = finished(store, wallet, calls)
    if done:
        with store.transaction():
            store.forget_wallet_calls(done)
