"""Character sheets: snapshots for the rules, staff ``+stat`` edits and the ``+sheet`` view."""

from __future__ import annotations

from collections.abc import Mapping
from copy import deepcopy

from django.conf import settings
from evennia.utils.dbserialize import deserialize, to_pickle

from rules.dice import TraitError, match_trait
from rules.lines import Line
from rules.systems import CombatError, RuleSystem, get_system, system_keys
from rules.systems.base import Combatant, Health
from rules.text import quote
from world import statements
from world.text import columns, fit
from world.wording import health_text, line_text

MAX_RATING = 20
MAX_AMOUNT = 200  # +damage/+heal: health levels, Life Points or hit points
TRUE_WORDS = ("yes", "y", "true", "on", "1")
FALSE_WORDS = ("no", "n", "false", "off", "0", "")
#: Sheet fields that are not traits: +stat <name>/<field>=<value>.
FIELDS = ("kind", "base_kind", "transformed", "weapon")
#: What one system's sheet holds (``sheets`` Attribute: ``{system key: {field: value}}``).
SHEET_KEYS = ("traits", *FIELDS)


def default_system() -> RuleSystem:
    """The game's default rule system (``settings.FRAY_DEFAULT_SYSTEM``)."""
    return get_system(getattr(settings, "FRAY_DEFAULT_SYSTEM", "storyteller"))


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
    """A frozen view of ``obj`` for one rules call: ``system``'s sheet (+ ``overrides``) and
    health for ``system``."""
    values = stored(obj)
    sheet = (values.get("sheets") or {}).get(system.key) or {}
    traits = dict(sheet.get("traits") or {})
    traits.update(overrides or {})
    health = deepcopy((values.get("health") or {}).get(system.key, {}))
    return Combatant(name=obj.key, traits=traits, kind=sheet.get("kind") or "Muggle",
                     base_kind=sheet.get("base_kind") or "Muggle",
                     transformed=bool(sheet.get("transformed", False)),
                     weapon=sheet.get("weapon") or "", health=health,
                     armor=worn_armor(obj, system, values))


def _system(system: RuleSystem | str) -> RuleSystem:
    return get_system(system) if isinstance(system, str) else system


def sheet_of(obj, system: RuleSystem | str) -> dict:
    """A copy of ``obj``'s sheet for ``system`` (a system or its key): ``{"traits": {name:
    rating}, "kind", "base_kind", "transformed", "weapon"}``, each key only if set."""
    sheet = deserialize((getattr(obj, "sheets", None) or {}).get(_system(system).key) or {})
    return {**sheet, "traits": dict(sheet["traits"])} if "traits" in sheet else dict(sheet)


def traits_of(obj, system: RuleSystem | str) -> dict[str, int]:
    """``{trait: rating}`` of ``obj``'s sheet for ``system`` (a system or its key)."""
    return sheet_of(obj, system).get("traits", {})


def weapon_of(obj, system: RuleSystem | str) -> str:
    """The key of the weapon ``obj`` holds under ``system`` ("" for none)."""
    return sheet_of(obj, system).get("weapon") or ""


def update_sheet(obj, system: RuleSystem | str, **fields) -> None:
    """Write ``fields`` (``traits`` = the whole {trait: rating} dict, ``kind``, ``base_kind``,
    ``transformed``, ``weapon``) to ``obj``'s sheet for ``system``; the other systems' sheets
    are untouched. No checks: ``set_stat`` is the checked writer. Raises KeyError for an
    unknown system key, ValueError for an unknown field."""
    unknown = set(fields) - set(SHEET_KEYS)
    if unknown:
        raise ValueError(f"Not a sheet field: {', '.join(sorted(unknown))}")
    system = _system(system)
    sheets = dict(deserialize(getattr(obj, "sheets", None) or {}))
    sheets[system.key] = {**sheet_of(obj, system), **fields}
    obj.sheets = sheets


def clear_sheet(obj, system: RuleSystem | str) -> None:
    """Remove ``obj``'s sheet for ``system``; the other systems' sheets are untouched."""
    sheets = dict(deserialize(getattr(obj, "sheets", None) or {}))
    sheets.pop(_system(system).key, None)
    obj.sheets = sheets


def add_traits(obj, system: RuleSystem | str, **ratings: int) -> None:
    """Set some traits of ``obj``'s sheet for ``system``, keeping the others."""
    update_sheet(obj, system, traits={**traits_of(obj, system), **ratings})


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
    """Save ``obj``'s health record for ``system`` (every hit lands here: :func:`rewrite`)."""
    attribute = obj.attributes.get("health", category="fray", return_obj=True)
    health = dict(attribute.db_value or {}) if attribute else {}
    health[system.key] = dict(record)
    rewrite(obj, "health", health, attribute)


def rewrite(obj, key: str, value, attribute=None) -> None:
    """Save ``obj``'s Attribute ``key`` (category ``fray``) often written (health, pose order):
    an existing one is rewritten with one UPDATE of its row (Evennia's value setter saves the
    row twice), its cached copy kept in step; a first value creates the Attribute.
    ``attribute``: the Attribute object when the caller has it already."""
    attribute = attribute or obj.attributes.get(key, category="fray", return_obj=True)
    if attribute is None:
        obj.attributes.add(key, value, category="fray")
        return
    attribute.db_value = to_pickle(value)
    statements.update(attribute, ("db_value",))


def change_health(target, system: RuleSystem, amount: int | None, damage_type: str | None,
                  *, heal: bool, named: bool = False) -> tuple[Line, Health]:
    """Staff ``+damage``/``+heal`` (no soak): the working, e.g. ``"Alice: Healthy [.......]
    + 2 lethal -> Hurt (-1) [LL.....]"``, and the health after it, for the caller to store (in
    a fight, through the fight's event stream). ``amount`` None heals everything. Raises
    CombatError for an unknown damage type. ``named``: the line names the system (a heal of
    every system's wounds, ``"Alice (aeon): ..."``)."""
    combatant = snapshot(target, system)
    before = system.health(combatant.health, combatant)
    if heal:
        after = system.heal(combatant, amount, damage_type)
    else:
        after = system.damage(combatant, amount or 0, damage_type or "")
    what = "all" if amount is None else f"{amount} {system.damage_type(damage_type or '')}"
    # aeon's aggravated wounds are left by healing everything: say how the rest heals
    left = heal and amount is None and after.to_record() != system.health(None, combatant).to_record()
    return Line("line.health_change_left" if left else "line.health_change",
                {"name": f"{target.key} ({system.key})" if named else target.key, "target": target.key,
                 "before": before, "sign": "-" if heal else "+", "what": what, "after": after,
                 "system": system.key}), after


def parse_rating(text: str, what: str = "A rating", low: int = 0, high: int = MAX_RATING, *, mark: str = "") -> int:
    """A whole number ``low``..``high`` from player text (``what`` names it in the error;
    ``mark`` may come before it, as ``#`` before an XP entry's number). Raises CombatError."""
    text = (text or "").strip()
    number = text.removeprefix(mark) if mark else text
    digits = number[1:] if number.startswith("-") else number
    if (not digits.isascii() or not digits.isdigit() or len(digits) > max(4, len(str(high)))
            or not low <= int(number) <= high):
        raise CombatError(f"{what} must be a whole number from {low} to {high}, not '{quote(text)[:20]}'.")
    return int(number)


def set_stat(target, field: str, value: str, system: RuleSystem) -> str:
    """Set (or clear, with an empty value) one trait or field of ``target``'s sheet for
    ``system``; only what ``system`` knows is allowed (its traits, kinds and weapons).

    Returns the line describing the change, e.g. ``"Aeon sheet: Alice's kind is now Zeta."``.
    Raises CombatError (one line naming the system) for what ``system`` does not know.
    """
    wanted = "_".join(field.strip().casefold().split())
    if wanted in ("base", "base-kind"):
        wanted = "base_kind"
    if wanted in FIELDS:
        return f"{system.key.capitalize()} sheet: {_set_field(target, wanted, value.strip(), system)}"
    if not system.trait_names:
        raise CombatError(f"The {system.key} rules have no traits.")
    try:
        trait = match_trait(field.strip(), system.trait_names)
    except TraitError as error:
        raise CombatError(f"On the {system.key} sheet: {error}") from None
    sheet = traits_of(target, system)
    if value.strip() == "":
        sheet.pop(trait, None)
        update_sheet(target, system, traits=sheet)
        return f"{system.key.capitalize()} sheet: {target.key}'s {trait} is cleared."
    sheet[trait] = parse_rating(value, f"{trait}", *system.trait_range(trait))
    update_sheet(target, system, traits=sheet)
    return f"{system.key.capitalize()} sheet: {target.key}'s {trait} is now {sheet[trait]}."


class _Scratch:
    """A stand-in for a character: its name and a copy of its sheets, for ``set_stat``."""

    def __init__(self, key: str, sheets_value: dict):
        self.key = key
        self.sheets = sheets_value


def scratch_copy(target) -> _Scratch:
    """A copy of ``target``'s name and sheets that :func:`set_stat` may change."""
    stored_sheets = getattr(target, "sheets", None) if getattr(target, "pk", None) else None
    return _Scratch(target.db_key, deepcopy(dict(deserialize(stored_sheets or {}))))


def set_stats(target, changes: list[tuple[str, str]], system: RuleSystem) -> list[str]:
    """Each ``(field or trait, value)`` through :func:`set_stat` on ``system``'s sheet, all or
    nothing: made in turn on a copy, then saved at once; the lines they say. Raises
    CombatError (nothing saved) at the first refusal."""
    scratch = scratch_copy(target)
    lines = [set_stat(scratch, field, value, system) for field, value in changes]
    if changes:
        target.sheets = {**deserialize(getattr(target, "sheets", None) or {}), system.key: scratch.sheets[system.key]}
    return lines


def _field_of(words: list[str]) -> tuple[str, int] | None:
    """``(field, number of words it takes)`` when ``words`` begin with a sheet field's name
    (``kind``, ``base kind``, ``base_kind``, ``base``, ``transformed``, ``weapon``)."""
    for count in (2, 1):
        wanted = "_".join(word.casefold() for word in words[:count])
        wanted = "base_kind" if wanted in ("base", "base-kind") else wanted
        if len(words) >= count and wanted in FIELDS:
            return wanted, count
    return None


def parse_changes(text: str, system: RuleSystem, usage: str) -> list[tuple[str, str]]:
    """``"Dex 3, Brawl 2, weapon long sword"`` → ``[("Dex", "3"), ("Brawl", "2"), ("weapon",
    "long sword")]`` for :func:`set_stats`: a trait and its rating (the last word), or a
    field and its value (the rest; a trait named exactly by the words before the last, such
    as elethril's Weapon Plus, is a trait). ``usage`` is the command's form, for the error.
    Raises CombatError, also for a trait or field given twice."""
    changes = []
    for item in text.split(","):
        words = item.split()
        if not words:
            raise CombatError(f"Give each trait and its value, separated by commas: {usage}")
        field = _field_of(words)
        named = " ".join(words[:-1]).casefold()
        if field is not None and not any(trait.casefold() == named for trait in system.trait_names):
            changes.append((field[0], " ".join(words[field[1]:])))
            continue
        if len(words) < 2:
            raise CombatError(f"Give each trait a value (Dexterity 3), not '{quote(item.strip())}': {usage}")
        changes.append((" ".join(words[:-1]), words[-1]))
    seen = set()
    for name, _value in changes:
        try:
            key = name if name in FIELDS else match_trait(name, system.trait_names)
        except TraitError:
            continue   # set_stat names it
        if key in seen:
            raise CombatError(f"{key.replace('_', ' ').capitalize() if key in FIELDS else key} is given twice.")
        seen.add(key)
    return changes


def every_system() -> list[RuleSystem]:
    return [get_system(key) for key in system_keys()]


def kinds(system: RuleSystem, field: str = "kind") -> tuple[str, ...]:
    """``system``'s creature kinds (``field`` "kind") or base kinds ("base_kind")."""
    if field == "base_kind":
        return tuple(dict.fromkeys(base for kind in system.kinds.values() for base in kind.get("base_kinds", ())))
    return tuple(system.kinds)


def transforms(system: RuleSystem, kind: str) -> bool:
    """Whether a character of ``kind`` may be transformed (a Werewolf) under ``system``."""
    return bool(system.kinds.get(kind, {}).get("transformed_only"))


def has_transformation(system: RuleSystem) -> bool:
    """Whether any of ``system``'s kinds transforms (storyteller's Werewolf)."""
    return any(transforms(system, kind) for kind in system.kinds)


def default_kind(system: RuleSystem) -> str:
    """The kind ``system``'s rules take for a sheet without one of its kinds: its
    ``default_kind`` (storyteller: Muggle, aeon: Baseline, elethril: Human), else its first
    kind; "" for a system without kinds (eldritch)."""
    if not system.kinds:
        return ""
    return system.default_kind if system.default_kind in system.kinds else next(iter(system.kinds))


def shown_kind(system: RuleSystem, kind: str | None) -> str:
    """The kind ``+sheet`` and ``+npc/list`` show for a sheet of ``system`` whose kind field is
    ``kind``: that kind if it is one of ``system``'s, else the system's default ("" for a
    system without kinds): never another system's kind."""
    return kind if kind in system.kinds else default_kind(system)


def _set_field(target, field: str, value: str, system: RuleSystem) -> str:
    """Kind, base kind, transformed and weapon of ``target``'s sheet for ``system``: only
    what ``system`` knows (a Zeta for aeon, a Werewolf for storyteller)."""
    sheet = sheet_of(target, system)
    if field in ("kind", "base_kind"):
        known = kinds(system, field)
        label = field.replace("_", " ")
        if not known:
            raise CombatError(f"The {system.key} rules have no {label}s.")
        wanted = value.casefold()
        found = [kind for kind in known if kind.casefold() == wanted] or (
            [kind for kind in known if kind.casefold().startswith(wanted)] if wanted else [])
        if len(found) > 1:
            raise CombatError(f"'{quote(value)}' could be: {', '.join(sorted(found))}.")
        if len(found) != 1:
            raise CombatError(f"{label.capitalize()} ({system.key}) must be one of: {', '.join(known)}.")
        if field == "kind" and found[0] != sheet.get("kind") and sheet.get("transformed"):
            update_sheet(target, system, kind=found[0], transformed=False)  # a new kind is not transformed
            return f"{target.key}'s kind is now {found[0]} (no longer transformed)."
        update_sheet(target, system, **{field: found[0]})
        return f"{target.key}'s {label} is now {found[0]}."
    if field == "transformed":
        if not has_transformation(system):
            raise CombatError(f"The {system.key} rules have no transformation.")
        word = value.casefold()
        if word not in TRUE_WORDS + FALSE_WORDS:
            raise CombatError("Transformed must be yes or no.")
        kind = shown_kind(system, sheet.get("kind"))
        if word in TRUE_WORDS and not transforms(system, kind):
            raise CombatError(f"{target.key} is a {kind} ({system.key}); only Werewolves transform.")
        update_sheet(target, system, transformed=word in TRUE_WORDS)
        return f"{target.key} is {'now' if word in TRUE_WORDS else 'no longer'} transformed."
    if not value:
        update_sheet(target, system, weapon="")
        return f"{target.key} now holds no weapon."
    known = system.weapon_names
    wanted = "-".join(value.casefold().split())
    found = [key for key in known if key == wanted] or [key for key in known if key.startswith(wanted)]
    if len(found) != 1:
        raise CombatError(f"Weapon ({system.key}) must be one of: {', '.join(known)}.")
    update_sheet(target, system, weapon=found[0])
    return f"{target.key} now holds a {known[found[0]]}."


def weapon_name(system: RuleSystem, key: str) -> str:
    """The name of the weapon ``key`` (``long-sword`` → ``long sword``): ``system``'s, else the
    first system that has it, else the key itself."""
    for each in (system, *every_system()):
        if key in each.weapon_names:
            return each.weapon_names[key]
    return key


def render_sheet(obj, system: RuleSystem) -> str:
    """The ``+sheet`` of ``obj``, laid out for the viewer's width: its sheet for ``system`` (the header names the
    system; its kind only where the system has kinds), then its health under each system."""
    combatant = snapshot(obj, system)
    health = system.health(combatant.health, combatant)
    header = fit(f"{obj.key}  {'NPC' if is_npc(obj) else 'Character'}  {system.key} sheet"
                 + (f"  Kind: {shown_kind(system, combatant.kind)}" if system.kinds else "")
                 + (f" (base {combatant.base_kind}, {'transformed' if combatant.transformed else 'not transformed'})"
                    if transforms(system, combatant.kind) else ""))
    traits = sorted(combatant.traits.items(), key=lambda item: system.trait_names.index(item[0])
                    if item[0] in system.trait_names else len(system.trait_names))
    cells = [f"{name}: {value}" for name, value in traits] or ["(no traits set)"]
    per_column = -(-len(cells) // 3)
    rows = [cells[row::per_column] for row in range(per_column)]  # down the first column, then the next
    table = columns(None, (26, 26), [row + [""] * (3 - len(row)) for row in rows])
    weapon = weapon_name(system, combatant.weapon) if combatant.weapon else "none"
    note = line_text(system.weapon_note(combatant.weapon), system.key, plain=True) if combatant.weapon else ""
    weapon += f" ({note})" if note else ""
    lines = [f"Weapon in hand: {weapon}", f"Health ({system.key}): {health_text(health, system.key)}"]
    for other in systems_with_health(obj):
        if other != system:
            fighter = snapshot(obj, other)
            lines.append(f"Health ({other.key}): {health_text(other.health(fighter.health, fighter), other.key)}")
    return "\n".join([header, str(table), *(fit(line) for line in lines)])


def systems_with_health(obj) -> list[RuleSystem]:
    """The systems ``obj`` has a health record under (wounds taken in their fights)."""
    records = deserialize(getattr(obj, "health", None) or {})
    return [system for system in every_system() if records.get(system.key)]
