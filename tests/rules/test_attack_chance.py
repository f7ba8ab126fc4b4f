"""The NPC AI's chance to hit (``RuleSystem.attack_chance``, ``StorytellerMagic.attack_chance``)
checked against every sequence of faces rolled through the systems' own attack code."""

from fractions import Fraction
from itertools import product

import pytest

from rules.dice.rollers import QueuedRoller
from rules.systems import get_system
from rules.systems.base import Combatant
from rules.systems.storyteller.dice import PoolRoll


class _NoMore:
    def roll(self, sides: int) -> int:
        raise AssertionError("the attack asked for more dice than enumerated")


def brute_force(system, attacker, target, option: str, dice: int, sides: int = 10) -> Fraction:
    """Every sequence of ``dice`` faces, each weighing 1/sides**dice; a die past them is an error."""
    hits = 0
    for faces in product(range(1, sides + 1), repeat=dice):
        rolled = system.attack(attacker, target, option, QueuedRoller(list(faces), _NoMore()))
        hits += system.landed(rolled)
    return Fraction(hits, sides ** dice)


ANN = {"Dexterity": 2, "Brawl": 1, "Strength": 2, "Stamina": 2, "Dodge": 1}


@pytest.mark.parametrize("option, dice", [("", 3), ("kick", 3), ("tackle", 3)])
def test_storyteller_pool_chance_is_exact(option, dice):
    system = get_system("storyteller")
    ann, bob = Combatant("Ann", traits=ANN), Combatant("Bob", traits=ANN)
    assert system.attack_chance(ann, bob, option) == brute_force(system, ann, bob, option, dice)


@pytest.mark.parametrize("option", ["", "kick", "punch"])
def test_aeon_pool_chance_is_exact(option):
    system = get_system("aeon")
    ann, bob = Combatant("Ann", traits=ANN, kind="Baseline"), Combatant("Bob", traits=ANN, kind="Baseline")
    assert system.attack_chance(ann, bob, option) == brute_force(system, ann, bob, option, 3)


def test_aeon_a_called_shot_is_harder_to_land():
    system = get_system("aeon")
    ann, bob = Combatant("Ann", traits=ANN, kind="Baseline"), Combatant("Bob", traits=ANN, kind="Baseline")
    assert system.attack_chance(ann, bob, "kick+showing-off") < system.attack_chance(ann, bob, "kick")


def test_elethril_d20_chance_is_exact():
    system = get_system("elethril")
    ann = Combatant("Ann", traits={"THAC0": 18, "Strength": 10}, weapon="short-sword")
    orc = Combatant("Orc", traits={"Armor Class": 6, "Hit Points": 5})
    # d20 + 0 must reach THAC0 18 - AC 6 = 12: faces 12..20 of 20
    assert system.attack_chance(ann, orc, "") == brute_force(system, ann, orc, "", 1, sides=20) == Fraction(9, 20)


def test_eldritch_chance_counts_the_chained_rerolls():
    system = get_system("eldritch")
    traits = {"Dexterity": 3, "Brawl": 2, "Strength": 2, "Constitution": 2}
    ann, bob = Combatant("Ann", traits=traits), Combatant("Bob", traits=traits)
    # Dexterity 3 + Brawl 2 - 1 (kick) + d10 needs 9: a 5 or better on the first die (6 faces),
    # and a rolled 1 chains a second die taken away; the chance is a little under 6 in 10
    chance = system.attack_chance(ann, bob, "kick")
    assert Fraction(55, 100) < chance <= Fraction(6, 10)


def test_storyteller_spell_chance_is_casting_times_hitting():
    system = get_system("storyteller")
    magic = system.magic
    caster = Combatant("Zed", traits={"Power": 2, "Control": 2, "Dexterity": 1, "Dueling": 1})
    spell = next(key for key, spell in magic.spells.items() if spell.kind == "attack" and spell.required == 1)
    cast = sum(1 for faces in product(range(1, 11), repeat=2) if PoolRoll(faces, magic.power_difficulty).net >= 1
               and not PoolRoll(faces, magic.power_difficulty).botch)
    hit = sum(1 for faces in product(range(1, 11), repeat=2) if PoolRoll(faces, magic.to_hit_difficulty).net > 0)
    assert magic.attack_chance(caster, spell) == Fraction(cast, 100) * Fraction(hit, 100)
