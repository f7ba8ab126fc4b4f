"""Command tier: +npc create/set/sheet/list/remove/templates, numbered copies, names, refusals."""

from evennia.utils.search import search_object

from commands import fray, npcs
from tests.game import fightview as encounters
from tests.game.test_combat_commands import FrayCommandTest
from world.npcs import npcs_in, skeleton
from world.sheets import sheet_of, traits_of, weapon_of


class NpcTest(FrayCommandTest):
    def npc(self, name):
        found = [obj for obj in npcs_in(self.room1) if obj.key == name]
        return found[0] if found else None

    def names(self):
        return [obj.key for obj in npcs_in(self.room1)]


class TestCreate(NpcTest):
    def test_create_from_template(self):
        self.st(npcs.CmdNpc(), "/create Guard=guard", "<Combat> Created Guard from the guard template.")
        guard = self.npc("Guard")
        self.assertEqual(guard.location, self.room1)
        self.assertTrue(guard.tags.has("npc", category="fray"))
        self.assertEqual(traits_of(guard, "storyteller")["Alertness"], 3)
        self.assertEqual((sheet_of(guard, "storyteller").get("kind", "Muggle"), weapon_of(guard, "storyteller")), ("Muggle", "staff"))
        sheet = self.st(npcs.CmdNpc(), "/sheet guard")
        self.assertIn("Guard  NPC  storyteller sheet  Kind: Muggle", sheet)
        self.assertIn("Alertness: 3", sheet)
        self.assertIn("Weapon in hand: Staff (cannot be hidden)", sheet)   # the chart's Concealed column

    def test_template_prefix_kind_and_base_kind(self):
        self.st(npcs.CmdNpc(), "/create Lupin=were", "<Combat> Created Lupin from the werewolf template.")
        lupin = self.npc("Lupin")
        self.assertEqual((sheet_of(lupin, "storyteller").get("kind"), sheet_of(lupin, "storyteller").get("base_kind"),
                          sheet_of(lupin, "storyteller").get("transformed")), ("Werewolf", "Muggle", False))
        self.st(npcs.CmdNpc(), "/create Bellatrix=Dark Wizard", "<Combat> Created Bellatrix from the dark-wizard")
        self.assertEqual(sheet_of(self.npc("Bellatrix"), "storyteller")["kind"], "Wizard")

    def test_create_without_template_is_empty(self):
        self.st(npcs.CmdNpc(), "/create Rat", "<Combat> Created Rat with an empty sheet")
        self.assertEqual(traits_of(self.npc("Rat"), "storyteller"), {})

    def test_numbered_copies_continue_past_existing(self):
        self.st(npcs.CmdNpc(), "/create Thug*3=thug", "<Combat> Created Thug 1, Thug 2, Thug 3 from the thug template.")
        self.st(npcs.CmdNpc(), "/create Thug * 2=thug", "<Combat> Created Thug 4, Thug 5 from the thug template.")
        self.assertEqual(self.names(), ["Thug 1", "Thug 2", "Thug 3", "Thug 4", "Thug 5"])
        self.assertEqual(traits_of(self.npc("Thug 5"), "storyteller")["Brawl"], 3)
        self.npc("Thug 2").delete()
        self.st(npcs.CmdNpc(), "/create Thug*1", "<Combat> Created Thug 6 with an empty sheet")

    def test_exact_recreate_is_refused_with_the_copies_hint(self):
        self.st(npcs.CmdNpc(), "/create Thug=thug")
        self.st(npcs.CmdNpc(), "/create Thug=thug",
                "<Fray> There is already an NPC named Thug here. For numbered copies: +npc/create Thug*2=thug.")
        self.st(npcs.CmdNpc(), "/create thug  ", "<Fray> There is already an NPC named Thug here.")
        self.assertEqual(self.names(), ["Thug"])

    def test_npcs_persist_as_objects(self):
        self.st(npcs.CmdNpc(), "/create Guard=guard")
        found = search_object("Guard", typeclass="typeclasses.npcs.NPC")
        self.assertEqual(len(found), 1)
        self.assertEqual(traits_of(found[0], "storyteller")["Melee"], 3)


class TestLightNpcGetsASheet(NpcTest):
    def setUp(self):
        super().setUp()
        self.st(fray.CmdCombat(), "/start")
        self.encounter = encounters.encounter_in(self.room1)
        self.force(1)
        self.st(npcs.CmdNpc(), "/init Guard=2+3", "<Combat> Guard rolls initiative")

    def test_template_applied_to_a_light_npc_keeps_its_initiative(self):
        guard = self.npc("Guard")
        self.assertEqual(traits_of(guard, "storyteller"), {"Wits": 2, "Dexterity": 3})
        out = self.st(npcs.CmdNpc(), "/list", "NPCs here (1, storyteller):")
        self.assertIn("Guard*", out)
        self.assertIn("* light NPC", out)
        self.assertTrue(all(len(line) <= 78 for line in out.splitlines()), out)
        self.st(npcs.CmdNpc(), "/create Guard=guard", "<Combat> Guard now has the guard template's sheet (Muggle, 11 traits")
        self.assertEqual(traits_of(guard, "storyteller")["Wits"], 3)
        self.assertEqual(weapon_of(guard, "storyteller"), "staff")
        self.assertTrue(encounters.has_initiative(self.encounter, guard))
        self.assertEqual(self.names(), ["Guard"])
        # Now it has a full sheet: a second template is refused.
        self.st(npcs.CmdNpc(), "/create Guard=thug", "<Fray> There is already an NPC named Guard here.")
        self.assertEqual(weapon_of(guard, "storyteller"), "staff")

    def test_light_npc_filled_with_set(self):
        self.st(npcs.CmdNpc(), "/create Guard", "<Fray> There is already an NPC named Guard here (a light NPC)")
        self.st(npcs.CmdNpc(), "/set Guard/brawl=3", "<Combat> Storyteller sheet: Guard's Brawl is now 3.")
        self.st(npcs.CmdNpc(), "/set Guard/weapon=sword", "<Combat> Storyteller sheet: Guard now holds a Sword.")
        self.st(npcs.CmdNpc(), "/set Guard/kind=vamp", "<Combat> Storyteller sheet: Guard's kind is now Vampire.")
        self.st(npcs.CmdNpc(), "/set Guard/Wits=", "<Combat> Storyteller sheet: Guard's Wits is cleared.")
        self.assertEqual(traits_of(self.npc("Guard"), "storyteller"), {"Dexterity": 3, "Brawl": 3})

    def test_init_refuses_a_look_alike_new_light_npc(self):
        before = self.names()
        self.st(npcs.CmdNpc(), "/init Gu-ard=2+3", "<Fray> 'Gu-ard' looks too much like Guard, an NPC here")
        self.st(npcs.CmdNpc(), "/init GU ARD=2+3", "<Fray> 'GU ARD' looks too much like Guard")
        self.assertEqual(self.names(), before)
        self.assertEqual(len(encounters.fighters(self.encounter)), 1)


class TestSetSheetList(NpcTest):
    def test_set_uses_stat_semantics_for_narrators(self):
        self.st(npcs.CmdNpc(), "/create Thug=thug")
        self.account2.permissions.add("Narrator")
        self.player(npcs.CmdNpc(), "/set Thug/strength=5", "<Combat> Storyteller sheet: Thug's Strength is now 5.")
        self.player(npcs.CmdNpc(), "/set Thug/Str=5", "<Fray> On the storyteller sheet: 'Str' is ambiguous: Streetwise, Strength.")
        self.player(npcs.CmdNpc(), "/set Thug/Strength=21", "<Fray> Strength must be a whole number from 0 to 20")
        self.player(npcs.CmdNpc(), "/set Thug/Laser=2", "<Fray> On the storyteller sheet: Unknown trait 'Laser'.")
        self.player(npcs.CmdNpc(), "/set Thug/weapon=laser", "<Fray> Weapon (storyteller) must be one of:")
        self.assertEqual(traits_of(self.npc("Thug"), "storyteller")["Strength"], 5)
        # A player character is not an NPC, even for a Narrator.
        self.player(npcs.CmdNpc(), "/set Char2/Strength=5", "<Fray> Char2 is a player character, not an NPC.")
        self.player(npcs.CmdNpc(), "/sheet char", "<Fray> Char is a player character, not an NPC.")
        self.assertEqual(traits_of(self.char2, "storyteller")["Strength"], 2)

    def test_set_usage(self):
        self.st(npcs.CmdNpc(), "/create Thug=thug")
        for args in ("/set Thug/Strength", "/set /Strength=3", "/set Thug/=3", "/set =Strength 3"):
            with self.subTest(args=args):
                self.st(npcs.CmdNpc(), args, "<Fray> Usage: +npc/set <name>/<trait>=<value> or "
                                             "<name>=<trait> <value>[, <trait> <value>...]")
        # <name>=<list>: each item needs a trait and its value
        self.st(npcs.CmdNpc(), "/set Thug=3", "<Fray> Give each trait a value (Dexterity 3), not '3': "
                                             "+npc/set <name>=<trait> <value>, ...")
        self.st(npcs.CmdNpc(), "/set Nobody/Strength=3", "<Fray> No NPC 'Nobody' here (+npc/list shows them).")
        self.assertEqual(traits_of(self.npc("Thug"), "storyteller")["Strength"], 3)

    def test_list_shows_kind_health_and_fight(self):
        self.st(npcs.CmdNpc(), "/list", "No NPCs here. Make one with +npc/create")
        self.st(npcs.CmdNpc(), "/create Thug*2=thug")
        self.st(npcs.CmdNpc(), "/create Nosferatu=vampire")
        self.st(fray.CmdDamage(), "Thug 1=2 lethal")
        self.st(fray.CmdCombat(), "/start")
        self.force(5)
        self.st(npcs.CmdNpc(), "/init Thug 2")
        out = self.st(npcs.CmdNpc(), "/list")
        lines = out.splitlines()
        self.assertEqual(lines[0], "NPCs here (3, storyteller):")
        self.assertTrue(all(len(line) <= 78 for line in lines), out)
        thug1 = next(line for line in lines if "Thug 1" in line)
        self.assertIn("Hurt (-1)", thug1)
        self.assertIn("Muggle", thug1)
        thug2 = next(line for line in lines if "Thug 2" in line)
        self.assertIn("init", thug2)
        self.assertIn("Switchblade", thug2)
        self.assertIn("Vampire", next(line for line in lines if "Nosferatu" in line))
        self.st(npcs.CmdNpc(), "/list all", "<Fray> Usage: +npc/list")

    def test_templates_listing(self):
        out = self.st(npcs.CmdNpc(), "/templates", "NPC templates (storyteller): +npc/create <name>=<template>")
        for key in ("thug", "guard", "auror", "dark-wizard", "werewolf", "vampire"):
            self.assertIn(key, out)
        self.assertTrue(all(len(line) <= 78 for line in out.splitlines()))


class TestRemove(NpcTest):
    def test_remove_outside_a_fight(self):
        self.st(npcs.CmdNpc(), "/create Thug=thug")
        self.st(npcs.CmdNpc(), "/remove thug", "<Combat> You remove Thug from the scene.")
        self.assertEqual(self.names(), [])
        self.st(npcs.CmdNpc(), "/remove Thug", "<Fray> No NPC 'Thug' here")

    def test_remove_cancels_a_pending_attack_with_a_notice(self):
        self.st(fray.CmdCombat(), "/start")
        encounter = encounters.encounter_in(self.room1)
        self.player(fray.CmdCombat(), "/join")
        self.force(1)
        self.player(fray.CmdCombat(), "/init")
        self.st(npcs.CmdNpc(), "/create Guard=guard")
        self.force(10)
        self.st(npcs.CmdNpc(), "/init Guard")
        # Guard (Dex 3 + Brawl 2) punches Char2: 9 8 7 2 2 -> 3 successes; Char2 may defend.
        self.force(9, 8, 7, 2, 2)
        self.st(fray.CmdAttack(), "Guard=Char2")
        self.assertEqual(len(encounters.pending_attacks(encounter)), 1)
        guard = self.npc("Guard")
        out = self.call(npcs.CmdNpc(), "/remove Guard", caller=self.char1)
        self.assertIn("<Combat> You remove Guard from the scene.", out)
        self.assertIn("The attack of Guard on Char2 is cancelled.", out)
        self.assertEqual(encounters.pending_attacks(encounter), [])
        self.assertEqual(encounters.fighters(encounter), [self.char2])
        self.assertIsNone(guard.pk)
        self.assertEqual(self.names(), [])
        # The fight goes on without it.
        self.assertIn("Char2", self.player(fray.CmdCombat(), ""))

    def test_remove_refuses_players_and_other_scenes(self):
        self.st(npcs.CmdNpc(), "/remove Char2", "<Fray> Char2 is a player character, not an NPC.")
        self.assertEqual(self.char2.location, self.room1)
        self.st(npcs.CmdNpc(), "/remove", "<Fray> Usage: +npc/remove <name>")


class TestNames(NpcTest):
    def test_skeleton(self):
        for a, b in [("Guard", "GUARD"), ("Guard", "Gu-ard"), ("Guard", "6uard"), ("Thug 1", "Thug l"),
                     ("Thug 1", "Thug I"), ("Boris", "B0ris"), ("Slim", "5lim"), ("Mary", "Rnary"),
                     ("Walt", "VValt"), ("O'Neil", "ONeil"), ("Dale", "Clale")]:
            with self.subTest(a=a, b=b):
                self.assertEqual(skeleton(a), skeleton(b))
        numbered = {skeleton(f"Thug {n}") for n in range(1, 100)}
        self.assertEqual(len(numbered), 99)  # numbered copies never collide
        self.assertNotEqual(skeleton("Guard"), skeleton("Guards"))

    def test_bad_names_change_nothing(self):
        self.st(npcs.CmdNpc(), "/create Guard=guard")
        self.st(npcs.CmdNpc(), "/create Thug*2=thug")
        before = self.names()
        cases = {
            "/create GUARD=guard": "<Fray> There is already an NPC named Guard here.",
            "/create Gu-ard=guard": "<Fray> 'Gu-ard' looks too much like Guard, an NPC here; choose a clearly different name.",
            "/create Gu'ard": "<Fray> 'Gu'ard' looks too much like Guard",
            "/create 6uard=guard": "<Fray> NPC names are 1-20 letters",  # must start with a letter
            "/create Thug l=thug": "<Fray> 'Thug l' looks too much like Thug 1, an NPC here",
            "/create Thug  I": "<Fray> 'Thug I' looks too much like Thug 1",
            "/create Char 2": "<Fray> 'Char 2' looks too much like Char2, a player character here",
            "/create char2": "<Fray> There is already a player character named Char2 here.",
            "/create |rRed=thug": "<Fray> NPC names are 1-20 letters",
            "/create Gu|/ard=thug": "<Fray> NPC names are 1-20 letters",
            "/create Gu\u200bard": "<Fray> NPC names are 1-20 letters",
            "/create Gu\x07ard": "<Fray> NPC names are 1-20 letters",
            "/create Gu\x1b[31mard": "<Fray> NPC names are 1-20 letters",
            "/create Guárd": "<Fray> NPC names are 1-20 letters",
            "/create A Very Long Name Indeed": "<Fray> NPC names are 1-20 letters",
            "/create Thug=zombie": "<Fray> No NPC template 'zombie'. Templates: thug, guard, auror, dark-wizard, werewolf, vampire.",
            "/create Bob=|rthug": "<Fray> No NPC template '|rthug'.",
            "/create Bob=": "<Fray> Usage: +npc/create <name>[*<copies>][=<template>]",
            "/create =thug": "<Fray> Usage: +npc/create <name>[*<copies>][=<template>]",
            "/create Thug*0=thug": "<Fray> Give the number of copies as 1-20",
            "/create Thug*21=thug": "<Fray> Give the number of copies as 1-20",
            "/create Thug*x=thug": "<Fray> Give the number of copies as 1-20",
            "/create Thug*=thug": "<Fray> Give the number of copies as 1-20",
            "/create Very Long Name Here*2=thug": "<Fray> NPC names are 1-20 letters",  # "... 1" is too long
            "/crate Bob": "<Fray> Unknown switch '/crate' for +npc.",
            "/s Bob": "<Fray> Ambiguous switch '/s' for +npc.",
            "/create/list Bob": "<Fray> Use one switch at a time.",
            "": "<Fray> Usage: +npc/create <name>[=<template>], /set, /sheet, /list, /remove, /templates, /init",
        }
        for args, expected in cases.items():
            with self.subTest(args=args):
                self.st(npcs.CmdNpc(), args, expected)
                self.assertEqual(self.names(), before)

    def test_look_alike_among_numbered_copies(self):
        self.st(npcs.CmdNpc(), "/create Thug l")
        self.st(npcs.CmdNpc(), "/create Thug*2=thug", "<Fray> 'Thug 1' looks too much like Thug l, an NPC here")
        self.assertEqual(self.names(), ["Thug l"])


class TestPermissions(NpcTest):
    def test_players_are_refused_every_switch(self):
        self.st(npcs.CmdNpc(), "/create Guard=guard")
        before = (self.names(), traits_of(self.npc("Guard"), "storyteller"))
        for args in ("/create Bob=thug", "/create Thug*2", "/set Guard/Strength=5", "/sheet Guard", "/list",
                     "/remove Guard", "/templates", "/init Guard=2+3", ""):
            with self.subTest(args=args):
                self.player(npcs.CmdNpc(), args, "<Fray> Only a Narrator or staff can run NPCs.")
                self.assertEqual((self.names(), traits_of(self.npc("Guard"), "storyteller")), before)

    def test_narrator_cannot_change_npcs_in_another_storytellers_fight(self):
        self.st(npcs.CmdNpc(), "/create Guard=guard")
        self.st(fray.CmdCombat(), "/start")
        self.force(5)
        self.st(npcs.CmdNpc(), "/init Guard")
        self.account2.permissions.add("Narrator")
        self.player(npcs.CmdNpc(), "/set Guard/Strength=5",
                    "<Fray> Only this scene's Storyteller or staff can change NPCs in this fight.")
        self.player(npcs.CmdNpc(), "/remove Guard",
                    "<Fray> Only this scene's Storyteller or staff can remove NPCs from this fight.")
        self.assertEqual(traits_of(self.npc("Guard"), "storyteller")["Strength"], 3)
        # Outside the fight a Narrator may: the list and sheets are readable.
        self.player(npcs.CmdNpc(), "/sheet Guard", "Guard  NPC")
