"""Command tier: Storyteller encounter control — add, remove, mod, idle, transfer, list, log,
link-dead players and quit."""

from unittest import mock

from commands import account, fray, npcs
from tests.game import fightview as encounters
from tests.game.test_combat_commands import FrayCommandTest


class ControlTest(FrayCommandTest):
    def setUp(self):
        super().setUp()
        self.call(fray.CmdCombat(), "/start", caller=self.char1)
        self.encounter = encounters.encounter_in(self.room1)

    def test_adding_some_already_in_names_them(self):
        self.player(fray.CmdCombat(), "/join")
        self.st(fray.CmdCombat(), "/add Char2,Char",
                "<Combat> Char is brought into the fight (Char2 already was).")

    def test_add_and_remove(self):
        self.st(fray.CmdCombat(), "/add Char2", "<Combat> Char2 is brought into the fight.")
        self.assertIn(self.char2, encounters.fighters(self.encounter))
        self.st(fray.CmdCombat(), "/add Nobody", "<Fray> No single character 'Nobody' here.")
        self.player(fray.CmdCombat(), "/add Char", "<Fray> Only this scene's Storyteller or staff can add")
        self.force(10)
        self.player(fray.CmdCombat(), "/init")
        self.force(1)
        self.st(npcs.CmdNpc(), "/init Guard=2+3")
        self.force(9, 9, 9, 2, 2)
        self.player(fray.CmdAttack(), "Guard")
        self.assertEqual(len(encounters.pending_attacks(self.encounter)), 1)
        out = self.st(fray.CmdCombat(), "/remove Guard")
        self.assertIn("The attack of Char2 on Guard is cancelled.", out)
        self.assertEqual(encounters.pending_attacks(self.encounter), [])

    def test_mod_for_next_roll_and_kept(self):
        self.player(fray.CmdCombat(), "/join")
        self.st(fray.CmdCombat(), "/mod Char2=-2", "<Combat> You set Char2's modifier: -2 dice for the next roll.")
        self.force(6, 6, 6)
        out = self.player(fray.CmdRoll(), "5")
        self.assertIn("5 - 2 (modifier) = 3 dice vs 6: 6 6 6", out)
        self.force(6, 6, 6, 6, 6)
        self.assertIn("rolls 5 dice vs 6", self.player(fray.CmdRoll(), "5"))  # used up
        self.st(fray.CmdCombat(), "/mod Char2=+1 keep", "<Combat> You set Char2's modifier: +1 dice until cleared.")
        for _ in range(2):
            self.force(6, 6, 6, 6, 6, 6)
            self.assertIn("5 + 1 (modifier) = 6 dice", self.player(fray.CmdRoll(), "5"))
        self.st(fray.CmdCombat(), "/mod Char2=0", "<Combat> You set Char2's modifier: cleared.")
        self.st(fray.CmdCombat(), "/mod Char2=+50", "<Fray> Give the change as a number from -10 to +10")
        self.st(fray.CmdCombat(), "/mod Char2=+1 forever", "<Fray> Usage: +combat/mod <name>=<+/-n>[ keep]")

    def test_idle_link_dead_and_back(self):
        self.player(fray.CmdCombat(), "/join")
        self.char2.at_post_unpuppet()
        self.assertTrue(encounters.is_idle(self.encounter, self.char2))
        self.assertIn(self.char2, encounters.fighters(self.encounter))
        self.assertIn("idle", self.st(fray.CmdCombat(), ""))
        notice = encounters.reconnect_notice(self.char2)
        self.assertIn("Round 1", notice)
        self.assertFalse(encounters.is_idle(self.encounter, self.char2))
        self.st(fray.CmdCombat(), "/idle Char2", "<Combat> Char2 is idle: attacks on them resolve")
        self.st(fray.CmdCombat(), "/idle Char2", "<Combat> Char2 is no longer idle.")

    def test_quit_in_a_fight_warns_first(self):
        self.assertEqual(self.session.puppet, self.char1)
        self.st(fray.CmdCombat(), "/join")
        with mock.patch("evennia.commands.default.account.CmdQuit.func") as evennia_quit:
            self.call(account.CmdQuit(), "", "<Combat> You are in a fight here.", caller=self.account)
            evennia_quit.assert_not_called()
            self.call(account.CmdQuit(), "", caller=self.account)  # the second quit leaves
            evennia_quit.assert_called_once()
        self.assertIn(self.char1, encounters.fighters(self.encounter))

    def test_transfer(self):
        self.st(fray.CmdCombat(), "/transfer Char2", "<Fray> Char2 is not a Narrator or staff member.")
        self.st(fray.CmdCombat(), "/transfer Nobody", "<Fray> No player 'Nobody' here.")
        self.account2.permissions.add("Narrator")
        self.st(fray.CmdCombat(), "/transfer Char2", "<Combat> You hand the scene to Char2")
        self.assertEqual(self.encounter.storyteller, self.char2)
        self.st(fray.CmdCombat(), "/join")
        self.player(fray.CmdCombat(), "/mod Char=+1", "<Combat> You set Char's modifier")

    def test_list_and_log(self):
        self.player(fray.CmdCombat(), "/list", "<Fray> Only staff (Builder or above) can list every fight.")
        listing = self.st(fray.CmdCombat(), "/list")
        self.assertIn(f"Room(#{self.room1.id})", listing)
        self.assertIn("storyteller", listing)
        self.player(fray.CmdCombat(), "/join")
        self.force(4)
        self.player(fray.CmdCombat(), "/init")
        self.st(fray.CmdCombat(), "/mod Char2=+1")
        self.force(6, 6, 6, 6, 6, 6)
        self.player(fray.CmdRoll(), "/private Dex+Brawl vs 7")
        log = self.st(fray.CmdCombat(), "/log")
        self.assertIn("Roll log, page 1 of 1 (2 entries)", log)
        self.assertIn("#1 R1 Char2: initiative", log)
        self.assertIn("Wits 2 + Dexterity 3 = 5 + 1d10 (4) = 9", log)
        self.assertIn("#2 R1 Char2: private roll", log)
        self.assertIn("Dexterity 3 + Brawl 2 + 1 (modifier) = 6 dice vs 7: 6 6 6 6 6 6", log)
        self.assertIn("dice +1 (Storyteller)", log)
        self.st(fray.CmdCombat(), "/log 9", "<Fray> Give a page from 1 to 1.")
        self.player(fray.CmdCombat(), "/log", "<Fray> Only this scene's Storyteller or staff can read the roll log.")


class TestSeveralFights(FrayCommandTest):
    def test_fights_in_different_rooms_are_independent(self):
        self.call(fray.CmdCombat(), "/start", caller=self.char1)
        self.char2.move_to(self.room2, quiet=True)
        self.account2.permissions.add("Narrator")
        self.player(fray.CmdCombat(), "/start", "<Combat> You start a fight (storyteller).")
        first, second = encounters.encounter_in(self.room1), encounters.encounter_in(self.room2)
        self.assertNotEqual(first, second)
        self.force(10)
        self.player(fray.CmdCombat(), "/join")
        self.player(fray.CmdCombat(), "/init")
        self.assertEqual(encounters.fighters(first), [])
        self.assertEqual(encounters.fighters(second), [self.char2])
        self.st(fray.CmdCombat(), "/end")
        self.assertIsNone(encounters.encounter_in(self.room1))
        self.assertEqual(encounters.encounter_in(self.room2), second)
        listing = self.st(fray.CmdCombat(), "/list")
        self.assertIn(f"{self.room2.key}(#{self.room2.id})", listing)


class TestOneFightAtATime(FrayCommandTest):
    def test_a_fighter_cannot_join_a_second_fight_and_idles_when_walking_out(self):
        self.call(fray.CmdCombat(), "/start", caller=self.char1)
        first = encounters.encounter_in(self.room1)
        self.player(fray.CmdCombat(), "/join")
        self.st(fray.CmdCombat(), "/add Char2", "<Fray> Char2 is already in this fight.")
        self.st(fray.CmdCombat(), "/transfer Char", "<Fray> Char already runs this scene.")
        self.char2.move_to(self.room2, quiet=True)
        self.assertTrue(encounters.is_idle(first, self.char2))
        self.account2.permissions.add("Narrator")
        self.player(fray.CmdCombat(), "/start")
        self.player(fray.CmdCombat(), "/join", f"<Fray> Char2 is already in the fight in {self.room1.key}: "
                                               "+combat/leave first.")
        self.assertEqual(encounters.fighters(encounters.encounter_in(self.room2)), [])
