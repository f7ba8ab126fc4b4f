"""The elethril fight's command parsing (the elethril seed): the ``+combat`` switches ``/side``,
``/party``, ``/offhand``, ``/delay``, ``/forfeit`` and ``/init <modifiers>``, and
``cast``/``+spells`` in an elethril fight. The shared commands of ``commands/fray.py`` hand over to these in one line;
their help texts (``help +combat``, ``help attack``, ``help +cast``) describe the switches.
Each helper returns False when the input is not elethril's to handle.
"""

from __future__ import annotations

from world import elethril
from world.text import COMBAT

#: The +combat switches only an elethril fight has.
SWITCHES = ("side", "party", "delay", "forfeit", "offhand")
CAST_USAGE = "Usage: cast <spell>[=<target>]  (Storytellers: cast <npc>=<spell>[=<target>])"


def _actor_and_text(command) -> tuple[str | None, str]:
    """``<npc>=<rest>`` → (npc, rest); no ``=`` → (None, args)."""
    if command.rhs is not None:
        return command.lhs.strip(), command.rhs.strip()
    return None, command.args.strip()


def combat_switch(command, switch: str) -> bool:
    """Run ``+combat/<switch>`` when it is an elethril switch (or ``/init`` with modifiers in
    an elethril fight); False otherwise. Raises CombatError."""
    caller = command.caller
    if switch == "init":
        if not command.args.strip() or not elethril.here(caller):
            return False
        actor, text = _actor_and_text(command)
        if not text or actor == "":
            command.fail("Usage: +combat/init <modifier>[,<modifier>...] (or none)")
            return True
        elethril.set_modifiers(caller, actor, text)
        return True
    if switch not in SWITCHES:
        return False
    if switch in ("side", "party", "offhand"):
        if command.rhs is None or not command.lhs.strip():
            what = {"side": "<side>", "party": "<party>[/slowest]", "offhand": "<weapon>"}[switch]
            command.fail(f"Usage: +combat/{switch} <name>[,<name>...]={what}")
            return True
        change = {"side": elethril.set_side, "party": elethril.set_party, "offhand": elethril.set_off_hand}[switch]
        change(caller, command.lhs, command.rhs)
    elif switch == "delay":
        actor, text = _actor_and_text(command)
        if not text or actor == "":
            command.fail("Usage: +combat/delay <segment>  (Storytellers: +combat/delay <npc>=<segment>)")
            return True
        elethril.delay_action(caller, actor, text)
    else:
        if command.rhs is not None:
            command.fail("Usage: +combat/forfeit  (Storytellers: +combat/forfeit <npc>)")
            return True
        elethril.forfeit_action(caller, command.args.strip() or None)
    return True


def cast(command, actor: str | None, spell: str, targets: list[str]) -> bool:
    """``cast <spell>[=<target>]`` where the fight (or the game default) is elethril: the
    spell is declared as the round's action. False elsewhere."""
    if not elethril.here(command.caller):
        return False
    elethril.declare_spell(command.caller, actor, spell, targets, special="damage" in command.switches)
    return True


def cast_usage(command) -> bool:
    """``cast`` typed wrong where the fight (or the game default) is elethril: its own usage
    line (one target, no /damage). False elsewhere."""
    if not elethril.here(command.caller):
        return False
    command.fail(CAST_USAGE)
    return True


def spells(command) -> bool:
    """``+spells`` under elethril: the spell table. False elsewhere."""
    if not elethril.here(command.caller):
        return False
    command.caller.msg(f"{COMBAT} Elethril spells\n" + elethril.render_spells(elethril.system_here(command.caller)))
    return True
