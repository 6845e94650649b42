"""The room's settings from a TOML file: ``[[table]]`` entries of
:class:`~doubleholdem.table.TableConfig` fields."""

from __future__ import annotations

from doubleholdem.table import TableConfig

__all__ = ["load_configs"]


def load_configs(path: str) -> list[TableConfig]:
    """The table settings in the TOML file at ``path``.

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

    try:
        with open(path, encoding="utf-8") as file:
            data = rtoml.load(file)
    except (OSError, rtoml.TomlParsingError, ValueError, TypeError) as error:
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
        if isinstance(fields.get("rake"), dict):
            fields["rake"] = Rake(**fields["rake"])
        try:
            configs.append(TableConfig(**fields))
        except TypeError as error:
            raise InvalidConfig(f"{path}: {error}") from None
    return configs
