"""Messages whose seat and table numbers stay numbers: a :class:`Wording` is a message
(a ``str``, numbered from 0 as Python, the library's fields and the protocol count) that
keeps its seats and tables apart from its words, so the edges a person reads (the
browser page, the command line, the server's replies and the operator's texts) number
them from 1 from the numbers themselves, never by rewriting the text.

>>> said = Wording(seat_said(2), " cannot fold: it is ", seat_said(1, "turn"), "'s turn")
>>> print(said)
seat 2 cannot fold: it is seat 1's turn
>>> for_people(said)
"seat 3 cannot fold: it is seat 2's turn"
>>> said.fields()
{'seat': 2, 'turn': 1}
>>> for_people(not_a_seat(5, 3))
'6 is not a seat (seats 1..3)'
>>> for_people("no numbers here")
'no numbers here'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple, Union

__all__ = [
    "Number",
    "Wording",
    "for_people",
    "joined",
    "not_a_seat",
    "seat_said",
    "table_said",
    "told",
]


class Number(NamedTuple):
    """A seat's or a table's number in a message, from 0; ``field``: its name among a
    reply's fields (``"seat"``, ``"table"``, ``"turn"``...), ``None`` for a number only
    said (the ends of a range)."""

    value: int
    field: str | None = None


Part = Union[str, Number]  # typing.Union: "str | Number" fails on Python 3.9


class Wording(str):
    """A message made of words and :class:`Number` parts. As a ``str`` it is the message
    numbered from 0; :meth:`for_people` says it numbered from 1, :meth:`fields` gives
    its named numbers. Joined with ``+`` to text or another wording it stays one."""

    parts: tuple[Part, ...]

    def __new__(cls, *parts: Part) -> Wording:
        flat: list[Part] = []
        for part in parts:
            flat.extend(part.parts if isinstance(part, Wording) else (part,))
        self = super().__new__(cls, _said(flat, 0))
        self.parts = tuple(flat)
        return self

    def __reduce__(self) -> tuple[object, ...]:
        return (Wording, self.parts)

    def for_people(self) -> str:
        """The message with every number counted from 1."""
        return _said(self.parts, 1)

    def fields(self) -> dict[str, int]:
        """The named numbers, from 0 (the first of a name when it is said twice)."""
        found: dict[str, int] = {}
        for part in self.parts:
            if isinstance(part, Number) and part.field is not None:
                found.setdefault(part.field, part.value)
        return found

    def __add__(self, other: str) -> Wording:
        return Wording(self, other)

    def __radd__(self, other: str) -> Wording:
        return Wording(other, self)

    def removeprefix(self, prefix: str, /) -> Wording:
        """The wording without ``prefix`` (when its text starts with it)."""
        if not prefix or not self.startswith(prefix):
            return self
        rest, skip = [], len(prefix)
        for part in self.parts:
            text = part if isinstance(part, str) else str(part.value)
            if skip >= len(text):
                skip -= len(text)
                continue
            if skip and isinstance(part, str):
                part = part[skip:]
            elif skip:  # the prefix ends inside a number: keep the rest as words
                part = text[skip:]
            skip = 0
            rest.append(part)
        return Wording(*rest)


def _said(parts: list[Part] | tuple[Part, ...], base: int) -> str:
    return "".join(p if isinstance(p, str) else str(p.value + base) for p in parts)


def seat_said(number: int, field: str | None = "seat") -> Wording:
    """``"seat N"``, its number kept (named ``field`` among a reply's fields)."""
    return Wording("seat ", Number(number, field))


def table_said(number: int, field: str | None = "table") -> Wording:
    """``"table N"``, its number kept (named ``field`` among a reply's fields)."""
    return Wording("table ", Number(number, field))


def joined(texts: Iterable[str], separator: str = ", ") -> Wording:
    """``texts`` joined by ``separator``, their numbers kept."""
    parts: list[Part] = []
    for text in texts:
        parts.extend((separator, text) if parts else (text,))
    return Wording(*parts)


def not_a_seat(value: object, count: int) -> Wording:
    """Why ``value`` is not one of ``count`` seats: ``"5 is not a seat (seats 0..2)"``."""
    given: Part = Number(value, "seat") if type(value) is int else repr(value)
    return Wording(given, " is not a seat (seats ", Number(0), "..", Number(count - 1), ")")


def for_people(text: str) -> str:
    """``text`` as a person reads it: a :class:`Wording`'s numbers counted from 1,
    any other text as it is."""
    return text.for_people() if isinstance(text, Wording) else text


def told(error: BaseException) -> str:
    """What ``error`` says: the :class:`Wording` it was raised with, if any, else its
    text."""
    said = error.args[0] if error.args else None
    return said if isinstance(said, Wording) else str(error)
