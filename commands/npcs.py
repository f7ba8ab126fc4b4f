"""Storyteller commands for NPCs (``+npc``). Each docstring is the in-game help."""

from __future__ import annotations

from commands.command import Command
from world import encounters
from world.access import NARRATOR, require_perm


class CmdNpc(Command):
    """
    Storyteller tools for NPCs.

    Usage:
      +npc/init <name>=<wits>+<dex>
      +npc/init <name>

    /init puts the NPC <name> into this fight's initiative with those Wits
    and Dexterity (creating a light NPC here if there is none), or with its
    own sheet when no numbers are given. Act for it with the <npc>= prefix:
    attack Guard=Alice, defend Guard=dodge, +roll Guard=Dex+Dodge.

    Examples:
      +npc/init Guard=2+3
      +npc/init Guard
    """

    key = "+npc"
    allowed_switches = ("init",)
    syntax = "+npc/init <name>=<wits>+<dex>"

    def run(self):
        require_perm(self.caller, NARRATOR, "run NPCs")
        if self.switches != ["init"] or not self.lhs.strip():
            self.fail_usage()
            return
        encounters.npc_init(self.caller, self.lhs, self.rhs)
