"""The aeon fight's own commands (the aeon seed): ambush, hide, clinch, +mount, +dismount,
pickup, and the +combat switches /split and /treat (``commands.systems``). Each parses its
input and hands it to the fight (``world.combat.act``): the rules are the aeon system's
actions (``rules.systems.aeon.actions``). Each docstring is the in-game help."""

from __future__ import annotations

from commands.command import Command, split_actor
from world import combat

#: The +combat switches of aeon's (``commands.systems``).
SWITCHES = ("split", "treat")


def combat_switch(command, switch: str) -> bool:
    """``+combat/split [<npc>=]<n>`` and ``+combat/treat <name>``; False for another switch."""
    caller = command.caller
    if switch == "split":
        count = command.rhs if command.rhs is not None else command.args
        if not count.strip() or (command.rhs is not None and not command.lhs.strip()):
            command.fail("Usage: +combat/split <n>  or  +combat/split <npc>=<n>")
            return True
        combat.require_action(combat.require_fight(caller), "split", "split actions")
        combat.act(caller, "split", command.lhs.strip() if command.rhs is not None else None, option=count)
        return True
    if switch == "treat":
        if not command.args.strip() or command.rhs is not None:
            command.fail("Usage: +combat/treat <name>")
            return True
        row = combat.require_fight(caller)
        combat.require_action(row, "treat", "bleeding")
        if combat.is_gm(caller, row):   # the Storyteller or staff, at any time
            combat.perform(caller, row, "treat", targets=(combat.find(row, command.args),),
                           data={"by_name": caller.key})
        else:
            combat.act(caller, "treat", None, [command.args])
        return True
    return False


class CmdAmbush(Command):
    """
    Attack by surprise (aeon).

    Usage:
      ambush <target>[/<weapon and called shots>]
      ambush <npc>=<target>[/<weapon and called shots>]   (Storytellers)

    Switches:
      /plain    attacking from plain sight: +2 difficulty on your Stealth

    Before you roll initiative, an ambush opens the fight with a free attack.
    Later, only from hiding (see help hide), on your turn, against someone who
    lost track of you. You roll Dexterity + Stealth against the target's Wits
    + Awareness (the Storyteller sets the target's readiness, -2 to +1 dice,
    with +combat/mod <target>=<n>); a tie goes to the target. Invisibility,
    camouflage and the like add to your Stealth: the Storyteller's
    +combat/mod <you>=<n> dice go on that roll. If you win, the target cannot
    dodge, block or parry. The attack itself is as 'attack'.

    Examples:
      ambush Guard/knife
      ambush/plain Guard
      ambush Sniper=Alice/rifle
    """

    key = "ambush"
    allowed_switches = ("plain",)
    syntax = "ambush <target>[/<weapon>]"

    def run(self):
        actor, rest = split_actor(self)
        target, slash, option = rest.partition("/")
        if not target.strip() or (actor is not None and not actor) or (slash and not option.strip()):
            self.fail_usage()
            return
        combat.act_own(self.caller, "ambush", "surprise attacks", actor, [target.strip()], option.strip(),
            plain="plain" in self.switches)


class CmdHide(Command):
    """
    Hide in the middle of a fight (aeon and eldritch; uses your action).

    Usage:
      hide
      hide <npc>            (Storytellers)

    Switches:
      /obscured   you are already invisible or obscured: +2 automatic successes

    Aeon: Dexterity + Stealth, +2 difficulty because the others are
    watching. If it works, everyone else rolls Wits + Awareness: those who
    succeed (1 success) keep track, the others lose track of you (the HUD
    marks you hidden) and you may 'ambush' them on a later turn. Attacking
    anyone shows where you are.

    Eldritch: Dexterity + Larceny + Stealth or Dexterity + Acrobatics +
    Sneaking (the better) against each other fighter's Perception + Notice
    + Ambushes; those you beat cannot see you, attack you, search you, catch
    your eye or find a line of sight to you, until they spot you (+spot:
    their Perception + Notice + Ambushes against your roll, once a turn) or
    you attack. Before you roll initiative it is free (once); later it is a
    movement action on your turn. /obscured is aeon's only.

    Examples:
      hide
      hide/obscured
    """

    key = "hide"
    allowed_switches = ("obscured",)
    syntax = "hide [<npc>]"

    def run(self):
        combat.act_own(self.caller, "hide", "hiding", self.args.strip() or None,
            option="obscured" if "obscured" in self.switches else "")


class CmdClinch(Command):
    """
    Fight for control of a clinch (aeon; uses your action).

    Usage:
      clinch <hold, crush, break or decline>
      clinch break <release, ground or throw>
      clinch <npc>=<choice>                   (Storytellers)
      clinch/plan <choice>                    what you do if you win on the
                                              other's turn (default hold);
                                              may be set before a clinch

    Start a clinch with: attack <target>/clinch [<choice>] (the target may
    dodge, parry or 'defend accept'; if it hits you control the first turn
    and do the choice: hold by default). Accepting, both roll for the first
    turn; the winner does its choice (the one who accepted: its plan).
    Each turn one contest settles control: both roll the better of Brawl and
    Martial Arts + the better of Dexterity and Strength, and the contest uses
    an action of each. The winner's choice:
      hold     pin the other, no damage
      crush    bashing = Strength + net successes, Armor Piercing
      break    let go (release), put them on the ground (prone), or throw
               them Strength yards (a knockdown check: Dexterity + Athletics)
    If both decline the clinch ends: the one who acts first types 'clinch
    decline', and the other must have set 'clinch/plan decline'. No dodge,
    parry or block while clinched. The Storyteller's +combat/mod dice count
    on the control rolls.

    Examples:
      attack Thug/clinch crush
      clinch crush
      clinch break throw
      clinch/plan break
      clinch Thug=hold
    """

    key = "clinch"
    allowed_switches = ("plan",)
    syntax = "clinch <hold|crush|break [release|ground|throw]|decline>"

    def run(self):
        actor, choice = split_actor(self)
        if not choice or (actor is not None and not actor):
            self.fail_usage()
            return
        combat.act_own(self.caller, "clinch_plan" if "plan" in self.switches else "clinch", "clinches", actor,
            option=choice)


class CmdMount(Command):
    """
    Ride a mount in the fight (aeon).

    Usage:
      +mount <mount>[/<control rating>]
      +mount <npc>=<mount>[/<control rating>]   (Storytellers)
      +dismount
      +dismount <npc>                           (Storytellers)

    Mounts: horse (Control Rating 2), warhorse (4), elephant (4, large).
    Mounted, your combat Abilities count no higher than your Ride. When the
    Control Rating is above your Ride, the first action of your turn each
    round is a Ride roll, Dexterity + Ride needing that many successes (one
    of your split actions; with no split you take 2: help +combat/split);
    failing loses control and the rest of the turn. Foes on foot are at +1
    difficulty to hit you hand-to-hand and you get +1 automatic success
    against them (+2 and +2 on a large mount, where hand-to-hand needs a
    reach weapon such as a spear).

    Examples:
      +mount horse
      +mount elephant/5
      +dismount
    """

    key = "+mount"
    syntax = "+mount <mount>[/<control rating>]"

    def run(self):
        actor, text = split_actor(self)
        if not text or (actor is not None and not actor):
            self.fail_usage()
            return
        combat.act_own(self.caller, "mount", "mounts", actor, option=text)


class CmdDismount(Command):
    """
    Get down from your mount (aeon).

    Usage:
      +dismount
      +dismount <npc>      (Storytellers)
    """

    key = "+dismount"
    syntax = "+dismount [<npc>]"

    def run(self):
        combat.act_own(self.caller, "dismount", "mounts", self.args.strip() or None)


class CmdPickup(Command):
    """
    Pick up a weapon lying in the fight (aeon; uses your action).

    Usage:
      pickup [<weapon or its owner>]
      pickup <npc>=[<weapon or its owner>]     (Storytellers)

    Dexterity + the weapon's Ability, 1 success needed. A disarmed weapon
    lands on the ground (the HUD lists it); anyone may go for it.

    Examples:
      pickup
      pickup knife
    """

    key = "pickup"
    aliases = ["+pickup"]
    syntax = "pickup [<weapon>]"

    def run(self):
        actor, text = split_actor(self)
        if actor is not None and not actor:
            self.fail_usage()
            return
        combat.act_own(self.caller, "pick_up", "dropped weapons", actor, option=text)
