"""Accounts, sessions, the cashier, the double-entry ledger and the wallet interface:
money moves only here (docs/accounts.md).

Every module writes into a connection to the room's database, SQLite or PostgreSQL
(:mod:`doubleholdem.database`), inside its caller's transaction and never commits, so
that a server writes a buy-in in the same transaction as the seat it pays for;
:class:`~doubleholdem.accounts.bank.Bank` opens its own transactions, for the command
line. Passwords need ``argon2-cffi`` (``pip install doubleholdem[accounts]``);
PostgreSQL needs ``psycopg`` (``pip install doubleholdem[postgres]``); the rest needs
only the standard library.

- :mod:`~doubleholdem.accounts.schema`: the tables, versioned, beside the server's;
- :mod:`~doubleholdem.accounts.ledger`: transactions, hash-chained, idempotent;
- :mod:`~doubleholdem.accounts.accounts`: names, roles, states, passwords, sign-in;
- :mod:`~doubleholdem.accounts.sessions`: session tokens and the sign-in throttle;
- :mod:`~doubleholdem.accounts.households`: sign-in addresses shared by accounts;
- :mod:`~doubleholdem.accounts.cashier`: deposits and withdrawals;
- :mod:`~doubleholdem.accounts.wallet`: the :class:`Wallet` protocol and the ledger's;
- :mod:`~doubleholdem.accounts.audit`: the audit;
- :mod:`~doubleholdem.accounts.bank`: one transaction per request, for the command line.
"""

from __future__ import annotations

from doubleholdem.accounts.audit import audit
from doubleholdem.accounts.bank import Bank
from doubleholdem.accounts.wallet import LedgerWallet, Wallet

__all__ = ["Bank", "LedgerWallet", "Wallet", "audit"]
