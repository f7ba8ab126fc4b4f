"""The combat flow: start, join, initiative, turns, attacks, defenses, resolution, the HUD.

Commands call these services; they raise ``CombatError`` (one player-facing line) and change
nothing when they refuse. The fight's state is one ``Fight`` row (``world.fights``), loaded
once and saved once per command; the fighters' sheets and health stay on the characters. The
action schedule is derived from the stored initiative each time, so it is identical on every
listing and after a reload. A system that declares its rounds (``RuleSystem.declared_rounds``,
elethril) is played by ``world.elethril``; the shared pieces are in ``world.fight``. See
``docs/architecture.md``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace

from evennia.utils.create import create_object, create_script

from rules.systems import CombatError, RuleSystem, acting_order, get_system
from rules.systems.base import ActionSchedule, Combatant, InitiativeRoll, plural
from world import dice, elethril, fights, split_actions, verify
from world.access import NARRATOR, STAFF, has_perm, require_perm
from world.fight import (  # noqa: F401 (the services below and other modules use them from here too)
    ENCOUNTER_KEY,
    ID_CONDITIONS,
    ID_LIST_CONDITIONS,
    Modifiers,
    actor_for,
    add_log,
    ai_ids,
    announce,
    apply_resolution,
    by_name,
    combatant,
    conditions_of,
    dropped_weapons,
    encounter_in,
    fighters,
    find_combatant,
    find_named,
    has_initiative,
    is_idle,
    is_storyteller,
    modifiers_for,
    narrate,
    notify_controller,
    rebuild_attack,
    release,
    require_encounter,
    require_storyteller,
    set_conditions,
    shields_in,
    spells_of,
    store_fighter_health,
    store_harm,
    store_shields,
    system_here,
    system_of,
    update_conditions,
    use_modifiers,
)
from world.sheets import WIDTH, default_system, is_npc, update_sheet
from world.text import COMBAT, columns, escape, escape_for_room, fit, quote, spoken, table

ENCOUNTER_TYPECLASS = "typeclasses.encounters.Encounter"
NPC_TYPECLASS = "typeclasses.npcs.NPC"
NPC_NAME_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 '-")
MAX_NPC_NAME = 20
MAX_INIT_TRAIT = 20
MAX_DIFFICULTY_SHIFT = 8
MAX_DICE_SHIFT = 10
LOG_PAGE = 8


# ----------------------------------------------------------------------------- finding


def declared(encounter):
    """``world.elethril``'s declared-round services when the fight's rules play declared
    rounds (``RuleSystem.declared_rounds``), else None."""
    return elethril if encounter is not None and system_of(encounter).declared_rounds else None


# ------------------------------------------------------------------------------- schedule
def initiative_rolls(encounter) -> list[InitiativeRoll]:
    records = encounter.initiative or {}
    present = {obj.id for obj in fighters(encounter)}
    return [InitiativeRoll.from_record(rec) for key, rec in records.items() if int(key) in present]


def initiatives(encounter) -> dict[str, int]:
    """{name: initiative} of the fighters who have one this round (elethril: the segment)."""
    if flow := declared(encounter):
        return flow.initiatives(encounter)
    return {roll.name: roll.total for roll in initiative_rolls(encounter)}


def whose_turn(encounter) -> list:
    """The fighters the fight waits on now: those to act (elethril: those to declare)."""
    if flow := declared(encounter):
        return flow.to_declare(encounter, system_of(encounter))
    return current_slot(encounter)[1]


def schedule(encounter) -> ActionSchedule:
    return ordered(encounter, system_of(encounter).schedule(initiative_rolls(encounter)))


def ordered(encounter, base: ActionSchedule) -> ActionSchedule:
    """The system's schedule ``base`` in the Storyteller's order for this round, if one was
    set (``+combat/order``, ``world.combat_order``); the one place the order is decided."""
    return acting_order.apply(base, encounter.order, encounter.round)


def used_actions(encounter) -> set[tuple[int, int]]:
    """The actions used this round, as (slot ``at``, object id) pairs."""
    return {(int(at), int(obj_id)) for at, obj_id in encounter.acted or []}


def open_actions(encounter, obj) -> list[int]:
    """The ``at`` of each of ``obj``'s slots this round that it has not used, in order."""
    used = used_actions(encounter)
    return [slot.at for slot in schedule(encounter).slots
            if obj.key in slot.names and (slot.at, obj.id) not in used]


def current_slot(encounter) -> tuple[int, list]:
    """(slot ``at``, the objects in it still to act) — the first slot with an unused action of
    someone able to act (the incapacitated and the dead are passed over); (None, []) when every
    such action of the round is used (the round is over)."""
    system = system_of(encounter)
    return _current(schedule(encounter), used_actions(encounter), fighters(encounter),
                    lambda obj: system.can_act(combatant(encounter, obj, system)))


def _current(order: ActionSchedule, used: set, present: list, able) -> tuple[int, list]:
    objects = {obj.key: obj for obj in present if able(obj)}
    for slot in order.slots:
        waiting = [objects[name] for name in slot.names
                   if name in objects and (slot.at, objects[name].id) not in used]
        if waiting:
            return slot.at, waiting
    return None, []


def has_acted(encounter, obj) -> bool:
    """Whether ``obj`` rolled initiative and has no action left this round."""
    return has_initiative(encounter, obj) and not open_actions(encounter, obj)


def use_action(encounter, obj, at: int | None = None, *, counts: bool = True) -> None:
    """Spend ``obj``'s action at slot ``at`` (default: its next unused one); ``counts`` False
    (a pass) leaves ``actions_used`` (what later actions are penalised by) as it was."""
    remaining = open_actions(encounter, obj)
    if at is None:
        at = remaining[0] if remaining else None
    if counts and split_actions.left(encounter, obj) is not None:
        # aeon multiple actions: each one counts, and the turn lasts until none is left
        if not split_actions.spend(encounter, obj) and at in remaining:
            split_actions.end_turn(encounter, obj, at)
        return
    if at is not None and at in remaining:
        encounter.acted = list(encounter.acted or []) + [[at, obj.id]]
        system = system_of(encounter)
        effect = system.after_action(combatant(encounter, obj, system), passed=not counts)
        changes = dict(effect.conditions) if effect is not None else {}
        if counts:
            changes["actions_used"] = int(conditions_of(encounter, obj).get("actions_used", 0)) + 1
        if changes:
            update_conditions(encounter, obj, **changes)
        if effect is not None and effect.lines:
            add_log(encounter, obj.key, "after an action", effect.lines)
            announce(encounter, "{target}:", mapping={"target": obj}, lines=effect.lines)


def struck(encounter, obj, system: RuleSystem) -> Combatant:
    """``obj``'s snapshot as an attack on it is resolved: with ``actions_left``, its unused
    action slots this round, once it has rolled initiative (eldritch's Ear Pop stun)."""
    fighter = combatant(encounter, obj, system)
    if not has_initiative(encounter, obj):
        return fighter
    return replace(fighter, conditions={**fighter.conditions, "actions_left": len(open_actions(encounter, obj))})


def health_of(encounter, obj, system: RuleSystem | None = None):
    """``obj``'s health value in this fight (the system's ``Health``)."""
    fighter = combatant(encounter, obj, system)
    return (system or system_of(encounter)).health(fighter.health, fighter)


def parse_shift(text: str, limit: int, example: str) -> int:
    """``"+2"``, ``"-1"``, ``"3"`` → int within ±limit. Raises CombatError."""
    text = text.strip()
    digits = text[1:] if text[:1] in "+-" else text
    if not digits.isascii() or not digits.isdigit() or len(digits) > 2 or int(digits) > limit:
        raise CombatError(f"Give the change as a number from -{limit} to +{limit}, e.g. {example}.")
    return -int(digits) if text.startswith("-") else int(digits)


def adjust_difficulty(caller, name: str, amount_text: str) -> None:
    """ST: ``+combat/diff <name>=<+/-n>`` moves the difficulty of that combatant's next attack
    (distance, cover …; seed: "*Difficulty may be modulated up or down at ST discretion"), or
    next defense where the system stars it (storyteller's dodge, block, parry: "vs 6*");
    0 clears it. Raises CombatError."""
    encounter = require_encounter(caller)
    require_storyteller(caller, encounter, "move difficulties")
    obj = find_combatant(encounter, name)
    amount = parse_shift(amount_text, MAX_DIFFICULTY_SHIFT, "+combat/diff Guard=+1")
    state = conditions_of(encounter, obj)
    state["adjust"] = amount
    set_conditions(encounter, obj, state)
    change = f"{amount:+d}" if amount else "back to normal"
    system = system_of(encounter)
    what = "attack or defense" if any(map(system.defense_adjustable, system.defense_names)) else "attack"
    announce(encounter, "$You() $conj(move) the difficulty of {target}'s next " + what + " " + change + ".",
             actor=caller, mapping={"target": obj})


def require_able(encounter, actor) -> None:
    """Raises CombatError, in the system's words (incapacitated, knocked out, down, out cold),
    when ``actor`` cannot act."""
    system = system_of(encounter)
    fighter = combatant(encounter, actor, system)
    if not system.can_act(fighter):
        system.require_able(fighter)
        if conditions_of(encounter, actor).get("passed_out"):   # eldritch: out cold
            system.require_awake(fighter)


def require_turn(encounter, actor) -> None:
    """Raises CombatError unless it is ``actor``'s turn and they have an action left. One who
    cannot act is told why first, in their system's words (incapacitated, knocked out, down,
    out cold), not that they have acted or that it is not their turn."""
    require_able(encounter, actor)
    if not has_initiative(encounter, actor):
        raise CombatError(f"{actor.key} has no initiative yet (+combat/init, or +npc/init for NPCs).")
    if has_acted(encounter, actor):
        raise CombatError(f"{actor.key} has already acted this round.")
    _, waiting = current_slot(encounter)
    if actor not in waiting:
        names = ", ".join(obj.key for obj in waiting) or "nobody"
        raise CombatError(f"It is not {actor.key}'s turn: waiting on {names}.")
    if any(p["attacker"] == actor for p in pending_attacks(encounter)):
        raise CombatError(f"{actor.key}'s attack is still waiting for a defense.")


# -------------------------------------------------------------------------------- output


# -------------------------------------------------------------------------------- control
def start(caller, system_key: str | None, *, duel: bool = False):
    """Start a fight in ``caller``'s room, run by ``caller``; ``duel``: a formal duel (only
    for a system with ``formal_duels``: storyteller, where brawl attacks are refused).
    Raises CombatError."""
    require_perm(caller, NARRATOR, "start a fight")
    if caller.location is None:
        raise CombatError("You need to be in a room to start a fight.")
    if encounter_in(caller.location):
        raise CombatError("A fight is already running here (+combat to see it).")
    system = get_system(system_key) if system_key else default_system()
    if duel and not getattr(system, "formal_duels", False):
        raise CombatError(f"The {system.key} rules have no formal duels: +combat/start {system.key}")
    encounter = create_script(ENCOUNTER_TYPECLASS, key=ENCOUNTER_KEY, obj=caller.location,
                              persistent=True, autostart=True)
    encounter.system_key = system.key
    encounter.storyteller = caller
    encounter.round = 1
    if duel:
        encounter.scene = {"duel": True}
    kind = "a formal duel" if duel else "a fight"
    announce(encounter, f"$You() $conj(start) {kind} ({system.key}"
             f"{'; brawl attacks are disallowed' if duel else ''}). Join with +combat/join, "
             f"then {getattr(system, 'how_to_act', 'roll +combat/init')}.", actor=caller,
             lines=verify.start_lines(encounter))
    return encounter


def fight_of(obj):
    """The fight ``obj`` is in (anywhere), or None."""
    encounter = getattr(obj, "encounter", None)
    return encounter if encounter is not None and obj in fighters(encounter) else None


def add_combatant(encounter, obj) -> bool:
    """Put ``obj`` in the fight; False when it already was. Raises CombatError when ``obj``
    is fighting elsewhere (one fight at a time), or another fighter has its name (every name
    in a fight is one fighter's: the commands, the HUD and the AI find fighters by name)."""
    if obj in fighters(encounter):
        return False
    elsewhere = fight_of(obj)
    if elsewhere is not None:
        room = elsewhere.obj.key if elsewhere.obj else "another room"
        raise CombatError(f"{obj.key} is already in the fight in {room}: +combat/leave there first.")
    if any(other.key.casefold() == obj.key.casefold() for other in fighters(encounter)):
        raise CombatError(f"A fighter called {obj.key} is in this fight already: one of them needs "
                          "another name first.")
    encounter.combatants = fighters(encounter) + [obj]
    obj.encounter = encounter
    return True


def join(caller) -> None:
    elsewhere = fight_of(caller)
    if elsewhere is not None and elsewhere.obj != caller.location:
        room = elsewhere.obj.key if elsewhere.obj else "another room"
        raise CombatError(f"{caller.key} is already in the fight in {room}: +combat/leave first.")
    encounter = require_encounter(caller)
    system = system_of(encounter)
    if health_of(encounter, caller, system).dead:
        raise CombatError("The dead do not fight.")
    if not add_combatant(encounter, caller):
        raise CombatError("You are already in this fight.")
    hint = getattr(system, "how_to_act", "roll initiative with +combat/init")
    announce(encounter, f"$You() $conj(join) the fight. {hint[:1].upper()}{hint[1:]}.", actor=caller)


def remove_combatant(encounter, obj) -> list[str]:
    """Take ``obj`` out of the fight, cancelling attacks by or on them; returns notices.
    Their initiative and the actions they used are kept, so leaving and rejoining gains nothing."""
    notices = []
    keep = []
    for pending in pending_attacks(encounter):
        if obj in (pending["attacker"], pending["target"]):
            notices.append(f"The attack of {pending['attacker'].key} on {pending['target'].key} is cancelled.")
        else:
            keep.append(pending)
    encounter.pending = keep
    fights.emit(encounter, "roster", data={"left": obj.key})
    if split_actions.declared(encounter, obj) >= 2 and split_actions.used(encounter, obj):
        # aeon: a split already begun ends with leaving; the actions it had left are spent, so
        # rejoining cannot declare them again nor take them without the split's penalty
        encounter.acted = list(encounter.acted or []) + [[at, obj.id] for at in open_actions(encounter, obj)]
    # Initiative and used actions stay stored: rejoining in the same fight resumes them.
    release(encounter, obj)  # a hold or clinch partner is free again
    encounter.combatants = [o for o in fighters(encounter) if o != obj]
    if obj.id in ai_ids(encounter):   # back in the fight, the Storyteller runs it again
        encounter.ai = sorted(ai_ids(encounter) - {obj.id})
    set_conditions(encounter, obj, {})
    shields = shields_in(encounter)
    if obj.key in shields:
        del shields[obj.key]
        store_shields(encounter, shields)
    if obj.encounter == encounter:
        obj.encounter = None
    return notices


def leave(caller) -> None:
    """``+combat/leave``: out of the fight the caller is in, from wherever they are (told in
    the fight's room; a caller elsewhere is told too)."""
    encounter = fight_of(caller) or require_encounter(caller)
    if caller not in fighters(encounter):
        raise CombatError("You are not in this fight.")
    notices = remove_combatant(encounter, caller)
    announce(encounter, "$You() $conj(leave) the fight.", actor=caller, lines=notices)
    if encounter.obj is not None and caller.location != encounter.obj:
        fights.emit(encounter, "notice", text=f"You leave the fight in {escape(encounter.obj.key)}.", to=caller)


def roll_initiative(caller, encounter=None, actor=None, overrides: dict | None = None) -> InitiativeRoll:
    """Roll and store ``actor``'s initiative (default: the caller). Raises CombatError."""
    encounter = encounter or require_encounter(caller)
    if flow := declared(encounter):
        return flow.no_initiative()
    actor = actor or caller
    if actor not in fighters(encounter):
        raise CombatError("You are not in this fight. Join it with +combat/join.")
    if has_initiative(encounter, actor):
        when = "round" if getattr(system_of(encounter), "reroll_each_round", False) else "fight"
        raise CombatError(f"{actor.key} already has initiative this {when}.")
    system = system_of(encounter)
    turn_before = current_slot(encounter)
    with dice.roller(encounter) as roller:
        roll = system.roll_initiative(combatant(encounter, actor, system, overrides), roller)
    initiative = dict(encounter.initiative or {})
    initiative[actor.id] = roll.to_record()
    encounter.initiative = initiative
    add_log(encounter, actor.key, "initiative", [roll.describe()])
    announce(encounter, "{actor} rolls initiative: " + escape_for_room(roll.describe()) + ".",
             mapping={"actor": actor})
    # The first rolls of a round (eldritch rolls anew each round), or a late roll that takes the turn.
    if not encounter.acted or current_slot(encounter) != turn_before:
        announce_turn(encounter)
    return roll


def validate_npc_name(name: str) -> str:
    """An NPC name: 1-30 ASCII letters, digits, spaces, hyphens, apostrophes. Raises CombatError."""
    name = " ".join(name.split())
    if not name:
        raise CombatError("Give the NPC a name.")
    if len(name) > MAX_NPC_NAME or not set(name) <= NPC_NAME_CHARS or not name[0].isalpha():
        raise CombatError(f"NPC names are 1-{MAX_NPC_NAME} letters, digits, spaces, hyphens or "
                          f"apostrophes, starting with a letter: '{quote(name)}' is not.")
    return name


def parse_init_traits(text: str, traits: tuple[str, str]) -> dict[str, int]:
    """``"2+3"`` → {traits[0]: 2, traits[1]: 3}. Raises CombatError."""
    parts = [part.strip() for part in text.split("+")]
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() and len(p) <= 2 for p in parts) \
            or any(int(p) > MAX_INIT_TRAIT for p in parts):
        raise CombatError(f"Give {traits[0]} and {traits[1]} as two numbers 0-{MAX_INIT_TRAIT}: "
                          f"+npc/init <name>={init_numbers(traits)}")
    return {traits[0]: int(parts[0]), traits[1]: int(parts[1])}


def init_numbers(traits: tuple[str, str]) -> str:
    """``("Wits", "Dexterity")`` → ``"<wits>+<dexterity>"`` (for the usage lines)."""
    return "+".join(f"<{trait.casefold()}>" for trait in traits)


def npc_init(caller, name: str, numbers_text: str | None, encounter=None) -> InitiativeRoll:
    """``+npc/init <name>=<a>+<b>`` (the system's ``npc_initiative_traits``, e.g. Wits and
    Dexterity) / ``+npc/init <name>``, in the fight ``encounter`` (default: the caller's room's).
    Raises CombatError."""
    encounter = encounter or require_encounter(caller)
    require_storyteller(caller, encounter, "roll initiative for NPCs")
    if flow := declared(encounter):
        return flow.no_npc_initiative()
    name = validate_npc_name(name)
    traits = system_of(encounter).npc_initiative_traits
    numbers = parse_init_traits(numbers_text, traits) if numbers_text is not None else None
    room = encounter.obj
    existing = [obj for obj in room.contents if is_npc(obj) and obj.key.casefold() == name.casefold()]
    others = [obj for obj in room.contents if not is_npc(obj) and obj.key.casefold() == name.casefold()]
    if others:
        raise CombatError(f"'{quote(name)}' is a player character here, not an NPC.")
    if existing:
        npc = existing[0]
    elif numbers is None:
        raise CombatError(f"No NPC '{quote(name)}' here. Give its numbers: +npc/init {quote(name)}={init_numbers(traits)}")
    else:
        npc = create_object(NPC_TYPECLASS, key=name, location=room)
        update_sheet(npc, system_of(encounter), traits=dict(numbers))
    add_combatant(encounter, npc)
    return roll_initiative(caller, encounter, npc, numbers)


def pending_attacks(encounter) -> list[dict]:
    return [p for p in fights.copied(encounter.pending or []) if p.get("attacker") and p.get("target")]


def next_turn(caller, sent_at: float | None = None, encounter=None) -> None:
    """ST: those still to act in the current slot pass; a new round starts after the last.
    ``sent_at`` (epoch seconds: when the Portal received the command) guards a double
    advance: a ``+combat/next`` sent before the turn last moved on meant to pass a turn that
    is already over, and is refused with whose turn it is now. ``encounter``: the fight
    (default: the caller's room's). Raises CombatError."""
    encounter = encounter or require_encounter(caller)
    require_storyteller(caller, encounter, "advance the fight")
    moved = encounter.turn_moved
    if sent_at is not None and moved and float(moved[1]) > float(sent_at):
        raise CombatError(f"The fight moved on as you sent that; nothing passed. Now: {now_text(encounter)}. "
                          "+combat/next again to pass that.")
    if flow := declared(encounter):
        flow.next_step(caller, encounter)
        return turn_moved(encounter, ("segment", int(encounter.round), int(encounter.segment)))
    if pending_attacks(encounter):
        raise CombatError("Attacks are waiting for defenses: let them answer or +combat/resolve.")
    if not initiative_rolls(encounter):
        raise CombatError("Nobody has rolled initiative yet (+combat/init, +npc/init).")
    at, waiting = current_slot(encounter)
    if waiting:
        for obj in waiting:
            use_action(encounter, obj, at, counts=False)  # a pass is no action taken
        passed = ", ".join(obj.key for obj in waiting)
        announce(encounter, f"{escape_for_room(passed)} {'passes' if len(waiting) == 1 else 'pass'}.")
    if not current_slot(encounter)[1]:
        encounter.round = int(encounter.round) + 1
        encounter.acted = []
        encounter.order = None   # the ST's order was for that round only
        for obj in fighters(encounter):
            update_conditions(encounter, obj, actions_used=None, defenses_used=None,
                              split=None, ridden=None, contested=None)   # aeon: split actions
        if getattr(system_of(encounter), "reroll_each_round", False):
            encounter.initiative = {}
        announce(encounter, f"Round {encounter.round} begins.")
        start_round(encounter)
    announce_turn(encounter)


def start_round(encounter) -> None:
    """What the rules make happen to each fighter as the round begins (aeon: bleeding)."""
    system = system_of(encounter)
    for obj in fighters(encounter):
        effect = system.start_of_round(combatant(encounter, obj, system), int(encounter.round))
        if effect is None:
            continue
        if effect.health is not None:
            store_fighter_health(encounter, obj, system, effect.health)
        update_conditions(encounter, obj, **effect.conditions)
        if effect.lines:
            add_log(encounter, obj.key, "start of round", effect.lines)
            announce(encounter, "{target}:", mapping={"target": obj}, lines=effect.lines)


def awaiting_initiative(encounter, system: RuleSystem | None = None) -> list:
    """The fighters able to act, and not idle, who have not rolled initiative yet."""
    system = system or system_of(encounter)
    return [obj for obj in fighters(encounter) if not has_initiative(encounter, obj) and not is_idle(encounter, obj)
            and system.can_act(combatant(encounter, obj, system))]


def pass_over_unable(encounter) -> None:
    """Spend, as passes, the actions the turn has moved past of those who could not act then
    (down, stunned …), so that healing or waking them later does not take the turn back.
    Nothing goes by while someone able still has to roll initiative (their slot may come
    first)."""
    system = system_of(encounter)
    if awaiting_initiative(encounter, system):
        return
    at, _ = current_slot(encounter)
    objects = by_name(encounter)
    used = used_actions(encounter)
    for slot in schedule(encounter).slots:
        for name in slot.names:
            obj = objects.get(name)
            if obj is not None and (slot.at, obj.id) not in used \
                    and not system.can_act(combatant(encounter, obj, system)):
                use_action(encounter, obj, slot.at, counts=False)
        if slot.at == at:
            return


def turn_moved(encounter, turn) -> None:
    """Note when the fight moves on to ``turn`` (any value naming it), for ``next_turn``."""
    turn = list(turn)
    moved = encounter.turn_moved
    if not moved or list(moved[0]) != turn:
        encounter.turn_moved = [turn, time.time()]


def now_text(encounter) -> str:
    """Whose turn it is, in a few words ("Round 2, Bob's turn")."""
    if declared(encounter):
        return f"Round {encounter.round}, segment {encounter.segment or 'declaring'}"
    waiting = current_slot(encounter)[1]
    if waiting:
        names = ", ".join(obj.key for obj in waiting)
        return f"Round {encounter.round}, {names}'{'' if names.endswith('s') else 's'} turn"
    return f"Round {encounter.round}, {turn_text(encounter, waiting)}"


def announce_turn(encounter) -> None:
    pass_over_unable(encounter)
    at, waiting = current_slot(encounter)
    turn_moved(encounter, ("slot", int(encounter.round), at, [obj.id for obj in waiting]))
    fights.emit(encounter, "turn", data={"round": int(encounter.round), "slot": at,
                                         "waiting": [obj.key for obj in waiting]})
    if waiting:
        names = ", ".join(obj.key for obj in waiting)
        announce(encounter, f"Round {encounter.round}: {escape_for_room(names)} to act.")
        for obj in waiting:
            what = ("clinch <hold, crush, break or decline>" if conditions_of(encounter, obj).get("clinch_with")
                    else "attack <target>[/<maneuver>]")
            notify_controller(encounter, obj, f"It is {escape(obj.key)}'s turn: {what}.")
    elif not initiative_rolls(encounter):
        announce(encounter, f"Round {encounter.round}: roll initiative (+combat/init; NPCs: +npc/init <name>).")
    elif rolling := awaiting_initiative(encounter):
        announce(encounter, f"Round {encounter.round}: waiting for initiative from "
                            f"{escape_for_room(', '.join(obj.key for obj in rolling))} (+combat/init; NPCs: +npc/init <name>).")
    else:
        announce(encounter, f"Round {encounter.round}: everyone has acted; the ST moves on with +combat/next.")


def end(caller, encounter=None) -> str:
    """ST: end the fight (default: the caller's room's); returns the summary shown to the room."""
    encounter = encounter or require_encounter(caller)
    require_storyteller(caller, encounter, "end the fight")
    system = system_of(encounter)
    summary = [f"{obj.key}: {health_of(encounter, obj, system).describe()}" for obj in fighters(encounter)]
    rounds = "1 round" if int(encounter.round) == 1 else f"{encounter.round} rounds"
    announce(encounter, f"$You() $conj(end) the fight after {rounds}.", actor=caller,
             lines=summary)
    for obj in fighters(encounter):
        if obj.encounter == encounter:
            obj.encounter = None
    encounter.delete()
    return "\n".join(summary)


# -------------------------------------------------------------------------------- actions


def attack_lines(attack) -> list[str]:
    """The lines of ``attack``'s own rolls as its resolution opens with them: its preface (an
    aeon mount's control roll), then the to-hit roll."""
    return [*getattr(attack, "preface", ()), f"{attack.attacker} {attack.describe()}"]


def finish_attack(encounter, attacker, target, attack, defense, notes: Sequence[str] = (), *,
                  told: Sequence[str] | None = None) -> None:
    """Resolve ``attack`` on ``target`` (``defense``: the defense rolled, or None) and store it.
    ``notes``: new lines to log and tell before the resolution (the defender's modifiers, why
    there was no defense). The attack's own roll is in the roll log from when it was rolled
    (``strike``, ``+cast``), so it is not logged again. ``told``: None when the room was told of
    the attack and its roll as its defense window opened (they are not told again); else it
    is resolved at once, and the room hears ``told`` (what came with the attack, e.g. the
    surprise contest, logged by whoever rolled it), then the notes, the roll and the rest."""
    system = system_of(encounter)
    with dice.roller(encounter) as roller:
        if getattr(attack, "cast", None) is not None:
            present = [combatant(encounter, obj, system) for obj in fighters(encounter)]
            resolution, shields = spells_of(system).resolve(
                attack, defense, combatant(encounter, attacker, system), combatant(encounter, target, system), present, roller,
                shields_in(encounter))
            store_shields(encounter, shields)
        else:
            resolution = system.resolve(attack, defense, combatant(encounter, attacker, system),
                                        struck(encounter, target, system), roller)
    apply_resolution(encounter, system, resolution)
    rolled, rest = attack_lines(attack), list(resolution.lines)
    if rest[:len(rolled)] == rolled:
        rest = rest[len(rolled):]
    else:
        rolled = []
    add_log(encounter, attacker.key, f"attack on {target.key}", [*notes, *rest])
    lines = [*notes, *rest] if told is None else [*told, *notes, *rolled, *rest]
    announce(encounter, "{attacker}'s " + escape_for_room(attack.label) + " at {target}:",
             mapping={"attacker": attacker, "target": target}, lines=lines)
    if not pending_attacks(encounter):
        announce_turn(encounter)


def deliver(encounter, actor, target, rolled, *, defendable: bool = True, notes: Sequence[str] = ()) -> None:
    """A rolled attack reaches its target: a hit the target can still answer opens a defense
    window (the pending attack); anything else is resolved at once. ``defendable`` False: the
    target may not defend (a surprise attack that won, the aeon seed Surprise Attacks)."""
    system = system_of(encounter)
    if rolled.needs_defense and defendable and can_defend(encounter, target):
        attack_id = int(encounter.next_attack_id)
        encounter.next_attack_id = attack_id + 1
        encounter.pending = pending_attacks(encounter) + [
            {"id": attack_id, "attacker": actor, "target": target, "attack": rolled.to_record(),
             "round": encounter.round}]
        announce(encounter, "{attacker} attacks {target} with " + escape_for_room(rolled.label) + ".",
                 mapping={"attacker": actor, "target": target},
                 lines=[*notes, *getattr(rolled, "preface", ()), f"{actor.key} {rolled.describe()}",
                        f"{target.key} may defend."])
        prefix = f"defend {target.key}=" if is_npc(target) else "defend "
        answers = ", ".join(escape(prefix + choice)
                            for choice in system.defense_choices(rolled, combatant(encounter, target, system)))
        notify_controller(encounter, target,
                          f"{escape(actor.key)}'s {escape(rolled.label)} is coming at {escape(target.key)} "
                          f"with {plural(rolled.successes, system.successes_name)}. Answer: {answers + ' or ' if answers else ''}"
                          f"{escape(prefix)}none" + ("." if not system.defense_uses_action
                                                    else "; a defense uses one of your actions left."
                                                    if split_actions.left(encounter, target) is not None
                                                    else "; a defense uses up this round's action."))
        return
    why = []
    if rolled.needs_defense and not defendable:
        why.append(f"{target.key} is caught by surprise and cannot defend.")
    elif rolled.needs_defense and health_of(encounter, target, system).incapacitated:
        why.append(f"{target.key} is down and cannot defend.")
    elif rolled.needs_defense:
        why.append(f"{target.key} has already acted this round and cannot defend.")
    finish_attack(encounter, actor, target, rolled, None, why, told=notes)


def can_defend(encounter, target) -> bool:
    system = system_of(encounter)
    able = not health_of(encounter, target, system).incapacitated
    return able and (system.defend_after_acting or not out_of_actions(encounter, target))


def out_of_actions(encounter, obj) -> bool:
    """No action left this round to defend with: the slot used (one action a round), or,
    with aeon multiple actions declared, every declared action used."""
    left = split_actions.left(encounter, obj)
    return has_acted(encounter, obj) if left is None else left == 0


def attack(caller, actor_name: str | None, target_name: str, option: str) -> None:
    """``attack <target>[/<option>]`` (or ``<npc>=<target>[/<option>]``). Raises CombatError."""
    encounter = require_encounter(caller)
    flow = declared(encounter)
    if "*" in target_name:   # ``attack Zed*1``: the number of attacks with no weapon named
        target_name, _, count = target_name.rpartition("*")
        if not target_name.strip() or "*" in target_name:
            raise CombatError("Name the target, then the number of attacks once: attack Orc*2.")
        if flow is None:
            raise CombatError(f"A number of attacks ('*{quote(count.strip())}') is only declared in "
                              f"elethril fights: attack {quote(target_name.strip())}.")
        if "*" in option:
            raise CombatError("Give the number of attacks once, at the end: attack Orc/long sword*2.")
        option = f"{option}*{count}"
    if flow is not None:
        return flow.declare_attack(caller, actor_name, target_name, option)
    actor = actor_for(caller, encounter, actor_name)
    attack_in_turn(encounter, actor, find_combatant(encounter, target_name), option)


def attack_in_turn(encounter, actor, target, option: str) -> None:
    """``actor``'s attack on ``target`` (objects) on its turn: the turn and that nothing holds
    ``actor`` checked, then :func:`strike`. Raises CombatError."""
    require_turn(encounter, actor)
    require_free(encounter, actor)
    strike(encounter, actor, target, option)


def require_free(encounter, actor) -> None:
    """Raises CombatError when a clinch or a hold leaves ``actor`` only its way out."""
    state = conditions_of(encounter, actor)
    if state.get("clinch_with") and not (state.get("contested") and split_actions.left(encounter, actor)):
        # aeon: having contested control this round, split actions left may do other things
        raise CombatError(f"{actor.key} is in a clinch: contest control with "
                          "clinch <hold|crush|break|decline>.")
    if state.get("held_by"):
        raise CombatError(f"{actor.key} is held and can only try to escape (escape).")


def strike(encounter, actor, target, option: str, *, use_turn: bool = True, defendable: bool = True,
           notes: Sequence[str] = ()) -> None:
    """Roll ``actor``'s attack on ``target`` and deliver it (``use_turn``: spend the current
    action). Validates everything before the dice. Raises CombatError."""
    if target == actor:
        raise CombatError("You cannot attack yourself.")
    if actor.id in (conditions_of(encounter, target).get("hidden_from") or []):
        raise CombatError(f"{actor.key} has lost track of {target.key}, who is hiding.")
    system = system_of(encounter)
    target_snapshot = combatant(encounter, target, system)
    if system.health(target_snapshot.health, target_snapshot).dead:
        raise CombatError(f"{target.key} is already dead.")
    adjustable = system.difficulty_adjustable(option, combatant(encounter, actor, system))  # raises before any roll
    if use_turn:   # aeon: a mount's Ride roll is the turn's first action (the attack checked first)
        if hasattr(system, "check_attack"):
            system.check_attack(combatant(encounter, actor, system), target_snapshot, option,
                                modifier=modifiers_for(encounter, actor, adjustable).difficulty)
        going, ride = split_actions.ride(encounter, actor, "attack", current_slot(encounter)[0])
        if not going:
            split_actions.lost_turn(encounter, actor, "attack", ride)
            return announce_turn(encounter)
        notes = [*ride, *notes]
    mods = modifiers_for(encounter, actor, adjustable)
    with dice.roller(encounter) as roller:
        rolled = system.attack(split_actions.acting(encounter, actor, system) if use_turn
                               else combatant(encounter, actor, system), target_snapshot, option, roller,
                               modifier=mods.difficulty, dice_modifier=mods.dice)
    use_modifiers(encounter, actor, adjustable)
    if use_turn:
        use_action(encounter, actor, current_slot(encounter)[0])
    update_conditions(encounter, actor, hidden_from=None)  # attacking shows where you are
    # The roll, once (``notes``, e.g. a surprise contest, are logged by whoever rolled them).
    add_log(encounter, actor.key, f"{rolled.label} at {target.key}",
            [*(notes if use_turn else ()), *getattr(rolled, "preface", ()), rolled.describe(), *mods.notes])
    shield_zaps(encounter, actor, target)
    # eldritch Whirling Sword: "Anybody who steps into range of the whirling sword is attacked"
    step_in = getattr(system, "step_in", None)
    whirl = step_in(combatant(encounter, target, system), combatant(encounter, actor, system), rolled) \
        if step_in is not None else None
    if whirl is not None:
        add_log(encounter, target.key, f"{whirl.label} at {actor.key}", [*whirl.notes, whirl.describe()])
        deliver(encounter, target, actor, whirl, notes=whirl.notes)
    deliver(encounter, actor, target, rolled, defendable=defendable, notes=notes)


def shield_zaps(encounter, actor, other) -> None:
    """``actor`` in hand-to-hand contact with ``other`` (an attack, an escape) touches every
    overshot shield on either of them, its own included, and is zapped by each (storyteller)."""
    system = system_of(encounter)
    if system.magic is None:
        return
    for shield in system.magic.shields_touched(actor.key, other.key, shields_in(encounter)):
        with dice.roller(encounter) as roller:
            harm, lines = system.magic.shield_zap(combatant(encounter, actor, system), shield, roller)
        store_harm(encounter, system, [harm])
        add_log(encounter, actor.key, "shield zap", lines)
        announce(encounter, "{actor} touches " + escape_for_room(f"{shield.caster}'s shield") + ".",
                 mapping={"actor": actor}, lines=lines)


def pending_for(encounter, target) -> dict:
    for pending in pending_attacks(encounter):
        if pending["target"] == target:
            return pending
    raise CombatError(f"No attack is waiting for {target.key}'s defense.")


def close_pending(encounter, pending: dict) -> None:
    encounter.pending = [p for p in pending_attacks(encounter) if p["id"] != pending["id"]]


def defend(caller, actor_name: str | None, kind: str) -> None:
    """``defend <dodge|block|parry|none>`` against the oldest attack waiting on the actor."""
    encounter = require_encounter(caller)
    actor = actor_for(caller, encounter, actor_name)
    system = system_of(encounter)
    wanted = "-".join(kind.casefold().split())  # "wall flip" -> "wall-flip"
    choices = system.defense_names + ("none",)
    found = [choice for choice in choices if wanted and choice.startswith(wanted)]
    if len(found) != 1:  # a bad name is named before whether an attack waits
        raise CombatError(f"Defend with one of: {', '.join(choices)}.")
    choice = found[0]
    pending = pending_for(encounter, actor)
    attacker = pending["attacker"]
    rolled = rebuild_attack(system, pending["attack"])
    defense = None
    notes: list[str] = []
    if choice != "none":
        if not system.defend_after_acting and out_of_actions(encounter, actor):
            raise CombatError(f"{actor.key} has already acted this round: only 'defend none' is left.")
        adjustable = system.defense_adjustable(choice)   # storyteller: "vs 6*"
        mods = modifiers_for(encounter, actor, adjustable=adjustable)
        with dice.roller(encounter) as roller:
            defense = system.defend(rolled, split_actions.acting(encounter, actor, system), choice, roller,
                                    modifier=mods.difficulty, dice_modifier=mods.dice)
        use_modifiers(encounter, actor, adjustable=adjustable)
        update_conditions(encounter, actor, defenses_used=int(conditions_of(encounter, actor).get("defenses_used", 0)) + 1)
        notes = list(mods.notes)
        if system.defense_uses_action:
            use_action(encounter, actor)
    close_pending(encounter, pending)
    finish_attack(encounter, attacker, actor, rolled, defense, notes)


def resolve_all(caller, encounter=None) -> int:
    """ST: resolve every waiting attack of the fight (default: the caller's room's) with no
    defense; returns how many."""
    encounter = encounter or require_encounter(caller)
    require_storyteller(caller, encounter, "resolve attacks")
    waiting = pending_attacks(encounter)
    if not waiting:
        raise CombatError("No attacks are waiting for a defense.")
    system = system_of(encounter)
    for pending in waiting:
        close_pending(encounter, pending)
        finish_attack(encounter, pending["attacker"], pending["target"], rebuild_attack(system, pending["attack"]), None)
    return len(waiting)


def escape_hold(caller, actor_name: str | None) -> None:
    """``escape``: a held combatant spends its action on contested Strength + Brawl."""
    encounter = require_encounter(caller)
    actor = actor_for(caller, encounter, actor_name)
    state = conditions_of(encounter, actor)
    holder = next((obj for obj in fighters(encounter) if obj.id == state.get("held_by")), None)
    system = system_of(encounter)
    if not hasattr(system, "escape_hold"):
        raise CombatError(f"The {system.key} rules have no escape: in a clinch, contest control with 'clinch'.")
    if holder is None:
        raise CombatError(f"{actor.key} is not held.")
    require_turn(encounter, actor)
    with dice.roller(encounter) as roller:
        escaped, lines = system.escape_hold(combatant(encounter, actor, system), combatant(encounter, holder, system), roller)
    shield_zaps(encounter, actor, holder)   # struggling is contact
    use_action(encounter, actor, current_slot(encounter)[0])
    if escaped:
        state.pop("held_by", None)
        set_conditions(encounter, actor, state)
    add_log(encounter, actor.key, "escape", lines)
    announce(encounter, "{actor} struggles against {holder}'s hold.", mapping={"actor": actor, "holder": holder},
             lines=lines)
    announce_turn(encounter)


# ------------------------------------------------------------------------------------ HUD
def render_hud(encounter, viewer=None) -> str:
    """The 78-column combat HUD: system, round, acting order, turn, health, pending attacks.
    Typed every few seconds by everyone in a fight, so each fighter is read once."""
    if flow := declared(encounter):
        return flow.render_hud(encounter, viewer)
    system = system_of(encounter)
    present = fighters(encounter)
    snapshots = {obj.id: combatant(encounter, obj, system) for obj in present}
    rolls = {roll.name: roll for roll in initiative_rolls(encounter)}
    order = ordered(encounter, system.schedule(list(rolls.values())))
    used = used_actions(encounter)
    at_now, waiting = _current(order, used, present, lambda obj: system.can_act(snapshots[obj.id]))
    objects = {obj.key: obj for obj in present}
    conditions = encounter.conditions or {}
    idle = {int(i) for i in encounter.idle or []}
    names = {obj.id: obj.key for obj in present}
    ai = ai_ids(encounter)
    with_actions = {objects[name].id for slot in order.slots for name in slot.names
                    if name in objects and (slot.at, objects[name].id) not in used}
    listed = [(str(position), objects[name], slot.at) for position, slot in enumerate(order.slots, start=1)
              for name in slot.names if name in objects]  # a name in each of its slots
    listed += [("-", obj, None) for obj in present if obj.key not in rolls]
    rows = []
    for position, obj, at in listed:
        fighter = snapshots[obj.id]
        health = system.health(fighter.health, fighter)
        state = conditions.get(obj.id, {})
        status = []
        if health.incapacitated:
            status.append("down")
        elif obj in waiting and at == at_now:
            status.append("TO ACT")
        elif (at, obj.id) in used or (obj.key in rolls and obj.id not in with_actions):
            status.append("acted")
        elif obj.key not in rolls:
            status.append("no init")
        if obj.id in idle:
            status.append("idle")
        status.extend(condition_marks(state, names))
        status.extend(system.condition_marks(state))
        if state.get("difficulty"):
            status.append(f"diff+{state['difficulty']}")
        if state.get("adjust"):
            status.append(f"ST{state['adjust']:+d}")
        if state.get("mod"):
            status.append(f"{state['mod']:+d}d")
        rows.append((position, obj.key + (" (AI)" if obj.id in ai else " (NPC)" if is_npc(obj) else ""), str(at) if at is not None else "-",
                     health.describe(), ", ".join(status)))
    storyteller = encounter.storyteller.key if encounter.storyteller else "nobody"
    lines = [f"|w{COMBAT} {system.title}|n",
             fit(f"Round {encounter.round}   Storyteller: {storyteller}   Turn: {turn_text(encounter, waiting)}",
                 WIDTH),
             columns(("#", "Name", "Init", "Health", "Status"), (4, 20, 6, 25), rows, width=WIDTH,
                     highlight={"TO ACT": "|g"})]
    if (encounter.order or {}).get("round") == encounter.round:
        lines.append("Order: the Storyteller's, this round only (+combat/order).")
    if order.declare:
        lines.append("Declare (low to high): " + escape(", ".join(order.declare)))
    lines.extend(escape(line) for line in split_actions.hud_lines(encounter))
    if (encounter.scene or {}).get("duel"):
        lines.append("Formal duel: brawl attacks are disallowed.")
    scene = system.scene_text(encounter.scene or {})
    if scene:
        lines.append("Space: " + escape(scene))
    for name, shield in sorted(shields_in(encounter).items()):
        lines.append(f"Shield on {escape(name)}: {escape(shield.describe())}")
    lying = dropped_weapons(encounter)
    if lying:
        lines.append("On the ground: " + escape(", ".join(f"{item['owner']}'s {item['weapon']} ({item['feet']} ft)"
                                                          for item in lying)))
    for pending in pending_attacks(encounter):
        lines.append(f"Waiting for defense: {escape(pending['attacker'].key)} -> {escape(pending['target'].key)} "
                     f"(#{pending['id']})")
    return "\n".join(lines)


def condition_marks(state: dict, names: dict) -> list[str]:
    """Short HUD marks for a fighter's lasting conditions kept by the game's own effects and
    aeon's (``names``: id -> name); each system adds its own (``RuleSystem.condition_marks``)."""
    marks = []
    if state.get("clinch_with"):
        marks.append(f"clinch:{names.get(state['clinch_with'], '?')}")
    if state.get("held_by"):
        marks.append("held")
    if state.get("prone"):
        marks.append("prone")
    if state.get("mount"):
        marks.append(f"on {state['mount'].get('key', 'mount')}")
    if state.get("hidden_from"):
        marks.append("hidden")
    if state.get("bleeding_since") and not state.get("treated"):
        marks.append("bleeding")
    if state.get("treated"):
        marks.append("treated")
    return marks


def turn_text(encounter, waiting: list) -> str:
    if waiting:
        return ", ".join(obj.key for obj in waiting)
    if not initiative_rolls(encounter) or awaiting_initiative(encounter):
        return "waiting for initiative (+combat/init, +npc/init)"
    return "round over (+combat/next)"


def reconnect_notice(character) -> str:
    """The HUD of the fight ``character`` is in, for when they log back in ("" if none)."""
    encounter = getattr(character, "encounter", None)
    if encounter is None or character not in fighters(encounter):
        return ""
    if set_idle(encounter, character, False):
        announce(encounter, "{target} is back.", mapping={"target": character})
    return render_hud(encounter, character)


# --------------------------------------------------------------------- Storyteller control
def add_named(caller, names_text: str, encounter=None) -> list[str]:
    """ST: ``+combat/add <name>[,<name>...]`` — characters or NPCs in the fight's room join the
    fight (default: the caller's room's)."""
    encounter = encounter or require_encounter(caller)
    require_storyteller(caller, encounter, "add combatants")
    names = [name.strip() for name in names_text.split(",")]
    if not all(names):
        raise CombatError("Usage: +combat/add <name>[,<name>...]")
    here = [obj for obj in encounter.obj.contents if hasattr(obj, "sheets")]
    found = []
    for name in names:
        wanted = name.casefold()
        matches = [obj for obj in here if obj.key.casefold() == wanted] or \
            [obj for obj in here if obj.key.casefold().startswith(wanted)]
        if len(matches) != 1:
            raise CombatError(f"No single character '{quote(name)}' here." if not matches else
                              f"'{quote(name)}' could be: {', '.join(o.key for o in matches)}.")
        found.append(matches[0])
    already = [obj.key for obj in found if obj in fighters(encounter)]
    if already and len(already) == len(found):
        raise CombatError(f"{', '.join(already)} {'is' if len(already) == 1 else 'are'} already in this fight.")
    for obj in found:
        if fight_of(obj) not in (None, encounter):
            add_combatant(encounter, obj)  # raises: fighting elsewhere
    added = [obj.key for obj in found if add_combatant(encounter, obj)]
    note = f" ({', '.join(already)} already {'was' if len(already) == 1 else 'were'})" if already else ""
    announce(encounter, escape_for_room(f"{', '.join(added)} {'is' if len(added) == 1 else 'are'} "
                                        f"brought into the fight{note}."))
    return added


def remove_named(caller, name: str) -> None:
    """ST: ``+combat/remove <name>`` — out of the fight, attacks by or on them cancelled."""
    encounter = require_encounter(caller)
    require_storyteller(caller, encounter, "remove combatants")
    obj = find_combatant(encounter, name)
    notices = remove_combatant(encounter, obj)
    announce(encounter, "$You() $conj(remove) {target} from the fight.", actor=caller,
             mapping={"target": obj}, lines=notices)


def set_dice_mod(caller, name: str, text: str) -> None:
    """ST: ``+combat/mod <name>=<+/-n>[ keep]`` — dice added to that combatant's next roll (attack,
    defense or +roll), or to every roll until cleared with ``keep``; ``0`` clears it."""
    encounter = require_encounter(caller)
    require_storyteller(caller, encounter, "set modifiers")
    obj = find_combatant(encounter, name)
    words = text.split()
    keep = len(words) == 2 and words[1].casefold() == "keep"
    if not words or len(words) > 2 or (len(words) == 2 and not keep):
        raise CombatError("Usage: +combat/mod <name>=<+/-n>[ keep]")
    amount = parse_shift(words[0], MAX_DICE_SHIFT, "+combat/mod Guard=-2")
    state = conditions_of(encounter, obj)
    state["mod"], state["mod_keep"] = amount, keep and bool(amount)
    set_conditions(encounter, obj, state)
    how = "until cleared" if state["mod_keep"] else "for the next roll"
    what = f"{amount:+d} dice {how}" if amount else "cleared"
    announce(encounter, "$You() $conj(set) {target}'s modifier: " + what + ".", actor=caller,
             mapping={"target": obj})


def set_idle(encounter, obj, idle: bool) -> bool:
    """Mark ``obj`` idle or back; True when that changed anything."""
    if is_idle(encounter, obj) == idle:
        return False
    ids = [int(i) for i in encounter.idle or [] if int(i) != obj.id]
    encounter.idle = ids + ([obj.id] if idle else [])
    return True


def toggle_idle(caller, name: str) -> None:
    """ST: ``+combat/idle <name>`` marks a combatant idle, or back."""
    encounter = require_encounter(caller)
    require_storyteller(caller, encounter, "mark combatants idle")
    obj = find_combatant(encounter, name)
    idle = not is_idle(encounter, obj)
    set_idle(encounter, obj, idle)
    state = "idle: attacks on them resolve with no defense (+combat/resolve)" if idle else "no longer idle"
    announce(encounter, "{target} is " + state + ".", mapping={"target": obj})


def left_the_room(character) -> None:
    """A fighter who walks out of the fight's room stays in it, idle (``Character.at_post_move``)."""
    encounter = fight_of(character)
    if encounter is not None and character.location != encounter.obj and set_idle(encounter, character, True):
        announce(encounter, "{target} leaves and stays in the fight, idle (+combat/leave to quit it).",
                 mapping={"target": character})


def left_by_deletion(obj) -> None:
    """``obj`` is being deleted (``@destroy``; ``Character.at_object_delete``): out of its
    fight, the attacks by or on it cancelled, and a hold or clinch with it ended; the fight it
    ran as Storyteller has none. Told to the fight's room."""
    encounter = fight_of(obj)
    if encounter is not None:
        with fights.unit("delete"):
            notices = remove_combatant(encounter, obj)
            announce(encounter, "{target} is removed from the fight (destroyed).", mapping={"target": obj},
                     lines=notices)
    run = encounter_in(obj.location)
    if run is not None and run.storyteller == obj:
        with fights.unit("delete"):
            run.storyteller = None
            announce(run, "{target}, the Storyteller, is gone: staff run the fight now, or hand it "
                          "to a Narrator here with +combat/transfer.", mapping={"target": obj})


def set_idle_on_disconnect(character) -> None:
    """Quitting or link-dead: still in the fight, marked idle (``Character.at_post_unpuppet``)."""
    encounter = getattr(character, "encounter", None)
    if encounter is not None and character in fighters(encounter) and set_idle(encounter, character, True):
        announce(encounter, "{target} has disconnected and stays in the fight, idle.",
                 mapping={"target": character})


def transfer(caller, name: str) -> None:
    """ST: ``+combat/transfer <player>`` hands the scene to another Narrator or staff member here."""
    encounter = require_encounter(caller)
    require_storyteller(caller, encounter, "hand the scene over")
    wanted = name.strip().casefold()
    matches = [obj for obj in caller.location.contents
               if obj.account and obj.key.casefold() == wanted and not is_npc(obj)]
    if not matches:
        raise CombatError(f"No player '{quote(name)}' here.")
    new = matches[0]
    if new == encounter.storyteller:
        raise CombatError(f"{new.key} already runs this scene.")
    if not has_perm(new, NARRATOR):
        raise CombatError(f"{new.key} is not a Narrator or staff member.")
    encounter.storyteller = new
    announce(encounter, "$You() $conj(hand) the scene to {target}; they are its Storyteller now.",
             actor=caller, mapping={"target": new})


def render_list(caller) -> str:
    """Staff: every fight running anywhere."""
    require_perm(caller, STAFF, "list every fight")
    from evennia.scripts.models import ScriptDB

    rows = []
    for encounter in ScriptDB.objects.filter(db_key=ENCOUNTER_KEY).order_by("id"):
        room = encounter.obj
        storyteller = encounter.storyteller.key if encounter.storyteller else "-"
        rows.append((escape(f"{room.key}(#{room.id})" if room else "-"), encounter.system_key,
                     str(encounter.round), escape(storyteller), str(len(fighters(encounter)))))
    return (table(("Room", "System", "Round", "Storyteller", "Fighters"), (), rows, width=WIDTH)
            if rows else "No fights are running.")


def render_log(caller, page_text: str) -> str:
    """ST or staff: ``+combat/log [<page>]`` — every roll of this fight with its inputs, newest
    page by default."""
    encounter = require_encounter(caller)
    require_storyteller(caller, encounter, "read the roll log")
    count = fights.log_count(encounter)
    pages = max(1, -(-count // LOG_PAGE))
    text = page_text.strip()
    if text and (not text.isascii() or not text.isdigit() or len(text) > 4 or not 1 <= int(text) <= pages):
        raise CombatError(f"Give a page from 1 to {pages}.")
    page = int(text) if text else pages
    lines = [f"|w{COMBAT} Roll log, page {page} of {pages}|n ({count} entries)"]
    start = (page - 1) * LOG_PAGE
    for entry in fights.log_entries(encounter, start + 1, start + LOG_PAGE):
        head = (f"Entry {entry['number']}, round {entry['round']}, " if spoken()
                else f"#{entry['number']} R{entry['round']} ")
        lines.append(escape(f"{head}{entry['actor']}: {entry['what']}"))
        lines.extend("    " + escape(line) for line in entry["lines"])
    if count == 0:
        lines.append("No rolls yet.")
    return "\n".join(lines)
