"""``+roll/odds``: the exact chances of a roll, only for the roller;
nothing is rolled, logged or used up."""

from commands import fray
from tests.game import fightview as encounters
from tests.game.test_combat_commands import FrayCommandTest
from tests.game.test_eldritch_commands import EldritchFightTest
from tests.game.test_elethril_commands import ElethrilFightTest
from world import dice, fights
from world.sheets import add_traits, update_sheet

STORYTELLER = """<Roll> Odds for Char2: Dexterity 3 + Brawl 2 = 5 dice vs 6
  Botch                          2.1%
  Failure                       13.5%
  1+ success                    84.4%
  2+ successes                  64.8%
  3+ successes                  38.8%
  4+ successes                  15.6%
  5+ successes                   3.1%"""

AEON = """<Roll> Odds for Char2: Dexterity 3 + Brawl 2 = 5 dice at TN 7, 2 successes needed
  Botch                          4.7%
  Failure                       29.0%
  2+ successes                  66.3%
  3+ successes                  31.7%
  4+ successes                   8.7%
  5+ successes                   1.0%"""


class TestOdds(FrayCommandTest):
    def test_storyteller_odds_roll_nothing(self):
        self.force(9, 9, 9)
        out = self.player(fray.CmdRoll(), "/odds Dexterity+Brawl vs 6")
        self.assertEqual(out, STORYTELLER)
        self.assertEqual(dice.forced_faces(), [9, 9, 9])  # no die was used

    def test_aeon_odds_in_a_fight_log_nothing(self):
        update_sheet(self.char2, "aeon", traits={"Dexterity": 3, "Brawl": 2})
        self.st(fray.CmdCombat(), "/start aeon")
        encounter = encounters.encounter_in(self.room1)
        self.player(fray.CmdCombat(), "/join")
        self.assertEqual(self.player(fray.CmdRoll(), "/odds dex+brawl vs 2"), AEON)
        from world import fights

        self.assertEqual(fights.log_count(encounter), 0)

    def test_the_storytellers_dice_and_willpower_count(self):
        self.st(fray.CmdCombat(), "/start")
        self.player(fray.CmdCombat(), "/join")
        self.st(fray.CmdCombat(), "/mod Char2=-4 keep")
        add_traits(self.char2, "storyteller", Willpower=2)
        fights.sync(self.char2)   # as +stat does: the fight takes the sheet in
        out = self.player(fray.CmdRoll(), "/odds/wp Dexterity+Brawl")
        self.assertIn("Odds for Char2: Dexterity 3 + Brawl 2 - 4 (modifier) = 1 die vs 6 + Willpower", out)
        self.assertIn("  Botch                          0.0%", out)
        self.assertIn("  1+ success                   100.0%", out)
        self.assertIn("  2+ successes                  50.0%", out)

    def test_bad_input_is_one_line(self):
        self.player(fray.CmdRoll(), "/odds Dexteriy", "<Fray> Unknown trait 'Dexteriy'. Did you mean Dexterity?")
        self.player(fray.CmdRoll(), "/odds",
                    "<Fray> Usage: +roll/odds <pool>[ vs <difficulty>]  e.g. +roll/odds Dexterity+Brawl vs 6")
        self.player(fray.CmdRoll(), "", "<Fray> Usage: +roll <pool>[ vs <difficulty>]  e.g. +roll Dexterity+Brawl vs 6")


class TestElethrilOdds(ElethrilFightTest):
    def test_the_weapons_chance_to_hit_an_armor_class(self):
        self.player(fray.CmdRoll(), "/odds 0 vs 5",
                    "<Roll> Odds for Char2: short sword: d20 and the weapon's plusses vs THAC0 18 - AC\n"
                    "  Hit Armor Class 5             40.0%")  # d20 >= 13
        out = self.player(fray.CmdRoll(), "/odds 0")  # AC 10: d20 >= 8, 13 faces of 20
        self.assertIn("  Hit Armor Class 10            65.0%", out)
        self.assertIn("  Hit Armor Class -10            5.0%", out)
        self.player(fray.CmdRoll(), "/odds 1d6", "<Fray> Odds are for the attack's d20: add only numbers or traits.")

    def test_a_bare_odds_shows_elethrils_own_usage_and_its_example_works(self):
        """The usage's example is one the fight's system reads."""
        self.player(fray.CmdRoll(), "/odds",
                    "<Fray> Usage: +roll/odds <bonus>[ vs <Armor Class>]  e.g. +roll/odds 0 vs 5")
        self.player(fray.CmdRoll(), "/odds 0 vs 5", "<Roll> Odds for Char2: short sword")
        self.player(fray.CmdRoll(), "",
                    "<Fray> Usage: +roll <dice and traits>[ vs <total>]  e.g. +roll 1d20+2 vs 15")
        self.force(13)
        self.player(fray.CmdRoll(), "1d20+2 vs 15", "<Roll> Char2 rolls")


class TestEldritchRollUsage(EldritchFightTest):
    def test_a_bare_roll_shows_eldritchs_usage_without_vs(self):
        self.player(fray.CmdRoll(), "/odds", "<Fray> Usage: +roll/odds <pool>  e.g. +roll/odds Dexterity+Brawl")
        self.player(fray.CmdRoll(), "/odds Dexterity+Brawl", "<Roll> Odds for Char2")
        self.player(fray.CmdRoll(), "", "<Fray> Usage: +roll <pool>  e.g. +roll Dexterity+Brawl")
