"""``+roll``: a roll from the sheet, meaning what the fight's (or the game's) system says.

In a fight it is the fight's ``roll`` intent (its dice, its roll log, the roller's conditions
and the game master's dice modifier); elsewhere it is rolled here with real randomness.
"""

from __future__ import annotations

from rules.dice import DiceSyntaxError, parse_pool
from rules.dice.odds import percent
from rules.lines import Line
from rules.systems import CombatError
from world import combat, dice, fights
from world.access import NARRATOR, require_perm
from world.narration import room_text, value_for_msg
from world.sheets import is_npc, snapshot
from world.text import ROLL, escape
from world.wording import line_text


def roll(caller, actor_name: str | None, text: str, *, private: bool = False, willpower: bool = False) -> None:
    """Roll ``text`` for the caller (or, as the game master, an NPC). The room sees it unless
    ``private``: then only the roller and the fight's game master. Raises DiceSyntaxError or
    CombatError; nothing is rolled or logged when it does."""
    row = combat.fight_here(caller)
    if row is not None:   # the fight's dice and roll log, a bystander's roll too
        actor = fights.obj(combat.actor_for(caller, row, actor_name)) if actor_name else caller
        fighting = fights.state(row).has(actor.id)
        combat.perform(caller, row, "roll", actor=actor.id if fighting else None, option=text, data={
            "private": private, "willpower": willpower,
            **({} if fighting else {"fighter": fights.fighter_record(actor, fights.system_of(row))})})
        return
    actor = _npc_here(caller, actor_name) if actor_name else caller
    system = combat.system_here(caller)
    expression = _parsed(text, system)
    with dice.roller() as roller:
        result = system.roll_check(expression, snapshot(actor, system), roller, willpower=willpower)
    line = Line("line.rolls", {"name": actor.key, "rolls": tuple(result.lines)})
    if private:
        caller.msg(f"{ROLL} (private) {value_for_msg(line, system.key)}")
        return
    caller.location.msg_contents(f"{ROLL} {room_text(line, system.key)}")


def _parsed(text: str, system):
    """``text`` read as a roll in ``system`` (:func:`rules.dice.parse_pool`). Raises
    DiceSyntaxError, to be worded in the system's own words where it has them."""
    try:
        return parse_pool(text, system.trait_names)
    except DiceSyntaxError as refused:
        refused.system = refused.system or system.key
        raise


def _npc_here(caller, name: str):
    row = combat.fight_here(caller)
    if row is not None:
        return fights.obj(combat.actor_for(caller, row, name))
    npc = next((thing for thing in caller.location.contents if is_npc(thing)
                and thing.key.casefold() == name.strip().casefold()), None) if caller.location else None
    require_perm(caller, NARRATOR, "roll for NPCs")
    if npc is None:
        raise CombatError(f"No NPC '{name.strip()[:40]}' here.")
    return npc


def odds(caller, actor_name: str | None, text: str, *, willpower: bool = False) -> str:
    """``+roll/odds``: the exact chances of what ``+roll`` would roll now (the same pool,
    modifiers and wound penalty), for the caller's eyes only; nothing is rolled or logged.
    Raises DiceSyntaxError or CombatError."""
    row = combat.fight_here(caller)
    actor = _npc_here(caller, actor_name) if actor_name else caller
    system = combat.system_here(caller)
    expression = _parsed(text, system)
    dice_mod = 0
    if row is not None and fights.state(row).has(actor.id):
        d = fights.reading(row)
        dice_mod = d.modifiers_for(actor.id).dice
        fighter = d.combatant(actor.id)   # in a fight the rules see the roller's conditions
    else:
        fighter = snapshot(actor, system)
    result = system.odds(expression, fighter, modifier=dice_mod, willpower=willpower)
    lines = [f"Odds for {actor.key}: {line_text(result.title, system.key, plain=True)}"]
    lines += [f"  {line_text(name, system.key, plain=True):<28}{percent(chance):>7}" for name, chance in result.rows]
    if result.note:
        lines.append(f"  {line_text(result.note, system.key, plain=True)}")
    return f"{ROLL} " + "\n".join(escape(line) for line in lines)
