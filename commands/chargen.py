"""Character generation, approval and experience (``+chargen``, ``+approve``, ``+unapprove``,
``+xp``). The docstrings are the in-game help; the services are ``world.chargen`` and
``world.xp``."""

from __future__ import annotations

import re

from commands.command import Command
from commands.fray import find_character
from rules.systems import CombatError, get_system, system_keys
from world import chargen, fights, gmcp, xp
from world.access import STAFF, require_perm
from world.combat import system_here
from world.text import escape

#: A ``+chargen`` switch suggested to the player (``CmdChargen.naming``).
SUGGESTED = re.compile(r"\+chargen/(?:set|roll|submit|withdraw)\b")

SYSTEMS = tuple(system_keys())


def _system_switch(command):
    """The system a ``/<system>`` switch names, or None."""
    named = [switch for switch in command.switches if switch in SYSTEMS]
    return get_system(named[0]) if named else None


def _action(command) -> str:
    return next((switch for switch in command.switches if switch not in SYSTEMS), "")


class CmdChargen(Command):
    """
    Build your own character sheet, then submit it for approval.

    Usage:
      +chargen [<system>]              your chargen sheet: spent, left, next
      +chargen/set <trait>=<rating>    set a trait within the creation rules
      +chargen/set kind=<kind>         your creature kind (if the system has any)
      +chargen/set weapon=<weapon>     the weapon in hand
      +chargen/set class=<class>       elethril: your class (after /roll)
      +chargen/roll                    elethril: roll your ability scores
      +chargen/submit                  put the sheet in the staff's queue
      +chargen/withdraw                take it back to change it
      +chargen/log [<name>]            rolls and staff edits (others: staff)
    Staff (Builder and above):
      +chargen/queue                   the sheets waiting for approval

    One sheet per rule system: the system here (the fight's, or the
    game's), or the one named (+chargen aeon, +chargen/set/aeon ...). A
    refusal says why and changes nothing. An approved sheet is locked:
    raise it with +xp/spend. Unapproved, you join a fight only when its
    Storyteller adds you.

    Examples:
      +chargen eldritch
      +chargen/set Dexterity=3
      +chargen/set/eldritch Atemi Grip=1
      +chargen/submit

    # subtopics

    """

    key = "+chargen"
    aliases = ["+cg"]
    syntax = "+chargen[/<switch>][/<system>] [<system>], +chargen/set <trait>=<rating>"
    allowed_switches = ("set", "roll", "submit", "withdraw", "log", "queue", *SYSTEMS)
    max_switches = 2

    def run(self):
        caller = self.caller
        action = _action(self)
        system = _system_switch(self)
        if sum(1 for switch in self.switches if switch not in SYSTEMS) > 1:
            raise CombatError("Use one of /set, /roll, /submit, /withdraw, /log, /queue at a time.")
        if action == "queue":
            require_perm(caller, STAFF, "see the approval queue")
            self.msg(chargen.render_queue(chargen.queue()))
            return
        if action == "log":
            target = caller
            if self.args.strip():
                require_perm(caller, STAFF, "see other characters' sheet logs")
                target = find_character(caller, self.args)
            self.msg(chargen.render_history(target, chargen.history(target, system)))
            return
        if not action and self.args.strip():
            wanted = self.args.strip().casefold()
            if wanted not in SYSTEMS or system is not None:
                raise CombatError(f"No rule system '{self.args.strip()[:20]}': choose {', '.join(SYSTEMS)}.")
            system = get_system(wanted)
        system = system or self.sheet_system()
        try:
            self.act(action, system)
        except CombatError as refusal:
            raise CombatError(self.naming(str(refusal), system)) from None

    def naming(self, text: str, system) -> str:
        """``text`` with each ``+chargen/<switch>`` it suggests naming ``system`` when a bare
        ``+chargen`` would mean another one (a sheet looked at with ``+chargen elethril``)."""
        if system.key == system_here(self.caller).key:
            return text
        return SUGGESTED.sub(lambda found: f"{found.group(0)}/{system.key}", text)

    def act(self, action: str, system) -> None:
        caller = self.caller
        if action == "set":
            if self.rhs is None or not self.lhs.strip():
                self.fail_usage()
                return
            line = chargen.set_value(caller, system, self.lhs, self.rhs)
            self.msg(f"{chargen.CHARGEN} {escape(line)}")
            fights.afterwards(lambda: gmcp.refresh(caller))
        elif action == "roll":
            self.msg(f"{chargen.CHARGEN} {escape(chargen.roll(caller, system))}")
        elif action == "submit":
            row = chargen.submit(caller, system)
            self.msg(f"{chargen.CHARGEN} Your {system.key} sheet is submitted (#{row.id}); "
                       "staff are told, and you will be when they decide.")
        elif action == "withdraw":
            chargen.withdraw(caller, system)
            self.msg(f"{chargen.CHARGEN} Your {system.key} sheet is withdrawn; change it and +chargen/submit again.")
        else:
            self.msg(self.naming(chargen.render(caller, system), system))


class CmdApprove(Command):
    """
    Approve a player's submitted sheet (staff).

    Usage:
      +approve/list                    the sheets waiting for approval
      +approve <name>[=<comment>]      approve their submitted sheet
      +approve/<system> <name>[=<comment>]
                                       when they submitted more than one

    Switches:
      /list, and a system: /storyteller, /aeon, /eldritch, /elethril

    The player is told at once, or at their next login. An approved sheet
    is locked for its player: later changes are +xp/spend, or +stat by
    staff, which is logged (who, when, old -> new). If another staffer
    approved it first, you are told who.

    Examples:
      +approve/list
      +approve Alice=Welcome to the game!

    # subtopics

    """

    key = "+approve"
    locks = "cmd:all();view:perm(Builder);read:perm(Builder)"
    syntax = "+approve[/<system>] <name>[=<comment>] or +approve/list"
    allowed_switches = ("list", *SYSTEMS)

    def run(self):
        require_perm(self.caller, STAFF, "approve sheets")
        if "list" in self.switches:
            self.msg(chargen.render_queue(chargen.queue()))
            return
        if not self.lhs.strip():
            self.fail_usage()
            return
        target = find_character(self.caller, self.lhs)
        review = chargen.review_of(target, _system_switch(self), (chargen.SUBMITTED,), "approve")
        row = chargen.approve(self.caller, review.id, self.rhs or "")
        self.msg(f"{chargen.CHARGEN} You approve {escape(target.key)}'s {row.system_key} sheet (#{row.id}).")


class CmdUnapprove(Command):
    """
    Send a player's sheet back to character generation (staff).

    Usage:
      +unapprove <name>=<reason>
      +unapprove/<system> <name>=<reason>

    Switches:
      /storyteller, /aeon, /eldritch, /elethril

    Works on a sheet waiting for approval or one approved already. The
    player is told why, at once or at their next login, and may change
    the sheet with +chargen/set and submit it again.

    Examples:
      +unapprove Alice=Pick a weapon your character could own.

    # subtopics

    """

    key = "+unapprove"
    locks = "cmd:all();view:perm(Builder);read:perm(Builder)"
    syntax = "+unapprove[/<system>] <name>=<reason>"
    allowed_switches = SYSTEMS

    def run(self):
        require_perm(self.caller, STAFF, "unapprove sheets")
        if self.rhs is None or not self.lhs.strip() or not self.rhs.strip():
            self.fail_usage()
            return
        target = find_character(self.caller, self.lhs)
        review = chargen.review_of(target, _system_switch(self), (chargen.SUBMITTED, chargen.APPROVED), "unapprove")
        row = chargen.unapprove(self.caller, review.id, self.rhs)
        self.msg(f"{chargen.CHARGEN} You send {escape(target.key)}'s {row.system_key} sheet back.")


class CmdXp(Command):
    """
    Experience: your balance, spending it, and staff awards.

    Usage:
      +xp                              your balance
      +xp/spend <trait>[=<rating>]     raise a trait (default: one dot)
      +xp/spend <maneuver>             eldritch: buy an advanced maneuver
      +xp/log [<name>]                 every award and spend (others: staff)
    Staff (Builder and above):
      +xp <name>                       their balance
      +xp/award <name>=<n>/<reason>    award experience
      +xp/undo <name>=<entry #>        undo a spend, refunding it

    Switches:
      /spend, /log, /award, /undo, and a system: /storyteller, /aeon,
      /eldritch, /elethril

    A spend raises the sheet of the system of the fight in your room (or
    the game's default; a switch names another) at that system's costs
    (help <system>), once staff have approved that sheet. One balance
    serves every system. Every award and spend is an entry of +xp/log.

    Examples:
      +xp/spend Brawl
      +xp/spend Strength=4
      +xp/spend/eldritch Atemi Grip
      +xp/award Alice=5/The siege of the tower
      +xp/undo Alice=12

    # subtopics

    """

    key = "+xp"
    syntax = "+xp[/spend|/log|/award|/undo][/<system>] ..."
    allowed_switches = ("spend", "log", "award", "undo", *SYSTEMS)
    max_switches = 2

    def run(self):
        caller = self.caller
        action = _action(self)
        if sum(1 for switch in self.switches if switch not in SYSTEMS) > 1:
            raise CombatError("Use one of /spend, /log, /award, /undo at a time.")
        if action == "award":
            if self.rhs is None or not self.lhs.strip() or "/" not in self.rhs:
                self.fail("Usage: +xp/award <name>=<n>/<reason>")
                return
            require_perm(caller, STAFF, "award experience")
            target = find_character(caller, self.lhs)
            amount, reason = self.rhs.split("/", 1)
            entry = xp.award(caller, target, amount, reason)
            self.msg(f"{xp.XP} You award {escape(target.key)} {entry.amount} XP (entry #{entry.id}); "
                       f"their balance is {xp.balance(target)}.")
        elif action == "undo":
            if self.rhs is None or not self.lhs.strip():
                self.fail("Usage: +xp/undo <name>=<entry #>")
                return
            require_perm(caller, STAFF, "undo experience spends")
            target = find_character(caller, self.lhs)
            entry = xp.undo(caller, target, self.rhs)
            self.msg(f"{xp.XP} You undo entry #{entry.id}: {escape(target.key)}'s {escape(entry.trait)} is "
                       f"{entry.old} again and {-entry.amount} XP is refunded.")
        elif action == "spend":
            if not self.lhs.strip():
                self.fail("Usage: +xp/spend <trait>[=<rating>]")
                return
            system = _system_switch(self) or self.sheet_system()
            entry = xp.spend(caller, system, self.lhs, self.rhs)
            self.msg(f"{xp.XP} You spend {-entry.amount} XP: your {system.key} {escape(entry.trait)} is now "
                       f"{entry.new}. {xp.balance(caller)} XP left.")
            fights.afterwards(lambda: gmcp.refresh(caller))
        elif action == "log":
            target = caller
            if self.args.strip():
                require_perm(caller, STAFF, "see other characters' experience")
                target = find_character(caller, self.args)
            self.msg(xp.render_log(target))
        else:
            target = caller
            if self.args.strip():
                require_perm(caller, STAFF, "see other characters' experience")
                target = find_character(caller, self.args)
            whose = "You have" if target == caller else f"{escape(target.key)} has"
            self.msg(f"{xp.XP} {whose} {xp.balance(target)} XP.")
