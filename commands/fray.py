"""Fray's commands. Each docstring is the in-game help (Usage / Switches / Examples)."""

from __future__ import annotations

from evennia.utils.utils import inherits_from

from commands import systems
from commands.command import Command, split_acting, split_actor, split_aimed
from rules.lines import Line
from rules.systems import CombatError, system_keys
from rules.text import quote
from world import ai as npc_ai
from world import chargen, combat, combat_order, dice, fights, gmcp, narration, rolls, sheets
from world.access import NARRATOR, STAFF, require_perm
from world.hud import render_hud
from world.text import COMBAT, escape, literal, table
from world.verify import verify as verify_dice
from world.wording import line_text

CHARACTER_TYPECLASS = "typeclasses.characters.Character"


def find_character(caller, name: str):
    """A character (PC or NPC) by name: this room first, then the whole game. Raises CombatError."""
    name = name.strip()
    if not name:
        raise CombatError("Name a character.")
    for scope in ({"candidates": caller.location.contents if caller.location else []}, {"global_search": True}):
        found = [obj for obj in caller.search(name, quiet=True, **scope) or []
                 if inherits_from(obj, CHARACTER_TYPECLASS)]
        if len(found) == 1:
            return found[0]
        if found:
            raise CombatError(f"'{quote(name)}' could be: {', '.join(obj.key for obj in found)}.")
    raise CombatError(f"No character '{quote(name)}'.")


#: ``+roll``'s usage and example by the rule system played where the caller is, then
#: ``+roll/odds``'s: (what follows ``+roll``, example, what follows ``+roll/odds``, example).
#: Eldritch has no 'vs'; elethril's odds take a bonus and an Armor Class.
ROLL_USAGE = {
    "storyteller": ("<pool>[ vs <difficulty>]", "Dexterity+Brawl vs 6",
                    "<pool>[ vs <difficulty>]", "Dexterity+Brawl vs 6"),
    "aeon": ("<pool>[ vs <successes needed>]", "Dexterity+Brawl vs 2",
             "<pool>[ vs <successes needed>]", "Dexterity+Brawl vs 2"),
    "eldritch": ("<pool>", "Dexterity+Brawl", "<pool>", "Dexterity+Brawl"),
    "elethril": ("<dice and traits>[ vs <total>]", "1d20+2 vs 15", "<bonus>[ vs <Armor Class>]", "0 vs 5"),
}


class CmdRoll(Command):
    """
    Roll dice from your sheet.

    Usage:
      +roll <pool>[ vs <difficulty>]
      +roll <npc>=<pool>[ vs <difficulty>]     (Storytellers, for NPCs)

    Switches:
      /private   only you and the scene's Storyteller see the roll
      /odds      the exact chances of this roll, only for you (nothing rolled)
      /wp        spend Willpower: one automatic success (storyteller, aeon)

    The pool is traits and numbers joined by + (numbers may be subtracted);
    trait names match case-insensitively and by unique prefix. What the roll
    means follows the fight's rule system (or the game's default).

    Examples:
      +roll Dexterity+Brawl vs 6
      +roll dex+brawl-2
      +roll 5 vs 7
      +roll/private Wits+Alertness
      +roll/odds Dexterity+Brawl vs 7
      +roll Guard=Dex+Dodge

    # subtopics

    ## odds
    +roll/odds <pool>[ vs <n>] computes (never simulates) the chances of
    that roll and shows them only to you: storyteller, botch, failure
    and at least 1, 2, 3 ... net successes (with /wp too); aeon, botch,
    failure and reaching the successes needed; eldritch, each Success
    Level band of d10 + the pool; elethril, your weapon's chance to hit
    each Armor Class (or the one after vs), with the bonus given.
      +roll/odds/wp Dex+Brawl vs 7

    """

    key = "+roll"
    allowed_switches = ("private", "wp", "odds")
    max_switches = 2
    syntax = "+roll <pool>[ vs <difficulty>]"

    def fail_usage(self):
        """The usage, with an example, of the system played here (``ROLL_USAGE``)."""
        try:
            key = combat.system_here(self.caller).key
        except CombatError:   # a fight whose system is gone from the game
            key = ""
        if key not in ROLL_USAGE:
            return super().fail_usage()
        odds = "odds" in self.switches
        form, example = ROLL_USAGE[key][2:] if odds else ROLL_USAGE[key][:2]
        command = "+roll/odds" if odds else "+roll"
        self.fail(f"Usage: {command} {form}  e.g. {command} {example}")

    def run(self):
        if (acting := split_acting(self)) is None:
            return
        if "odds" in self.switches:
            self.msg(rolls.odds(self.caller, *acting, willpower="wp" in self.switches))
            return
        rolls.roll(self.caller, *acting, private="private" in self.switches, willpower="wp" in self.switches)


class CmdSheet(Command):
    """
    Show a character sheet.

    Usage:
      +sheet
      +sheet <name>      (Storytellers and staff)
      +sheet/<system> [<name>]

    A character has one sheet per rule system: its traits, creature kind
    and the weapon in hand. +sheet shows the sheet of the system of the
    fight you are in (or the game's default), with its health and the
    health kept under the other systems; /<system> shows that system's
    (storyteller, aeon, eldritch or elethril).

    Examples:
      +sheet
      +sheet/elethril Alice

    # subtopics

    """

    key = "+sheet"
    syntax = "+sheet[/<system>] [<name>]"
    allowed_switches = tuple(system_keys())

    def run(self):
        caller = self.caller
        target = caller
        name = self.args.strip()
        if name.startswith("/"):  # +sheet/ : a switch with no name
            self.fail_usage()
            return
        if name:
            if name.casefold() not in (caller.key.casefold(), "me", "self"):
                # checked before the search, which would name the characters it matches
                require_perm(caller, NARRATOR, "see other characters' sheets")
            target = find_character(caller, name)
            if target != caller:
                require_perm(caller, NARRATOR, "see other characters' sheets")
        self.msg(sheets.render_sheet(target, self.sheet_system()))


class CmdStat(Command):
    """
    Set or clear sheet traits (staff).

    Usage:
      +stat[/<system>] <name>/<trait>=<value>
      +stat[/<system>] <name>=<trait> <value>[, <trait> <value>...]
      +stat <name>/<trait>=            (clears the trait)
      +stat <name>/kind=<kind>         (see your system's part below)
      +stat <name>/weapon=<weapon>     (weapon or shield in hand; empty: none)

    A character has one sheet per rule system. +stat changes the sheet of
    the system of the fight in your room (or the game's default); a switch
    names another: /storyteller, /aeon, /eldritch or /elethril. Only that
    system's traits, kinds and weapons are taken.

    Ratings are whole numbers in the trait's range (mostly 0-20). Trait
    names match case-insensitively and by unique prefix; an ambiguous
    prefix lists the candidates.

    After <name>= a comma-separated list sets several: traits and their
    ratings, kind, weapon ... and their values. One refused (an unknown
    trait, a rating out of range) refuses them all; nothing changes.
    Changes to an approved sheet are logged: +chargen/log <name>.

    Examples:
      +stat Alice/Dexterity=3
      +stat Alice=Dex 3, Brawl 2, Strength 2
      +stat/elethril Alice=THAC0 17, Armor Class -2, weapon long sword

    # subtopics

    """

    key = "+stat"
    locks = "cmd:all();view:perm(Builder);read:perm(Builder)"
    syntax = "+stat[/<system>] <name>/<trait>=<value> or <name>=<trait> <value>[, <trait> <value>...]"
    allowed_switches = tuple(system_keys())

    def run(self):
        require_perm(self.caller, STAFF, "set stats")
        system = self.sheet_system()
        if self.rhs is not None and "/" not in self.lhs and self.lhs.strip():
            target = find_character(self.caller, self.lhs)
            changes = sheets.parse_changes(self.rhs, system, "+stat <name>=<trait> <value>, ...")
            before = sheets.sheet_of(target, system)
            lines = sheets.set_stats(target, changes, system)
        else:
            parsed = self.name_and_field()
            if parsed is None:
                return
            name, field = parsed
            target = find_character(self.caller, name)
            before = sheets.sheet_of(target, system)
            lines = [sheets.set_stat(target, field, self.rhs, system)]
        # an approved sheet's changes are logged: who, when, old -> new
        chargen.staff_edits(self.caller, target, system, before, sheets.sheet_of(target, system))
        tell_change(self.caller, target, lines)
        fights.afterwards(lambda: gmcp.refresh(target))  # a trait may change the health meter


class CmdCombat(Command):
    """
    Run or take part in a fight (then help attack, help defend).

    Usage:
      +combat                      show the fight in this room (the HUD)
      +combat/join                 join the fight
      +combat/leave                leave the fight
      +combat/init                 roll your initiative
      +combat/start [<system>] [duel] [lethal]  start a fight here (ST)
      +combat/next [<turn>]        pass the waiting turn; next round (ST)
      +combat/resolve              resolve attacks left undefended (ST)
      +combat/diff <name>=<+/-n>   their next difficulty; /mod: dice (ST)
      +combat/add <name>[,<name>]  bring characters or NPCs in (ST)
      +combat/remove <name>        take a fighter out, attacks cancelled (ST)
      +combat/idle <name>          mark a fighter idle, or back (ST)
      +combat/reveal <name>        a hider is seen by all again (ST)
      +combat/kill <name>          a dying PC dies; /spare, /lethal (ST)
      +combat/transfer <player>    hand the scene to another Narrator (ST)
      +combat/order [<name>=<n>]   this round's order; /poses: who posed
      +combat/log [<page>]         the roll log: every roll, its inputs (ST)
      +combat/list                 every fight running in the game (staff)
      +combat/verify [<fight>]     check a fight's dice against its seed
      +combat/end                  end the fight with a summary (ST)

    # subtopics

    ## split
    +combat/split <n>   or   +combat/split <npc>=<n>   (aeon; ST for NPCs)
    Declare n actions this round (2 to 10; 1 takes the split back), before
    your first action of the round, defenses included. Each action's pool
    loses dice: the first n, each later one 1 more (3 actions: -3, -4,
    -5); an action left with no die is refused. Your turn lasts until you
    have used them (the ST's +combat/next passes the rest); those left
    over may still dodge, block or parry this round. In a clinch, once
    you have contested control, the others may attack. A Ride roll is one
    of them; a rider who declared none is counted as taking 2.
      +combat/split 2

    ## treat
    +combat/treat <name>   (aeon)
    Stops a bleeding wound: the ST any time, or you on your turn (it uses
    your action).

    ## space
    +combat/space <yards>[ wall]   (eldritch; Storytellers)
    The room to swing weapons here, and whether a wall is at hand for Wall
    Flip; 'open' for no limit; alone, it shows the setting.
      +combat/space 3 wall

    ## side
    +combat/side <names>=<side>   (Storytellers)
    Puts fighters on a side; an empty side clears. NPCs run by the AI
    attack only fighters of another side; with no sides set, player
    characters and NPCs are the two sides. Elethril: round 1 rolls one
    d10 per side: the lowest becomes 1, the others the difference + 1
    (surprised, that difference behind).
      +combat/side Alice,Guard=town

    ## reveal
    +combat/reveal <name>   (Storytellers)
    Something clearly shows where a hiding fighter is (they knock a vase
    over, a flare goes up): everyone who lost track of them sees them
    again and may attack them. A hider's own attack reveals them anyway.
      +combat/reveal Alice

    ## ai
    +combat/ai <npc>[,<npc>...][=on or off]   (Storytellers)
    Hands NPCs (or all: every NPC in the fight) to the AI (on, the
    default) or takes them back (off). An AI NPC rolls its own
    initiative and waits for a player character in the fight (or sides)
    and for every initiative. On its turn it attacks a fighter of
    another side (+combat/side) it can attack, the most hurt first but
    never the helpless (down, dying or idle) unless +combat/helpless is
    on, with the attack of most harm to expect: its exact chance to hit
    times its damage, lethal twice bashing (storyteller: an attack spell
    it casts reliably, if better). Held, it tries to escape; in a
    clinch, it contests to crush. It answers an attack with its largest
    defense pool; where a defense costs its action (storyteller, aeon),
    only once half hurt. With no enemy it passes. Elethril: it declares
    an attack with the weapon in hand. It never starts the next round;
    switch it off to act for it yourself. Removed from the fight, it is
    the ST's again. HUD: (AI).
      +combat/ai Guard,Thug=on
      +combat/ai all=off

    ## party
    +combat/party <names>=<party>[/slowest]   (elethril; Storytellers)
    From round 2 they roll one d10 together, with their own or (/slowest)
    the slowest member's modifiers.
      +combat/party Thaxi,Zaxi=nag/slowest

    ## offhand
    +combat/offhand <names>=<weapon>   (elethril; Storytellers)
    The off-hand weapon they may fight with this fight; empty clears.

    ## delay
    +combat/delay <segment>   (elethril)
    Hold your action to a later segment of the round.
      +combat/delay 6

    ## forfeit
    +combat/forfeit   (elethril)
    Give up an action carried over from an earlier round to declare anew,
    at +1 initiative.

    ## init
    +combat/init
    Roll your initiative. Elethril: +combat/init <modifier>[,<modifier>...]
    sets your standard initiative modifiers (hasted, slowed, higher-ground,
    set-vs-charge, wading ...; none clears).
      +combat/init hasted,higher-ground

    ## next
    +combat/next [<turn>]   (Storytellers)
    Those still to act in the current turn pass (a pass is no action);
    after the last, the next round begins (elethril: the next segment).
    Refused while attacks wait for defenses (+combat/resolve) or while
    someone able has not rolled initiative (+combat/idle leaves them
    out). Your HUD shows the turn's number: with it, a press meant for
    a turn that is already over passes nothing and names whose turn it
    is now, however many commands arrive around it. Without it, a press
    sent before the turn moved on is refused the same way.
      +combat/next 12

    ## start
    +combat/start [<system>] [duel] [lethal]   (Narrators)
    Starts a fight here under <system>'s rules (the game's default when
    none is named). Storyteller: add duel for a formal duel, marked on the
    HUD, where brawl attacks (punch, kick, grapple, hold, tackle) are
    refused. Add lethal for a fight where player characters die as the
    rules say (help +combat/lethal).
      +combat/start storyteller duel
      +combat/start eldritch lethal

    ## kill
    +combat/kill <name>   (Storytellers)
    A player character the rules would have killed is dying, not dead:
    they keep the health nearest death that is not (storyteller and
    aeon: a full track, knocked out in aeon; eldritch and elethril: one
    point above dead) and the HUD marks them DYING. This lets the
    deadly damage stand: they die, and the room is told you allowed it.
    NPCs die as the rules say, with no decision.
      +combat/kill Alice

    ## spare
    +combat/spare <name>   (Storytellers)
    A dying player character lives, at death's door (help +combat/kill).
    Ending the fight spares anyone still dying.
      +combat/spare Alice

    ## lethal
    +combat/lethal [on or off]   (Storytellers)
    On: player characters die as the rules say, with no decision, and
    each death names you as the one who allowed it. Off (the default):
    a player character the rules would kill is left dying for you to
    decide (help +combat/kill). Those already dying still wait for
    /kill or /spare.
      +combat/lethal on

    ## timeout
    +combat/timeout <seconds> or off   (Storytellers)
    How long an attack waits for its target's defense (10 to 3600
    seconds): unanswered that long, it resolves with no defense and the
    room is told. Off (the default): it waits for the answer or
    +combat/resolve. The HUD's Turn names whose defense the fight waits
    for. After a Server restart each wait begins anew.
      +combat/timeout 120

    ## poses
    +combat/poses
    Who in the fight has posed (a say, pose or emit here) since the round
    began and who has not, then the room's pose order: who posed longest
    ago (or never) first. The Storyteller's HUD marks those still to
    pose "no pose".

    ## nudge
    +combat/nudge   (Storytellers)
    Reminds each player character who has not posed since the round
    began that you wait for their pose.

    ## posewait
    +combat/posewait [on or off]   (Storytellers)
    On: a round does not end (+combat/next passes nothing at its last
    turn) until every player character in the fight able to act, and not
    idle, has posed since the round began; turns before it pass as ever.
    Off (the default): it moves on regardless. Elethril: not used.
      +combat/posewait on

    ## helpless
    +combat/helpless [on or off]   (Storytellers)
    On: NPCs run by the AI may attack the helpless (the incapacitated,
    the dying, the idle and link-dead), after everyone able. Off (the
    default): they leave them alone.
      +combat/helpless on

    ## log
    +combat/log [<page>]
    The fight's roll log, for its Storyteller and staff: every roll with
    its inputs (pool, difficulty, modifiers and where they came from) and
    its dice, numbered in the order made. It opens on the newest page;
    give a page number for older entries.

    ## verify
    +combat/verify [<fight>]
    Every fight commits to a secret dice seed when it starts: its SHA-256
    is shown then, with the fight's number. Every die of the fight is
    drawn from that seed and a counter, and the seed is revealed when the
    fight ends. This replays every die in the roll log from the seed: each
    is confirmed, or the entry that does not match is named. Alone: the
    fight here (running: its commitment only), else the last one ended
    here. Anyone may verify. Forced test dice are counted, not checked.
      +combat/verify 12

    ## diff
    +combat/diff <name>=<+/-n>   (Storytellers)
    Moves the difficulty of <name>'s next attack by n, for range, cover,
    darkness and the like; the attack uses it up, and 0 clears it. The
    roll log names it as the Storyteller's. Storyteller: a dodge, block
    or parry is starred too; whichever comes first uses it up.
      +combat/diff Alice=+2

    ## order
    +combat/order [<name>=<place>]   (moving: Storytellers)
    +combat/order <name>=before <other>   or   =after <other>
    Alone, this round's acting order. With a name, the Storyteller moves
    that fighter to a place (1 = first) for this round only; the next
    round goes by initiative again. Only one still to act moves, and only
    among the places still to come; put at the current place, they act
    now. Those tied with them stay together. Eldritch: their next action
    moves, never past their following one. Elethril: refused (its
    segments decide). Logged, told to the room and shown on the HUD.
      +combat/order Guard=1
      +combat/order Guard=after Alice

    ## mod
    +combat/mod <name>=<+/-n>[ keep]   (Storytellers)
    Adds n dice to <name>'s next roll (attack, defense or +roll), or takes
    them away; with keep, to every roll until cleared with 0.
      +combat/mod Guard=-2 keep
    """

    key = "+combat"
    allowed_switches = ("start", "join", "leave", "init", "next", "resolve", "diff", "mod", "add", "remove",
                        "idle", "transfer", "log", "list", "end", "verify", "order", "ai", "side", "reveal",
                        "kill", "spare", "lethal", "helpless", "timeout", "poses", "nudge", "posewait",
                        *systems.SWITCHES)
    syntax = "+combat[/<switch>] -- see help +combat"

    def run(self):
        caller = self.caller
        switch = self.switches[0] if self.switches else ""
        if systems.combat_switch(self, switch):
            return
        if switch in ("diff", "mod"):
            if not self.lhs.strip() or not self.rhs:
                self.fail(f"Usage: +combat/{switch} <name>=<+/-n>")
                return
            change = combat.adjust_difficulty if switch == "diff" else combat.set_dice_mod
            change(caller, self.lhs, self.rhs)
            return
        with_name = {"add": combat.add_named, "remove": combat.remove_named, "idle": combat.toggle_idle,
                     "transfer": combat.transfer, "reveal": combat.reveal, "kill": combat.kill,
                     "spare": combat.spare}
        if switch in with_name:
            if not self.args.strip() or self.rhs is not None:
                self.fail(f"Usage: +combat/{switch} <name>")
                return
            with_name[switch](caller, self.args)
            return
        if switch == "log":
            self.msg(combat.render_log(caller, self.args))
            return
        if switch == "side":
            if self.rhs is None:
                self.fail("Usage: +combat/side <name>[,<name>...]=<side>")
                return
            combat.set_side(caller, self.lhs, self.rhs)
            return
        if switch == "ai":
            if not self.lhs.strip() or (self.rhs is not None and not self.rhs.strip()):
                self.fail(npc_ai.USAGE)
                return
            npc_ai.set_ai(caller, self.lhs, self.rhs)
            return
        if switch == "order":
            if self.rhs is None and not self.args.strip():
                self.msg(combat_order.render_order(caller))
            elif not self.lhs.strip() or not (self.rhs or "").strip():
                self.fail("Usage: +combat/order <name>=<place>, or =before <name>, or =after <name>.")
            else:
                combat_order.set_order(caller, self.lhs, self.rhs)
            return
        if switch == "verify":
            self.msg(verify_dice(caller, self.args))
            return
        if switch in ("lethal", "helpless", "timeout", "posewait"):
            combat.set_setting(caller, switch, self.args)
            return
        turn = None
        if switch == "next" and self.args.strip():
            text = self.args.strip().lstrip("#")
            if not (text.isascii() and text.isdigit() and len(text) < 10):
                self.fail("Usage: +combat/next [<turn>] (the turn number on your HUD, e.g. +combat/next 12)")
                return
            turn = int(text)
        elif switch != "start" and self.args.strip():
            self.fail_usage()
            return
        if switch == "list":
            self.msg(combat.render_list(caller))
            return
        if switch == "poses":
            self.msg("\n".join(literal(line) for line in combat.poses_text(caller).split("\n")))
            return
        if switch == "nudge":
            self.msg(f"{COMBAT} Nudged for a pose: {escape(', '.join(combat.nudge(caller)))}.")
            return
        if switch == "start":
            words = self.args.split()
            flags = {word.lower() for word in words if word.lower() in ("duel", "lethal")}
            words = [word for word in words if word.lower() not in flags]
            if len(words) > 1:
                self.fail("Usage: +combat/start [<system>] [duel] [lethal]")
                return
            row = combat.start(caller, words[0] if words else None, duel="duel" in flags, lethal="lethal" in flags)
            fights.afterwards(lambda: self.msg(render_hud(row, caller)))
        elif switch == "next":
            combat.next_turn(caller, sent_at=getattr(self, "received", None), turn=turn)
        elif switch:
            {"join": combat.join, "leave": combat.leave, "init": combat.roll_initiative,
             "resolve": combat.resolve_all, "end": combat.end}[switch](caller)
        else:
            self.msg(render_hud(combat.require_fight(caller), caller))


class CmdAttack(Command):
    """
    Attack someone in the fight: on your turn, or (elethril) declared for
    the round.

    Usage:
      attack <target>[/<maneuver or weapon>]
      attack <npc>=<target>[/<maneuver or weapon>]   (Storytellers)

    The weapon in hand is the default (staff set it with +stat
    <name>/weapon=). Storyteller, aeon and eldritch: the target may defend
    (help defend) before damage is rolled; elethril has no defense but
    Armor Class.

    Examples:
      attack Guard
      attack Guard=Alice

    # subtopics

    """

    key = "attack"
    aliases = ["att", "+attack"]
    syntax = "attack <target>[/<maneuver or weapon>]"

    def run(self):
        actor, rest = split_actor(self)
        target, slash, option = rest.partition("/")
        if not target.strip() or (actor is not None and not actor):
            self.fail_usage()
            return
        if slash and not option.strip():
            self.fail("Name a maneuver or weapon after '/', e.g. attack Guard/kick.")
            return
        if "," in target:
            names = [name.strip() for name in target.split(",")]
            if not all(names):
                self.fail("Name each target once, e.g. attack Thug,Guard/double jump kick.")
                return
            combat.act_own(self.caller, "attack_many", "attacks on several targets", actor, names, option.strip())
            return
        combat.attack(self.caller, actor, target, option.strip())


class CmdDefend(Command):
    """
    Answer an attack waiting on you.

    Usage:
      defend <dodge, block, parry, accept or none>
      dodge, block or parry
      defend <npc>=<dodge, block, parry or none>   (Storytellers)
      dodge <npc>, block <npc> or parry <npc>      (Storytellers)

    'defend none' takes the attack as it is.

    Examples:
      dodge
      defend parry
      defend Guard=dodge

    # subtopics

    """

    key = "defend"
    aliases = ["dodge", "block", "parry", "+defend"]
    syntax = "defend <dodge|block|parry|none>"

    def run(self):
        verb = self.cmdstring.lstrip("+").lower()
        if verb in ("dodge", "block", "parry"):
            if self.rhs is not None:
                self.fail_usage()
                return
            actor, kind = (self.args.strip() or None), verb
        else:
            actor, kind = split_actor(self)
            if not kind or (actor is not None and not actor):
                self.fail_usage()
                return
        combat.defend(self.caller, actor, kind)


class CmdCast(Command):
    """
    Cast a spell (storyteller and elethril magic).

    Usage:
      +cast <spell>                     no target, or a shield on yourself
      +cast <spell>=<target>            an attack spell
      +cast <spell>=<name>[,<name>...]  a shield protecting others too
      +cast <npc>=<spell>[=<targets>]   (Storytellers, for NPCs)
      +spells                           the spell list

    Switches:
      /damage   Special Effect successes on damage, not the hit (storyteller)

    In a fight, casting uses your turn.

    # subtopics

    """

    key = "+cast"
    allowed_switches = ("damage",)
    syntax = "+cast <spell>[=<target>[,<target>...]]"

    def run(self):
        if not self.args.strip():
            self.fail_usage()
            return
        aimed = split_aimed(self)
        if aimed is None:
            if not systems.cast_usage(self):
                self.fail_usage()
            return
        actor, spell, names = aimed
        if systems.cast(self, actor, spell, names):
            return
        combat.cast(self.caller, actor, spell, names, se_to_damage="damage" in self.switches)


class CmdSpells(Command):
    """
    List the spells of the rule system in use here.

    Usage:
      +spells

    Staff edit the lists in rules/data/ (help +spells/<system>).

    # subtopics

    """

    key = "+spells"
    syntax = "+spells"

    def run(self):
        if systems.spells(self):
            return
        spellbook = combat.spells_of(combat.system_here(self.caller))
        rows = []
        for spell in spellbook.spells.values():
            damage = (spell.damage_type + ("*" if spell.fire else "")) if spell.kind == "attack" else ""
            rows.append((spell.key, spell.name, f"{spell.level} ({spell.required})", spell.kind, damage))
        shown = table(("Spell", "Incantation", "Level (Power)", "Kind", "Damage"), (20, 18, 18, 8), rows)
        self.msg(f"{shown}\n* fire: Vampires cannot soak it.")


class CmdEscape(Command):
    """
    Try to break free of a grapple or hold (uses your action).

    Usage:
      escape
      escape <npc>     (Storytellers)

    Contested Strength + Brawl against the one holding you.
    """

    key = "escape"
    syntax = "escape"

    def run(self):
        combat.escape_hold(self.caller, self.args.strip() or None)


def tell_change(caller, target, lines) -> None:
    """Show a staff change (a line or a ``Line``, or several in one reply) to the one who made
    it and to the character's player (a health in words for a screen reader)."""
    lines = [lines] if isinstance(lines, (str, Line)) else lines

    def said(spoken: bool, by: str = "") -> str:
        return "\n".join(f"{COMBAT} {line_text(line, spoken=spoken)}{by}" for line in lines)

    narration.deliver(caller, said)
    if target != caller and target.has_account:
        narration.deliver(target, lambda spoken: said(spoken, f" (by {escape(caller.key)})"))


class HealthCommand(Command):
    """Base of +damage and +heal: ``<name>=<levels> <type>`` (``+heal`` also ``=all``)."""

    heal = False
    locks = "cmd:all();view:perm(Builder);read:perm(Builder)"

    def run(self):
        require_perm(self.caller, STAFF, "heal" if self.heal else "deal damage directly")
        parts = (self.rhs or "").split()
        heal_all = self.heal and [p.lower() for p in parts] == ["all"]
        if not self.lhs.strip() or not (len(parts) == 2 or heal_all):
            self.fail_usage()
            return
        target = find_character(self.caller, self.lhs)
        amount, damage_type = (None, None) if heal_all else (sheets.parse_rating(parts[0], "The amount", 0, sheets.MAX_AMOUNT), parts[1])
        systems_now = [combat.system_here(target)]
        if heal_all and combat.fight_here(target) is None:
            systems_now = sheets.systems_with_health(target) or systems_now  # out of a fight: every system's wounds
        for system in systems_now:
            line, after = sheets.change_health(target, system, amount, damage_type, heal=self.heal,
                                               named=len(systems_now) > 1)
            sheets.store_health(target, system, after.to_record())
            fights.sync(target)   # the fight it is in (its health event), if any
            fights.afterwards(lambda: gmcp.refresh(target))
            tell_change(self.caller, target, line)


class CmdDamage(HealthCommand):
    """
    Deal damage directly (staff), showing the working.

    Usage:
      +damage <name>=<levels> <bashing, lethal or aggravated>
      +damage <name>=<points> <bash or lethal>    (eldritch Life Points)
      +damage <name>=<points> hp                  (elethril hit points)

    No soak is rolled: this is the Storyteller's fiat. Uses the fight's
    rule system where the character is (or the game's default).

    Example:
      +damage Alice=2 lethal
    """

    key = "+damage"
    syntax = "+damage <name>=<amount> <damage type>"


class CmdHeal(HealthCommand):
    """
    Heal damage (staff), showing the working.

    Usage:
      +heal <name>=<levels> <bashing, lethal or aggravated>
      +heal <name>=<points> <bash or lethal>      (eldritch Life Points)
      +heal <name>=<points> hp                    (elethril hit points)
      +heal <name>=all

    Uses the rule system of the fight where the character is (or the game's
    default). Out of a fight, +heal <name>=all heals the wounds of every
    system; +sheet lists each system's health.

    Example:
      +heal Alice=1 bashing
      +heal Alice=all
    """

    key = "+heal"
    heal = True
    syntax = "+heal <name>=<levels> <type> | +heal <name>=all"


class CmdDice(Command):
    """
    Force die faces for tests (Developers; only with FRAY_TEST_DICE=1).

    Usage:
      @dice                        show the queue
      @dice/force <face>[,<face>...]   queue faces for the next rolls
      @dice/clear                  empty the queue
      @dice/crash                  the next command that changes a fight
                                   kills the Server before its commit (a
                                   crash test: the fight must come back
                                   as it was before that command)

    Only exists when the server was started with FRAY_TEST_DICE=1.

    Example:
      @dice/force 8,7,3
    """

    key = "@dice"
    locks = "cmd:perm(Developer);view:perm(Developer);read:perm(Developer)"
    allowed_switches = ("force", "clear", "crash")
    syntax = "@dice/force <face>[,<face>...] | @dice/clear | @dice/crash"

    def run(self):
        dice.require_test_dice()
        if "force" in self.switches:
            texts = [t.strip() for t in self.args.replace(" ", ",").split(",") if t.strip()]
            if not texts or not all(t.isascii() and t.isdigit() and len(t) <= 4 and 1 <= int(t) <= 1000
                                    for t in texts):
                self.fail("Faces are whole numbers 1-1000, e.g. @dice/force 8,7,3")
                return
            queue = dice.force([int(t) for t in texts])
        elif "clear" in self.switches:
            dice.clear()
            queue = []
        elif "crash" in self.switches:
            dice.arm_crash()
            self.msg("The next command that changes a fight kills the Server before its commit.")
            return
        else:
            queue = dice.forced_faces()
        self.msg(f"Forced dice queue: {', '.join(map(str, queue)) or 'empty'}")
