"""The elethril fight (the elethril seed, ``docs/rules/elethril.md``): declare, roll initiative, play the segments.

An elethril round is not a turn order: it has two phases, stored on the Encounter script.

1. **Declaring** (``Encounter.segment`` 0). Every fighter able to act, and not still busy
   with an action from an earlier round, declares one: ``attack <target>[/<weapon>]``,
   ``cast <spell>[=<target>]`` or ``use <item>[=<target>]`` (the Storyteller for NPCs,
   ``attack Orc=Ann``). Declaring
   again replaces it; the room only learns that someone declared. ``+combat/forfeit`` gives
   up a carried-over action to declare anew (+1 on the new roll, seed 3a). When the last one
   has declared (idle fighters are not waited for), or the ST types ``+combat/next``,
   initiative is rolled (``ElethrilSystem.start_round``): in round 1 one d10 per side
   (``+combat/side``), the lowest normalised to 1 (seed 1a); later each fighter rolls, or a
   coordinating party (``+combat/party``) rolls one die (seed 1b).
2. **Playing** (``segment`` 1-10 = the next segment to play). Each ``+combat/next`` (ST)
   plays the next segment that has something in it: casting that begins, then the steps in
   the seed's order (spell and item discharge, instant casting, missiles, melee; seed 3b),
   every roll announced to the room. A hit — or a damaging spell — on a caster inside the casting
   window spoils the spell (seed 3c). ``+combat/delay <segment>`` holds one's action to a
   later segment of the round (seed 1c). After the last segment with something in it the
   round is over and the next round's declaring begins (rolled at once when nobody needs
   to declare: everyone busy with carried-over actions).

Everything lives in Attributes (``declarations``, ``sides``, ``parties``, ``segment``,
``segment_actions``, ``segment_initiative``); the timeline is rebuilt from the stored actions
on every call (``build_timeline``), so the HUD is identical after a reload, a restart or a
killed process. Every function raises ``CombatError`` (one player-facing line) and changes
nothing when it refuses.

Fray defaults where the source is silent: the Storyteller sets sides and parties; sides roll
in alphabetical order, then fighters on no side in joining order; a party needs two declared
members (one alone rolls as an individual); declarations are secret until initiative is
rolled (the ST and the declarer see them on the HUD); attacks on a fighter who is down go
ahead (only the dead are spared); one who falls (down or dead) loses the rest of the action
at once — later attacks, a spell not yet cast, anything carried into later rounds —
announced once (``_cancel_fallen``), and is not asked to declare or forfeit.

What makes an action stronger comes from the sheet or the Storyteller, never from a player's
typed option (``ElethrilSystem.plan``): a player attacks with the weapon in hand (or a fist)
and its sheet plusses, makes the sheet's number of attacks, fights with the off-hand weapon
the ST granted (``+combat/offhand``), and casts only what the sheet's Caster Level allows.
The ST declaring for an NPC may name any weapon, plusses, attacks and spell.

Magical items (seed 3b) are staff-set too: ``+item <name>=<type>/<spell>[=<charges>]`` puts
one on a character (the ``magic_items`` Attribute: id, ``[items]`` type, ``[spells]`` key,
charges). ``use <item>[=<target>]`` picks one of the actor's own by type, spell or number,
with a charge left, and declares ``Declaration(item=<type>, spell=<spell>)``: one discharge
at initiative + the item's modifier, no casting (never spoiled), no Caster Level. The charge
is spent as it goes off (``_discharge``; the sheet item is remembered in the fighter's
``item_in_use`` condition when initiative is rolled), so one who falls first, or whose target
is gone or already dead, keeps it. The ST may use any item for an NPC,
``use Orc=wand/fireball=Ann``, spending no charges.
"""

from __future__ import annotations

from dataclasses import replace

from evennia.utils.dbserialize import deserialize

from rules.systems import CombatError, get_system
from rules.systems.base import plural
from rules.systems.elethril.system import (
    Action,
    Declaration,
    Event,
    Group,
    Plan,
    SegmentInitiative,
    Spell,
    Timeline,
    build_timeline,
    delay,
    forfeit,
    item_label,
    signed_parts,
    spoil,
)
from rules.systems.elethril.timeline import (
    PHASES,
    SEGMENTS_PER_ROUND,
    cancel,
    delay_range_error,
    tick_of,
)
from world import dice, fights
from world.fight import (
    actor_for,
    add_log,
    ai_ids,
    announce,
    apply_resolution,
    by_name,
    combatant,
    conditions_of,
    encounter_in,
    fighters,
    find_combatant,
    is_idle,
    is_storyteller,
    modifiers_for,
    notify_controller,
    require_encounter,
    require_storyteller,
    system_here,
    system_of,
    update_conditions,
    use_modifiers,
)
from world.sheets import WIDTH, is_npc
from world.text import COMBAT, columns, escape, escape_for_room, fit, quote, spoken, table

KEY = "elethril"
GROUP_NAME_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 '-")
MAX_GROUP_NAME = 20
HOW_TO_DECLARE = "attack <target>[/<weapon>], cast <spell>[=<target>] or use <item>[=<target>]"
NO_INITIATIVE = ("Elethril rolls initiative for everyone each round, once all have declared (attack, "
                 "cast or use). +combat/init <modifier>[,...] sets standard modifiers.")
NO_NPC_INITIATIVE = ("Elethril NPCs join with +npc/create <name>=<template> and +combat/add "
                     "<name>, then declare like everyone: attack <npc>=<target>.")


# ------------------------------------------------------------------------------ finding
def is_elethril(encounter) -> bool:
    return encounter is not None and encounter.system_key == KEY


def here(caller) -> bool:
    """Whether ``caller``'s room has an elethril fight (or, with none, elethril is the default)."""
    return system_here(caller).key == KEY


def _fight(caller, rule: str):
    """The elethril fight here and its system. Raises CombatError when the fight is another's."""
    encounter = require_encounter(caller)
    if not is_elethril(encounter):
        raise CombatError(f"{rule}: an elethril rule; this fight uses {encounter.system_key}.")
    return encounter, system_of(encounter)


def no_initiative(*_args, **_kwargs):
    """``+combat/init`` and ``+npc/init`` in an elethril fight: there is nothing to roll alone."""
    raise CombatError(NO_INITIATIVE)


def no_npc_initiative(*_args, **_kwargs):
    raise CombatError(NO_NPC_INITIATIVE)


def how_to_declare(obj) -> str:
    """The declaring commands for ``obj``: the player's own, or the Storyteller's for an NPC
    (``attack Ogre=<target>[/<weapon>], cast Ogre=<spell>[=<target>] or use Ogre=<item>=<target>``)."""
    if is_npc(obj):
        return (f"attack {obj.key}=<target>[/<weapon>], cast {obj.key}=<spell>[=<target>] or use "
                f"{obj.key}=<item>=<target>")
    return HOW_TO_DECLARE


# ------------------------------------------------------------------------------ storage
def _round(encounter) -> int:
    return int(encounter.round or 1)


def _now(encounter) -> int:
    """The next segment to play; 0 while the round is being declared."""
    return int(encounter.segment or 0)


def stored_actions(encounter) -> list[Action]:
    return [Action.from_record(record) for record in fights.copied(encounter.segment_actions or [])]


def _store_actions(encounter, actions) -> None:
    encounter.segment_actions = [action.to_record() for action in actions]


def live_actions(encounter) -> list[Action]:
    """The stored actions of those still in the fight (one who left and rejoins resumes)."""
    names = {obj.key for obj in fighters(encounter)}
    return [action for action in stored_actions(encounter) if action.actor in names]


def timeline(encounter) -> Timeline:
    """This round's segment timeline, rebuilt from the stored actions."""
    return build_timeline(_round(encounter), live_actions(encounter))


def _holding(encounter, obj) -> Action | None:
    """``obj``'s action holding this round (declared in it, or carried over into it)."""
    r = _round(encounter)
    return next((a for a in live_actions(encounter)
                 if a.actor == obj.key and (a.round == r or a.busy_in(r))), None)


def _carried(encounter, obj) -> Action | None:
    """``obj``'s action from an earlier round still holding this one (seed 3a, 4c, 4d)."""
    action = _holding(encounter, obj)
    return action if action is not None and action.round < _round(encounter) else None


def _declarations(encounter) -> dict[int, dict]:
    return {int(key): dict(value) for key, value in fights.copied(encounter.declarations or {}).items()}


def _declaration(encounter, system, obj, record: dict) -> Declaration:
    state = conditions_of(encounter, obj)
    return Declaration(actor=combatant(encounter, obj, system), target=record.get("target", ""),
                       weapon=record.get("weapon", ""), off_hand=record.get("off_hand", ""),
                       attacks=int(record.get("attacks", 0)), spell=record.get("spell", ""),
                       item=record.get("item", ""), modifiers=tuple(state.get("initiative_modifiers") or ()),
                       forfeited=state.get("forfeited_in") == _round(encounter),
                       storyteller=bool(record.get("storyteller", False)))


def _by_storyteller(caller, encounter, actor) -> bool:
    """Whether the Storyteller declares for an NPC (whose typed choices are the ST's fiat)."""
    return is_npc(actor) and is_storyteller(caller, encounter)


def initiatives(encounter) -> dict[str, int]:
    """{name: initiative segment} rolled this round."""
    return {name: SegmentInitiative.from_record(record).initiative
            for name, record in fights.copied(encounter.segment_initiative or {}).items()}


def to_declare(encounter, system) -> list:
    """Those the round waits on: able, not idle, not busy with a carried action, undeclared."""
    if _now(encounter):
        return []
    declared = _declarations(encounter)
    return [obj for obj in fighters(encounter)
            if obj.id not in declared and not is_idle(encounter, obj) and _carried(encounter, obj) is None
            and system.can_act(combatant(encounter, obj, system))]


# ----------------------------------------------------------------------------- wording
def describe_plan(plan: Plan, die: str = "d10", own_modifiers: bool = True) -> str:
    """``"attack Orc with short sword and dagger (off-hand); initiative d10 + 3 (short sword)"``;
    ``die`` names what the modifiers are added to (``"party base"`` in round 1); without
    ``own_modifiers`` the slowest party member's are added instead (seed 1b)."""
    declaration = plan.declaration
    if plan.spell is not None:
        what = f"{'use' if plan.item else 'cast'} {plan.label}"
        what += f" at {declaration.target}" if declaration.target else ""
    else:
        primary = plan.attacks[0][0]
        what = f"attack {declaration.target} with {primary.label}"
        off = [weapon for weapon, hand in plan.attacks if hand == "off"]
        if off:
            what += f" and {off[0].label} (off-hand)"
        count = len(plan.attacks) - len(off)
        if count > 1:
            what += f", {count} attacks"
    modifiers = signed_parts(plan.parts) if own_modifiers else " + the slowest member's modifiers"
    return f"{what}; initiative {die}{modifiers}"


def _initiative_base(encounter, actor, plan: Plan) -> tuple[str, bool]:
    """What ``actor``'s initiative modifiers will be added to this round — in round 1 their
    side's base (seed 1a), later their party's d10 or their own (one per attack, seed 4b) —
    and whether they are their own modifiers (not the slowest party member's)."""
    if _round(encounter) == 1:
        side = {int(key): value for key, value in fights.copied(encounter.sides or {}).items()}.get(actor.id)
        return (f"{side} base" if side else "own side base"), True
    party = {int(key): value for key, value in fights.copied(encounter.parties or {}).items()}.get(actor.id)
    if party:
        name, slowest = party
        return f"{name} d10", not slowest
    return ("d10" if plan.dice == 1 else f"best of {plan.dice} d10"), True


def _short(action: Action) -> str:
    """An action for the HUD: ``"short sword, dagger > Orc"``, ``"long sword x2 > Orc"``."""
    events = [event for event in action.events if event.phase != "casting"]
    if not events:
        return "reloading" if action.reload_rounds else "-"
    labels = list(dict.fromkeys(event.label for event in events))
    text = ", ".join(labels) + (f" x{len(events)}" if len(labels) == 1 and len(events) > 1 else "")
    text += f" > {events[0].target}" if events[0].target else ""
    return text + (" (spoiled)" if any(event.spoiled for event in events) else "")


def _plan_short(plan: Plan) -> str:
    """A declared plan for the HUD, in the words of :func:`_short`."""
    target = plan.declaration.target
    if plan.spell is not None:
        return plan.label + (f" > {target}" if target else "")
    labels = list(dict.fromkeys(weapon.label for weapon, _ in plan.attacks))
    count = len(plan.attacks)
    return ", ".join(labels) + (f" x{count}" if len(labels) == 1 and count > 1 else "") + f" > {target}"


def _where(r: int, event: Event) -> str:
    return f"segment {event.segment}" if event.round == r else f"round {event.round}, segment {event.segment}"


# ------------------------------------------------------------------------------ declaring
def _require_declaring(encounter, system, actor) -> None:
    r = _round(encounter)
    if _now(encounter):
        raise CombatError(f"Round {r}'s initiative is rolled: actions are set until the round ends "
                          "(+combat/delay <segment> holds yours).")
    system.require_able(combatant(encounter, actor, system))   # the fallen are not sent to forfeit
    carried = _carried(encounter, actor)
    if carried is not None:
        if any(event.round >= r for event in carried.events):
            forfeit_command = f"+combat/forfeit {actor.key}" if is_npc(actor) else "+combat/forfeit"
            raise CombatError(f"{actor.key} is still acting (from round {carried.round}): "
                              f"{forfeit_command} gives that up to act anew (+1 initiative).")
        raise CombatError(f"{actor.key} is reloading until round {carried.next_initiative_round}.")


def parse_weapons(option: str) -> dict:
    """``"short sword +1,dagger"`` (primary, off-hand), ``"long sword*2"`` (attacks); an
    empty primary is the weapon in hand. Raises CombatError."""
    text, count = option.strip(), 0
    if "*" in text:
        text, _, number = text.rpartition("*")
        number = number.strip()
        if not number.isascii() or not number.isdigit() or len(number) > 2 or int(number) < 1:
            raise CombatError(f"Give the number of attacks after '*', e.g. attack Orc/long sword*2, "
                              f"not '{quote(number)}'.")
        count = int(number)
    primary, comma, off_hand = (part.strip() for part in text.partition(","))
    if comma and not off_hand:
        raise CombatError("Name the off-hand weapon after ',', e.g. attack Orc/short sword,dagger.")
    return {"weapon": primary, "off_hand": off_hand, "attacks": count}


def declare_attack(caller, actor_name: str | None, target_name: str, option: str) -> None:
    """``attack <target>[/<weapon>[,<off-hand>]][*<attacks>]``: the actor's action this round."""
    encounter = require_encounter(caller)
    system = system_of(encounter)
    actor = actor_for(caller, encounter, actor_name)
    target = find_combatant(encounter, target_name)
    if target == actor:
        raise CombatError("You cannot attack yourself.")
    fighter = combatant(encounter, target, system)
    if system.health(fighter.health, fighter).dead:
        raise CombatError(f"{target.key} is already dead.")
    _declare(caller, encounter, system, actor, {"target": target.key, **parse_weapons(option),
                                                 "storyteller": _by_storyteller(caller, encounter, actor)})


def declare_spell(caller, actor_name: str | None, spell_name: str, targets: list[str], *,
                  special: bool = False) -> None:
    """``cast <spell>[=<target>]``: the spell as the actor's action this round (its casting
    begins at their segment and lasts its casting time, seed 3c)."""
    encounter = encounter_in(caller.location)
    if encounter is None:
        raise CombatError(f"Elethril spells are cast in a fight: {HOW_TO_DECLARE} once it starts.")
    system = system_of(encounter)
    actor = actor_for(caller, encounter, actor_name)
    spell = system.spell(spell_name)
    if special:
        raise CombatError("Elethril spells have no Special Effect successes: cast without /damage.")
    usage = f"cast {actor.key + '=' if actor != caller else ''}{spell.key}=<target>"
    target = _spell_target(encounter, actor, spell, spell.name, targets, usage)
    _declare(caller, encounter, system, actor, {"target": target, "spell": spell.key,
                                                 "storyteller": _by_storyteller(caller, encounter, actor)})


def _spell_target(encounter, actor, spell: Spell, what: str, targets: list[str], usage: str) -> str:
    """The one target named for ``spell`` ("" for none): a damaging spell needs one, not the
    actor. Raises CombatError."""
    if len(targets) > 1:
        raise CombatError(f"Name one target: {usage}")
    target = find_combatant(encounter, targets[0]) if targets else None
    if spell.damage and target is None:
        raise CombatError(f"{what[:1].upper() + what[1:]} needs a target: {usage}")
    if spell.damage and target == actor:
        raise CombatError("You cannot aim a spell at yourself.")
    return target.key if target else ""


def declare_item(caller, actor_name: str | None, item_text: str, targets: list[str]) -> None:
    """``use <item>[=<target>]``: discharge a magical item's spell as the actor's action this
    round, at initiative + the item's modifier (seed 3b). The item is one of the actor's own
    (``+item``) with a charge left; the ST may name any ``<type>/<spell>`` for an NPC."""
    encounter, system = _fight(caller, "Using a magical item")
    actor = actor_for(caller, encounter, actor_name)
    storyteller = _by_storyteller(caller, encounter, actor)
    kind, spell, number = _pick_item(system, actor, item_text, storyteller)
    label = item_label(system.items[kind][0], spell)
    usage = f"use {actor.key + '=' if actor != caller else ''}{quote(item_text.strip())}=<target>"
    target = _spell_target(encounter, actor, spell, f"the {label}", targets, usage)
    _declare(caller, encounter, system, actor, {"target": target, "item": kind,
                                                 "spell": spell.key, "item_id": number,
                                                 "storyteller": storyteller})


def _declare(caller, encounter, system, actor, record: dict) -> None:
    _require_declaring(encounter, system, actor)
    plan = system.plan(_declaration(encounter, system, actor, record))  # every check, no dice
    declarations = _declarations(encounter)
    again = actor.id in declarations
    declarations[actor.id] = record
    encounter.declarations = declarations
    text = describe_plan(plan, *_initiative_base(encounter, actor, plan))
    add_log(encounter, actor.key, "declares", [text])
    fights.emit(encounter, "notice", text=f"{escape(actor.key)} will {escape(text)}.", to=caller)
    verb = "changes the declared action" if again else "declares an action"
    announce(encounter, "{actor} " + f"{verb} for round {_round(encounter)}.", mapping={"actor": actor})
    roll_when_ready(encounter)


def forfeit_action(caller, actor_name: str | None) -> None:
    """``+combat/forfeit``: give up an action carried over from an earlier round (or attacks
    spilling past segment 10) to declare anew, +1 on the new initiative roll (seed 3a, 4c)."""
    encounter, system = _fight(caller, "Forfeiting")
    actor = actor_for(caller, encounter, actor_name)
    r = _round(encounter)
    system.require_able(combatant(encounter, actor, system))   # the fallen have nothing to forfeit
    if _now(encounter):
        raise CombatError(f"Round {r}'s initiative is rolled: forfeit while the next round is declared.")
    carried = _carried(encounter, actor)
    if carried is None:
        raise CombatError(f"{actor.key} has no action carried into round {r} to forfeit.")
    given_up = forfeit(carried, r)
    _store_actions(encounter, [given_up if action == carried else action for action in stored_actions(encounter)])
    update_conditions(encounter, actor, forfeited_in=r)
    lines = [f"{actor.key} declares anew with +{system.forfeit_penalty} on the initiative roll."]
    add_log(encounter, actor.key, "forfeits", lines)
    announce(encounter, "{actor} forfeits the action from round " + f"{carried.round}.",
             mapping={"actor": actor}, lines=lines)
    notify_controller(encounter, actor, escape(f"Declare {actor.key}'s action for round {r}: "
                                               f"{how_to_declare(actor)}."))


def set_modifiers(caller, actor_name: str | None, text: str) -> None:
    """``+combat/init <modifier>[,<modifier>...]``: standard initiative modifiers (hasted,
    higher ground …, PHB Table 52) for one's rolls from now on; ``none`` clears them. The
    ST sets anyone's with ``<name>=``."""
    encounter, system = _fight(caller, "Standard initiative modifiers")
    if actor_name is None:
        actor = actor_for(caller, encounter, None)
    else:
        require_storyteller(caller, encounter, "set someone else's initiative modifiers")
        actor = find_combatant(encounter, actor_name)
    words = [word.strip() for word in text.split(",")]
    if not all(words):
        raise CombatError("Usage: +combat/init <modifier>[,<modifier>...] (or none)")
    keys = [] if [w.casefold() for w in words] == ["none"] else \
        list(dict.fromkeys(system.initiative_modifier(word) for word in words))
    update_conditions(encounter, actor, initiative_modifiers=keys)
    named = ", ".join(f"{system.modifiers[key][0]} {system.modifiers[key][1]:+d}" for key in keys)
    what = f"initiative modifiers: {named}" if keys else "no initiative modifiers"
    announce(encounter, "{actor} has " + escape_for_room(what) + " (from the next initiative roll).",
             mapping={"actor": actor})


def set_off_hand(caller, names_text: str, weapon_text: str) -> None:
    """ST: ``+combat/offhand <names>=<weapon>`` — the off-hand weapon those named may fight
    with in this fight (``attack Orc/short sword,dagger``; seed 4c). A player cannot name one
    of their own: what makes an action stronger comes from the sheet or the Storyteller. The
    ST may type plusses (``dagger +1``); an empty weapon takes it away."""
    encounter, system = _fight(caller, "Off-hand weapons")
    require_storyteller(caller, encounter, "grant off-hand weapons")
    names = [name.strip() for name in names_text.split(",")]
    if not all(names):
        raise CombatError("Usage: +combat/offhand <name>[,<name>...]=<weapon>")
    objs = list(dict.fromkeys(find_combatant(encounter, name) for name in names))
    weapon = system.off_hand_grant(weapon_text) if weapon_text.strip() else None
    for obj in objs:
        update_conditions(encounter, obj, off_hand=weapon.key if weapon else None)
    who = ", ".join(obj.key for obj in objs)
    if weapon:
        text = f"{who}: off-hand {weapon.label} (attack <target>/,{weapon.weapon.name} fights with both)."
    else:
        text = f"{who}: no off-hand weapon."
    announce(encounter, escape_for_room(text))


# ------------------------------------------------------------------------- sides, parties
def _names_and_group(encounter, names_text: str, group_text: str, what: str) -> tuple[list, str]:
    names = [name.strip() for name in names_text.split(",")]
    if not all(names):
        raise CombatError(f"Usage: +combat/{what} <name>[,<name>...]=<{what}>")
    objs = list(dict.fromkeys(find_combatant(encounter, name) for name in names))
    group = " ".join(group_text.split())
    if group and (len(group) > MAX_GROUP_NAME or not set(group) <= GROUP_NAME_CHARS or not group[0].isalnum()):
        raise CombatError(f"A {what} is named with 1-{MAX_GROUP_NAME} letters, digits, spaces, hyphens or "
                          f"apostrophes, not '{quote(group)}'.")
    return objs, group


def set_side(caller, names_text: str, side_text: str) -> None:
    """ST: ``+combat/side <names>=<side>``, in every system — whom the AI's NPCs fight
    (``world.ai``); in elethril round 1 also rolls one d10 per side (seed 1a). An empty side
    takes them off theirs (each is then a side of their own in elethril's round 1)."""
    encounter = require_encounter(caller)
    require_storyteller(caller, encounter, "set sides")
    objs, side = _names_and_group(encounter, names_text, side_text, "side")
    sides = {int(key): value for key, value in fights.copied(encounter.sides or {}).items()}
    for obj in objs:
        if side:
            sides[obj.id] = side
        else:
            sides.pop(obj.id, None)
    encounter.sides = sides
    who = ", ".join(obj.key for obj in objs)
    if not is_elethril(encounter):
        text = f"{who}: side {side}." if side else f"{who}: no side (players against NPCs)."
    else:
        text = f"{who}: side {side}." if side else f"{who}: no side (a side of their own in round 1)."
    if side and is_elethril(encounter) and _round(encounter) > 1:
        text += " Sides roll together in round 1 only (+combat/party coordinates later rounds)."
    announce(encounter, escape_for_room(text))


def set_party(caller, names_text: str, party_text: str) -> None:
    """ST: ``+combat/party <names>=<party>[/slowest]`` — from round 2 those named coordinate:
    one d10 for the party, each adding their own modifiers or, with ``/slowest``, the slowest
    member's (seed 1b); an empty party lets them roll alone again."""
    encounter, _ = _fight(caller, "Coordinating parties")
    require_storyteller(caller, encounter, "set parties")
    party, slash, how = party_text.partition("/")
    if slash and how.strip().casefold() != "slowest":
        raise CombatError("After the party name only /slowest may follow, e.g. +combat/party Ann,Bob=nag/slowest.")
    if slash and not party.strip():
        raise CombatError("Name the party before /slowest.")
    objs, party = _names_and_group(encounter, names_text, party, "party")
    parties = {int(key): list(value) for key, value in fights.copied(encounter.parties or {}).items()}
    for obj in objs:
        if party:
            parties[obj.id] = [party, bool(slash)]
        else:
            parties.pop(obj.id, None)
    encounter.parties = parties
    who = ", ".join(obj.key for obj in objs)
    if not party:
        text = f"{who}: no party (each rolls their own initiative)."
    else:
        how = "the slowest member's modifiers" if slash else "their own modifiers"
        text = f"{who}: party {party}, one d10 from round 2 on, with {how}."
    announce(encounter, escape_for_room(text))


def _groups(encounter, r: int, names: set[str]) -> list[Group]:
    """Round 1: the sides; later: the parties with at least two members declaring."""
    by_id = {obj.id: obj.key for obj in fighters(encounter)}
    if r == 1:
        sides: dict[str, list[str]] = {}
        for obj_id, side in fights.copied(encounter.sides or {}).items():
            name = by_id.get(int(obj_id))
            if name in names:
                sides.setdefault(side, []).append(name)
        return [Group(side, tuple(members)) for side, members in sorted(sides.items(), key=lambda s: s[0].casefold())]
    parties: dict[str, list[tuple[str, bool]]] = {}
    for obj_id, (party, slowest) in fights.copied(encounter.parties or {}).items():
        name = by_id.get(int(obj_id))
        if name in names:
            parties.setdefault(party, []).append((name, bool(slowest)))
    return [Group(party, tuple(name for name, _ in members), tuple(name for name, slow in members if slow))
            for party, members in sorted(parties.items(), key=lambda p: p[0].casefold()) if len(members) >= 2]


# ------------------------------------------------------------------------------- rolling
def _anything_to_roll(encounter) -> bool:
    """Whether someone in the fight declared, or holds this round with a carried action."""
    present = {obj.id for obj in fighters(encounter)}
    r = _round(encounter)
    return (any(obj_id in present for obj_id in _declarations(encounter))
            or any(action.busy_in(r) for action in live_actions(encounter)))


def roll_when_ready(encounter) -> None:
    """Roll initiative once nobody is left to declare (and someone does something)."""
    system = system_of(encounter)
    if not _now(encounter) and not to_declare(encounter, system) and _anything_to_roll(encounter):
        roll_round(encounter)


def roll_round(encounter) -> None:
    """Roll this round's initiative for the declared actions and announce the timeline."""
    system = system_of(encounter)
    r = _round(encounter)
    lapsed = _cancel_fallen(encounter, system, (tick_of(r, 0), len(PHASES)))
    declared = _declarations(encounter)
    declarations = []
    for obj in fighters(encounter):  # joining order: the order of the individual dice
        if obj.id not in declared:
            continue
        fighter = combatant(encounter, obj, system)
        if not system.can_act(fighter):
            state = "dead" if system.health(fighter.health, fighter).dead else "down"
            lapsed.append(f"{obj.key} is {state}: the declared action lapses.")
            del declared[obj.id]
            continue
        declaration = _declaration(encounter, system, obj, declared[obj.id])
        try:
            system.plan(declaration)   # the sheet or the ST's grant may have changed since
            used = _held_item(system, obj, declared[obj.id])
        except CombatError as err:
            lapsed.append(f"{obj.key}'s declared action lapses: {err}")
            del declared[obj.id]
            continue
        update_conditions(encounter, obj, item_in_use=used["id"] if used else None)
        declarations.append(declaration)
    encounter.declarations = declared   # the lapsed are no longer shown as declared
    groups = _groups(encounter, r, {d.actor.name for d in declarations})
    carried = [action for action in live_actions(encounter) if action.busy_in(r)]
    with dice.roller(encounter) as roller:
        start = system.start_round(r, declarations, roller, groups=groups, carried=carried)
    _store_actions(encounter, stored_actions(encounter) + list(start.actions))
    encounter.segment_initiative = {i.actor: i.to_record() for i in start.initiative}
    encounter.segment = 1
    lines = [*start.describe(), *lapsed]
    add_log(encounter, "initiative", f"round {r}", lines)
    board = timeline(encounter).describe(width=WIDTH - 2, now=_next_segment(encounter)).splitlines()
    announce(encounter, f"Round {r} initiative (lowest acts first):", lines=[*lines, *board])
    announce(encounter, "The ST plays the segments (+combat/next); hold yours with +combat/delay.")


# ------------------------------------------------------------------------------- playing
def next_step(caller, encounter=None) -> None:
    """ST ``+combat/next`` in ``encounter`` (default: the caller's room's fight): roll
    initiative with whoever has declared, or play the next segment that has something in it
    (ending the round after the last)."""
    encounter = encounter or require_encounter(caller)
    require_storyteller(caller, encounter, "advance the fight")
    system = system_of(encounter)
    if _now(encounter):
        play_segment(encounter)
        return
    if not _anything_to_roll(encounter):
        raise CombatError(f"Nobody has declared an action yet ({HOW_TO_DECLARE}).")
    waiting = to_declare(encounter, system)
    if waiting:
        names = ", ".join(obj.key for obj in waiting)
        announce(encounter, escape_for_room(f"{names} {'declares' if len(waiting) == 1 else 'declare'} "
                                            f"nothing: no action this round."))
    roll_round(encounter)


def _pending(encounter, after: int) -> list[Event]:
    return [e for e in timeline(encounter).events if e.segment >= after and not e.spoiled]


def _next_segment(encounter) -> int:
    """The segment the next ``+combat/next`` plays (0: none, or still declaring)."""
    upcoming = _pending(encounter, _now(encounter)) if _now(encounter) else []
    return upcoming[0].segment if upcoming else 0


def play_segment(encounter) -> None:
    upcoming = _pending(encounter, _now(encounter))
    if not upcoming:
        end_round(encounter)
        return
    segment = upcoming[0].segment
    _play(encounter, segment)
    encounter.segment = segment + 1
    if segment >= SEGMENTS_PER_ROUND or not _pending(encounter, segment + 1):
        end_round(encounter)


def _play(encounter, segment: int) -> None:
    system = system_of(encounter)
    r = _round(encounter)
    announce(encounter, f"Round {r}, segment {segment}:")
    _announce_fallen(encounter, _cancel_fallen(encounter, system, (tick_of(r, segment), -1)))
    objects = by_name(encounter)
    for event in timeline(encounter).at(segment):
        if event.phase != "casting" or event.spoiled or event.actor not in objects:
            continue
        caster = objects[event.actor]
        if not system.can_act(combatant(encounter, caster, system)):
            _spoil(encounter, caster, event)
            announce(encounter, "{caster} is down: " + escape_for_room(f"{event.label} is lost."),
                     mapping={"caster": caster})
            continue
        action = _holding(encounter, caster)
        effect = action.effect if action is not None else None
        when = f": it takes effect at {_where(r, effect)}" if effect is not None else ""
        add_log(encounter, caster.key, "begins casting", [f"{event.label}{when}."])
        announce(encounter, "{caster} begins casting " + escape_for_room(f"{event.label}{when}."),
                 mapping={"caster": caster})
    done = None
    while True:
        steps = [step for step in timeline(encounter).steps()
                 if step[0].segment == segment and (done is None or step[0].position > done)]
        if not steps:
            break
        done = steps[0][0].position
        _play_step(encounter, system, steps[0])
        _announce_fallen(encounter, _cancel_fallen(encounter, system, done))


def _cancel_fallen(encounter, system, position: tuple[int, int]) -> list[str]:
    """Cancel what those who have fallen (down or dead) would still do after ``position``
    (``(tick, phase index)``): later attacks, a spell not yet cast, anything carried into
    later rounds. Returns one line per fighter whose action was cut short (each is said once:
    a cancelled action is ended)."""
    objects = by_name(encounter)
    actions = stored_actions(encounter)
    changed, lines = False, []
    for index, action in enumerate(actions):
        obj = objects.get(action.actor)
        if obj is None or action.ended:
            continue
        fighter = combatant(encounter, obj, system)
        if system.can_act(fighter):
            continue
        cut, dropped = cancel(action, position)
        if cut == action:
            continue
        actions[index], changed = cut, True
        if dropped:
            state = "dead" if system.health(fighter.health, fighter).dead else "down"
            when = f"{'from' if len(dropped) > 1 else 'at'} {_where(_round(encounter), dropped[0])}"
            lines.append(f"{obj.key} is {state}: {_short(replace(action, events=dropped))} {when} "
                         "is cancelled.")
    if changed:
        _store_actions(encounter, actions)
    return lines


def _announce_fallen(encounter, lines: list[str]) -> None:
    for line in lines:
        add_log(encounter, line.split(" is ", 1)[0], "falls", [line])
        announce(encounter, escape_for_room(line))


def _play_step(encounter, system, step) -> None:
    """One step: simultaneous events (same segment and phase). Who may act is settled before
    any of them resolves, so those who fall in the step still strike in it."""
    objects = by_name(encounter)
    before = {name: combatant(encounter, obj, system) for name, obj in objects.items()}
    for event in step:
        actor = objects.get(event.actor)
        if actor is None:
            continue
        if not system.can_act(before[event.actor]):
            what = f"{event.label} ({event.number}/{event.count})" if event.count > 1 else event.label
            state = "dead" if system.health(before[event.actor].health, before[event.actor]).dead else "down"
            announce(encounter, "{actor} is " + escape_for_room(f"{state}: {what} is lost."), mapping={"actor": actor})
            continue
        if event.phase in ("discharge", "instant"):
            _discharge(encounter, system, event, actor, objects, before)
        else:
            _strike(encounter, system, event, actor, objects, before)


def _target(encounter, system, event: Event, actor, objects, before, label: str):
    """The event's target object, or None (announced) when it is gone or was already dead as
    the step began (the step is simultaneous: one falling in it is still struck in it)."""
    target = objects.get(event.target)
    if target is None:
        announce(encounter, "{actor}'s " + escape_for_room(f"{label}: {event.target} is no longer in the fight."),
                 mapping={"actor": actor})
        return None
    fighter = before[target.key]
    if system.health(fighter.health, fighter).dead:
        announce(encounter, "{actor}'s " + escape_for_room(label) + ": {target} is already dead.",
                 mapping={"actor": actor, "target": target})
        return None
    return target


def _spoil(encounter, victim, event: Event) -> Event | None:
    """Spoil ``victim``'s spell if they are casting at ``event``'s moment (seed 3c)."""
    actions, spoiled = spoil(stored_actions(encounter), victim.key, event.round, event.segment, event.phase)
    if spoiled is not None:
        _store_actions(encounter, actions)
    return spoiled


def _strike(encounter, system, event: Event, actor, objects, before) -> None:
    """A melee or missile attack at its segment: d20 against THAC0 - Armor Class, damage."""
    attacker = before[actor.key]
    label = event.label + event.notes     # "dagger (2/2, off-hand)"
    target = _target(encounter, system, event, actor, objects, before, label)
    if target is None:
        return
    mods = modifiers_for(encounter, actor)
    with dice.roller(encounter) as roller:
        victim = combatant(encounter, target, system)
        rolled = system.attack(attacker, victim, event.weapon, roller, modifier=mods.difficulty,
                               dice_modifier=mods.dice, hand=event.hand)
        resolution = system.resolve(rolled, None, attacker, victim, roller)
    use_modifiers(encounter, actor)
    apply_resolution(encounter, system, resolution)
    lines = [*resolution.lines, *mods.notes]
    if resolution.hit:
        spoiled = _spoil(encounter, target, event)
        if spoiled is not None:
            lines.append(f"{target.key} is hit while casting: {spoiled.label} is spoiled.")
    add_log(encounter, actor.key, f"{label} at {target.key}", lines)
    announce(encounter, "{attacker}'s " + escape_for_room(label) + " at {target}:",
             mapping={"attacker": actor, "target": target}, lines=lines)


def _discharge(encounter, system, event: Event, caster, objects, before) -> None:
    """A spell taking effect (seed 3c), or a magical item discharging its spell (3b, a charge
    spent as it goes off): its damage or healing; a damaged caster's own casting is spoiled."""
    snapshot = before[caster.key]
    target = None
    if event.target:
        target = _target(encounter, system, event, caster, objects, before, event.label)
        if target is None:
            return
    spent = _spend_charge(encounter, caster, event) if event.item else []
    if spent is None:
        return
    with dice.roller(encounter) as roller:
        resolution = system.spell_effect(event.spell, snapshot, combatant(encounter, target, system)
                                         if target is not None else None, roller)
    apply_resolution(encounter, system, resolution)
    lines = [*resolution.lines[1:], *spent]
    if resolution.hit and target is not None:
        spoiled = _spoil(encounter, target, event)
        if spoiled is not None:
            lines.append(f"{target.key} is hit while casting: {spoiled.label} is spoiled.")
    add_log(encounter, caster.key, f"{event.label} takes effect", [resolution.lines[0], *lines])
    aim = " on {target}" if target is not None else ""
    announce(encounter, "{caster}'s " + escape_for_room(event.label) + " takes effect" + aim + ":",
             mapping={"caster": caster, "target": target} if target is not None else {"caster": caster},
             lines=lines)


def end_round(encounter) -> None:
    """The round is over: the next one's declaring begins (carried actions stay)."""
    system = system_of(encounter)
    r = _round(encounter) + 1
    fallen = _cancel_fallen(encounter, system, (tick_of(r, 0), len(PHASES)))
    encounter.round = r
    encounter.segment = 0
    encounter.declarations = {}
    encounter.segment_initiative = {}
    kept = [action for action in stored_actions(encounter) if action.busy_in(r)]
    _store_actions(encounter, kept)
    names = {obj.key for obj in fighters(encounter)}
    lines = []
    for action in kept:
        if action.actor not in names:
            continue
        coming = [e for e in action.events if e.round >= r and e.phase != "casting"]
        if coming:
            lines.append(f"{action.actor} is still acting: {_short(action)} at {_where(r, coming[0])}.")
        else:
            lines.append(f"{action.actor} is reloading until round {action.next_initiative_round}.")
    announce(encounter, f"Round {r - 1} is over. Round {r}: declare your actions.", lines=fallen + lines)
    waiting = to_declare(encounter, system)
    npcs = [obj.key for obj in waiting if is_npc(obj)]
    for obj in waiting:
        if not is_npc(obj):
            fights.emit(encounter, "notice", text=f"Declare your action for round {r}: {HOW_TO_DECLARE}.", to=obj)
    if npcs and encounter.storyteller is not None:
        fights.emit(encounter, "notice", to=encounter.storyteller,
                    text=f"Declare for {escape(', '.join(npcs))}: attack <npc>=<target>, "
                         "cast <npc>=<spell>=<target>, use <npc>=<item>=<target>.")
    roll_when_ready(encounter)


def delay_action(caller, actor_name: str | None, segment_text: str) -> None:
    """``+combat/delay <segment>``: hold the actor's action to a later segment of this round
    (seed 1c); later attacks keep their spacing."""
    encounter, _ = _fight(caller, "Delaying to a segment")
    actor = actor_for(caller, encounter, actor_name)
    text = segment_text.strip()
    if not text.isascii() or not text.isdigit() or not 1 <= int(text[:3]) <= SEGMENTS_PER_ROUND:
        raise CombatError(delay_range_error(quote(text[:20])))
    r, now = _round(encounter), _now(encounter)
    if not now:
        raise CombatError(f"Round {r}'s initiative is not rolled yet: delay once the segments are known.")
    action = _holding(encounter, actor)
    if action is None:
        raise CombatError(f"{actor.key} has no action this round.")
    held = delay(action, r, int(text), now)
    _store_actions(encounter, [held if stored == action else stored for stored in stored_actions(encounter)])
    moved = [e for e in held.events if e.tick >= tick_of(r, now) and e.phase != "casting"]
    lines = [f"{actor.key}: {_short(held)} at {_where(r, moved[0])}."] if moved else []
    add_log(encounter, actor.key, f"delays to segment {int(text)}", lines)
    announce(encounter, "{actor} holds the action to segment " + f"{int(text)}.", mapping={"actor": actor},
             lines=lines)


# ------------------------------------------------------------------------- magical items
MAX_ITEM_NUMBER_DIGITS = 6
ITEM_USAGE = "Usage: +item <name>=<type>/<spell>[=<charges>] (e.g. wand/fireball=5)"


def items_of(obj) -> list[dict]:
    """``obj``'s magical items as staff set them (``+item``), in the order given."""
    return [dict(item) for item in deserialize(getattr(obj, "magic_items", None) or [])]


def _item_words(item: dict, system) -> str:
    """``"wand of Fireball"`` (the stored keys when the data no longer has them)."""
    kind = system.items.get(item.get("type"), (item.get("type") or "?",))[0]
    spell = system.spells.get(item.get("spell"))
    return f"{kind} of {spell.name if spell else item.get('spell') or '?'}"


def _normal(text: str) -> str:
    """Typed words as a data key: ``"Magic Missile"`` → ``"magic-missile"``."""
    return "-".join(text.casefold().replace("'", "").replace(",", " ").split())


def give_item(target, spec: str, charges_text: str | None) -> dict:
    """Staff ``+item <name>=<type>/<spell>[=<charges>]``: a magical item on ``target``'s sheet
    (charges 0 to the type's ``max_charges``; 1 when not given). Returns the item. Raises
    CombatError."""
    system = get_system(KEY)
    kind_text, slash, spell_text = spec.partition("/")
    if not slash or not kind_text.strip() or not spell_text.strip():
        raise CombatError(ITEM_USAGE)
    kind, spell = system.item_type(kind_text), system.spell(spell_text)
    most = system.item_charges[kind]
    charges = 1
    if charges_text is not None:
        raw = charges_text.strip()
        if not raw.isascii() or not raw.isdigit() or len(raw.lstrip("0")) > 3 or int(raw) > most:
            raise CombatError(f"A {system.items[kind][0]} holds 0 to {most} charges, not '{quote(raw)}'.")
        charges = int(raw)
    items = items_of(target)
    number = max([int(target.magic_item_serial or 0), *(int(i["id"]) for i in items)]) + 1
    item = {"id": number, "type": kind, "spell": spell.key, "charges": charges}
    target.magic_items = [*items, item]
    target.magic_item_serial = number   # a removed item's number is never given again
    return item


def remove_item(target, number: int) -> dict:
    """Staff ``+item/remove <name>=<#>``: take item ``number`` off ``target``'s sheet.
    Returns it. Raises CombatError."""
    items = items_of(target)
    found = next((item for item in items if item["id"] == number), None)
    if found is None:
        raise CombatError(f"{target.key} has no magical item #{number}.")
    target.magic_items = [item for item in items if item["id"] != number]
    return found


def describe_item(item: dict) -> str:
    """``"#2 wand of Fireball (3 charges)"``."""
    return f"#{item['id']} {_item_words(item, get_system(KEY))} ({plural(int(item['charges']), 'charge')})"


def _pick_item(system, actor, text: str, storyteller: bool) -> tuple[str, Spell, int]:
    """The item ``use`` names: ``(type key, spell, sheet item id)``. One of the actor's own by
    number (``2``, ``#2``), type or spell (a unique start; ``<type>/<spell>`` narrows), with
    a charge left; for the Storyteller declaring for an NPC, ``<type>/<spell>`` is any item
    (id 0: no sheet item, no charges). Raises CombatError."""
    wanted = text.strip()
    kind_text, slash, spell_text = wanted.partition("/")
    if slash and storyteller:
        if not kind_text.strip() or not spell_text.strip():
            raise CombatError("Name the item and its spell: use <npc>=<type>/<spell>=<target>.")
        return system.item_type(kind_text), system.spell(spell_text), 0
    items = items_of(actor)
    if not items:
        how = f" (or name any: use {actor.key}=<type>/<spell>)" if storyteller else ""
        raise CombatError(f"{actor.key} has no magical items: staff give them with +item{how}.")
    number = wanted.removeprefix("#")
    if number.isascii() and number.isdigit():
        found = [i for i in items if len(number) <= MAX_ITEM_NUMBER_DIGITS and i["id"] == int(number)]
    else:
        kind, spell = _normal(kind_text), _normal(spell_text) if slash else ""
        found = [i for i in items if (slash and i["type"].startswith(kind) and i["spell"].startswith(spell))
                 or (not slash and kind and kind in (i["type"], i["spell"]))]
        if not found and not slash and kind:
            found = [i for i in items if i["type"].startswith(kind) or i["spell"].startswith(kind)]
    if not found:
        raise CombatError(f"{actor.key} has no magical item '{quote(wanted)}' (+items lists them).")
    if len(found) > 1:
        choices = ", ".join(describe_item(i) for i in found)
        if len(choices) > 100:   # one short error line: the numbers only
            choices = "#" + ", #".join(str(i["id"]) for i in found) + " (+items lists them)"
        raise CombatError(f"'{quote(wanted)}' could be: {choices}: use the number.")
    item = found[0]
    kind, spell = system.item_type(item["type"]), system.spell(item["spell"])
    if int(item["charges"]) < 1:
        raise CombatError(f"{actor.key}'s {item_label(system.items[kind][0], spell)} (#{item['id']}) "
                          "has no charges left.")
    return kind, spell, int(item["id"])


def _held_item(system, obj, record: dict) -> dict | None:
    """The sheet item a declaration uses, checked again as initiative is rolled (staff may
    have taken it away); None when it uses none. Raises CombatError."""
    number = int(record.get("item_id") or 0)
    if not number:
        return None
    item = next((i for i in items_of(obj) if i["id"] == number), None)
    if item is None or (item["type"], item["spell"]) != (record.get("item"), record.get("spell")):
        raise CombatError(f"{obj.key} no longer holds magical item #{number}.")
    if int(item["charges"]) < 1:
        raise CombatError(f"{obj.key}'s {_item_words(item, system)} (#{number}) has no charges left.")
    return item


def _spend_charge(encounter, caster, event: Event) -> list[str] | None:
    """Spend a charge of the sheet item ``caster`` discharges (``item_in_use``): the line
    saying so; [] for the Storyteller's item for an NPC (no charges); None, announced, when
    the item is gone or empty (nothing happens)."""
    number = conditions_of(encounter, caster).get("item_in_use")
    if not number:
        return []
    items = items_of(caster)
    item = next((i for i in items if i["id"] == number and (i["type"], i["spell"]) == (event.item, event.spell)),
                None)
    if item is None or int(item["charges"]) < 1:
        why = "no longer held" if item is None else "no charges left"
        add_log(encounter, caster.key, f"{event.label} fails", [f"{event.label}: {why}."])
        announce(encounter, "{caster}'s " + escape_for_room(f"{event.label}: {why}; nothing happens."),
                 mapping={"caster": caster})
        return None
    item["charges"] = int(item["charges"]) - 1
    caster.magic_items = items
    return [f"{caster.key}'s {event.label} (#{number}): 1 charge spent, {item['charges']} left."]


def render_items(target, own: bool) -> str:
    """The 78-column list of ``target``'s magical items (``+items``)."""
    items = items_of(target)
    if not items:
        return ("You have no magical items (staff give them with +item)." if own
                else f"{escape(target.key)} has no magical items.")
    system = get_system(KEY)
    rows = []
    for item in items:
        spell = system.spells.get(item["spell"])
        effect = ("?" if spell is None else f"{spell.damage} damage" if spell.damage
                  else f"heals {spell.heal}" if spell.heal else "ST narrates")
        modifier = system.items.get(item["type"], ("", None))[1]
        rows.append((str(item["id"]), _item_words(item, system), str(item["charges"]),
                     "?" if modifier is None else f"{modifier:+d}", effect))
    head = "Your magical items" if own else f"{escape(target.key)}'s magical items"
    shown = table(("#", "Item", "Charges", "Init", "Effect"), (6, 34, 9, 6), rows, width=WIDTH)
    return (f"|w{head}|n\n{shown}\nIn an elethril fight: use <item>[=<target>], a discharge at your "
            "initiative\n+ the item's Init modifier; each use spends a charge.")


# ------------------------------------------------------------------------------------ HUD
def render_hud(encounter, viewer=None) -> str:
    """The 78-column elethril HUD: round and phase, each fighter's side, initiative, action,
    hit points and status, then the round's segment timeline (``>`` marks the next)."""
    system = system_of(encounter)
    r, now = _round(encounter), _now(encounter)
    board = timeline(encounter)
    declared = _declarations(encounter)
    initiative = initiatives(encounter)
    sides = {int(key): value for key, value in fights.copied(encounter.sides or {}).items()}
    ai = ai_ids(encounter)
    waiting = to_declare(encounter, system)
    sees_all = viewer is not None and is_storyteller(viewer, encounter)
    rows, modifiers, off_hands = [], [], []
    for obj in fighters(encounter):
        fighter = combatant(encounter, obj, system)
        health = system.health(fighter.health, fighter)
        action = _holding(encounter, obj)
        status = []
        if obj in waiting:
            status.append("to declare")
        elif action is not None and action.round < r and system.can_act(fighter):
            status.append("busy")
        if is_idle(encounter, obj):
            status.append("idle")
        if action is not None and action.round < r and not any(e.round >= r for e in action.events):
            shown = "reloading"   # a missile rate below one (seed 4d)
        elif action is not None and (now or action.round < r):
            shown = _short(action)
        elif obj.id in declared:
            shown = "declared"
            if sees_all or viewer == obj:
                try:
                    plan = system.plan(_declaration(encounter, system, obj, declared[obj.id]))
                    shown = _plan_short(plan)
                except CombatError:
                    pass
        else:
            shown = "-"
        init = str(initiative[obj.key]) if obj.key in initiative else "-"
        if action is not None and action.delayed_to and tick_of(r, 1) <= action.delayed_to <= tick_of(r, 10):
            init = f"{'' if init == '-' else init}>{action.delayed_to - tick_of(r, 0)}"   # held: 6>8
        name = obj.key + (" (AI)" if obj.id in ai else " (NPC)" if is_npc(obj) else "")
        rows.append((name, sides.get(obj.id, "-"), init, shown, hud_health(health), ", ".join(status)))
        state = conditions_of(encounter, obj)
        keys = state.get("initiative_modifiers") or ()
        if keys:
            modifiers.append(f"{obj.key} {', '.join(keys)}")
        if state.get("off_hand"):
            off_hands.append(f"{obj.key} {system.wielded(state['off_hand']).label}")
    if now:
        upcoming = _pending(encounter, now)
        phase = f"next: segment {upcoming[0].segment} (+combat/next)" if upcoming else "round over (+combat/next)"
    elif waiting:
        phase = "declaring, waiting on " + ", ".join(obj.key for obj in waiting)
    else:
        phase = "declaring (+combat/next rolls initiative)"
    storyteller = encounter.storyteller.key if encounter.storyteller else "nobody"
    lines = [f"|w{COMBAT} {system.title}|n",
             fit(f"Round {r}   Storyteller: {storyteller}   {phase}", WIDTH),
             columns(("Name", "Side", "Init", "Action", "Health", "Status"), (14, 7, 6, 24, 15), rows,
                     width=WIDTH, highlight={"to declare": "|g"})]
    parties = _party_lines(encounter)
    if parties:
        lines.append(escape(parties))
    if modifiers:
        lines.append(escape("Initiative modifiers: " + "; ".join(modifiers)))
    if off_hands:
        lines.append(escape("Off-hand weapons (+combat/offhand): " + "; ".join(off_hands)))
    lines.extend(escape(line) for line in board.describe(width=WIDTH, now=_next_segment(encounter),
                                                         spoken=spoken()).splitlines())
    return "\n".join(lines)


def hud_health(health) -> str:
    """Hit points for the HUD's narrow column: ``"12/20 hp"``, ``"Down -3/20"``, ``"Dead -14/20"``."""
    text = health.describe()
    return text.removesuffix(" hp") if health.incapacitated else text


def _party_lines(encounter) -> str:
    by_id = {obj.id: obj.key for obj in fighters(encounter)}
    parties: dict[str, list[str]] = {}
    for obj_id, (party, slowest) in fights.copied(encounter.parties or {}).items():
        if int(obj_id) in by_id:
            parties.setdefault(party, []).append(by_id[int(obj_id)] + ("*" if slowest else ""))
    if not parties:
        return ""
    return ("Parties (round 2 on, * the slowest's modifiers): "
            + "; ".join(f"{party}: {', '.join(names)}" for party, names in sorted(parties.items())))


def render_spells(system) -> str:
    """``+spells`` under elethril: casting time in segments, instant spells, effect dice."""
    rows = []
    for spell in system.spells.values():
        casting = "instant" if spell.instant else f"{spell.casting_time} segment{'s' if spell.casting_time > 1 else ''}"
        effect = f"{spell.damage} damage" if spell.damage else f"heals {spell.heal}" if spell.heal else "ST narrates"
        rows.append((spell.key, spell.name, str(spell.level), casting, effect))
    shown = table(("Spell", "Name", "Level", "Casting", "Effect"), (20, 20, 7, 13), rows, width=WIDTH)
    return (f"{shown}\nCasting begins at your initiative segment; the spell takes effect at the start\n"
            "of the segment after its casting time (instant: in its own segment, before\n"
            "missiles and melee). A hit while casting spoils it.")
