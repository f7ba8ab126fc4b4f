"""Elethril's magical items (the elethril seed, 3b): staff put them on sheets with ``+item``; ``use``
declares one as a fighter's action. The docstrings are the in-game help; the work is in
``world/items.py`` and ``rules.systems.elethril.actions``.
"""

from __future__ import annotations

from commands.command import Command
from commands.elethril import use_item
from commands.fray import find_character, split_aimed, tell_change
from world import armor, items
from world.access import NARRATOR, STAFF, require_perm


class CmdItem(Command):
    """
    Magical items on a character's sheet (elethril).

    Usage:
      +item                          your magical items (also +items)
      +item <name>                   someone's items (Narrators and staff)
    Staff (Builder and above):
      +item <name>=<type>/<spell>[=<charges>]   give an item holding a spell
      +item/remove <name>=<#>        take item <#> away

    Switches:
      /remove   take an item away (staff)

    <type> is a magical item type of rules/data/elethril.toml: potion, ring,
    rod, staff or wand (a unique start is enough); <spell> an elethril spell
    (+spells: fireball, magic missile, cure light wounds ...). Charges are
    1 unless given, 0 up to the type's max_charges in the data (a potion 1,
    a staff 25, a ring or rod 50, a wand 100); 0 records an empty item.
    Each item gets a number (#). Only staff give and take items: what makes
    an action stronger comes from the sheet, never from what a player
    types. In an elethril fight, use <item>[=<target>] discharges one and
    spends a charge (help use).

    Examples:
      +items
      +item Ann=wand/fireball=5
      +item Ann=potion/cure light wounds
      +item/remove Ann=2
    """

    key = "+item"
    aliases = ["+items"]
    allowed_switches = ("remove",)
    syntax = "+item [<name>] | +item <name>=<type>/<spell>[=<charges>] | +item/remove <name>=<#>"

    def run(self):
        caller = self.caller
        if self.switches:
            require_perm(caller, STAFF, "take magical items away")
            if self.rhs is None or not self.lhs.strip() or not self.rhs.strip():
                self.fail("Usage: +item/remove <name>=<#>")
                return
            number = armor.parse_number(self.rhs, "magical item")
            target = find_character(caller, self.lhs)
            item = items.remove_item(target, number)
            tell_change(caller, target, f"{target.key} no longer holds {items.describe_item(item)}.")
        elif self.rhs is not None:
            require_perm(caller, STAFF, "give magical items")
            if not self.lhs.strip() or not self.rhs.strip():
                self.fail(items.ITEM_USAGE)
                return
            spec, equals, charges = self.rhs.partition("=")
            target = find_character(caller, self.lhs)
            item = items.give_item(target, spec, charges if equals else None)
            tell_change(caller, target, f"{target.key} now holds {items.describe_item(item)}.")
        else:
            target = find_character(caller, self.args) if self.args.strip() else caller
            if target != caller:
                require_perm(caller, NARRATOR, "see other characters' magical items")
            self.msg(items.render_items(target, own=target == caller))


class CmdUse(Command):
    """
    Use a magical item in an elethril fight.

    Usage:
      use <item>[=<target>]
      use <npc>=<item>=<target>            (Storytellers)
      use <npc>=<type>/<spell>=<target>    (Storytellers: any item)

    Declares your action for the round, like attack or cast. The item's
    spell goes off once, at your initiative + the item's modifier (potion
    +4, ring and wand +3, staff +2, rod +1), first in its segment: items
    and spells discharge before instant spells, missiles and melee. There
    is no casting, so a hit cannot spoil it, and no Caster Level is needed.

    <item> is one of your own (+items, given by staff): its type, its spell
    or its number (a unique start is enough; wand/fire narrows it down). It
    needs a charge left; the charge is spent as it goes off, so if you fall
    first, or the target is gone or already dead by then, you keep it. A
    damaging spell needs a target other than you; a healing one (a potion)
    works on you unless you name someone. The Storyteller uses an NPC's
    items the same way, or gives it any item for the fight by type and
    spell (no charges are counted).

    Examples:
      use wand=Orc
      use potion
      use 2=Orc
      use wand/magic missile=Orc
      use Orc=wand=Ann
      use Zed=staff/lightning bolt=Ann
    """

    key = "use"
    aliases = ["+use"]
    syntax = "use <item>[=<target>]  (Storytellers: use <npc>=<item>=<target>)"

    def run(self):
        aimed = split_aimed(self) if self.args.strip() else None
        if aimed is None:
            self.fail_usage()
            return
        use_item(self.caller, *aimed)
