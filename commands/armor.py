"""Armor requests and armor notes (``+request``, ``+armor``). The docstrings are the in-game help."""

from __future__ import annotations

from commands.command import Command
from commands.fray import find_character
from world import armor, combat
from world.access import STAFF, require_perm
from world.text import escape

STAFF_REQUEST_SWITCHES = {"list": "list everyone's requests", "approve": "approve requests",
                          "deny": "deny requests"}


class CmdRequest(Command):
    """
    Ask staff for armor; staff approve or deny.

    Usage:
      +request                          your requests and what became of them
      +request/armor <armor>=<why>      ask for an armor
      +request/view <#>                 one request in full
      +request/withdraw <#>             take back your open request
    Staff (Builder and above):
      +request/list                     every open request
      +request/view <#>                 any request
      +request/approve <#>[=<comment>]  approve an armor from the table
      +request/approve <#>=<col>:<n>[,<col>:<n>...][ <comment>]
                                        approve with explicit soak values
      +request/deny <#>=<why>           deny it, telling the player why

    Switches:
      /armor, /view, /withdraw, /list, /approve, /deny

    <armor> is an armor of the rule system in use here, by key or name (a
    unique start is enough: goblin for Goblin-made Mail); anything else
    asks for a custom armor. An approved request becomes an armor note on
    the player's character, worn with +armor/wear. The player is told at
    once, or at their next login. You may have 5 open requests. Staff:
    help +request/approve for soak values.

    Examples:
      +request/armor goblin=My knight's mail from the Gringotts vault
      +request/armor troll-hide cloak=Won it in the scene on Friday
      +request/approve 3
      +request/approve 3=Nice scene.
      +request/approve 4=bashing:1,lethal:1 fine
      +request/deny 5=No troll-hide in this era.

    # subtopics

    ## approve
    +request/approve <#>[=<comment>]
    +request/approve <#>=<col>:<n>[,<col>:<n>...][ <comment>]
    The approved armor becomes a note on the player's character (who
    approved it, when, its soak values). A custom armor needs explicit
    soak values: the first word after = is a list of <column>:<n> pairs
    joined by commas, no spaces; the columns are the system's armor
    columns (storyteller, aeon: bashing, lethal, aggravated; eldritch:
    bash, lethal, bullets; elethril: armor_class; a unique start is
    enough), each value 0-10, and columns left out give nothing. For a
    table armor such values replace the table's. Everything after that
    first word is the comment.
    """

    key = "+request"
    aliases = ["+requests"]
    allowed_switches = ("armor", "list", "view", "approve", "deny", "withdraw")
    syntax = "+request/armor <armor>=<why> | +request/view <#> | +request/withdraw <#>"

    def run(self):
        caller = self.caller
        switch = self.switches[0] if self.switches else ""
        if switch in STAFF_REQUEST_SWITCHES:
            require_perm(caller, STAFF, STAFF_REQUEST_SWITCHES[switch])
        if switch == "armor":
            if self.rhs is None or not self.lhs.strip() or not self.rhs.strip():
                self.fail("Usage: +request/armor <armor>=<why>  e.g. +request/armor goblin=From the vault")
                return
            request = armor.file_armor_request(caller, self.lhs, self.rhs, combat.system_here(caller))
            kind = "" if request["armor"] else " (a custom armor: staff will set its soak values)"
            self.msg(f"{armor.ARMOR} Request #{request['id']} filed: {escape(request['name'])}{kind}. "
                       f"Staff will answer; +request shows your requests.")
        elif switch == "list":
            if self.args.strip():
                self.fail("Usage: +request/list")
                return
            self.msg(armor.render_requests(armor.open_requests(), "Open requests"))
        elif switch in ("view", "withdraw"):
            if not self.args.strip() or self.rhs is not None:
                self.fail(f"Usage: +request/{switch} <#>")
                return
            number = armor.parse_number(self.args)
            if switch == "view":
                self.msg(armor.render_request(armor.view_request(caller, number)))
            else:
                request = armor.withdraw(caller, number)
                self.msg(f"{armor.ARMOR} You withdraw request #{number} ({escape(request['name'])}).")
        elif switch == "approve":
            if not self.lhs.strip() or (self.rhs is not None and not self.rhs.strip()):
                self.fail("Usage: +request/approve <#>[=<comment>] or "
                          "+request/approve <#>=<col>:<n>[,<col>:<n>...][ <comment>]")
                return
            request, note = armor.approve(caller, armor.parse_number(self.lhs), self.rhs or "")
            self.msg(f"{armor.ARMOR} Request #{request['id']} approved: {armor.note_line(note)} is now "
                       f"{escape(request.get('requester_name') or '?')}'s armor note.")
        elif switch == "deny":
            if not self.lhs.strip() or not (self.rhs or "").strip():
                self.fail("Usage: +request/deny <#>=<why>")
                return
            request = armor.deny(caller, armor.parse_number(self.lhs), self.rhs)
            self.msg(f"{armor.ARMOR} Request #{request['id']} ({escape(request['name'])}) denied.")
        else:
            if self.args.strip():
                self.fail_usage()
                return
            self.msg(armor.render_requests(armor.requests_of(caller), "Your requests"))


class CmdArmor(Command):
    """
    Your staff-approved armor notes.

    Usage:
      +armor                       your notes (* marks the one you wear)
      +armor/wear <note # or name> put on one of your notes
      +armor/remove                take your armor off
      +armor/show <player>[=<note>]  show a note (default: the one you wear)
                                   to someone in the room
    Staff (Builder and above):
      +armor <player>              see someone's notes
      +armor/revoke <player>=<note #>[=<why>]   take a note away (off their
                                   back if worn), telling them why

    Switches:
      /wear, /remove, /show, /revoke

    Armor notes come only from staff: ask with +request/armor. Only the note
    you wear counts, and only in fights of the rule system it was approved
    for; under Storyteller its values are extra soak dice per damage type.

    Examples:
      +armor
      +armor/wear 3
      +armor/wear goblin
      +armor/show Bob
      +armor/revoke Alice=3=Lost it in the river.
    """

    key = "+armor"
    allowed_switches = ("wear", "remove", "show", "revoke")
    syntax = "+armor[/wear <note>|/remove|/show <player>[=<note>]]"

    def run(self):
        caller = self.caller
        switch = self.switches[0] if self.switches else ""
        if switch == "revoke":
            require_perm(caller, STAFF, "revoke armor notes")
            number_text, _, why = (self.rhs or "").partition("=")
            if not self.lhs.strip() or not number_text.strip():
                self.fail("Usage: +armor/revoke <player>=<note #>[=<why>]")
                return
            number = armor.parse_number(number_text, "note")
            target = find_character(caller, self.lhs)
            note = armor.revoke(caller, target, number, why)
            self.msg(f"{armor.ARMOR} You revoke {escape(target.key)}'s armor note {armor.note_line(note)}.")
        elif switch == "wear":
            if not self.args.strip():
                self.fail("Usage: +armor/wear <note # or name>")
                return
            note = armor.wear(caller, self.args)
            here = combat.system_here(caller).key
            elsewhere = "" if note.get("system") == here else f" It counts only in {escape(note.get('system'))} fights."
            self.msg(f"{armor.ARMOR} You wear {armor.note_line(note)}.{elsewhere}")
        elif switch == "remove":
            if self.args.strip():
                self.fail("Usage: +armor/remove")
                return
            note = armor.take_off(caller)
            self.msg(f"{armor.ARMOR} You take off #{note['id']} {escape(note.get('name') or '?')}.")
        elif switch == "show":
            if not self.lhs.strip() or (self.rhs is not None and not self.rhs.strip()):
                self.fail("Usage: +armor/show <player>[=<note>]")
                return
            target, note = armor.show(caller, self.lhs, self.rhs or "")
            self.msg(f"{armor.ARMOR} You show {escape(target.key)} your armor note {armor.note_line(note)}.")
        elif self.args.strip():
            if self.rhs is not None:
                self.fail_usage()
                return
            target = find_character(caller, self.args)
            armor.view_notes(caller, target)
            self.msg(armor.render_notes(target, own=target == caller))
        else:
            self.msg(armor.render_notes(caller, own=True))
