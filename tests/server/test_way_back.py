"""Players find their way back (issue 32 item 3): in a room of accounts, "Sit" at a table
where the signed-in account already holds a seat takes that seat back (as ``resume`` by
table) rather than answering ``already_seated``; in a guest room it is refused as
before (a name is not a person there)."""

from __future__ import annotations

from money_room import kinds, money_room, send, sign_up


def test_sit_where_the_account_sits_takes_the_seat_back(room_db: str) -> None:
    room = money_room(path=room_db)
    first = sign_up(room, "ann", 1000)
    assert kinds(send(room, first, type="sit", table=0, seat=1, buy_in=400)) == ["seated"]
    second = room.connect(account="ann")  # another window, another browser
    replies = send(room, second, type="sit", table=0, buy_in=400)
    assert [r["type"] for r in replies if r["type"] in ("seated", "state", "error")] == [
        "seated",
        "state",
    ]
    seated = next(r for r in replies if r["type"] == "seated")
    assert (seated["table"], seated["seat"], seated.get("token")) == (0, 1, None)
    assert (second.table, second.seat) == (0, 1)
    assert room.wallet is not None and room.wallet.balance("ann") == 600  # paid once
    assert first.seat is None  # the first window was told it is open elsewhere
