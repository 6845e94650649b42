"""The optional dependencies and the extra of the package that installs each:
``numpy`` (batch functions), ``plot`` (matplotlib, ``casino analyze --plot``), ``ray``
(:func:`doubleholdem.casino.ray_runner`), ``server`` (``serve`` and ``loadtest``),
``accounts`` (argon2-cffi: the passwords of :mod:`doubleholdem.accounts`), ``postgres``
(psycopg 3: a room's database on PostgreSQL, :mod:`doubleholdem.database`) and ``rl``
(PettingZoo and Gymnasium, :mod:`doubleholdem.rl`).
Asking for a missing one raises :class:`~doubleholdem.errors.MissingExtra`, which says
what to install, from where the user stands (:func:`install_command`).

>>> require("json", "none", "this example").__name__
'json'
>>> require("no_such_module", "ray", "a cluster")
Traceback (most recent call last):
...
doubleholdem.errors.MissingExtra: a cluster needs no_such_module: pip install "...[ray]"
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from types import ModuleType

from doubleholdem.errors import MissingExtra

__all__ = ["EXTRAS", "install_command", "require"]

EXTRAS = {
    "numpy": "numpy",
    "pettingzoo": "rl",
    "gymnasium": "rl",
    "matplotlib": "plot",
    "ray": "ray",
    "starlette": "server",
    "uvicorn": "server",
    "websockets": "server",
    "argon2": "accounts",
    "psycopg": "postgres",
    "prometheus_client": "metrics",
}
"""Each optional module and the extra that installs it."""

PACKAGE = "doubleholdem"


def require(module: str, extra: str, what: str) -> ModuleType:
    """Imports ``module`` for ``what``, or raises :class:`MissingExtra` naming the
    command that installs ``extra`` (:func:`install_command`)."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        message = f"{what} needs {module}: {install_command(extra)}"
        raise MissingExtra(message, extra=extra) from error


def install_command(extra: str, source: Path | str | None = "detect") -> str:
    """The pip command that adds ``extra`` to this installation: from the package index
    (``pip install "doubleholdem[server]"``) when the package came from one, else from
    the directory or file it was installed from (``source``, found by
    :func:`install_source` unless given), shown relative to the current directory: from
    a checkout, ``pip install ".[server]"``.

    >>> install_command("server", source=None)
    'pip install "doubleholdem[server]"'
    >>> install_command("server", source=Path.cwd())
    'pip install ".[server]"'
    >>> install_command("plot", source=Path.cwd() / "src" / "doubleholdem")
    'pip install "./src/doubleholdem[plot]"'
    """
    where = install_source() if isinstance(source, str) else source
    if where is None:
        return f'pip install "{PACKAGE}[{extra}]"'
    return f'pip install "{_shown(where)}[{extra}]"'


def install_source() -> Path | None:
    """Where the running package was installed from, or ``None`` for a package index:
    the checkout it is imported from (a source tree on ``PYTHONPATH``, or an editable
    install), else the local directory or file pip recorded (``direct_url.json``, PEP
    610: ``pip install .`` or ``pip install ./doubleholdem.whl``)."""
    checkout = _checkout()
    if checkout is not None:
        return checkout
    # imported here, not at load: importlib.metadata and urllib.request (http.client,
    # email) cost more to import than the rest of the package, and only this asks them
    import importlib.metadata
    import json
    import urllib.parse
    import urllib.request

    try:
        text = importlib.metadata.distribution(PACKAGE).read_text("direct_url.json")
    except importlib.metadata.PackageNotFoundError:
        return None
    if not text:
        return None  # no record: from an index
    try:
        url = json.loads(text).get("url", "")
    except (ValueError, AttributeError):
        return None
    if not isinstance(url, str) or not url.startswith("file:"):
        return None  # from a VCS or a remote archive: its URL is no local path
    return Path(urllib.request.url2pathname(urllib.parse.urlparse(url).path))


def _checkout() -> Path | None:
    """The source tree the package is imported from (``python/doubleholdem`` under a
    directory with the project's ``pyproject.toml``), if it is."""
    root = Path(__file__).resolve().parent.parent.parent
    project = root / "pyproject.toml"
    try:
        text = project.read_text(encoding="utf-8")
    except OSError:
        return None
    return root if f'name = "{PACKAGE}"' in text else None


def _shown(path: Path) -> str:
    """``path`` as the user would type it here: ``.``, ``./below`` or absolute."""
    here = Path.cwd()
    if path == here:
        return "."
    try:
        return "./" + path.relative_to(here).as_posix()
    except ValueError:
        return os.fspath(path)
