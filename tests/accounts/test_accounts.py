"""Account names, passwords (Argon2id at OWASP's parameters or stronger), states, and a
sign-in that answers an unknown name with the same error after the same work."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from doubleholdem.accounts import ledger
from doubleholdem.accounts.accounts import (
    OWASP_MEMORY_KIB,
    Passwords,
    check_name,
    create_account,
    create_bot,
    get_account,
    set_state,
    sign_in,
)
from doubleholdem.accounts.audit import audit
from doubleholdem.database.connection import Connection
from doubleholdem.errors import (
    AccountClosed,
    AccountExists,
    AccountStateError,
    BadCredentials,
    InvalidAccountName,
    InvalidPassword,
    MissingExtra,
    UnknownAccount,
)
from doubleholdem.extras import install_command

PASSWORD = "correct horse battery"


@pytest.mark.parametrize("name", ["a", "Ann", "bob_2", "x.y-z", "9lives", "A" * 24])
def test_names_in_the_rule_are_taken(name: str) -> None:
    assert check_name(name) == name


@pytest.mark.parametrize(
    "name",
    [
        "",
        "A" * 25,
        "_ann",
        "-x",
        ".x",
        "ann smith",
        "ann'; DROP TABLE accounts; --",
        "<script>alert(1)</script>",
        "anné",
        "ann\n",
        "ann\x00",
        None,
        5,
    ],
)
def test_other_names_are_refused_without_repeating_them(name: object) -> None:
    with pytest.raises(InvalidAccountName) as caught:
        check_name(name)
    assert str(name) not in str(caught.value) or name in ("",)
    assert caught.value.code == "bad_name"


def test_names_are_unique_without_regard_to_case(tx: Connection, fast: Passwords) -> None:
    create_account(tx, "Ann", PASSWORD, passwords=fast)
    with pytest.raises(AccountExists):
        create_account(tx, "aNN", PASSWORD, passwords=fast)
    with pytest.raises(AccountExists):
        create_bot(tx, "ANN", 10)
    assert get_account(tx, "ann").name == "Ann"
    with pytest.raises(UnknownAccount):
        get_account(tx, "bob")


@pytest.mark.parametrize("password", ["", "short12", "x" * 257, None, b"bytes-password"])
def test_passwords_outside_8_to_256_characters_are_refused(
    tx: Connection, fast: Passwords, password: Any
) -> None:
    with pytest.raises(InvalidPassword):
        create_account(tx, "ann", password, passwords=fast)
    assert tx.execute("SELECT COUNT(*) FROM accounts").fetchone()[0] == 0


def test_the_default_hash_is_argon2id_at_owasps_parameters() -> None:
    hashed = Passwords().hash(PASSWORD)
    assert hashed.startswith(f"$argon2id$v=19$m={OWASP_MEMORY_KIB},t=2,p=1$")
    assert OWASP_MEMORY_KIB == 19 * 1024


@pytest.mark.parametrize("weak", [{"memory_cost": 8}, {"time_cost": 1}])
def test_weaker_parameters_need_insecure(weak: dict[str, int]) -> None:
    with pytest.raises(ValueError, match="OWASP"):
        Passwords(**weak)
    Passwords(**weak, insecure=True)


def test_welcome_chips_come_from_the_house(tx: Connection, fast: Passwords) -> None:
    ann = create_account(tx, "ann", PASSWORD, passwords=fast, welcome=250)
    assert ledger.balance(tx, ledger.player("ann")) == 250
    assert ledger.balance(tx, ledger.HOUSE) == -250
    assert ledger.find(tx, f"welcome:{ann.id}") is not None
    assert audit(tx)["ok"]


def test_a_bot_gets_its_bankroll_from_the_house(tx: Connection) -> None:
    robot = create_bot(tx, "robot", 5000)
    assert robot.role == "bot"
    assert ledger.balance(tx, ledger.bot("robot")) == 5000
    assert ledger.balance(tx, ledger.HOUSE) == -5000


class Spy(Passwords):
    """Records every hash verified."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=8, insecure=True)
        self.verified: list[str] = []

    def verify(self, hashed: str, password: str) -> bool:
        self.verified.append(hashed)
        return super().verify(hashed, password)


def _sign_in_failure(db: Connection, spy: Spy, name: object, password: object) -> str:
    spy.verified.clear()
    with pytest.raises(BadCredentials) as caught:
        sign_in(db, name, password, passwords=spy)
    assert len(spy.verified) == 1  # exactly one Argon2 verification, every time
    return str(caught.value)


def test_an_unknown_name_costs_the_same_verification_as_a_wrong_password(
    tx: Connection,
) -> None:
    spy = Spy()
    create_account(tx, "ann", PASSWORD, passwords=spy)
    create_bot(tx, "robot", 1)
    stored = tx.execute("SELECT password_hash FROM accounts WHERE name = 'ann'").fetchone()[0]
    wrong = _sign_in_failure(tx, spy, "ann", "wrong password")
    assert spy.verified == [stored]
    for name in ["nobody", "robot", "bad name!", None, "x" * 500]:
        assert _sign_in_failure(tx, spy, name, PASSWORD) == wrong
        assert spy.verified == [spy.dummy]  # the dummy hash, with the same parameters
    assert spy.dummy.split("$")[:4] == stored.split("$")[:4]
    assert _sign_in_failure(tx, spy, "ann", "x" * 10_000) == wrong


def test_sign_in_takes_any_case_of_the_name(tx: Connection, fast: Passwords) -> None:
    create_account(tx, "Ann", PASSWORD, passwords=fast)
    assert sign_in(tx, "aNn", PASSWORD, passwords=fast).name == "Ann"


def test_states_change_by_the_rules(tx: Connection, fast: Passwords) -> None:
    create_account(tx, "ann", PASSWORD, passwords=fast)
    assert set_state(tx, "ann", "frozen").state == "frozen"
    with pytest.raises(AccountStateError):
        set_state(tx, "ann", "frozen")
    assert sign_in(tx, "ann", PASSWORD, passwords=fast).state == "frozen"
    assert set_state(tx, "ann", "active").state == "active"
    assert set_state(tx, "ann", "closed").state == "closed"
    for state in ("active", "frozen", "closed"):
        with pytest.raises(AccountStateError):
            set_state(tx, "ann", state)
    with pytest.raises(AccountClosed):
        sign_in(tx, "ann", PASSWORD, passwords=fast)
    with pytest.raises(BadCredentials):
        sign_in(tx, "ann", "wrong password", passwords=fast)


def test_a_hash_of_weaker_parameters_is_upgraded_at_sign_in(
    tx: Connection, fast: Passwords
) -> None:
    create_account(tx, "ann", PASSWORD, passwords=fast)
    stronger = Passwords(time_cost=2, memory_cost=16, insecure=True)
    sign_in(tx, "ann", PASSWORD, passwords=stronger)
    stored = tx.execute("SELECT password_hash FROM accounts WHERE name = 'ann'").fetchone()[0]
    assert "m=16,t=2" in stored and not stronger.needs_rehash(stored)
    assert sign_in(tx, "ann", PASSWORD, passwords=stronger).name == "ann"


def test_without_argon2_the_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "argon2", None)
    with pytest.raises(MissingExtra) as caught:
        Passwords()
    assert str(caught.value).endswith(install_command("accounts"))  # from where one stands
    assert caught.value.extra == "accounts"
