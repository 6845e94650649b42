"""Writes tests/INDEX.md: for each module of the package, the test files that test it.

Run it from the repository's root with the package importable (``python3
tests/make_index.py``) after adding a module or a test file. A module's tests are the
files named after it (``test_<module>*.py``), then the files that import it (a name
imported from a package counts for the module that defines it, ``from doubleholdem
import rl`` then ``rl.env`` for the module of ``env``); a module no test imports is
tested through the modules of the package that import it, and its line says so.
``tests/test_index.py`` checks that every module has its line and every file it names
exists."""

from __future__ import annotations

import argparse
import ast
import importlib
import pathlib
import sys
import types

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "python" / "doubleholdem"
INDEX = ROOT / "tests" / "INDEX.md"
SHOWN = 6  # test files named on a module's line; the rest are counted

HEADER = """\
# Where each module is tested

Written by `python3 tests/make_index.py` (run it after adding a module or a test file;
`tests/test_index.py` checks that every module defining a function or a class has a
line and that every file named exists).
For each module of `python/doubleholdem`: the test files named after it, then those that
import it, nearest folder first. A module no test imports is tested *through* the modules
that import it.

| module | tests |
| --- | --- |
"""


def module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, pathlib.Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def defining(package: str, name: str) -> str:
    """The module that defines ``name`` imported from ``package`` (``package`` itself
    when the name is a constant or cannot be found)."""
    try:
        value = getattr(importlib.import_module(package), name)
    except (ImportError, AttributeError):
        return f"{package}.{name}"
    if isinstance(value, types.ModuleType):
        return value.__name__
    owner = getattr(value, "__module__", None)
    return owner if isinstance(owner, str) and owner.startswith("doubleholdem") else package


def helpers() -> dict[str, pathlib.Path]:
    """The tests' own modules that test files import (harnesses, doubles), by name; not
    conftest, whose fixtures every test may use."""
    return {
        p.stem: p
        for p in (ROOT / "tests").rglob("*.py")
        if not p.stem.startswith("test_") and p.stem not in ("conftest", "make_index")
    }


def tested(path: pathlib.Path, shared: dict[str, pathlib.Path]) -> set[str]:
    """What a test file imports, with what the tests' own modules it imports import."""
    found = imported(path)
    seen = {path}
    todo = [shared[n] for n in _local_imports(path) if n in shared]
    while todo:
        helper = todo.pop()
        if helper not in seen:
            seen.add(helper)
            found |= imported(helper)
            todo += [shared[n] for n in _local_imports(helper) if n in shared]
    return found


def _local_imports(path: pathlib.Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name.rpartition(".")[2] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.rpartition(".")[2])
    return names


def imported(path: pathlib.Path) -> set[str]:
    """The package's modules that the file at ``path`` imports or reads names of."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    bound: dict[str, str] = {}  # a local name of a module -> the module
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("doubleholdem"):
                    found.add(alias.name)
                    bound[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("doubleholdem"):
            source = node.module or ""
            for alias in node.names:
                name = defining(source, alias.name)
                found.add(name)
                bound[alias.asname or alias.name] = name
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            module = bound.get(node.value.id)
            if module is not None and module in sys.modules:
                found.add(defining(module, node.attr))
    if any(name.startswith("doubleholdem.cli") for name in found):
        found |= _commands(tree)
    return found


def _commands(tree: ast.AST) -> set[str]:
    """The command line's modules whose commands a file runs: a list of arguments
    (``["point", "--hole", ...]``, with or without ``"doubleholdem"`` first)."""
    from doubleholdem.cli import COMMANDS

    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.List, ast.Tuple)):
            words = [e.value for e in node.elts[:2] if isinstance(e, ast.Constant)]
            words = words[1:] if words[:1] == ["doubleholdem"] else words
            if words and isinstance(words[0], str) and words[0] in COMMANDS:
                found.add(COMMANDS[words[0]])
    return found


def _named_after(path: pathlib.Path, tests: list[pathlib.Path]) -> list[pathlib.Path]:
    """The test files named after the module at ``path`` in the folder that mirrors its
    package or one above it (``tests/server/test_runner.py`` for ``server/tables/runner.py``)."""
    stem = path.parent.name if path.stem == "__init__" else path.stem
    package = path.parent.relative_to(PACKAGE).parts
    return [
        t
        for t in tests
        if (t.stem == f"test_{stem}" or t.stem.startswith(f"test_{stem}_"))
        and package[: len(_folder(t))] == _folder(t)
    ]


def _folder(test: pathlib.Path) -> tuple[str, ...]:
    return test.parent.relative_to(ROOT / "tests").parts


def _nearest_first(path: pathlib.Path, files: set[pathlib.Path]) -> list[pathlib.Path]:
    """``files`` in the test folder that mirrors the package of the module at ``path`` first."""
    package = path.parent.relative_to(PACKAGE).parts
    return sorted(files, key=lambda t: (package[: len(_folder(t))] != _folder(t), str(t)))


def index() -> str:
    known = modules()
    tests = sorted(p for p in (ROOT / "tests").rglob("test_*.py"))
    shared = helpers()
    importers: dict[str, set[pathlib.Path]] = {m: set() for m in known}
    for test in tests:
        for name in tested(test, shared):
            if name in importers:
                importers[name].add(test)
    users: dict[str, set[str]] = {m: set() for m in known}  # module -> package modules using it
    for name, path in known.items():
        for used in imported(path):
            if used in users and used != name:
                users[used].add(name)
    lines = [HEADER]
    for name, path in known.items():
        if not defines(path):
            continue  # a package's front (imports and __all__) or an entry point's stub
        named = _named_after(path, tests)
        files = named + [t for t in _nearest_first(path, importers[name]) if t not in named]
        through = ""
        if not files:
            via = sorted(users[name])
            found = {t for user in via for t in importers[user]}
            files = _nearest_first(path, found)
            through = "through " + ", ".join(f"`{module_path(known[u])}`" for u in via) + ": "
        lines.append(f"| `{module_path(path)}` | {through}{_listed(files)} |\n")
    return "".join(lines)


def defines(path: pathlib.Path) -> bool:
    """Whether the module at ``path`` defines a function or a class of its own."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(
        isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) for n in tree.body
    )


def module_path(path: pathlib.Path) -> str:
    return str(path.relative_to(PACKAGE))


def _listed(files: list[pathlib.Path]) -> str:
    if not files:
        return "none"
    shown = ", ".join(str(f.relative_to(ROOT / "tests")) for f in files[:SHOWN])
    more = len(files) - SHOWN
    return shown + (f" (+{more} more)" if more > 0 else "")


if __name__ == "__main__":
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    INDEX.write_text(index(), encoding="utf-8")
    print(f"wrote {INDEX.relative_to(ROOT)}")
