"""The room's settings from a TOML file: ``[[table]]`` entries of
:class:`~doubleholdem.table.TableConfig` fields."""

from __future__ import annotations

from doubleholdem.table import TableConfig
from doubleholdem.textfile import read_text

__all__ = ["MAX_CONFIG_BYTES", "load_configs"]

MAX_CONFIG_BYTES = 1 << 20
"""The largest settings file :func:`load_configs` reads (1 MiB)."""


def load_configs(path: str) -> list[TableConfig]:
    """The table settings in the TOML file at ``path``: a regular file of UTF-8 text of at
    most :data:`MAX_CONFIG_BYTES` bytes, else :class:`~doubleholdem.errors.InvalidConfig`.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
    ...     _ = f.write('[[table]]\\nvariant = "double"\\nstructure = "fixed-limit"\\n'
    ...                 'small_blind = 10\\nbig_blind = 20\\nseats = 4\\n')
    >>> [(c.variant.value, c.structure.value, c.big_blind, c.seats) for c in load_configs(f.name)]
    [('double', 'fixed-limit', 20, 4)]
    >>> os.unlink(f.name)
    """
    import rtoml

    from doubleholdem.errors import InvalidConfig
    from doubleholdem.game import Rake

    text = read_text(path, MAX_CONFIG_BYTES, lambda reason: InvalidConfig(f"{path}: {reason}"))
    try:
        data = rtoml.loads(text)
    except (rtoml.TomlParsingError, ValueError, TypeError) as error:
        raise InvalidConfig(f"{path}: {error}") from None
    entries = data.get("table")
    if (
        not isinstance(entries, list)
        or not entries
        or not all(isinstance(e, dict) for e in entries)
    ):
        raise InvalidConfig(f"{path}: needs a [[table]] list")
    configs = []
    for entry in entries:
        fields = dict(entry)
        try:
            if isinstance(fields.get("rake"), dict):
                fields["rake"] = Rake(**fields["rake"])
            configs.append(TableConfig(**fields))
        except TypeError as error:
            raise InvalidConfig(f"{path}: {error}") from None
    return configs
