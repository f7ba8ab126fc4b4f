"""Command tier: an eldritch fight through the real commands, with forced dice (the eldritch seed).

Eldritch dice: 1d10 + traits, 9+ succeeds; a forced 10 or 1 rerolls (Rule of 10 / Rule of 1),
so the faces below avoid them unless a test says so. Initiative is a plain d10.
"""

import re

from commands import aeon, eldritch, fray, npcs
from commands.actions import commands as action_commands
from tests.game import fightview as encounters
from tests.game.test_combat_commands import FrayCommandTest
from world import dice
from world.sheets import traits_of, update_sheet, weapon_of

#: Char2: Life Points (3 + 3) x 4 + 10 = 34; initiative score (3 + 2) / 2 = 2.
CHAR2 = {"Dexterity": 3, "Perception": 2, "Strength": 3, "Constitution": 3, "Brawl": 2, "Melee": 2,
         "Firearms": 3, "Acrobatics": 2, "Intelligence": 2, "Larceny": 1, "Stealth": 2}
#: The Thug: Life Points (2 + 2) x 4 + 10 = 26; initiative score 2.
THUG = {"Dexterity": 2, "Perception": 2, "Strength": 2, "Constitution": 2, "Brawl": 1, "Acrobatics": 1}


def folded(text: str) -> str:
    """``text`` with every run of whitespace made one space (the HUD wraps long statuses)."""
    return " ".join(text.split())


class EldritchFightTest(FrayCommandTest):
    """An eldritch fight: Char2 and the NPC Thug, no initiative rolled yet."""

    def setUp(self):
        super().setUp()
        update_sheet(self.char2, "eldritch", traits=dict(CHAR2))
        self.st(fray.CmdCombat(), "/start eldritch")
        self.encounter = encounters.encounter_in(self.room1)
        self.player(fray.CmdCombat(), "/join")
        self.thug = self.npc("Thug", THUG)

    def npc(self, name, sheet):
        self.st(npcs.CmdNpc(), f"/create {name}")
        npc = next(obj for obj in self.room1.contents if obj.key == name)
        update_sheet(npc, "eldritch", traits=dict(sheet))
        self.st(fray.CmdCombat(), f"/add {name}")
        return npc

    def initiative(self, char2_face, thug_face=None):
        self.force(char2_face)
        self.player(fray.CmdCombat(), "/init")
        if thug_face is not None:
            self.force(thug_face)
            self.st(npcs.CmdNpc(), "/init Thug")

    def state(self, obj):
        return encounters.conditions_of(self.encounter, obj)

    def life(self, obj):
        return encounters.health_of(self.encounter, obj).current

    def hud(self):
        return self.player(fray.CmdCombat(), "")

    def buy(self, obj, maneuver):
        self.st(fray.CmdStat(), f"{obj.key}/{maneuver}=1")


class TestScheduleAndActions(EldritchFightTest):
    def test_extra_actions_interleave_and_each_later_action_is_at_minus_two(self):
        self.force(9)
        self.player(fray.CmdCombat(), "/init",
                    "<Combat> Char2 rolls initiative: (Dexterity 3 + Perception 2)/2 = 2 + 1d10 (9) = 11.")
        self.force(5)
        self.st(npcs.CmdNpc(), "/init Thug", "<Combat> Thug rolls initiative: (Dexterity 2 + Perception 2)/2 = 2 + 1d10 (5) = 7.")
        # 11 -> 11, 6, 1; 7 -> 7, 2: C11, T7, C6, T2, C1, each slot its own HUD row.
        rows = [line.split()[:3] for line in self.hud().splitlines() if re.match(r"\s+\d+\s", line)]
        self.assertEqual(rows, [["1", "Char2", "11"], ["2", "Thug", "(NPC)"], ["3", "Char2", "6"],
                                ["4", "Thug", "(NPC)"], ["5", "Char2", "1"]])
        self.assertRegex(self.hud(), r"1\s+Char2\s+11\s+Life Points 34/34\s+TO ACT\s*\n")
        self.assertRegex(self.hud(), r"3\s+Char2\s+6\s+Life Points 34/34\s*\n")
        # First action: Dexterity 3 + Brawl 2 + 6 = 11: 2 SLs. The Thug dodges (Dex 2 + Acrobatics 1
        # + 4 = 7: a failure): (Strength 3) x 2 + 2 net SLs = 8 bash - Constitution 2 = 6.
        self.force(6)
        told = self.player(fray.CmdAttack(), "Thug")
        self.assertIn("Char2 punch: Dexterity 3 + Brawl 2 + d10 [6] = 11: 2 SLs", told)
        self.force(4)
        out = self.st(fray.CmdDefend(), "Thug=dodge")
        self.assertNotIn("Char2 punch: Dexterity", out)  # told once, as the attack was made
        self.assertIn("Thug dodge: Dexterity 2 + Acrobatics 1 + d10 [4] = 7: failure", out)
        self.assertIn("damage: (Strength 3) x 2 + 2 net SLs = 8 bash", out)
        self.assertIn("Thug loses 6 Life Points of bash: Life Points 20/26", out)
        self.assertIn("Round 1: Thug to act.", out)
        # The Thug passes at 7 (a pass is no action: no penalty later). Char2's second action at 6 is
        # at -2, and the Thug's second defense of the turn is at -2: 3 + 2 - 2 + 8 = 11: 2 SLs
        # against 2 + 1 - 2 + 7 = 8; again 6 Life Points.
        self.st(fray.CmdCombat(), "/next", "<Combat> Thug passes.")
        self.force(8, 7)
        told = self.player(fray.CmdAttack(), "Thug")
        self.assertIn("Char2 punch: Dexterity 3 + Brawl 2 - 2 (2nd action) + d10 [8] = 11: 2 SLs", told)
        out = self.st(fray.CmdDefend(), "Thug=dodge")
        self.assertIn("Thug dodge: Dexterity 2 + Acrobatics 1 - 2 (defense 2) + d10 [7] = 8: failure", out)
        self.assertEqual(self.life(self.thug), 14)
        self.assertEqual(self.state(self.char2)["actions_used"], 2)
        self.assertEqual(self.state(self.thug)["defenses_used"], 2)
        self.assertNotIn("actions_used", self.state(self.thug))
        # The Thug passes at 2; Char2's third action at 1 is at -4.
        self.st(fray.CmdCombat(), "/next")
        self.force(9)
        out = self.player(fray.CmdAttack(), "Thug")
        self.assertIn("Dexterity 3 + Brawl 2 - 4 (3rd action) + d10 [9] = 10: 1 SL", out)
        self.st(fray.CmdDefend(), "Thug=none")
        # The round is over: initiative is rolled anew (seed), the counters start again.
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Round 2 begins.", out)
        self.assertIn("Round 2: roll initiative (+combat/init; NPCs: +npc/init <name>).", out)
        self.assertEqual(dict(self.encounter.initiative), {})
        self.assertNotIn("actions_used", self.state(self.char2))
        self.assertNotIn("defenses_used", self.state(self.thug))
        self.force(3)
        self.player(fray.CmdCombat(), "/init", "<Combat> Char2 rolls initiative: (Dexterity 3 + Perception 2)/2 = 2 + 1d10 (3) = 5.")

    def test_five_actions_at_most_and_a_sixth_is_refused(self):
        # Daisy's numbers (seed): Dexterity 9, Perception 4, Acute Senses, Fast Reaction Time,
        # Situational Awareness: 7 + 3 + 1 = 11; + 10 = 21 -> 21, 16, 11, 6, 1.
        update_sheet(self.char2, "eldritch", traits={"Dexterity": 9, "Perception": 4, "Acute Senses": 1, "Fast Reaction Time": 1,
                            "Situational Awareness": 1})
        self.initiative(10, 5)
        hud = self.hud()
        self.assertEqual(re.findall(r"Char2\s+(\d+)", hud), ["21", "16", "11", "6", "1"])
        for number, penalty in enumerate((0, 2, 4, 6, 8), start=1):
            if number == 4:
                self.st(fray.CmdCombat(), "/next", "<Combat> Thug passes.")  # the Thug at 7
            if number == 5:
                self.st(fray.CmdCombat(), "/next", "<Combat> Thug passes.")  # the Thug at 2
            rolls = f" (rolls at -{penalty})" if penalty else ""
            self.player(eldritch.CmdMove(), "run", f"<Combat> Char2 moves.\n  Char2 spends an action: run{rolls}.")
        before = (list(self.encounter.acted), dict(self.state(self.char2)), list(self.encounter.pending))
        self.player(fray.CmdAttack(), "Thug", "<Fray> Char2 has already acted this round.")
        self.player(eldritch.CmdMove(), "run", "<Fray> Char2 has already acted this round.")
        self.assertEqual((list(self.encounter.acted), dict(self.state(self.char2)), list(self.encounter.pending)),
                         before)
        self.assertEqual(self.state(self.char2)["actions_used"], 5)

    def test_travel_under_half_the_yards_per_turn_is_no_action(self):
        # Seed (Movement): "Actual travel from point A to point B only counts
        # as a Movement action if the distance is equal or greater than half the character's
        # Yards/Turn". Char2's Yards/Turn (Fray data): (Constitution 3 + Dexterity 3) x 2 = 12.
        self.initiative(9, 5)  # Char2 11, 6, 1; Thug 7, 2
        self.player(eldritch.CmdMove(), "run 5 yards to the door", "<Combat> Char2 moves.\n"
                    "  Char2: run 5 yards to the door (Yards/Turn 12: under half, not an action).")
        self.assertNotIn("actions_used", self.state(self.char2))
        self.assertEqual(encounters.open_actions(self.encounter, self.char2), [11, 6, 1])
        self.player(eldritch.CmdMove(), "run 6 back", "<Combat> Char2 moves.\n"
                    "  Char2 spends an action: run 6 yards back (Yards/Turn 12: half or more).")
        self.assertEqual(self.state(self.char2)["actions_used"], 1)
        # Without a distance, running is an action as before; bad distances are just posed words.
        self.st(fray.CmdCombat(), "/next")   # the Thug passes at 7
        self.player(eldritch.CmdMove(), "run", "<Combat> Char2 moves.\n  Char2 spends an action: run (rolls at -2).")

    def test_defenses_do_not_use_actions(self):
        self.initiative(2, 9)  # Char2 4, Thug 11 (11, 6, 1)
        # The Thug punches: Dexterity 2 + Brawl 1 + 8 = 11: 2 SLs; Char2 dodges (Dex 3 + Acrobatics 2
        # + 6 = 11: a tie goes to the defender).
        self.force(8, 6)
        self.st(fray.CmdAttack(), "Thug=Char2")
        out = self.player(fray.CmdDefend(), "dodge")
        self.assertIn("Char2's 11 meets or beats 11: the punch misses.", out)
        self.assertEqual(encounters.open_actions(self.encounter, self.char2), [4])
        self.assertNotIn("actions_used", self.state(self.char2))


class TestWorkedExamples(EldritchFightTest):
    def test_hanks_bat_does_11(self):
        # Human Hank (STR 3, bat STR x 5) rolls 4 SLs; Henry (CON 4, Natural Toughness) dodges 2 SLs.
        update_sheet(self.char2, "eldritch", traits={"Strength": 3, "Dexterity": 4, "Melee": 2})
        update_sheet(self.char2, "eldritch", weapon="bat")
        henry = self.npc("Henry", {"Constitution": 4, "Natural Toughness": 1, "Dexterity": 3, "Acrobatics": 2})
        self.initiative(9)
        self.force(2)
        self.st(npcs.CmdNpc(), "/init Henry")
        self.force(9, 6)  # Dexterity 4 + Melee 2 + 9 = 15: 4 SLs; Dexterity 3 + Acrobatics 2 + 6 = 11: 2 SLs
        told = self.player(fray.CmdAttack(), "Henry")
        self.assertIn("Char2 bat: Dexterity 4 + Melee 2 + d10 [9] = 15: 4 SLs", told)
        out = self.st(fray.CmdDefend(), "Henry=dodge")
        self.assertIn("Henry dodge: Dexterity 3 + Acrobatics 2 + d10 [6] = 11: 2 SLs", out)
        self.assertIn("damage: (Strength 3) x 5 + 2 net SLs = 17 bash", out)
        self.assertIn("Henry's bash soak: Constitution 4 + Natural Toughness 2 = 6", out)
        self.assertIn("Henry loses 11 Life Points of bash: Life Points 15/26", out)
        self.assertEqual(henry.health["eldritch"], {"maximum": 26, "bash": 11, "lethal": 0})

    def test_dinas_9mm_does_18(self):
        # Deadshot Dina (9mm: 10 x net SLs) rolls 7 SLs; Reprax (Protection (Bullets) 2) dodges 4.
        update_sheet(self.char2, "eldritch", traits={"Dexterity": 6, "Firearms": 5, "Perception": 2})
        update_sheet(self.char2, "eldritch", weapon="9mm")
        reprax = self.npc("Reprax", {"Protection (Bullets)": 2, "Dexterity": 5, "Acrobatics": 3})
        self.initiative(9)
        self.force(2)
        self.st(npcs.CmdNpc(), "/init Reprax")
        # Dexterity 6 + Firearms 5 + (10, then 8: 10 + 3 = 13) = 24: 7 SLs; 5 + 3 + 7 = 15: 4 SLs.
        self.force(10, 8, 7)
        told = self.player(fray.CmdAttack(), "Reprax")
        self.assertIn("Char2 9mm: Dexterity 6 + Firearms 5 + d10 [10, 8 -> 13] = 24: 7 SLs", told)
        out = self.st(fray.CmdDefend(), "Reprax=dodge")
        self.assertIn("damage: 10 (9mm) x 3 net SLs = 30 lethal", out)
        self.assertIn("Reprax's bullets soak: Protection (Bullets) 12", out)
        self.assertIn("Reprax loses 18 Life Points of lethal: Down: Life Points -8/10", out)
        self.assertEqual(reprax.health["eldritch"]["lethal"], 18)
        self.assertIn("Reprax (NPC) 4 Down: Life Points -8/10 down", folded(self.hud()))

    def test_approved_armor_soaks_by_column(self):
        # The Thug wears an approved Bulletproof Vest note (bash 8, lethal 5, bullets 12).
        self.thug.armor_notes = [{"id": 1, "system": "eldritch", "soak": {"bash": 8, "lethal": 5, "bullets": 12}}]
        self.thug.worn_armor = 1
        update_sheet(self.char2, "eldritch", weapon="9mm")
        self.initiative(9, 2)
        # Dexterity 3 + Firearms 3 + 9 = 15: 4 SLs; no defense: 10 x 4 = 40 - bullets 12 = 28 lethal.
        self.force(9)
        self.player(fray.CmdAttack(), "Thug")
        out = self.st(fray.CmdDefend(), "Thug=none")
        self.assertIn("damage: 10 (9mm) x 4 net SLs = 40 lethal", out)
        self.assertIn("Thug's bullets soak: 12 (armor)", out)
        self.assertIn("Thug loses 28 Life Points of lethal: Down: Life Points -2/26", out)
        # A punch meets the vest's bash column: (3 x 2) + 2 = 8 - (Constitution 2 + armor 8) = 0.
        self.thug.health = {}
        self.force(6)
        self.player(fray.CmdAttack(), "Thug/punch")
        out = self.st(fray.CmdDefend(), "Thug=none")
        self.assertIn("Thug's bash soak: Constitution 2 + 8 (armor) = 10", out)
        self.assertIn("Thug loses 0 Life Points of bash", out)


class TestBadInput(EldritchFightTest):
    """The issue's bad input: one clear line each, nothing changed."""

    def snapshot(self):
        enc = self.encounter
        return (list(enc.combatants), dict(enc.initiative), list(enc.pending), list(enc.acted), enc.round,
                {k: dict(v) for k, v in dict(enc.conditions).items()}, dict(enc.scene), len(enc.log),
                dict(self.char2.health), dict(self.char2.concealed), weapon_of(self.char2, "eldritch"), dict(self.thug.health))

    def test_each_refusal_is_one_line_and_changes_nothing(self):
        self.npc("Boss", {"Dexterity": 1})
        self.initiative(2, 9)  # Char2 4, Thug 11 (11, 6, 1)
        self.force(8)
        self.st(fray.CmdAttack(), "Thug=Boss")  # Dexterity 2 + Brawl 1 + 8 = 11: waiting on the Boss
        self.st(fray.CmdCombat(), "/diff Char2=+1")
        before = self.snapshot()
        cases = [
            (fray.CmdAttack, "Thug/ear pop", "It is not Char2's turn: waiting on"),
            (eldritch.CmdSacrifice, "Boss", "Char2 has not bought the Sacrifice maneuver."),
            (eldritch.CmdConceal, "laser", "No weapon 'laser' in the Eldritch tables."),
            (eldritch.CmdConceal, "big", "'big' could be: big-knife, big-sword."),
            (eldritch.CmdMove, "fly", "Move how? draw, stand, release, cover, run,"),
            (fray.CmdRoll, "0.5", "Not a whole number: '0.5'."),
            (fray.CmdRoll, "1d10+", "Incomplete roll: '1d10+' ends with an operator."),
            (fray.CmdRoll, "dex vs 6", "Eldritch rolls take no 'vs': a total of 9 or more succeeds."),
            (fray.CmdRoll, "dex vs", "Eldritch rolls take no 'vs': roll the pool alone, e.g. +roll Dexterity+Brawl."),
            (fray.CmdRoll, "dex vs 3 vs 4", "Eldritch rolls take no 'vs': roll the pool alone, e.g. +roll Dexterity+Brawl."),
            (fray.CmdRoll, "dex vs --3", "Eldritch rolls take no 'vs --3': roll the pool alone, e.g. +roll Dexterity+Brawl."),
            (fray.CmdRoll, "2d10", "An Eldritch roll is one d10 plus traits and numbers: '2d10' is not allowed."),
            (fray.CmdCombat, "/space 3", "Only this scene's Storyteller or staff can set the space."),
            (eldritch.CmdWake, "Thug", "Thug is not out cold."),
            (eldritch.CmdEyeContact, "Char2", "Eye contact is made with someone else."),
            (eldritch.CmdLos, "Nobody", "No combatant 'Nobody' in this fight."),
        ]
        for command, args, expected in cases:
            with self.subTest(args=args):
                out = self.player(command(), " " + args if not args.startswith("/") else args)
                self.assertTrue(out.startswith("<Fray> " + expected), out)
                self.assertEqual(len(out.splitlines()), 1)
                self.assertEqual(self.snapshot(), before)
        self.buy(self.char2, "Sacrifice")
        before = self.snapshot()
        # Char2 (4) is slower than the Thug (11): no Sacrifice. Nor with no initiative at all.
        self.player(eldritch.CmdSacrifice(), "Boss", "<Fray> Sacrifice needs a higher initiative than Thug's.")
        self.assertEqual(self.snapshot(), before)

    def test_maneuvers_weapons_and_space_refused(self):
        self.initiative(9, 2)
        update_sheet(self.char2, "eldritch", weapon="warhammer")
        before = self.snapshot()
        update_sheet(self.char2, "eldritch", traits=dict(CHAR2, Strength=0))
        cases = [
            ("Thug/ear pop", "Char2 has not bought the Ear Pop maneuver."),
            ("Thug/laser", "No weapon 'laser' in the Eldritch tables."),
            ("Thug/bat neck", "Only a grapple takes an opponent by the neck."),
            ("Thug/wall flip", "Wall Flip is a defense: defend wall-flip."),
            ("Thug/9mm", "Char2 holds no 9mm (in hand: warhammer)."),
            ("Thug/warhammer 2h 2h", "Give the grip (1h or 2h) once."),
        ]
        for args, expected in cases:
            with self.subTest(args=args):
                self.player(fray.CmdAttack(), args, "<Fray> " + expected)
                self.assertEqual(self.snapshot(), before)
        self.buy(self.char2, "Sleeper Hold")
        self.buy(self.char2, "Double Jump Kick")
        before = self.snapshot()
        self.player(fray.CmdAttack(), "Thug/sleeper hold", "<Fray> Sleeper Hold needs Thug grappled first.")
        self.player(fray.CmdAttack(), "Thug,Thug/double jump kick", "<Fray> Double Jump Kick needs Dexterity 4 or better.")
        self.st(fray.CmdCombat(), "/space lots", "<Fray> Give the space as whole yards from 0 to 99, or open")
        self.st(fray.CmdCombat(), "/space 3 door", "<Fray> Usage: +combat/space <yards>")
        self.st(fray.CmdCombat(), "/space -1", "<Fray> Give the space as whole yards from 0 to 99, or open")
        self.player(eldritch.CmdMove(), "stand", "<Fray> Char2 is not prone.")
        self.player(eldritch.CmdMove(), "release", "<Fray> Char2 holds nobody.")
        self.assertEqual(self.snapshot(), before)


class TestSpaceAndLimitations(EldritchFightTest):
    def test_space_and_minimum_strength_weigh_on_the_sword(self):
        self.st(fray.CmdCombat(), "/space", "<Combat> Space here: open, no wall at hand.")
        self.st(fray.CmdCombat(), "/space 1 wall", "<Combat> You set the space: 1 yard of room, a wall at hand.")
        self.assertEqual(dict(self.encounter.scene), {"space": 1, "wall": True})
        self.assertIn("Space: 1 yard of room, a wall at hand", self.hud())
        self.st(fray.CmdCombat(), "/space", "<Combat> Space here: 1 yard of room, a wall at hand.")
        update_sheet(self.char2, "eldritch", weapon="sword")
        self.initiative(9, 2)
        # The sword (STR x 6): one-handed Strength 4, 3 -> -2; a 4-yard radius, 1 yard -> -6.
        # Dexterity 3 + Melee 2 - 2 - 6 + 9 = 6: a miss.
        self.force(9)
        out = self.player(fray.CmdAttack(), "Thug")
        self.assertIn("sword: Dexterity 3 + Melee 2 - 2 (strength short) - 6 (space short) + d10 [9] = 6: failure "
                      "(sword one-handed: Strength 4 needed, 3 -> 1 short, -2; sword needs a 4 yards radius, "
                      "1 yard here -> 3 short, -6)", out)
        self.st(fray.CmdCombat(), "/space open", "<Combat> You set the space: open, no wall at hand.")
        self.assertEqual(dict(self.encounter.scene), {})


    def test_a_weak_fighter_may_still_swing_a_heavy_weapon(self):
        # Seed (Limitations): "not to say that it cannot be used by weaker
        # people": Strength 0 with a warhammer (two-handed, Strength 4 needed): -8, no refusal.
        update_sheet(self.char2, "eldritch", traits=dict(CHAR2, Strength=0))
        update_sheet(self.char2, "eldritch", weapon="warhammer")
        self.initiative(9, 2)
        self.force(9)
        out = self.player(fray.CmdAttack(), "Thug")
        self.assertIn("warhammer: Dexterity 3 + Melee 2 - 8 (strength short) + d10 [9] = 6: failure "
                      "(warhammer two-handed: Strength 4 needed, 0 -> 4 short, -8)", out)


class TestLastingEffects(EldritchFightTest):
    def test_ear_pop_stuns_for_the_rest_of_the_turn(self):
        self.buy(self.char2, "Ear Pop")
        self.initiative(9, 5)  # Char2 11, 6, 1; Thug 7, 2
        # Dexterity 3 + Brawl 2 - 3 + 9 = 11: 2 SLs. No defense: (3 x 2) + 2 = 8 - 2 = 6.
        # The Thug's Constitution doubled 4 - 2 (the attack's SLs) + 7 = 9: 1 SL, fewer than 2: stunned.
        self.force(9, 7)
        told = self.player(fray.CmdAttack(), "Thug/ear pop")
        self.assertIn("Char2 Ear Pop: Dexterity 3 + Brawl 2 - 3 (ear pop) + d10 [9] = 11: 2 SLs", told)
        out = self.st(fray.CmdDefend(), "Thug=none")
        self.assertIn("Thug shakes it off? Constitution x2 4 - 2 (ear pop) + d10 [7] = 9: 1 SL (needs 2 SLs)", out)
        self.assertIn("Thug is stunned for the rest of the turn", out)
        self.assertEqual(self.state(self.thug)["stunned"], "rest of turn")
        # The stunned Thug is passed over: Char2 acts again at 6.
        self.assertIn("Round 1: Char2 to act.", out)
        self.assertRegex(self.hud(), r"Thug \(NPC\)\s+7\s+Life Points 20/26\s+acted, stunned")
        self.st(fray.CmdAttack(), "Thug=Char2", "<Fray> It is not Thug's turn: waiting on Char2.")
        # It can still defend: 2 + 1 - 2 (defense 2) + 8 = 9 vs 3 + 2 - 2 + 6 = 9: a tie, missed.
        self.force(6, 8)
        self.player(fray.CmdAttack(), "Thug")
        out = self.st(fray.CmdDefend(), "Thug=dodge")
        self.assertIn("the punch misses", out)
        self.player(fray.CmdCombat(), "/next", "<Fray> Only this scene's Storyteller")
        self.st(fray.CmdCombat(), "/next")  # Char2 passes at 1: the round ends
        self.assertNotIn("stunned", self.state(self.thug))
        self.assertIn("Thug is no longer stunned.", "\n".join(str(e["lines"]) for e in self.encounter.log))

    def test_ear_pop_after_the_victims_last_action_stuns_their_first_action_next_turn(self):
        self.buy(self.char2, "Ear Pop")
        self.initiative(9, 5)  # Char2 11, 6, 1; Thug 7, 2
        for _ in range(4):     # C11, T7, C6 and T2 pass: Char2's last action, the Thug has none left
            self.st(fray.CmdCombat(), "/next")
        self.force(9, 7)
        self.player(fray.CmdAttack(), "Thug/ear pop")
        out = self.st(fray.CmdDefend(), "Thug=none")
        # seed: "(or his first action, should the move be performed at the end of a turn)"
        self.assertIn("Thug is stunned through their first action next turn: defend only (no Full Defense).", out)
        self.assertEqual(self.state(self.thug)["stunned"], "first action")
        self.st(fray.CmdCombat(), "/next")  # turn 2
        self.assertEqual(self.state(self.thug)["stunned"], "first action")
        self.assertNotIn("Thug is no longer stunned.", "\n".join(str(e["lines"]) for e in self.encounter.log))
        # The Thug rolls first: its 7 does not go by while Char2 has still to roll (her slots may
        # come first).
        self.force(5)
        out = self.st(npcs.CmdNpc(), "/init Thug")
        self.assertIn("Round 2: waiting for initiative from Char2 (+combat/init; NPCs: +npc/init <name>).", out)
        self.assertEqual(self.state(self.thug)["stunned"], "first action")
        self.force(9)
        self.player(fray.CmdCombat(), "/init")
        self.assertRegex(self.hud(), r"Thug \(NPC\)\s+7\s+Life Points 20/26\s+stunned")
        out = self.st(fray.CmdCombat(), "/next")  # C11 passes; the Thug's 7 goes by, and the stun with it
        self.assertIn("Thug loses the first action of the turn to the stun and is no longer stunned.", out)
        self.assertIn("Round 2: Char2 to act.", out)
        self.assertNotIn("stunned", self.state(self.thug))
        out = self.st(fray.CmdCombat(), "/next")  # C6 passes: the Thug acts at 2
        self.assertIn("Round 2: Thug to act.", out)

    def test_ear_pop_knocks_out_until_an_attack_wakes(self):
        self.buy(self.char2, "Ear Pop")
        self.initiative(9, 5)
        # The check fails outright: 4 - 2 + 3 = 5: the Thug passes out until woken.
        self.force(9, 3)
        self.player(fray.CmdAttack(), "Thug/ear pop")
        out = self.st(fray.CmdDefend(), "Thug=none")
        self.assertIn("Thug passes out and crumples to the ground.", out)
        self.assertIs(self.state(self.thug)["passed_out"], True)
        self.assertRegex(self.hud(), r"Thug \(NPC\)\s+7\s+Life Points 20/26\s+acted, out cold")  # passed over
        before = (self.state(self.thug), self.state(self.char2), len(self.encounter.log))
        for command in (eldritch.CmdLos(), eldritch.CmdEyeContact()):
            self.st(command, "Thug=Char2", "<Fray> Thug is in no state to look for anyone.")
        self.assertEqual((self.state(self.thug), self.state(self.char2), len(self.encounter.log)), before)
        # Out cold it cannot defend; being attacked wakes it. 3 + 2 - 2 + 6 = 9: 1 SL, 6 + 1 - 2 = 5.
        self.force(6)
        out = self.player(fray.CmdAttack(), "Thug")
        self.assertEqual(encounters.pending_attacks(self.encounter), [])
        self.assertIn("Thug is out cold and cannot defend.", out)
        self.assertIn("Being attacked wakes Thug.", out)
        self.assertIn("Thug loses 5 Life Points of bash: Life Points 15/26", out)
        self.assertNotIn("passed_out", self.state(self.thug))

    def test_grapple_by_the_neck_then_sleeper_hold_puts_out_for_turns(self):
        self.buy(self.char2, "Sleeper Hold")
        self.initiative(9, 5)  # Char2 11, 6, 1; Thug 7, 2
        # Grapple: Dexterity 3 + Brawl 2 + 2 + 5 = 12: 2 SLs; the Thug's dodge 2 + 1 + 3 = 6 fails.
        self.force(5, 3)
        self.player(fray.CmdAttack(), "Thug/grapple neck")
        out = self.st(fray.CmdDefend(), "Thug=dodge")
        self.assertIn("Thug is grappled by Char2 by the neck.", out)
        self.assertEqual(self.state(self.thug)["held_by"], self.char2.id)
        self.assertIn("Thug (NPC) 7 Life Points 26/26 TO ACT, held, by the neck", folded(self.hud()))
        # Held, the Thug can only try to escape: Strength 2 + Brawl 1 + 4 = 7 against 3 + 2 + 5 = 10.
        self.st(fray.CmdAttack(), "Thug=Char2", "<Fray> Thug is held and can only try to escape (escape).")
        self.force(4, 5)
        self.st(fray.CmdEscape(), "Thug", "<Combat> Thug struggles against Char2's hold.")
        self.assertEqual(self.state(self.thug)["held_by"], self.char2.id)
        # Sleeper Hold at 6: Strength 3 + Brawl 2 - 2 - 2 (2nd action) + 8 = 9: 1 SL against the
        # Thug's Constitution doubled 4 + 2 = 6: 1 net SL of the 2 needed (Constitution 2).
        self.force(8, 2)
        out = self.player(fray.CmdAttack(), "Thug/sleeper hold")
        self.assertIn("Sleeper Hold: 1 of 2 SLs.", out)
        self.assertEqual(self.state(self.thug)["sleeper_hold"], {"by": "Char2", "sls": 1, "needed": 2})
        self.assertIn("sleeper 1/2", self.hud())
        self.st(fray.CmdCombat(), "/next")  # the Thug passes at 2
        # At 1: 3 + 2 - 2 - 4 (3rd action) + (10, then 9: 14) = 13: 3 SLs; 4 + 3 = 7 fails.
        # 1 + 3 = 4 of 2: out for 5 turns + 2 over = 7 (the turn it happens in is the first).
        self.force(10, 9, 3)
        out = self.player(fray.CmdAttack(), "Thug/sleeper hold")
        self.assertIn("4 SLs of 2: Thug passes out for 7 turns.", out)
        self.assertEqual(self.state(self.thug)["passed_out"], 7)
        self.assertNotIn("sleeper_hold", self.state(self.thug))
        self.assertIn("out 7 turns", self.hud())
        out = self.st(fray.CmdCombat(), "/next")
        self.assertIn("Thug is out for 6 more turns.", out)
        self.assertEqual(self.state(self.thug)["passed_out"], 6)
        # Initiative: the Thug out cold is passed over.
        self.initiative(9, 9)
        self.assertIn("Turn: Char2", self.hud())
        self.player(eldritch.CmdWake(), "Thug", "<Combat> Char2 brings Thug round.")  # smelling salts: an action
        self.assertNotIn("passed_out", self.state(self.thug))
        self.assertEqual(self.state(self.char2)["actions_used"], 1)

    def test_letting_go_and_the_storytellers_wake(self):
        self.initiative(9, 5)
        self.force(5, 3)
        self.player(fray.CmdAttack(), "Thug/grapple neck")
        self.st(fray.CmdDefend(), "Thug=dodge")
        self.st(fray.CmdCombat(), "/next")  # the held Thug passes at 7
        self.player(eldritch.CmdMove(), "release", "<Combat> Char2 moves.\n  Char2 spends an action: let go of Thug (rolls at -2).")
        self.assertEqual(self.state(self.thug), {"defenses_used": 1})
        self.assertNotIn("held", self.hud())
        encounters.update_conditions(self.encounter, self.thug, passed_out=True)
        self.player(eldritch.CmdWake(), "Char2", "<Fray> Char2 is not out cold.")
        self.st(eldritch.CmdWake(), "Thug", "<Combat> Char brings Thug round.")  # the ST: any time, no action
        self.assertNotIn("passed_out", self.state(self.thug))

    def test_atemi_grip_numbs_every_physical_roll_and_fades_with_each_own_action_only(self):
        self.buy(self.char2, "Atemi Grip")
        self.buy(self.char2, "Wrestling Hold")
        self.initiative(9, 5)  # Char2 11, 6, 1; Thug 7, 2
        self.force(5, 3)
        self.player(fray.CmdAttack(), "Thug/grapple")
        self.st(fray.CmdDefend(), "Thug=dodge")
        self.st(fray.CmdCombat(), "/next")  # the held Thug passes at 7 (a pass is no action)
        # Strength 3 + Brawl 2 - 2 - 2 + (10, then 9: 14) = 15: 4 SLs against Constitution 2 +
        # Willpower 0 + 5 = 7 (no SL): numb -4.
        self.force(10, 9, 5)
        out = self.player(fray.CmdAttack(), "Thug/atemi grip")
        self.assertIn("Thug's grappled limb goes numb: -4 to physical rolls, 1 less each action.", out)
        self.assertEqual(self.state(self.thug)["atemi_grip"], 4)
        self.assertIn("numb -4", self.hud())
        # The Thug's escape at 2 is an action: rolled at -4, then the numbness fades to 3.
        # Strength 2 + Brawl 1 - 4 + 9 = 8 against Char2's 3 + 2 + 5 = 10: still held.
        self.force(9, 5)
        out = self.st(fray.CmdEscape(), "Thug")
        self.assertIn("Thug: Strength 2 + Brawl 1 - 4 (numb, atemi grip) + d10 [9] = 8: failure", out)
        self.assertIn("Thug stays held.", out)
        self.assertEqual(self.state(self.thug)["atemi_grip"], 3)
        self.assertIn("numb -3", self.hud())
        # Char2 punches at 1 (-4): 3 + 2 - 4 + 9 = 10: 1 SL. The Thug's second dodge of the turn:
        # 2 + 1 - 2 (defense 2) - 3 (numb) + 8 = 6. A defense is no action: still numb -3.
        self.force(9, 8)
        self.player(fray.CmdAttack(), "Thug")
        out = self.st(fray.CmdDefend(), "Thug=dodge")
        self.assertIn("Thug dodge: Dexterity 2 + Acrobatics 1 - 2 (defense 2) - 3 (numb, atemi grip) + d10 [8] = 6",
                      out)
        self.assertEqual(self.state(self.thug)["atemi_grip"], 3)
        # A new turn does not wear it off either; Char2's own actions do not touch it.
        self.st(fray.CmdCombat(), "/next")
        self.assertEqual(self.encounter.round, 2)
        self.assertEqual(self.state(self.thug)["atemi_grip"], 3)
        self.initiative(9, 5)
        # "All physical rolls": the Wrestling Hold's resisting roll too. Char2: Strength 3 +
        # Brawl 2 - 2 + 7 = 10: 1 SL; the Thug: Strength 2 + Brawl 1 - 3 (numb) + 6 = 6: pinned -1.
        self.force(7, 6)
        out = self.player(fray.CmdAttack(), "Thug/wrestling hold")
        self.assertIn("Thug resists: Strength 2 + Brawl 1 - 3 (numb, atemi grip) + d10 [6] = 6: failure", out)
        self.assertIn("Thug is pinned: -1 to all actions until free.", out)
        self.assertEqual(self.state(self.thug)["atemi_grip"], 3)
        self.assertIn("numb -3", self.hud())

    def test_whirling_sword_takes_the_whole_turn_and_tires(self):
        self.buy(self.char2, "Whirling Sword")
        update_sheet(self.char2, "eldritch", weapon="short-sword")
        self.initiative(9, 5)
        # Dexterity 3 + Melee 2 - 4 + 9 = 10: 1 SL; no defense: (3 x 5) + 2 x 1 = 17 lethal.
        self.force(9)
        told = self.player(fray.CmdAttack(), "Thug/whirling sword")
        self.assertIn("Whirling Sword (short sword): Dexterity 3 + Melee 2 - 4 (whirling sword) + d10 [9] = 10: 1 SL",
                      told)
        out = self.st(fray.CmdDefend(), "Thug=none")
        self.assertIn("Thug loses 17 Life Points of lethal", out)
        self.assertEqual(self.state(self.char2)["whirling"], True)
        self.assertIn("whirling (turn 1)", self.hud())
        self.st(fray.CmdCombat(), "/next")  # the Thug passes at 7
        self.player(fray.CmdAttack(), "Thug/punch", "<Fray> Char2 is whirling their sword: it is their only action this turn.")
        self.player(eldritch.CmdMove(), "run", "<Fray> Char2 is whirling their sword: it is their only action this turn.")
        # Another whirl this turn is no new action and no extra-action penalty, and (seed,
        # Whirling Sword: "a (Dexterity + Melee -4) roll to attack and defend for the entire turn")
        # no new die: the same 10. The Thug dodges it: 2 + 1 + 9 = 12.
        out = self.player(fray.CmdAttack(), "Thug/whirling sword")
        self.assertIn("Dexterity 3 + Melee 2 - 4 (whirling sword) + d10 [9] = 10: 1 SL", out)
        self.force(9)
        self.st(fray.CmdDefend(), "Thug=dodge")
        # The Thug punches at 2 (2 + 1 + 8 = 11): the whirl's roll is Char2's only defense.
        self.force(8)
        self.st(fray.CmdAttack(), "Thug=Char2")
        before = dict(self.state(self.char2))
        self.player(fray.CmdDefend(), "dodge", "<Fray> Char2 is whirling their sword: its roll is their only "
                                               "defense this turn (defend whirling-sword).")
        self.assertEqual(dict(self.state(self.char2)), before)
        out = self.player(fray.CmdDefend(), "whirling-sword")
        self.assertEqual(dice.forced_faces(), [])
        self.assertIn("Char2 Whirling Sword: Dexterity 3 + Melee 2 - 4 (whirling sword) + d10 [9] = 10: 1 SL", out)
        # Stepping in drew the whirl on the Thug (item 8): it dodges, 2 + 1 - 2 + 9 = 10, a tie.
        self.force(9)
        self.st(fray.CmdDefend(), "Thug=dodge")
        self.st(fray.CmdCombat(), "/next")
        self.assertEqual(self.encounter.round, 2)
        self.assertEqual(self.state(self.char2)["whirl_turns"], 1)
        self.assertNotIn("whirling", self.state(self.char2))
        # The second turn of it is at a further -2.
        self.initiative(9, 5)
        self.force(9)
        out = self.player(fray.CmdAttack(), "Thug/whirling sword")
        self.assertIn("- 4 (whirling sword) - 2 (whirling, later turn) + d10 [9] = 8: failure", out)
        self.assertIn("whirling (turn 2)", self.hud())

    def test_stepping_into_range_of_a_whirling_sword_draws_a_whirl_attack(self):
        # Seed (Whirling Sword): "Anybody who steps into range of the whirling
        # sword is attacked".
        self.buy(self.char2, "Whirling Sword")
        update_sheet(self.char2, "eldritch", weapon="short-sword")
        self.initiative(9, 5)  # Char2 11, 6, 1; Thug 7, 2
        self.force(9)          # 3 + 2 - 4 + 9 = 10: 1 SL, the turn's one roll
        self.player(fray.CmdAttack(), "Thug/whirling sword")
        self.force(9)          # the Thug dodges: 2 + 1 + 9 = 12
        self.st(fray.CmdDefend(), "Thug=dodge")
        # At 7 the Thug punches Char2 (2 + 1 + 8 = 11): the whirl strikes it first, no new die.
        self.force(8)
        out = self.st(fray.CmdAttack(), "Thug=Char2")
        self.assertEqual(dice.forced_faces(), [])
        self.assertIn("Thug steps into range of Char2's whirling sword.", out)
        self.assertIn("Whirling Sword (short sword): Dexterity 3 + Melee 2 - 4 (whirling sword) + d10 [9] = 10: 1 SL",
                      out)
        out = self.st(fray.CmdDefend(), "Thug=none")
        self.assertIn("Thug loses 17 Life Points of lethal", out)
        out = self.player(fray.CmdDefend(), "whirling-sword")
        self.assertIn("Char2 Whirling Sword: Dexterity 3 + Melee 2 - 4 (whirling sword) + d10 [9] = 10: 1 SL", out)
        # Moving up to the whirler steps into range too: Char2 passes at 6, the Thug runs at 2.
        self.st(fray.CmdCombat(), "/next")
        out = self.st(eldritch.CmdMove(), "Thug=run to Char2")
        self.assertIn("Thug steps into range of Char2's whirling sword.", out)
        self.assertEqual(encounters.pending_attacks(self.encounter)[0]["target"], self.thug)

    def test_wall_flip_gives_plus_three(self):
        self.buy(self.char2, "Wall Flip")
        self.st(fray.CmdCombat(), "/space 5 wall")
        self.initiative(2, 9)  # Thug 11, 6, 1; Char2 4
        # The Thug punches: 2 + 1 + 8 = 11: 2 SLs. Wall Flip: Dexterity 3 + Acrobatics 2 - 3 + 9 = 11:
        # a tie: not hit -> +3 to further defenses and to the next attack on the Thug.
        self.force(8, 9)
        self.st(fray.CmdAttack(), "Thug=Char2")
        out = self.player(fray.CmdDefend(), "wall flip")
        self.assertIn("Char2 flips over Thug: +3 to further defenses and to the next attack on Thug.", out)
        self.assertEqual(self.state(self.char2)["flipped_over"], "Thug")
        self.assertIn("wall flip +3", self.hud())
        # The next defense: 3 + 2 - 2 (defense 2) + 3 (wall flip) + 4 = 10.
        self.force(9, 4)
        self.st(fray.CmdAttack(), "Thug=Char2")
        out = self.player(fray.CmdDefend(), "dodge")
        self.assertIn("Char2 dodge: Dexterity 3 + Acrobatics 2 - 2 (defense 2) + 3 (wall flip) + d10 [4] = 10", out)
        # Char2's attack on the Thug at 4: + 3 (wall flip), then spent.
        self.force(4)
        out = self.player(fray.CmdAttack(), "Thug")
        self.assertIn("Dexterity 3 + Brawl 2 + 3 (wall flip) + d10 [4] = 12: 2 SLs", out)
        self.st(fray.CmdDefend(), "Thug=none")
        self.assertNotIn("flipped_over", self.state(self.char2))
        # Fray's reading of the seed (Wall Flip): "+3 bonus to all further defensive actions": the
        # Thug passes at 1; in round 2 Char2's first defense still has it: 3 + 2 + 3 + 4 = 12.
        self.assertIn("<Combat> Round 2 begins.", self.st(fray.CmdCombat(), "/next"))
        self.assertIn("wall flip +3", self.hud())
        self.initiative(2, 9)
        self.force(9, 4)
        self.st(fray.CmdAttack(), "Thug=Char2")
        out = self.player(fray.CmdDefend(), "dodge")
        self.assertIn("Char2 dodge: Dexterity 3 + Acrobatics 2 + 3 (wall flip) + d10 [4] = 12", out)


class TestSacrificeAndDoubleJumpKick(EldritchFightTest):
    def test_sacrifice_parries_for_another(self):
        boss = self.npc("Boss", {"Dexterity": 1})
        self.buy(self.char2, "Sacrifice")
        update_sheet(self.char2, "eldritch", weapon="bat")
        self.initiative(9, 5)  # Char2 11; Thug 7
        self.st(fray.CmdCombat(), "/next")  # Char2 passes at 11
        # The Thug punches the Boss: 2 + 1 + 8 = 11: 2 SLs. Char2 throws himself in: Dexterity 3 +
        # Melee 2 - 3 + 9 = 11: 2 SLs, not more: he takes the damage intended for the Boss (seed,
        # Sacrifice: the punch's own 2 SLs, none taken off): (2 x 2) + 2 = 6 - 3 = 3.
        self.force(8)
        self.st(fray.CmdAttack(), "Thug=Boss")
        self.force(9)
        out = self.player(eldritch.CmdSacrifice(), "Boss")
        self.assertIn("Char2 Sacrifice: Dexterity 3 + Melee 2 - 3 (sacrifice) + d10 [9] = 11: 2 SLs", out)
        self.assertIn("Char2 throws themselves in the way and takes the hit meant for Boss.", out)
        self.assertIn("Char2 loses 3 Life Points of bash", out)
        self.assertEqual(boss.health, {})
        self.assertEqual(self.state(self.char2)["defenses_used"], 1)

    def test_sacrifice_never_stops_bullets(self):
        # Seed (Ranged Deflection): "No character can deflect bullets": not by Sacrifice either.
        self.npc("Boss", {"Dexterity": 1})
        self.buy(self.char2, "Sacrifice")
        update_sheet(self.thug, "eldritch", weapon="9mm")
        update_sheet(self.char2, "eldritch", weapon="bat")
        self.initiative(9, 5)
        self.st(fray.CmdCombat(), "/next")  # Char2 passes at 11
        self.force(8)
        self.st(fray.CmdAttack(), "Thug=Boss/9mm")
        before = TestBadInput.snapshot(self)
        self.player(eldritch.CmdSacrifice(), "Boss",
                    "<Fray> No character can deflect bullets: Sacrifice cannot stop a firearm.")
        self.assertEqual(TestBadInput.snapshot(self), before)

    def test_a_failed_sacrifice_leaves_the_target_to_defend(self):
        self.npc("Boss", {"Dexterity": 1})
        self.buy(self.char2, "Sacrifice")
        update_sheet(self.char2, "eldritch", weapon="bat")           # a parry needs a weapon in hand
        self.initiative(9, 5)
        self.st(fray.CmdCombat(), "/next")  # Char2 passes at 11
        self.force(8, 2)                    # the Thug: 11, 2 SLs; Char2: 3 + 2 - 3 + 2 = 4, a failure
        self.st(fray.CmdAttack(), "Thug=Boss")
        out = self.player(eldritch.CmdSacrifice(), "Boss")
        self.assertIn("The Sacrifice fails: Boss must still defend.", out)
        self.assertEqual(len(encounters.pending_attacks(self.encounter)), 1)
        self.assertEqual(self.state(self.char2)["defenses_used"], 1)
        self.force(2)
        out = self.st(fray.CmdDefend(), "Boss=dodge")  # Dexterity 1 + 2 = 3: hit for (2 x 2) + 2 = 6
        self.assertIn("Boss loses 6 Life Points of bash", out)

    def test_double_jump_kick_hits_two(self):
        self.npc("Boss", {"Dexterity": 1})
        update_sheet(self.char2, "eldritch", traits=dict(CHAR2, Dexterity=4))
        self.buy(self.char2, "Double Jump Kick")
        self.initiative(9, 5)
        self.player(fray.CmdAttack(), "Thug/double jump kick",
                    "<Fray> Double Jump Kick strikes 2 opponents at once: name them all.")
        self.player(fray.CmdAttack(), "Thug,thug/double jump kick",
                    "<Fray> Double Jump Kick takes 2 targets, each named once.")
        self.player(fray.CmdAttack(), "Thug,Boss/punch", "<Fray> Punch takes 1 target, each named once.")
        # One roll: Dexterity 4 + Brawl 2 - 4 + 9 = 11: 2 SLs; each target may defend on its own.
        self.force(9)
        out = self.player(fray.CmdAttack(), "Thug,Boss/double jump kick")
        self.assertIn("Char2 attacks Thug with Double Jump Kick.", out)
        self.assertIn("Char2 attacks Boss with Double Jump Kick.", out)
        self.assertEqual(len(encounters.pending_attacks(self.encounter)), 2)
        self.assertEqual(len(self.encounter.acted), 1)  # one action for both
        # (Strength 3 + 1) x 3 + 2 net SLs = 14 bash - Constitution 2 = 12.
        out = self.st(fray.CmdDefend(), "Thug=none")
        self.assertIn("damage: (Strength 3 + 1) x 3 + 2 net SLs = 14 bash", out)
        self.assertEqual(self.life(self.thug), 14)


class TestConcealAndSearch(EldritchFightTest):
    def test_one_roll_remembered_and_searched_with_each_weapons_bonus(self):
        # Intelligence 2 + Larceny 1 + 8 = 11: the one roll for every weapon hidden.
        self.force(8)
        out = self.player(eldritch.CmdConceal(), "big knife")
        self.assertIn("Char2 hides the big knife: Intelligence 2 + Larceny 1 + d10 [8] = 11: 2 SLs", out)
        out = self.player(eldritch.CmdConceal(), "big sword/duffel")
        self.assertIn("Char2 hides the big sword in a duffel bag as well: the concealment roll of 11 stands", out)
        self.assertEqual(self.char2.concealed["weapons"], [{"weapon": "big-knife", "duffel": False},
                                                           {"weapon": "big-sword", "duffel": True}])
        self.player(eldritch.CmdConceal(), "big knife", "<Fray> Char2 already hides a big knife")
        # The Thug pats Char2 down: Perception 2 + Larceny 0 + 6 = 8. Big knife: size 4 - 4 + 3 = +3
        # -> 11, a tie: not found. Big sword in the duffel: 7 - 5 = +2 -> 10: not found.
        self.force(6)
        out = self.st(eldritch.CmdSearch(), "Thug=Char2/patdown")
        self.assertIn("Thug pats down Char2: Perception 2 + Larceny 0 + d10 [6] = 8: failure", out)
        self.assertIn("big knife: 8 + 3 (pat-down) = 11 vs concealment 11: not found", out)
        self.assertIn("big sword in a duffel bag: 8 + 2 (duffel bag) = 10 vs concealment 11: not found", out)
        self.assertIn("Thug finds nothing on Char2.", out)
        # The Thug's roll is kept, like the concealment: searching again rolls no die.
        self.force(9)
        out = self.st(eldritch.CmdSearch(), "Thug=Char2")
        self.assertEqual(dice.forced_faces(), [9])
        dice.clear()
        self.assertIn("Thug searches Char2: Perception 2 + Larceny 0 + d10 [6] = 8: failure (the same roll as "
                      "before: a search is rolled once)", out)
        self.assertIn("big knife: 8 + 0 (weapon size) = 8 vs concealment 11: not found", out)
        # Another searcher rolls their own: the Storyteller, Perception 2: (10, then 6: 11) + 2 = 13;
        # the knife + 0 = 13 is found, the sword + 2 = 15.
        update_sheet(self.char1, "eldritch", traits={"Perception": 2})
        self.force(10, 6)
        out = self.st(eldritch.CmdSearch(), "Char2")
        self.assertIn("big knife: 13 + 0 (weapon size) = 13 vs concealment 11: found", out)
        self.assertIn("Char finds Char2's big knife, big sword.", out)
        self.assertEqual(set(self.char2.concealed["searched"]), {str(self.thug.id), str(self.char1.id)})
        # Drawn, a weapon is no longer hidden.
        self.initiative(9, 5)
        self.player(eldritch.CmdMove(), "draw big knife", "<Combat> Char2 moves.\n  Char2 spends an action: draw the big knife.")
        self.assertEqual(weapon_of(self.char2, "eldritch"), "big-knife")
        self.assertEqual(self.char2.concealed["weapons"], [{"weapon": "big-sword", "duffel": True}])
        self.player(eldritch.CmdConceal(), "/clear", "<Combat> Char2 no longer hides any weapon.")
        self.assertEqual(self.char2.concealed, {})
        # Hidden anew: a new concealment roll, and every searcher rolls anew against it.
        self.force(3)
        self.player(eldritch.CmdConceal(), "stake")
        self.assertNotIn("searched", self.char2.concealed)

    def test_a_pat_down_in_the_fight_is_a_movement_action_and_the_hidden_cannot_be_searched(self):
        self.force(8)
        self.player(eldritch.CmdConceal(), "big knife")            # 11
        self.initiative(5, 9)  # Char2 7, 2; Thug 11, 6, 1
        before = (list(self.encounter.acted), self.state(self.thug), len(self.encounter.log))
        self.player(eldritch.CmdSearch(), "Thug/patdown", "<Fray> It is not Char2's turn: waiting on Thug.")
        self.assertEqual((list(self.encounter.acted), self.state(self.thug), len(self.encounter.log)), before)
        # On its turn the Thug pats Char2 down: an action. 2 + 0 + 9 = 11 + 3 = 14: found.
        self.force(9)
        out = self.st(eldritch.CmdSearch(), "Thug=Char2/patdown")
        self.assertIn("Thug spends an action: pat down Char2.", out)
        self.assertIn("big knife: 11 + 3 (pat-down) = 14 vs concealment 11: found", out)
        self.assertIn("<Combat> Thug pats down Char2.", out)
        self.assertEqual(self.state(self.thug)["actions_used"], 1)
        self.assertEqual(self.encounter.log[-1]["what"], "pat-down of Char2")
        # A look is no action, made at any time (Char2's turn at 7 now), with the same kept roll.
        out = self.st(eldritch.CmdSearch(), "Thug=Char2")
        self.assertIn("(the same roll as before: a search is rolled once)", out)
        self.assertEqual(self.state(self.thug)["actions_used"], 1)
        # Char2 hides from the Thug (a movement action at 7): 3 + 1 + 2 + 7 = 13 against 2 + 5 = 7.
        self.force(7, 5)
        self.player(aeon.CmdHide(), "")
        before = (dict(self.char2.concealed), self.state(self.thug), len(self.encounter.log))
        self.st(eldritch.CmdSearch(), "Thug=Char2", "<Fray> Thug cannot see Char2, who is hiding (+spot Char2 first).")
        self.assertEqual((dict(self.char2.concealed), self.state(self.thug), len(self.encounter.log)), before)

    def test_opening_the_duffel_bag_finds_the_weapon(self):
        # Seed (Conspicuousness): "If they open the duffel bag, it's curtains".
        self.force(8)
        self.player(eldritch.CmdConceal(), "big sword/duffel")     # 2 + 1 + 8 = 11
        before = dict(self.char2.concealed)
        self.st(eldritch.CmdSearch(), "/open Thug=Char2/patdown",
                "<Fray> Pat them down or open their bag: one at a time.")
        self.assertEqual(dict(self.char2.concealed), before)
        # The Thug looks (2 + 0 + 3 = 5, + 2 for the bag = 7: not found), then opens the bag:
        # the same kept roll, and the sword is found all the same.
        self.force(3)
        out = self.st(eldritch.CmdSearch(), "Thug=Char2")
        self.assertIn("big sword in a duffel bag: 5 + 2 (duffel bag) = 7 vs concealment 11: not found", out)
        out = self.st(eldritch.CmdSearch(), "Thug=Char2/open")
        self.assertIn("Thug searches Char2, opening their bag: Perception 2 + Larceny 0 + d10 [3] = 5", out)
        self.assertIn("big sword in a duffel bag: the bag is opened: found", out)
        self.assertIn("Thug finds Char2's big sword.", out)
        # In a fight it lays hands on them, like a pat-down: a movement action on the Thug's turn.
        self.initiative(5, 9)  # Char2 7, 2; Thug 11, 6, 1
        out = self.st(eldritch.CmdSearch(), "Thug=Char2/open")
        self.assertIn("Thug spends an action: open the bag of Char2.", out)
        self.assertIn("<Combat> Thug opens Char2's bag.", out)
        self.assertEqual(self.state(self.thug)["actions_used"], 1)

class TestHidingAndSight(EldritchFightTest):
    def test_hiding_blocks_sight_and_the_chance_dice(self):
        # Before initiative: free. Dexterity 3 + Larceny 1 + Stealth 2 + 7 = 13 against the Thug's
        # Perception 2 + Notice 0 + Ambushes 0 + 5 = 7: hidden from it.
        self.force(7, 5)
        out = self.player(aeon.CmdHide(), "")
        self.assertIn("Char2 hides: Dexterity 3 + Larceny 1 + Stealth 2 + d10 [7] = 13: 3 SLs", out)
        self.assertIn("Thug looks: Perception 2 + Notice 0 + Ambushes 0 + d10 [5] = 7: failure -> does not see Char2", out)
        self.assertEqual(self.state(self.char2)["hidden_from"], [self.thug.id])
        self.assertIn("hidden", self.hud())
        self.player(aeon.CmdHide(), "", "<Fray> Char2 has hidden before the fight once")
        self.player(aeon.CmdHide(), "/obscured", "<Fray> /obscured is an aeon switch")
        self.st(eldritch.CmdLos(), "Thug=Char2", "<Combat> Thug looks for a line of sight to Char2.\n"
                "  Char2 is hidden: Thug must spot them first.")
        self.st(eldritch.CmdEyeContact(), "Thug=Char2", "<Combat> Thug tries to catch Char2's eye.\n"
                "  Char2 is hidden: Thug must spot them first.")
        # Char2 looks at the Thug past partial cover: +roll 0 shows 3 (1-5 makes it).
        self.force(3)
        self.player(eldritch.CmdLos(), "Thug/partial", "<Combat> Char2 looks for a line of sight to Thug.\n"
                    "  Partial cover, 50% chance: +roll 0 shows 3 (1-5 makes it): line of sight is established.")
        # Eye contact: a 30% chance, +roll 0 shows 4: not made; 21 yards: impossible.
        self.force(4)
        out = self.player(eldritch.CmdEyeContact(), "Thug")
        self.assertIn("30% chance: +roll 0 shows 4 (1-3 makes it): eye contact is not made.", out)
        self.player(eldritch.CmdEyeContact(), "Thug=21", "<Combat> Char2 tries to catch Thug's eye.\n"
                    "  Thug cannot make eye contact: 21 yards away (more than 20).")
        # The Thug cannot attack one hidden from it; Char2's attack shows where she is.
        self.initiative(9, 5)  # Char2 11, 6, 1; Thug 7, 2
        self.force(2)
        self.player(fray.CmdAttack(), "Thug")  # 3 + 2 + 2 = 7: a miss
        self.assertNotIn("hidden_from", self.state(self.char2))
        # The Thug attacks Char2 (a miss): in its last action, so eye contact is made, no dice.
        self.force(2)
        self.st(fray.CmdAttack(), "Thug=Char2")  # 2 + 1 + 2 = 5
        out = self.player(eldritch.CmdEyeContact(), "Thug")
        self.assertIn("Thug attacked Char2 last action: eye contact is made.", out)
        self.assertEqual(self.encounter.log[-1]["what"], "eye contact with Thug")

    def test_one_hidden_cannot_be_attacked_by_those_who_lost_track(self):
        self.initiative(2, 9)  # Thug first
        self.force(7, 5)
        self.player(aeon.CmdHide(), "", "<Fray> It is not Char2's turn: waiting on Thug.")
        self.st(fray.CmdCombat(), "/next")
        self.st(fray.CmdCombat(), "/next")  # the Thug passes at 11 and 6: Char2 at 4
        # On her turn hiding is a movement action: Dexterity 3 + Larceny 1 + Stealth 2 + 7 = 13
        # against the Thug's 2 + 5 = 7.
        out = self.player(aeon.CmdHide(), "")
        self.assertIn("Thug looks: Perception 2 + Notice 0 + Ambushes 0 + d10 [5] = 7: failure -> does not see Char2", out)
        self.assertEqual(self.state(self.char2)["actions_used"], 1)
        self.st(fray.CmdAttack(), "Thug=Char2", "<Fray> Thug has lost track of Char2, who is hiding.")

    def test_partial_cover_in_the_fight_is_a_movement_action(self):
        self.initiative(9, 5)
        self.force(7)
        out = self.player(eldritch.CmdLos(), "Thug/partial")
        self.assertIn("line of sight is not established", out)
        self.assertEqual(self.state(self.char2)["actions_used"], 1)
        self.assertIn("Round 1: Thug to act.", out)


class TestWeaponInHand(EldritchFightTest):
    def test_a_named_weapon_must_be_in_hand_and_draw_puts_it_there(self):
        update_sheet(self.char2, "eldritch", weapon="bat")
        self.initiative(2, 9)  # Char2 4; Thug 11, 6, 1
        before = (list(self.encounter.acted), dict(self.encounter.conditions), len(self.encounter.log),
                  list(self.encounter.pending))
        # The Thug holds nothing: no 9mm until it draws one (+move draw: a movement action).
        self.st(fray.CmdAttack(), "Thug=Char2/9mm", "<Fray> Thug holds no 9mm (empty-handed).")
        self.assertEqual((list(self.encounter.acted), dict(self.encounter.conditions), len(self.encounter.log),
                          list(self.encounter.pending)), before)
        self.st(eldritch.CmdMove(), "Thug=draw 9mm", "<Combat> Thug moves.\n  Thug spends an action: draw the 9mm.")
        self.assertEqual(weapon_of(self.thug, "eldritch"), "9mm")
        before = (list(self.encounter.acted), dict(self.encounter.conditions), len(self.encounter.log))
        self.st(fray.CmdAttack(), "Thug=Char2/9mm 2h",
                "<Fray> 1h and 2h choose the grip of a hand-to-hand weapon (its minimum Strength), not of the "
                "9mm (a firearm).")
        self.assertEqual((list(self.encounter.acted), dict(self.encounter.conditions), len(self.encounter.log)),
                         before)
        # Now it fires at 6 (-2, its second action): Dexterity 2 + Firearms 0 - 2 + 9 = 9: 1 SL.
        self.force(9)
        out = self.st(fray.CmdAttack(), "Thug=Char2/9mm")
        self.assertIn("Thug 9mm: Dexterity 2 + Firearms 0 - 2 (2nd action) + d10 [9] = 9: 1 SL", out)
        self.player(fray.CmdDefend(), "none")
        # Char2 holds the bat: not the 9mm; the bat two-handed is fine (not yet her turn, though).
        self.player(fray.CmdAttack(), "Thug/9mm", "<Fray> Char2 holds no 9mm (in hand: bat).")
        self.player(fray.CmdAttack(), "Thug/bat 2h 2h", "<Fray> Give the grip (1h or 2h) once.")


    def test_a_caught_thrown_weapon_is_in_the_catchers_hand(self):
        self.buy(self.char2, "Catch Weapon")
        update_sheet(self.thug, "eldritch", weapon="small-knife")
        self.initiative(2, 9)  # Char2 4; Thug 11, 6, 1
        # Dexterity 2 + Thrown 0 + 8 = 10: 1 SL against Dexterity 3 + Brawl 2 - 5 + 10 = 10.
        self.force(8)
        self.st(fray.CmdAttack(), "Thug=Char2/small knife thrown")
        self.force(10)
        out = self.player(fray.CmdDefend(), "catch weapon")
        self.assertIn("Char2 catches the small knife and holds it now!", out)
        self.assertEqual((weapon_of(self.char2, "eldritch"), weapon_of(self.thug, "eldritch")), ("small-knife", ""))
        self.st(fray.CmdAttack(), "Thug=Char2/small knife", "<Fray> Thug holds no small knife (empty-handed).")


class TestWhoActs(EldritchFightTest):
    def test_a_light_npc_takes_an_eldritch_template_later(self):
        self.st(npcs.CmdNpc(), "/init Mook=2+3")       # Dexterity 2, Perception 3
        self.st(npcs.CmdNpc(), "/create Mook=thug", "<Combat> Mook now has the thug template's sheet")
        mook = next(obj for obj in self.room1.contents if obj.key == "Mook")
        self.assertEqual((traits_of(mook, "eldritch")["Strength"], weapon_of(mook, "eldritch")), (3, "bat"))

    def test_a_late_roll_that_takes_the_turn_is_announced(self):
        self.initiative(9)                       # Char2 11, 6, 1
        self.st(fray.CmdCombat(), "/next")       # Char2 passes at 11: Char2 to act at 6
        self.force(9)                            # the Thug rolls 11: its slot comes first now
        out = self.st(npcs.CmdNpc(), "/init Thug")
        self.assertIn("Round 1: Thug to act.", out)

    def test_acting_for_someone_else_is_refused_plainly(self):
        self.initiative(9, 5)
        self.player(fray.CmdAttack(), "Nobody=Thug",
                    "<Fray> You can only act for yourself; this scene's Storyteller acts for NPCs.")
        self.st(fray.CmdAttack(), "Thug", "<Fray> You are not in this fight: name the NPC you act for first "
                                          "(<npc>=..., e.g. attack Orc=Ann).")

    def test_a_storyteller_not_fighting_is_shown_the_example_of_the_command_typed(self):
        self.initiative(9, 5)
        for command, verb, args, example in (
                (fray.CmdDefend(), "defend", "dodge", "defend Orc=dodge"),
                (fray.CmdDefend(), "defend", "x", "defend Orc=dodge"),
                (fray.CmdDefend(), "dodge", "", "defend Orc=dodge"),
                (fray.CmdDefend(), "parry", "", "defend Orc=dodge"),
                (fray.CmdAttack(), "attack", "Thug,Char2", "attack Orc=Ann"),
                (fray.CmdEscape(), "escape", "", "escape Orc"),
                (next(cmd for cmd in action_commands() if cmd.key == "aim")(), "aim", "Thug", "aim Orc=Ann")):
            with self.subTest(verb=verb, args=args):
                self.call(command, args, "<Fray> You are not in this fight: name the NPC you act for first "
                                         f"(<npc>=..., e.g. {example}).", caller=self.char1, cmdstring=verb,
                          use_assertequal=True)


class TestAttackedInTheirLastAction(EldritchFightTest):
    def test_only_the_attackers_last_action_counts_even_from_last_turn(self):
        self.initiative(2, 9)  # Char2 4; Thug 11, 6, 1
        # The Thug punches Char2 at 11 (2 + 1 + 2 = 5: a miss): eye contact and a line of sight
        # are made without dice.
        self.force(2)
        self.st(fray.CmdAttack(), "Thug=Char2")
        self.player(eldritch.CmdEyeContact(), "Thug", "<Combat> Char2 tries to catch Thug's eye.\n"
                    "  Thug attacked Char2 last action: eye contact is made.")
        self.player(eldritch.CmdLos(), "Thug/partial", "<Combat> Char2 looks for a line of sight to Thug.\n"
                    "  Thug attacked Char2: line of sight is established.")
        # Its next action (a run at 6) ends that: the 30% chance again (+roll 0 shows 4).
        self.st(eldritch.CmdMove(), "Thug=run")
        self.force(4)
        self.player(eldritch.CmdEyeContact(), "Thug", "<Combat> Char2 tries to catch Thug's eye.\n"
                    "  30% chance: +roll 0 shows 4 (1-3 makes it): eye contact is not made.")
        # Char2 passes at 4; the Thug punches her again at 1, its last action of the turn.
        self.st(fray.CmdCombat(), "/next")
        self.force(2)
        self.st(fray.CmdAttack(), "Thug=Char2")
        self.player(eldritch.CmdEyeContact(), "Thug", "<Combat> Char2 tries to catch Thug's eye.\n"
                    "  Thug attacked Char2 last action: eye contact is made.")
        # The turn ends (seed: "If the target attacked the psionic or caster in their
        # last action"): the punch at the end of round 1 is still the Thug's last action.
        self.st(fray.CmdCombat(), "/next", "<Combat> Round 2 begins.")
        self.player(eldritch.CmdEyeContact(), "Thug", "<Combat> Char2 tries to catch Thug's eye.\n"
                    "  Thug attacked Char2 last action: eye contact is made.")
        # Until the Thug acts again: its next action (a run in round 2) ends it.
        self.force(9)
        self.st(npcs.CmdNpc(), "/init Thug")
        self.st(eldritch.CmdMove(), "Thug=run")
        self.force(4)
        self.player(eldritch.CmdEyeContact(), "Thug", "<Combat> Char2 tries to catch Thug's eye.\n"
                    "  30% chance: +roll 0 shows 4 (1-3 makes it): eye contact is not made.")

    def test_moving_for_a_line_of_sight_is_an_action_that_ends_it(self):
        self.initiative(9, 5)  # Char2 11, 6, 1; Thug 7, 2
        self.force(2)
        self.player(fray.CmdAttack(), "Thug")          # 3 + 2 + 2 = 7: a miss
        self.st(fray.CmdCombat(), "/next")             # the Thug passes at 7
        self.st(eldritch.CmdLos(), "Thug=Char2", "<Combat> Thug looks for a line of sight to Char2.\n"
                "  Char2 attacked Thug: line of sight is established.")
        # seed: "Once line of sight has been established between two characters, it applies to
        # BOTH of them": no roll and no movement for Char2 behind partial cover.
        self.player(eldritch.CmdLos(), "Thug/partial", "<Combat> Char2 looks for a line of sight to Thug.\n"
                    "  The line of sight between Char2 and Thug holds (both ways).")
        self.assertEqual(self.state(self.char2)["actions_used"], 1)
        # "... with the exception of ... taking movement to gain cover": an action at 6, which
        # is also Char2's last action now.
        self.player(eldritch.CmdMove(), "cover behind the van", "<Combat> Char2 moves.\n"
                    "  Char2 spends an action: take cover behind the van (rolls at -2).")
        self.assertNotIn("in_sight", self.state(self.thug))
        self.force(6)
        self.st(eldritch.CmdLos(), "Thug=Char2/partial", "<Combat> Thug looks for a line of sight to Char2.\n"
                "  Partial cover, 50% chance: +roll 0 shows 6 (1-5 makes it): line of sight is not established.")
        self.assertEqual(self.encounter.log[-2]["what"], "move")  # at 2, a movement action of the Thug's

    def test_blocked_ends_a_line_of_sight_made_before(self):
        self.player(eldritch.CmdLos(), "Thug")
        self.st(eldritch.CmdLos(), "Thug=Char2/blocked", "<Combat> Thug looks for a line of sight to Char2.\n"
                "  Walls, full cover or distance block the line of sight to Char2.")
        self.assertNotIn("in_sight", self.state(self.char2))
        self.force(8)
        self.player(eldritch.CmdLos(), "Thug/partial", "<Combat> Char2 looks for a line of sight to Thug.\n"
                    "  Partial cover, 50% chance: +roll 0 shows 8 (1-5 makes it): line of sight is not established.")

    def test_a_line_of_sight_holds_both_ways_until_one_hides(self):
        self.player(eldritch.CmdLos(), "Thug", "<Combat> Char2 looks for a line of sight to Thug.\n"
                    "  Nothing hides Thug: line of sight is established.")
        self.st(eldritch.CmdLos(), "Thug=Char2/partial", "<Combat> Thug looks for a line of sight to Char2.\n"
                "  The line of sight between Thug and Char2 holds (both ways).")
        self.assertEqual((self.state(self.char2)["in_sight"], self.state(self.thug)["in_sight"]),
                         ([self.thug.id], [self.char2.id]))
        self.force(7, 5)                                # 13 against 7: hidden from the Thug
        self.player(aeon.CmdHide(), "")
        self.assertNotIn("in_sight", self.state(self.char2))
        self.assertNotIn("in_sight", self.state(self.thug))
        self.st(eldritch.CmdLos(), "Thug=Char2", "<Combat> Thug looks for a line of sight to Char2.\n"
                "  Char2 is hidden: Thug must spot them first.")


class TestSpotting(EldritchFightTest):
    def test_spot_a_hider_once_a_turn_against_the_kept_hiding_roll(self):
        update_sheet(self.thug, "eldritch", traits=dict(THUG, Notice=2))
        # Before initiative, free: 3 + 1 + 2 + 7 = 13 against 2 + 2 + 5 = 9: hidden from the Thug.
        self.force(7, 5)
        self.player(aeon.CmdHide(), "")
        self.assertEqual(self.state(self.char2)["hidden_from"], [self.thug.id])
        self.assertEqual(self.state(self.char2)["hide_total"], 13)
        self.player(eldritch.CmdSpot(), "Thug", "<Fray> Thug is not hidden from Char2.")
        # The Thug looks: Perception 2 + Notice 2 + Ambushes 0 + 5 = 9, lower than 13.
        self.force(5)
        self.st(eldritch.CmdSpot(), "Thug=Char2", "<Combat> Thug looks around for Char2.\n"
                "  Thug looks for Char2: Perception 2 + Notice 2 + Ambushes 0 + d10 [5] = 9: 1 SL vs hiding 13 "
                "-> does not see Char2")
        self.assertEqual(self.state(self.char2)["hidden_from"], [self.thug.id])
        before = (dict(self.encounter.conditions), len(self.encounter.log))
        self.st(eldritch.CmdSpot(), "Thug=Char2", "<Fray> Thug has already looked for Char2 this turn.")
        self.assertEqual((dict(self.encounter.conditions), len(self.encounter.log)), before)
        # A new turn, a new try: 2 + 2 + 9 = 13, as high as her roll: spotted.
        self.initiative(9, 5)
        for _ in range(5):
            self.st(fray.CmdCombat(), "/next")
        self.assertEqual(self.encounter.round, 2)
        self.force(9)
        out = self.st(eldritch.CmdSpot(), "Thug=Char2")
        self.assertIn("= 13: 3 SLs vs hiding 13 -> spots Char2", out)
        self.assertNotIn("hidden_from", self.state(self.char2))
        self.assertNotIn("hidden", self.hud())
        self.force(3)
        self.st(eldritch.CmdEyeContact(), "Thug=Char2", "<Combat> Thug tries to catch Char2's eye.\n"
                "  30% chance: +roll 0 shows 3 (1-3 makes it): eye contact is made.")


class TestEarPopVerdictAndNpcInit(EldritchFightTest):
    def test_ear_pop_shaken_off_says_so(self):
        self.buy(self.char2, "Ear Pop")
        self.initiative(9, 5)
        # Dexterity 3 + Brawl 2 - 3 + 7 = 9: 1 SL; no defense: (3 x 2) + 1 = 7 - 2 = 5. The check:
        # Constitution x2 4 - 1 + 7 = 10: 1 SL, not fewer than 1: shaken off.
        self.force(7, 7)
        self.player(fray.CmdAttack(), "Thug/ear pop")
        out = self.st(fray.CmdDefend(), "Thug=none")
        self.assertIn("Thug shakes it off? Constitution x2 4 - 1 (ear pop) + d10 [7] = 10: 1 SL (needs 1 SL)\n"
                      "  Thug shakes it off: 1 SL, not fewer than the attack's 1.", out)
        self.assertNotIn("stunned", self.state(self.thug))

    def test_a_light_npc_gives_dexterity_and_perception(self):
        self.st(npcs.CmdNpc(), "/init Goon=4", "<Fray> Give Dexterity and Perception as two numbers 0-20: "
                "+npc/init <name>=<dexterity>+<perception>")
        self.force(6)
        self.st(npcs.CmdNpc(), "/init Goon=4+3",
                "<Combat> Goon rolls initiative: (Dexterity 4 + Perception 3)/2 = 3 + 1d10 (6) = 9.")
        goon = encounters.find_combatant(self.encounter, "Goon")
        self.assertEqual(traits_of(goon, "eldritch"), {"Dexterity": 4, "Perception": 3})
        self.assertRegex(self.hud(), r"Goon \(NPC\)\s+9\s+Life Points 10/10")


class TestRoll(EldritchFightTest):
    def test_roll_zero_is_a_bare_d10_and_a_roll_shows_faces_total_and_sls(self):
        self.force(7)
        self.player(fray.CmdRoll(), "0", "<Roll> Char2 rolls +roll 0: a bare d10 shows 7.")
        self.force(10, 7)
        self.player(fray.CmdRoll(), "Dexterity+Brawl",
                    "<Roll> Char2 rolls Dexterity 3 + Brawl 2 + d10 [10, 7 -> 12] = 17: 5 SLs")
        self.force(1, 3)
        self.player(fray.CmdRoll(), "dex+brawl+1", "<Roll> Char2 rolls Dexterity 3 + Brawl 2 + 1 + d10 [1, 3 -> -2] = 4: failure")


class TestDramaAndWake(EldritchFightTest):
    def test_damaging_block_against_a_weapon_needs_a_drama_point(self):
        self.buy(self.char2, "Damaging Block")
        update_sheet(self.thug, "eldritch", weapon="club")
        update_sheet(self.thug, "eldritch", traits=dict(THUG, Melee=2))
        self.initiative(2, 9)
        # The club: Dexterity 2 + Melee 2 + 5 = 9: 1 SL.
        self.force(5)
        self.st(fray.CmdAttack(), "Thug=Char2")
        self.player(fray.CmdDefend(), "damaging block", "<Fray> Damaging Block against a weapon costs a Drama Point.")
        self.player(eldritch.CmdDrama(), "", "<Combat> Char2 spends a Drama Point on the next defense.")
        self.assertIn("drama point", self.hud())
        # Dexterity 3 + Brawl 2 - 2 + 8 = 11: 2 SLs beats 9: the block hurts the Thug:
        # (Strength 3 x 2) + 1 net SL = 7 bash - Constitution 2 = 5.
        self.force(8)
        out = self.player(fray.CmdDefend(), "damaging block")
        self.assertIn("Char2's block hurts Thug:", out)
        self.assertIn("Thug loses 5 Life Points of bash", out)
        self.assertNotIn("drama_point", self.state(self.char2))


class TestOutsideAFight(FrayCommandTest):
    """Concealing, searching and eye contact need no fight: they use the Eldritch rules."""

    def test_conceal_search_and_eye_contact_before_any_fight(self):
        update_sheet(self.char2, "eldritch", traits=dict(CHAR2))
        update_sheet(self.char1, "eldritch", traits={"Perception": 3, "Notice": 2})
        self.force(5)  # Intelligence 2 + Larceny 1 + 5 = 8: a failure, and still the roll that stands
        self.player(eldritch.CmdConceal(), "/duffel shotgun",
                    "<Combat> Char2 hides the shotgun (12-gauge) in a duffel bag: Intelligence 2 + Larceny 1 + d10 [5] = 8")
        self.player(eldritch.CmdConceal(), "", "<Combat> Char2 hides: shotgun (12-gauge) (duffel bag); concealment 8")
        # Perception 3 + Notice 2 + 2 = 7; the shotgun (size 7) in a duffel: + 2 = 9 > 8: found.
        self.force(2)
        out = self.st(eldritch.CmdSearch(), "Char2")
        self.assertIn("Char searches Char2: Perception 3 + Notice 2 + d10 [2] = 7: failure", out)
        self.assertIn("shotgun (12-gauge) in a duffel bag: 7 + 2 (duffel bag) = 9 vs concealment 8: found", out)
        self.st(eldritch.CmdSearch(), "Char", "<Fray> You know what you carry: +conceal shows it.")
        self.force(2)
        self.player(eldritch.CmdEyeContact(), "Char", "<Combat> Char2 tries to catch Char's eye.\n"
                    "  30% chance: +roll 0 shows 2 (1-3 makes it): eye contact is made.")
        self.player(eldritch.CmdMove(), "run", "<Fray> There is no fight here.")
        self.player(eldritch.CmdConceal(), "Char=knife", "<Fray> Only a Narrator or staff can act for NPCs.")


class TestActionsTogether(EldritchFightTest):
    """Where two rules of the seed meet: each pinned to the seed's words."""

    def test_double_jump_kick_cannot_reach_one_hiding_from_the_kicker(self):
        # Hiding: those beaten "cannot see you, attack you ..." - a Double Jump Kick included.
        self.npc("Boss", {"Dexterity": 1})
        update_sheet(self.char2, "eldritch", traits=dict(CHAR2, Dexterity=4))
        self.buy(self.char2, "Double Jump Kick")
        # The Thug hides before the fight: Dexterity 2 + Acrobatics 1 + Sneaking 0 + 9 = 12,
        # against Char2's 2 + 2 = 4 and the Boss's 0 + 2 = 2.
        self.force(9, 2, 2)
        self.st(aeon.CmdHide(), "Thug")
        self.assertEqual(sorted(self.state(self.thug)["hidden_from"]), sorted([self.char2.id, self.encounter.d.find("Boss")]))
        self.initiative(9, 5)
        before = TestBadInput.snapshot(self)
        self.player(fray.CmdAttack(), "Thug,Boss/double jump kick",
                    "<Fray> Char2 has lost track of Thug, who is hiding.")
        self.assertEqual(TestBadInput.snapshot(self), before)

    def test_a_double_jump_kick_into_a_whirling_sword_draws_the_whirl(self):
        # Whirling Sword: "Anybody who steps into range of the whirling sword is attacked".
        self.npc("Boss", {"Dexterity": 1})
        update_sheet(self.char2, "eldritch", traits=dict(CHAR2, Dexterity=4))
        self.buy(self.char2, "Double Jump Kick")
        update_sheet(self.thug, "eldritch", traits=dict(THUG, Melee=3, Strength=3), weapon="short-sword")
        self.buy(self.thug, "Whirling Sword")
        self.initiative(2, 9)  # Thug 11, 6, 1; Char2 5
        self.force(9)          # the Thug whirls: 2 + 3 - 4 + 9 = 10: 1 SL, the turn's one roll
        self.st(fray.CmdAttack(), "Thug=Char2/whirling sword")
        self.player(fray.CmdDefend(), "none")
        self.st(fray.CmdCombat(), "/next")  # the Thug has no other action while whirling
        self.force(9)          # 4 + 2 - 4 + 9 = 11: 2 SLs on each
        out = self.player(fray.CmdAttack(), "Thug,Boss/double jump kick")
        self.assertIn("Char2 steps into range of Thug's whirling sword.", out)
        waiting = [(item["attacker"], item["target"]) for item in encounters.pending_attacks(self.encounter)]
        self.assertIn((self.thug, self.char2), waiting)
        self.assertIn((self.char2, self.thug), waiting)

    def test_a_pat_down_as_a_later_action_rolls_at_minus_two(self):
        # Actions: each action after the first in a turn is at -2; a pat-down is a movement action.
        self.force(8)
        self.player(eldritch.CmdConceal(), "big knife")       # 2 + 1 + 8 = 11
        self.initiative(5, 9)  # Thug 11, 6, 1; Char2 7, 2
        self.st(eldritch.CmdMove(), "Thug=run")               # the Thug's first action, at 11
        self.st(fray.CmdCombat(), "/next")                    # Char2 passes at 7
        # The Thug's second action: 2 + 0 + 9 = 11, + 3 (pat-down) - 2 (extra action) = 12: found.
        self.force(9)
        out = self.st(eldritch.CmdSearch(), "Thug=Char2/patdown")
        self.assertIn("Thug spends an action: pat down Char2 (rolls at -2).", out)
        self.assertIn("big knife: 11 + 3 (pat-down) - 2 (extra action) = 12 vs concealment 11: found", out)

    def test_a_slot_lost_to_a_stun_ends_the_attack_in_the_last_action(self):
        # Eye Contact: made when the target "attacked the caster in their last action"; a stunned
        # fighter's lost slot is their last action since.
        self.buy(self.char2, "Ear Pop")
        self.initiative(2, 9)  # Thug 11, 6, 1; Char2 4
        self.force(2)
        self.st(fray.CmdAttack(), "Thug=Char2")               # 2 + 1 + 2 = 5: a miss, at 11
        self.st(fray.CmdCombat(), "/next")                    # the Thug passes at 6: no action
        self.assertIn("Thug attacked Char2 last action", self.player(eldritch.CmdEyeContact(), "Thug"))
        self.force(9, 7)       # Ear Pop 3 + 2 - 3 + 9 = 11: 2 SLs; the Thug's 4 - 2 + 7 = 9: stunned
        self.player(fray.CmdAttack(), "Thug/ear pop")
        out = self.st(fray.CmdDefend(), "Thug=none")
        self.assertIn("Thug is stunned for the rest of the turn", out)   # its slot at 1 is lost
        self.force(4)
        out = self.player(eldritch.CmdEyeContact(), "Thug")
        self.assertNotIn("last action", out)
        self.assertIn("30% chance: +roll 0 shows 4 (1-3 makes it): eye contact is not made.", out)

    def test_wall_flips_plus_three_counts_in_a_sacrifice(self):
        # Wall Flip: "+3 bonus to all further defensive actions"; a Sacrifice is "a normal parry
        # ... at a -3": the +3 counts.
        self.npc("Boss", {"Dexterity": 1})
        self.buy(self.char2, "Sacrifice")
        update_sheet(self.char2, "eldritch", weapon="bat")
        self.initiative(9, 5)  # Char2 11; Thug 7
        encounters.update_conditions(self.encounter, self.char2, flip_defense=True)
        self.st(fray.CmdCombat(), "/next")  # Char2 passes at 11
        self.force(8)
        self.st(fray.CmdAttack(), "Thug=Boss")                # 2 + 1 + 8 = 11: 2 SLs
        self.force(9)
        out = self.player(eldritch.CmdSacrifice(), "Boss")
        self.assertIn("Char2 Sacrifice: Dexterity 3 + Melee 2 - 3 (sacrifice) + 3 (wall flip) + d10 [9] = 14: 3 SLs",
                      out)

    def test_wall_flips_plus_three_is_not_kept_in_the_whirl_and_counts_in_its_parry(self):
        # Whirling Sword: one roll "to attack and defend for the entire turn"; Wall Flip: +3 to the
        # next attack on the one flipped over (not on others) and to all further defenses.
        boss = self.npc("Boss", {"Dexterity": 2, "Perception": 2, "Brawl": 1, "Strength": 2})
        self.buy(self.char2, "Whirling Sword")
        update_sheet(self.char2, "eldritch", weapon="short-sword")
        self.initiative(9, 5)  # Char2 11, 6, 1; Thug 7, 2
        self.force(3)
        self.st(npcs.CmdNpc(), "/init Boss")                  # 2 + 3 = 5
        encounters.update_conditions(self.encounter, self.char2, flipped_over="Thug", flip_defense=True)
        self.force(9)
        out = self.player(fray.CmdAttack(), "Thug/whirling sword")
        self.assertIn("Dexterity 3 + Melee 2 - 4 (whirling sword) + 3 (wall flip) + d10 [9] = 13: 3 SLs", out)
        self.st(fray.CmdDefend(), "Thug=none")
        self.st(fray.CmdCombat(), "/next")                    # the Thug passes at 7
        self.st(fray.CmdCombat(), "/next")                    # Char2, whirling, has no action at 6
        self.force(8)
        out = self.st(fray.CmdAttack(), "Boss=Char2")         # at 5: 2 + 1 + 8 = 11: 2 SLs
        self.assertIn("Boss steps into range of Char2's whirling sword.", out)
        self.assertIn("Whirling Sword (short sword): Dexterity 3 + Melee 2 - 4 (whirling sword) + d10 [9] = 10: 1 SL",
                      out)
        self.st(fray.CmdDefend(), "Boss=none")
        out = self.player(fray.CmdDefend(), "whirling-sword")
        self.assertIn("Char2 Whirling Sword: Dexterity 3 + Melee 2 - 4 (whirling sword) + 3 (wall flip) + d10 [9] = "
                      "13: 3 SLs", out)
        self.assertTrue(boss.health)
