"""The fight as every service sees it: finding the fight and who acts, each fighter's
conditions and snapshot for the rules, modifiers, narration (the telnet subscriber of the
fight's events), the roll log, and storing what the rules decided.

The turn flow (``world.encounters``) and each system's own services (``world.aeon``,
``world.eldritch``, ``world.elethril``, ``world.magic``) build on these; this module imports
none of them. Raises ``CombatError`` (one player-facing line) and changes nothing when it
refuses. See ``docs/architecture.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from rules.systems import CombatError, RuleSystem, get_system
from rules.systems.base import Combatant
from world import fights
from world.access import STAFF, has_perm
from world.sheets import default_system, is_npc, snapshot, store_health, update_sheet, weapon_of
from world.text import COMBAT, escape, quote

ENCOUNTER_KEY = "fray_encounter"


def encounter_in(room):
    """The Encounter running in ``room``, or None. The answer is kept on the room (``ndb``)
    while that script lives, so the HUD typed every few seconds does not look it up."""
    if room is None:
        return None
    known = room.ndb.fray_encounter
    if known is not None and known.pk is not None and known.db_obj_id == room.id:
        return known
    found = room.scripts.get(ENCOUNTER_KEY)
    room.ndb.fray_encounter = found[0] if found else None
    return room.ndb.fray_encounter


def require_encounter(caller):
    encounter = encounter_in(caller.location)
    if encounter is None:
        raise CombatError("There is no fight here. A Storyteller starts one with +combat/start.")
    return encounter


def system_of(encounter) -> RuleSystem:
    return get_system(encounter.system_key)


def system_here(caller) -> RuleSystem:
    """The system of the fight in ``caller``'s room, else the game default (also for an
    Account, which has no room)."""
    encounter = encounter_in(getattr(caller, "location", None))
    return system_of(encounter) if encounter else default_system()


def fighters(encounter) -> list:
    """The combatants still in existence, in joining order."""
    return [obj for obj in encounter.combatants or [] if obj is not None]


def find_combatant(encounter, name: str):
    """The combatant called ``name`` (case-insensitive; exact beats a unique prefix)."""
    return find_named(fighters(encounter), name, "Name a combatant.", "No combatant '{}' in this fight.")


def find_named(candidates, name: str, unnamed: str, missing: str):
    """The one of ``candidates`` called ``name`` (case-insensitive; exact beats a unique
    prefix; among names alike but for case, the exact case) or ``#<dbref>``. Raises
    CombatError: ``unnamed`` for a blank name, ``missing`` (``{}``: the name) when none
    matches, the choices when several do (with their dbrefs where the names are alike: a
    rename, ``@name``, can give two fighters one name)."""
    text = name.strip()
    wanted = text.casefold()
    if not wanted:
        raise CombatError(unnamed)
    if wanted[0] == "#" and wanted[1:].isdigit() and len(wanted) < 12:
        found = [obj for obj in candidates if obj.id == int(wanted[1:])]
        if found:
            return found[0]
        raise CombatError(missing.format(quote(name)))
    exact = [obj for obj in candidates if obj.key.casefold() == wanted]
    exact = [obj for obj in exact if obj.key == text] if len(exact) > 1 else exact
    found = exact or [obj for obj in candidates if obj.key.casefold().startswith(wanted)]
    if len(found) == 1:
        return found[0]
    if found:
        alike = len({obj.key.casefold() for obj in found}) < len(found)
        shown = (f"{obj.key} (#{obj.id})" if alike else obj.key for obj in found)
        raise CombatError(f"'{quote(name)}' could be: {', '.join(shown)}.")
    raise CombatError(missing.format(quote(name)))


def ai_ids(encounter) -> set[int]:
    """The ids of the fight's NPCs run by the AI (``+combat/ai``, ``world.ai``)."""
    return {int(obj_id) for obj_id in encounter.ai or []}


def is_storyteller(caller, encounter) -> bool:
    """The scene's ST (who started it) or staff."""
    return encounter.storyteller == caller or has_perm(caller, STAFF)


def require_storyteller(caller, encounter, doing: str) -> None:
    if not is_storyteller(caller, encounter):
        raise CombatError(f"Only this scene's Storyteller or staff can {doing}.")


def actor_for(caller, encounter, name: str | None):
    """Who acts: ``caller`` itself, or (``<npc>=`` prefix) an NPC the caller runs as ST."""
    if not name:
        if caller not in fighters(encounter):
            if is_storyteller(caller, encounter):
                raise CombatError("You are not in this fight: name the NPC you act for first "
                                  "(<npc>=..., e.g. attack Orc=Ann).")
            raise CombatError("You are not in this fight. Join it with +combat/join.")
        return caller
    if not is_storyteller(caller, encounter):
        try:
            actor = find_combatant(encounter, name)
        except CombatError:
            actor = None
        if actor != caller:
            raise CombatError("You can only act for yourself; this scene's Storyteller acts for NPCs.")
        return caller
    actor = find_combatant(encounter, name)
    if actor == caller:
        return caller
    if not is_npc(actor):
        raise CombatError(f"{actor.key} is a player character: only they can act for themselves.")
    return actor


def conditions_of(encounter, obj) -> dict:
    return fights.copied((encounter.conditions or {}).get(obj.id, {}))


#: Conditions whose value is another combatant's id (shown to the rules as its name).
ID_CONDITIONS = ("held_by", "clinch_with")


#: Conditions listing other combatants' ids, kept by the game and not shown to the rules:
#: whom one hides from, whom one has a line of sight with (eldritch).
ID_LIST_CONDITIONS = ("hidden_from", "in_sight")


def combatant(encounter, obj, system: RuleSystem | None = None, overrides=None) -> Combatant:
    """``obj``'s snapshot for the rules, with its conditions in this fight (other fighters by
    name) on top of the scene's settings (``Encounter.scene``, e.g. the ST's space)."""
    system = system or system_of(encounter)
    state = conditions_of(encounter, obj)
    names = {other.id: other.key for other in fighters(encounter)}
    for key in ID_CONDITIONS:
        if key in state:
            state[key] = names.get(state[key], "")
    for key in ID_LIST_CONDITIONS:
        state.pop(key, None)
    return replace(snapshot(obj, system, overrides), conditions={**fights.copied(encounter.scene or {}), **state})


def update_conditions(encounter, obj, **changes) -> None:
    """Set (a None or falsy value clears) some of ``obj``'s conditions."""
    state = conditions_of(encounter, obj)
    state.update(changes)
    set_conditions(encounter, obj, state)


def set_conditions(encounter, obj, values: dict) -> None:
    conditions = dict(encounter.conditions or {})  # a new dict; the others' entries are kept as they are
    cleaned = {k: v for k, v in values.items() if v}
    if cleaned:
        conditions[obj.id] = cleaned
    else:
        conditions.pop(obj.id, None)
    encounter.conditions = conditions


@dataclass(frozen=True)
class Modifiers:
    """What changes ``obj``'s next roll, and why: ``difficulty`` (a tackle's +N, and the ST's
    ``+combat/diff`` where the difficulty may be moved), ``dice`` (the ST's ``+combat/mod``)
    and ``notes`` naming each source for the roll log."""

    difficulty: int
    dice: int
    notes: tuple[str, ...]


def modifiers_for(encounter, obj, adjustable: bool = True) -> Modifiers:
    state = conditions_of(encounter, obj)
    tackle, adjust, dice_mod = (int(state.get(key, 0) or 0) for key in ("difficulty", "adjust", "mod"))
    notes = []
    if tackle:
        notes.append(f"difficulty +{tackle} (tackled last turn)")
    if adjust and adjustable:
        notes.append(f"difficulty {adjust:+d} (Storyteller)")
    if dice_mod:
        notes.append(f"dice {dice_mod:+d} (Storyteller{', kept' if state.get('mod_keep') else ''})")
    return Modifiers(tackle + (adjust if adjustable else 0), dice_mod, tuple(notes))


def use_modifiers(encounter, obj, adjustable: bool = True, *, difficulty: bool = True) -> None:
    """Use up what applied to ``obj``'s roll: the ST's difficulty change (``adjustable``) and
    a one-roll ``+combat/mod`` (a kept one stays). A tackle's penalty (the ``difficulty``
    condition) is not used up: it lasts the whole turn and the rules end it (storyteller's
    ``start_of_round``); ``difficulty`` is kept for the callers that pass it."""
    state = conditions_of(encounter, obj)
    used = {"adjust"} if adjustable else set()
    if not state.get("mod_keep"):
        used.add("mod")
    if used & set(state):
        set_conditions(encounter, obj, {key: value for key, value in state.items() if key not in used})


def is_idle(encounter, obj) -> bool:
    return obj.id in {int(i) for i in encounter.idle or []}


def announce(encounter_or_room, template: str, actor=None, mapping: dict | None = None,
             lines: Sequence[str] = ()) -> None:
    """A ``<Combat>`` line to the room with per-viewer names (``$You()``, ``{key}``), then
    the plain lines of dice and arithmetic: a narration event of the fight (told to the room
    once the command's changes are saved), or straight to a room with no fight."""
    if getattr(encounter_or_room, "obj", None) is not None:
        fights.emit(encounter_or_room, "narration", text=template, actor=actor, mapping=dict(mapping or {}),
                    lines=tuple(lines))
    else:
        narrate(fights.FightEvent(fight=0, seq=0, kind="narration", round=0, room=encounter_or_room,
                                  text=template, actor=actor, mapping=dict(mapping or {}), lines=tuple(lines)))


def narrate(event: fights.FightEvent) -> None:
    """The telnet narrator: a fight's events as ``<Combat>`` lines, per viewer."""
    if event.kind == "narration" and event.room is not None:
        event.room.msg_contents(f"{COMBAT} {event.text}", from_obj=event.actor, mapping=dict(event.mapping))
        if event.lines:  # the same literal text for every viewer: no per-viewer parsing
            text = "\n".join(f"  {escape(line)}" for line in event.lines)
            for viewer in event.room.contents:
                viewer.msg(text=(text, {}))
    elif event.kind == "notice" and event.to is not None:
        event.to.msg(f"{COMBAT} {event.text}")
    elif event.kind == "ended" and event.room is not None and event.data.get("seed"):
        event.room.msg_contents(f"{COMBAT} The dice of fight #{event.fight} are revealed: check them "
                                f"with +combat/verify {event.fight}.\n  Seed: {escape(event.data['seed'])}")


fights.subscribe(narrate)


def add_log(encounter, actor: str, what: str, lines: Iterable[str]) -> None:
    """Append one entry to the fight's roll log (one row)."""
    fights.add_log(encounter, actor, what, lines)


def notify_controller(encounter, obj, text: str) -> None:
    """Tell ``obj`` (or, for an NPC, the scene's Storyteller) something only they need."""
    to = encounter.storyteller if is_npc(obj) else obj
    if to is not None:
        fights.emit(encounter, "notice", text=text, to=to, data={"about": obj.key})


def apply_resolution(encounter, system: RuleSystem, resolution) -> None:
    """Store a resolution: the harmed fighters' health, then each lasting effect
    ``(effect, name, detail)``: held (by detail), prone, difficulty (+detail), clinch (with
    detail), released (from every hold and clinch), disarmed (the weapon lands ``detail`` feet
    away, see ``dropped_weapons``), weapon-taken (``{"weapon", "from"}``: now in hand, and no
    longer in the giver's); any other effect as the system's ``condition_after`` says."""
    store_harm(encounter, system, resolution.harm)
    objects = by_name(encounter)
    for effect, name, detail in resolution.effects:
        obj = objects.get(name)
        if obj is None:
            continue
        other = objects.get(detail) if isinstance(detail, str) else None
        state = conditions_of(encounter, obj)
        if effect == "held":
            state["held_by"] = other.id if other else None
        elif effect == "prone":
            state["prone"] = True
        elif effect == "difficulty":
            state["difficulty"] = int(state.get("difficulty", 0) or 0) + int(detail)
        elif effect == "clinch":
            state["clinch_with"] = other.id if other else None
        elif effect == "released":
            release(encounter, obj)
            continue
        elif effect == "disarmed":
            held = weapon_of(obj, system)
            if held:
                encounter.dropped = dropped_weapons(encounter) + [
                    {"weapon": held, "owner": obj.key, "feet": int(detail)}]
                update_sheet(obj, system, weapon="")
        elif effect == "weapon-taken":
            giver = objects.get(detail.get("from"))
            if giver is not None and weapon_of(giver, system) == detail["weapon"]:
                update_sheet(giver, system, weapon="")
            update_sheet(obj, system, weapon=detail["weapon"])
            continue
        else:
            state = system.condition_after(state, effect, detail)
        set_conditions(encounter, obj, state)


def release(encounter, obj) -> None:
    """End ``obj``'s clinch and holds, on both sides."""
    partners = {conditions_of(encounter, obj).get(key) for key in ID_CONDITIONS}
    for other in fighters(encounter):
        state = conditions_of(encounter, other)
        if other == obj or other.id in partners or obj.id in {state.get(key) for key in ID_CONDITIONS}:
            update_conditions(encounter, other, held_by=None, clinch_with=None)


def dropped_weapons(encounter) -> list[dict]:
    """The weapons lying in the fight: ``{"weapon": key, "owner": name, "feet": distance}``."""
    return [dict(item) for item in fights.copied(encounter.dropped or [])]


def store_harm(encounter, system: RuleSystem, harmed: Iterable) -> None:
    """Store each harmed combatant's health after the harm."""
    objects = by_name(encounter)
    for harm in harmed:
        if harm.name in objects:
            store_fighter_health(encounter, objects[harm.name], system, harm.health_after)


def store_fighter_health(encounter, obj, system: RuleSystem, health) -> None:
    """Save a fighter's new health and tell the fight's subscribers (a ``health`` event with
    the meter's numbers and the health level in words)."""
    store_health(obj, system, health.to_record())
    current, maximum = health.meter
    fights.emit(encounter, "health", actor=obj, data={
        "name": obj.key, "current": current, "maximum": maximum, "text": health.describe(),
        "incapacitated": health.incapacitated, "dead": health.dead})


def by_name(encounter) -> dict:
    return {obj.key: obj for obj in fighters(encounter)}


def spells_of(system: RuleSystem):
    """The system's spellcasting. Raises CombatError when it has none."""
    if system.magic is None:
        raise CombatError(f"The {system.key} rules have no spells.")
    return system.magic


def rebuild_attack(system: RuleSystem, record: dict):
    """An attack stored while its defense window was open (a spell's record says so)."""
    if record.get("magic"):
        return spells_of(system).attack_from_record(record)
    return system.attack_from_record(record)


def shields_in(encounter) -> dict:
    """{protected name: Shield} of the magical shields standing in this fight."""
    from rules.systems.storyteller_magic import Shield

    return {name: Shield.from_record(rec) for name, rec in fights.copied(encounter.shields or {}).items()}


def store_shields(encounter, shields: dict) -> None:
    encounter.shields = {name: shield.to_record() for name, shield in shields.items()}


def has_initiative(encounter, obj) -> bool:
    return str(obj.id) in {str(key) for key in (encounter.initiative or {})}
