"""The protocol's pure decoder (docs/PROTOCOL.md): any input decodes to a message or
raises ProtocolError, never anything else (the fuzz target's contract)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from doubleholdem.server import protocol
from doubleholdem.server.protocol import ProtocolError, decode

TYPES = [
    "lobby",
    "sit",
    "resume",
    "watch",
    "act",
    "top_up",
    "sit_in",
    "sit_out",
    "leave",
    "ping",
    "x",
]
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True),
    st.text(max_size=30),
)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3), max_leaves=6)


def _decodes_or_refuses(text: str | bytes) -> Any:
    try:
        return decode(text)
    except ProtocolError as error:
        assert error.code in {"bad_json", "too_large", "bad_version", "bad_type", "bad_field"}
        return None


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.text(max_size=200), st.binary(max_size=200)))
def test_any_text(text: str | bytes) -> None:
    _decodes_or_refuses(text)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(TYPES),
    st.dictionaries(
        st.sampled_from(["table", "seat", "name", "buy_in", "token", "id", "hand", "action",
                         "amount", "extra"]),
        values,
        max_size=6,
    ),
)  # fmt: skip
def test_any_fields(kind: str, fields: dict[str, Any]) -> None:
    message = _decodes_or_refuses(json.dumps({"v": 2, "type": kind, **fields}))
    if message is not None:
        assert isinstance(message, protocol.Message.__args__)  # type: ignore[attr-defined]
        if isinstance(message, protocol.Act):
            assert message.action in protocol.ACTIONS and isinstance(message.hand, int)


def test_valid_messages() -> None:
    assert decode('{"v":2,"type":"sit","table":0,"seat":null,"name":"ann b","buy_in":5}') == (
        protocol.Sit(0, None, "ann b", 5)
    )
    assert decode('{"v":2,"type":"act","id":"a","hand":1,"action":"point","amount":2}') == (
        protocol.Act("a", 1, "point", 2)
    )
    for text in (
        '{"v":2,"type":"act","id":"a","hand":1,"action":"point"}',  # a point needs its index
        '{"v":2,"type":"sit","table":0,"name":" ann","buy_in":5}',
        '{"v":2,"type":"sit","table":0,"name":"a\\u0000","buy_in":5}',
        '{"v":2,"type":"act","id":"a b","hand":1,"action":"fold"}',
        '{"v":true,"type":"ping"}',
        '{"v":2.0,"type":"ping"}',
        "[" * 100_000,
    ):
        try:
            decode(text)
        except ProtocolError:
            continue
        raise AssertionError(text)
