"""One command for every action a rule system registers with a verb of its own
(``rules.engine.actions.Action.verb``): ``aim Guard``, ``aim Orc=Ann``. Typed in a fight, the
verb goes to the fight's system's action of that key; the help is the actions' own.

So a new action is one class in the engine or a system's package (and its words in
``world/messages/``): the command, its help and its switch-free parsing come from here.
"""

from __future__ import annotations

from commands.command import Command
from rules.systems import CombatError, get_system, system_keys
from world import combat


def verbs() -> dict[str, dict[str, object]]:
    """{verb: {system key: action}} of every system's actions with a verb."""
    found: dict[str, dict[str, object]] = {}
    for key in system_keys():
        for action in get_system(key).actions.values():
            if action.verb:
                found.setdefault(action.verb, {})[key] = action
    return found


class ActionCommand(Command):
    """Base of the commands made for actions' verbs (``action_command``)."""

    verb = ""

    def run(self):
        actor, rest = (self.lhs.strip(), self.rhs.strip()) if self.rhs is not None else (None, self.args.strip())
        row = combat.require_fight(self.caller)
        action = combat.system_of(row).actions.get(self.verb)
        if action is None or action.verb != self.verb:
            raise CombatError(f"The {combat.system_of(row).key} rules have no {self.verb}.")
        if actor == "" or (action.takes == "target" and not rest) or (action.takes == "" and rest):
            self.fail(f"Usage: {action.usage}")
            return
        targets = [rest] if action.takes == "target" else []
        combat.act(self.caller, action.key, actor, targets)


def action_command(verb: str, actions: dict[str, object]) -> type[ActionCommand]:
    """The command class for ``verb``: its help the actions' help, per system."""
    first = next(iter(actions.values()))
    systems = ", ".join(actions)
    doc = (f"\n    {first.help}\n\n    Usage:\n      {first.usage}\n      {first.usage.replace(' ', ' <npc>=', 1)}"
           f"   (Storytellers)\n\n    Rule systems: {systems}.\n    ")
    return type(f"Cmd{verb.capitalize()}", (ActionCommand,),
                {"__doc__": doc, "key": verb, "verb": verb, "syntax": first.usage})


def commands() -> list[type[ActionCommand]]:
    return [action_command(verb, actions) for verb, actions in sorted(verbs().items())]
