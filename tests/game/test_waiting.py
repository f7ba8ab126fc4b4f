"""The fight says what it waits for, through the commands: an attack waiting on a defense
stops its target acting and is named on the HUD; the Storyteller's +combat/timeout resolves
it with no defense once the wait is over (``world.timeouts``)."""

from commands import fray
from tests.game.test_combat_commands import FrayCommandTest
from world import dice, timeouts


class TestWaitingForADefense(FrayCommandTest):
    def punched(self):
        """Char2 (9) punches Guard (6): Guard's defense is awaited."""
        self.guard = self.storyteller_fight("Guard", Stamina=1, Dodge=1, Strength=1, Brawl=1)
        self.force(9, 9, 2, 2, 2)
        self.player(fray.CmdAttack(), "Guard")
        self.assertEqual(dice.forced_faces(), [])

    def test_the_target_must_answer_before_acting_and_the_hud_says_so(self):
        self.punched()
        self.st(fray.CmdAttack(), "Guard=Char2", "<Fray> Char2's punch waits for Guard's defense first: "
                                                 "defend Guard=dodge|block|none.")
        hud = self.st(fray.CmdCombat(), "")
        self.assertIn("Turn: Guard; waiting for Guard's defense", hud)
        self.st(fray.CmdCombat(), "/next", "<Fray> Nothing passed: waiting for Guard's defense. Let them answer, "
                                           "or +combat/resolve.")

    def test_an_unanswered_defense_resolves_with_none_once_the_timeout_is_over(self):
        self.punched()
        self.player(fray.CmdCombat(), "/timeout 30", "<Fray> Only this scene's Storyteller or staff can change "
                                                     "+combat/timeout.")
        self.st(fray.CmdCombat(), "/timeout 5", "<Fray> Give the wait in seconds, 10 to 3600, or off")
        self.st(fray.CmdCombat(), "/timeout 30", "<Combat> You give each defense 30 seconds: an attack left "
                                                 "unanswered that long resolves with no defense.")
        self.assertIn("Defenses wait 30 seconds, then resolve with none (+combat/timeout).",
                      self.st(fray.CmdCombat(), ""))
        fight = self.encounter.id
        attack = self.encounter.state.pending[0].id
        self.assertEqual(timeouts.due(), {(fight, attack): 30})
        self.force(2, 2)   # damage 2 dice (Strength 1 + 1 rollover), no success
        timeouts.lapse(fight, attack)
        self.assertEqual(self.encounter.state.pending, ())
        self.assertEqual(timeouts.due(), {})
        log = self.st(fray.CmdCombat(), "/log")
        self.assertIn("No defense from Guard within 30 seconds.", log)
        timeouts.lapse(fight, attack)   # answered meanwhile: nothing happens
        self.assertEqual(self.encounter.state.pending, ())
