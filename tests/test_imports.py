"""The package's imports point down (ARCHITECTURE.md): no cycle between its modules, and
nothing outside ``doubleholdem.cli`` imports the command line. Imports inside functions
count too: a lazy import is still an arrow."""

from __future__ import annotations

import ast
from pathlib import Path

import doubleholdem

ROOT = Path(doubleholdem.__file__).resolve().parent


def _module_name(path: Path) -> str:
    parts = ["doubleholdem", *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in sorted(ROOT.rglob("*.py"))}
LEAVES = {"doubleholdem._core"}  # the compiled core imports nothing of the package


def _target(name: str) -> str | None:
    """The package module that ``name`` (a module or a name inside one) lives in."""
    while name and name not in MODULES and name not in LEAVES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str) -> set[str]:
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            names = [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        found.update(t for t in map(_target, names) if t and t != module)
    return found


GRAPH = {**{module: _imports(module) for module in MODULES}, **{leaf: set() for leaf in LEAVES}}


def _cycle() -> list[str] | None:
    """One import cycle, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(GRAPH[module]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (found := visit(target)):
                return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(GRAPH):
        if module not in state and (found := visit(module)):
            return found
    return None


def test_the_graph_is_read() -> None:
    assert "doubleholdem.cli" in GRAPH
    assert "doubleholdem.game.hand" in GRAPH["doubleholdem.game.phh"]
    assert "doubleholdem.cli.base" in GRAPH["doubleholdem.cli.casino"]


def test_no_import_cycle() -> None:
    assert _cycle() is None, " -> ".join(_cycle() or [])


def test_nothing_below_the_command_line_imports_it() -> None:
    upward = sorted(
        f"{module} imports {target}"
        for module, targets in GRAPH.items()
        if not module.startswith("doubleholdem.cli")
        for target in targets
        if target.startswith("doubleholdem.cli")
    )
    assert upward == []
