"""Command tier: an elethril fight through the real commands, with forced dice (seed 004).

The cast: Char2 (the player: THAC0 18, Armor Class 5, 12 hit points, a short sword) on side
"party"; the NPCs Orc (template orc: THAC0 19, Armor Class 6, 5 hit points, a short sword)
and Zed (template hedge-mage: THAC0 20, Armor Class 10, 8 hit points, a dagger) on side
"foes". Dice order when initiative is rolled: round 1 one d10 per side in alphabetical order
(foes, party); later rounds each party's d10, then each fighter's d10s in joining order
(Char2, Orc, Zed).
"""

import re

from commands import fray, npcs
from tests.game.test_combat_commands import FrayCommandTest
from world import dice, elethril, encounters


def folded(text: str) -> str:
    return " ".join(text.split())


class ElethrilFightTest(FrayCommandTest):
    def setUp(self):
        super().setUp()
        self.char2.sheet = {"THAC0": 18, "Armor Class": 5, "Hit Points": 12}
        self.char2.weapon = "short-sword"
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
        self.assertIn("You join the fight. Declare an action: attack <target>[/<weapon>] or cast <spell>[=<target>].", out)

    def test_seed_1a_sides_roll_4_and_7_and_become_1_and_4(self):
        self.player(fray.CmdAttack(), "Orc",
                    "<Combat> Char2 will attack Orc with short sword; initiative d10 + 3 (short sword).")
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
                     "party: d10 7 -> base 4",
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
        out = self.player(fray.CmdAttack(), "Orc/dagger")
        self.assertIn("Char2 changes the declared action for round 1.", out)
        self.assertEqual(self.encounter.declarations[self.char2.id]["weapon"], "dagger")
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
        self.assertIn("Declare for Orc, Zed: attack <npc>=<target>, cast <npc>=<spell>=<target>.", out)
        self.assertEqual((self.encounter.round, self.encounter.segment), (2, 0))
        self.assertEqual(self.hp(self.char2), {})
        self.assertEqual(dice.forced_faces(), [])
        self.assertEqual(self.encounter.segment_actions, [])   # nothing carries into round 2

    def test_delay_to_a_later_segment_interrupts_the_caster(self):
        self.roll_round_one()
        self.player(fray.CmdCombat(), "/delay 6", "<Combat> Char2 holds the action to segment 6.")
        hud = self.hud()
        self.assertIn(" 4> [casting] Zed begins Fireball\n", hud)
        self.assertIn(" 6  [melee] Char2 short sword > Zed", hud)
        out = self.st(fray.CmdCombat(), "/next")     # segment 4: only the casting begins
        self.assertIn("Zed begins casting Fireball: it takes effect at segment 7.", out)
        before = self.state()
        self.player(fray.CmdCombat(), "/delay 3", "<Fray> Segment 3 has passed: it is segment 5.")
        self.player(fray.CmdCombat(), "/delay 5", "<Fray> Char2 already acts at segment 6: delay to a later one (7 to 10).")
        self.player(fray.CmdCombat(), "/delay 11", "<Fray> Delay to a segment of this round: 1 to 10, not 11.")
        self.player(fray.CmdCombat(), "/delay soon", "<Fray> Give a segment number, e.g. +combat/delay 6, not 'soon'.")
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
        self.assertRegex(self.hud(), r"Orc \(NPC\)\s+foes\s+-\s+-\s+Down -1/5 hp\s*\n")


class TestCarriedActionsAndGroups(ElethrilFightTest):
    def test_seed_4d_a_heavy_crossbow_skips_a_round_to_reload(self):
        self.char2.sheet = dict(self.char2.sheet, Reaction=2)
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
        self.assertNotIn(self.char2, elethril._to_declare(self.encounter, encounters.system_of(self.encounter)))

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
        self.st(fray.CmdAttack(), "Orc=Char2", "<Fray> Orc is still acting (from round 1): +combat/forfeit gives that "
                                               "up to act anew (+1 initiative).")
        self.player(fray.CmdCombat(), "/forfeit", "<Fray> Char2 has no action carried into round 2 to forfeit.")
        self.st(fray.CmdCombat(), "/forfeit Orc", "<Combat> Orc forfeits the action from round 1.")
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
        # Char2 fights with two weapons: one d10 per attack, the best kept (seed 4b, 4c).
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
        self.st(fray.CmdCombat(), "/party Orc,Zed=", "<Combat> Orc, Zed: no party (each rolls their own initiative).")
        self.assertNotIn("Parties", self.hud())

    def test_a_damaging_spell_spoils_another_caster(self):
        """Seed 1c: a mage's Cold Bolt interrupts the other's Fireball."""
        self.later_round()
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
                    "<Combat> Char2 will attack Orc with short sword; initiative d10 + 3 (short sword) - 2 (hasted).")
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
            "Orc/light crossbow*2": "A light crossbow fires at most 1 per round (rate 1).",
            "Char2": "You cannot attack yourself.",
            "Orc=Zed": "You can only act for yourself; this scene's Storyteller acts for NPCs.",
        }.items():
            with self.subTest(args=args):
                self.player(fray.CmdAttack(), args, f"<Fray> {message}")
        self.assertEqual(self.state(), before)

    def test_initiative_commands_and_switches_refused(self):
        before = self.state()
        self.player(fray.CmdCombat(), "/init", f"<Fray> {elethril.NO_INITIATIVE}")
        self.st(npcs.CmdNpc(), "/init Gob=2+2", f"<Fray> {elethril.NO_NPC_INITIATIVE}")
        self.assertFalse([obj for obj in self.room1.contents if obj.key == "Gob"])
        self.player(fray.CmdCombat(), "/delay 5", "<Fray> Round 1's initiative is not rolled yet: delay once the "
                                                  "segments are known.")
        self.player(fray.CmdCombat(), "/side Char2=solo", "<Fray> Only this scene's Storyteller or staff can set sides.")
        self.st(fray.CmdCombat(), "/side Char2=a|rb", "<Fray> A side is named with 1-20 letters")
        self.st(fray.CmdCombat(), "/side Char2", "<Fray> Usage: +combat/side <name>[,<name>...]=<side>")
        self.st(fray.CmdCombat(), "/party Orc=pack/fast", "<Fray> After the party name only /slowest may follow")
        self.st(fray.CmdCombat(), "/forfeit Orc", "<Fray> Orc has no action carried into round 1 to forfeit.")
        self.st(fray.CmdCombat(), "/next", "<Fray> Nobody has declared an action yet (attack <target>[/<weapon>] or "
                                           "cast <spell>[=<target>]).")
        self.assertEqual(self.state(), before)

    def test_elethril_switches_in_another_system_fight(self):
        self.st(fray.CmdCombat(), "/end")
        self.st(fray.CmdCombat(), "/start storyteller")
        self.st(fray.CmdCombat(), "/side Char2=party",
                "<Fray> Sides (round-1 group initiative): an elethril rule; this fight uses storyteller.")
        self.player(fray.CmdCombat(), "/delay 4", "<Fray> Delaying to a segment: an elethril rule; this fight uses")
        self.player(fray.CmdCombat(), "/init hasted", "<Fray> Usage: +combat[/<switch>]")
