"""The eldritch fight's own commands (the eldritch seed): +conceal, +search, +spot, +eyecontact,
+los, +move, +sacrifice, +wake, +drama. Each docstring is the in-game help."""

from __future__ import annotations

from commands.command import Command, split_acting, split_actor
from world import checks, combat
from world.text import COMBAT, escape
from world.wording import line_text

#: The +combat switches of eldritch's (``commands.systems``).
SWITCHES = ("space",)


def suffix_switch(text: str, allowed: tuple[str, ...]) -> tuple[str, str]:
    """``"sword/duffel"`` -> ("sword", "duffel") when the part after the last ``/`` is one of
    ``allowed`` (a unique prefix will do); otherwise (text, "")."""
    head, slash, tail = text.rpartition("/")
    wanted = tail.strip().casefold()
    found = [name for name in allowed if wanted and name.startswith(wanted)]
    if slash and len(found) == 1:
        return head.strip(), found[0]
    return text.strip(), ""


def wake(caller, actor_name: str | None, name: str) -> None:
    """``+wake``: a fighter's action on their turn; the fight's game master's at any time."""
    row = combat.require_fight(caller)
    combat.require_action(row, "wake", "waking")
    if actor_name or not combat.is_gm(caller, row):
        combat.act(caller, "wake", actor_name, [name])
    else:
        combat.perform(caller, row, "wake", targets=(combat.find(row, name),), data={"by_name": caller.key})


def combat_switch(command, switch: str) -> bool:
    """``+combat/space [<yards>|open[ wall]]``; False for another switch."""
    if switch != "space":
        return False
    caller = command.caller
    row = combat.require_fight(caller)
    system = combat.system_of(row)
    if not command.args.strip():
        scene = system.scene_text(combat.fights.state(row).scene)
        shown = line_text(scene, system.key, plain=True) if scene else "open, no wall at hand"
        command.msg(f"{COMBAT} Space here: {escape(shown)}.")
        return True
    combat.require_gm(caller, row, "set the space")
    combat.require_action(row, "space", "weapon space")
    combat.perform(caller, row, "space", option=command.args)
    return True


class CmdConceal(Command):
    """
    Hide weapons on you (eldritch).

    Usage:
      +conceal                       what you hide, and your concealment roll
      +conceal <weapon>[/duffel]     hide a weapon (in a duffel bag)
      +conceal <npc>=<weapon>        (Storytellers)

    Switches:
      /duffel   the weapon is in a duffel bag (or the like)
      /clear    you no longer hide anything; the next weapon rolls anew

    The first weapon you hide rolls Intelligence + Larceny once. That roll
    stands for every weapon you hide after it and against everyone who
    searches you (+search): they add the weapon's size - 4 (+3 more for a
    pat-down; in a duffel bag the weapon's size - 5 instead), and find it
    with a higher total. Drawing it (+move draw <weapon>) takes it out.
    Only you (and the scene's Storyteller) see the roll.

    Examples:
      +conceal small knife
      +conceal big sword/duffel
      +conceal/duffel shotgun
      +conceal/clear
    """

    key = "+conceal"
    allowed_switches = ("duffel", "clear")
    syntax = "+conceal <weapon>[/duffel]"

    def run(self):
        actor, text = split_actor(self)
        if actor == "":
            self.fail_usage()
            return
        if "clear" in self.switches:
            if text and actor is None and self.rhs is None:
                actor = text
            checks.clear_concealed(self.caller, actor or None)
            return
        weapon, suffix = suffix_switch(text, ("duffel",))
        if not weapon and (suffix or "duffel" in self.switches):
            self.fail_usage()
            return
        if not weapon:
            checks.show_concealed(self.caller, actor)
            return
        checks.conceal(self.caller, actor, weapon, duffel="duffel" in self.switches or suffix == "duffel")


class CmdSearch(Command):
    """
    Search someone for hidden weapons (eldritch).

    Usage:
      +search <name>[/patdown or /open]
      +search <npc>=<name>[/patdown or /open]     (Storytellers)

    Switches:
      /patdown   a pat-down: +3 to find each weapon (not one in a duffel bag)
      /open      open their duffel bag: what is in it is found, no roll

    One Perception + Larceny (or Notice, the better) roll; each weapon the
    other hides (+conceal) adds its size - 4, or size - 5 in a duffel bag,
    and is found when the total beats their concealment roll (a tie keeps it
    hidden). You see your roll and what you find; the one you search and
    the Storyteller see the whole working.

    Like their concealment, your search is rolled once: searching them
    again, or patting them down (+3), uses the same roll, until they hide
    their weapons anew. Looking someone over is no action. A pat-down or
    opening their bag lays hands on them: in a fight, once you have
    initiative, it is a movement action on your turn. You cannot search
    someone hiding from you (+spot).

    Examples:
      +search Ann
      +search Ann/patdown
      +search/open Ann
    """

    key = "+search"
    allowed_switches = ("patdown", "open")
    syntax = "+search <name>[/patdown or /open]"

    def run(self):
        actor, text = split_actor(self)
        name, suffix = suffix_switch(text, ("patdown", "open"))
        patdown = "patdown" in self.switches or suffix == "patdown"
        opened = "open" in self.switches or suffix == "open"
        if not name or actor == "":
            self.fail_usage()
            return
        if patdown and opened:
            self.fail("Pat them down or open their bag: one at a time.")
            return
        checks.search(self.caller, actor, name, patdown=patdown, opened=opened)


class CmdSpot(Command):
    """
    Look for someone hiding from you (eldritch).

    Usage:
      +spot <name>
      +spot <npc>=<name>     (Storytellers)

    The source: before you can find a line of sight to someone hiding,
    Perception rolls must be made. You roll Perception + Notice + Ambushes
    against the roll they hid with; as high or higher and you spot them:
    they are no longer hidden from you, so you can attack them, catch their
    eye, find a line of sight or search them. Looking is no action, but you
    get one try at each hider a turn (and another when they hide again).

    Examples:
      +spot Reprax
      +spot Thug=Ann
    """

    key = "+spot"
    syntax = "+spot <name>"

    def run(self):
        if (acting := split_acting(self)) is not None:
            actor, name = acting
            combat.act_own(self.caller, "spot", "spotting", actor, [name])


class CmdEyeContact(Command):
    """
    Try to catch someone's eye (eldritch; psionics and some spells need it).

    Usage:
      +eyecontact <name>[=<yards>]
      +eyecontact <npc>=<name>[=<yards>]     (Storytellers)

    Switches:
      /attention   draw their attention on purpose: your Willpower +
                   Influence against their Willpower doubled
      /impaired    they cannot make eye contact (blind, blindfolded, pitch
                   dark, in a trance, a wall between you)

    The source's checklist, in order: none when they are impaired, more
    than 20 yards away, or hidden from you (+spot them first); made when
    they attacked you in their last action (even at the end of last turn,
    with no other action of theirs since); with /attention the higher
    total makes it; otherwise a 30% chance: +roll 0 showing 1, 2 or 3.
    Not an action.

    Examples:
      +eyecontact Reprax
      +eyecontact Reprax=25
      +eyecontact/attention Reprax
    """

    key = "+eyecontact"
    aliases = ["+eye"]
    allowed_switches = ("attention", "impaired")
    syntax = "+eyecontact <name>[=<yards>]"

    def run(self):
        actor, name, yards = None, self.args.strip(), None
        if self.rhs is not None:
            if self.rhs.strip().isdigit():
                name, yards = self.lhs.strip(), self.rhs
            else:
                actor = self.lhs.strip()
                name, eq, yards_text = self.rhs.partition("=")
                name, yards = name.strip(), (yards_text if eq else None)
        if not name or actor == "" or (yards is not None and not yards.strip()):
            self.fail_usage()
            return
        checks.eye_contact(self.caller, actor, name, yards_text=yards, attention="attention" in self.switches,
                             impaired="impaired" in self.switches)


class CmdLos(Command):
    """
    Find a line of sight to someone (eldritch; some spells need it).

    Usage:
      +los <name>[/partial]
      +los <npc>=<name>[/partial]     (Storytellers)

    Switches:
      /partial   partial cover is in the way (trees, fences, vehicles,
                 windows, crowds): a 50% chance, +roll 0 showing 1 to 5
      /blocked   blank walls, full cover or great distance: no line (one
                 made before is gone too)

    The source's checklist: none to someone hidden from you (+spot them
    first); none when /blocked; made when they attacked you in their last
    action (even last turn, with no other action of theirs since), or with
    nothing in the way. Moving for a line past partial cover is a movement
    action: in a fight, on your turn, it spends one. Once made, a line of
    sight holds both ways until one of you hides or takes cover
    (+move cover).

    Examples:
      +los Reprax
      +los Reprax/partial
      +los/blocked Reprax
    """

    key = "+los"
    allowed_switches = ("partial", "blocked")
    syntax = "+los <name>[/partial]"

    def run(self):
        actor, text = split_actor(self)
        name, suffix = suffix_switch(text, ("partial", "blocked"))
        if not name or actor == "":
            self.fail_usage()
            return
        switches = set(self.switches) | ({suffix} if suffix else set())
        checks.line_of_sight(self.caller, actor, name, partial="partial" in switches,
                               blocked="blocked" in switches)


class CmdMove(Command):
    """
    Take a movement action on your turn (eldritch; it uses an action).

    Usage:
      +move draw <weapon>     put a weapon in hand (out of hiding too)
      +move stand             get up from prone
      +move release           let go of whoever you hold
      +move cover [...]       take cover: every line of sight made with
                              you is gone (+los must find it again)
      +move <run, climb, leap, swing, catch, crawl, transform or go> [...]
      +move <npc>=<move>      (Storytellers)

    A movement action is any physical action that is neither an attack nor
    a defense. It counts against your actions this turn like an attack (at
    most 5), and a later action of the turn rolls at -2 for each before it.
    Travel with a distance (+move <run, go or crawl> <yards> [...]) is an
    action only at half your Yards/Turn or more ((Constitution + Dexterity)
    x 2); shorter, it uses none. Without a distance it is an action. Moving up to
    one whirling a sword (+move run to <name>) draws their whirl first.

    Examples:
      +move draw 9mm
      +move stand
      +move run 3 yards to the door
      +move Thug=release
    """

    key = "+move"
    syntax = "+move <draw <weapon>, stand, release, run ...>"

    def run(self):
        if (acting := split_acting(self)) is not None:
            checks.move(self.caller, *acting)


class CmdSacrifice(Command):
    """
    Throw yourself in the way of an attack on someone else (eldritch
    advanced maneuver Sacrifice; it must be bought).

    Usage:
      +sacrifice <name>
      +sacrifice <npc>=<name>     (Storytellers)

    Answer the attack waiting on <name> for them: you need a higher
    initiative than the attacker this turn. You roll a parry (Dexterity +
    Melee, a weapon in hand) or, against a thrown or launched weapon,
    your Ranged Deflection, at -3, at -2 for each action and each defense
    you made earlier this turn. Never against bullets. More Success
    Levels than the attack: you parry it for them. A success that is not
    more: you take the hit with all the attack's Success Levels. A
    failure: they must still defend. It counts as one of your defenses.

    Examples:
      +sacrifice Ann
      +sacrifice Guard=Boss
    """

    key = "+sacrifice"
    syntax = "+sacrifice <name>"

    def run(self):
        if (acting := split_acting(self)) is not None:
            actor, name = acting
            combat.act_own(self.caller, "sacrifice", "Sacrifice", actor, [name])


class CmdWake(Command):
    """
    Bring round someone out cold (eldritch: medical attention, smelling
    salts).

    Usage:
      +wake <name>
      +wake <npc>=<name>     (Storytellers, for an NPC's action)

    A fighter does it on their turn, spending an action; the scene's
    Storyteller may do it at any time. Being attacked also wakes them.

    Examples:
      +wake Vic
    """

    key = "+wake"
    syntax = "+wake <name>"

    def run(self):
        if (acting := split_acting(self)) is not None:
            wake(self.caller, *acting)


class CmdDrama(Command):
    """
    Spend a Drama Point on your next defense (eldritch).

    Usage:
      +drama
      +drama <npc>     (Storytellers)

    A Damaging Block against someone wielding a weapon costs a Drama Point:
    spend it first, then defend damaging-block. Fray does not count your
    Drama Points; the Storyteller does.

    Examples:
      +drama
      +drama Boss
    """

    key = "+drama"
    syntax = "+drama [<npc>]"

    def run(self):
        if self.rhs is not None:
            self.fail_usage()
            return
        combat.act_own(self.caller, "drama", "Drama Points", self.args.strip() or None)
