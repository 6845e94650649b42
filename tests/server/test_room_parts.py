"""The room is made of parts it holds (issue 31 item 6), not of one-child bases: its
tables (the database, the runners, the group commit), the requests a wallet outside
the database pays for, the signed-in clients' accounts and the ``hands`` replies, each
with a small interface, and the room's own attributes are its tables' own."""

from __future__ import annotations

import inspect

from doubleholdem.server.settings import RoomSettings
from doubleholdem.server.tables.accounts_watch import AccountsWatch
from doubleholdem.server.tables.hands_replies import HandsReplies
from doubleholdem.server.tables.room import Room
from doubleholdem.server.tables.tables import RoomTables
from doubleholdem.server.tables.wallet_requests import WalletRequests
from money_room import kinds, money_room, send, sign_up


def test_the_room_holds_its_parts_and_inherits_none() -> None:
    assert Room.__bases__ == (object,)
    for part in (RoomTables, WalletRequests, AccountsWatch, HandsReplies):
        assert part.__bases__ == (object,)
        assert not issubclass(Room, part)
    room = Room.open(":memory:", RoomSettings(guests=True, tables=2, bots=0))
    assert isinstance(room.tables, RoomTables) and isinstance(room.paid, WalletRequests)
    assert isinstance(room.accounts, AccountsWatch) and isinstance(room.hands, HandsReplies)
    tables = room.tables
    assert room.store is tables.store and room.settings is tables.settings
    assert room.commit is tables.commit and room.runners is tables.runners
    assert room.paid.runners is tables.runners and room.hands.runners is tables.runners
    assert room.repaired is tables.repaired and room.wallet is None is tables.wallet
    assert room.lobby() == tables.lobby() and len(room.lobby()[0]) == 2

    def audit(*_: object) -> None:
        """An audit of the messages sent."""

    room.audit = audit
    assert tables.audit is audit
    room.store.close()


def test_a_part_is_handed_the_rooms_ways_not_the_room() -> None:
    """The paid requests are handed the room's ways to take a seat and make a seat's
    request (callables), and the accounts the room's set of connections: none holds
    the room."""
    room = money_room()
    parts = (room.paid, room.accounts, room.hands, room.tables)
    for part in parts:
        assert all(value is not room for value in vars(part).values())
    assert room.accounts.connections is room.connections
    ann = sign_up(room, "ann", 1000)
    assert kinds(send(room, ann, type="sit", table=0, buy_in=400)) == ["seated"]
    room.connect(account="Ann", address="10.0.0.7")
    assert room.accounts.addresses == {"ann": {"10.0.0.7"}}  # where ann connected from
    signature = inspect.signature(WalletRequests.__init__)
    assert list(signature.parameters)[1:] == [
        "runners",
        "take_seat",
        "seat_request",
        "seated_elsewhere",
    ]


def _server_classes() -> list[type]:
    """Every class defined in a module of ``doubleholdem.server``."""
    import importlib
    import pkgutil

    import doubleholdem.server as server

    found = []
    for module_info in pkgutil.walk_packages(server.__path__, server.__name__ + "."):
        module = importlib.import_module(module_info.name)
        found += [
            value
            for value in vars(module).values()
            if inspect.isclass(value) and value.__module__ == module.__name__
        ]
    return found


def test_no_server_class_is_split_over_a_one_child_base() -> None:
    """Issue 31 item 6: a part of the server is an object its whole holds, or, where a
    class derives from another of the package, that base has several subclasses or is
    a Protocol stating what a part needs (exceptions and records aside)."""
    classes = _server_classes()
    assert Room in classes and WalletRequests in classes
    children: dict[type, list[type]] = {}
    for cls in classes:
        for base in cls.__bases__:
            if base.__module__.startswith("doubleholdem."):
                children.setdefault(base, []).append(cls)
    one_child = sorted(
        f"{base.__name__} <- {kids[0].__name__}"
        for base, kids in children.items()
        if len(kids) == 1
        and not issubclass(base, BaseException)
        and not getattr(base, "_is_protocol", False)
    )
    assert one_child == []
