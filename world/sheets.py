"""Character sheets: snapshots for the rules, staff ``+stat`` edits and the ``+sheet`` view."""

from __future__ import annotations

from collections.abc import Mapping
from copy import deepcopy

from django.conf import settings
from evennia.utils.dbserialize import deserialize, to_pickle

from rules.dice import match_trait
from rules.systems import CombatError, RuleSystem, get_system, system_keys
from rules.systems.base import Combatant, Health
from world.text import columns, escape, quote

MAX_RATING = 20
MAX_AMOUNT = 200  # +damage/+heal: health levels, Life Points or hit points
TRUE_WORDS = ("yes", "y", "true", "on", "1")
FALSE_WORDS = ("no", "n", "false", "off", "0", "")
#: Sheet fields that are not traits: +stat <name>/<field>=<value>.
FIELDS = ("kind", "base_kind", "transformed", "weapon")
WIDTH = 78


def default_system() -> RuleSystem:
    """The game's default rule system (``settings.FRAY_DEFAULT_SYSTEM``)."""
    return get_system(getattr(settings, "FRAY_DEFAULT_SYSTEM", "storyteller"))


def all_trait_names() -> tuple[str, ...]:
    """Every trait name of every registered system, each once."""
    names: dict[str, None] = {}
    for system in every_system():
        names.update(dict.fromkeys(system.trait_names))
    return tuple(names)


def is_npc(obj) -> bool:
    """Whether ``obj`` is an NPC (``typeclasses.npcs.NPC``, tagged ``npc``)."""
    return bool(getattr(type(obj), "fray_npc", False))


def stored(obj) -> dict:
    """``{key: value}`` of ``obj``'s Fray Attributes (category ``fray``: sheet, health, kind,
    weapon, armor notes …) as stored, read-only: without Evennia's saving wrappers, which cost
    more than the rest of a HUD row (the snapshot is read for every fighter on every HUD)."""
    attributes = getattr(obj, "attributes", None)
    if attributes is None:
        return {}
    return {attr.db_key: attr.db_value
            for attr in attributes.get(category="fray", return_obj=True, return_list=True) if attr}


def snapshot(obj, system: RuleSystem, overrides: Mapping[str, int] | None = None) -> Combatant:
    """A frozen view of ``obj`` for one rules call (sheet + ``overrides``, health for ``system``)."""
    values = stored(obj)
    traits = dict(values.get("sheet") or {})
    traits.update(overrides or {})
    health = deepcopy((values.get("health") or {}).get(system.key, {}))
    return Combatant(name=obj.key, traits=traits, kind=values.get("kind") or "Muggle",
                     base_kind=values.get("base_kind") or "Muggle",
                     transformed=bool(values.get("transformed", False)),
                     weapon=values.get("weapon") or "", health=health,
                     armor=worn_armor(obj, system, values))


def worn_armor(obj, system: RuleSystem, values: Mapping | None = None) -> dict[str, int]:
    """The soak values of the armor note ``obj`` wears, if it was approved for ``system``
    ({} otherwise). Only staff-approved notes exist (``world.armor``); nothing else counts."""
    values = stored(obj) if values is None else values
    worn = values.get("worn_armor")
    for note in values.get("armor_notes") or []:
        if note.get("id") == worn and note.get("system") == system.key:
            return {column: int(value) for column, value in note.get("soak", {}).items()}
    return {}


def store_health(obj, system: RuleSystem, record: Mapping) -> None:
    """Save ``obj``'s health record for ``system``. Every hit lands here, so an existing
    Attribute is rewritten with one UPDATE of its row (Evennia's value setter saves the row
    twice); its cached copy is kept in step. A first record creates the Attribute."""
    attribute = obj.attributes.get("health", category="fray", return_obj=True)
    health = dict(attribute.db_value or {}) if attribute else {}
    health[system.key] = dict(record)
    if attribute is None:
        obj.health = health
        return
    attribute.db_value = to_pickle(health)
    type(attribute).objects.filter(pk=attribute.pk).update(db_value=attribute.db_value)


def change_health(target, system: RuleSystem, amount: int | None, damage_type: str | None,
                  *, heal: bool) -> tuple[str, Health]:
    """Staff ``+damage``/``+heal`` (no soak): the working, e.g. ``"Alice: Healthy [.......]
    + 2 lethal -> Hurt (-1) [LL.....]"``, and the health after it, for the caller to store (in
    a fight, through the fight's event stream). ``amount`` None heals everything. Raises
    CombatError for an unknown damage type."""
    combatant = snapshot(target, system)
    before = system.health(combatant.health, combatant)
    if heal:
        after = system.heal(combatant, amount, damage_type)
    else:
        after = system.damage(combatant, amount or 0, damage_type or "")
    what = "all" if amount is None else f"{amount} {system.damage_type(damage_type or '')}"
    return f"{target.key}: {before.describe()} {'-' if heal else '+'} {what} -> {after.describe()}", after


def parse_rating(text: str, what: str = "A rating", low: int = 0, high: int = MAX_RATING) -> int:
    """A whole number ``low``..``high`` from player text (``what`` names it in the error).
    Raises CombatError."""
    text = text.strip()
    digits = text[1:] if text.startswith("-") else text
    if not digits.isascii() or not digits.isdigit() or len(digits) > 4 or not low <= int(text) <= high:
        raise CombatError(f"{what} must be a whole number from {low} to {high}, not '{quote(text)}'.")
    return int(text)


def trait_range(trait: str) -> tuple[int, int]:
    """The ratings allowed for ``trait``: the widest range of the systems that know it."""
    ranges = [system.trait_range(trait) for system in every_system() if trait in system.trait_names]
    return (min(low for low, _ in ranges), max(high for _, high in ranges)) if ranges else (0, MAX_RATING)


def set_stat(target, field: str, value: str) -> str:
    """Set (or clear, with an empty value) one sheet trait or field of ``target``.

    Returns the line describing the change. Raises CombatError or TraitError.
    """
    wanted = "_".join(field.strip().casefold().split())
    if wanted in ("base", "base-kind"):
        wanted = "base_kind"
    if wanted in FIELDS:
        return _set_field(target, wanted, value.strip())
    trait = match_trait(field.strip(), all_trait_names())
    sheet = dict(deserialize(target.sheet or {}))
    if value.strip() == "":
        sheet.pop(trait, None)
        target.sheet = sheet
        return f"{target.key}'s {trait} is cleared."
    sheet[trait] = parse_rating(value, f"{trait}", *trait_range(trait))
    target.sheet = sheet
    return f"{target.key}'s {trait} is now {sheet[trait]}."


def every_system() -> list[RuleSystem]:
    return [get_system(key) for key in system_keys()]


def kinds(field: str = "kind") -> tuple[str, ...]:
    """The creature kinds (``field`` "kind") or base kinds ("base_kind") any system knows."""
    tables = [system.kinds for system in every_system()]
    if field == "base_kind":
        return tuple(dict.fromkeys(base for table in tables for kind in table.values()
                                   for base in kind.get("base_kinds", ())))
    return tuple(dict.fromkeys(kind for table in tables for kind in table))


def transforms(kind: str) -> bool:
    """Whether a character of ``kind`` may be transformed (a Werewolf)."""
    return any(system.kinds.get(kind, {}).get("transformed_only") for system in every_system())


def weapons() -> dict[str, str]:
    """``{weapon key: name}`` of every system's weapons (the first system's name wins)."""
    found: dict[str, str] = {}
    for system in every_system():
        found.update({key: name for key, name in system.weapon_names.items() if key not in found})
    return found


def _set_field(target, field: str, value: str) -> str:
    """Kind, base kind, transformed and weapon: what any registered system knows is allowed
    (a Zeta for aeon, a Werewolf for storyteller; each system reads the ones it knows)."""
    if field in ("kind", "base_kind"):
        known = kinds(field)
        found = [kind for kind in known if kind.casefold().startswith(value.casefold())] if value else []
        if len(found) != 1:
            raise CombatError(f"{field.replace('_', ' ').capitalize()} must be one of: {', '.join(known)}.")
        setattr(target, field, found[0])
        return f"{target.key}'s {field.replace('_', ' ')} is now {found[0]}."
    if field == "transformed":
        if not transforms(target.kind):
            raise CombatError(f"{target.key} is a {target.kind}; only Werewolves transform.")
        word = value.casefold()
        if word not in TRUE_WORDS + FALSE_WORDS:
            raise CombatError("Transformed must be yes or no.")
        target.transformed = word in TRUE_WORDS
        return f"{target.key} is {'now' if target.transformed else 'no longer'} transformed."
    if not value:
        target.weapon = ""
        return f"{target.key} now holds no weapon."
    known = weapons()
    wanted = "-".join(value.casefold().split())
    found = [key for key in known if key == wanted] or [key for key in known if key.startswith(wanted)]
    if len(found) != 1:
        raise CombatError(f"Weapon must be one of: {', '.join(known)}.")
    target.weapon = found[0]
    return f"{target.key} now holds a {known[found[0]]}."


def weapon_name(system: RuleSystem, key: str) -> str:
    """The name of the weapon ``key`` (``long-sword`` → ``long sword``): ``system``'s, else the
    first system that has it, else the key itself."""
    for each in (system, *every_system()):
        if key in each.weapon_names:
            return each.weapon_names[key]
    return key


def render_sheet(obj, system: RuleSystem) -> str:
    """The 78-column ``+sheet`` of ``obj`` under ``system``."""
    combatant = snapshot(obj, system)
    health = system.health(combatant.health, combatant)
    header = (f"|w{escape(obj.key)}|n  {'NPC' if is_npc(obj) else 'Character'}  "
              f"Kind: {escape(combatant.kind)}"
              + (f" (base {escape(combatant.base_kind)}, "
                 f"{'transformed' if combatant.transformed else 'not transformed'})"
                 if combatant.kind == "Werewolf" else ""))
    traits = sorted(combatant.traits.items(), key=lambda item: system.trait_names.index(item[0])
                    if item[0] in system.trait_names else len(system.trait_names))
    cells = [f"{name}: {value}" for name, value in traits] or ["(no traits set)"]
    per_column = -(-len(cells) // 3)
    rows = [cells[row::per_column] for row in range(per_column)]  # down the first column, then the next
    table = columns(None, (26, 26), [row + [""] * (3 - len(row)) for row in rows], width=WIDTH)
    weapon = weapon_name(system, combatant.weapon) if combatant.weapon else "none"
    lines = [header, str(table), f"Weapon in hand: {escape(weapon)}",
             f"Health ({system.key}): {health.describe()}"]
    for other in systems_with_health(obj):
        if other != system:
            fighter = snapshot(obj, other)
            lines.append(f"Health ({other.key}): {other.health(fighter.health, fighter).describe()}")
    return "\n".join(lines)


def systems_with_health(obj) -> list[RuleSystem]:
    """The systems ``obj`` has a health record under (wounds taken in their fights)."""
    records = deserialize(getattr(obj, "health", None) or {})
    return [system for system in every_system() if records.get(system.key)]
