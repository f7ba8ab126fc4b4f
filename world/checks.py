"""The eldritch checks that also work outside a fight (the eldritch seed): concealing and
searching for weapons, eye contact and line of sight.

In a fight each is an intent of the fight's (``rules.systems.eldritch.actions``: its dice, its
roll log, its turn); outside one, the same pure rules are rolled here and shown to the room or
the caller. What a character hides is kept on the character (its ``concealed`` Attribute) and
handed to the fight with the intent. Every function raises ``CombatError`` (one
player-facing line) and changes nothing when it refuses.
"""

from __future__ import annotations

from evennia.utils.dbserialize import deserialize

from rules.engine.draft import find_named
from rules.lines import Line
from rules.systems import CombatError, get_system
from rules.systems.eldritch import actions
from world import combat, dice
from world.access import NARRATOR, require_perm
from world.narration import tell_with_lines
from world.sheets import is_npc, snapshot
from world.text import COMBAT, escape_for_room
from world.wording import line_text

KEY = "eldritch"


def _here(caller, action: str, what: str):
    """(the fight here or None, its rules): a fight's when it plays ``action`` (refused,
    naming ``what``, under other rules), else eldritch's whatever the game's default."""
    row = combat.fight_here(caller)
    if row is None:
        return None, get_system(KEY)
    return row, combat.require_action(row, action, what)


def _in_room(caller, name: str):
    """A character or NPC in ``caller``'s room by name (exact, else a unique prefix)."""
    here = [obj for obj in (caller.location.contents if caller.location else []) if hasattr(obj, "sheets")]
    found = find_named([(obj.id, obj.key) for obj in here], name, Line("refusal.name_someone_here"), "refusal.no_one_here")
    return next(obj for obj in here if obj.id == found)


def _actor(caller, row, name: str | None):
    """Who acts: the caller, or (``<npc>=``) an NPC: in a fight, one its game master runs;
    outside a fight, one here, for Narrators."""
    if not name:
        return caller
    if row is not None:
        return combat.fights.obj(combat.actor_for(caller, row, name))
    require_perm(caller, NARRATOR, "act for NPCs")
    npc = _in_room(caller, name)
    if not is_npc(npc):
        raise CombatError(f"{npc.key} is a player character: only they can act for themselves.")
    return npc


def _stored(obj) -> dict:
    return dict(deserialize(getattr(obj, "concealed", None) or {}))


def _tell(lines: list, *recipients, told: set | None = None) -> set:
    """Private working, outside a fight: to each of ``recipients`` once (NPCs, None and
    those in ``told`` skipped); returns those told. A line is the rules' (``Line``, worded
    from the catalogue as a fight's working is) or this module's own text."""
    worded = [line_text(line, KEY) for line in lines]
    text = "\n".join([worded[0]] + [f"  {line}" for line in worded[1:]])
    told = set() if told is None else told
    for who in recipients:
        if who is not None and who not in told and not is_npc(who):
            told.add(who)
            who.msg(f"{COMBAT} {text}")
    return told


def _gm(row):
    return combat.fights.obj(combat.fights.state(row).gm) if row is not None else None


# ---------------------------------------------------------------------- concealment
def conceal(caller, actor_name: str | None, text: str, *, duffel: bool) -> None:
    """``+conceal <weapon>[/duffel]``: the first weapon hidden rolls Intelligence + Larceny
    once; every weapon hidden after it uses the same roll (seed: "you only roll once")."""
    row, system = _here(caller, "conceal", "concealment")
    actor = _actor(caller, row, actor_name)
    if row is not None:
        record = combat.perform(caller, row, "conceal", actor=actor.id, option=text,
                                data={"concealed": _stored(actor), "duffel": duffel})
    else:
        with dice.roller() as roller:
            record, lines = actions.conceal(system, snapshot(actor, system), _stored(actor), text, duffel, roller)
        _tell(lines, caller, actor)
    actor.concealed = record


def clear_concealed(caller, actor_name: str | None) -> None:
    """``+conceal/clear``: forget what is hidden (the next ``+conceal`` rolls anew)."""
    row, _ = _here(caller, "conceal", "concealment")
    actor = _actor(caller, row, actor_name)
    if not actions.concealments(_stored(actor), actor.key):
        raise CombatError(f"{actor.key} hides no weapon.")
    actor.concealed = {}
    _tell([f"{actor.key} no longer hides any weapon."], caller, actor, _gm(row))


def show_concealed(caller, actor_name: str | None) -> None:
    """``+conceal``: what the actor hides, and the roll."""
    row, system = _here(caller, "conceal", "concealment")
    actor = _actor(caller, row, actor_name)
    hidden = actions.concealments(_stored(actor), actor.key)
    if not hidden:
        raise CombatError(f"{actor.key} hides no weapon. +conceal <weapon> hides one.")
    names = ", ".join(system.weapons[c.weapon].name + (" (duffel bag)" if c.duffel else "") for c in hidden)
    _tell([f"{actor.key} hides: {names}; concealment {hidden[0].roll.total} ({line_text(hidden[0].roll.describe(), KEY, plain=True)})."],
          caller, _gm(row))


def search(caller, actor_name: str | None, name: str, *, patdown: bool, opened: bool = False) -> None:
    """``+search <name>[/patdown|/open]`` (``rules.systems.eldritch.actions.Search``): the
    searcher sees their roll and what they find; the one searched and the fight's game
    master (and whoever acts for an NPC) see the whole working."""
    row, system = _here(caller, "search", "concealment")
    actor = _actor(caller, row, actor_name)
    target = _in_room(caller, name)
    if row is not None and combat.fights.state(row).has(actor.id):
        record = combat.perform(caller, row, "search", actor=actor.id, data={
            "concealed": _stored(target), "carrier": {"id": target.id, "name": target.key, "npc": is_npc(target)},
            "patdown": patdown, "opened": opened})
    else:
        if target == actor:
            raise CombatError("You know what you carry: +conceal shows it.")
        with dice.roller() as roller:
            record, lines, seen = actions.search(system, snapshot(actor, system), actor.id, target.key,
                                                 _stored(target), roller, patdown=patdown, opened=opened)
        told = _tell(lines, target, _gm(row), *([] if caller == actor else [caller]))
        _tell(seen, caller, told=told)
    target.concealed = record


# ------------------------------------------------------------- eye contact, sight
def _looking(caller, actor_name: str | None, name: str, action: str, what: str, not_yourself: str):
    row, system = _here(caller, action, what)
    actor = _actor(caller, row, actor_name)
    if row is not None:
        return row, system, actor, combat.find(row, name)
    target = _in_room(caller, name)
    if target == actor:
        raise CombatError(not_yourself)
    return None, system, actor, target


def _sighting(caller, actor, target, sight, template: str) -> None:
    """A look outside a fight, told to the room (its lines worded as a fight's event's:
    ``world.narration.tell_with_lines``)."""
    tell_with_lines(caller.location, f"{COMBAT} " + escape_for_room(f"{actor.key} " + template.format(target=target.key)),
                    sight.lines, KEY)


def eye_contact(caller, actor_name: str | None, name: str, *, yards_text: str | None,
                attention: bool, impaired: bool) -> None:
    """``+eyecontact <name>[=<yards>]`` (``rules.systems.eldritch.actions.EyeContact``)."""
    row, system, actor, target = _looking(caller, actor_name, name, "eye_contact", "eye contact",
                                          "Eye contact is made with someone else.")
    if row is not None:
        combat.perform(caller, row, "eye_contact", actor=actor.id, targets=(target,),
                       data={"yards": yards_text, "attention": attention, "impaired": impaired})
        return
    yards = actions.parse_yards(yards_text)
    with dice.roller() as roller:
        sight = system.eye_contact(snapshot(actor, system), snapshot(target, system), roller,
                                   impaired=Line("eldritch.line.blinded") if impaired else "", yards=yards,
                                   draw_attention=attention)
    _sighting(caller, actor, target, sight, "tries to catch {target}'s eye.")


def line_of_sight(caller, actor_name: str | None, name: str, *, partial: bool, blocked: bool) -> None:
    """``+los <name>[/partial]`` (``rules.systems.eldritch.actions.LineOfSight``)."""
    row, system, actor, target = _looking(caller, actor_name, name, "line_of_sight", "line of sight",
                                          "Line of sight is to someone else.")
    if row is not None:
        combat.perform(caller, row, "line_of_sight", actor=actor.id, targets=(target,),
                       data={"partial": partial, "blocked": blocked})
        return
    with dice.roller() as roller:
        sight = system.line_of_sight(snapshot(actor, system), snapshot(target, system), roller,
                                     blocked=blocked, partial=partial)
    _sighting(caller, actor, target, sight, "looks for a line of sight to {target}.")


# ----------------------------------------------------------------------- movement
def move(caller, actor_name: str | None, text: str, row=None) -> None:
    """``+move <verb> [...]`` (``rules.systems.eldritch.actions.Move``): drawing a weapon
    the actor hid takes it out of hiding. ``row``: the fight (the web tracker's)."""
    row = row or combat.require_fight(caller)
    actor = combat.fights.obj(combat.actor_for(caller, row, actor_name))
    record = combat.act_own(caller, "move", "movement actions", actor_name, option=text, row=row,
                            concealed=_stored(actor))
    if record is not None:
        actor.concealed = record
