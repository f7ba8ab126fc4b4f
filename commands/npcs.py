"""Storyteller commands for NPCs (``+npc``). Each docstring is the in-game help."""

from __future__ import annotations

from commands.command import Command
from rules.systems import system_keys
from world import combat, fights, npcs, sheets
from world.access import NARRATOR, require_perm
from world.text import COMBAT, escape

USAGE = {
    "init": "+npc/init <name>=<wits>+<dex>",
    "create": "+npc/create <name>[*<copies>][=<template>]",
    "set": "+npc/set <name>/<trait>=<value> or <name>=<trait> <value>[, <trait> <value>...]",
    "sheet": "+npc/sheet <name>",
    "list": "+npc/list",
    "remove": "+npc/remove <name>",
    "clear": "+npc/clear[/<system>] <name>",
    "templates": "+npc/templates",
}


class CmdNpc(Command):
    """
    Storyteller tools for NPCs (Narrators and staff).

    Usage:
      +npc/create <name>[=<template>]     make an NPC here (from a template)
      +npc/create <name>*<n>[=<template>] make n numbered copies: <name> 1 ...
      +npc/set <name>/<trait>=<value>     set (empty value: clear) a trait;
                                          also /kind=, /base_kind=,
                                          /transformed=, /weapon=
      +npc/set <name>=<trait> <n>, ...    set several at once (all or none)
      +npc/sheet <name>                   show an NPC's sheet
      +npc/list                           the NPCs here: kind, sheet, health
      +npc/remove <name>                  take it out of any fight and delete it
      +npc/clear <name>                   empty its sheet (of one system)
      +npc/templates                      the templates of this game's rules
      +npc/init <name>=<wits>+<dex>       put an NPC into this fight's initiative
      +npc/init <name>                    ... with its own sheet
      +npc/init all                       ... every NPC here with a sheet

    Act for an NPC with the <npc>= prefix: attack Guard=Alice, defend Guard=dodge,
    +roll Guard=Dex+Dodge. A sheet per rule system: the fight's (or the default)
    system's, or name one: +npc/create/elethril Orc=orc.

    Examples:
      +npc/create Guard=guard
      +npc/create Thug*3=thug
      +npc/set Thug 1=Strength 4, Brawl 3, weapon dagger
      +npc/init all
      +npc/init Rat=1+3

    # subtopics

    ## create
    +npc/create <name>[=<template>]
    +npc/create <name>*<n>[=<template>]
    Makes an NPC in your room; with a template it gets the template's
    traits, kind and weapon, otherwise an empty sheet to fill with /set.
    <name>*<n> makes n copies numbered on from the highest already here
    (Thug 1, Thug 2 ...; then Thug 3 ...). A name already used here is
    refused, and so is a look-alike of one (GUARD, Gu-ard, 6uard for
    Guard; Thug l for Thug 1). A light NPC (one made by /init with only
    Wits and Dexterity) takes a template later with
    +npc/create <name>=<template>, keeping its health and initiative.
    An NPC whose sheet for the system is empty takes the template into
    that sheet the same way: +npc/create/aeon Guard=soldier fills the
    aeon sheet of the storyteller Guard. A sheet that is not empty is
    refused: empty it first with +npc/clear/<system> <name>.

    ## init
    +npc/init <name>=<wits>+<dex>
    +npc/init <name>
    +npc/init all
    Puts the NPC <name> into this fight's initiative with those Wits and
    Dexterity (eldritch: Dexterity and Perception), creating a light NPC
    here if there is none, or with its own sheet when no numbers are
    given.
    +npc/init all rolls for every NPC here that has a sheet for the
    fight's rules, bringing into the fight those not in it yet, and says
    who rolled and who was skipped and why: no sheet for these rules,
    dead, in another fight, or already rolled (this fight; eldritch:
    this turn, so +npc/init all is the one command each turn). No NPC
    may be called "all".

    ## set
    +npc/set <name>/<trait>=<value>
    +npc/set <name>=<trait> <value>[, <trait> <value>...]
    Changes the NPC's sheet as +stat does. After <name>= a list sets
    several at once, separated by commas: a trait and its rating (the
    last word), or kind, base_kind, transformed or weapon and its value.
    All are checked first: one refused (an unknown trait, a rating out of
    range) refuses them all, and nothing changes.

    ## remove
    +npc/remove <name>
    Takes the NPC out of the fight here (its pending attacks, and those
    on it, are cancelled and announced) and deletes it.

    ## clear
    +npc/clear[/<system>] <name>
    Empties the NPC's sheet for the system (the fight's, the default, or
    the one named): its traits, kind and weapon. Its other sheets and
    its health are kept. Then +npc/create/<system> <name>=<template>
    fills it from a template.
    """

    key = "+npc"
    allowed_switches = ("init", "create", "set", "sheet", "list", "remove", "clear", "templates", *system_keys())
    max_switches = 2
    syntax = "+npc/create <name>[=<template>], /set, /sheet, /list, /remove, /templates, /init, /clear (help +npc)"

    def run(self):
        require_perm(self.caller, NARRATOR, "run NPCs")
        actions = [switch for switch in self.switches if switch not in system_keys()]
        if len(actions) > 1:
            self.fail("Use one switch at a time.")
            return
        switch = actions[0] if actions else ""
        if not switch:
            self.fail_usage()
            return
        self.syntax = USAGE[switch]
        getattr(self, f"do_{switch}")()

    def system(self):
        return self.sheet_system()

    def do_init(self):
        if not self.lhs.strip():
            self.fail_usage()
            return
        if " ".join(self.lhs.split()).casefold() == combat.ALL_NPCS:
            if self.rhs is not None:
                self.fail("+npc/init all takes no numbers: it rolls each NPC here from its own sheet.")
                return
            line = f"{COMBAT} {escape(npcs.init_all(self.caller))}"
            fights.afterwards(lambda: self.msg(line))   # after the rolls' narration
            return
        room = self.caller.location
        row = combat.fight_here(self.caller)
        if self.rhs is not None and row is not None and combat.is_gm(self.caller, row):
            name = combat.validate_npc_name(self.lhs)
            if not any(obj.key.casefold() == name.casefold() for obj in npcs.characters_in(room)):
                npcs.check_new_name(room, name)  # a new light NPC: no look-alikes either
        combat.npc_init(self.caller, self.lhs, self.rhs)

    def do_create(self):
        if not self.lhs.strip():
            self.fail_usage()
            return
        for line in npcs.create(self.caller, self.lhs, self.rhs, self.system()):
            self.msg(f"{COMBAT} {escape(line)}")

    def do_set(self):
        if self.rhs is not None and "/" not in self.lhs and self.lhs.strip():
            npc, lines = npcs.set_traits(self.caller, self.lhs, self.rhs, self.system())
        else:
            parsed = self.name_and_field()
            if parsed is None:
                return
            name, field = parsed
            npc, line = npcs.set_trait(self.caller, name, field, self.rhs, self.system())
            lines = [line]
        self.msg("\n".join(f"{COMBAT} {escape(line)}" for line in lines))

    def do_sheet(self):
        if not self.args.strip():
            self.fail_usage()
            return
        self.msg(sheets.render_sheet(npcs.find_npc(self.caller, self.args), self.system()))

    def do_list(self):
        if self.args.strip():
            self.fail_usage()
            return
        self.msg(npcs.render_list(self.caller.location, self.system()))

    def do_remove(self):
        if not self.args.strip() or self.rhs is not None:
            self.fail_usage()
            return
        npcs.remove(self.caller, self.args)

    def do_clear(self):
        if not self.args.strip() or self.rhs is not None:
            self.fail_usage()
            return
        self.msg(f"{COMBAT} {escape(npcs.clear(self.caller, self.args, self.system()))}")

    def do_templates(self):
        if self.args.strip():
            self.fail_usage()
            return
        self.msg(npcs.render_templates(self.system()))
