"""The gate one table's calls to a wallet outside the room's database pass through (an
embedding server's own wallet, docs/accounts.md), so that such a wallet can neither
stall the room nor be stormed by it:

- each call runs in a thread of its own, off the event loop, and is given up after
  ``CALL_TIMEOUT`` seconds (the thread is a daemon: a call that never returns keeps no
  room from stopping);
- one call is in flight per table: the next waits for it; while a call given up still
  hangs in its thread, no other is made;
- after a failure (an error of the wallet's own, not a refusal, or a call given up), no
  call is made for ``BACKOFF_FIRST`` seconds, doubled at each failure in a row up to
  ``BACKOFF_LONGEST``: a call asked for meanwhile is refused at once
  (:class:`WalletUnavailable`) without reaching the wallet. An
  answer to a call that moves chips, a refusal included, ends the backoff (an answer
  to a ``balance`` does not: the movements may still fail).

The times are on the room's clock (``clock``), so that tests move them. A room starting
(no event loop yet) asks through a :class:`BoundedWallet`: the same rules, the caller
waiting."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from doubleholdem.errors import DoubleHoldemError

__all__ = [
    "BACKOFF_FIRST",
    "BACKOFF_LONGEST",
    "CALL_TIMEOUT",
    "BoundedWallet",
    "WalletFailed",
    "WalletGate",
    "WalletUnavailable",
]


class WalletFailed(DoubleHoldemError, RuntimeError):
    """A wallet outside the room's database (an embedding server's) failed a payment
    with an error of its own, not a refusal (its service unreachable): the seat or the
    top-up was not given, and whatever the wallet may have taken is given back (at
    once, or when the room next can: docs/accounts.md); try again."""

    code = "unavailable"


class WalletUnavailable(WalletFailed):
    """A wallet outside the room's database was not asked at all: it failed lately (the
    room waits a while before asking again, longer at each failure in a row) or has not
    answered an earlier call yet. Nothing was taken; try again."""


CALL_TIMEOUT = 3.0  # seconds a call to the wallet may take before it is given up
BACKOFF_FIRST = 0.5  # seconds without calls after a first failure
BACKOFF_LONGEST = 8.0  # the longest wait between calls while the wallet keeps failing

_T = TypeVar("_T")


class WalletGate:
    """One table's way to its wallet (see the module's text): ``clock`` the room's;
    ``timeout``, ``first`` and ``longest`` by default the module's ``CALL_TIMEOUT``,
    ``BACKOFF_FIRST`` and ``BACKOFF_LONGEST``."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        *,
        timeout: float | None = None,
        first: float | None = None,
        longest: float | None = None,
    ) -> None:
        self.clock = clock
        self.timeout = CALL_TIMEOUT if timeout is None else timeout
        self.first = BACKOFF_FIRST if first is None else first
        self.longest = BACKOFF_LONGEST if longest is None else longest
        self.failures = 0  # in a row
        self.calls = 0  # made so far (the wallet reached)
        self._resume_at = 0.0  # on ``clock``: no call before
        self._hanging: threading.Thread | None = None  # a call given up, still running
        self._lock: asyncio.Lock | None = None

    def closed(self) -> str | None:
        """Why no call may be made now, or ``None``."""
        if self._hanging is not None and self._hanging.is_alive():
            return "the wallet has not answered an earlier call yet"
        self._hanging = None
        wait = self._resume_at - self.clock()
        if wait > 0:
            return f"the wallet failed lately: it is asked again in {wait:.1f} s"
        return None

    def wait(self) -> float:
        """Seconds (on the clock) until a call may be made: 0 when it may now."""
        if self._hanging is not None and self._hanging.is_alive():
            return self.first
        return max(0.0, self._resume_at - self.clock())

    async def call(self, call: Callable[[], _T], *, probe: bool = False) -> _T:
        """``call()`` (a call to the wallet) in a thread, when the one in flight ended:
        its result, or its error (a refusal as it is, a failure as it is after
        counting it); :class:`WalletUnavailable` without calling while the gate is
        closed; :class:`WalletFailed` when it takes more than
        ``timeout`` seconds (it is given up, and counted as a failure). A ``probe``
        (a balance: it moves nothing) that answers does not end the backoff: a wallet
        that answers it may still fail the movements."""
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            why = self.closed()
            if why is not None:
                raise WalletUnavailable(f"{why}: try again")
            self.calls += 1
            thread, answer = _in_a_thread(call)
            # not wait_for: on Python 3.11 it may swallow a cancellation that comes as
            # the answer does, and the room's tasks would run on after it stops
            await asyncio.wait([answer], timeout=self.timeout)
            if not answer.done():
                self._hanging = thread
                self.failed()
                raise WalletFailed(
                    f"the wallet did not answer within {self.timeout:g} s: try again"
                )
            error = answer.exception()
            return self._outcome(None if error else answer.result(), error, probe)

    def call_now(self, call: Callable[[], _T], *, probe: bool = False) -> _T:
        """:meth:`call` without an event loop (a room starting): the caller waits, at
        most ``timeout`` seconds."""
        why = self.closed()
        if why is not None:
            raise WalletUnavailable(f"{why}: try again")
        self.calls += 1
        outcome: list[tuple[_T | None, BaseException | None]] = []

        def run() -> None:
            try:
                outcome.append((call(), None))
            except BaseException as error:  # handed to the caller as it is
                outcome.append((None, error))

        thread = threading.Thread(target=run, name="wallet-call", daemon=True)
        thread.start()
        thread.join(self.timeout)
        if not outcome:
            self._hanging = thread
            self.failed()
            raise WalletFailed(f"the wallet did not answer within {self.timeout:g} s: try again")
        return self._outcome(*outcome[0], probe)

    def _outcome(self, result: _T | None, error: BaseException | None, probe: bool) -> _T:
        """The answer of a call (``error``, or ``result``), the backoff told."""
        if error is None or isinstance(error, DoubleHoldemError):  # a refusal answers too
            if not probe:
                self.answered()
        else:
            self.failed()
        if error is not None:
            raise error
        return result  # type: ignore[return-value]

    def failed(self) -> None:
        """A call failed: no call for the next backoff."""
        wait = min(self.longest, self.first * 2**self.failures)
        self.failures += 1
        self._resume_at = self.clock() + wait

    def answered(self) -> None:
        """The wallet answered: calls may be made again at once."""
        self.failures = 0
        self._resume_at = 0.0


def _in_a_thread(call: Callable[[], _T]) -> tuple[threading.Thread, asyncio.Future[_T]]:
    """Runs ``call()`` in a daemon thread of its own: the thread, and the future of its
    result on the running loop (left alone if the loop has closed meanwhile)."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[_T] = loop.create_future()
    answer.add_done_callback(_retrieved)  # an answer come too late is read by none

    def settle(result: _T | None, error: BaseException | None) -> None:
        if answer.done():
            return
        if error is not None:
            answer.set_exception(error)
        else:
            answer.set_result(result)  # type: ignore[arg-type]

    def run() -> None:
        try:
            result, error = call(), None
        except BaseException as failure:  # handed to the loop as it is
            result, error = None, failure
        if not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: none waits
                loop.call_soon_threadsafe(settle, result, error)

    thread = threading.Thread(target=run, name="wallet-call", daemon=True)
    thread.start()
    return thread, answer


def _retrieved(answer: asyncio.Future[Any]) -> None:
    if not answer.cancelled():
        answer.exception()


class BoundedWallet:
    """``wallet`` with each of its methods called through ``gate`` without an event loop
    (:meth:`WalletGate.call_now`; ``balance`` as a probe): what a room starting asks of
    an embedding server's wallet waits a timeout at most, and nothing more once it
    failed. It has the methods ``wallet`` has (the optional ones too)."""

    def __init__(self, wallet: object, gate: WalletGate) -> None:
        self._wallet = wallet
        self._gate = gate

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._wallet, name)
        if not callable(method):
            return method

        def bounded(*args: Any, **kwargs: Any) -> Any:
            return self._gate.call_now(partial(method, *args, **kwargs), probe=name == "balance")

        return bounded
