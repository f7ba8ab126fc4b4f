"""Command tier: several traits in one +stat or +npc/set, all checked before any is saved."""

from commands import fray, npcs
from tests.game.test_npcs import NpcTest
from world.sheets import sheet_of, traits_of


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
