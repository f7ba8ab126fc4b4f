"""The elethril fight's command parsing (the elethril seed): the ``+combat`` switches
``/party``, ``/offhand``, ``/delay``, ``/forfeit`` and ``/init <modifiers>``, and
``cast``/``+spells`` where rounds are declared (``RuleSystem.declared_rounds``). The shared
commands of ``commands/fray.py`` hand over to these in one line (``commands.systems``); their
help texts (``help +combat``, ``help attack``, ``help +cast``) describe the switches. Each
helper returns False when the input is not its to handle; the rules are the system's actions
(``rules.systems.elethril.actions``).
"""

from __future__ import annotations

from rules.systems import CombatError
from rules.systems.elethril.actions import HOW_TO_DECLARE
from world import combat
from world.items import render_spells
from world.text import COMBAT

#: The +combat switches only an elethril fight has.
SWITCHES = ("party", "delay", "forfeit", "offhand")
CAST_USAGE = "Usage: cast <spell>[=<target>]  (Storytellers: cast <npc>=<spell>[=<target>])"
#: What each switch is, for the refusal in a fight of other rules.
RULES = {"party": "Coordinating parties", "offhand": "Off-hand weapons", "delay": "Delaying to a segment",
         "forfeit": "Forfeiting", "modifiers": "Standard initiative modifiers", "use": "Using a magical item"}


def declaring(caller) -> bool:
    """Whether the fight here (or, with none, the game's default system) declares its rounds."""
    return combat.system_here(caller).declared_rounds


def _row(caller, action: str):
    """The fight here, when its rules have ``action``. Raises CombatError."""
    row = combat.require_fight(caller)
    system = combat.system_of(row)
    if action not in system.actions:
        raise CombatError(f"{RULES[action]}: an elethril rule; this fight uses {system.key}.")
    return row


def _actor_and_text(command) -> tuple[str | None, str]:
    """``<npc>=<rest>`` → (npc, rest); no ``=`` → (None, args)."""
    if command.rhs is not None:
        return command.lhs.strip(), command.rhs.strip()
    return None, command.args.strip()


def _names(row, text: str, usage: str) -> tuple[int, ...]:
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise CombatError(usage)
    return tuple(combat.find(row, name) for name in names)


def combat_switch(command, switch: str) -> bool:
    """Run ``+combat/<switch>`` when it is an elethril switch (or ``/init`` with modifiers
    where rounds are declared); False otherwise. Raises CombatError."""
    caller = command.caller
    if switch == "init":
        if not command.args.strip() or not declaring(caller):
            return False
        actor, text = _actor_and_text(command)
        if not text or actor == "":
            command.fail("Usage: +combat/init <modifier>[,<modifier>...] (or none)")
            return True
        row = _row(caller, "modifiers")
        if actor is None:
            combat.act(caller, "modifiers", None, option=text)
        else:
            combat.require_gm(caller, row, "set someone else's initiative modifiers")
            combat.perform(caller, row, "modifiers", targets=(combat.find(row, actor),), option=text)
        return True
    if switch not in SWITCHES:
        return False
    if switch in ("party", "offhand"):
        what = {"party": "<party>[/slowest]", "offhand": "<weapon>"}[switch]
        usage = f"Usage: +combat/{switch} <name>[,<name>...]={what}"
        if command.rhs is None or not command.lhs.strip():
            command.fail(usage)
            return True
        row = _row(caller, switch)
        combat.require_gm(caller, row, "set parties" if switch == "party" else "grant off-hand weapons")
        option, data = command.rhs, {}
        if switch == "party":
            party, slash, how = command.rhs.partition("/")
            if slash and how.strip().casefold() != "slowest":
                raise CombatError("After the party name only /slowest may follow, e.g. "
                                  "+combat/party Ann,Bob=nag/slowest.")
            if slash and not party.strip():
                raise CombatError("Name the party before /slowest.")
            option, data = party, {"slowest": bool(slash)}
        combat.perform(caller, row, switch, targets=_names(row, command.lhs, usage), option=option, data=data)
    elif switch == "delay":
        actor, text = _actor_and_text(command)
        if not text or actor == "":
            command.fail("Usage: +combat/delay <segment>  (Storytellers: +combat/delay <npc>=<segment>)")
            return True
        _row(caller, "delay")
        combat.act(caller, "delay", actor, option=text)
    else:
        if command.rhs is not None:
            command.fail("Usage: +combat/forfeit  (Storytellers: +combat/forfeit <npc>)")
            return True
        _row(caller, "forfeit")
        combat.act(caller, "forfeit", command.args.strip() or None)
    return True


def use_item(caller, actor: str | None, item: str, targets: list[str]) -> None:
    """``use <item>[=<target>]``: the item's discharge declared as the round's action."""
    _row(caller, "use")
    combat.act(caller, "use", actor, targets, item)


def cast(command, actor: str | None, spell: str, targets: list[str]) -> bool:
    """``cast <spell>[=<target>]`` where rounds are declared: the spell is declared as the
    round's action. False elsewhere."""
    caller = command.caller
    if not declaring(caller):
        return False
    if combat.fight_here(caller) is None:
        raise CombatError(f"Elethril spells are cast in a fight: {HOW_TO_DECLARE} once it starts.")
    combat.act(caller, "cast", actor, targets, spell, damage="damage" in command.switches)
    return True


def cast_usage(command) -> bool:
    """``cast`` typed wrong where rounds are declared: its own usage line (one target, no
    /damage). False elsewhere."""
    if not declaring(command.caller):
        return False
    command.fail(CAST_USAGE)
    return True


def spells(command) -> bool:
    """``+spells`` where rounds are declared: the spell table. False elsewhere."""
    if not declaring(command.caller):
        return False
    command.msg(f"{COMBAT} Elethril spells\n" + render_spells(combat.system_here(command.caller)))
    return True
