"""Command tier: an elethril fight through the real commands, with forced dice (the elethril seed).

The cast: Char2 (the player: THAC0 18, Armor Class 5, 12 hit points, a short sword) on side
"party"; the NPCs Orc (template orc: THAC0 19, Armor Class 6, 5 hit points, a short sword)
and Zed (template hedge-mage: THAC0 20, Armor Class 10, 8 hit points, a dagger) on side
"foes". Dice order when initiative is rolled: round 1 one d10 per side in alphabetical order
(foes, party); later rounds each party's d10, then each fighter's d10s in joining order
(Char2, Orc, Zed).
"""

import re

from commands import fray, items, npcs
from tests.game import fightview as encounters
from tests.game.test_combat_commands import FrayCommandTest
from world import dice, fights
from world.sheets import add_traits, update_sheet


def folded(text: str) -> str:
    return " ".join(text.split())


class ElethrilFightTest(FrayCommandTest):
    def setUp(self):
        super().setUp()
        update_sheet(self.char2, "elethril", traits={"THAC0": 18, "Armor Class": 5, "Hit Points": 12})
        update_sheet(self.char2, "elethril", weapon="short-sword")
        self.st(fray.CmdCombat(), "/start elethril")
        self.encounter = encounters.encounter_in(self.room1)
        self.player(fray.CmdCombat(), "/join")
        self.st(npcs.CmdNpc(), "/create Orc=orc")
        self.st(npcs.CmdNpc(), "/create Zed=hedge-mage")
        self.st(fray.CmdCombat(), "/add Orc,Zed")
        self.orc = encounters.find_combatant(self.encounter, "Orc")
        self.zed = encounters.find_combatant(self.encounter, "Zed")
        self.st(fray.CmdCombat(), "/side Char2=party", "<Combat> Char2: side party.")
        self.st(fray.CmdCombat(), "/side Orc,Zed=foes", "<Combat> Orc, Zed: side foes.")

    def hud(self, caller=None) -> str:
        return self.call(fray.CmdCombat(), "", caller=caller or self.char2)

    def hp(self, obj) -> dict:
        return dict(obj.health.get("elethril", {}))

    def state(self) -> tuple:
        """Everything an elethril round keeps, to show a refusal changed nothing."""
        e = self.encounter
        return (dict(e.declarations), list(e.segment_actions), dict(e.segment_initiative), e.segment,
                e.round, len(e.log), dict(e.conditions), dict(e.sides), dict(e.parties))

    def later_round(self, number: int = 2) -> None:
        """Start declaring in round ``number`` (round 1 is the sides' group initiative)."""
        self.encounter.round = number


class TestDeclaringAndRoundOne(ElethrilFightTest):
    def test_start_and_join_say_to_declare(self):
        self.assertEqual(self.encounter.system_key, "elethril")
        out = self.call(fray.CmdCombat(), "/join", caller=self.char1)
        self.assertIn("You join the fight. Declare an action: attack <target>[/<weapon>], cast <spell>[=<target>] or "
                      "use <item>[=<target>].", out)

    def test_seed_1a_sides_roll_4_and_7_and_become_1_and_4(self):
        # Round 1: the modifiers go on the side's base (seed 1a), not on a die of one's own.
        self.player(fray.CmdAttack(), "Orc",
                    "<Combat> Char2 will attack Orc with short sword; initiative party base + 3 (short sword).")
        self.assertEqual(self.encounter.segment, 0)
        self.assertIn("waiting on Orc, Zed", self.hud())
        self.st(fray.CmdCast(), "Zed=fireball=Char2")
        # The player sees that Zed declared, not what; the ST sees it all.
        self.assertRegex(self.hud(), r"Zed \(NPC\)\s+foes\s+-\s+declared")
        self.assertRegex(self.hud(self.char1), r"Zed \(NPC\)\s+foes\s+-\s+Fireball > Char2")
        # The last declaration rolls: foes d10 4, party d10 7.
        self.force(4, 7)
        out = self.st(fray.CmdAttack(), "Orc=Char2")
        for line in ("Round 1 initiative (lowest acts first):",
                     "foes: d10 4 -> base 1",
                     # docs/rules/elethril.md, Surprise: the side behind is surprised by its gap
                     "party: d10 7 -> base 4 (3 segments behind)",
                     "Char2: party base 4 + 3 (short sword) = 7 -> segment 7",
                     "Orc: foes base 1 + 3 (short sword) = 4 -> segment 4",
                     "Zed: foes base 1 -> segment 1",
                     " 1> [casting] Zed begins Fireball",
                     " 4  [spell] Zed Fireball > Char2; [melee] Orc short sword > Char2",
                     " 7  [melee] Char2 short sword > Orc"):
            self.assertIn(line, out)
        self.assertEqual(self.encounter.segment, 1)
        self.assertEqual(dice.forced_faces(), [])
        hud = self.hud()
        self.assertIn("Round 1   Storyteller: Char   next: segment 1 (+combat/next)", hud)
        self.assertRegex(hud, r"Char2\s+party\s+7\s+short sword > Orc\s+12/12 hp")
        self.assertRegex(hud, r"Zed \(NPC\)\s+foes\s+1\s+Fireball > Char2\s+8/8 hp")
        self.assertIn("Round 1 segments (lowest first; spell > instant > missile > melee)", hud)
        self.assertTrue(all(len(re.sub(r"\|.", "", line)) <= 78 for line in hud.splitlines()), hud)

    def test_declaring_again_replaces_and_after_the_roll_is_refused(self):
        self.player(fray.CmdAttack(), "Zed")
        out = self.player(fray.CmdAttack(), "Orc/fist")
        self.assertIn("Char2 changes the declared action for round 1.", out)
        self.assertEqual(self.encounter.declarations[self.char2.id]["weapon"], "fist")
        self.st(fray.CmdCast(), "Zed=sleep=Char2")
        self.force(4, 7)
        self.st(fray.CmdAttack(), "Orc=Char2")
        before = self.state()
        self.player(fray.CmdAttack(), "Zed", "<Fray> Round 1's initiative is rolled: actions are set until the round "
                                             "ends (+combat/delay <segment> holds yours).")
        self.assertEqual(self.state(), before)

    def test_storyteller_rolls_with_whoever_declared(self):
        self.player(fray.CmdAttack(), "Orc")
        self.player(fray.CmdCombat(), "/next", "<Fray> Only this scene's Storyteller or staff can advance the fight.")
        self.force(2)    # only the party rolls: a side with nobody acting has no die
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Orc, Zed declare nothing: no action this round.", out)
        self.assertIn("party: d10 2 -> base 1\n  Char2: party base 1 + 3 (short sword) = 4 -> segment 4", out)
        self.assertNotIn("foes", out)
        self.assertEqual(dice.forced_faces(), [])


class TestSegments(ElethrilFightTest):
    def roll_round_one(self):
        """Char2 attacks Zed, Zed casts Fireball at Char2, Orc attacks Char2. foes 5, party 2:
        party base 1, foes base 4. Char2 1 + 3 = segment 4 (melee); Zed's casting begins at
        segment 4 and the Fireball (3 segments) takes effect at 7; Orc 4 + 3 = segment 7."""
        self.player(fray.CmdAttack(), "Zed")
        self.st(fray.CmdCast(), "Zed=fireball=Char2")
        self.force(5, 2)
        out = self.st(fray.CmdAttack(), "Orc=Char2")
        self.assertIn("foes: d10 5 -> base 4", out)
        self.assertIn(" 4> [casting] Zed begins Fireball; [melee] Char2 short sword > Zed", out)
        self.assertIn(" 7  [spell] Zed Fireball > Char2; [melee] Orc short sword > Char2", out)

    def test_a_hit_while_casting_spoils_the_spell(self):
        self.roll_round_one()
        # Segment 4: the casting begins (start of the segment), then Char2's melee:
        # d20 12 vs THAC0 18 - AC 10 = 8: hit; 1d6 3.
        self.force(12, 3)
        out = self.st(fray.CmdCombat(), "/next")
        expected = ["Round 1, segment 4:",
                    "Zed begins casting Fireball: it takes effect at segment 7.",
                    "Char2's short sword at Zed:",
                    "Char2 short sword: d20 12 vs 8 (THAC0 18 - AC 10): hit",
                    "Char2's short sword hits Zed.",
                    "damage (small/medium): 1d6 (3) = 3",
                    "Zed loses 3 hit points: 5/8 hp",
                    "Zed is hit while casting: Fireball is spoiled."]
        positions = [out.index(line) for line in expected]
        self.assertEqual(positions, sorted(positions))
        self.assertEqual(self.hp(self.zed), {"damage": 3, "maximum": 8})
        hud = self.hud()
        self.assertIn(" 7> [spell] Zed Fireball > Char2 (spoiled); [melee] Orc short sword > Char2", hud)
        self.assertRegex(hud, r"Zed \(NPC\)\s+foes\s+4\s+Fireball > Char2\s+5/8 hp")
        # Segment 7: no Fireball; Orc: d20 9 vs THAC0 19 - AC 5 = 14: miss. Then round 2.
        self.force(9)
        out = self.st(fray.CmdCombat(), "/next")
        self.assertNotIn("takes effect", out)
        self.assertIn("Orc short sword: d20 9 vs 14 (THAC0 19 - AC 5): miss", out)
        self.assertIn("Round 1 is over. Round 2: declare your actions.", out)
        self.assertIn("Declare for Orc, Zed: attack <npc>=<target>, cast <npc>=<spell>=<target>, "
                      "use <npc>=<item>=<target>.", out)
        self.assertEqual((self.encounter.round, self.encounter.segment), (2, 0))
        self.assertEqual(self.hp(self.char2), {})
        self.assertEqual(dice.forced_faces(), [])
        self.assertEqual(self.encounter.segment_actions, [])   # nothing carries into round 2

    def test_delay_to_a_later_segment_interrupts_the_caster(self):
        self.roll_round_one()
        self.player(fray.CmdCombat(), "/delay 6", "<Combat> Char2 holds the action to segment 6.")
        hud = self.hud()
        self.assertRegex(hud, r"Char2\s+party\s+4>6\s+short sword > Zed")    # initiative 4, held to 6
        self.assertIn(" 4> [casting] Zed begins Fireball\n", hud)
        self.assertIn(" 6  [melee] Char2 short sword > Zed", hud)
        out = self.st(fray.CmdCombat(), "/next")     # segment 4: only the casting begins
        self.assertIn("Zed begins casting Fireball: it takes effect at segment 7.", out)
        before = self.state()
        self.player(fray.CmdCombat(), "/delay 3", "<Fray> Segment 3 has passed: it is segment 5.")
        self.player(fray.CmdCombat(), "/delay 5", "<Fray> Char2 already acts at segment 6: delay to a later one (7 to 10).")
        for text in ("11", "0", "-5", "soon"):     # one message for every segment that is not 1-10
            self.player(fray.CmdCombat(), f"/delay {text}",
                        f"<Fray> Delay to a segment of this round: 1 to 10, not '{text}'.")
        self.st(fray.CmdCombat(), "/delay Zed=9", "<Fray> Zed is already casting and cannot delay.")
        self.assertEqual(self.state(), before)
        self.force(12, 3)
        out = self.st(fray.CmdCombat(), "/next")     # segment 6: the held blow spoils the Fireball
        self.assertIn("Round 1, segment 6:", out)
        self.assertIn("Zed is hit while casting: Fireball is spoiled.", out)

    def test_a_simultaneous_step_and_the_fallen_lose_their_action(self):
        self.later_round()
        self.player(fray.CmdAttack(), "Orc")
        self.st(fray.CmdAttack(), "Orc=Char2")
        self.force(1, 1)   # Char2 d10 1, Orc d10 1: both at segment 4, one melee step (Zed declares nothing)
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Char2: d10 1 + 3 (short sword) = 4 -> segment 4", out)
        self.assertIn(" 4> [melee] Char2 short sword > Orc; [melee] Orc short sword > Char2", out)
        self.st(fray.CmdCombat(), "/mod Orc=-2")       # the ST's dice modifier goes on the d20
        # Char2: d20 15 vs 18 - 6 = 12: hit, 1d6 6 -> Orc down at -1. Orc strikes in the same
        # step all the same: d20 16 - 2 = 14 vs 19 - 5 = 14: hit, 1d6 2.
        self.force(15, 6, 16, 2)
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Orc short sword: d20 16 - 2 (modifier) = 14 vs 14 (THAC0 19 - AC 5): hit", out)
        self.assertIn("dice -2 (Storyteller)", out)
        self.assertIn("Orc loses 6 hit points: Down -1/5 hp", out)
        self.assertIn("Char2 loses 2 hit points: 10/12 hp", out)
        self.assertIn("Round 2 is over. Round 3: declare your actions.", out)
        self.st(fray.CmdAttack(), "Orc=Char2", "<Fray> Orc is down and cannot act.")
        self.assertRegex(self.hud(), r"Orc \(NPC\)\s+foes\s+-\s+-\s+Down -1/5\s*\n")


class TestCarriedActionsAndGroups(ElethrilFightTest):
    def test_seed_4d_a_heavy_crossbow_skips_a_round_to_reload(self):
        add_traits(self.char2, "elethril", Reaction=2)
        update_sheet(self.char2, "elethril", weapon="heavy-crossbow")
        self.later_round()
        self.player(fray.CmdAttack(), "Orc/heavy crossbow")
        self.force(1)      # 1 + 10 (heavy crossbow) - 2 (Reaction) = 9; Orc and Zed declare nothing
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Char2: d10 1 - 2 (Reaction) + 10 (heavy crossbow) = 9 -> segment 9", out)
        self.force(2)      # d20 2 vs 18 - 6 = 12: miss
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Char2 heavy crossbow: d20 2 vs 12 (THAC0 18 - AC 6): miss", out)
        self.assertIn("Char2 is reloading until round 4.", out)     # rate 1/2: one round skipped
        self.assertRegex(self.hud(), r"Char2\s+party\s+-\s+reloading\s+12/12 hp\s+busy")
        self.player(fray.CmdAttack(), "Orc", "<Fray> Char2 is reloading until round 4.")
        self.player(fray.CmdCombat(), "/forfeit", "<Fray> Char2 has no action carried into round 3 to forfeit.")
        self.assertNotIn(self.char2.id, self.encounter.d.system.to_declare(self.encounter.d))

    def test_seed_3a_initiative_11_lands_next_round_and_forfeiting_costs_1(self):
        self.player(fray.CmdAttack(), "Orc")
        self.st(fray.CmdAttack(), "Orc=Char2/two-handed sword")
        self.force(2, 5)   # foes 2 -> base 1, party 5 -> base 4
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Orc: foes base 1 + 10 (two-handed sword) = 11 -> round 2, segment 1", out)
        self.assertIn("Later: r2 s1 Orc two-handed sword > Char2", out)
        # Segment 7: Char2 d20 15 vs 12: hit, 1d6 2. The round ends; Orc is still swinging.
        self.force(15, 2)
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Orc is still acting: two-handed sword > Char2 at segment 1.", out)
        self.assertRegex(self.hud(), r"Orc \(NPC\)\s+foes\s+-\s+two-handed sword >\s+3/5 hp\s+busy")
        self.st(fray.CmdAttack(), "Orc=Char2", "<Fray> Orc is still acting (from round 1): +combat/forfeit Orc gives "
                                               "that up to act anew (+1 initiative).")
        self.player(fray.CmdCombat(), "/forfeit", "<Fray> Char2 has no action carried into round 2 to forfeit.")
        out = self.st(fray.CmdCombat(), "/forfeit Orc", "<Combat> Orc forfeits the action from round 1.")
        self.assertIn("<Combat> Declare Orc's action for round 2: attack Orc=<target>[/<weapon>], "
                      "cast Orc=<spell>[=<target>] or use Orc=<item>=<target>.", out)
        self.assertRegex(self.hud(), r"Orc \(NPC\)\s+foes\s+-\s+-\s+3/5 hp\s+to declare")
        self.player(fray.CmdAttack(), "Orc")
        self.st(fray.CmdAttack(), "Orc=Char2")
        # Round 2, individual dice in joining order: Char2 3, Orc 6; Zed casts Magic Missile: 2.
        self.force(3, 6, 2)
        out = self.st(fray.CmdCast(), "Zed=magic missile=Char2")
        self.assertIn("Char2: d10 3 + 3 (short sword) = 6 -> segment 6", out)
        self.assertIn("Orc: d10 6 + 3 (short sword) + 1 (forfeit) = 10 -> segment 10", out)
        self.assertIn("Zed: d10 2 -> segment 2", out)
        # Segment 2 casting, segment 3 the missile: 1d4 (4) + 1 = 5, no attack roll.
        self.st(fray.CmdCombat(), "/next")
        self.force(4)
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Zed's Magic Missile takes effect on Char2:", out)
        self.assertIn("damage: 1d4 (4) + 1 = 5", out)
        self.assertEqual(self.hp(self.char2), {"damage": 5, "maximum": 12})

    def test_seed_1b_a_party_rolls_one_die_and_may_take_the_slowest_modifiers(self):
        self.st(fray.CmdCombat(), "/party Orc,Zed=pack", "<Combat> Orc, Zed: party pack, one d10 from round 2 on, "
                                                         "with their own modifiers.")
        self.st(fray.CmdCombat(), "/party Zed=pack/slowest")
        self.assertIn("Parties (round 2 on, * the slowest's modifiers): pack: Orc, Zed*", self.hud())
        self.later_round()
        self.st(fray.CmdAttack(), "Orc=Char2")
        self.st(fray.CmdCast(), "Zed=magic missile=Char2")
        # Char2 fights with two weapons, the dagger granted by the ST: one d10 per attack, the
        # best kept (seed 4b, 4c).
        self.st(fray.CmdCombat(), "/offhand Char2=dagger",
                "<Combat> Char2: off-hand dagger (attack <target>/,dagger fights with both).")
        self.force(4, 7, 3)    # pack 4; Char2 7 and 3
        out = self.player(fray.CmdAttack(), "Orc/short sword,dagger")
        self.assertIn("pack: d10 4", out)
        self.assertIn("Orc: pack base 4 + 3 (short sword) = 7 -> segment 7", out)
        self.assertIn("Zed: pack base 4 + 3 (Orc's modifiers) = 7 -> segment 7", out)
        self.assertIn("Char2: d10 7, 3 -> 3 + 3 (short sword) = 6 -> segment 6", out)
        self.assertIn(" 6> [melee] Char2 short sword > Orc (1/2)", out)
        self.assertIn("8 [spell] Zed Magic Missile > Char2; [melee] Char2 dagger > Orc (2/2, off-hand)", folded(out))
        # Segment 6, the primary hand at -2: d20 14 - 2 = 12 vs 18 - 6 = 12: hit; 1d6 4.
        self.force(14, 4)
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Char2 short sword: d20 14 - 2 (two weapons) = 12 vs 12 (THAC0 18 - AC 6): hit", out)
        self.assertIn("Char2's short sword (1/2) at Orc:", out)
        # Segment 7: Zed begins casting; the Orc's short sword: d20 2 vs 19 - 5 = 14: miss.
        self.force(2)
        self.st(fray.CmdCombat(), "/next")
        # Segment 8: the Magic Missile 1d4 (3) + 1, then the off-hand dagger, one bracket:
        # d20 10 - 4 (two weapons) = 6 vs 12: miss.
        self.force(3, 10)
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Char2's dagger (2/2, off-hand) at Orc:", out)
        self.assertNotIn(") (", out)
        self.assertIn("Char2 dagger (off-hand): d20 10 - 4 (two weapons) = 6 vs 12 (THAC0 18 - AC 6): miss", out)
        self.st(fray.CmdCombat(), "/party Orc,Zed=", "<Combat> Orc, Zed: no party (each rolls their own initiative).")
        self.assertNotIn("Parties", self.hud())

    def test_seed_4a_a_magical_off_hand_dagger_does_not_speed_the_primary(self):
        # seed 4a: magical plusses affect "only the initiative of that weapon":
        # the dagger +2 strikes with the sword at 7 (speed 2 - 2 = 0); the sword's second attack
        # follows the dagger's own speed 2, then its 3: 7 + 2 + 3 = 12, round 3 segment 2.
        add_traits(self.char2, "elethril", Attacks=2)
        self.st(fray.CmdCombat(), "/offhand Char2=dagger +2")
        self.later_round()
        self.force(4, 6, 9)    # Char2: a d10 per attack, the best (4) kept; Orc and Zed declare nothing
        self.player(fray.CmdAttack(), "Orc/short sword,dagger")
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Char2: d10 4, 6, 9 -> 4 + 3 (short sword) = 7 -> segment 7", out)
        self.assertIn(" 7> [melee] Char2 short sword > Orc (1/3); [melee] Char2 dagger +2 > Orc (2/3, off-hand)",
                      folded(out))
        self.assertIn("Later: r3 s2 Char2 short sword > Orc (3/3)", out)      # not round 2 segment 10
        self.assertNotIn("10> ", out)

    def test_a_damaging_spell_spoils_another_caster(self):
        """Seed 1c: a mage's Cold Bolt interrupts the other's Fireball."""
        self.later_round()
        add_traits(self.char2, "elethril", **{"Caster Level": 3})  # 2nd-level spells
        self.player(fray.CmdCast(), "cold bolt=Zed")
        self.st(fray.CmdCast(), "Zed=fireball=Char2")
        self.force(2, 3)   # Char2: casting 2-3, Cold Bolt at 4; Zed: casting from 3, Fireball at 6
        out = self.st(fray.CmdCombat(), "/next")     # Orc declares nothing
        self.assertIn(" 4  [spell] Char2 Cold Bolt > Zed", out)
        self.st(fray.CmdCombat(), "/next")           # 2: Char2 begins
        self.st(fray.CmdCombat(), "/next")           # 3: Zed begins
        self.force(3, 2)
        out = self.st(fray.CmdCombat(), "/next")     # 4: 2d4 (3, 2) = 5
        self.assertIn("damage: 2d4 (3, 2) = 5", out)
        self.assertIn("Zed is hit while casting: Fireball is spoiled.", out)
        self.assertIn("Round 2 is over.", out)       # nothing is left in the round


class TestModifiersAndRolls(ElethrilFightTest):
    def test_standard_initiative_modifiers(self):
        self.player(fray.CmdCombat(), "/init hasted",
                    "<Combat> Char2 has initiative modifiers: hasted -2 (from the next initiative roll).")
        self.player(fray.CmdAttack(), "Orc",
                    "<Combat> Char2 will attack Orc with short sword; initiative party base + 3 (short sword) "
                    "- 2 (hasted).")
        self.assertIn("Initiative modifiers: Char2 hasted", self.hud())
        self.player(fray.CmdCombat(), "/init Orc=slowed", "<Fray> Only this scene's Storyteller or staff can set "
                                                          "someone else's initiative modifiers.")
        self.st(fray.CmdCombat(), "/init Orc=slowed,higher ground",
                "<Combat> Orc has initiative modifiers: slowed +2, on higher ground -1")
        self.player(fray.CmdCombat(), "/init flying", "<Fray> No initiative modifier 'flying'. Choose from: hasted,")
        self.player(fray.CmdCombat(), "/init none", "<Combat> Char2 has no initiative modifiers")
        self.assertNotIn("Char2 hasted", self.hud())

    def test_roll_takes_dice_notation(self):
        self.force(17)
        self.player(fray.CmdRoll(), "1d20+2", "<Roll> Char2 rolls 1d20 (17) + 2 = 19")
        self.force(3, 5)
        self.player(fray.CmdRoll(), "2d6 vs 9", "<Roll> Char2 rolls 2d6 (3, 5) = 8 vs 9: failure")

    def test_spells_list(self):
        out = self.player(fray.CmdSpells(), "")
        self.assertIn("fireball            Fireball            3      3 segments   5d6 damage", out)
        self.assertIn("power-word-stun     Power Word, Stun    7      instant", out)


class TestBadInput(ElethrilFightTest):
    """The issue's list: one clear line each, nothing changed."""

    def test_bad_rolls(self):
        before = self.state()
        for text, message in {"1d0": "Dice need at least 2 sides: '1d0'.",
                              "0d6": "Roll at least one die: '0d6'.",
                              "-3d10": "Cannot roll a negative number of dice: '-3d10'.",
                              "1d20+": "Incomplete roll: '1d20+' ends with an operator.",
                              "5": "Give dice to roll, e.g. +roll 1d20+2 or +roll 2d6."}.items():
            with self.subTest(text=text):
                out = self.player(fray.CmdRoll(), text)
                self.assertEqual(out, f"<Fray> {message}")
        self.assertEqual(self.state(), before)

    def test_unknown_spell_and_bad_declarations(self):
        before = self.state()
        out = self.player(fray.CmdCast(), "wish=Orc")
        self.assertTrue(out.startswith("<Fray> No spell 'wish'. Choose from: cantrip, magic-missile,"), out)
        self.assertEqual(len(out.splitlines()), 1)
        for args, message in {
            "fireball": "Fireball needs a target: cast fireball=<target>",
            "fireball=Char2": "You cannot aim a spell at yourself.",
            "fireball=Orc,Zed": "Name one target: cast fireball=<target>",
            "/damage fireball=Orc": "Elethril spells have no Special Effect successes: cast without /damage.",
        }.items():
            with self.subTest(args=args):
                self.player(fray.CmdCast(), args, f"<Fray> {message}")
        for args, message in {
            "Orc/claymore": "No weapon 'claymore'. Choose from: fist, dagger,",
            "Orc/long sword*0": "Give the number of attacks after '*', e.g. attack Orc/long sword*2, not '0'.",
            "Orc/short sword,": "Name the off-hand weapon after ',', e.g. attack Orc/short sword,dagger.",
            "Char2": "You cannot attack yourself.",
            "Orc=Zed": "You can only act for yourself; this scene's Storyteller acts for NPCs.",
        }.items():
            with self.subTest(args=args):
                self.player(fray.CmdAttack(), args, f"<Fray> {message}")
        self.assertEqual(self.state(), before)

    def test_initiative_commands_and_switches_refused(self):
        before = self.state()
        self.player(fray.CmdCombat(), "/init", "<Fray> Elethril rolls initiative for everyone each round, once all "
                    "have declared (attack, cast or use). +combat/init <modifier>[,...] sets standard modifiers.")
        self.st(npcs.CmdNpc(), "/init Gob=2+2", "<Fray> Elethril NPCs join with +npc/create <name>=<template> and "
                "+combat/add <name>, then declare like everyone: attack <npc>=<target>.")
        self.assertFalse([obj for obj in self.room1.contents if obj.key == "Gob"])
        self.player(fray.CmdCombat(), "/delay 5", "<Fray> Round 1's initiative is not rolled yet: delay once the "
                                                  "segments are known.")
        self.player(fray.CmdCombat(), "/side Char2=solo", "<Fray> Only this scene's Storyteller or staff can set sides.")
        self.st(fray.CmdCombat(), "/side Char2=a|rb", "<Fray> A side is named with 1-20 letters")
        self.st(fray.CmdCombat(), "/side Char2", "<Fray> Usage: +combat/side <name>[,<name>...]=<side>")
        self.st(fray.CmdCombat(), "/party Orc=pack/fast", "<Fray> After the party name only /slowest may follow")
        self.st(fray.CmdCombat(), "/forfeit Orc", "<Fray> Orc has no action carried into round 1 to forfeit.")
        self.st(fray.CmdCombat(), "/next", "<Fray> Nobody has declared an action yet (attack <target>[/<weapon>], "
                                           "cast <spell>[=<target>] or use <item>[=<target>]).")
        self.assertEqual(self.state(), before)

    def test_elethril_switches_in_another_system_fight(self):
        self.st(fray.CmdCombat(), "/end")
        self.st(fray.CmdCombat(), "/start storyteller")
        self.player(fray.CmdCombat(), "/join")
        # sides are for every system now (whom AI NPCs fight, world.ai); only elethril rolls by them
        self.st(fray.CmdCombat(), "/side Char2=party", "<Combat> Char2: side party.")
        self.player(fray.CmdCombat(), "/delay 4", "<Fray> Delaying to a segment: an elethril rule; this fight uses")
        self.player(fray.CmdCombat(), "/init hasted", "<Fray> Usage: +combat[/<switch>]")


class TestFromTheSheetOrTheStoryteller(ElethrilFightTest):
    """What makes an action stronger comes from the sheet (staff +stat) or from the Storyteller,
    never from a player's typed option."""

    def test_a_player_s_typed_option_gives_no_advantage(self):
        before = self.state()
        plusses = ("Plusses come from the sheet (Weapon Plus, Weapon Quality: set by staff), not the attack: "
                   "name the weapon alone, e.g. '{}'.")
        for args, message in {
            "Orc/dagger +50": plusses.format("dagger"),
            "Orc/short sword +1": plusses.format("short sword"),
            "Orc/short sword q2": plusses.format("short sword"),
            "Orc/short sword*10": "Char2 makes 1 attack a round (Attacks on the sheet, set by staff), not 10.",
            "Orc/dagger": "Char2 holds a short sword, not a dagger: attack with the weapon in hand or a fist "
                          "(staff change it: +stat Char2/weapon=).",
            "Orc/short sword,dagger": "Char2 has no off-hand weapon: the Storyteller grants one "
                                      "(+combat/offhand Char2=<weapon>).",
        }.items():
            with self.subTest(args=args):
                self.player(fray.CmdAttack(), args, f"<Fray> {message}")
        self.player(fray.CmdCast(), "power word kill=Orc",
                    "<Fray> Char2 is no caster: Caster Level is set by staff (+stat Char2/Caster Level=<level>).")
        add_traits(self.char2, "elethril", **{"Caster Level": 3})
        self.player(fray.CmdCast(), "fireball=Orc",
                    "<Fray> Fireball is a level 3 spell: Char2's Caster Level 3 casts up to level 2.")
        self.assertEqual(self.state(), before)
        self.player(fray.CmdAttack(), "Orc/fist",
                    "<Combat> Char2 will attack Orc with fist; initiative party base + 1 (fist).")

    def test_the_sheet_gives_the_weapon_plus_and_the_attacks(self):
        add_traits(self.char2, "elethril", **{"Weapon Plus": 1, "Attacks": 2})
        self.later_round()
        self.player(fray.CmdAttack(), "Orc", "<Combat> Char2 will attack Orc with short sword +1, 2 attacks; "
                                             "initiative best of 2 d10 + 2 (short sword +1).")
        # One d10 per attack, the best kept: 3 + 2 (speed 3 - 1 magical plus) = segment 5; the
        # second attack its speed factor later, at 7. Orc and Zed declare nothing.
        self.force(5, 3)
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Char2: d10 5, 3 -> 3 + 2 (short sword +1) = 5 -> segment 5", out)
        self.assertIn(" 7  [melee] Char2 short sword +1 > Orc (2/2)", out)
        # Segment 5: d20 11 + 1 (magic) = 12 vs THAC0 18 - AC 6 = 12: hit; 1d6 (3) + 1 = 4.
        self.force(11, 3)
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Char2's short sword +1 (1/2) at Orc:", out)
        self.assertIn("Char2 short sword +1: d20 11 + 1 (magic) = 12 vs 12 (THAC0 18 - AC 6): hit", out)
        self.assertIn("damage (small/medium): 1d6 (3) + 1 (magic) = 4", out)
        self.assertIn("Orc loses 4 hit points: 1/5 hp", out)
        self.assertEqual(dice.forced_faces(), [])

    def test_the_storyteller_may_give_an_npc_any_weapon_attacks_and_spell(self):
        self.later_round()
        self.st(fray.CmdAttack(), "Orc=Char2/long sword +2*3",
                "<Combat> Orc will attack Char2 with long sword +2, 3 attacks; initiative best of 3 d10 + 3 "
                "(long sword +2).")
        self.st(fray.CmdCast(), "Zed=power word kill=Char2", "<Combat> Zed will cast Power Word, Kill at Char2; "
                                                              "initiative d10.")
        before = self.state()
        for args, message in {"Orc=Char2/dagger +50": "A weapon's magical plus is 0 to 5, not 50.",
                              "Orc=Char2/light crossbow*2": "A light crossbow fires at most 1 per round (rate 1).",
                              "Orc=Char2/dagger*11": "Attacks per action: 1 to 10, not 11."}.items():
            with self.subTest(args=args):
                self.st(fray.CmdAttack(), args, f"<Fray> {message}")
        self.assertEqual(self.state(), before)

    def test_the_storyteller_grants_the_off_hand_weapon(self):
        before = self.state()
        self.player(fray.CmdCombat(), "/offhand Char2=dagger",
                    "<Fray> Only this scene's Storyteller or staff can grant off-hand weapons.")
        self.st(fray.CmdCombat(), "/offhand Char2=short bow", "<Fray> An off-hand weapon is a melee weapon, not a short bow.")
        self.st(fray.CmdCombat(), "/offhand Char2=dagger +9", "<Fray> A weapon's magical plus is 0 to 5, not 9.")
        self.st(fray.CmdCombat(), "/offhand Char2", "<Fray> Usage: +combat/offhand <name>[,<name>...]=<weapon>")
        self.assertEqual(self.state(), before)
        self.st(fray.CmdCombat(), "/offhand Char2=dagger +1",
                "<Combat> Char2: off-hand dagger +1 (attack <target>/,dagger fights with both).")
        self.assertIn("Off-hand weapons (+combat/offhand): Char2 dagger +1", self.hud())
        self.player(fray.CmdAttack(), "Orc/short sword,knife", "<Fray> Char2's off-hand weapon is a dagger, not a knife.")
        self.player(fray.CmdAttack(), "Orc/,dagger", "<Combat> Char2 will attack Orc with short sword and dagger +1 "
                                                     "(off-hand); initiative party base + 3 (short sword).")
        # The grant taken away before the roll: the declared action no longer stands.
        self.st(fray.CmdCombat(), "/offhand Char2=", "<Combat> Char2: no off-hand weapon.")
        self.assertNotIn("Off-hand weapons", self.hud())
        self.force(3)      # only the party's side rolls
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Char2's declared action lapses: Char2 has no off-hand weapon: the Storyteller grants one", out)
        self.assertEqual(self.encounter.segment_actions, [])


class TestTheFallenAndOtherFixes(ElethrilFightTest):
    def test_one_who_falls_loses_the_carried_action_announced_once(self):
        """Round 2. Orc's short bow (the ST's choice): d10 1 + 7 = segment 8, the second shot
        7 later, in round 3 segment 5. Char2: d10 6 + 3 = segment 9, drops the Orc."""
        self.later_round()
        self.st(fray.CmdAttack(), "Orc=Char2/short bow")
        self.player(fray.CmdAttack(), "Orc")
        self.force(6, 1, 4)   # Char2 6; Orc one d10 per shot: 1 and 4, the best kept
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Orc: d10 1, 4 -> 1 + 7 (short bow) = 8 -> segment 8", out)
        self.assertIn("Later: r3 s5 Orc short bow > Char2 (2/2)", out)
        self.force(5)         # segment 8: d20 5 vs 19 - 5 = 14: miss
        self.st(fray.CmdCombat(), "/next")
        self.force(15, 6)     # segment 9: d20 15 vs 18 - 6 = 12: hit; 1d6 6: Orc at -1
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Orc loses 6 hit points: Down -1/5 hp", out)
        self.assertEqual(out.count("is cancelled"), 1)
        self.assertIn("Orc is down: short bow > Char2 at round 3, segment 5 is cancelled.", out)
        self.assertIn("Round 2 is over. Round 3: declare your actions.", out)
        self.assertNotIn("still acting", out)
        self.assertNotIn("Declare for Orc", out)
        self.assertIn("Declare for Zed: attack <npc>=<target>", out)
        hud = self.hud()
        self.assertRegex(hud, r"Orc \(NPC\)\s+foes\s+-\s+-\s+Down -1/5\s*\n")
        self.assertNotIn("busy", hud)
        self.assertNotIn("Later:", hud)
        before = self.state()
        self.st(fray.CmdCombat(), "/forfeit Orc", "<Fray> Orc is down and cannot act.")
        self.st(fray.CmdAttack(), "Orc=Char2", "<Fray> Orc is down and cannot act.")
        self.assertEqual(self.state(), before)
        self.player(fray.CmdAttack(), "Zed")
        self.force(2)         # round 3: only Char2 rolls; nothing of Orc's plays or is said again
        out = self.st(fray.CmdCombat(), "/next")
        self.assertNotIn("Orc", out.replace("Orc, Zed", ""))   # (Zed declares nothing)
        self.assertEqual(dice.forced_faces(), [])

    def test_one_downed_between_rounds_loses_the_carried_action_at_the_roll(self):
        """Round 1: the Orc's two-handed sword at 1 + 10 = 11 lands in round 2, segment 1.
        Staff damage drops it before round 2 is rolled: the blow is cancelled, said once."""
        self.player(fray.CmdAttack(), "Zed")
        self.st(fray.CmdAttack(), "Orc=Char2/two-handed sword")
        self.force(2, 5)      # foes 2 -> base 1, party 5 -> base 4: Char2 at 7
        self.st(fray.CmdCombat(), "/next")
        self.force(2)         # segment 7: Char2 d20 2 vs 8: miss. Round 2: Orc still swinging.
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Orc is still acting: two-handed sword > Char2 at segment 1.", out)
        self.orc.health = {"elethril": {"damage": 7, "maximum": 5}}   # staff +damage
        fights.sync(self.orc)                                          # (which the fight takes in)
        self.assertNotIn("busy", self.hud())
        self.player(fray.CmdAttack(), "Zed")
        self.force(4)         # Char2 4 + 3 = 7
        out = self.player(fray.CmdCombat(), "")   # nothing rolled yet: Zed is to declare
        self.assertIn("waiting on Zed", out)
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Orc is down: two-handed sword > Char2 at segment 1 is cancelled.", out)
        self.assertNotIn("[melee] Orc", out)

    def test_an_action_at_segment_10_cannot_be_delayed(self):
        self.later_round()
        self.st(fray.CmdAttack(), "Orc=Char2")
        self.force(7)         # Orc 7 + 3 = segment 10; Char2 and Zed declare nothing
        self.st(fray.CmdCombat(), "/next")
        before = self.state()
        self.st(fray.CmdCombat(), "/delay Orc=8", "<Fray> Orc acts at segment 10, the last of the round: the "
                                                  "action cannot be delayed further this round.")
        self.assertEqual(self.state(), before)

    def test_cast_usage_is_elethril_s(self):
        before = self.state()
        usage = "<Fray> Usage: cast <spell>[=<target>]  (Storytellers: cast <npc>=<spell>[=<target>])"
        self.player(fray.CmdCast(), "=Orc", usage)
        self.st(fray.CmdCast(), "Zed==Char2", usage)
        self.st(fray.CmdCast(), "Zed=fireball=Char2,Orc", "<Fray> Name one target: cast Zed=fireball=<target>")
        self.assertEqual(self.state(), before)

    def test_a_party_member_following_the_slowest_is_told_so(self):
        self.st(fray.CmdCombat(), "/party Char2=pack/slowest")
        self.later_round()
        self.player(fray.CmdAttack(), "Orc", "<Combat> Char2 will attack Orc with short sword; initiative pack d10 "
                                             "+ the slowest member's modifiers.")

    def test_the_dead_fit_the_hud(self):
        add_traits(self.char2, "elethril", **{"Hit Points": 20})
        self.char2.health = {"elethril": {"damage": 34, "maximum": 20}}
        fights.sync(self.char2)   # as staff +damage does
        hud = self.hud(self.char1)
        self.assertRegex(hud, r"Char2\s+party\s+-\s+-\s+Dead -14/20\s*\n")
        self.assertTrue(all(len(re.sub(r"\|.", "", line)) <= 78 for line in hud.splitlines()), hud)

    def test_npc_list_shows_weapon_names(self):
        self.st(fray.CmdCombat(), "/end")     # no fight: /elethril lists their elethril sheets
        self.assertNotIn("short sword", self.st(npcs.CmdNpc(), "/list"))  # the default: storyteller's
        out = self.st(npcs.CmdNpc(), "/list/elethril")
        self.assertIn("NPCs here (2, elethril):", out)
        self.assertRegex(out, r"Orc\s+Orc\s+short sword\s")
        self.assertNotIn("short-sword", out)


class TestMagicalItems(ElethrilFightTest):
    """Seed 3b: "discharge of cast spells (including those from spells, items, and potions)".
    Staff put items on sheets (+item); use declares one; a charge goes as it discharges."""

    def items(self, obj=None) -> list:
        return [dict(item) for item in (obj or self.char2).attributes.get("magic_items", category="fray") or []]

    def test_staff_give_and_take_items_players_see_their_own(self):
        self.player(items.CmdItem(), "Char2=wand/fireball=3", "<Fray> Only staff (Builder or above) can give "
                                                               "magical items.")
        self.player(items.CmdItem(), "/remove Char2=1", "<Fray> Only staff (Builder or above) can take magical "
                                                        "items away.")
        self.player(items.CmdItem(), "Orc", "<Fray> Only a Narrator or staff can see other characters' magical items.")
        self.player(items.CmdItem(), "", "You have no magical items (staff give them with +item).")
        self.assertEqual(self.items(), [])
        out = self.st(items.CmdItem(), "Char2=wand/magic missile=3")
        self.assertEqual(out, "<Combat> Char2 now holds #1 wand of Magic Missile (3 charges).")
        self.st(items.CmdItem(), "Char2=pot/cure light", "<Combat> Char2 now holds #2 potion of Cure Light Wounds "
                                                         "(1 charge).")
        self.assertEqual(self.items(), [{"id": 1, "type": "wand", "spell": "magic-missile", "charges": 3},
                                        {"id": 2, "type": "potion", "spell": "cure-light-wounds", "charges": 1}])
        out = self.call(items.CmdItem(), "", caller=self.char2, cmdstring="+items")
        self.assertIn("Your magical items", out)
        self.assertRegex(out, r"1\s+wand of Magic Missile\s+3\s+\+3\s+1d4\+1 damage")
        self.assertRegex(out, r"2\s+potion of Cure Light Wounds\s+1\s+\+4\s+heals 1d8")
        self.assertTrue(all(len(line) <= 78 for line in out.splitlines()), out)
        self.player(items.CmdItem(), "Char2", "Your magical items")
        self.st(items.CmdItem(), "Char2", "Char2's magical items")
        self.st(items.CmdItem(), "Orc", "Orc has no magical items.")
        self.st(items.CmdItem(), "/remove Char2=#2", "<Combat> Char2 no longer holds #2 potion of Cure Light Wounds "
                                                     "(1 charge).")
        self.assertEqual([item["id"] for item in self.items()], [1])

    def test_use_discharges_first_in_the_segment_unspoiled_and_spends_a_charge(self):
        self.st(items.CmdItem(), "Char2=wand/magic missile=2")
        self.later_round()
        self.player(items.CmdUse(), "wand=Orc", "<Combat> Char2 will use wand of Magic Missile at Orc; initiative "
                                                "d10 + 3 (wand).")
        self.assertRegex(self.hud(), r"Char2\s+party\s+-\s+wand of Magic Missile")    # the declarer sees it
        self.assertRegex(self.hud(self.orc), r"Char2\s+party\s+-\s+declared")
        self.st(fray.CmdAttack(), "Orc=Char2")
        self.force(2, 1)   # Char2 2 + 3 (wand) = 5; Orc 1 + 3 = 4; Zed declares nothing
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Char2: d10 2 + 3 (wand) = 5 -> segment 5", out)
        self.assertIn(" 5  [spell] Char2 wand of Magic Missile > Orc", out)
        self.assertNotIn("casting", out)
        # Segment 4: the Orc hits the wand's user: d20 15 vs 19 - 5 = 14, 1d6 2. No spell is
        # being cast, so nothing is spoiled.
        self.force(15, 2)
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Char2 loses 2 hit points: 10/12 hp", out)
        self.assertNotIn("spoiled", out)
        self.assertEqual(self.items()[0]["charges"], 2)   # not spent when declared or rolled
        # Segment 5: the wand goes off, 1d4 (3) + 1, no attack roll; a charge is spent.
        self.force(3)
        out = self.st(fray.CmdCombat(), "/next")
        for line in ("Char2's wand of Magic Missile takes effect on Orc:", "damage: 1d4 (3) + 1 = 4",
                     "Orc loses 4 hit points: 1/5 hp",
                     "Char2's wand of Magic Missile (#1): 1 charge spent, 1 left."):
            self.assertIn(line, out)
        self.assertEqual(self.items()[0]["charges"], 1)
        self.assertEqual(self.hp(self.orc), {"damage": 4, "maximum": 5})
        self.assertEqual(dice.forced_faces(), [])
        self.player(items.CmdItem(), "", "Your magical items")
        self.assertRegex(self.player(items.CmdItem(), ""), r"1\s+wand of Magic Missile\s+1\s")

    def test_a_potion_heals_its_drinker_and_an_empty_one_is_refused(self):
        self.char2.health = {"elethril": {"damage": 6, "maximum": 12}}
        self.st(items.CmdItem(), "Char2=potion/cure light wounds")
        self.later_round()
        self.player(items.CmdUse(), "potion", "<Combat> Char2 will use potion of Cure Light Wounds; initiative "
                                              "d10 + 4 (potion).")
        self.force(1)      # 1 + 4 = segment 5; Orc and Zed declare nothing
        self.st(fray.CmdCombat(), "/next")
        self.force(5)
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Char2's potion of Cure Light Wounds takes effect:", out)
        self.assertIn("Char2 regains 5 hit points: 11/12 hp", out)
        self.assertIn("Char2's potion of Cure Light Wounds (#1): 1 charge spent, 0 left.", out)
        self.assertIn("Round 3: declare your actions.", out)
        before = self.state()
        self.player(items.CmdUse(), "potion", "<Fray> Char2's potion of Cure Light Wounds (#1) has no charges left.")
        self.assertEqual(self.state(), before)

    def test_one_who_falls_before_the_discharge_keeps_the_charge(self):
        self.char2.health = {"elethril": {"damage": 10, "maximum": 12}}
        self.st(items.CmdItem(), "Char2=wand/fireball=1")
        self.later_round()
        self.player(items.CmdUse(), "fire=Zed")
        self.st(fray.CmdAttack(), "Orc=Char2")
        self.force(5, 1)   # Char2 5 + 3 = 8; Orc 1 + 3 = 4
        self.st(fray.CmdCombat(), "/next")
        self.force(15, 3)  # segment 4: the Orc hits, 1d6 3: Char2 at -1, down
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Char2 is down: wand of Fireball > Zed at segment 8 is cancelled.", out)
        self.assertEqual(self.items()[0]["charges"], 1)
        self.assertEqual(self.hp(self.zed), {})

    def test_the_storyteller_uses_items_for_npcs(self):
        self.later_round()
        self.st(items.CmdUse(), "Orc=wand=Char2", "<Fray> Orc has no magical items: staff give them with +item "
                                                  "(or name any: use Orc=<type>/<spell>).")
        self.st(items.CmdUse(), "Orc=wand/lightning bolt=Char2",
                "<Combat> Orc will use wand of Lightning Bolt at Char2; initiative d10 + 3 (wand).")
        self.st(items.CmdItem(), "Zed=staff/magic missile=2")
        self.st(items.CmdUse(), "Zed=staff=Char2", "<Combat> Zed will use staff of Magic Missile at Char2; "
                                                   "initiative d10 + 2 (staff).")
        self.player(items.CmdUse(), "Orc=wand/fireball=Char2", "<Fray> You can only act for yourself; this scene's "
                                                               "Storyteller acts for NPCs.")
        self.player(items.CmdUse(), "wand/fireball=Orc", "<Fray> Char2 has no magical items: staff give them with "
                                                         "+item.")
        self.force(1, 2)   # Orc 1 + 3 = 4, Zed 2 + 2 = 4: one discharge step
        self.st(fray.CmdCombat(), "/next")
        self.force(1, 1, 1, 1, 1, 4)   # Lightning Bolt 5d6 (1 each) = 5; Magic Missile 1d4 (4) + 1 = 5
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Orc's wand of Lightning Bolt takes effect on Char2:", out)
        self.assertIn("Zed's staff of Magic Missile (#1): 1 charge spent, 1 left.", out)
        self.assertNotIn("Orc's wand of Lightning Bolt (#", out)      # the ST's item counts no charges
        self.assertEqual(self.hp(self.char2), {"damage": 10, "maximum": 12})
        self.assertEqual(self.items(self.zed)[0]["charges"], 1)

    def test_a_declared_item_taken_away_before_the_roll_lapses(self):
        self.st(items.CmdItem(), "Char2=wand/magic missile=1")
        self.player(items.CmdUse(), "1=Orc")
        self.st(items.CmdItem(), "/remove Char2=1")
        self.force(3)      # only the party side rolls
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Char2's declared action lapses: Char2 no longer holds magical item #1.", out)
        self.assertEqual(self.encounter.segment_actions, [])
        self.assertNotIn(self.char2.id, dict(self.encounter.declarations))   # no longer shown as declared
        self.assertNotRegex(self.hud(), r"Char2\s+party\s+\S+\s+wand of Magic Missile")
        # A removed item's number is never given again.
        self.st(items.CmdItem(), "Char2=wand/fireball=1", "<Combat> Char2 now holds #2 wand of Fireball (1 charge).")

    def test_a_long_list_of_choices_stays_one_short_line(self):
        out = self.st(items.CmdItem(), "Char2=wand/fireballl")
        self.assertEqual(out.splitlines(), [out])
        self.assertIn("No spell 'fireballl'. Did you mean: fireball?", out)
        self.assertIn("lightning-bolt ... and 5 more.", out)
        self.assertLessEqual(len(out), 200)
        self.assertEqual(self.items(), [])

    def test_bad_use(self):
        self.st(items.CmdItem(), "Char2=wand/fireball=0")
        self.st(items.CmdItem(), "Char2=wand/magic missile=2")
        before, sheet = self.state(), self.items()
        usage = "<Fray> Usage: use <item>[=<target>]  (Storytellers: use <npc>=<item>=<target>)"
        for args, message in {
            "": usage,
            "=Orc": usage,
            "Orc==Char2": usage,
            "amulet=Orc": "<Fray> Char2 has no magical item 'amulet' (+items lists them).",
            "9=Orc": "<Fray> Char2 has no magical item '9' (+items lists them).",
            "99999999999999999999=Orc": "<Fray> Char2 has no magical item '99999999999999999999' (+items lists them).",
            "|rwand=Orc": "<Fray> Char2 has no magical item '|rwand' (+items lists them).",
            "wänd=Orc": "<Fray> Char2 has no magical item 'w\\u00e4nd' (+items lists them).",
            "wand=Orc": "<Fray> 'wand' could be: #1 wand of Fireball (0 charges), #2 wand of Magic Missile "
                        "(2 charges): use the number.",
            "fireball=Orc": "<Fray> Char2's wand of Fireball (#1) has no charges left.",
            "wand/fire=Orc": "<Fray> Char2's wand of Fireball (#1) has no charges left.",
            "2=Bob": "<Fray> No combatant 'Bob' in this fight.",
            "2=Char2": "<Fray> You cannot aim a spell at yourself.",
            "2": "<Fray> The wand of Magic Missile needs a target: use 2=<target>",
            "magic=Orc,Zed": "<Fray> Name one target: use magic=<target>",
        }.items():
            with self.subTest(args=args):
                self.assertEqual(self.player(items.CmdUse(), args), message)
        self.assertEqual((self.state(), self.items()), (before, sheet))
        self.player(items.CmdUse(), "2=Orc")
        self.st(fray.CmdAttack(), "Orc=Char2")
        self.force(4, 7)
        self.st(fray.CmdCast(), "Zed=sleep=Char2")     # the last declaration rolls initiative
        before = self.state()
        self.player(items.CmdUse(), "2=Zed", "<Fray> Round 1's initiative is rolled: actions are set until the round "
                                             "ends (+combat/delay <segment> holds yours).")
        self.assertEqual(self.state(), before)

    def test_use_outside_an_elethril_fight(self):
        self.st(items.CmdItem(), "Char2=wand/magic missile=2")
        self.st(fray.CmdCombat(), "/end")
        self.player(items.CmdUse(), "wand=Orc", "<Fray> There is no fight here. A Storyteller starts one with "
                                                "+combat/start.")
        self.st(fray.CmdCombat(), "/start storyteller")
        self.player(items.CmdUse(), "wand=Orc", "<Fray> Using a magical item: an elethril rule; this fight uses "
                                                "storyteller.")
        self.assertEqual(self.items()[0]["charges"], 2)

    def test_bad_item_commands_change_nothing(self):
        self.st(items.CmdItem(), "Char2=wand/fireball=2")
        sheet = self.items()
        for args, message in {
            "Char2=amulet/fireball": "No magical item 'amulet'. Choose from: potion, ring, rod, staff, wand.",
            "Char2=wand/wish": "No spell 'wish'. Choose from: cantrip,",
            "Char2=wand": "Usage: +item <name>=<type>/<spell>[=<charges>] (e.g. wand/fireball=5)",
            "Char2=/fireball": "Usage: +item <name>=<type>/<spell>[=<charges>]",
            "Char2=": "Usage: +item <name>=<type>/<spell>[=<charges>]",
            "Char2=wand/fireball=999999999999999999999999": "A wand holds 0 to 100 charges, not "
                                                            "'999999999999999999999999'.",
            "Char2=wand/fireball=101": "A wand holds 0 to 100 charges, not '101'.",
            "Char2=wand/fireball=-1": "A wand holds 0 to 100 charges, not '-1'.",
            "Char2=wand/fireball=": "A wand holds 0 to 100 charges, not ''.",
            "Char2=wand/fireball=３": "A wand holds 0 to 100 charges, not '\\uff13'.",
            "Char2=potion/cure light wounds=2": "A potion holds 0 to 1 charges, not '2'.",
            "Char2=|rwand/fireball": "No magical item '|rwand'.",
            "Char2=wänd/fireball": "No magical item 'w\\u00e4nd'.",
            "Nobody=wand/fireball": "No character 'Nobody'.",
            "/remove Char2=9": "Char2 has no magical item #9.",
            "/remove Char2=x": "'x' is not a magical item number; give a number like 3.",
            "/remove Char2=99999999999999999999": "No magical item #99999999999999999999.",
            "/remove Char2": "Usage: +item/remove <name>=<#>",
            "/bogus Char2": "Unknown switch '/bogus' for +item. Switches: /remove.",
        }.items():
            with self.subTest(args=args):
                self.st(items.CmdItem(), args, f"<Fray> {message}")
        self.assertEqual(self.items(), sheet)
