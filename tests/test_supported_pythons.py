"""Every supported Python gets its dependencies, and a missing optional extra is named
(issue 12). The wheel itself is installed into the oldest and newest supported CPython
by ``ci/multi_python.sh`` (run by ``make test``)."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from doubleholdem import casino
from doubleholdem.cli import main
from doubleholdem.errors import DoubleHoldemError, MissingExtra
from doubleholdem.extras import install_command

ROOT = Path(__file__).parent.parent

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def _project() -> dict[str, object]:
    with open(ROOT / "pyproject.toml", "rb") as file:
        project: dict[str, object] = tomllib.load(file)["project"]
    return project


def _requirement_names(lines: list[str]) -> set[str]:
    return {re.split(r"[<>=!~;\[ ]", line, maxsplit=1)[0].lower() for line in lines}


def _third_party_imports() -> set[str]:
    """Top-level names of every module the package imports that is neither its own nor
    the standard library's."""
    names: set[str] = set()
    for path in (ROOT / "python" / "doubleholdem").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module.split(".")[0])
    return {n for n in names if n not in sys.stdlib_module_names and n != "doubleholdem"}


def test_every_import_is_a_declared_dependency_or_a_named_extra() -> None:
    """On 3.9 and 3.10 `replay` failed with ModuleNotFoundError: No module named 'tomli',
    which was not declared. Every third-party import is now either a dependency (for
    every supported Python: ``make pythons`` installs the wheel into 3.9 and 3.13) or an
    optional extra that :func:`doubleholdem.extras.require` names."""
    from doubleholdem.extras import EXTRAS

    project = _project()
    assert project["requires-python"] == ">=3.9"
    dependencies = _requirement_names(project["dependencies"])  # type: ignore[arg-type]
    for name in _third_party_imports():
        assert name in dependencies or name in EXTRAS, f"{name} is not a declared dependency"


def test_every_optional_module_has_its_extra() -> None:
    from doubleholdem.extras import EXTRAS

    extras = _project()["optional-dependencies"]
    for module, extra in EXTRAS.items():
        assert any(module in line for line in extras[extra])  # type: ignore[index]


@pytest.mark.parametrize(
    ("module", "extra", "call"),
    [
        ("ray", "ray", lambda: casino.ray_runner([])),
        ("numpy", "numpy", lambda: __import__("doubleholdem").evaluate_batch([[0, 1, 2, 3, 4]])),
    ],
)
def test_a_missing_extra_is_named(
    module: str, extra: str, call: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(MissingExtra) as error:
        call()  # type: ignore[operator]
    assert str(error.value).endswith(f": {install_command(extra)}")
    assert isinstance(error.value, ImportError) and isinstance(error.value, DoubleHoldemError)
    assert error.value.extra == extra


def test_a_missing_plot_extra_on_the_command_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from doubleholdem.cli import casino as cli

    def no_analysis(args: object) -> None:
        pytest.fail("the missing extra is named before the analysis starts")

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setattr(cli, "_analysis", no_analysis)
    assert main(["casino", "analyze", "--plot", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert err.strip() == (
        f"doubleholdem: error: --plot needs matplotlib: {install_command('plot')}"
    )
