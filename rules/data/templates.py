"""NPC stat templates as data files, one per rule system, validated at load.

``rules/data/templates/<system key>.toml`` holds ``[templates.<key>]`` tables::

    [templates.thug]
    name = "Thug"            # display name
    kind = "Muggle"          # one of the system's kinds (when it has kinds)
    base_kind = "Muggle"     # optional: only for a kind with base_kinds (a Werewolf)
    weapon = "switchblade"   # optional: one of the system's weapon keys ("" = none)
    [templates.thug.traits]
    Strength = 3             # canonical trait names of the system, ratings in the
                             # system's range (``trait_range``: 0-20 unless it says otherwise)

A system without a file simply has no templates. Pure: no Evennia or Django here; the caller
passes the system's vocabulary (``trait_names``, ``kinds``, ``weapons``).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from rules.data import DATA_DIR, RulesDataError, require

TEMPLATES_DIR = DATA_DIR / "templates"
MAX_RATING = 20
DEFAULT_RANGE = (0, MAX_RATING)
MAX_NAME = 20
KEY_PATTERN = re.compile(r"[a-z][a-z0-9-]{0,29}")
NAME_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9 '-]*")
FIELDS = ("name", "kind", "base_kind", "weapon", "traits")


@dataclass(frozen=True)
class NpcTemplate:
    """One NPC template: what ``+npc/create <name>=<key>`` writes on the new NPC."""

    key: str
    name: str
    kind: str = ""
    base_kind: str = ""
    weapon: str = ""
    traits: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))


def template_path(system_key: str, data_dir: Path | None = None) -> Path:
    return (data_dir or TEMPLATES_DIR) / f"{system_key}.toml"


def load_templates(system_key: str, trait_names: Iterable[str], kinds: Mapping[str, Any] | None = None,
                   weapons: Iterable[str] = (), data_dir: Path | None = None, *,
                   trait_range: Callable[[str], tuple[int, int]] | None = None) -> dict[str, NpcTemplate]:
    """The templates of ``system_key`` ({} when it has no file), checked against the system
    (``trait_range``: a trait's (low, high) rating, as ``RuleSystem.trait_range``; default 0-20).

    Raises:
        RulesDataError: unreadable TOML or a bad template (the message names its key).
    """
    path = template_path(system_key, data_dir)
    if not path.exists():
        return {}
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except tomllib.TOMLDecodeError as err:
        raise RulesDataError(f"{path}: {err}") from err
    return parse_templates(data, trait_names, kinds, weapons, where=path.name, trait_range=trait_range)


def parse_templates(data: Mapping[str, Any], trait_names: Iterable[str], kinds: Mapping[str, Any] | None = None,
                    weapons: Iterable[str] = (), where: str = "templates", *,
                    trait_range: Callable[[str], tuple[int, int]] | None = None) -> dict[str, NpcTemplate]:
    """Validate already-read template data (see the module docstring). Raises RulesDataError."""
    unknown = sorted(set(data) - {"templates"})
    if unknown:
        raise RulesDataError(f"{where}: unexpected table '{unknown[0]}' (only [templates.<key>]).")
    table = require(data, "templates", dict, where)
    names = tuple(trait_names)
    kinds = dict(kinds or {})
    weapons = tuple(weapons)
    ranges = trait_range or (lambda _trait: DEFAULT_RANGE)
    return {key: _template(key, value, names, kinds, weapons, ranges, f"{where}: templates.{key}")
            for key, value in table.items()}


def _template(key: str, table: Any, trait_names: tuple[str, ...], kinds: dict[str, Any],
              weapons: tuple[str, ...], trait_range: Callable[[str], tuple[int, int]], where: str) -> NpcTemplate:
    if not KEY_PATTERN.fullmatch(key):
        raise RulesDataError(f"{where}: template keys are lower-case letters, digits and hyphens "
                             "(1-30, starting with a letter).")
    if not isinstance(table, dict):
        raise RulesDataError(f"{where}: expected a table, got {table!r}.")
    extra = sorted(set(table) - set(FIELDS))
    if extra:
        raise RulesDataError(f"{where}: unknown field '{extra[0]}' (fields: {', '.join(FIELDS)}).")
    name = require(table, "name", str, where)
    if len(name) > MAX_NAME or not NAME_PATTERN.fullmatch(name):
        raise RulesDataError(f"{where}.name: 1-{MAX_NAME} ASCII letters, digits, spaces, hyphens or "
                             f"apostrophes, starting with a letter, not {name!r}.")
    kind = _kind(table, kinds, where)
    base_kind = _base_kind(table, kind, kinds, where)
    weapon = table.get("weapon", "")
    if not isinstance(weapon, str) or (weapon and weapon not in weapons):
        raise RulesDataError(f"{where}.weapon: unknown weapon {weapon!r}; weapons: "
                             f"{', '.join(weapons) or 'none in this system'}.")
    traits = require(table, "traits", dict, where)
    checked: dict[str, int] = {}
    for trait, rating in traits.items():
        if trait not in trait_names:
            close = [name for name in trait_names if name.casefold() == str(trait).casefold()]
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise RulesDataError(f"{where}.traits: unknown trait {trait!r}{hint}.")
        low, high = trait_range(trait)
        if isinstance(rating, bool) or not isinstance(rating, int) or not low <= rating <= high:
            raise RulesDataError(f"{where}.traits.{trait}: expected a whole number {low} to {high}, "
                                 f"got {rating!r}.")
        checked[trait] = rating
    return NpcTemplate(key=key, name=name, kind=kind, base_kind=base_kind, weapon=weapon,
                       traits=MappingProxyType(checked))


def _kind(table: Mapping[str, Any], kinds: dict[str, Any], where: str) -> str:
    if not kinds:
        if "kind" in table:
            raise RulesDataError(f"{where}.kind: this system has no creature kinds.")
        return ""
    kind = require(table, "kind", str, where)
    if kind not in kinds:
        raise RulesDataError(f"{where}.kind: unknown kind {kind!r}; kinds: {', '.join(kinds)}.")
    return kind


def _base_kind(table: Mapping[str, Any], kind: str, kinds: dict[str, Any], where: str) -> str:
    allowed = tuple((kinds.get(kind) or {}).get("base_kinds", ()))
    if "base_kind" not in table:
        return ""
    base_kind = table["base_kind"]
    if not allowed:
        raise RulesDataError(f"{where}.base_kind: only kinds with base kinds take one, not {kind or 'this'}.")
    if base_kind not in allowed:
        raise RulesDataError(f"{where}.base_kind: expected one of {', '.join(allowed)}, got {base_kind!r}.")
    return base_kind
