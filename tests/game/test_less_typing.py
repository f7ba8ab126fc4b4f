"""Command tier: several traits in one +stat or +npc/set, all checked before any is saved, and
+npc/init all (every NPC here with a sheet for the fight's rules)."""

from commands import fray, npcs
from tests.game import fightview as encounters
from tests.game.test_eldritch_commands import THUG, EldritchFightTest
from tests.game.test_npcs import NpcTest
from world.models import FightNarration
from world.sheets import sheet_of, traits_of, update_sheet


class TestStatSeveral(NpcTest):
    def test_storyteller(self):
        self.st(fray.CmdStat(), "Char2=Dex 4, Brawl 3, Strength 5, kind were, transformed yes, weapon sword",
                "<Combat> Storyteller sheet: Char2's Dexterity is now 4.\n"
                "<Combat> Storyteller sheet: Char2's Brawl is now 3.\n"
                "<Combat> Storyteller sheet: Char2's Strength is now 5.\n"
                "<Combat> Storyteller sheet: Char2's kind is now Werewolf.\n"
                "<Combat> Storyteller sheet: Char2 is now transformed.\n"
                "<Combat> Storyteller sheet: Char2 now holds a Sword.")
        sheet = sheet_of(self.char2, "storyteller")
        self.assertEqual(sheet["traits"], {"Dexterity": 4, "Brawl": 3, "Strength": 5, "Wits": 2, "Stamina": 2,
                                           "Dodge": 2})
        self.assertEqual((sheet["kind"], sheet["transformed"], sheet["weapon"]), ("Werewolf", True, "sword"))

    def test_aeon(self):
        self.st(fray.CmdStat(), "/aeon Char2=Dexterity 3, martial arts 2, Extra Health 1, kind Zeta, weapon pistol",
                "<Combat> Aeon sheet: Char2's Dexterity is now 3.\n"
                "<Combat> Aeon sheet: Char2's Martial Arts is now 2.\n"
                "<Combat> Aeon sheet: Char2's Extra Health is now 1.\n"
                "<Combat> Aeon sheet: Char2's kind is now Zeta.\n"
                "<Combat> Aeon sheet: Char2 now holds a Pistol.")
        self.assertEqual(traits_of(self.char2, "aeon"), {"Dexterity": 3, "Martial Arts": 2, "Extra Health": 1})
        self.assertEqual(traits_of(self.char2, "storyteller")["Dexterity"], 3)   # the other sheet is kept

    def test_eldritch_traits_with_spaces_and_brackets(self):
        self.st(fray.CmdStat(), "/eldritch Char2=Dex 3, Protection (Bullets) 1, Ear Pop 1, weapon bat",
                "<Combat> Eldritch sheet: Char2's Dexterity is now 3.\n"
                "<Combat> Eldritch sheet: Char2's Protection (Bullets) is now 1.\n"
                "<Combat> Eldritch sheet: Char2's Ear Pop is now 1.\n"
                "<Combat> Eldritch sheet: Char2 now holds a bat.")
        self.assertEqual(traits_of(self.char2, "eldritch"), {"Dexterity": 3, "Protection (Bullets)": 1, "Ear Pop": 1})

    def test_elethril_negative_ratings_and_a_trait_named_like_a_field(self):
        # "Weapon Plus 1" is the trait Weapon Plus; "weapon long sword" the weapon in hand.
        self.st(fray.CmdStat(), "/elethril Char2=THAC0 17, Armor Class -2, Weapon Plus 1, weapon long sword, kind elf",
                "<Combat> Elethril sheet: Char2's THAC0 is now 17.\n"
                "<Combat> Elethril sheet: Char2's Armor Class is now -2.\n"
                "<Combat> Elethril sheet: Char2's Weapon Plus is now 1.\n"
                "<Combat> Elethril sheet: Char2 now holds a long sword.\n"
                "<Combat> Elethril sheet: Char2's kind is now Elf.")
        sheet = sheet_of(self.char2, "elethril")
        self.assertEqual(sheet["traits"], {"THAC0": 17, "Armor Class": -2, "Weapon Plus": 1})
        self.assertEqual((sheet["weapon"], sheet["kind"]), ("long-sword", "Elf"))

    def test_in_a_fight_the_fights_sheet(self):
        self.st(fray.CmdCombat(), "/start aeon")
        self.st(fray.CmdStat(), "Char2=Dex 2, Brawl 1", "<Combat> Aeon sheet: Char2's Dexterity is now 2.\n"
                                                        "<Combat> Aeon sheet: Char2's Brawl is now 1.")
        self.assertEqual(traits_of(self.char2, "aeon"), {"Dexterity": 2, "Brawl": 1})

    def test_one_bad_among_good_changes_nothing(self):
        before = dict(self.char2.sheets)
        for args, error in (
                ("Char2=Dex 4, Laser 2, Strength 3", "<Fray> On the storyteller sheet: Unknown trait 'Laser'."),
                ("Char2=Dex 4, Brawl 21, Strength 3", "<Fray> Brawl must be a whole number from 0 to 20, not '21'."),
                ("Char2=Dex 4, Brawl x, Strength 3", "<Fray> Brawl must be a whole number from 0 to 20, not 'x'."),
                ("Char2=Dex 4, Brawl |r2", "<Fray> Brawl must be a whole number from 0 to 20, not '|r2'."),
                ("Char2=Dex 4, Str 3", "<Fray> On the storyteller sheet: 'Str' is ambiguous: Streetwise, Strength."),
                ("Char2=Dex 4, Brawl", "<Fray> Give each trait a value (Dexterity 3), not 'Brawl': "
                                       "+stat <name>=<trait> <value>, ..."),
                ("Char2=Dex 4,, Brawl 2", "<Fray> Give each trait and its value, separated by commas: "
                                          "+stat <name>=<trait> <value>, ..."),
                ("Char2=Dex 4, Brawl 2, dexterity 3", "<Fray> Dexterity is given twice."),
                ("Char2=weapon sword, Dex 4, Weapon dagger", "<Fray> Weapon is given twice."),
                ("Char2=weapon laser, Dex 4", "<Fray> Weapon (storyteller) must be one of:"),
                ("Char2=Dex 4, kind Zeta", "<Fray> Kind (storyteller) must be one of: Muggle, Wizard, Vampire, Werewolf."),
                ("Char2=Dex 4, transformed yes", "<Fray> Char2 is a Muggle (storyteller); only Werewolves transform."),
                ("/aeon Char2=Dex 4, THAC0 17", "<Fray> On the aeon sheet: Unknown trait 'THAC0'."),
                ("/elethril Char2=THAC0 17, Armor Class -11", "<Fray> Armor Class must be a whole number from -10 to 10"),
                ("Nobody=Dex 4", "<Fray> No character 'Nobody'."),
                ("Char2=", "<Fray> Give each trait and its value, separated by commas"),
        ):
            with self.subTest(args=args):
                self.st(fray.CmdStat(), args, error)
                self.assertEqual(dict(self.char2.sheets), before)

    def test_the_single_forms_still_work(self):
        self.st(fray.CmdStat(), "Char2/Dexterity=5", "<Combat> Storyteller sheet: Char2's Dexterity is now 5.")
        self.st(fray.CmdStat(), "Char2/Dodge=", "<Combat> Storyteller sheet: Char2's Dodge is cleared.")
        self.st(fray.CmdStat(), "Char2/Wits", "<Fray> Usage: +stat[/<system>] <name>/<trait>=<value> or "
                                              "<name>=<trait> <value>[, <trait> <value>...]")
        self.assertEqual(traits_of(self.char2, "storyteller"),
                         {"Dexterity": 5, "Brawl": 2, "Strength": 2, "Wits": 2, "Stamina": 2})

    def test_players_are_refused(self):
        before = dict(self.char2.sheets)
        self.player(fray.CmdStat(), "Char2=Dex 5, Brawl 5", "<Fray> Only staff (Builder or above) can set stats.")
        self.assertEqual(dict(self.char2.sheets), before)


class TestNpcSetSeveral(NpcTest):
    def test_several_on_an_npc_of_each_sheet(self):
        self.st(npcs.CmdNpc(), "/create Thug=thug")
        self.st(npcs.CmdNpc(), "/set Thug=Strength 4, Brawl 1, weapon dagger",
                "<Combat> Storyteller sheet: Thug's Strength is now 4.\n"
                "<Combat> Storyteller sheet: Thug's Brawl is now 1.\n"
                "<Combat> Storyteller sheet: Thug now holds a Dagger.")
        self.assertEqual((traits_of(self.npc("Thug"), "storyteller")["Strength"],
                          traits_of(self.npc("Thug"), "storyteller")["Brawl"]), (4, 1))
        self.st(npcs.CmdNpc(), "/set/eldritch Thug=Dexterity 2, Perception 3, Hard to Kill 1",
                "<Combat> Eldritch sheet: Thug's Dexterity is now 2.\n"
                "<Combat> Eldritch sheet: Thug's Perception is now 3.\n"
                "<Combat> Eldritch sheet: Thug's Hard to Kill is now 1.")
        self.assertEqual(traits_of(self.npc("Thug"), "eldritch"), {"Dexterity": 2, "Perception": 3, "Hard to Kill": 1})

    def test_one_bad_among_good_changes_nothing(self):
        self.st(npcs.CmdNpc(), "/create Thug=thug")
        thug = self.npc("Thug")
        before = dict(thug.sheets)
        for args, error in (
                ("/set Thug=Strength 4, Laser 2", "<Fray> On the storyteller sheet: Unknown trait 'Laser'."),
                ("/set Thug=Strength 4, Brawl 99", "<Fray> Brawl must be a whole number from 0 to 20, not '99'."),
                ("/set Thug=Strength 4, Brawl 2.5", "<Fray> Brawl must be a whole number from 0 to 20, not '2.5'."),
                ("/set Thug=3", "<Fray> Give each trait a value (Dexterity 3), not '3': "
                                "+npc/set <name>=<trait> <value>, ..."),
                ("/set Nobody=Strength 4", "<Fray> No NPC 'Nobody' here (+npc/list shows them)."),
                ("/set Char2=Strength 4", "<Fray> Char2 is a player character, not an NPC."),
        ):
            with self.subTest(args=args):
                self.st(npcs.CmdNpc(), args, error)
                self.assertEqual(dict(thug.sheets), before)


class TestInitAllStoryteller(NpcTest):
    def setUp(self):
        super().setUp()
        self.st(npcs.CmdNpc(), "/create Guard=guard")
        self.st(npcs.CmdNpc(), "/create Thug*2=thug")
        self.st(npcs.CmdNpc(), "/create Rat")                  # no sheet
        self.st(npcs.CmdNpc(), "/create Ghost=thug")
        self.st(fray.CmdDamage(), "Ghost=8 aggravated")        # dead
        self.st(npcs.CmdNpc(), "/create Mole=thug")
        self.st(fray.CmdDamage(), "Mole=7 bashing")            # incapacitated
        self.st(fray.CmdCombat(), "/start")
        self.encounter = encounters.encounter_in(self.room1)
        self.player(fray.CmdCombat(), "/join")
        self.st(fray.CmdCombat(), "/add Thug 1")              # in the fight, no initiative yet

    def test_rolls_each_npc_with_a_sheet_and_skips_the_others(self):
        self.force(5, 6, 7)   # in name order: Guard, Thug 1, Thug 2
        out = self.st(npcs.CmdNpc(), "/init all")
        self.assertIn("<Combat> Guard rolls initiative: Wits 3 + Dexterity 3 = 6 + 1d10 (5) = 11.", out)
        self.assertIn("<Combat> Thug 1 rolls initiative: Wits 2 + Dexterity 2 = 4 + 1d10 (6) = 10.", out)
        self.assertIn("<Combat> Thug 2 rolls initiative: Wits 2 + Dexterity 2 = 4 + 1d10 (7) = 11.", out)
        self.assertTrue(out.endswith("<Combat> Initiative rolled for Guard, Thug 1, Thug 2. "
                                     "Skipped: Ghost (dead); Mole (cannot act); Rat (no storyteller sheet)."), out)
        for name in ("Guard", "Thug 1", "Thug 2"):
            self.assertTrue(encounters.has_initiative(self.encounter, self.npc(name)), name)
        self.assertEqual(sorted(obj.key for obj in encounters.fighters(self.encounter)),
                         ["Char2", "Guard", "Thug 1", "Thug 2"])   # Rat and Ghost stay out
        self.assertFalse(encounters.has_initiative(self.encounter, self.char2))   # players roll their own
        # Storyteller initiative is kept for the fight: again, nobody rolls, and nothing changes.
        rolled = dict(self.encounter.state.initiative)
        self.st(npcs.CmdNpc(), "/init all",
                "<Combat> No NPC here rolled initiative. Skipped: Ghost (dead); Guard, Thug 1, Thug 2 "
                "(already has initiative this fight); Mole (cannot act); Rat (no storyteller sheet).",
                use_assertequal=True)
        self.assertEqual(dict(self.encounter.state.initiative), rolled)

    def test_the_turn_is_told_once_for_whoever_acts_first_after_every_roll(self):
        # Guard rolls first (7) but Thug 2 (13) acts first: only Thug 2 is told, once, after the rolls.
        self.force(1, 2, 9)
        out = self.st(npcs.CmdNpc(), "/init all")
        self.assertEqual(out.splitlines(), [
            "<Combat> Guard rolls initiative: Wits 3 + Dexterity 3 = 6 + 1d10 (1) = 7.",
            "<Combat> Thug 1 rolls initiative: Wits 2 + Dexterity 2 = 4 + 1d10 (2) = 6.",
            "<Combat> Thug 2 rolls initiative: Wits 2 + Dexterity 2 = 4 + 1d10 (9) = 13.",
            "<Combat> Round 1: Thug 2 to act.",
            "<Combat> It is Thug 2's turn: attack <target>[/<maneuver>].",
            "<Combat> Initiative rolled for Guard, Thug 1, Thug 2. "
            "Skipped: Ghost (dead); Mole (cannot act); Rat (no storyteller sheet)."])
        texts = list(FightNarration.objects.filter(fight_id=self.encounter.row.pk).order_by("seq")
                     .values_list("text", flat=True))
        self.assertEqual([text for text in texts if "to act" in text], ["<Combat> Round 1: Thug 2 to act."])
        # Nobody new acts first: the turn already told is not told again.
        update_sheet(self.npc("Rat"), "storyteller", traits={"Wits": 1, "Dexterity": 3})
        self.force(2)
        self.assertEqual(self.st(npcs.CmdNpc(), "/init all").splitlines(), [
            "<Combat> Rat rolls initiative: Wits 1 + Dexterity 3 = 4 + 1d10 (2) = 6.",
            "<Combat> Initiative rolled for Rat. Skipped: Ghost (dead); Guard, Thug 1, Thug 2 "
            "(already has initiative this fight); Mole (cannot act)."])

    def test_a_new_npc_rolls_later_and_the_rolled_are_skipped(self):
        self.force(5, 6, 7)
        self.st(npcs.CmdNpc(), "/init all")
        update_sheet(self.npc("Rat"), "storyteller", traits={"Wits": 1, "Dexterity": 3})
        self.force(2)
        self.st(npcs.CmdNpc(), "/init all", "<Combat> Rat rolls initiative: Wits 1 + Dexterity 3 = 4 + 1d10 (2) = 6.")
        self.assertTrue(encounters.has_initiative(self.encounter, self.npc("Rat")))

    def test_all_means_all_and_no_npc_is_called_all(self):
        for args, error in (
                ("/init all=2+3", "<Fray> +npc/init all takes no numbers: it rolls each NPC here from its own sheet."),
                ("/create all", "<Fray> 'all' cannot be an NPC's name: +npc/init all rolls for every NPC here."),
                ("/create ALL=thug", "<Fray> 'ALL' cannot be an NPC's name: +npc/init all rolls for every NPC here."),
        ):
            with self.subTest(args=args):
                self.st(npcs.CmdNpc(), args, error)
                self.assertEqual(self.names(), ["Ghost", "Guard", "Mole", "Rat", "Thug 1", "Thug 2"])
        self.force(5, 6, 7)
        self.st(npcs.CmdNpc(), "/init  ALL ", "<Combat> Guard rolls initiative")

    def test_only_the_fights_storyteller(self):
        self.account2.permissions.add("Narrator")
        self.player(npcs.CmdNpc(), "/init all",
                    "<Fray> Only this scene's Storyteller or staff can roll initiative for NPCs.")
        self.assertEqual(dict(self.encounter.state.initiative), {})


class TestInitAllElsewhere(NpcTest):
    def test_no_fight_no_npcs_and_elethril(self):
        self.st(npcs.CmdNpc(), "/init all", "<Fray> There is no fight here. A Storyteller starts one with +combat/start.")
        self.st(fray.CmdCombat(), "/start")
        self.st(npcs.CmdNpc(), "/init all", "<Fray> No NPCs here. Make one with +npc/create <name>[=<template>].")
        self.st(fray.CmdCombat(), "/end")
        self.st(npcs.CmdNpc(), "/create/elethril Orc=orc")
        self.st(fray.CmdCombat(), "/start elethril")
        self.st(npcs.CmdNpc(), "/init all", "<Fray> Elethril NPCs join with +npc/create <name>=<template> and "
                                            "+combat/add <name>, then declare like everyone: attack <npc>=<target>.")
        self.assertEqual(encounters.fighters(encounters.encounter_in(self.room1)), [])


class TestInitAllEldritch(EldritchFightTest):
    def test_one_command_each_turn(self):
        mook = self.npc("Mook", THUG)
        self.st(npcs.CmdNpc(), "/create Rat")
        update_sheet(next(obj for obj in self.room1.contents if obj.key == "Rat"), "storyteller",
                     traits={"Dexterity": 2})   # a sheet, but not for eldritch
        self.force(9)
        self.player(fray.CmdCombat(), "/init")
        self.force(5, 6)   # in name order: Mook, Thug
        out = self.st(npcs.CmdNpc(), "/init all")
        self.assertIn("<Combat> Mook rolls initiative: (Dexterity 2 + Perception 2)/2 = 2 + 1d10 (5) = 7.", out)
        self.assertIn("<Combat> Thug rolls initiative: (Dexterity 2 + Perception 2)/2 = 2 + 1d10 (6) = 8.", out)
        self.assertTrue(out.endswith("<Combat> Initiative rolled for Mook, Thug. Skipped: Rat (no eldritch sheet)."),
                        out)
        self.st(npcs.CmdNpc(), "/init all", "<Combat> No NPC here rolled initiative. Skipped: Mook, Thug "
                                            "(already has initiative this round); Rat (no eldritch sheet).",
                use_assertequal=True)
        # Everyone passes every slot: the next turn rolls initiative anew, and +npc/init all again.
        for _ in range(10):
            if self.encounter.round == 2:
                break
            self.st(fray.CmdCombat(), "/next")
        self.assertEqual(self.encounter.round, 2)
        self.assertFalse(encounters.has_initiative(self.encounter, mook))
        self.force(3, 4)
        out = self.st(npcs.CmdNpc(), "/init all")
        self.assertIn("<Combat> Mook rolls initiative: (Dexterity 2 + Perception 2)/2 = 2 + 1d10 (3) = 5.", out)
        self.assertIn("<Combat> Thug rolls initiative: (Dexterity 2 + Perception 2)/2 = 2 + 1d10 (4) = 6.", out)
        self.assertTrue(out.endswith("<Combat> Initiative rolled for Mook, Thug. Skipped: Rat (no eldritch sheet)."),
                        out)
        self.assertTrue(encounters.has_initiative(self.encounter, self.thug))
        self.assertFalse(encounters.has_initiative(self.encounter, self.char2))   # Char2 rolls her own
