"""``+roll``: a roll from the sheet, meaning what the fight's (or the game's) system says."""

from __future__ import annotations

from rules.dice import parse_pool
from rules.dice.odds import percent
from rules.systems import CombatError
from world import dice
from world.access import NARRATOR, require_perm
from world.encounters import (
    actor_for,
    add_log,
    combatant,
    encounter_in,
    fighters,
    modifiers_for,
    system_here,
    use_modifiers,
)
from world.sheets import is_npc, snapshot
from world.text import ROLL, escape, escape_for_room


def roll(caller, actor_name: str | None, text: str, *, private: bool = False, willpower: bool = False) -> str:
    """Roll ``text`` for the caller (or, as ST, an NPC); returns the result line.

    The room sees it unless ``private``: then only the roller and the scene's Storyteller.
    Raises DiceSyntaxError or CombatError; nothing is rolled or logged when it does.
    """
    encounter, actor, system, expression, dice_mod, roller_now = _check(caller, actor_name, text)
    with dice.roller(encounter) as roller:
        result = system.roll_check(expression, roller_now, roller, modifier=dice_mod,
                                   willpower=willpower)
    detail = "; ".join(result.lines)
    line = f"{actor.key} rolls {detail}"
    if encounter is not None:
        notes = [f"dice {dice_mod:+d} (Storyteller)"] if dice_mod else []
        add_log(encounter, actor.key, "private roll" if private else "roll", [*result.lines, *notes])
    if dice_mod:
        use_modifiers(encounter, actor, adjustable=False, difficulty=False)
    if private:
        shown = f"{ROLL} (private) {escape(line)}"
        caller.msg(shown)
        storyteller = encounter.storyteller if encounter else None
        if storyteller is not None and storyteller != caller:
            storyteller.msg(shown)
        return line
    caller.location.msg_contents(f"{ROLL} {escape_for_room(line)}")
    return line


def _check(caller, actor_name: str | None, text: str):
    """What ``+roll`` and ``+roll/odds`` both need: (fight or None, who rolls, system, parsed
    pool, the ST's dice modifier, the roller as the rules see them). Raises CombatError,
    DiceSyntaxError."""
    encounter = encounter_in(caller.location)
    if actor_name:
        if encounter is None:
            npc = next((o for o in caller.location.contents if is_npc(o)
                        and o.key.casefold() == actor_name.strip().casefold()), None) if caller.location else None
            require_perm(caller, NARRATOR, "roll for NPCs")
            if npc is None:
                raise CombatError(f"No NPC '{actor_name.strip()[:40]}' here.")
            actor = npc
        else:
            actor = actor_for(caller, encounter, actor_name)
    else:
        actor = caller
    system = system_here(caller)
    expression = parse_pool(text, system.trait_names)
    fighting = encounter is not None and actor in fighters(encounter)
    dice_mod = modifiers_for(encounter, actor).dice if fighting else 0
    # In a fight the rules see the roller's conditions (storyteller: a tackle's +1 this turn).
    roller_now = combatant(encounter, actor, system) if fighting else snapshot(actor, system)
    return encounter, actor, system, expression, dice_mod, roller_now


def odds(caller, actor_name: str | None, text: str, *, willpower: bool = False) -> str:
    """``+roll/odds``: the exact chances of what ``+roll`` would roll now (the same pool,
    modifiers and wound penalty), for the caller's eyes only; nothing is rolled or logged.
    Raises DiceSyntaxError or CombatError."""
    _, actor, system, expression, dice_mod, roller_now = _check(caller, actor_name, text)
    result = system.odds(expression, roller_now, modifier=dice_mod, willpower=willpower)
    lines = [f"Odds for {actor.key}: {result.title}"]
    lines += [f"  {name:<28}{percent(chance):>7}" for name, chance in result.rows]
    if result.note:
        lines.append(f"  {result.note}")
    return f"{ROLL} " + "\n".join(escape(line) for line in lines)
