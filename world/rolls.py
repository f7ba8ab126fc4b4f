"""``+roll``: a roll from the sheet, meaning what the fight's (or the game's) system says."""

from __future__ import annotations

from rules.dice import parse_pool
from rules.systems import CombatError
from world import dice
from world.access import NARRATOR, require_perm
from world.encounters import actor_for, add_log, encounter_in, system_here
from world.sheets import is_npc, snapshot
from world.text import ROLL, escape, escape_for_room


def roll(caller, actor_name: str | None, text: str, *, private: bool = False, willpower: bool = False) -> str:
    """Roll ``text`` for the caller (or, as ST, an NPC); returns the result line.

    The room sees it unless ``private``: then only the roller and the scene's Storyteller.
    Raises DiceSyntaxError or CombatError; nothing is rolled or logged when it does.
    """
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
    with dice.roller() as roller:
        result = system.roll_check(expression, snapshot(actor, system), roller, willpower=willpower)
    detail = "; ".join(result.lines)
    line = f"{actor.key} rolls {detail}"
    if encounter is not None:
        add_log(encounter, actor.key, "private roll" if private else "roll", result.lines)
    if private:
        shown = f"{ROLL} (private) {escape(line)}"
        caller.msg(shown)
        storyteller = encounter.storyteller if encounter else None
        if storyteller is not None and storyteller != caller:
            storyteller.msg(shown)
        return line
    caller.location.msg_contents(f"{ROLL} {escape_for_room(line)}")
    return line
