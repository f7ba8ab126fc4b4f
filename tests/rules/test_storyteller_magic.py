"""Tests for Storyteller magic (pure Python, no DB): casting, magical attacks, Overshoot, shields.

Sources pinned: the storyteller seed (Magical Attack, Magical Shield, Soak) and
``docs/rules/storyteller.md`` ("Magical attack", "Magical shield"). Every test queues exactly the faces it
expects to be rolled; the fallback roller fails the test on one die more, ``done()`` on one less.
"""

from __future__ import annotations

import copy
import json
from dataclasses import replace

import pytest

from rules.data import RulesDataError, load_system_data
from rules.systems import get_system
from rules.systems.base import Combatant, CombatError
from rules.systems.storyteller.magic import CastRoll, MagicalAttack, Shield, StorytellerMagic
from tests.rules.forced_dice import dice, done  # noqa: E402
from tests.rules.wording import english, englished

ST = get_system("storyteller")
MAGIC = StorytellerMagic(ST)


def fighter(name: str = "Ann", kind: str = "Wizard", health=None, **traits: int) -> Combatant:
    return Combatant(name=name, traits=traits, kind=kind, base_kind=kind, health=health or {})


def cast(spell: str, power: list[int], control: list[int], caster: Combatant | None = None,
         magic: StorytellerMagic = MAGIC) -> CastRoll:
    caster = caster or fighter(Power=len(power), Control=len(control), Dexterity=2, Dueling=1)
    roller = dice(*power, *control)
    result = magic.cast(caster, spell, roller)
    done(roller)
    return result


def spells_data() -> dict:
    return copy.deepcopy(load_system_data("storyteller_spells"))


# =========================================================================== data / lookup

LEVELS = [("First Year", 1), ("Second Year", 2), ("Third Year", 2), ("Fourth Year", 2),
          ("Fifth Year", 3), ("Sixth Year", 3), ("Seventh Year", 3), ("Adult", 4), ("Unforgivable", 5)]


@pytest.mark.parametrize(("level", "required"), LEVELS)
def test_each_level_needs_its_power_successes(level, required):
    data = spells_data()
    data["spells"]["trial"] = {"name": "Trial", "school": "Charms", "level": level, "kind": "other"}
    magic = StorytellerMagic(ST, data)
    assert magic.spells["trial"].required == required
    at = cast("trial", [6] * required, [10], magic=magic)
    assert (at.power.net, at.fizzled) == (required, False)
    below = cast("trial", [6] * (required - 1) + [5], [10], magic=magic)
    assert (below.power.net, below.fizzled) == (required - 1, True)
    assert below.special_effects == 0
    assert "fizzles" in english(below.lines()[-1])


def test_the_data_file_spells():
    spells = MAGIC.spells
    assert spells["stunner"].name == "Stupefy" and spells["stunner"].kind == "attack"
    assert spells["incendio"].fire and spells["incendio"].damage_type == "lethal"
    assert spells["sectumsempra"].level == "Sixth Year" and spells["sectumsempra"].required == 3
    assert spells["cruciatus"].required == 5 and spells["cruciatus"].damage_type == "aggravated"
    assert spells["killing-curse"].required == 5
    assert spells["protego"].kind == "shield" and spells["protego-maxima"].required == 4
    assert spells["lumos"].kind == "other" and spells["lumos"].damage_type == ""
    assert not spells["reducto"].fire


@pytest.mark.parametrize(("typed", "key"), [
    ("stunner", "stunner"), ("Stupefy", "stunner"), ("STUN", "stunner"), ("killing curse", "killing-curse"),
    ("avada kedavra", "killing-curse"), ("protego", "protego"), ("Protego Maxima", "protego-maxima"),
    ("sectum", "sectumsempra"), ("Expelliarmus", "disarming"),
])
def test_spell_lookup(typed, key):
    assert MAGIC.spell(typed).key == key


def test_spell_lookup_refusals_list_the_choices():
    with pytest.raises(CombatError, match="could be: protego, protego-maxima"):
        MAGIC.spell("prot")
    with pytest.raises(CombatError, match="Choose from: .*stunner"):
        MAGIC.spell("frobnicate")


@pytest.mark.parametrize(("field", "value", "message"), [
    ("level", "Eighth Year", "spells.stunner.level: unknown level 'Eighth Year'"),
    ("kind", "hex", "spells.stunner.kind: expected one of attack, shield, other"),
    ("damage_type", "psychic", "spells.stunner.damage_type: expected one of bashing"),
    ("fire", "yes", "spells.stunner.fire"),
])
def test_data_validation_names_the_spell(field, value, message):
    data = spells_data()
    data["spells"]["stunner"][field] = value
    with pytest.raises(RulesDataError, match=message):
        StorytellerMagic(ST, data)


def test_data_validation_missing_values():
    data = spells_data()
    del data["spells"]["lumos"]["name"]
    with pytest.raises(RulesDataError, match="spells.lumos: missing 'name'"):
        StorytellerMagic(ST, data)
    data = spells_data()
    data["spells"]["lumos"]["damage_type"] = "lethal"
    with pytest.raises(RulesDataError, match="spells.lumos.damage_type: only attack spells"):
        StorytellerMagic(ST, data)
    data = spells_data()
    del data["casting"]["power_difficulty"]
    with pytest.raises(RulesDataError, match="casting: missing 'power_difficulty'"):
        StorytellerMagic(ST, data)


def test_attack_damage_type_defaults_to_lethal():
    data = spells_data()
    del data["spells"]["reducto"]["damage_type"]
    assert StorytellerMagic(ST, data).spells["reducto"].damage_type == "lethal"


# =========================================================================== casting


def test_cast_rolls_power_vs_6_then_control_vs_10():
    result = cast("stunner", [6, 5, 2], [10, 9])
    assert (result.power.difficulty, result.control.difficulty) == (6, 10)
    assert result.power.faces == (6, 5, 2) and result.control.faces == (10, 9)
    assert (result.power.net, result.control.net) == (1, 1)
    assert result.fizzled  # Stupefy is Fourth Year: 2 needed
    lines = englished(result.lines())
    assert lines[0] == "Ann casts Stupefy (Fourth Year, needs 2 Power successes)."
    assert lines[1] == "Power: Power 3 dice vs 6: 6 5 2 -> 1 success = 1 success"
    assert lines[2] == "Control: Control 2 dice vs 10: 10 9 -> 1 success = 1 success"
    assert lines[3] == "Stupefy fizzles (1 success of the 2 needed)."


def test_success_at_the_requirement_and_ones_cancel():
    assert not cast("stunner", [6, 7, 2], [10, 10]).fizzled
    cancelled = cast("stunner", [6, 7, 1], [10, 10])
    assert cancelled.power.net == 1 and cancelled.fizzled


def test_a_power_botch_fizzles_but_a_control_botch_only_overshoots():
    botched = cast("lumos", [1, 3], [10])
    assert botched.power.botch and botched.fizzled and not botched.overshoot
    assert english(botched.lines()[-1]) == "Lumos fizzles (the Power roll botched)."
    wild = cast("lumos", [7], [1])
    assert wild.control.botch and not wild.fizzled and wild.overshoot


@pytest.mark.parametrize(("control", "overshoot"), [
    ([10, 10, 3], True), ([10, 10, 10], False), ([10, 10, 10, 10], False), ([1, 10, 10], True)])
def test_overshoot_when_control_is_below_power(control, overshoot):
    result = cast("stunner", [6, 6, 6], control)
    assert result.power.net == 3
    assert result.overshoot is overshoot
    assert ("OVERSHOOT" in english(result.lines()[-1])) is overshoot


def test_a_fizzle_never_overshoots():
    assert not cast("stunner", [6, 2], [2]).overshoot


@pytest.mark.parametrize(("power", "expected"), [(2, 0), (3, 0), (4, 1), (5, 1), (6, 2), (7, 2)])
def test_special_effects_are_pairs_beyond_the_requirement(power, expected):
    result = cast("stunner", [6] * power, [10] * power)
    assert result.special_effects == expected


def test_wounds_shrink_both_casting_pools():
    hurt = fighter(Power=3, Control=2, health={"bashing": 2})  # Hurt: -1
    roller = dice(6, 6, 10)
    result = MAGIC.cast(hurt, "stunner", roller)
    done(roller)
    assert result.power_pool.describe() == "Power 3 - 1 (wounds) = 2"
    assert result.control_pool.size == 1 and not result.fizzled


def test_an_incapacitated_caster_cannot_cast():
    down = fighter(Power=3, Control=2, health={"lethal": 7})
    with pytest.raises(CombatError, match="cannot act"):
        MAGIC.cast(down, "lumos", dice())


# =========================================================================== attacks

ANN = fighter("Ann", Power=3, Control=3, Dexterity=2, Dueling=1)


def attack(spell_cast: CastRoll, hit: list[int], target: Combatant, *, se_to_hit: int = 0,
           modifier: int = 0, caster: Combatant = ANN) -> MagicalAttack:
    roller = dice(*hit)
    result = MAGIC.magical_attack(caster, target, spell_cast, roller, se_to_hit=se_to_hit, modifier=modifier)
    done(roller)
    return result


def resolve(spell_attack: MagicalAttack, faces: list[int], target: Combatant, present=(), *, defense=None,
            caster: Combatant = ANN, shields=None):
    roller = dice(*faces)
    result, left = MAGIC.resolve(spell_attack, defense, caster, target, list(present), roller, shields or {})
    done(roller)
    return result, left


def test_to_hit_is_dexterity_plus_dueling_vs_6():
    bob = fighter("Bob", kind="Muggle")
    spell = cast("reducto", [6, 6, 2], [10, 10, 10], caster=ANN)
    result = attack(spell, [6, 2, 3], bob)
    assert result.pool.describe() == "Dexterity 2 + Dueling 1 = 3"
    assert result.roll.difficulty == 6 and result.roll.net == 1 and result.needs_defense
    assert result.label == "Reducto" and result.se_to_damage == 0
    assert english(result.describe()) == "Reducto to hit: Dexterity 2 + Dueling 1 = 3 dice vs 6: 6 3 2 -> 1 success = 1 success"
    assert attack(spell, [5, 2, 3], bob, modifier=1).roll.difficulty == 7


def test_special_effects_to_hit_add_dice_and_the_rest_go_to_damage():
    bob = fighter("Bob", kind="Muggle")
    ann = fighter("Ann", Power=6, Control=6, Dexterity=2, Dueling=1)
    spell = cast("stunner", [6] * 6, [10] * 6, caster=ann)
    assert spell.special_effects == 2
    result = attack(spell, [6, 2, 3, 4], bob, se_to_hit=1, caster=ann)
    assert result.pool.parts[-1] == ("special effects", 1) and result.pool.size == 4
    assert len(result.roll.faces) == 4 and result.se_to_damage == 1
    # damage: Power 6 + 1 special effect = 7 dice vs 7; Bob (Muggle) soaks bashing: Stamina 0.
    resolution, _ = resolve(result, [7, 7, 2, 2, 2, 2, 2], bob, caster=ann)
    assert resolution.harm[0].pool.describe() == "Power 6 + 1 (special effects) = 7"
    assert resolution.harm[0].levels == 2


@pytest.mark.parametrize("se_to_hit", [-1, 3])
def test_special_effects_to_hit_out_of_range_are_refused(se_to_hit):
    ann = fighter("Ann", Power=6, Control=6, Dexterity=2, Dueling=1)
    spell = cast("stunner", [6] * 6, [10] * 6, caster=ann)
    with pytest.raises(CombatError, match="2 Special Effect successes to spend"):
        MAGIC.magical_attack(ann, fighter("Bob"), spell, dice(), se_to_hit=se_to_hit)


def test_only_a_cast_attack_spell_can_be_aimed():
    bob = fighter("Bob")
    with pytest.raises(CombatError, match="fizzled"):
        MAGIC.magical_attack(ANN, bob, cast("stunner", [6, 2, 2], [10, 2, 2], caster=ANN), dice(), se_to_hit=0)
    with pytest.raises(CombatError, match="not an attack spell"):
        MAGIC.magical_attack(ANN, bob, cast("protego", [6, 6, 2], [10, 10, 2], caster=ANN), dice(), se_to_hit=0)
    with pytest.raises(CombatError, match="cast by Ann, not Bob"):
        MAGIC.magical_attack(bob, ANN, cast("stunner", [6, 6, 2], [10, 10, 2], caster=ANN), dice(), se_to_hit=0)


def test_damage_is_power_vs_7_and_ones_do_not_cancel():
    bob = fighter("Bob", kind="Muggle")
    spell = attack(cast("reducto", [6, 6, 2], [10, 10, 10]), [6, 2, 3], bob)
    resolution, _ = resolve(spell, [7, 1, 1], bob)  # Muggle: cannot soak lethal, no soak dice
    harm = resolution.harm[0]
    assert resolution.hit and resolution.net_successes == 1
    assert harm.damage_roll.difficulty == 7 and harm.damage_roll.net == 1 and not harm.damage_roll.ones_cancel
    assert (harm.name, harm.levels, harm.damage_type, harm.soak_roll) == ("Bob", 1, "lethal", None)
    assert harm.health_after.lethal == 1
    assert "damage: Power 3 dice vs 7: 7 1 1 -> 1 success = 1 success lethal" in englished(resolution.lines)
    assert "Bob cannot soak lethal damage (Muggle)." in englished(resolution.lines)


@pytest.mark.parametrize(("spell_key", "kind", "soak_faces", "levels"), [
    ("reducto", "Wizard", [5, 2], 2),       # Wizards soak lethal: 1 of 3 soaked
    ("reducto", "Muggle", [], 3),           # Muggles soak bashing only
    ("stunner", "Muggle", [5, 5], 1),       # ... which they do
    ("incendio", "Vampire", [5, 2], 2),     # lethal fire: a Vampire soaks it (only Agg fire not)
    ("fiendfyre", "Vampire", [], 3),        # aggravated fire: "except for Fire"
    ("reducto", "Vampire", [5, 2], 2),      # not fire: the Vampire soaks
    ("killing-curse", "Wizard", [], 3),     # aggravated: a Wizard cannot soak it
])
def test_soak_by_kind(spell_key, kind, soak_faces, levels):
    ann = fighter("Ann", Power=5, Control=5, Dexterity=2, Dueling=1)
    victim = fighter("Cy", kind=kind, Stamina=2)
    required = MAGIC.spells[spell_key].required
    spell_cast = cast(spell_key, [6] * required + [2] * (5 - required), [10] * 5, caster=ann)
    assert spell_cast.special_effects == 0 and not spell_cast.overshoot and not spell_cast.fizzled
    spell = attack(spell_cast, [6, 2, 3], victim, caster=ann)
    resolution, _ = resolve(spell, [7, 8, 9, 2, 2, *soak_faces], victim, [ann, victim], caster=ann)
    (harm,) = resolution.harm
    assert harm.levels == levels
    assert (harm.soak_roll is not None) == bool(soak_faces)
    if soak_faces:
        assert harm.soak_roll.difficulty == 5
    if spell_key == "fiendfyre":
        assert "Cy cannot soak fire aggravated damage (Vampire)." in englished(resolution.lines)


def test_a_dodge_cancels_hit_successes():
    bob = fighter("Bob", kind="Muggle", Dexterity=2, Dodge=1)
    spell = attack(cast("reducto", [6, 6, 2], [10, 10, 10]), [6, 7, 3], bob)
    roller = dice(8, 9, 3)
    defense = ST.defend(spell, bob, "dodge", roller)
    done(roller)
    resolution, _ = resolve(spell, [], bob, [ANN, bob], defense=defense)  # no damage dice
    assert not resolution.hit and resolution.harm == ()
    assert "Bob's 2 successes cancel 2 of 2: 0 successes left." in englished(resolution.lines)
    assert english(resolution.lines[-1]) == "Ann's Reducto misses Bob."
    roller = dice(8, 2, 3)
    partial = ST.defend(spell, bob, "dodge", roller)
    done(roller)
    resolution, _ = resolve(spell, [7, 2, 2], bob, [ANN, bob], defense=partial)
    assert resolution.hit and resolution.net_successes == 1 and resolution.harm[0].levels == 1


def test_a_block_needs_soak_against_the_spell_damage_type():
    bob = fighter("Bob", kind="Muggle", Dexterity=2, Brawl=1)
    spell = attack(cast("reducto", [6, 6, 2], [10, 10, 10]), [6, 7, 3], bob)
    with pytest.raises(CombatError, match="cannot block lethal"):
        ST.defend(spell, bob, "block", dice())


# =========================================================================== overshoot

WILD = fighter("Ann", Power=7, Control=7, Dexterity=2, Dueling=1)


def wild_reducto() -> CastRoll:
    """Reducto (2 needed) with 7 Power successes: 2 Special Effect successes; Control 1: Overshoot."""
    result = cast("reducto", [6] * 7, [10] + [2] * 6, caster=WILD)
    assert result.overshoot and result.special_effects == 2
    return result


def test_overshoot_on_a_hit_strikes_two_more_at_random_and_splits_the_damage():
    bob, di, ed = (fighter(n, kind="Muggle") for n in ("Bob", "Di", "Ed"))
    cy = fighter("Cy", kind="Wizard", Stamina=1)
    spell = attack(wild_reducto(), [6, 2, 3], bob, caster=WILD)
    assert spell.se_to_damage == 2
    # d3 over [Cy, Di, Ed] -> 3 = Ed; d2 over [Cy, Di] -> 1 = Cy; damage 7 + 2 = 9 dice vs 7
    # -> 7 levels, 7 // 3 = 2 each, 1 lost; only Cy (Wizard, Stamina 1) soaks: 5 -> 1 soaked.
    resolution, _ = resolve(spell, [3, 1, 7, 7, 7, 7, 7, 7, 7, 2, 1, 5], bob, [WILD, bob, cy, di, ed],
                            caster=WILD)
    assert resolution.hit
    assert [(h.name, h.levels) for h in resolution.harm] == [("Bob", 2), ("Ed", 2), ("Cy", 1)]
    assert all(h.damage_roll.net == 7 for h in resolution.harm)
    assert "split 7 levels among 3 targets: 7 // 3 = 2 each, 1 dissipating." in englished(resolution.lines)
    assert ("Ann's Reducto hits Bob and OVERSHOOTS: it also strikes Ed, Cy (drawn from Cy, Di, Ed)."
            in englished(resolution.lines))
    assert "Cy's share: 2 levels lethal" in englished(resolution.lines)


def test_overshoot_on_a_miss_strikes_three_at_random_the_target_among_the_candidates():
    bob, cy, di, ed = (fighter(n, kind="Muggle") for n in ("Bob", "Cy", "Di", "Ed"))
    spell = attack(wild_reducto(), [2, 3, 4], bob, caster=WILD)
    assert not spell.needs_defense
    # d4 over [Bob, Cy, Di, Ed] -> 2 = Cy; d3 over [Bob, Di, Ed] -> 1 = Bob; d2 over [Di, Ed] -> 2 = Ed;
    # damage 9 dice -> 5 levels: 1 each, 2 dissipate.
    resolution, _ = resolve(spell, [2, 1, 2, 8, 8, 8, 8, 8, 2, 2, 2, 2], bob, [WILD, bob, cy, di, ed],
                            caster=WILD)
    assert not resolution.hit and resolution.net_successes == 0
    assert [(h.name, h.levels) for h in resolution.harm] == [("Cy", 1), ("Bob", 1), ("Ed", 1)]
    assert "split 5 levels among 3 targets: 5 // 3 = 1 each, 2 dissipating." in englished(resolution.lines)


def test_overshoot_with_too_few_candidates_takes_them_all_without_a_die():
    bob, cy = fighter("Bob", kind="Muggle"), fighter("Cy", kind="Muggle")
    spell = attack(wild_reducto(), [6, 2, 3], bob, caster=WILD)
    # hit: one candidate (Cy), no die; 7 levels over 2 = 3 each, 1 lost.
    resolution, _ = resolve(spell, [7, 7, 7, 7, 7, 7, 7, 2, 2], bob, [WILD, bob, cy], caster=WILD)
    assert [(h.name, h.levels) for h in resolution.harm] == [("Bob", 3), ("Cy", 3)]
    assert "split 7 levels among 2 targets: 7 // 2 = 3 each, 1 dissipating." in englished(resolution.lines)
    # miss with only the target about: it takes everything (no split), no die to choose it.
    missed = attack(wild_reducto(), [2, 2, 2], bob, caster=WILD)
    resolution, _ = resolve(missed, [7, 7, 7, 7, 2, 2, 2, 2, 2], bob, [WILD, bob], caster=WILD)
    assert [(h.name, h.levels) for h in resolution.harm] == [("Bob", 4)]
    assert not any(line.startswith("split") for line in englished(resolution.lines))
    # a miss with nobody but the caster about: nothing happens, no dice.
    resolution, _ = resolve(missed, [], WILD, [WILD], caster=WILD)
    assert resolution.harm == ()


# =========================================================================== shields


def shield_cast(power: list[int], control: list[int], caster: str = "Di") -> CastRoll:
    return cast("protego", power, control, caster=fighter(caster, Power=len(power), Control=len(control)))


def test_a_shield_blocks_one_magical_attack_then_is_gone():
    di = fighter("Di", kind="Muggle")
    shield = MAGIC.raise_shield(shield_cast([6, 6], [10, 10]), [])
    assert shield == Shield("Di", "Protego", 1, ("Di",), False)
    spell = attack(cast("reducto", [6, 6, 2], [10, 10, 10]), [6, 2, 3], di)
    resolution, left = resolve(spell, [], di, [ANN, di], shields={"Di": shield})  # no damage dice
    assert resolution.hit and resolution.harm == ()
    assert "Di's Protego blocks the Reducto for Di." in englished(resolution.lines)
    assert "Di's Protego is spent and dissipates." in englished(resolution.lines)
    assert left == {}
    resolution, left = resolve(spell, [7, 2, 2], di, [ANN, di], shields=left)
    assert resolution.harm[0].levels == 1 and left == {}


def test_a_miss_does_not_spend_the_shield():
    di = fighter("Di", kind="Muggle")
    shield = MAGIC.raise_shield(shield_cast([6, 6], [10, 10]), [])
    spell = attack(cast("reducto", [6, 6, 2], [10, 10, 10]), [5, 2, 3], di)
    _, left = resolve(spell, [], di, [ANN, di], shields={"Di": shield})
    assert left == {"Di": shield}


def test_one_shield_spends_one_block_per_attack_for_everyone_it_protects():
    bob, di, ed = fighter("Bob", kind="Muggle"), fighter("Di", kind="Muggle"), fighter("Ed", kind="Muggle")
    shield = MAGIC.raise_shield(shield_cast([6, 6, 6, 6], [10] * 4), ["Ed"])  # 1 SE: Ed
    assert shield.protected == ("Di", "Ed") and shield.blocks == 1
    two = Shield("Di", "Protego", 2, ("Di", "Ed"), False)
    spell = attack(wild_reducto(), [6, 2, 3], bob, caster=WILD)
    # d2 over [Di, Ed] -> 1 = Di, then Ed; 6 levels over 3 = 2 each; Di and Ed are shielded.
    faces = [1, 7, 7, 7, 7, 7, 7, 2, 2, 2]
    resolution, left = resolve(spell, faces, bob, [WILD, bob, di, ed], caster=WILD,
                               shields={"Di": shield, "Ed": shield})
    assert [(h.name, h.levels) for h in resolution.harm] == [("Bob", 2)]
    assert left == {}
    _, left = resolve(spell, list(faces), bob, [WILD, bob, di, ed], caster=WILD, shields={"Di": two, "Ed": two})
    one_left = Shield("Di", "Protego", 1, ("Di", "Ed"), False)
    assert left == {"Di": one_left, "Ed": one_left}


@pytest.mark.parametrize(("protected", "blocks", "who"), [
    ([], 3, ("Di",)), (["Bob"], 2, ("Di", "Bob")), (["Bob", "Cy"], 1, ("Di", "Bob", "Cy")),
    (["Di", "Bob"], 2, ("Di", "Bob")), (["Bob", "Bob"], 2, ("Di", "Bob")),
])
def test_special_effects_pay_for_extra_people_first_then_extra_blocks(protected, blocks, who):
    spell_cast = shield_cast([6] * 6, [10] * 6)
    assert spell_cast.special_effects == 2
    shield = MAGIC.raise_shield(spell_cast, protected)
    assert (shield.blocks, shield.protected, shield.overshot) == (blocks, who, False)


def test_too_few_special_effects_for_the_people_named_is_refused():
    with pytest.raises(CombatError, match="needs 3 Special Effect successes; you have 2"):
        MAGIC.raise_shield(shield_cast([6] * 6, [10] * 6), ["Bob", "Cy", "Ed"])


def test_only_a_cast_shield_spell_raises_a_shield():
    with pytest.raises(CombatError, match="fizzled"):
        MAGIC.raise_shield(shield_cast([6, 2], [10, 10]), [])
    with pytest.raises(CombatError, match="not a shield spell"):
        MAGIC.raise_shield(cast("reducto", [6, 6], [10, 10]), [])


def test_an_overshot_shield_zaps_whoever_touches_it():
    shield = MAGIC.raise_shield(shield_cast([6, 6], [10, 2]), [])
    assert shield.overshot
    wizard = fighter("Di", kind="Wizard", Stamina=1)
    roller = dice(5)  # the caster too: Stamina 1 vs 5, one success soaks the level
    harm, lines = MAGIC.shield_zap(wizard, shield, roller)
    done(roller)
    assert (harm.damage_type, harm.levels, harm.soak_roll.net) == ("lethal", 0, 1)
    assert english(lines[0]) == "Di's Protego zaps Di!"
    muggle = fighter("Bob", kind="Muggle", Stamina=3)
    harm, lines = MAGIC.shield_zap(muggle, shield, dice())  # a Muggle cannot soak lethal: no dice
    assert (harm.levels, harm.soak_roll, harm.health_after.lethal) == (1, None, 1)
    assert MAGIC.shield_zap(muggle, MAGIC.raise_shield(shield_cast([6, 6], [10, 10]), []), dice()) is None


# =========================================================================== records


def test_records_round_trip_through_json():
    spell_cast = wild_reducto()
    assert MAGIC.cast_from_record(json.loads(json.dumps(spell_cast.to_record()))) == spell_cast
    spell = attack(spell_cast, [6, 2, 3, 9], fighter("Bob"), se_to_hit=1, caster=WILD)
    record = json.loads(json.dumps(spell.to_record()))
    assert record["magic"] is True and record["option"] == "reducto"
    assert MAGIC.attack_from_record(record) == spell
    shield = Shield("Di", "Protego", 2, ("Di", "Ed"), True)
    assert Shield.from_record(json.loads(json.dumps(shield.to_record()))) == shield
    with pytest.raises(CombatError, match="no longer known"):
        MAGIC.cast_from_record({**spell_cast.to_record(), "spell": "gone"})


def test_contact_touches_the_other_ones_and_ones_own_overshot_shield():
    """Seed, Magical Shield: "anyone who touches it (even the caster)"."""
    overshot = MAGIC.raise_shield(shield_cast([6, 6], [10, 2]), [])        # Di's, overshot
    calm = MAGIC.raise_shield(shield_cast([6, 6], [10, 10]), [])
    shields = {"Di": overshot, "Bob": calm}
    assert MAGIC.shields_touched("Ann", "Di", shields) == [overshot]       # attacking Di
    assert MAGIC.shields_touched("Di", "Ann", shields) == [overshot]       # Di reaching out
    assert MAGIC.shields_touched("Di", "Bob", shields) == [overshot]       # Bob's did not overshoot
    assert MAGIC.shields_touched("Di", "Di2", {"Di": overshot, "Di2": overshot}) == [overshot]
    assert MAGIC.shields_touched("Ann", "Bob", shields) == []


@pytest.mark.parametrize(("spell", "power", "control", "text"), [
    ("lumos", [1, 3], [10], "Lumos fizzles (the Power roll botched)."),
    ("stunner", [6, 6, 6], [10, 10, 3],
     "Stupefy is cast with an OVERSHOOT (Control 2 < Power 3): 0 Special Effect successes."),
    ("stunner", [6, 6, 6], [10, 10, 10], "Stupefy is cast: 0 Special Effect successes."),
    ("lumos", [7, 7, 7], [10, 10, 10], "Lumos is cast: 1 Special Effect success."),
])
def test_a_casts_verdict_is_its_last_line_of_working(spell, power, control, text):
    result = cast(spell, power, control)
    assert len(result.lines()) == 4
    assert english(result.lines()[-1]) == text


@pytest.mark.parametrize("overshot", [False, True])
def test_a_shield_line_reads_its_blocks_and_protected(overshot):
    shield = Shield(caster="Di", spell="Protego", blocks=2, protected=("Di", "Bob"), overshot=overshot)
    assert english(shield.line()) == (
        "Di's Protego: blocks 2 more attacks, protects Di, Bob"
        + (", crackling (Overshoot: touching it zaps)." if overshot else "."))
    assert english(replace(shield, blocks=1).line()).startswith("Di's Protego: blocks 1 more attack, ")
