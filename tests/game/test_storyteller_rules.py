"""Command tier: the storyteller seed's rules as the commands play them, with forced
dice."""

from commands import fray, npcs
from tests.game import fightview as encounters
from tests.game.test_combat_commands import FrayCommandTest
from world.sheets import add_traits


class StorytellerFight(FrayCommandTest):
    """Char2 (initiative 9) acts before the Guard (6)."""

    def fight(self, *start):
        self.guard = self.storyteller_fight("Guard", "/start" + (" " + " ".join(start) if start else ""),
                                            Stamina=2, Dodge=1, Strength=2, Brawl=2, Athletics=1)

    def state(self, obj):
        return encounters.conditions_of(self.encounter, obj)


class TestTackle(StorytellerFight):
    def test_plus_one_to_all_actions_next_turn_then_gone(self):
        """Seed, Tackle: "Target is at +1 difficulty to all actions next turn"."""
        self.fight()
        self.st(fray.CmdCombat(), "/next")                   # Char2 passes round 1
        # Guard tackles: Str 2 + Brawl 2 vs 7: 9 9 2 2 -> 2; Char2 has acted (passed): no defense.
        # Damage Str 2 + 1 + rollover 1 = 4 dice: 2 2 2 2 -> 0; prone checks vs 7:
        # Guard Dex 3 + Athletics 1: 7 2 2 2 -> up; Char2 Dex 3 + Athletics 0: 7 2 2 -> up.
        self.force(9, 9, 2, 2, 2, 2, 2, 2, 7, 2, 2, 2, 7, 2, 2)
        self.st(fray.CmdAttack(), "Guard=Char2/tackle")
        self.assertEqual(self.state(self.char2).get("tackled"), 1)
        self.assertIn("tackled", self.player(fray.CmdCombat(), ""))
        # Still round 1: +roll is not touched yet.
        self.force(6, 6)
        self.assertIn("vs 6", self.player(fray.CmdRoll(), "2"))
        self.st(fray.CmdCombat(), "/next")
        self.assertEqual(self.encounter.round, 2)
        self.assertEqual(self.state(self.char2).get("difficulty"), 1)
        self.assertIn("diff+1", self.player(fray.CmdCombat(), ""))
        # Round 2: every roll is at +1, not only the first.
        self.force(7, 7)
        self.assertIn("vs 7", self.player(fray.CmdRoll(), "2"))
        self.force(7, 7)
        self.assertIn("vs 8", self.player(fray.CmdRoll(), "2 vs 7"))
        self.force(2, 2, 2, 2, 2)
        self.player(fray.CmdAttack(), "Guard")                # a miss
        self.assertIn("difficulty +1 (tackled last turn)", "\n".join(
            str(entry) for entry in self.encounter.log or []))
        self.force(7, 7)
        self.assertIn("vs 7", self.player(fray.CmdRoll(), "2"))
        self.st(fray.CmdCombat(), "/next")                   # the Guard passes: round 3
        self.assertEqual(self.encounter.round, 3)
        self.assertNotIn("difficulty", self.state(self.char2))
        self.force(6, 6)
        self.assertIn("vs 6", self.player(fray.CmdRoll(), "2"))


class TestStarredDefenses(StorytellerFight):
    def test_st_moves_a_defense_difficulty(self):
        """Seed, Defensive Actions: "Roll Dexterity + Dodge vs 6*"."""
        self.fight()
        self.st(fray.CmdCombat(), "/diff Guard=+2",
                "<Combat> You move the difficulty of Guard's next attack or defense +2.")
        # Char2 punches: 5 dice vs 6: 9 8 7 2 2 -> 3.
        self.force(9, 8, 7, 2, 2)
        self.player(fray.CmdAttack(), "Guard")
        # Guard dodges, Dex 3 + Dodge 1 vs 6 + 2 = 8: 8 7 7 2 -> 1; damage 2 + 1: 2 2 2.
        self.force(8, 7, 7, 2, 2, 2, 2)
        self.st(fray.CmdDefend(), "Guard=dodge")
        self.assertNotIn("adjust", self.state(self.guard))   # used up by the defense
        log = "\n".join(str(entry) for entry in self.encounter.log or [])
        self.assertIn("dodge: Dexterity 3 + Dodge 1 = 4 dice vs 8", log)
        self.assertIn("difficulty +2 (Storyteller)", log)


class TestLethalPastIncapacitated(FrayCommandTest):
    def test_lethal_into_a_full_track_kills(self):
        """The rules default "Lethal past Incapacitated is death (a kind may override)"."""
        self.st(fray.CmdDamage(), "Char2=2 lethal")
        self.st(fray.CmdDamage(), "Char2=5 bashing")
        self.st(fray.CmdDamage(), "Char2=1 lethal",
                "<Combat> Char2: Incapacitated [LLBBBBB] + 1 lethal -> Dead [LLBBBBB]")


class TestFormalDuel(StorytellerFight):
    def test_brawl_attacks_are_refused_in_a_formal_duel(self):
        """Seed, Brawl Attack: "Disallowed in formal duels"."""
        self.st(fray.CmdCombat(), "/start aeon duel", "<Fray> The aeon rules have no formal duels")
        self.st(fray.CmdCombat(), "/start storyteller duel now", "<Fray> Usage: +combat/start")
        self.assertIsNone(encounters.encounter_in(self.room1))
        self.fight("storyteller", "duel")
        self.assertEqual(self.encounter.scene, {"duel": True})
        self.assertIn("Formal duel: brawl attacks are disallowed.", self.player(fray.CmdCombat(), ""))
        for option in ("", "/punch", "/kick", "/grapple", "/hold", "/tackle"):
            self.player(fray.CmdAttack(), "Guard" + option,
                        "<Fray> This is a formal duel: brawl attacks")
        self.assertEqual(encounters.pending_attacks(self.encounter), [])
        self.assertFalse(encounters.has_acted(self.encounter, self.char2))
        # A weapon is still allowed: Dex 3 + Melee 0 vs 6: 2 2 2 -> a miss.
        self.force(2, 2, 2)
        self.player(fray.CmdAttack(), "Guard/sword")
        self.assertTrue(encounters.has_acted(self.encounter, self.char2))

    def test_an_ordinary_fight_allows_brawl(self):
        self.fight("duel")                    # the game's default system is storyteller
        self.assertEqual(self.encounter.scene, {"duel": True})
        self.st(fray.CmdCombat(), "/end")
        self.fight()
        self.assertNotIn("Formal duel", self.player(fray.CmdCombat(), ""))
        self.force(2, 2, 2, 2, 2)
        self.player(fray.CmdAttack(), "Guard")
        self.assertTrue(encounters.has_acted(self.encounter, self.char2))


class TestShield(FrayCommandTest):
    def test_a_held_shield_allows_a_parry(self):
        """Seed, Parry: "Must have shield or weapon in hand"."""
        add_traits(self.char2, "storyteller", Melee=1)
        self.st(fray.CmdStat(), "Char2/weapon=shield", "<Combat> Storyteller sheet: Char2 now holds a Shield.")
        self.st(fray.CmdCombat(), "/start")
        encounter = encounters.encounter_in(self.room1)
        self.player(fray.CmdCombat(), "/join")
        self.force(1)
        self.player(fray.CmdCombat(), "/init")                # 5 + 1 = 6
        self.force(9)
        self.st(npcs.CmdNpc(), "/init Guard=2+3")             # 5 + 9 = 14: the Guard first
        guard = encounters.find_combatant(encounter, "Guard")
        add_traits(guard, "storyteller", Brawl=1)
        # Guard punches: Dex 3 + Brawl 1 vs 6: 8 2 2 2 -> 1.
        self.force(8, 2, 2, 2)
        self.st(fray.CmdAttack(), "Guard=Char2")
        # Char2 parries with the shield: Dex 3 + Melee 1 vs 6: 9 9 2 2 -> 2; the punch misses.
        self.force(9, 9, 2, 2)
        self.player(fray.CmdDefend(), "parry")
        self.assertEqual(encounters.pending_attacks(encounter), [])
        log = "\n".join(str(entry) for entry in encounter.log or [])
        self.assertIn("parry: Dexterity 3 + Melee 1 = 4 dice vs 6", log)
        self.assertIn("Guard's punch misses Char2.", log)
