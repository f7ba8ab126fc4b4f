"""``+cast``: Storyteller spells in and out of a fight (the storyteller seed Magical Attack / Magical
Shield, docs/rules/storyteller.md "Magic"). Casting is Power vs 6 and Control vs 10 in one command; an attack spell
then rolls to hit and opens a defense window like any attack; a shield spell raises a shield
that blocks magical attacks, and may be cast as the defense against a waiting spell.
"""

from __future__ import annotations

from rules.systems import CombatError
from world import dice
from world.encounters import (
    actor_for,
    add_log,
    announce,
    announce_turn,
    can_defend,
    close_pending,
    combatant,
    current_slot,
    deliver,
    encounter_in,
    find_combatant,
    finish_attack,
    modifiers_for,
    pending_attacks,
    rebuild_attack,
    require_turn,
    shields_in,
    spells_of,
    store_shields,
    system_here,
    system_of,
    use_action,
    use_modifiers,
)
from world.sheets import snapshot
from world.text import COMBAT, escape_for_room


def cast(caller, actor_name: str | None, spell_name: str, targets: list[str], *, se_to_damage: bool = False) -> None:
    """Cast ``spell_name`` (as the caller, or an NPC the caller runs as ST).

    In a fight it uses the caster's turn — except a shield cast against a spell waiting on the
    caster, which is their defense (it uses their action for the round). Outside a fight only
    spells of kind "other" may be cast. Raises CombatError (nothing is rolled then).
    """
    encounter = encounter_in(caller.location)
    system = system_of(encounter) if encounter else system_here(caller)
    magic = spells_of(system)
    if encounter is not None:
        actor_for(caller, encounter, actor_name)  # who may cast, before what is cast
    spell = magic.spell(spell_name)
    if encounter is None:
        if actor_name or spell.kind != "other":
            raise CombatError(f"{spell.name} needs a fight: attack and shield spells are cast in +combat.")
        with dice.roller() as roller:
            rolled = magic.cast(snapshot(caller, system), spell.key, roller)
        caller.location.msg_contents(f"{COMBAT} " + escape_for_room(f"{caller.key} casts {spell.name}."))
        caller.location.msg_contents("\n".join("  " + escape_for_room(line) for line in rolled.describe()))
        return
    actor = actor_for(caller, encounter, actor_name)
    waiting = [p for p in pending_attacks(encounter) if p["target"] == actor and p["attack"].get("magic")]
    as_defense = spell.kind == "shield" and bool(waiting)
    if as_defense:
        if not can_defend(encounter, actor):
            raise CombatError(f"{actor.key} has already acted this round and cannot raise a shield now.")
    else:
        require_turn(encounter, actor)
    target = None
    protected: list[str] = []
    if spell.kind == "attack":
        if len(targets) != 1:
            raise CombatError(f"Name one target: +cast {spell.key}=<target>")
        target = find_combatant(encounter, targets[0])
        if target == actor:
            raise CombatError("You cannot aim a spell at yourself.")
    elif spell.kind == "shield":
        protected = [find_combatant(encounter, name).key for name in targets]
    elif targets:
        raise CombatError(f"{spell.name} takes no targets in a fight.")
    with dice.roller(encounter) as roller:
        rolled = magic.cast(combatant(encounter, actor, system), spell.key, roller)  # a tackle's +1 too
        shield = None
        if spell.kind == "shield" and not rolled.fizzled:
            shield = magic.raise_shield(rolled, protected)
        attack = None
        mods = modifiers_for(encounter, actor)
        if spell.kind == "attack" and not rolled.fizzled:
            se_to_hit = 0 if se_to_damage else rolled.special_effects
            attack = magic.magical_attack(snapshot(actor, system), snapshot(target, system), rolled, roller,
                                          se_to_hit=se_to_hit, modifier=mods.difficulty, dice_modifier=mods.dice)
    if attack is not None:
        use_modifiers(encounter, actor)
    use_action(encounter, actor, None if as_defense else current_slot(encounter)[0])
    lines = list(rolled.describe())
    # The to-hit roll is logged here, once; its resolution is logged without it.
    add_log(encounter, actor.key, f"casts {spell.name}",
            [*lines, *((attack.describe(), *mods.notes) if attack is not None else ())])
    announce(encounter, "{actor} casts " + escape_for_room(spell.name) + ".", mapping={"actor": actor}, lines=lines)
    if shield is not None:
        shields = shields_in(encounter)
        shields.update({name: shield for name in shield.protected})
        store_shields(encounter, shields)
        announce(encounter, escape_for_room(f"{shield.describe()}"))
    if as_defense:
        pending = waiting[0]
        close_pending(encounter, pending)
        finish_attack(encounter, pending["attacker"], actor, rebuild_attack(system, pending["attack"]), None)
    elif attack is not None:
        deliver(encounter, actor, target, attack)
    else:
        announce_turn(encounter)
