"""Non-player characters run by Storytellers.

An NPC is a Character without an account, tagged ``npc`` (category ``fray``) so Fray can tell
it from a player character. A *light* NPC, made by ``+npc/init <name>=<wits>+<dex>``, has only
those two traits until staff give it a full sheet.
"""

from .characters import Character

NPC_TAG = ("npc", "fray")


class NPC(Character):
    """A Storyteller-controlled combatant with the same sheet and health as a Character."""

    #: How Fray tells an NPC from a player character without a database look-up
    #: (``world.sheets.is_npc``); the ``npc`` tag stays for searches.
    fray_npc = True

    def at_object_creation(self):
        super().at_object_creation()
        self.tags.add(*NPC_TAG)
        self.locks.add("puppet:perm(Builder)")
