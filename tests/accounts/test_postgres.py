"""The ledger on PostgreSQL, where many connections write at once: concurrent movements
from several connections never create or lose a chip, a retry from another connection
is applied once, a seat is bought once, and what SQLite does not have (TRUNCATE, a
trigger disabled rather than dropped) is refused or found too."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator

import pytest

from accounts_harness import FAST, run_accounts
from doubleholdem.accounts import cashier, ledger
from doubleholdem.accounts.audit import audit
from doubleholdem.accounts.bank import Bank
from doubleholdem.accounts.schema import ensure_schema, missing_triggers
from doubleholdem.accounts.wallet import LedgerWallet
from doubleholdem.database.connection import Connection, begin
from doubleholdem.database.url import connect
from doubleholdem.errors import AccountError, AlreadySeated, MissingTriggers
from postgres_cluster import Cluster

PLAYERS = ("ann", "bob", "cy", "dee")
START = 1000


@pytest.fixture
def room(postgres_url: str) -> Iterator[str]:
    """A PostgreSQL room with four players of 1,000 chips each."""
    with Bank(postgres_url, passwords=FAST, create=True) as bank:
        for name in PLAYERS:
            bank.create(name, "correct horse")
            bank.deposit(name, START, ref=f"start-{name}")
    yield postgres_url


def _movements(seed: int, count: int) -> list[tuple[str, str, str, int]]:
    """``count`` deposits and withdrawals: (ref, kind, name, amount)."""
    rng = random.Random(seed)
    return [
        (f"m{i}", rng.choice(("deposit", "withdraw")), rng.choice(PLAYERS), rng.randint(1, 400))
        for i in range(count)
    ]


def _in_threads(work: list[Callable[[], None]]) -> None:
    """Runs each of ``work`` in a thread of its own, all started together."""
    start = threading.Barrier(len(work))
    errors: list[BaseException] = []

    def run(job: Callable[[], None]) -> None:
        start.wait()
        try:
            job()
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=run, args=(job,)) for job in work]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def _request(db: Connection, move: Callable[[], object]) -> object | None:
    """One movement in its own transaction; a refusal rolled back (``None``)."""
    begin(db)
    try:
        done = move()
    except AccountError:
        db.execute("ROLLBACK")
        return None
    db.execute("COMMIT")
    return done


def test_a_burst_from_four_connections_creates_and_loses_nothing(room: str) -> None:
    """Each movement is sent by all four connections (two in order, two in reverse),
    each in its own transaction: each is applied once or refused, the hash chain stays
    one chain, and every balance is its start plus the movements applied."""
    moves = _movements(seed=33, count=120)
    posted: list[dict[str, int]] = [{} for _ in range(4)]

    def sender(number: int) -> Callable[[], None]:
        def send() -> None:
            db = connect(room)
            ordered = moves if number % 2 == 0 else moves[::-1]
            for ref, kind, name, amount in ordered:
                move = cashier.deposit if kind == "deposit" else cashier.withdraw
                done = _request(db, lambda: move(db, name, amount, ref=ref))  # noqa: B023
                if isinstance(done, ledger.Posted):
                    posted[number][ref] = done.seq
            db.close()

        return send

    _in_threads([sender(number) for number in range(4)])
    db = connect(room)
    # a retry from another connection is the same transaction
    for ref, *_ in moves:
        seqs = {seen[ref] for seen in posted if ref in seen}
        assert len(seqs) <= 1, (ref, seqs)
    expected = dict.fromkeys(PLAYERS, START)
    applied = 0
    for ref, kind, name, amount in moves:
        done = cashier.applied(db, ref)
        if done is not None:
            applied += 1
            expected[name] += amount if kind == "deposit" else -amount
    assert applied > len(moves) // 2  # the burst did move chips
    for name in PLAYERS:
        assert ledger.balance(db, ledger.player(name)) == expected[name] >= 0
    count = db.execute("SELECT COUNT(*) FROM ledger_transactions").fetchone()[0]
    assert count == len(PLAYERS) + applied
    assert audit(db) == {"ok": True, "problems": []}
    db.close()


def test_one_seat_is_bought_when_two_connections_buy_it_at_once(room: str) -> None:
    results: list[object] = []

    def buyer(key: str) -> Callable[[], None]:
        def buy() -> None:
            db = connect(room)
            begin(db)
            try:
                results.append(LedgerWallet(db).debit("ann", 3, 100, key=key))
                db.execute("COMMIT")
            except AlreadySeated as refused:
                db.execute("ROLLBACK")
                results.append(refused)
            db.close()

        return buy

    _in_threads([buyer("seat-a"), buyer("seat-b")])
    assert sorted(type(r).__name__ for r in results) == ["AlreadySeated", "Posted"]
    db = connect(room)
    assert ledger.balance(db, ledger.player("ann")) == START - 100
    assert LedgerWallet(db).seats("ann") == [3]
    assert audit(db)["ok"]
    db.close()


def test_truncate_is_refused_too(room: str) -> None:
    db = connect(room)
    for table in ("ledger_transactions", "ledger_entries"):
        with pytest.raises(Exception, match="append-only"):
            db.execute(f"TRUNCATE {table}")
    assert db.execute("SELECT COUNT(*) FROM ledger_transactions").fetchone()[0] == len(PLAYERS)
    db.close()


def test_a_disabled_trigger_is_missing_until_restored(room: str) -> None:
    db = connect(room)
    db.execute("ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_update_refused")
    assert missing_triggers(db) == ("ledger_entries_update_refused",)
    assert audit(db)["problems"] == [
        "the append-only trigger ledger_entries_update_refused is missing"
    ]
    with pytest.raises(MissingTriggers):
        ensure_schema(db)
    ensure_schema(db, restore_triggers=True)
    assert missing_triggers(db) == ()
    with pytest.raises(Exception, match="append-only"):
        db.execute("UPDATE ledger_entries SET amount = 0")
    db.close()


def test_no_password_or_token_is_stored_in_clear(room: str) -> None:
    with Bank(room, passwords=FAST) as bank:
        _, token = bank.sign_in("ann", "correct horse", address="192.0.2.1")
    db = connect(room)
    tables = [
        name
        for (name,) in db.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
        )
    ]
    text = "\n".join(repr(row) for table in tables for row in db.execute(f"SELECT * FROM {table}"))
    assert "argon2id" in text and "correct horse" not in text and token not in text
    db.close()


def test_a_read_only_bank_writes_nothing(room: str) -> None:
    """``show`` and ``audit`` open PostgreSQL with read-only transactions: the audit's
    evidence stays as found."""
    import psycopg

    with Bank(room, passwords=FAST, read_only=True) as bank:
        assert bank.show("ann")["balance"] == START
        with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
            bank.deposit("ann", 5, ref="never")
    db = connect(room)
    assert cashier.applied(db, "never") is None
    db.close()


def test_a_database_in_sql_ascii_reads_text_as_text(
    postgres: Cluster, capsys: pytest.CaptureFixture[str]
) -> None:
    """A database made in SQL_ASCII (``initdb --locale=C`` without ``-E UTF8``): text
    comes back as text (psycopg gave bytes, and the schema's version b'2' was refused)."""
    import psycopg

    with psycopg.connect(postgres.url(), autocommit=True) as admin:
        admin.execute(
            "CREATE DATABASE ascii ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C' "
            "TEMPLATE template0"
        )
    url = postgres.url(database="ascii")
    try:
        status, out, _ = run_accounts(capsys, "create", "ann", "--db", url, stdin="a long phrase\n")
        assert (status, out) == (0, "created player ann\n")
        assert run_accounts(capsys, "deposit", "ann", "5", "--ref", "w1", "--db", url)[0] == 0
        status, out, _ = run_accounts(capsys, "show", "ann", "--json", "--db", url)
        assert status == 0 and '"balance": 5' in out
        assert run_accounts(capsys, "audit", "--db", url)[:2] == (0, "the ledger holds together\n")
    finally:
        with psycopg.connect(postgres.url(), autocommit=True) as admin:
            admin.execute("DROP DATABASE ascii")
