"""The optional dependencies and the extra of the package that installs each:
``numpy`` (batch functions), ``plot`` (matplotlib, ``casino analyze --plot``), ``ray``
(:func:`doubleholdem.casino.ray_runner`), ``server`` (``serve`` and ``loadtest``) and
``accounts`` (argon2-cffi: the passwords of :mod:`doubleholdem.accounts`).
Asking for a missing one raises :class:`~doubleholdem.errors.MissingExtra`, which says
what to install.

>>> require("json", "none", "this example").__name__
'json'
>>> require("no_such_module", "ray", "a cluster")
Traceback (most recent call last):
...
doubleholdem.errors.MissingExtra: a cluster needs no_such_module: pip install doubleholdem[ray]
"""

from __future__ import annotations

import importlib
from types import ModuleType

from doubleholdem.errors import MissingExtra

__all__ = ["EXTRAS", "require"]

EXTRAS = {
    "numpy": "numpy",
    "matplotlib": "plot",
    "ray": "ray",
    "starlette": "server",
    "uvicorn": "server",
    "websockets": "server",
    "argon2": "accounts",
}
"""Each optional module and the extra that installs it."""


def require(module: str, extra: str, what: str) -> ModuleType:
    """Imports ``module`` for ``what``, or raises :class:`MissingExtra` naming
    ``pip install doubleholdem[extra]``."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise MissingExtra(
            f"{what} needs {module}: pip install doubleholdem[{extra}]", extra=extra
        ) from error
