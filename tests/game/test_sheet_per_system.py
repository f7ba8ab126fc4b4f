"""A sheet per rule system: ``+sheet`` and ``+stat`` work on the sheet of the fight's system
(or ``/<system>``), a fight reads its own system's sheet, and the single sheet an earlier Fray
kept for every system is split into one per system."""

from commands import fray, npcs
from rules.systems import get_system
from tests.game import fightview as encounters
from tests.game.test_combat_commands import FrayCommandTest
from world.sheets import (
    sheet_of,
    snapshot,
    update_sheet,
)


class SheetTest(FrayCommandTest):
    def setUp(self):
        super().setUp()
        update_sheet(self.char2, "storyteller", kind="Vampire")
        update_sheet(self.char2, "elethril", traits={"THAC0": 17, "Armor Class": 5, "Hit Points": 12},
                     kind="Elf", weapon="long-sword")
        update_sheet(self.char2, "eldritch", traits={"Ear Pop": 1, "Dexterity": 4})
        update_sheet(self.char2, "aeon", traits={"Ride": 3, "Dexterity": 2})

    def storyteller_fight(self):
        self.st(fray.CmdCombat(), "/start")
        self.encounter = encounters.encounter_in(self.room1)


class TestSheetOfTheFight(SheetTest):
    def test_a_storyteller_fight_shows_the_storyteller_sheet(self):
        self.storyteller_fight()
        sheet = self.st(fray.CmdSheet(), "Char2")
        self.assertIn("Char2  Character  storyteller sheet  Kind: Vampire", sheet)
        for other in ("Elf", "THAC0", "Ear Pop", "Ride", "long sword"):
            self.assertNotIn(other, sheet)
        self.assertIn("Dexterity: 3", sheet)
        self.assertIn("Weapon in hand: none", sheet)

    def test_the_system_switch_shows_another_sheet(self):
        self.storyteller_fight()
        sheet = self.st(fray.CmdSheet(), "/elethril Char2")
        self.assertIn("Char2  Character  elethril sheet  Kind: Elf", sheet)
        self.assertIn("THAC0: 17", sheet)
        self.assertIn("Weapon in hand: long sword", sheet)
        self.assertNotIn("Dexterity", sheet)
        eldritch = self.st(fray.CmdSheet(), "/eld Char2")  # a unique prefix will do
        self.assertIn("Char2  Character  eldritch sheet", eldritch)
        self.assertNotIn("Kind", eldritch)  # eldritch has no creature kinds
        self.assertIn("Ear Pop: 1", eldritch)

    def test_an_elethril_fight_shows_the_elethril_sheet(self):
        self.st(fray.CmdCombat(), "/start elethril")
        sheet = self.player(fray.CmdSheet(), "")
        self.assertIn("Char2  Character  elethril sheet  Kind: Elf", sheet)
        self.assertIn("THAC0: 17", sheet)
        self.assertNotIn("Vampire", sheet)


class TestStatPerSystem(SheetTest):
    def test_an_aeon_kind_leaves_the_storyteller_kind_and_its_lethal_soak(self):
        self.st(fray.CmdStat(), "/aeon Char2/kind=Zeta", "<Combat> Aeon sheet: Char2's kind is now Zeta.")
        self.assertEqual(sheet_of(self.char2, "aeon")["kind"], "Zeta")
        self.assertEqual(sheet_of(self.char2, "storyteller")["kind"], "Vampire")
        storyteller = get_system("storyteller")
        self.assertTrue(storyteller.can_soak(snapshot(self.char2, storyteller), "lethal"))
        self.storyteller_fight()
        self.player(fray.CmdCombat(), "/join")
        self.force(4)
        self.player(fray.CmdCombat(), "/init")
        self.force(1)
        self.st(npcs.CmdNpc(), "/init Guard=2+3")
        guard = encounters.find_combatant(self.encounter, "Guard")
        update_sheet(guard, "storyteller", traits={"Wits": 2, "Dexterity": 3, "Melee": 1, "Strength": 2},
                     weapon="dagger")
        self.st(fray.CmdCombat(), "/next")  # Char2 (9) passes; the Guard (6) acts
        # To hit: Dexterity 3 + Melee 1 vs 6: 9 9 9 2 -> 3; damage: Strength 2 + Dagger 1 + 2
        # (rollover) vs 6: 10 10 10 2 2 -> 3 lethal; her storyteller Vampire soaks lethal:
        # Stamina 2 vs 5: 6 1 -> 1. A Zeta (or Muggle) would take all 3.
        self.force(9, 9, 9, 2, 10, 10, 10, 2, 2, 6, 1)
        out = self.st(fray.CmdAttack(), "Guard=Char2/dagger")
        self.assertIn("Char2 soaks: Stamina 2 dice vs 5: 6 1 -> 1 success", out)
        self.assertIn("Char2 takes 2 levels of lethal: Hurt (-1) [LL.....]", out)
        self.assertEqual(self.char2.health["storyteller"], {"bashing": 0, "lethal": 2, "aggravated": 0, "dead": False})

    def test_stat_outside_a_fight_uses_the_default_or_the_switch(self):
        self.st(fray.CmdStat(), "Char2/Dexterity=4", "<Combat> Storyteller sheet: Char2's Dexterity is now 4.")
        self.st(fray.CmdStat(), "/aeon Char2/Dexterity=5", "<Combat> Aeon sheet: Char2's Dexterity is now 5.")
        self.assertEqual(sheet_of(self.char2, "storyteller")["traits"]["Dexterity"], 4)
        self.assertEqual(sheet_of(self.char2, "aeon")["traits"], {"Ride": 3, "Dexterity": 5})
        self.st(fray.CmdStat(), "/elethril Char2/THAC0=", "<Combat> Elethril sheet: Char2's THAC0 is cleared.")
        self.assertNotIn("THAC0", sheet_of(self.char2, "elethril")["traits"])

    def test_in_an_aeon_fight_stat_sets_the_aeon_sheet(self):
        self.st(fray.CmdCombat(), "/start aeon")
        self.st(fray.CmdStat(), "Char2/weapon=pistol", "<Combat> Aeon sheet: Char2 now holds a Pistol.")
        self.assertEqual(sheet_of(self.char2, "aeon")["weapon"], "pistol")
        self.assertNotIn("weapon", sheet_of(self.char2, "storyteller"))

    def test_what_the_system_does_not_know_is_refused_and_nothing_changes(self):
        before = dict(self.char2.sheets)
        for args, error in (
                ("Char2/THAC0=17", "<Fray> On the storyteller sheet: Unknown trait 'THAC0'."),
                ("Char2/kind=Zeta", "<Fray> Kind (storyteller) must be one of: Muggle, Wizard, Vampire, Werewolf."),
                ("/aeon Char2/kind=Elf", "<Fray> Kind (aeon) must be one of: Baseline, Zeta."),
                ("/eldritch Char2/kind=Elf", "<Fray> The eldritch rules have no kinds."),
                ("/elethril Char2/weapon=pistol", "<Fray> Weapon (elethril) must be one of:"),
                ("/zork Char2/Dexterity=3", "<Fray> Unknown switch '/zork' for +stat. Switches: /storyteller, "),
                ("/aeon/elethril Char2/Dexterity=3", "<Fray> Use one switch at a time."),
                ("/aeon Char2/Dexterity=99", "<Fray> Dexterity must be a whole number from 0 to 20, not '99'."),
                ("/aeon Char2/Dexterity=\uff13", "<Fray> Dexterity must be a whole number from 0 to 20"),
                ("/aeon Char2/Dexterity=|r3", "<Fray> Dexterity must be a whole number from 0 to 20"),
                ("/aeon Char2/Dexterity=3\n4", "<Fray> Dexterity must be a whole number from 0 to 20"),
                ("/elethril Char2/kind=|rElf", "<Fray> Kind (elethril) must be one of:")):
            with self.subTest(args=args):
                self.st(fray.CmdStat(), args, error)
                self.assertEqual(dict(self.char2.sheets), before)

    def test_unknown_sheet_switch(self):
        self.st(fray.CmdSheet(), "/zork Char2", "<Fray> Unknown switch '/zork' for +sheet. Switches: /storyteller, ")


