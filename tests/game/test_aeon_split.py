"""Command tier: aeon multiple actions (the aeon seed, Grappling: "actions may
be split as normal", played with Trinity's rule) and the mount's Ride roll spending one of them
(item 24; Mounted Combat: "spend a dice action on a Ride roll every turn"). Forced dice.

Char2 (Dexterity 3, Brawl 2, Athletics 1, Ride 1; initiative 10) fights the NPC Thug
(Strength 3, Brawl 1; initiative 5): Char2 acts first.
"""

from commands import aeon, fray
from tests.game import fightview as encounters
from tests.game.test_aeon_commands import AeonFightTest
from world import dice, fights
from world.sheets import add_traits


class SplitTest(AeonFightTest):
    def tearDown(self):
        self.assertEqual(dice.forced_faces(), [], "every forced die is rolled, no more")
        super().tearDown()


class TestSplitDeclaration(SplitTest):
    def test_declaring_shows_the_penalties_logs_once_and_goes_on_the_hud(self):
        out = self.player(fray.CmdCombat(), "/split 2")
        self.assertIn("Char2 splits the round's actions.", out)
        self.assertIn("Char2 declares 2 actions: -2, -3 dice.", out)
        self.assertEqual(self.state(self.char2)["split"], 2)
        self.assertIn("Actions: Char2 2 of 2 actions left", self.player(fray.CmdCombat(), ""))
        entries = fights.log_entries(self.encounter, 1, fights.log_count(self.encounter))
        self.assertEqual([e["lines"] for e in entries if e["what"] == "split actions"],
                         [["Char2 declares 2 actions: -2, -3 dice."]])
        # The Storyteller declares for an NPC; 1 takes a split back.
        self.st(fray.CmdCombat(), "/split Thug=3", "<Combat> Thug splits the round's actions.")
        self.assertEqual(self.state(self.thug)["split"], 3)
        self.st(fray.CmdCombat(), "/split Thug=1")
        self.assertNotIn("split", self.state(self.thug))

    def test_refusals_change_nothing(self):
        before = dict(self.state(self.char2))
        self.player(fray.CmdCombat(), "/split 0", "<Fray> Declare 1 to 10 actions, not 0.")
        self.player(fray.CmdCombat(), "/split 99", "<Fray> Declare 1 to 10 actions, not 99.")
        self.player(fray.CmdCombat(), "/split two", "<Fray> Give the number of actions, 1 to 10: +combat/split 2")
        self.player(fray.CmdCombat(), "/split |r2", "<Fray> Give the number of actions, 1 to 10")
        self.player(fray.CmdCombat(), "/split ２", "<Fray> Give the number of actions, 1 to 10")
        self.player(fray.CmdCombat(), "/split", "<Fray> Usage: +combat/split <n>  or  +combat/split <npc>=<n>")
        self.player(fray.CmdCombat(), "/split 1", "<Fray> Char2 has one action already: there is no split")
        self.player(fray.CmdCombat(), "/split Thug=2",
                    "<Fray> You can only act for yourself; this scene's Storyteller acts for NPCs.")
        self.assertEqual(self.state(self.char2), before)
        self.assertNotIn("split", self.state(self.thug))

    def test_no_split_after_acting_and_the_round_clears_it(self):
        self.force(2, 2, 2, 2, 2)
        self.player(fray.CmdAttack(), "Thug")   # 0 successes: a miss, the action used
        self.player(fray.CmdCombat(), "/split 2",
                    "<Fray> Char2 has already acted this round: actions are split before the first.")
        self.st(fray.CmdCombat(), "/split Thug=2")
        self.next_round()
        self.assertNotIn("split", self.state(self.thug))
        self.assertNotIn("Actions:", self.player(fray.CmdCombat(), ""))

    def test_an_action_with_no_die_left_is_refused_before_rolling(self):
        self.player(fray.CmdCombat(), "/split 5")
        # Dexterity 3 + Brawl 2 = 5, -5 for the first of 5 actions: 0 dice.
        self.player(fray.CmdAttack(), "Thug",
                    "<Fray> Char2's attack would have 0 dice after -5 for action 1 of 5: too many actions")
        self.assertEqual(encounters.pending_attacks(self.encounter), [])
        self.assertNotIn("actions_used", self.state(self.char2))
        self.assertEqual(self.state(self.char2)["split"], 5)

    def test_not_in_other_systems(self):
        self.st(fray.CmdCombat(), "/end")
        self.st(fray.CmdCombat(), "/start storyteller")
        self.player(fray.CmdCombat(), "/join")
        self.player(fray.CmdCombat(), "/split 2", "<Fray> The storyteller rules have no split actions.")


class TestSplitActions(SplitTest):
    def test_two_attacks_in_one_turn_at_minus_2_then_minus_3(self):
        self.player(fray.CmdCombat(), "/split 2")
        # Punch: Dexterity 3 + Brawl 2 - 2 = 3 dice: 9 2 2 -> 1 success; the Thug takes it.
        self.force(9, 2, 2)
        out = self.player(fray.CmdAttack(), "Thug")
        self.assertIn("punch to hit: Dexterity 3 + Brawl 2 - 2 (action 1 of 2) = 3 dice", out)
        self.force(2, 2)   # damage: Strength 2 + 1 - soak 1 = 2 dice: no level
        self.st(fray.CmdDefend(), "Thug=none")
        # Still Char2's turn, one action left.
        self.assertEqual(encounters.current_slot(self.encounter)[1], [self.char2])
        self.assertIn("Actions: Char2 1 of 2 actions left", self.player(fray.CmdCombat(), ""))
        # The second: -3, 2 dice: 9 9 -> 2 successes.
        self.force(9, 9)
        out = self.player(fray.CmdAttack(), "Thug")
        self.assertIn("punch to hit: Dexterity 3 + Brawl 2 - 3 (action 2 of 2) = 2 dice", out)
        self.force(2, 2, 2)
        self.st(fray.CmdDefend(), "Thug=none")
        self.assertEqual(encounters.current_slot(self.encounter)[1], [self.thug])
        self.player(fray.CmdAttack(), "Thug", "<Fray> Char2 has already acted this round.")

    def test_leaving_and_rejoining_gains_no_action(self):
        # Adversary: leave and rejoin wiped the split and the actions used; the fighter split
        # again, or took the second action with no penalty, round after round.
        self.player(fray.CmdCombat(), "/split 2")
        self.force(2, 2, 2)   # the punch at -2: a miss
        self.player(fray.CmdAttack(), "Thug")
        self.player(fray.CmdCombat(), "/leave")
        self.player(fray.CmdCombat(), "/join")
        self.player(fray.CmdCombat(), "/split 2",
                    "<Fray> Char2 has already acted this round: actions are split before the first.")
        self.player(fray.CmdAttack(), "Thug", "<Fray> Char2 has already acted this round.")
        self.assertEqual(encounters.current_slot(self.encounter)[1], [self.thug])

    def test_attack_then_dodge_in_the_same_round(self):
        self.player(fray.CmdCombat(), "/split 2")
        self.force(2, 2, 2)   # the punch at -2: 3 dice, no success: a miss
        self.player(fray.CmdAttack(), "Thug")
        # The ST passes the rest of Char2's turn; the action left is kept for a defense.
        self.st(fray.CmdCombat(), "/next")
        self.assertEqual(encounters.current_slot(self.encounter)[1], [self.thug])
        # The Thug's punch: Dexterity 2 + Brawl 1 = 3 dice: 9 9 2 -> 2 successes.
        self.force(9, 9, 2)
        self.st(fray.CmdAttack(), "Thug=Char2")
        # Dodge: Dexterity 3 + Athletics 1 = 4, -3 for the second of 2 actions: 1 die: 8.
        self.force(8, 2, 2)
        out = self.player(fray.CmdDefend(), "dodge")
        self.assertIn("dodge: Dexterity 3 + Athletics 1 - 3 (action 2 of 2) = 1 die", out)
        self.assertIn("Char2's 1 success cancels 1 of 2", out)
        self.assertIn("Actions: Char2 0 of 2 actions left", self.player(fray.CmdCombat(), ""))

    def test_with_no_action_left_there_is_no_defense(self):
        self.player(fray.CmdCombat(), "/split 2")
        self.force(2, 2, 2)
        self.player(fray.CmdAttack(), "Thug")
        self.force(2, 2)
        self.player(fray.CmdAttack(), "Thug")   # both used: the turn passes to the Thug
        self.force(9, 9, 2, 7, 2, 2)
        out = self.st(fray.CmdAttack(), "Thug=Char2")
        self.assertIn("Char2 has already acted this round and cannot defend.", out)

    def test_a_defense_first_then_the_turn(self):
        self.st(fray.CmdCombat(), "/split Thug=2")
        self.force(9, 9, 2, 2, 2)   # Char2's punch: 2 successes
        self.player(fray.CmdAttack(), "Thug")
        # The Thug dodges with its first action: Dexterity 2 + Athletics 1 - 2 = 1 die: 8.
        self.force(8, 2, 2)   # and the damage: Strength 2 + 1 net - soak 1 = 2 dice
        out = self.st(fray.CmdDefend(), "Thug=dodge")
        self.assertIn("dodge: Dexterity 2 + Athletics 1 - 2 (action 1 of 2) = 1 die", out)
        # Its turn still comes, with the second action at -3: 3 - 3 = 0 dice, refused.
        self.assertEqual(encounters.current_slot(self.encounter)[1], [self.thug])
        self.st(fray.CmdAttack(), "Thug=Char2", "<Fray> Thug's attack would have 0 dice after -3 for action 2 of 2")


class TestSplitInAClinch(SplitTest):
    def test_contesting_control_is_one_action_and_the_other_may_attack(self):
        # Round 1: Char2 clinches the Thug: Dexterity 3 + Brawl 2 = 5 dice: 9 9 2 2 2 -> 2; taken.
        self.force(9, 9, 2, 2, 2)
        self.player(fray.CmdAttack(), "Thug/clinch")
        self.st(fray.CmdDefend(), "Thug=none")
        self.next_round()
        self.player(fray.CmdCombat(), "/split 2")
        # Before contesting, a clinched fighter may not attack.
        self.player(fray.CmdAttack(), "Thug", "<Fray> Char2 is in a clinch: contest control")
        # The contest, action 1 of 2: Char2 5 - 2 = 3 dice: 9 9 2; the Thug Strength 3 +
        # Brawl 1 = 4 dice: 2 2 2 2. Char2 holds by 2.
        self.force(9, 9, 2, 2, 2, 2, 2)
        out = self.player(aeon.CmdClinch(), "hold")
        self.assertIn("Dexterity 3 + Brawl 2 - 2 (action 1 of 2) = 3 dice", out)
        self.assertIn("Char2 controls the clinch by 2 net successes", out)
        # No dodge, parry or block in a clinch, split or not.
        self.assertEqual(encounters.current_slot(self.encounter)[1], [self.char2])
        # Action 2 of 2: a punch at -3: 2 dice: 9 2 -> 1. The Thug's action went to the contest:
        # no defense. Gross Strength 2 + 1 = 3 bashing - soak 1 = 2 dice: 7 2 -> 1 level.
        self.force(9, 2, 7, 2)
        out = self.player(fray.CmdAttack(), "Thug")
        self.assertIn("punch to hit: Dexterity 3 + Brawl 2 - 3 (action 2 of 2) = 2 dice", out)
        self.assertIn("Thug takes 1 level of bashing", out)
        self.assertEqual(self.state(self.char2)["clinch_with"], self.thug.id)


class TestRideRollIsAnAction(SplitTest):
    def test_a_rider_who_declared_nothing_takes_two_actions(self):
        self.player(aeon.CmdMount(), "horse")
        # Ride: Dexterity 3 + Ride 1 - 2 = 2 dice needing 2: 9 9 -> kept. Punch: Dexterity 3 +
        # Brawl 2 capped by Ride 1 - 3 = 1 die: 9 -> 1, +1 automatic against a foe on foot.
        self.force(9, 9, 9)
        out = self.player(fray.CmdAttack(), "Thug")
        self.assertIn("Char2 is counted as taking 2 actions: the Ride roll at -2, the attack at -3.", out)
        self.assertIn("ride: Dexterity 3 + Ride 1 - 2 (action 1 of 2) = 2 dice", out)
        self.assertIn("punch to hit: Dexterity 3 + Brawl 2, capped by Ride 1 - 3 (action 2 of 2) = 1 die", out)
        self.assertLess(out.index("ride:"), out.index("punch to hit"))
        self.assertEqual(encounters.open_actions(self.encounter, self.char2), [])
        self.force(2, 2, 2)
        self.st(fray.CmdDefend(), "Thug=none")
        entries = fights.log_entries(self.encounter, 1, fights.log_count(self.encounter))
        ride_lines = [line for e in entries for line in e["lines"] if line.startswith("Char2 ride:")]
        self.assertEqual(len(ride_lines), 1)

    def test_a_declared_split_counts_the_ride_roll_as_its_first_action(self):
        add_traits(self.char2, "aeon", Dexterity=5)
        self.player(fray.CmdCombat(), "/split 3")
        self.player(aeon.CmdMount(), "horse")
        # Ride: Dexterity 5 + Ride 1 - 3 = 3 dice: 9 9 2 -> kept. Punch: 5 + 1 - 4 = 2 dice.
        self.force(9, 9, 2, 9, 2)
        out = self.player(fray.CmdAttack(), "Thug")
        self.assertNotIn("counted as taking", out)
        self.assertIn("ride: Dexterity 5 + Ride 1 - 3 (action 1 of 3) = 3 dice", out)
        self.assertIn("Brawl 2, capped by Ride 1 - 4 (action 2 of 3) = 2 dice", out)
        self.force(2, 2, 2)
        self.st(fray.CmdDefend(), "Thug=none")
        # The third action needs no second Ride roll this round: the punch at -5: 1 die.
        self.force(9)
        out = self.player(fray.CmdAttack(), "Thug")
        self.assertNotIn("ride:", out)
        self.assertIn("- 5 (action 3 of 3) = 1 die", out)

    def test_losing_control_loses_the_rest_of_the_turn_and_any_defense(self):
        self.player(fray.CmdCombat(), "/split 2")
        self.player(aeon.CmdMount(), "horse")
        self.force(9, 2)   # Ride at -2: 2 dice, 1 success of 2: control lost
        out = self.player(aeon.CmdHide(), "")
        self.assertIn("Char2 loses control of the Horse!", out)
        self.assertIn("Char2 has no hiding this turn.", out)
        self.assertIn("Actions: Char2 0 of 2 actions left", self.player(fray.CmdCombat(), ""))
        # The Thug's punch 9 9 2 -> 2; undefended: Strength 3 + 2 - soak 2 = 3 dice: 2 2 2.
        self.force(9, 9, 2, 2, 2, 2)
        out = self.st(fray.CmdAttack(), "Thug=Char2")
        self.assertIn("Char2 has already acted this round and cannot defend.", out)

    def test_a_refused_attack_makes_no_ride_roll(self):
        self.player(aeon.CmdMount(), "elephant")
        self.player(fray.CmdAttack(), "Thug", "<Fray>")   # a punch from an elephant needs reach
        self.assertNotIn("ridden", self.state(self.char2))
        self.assertNotIn("split", self.state(self.char2))
