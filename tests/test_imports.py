"""The package's imports point down (ARCHITECTURE.md): no cycle between its modules, and
nothing outside ``doubleholdem.cli`` imports the command line. Imports inside functions
count too: a lazy import is still an arrow."""

from __future__ import annotations

import ast
import re
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


# -- LegalActions is read by name (issue 31 item 3) -------------------------------------

LEGAL_OWNER = "doubleholdem.game.betting"  # defines LegalActions and its fast accessors
_OPTION_NAMES = ("legal", "options")  # what the package calls a LegalActions


def _names_options(node: ast.AST) -> bool:
    """True if ``node`` is a name or attribute that holds a :class:`LegalActions` by the
    package's naming (``legal``, ``options``, ``self._legal``, ``error.legal``...)."""
    name = node.id if isinstance(node, ast.Name) else getattr(node, "attr", None)
    return isinstance(name, str) and name.lstrip("_").lower() in _OPTION_NAMES


def positional_reads(source: str) -> list[str]:
    """The places in ``source`` that read a LegalActions by position: ``legal[3]``,
    ``legal[:9]``, ``_, fold, *_ = legal``, ``for x in legal`` targets, and
    ``itemgetter(slice(...))`` (a multi-field read by position, wherever it is used)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Subscript) and _names_options(node.value):
            index = node.slice
            if isinstance(index, ast.Slice) or (
                isinstance(index, ast.Constant) and isinstance(index.value, int)
            ):
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if _names_options(node.value) and any(
                isinstance(t, (ast.Tuple, ast.List)) for t in targets
            ):
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", getattr(node.func, "attr", None)) == "itemgetter"
            and any(
                isinstance(a, ast.Call) and getattr(a.func, "id", "") == "slice" for a in node.args
            )
        ):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def test_positional_reads_are_found() -> None:
    """The check sees each form of a positional read (so an empty answer means none)."""
    assert positional_reads("chips = legal[3]")
    assert positional_reads("shape = self._legal[1:6]")
    assert positional_reads("_, can_fold, _, call, low, high, _, _, _, _, _ = legal")
    assert positional_reads("_OPTIONS = itemgetter(slice(1, 6))")
    assert not positional_reads("chips = legal.call_amount; first = hands[0]; a, b = pair")


def test_no_module_but_betting_reads_legal_actions_by_position() -> None:
    """A field added to LegalActions shifts nothing silently: outside its module it is
    read by name (or through a named accessor betting.py owns, as ``options_shape``)."""
    found = {
        module: reads
        for module, path in MODULES.items()
        if module != LEGAL_OWNER and (reads := positional_reads(path.read_text(encoding="utf-8")))
    }
    assert found == {}


# -- the observation's offsets are the layout's (issue 31 item 4) ------------------------

LAYOUT = "doubleholdem.rl.layout"  # the one declaration of the observation's blocks


def literal_offsets(source: str) -> list[str]:
    """The places in ``source`` that place something by a literal number: a whole number
    above 1 added to or taken from an index (``start + 57``, ``_seats + 3``, ``n + 11``),
    a bound of a slice (``records[:, 2:4]``) or an index (``rows[:, 4]``, ``view[3]``).
    Named constants (``CARDS``, ``layout.past.size``) and multiples (``2 * window``)
    are not offsets."""

    def literal(node: ast.AST | None) -> bool:
        return isinstance(node, ast.Constant) and type(node.value) is int and node.value > 1

    found = []
    for node in ast.walk(ast.parse(source)):
        places: list[ast.AST | None] = []
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            places = [node.left, node.right]
        elif isinstance(node, ast.Slice):
            places = [node.lower, node.upper]
        elif isinstance(node, ast.Subscript):
            index = node.slice
            places = list(index.elts) if isinstance(index, ast.Tuple) else [index]
        if any(map(literal, places)):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def test_literal_offsets_are_found() -> None:
    """The check sees each form of a literal offset (so an empty answer means none)."""
    for offset in ("x = start + 57", "o[_seats + 3] = 1", "row = n + 11", "r[:, 2:4]", "r[:, 4]"):
        assert literal_offsets(offset), offset
    assert not literal_offsets("x = layout.seats + TO_ACT; y = 2 * window; z = a[i + 1]")


def test_no_literal_offset_in_rl_outside_the_layout() -> None:
    found = {
        module: places
        for module, path in MODULES.items()
        if module.startswith("doubleholdem.rl.")
        and module != LAYOUT
        and (places := literal_offsets(path.read_text(encoding="utf-8")))
    }
    assert found == {}


# -- the server's tree (issue 31 item 7) --------------------------------------------------

SERVER = "doubleholdem.server"
# Each concern of the server, with the concerns it may import: http on tables and
# tournaments, each of those on money and storage, money on storage, all on cluster
# (the lease rules, on the database alone). What they all share
# (the wire format, settings, the operator's log, the process tuning) sits in
# ``server/`` itself and imports none of them.
LAYERS = {
    "http": {"http", "tables", "tournaments", "money", "storage", "cluster"},
    "tournaments": {"tournaments", "money", "storage", "cluster"},
    "tables": {"tables", "money", "storage", "cluster"},
    "money": {"money", "storage", "cluster"},
    "storage": {"storage", "cluster"},
    "cluster": {"cluster"},
    "": set(),
}
DOCS = Path(__file__).resolve().parent.parent / "docs"
OLD_PATHS = {"doubleholdem.server.room": "doubleholdem.server.tables.room"}  # docs showed it


def _concern(module: str) -> str:
    """The concern a server module belongs to (``""``: the shared ones at the root)."""
    parts = module.split(".")[2:]  # below doubleholdem.server
    return parts[0] if parts and parts[0] in LAYERS and (len(parts) > 1 or parts[0]) else ""


def test_the_server_is_a_tree_of_its_concerns() -> None:
    """Every server module but the shared ones and the old paths kept lives in a concern."""
    flat = sorted(
        module
        for module in MODULES
        if module.startswith(SERVER + ".")
        and module.count(".") == 2
        and module not in OLD_PATHS
        and module.rpartition(".")[2] not in LAYERS
    )
    shared = ("metrics", "oplog", "patches", "process", "protocol", "settings")
    assert flat == [f"{SERVER}.{name}" for name in shared]


def test_server_imports_point_down_its_tree() -> None:
    upward = sorted(
        f"{module} imports {target}"
        for module, targets in GRAPH.items()
        if module.startswith(SERVER + ".") and module not in OLD_PATHS
        for target in targets
        if target.startswith(SERVER + ".")
        and _concern(target)  # the shared modules are below every concern
        and _concern(target) not in LAYERS[_concern(module)]
    )
    assert upward == []


def test_the_old_server_paths_are_the_new_modules() -> None:
    import importlib

    for old, new in OLD_PATHS.items():
        old_module, new_module = importlib.import_module(old), importlib.import_module(new)
        assert old_module.__all__ == new_module.__all__
        assert all(getattr(old_module, n) is getattr(new_module, n) for n in new_module.__all__)


def test_docs_list_every_server_module() -> None:
    """docs/server.md's "The code, one concept per file" names each module of the server."""
    page = (DOCS / "server.md").read_text(encoding="utf-8")
    listed = page.split("### The code, one concept per file")[1].split("\n### ")[0]
    missing = sorted(
        module
        for module, path in MODULES.items()
        if module.startswith(SERVER + ".")
        and path.name != "__init__.py"
        and module not in OLD_PATHS
        and f"`{module.rpartition('.')[2]}`" not in listed
    )
    assert missing == []


# a pattern that reads the number after "seat" or "table", or before "is not a seat"
_NUMBERED_WORD = re.compile(r"(seat|table)s?\??\)? \(?\\d|is not a seat")


def _renumbering_patterns(source: str) -> list[str]:
    """The regular expressions in ``source`` that read seats or tables out of text."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "re"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and _NUMBERED_WORD.search(node.args[0].value)
        ):
            found.append(node.args[0].value)
    return found


def test_renumbering_patterns_are_found() -> None:
    assert _renumbering_patterns('import re\nre.compile(r"\\b(seats?) (\\d+)")') == [
        "\\b(seats?) (\\d+)"
    ]
    assert _renumbering_patterns('import re\nre.compile(r"\\d+ cards")') == []
    assert _renumbering_patterns('import re\nre.compile(r"(\\d+) is not a seat")') != []
    assert _renumbering_patterns('import re\nre.compile(r"\\"table\\":(.*)")') == []


def test_no_module_renumbers_seats_or_tables_in_text() -> None:
    """Seats and tables are numbered for people from their numbers (issue 31 item 5:
    ``doubleholdem.wording``), never by a regular expression over English text."""
    found = {
        module: patterns
        for module, path in MODULES.items()
        if (patterns := _renumbering_patterns(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def _calls_of(source: str, method: str) -> list[str]:
    """The functions of ``source`` that call a method named ``method``."""
    found = []
    for function in ast.walk(ast.parse(source)):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(function):
                if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                    continue
                if node.func.attr == method:
                    found.append(function.name)
    return found


def test_the_server_applies_the_clock_in_one_place() -> None:
    """Issue 31 item 5: the deadlines a table passed are applied by the server in one
    place, :meth:`TableRunner.catch_up`, for a player's decision, a bot's and the
    table's own task alike (the journal's replay applies again what it stored)."""
    assert _calls_of("def f(t):\n    t.advance(1)\n", "advance") == ["f"]
    found = {
        module: calls
        for module, path in MODULES.items()
        if module.startswith(SERVER + ".")
        and (calls := _calls_of(path.read_text(encoding="utf-8"), "advance"))
    }
    assert found == {
        "doubleholdem.server.tables.runner": ["catch_up"],
        "doubleholdem.server.storage.journal": ["replay"],
        "doubleholdem.server.tournaments.runner": ["catch_up"],  # a tournament's tables
    }


_BINDING = {"table", "seat", "token", "since", "view"}


def _binding_writers(source: str) -> list[str]:
    """The assignments in ``source`` to a connection's binding (``x.seat = ...``, ``x``
    another object than ``self``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        targets = node.targets if isinstance(node, ast.Assign) else []
        for target in targets:
            items = target.elts if isinstance(target, ast.Tuple) else [target]
            found += [
                f"{item.value.id}.{item.attr}"
                for item in items
                if isinstance(item, ast.Attribute)
                and item.attr in _BINDING
                and isinstance(item.value, ast.Name)
                and item.value.id != "self"
            ]
    return found


def test_one_object_owns_a_connections_binding() -> None:
    """Issue 31 item 5: a connection's table, seat, seat token and what it was sent
    are written by ``server.tables.watchers`` alone (the room, the runner and the
    messages ask it)."""
    assert _binding_writers("c.seat = c.token = None\nself.seat = 1\na, b.view = 1, 2") == [
        "c.seat",
        "c.token",
        "b.view",
    ]
    found = {
        module: writes
        for module, path in MODULES.items()
        if module.startswith(SERVER + ".")
        and (writes := _binding_writers(path.read_text(encoding="utf-8")))
    }
    assert set(found) == {"doubleholdem.server.tables.watchers"}


# -- money has one owner (issue 31 item 2) ----------------------------------------------

MONEY_PACKAGE = "doubleholdem.server.money"  # the one place that knows the kinds of money
WALLET_KINDS = {
    "Wallet",
    "LedgerWallet",
    "Refunds",
    "WritesOff",
    "BoundedWallet",
    "RoomMoney",
    "TableMoney",
    "GuestMoney",
    "PlayChips",
    "LedgerMoney",
    "LedgerTableMoney",
    "PaidSeats",
    "WalletMoney",
    "WalletTableMoney",
}
_MONEY_NAMES = {"money", "wallet", "paid_by"}  # what the package calls a money or a wallet


def _names(node: ast.AST) -> list[str]:
    """The names ``node`` (a class, a tuple of classes) is made of."""
    if isinstance(node, ast.Tuple):
        return [name for element in node.elts for name in _names(element)]
    name = node.id if isinstance(node, ast.Name) else getattr(node, "attr", None)
    return [name] if isinstance(name, str) else []


def _holds_money(node: ast.AST) -> bool:
    """True if ``node`` names a money or a wallet (``money``, ``runner.money``,
    ``self._wallet``, ``room.wallet``...)."""
    name = node.id if isinstance(node, ast.Name) else getattr(node, "attr", None)
    return isinstance(name, str) and name.lstrip("_") in _MONEY_NAMES


def _isinstance_on_a_kind(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and getattr(node.func, "id", None) == "isinstance"
        and len(node.args) == 2
        and bool(WALLET_KINDS & set(_names(node.args[1])))
    )


def _none_test_of_money(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Compare)
        and any(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops)
        and any(isinstance(c, ast.Constant) and c.value is None for c in node.comparators)
        and _holds_money(node.left)
    )


def _outside_flag(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr in ("outside", "_wallet_outside")


def kind_dispatch(source: str) -> list[str]:
    """The places in ``source`` that decide the kind of money again: ``isinstance`` on a
    wallet or money kind, an ``is None`` / ``is not None`` test of a money or a wallet,
    and a read of a money's old ``outside`` flag."""
    tests = (_isinstance_on_a_kind, _none_test_of_money, _outside_flag)
    return [
        f"line {getattr(node, 'lineno', 0)}: {ast.unparse(node)}"
        for node in ast.walk(ast.parse(source))
        if any(test(node) for test in tests)
    ]


def test_kind_dispatch_is_found() -> None:
    """The check sees each form of a decision on the kind (so an empty answer means none)."""
    source = (
        "if isinstance(wallet, LedgerWallet): pass\n"
        "if isinstance(w, (Refunds, accounts.wallet.WritesOff)): pass\n"
        "if runner.money is None: pass\n"
        "if money is not None and money.outside: pass\n"
        "ok = self._wallet is None\n"
        "if isinstance(x, int) and runner.table is None: pass\n"
    )
    assert sorted(found.split(":")[0] for found in kind_dispatch(source)) == [
        "line 1",
        "line 2",
        "line 3",
        "line 4",
        "line 4",
        "line 5",
    ]


def test_the_kind_of_money_is_decided_in_the_money_package_alone() -> None:
    """Outside ``server/money/`` no module asks which kind of money it holds: the room's
    money, chosen once (``money/choose.py``), answers by method."""
    found = sorted(
        f"{module} {place}"
        for module, path in MODULES.items()
        if not module.startswith(MONEY_PACKAGE + ".")
        for place in kind_dispatch(path.read_text(encoding="utf-8"))
    )
    assert found == []
