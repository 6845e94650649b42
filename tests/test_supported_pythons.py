"""Every supported Python gets its dependencies, and a missing optional extra is named
(issue 12). The wheel itself is installed into the oldest and newest supported CPython
by ``ci/multi_python.sh`` (run by ``make test``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from doubleholdem import casino
from doubleholdem.cli import main
from doubleholdem.errors import DoubleHoldemError, MissingExtra

ROOT = Path(__file__).parent.parent

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def _project() -> dict[str, object]:
    with open(ROOT / "pyproject.toml", "rb") as file:
        project: dict[str, object] = tomllib.load(file)["project"]
    return project


def test_tomli_is_a_dependency_where_tomllib_is_missing() -> None:
    """On 3.9 and 3.10 `replay` failed with ModuleNotFoundError: No module named 'tomli'."""
    project = _project()
    assert project["requires-python"] == ">=3.9"
    assert 'tomli>=1.1; python_version < "3.11"' in project["dependencies"]  # type: ignore[operator]


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
    with pytest.raises(MissingExtra, match=rf"pip install doubleholdem\[{extra}\]") as error:
        call()  # type: ignore[operator]
    assert isinstance(error.value, ImportError) and isinstance(error.value, DoubleHoldemError)
    assert error.value.extra == extra


def test_a_missing_plot_extra_on_the_command_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from doubleholdem.casino import cli

    def no_analysis(args: object) -> None:
        pytest.fail("the missing extra is named before the analysis starts")

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setattr(cli, "_analysis", no_analysis)
    assert main(["casino", "analyze", "--plot", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert err.strip() == (
        "doubleholdem: error: --plot needs matplotlib: pip install doubleholdem[plot]"
    )
