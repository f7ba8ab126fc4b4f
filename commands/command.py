"""Fray's base command: MUSH-style parsing, strict switches and one clear line per error.

Commands stay thin: parse, one service call in ``world/``, render. A domain error
(``DiceSyntaxError``, ``CombatError``, ``RulesDataError``) becomes a single ``<Fray>`` line,
escaped so player text is never interpreted; nothing is changed by a refused command.
"""

from evennia.commands.default.muxcommand import MuxCommand

from commands.help import help_text
from rules.data import RulesDataError
from rules.dice import DiceSyntaxError
from rules.systems import CombatError, get_system, system_keys
from world import fights
from world.combat import system_here
from world.text import FRAY, answering, escape, views_for
from world.wording import line_text

MAX_ERROR = 200


class Command(MuxCommand):
    """Base for Fray commands (this text shows only if a command lacks its own help)."""

    #: The switches this command accepts (exact, or a unique prefix). Anything else is refused.
    allowed_switches: tuple[str, ...] = ()
    #: How many switches may be combined (``+roll/private/wp``).
    max_switches = 1
    switch_options = None  # MuxCommand's own check only warns; Fray refuses instead
    #: One line of usage, shown when the command is called wrong.
    syntax = ""
    help_category = "Fray"

    def parse(self):
        super().parse()
        self.switch_error = ""
        if len(self.switches) > self.max_switches:
            self.switch_error = "Use one switch at a time." if self.max_switches == 1 else \
                f"Use at most {self.max_switches} switches."
            return
        resolved = []
        for switch in self.switches:
            wanted = switch.strip().lower()
            found = [name for name in self.allowed_switches if name == wanted] or [
                name for name in self.allowed_switches if wanted and name.startswith(wanted)]
            if len(found) != 1:
                valid = ", ".join(f"/{name}" for name in self.allowed_switches) or "none"
                kind = "Ambiguous" if found else "Unknown"
                self.switch_error = f"{kind} switch '/{switch[:20]}' for {self.key}. Switches: {valid}."
                break
            resolved.append(found[0])
        self.switches = resolved

    def get_help(self, caller, cmdset):
        """The help page for ``caller``: the part of the rule system played where they are
        first (``commands.help``)."""
        try:
            here = system_here(caller).key
        except CombatError:  # a fight whose system is gone from the game: the shared page
            here = ""
        return help_text(self.__doc__, self.key, self.allowed_switches, here)

    def fail(self, text: str) -> None:
        """Send one error line, escaped and cut to 200 characters (it may quote player input)."""
        if len(text) > MAX_ERROR:
            text = text[: MAX_ERROR - 3] + "..."
        self.msg(f"{FRAY} {escape(text)}")

    def refuse(self, err: CombatError | DiceSyntaxError) -> None:
        """Send a rule's refusal (or why a roll cannot be read): a line in the catalogue's
        words, the game's colours kept and its values escaped (:func:`fail` for a refusal given
        as text, or too long)."""
        if err.line is not None and len(str(err)) <= MAX_ERROR:
            self.msg(f"{FRAY} {line_text(err.line, err.system)}")
            return
        self.fail(str(err).splitlines()[0] if str(err) else "That did not work.")

    def fail_usage(self) -> None:
        """Reply with this command's usage line."""
        self.fail(f"Usage: {self.syntax}")

    def name_and_field(self) -> tuple[str, str] | None:
        """``<name>/<field>=<value>`` as (name, field); None (after replying with the usage) when
        the input has another shape. The field is after the last ``/``."""
        if self.rhs is None or "/" not in self.lhs:
            self.fail_usage()
            return None
        name, field = self.lhs.rsplit("/", 1)
        if not name.strip() or not field.strip():
            self.fail_usage()
            return None
        return name, field

    def sheet_system(self):
        """The rule system whose sheet the command works on: a ``/<system>`` switch given
        (``+stat/aeon``), else the system of the fight in the caller's room, else the game's
        default. Raises CombatError for a fight whose system is gone from the game."""
        named = [switch for switch in self.switches if switch in system_keys()]
        return get_system(named[0]) if named else system_here(self.caller)

    def func(self):
        if self.switch_error:
            self.fail(self.switch_error)
            return
        label = self.key + "".join(f"/{switch}" for switch in self.switches)
        # the fight is loaded once and saved once, in one transaction; views built for the
        # caller's session (sentences for a screen reader), and its answer sent first
        with views_for(self.session), answering(self.session), fights.unit(label):
            try:
                self.run()
            except (CombatError, DiceSyntaxError) as err:
                self.refuse(err)
            except RulesDataError as err:
                self.fail(str(err).splitlines()[0] if str(err) else "That did not work.")

    def run(self):
        raise NotImplementedError


def split_actor(command) -> tuple[str | None, str]:
    """``<npc>=<rest>`` → (npc, rest); no ``=`` → (None, args)."""
    if command.rhs is not None:
        return command.lhs.strip(), command.rhs.strip()
    return None, command.args.strip()


def split_acting(command) -> tuple[str | None, str] | None:
    """:func:`split_actor` for a command that needs both parts: None, after the usage line,
    when the rest (or a given ``<npc>=``) is empty."""
    actor, rest = split_actor(command)
    if not rest or actor == "":
        command.fail_usage()
        return None
    return actor, rest


def split_aimed(command) -> tuple[str | None, str, list[str]] | None:
    """``<what>[=<target>[,<target>...]]`` or the Storyteller's ``<npc>=<what>=<targets>``
    (``cast``, ``use``) → (npc or None, what, target names); None when a part is empty."""
    actor, what, targets = None, command.lhs, command.rhs
    if command.rhs is not None and "=" in command.rhs:
        actor = command.lhs
        what, targets = (part.strip() for part in command.rhs.split("=", 1))
    names = [name.strip() for name in (targets or "").split(",")]
    if targets is not None and not all(names) or not what.strip() or (actor is not None and not actor.strip()):
        return None
    return actor, what, names if targets is not None else []
