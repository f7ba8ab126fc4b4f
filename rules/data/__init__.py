"""Rule-system tables as data files (TOML), validated at load.

Each rule system keeps its numbers (difficulties, weapon tables, health levels …) in
``rules/data/<system key>.toml`` so a game's staff can change them without touching code.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parent


class RulesDataError(ValueError):
    """A data file is missing, unreadable or holds a value of the wrong shape."""


def load_system_data(key: str, data_dir: Path | None = None) -> dict[str, Any]:
    """Read ``<data_dir>/<key>.toml`` into a dict.

    Raises:
        RulesDataError: the file is missing or is not valid TOML.
    """
    path = (data_dir or DATA_DIR) / f"{key}.toml"
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError as err:
        raise RulesDataError(f"No rules data file {path}.") from err
    except tomllib.TOMLDecodeError as err:
        raise RulesDataError(f"{path}: {err}") from err


def require(table: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    """``table[key]`` checked against ``kind``; ``where`` names the table in the error.

    Raises:
        RulesDataError: the key is missing or its value has the wrong type.
    """
    if key not in table:
        raise RulesDataError(f"{where}: missing '{key}'.")
    value = table[key]
    if isinstance(value, bool) and kind in (int, (int,)):
        raise RulesDataError(f"{where}.{key}: expected a whole number, got {value!r}.")
    if not isinstance(value, kind):
        raise RulesDataError(f"{where}.{key}: expected {getattr(kind, '__name__', kind)}, got {value!r}.")
    return value


def require_choice(value: str, choices: tuple[str, ...], where: str) -> str:
    """``value`` if it is one of ``choices``.

    Raises:
        RulesDataError: naming ``where`` and the choices.
    """
    if value not in choices:
        raise RulesDataError(f"{where}: expected one of {', '.join(choices)}, got {value!r}.")
    return value
