"""+combat/ai and +combat/side (NPCs that act): the AI takes an NPC's turn and answers the
attacks on it through the same services as the Storyteller, with forced dice."""

from unittest import mock

from commands import fray, npcs
from rules.systems import get_system
from tests.game import fightview as encounters
from tests.game.test_aeon_commands import AeonFightTest
from tests.game.test_combat_commands import FrayCommandTest
from world import dice, fights
from world.sheets import add_traits, store_health, traits_of, update_sheet


class AiTest(FrayCommandTest):
    def guard_first(self, **sheet):
        """A storyteller fight: Guard (initiative 15) acts before Char2 (9)."""
        self.st(fray.CmdCombat(), "/start")
        self.encounter = encounters.encounter_in(self.room1)
        self.player(fray.CmdCombat(), "/join")
        self.force(4)
        self.player(fray.CmdCombat(), "/init")
        self.force(10)
        self.st(npcs.CmdNpc(), "/init Guard=2+3")
        guard = encounters.find_combatant(self.encounter, "Guard")
        add_traits(guard, "storyteller", Stamina=2, Dodge=2, Strength=2, Brawl=1, **sheet)
        return guard

    def state(self):
        return (list(self.encounter.ai or []), dict(self.encounter.sides or {}), list(self.encounter.acted or []),
                list(self.encounter.pending or []), fights.seq(self.encounter))

    def told(self, obj):
        """Collect the text ``obj`` is sent from now on; returns the list."""
        seen = []
        patcher = mock.patch.object(obj, "msg", side_effect=lambda text=None, *a, **k: seen.append(
            text[0] if isinstance(text, tuple) else text))
        patcher.start()
        self.addCleanup(patcher.stop)
        return seen


class TestAiActs(AiTest):
    def test_the_ai_guard_kicks_on_its_turn_and_the_player_is_asked_to_defend(self):
        guard = self.guard_first()
        heard = self.told(self.char2)
        self.force(9, 8, 7, 2)
        out = self.st(fray.CmdCombat(), "/ai Guard")
        self.assertEqual(out, "<Combat> Guard: run by the AI now (+combat/ai Guard=off hands it back).\n"
                              "<Combat> Guard attacks Char2 with kick.\n"
                              "  Guard kick to hit: Dexterity 3 + Brawl 1 = 4 dice vs 7: 9 8 7 2 -> 3 successes"
                              " = 3 successes\n  Char2 may defend.")
        self.assertEqual(heard[-1], "|y<Combat>|n Guard's kick is coming at Char2 with 3 successes. Answer: defend "
                                    "dodge, defend block or defend none; a defense uses up this "
                                    "round's action.")
        self.assertEqual(dice.forced_faces(), [])
        self.assertEqual(self.encounter.ai, [guard.id])
        self.force(6, 6, 2, 2, 2, 6, 6, 6, 5, 2)
        out = self.player(fray.CmdDefend(), "dodge")
        self.assertIn("Char2 takes 2 levels of bashing: Hurt (-1) [BB.....]", out)
        self.assertIn(" 1   Guard (AI)          15    Healthy [.......]        acted",
                      self.st(fray.CmdCombat(), ""))

    def test_a_guard_with_power_casts_its_best_attack_spell(self):
        # Power 4: spells needing 2 successes at most; the lethal ones first, Incendio the
        # first of them. To hit Dexterity 3 + Dueling 3 = 6 dice, damage Power 4: 10 beats a
        # kick's 4 dice + 3.
        self.guard_first(Power=4, Control=2, Dueling=3)
        self.force(7, 7, 2, 2, 10, 10, 9, 8, 7, 2, 2, 2)
        out = self.st(fray.CmdCombat(), "/ai Guard")
        self.assertIn("<Combat> Guard casts Incendio.", out)
        self.assertIn("<Combat> Guard attacks Char2 with Incendio.", out)
        self.assertIn("Char2 may defend.", out)
        self.assertEqual(dice.forced_faces(), [])
        self.assertEqual(encounters.pending_attacks(self.encounter)[0]["attack"]["magic"], True)

    def test_unhurt_the_ai_guard_keeps_its_action_to_attack(self):
        # storyteller: a defense costs the round's action, so a guard not yet half hurt takes
        # the punch and kicks back on its turn
        self.storyteller_fight("Guard", Stamina=2, Dodge=2, Strength=2, Brawl=1)
        self.st(fray.CmdCombat(), "/ai Guard")
        self.force(9, 8, 7, 2, 2, 6, 6, 2, 2, 6, 2, 6, 5, 4, 2)
        out = self.player(fray.CmdAttack(), "Guard")
        self.assertIn("  Char2's punch hits Guard.\n"
                      "  damage: Strength 2 + 2 (rollover) = 4 dice vs 6: 6 6 2 2 -> 2 successes = 2 successes"
                      " bashing", out)
        self.assertNotIn("Guard dodge", out)
        self.assertIn("<Combat> Guard (AI) keeps its action for its turn: no defense.", out)
        self.assertIn("<Combat> Round 1: Guard to act.\n<Combat> Guard's kick at Char2:\n"
                      "  Guard kick to hit: Dexterity 3 + Brawl 1 = 4 dice vs 7: 6 5 4 2 -> 0 successes", out)
        self.assertEqual(dice.forced_faces(), [])

    def test_half_hurt_the_ai_guard_answers_with_its_largest_defense_pool(self):
        # Guard acts second here (initiative 6 against 9): dodge 3 dice beats block 2.
        self.storyteller_fight("Guard", Stamina=2, Dodge=2, Strength=2, Brawl=1)
        self.st(fray.CmdDamage(), "Guard=4 bashing")   # 4 of 7 health levels gone
        self.st(fray.CmdCombat(), "/ai Guard")
        self.force(9, 8, 7, 2, 2, 6, 6, 2, 2, 2)
        out = self.player(fray.CmdAttack(), "Guard")
        self.assertIn("<Combat> Char2's punch at Guard:", out)
        self.assertIn("  Guard dodge: Dexterity 3 + Dodge 2 - 2 (wounds) = 3 dice vs 6: 6 6 2 -> 2 successes = 2 successes", out)
        self.assertIn("Guard's 2 successes cancel 2 of 3: 1 success left.", out)
        # the dodge used the Guard's action (storyteller), so its turn is gone: the round is over
        self.assertIn("<Combat> Round 1: everyone has acted; the ST moves on with +combat/next.", out)
        self.assertEqual(dice.forced_faces(), [])

    def test_with_no_enemy_the_ai_passes_and_two_such_npcs_end_the_round(self):
        self.guard_first()
        self.force(1)
        self.st(npcs.CmdNpc(), "/init Thug=2+3")
        self.st(fray.CmdCombat(), "/side Guard,Thug,Char2=town", "<Combat> Guard, Thug, Char2: side town.")
        out = self.st(fray.CmdCombat(), "/ai all")
        self.assertEqual(out, "<Combat> Guard, Thug: run by the AI now (+combat/ai Guard=off hands them back).\n"
                              "<Combat> Guard (AI) passes: no enemy in the fight.\n"
                              "<Combat> Round 1: Char2 to act.")
        self.st(fray.CmdCombat(), "/next", "<Combat> Char2 passes.")
        # Thug (6) passes after Char2; the round ends there, and the next round only on /next
        self.assertEqual(self.encounter.round, 1)
        self.assertIn("Turn: round over (+combat/next)", self.st(fray.CmdCombat(), ""))

    def test_everyone_ai_never_runs_more_than_the_round(self):
        self.guard_first()
        self.force(1)
        self.st(npcs.CmdNpc(), "/init Thug=2+3")
        thug = encounters.find_combatant(self.encounter, "Thug")
        add_traits(thug, "storyteller", Stamina=2, Strength=2, Brawl=1)
        self.st(fray.CmdCombat(), "/side Guard=red")
        self.st(fray.CmdCombat(), "/side Thug=blue")
        self.st(fray.CmdCombat(), "/remove Char2")
        # Guard kicks Thug; Thug (not acted yet) dodges/blocks; then the round is over
        self.force(*[2] * 40)
        self.st(fray.CmdCombat(), "/ai Guard,Thug")
        self.assertEqual(self.encounter.round, 1)
        self.assertEqual(self.encounter.pending, [])
        self.assertIn("Turn: round over (+combat/next)", self.st(fray.CmdCombat(), ""))

    def test_switched_off_the_st_acts_for_it_again(self):
        guard = self.storyteller_fight("Guard")   # Char2 (9) acts before the Guard (6)
        self.st(fray.CmdCombat(), "/ai Guard")
        self.st(fray.CmdCombat(), "/ai Guard=off", "<Combat> Guard: run by the Storyteller again.")
        self.assertEqual(self.encounter.ai, [])
        self.assertNotIn("(AI)", self.st(fray.CmdCombat(), ""))
        self.st(fray.CmdCombat(), "/next")   # Char2 passes: the Guard's turn is the Storyteller's
        self.assertFalse(encounters.has_acted(self.encounter, guard))
        self.force(9, 8, 7, 2, 2)   # Char2 has acted: no defense, the punch lands at once
        self.st(fray.CmdAttack(), "Guard=Char2", "<Combat> Guard's punch at Char2:")
        self.assertTrue(encounters.has_acted(self.encounter, guard))

    def test_the_ai_waits_until_everyone_has_rolled_initiative(self):
        self.guard_first()
        self.st(fray.CmdCombat(), "/join")   # Char1 joins and has not rolled yet
        out = self.st(fray.CmdCombat(), "/ai Guard")
        self.assertEqual(out, "<Combat> Guard: run by the AI now (+combat/ai Guard=off hands it back).")
        self.assertEqual(self.encounter.pending, [])
        self.force(1, 9, 8, 7, 2)   # Char1's initiative die, then the Guard's kick
        out = self.st(fray.CmdCombat(), "/init")
        self.assertIn("<Combat> Guard attacks Char2 with kick.", out)
        self.assertEqual(dice.forced_faces(), [])

    def test_npcs_alone_wait_for_the_players(self):
        # the README's order: the ST sets up the NPCs first; the AI takes no turn (it would
        # pass: no enemy) until a player is in the fight, then it attacks
        self.st(fray.CmdCombat(), "/start")
        self.encounter = encounters.encounter_in(self.room1)
        self.force(10)
        self.st(npcs.CmdNpc(), "/init Guard=2+3")
        add_traits(encounters.find_combatant(self.encounter, "Guard"), "storyteller", Strength=2, Brawl=1)
        self.st(fray.CmdCombat(), "/ai Guard", "<Combat> Guard: run by the AI now (+combat/ai Guard=off hands it back).")
        self.assertEqual(self.encounter.acted, [])
        self.player(fray.CmdCombat(), "/join")
        self.force(4, 9, 8, 7, 2)   # Char2's initiative die, then the Guard's kick
        out = self.player(fray.CmdCombat(), "/init")
        self.assertIn("<Combat> Guard attacks Char2 with kick.", out)
        self.assertEqual(dice.forced_faces(), [])

    def test_removed_and_added_back_the_storyteller_runs_it(self):
        self.storyteller_fight("Guard")
        self.st(fray.CmdCombat(), "/ai Guard")
        self.st(fray.CmdCombat(), "/remove Guard")
        self.assertEqual(self.encounter.ai, [])
        self.st(fray.CmdCombat(), "/add Guard")
        self.assertNotIn("(AI)", self.st(fray.CmdCombat(), ""))

    def test_held_the_ai_guard_tries_to_escape(self):
        guard = self.storyteller_fight("Guard", Stamina=2, Dodge=2, Strength=2, Brawl=1)
        self.st(fray.CmdCombat(), "/ai Guard")
        self.force(9, 8, 7, 2, 9, 9, 2, 2, 2, 2, 2)   # the hold; the Guard's 3 dice and Char2's 4
        out = self.player(fray.CmdAttack(), "Guard/hold")
        self.assertIn("  Guard is held by Char2 (escape: contested Strength + Brawl).\n<Combat> Round 1: Guard to act.\n"
                      "<Combat> Guard struggles against Char2's hold.\n", out)
        self.assertIn("  Guard breaks free.", out)
        self.assertIsNone(encounters.conditions_of(self.encounter, guard).get("held_by"))
        self.assertEqual(dice.forced_faces(), [])

    def test_two_fighters_renamed_alike_the_ai_still_acts(self):
        # a fight refuses a second fighter of the same name, but @name can make one: the AI
        # tells fighters by id, so its turn is taken (it once failed on "could be: X, X")
        guard = self.guard_first()
        self.force(1)
        self.st(npcs.CmdNpc(), "/init Thug=2+3")
        thug = encounters.find_combatant(self.encounter, "Thug")
        thug.key = "Char2"
        self.st(fray.CmdCombat(), "/side Guard=red")
        self.force(9, 8, 7, 2)
        out = self.st(fray.CmdCombat(), "/ai Guard")
        self.assertIn("<Combat> Guard attacks Char2 with kick.", out)
        self.assertEqual(encounters.pending_attacks(self.encounter)[0]["attacker"], guard)
        # the Storyteller tells them apart by dbref, or by the exact case of a name
        self.st(fray.CmdCombat(), "/idle char2", f"<Fray> 'char2' could be: Char2 (#{self.char2.id}), "
                                                 f"Char2 (#{thug.id}).")
        self.assertEqual(encounters.find_combatant(self.encounter, f"#{thug.id}"), thug)
        thug.key = "CHAR2"
        self.assertEqual(encounters.find_combatant(self.encounter, "CHAR2"), thug)
        self.assertEqual(encounters.find_combatant(self.encounter, "Char2"), self.char2)

    def test_the_ai_survives_a_reload_in_the_fights_row(self):
        guard = self.guard_first()
        self.force(9, 8, 7, 2)
        self.st(fray.CmdCombat(), "/ai Guard")
        self.encounter.forget()   # read the row afresh, as after a reload
        self.assertEqual(self.encounter.ai, [guard.id])


class TestAiRefusals(AiTest):
    def refused(self, args, message):
        before = self.state()
        self.st(fray.CmdCombat(), args, message)
        self.assertEqual(self.state(), before)

    def test_bad_input_changes_nothing(self):
        self.storyteller_fight("Guard")
        self.encounter = encounters.encounter_in(self.room1)
        self.refused("/ai Nobody", "<Fray> No combatant 'Nobody' in this fight.")
        self.refused("/ai Char2", "<Fray> Char2 is a player character: the AI runs only NPCs.")
        self.refused("/ai Guard,Char2", "<Fray> Char2 is a player character: the AI runs only NPCs.")
        self.refused("/ai all=maybe", "<Fray> Usage: +combat/ai <npc>[,<npc>...][=on or off]  (all: every NPC in the fight)")
        self.refused("/ai Guard=", "<Fray> Usage: +combat/ai <npc>[,<npc>...][=on or off]  (all: every NPC in the fight)")
        self.refused("/ai", "<Fray> Usage: +combat/ai <npc>[,<npc>...][=on or off]  (all: every NPC in the fight)")
        self.refused("/ai Guard,,", "<Fray> Usage: +combat/ai <npc>[,<npc>...][=on or off]  (all: every NPC in the fight)")
        self.refused("/ai |rGuard", "<Fray> No combatant '|rGuard' in this fight.")
        self.refused("/ai " + ",".join(["Guard"] * 21), "<Fray> Name at most 20 NPCs at once (or all).")
        self.refused("/ai Gu\nard", "<Fray> No combatant 'Gu\\u000aard' in this fight.")
        self.refused("/side Guard=|rred", "<Fray> A side is named with 1-20 letters, digits, spaces, hyphens or "
                                          "apostrophes, not '|rred'.")
        self.refused("/side Nobody=red", "<Fray> No combatant 'Nobody' in this fight.")

    def test_only_the_storyteller_or_staff(self):
        self.storyteller_fight("Guard")
        self.encounter = encounters.encounter_in(self.room1)
        before = self.state()
        self.player(fray.CmdCombat(), "/ai Guard", "<Fray> Only this scene's Storyteller or staff can hand NPCs to the AI.")
        self.player(fray.CmdCombat(), "/side Guard=red", "<Fray> Only this scene's Storyteller or staff can set sides.")
        self.assertEqual(self.state(), before)

    def test_already_so_changes_nothing(self):
        self.storyteller_fight("Guard")
        self.refused("/ai Guard=off", "<Fray> Not run by the AI: nothing to switch off. (+combat shows (AI) beside each.)")
        self.st(fray.CmdCombat(), "/ai Guard,guard", "<Combat> Guard: run by the AI now (+combat/ai Guard=off hands it back).")
        self.refused("/ai Guard", "<Fray> Already run by the AI. (+combat shows (AI) beside each.)")
        self.refused("/ai all=on", "<Fray> Already run by the AI. (+combat shows (AI) beside each.)")

    def test_a_second_fighter_of_the_same_name_is_refused(self):
        self.storyteller_fight("Guard")
        self.char1.key = "guard"
        self.st(fray.CmdCombat(), "/join", "<Fray> A fighter called guard is in this fight already: one of them "
                                           "needs another name first.")
        self.assertNotIn(self.char1, encounters.fighters(self.encounter))

    def test_all_with_no_npc(self):
        self.st(fray.CmdCombat(), "/start")
        self.encounter = encounters.encounter_in(self.room1)
        self.player(fray.CmdCombat(), "/join")
        self.refused("/ai all", "<Fray> No NPC is in this fight.")

    def test_no_fight(self):
        self.st(fray.CmdCombat(), "/ai Guard", "<Fray> There is no fight here")


class TestAiOtherSystems(FrayCommandTest):
    def fast_guard(self, system: str, guard_die: int = 10):
        """A ``system`` fight: Char2 (initiative die 5, her storyteller traits on her ``system``
        sheet) and Guard (3+3, ``guard_die``)."""
        update_sheet(self.char2, system, traits=traits_of(self.char2, "storyteller"))
        self.st(fray.CmdCombat(), f"/start {system}")
        encounter = encounters.encounter_in(self.room1)
        self.player(fray.CmdCombat(), "/join")
        self.force(5)
        self.player(fray.CmdCombat(), "/init")
        self.force(guard_die)
        self.st(npcs.CmdNpc(), "/init Guard=3+3")
        guard = encounters.find_combatant(encounter, "Guard")
        add_traits(guard, system, Strength=2, Brawl=2, Dodge=2)
        return encounter, guard

    def test_elethril_the_ai_declares_for_its_npcs(self):
        update_sheet(self.char2, "elethril", traits={"THAC0": 18, "Armor Class": 5, "Hit Points": 12})
        update_sheet(self.char2, "elethril", weapon="short-sword")
        self.st(fray.CmdCombat(), "/start elethril")
        encounter = encounters.encounter_in(self.room1)
        self.player(fray.CmdCombat(), "/join")
        self.st(npcs.CmdNpc(), "/create Orc=orc")
        self.st(npcs.CmdNpc(), "/create Zed=hedge-mage")
        self.st(fray.CmdCombat(), "/add Orc,Zed")
        self.st(fray.CmdCombat(), "/side Orc,Zed=foes")
        out = self.st(fray.CmdCombat(), "/ai Orc,Zed")
        self.assertEqual(out, "<Combat> Orc, Zed: run by the AI now (+combat/ai Orc=off hands them back).\n"
                              "<Combat> Orc declares an action for round 1.\n"
                              "<Combat> Zed declares an action for round 1.")
        hud = self.st(fray.CmdCombat(), "")
        self.assertIn(" Orc (AI)      foes   -     short sword > Char2     5/5 hp", hud)
        self.assertIn(" Zed (AI)      foes   -     dagger > Char2          8/8 hp", hud)
        self.assertEqual(sorted(record["target"] for record in encounter.declarations.values()), ["Char2", "Char2"])

    def test_elethril_an_ai_npc_holds_back_a_declared_blow_once_its_target_is_helpless(self):
        update_sheet(self.char2, "elethril", traits={"THAC0": 18, "Armor Class": 5, "Hit Points": 12})
        self.st(fray.CmdCombat(), "/start elethril")
        self.player(fray.CmdCombat(), "/join")
        self.st(npcs.CmdNpc(), "/create Orc=orc")
        self.st(fray.CmdCombat(), "/add Orc")
        self.st(fray.CmdCombat(), "/side Orc=foes")
        self.st(fray.CmdCombat(), "/ai Orc")   # it declares its short sword at Char2
        store_health(self.char2, get_system("elethril"), {"damage": 20, "maximum": 12})   # down at -8
        self.force(*[5] * 20)
        told = "".join(self.st(fray.CmdCombat(), "/next") for _ in range(12))
        self.assertIn("Orc (AI) holds back its short sword: Char2 is helpless (+combat/helpless on lets it strike).",
                      told)
        self.assertNotIn("Orc's short sword at Char2", told)

    def test_eldritch_the_ai_waits_for_the_defense_then_takes_its_next_action(self):
        encounter, guard = self.fast_guard("eldritch")   # 13: actions at 13, 8 and 3
        self.force(8)
        out = self.st(fray.CmdCombat(), "/ai Guard")
        # a kick (Strength 2 + 1, x 2 bash) over a grapple (no damage) or a punch (x 1)
        self.assertIn("  Guard kick: Dexterity 3 + Brawl 2 - 1 (kick) + d10 [8] = 12: 2 SLs", out)
        self.assertNotIn("passes", out)   # its action at 8 waits for Char2's defense
        self.assertEqual(encounters.open_actions(encounter, guard), [8, 3])
        self.force(2, 2)   # Char2 takes the kick; Guard's action at 8 follows at once, and misses
        out = self.player(fray.CmdDefend(), "none")
        self.assertIn("  Guard kick: Dexterity 3 + Brawl 2 - 1 (kick) - 2 (2nd action) + d10 [2] = 4: failure\n"
                      "  Guard's kick misses Char2.\n<Combat> Round 1: Char2 to act.", out)
        self.assertEqual(encounters.open_actions(encounter, guard), [3])

    def test_eldritch_the_ai_rolls_its_npcs_initiative_each_turn(self):
        encounter, guard = self.fast_guard("eldritch", guard_die=1)   # Guard 4, Char2 6
        self.st(fray.CmdCombat(), "/ai Guard")
        self.force(2)
        self.st(fray.CmdCombat(), "/next")   # Char2 passes; the Guard kicks and misses
        self.force(5)
        out = self.st(fray.CmdCombat(), "/next")   # Char2 passes again: round 2
        self.assertIn("<Combat> Round 2 begins.", out)
        self.assertIn("<Combat> Guard rolls initiative: (Dexterity 3 + Perception 3)/2 = 3 + 1d10 (5) = 8.", out)
        self.assertNotIn("Guard attacks", out)   # Char2 has not rolled yet: the AI waits for her
        self.assertTrue(encounters.has_initiative(encounter, guard))
        self.assertEqual(dice.forced_faces(), [])

    def test_aeon_the_ai_kicks(self):
        # a kick (Strength + 2) does more than a punch (Strength) with the same to-hit pool
        self.fast_guard("aeon")
        self.force(8, 8, 8, 8, 8)
        out = self.st(fray.CmdCombat(), "/ai Guard")
        self.assertIn("<Combat> Guard attacks Char2 with kick.\n  Guard kick to hit: Dexterity 3 + Brawl 2 = 5 "
                      "dice TN 7, needs 1: 8 8 8 8 8 -> 5 successes = success", out)
        self.assertEqual(dice.forced_faces(), [])

    def test_eldritch_the_ai_guard_defends_after_acting(self):
        encounter, guard = self.fast_guard("eldritch", guard_die=1)   # Guard 4, Char2 6
        self.st(fray.CmdCombat(), "/ai Guard")
        self.force(9, 3, 8)
        out = self.player(fray.CmdAttack(), "Guard")
        # the AI answers at once (eldritch: a defense is no action), then takes its turn
        self.assertIn("<Combat> Char2's punch at Guard:\n  Guard dodge: Dexterity 3 + Brawl 2 + d10 [3] = 8: failure\n"
                      "  Char2's punch hits Guard with 3 net SLs.", out)
        self.assertIn("<Combat> Round 1: Guard to act.", out)
        self.assertIn("<Combat> Guard attacks Char2 with kick.\n"
                      "  Guard kick: Dexterity 3 + Brawl 2 - 1 (kick) + d10 [8] = 12: 2 SLs", out)
        self.assertEqual(dice.forced_faces(), [])
        self.assertEqual(encounters.pending_attacks(encounter)[0]["attacker"], guard)

    def test_aeon_a_split_ai_npc_takes_each_of_its_actions(self):
        encounter, guard = self.fast_guard("aeon")   # Guard 16 acts first: 5 dice, split in 2
        self.st(fray.CmdCombat(), "/split Guard=2")
        # action 1 of 2 (5 - 2 = 3 dice) misses: nothing to defend, so action 2 follows at once
        self.force(2, 2, 2, 8, 8)
        out = self.st(fray.CmdCombat(), "/ai Guard")
        self.assertIn("Guard kick to hit: Dexterity 3 + Brawl 2 - 2 (action 1 of 2) = 3 dice", out)
        self.assertIn("Guard kick to hit: Dexterity 3 + Brawl 2 - 3 (action 2 of 2) = 2 dice", out)
        self.assertEqual(dice.forced_faces(), [])

    def test_aeon_a_defense_the_rules_refuse_becomes_none(self):
        # The AI measures its defenses without the split's penalty: Dodge 1 + Dexterity 1 under
        # a split of 3 (-3) is refused; it answers with none, and the fight goes on.
        encounter, guard = self.fast_guard("aeon", guard_die=1)   # Char2 5+5 acts first
        add_traits(guard, "aeon", Dexterity=1, Dodge=1, Brawl=1)
        self.st(fray.CmdCombat(), "/split Guard=3")
        self.st(fray.CmdCombat(), "/ai Guard")
        self.force(8, 8, 8, 8, 8, 2, 2, 2)
        self.player(fray.CmdAttack(), "Guard")
        self.assertEqual(encounters.pending_attacks(encounter), [])
        self.assertEqual(dice.forced_faces(), [])


class TestAiAeon(AeonFightTest):
    def test_the_ai_attacks_whom_it_can_see(self):
        # Char2 (10) hid from the Thug (5); Char (Char1, 1) joins, seen: the Thug kicks Char
        self.st(fray.CmdCombat(), "/join")
        self.force(1)
        self.st(fray.CmdCombat(), "/init")
        encounters.update_conditions(self.encounter, self.char2, hidden_from=[self.thug.id])
        self.st(fray.CmdCombat(), "/ai Thug")
        self.force(8, 8, 2)
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("<Combat> Thug attacks Char with kick.", out)

    def test_in_a_clinch_the_ai_contests_control_to_crush(self):
        self.st(fray.CmdCombat(), "/ai Thug")
        # Char2 (10) clinches the Thug (5), who takes it (unhurt, it keeps its action); Char2
        # controls the first turn, so the Thug's action goes by. Next turn it contests control
        # and crushes.
        self.force(9, 9, 9, 2, 2)
        out = self.player(fray.CmdAttack(), "Thug/clinch")
        self.assertIn("<Combat> Round 1: Thug to act.\n<Combat> Thug is held in the clinch with Char2: its first "
                      "turn is settled.\n", out)
        self.st(fray.CmdCombat(), "/next")                   # round 2: Char2 to act
        self.force(9, 9, 9, 9, 2, 2, 2, 2, 2, 2, 2)
        out = self.st(fray.CmdCombat(), "/next")             # Char2 lets the turn go: the Thug's
        self.assertIn("<Combat> Thug and Char2 struggle in the clinch.\n", out)
        self.assertIn("  Thug crushes Char2: Strength 3 + net successes 4 = 7 bashing", out)
        self.assertEqual(dice.forced_faces(), [])
