"""``aim``: one action class in the engine (``rules.engine.actions.Aim``), its words in the
catalogue, its command made from its verb (``commands/actions.py``)."""

from commands import fray
from commands.actions import commands
from tests.game import fightview as encounters
from tests.game.test_aeon_commands import AeonFightTest
from tests.game.test_combat_commands import FrayCommandTest
from tests.game.test_eldritch_commands import EldritchFightTest
from tests.game.test_elethril_commands import ElethrilFightTest


def aim_command():
    return next(command for command in commands() if command.key == "aim")()


class TestAim(FrayCommandTest):
    def test_aiming_spends_the_turn_and_adds_one_to_the_next_attack_at_that_target(self):
        guard = self.storyteller_fight("Guard", Stamina=2, Dodge=1)
        out = self.player(aim_command(), "Guard")
        self.assertIn("<Combat> Char2 takes aim at Guard.", out)
        self.assertIn("Char2's next attack at Guard: +1.", out)
        self.assertIn("Round 1: Guard to act.", out)
        self.assertEqual(encounters.conditions_of(self.encounter, self.char2)["aim"],
                         {"target": guard.id, "bonus": 1})
        self.st(fray.CmdCombat(), "/next")          # the Guard passes; round 2
        self.force(9, 8, 7, 2, 2, 3)                 # Dexterity 3 + Brawl 2 + 1 (aim) = 6 dice
        out = self.player(fray.CmdAttack(), "Guard")
        self.assertIn("Dexterity 3 + Brawl 2 + 1 (modifier) = 6 dice vs 6", out)
        self.assertNotIn("aim", encounters.conditions_of(self.encounter, self.char2))
        self.assertIn("aimed at Guard +1", encounters.Fight(self.encounter.row).log[-1]["lines"][-1])

    def test_bad_input(self):
        self.storyteller_fight("Guard")
        self.player(aim_command(), "", "<Fray> Usage: aim <target>")
        self.player(aim_command(), "Nobody", "<Fray> No combatant 'Nobody' in this fight.")
        self.player(aim_command(), "Char2", "<Fray> You cannot attack yourself.")
        self.st(aim_command(), "Guard", "<Fray> You are not in this fight: name the NPC you act for first")
        self.st(aim_command(), "Guard=Char2", "<Fray> It is not Guard's turn: waiting on Char2.")
        self.assertNotIn("aim", encounters.conditions_of(self.encounter, self.char2))


class TestAimInAeon(AeonFightTest):
    def test_aiming_adds_one_die_to_the_next_attack_at_that_target(self):
        out = self.player(aim_command(), "Thug")
        self.assertIn("<Combat> Char2 takes aim at Thug.", out)
        self.assertEqual(self.state(self.char2)["aim"], {"target": self.thug.id, "bonus": 1})
        self.next_round()
        self.force(9, 8, 7, 2, 2, 3)                 # Dexterity 3 + Brawl 2 + 1 (aim) = 6 dice
        out = self.player(fray.CmdAttack(), "Thug")
        self.assertIn("Char2 punch to hit: Dexterity 3 + Brawl 2 + 1 (modifier) = 6 dice TN 7, needs 1", out)
        self.assertNotIn("aim", self.state(self.char2))


class TestAimInEldritch(EldritchFightTest):
    def test_aiming_is_an_action_and_adds_one_to_the_next_roll_at_that_target(self):
        self.initiative(9, 5)                        # Char2 11, 6, 1; Thug 7, 2
        out = self.player(aim_command(), "Thug")
        self.assertIn("<Combat> Char2 takes aim at Thug.", out)
        self.assertEqual(self.state(self.char2)["actions_used"], 1)
        self.st(fray.CmdCombat(), "/next")           # the Thug passes at 7
        self.force(4)
        out = self.player(fray.CmdAttack(), "Thug")  # at 6, the second action
        self.assertIn("Char2 punch: Dexterity 3 + Brawl 2 - 2 (2nd action) + 1 (modifier) + d10 [4] = 8: failure",
                      out)
        self.assertNotIn("aim", self.state(self.char2))


class TestNoAimInElethril(ElethrilFightTest):
    def test_aim_is_refused(self):
        before = self.state()
        self.player(aim_command(), "Orc", "<Fray> The elethril rules have no aim.")
        self.assertEqual(self.state(), before)
