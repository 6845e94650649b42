"""People read people's numbers (issue 32 item 4): the statement (``/api/me/statement``,
``accounts show`` as text and JSON) names tables from 1, as the page and the docs do;
an account room keeps spectators out of the chat by default; a frozen account's open
page is told why it was closed, at once."""

from __future__ import annotations

import json

import pytest

from doubleholdem.accounts.bank import Bank
from doubleholdem.cli import main
from doubleholdem.server.http.desk import Desk
from doubleholdem.server.settings import RoomSettings
from money_room import kinds, money_room, send, sign_up


def _played_at_the_second_table(path: str) -> None:
    """ann buys in at the second table (id 1) and leaves."""
    room = money_room(path=str(path))
    ann = sign_up(room, "ann", 1000)
    assert kinds(send(room, ann, type="sit", table=1, buy_in=400)) == ["seated"]
    send(room, ann, type="leave")
    room.store.close()


def test_the_statement_names_tables_from_one(room_db: str) -> None:
    path = room_db
    _played_at_the_second_table(path)
    desk = Desk(str(path), RoomSettings())
    lines = desk.statement("ann")["lines"]
    desk.close()
    assert [(x["kind"], x["other"], x["memo"]) for x in lines[:2]] == [
        ("cash_out", "table 2", {"table": 2}),
        ("buy_in", "table 2", {"table": 2}),
    ]
    with Bank(str(path)) as bank:
        shown = bank.show("ann")
    assert shown["statement"][0]["other"] == "table 2"


def test_accounts_show_names_tables_and_seats_from_one(
    room_db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = room_db
    room = money_room(path=str(path))
    ann = sign_up(room, "ann", 1000)
    assert kinds(send(room, ann, type="sit", table=1, buy_in=400)) == ["seated"]
    room.store.close()
    assert main(["accounts", "show", "ann", "--db", str(path)]) == 0
    out = capsys.readouterr().out
    assert "seats at tables: 2\n" in out
    assert "(table 2) table=2" in out
    assert "table 1" not in out and "table=1" not in out
    assert main(["accounts", "show", "ann", "--db", str(path), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["statement"][0]["other"] == "table 2"


def test_spectators_do_not_chat_in_an_account_room_by_default(room_db: str) -> None:
    room = money_room(path=room_db)
    watcher = room.connect()
    send(room, watcher, type="watch", table=0)
    (refused,) = [r for r in send(room, watcher, type="chat", text="hi") if r["type"] == "error"]
    assert refused["code"] == "read_only"
    assert RoomSettings(guests=True).chat_for_spectators
    assert not RoomSettings().chat_for_spectators
    assert RoomSettings(spectator_chat=True).chat_for_spectators


def test_a_frozen_account_is_told_before_its_page_is_closed(room_db: str) -> None:
    room = money_room(path=room_db)
    ann = sign_up(room, "ann", 1000)
    ann.active = True
    with room.store.transaction():
        from doubleholdem.accounts.accounts import set_state

        set_state(room.store.db, "ann", "frozen")
    room.check_accounts()
    told = []
    while not ann.outbox.empty():
        text = ann.outbox.get_nowait()
        if text is not None:
            told.append(json.loads(text))
    errors = [t for t in told if t["type"] == "error"]
    assert [e["code"] for e in errors] == ["account_frozen"]
    assert "frozen" in errors[0]["message"] and "_" not in errors[0]["message"]
    assert ann.closed
