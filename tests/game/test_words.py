"""The decision words are defined once (issue 18 item 3): ``doubleholdem.game.words``;
no other module of the rules, the table, the bots or the server compares with, or
builds a decision from, the words spelled out."""

from __future__ import annotations

import ast
from pathlib import Path

from doubleholdem.game import Action, words

PACKAGE = Path(words.__file__).resolve().parent.parent
WORDS = set(words.ACTIONS) | {words.TIMEOUT}
# the casino game (HU rules) is another game with its own decisions; the command line
# names its own commands ("point")
ELSEWHERE = ("casino", "cli")


BUILDERS = {"Decision", "act", "_log", "_log_event", "_expect"}


def _name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _spelled(tree: ast.AST) -> list[tuple[int, str]]:
    """Decision words in comparisons (``==``, ``in (...)``) and as the first argument of
    what builds a decision or an event (``Decision("bet", ...)``, ``_log("timeout")``)."""
    found = []
    for node in ast.walk(tree):
        operands: list[ast.expr] = []
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
        elif isinstance(node, ast.Call) and node.args and _name(node.func) in BUILDERS:
            operands = [node.args[0]]
        for operand in operands:
            many = isinstance(operand, (ast.Tuple, ast.Set, ast.List))
            items = operand.elts if many else [operand]
            texts = [i.value for i in items if isinstance(i, ast.Constant)]
            if texts and all(text in WORDS for text in texts):  # ("cards", "point"): fields
                found.extend((operand.lineno, text) for text in texts)
    return found


def test_the_words_are_the_actions() -> None:
    assert tuple(action.value for action in Action) == words.BETTING_ACTIONS
    assert set(words.DECISIONS) <= set(words.ACTIONS)


def test_no_module_spells_a_decision_word() -> None:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE)
        if relative.parts[0] in ELSEWHERE or path.name == "words.py":
            continue
        for line, word in _spelled(ast.parse(path.read_text(encoding="utf-8"))):
            offenders.append(f"{relative}:{line}: {word!r}")
    assert offenders == []
