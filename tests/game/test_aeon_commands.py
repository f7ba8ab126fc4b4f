"""Command tier: an aeon fight through the real commands, with forced dice (the aeon seed)."""

from commands import aeon, fray, npcs
from tests.game import fightview as encounters
from tests.game.test_combat_commands import FrayCommandTest
from world.sheets import add_traits, sheet_of, traits_of, update_sheet, weapon_of


class AeonFightTest(FrayCommandTest):
    """An aeon fight: Char2 (a Baseline) against the NPC Thug, initiative rolled, Char2 first."""

    def setUp(self):
        super().setUp()
        update_sheet(self.char2, "aeon", traits={"Dexterity": 3, "Brawl": 2, "Strength": 2, "Wits": 2, "Stamina": 2, "Stealth": 2,
                            "Awareness": 1, "Melee": 2, "Athletics": 1, "Ride": 1})
        self.st(fray.CmdCombat(), "/start aeon")
        self.encounter = encounters.encounter_in(self.room1)
        self.player(fray.CmdCombat(), "/join")
        self.force(5)
        self.player(fray.CmdCombat(), "/init", "<Combat> Char2 rolls initiative: Dexterity 3 + Wits 2 = 5 + 1d10 (5) = 10.")
        self.force(1)
        self.st(npcs.CmdNpc(), "/init Thug=2+2")
        self.thug = encounters.find_combatant(self.encounter, "Thug")
        update_sheet(self.thug, "aeon", traits={"Wits": 2, "Dexterity": 2, "Stamina": 1, "Strength": 3, "Brawl": 1, "Athletics": 1,
                           "Awareness": 1})

    def state(self, obj):
        return encounters.conditions_of(self.encounter, obj)

    def health(self, obj):
        return dict(obj.health.get("aeon", {}))

    def next_round(self) -> str:
        """The ST passes everyone still to act; returns what the new round's start said."""
        start = self.encounter.round
        out = ""
        while self.encounter.round == start:
            out = self.st(fray.CmdCombat(), "/next")
        return out


class TestAeonAttack(AeonFightTest):
    def test_punch_soak_and_wound_chart(self):
        # Dexterity 3 + Brawl 2 = 5 dice at TN 7: 9 8 3 2 1 -> 2 successes; the Thug may defend.
        self.force(9, 8, 3, 2, 1)
        out = self.player(fray.CmdAttack(), "Thug")
        self.assertIn("punch to hit: Dexterity 3 + Brawl 2 = 5 dice", out)
        self.assertEqual(len(encounters.pending_attacks(self.encounter)), 1)
        # No defense: gross = Strength 2 + 2 net = 4 bashing; soak Stamina 1 (hardness 0):
        # 3 dice: 7 7 2 -> 2 levels.
        self.force(7, 7, 2)
        out = self.st(fray.CmdDefend(), "Thug=none")
        self.assertIn("gross damage: Strength 2 + net successes 2 = 4 (bashing)", out)
        self.assertIn("Thug takes 2 levels of bashing", out)
        self.assertEqual(self.health(self.thug)["bashing"], 2)

    def test_called_shot_by_its_short_name_and_armor_hardness(self):
        # The Thug wears an approved Hardsuit (5/5): lethal soak 5, hardness 2.
        self.thug.armor_notes = [{"id": 1, "system": "aeon", "soak": {"bashing": 5, "lethal": 5}}]
        self.thug.worn_armor = 1
        update_sheet(self.char2, "aeon", weapon="knife")
        # Knife + Showing Off 2: needs 3 successes; Dexterity 3 + Melee 2: 9 9 8 1 1 -> 3.
        self.force(9, 9, 8, 1, 1)
        self.player(fray.CmdAttack(), "Thug/knife+showoff 2")
        # Gross = Strength 2 + Knife 1 + net 3 = 6 lethal vs soak 5, hardness 2: 1 die, 7 -> 1 level.
        self.force(7)
        out = self.st(fray.CmdDefend(), "Thug=none")
        self.assertIn("gross damage: Strength 2 + Knife 1 + net successes 3 = 6 (lethal)", out)
        self.assertIn("armor 5", out)
        self.assertEqual(self.health(self.thug)["lethal"], 1)

    def test_gross_below_hardness_does_nothing(self):
        self.thug.armor_notes = [{"id": 1, "system": "aeon", "soak": {"bashing": 8, "lethal": 5}}]
        self.thug.worn_armor = 1
        # Punch: 9 3 3 2 2 -> 1 success; gross 2 + 1 = 3 bashing vs soak 9 (Stamina 1 + armor 8), hardness 4.
        self.force(9, 3, 3, 2, 2)
        self.player(fray.CmdAttack(), "Thug")
        out = self.st(fray.CmdDefend(), "Thug=none")
        self.assertIn("gross damage 3 is below hardness 4: no effect.", out)
        self.assertEqual(self.health(self.thug).get("bashing", 0), 0)

    def test_disarm_and_pick_up(self):
        update_sheet(self.thug, "aeon", weapon="club")
        # Disarm (+2): needs 3; 9 9 9 8 1 -> 4 successes. The Thug: Wits 2 + Melee 0 vs 4: 7 2 -> 1;
        # 3 short: the club flies 3 feet.
        self.force(9, 9, 9, 8, 1)
        self.player(fray.CmdAttack(), "Thug/disarm")
        self.force(7, 2)
        out = self.st(fray.CmdDefend(), "Thug=none")
        self.assertIn("weapon flies 3 feet away", out)
        self.assertEqual(weapon_of(self.thug, "aeon"), "")
        self.assertEqual(encounters.dropped_weapons(self.encounter), [{"weapon": "club", "owner": "Thug", "feet": 3}])
        self.assertIn("On the ground: Thug's club (3 ft)", self.player(fray.CmdCombat(), ""))
        # The Thug's turn: Dexterity 2 + Melee 0, 1 success needed: 8 3 -> in hand.
        self.force(8, 3)
        out = self.st(aeon.CmdPickup(), "Thug=club")
        self.assertIn("Thug has the Club in hand.", out)
        self.assertEqual(weapon_of(self.thug, "aeon"), "club")
        self.assertEqual(encounters.dropped_weapons(self.encounter), [])


class TestAeonClinch(AeonFightTest):
    def test_clinch_then_crush(self):
        # Clinch: control pool Dexterity 3 + Brawl 2 = 5: 8 8 1 1 1 -> 2 successes.
        self.force(8, 8, 1, 1, 1)
        self.player(fray.CmdAttack(), "Thug/clinch")
        out = self.st(fray.CmdDefend(), "Thug=none")
        self.assertIn("clinches Thug and controls the first turn", out)
        self.assertEqual(self.state(self.thug)["clinch_with"], self.char2.id)
        self.assertEqual(self.state(self.thug)["held_by"], self.char2.id)
        self.assertEqual(self.state(self.char2)["clinch_with"], self.thug.id)
        self.assertIn("clinch:Char2", self.player(fray.CmdCombat(), ""))
        # Clinched: no dodge, parry or block, no other attack.
        self.st(fray.CmdAttack(), "Thug=Char2", "<Fray> Thug is in a clinch: contest control with")
        self.st(fray.CmdCombat(), "/next")
        # Round 2. Char2 crushes: Char2 5 dice 9 9 8 2 2 -> 3; Thug Strength 3 + Brawl 1 = 4: 7 2 2 2 -> 1.
        # Net 2: gross = Strength 2 + 2 = 4 bashing, Armor Piercing 2: soak 1 - 2 -> 0, 4 dice: 7 7 7 1 -> 3.
        self.force(9, 9, 8, 2, 2, 7, 2, 2, 2, 7, 7, 7, 1)
        out = self.player(aeon.CmdClinch(), "crush")
        self.assertIn("Thug takes 3 levels of bashing", out)
        self.assertEqual(self.health(self.thug)["bashing"], 3)
        # The contest used the Thug's action too.
        self.assertEqual(encounters.open_actions(self.encounter, self.thug), [])

    def test_accepted_clinch_and_both_declining(self):
        self.force(8, 1, 1, 1, 1)
        self.player(fray.CmdAttack(), "Thug/clinch")
        # The Thug accepts: both roll control. Char2 9 2 2 2 2 -> 1; Thug 4 dice 9 9 2 2 -> 2.
        self.force(9, 2, 2, 2, 2, 9, 9, 2, 2)
        out = self.st(fray.CmdDefend(), "Thug=accept")
        self.assertIn("Thug accepts Char2's clinch: both roll for control.", out)
        self.assertEqual(self.state(self.char2)["held_by"], self.thug.id)
        self.st(fray.CmdCombat(), "/next")
        self.st(aeon.CmdClinch(), "/plan Thug=decline")
        out = self.player(aeon.CmdClinch(), "decline")
        self.assertIn("the clinch ends", out)
        self.assertNotIn("clinch_with", self.state(self.char2))
        self.assertNotIn("clinch_with", self.state(self.thug))

    def test_clinch_refusals(self):
        self.player(aeon.CmdClinch(), "hold", "<Fray> Char2 is not in a clinch (attack <target>/clinch starts one).")
        self.force(8, 1, 1, 1, 1)
        self.player(fray.CmdAttack(), "Thug/clinch")
        self.st(fray.CmdDefend(), "Thug=block", "<Fray> A clinch can be dodged, parried or accepted, not met with block.")
        self.st(fray.CmdDefend(), "Thug=none")
        self.player(aeon.CmdClinch(), "squeeze", "<Fray> Choose hold, crush, break [release|ground|throw] or decline.")
        self.player(aeon.CmdClinch(), "hold throw", "<Fray> Only break takes throw:")
        self.player(fray.CmdEscape(), "", "<Fray> The aeon rules have no escape")


class TestAeonSurpriseAndHiding(AeonFightTest):
    def test_opening_ambush_leaves_no_defense(self):
        self.st(npcs.CmdNpc(), "/create Sniper")
        self.st(fray.CmdCombat(), "/add Sniper")
        sniper = encounters.find_combatant(self.encounter, "Sniper")
        update_sheet(sniper, "aeon", traits={"Dexterity": 3, "Stealth": 3, "Firearms": 2})
        update_sheet(sniper, "aeon", weapon="pistol")
        # Stealth 6 dice: 9 9 8 2 2 2 -> 3; Char2 Wits 2 + Awareness 1: 7 2 2 -> 1. Sniper wins.
        # Pistol: Dexterity 3 + Firearms 2: 9 9 2 2 2 -> 2; no defense: gross 5 + 2 = 7 lethal,
        # no lethal soak: 7 dice 7 7 2 2 2 2 2 -> 2 levels.
        self.force(9, 9, 8, 2, 2, 2, 7, 2, 2, 9, 9, 2, 2, 2, 7, 7, 2, 2, 2, 2, 2)
        out = self.st(aeon.CmdAmbush(), "Sniper=Char2/pistol")
        self.assertIn("Char2 cannot defend", out)
        self.assertIn("caught by surprise", out)
        self.assertEqual(encounters.pending_attacks(self.encounter), [])
        self.assertEqual(self.health(self.char2)["lethal"], 2)
        self.st(aeon.CmdAmbush(), "Sniper=Char2", "<Fray> Sniper has already made an opening ambush")

    def test_hide_then_ambush_a_witness_who_lost_track(self):
        # Char2 hides: Dexterity 3 + Stealth 2, needs 3 (witnesses): 9 9 8 8 1 -> 4.
        # The Thug: Wits 2 + Awareness 1: 6 2 2 -> no success: loses track.
        self.force(9, 9, 8, 8, 1, 6, 2, 2)
        out = self.player(aeon.CmdHide(), "")
        self.assertEqual(self.state(self.char2)["hidden_from"], [self.thug.id])
        self.assertIn("hidden", self.player(fray.CmdCombat(), ""))
        self.assertIn("Thug", out)
        self.st(fray.CmdCombat(), "/next")  # the Thug passes: round 2
        # Ambush from hiding: Stealth 9 9 2 2 2 -> 2 vs Thug 2 2 2 -> 0: wins. Punch 9 2 2 2 2 -> 1:
        # gross 2 + 1 = 3 bashing, soak 1: 2 dice 7 2 -> 1 level.
        self.force(9, 9, 2, 2, 2, 2, 2, 2, 9, 2, 2, 2, 2, 7, 2)
        self.player(aeon.CmdAmbush(), "Thug")
        self.assertEqual(self.health(self.thug)["bashing"], 1)
        self.assertNotIn("hidden_from", self.state(self.char2))

    def test_ambush_refused_when_seen(self):
        self.player(aeon.CmdAmbush(), "Thug", "<Fray> Thug knows where Char2 is")


class TestAeonMounted(AeonFightTest):
    def test_mount_caps_and_bonus(self):
        add_traits(self.char2, "aeon", Ride=3, Melee=4)
        self.player(aeon.CmdMount(), "horse", "<Combat> Char2 mounts the Horse.")
        self.assertIn("on horse", self.player(fray.CmdCombat(), ""))
        update_sheet(self.char2, "aeon", weapon="sword")
        # Melee 4 capped at Ride 3: Dexterity 3 + Melee 3 = 6 dice, +1 automatic success vs foes on foot.
        self.force(2, 2, 2, 2, 2, 2)
        out = self.player(fray.CmdAttack(), "Thug")
        self.assertIn("Dexterity 3 + Melee 4, capped by Ride 3 = 6 dice", out)
        self.assertIn("+ 1 automatic", out)

    def test_ride_caps_every_turns_clinch_contest(self):
        # Seed (Mounted Combat): "All offensive and defensive Abilities used while mounted have
        # their base values limited by the rider's rating in Ride": each turn's control roll too.
        add_traits(self.char2, "aeon", Ride=3, Brawl=4)
        self.player(aeon.CmdMount(), "horse")
        self.force(9, 8, 2, 2, 2, 2)
        out = self.player(fray.CmdAttack(), "Thug/clinch")
        self.assertIn("Char2 clinch to hit: Dexterity 3 + Brawl 3 = 6 dice", out)     # Brawl 4 at Ride 3
        self.st(fray.CmdDefend(), "Thug=none")
        self.next_round()
        self.force(9, 2, 2, 2, 2, 2, 2, 2, 2, 2)
        out = self.player(aeon.CmdClinch(), "hold")
        self.assertIn("Dexterity 3 + Brawl 3 = 6 dice", out)
        self.assertNotIn("Brawl 4", out)

    def test_control_roll_failure_loses_the_action(self):
        # Ride 1 < Control Rating 2: Dexterity 3 + Ride 1 needs 2, -2 for the Ride roll's dice
        # action (seed, Mounted Combat): 2 dice: 9 2 -> 1: control lost.
        self.player(aeon.CmdMount(), "horse")
        self.force(9, 2)
        out = self.player(fray.CmdAttack(), "Thug")
        self.assertIn("Char2 loses control of the Horse!", out)
        self.assertIn("Char2 has no attack this turn.", out)
        self.assertEqual(encounters.open_actions(self.encounter, self.char2), [])

    def test_mount_refusals(self):
        self.player(aeon.CmdMount(), "", "<Fray> Usage: +mount")
        self.player(aeon.CmdDismount(), "", "<Fray> Char2 is on foot.")
        self.player(aeon.CmdMount(), "unicorn", "<Fray> No mount")
        self.player(aeon.CmdMount(), "horse/99", "<Fray>")
        self.assertNotIn("mount", self.state(self.char2))
        self.player(aeon.CmdMount(), "elephant")
        self.player(aeon.CmdMount(), "horse", "<Fray> Char2 is already mounted: +dismount first.")
        self.player(fray.CmdAttack(), "Thug", "<Fray>")  # a punch from an elephant needs reach
        self.player(aeon.CmdDismount(), "", "<Combat> Char2 dismounts.")


class TestAeonBleeding(AeonFightTest):
    def test_bleeding_every_ten_rounds_until_treated(self):
        # 3 lethal of 7 levels is more than a third: the Baseline bleeds.
        self.char2.health = {"aeon": {"bashing": 0, "lethal": 3, "aggravated": 0}}
        self.st(fray.CmdCombat(), "/next")
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Char2 is bleeding: 1 lethal level every 10 rounds until treated.", out)
        self.assertEqual(self.state(self.char2)["bleeding_since"], 2)
        for _ in range(9):
            self.st(fray.CmdCombat(), "/next")
            self.st(fray.CmdCombat(), "/next")
        self.assertEqual(self.encounter.round, 11)
        self.assertEqual(self.health(self.char2)["lethal"], 3)
        self.st(fray.CmdCombat(), "/next")
        out = self.st(fray.CmdCombat(), "/next")
        self.assertEqual(self.encounter.round, 12)
        self.assertIn("Char2 bleeds: 1 lethal level", out)
        self.assertEqual(self.health(self.char2)["lethal"], 4)
        self.st(fray.CmdCombat(), "/treat Char2")
        self.assertTrue(self.state(self.char2)["treated"])
        self.st(fray.CmdCombat(), "/treat Char2", "<Fray> Char2's wounds are already treated.")

    def test_zetas_never_bleed(self):
        update_sheet(self.char2, "aeon", kind="Zeta")
        self.char2.health = {"aeon": {"bashing": 0, "lethal": 5, "aggravated": 0}}
        self.st(fray.CmdCombat(), "/next")
        out = self.st(fray.CmdCombat(), "/next")
        self.assertNotIn("bleeding", out)


class TestAeonHealing(AeonFightTest):
    def test_aggravated_wounds_are_hard_to_heal_and_stay_after_heal_all(self):
        # seed (Damage Types): aggravated damage "is particularly hard to heal"
        self.char2.health = {"aeon": {"bashing": 1, "lethal": 2, "aggravated": 2}}
        out = self.st(fray.CmdHeal(), "Char2=all")
        self.assertIn("Char2: Mauled (-2) [AALLB..] - all -> Hurt (-1) [AA.....] (the aeon rules heal what is "
                      "left only by name: +heal Char2=<levels> <type>)", out)
        self.assertEqual(self.char2.health["aeon"], {"bashing": 0, "lethal": 0, "aggravated": 2, "extra": 0})
        self.st(fray.CmdHeal(), "Char2=2 aggravated")
        self.assertEqual(self.char2.health["aeon"], {"bashing": 0, "lethal": 0, "aggravated": 0, "extra": 0})


class TestAeonRolls(AeonFightTest):
    def test_roll_vs_successes_needed_and_bad_input(self):
        self.force(9, 8, 2, 2, 2)
        out = self.player(fray.CmdRoll(), "Dexterity+Brawl vs 2")
        self.assertIn("needs 2", out)
        self.assertIn("2 successes", out)
        self.player(fray.CmdRoll(), "Dexterity vs 0", "<Fray> Difficulty is the successes needed: 1 to 10, not 0.")
        self.player(fray.CmdRoll(), "Dexterity vs -3", "<Fray> Difficulty is the successes needed: 1 to 10, not -3.",
                    use_assertequal=True)
        self.player(fray.CmdRoll(), "Dexterity vs 99999999999",
                    "<Fray> Difficulty is the successes needed: 1 to 10, not 99999999999.", use_assertequal=True)
        self.player(fray.CmdRoll(), "2-5", "<Fray> The pool comes to -3 dice: it cannot be negative.")
        self.player(fray.CmdAttack(), "Thug/disarm", "<Fray> Thug holds no weapon to disarm.")

    def test_a_forced_face_that_does_not_fit_is_one_clear_line(self):
        self.force(12)
        self.player(fray.CmdRoll(), "Dexterity",
                    "<Fray> Forced face 12 does not fit a d10. Clear the queue with @dice/clear.")
        self.force(9, 2, 2)
        self.player(fray.CmdRoll(), "Dexterity", "<Roll> Char2 rolls Dexterity 3 dice TN 7, needs 1: 9 2 2 -> 1 success")


class TestAeonAsTheGameDefault(FrayCommandTest):
    def test_default_system_setting_picks_aeon(self):
        from django.test import override_settings

        update_sheet(self.char2, "aeon", traits={"Dexterity": 3, "Firearms": 2})
        with override_settings(FRAY_DEFAULT_SYSTEM="aeon"):
            # Outside any fight +roll follows the default: TN 7, successes needed.
            self.force(9, 7, 6, 2, 1)
            self.player(fray.CmdRoll(), "Dexterity+Firearms vs 2",
                        "<Roll> Char2 rolls Dexterity 3 + Firearms 2 = 5 dice TN 7, needs 2: 9 7 6 2 1 -> 2 successes")
            self.st(fray.CmdCombat(), "/start")
        self.assertEqual(encounters.encounter_in(self.room1).system_key, "aeon")


class TestAdversaryFindings(AeonFightTest):
    def test_a_weapon_not_in_hand_cannot_be_used(self):
        self.player(fray.CmdAttack(), "Thug/rifle", "<Fray> Char2 holds no rifle (empty-handed).")
        self.assertEqual(encounters.open_actions(self.encounter, self.char2), [10])

    def test_whoever_lost_track_cannot_attack_the_hider(self):
        self.force(9, 9, 8, 8, 1, 6, 2, 2)  # the Thug rolls no success: loses track
        self.player(aeon.CmdHide(), "")
        self.st(fray.CmdAttack(), "Thug=Char2", "<Fray> Thug has lost track of Char2, who is hiding.")

    def test_lost_until_something_clearly_shows_where_they_are(self):
        # Seed (Surprise Attacks): those who fail "lose track of the character until something is
        # done to clearly illustrate their location": the Storyteller judges it (+combat/reveal),
        # or the hider mounts up in plain view.
        self.force(9, 9, 8, 8, 1, 6, 2, 2)
        self.player(aeon.CmdHide(), "")
        self.player(fray.CmdCombat(), "/reveal Char2", "<Fray> Only this scene's Storyteller or staff can reveal")
        self.st(fray.CmdCombat(), "/reveal Thug", "<Fray> Thug is not hiding from anyone.")
        self.st(fray.CmdCombat(), "/reveal Char2",
                "<Combat> You make it plain where Char2 is: nobody has lost track of them now.")
        self.assertNotIn("hidden_from", self.state(self.char2))
        self.st(fray.CmdCombat(), "/next")          # the Thug passes: round 2, Char2 hides again
        self.force(9, 9, 8, 8, 1, 6, 2, 2)
        self.player(aeon.CmdHide(), "")
        self.assertEqual(self.state(self.char2)["hidden_from"], [self.thug.id])
        self.player(aeon.CmdMount(), "horse")
        self.assertNotIn("hidden_from", self.state(self.char2))

    def test_treat_only_the_bleeding_and_not_while_held(self):
        self.player(fray.CmdCombat(), "/treat Thug", "<Fray> Thug is not bleeding.")
        self.assertEqual(encounters.open_actions(self.encounter, self.char2), [10])
        self.thug.health = {"aeon": {"bashing": 0, "lethal": 3, "aggravated": 0}}
        encounters.update_conditions(self.encounter, self.char2, held_by=self.thug.id)
        self.player(fray.CmdCombat(), "/treat Thug", "<Fray> Char2 is held and can only try to escape")
        encounters.update_conditions(self.encounter, self.char2, held_by=None)
        self.player(fray.CmdCombat(), "/treat Thug", "<Combat> You treat Thug's wounds: no more bleeding.")
        self.assertEqual(encounters.open_actions(self.encounter, self.char2), [])

    def test_treated_clears_once_healed_so_new_wounds_bleed(self):
        self.st(fray.CmdCombat(), "/treat Char2", "<Fray> Char2 is not bleeding.")
        self.char2.health = {"aeon": {"bashing": 0, "lethal": 3, "aggravated": 0}}
        self.st(fray.CmdCombat(), "/treat Char2")
        self.char2.health = {"aeon": {}}
        self.next_round()
        self.assertNotIn("treated", self.state(self.char2))
        self.char2.health = {"aeon": {"bashing": 0, "lethal": 3, "aggravated": 0}}
        self.assertIn("Char2 is bleeding", self.next_round())

    def test_st_dice_apply_to_the_control_roll_of_an_accepted_clinch(self):
        self.force(8, 1, 1, 1, 1)
        self.player(fray.CmdAttack(), "Thug/clinch")
        self.st(fray.CmdCombat(), "/mod Thug=+2")
        # Thug: Strength 3 + Brawl 1 + 2 (Storyteller) = 6 dice.
        self.force(9, 2, 2, 2, 2, 9, 9, 2, 2, 2, 2)
        out = self.st(fray.CmdDefend(), "Thug=accept")
        self.assertIn("Strength 3 + Brawl 1 + 2 (modifier) = 6 dice", out)

    def test_picking_up_drops_what_was_in_hand(self):
        update_sheet(self.thug, "aeon", weapon="club")
        self.force(9, 9, 9, 8, 1, 7, 2)
        self.player(fray.CmdAttack(), "Thug/disarm")
        self.st(fray.CmdDefend(), "Thug=none")
        update_sheet(self.char2, "aeon", weapon="knife")
        self.st(fray.CmdCombat(), "/next")
        self.force(8, 3, 1, 1, 1)
        self.player(aeon.CmdPickup(), "club")
        self.assertEqual(weapon_of(self.char2, "aeon"), "club")
        self.assertEqual(encounters.dropped_weapons(self.encounter), [{"weapon": "knife", "owner": "Char2", "feet": 0}])


class TestHealthAcrossSystems(FrayCommandTest):
    def test_sheet_lists_each_systems_wounds_and_heal_all_out_of_a_fight_heals_them(self):
        self.char2.health = {"storyteller": {"bashing": 1, "lethal": 0, "aggravated": 0},
                             "aeon": {"bashing": 0, "lethal": 2, "aggravated": 0}}
        out = self.player(fray.CmdSheet(), "")
        self.assertIn("Health (storyteller): Bruised", out)
        self.assertIn("Health (aeon): Hurt (-1) [LL.....]", out)
        out = self.st(fray.CmdHeal(), "Char2=all")
        self.assertIn("Char2 (storyteller): Bruised", out)      # each system's line names it
        self.assertIn("Char2 (aeon): Hurt (-1) [LL.....] - all -> Healthy [.......]", out)
        self.assertNotIn("Health (aeon)", self.player(fray.CmdSheet(), "").replace("Health (aeon): Healthy", ""))

    def test_stat_ranges_and_big_amounts(self):
        self.st(fray.CmdStat(), "Char2/Strength=-1", "<Fray> Strength must be a whole number from 0 to 20, not '-1'.")
        self.assertNotIn("Strength", {k: v for k, v in traits_of(self.char2, "aeon").items() if v == -1})
        self.st(fray.CmdDamage(), "Char2=201 lethal", "<Fray> The amount must be a whole number from 0 to 200")


class TestAeonNpcTemplates(AeonFightTest):
    """Aeon NPC templates, made with +npc/create <name>=<template>."""

    def test_templates_listing_and_create_from_an_aeon_template(self):
        out = self.st(npcs.CmdNpc(), "/templates", "NPC templates (aeon): +npc/create <name>=<template>")
        for key in ("thug", "soldier", "cavalry", "zeta"):
            self.assertIn(key, out)
        self.assertTrue(all(len(line) <= 78 for line in out.splitlines()))
        self.st(npcs.CmdNpc(), "/create Z=zeta", "<Combat> Created Z from the zeta template.")
        zeta = next(obj for obj in self.room1.contents if obj.key == "Z")
        self.assertEqual((sheet_of(zeta, "aeon").get("kind"), weapon_of(zeta, "aeon"), traits_of(zeta, "aeon")["Stamina"]), ("Zeta", "pistol", 4))
        self.st(npcs.CmdNpc(), "/create Bob=ninja",
                "<Fray> No NPC template 'ninja'. Templates: thug, soldier, cavalry, zeta.")


class TestAeonHidingWitnesses(AeonFightTest):
    def test_a_witness_who_succeeds_keeps_track(self):
        # Seed: "those who succeed keep track". Char2 hides with 4 successes
        # (needs 3); the Thug's Wits 2 + Awareness 1: 7 2 2 -> 1 success, needing 1: keeps track.
        self.force(9, 9, 8, 8, 1, 7, 2, 2)
        out = self.player(aeon.CmdHide(), "")
        self.assertIn("Thug awareness: Wits 2 + Awareness 1 = 3 dice TN 7, needs 1: 7 2 2 -> 1 success = success", out)
        self.assertIn("Still tracking Char2: Thug.", out)
        self.assertFalse(self.state(self.char2).get("hidden_from"))


class TestAeonAmbushCover(AeonFightTest):
    def test_invisibility_dice_go_on_the_ambushers_stealth_roll(self):
        # Seed: "Invisibility, camoflage and the like all add to the attacker's
        # Stealth roll". The ST gives the camouflaged Sniper +2 dice: Dexterity 3 + Stealth 1 +
        # 2 = 6 dice: 9 8 2 2 2 2 -> 2; Char2 Wits 2 + Awareness 1: 7 2 2 -> 1. Sniper wins.
        self.st(npcs.CmdNpc(), "/create Sniper")
        self.st(fray.CmdCombat(), "/add Sniper")
        sniper = encounters.find_combatant(self.encounter, "Sniper")
        update_sheet(sniper, "aeon", traits={"Dexterity": 3, "Stealth": 1, "Firearms": 2})
        update_sheet(sniper, "aeon", weapon="pistol")
        self.st(fray.CmdCombat(), "/mod Sniper=+2")
        # The pistol then rolls its own 5 dice, without the +2 (used up by the Stealth roll):
        # 2 2 2 2 2 -> a miss.
        self.force(9, 8, 2, 2, 2, 2, 7, 2, 2, 2, 2, 2, 2, 2)
        out = self.st(aeon.CmdAmbush(), "Sniper=Char2/pistol")
        self.assertIn("Sniper stealth: Dexterity 3 + Stealth 1 + 2 (modifier) = 6 dice", out)
        self.assertIn("Sniper wins (2 to 1): Char2 cannot defend", out)
        self.assertIn("Dexterity 3 + Firearms 2 = 5 dice", out)
        self.assertNotIn("mod", self.state(sniper))


class TestAeonClinchFirstTurn(AeonFightTest):
    def test_the_clincher_crushes_on_the_first_turn(self):
        # Seed (Grappling): "Upon gaining control of a clinch, a grappler has
        # one of three options", the first turn included. Control pool 5: 9 8 2 2 2 -> 2.
        self.force(9, 8, 2, 2, 2)
        self.player(fray.CmdAttack(), "Thug/clinch crush")
        # No defense: crush = Strength 2 + 2 net = 4 bashing, Armor Piercing 2 (soak 1 -> 0):
        # 4 dice 7 7 2 2 -> 2 levels; the clinch goes on, no pin.
        self.force(7, 7, 2, 2)
        out = self.st(fray.CmdDefend(), "Thug=none")
        self.assertIn("Char2 clinches Thug and controls the first turn: a crush.", out)
        self.assertIn("Char2 crushes Thug: Strength 2 + net successes 2 = 4 bashing, armor piercing 2.", out)
        self.assertEqual(self.health(self.thug)["bashing"], 2)
        self.assertEqual(self.state(self.thug)["clinch_with"], self.char2.id)
        self.assertNotIn("held_by", self.state(self.thug))

    def test_nobody_contests_control_in_the_first_turn(self):
        # Seed (Grappling): "the attacker does automatically control the clinch for the first
        # turn"; contesting it is for "each turn that the clinch is maintained" after.
        self.force(9, 8, 2, 2, 2)
        self.player(fray.CmdAttack(), "Thug/clinch")
        self.st(fray.CmdDefend(), "Thug=none")
        out = self.st(aeon.CmdClinch(), "Thug=crush")        # the Thug's turn, later that round
        self.assertIn("Thug is held in the clinch with Char2: its first turn is settled.", out)
        self.assertNotIn("declines", out)
        self.assertEqual(self.state(self.thug)["held_by"], self.char2.id)
        self.assertEqual(self.health(self.thug), {})
        self.assertIn("Round 1: everyone has acted", out)

    def test_break_ground_on_the_first_turn_ends_the_clinch(self):
        self.force(9, 8, 2, 2, 2)
        self.player(fray.CmdAttack(), "Thug/clinch break ground")
        out = self.st(fray.CmdDefend(), "Thug=none")
        self.assertIn("Char2 hurls Thug to the ground: prone.", out)
        self.assertNotIn("clinch_with", self.state(self.thug))
        self.assertTrue(self.state(self.thug)["prone"])

    def test_a_bad_choice_is_one_line_and_rolls_nothing(self):
        self.player(fray.CmdAttack(), "Thug/clinch squeeze",
                    "<Fray> A clinch takes hold, crush or break: clinch crush, clinch break throw.")
        self.assertEqual(encounters.pending_attacks(self.encounter), [])
        # A plan set before any clinch answers for one who accepts and wins the first turn.
        self.st(aeon.CmdClinch(), "/plan Thug=crush", "<Combat> If Thug wins control on the other's turn: crush.")


class TestAeonRideEveryTurn(AeonFightTest):
    """Seed (Mounted Combat): mounts whose Control Rating is above the rider's
    Ride "require riders to spend a dice action on a Ride roll every turn to control them", and
    "Failure results in loss of control": whatever the rider does, not only an attack."""

    def test_hiding_on_a_horse_needs_the_ride_roll_first(self):
        # Ride 1 < Horse 2: Dexterity 3 + Ride 1 - 2 (the Ride roll is a dice action, seed:
        # Mounted Combat) needs 2: 9 2 -> 1: control lost, no hiding.
        self.player(aeon.CmdMount(), "horse")
        self.force(9, 2)
        out = self.player(aeon.CmdHide(), "")
        self.assertIn("Char2 loses control of the Horse!", out)
        self.assertIn("Char2 has no hiding this turn.", out)
        self.assertNotIn("tries to hide", out)
        self.assertEqual(encounters.open_actions(self.encounter, self.char2), [])

    def test_a_kept_ride_roll_comes_before_the_hiding_roll(self):
        # The Ride roll spends a dice action (seed, Mounted Combat): Char2, who declared no split, is
        # counted as taking 2 actions. Ride: Dexterity 3 + Ride 1 - 2 = 2 dice: 9 9 -> 2 of 2:
        # kept. Hiding: Dexterity 3 + Stealth 4 - 3 = 4 dice: 9 9 8 1 -> 3 of 3; the Thug 6 2 2
        # loses track.
        add_traits(self.char2, "aeon", Stealth=4)
        self.player(aeon.CmdMount(), "horse")
        self.force(9, 9, 9, 9, 8, 1, 6, 2, 2)
        out = self.player(aeon.CmdHide(), "")
        self.assertIn("Char2 keeps the Horse under control.", out)
        self.assertLess(out.index("keeps the Horse"), out.index("Char2 hiding:"))
        self.assertEqual(self.state(self.char2)["hidden_from"], [self.thug.id])

    def test_picking_up_on_a_horse_after_losing_control_does_nothing(self):
        self.encounter.dropped = [{"weapon": "knife", "owner": "Thug", "feet": 1}]
        self.player(aeon.CmdMount(), "horse")
        self.force(2, 2)   # the Ride roll at -2 (a dice action): 2 dice
        out = self.player(aeon.CmdPickup(), "knife")
        self.assertIn("Char2 has no pick-up this turn.", out)
        self.assertEqual(weapon_of(self.char2, "aeon"), "")
        self.assertEqual(len(encounters.dropped_weapons(self.encounter)), 1)
