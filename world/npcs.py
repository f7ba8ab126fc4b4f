"""Storyteller NPC management: create from templates, numbered copies, set, sheet, list, remove.

NPCs are ``typeclasses.npcs.NPC`` objects in the Storyteller's room (they persist as any object
does). Commands call these services; they raise ``CombatError`` (one player-facing line) and
change nothing when they refuse.

Names: on top of :func:`world.combat.validate_npc_name` (ASCII letters, digits, spaces,
hyphens, apostrophes), a new NPC may not share a name, or a look-alike of one, with a character
already in the room: both are reduced to a :func:`skeleton` (case, spaces, hyphens and
apostrophes dropped; confusable digits and letter pairs mapped) and must differ.
"""

from __future__ import annotations

import re
from functools import cache

from evennia.utils.create import create_object
from evennia.utils.dbserialize import deserialize
from evennia.utils.utils import inherits_from

from rules.data.templates import NpcTemplate, load_templates
from rules.systems import CombatError, RuleSystem, get_system
from rules.text import quote
from world import combat, fights, narration
from world.access import NARRATOR, require_perm
from world.sheets import (
    clear_sheet,
    every_system,
    is_npc,
    parse_changes,
    set_stat,
    set_stats,
    sheet_of,
    shown_kind,
    snapshot,
    update_sheet,
    weapon_name,
)
from world.text import COMBAT, escape, fit
from world.text import table as text_table
from world.wording import health_text

NPC_TYPECLASS = combat.NPC_TYPECLASS
CHARACTER_TYPECLASS = "typeclasses.characters.Character"
MAX_COPIES = 20
#: Confusable single characters (after casefolding). Each digit maps to a different letter, so
#: numbered copies ("Thug 1" … "Thug 20") never collide with each other.
CONFUSABLE_CHARS = str.maketrans({"0": "o", "1": "l", "i": "l", "2": "z", "3": "e", "4": "a",
                                  "5": "s", "6": "g", "7": "t", "8": "b"})
#: Confusable letter sequences, replaced after the single characters.
CONFUSABLE_PAIRS = (("rn", "m"), ("vv", "w"), ("cl", "d"))
IGNORED = re.compile(r"[\s'\-_.]+")
COPIES = re.compile(r"^(?P<base>.*?)\s*\*\s*(?P<count>\S*)$")


# ----------------------------------------------------------------------------- names
def skeleton(name: str) -> str:
    """What a name looks like, for look-alike checks: ``"Gu-ard"``, ``"GUARD "`` and ``"6uard"``
    are all ``"guard"``; ``"Thug l"``, ``"Thug 01"`` and ``"Thug 1"`` are all ``"thugl"``."""
    text = re.sub(r"(?<!\d)0+(?=\d)", "", name.casefold())  # "Thug 01" looks like "Thug 1"
    text = IGNORED.sub("", text).translate(CONFUSABLE_CHARS)
    for pair, single in CONFUSABLE_PAIRS:
        text = text.replace(pair, single)
    return text


def characters_in(room) -> list:
    """Every character (PC or NPC) in ``room``."""
    return [obj for obj in (room.contents if room else []) if inherits_from(obj, CHARACTER_TYPECLASS)]


def npcs_in(room) -> list:
    """The NPCs in ``room``, by name."""
    return sorted((obj for obj in characters_in(room) if is_npc(obj)), key=lambda obj: obj.key.casefold())


def check_new_name(room, name: str, taken: list[str] = ()) -> str:
    """A valid, free, unmistakable NPC name for ``room`` (``taken``: names about to be created
    with it). Raises CombatError naming the character it clashes with."""
    name = combat.validate_npc_name(name)
    wanted = skeleton(name)
    for other_name, obj in [(obj.key, obj) for obj in characters_in(room)] + [(n, None) for n in taken]:
        what = "an NPC" if obj is None or is_npc(obj) else "a player character"
        if other_name.casefold() == name.casefold():
            raise CombatError(f"There is already {what} named {other_name} here.")
        if skeleton(other_name) == wanted:
            raise CombatError(f"'{quote(name)}' looks too much like {other_name}, {what} here; "
                              "choose a clearly different name.")
    return name


def find_npc(caller, name: str):
    """The NPC called ``name`` in ``caller``'s room (case-insensitive; exact beats a unique
    prefix). Raises CombatError; a player character is refused by name."""
    wanted = " ".join(name.split()).casefold()
    if not wanted:
        raise CombatError("Name an NPC.")
    everyone = characters_in(caller.location)
    exact = [obj for obj in everyone if obj.key.casefold() == wanted]
    found = exact or [obj for obj in everyone if obj.key.casefold().startswith(wanted)]
    npcs = [obj for obj in found if is_npc(obj)]
    if len(npcs) == 1:
        return npcs[0]
    if npcs:
        raise CombatError(f"'{quote(name)}' could be: {', '.join(obj.key for obj in npcs)}.")
    if found:
        raise CombatError(f"{found[0].key} is a player character, not an NPC.")
    raise CombatError(f"No NPC '{quote(name)}' here (+npc/list shows them).")


# ------------------------------------------------------------------------------ templates
@cache
def _templates(system_key: str) -> dict[str, NpcTemplate]:
    system = get_system(system_key)
    return load_templates(system.key, system.trait_names, system.kinds,
                          tuple(system.weapons), trait_range=system.trait_range)


def templates(system: RuleSystem) -> dict[str, NpcTemplate]:
    """The NPC templates of ``system`` (``rules/data/templates/<key>.toml``), loaded once."""
    return _templates(system.key)


def find_template(system: RuleSystem, wanted: str) -> NpcTemplate:
    """The template ``wanted`` (case-insensitive; a unique prefix will do). Raises CombatError."""
    table = templates(system)
    if not table:
        raise CombatError(f"The {system.key} rules have no NPC templates.")
    key = "-".join(wanted.casefold().split())
    found = [t for k, t in table.items() if k == key] or [t for k, t in table.items() if key and k.startswith(key)]
    if len(found) != 1:
        raise CombatError(f"No NPC template '{quote(wanted.strip())}'. Templates: {', '.join(table)}.")
    return found[0]


def apply_template(npc, template: NpcTemplate, system: RuleSystem) -> None:
    """Give ``npc``'s sheet for ``system`` (the template's system) the template's traits, kind
    and weapon; its other systems' sheets and its health are kept."""
    kind = {"kind": template.kind} if template.kind else {}
    update_sheet(npc, system, traits=dict(template.traits), **kind, base_kind=template.base_kind or "Muggle",
                 transformed=False, weapon=template.weapon)


def is_light(npc) -> bool:
    """An NPC with at most the two initiative traits ``+npc/init <name>=<a>+<b>`` sets on its
    sheet (any system's ``npc_initiative_traits``: Wits and Dexterity, eldritch's Dexterity
    and Perception) and no kind or weapon set, in every system's sheet: a template may still
    be applied to it."""
    light_traits = {trait for system in every_system() for trait in system.npc_initiative_traits}
    return all(set(sheet.get("traits", {})) <= light_traits and not sheet.get("weapon")
               and (sheet.get("kind") or "Muggle") == "Muggle"
               for sheet in map(deserialize, (npc.sheets or {}).values()))


def render_templates(system: RuleSystem) -> str:
    table = templates(system)
    if not table:
        return f"The {system.key} rules have no NPC templates."
    weapons = system.weapon_names
    rows = []
    for key, template in table.items():
        kind = template.kind + (f" ({template.base_kind})" if template.base_kind else "")
        weapon = weapons.get(template.weapon, template.weapon) if template.weapon else "-"
        rows.append((key, template.name, kind or "-", weapon, str(len(template.traits))))
    shown = text_table(("Template", "Name", "Kind", "Weapon", "Traits"), (15, 22, 19, 14, 8), rows)
    return f"{fit(f'NPC templates ({system.key}): +npc/create <name>=<template>')}\n{shown}"


# ------------------------------------------------------------------------------- services
def parse_copies(text: str) -> tuple[str, int | None]:
    """``"Thug*3"`` → ("Thug", 3); ``"Thug"`` → ("Thug", None). Raises CombatError."""
    match = COPIES.match(text.strip())
    if not match:
        return text.strip(), None
    count = match["count"]
    if not count.isascii() or not count.isdigit() or len(count) > 2 or not 1 <= int(count) <= MAX_COPIES:
        raise CombatError(f"Give the number of copies as 1-{MAX_COPIES}: +npc/create Thug*3=thug.")
    return match["base"], int(count)


def numbered_names(room, base: str, count: int) -> list[str]:
    """``count`` names ``"<base> <n>"`` numbered on from the highest already in ``room``."""
    base = combat.validate_npc_name(base)
    pattern = re.compile(rf"^{re.escape(base.casefold())} (\d+)$")
    used = [int(m[1]) for obj in npcs_in(room) if (m := pattern.match(obj.key.casefold()))]
    start = max(used, default=0) + 1
    return [f"{base} {number}" for number in range(start, start + count)]


def create(caller, name_text: str, template_text: str | None, system: RuleSystem) -> list[str]:
    """``+npc/create <name>[*<n>][=<template>]``; returns the lines to show the caller.

    An existing *light* NPC of that name (``+npc/init Guard=2+3``) gets the template's sheet
    instead of a new NPC being made. Raises CombatError (nothing is created then)."""
    require_perm(caller, NARRATOR, "create NPCs")
    room = caller.location
    if room is None:
        raise CombatError("You need to be in a room to create NPCs.")
    template = None
    if template_text is not None:
        if not template_text.strip():
            raise CombatError("Usage: +npc/create <name>[*<copies>][=<template>]")
        template = find_template(system, template_text)
    base, count = parse_copies(name_text)
    if count is None:
        name = combat.validate_npc_name(base)
        existing = [obj for obj in npcs_in(room) if obj.key.casefold() == name.casefold()]
        if existing and template is not None and is_light(existing[0]):
            _require_scene_control(caller, existing[0], "change NPCs in this fight")
            apply_template(existing[0], template, system)
            return [f"{existing[0].key} now has the {template.key} template's sheet "
                    f"({describe(existing[0], system)})."]
        if existing and template is not None and not filled(existing[0], system):
            _require_scene_control(caller, existing[0], "change NPCs in this fight")
            apply_template(existing[0], template, system)
            return [f"{existing[0].key}'s {system.key} sheet was empty: it now has the {template.key} "
                    f"template's sheet ({describe(existing[0], system)})."]
        if existing and is_light(existing[0]):
            raise CombatError(f"There is already an NPC named {existing[0].key} here (a light NPC): give it a "
                              f"sheet with +npc/create {existing[0].key}=<template> or +npc/set.")
        if existing:
            copies = f"+npc/create {existing[0].key}*2" + (f"={template.key}" if template else "")
            refill = (f" Its {system.key} sheet is not empty: +npc/clear/{system.key} {existing[0].key} "
                      f"clears it for a template." if template else "")
            raise CombatError(f"There is already an NPC named {existing[0].key} here. "
                              f"For numbered copies: {copies}.{refill}")
        names = [name]
    else:
        names = numbered_names(room, base, count)
    checked: list[str] = []
    for name in names:
        checked.append(check_new_name(room, name, checked))
    made = []
    for name in checked:
        npc = create_object(NPC_TYPECLASS, key=name, location=room)
        if template is not None:
            apply_template(npc, template, system)
        made.append(npc)
    source = f"from the {template.key} template" if template else "with an empty sheet (+npc/set fills it)"
    mapping = {f"npc{i}": npc for i, npc in enumerate(made)} | {"storyteller": caller}
    room.msg_contents(f"{COMBAT} {{storyteller}} brings in " + ", ".join("{npc%d}" % i for i in range(len(made)))
                      + ".", exclude=[caller], mapping=mapping)
    return [f"Created {', '.join(npc.key for npc in made)} {source}."]


def describe(npc, system: RuleSystem) -> str:
    combatant = snapshot(npc, system)
    kind = shown_kind(system, combatant.kind)
    return f"{kind + ', ' if kind else ''}{len(combatant.traits)} traits, weapon {combatant.weapon or 'none'}"


def filled(npc, system: RuleSystem) -> bool:
    """Whether ``npc``'s sheet for ``system`` has anything: a trait, kind, weapon or
    transformation (a base kind alone does not count)."""
    sheet = sheet_of(npc, system)
    return any(sheet.get(field) for field in ("traits", "kind", "weapon", "transformed"))


def clear(caller, name: str, system: RuleSystem) -> str:
    """``+npc/clear <name>``: empty the NPC's sheet for ``system`` (its other sheets and its
    health are kept); the line to show. Raises CombatError."""
    require_perm(caller, NARRATOR, "change NPCs")
    npc = find_npc(caller, name)
    _require_scene_control(caller, npc, "change NPCs in this fight")
    if not filled(npc, system):
        raise CombatError(f"{npc.key}'s {system.key} sheet is already empty.")
    clear_sheet(npc, system)
    return f"{npc.key}'s {system.key} sheet is cleared (+npc/create/{system.key} {npc.key}=<template> fills it)."


def _require_scene_control(caller, npc, doing: str) -> None:
    """An NPC fighting here is the scene Storyteller's (or staff's) to change."""
    row = combat.fight_here(npc)
    if row is not None and fights.state(row).has(npc.id):
        combat.require_gm(caller, row, doing)


def set_trait(caller, name: str, field: str, value: str, system: RuleSystem):
    """``+npc/set <name>/<trait>=<value>`` on the NPC's sheet for ``system``; returns (npc,
    change line). Raises CombatError."""
    require_perm(caller, NARRATOR, "change NPCs")
    npc = find_npc(caller, name)
    _require_scene_control(caller, npc, "change NPCs in this fight")
    return npc, set_stat(npc, field, value, system)


def set_traits(caller, name: str, text: str, system: RuleSystem):
    """``+npc/set <name>=<trait> <value>[, ...]`` (:func:`world.sheets.parse_changes`) on the
    NPC's sheet for ``system``, all or nothing; returns (npc, change lines). Raises
    CombatError (nothing changed)."""
    require_perm(caller, NARRATOR, "change NPCs")
    npc = find_npc(caller, name)
    _require_scene_control(caller, npc, "change NPCs in this fight")
    return npc, set_stats(npc, parse_changes(text, system, "+npc/set <name>=<trait> <value>, ..."), system)


def init_all(caller, row=None) -> str:
    """``+npc/init all``: initiative for every NPC in the fight's room (default: the caller's
    room's fight) that has a sheet for the fight's system, bringing into the fight those not
    in it yet; the line to show: who rolled, who was skipped and why (no sheet for the
    system, already rolled this round, or this fight where initiative is kept, dead or
    otherwise unable to act, in another fight, or the rules' own refusal). Each roll is the single ``+npc/init <name>``'s
    ``initiative`` intent with the turn held, all in one unit of work (the fight loaded and saved
    once); whose turn it is is told once, after the last roll (``tell_turn``).
    Raises CombatError when there is no NPC here, or for a system that rolls no NPC
    initiative (elethril: its own words)."""
    row = row or combat.require_fight(caller)
    combat.require_gm(caller, row, "roll initiative for NPCs")
    system = combat.system_of(row)
    if system.declared_rounds:   # the system's own words (elethril: everyone rolls once the round is declared)
        return combat.perform(caller, row, "npc_initiative")
    here = npcs_in(fights.obj(row.room_id))
    if not here:
        raise CombatError("No NPCs here. Make one with +npc/create <name>[=<template>].")
    when = "round" if system.reroll_each_round else "fight"
    rolled, skipped = [], {}
    with fights.unit("+npc/init all"):
        for npc in here:
            state = fights.state(row)
            combatant = snapshot(npc, system)
            elsewhere = fights.fight_of(npc)
            why = (f"no {system.key} sheet" if not filled(npc, system)
                   else f"already has initiative this {when}" if npc.id in state.initiative
                   else "dead" if system.health(combatant.health, combatant).dead
                   else "cannot act" if not system.can_act(combatant)
                   else "in another fight" if elsewhere is not None and elsewhere.pk != row.pk
                   else "")
            if not why:
                data = {"held": True} | ({} if state.has(npc.id) else {"fighter": fights.fighter_record(npc, system)})
                try:
                    combat.perform(caller, row, "initiative", actor=npc.id, data=data)
                except CombatError as error:   # the rules' refusal of this one: nothing of it is kept
                    why = str(error).rstrip(".")
            if why:
                skipped.setdefault(why, []).append(npc.key)
            else:
                rolled.append(npc.key)
        if rolled:   # whose turn it is, told once every roll is in
            combat.perform(caller, row, "tell_turn")
    groups = ["{} ({})".format(", ".join(names), why) for why, names in skipped.items()]
    left = f" Skipped: {'; '.join(groups)}." if groups else ""
    return f"Initiative rolled for {', '.join(rolled)}.{left}" if rolled else f"No NPC here rolled initiative.{left}"


def remove(caller, name: str) -> None:
    """``+npc/remove <name>``: out of any fight (cancelling attacks by or on it, announced), then
    deleted. Raises CombatError."""
    require_perm(caller, NARRATOR, "remove NPCs")
    npc = find_npc(caller, name)
    _require_scene_control(caller, npc, "remove NPCs from this fight")
    row = fights.fight_of(npc)
    if row is not None:
        combat.perform(caller, row, "remove", targets=(npc.id,), option="scene")
    else:
        narration.tell_room(npc.location, "control.removed_from_scene", actor=caller, refs={"target": npc})
    npc.delete()


def render_list(room, system: RuleSystem) -> str:
    """The room's NPCs: name (``*`` light), kind, weapon, health, fight (78 columns)."""
    npcs = npcs_in(room)
    if not npcs:
        return "No NPCs here. Make one with +npc/create <name>[=<template>] (+npc/templates lists them)."
    row = fights.running_in(room)
    state = fights.state(row) if row is not None else None
    fighting = [npc for npc in npcs if state is not None and state.has(npc.id)]
    rows = []
    light = False
    for npc in npcs:
        combatant = snapshot(npc, system)
        health = system.health(combatant.health, combatant)
        fight = "-"
        if npc in fighting:
            fight = "init" if npc.id in state.initiative else "in"
        weapon = weapon_name(system, combatant.weapon) if combatant.weapon else "-"
        light = light or is_light(npc)
        rows.append((escape(npc.key) + ("*" if is_light(npc) else ""), escape(shown_kind(system, combatant.kind) or "-"),
                     escape(weapon), health_text(health), fight))
    lines = [f"NPCs here ({len(npcs)}, {system.key}):",
             text_table(("Name", "Kind", "Weapon", "Health", "Fight"), (23, 10, 13, 25, 7), rows)]
    if light:
        lines.append(fit("* light NPC: give it a sheet with +npc/create <name>=<template> or +npc/set."))
    if fighting:
        lines.append(fit("Fight: init = in the fight with initiative; in = joined, no initiative yet."))
    return "\n".join(lines)
