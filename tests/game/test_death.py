"""Death needs a decision, through the commands: a blow that would kill a player character
leaves them dying (HUD: DYING) until the Storyteller's +combat/kill or +combat/spare; a
lethal fight skips the decision; the AI leaves the helpless alone unless +combat/helpless."""

from commands import fray
from rules.systems import get_system
from tests.game.test_combat_commands import FrayCommandTest
from world import dice
from world.sheets import store_health, stored


class DeathTest(FrayCommandTest):
    def at_deaths_door(self, start="/start"):
        """Char2 (a full track of lethal: any more is death) against Guard, Guard to act."""
        self.storyteller_fight("Guard", start=start, Strength=2, Brawl=1, Stamina=2, Dodge=1)
        store_health(self.char2, get_system("storyteller"), {"lethal": 7})

    def punch(self):
        self.force(*[8] * 11)   # 4 to hit, 5 damage, 2 soak: 3 levels of bashing
        out = self.st(fray.CmdAttack(), "Guard=Char2")
        self.assertEqual(dice.forced_faces(), [])
        return out


class TestDying(DeathTest):
    def test_a_deadly_punch_leaves_the_player_dying_until_the_storyteller_kills(self):
        self.at_deaths_door()
        out = self.punch()
        self.assertIn("  Char2 takes 3 levels of bashing: Incapacitated [LLLLLLL], dying\n"
                      "<Combat> Char2 is dying: that would kill them. The Storyteller decides: "
                      "+combat/kill Char2, or +combat/spare Char2.", out)
        self.assertIn(" 1   Char2               9     Incapacitated [LLLLLLL]  down, DYING",
                      self.st(fray.CmdCombat(), ""))
        self.player(fray.CmdCombat(), "/kill Char2", "<Fray> Only this scene's Storyteller or staff can decide a death.")
        self.st(fray.CmdCombat(), "/kill Guard", "<Fray> Guard is not dying: only a player character the rules would "
                                                 "have killed waits for this.")
        self.st(fray.CmdCombat(), "/kill Char2", "<Combat> Char2 dies. Allowed by Char.")
        self.assertIn("Dead [LLLLLLL]", self.st(fray.CmdCombat(), ""))
        self.assertTrue(get_system("storyteller").health(stored(self.char2)["health"]["storyteller"]).dead)

    def test_spared_the_player_lives_at_deaths_door(self):
        self.at_deaths_door()
        self.punch()
        self.st(fray.CmdCombat(), "/spare Char2", "<Combat> You spare Char2, who lives, at death's door.")
        self.assertIn(" 1   Char2               9     Incapacitated [LLLLLLL]  down  ",
                      self.st(fray.CmdCombat(), ""))
        self.st(fray.CmdCombat(), "/spare Char2", "<Fray> Char2 is not dying")

    def test_a_lethal_fight_kills_with_no_decision_and_names_who_made_it_lethal(self):
        self.at_deaths_door(start="/start lethal")
        self.assertIn("Lethal fight (set by Char): player characters die with no decision.",
                      self.st(fray.CmdCombat(), ""))
        self.assertIn("<Combat> Char2 dies. Allowed by Char (a lethal fight).", self.punch())

    def test_lethal_and_helpless_switch_on_and_off_and_refuse_anything_else(self):
        self.storyteller_fight("Guard")
        self.st(fray.CmdCombat(), "/lethal maybe", "<Fray> Usage: +combat/lethal [on or off]")
        self.player(fray.CmdCombat(), "/lethal", "<Fray> Only this scene's Storyteller or staff can change +combat/lethal.")
        self.st(fray.CmdCombat(), "/lethal", "<Combat> You make this a lethal fight")
        self.st(fray.CmdCombat(), "/lethal on", "<Fray> +combat/lethal is already on in this fight.")
        self.st(fray.CmdCombat(), "/lethal off", "<Combat> You make this fight no longer lethal")
        self.st(fray.CmdCombat(), "/helpless on", "<Combat> You let the AI attack the helpless")
        self.assertIn("The AI may attack the helpless (set by Char).", self.st(fray.CmdCombat(), ""))


class TestTheAiAndTheHelpless(DeathTest):
    def test_the_ai_passes_over_a_downed_player_unless_the_storyteller_allows_it(self):
        self.at_deaths_door()   # Char2 is down (a full track), not dying
        out = self.st(fray.CmdCombat(), "/ai Guard")
        self.assertIn("<Combat> Guard (AI) passes: only the helpless are left, and +combat/helpless is off.", out)
        self.assertEqual(stored(self.char2)["health"]["storyteller"]["lethal"], 7)
        self.st(fray.CmdCombat(), "/helpless")
        self.force(*[8] * 12)   # kick: 4 to hit, 6 damage, 2 soak
        out = self.st(fray.CmdCombat(), "/next")   # round 2: Guard's turn again
        self.assertIn("<Combat> Guard's kick at Char2:\n  Char2 is down and cannot defend.", out)
        self.assertIn("<Combat> Char2 is dying", out)
        self.assertEqual(dice.forced_faces(), [])
