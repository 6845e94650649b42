"""A message that names an extra says how to install it from where the user stands
(issue 22 item 4): from an index ``pip install "doubleholdem[server]"``, from a
checkout ``pip install ".[server]"`` (which is what the first means there)."""

from __future__ import annotations

import importlib.metadata
import json
from pathlib import Path
from typing import Any

import pytest

from doubleholdem import extras
from doubleholdem.errors import MissingExtra
from doubleholdem.extras import install_command, install_source

ROOT = Path(__file__).resolve().parent.parent


class _Installed:
    """A distribution whose ``direct_url.json`` is ``record`` (``None``: none)."""

    def __init__(self, record: dict[str, Any] | None) -> None:
        self.record = record

    def read_text(self, name: str) -> str | None:
        assert name == "direct_url.json"
        return None if self.record is None else json.dumps(self.record)


def _installed(monkeypatch: pytest.MonkeyPatch, record: dict[str, Any] | None) -> None:
    monkeypatch.setattr(extras, "_checkout", lambda: None)  # not run from a source tree
    monkeypatch.setattr(importlib.metadata, "distribution", lambda name: _Installed(record))


def test_from_this_checkout(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A package imported from a source tree (PYTHONPATH or editable) names that tree; one
    imported from an installed wheel (as in CI) does not, and then pip's record speaks."""
    imported_here = Path(extras.__file__).resolve().is_relative_to(ROOT / "python")
    assert (extras._checkout() == ROOT) is imported_here
    monkeypatch.setattr(extras, "_checkout", lambda: ROOT)
    assert install_source() == ROOT
    monkeypatch.chdir(ROOT)
    assert install_command("server") == 'pip install ".[server]"'
    monkeypatch.chdir(tmp_path)
    assert install_command("server") == f'pip install "{ROOT}[server]"'


def test_from_an_index(monkeypatch: pytest.MonkeyPatch) -> None:
    _installed(monkeypatch, None)
    assert install_command("server") == 'pip install "doubleholdem[server]"'
    message = 'a cluster needs no_such_module: pip install "doubleholdem[ray]"'
    with pytest.raises(MissingExtra, match=message.replace("[", r"\[").replace("]", r"\]")):
        extras.require("no_such_module", "ray", "a cluster")


def test_from_a_directory_or_a_wheel(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    checkout = tmp_path / "my checkout"
    checkout.mkdir()
    _installed(monkeypatch, {"url": checkout.as_uri(), "dir_info": {}})
    monkeypatch.chdir(checkout)
    assert install_command("plot") == 'pip install ".[plot]"'
    monkeypatch.chdir(tmp_path)
    assert install_command("plot") == 'pip install "./my checkout[plot]"'
    wheel = tmp_path / "doubleholdem-0.1.0-cp39-abi3-linux_x86_64.whl"
    _installed(monkeypatch, {"url": wheel.as_uri(), "archive_info": {}})
    assert install_command("plot") == f'pip install "./{wheel.name}[plot]"'


@pytest.mark.parametrize(
    "record",
    [
        {"url": "https://github.com/x/doubleholdem", "vcs_info": {"vcs": "git"}},
        {"no": "url"},
        ["not", "an", "object"],
    ],
)
def test_a_remote_or_unreadable_record_is_an_index(
    monkeypatch: pytest.MonkeyPatch, record: Any
) -> None:
    _installed(monkeypatch, record)
    assert install_command("numpy") == 'pip install "doubleholdem[numpy]"'


def test_not_installed_and_not_a_checkout(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> None:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(extras, "_checkout", lambda: None)
    monkeypatch.setattr(importlib.metadata, "distribution", missing)
    assert install_source() is None
