"""Command tier: Storyteller magic in a fight (+cast), with forced dice."""

from commands import fray, npcs
from tests.game import fightview as encounters
from tests.game.test_combat_commands import FrayCommandTest
from world.sheets import add_traits, update_sheet


class MagicFightTest(FrayCommandTest):
    """Char2 (a Wizard, initiative 12) duels a Guard (initiative 6) run by the ST (Char)."""

    def setUp(self):
        super().setUp()
        add_traits(self.char2, "storyteller", Power=4, Control=3, Dueling=2)
        update_sheet(self.char2, "storyteller", kind="Wizard")
        self.call(fray.CmdCombat(), "/start", caller=self.char1)
        self.encounter = encounters.encounter_in(self.room1)
        self.player(fray.CmdCombat(), "/join")
        self.force(7)
        self.player(fray.CmdCombat(), "/init")
        self.force(1)
        self.st(npcs.CmdNpc(), "/init Guard=2+3")
        self.guard = encounters.find_combatant(self.encounter, "Guard")
        add_traits(self.guard, "storyteller", Stamina=2, Power=3, Control=1, Dueling=1)

    def health(self, obj):
        return dict(obj.health.get("storyteller", {}))


class TestCast(MagicFightTest):
    def test_stunner_hits_after_no_defense(self):
        # Power 4 vs 6: 8 7 6 2 -> 3 (Stupefy needs 2); Control 3 vs 10: 10 10 10 -> 3, no Overshoot.
        # To hit: Dexterity 3 + Dueling 2 = 5 dice vs 6: 9 8 2 2 2 -> 2 successes: a defense window.
        self.force(8, 7, 6, 2, 10, 10, 10, 9, 8, 2, 2, 2)
        out = self.player(fray.CmdCast(), "stunner=Guard")
        self.assertIn("Char2 casts Stupefy.", out)
        self.assertEqual(len(encounters.pending_attacks(self.encounter)), 1)
        # Damage: Power 4 vs 7: 8 7 3 2 -> 2 bashing; the Guard soaks Stamina 2 vs 5: 5 1 -> 1.
        self.force(8, 7, 3, 2, 5, 1)
        self.st(fray.CmdDefend(), "Guard=none")
        self.assertEqual(self.health(self.guard)["bashing"], 1)

    def test_st_moves_the_spell_to_hit_difficulty(self):
        self.st(fray.CmdCombat(), "/diff Char2=+1")
        self.force(8, 7, 6, 2, 10, 10, 10, 9, 8, 2, 2, 2)
        self.player(fray.CmdCast(), "stunner=Guard")
        (pending,) = encounters.pending_attacks(self.encounter)
        self.assertEqual(pending["attack"]["roll"]["difficulty"], 7)  # Dex + Dueling vs 6 + 1

    def test_fizzle_uses_the_turn(self):
        # Power 4 vs 6: 6 2 2 1 -> 1 - 1 = 0 successes: Stupefy (needs 2) fizzles.
        self.force(6, 2, 2, 1, 3, 3, 3)
        out = self.player(fray.CmdCast(), "stunner=Guard")
        self.assertIn("fizzle", out.lower())
        self.assertEqual(encounters.pending_attacks(self.encounter), [])
        self.assertTrue(encounters.has_acted(self.encounter, self.char2))

    def test_shield_blocks_then_is_gone_and_overshoot(self):
        # Char2's turn: Protego. Power 4: 9 9 9 9 -> 4 (needs 2) -> 1 Special Effect success -> 2 blocks;
        # Control 3: 10 10 10 -> 3 < 4: the shield is overshot.
        self.force(9, 9, 9, 9, 10, 10, 10)
        self.player(fray.CmdCast(), "protego")
        shield = encounters.shields_in(self.encounter)["Char2"]
        self.assertEqual((shield.blocks, shield.overshot), (2, True))
        # Guard's turn: Stupefy at Char2. Power 3: 8 8 8 -> 3; Control 1: 2 -> 0 < 3: Overshoot.
        # To hit: Dexterity 3 + Dueling 1 = 4 dice vs 6: 9 9 9 1 -> 2. Char2 has acted: no defense.
        # No one else is present to be struck; the shield blocks the spell and loses a block.
        self.force(8, 8, 8, 2, 9, 9, 9, 1)
        out = self.st(fray.CmdCast(), "Guard=stunner=Char2")
        self.assertIn("cast with an OVERSHOOT (Control 0 < Power 3)", out)
        self.assertIn("nobody else is near enough to be struck", out)
        self.assertEqual(self.health(self.char2), {})
        self.assertEqual(encounters.shields_in(self.encounter)["Char2"].blocks, 1)

    def test_shield_as_defense(self):
        # A Mage (initiative 5 + 5 + 10 = 20) acts before Char2 and casts at her.
        self.force(10)
        self.st(npcs.CmdNpc(), "/init Mage=5+5")
        mage = encounters.find_combatant(self.encounter, "Mage")
        add_traits(mage, "storyteller", Power=3, Control=3, Dueling=2)
        # Power 3: 8 8 8 -> 3; Control 3: 10 10 10 -> 3 (no Overshoot).
        # To hit: Dexterity 5 + Dueling 2 = 7 dice vs 6: 9 9 2 2 2 2 2 -> 2 successes: Char2 may defend.
        self.force(8, 8, 8, 10, 10, 10, 9, 9, 2, 2, 2, 2, 2)
        self.st(fray.CmdCast(), "Mage=stunner=Char2")
        self.assertEqual(len(encounters.pending_attacks(self.encounter)), 1)
        # Char2 answers with Protego: Power 4: 9 9 2 2 -> 2 (needs 2, 1 block); Control 3: 10 10 2 -> 2.
        self.force(9, 9, 2, 2, 10, 10, 2)
        out = self.player(fray.CmdCast(), "protego")
        self.assertIn("Char2's Protego blocks the Stupefy for Char2.", out)
        self.assertEqual(encounters.pending_attacks(self.encounter), [])
        self.assertEqual(self.health(self.char2), {})
        self.assertNotIn("Char2", encounters.shields_in(self.encounter))  # its one block is spent
        self.assertTrue(encounters.has_acted(self.encounter, self.char2))  # the defense used her action


class TestCastForAnNpcWithNoTarget(MagicFightTest):
    def test_the_storyteller_casts_an_npcs_shield_without_naming_a_target(self):
        # help +cast: "cast <npc>=<spell>[=<target>]": the target is optional, so "Guard=protego"
        # is the Guard's Protego, not a spell "Guard" aimed at "protego".
        self.st(fray.CmdCombat(), "/next")                 # Char2 passes: the Guard's turn
        self.force(9, 9, 9, 10)
        out = self.st(fray.CmdCast(), "Guard=protego")
        self.assertIn("Guard casts Protego.", out)
        self.assertIn("Guard", encounters.shields_in(self.encounter))
        self.st(fray.CmdCast(), "Nonsense=protego", "<Fray> No combatant 'Nonsense' in this fight.")


class TestCastRefusals(MagicFightTest):
    def test_bad_casts_change_nothing(self):
        before = list(self.encounter.pending)
        for args, expected in {
            "": "<Fray> Usage: +cast",
            "stunner": "<Fray> Name one target: +cast stunner=<target>",
            "stunner=Char2": "<Fray> You cannot aim a spell at yourself.",
            "stunner=Nobody": "<Fray> No combatant 'Nobody' in this fight.",
            "blastio=Guard": "<Fray> No spell 'blastio'. Choose from: lumos,",
            "stunner=Guard,": "<Fray> Usage: +cast",
            "Guard=stunner=Char2": "<Fray> You can only act for yourself",
        }.items():
            with self.subTest(args=args):
                self.player(fray.CmdCast(), args, expected)
                self.assertEqual(list(self.encounter.pending), before)
                self.assertFalse(encounters.has_acted(self.encounter, self.char2))


class TestOvershotShieldContact(MagicFightTest):
    def test_anyone_who_touches_it_even_the_caster_is_zapped(self):
        """Seed, Magical Shield: Overshooting means "anyone who touches it (even the caster)
        will get zapped and need to successfully soak or take 1 Lethal damage"."""
        add_traits(self.guard, "storyteller", Strength=2, Brawl=1)
        # Protego: Power 4: 9 9 9 9 -> 4; Control 3: 10 10 10 -> 3 < 4: overshot.
        self.force(9, 9, 9, 9, 10, 10, 10)
        self.player(fray.CmdCast(), "protego")
        self.st(fray.CmdCombat(), "/next")                   # the Guard passes: round 2
        # Char2 punches from inside her own shield: Dex 3 + Brawl 2: 2 2 2 2 2 -> a miss;
        # the zap: Wizard soaks lethal, Stamina 2 vs 5: 4 3 -> none: 1 lethal.
        self.force(2, 2, 2, 2, 2, 4, 3)
        out = self.player(fray.CmdAttack(), "Guard")
        self.assertIn("Char2's Protego zaps Char2!", out)
        self.assertEqual(self.health(self.char2)["lethal"], 1)
        # The Guard holds her: Str 2 + Brawl 1 vs 6: 9 9 9 -> 3; it touches her shield (a
        # Muggle: no soak): 1 lethal; she has acted, so the hold lands at once.
        self.force(9, 9, 9)
        self.st(fray.CmdAttack(), "Guard=Char2/hold")
        self.assertEqual(self.health(self.guard)["lethal"], 1)
        self.st(fray.CmdCombat(), "/next")                   # round 3
        # Char2 struggles (contact): escape Str 2 + Brawl 2 vs 6: 2 2 2 2; the Guard (Bruised,
        # no penalty) 3 dice: 2 2 2; then her own shield zaps her: soak 4 3 -> 1 more lethal.
        self.force(2, 2, 2, 2, 2, 2, 2, 4, 3)
        out = self.player(fray.CmdEscape(), "")
        self.assertIn("Char2's Protego zaps Char2!", out)
        self.assertEqual(self.health(self.char2)["lethal"], 2)
