"""A griffe extension for the API reference (mkdocs.yml): the package's docstrings are
reStructuredText-flavoured prose with doctest examples; this makes them read well as
Markdown without changing them in the source.

- A run of ``>>>`` lines with their output becomes a fenced ``pycon`` block (Markdown
  would otherwise read ``>>>`` as nested quotes).
- A Sphinx role such as ``:class:`~doubleholdem.table.Table``` becomes inline code.
- A reStructuredText literal ````x```` becomes Markdown's ```x```.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:class|func|meth|mod|attr|data|exc|obj):`(~?)([^`<]*?)\s*(?:<[^>]*>)?`")
RST_LITERAL = re.compile(r"``([^`]+)``")


def _role(match: re.Match[str]) -> str:
    short, target = match.groups()
    return f"`{target.rsplit('.', 1)[-1] if short else target}`"


def _fence_doctests(text: str) -> str:
    lines = text.splitlines()
    out: list[str] = []
    in_block = False
    for line in lines:
        stripped = line.strip()
        if not in_block and stripped.startswith(">>>"):
            out.append("```pycon")
            in_block = True
        elif in_block and not stripped:
            out.append("```")
            in_block = False
        out.append(line)
    if in_block:
        out.append("```")
    return "\n".join(out)


def markdown_docstring(text: str) -> str:
    """The docstring *text* as Markdown (the rules in the module docstring)."""
    parts = re.split(r"(?m)^(\s*>>>.*(?:\n(?!\s*$).*)*)", text)
    prose = [
        part if index % 2 else RST_LITERAL.sub(r"`\1`", ROLE.sub(_role, part))
        for index, part in enumerate(parts)
    ]
    return _fence_doctests("".join(prose))


class MarkdownDocstrings(griffe.Extension):
    """Rewrites every docstring of a package with `markdown_docstring` once it is loaded."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        pending: list[griffe.Object] = [pkg]
        while pending:
            obj = pending.pop()
            if obj.docstring is not None:
                obj.docstring.value = markdown_docstring(obj.docstring.value)
            pending.extend(
                member for member in obj.members.values() if not isinstance(member, griffe.Alias)
            )
