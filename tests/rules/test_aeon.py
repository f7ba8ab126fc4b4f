"""Tests for the ``aeon`` rule system (pure Python, no DB).

The numbers and worked examples of the aeon seed and ``docs/rules/aeon.md``
are pinned here with forced dice: each test queues exactly the faces it expects to be rolled, the
fallback roller fails the test if one more die is asked for, and ``done()`` checks that none
were left over.
"""

from __future__ import annotations

import copy
import re
from dataclasses import replace

import pytest

from rules.data import RulesDataError, load_system_data
from rules.dice import DiceSyntaxError, parse_pool
from rules.systems import system_keys
from rules.systems.aeon.system import AeonAttack, AeonHealth, AeonSystem, bleed
from rules.systems.base import Combatant, CombatError, InitiativeRoll, Pool, Verdict
from tests.rules.forced_dice import dice, done
from tests.rules.wording import english, englished

AE = AeonSystem()


def fighter(name: str = "Ann", kind: str = "Baseline", weapon: str = "", health=None,
            armor=None, **traits: int) -> Combatant:
    return Combatant(name=name, traits=traits, kind=kind, weapon=weapon, health=health or {},
                     armor=armor or {})


def check(text: str, actor: Combatant | None = None, *faces: int, willpower: bool = False,
          modifier: int = 0):
    roller = dice(*faces)
    result = AE.roll_check(parse_pool(text, AE.trait_names), actor or fighter(), roller,
                           willpower=willpower, modifier=modifier)
    done(roller)
    return result


def wounds(bashing: int = 0, lethal: int = 0, aggravated: int = 0) -> dict:
    return {"bashing": bashing, "lethal": lethal, "aggravated": aggravated}


# ========================================================================== loading


def test_loads_from_data_and_is_not_registered_yet():
    assert AE.key == "aeon"
    assert AE.target_number == 7 and AE.default_difficulty == 1
    assert "aeon" in system_keys()


@pytest.mark.parametrize(("path", "value", "message"), [
    (("dice", "target_number"), 11, "target numbers"),
    (("dice", "min_difficulty"), 0, "min_difficulty"),
    (("bleeding", "interval_rounds"), 0, "interval_rounds"),
    (("default_kind",), "Nova", "default_kind"),
    (("weapons", "punch", "damage_type"), "fire", "weapons.punch.damage_type"),
    (("kinds", "Zeta", "soak", "aggravated"), {"trait": "Stamina", "divide": 1}, "kinds.Zeta.soak"),
    (("armor", "hardsuit", "fire"), 1, "armor.hardsuit"),
])
def test_data_is_validated(path, value, message):
    data = copy.deepcopy(load_system_data("aeon"))
    table = data
    for key in path[:-1]:
        table = table[key]
    table[path[-1]] = value
    with pytest.raises(RulesDataError, match=message):
        AeonSystem(data)


def test_missing_key_is_a_clear_error():
    data = copy.deepcopy(load_system_data("aeon"))
    del data["dice"]["target_number"]
    with pytest.raises(RulesDataError, match="dice: missing 'target_number'"):
        AeonSystem(data)


def test_target_number_comes_from_data():
    data = copy.deepcopy(load_system_data("aeon"))
    data["dice"]["target_number"] = 8
    system = AeonSystem(data)
    roller = dice(7, 8)
    result = system.roll_check(parse_pool("2", system.trait_names), fighter(), roller)
    done(roller)
    assert result.summary == Verdict("success", 1) and result.record["target_number"] == 8


# ============================================================================= dice


@pytest.mark.parametrize(("text", "faces", "summary"), [
    ("3", (7, 6, 2), Verdict("success", 1)),             # 7 succeeds, 6 does not
    ("3", (10, 9, 8), Verdict("success", 3)),
    ("3", (6, 5, 2), Verdict("failure")),
    ("3", (7, 1, 1), Verdict("success", 1)),             # 1s never cancel
    ("3", (6, 1, 3), Verdict("botch")),                 # no success and a 1
    ("3", (1, 1, 1), Verdict("botch")),
    ("3 vs 2", (7, 8, 1), Verdict("success", 2)),      # difficulty = successes needed
    ("3 vs 2", (7, 6, 1), Verdict("failure")),          # one success of two: failure, not botch
    ("3 vs 3", (7, 8, 9), Verdict("success", 3)),
])
def test_pool_at_tn7_successes_needed_and_botch(text, faces, summary):
    result = check(text, None, *faces)
    assert result.summary == summary
    assert result.record["faces"] == list(faces)
    assert result.record["result"] == summary.to_record()
    assert len(result.lines) == 1


def test_default_difficulty_is_one_success():
    result = check("Dexterity + Athletics", fighter(Dexterity=2, Athletics=1), 7, 3, 2)
    assert result.record["difficulty"] == 1
    assert tuple(englished(result.lines)) == ("Dexterity 2 + Athletics 1 = 3 dice TN 7, needs 1: 7 3 2 -> 1 success = success",)


def test_traits_numbers_and_d10_notation_sum_into_one_pool():
    result = check("Dex + 2d10 - 1 vs 2", fighter(Dexterity=3), 7, 7, 1, 2)
    assert result.record["pool"] == [["Dexterity", 3], ["", 2], ["", -1]]
    assert result.summary == Verdict("success", 2)


@pytest.mark.parametrize(("text", "message"), [
    ("3 vs 0", "Difficulty is the successes needed: 1 to 10, not 0."),
    ("3 vs 11", "Difficulty is the successes needed: 1 to 10, not 11."),
    ("Dex - 4", "The pool comes to -3 dice: it cannot be negative."),
    ("2d6", "Aeon pools are d10s: '2d6' is not."),
    ("60 + 41", "Too many dice: at most 100."),
])
def test_refused_rolls_are_one_line(text, message):
    with pytest.raises(DiceSyntaxError) as err:
        AE.roll_check(parse_pool(text, AE.trait_names), fighter(Dexterity=1), dice())
    assert str(err.value) == message
    assert "\n" not in str(err.value)
    assert err.value.line is not None   # a line of the catalogue, worded by the game


def test_zero_pool_rolls_nothing_and_fails():
    result = check("0", None)
    assert result.summary == Verdict("failure")
    assert "no dice (empty pool)" in tuple(englished(result.lines))[0]


def test_wound_penalty_applies_to_checks_and_may_empty_the_pool():
    hurt = fighter(health=wounds(bashing=2), Dexterity=2)   # Hurt: -1
    result = check("Dex", hurt, 7)
    assert result.record["pool"] == [["Dexterity", 2], ["wounds", -1]]
    crippled = fighter(health=wounds(bashing=6), Dexterity=3)  # Crippled: -5
    assert check("Dex", crippled).summary == Verdict("failure")


def test_modifier_and_willpower():
    result = check("2", None, 6, 5, 4, modifier=1, willpower=True)
    assert result.record["pool"] == [["", 2], ["modifier", 1]]
    assert result.summary == Verdict("success", 1)  # no die succeeded; Willpower's automatic success
    assert "+ 1 (willpower)" in tuple(englished(result.lines))[0]


def test_the_dead_roll_no_dice():
    with pytest.raises(CombatError, match="dead"):
        check("2", fighter(health=wounds(lethal=7)))


# ======================================================================= initiative


def test_initiative_is_dex_plus_wits_plus_1d10():
    roller = dice(6)
    roll = AE.roll_initiative(fighter(Dexterity=3, Wits=2), roller)
    done(roller)
    assert (roll.total, roll.die, roll.tiebreak) == (11, 6, 5)
    assert roll.describe() == "Dexterity 3 + Wits 2 = 5 + 1d10 (6) = 11"


def test_initiative_carries_the_wound_penalty():
    roller = dice(4)
    roll = AE.roll_initiative(fighter(health=wounds(lethal=4), Dexterity=3, Wits=2), roller)
    assert roll.total == 3 + 2 - 2 + 4 and roll.tiebreak == 5


def test_knocked_out_cannot_roll_initiative():
    with pytest.raises(CombatError, match="knocked out"):
        AE.roll_initiative(fighter(health=wounds(bashing=7)), dice())


def _init(name: str, total: int, tiebreak: int) -> InitiativeRoll:
    return InitiativeRoll(name, Pool((("", tiebreak),)), total - tiebreak, total, tiebreak)


def test_schedule_highest_first_ties_on_dex_wits_then_together():
    rolls = [_init("cid", 12, 4), _init("Bea", 12, 6), _init("amy", 12, 4), _init("Dan", 15, 3)]
    schedule = AE.schedule(rolls)
    assert [(s.at, s.names) for s in schedule.slots] == [
        (15, ("Dan",)), (12, ("Bea",)), (12, ("amy", "cid"))]
    assert AE.schedule(list(reversed(rolls))) == schedule


# =========================================================================== health


def test_chart_is_data():
    health = AE.health({})
    assert [(lvl.name, lvl.penalty) for lvl in health.levels] == [
        ("Bruised", 0), ("Hurt", -1), ("Injured", -1), ("Wounded", -2), ("Mauled", -2),
        ("Crippled", -5), ("Incapacitated", -5)]
    assert health.describe() == "Healthy [.......]"
    assert health.meter == (7, 7)


def test_the_fifth_level_has_the_storytellers_name_and_maimed_is_only_pulling_blows():
    """One level, one word in both d10 systems (Mauled -2), and "maimed" is
    left to the aeon seed's own meaning, Pulling Blows' maiming wound (a condition mark)."""
    from rules.systems import get_system

    storyteller = [(lvl.name, lvl.penalty) for lvl in get_system("storyteller").health({}).levels]
    assert [(lvl.name, lvl.penalty) for lvl in AE.health({}).levels] == storyteller
    assert ("Mauled", -2) in storyteller
    assert AE.condition_marks({"maimed": True}) == ("maimed",)
    assert "maimed" not in {lvl.name.casefold() for lvl in AE.health({}).levels}


def test_worked_example_three_bashing_then_four_lethal():
    """Seed: 3 bashing then 4 lethal → boxes 1-4 lethal, 5-7 bashing."""
    health = AE.health({}).with_damage(3, "bashing").with_damage(4, "lethal")
    assert health.boxes == "LLLLBBB"
    assert health.knocked_out and not health.dead


@pytest.mark.parametrize("order", [
    (("bashing", 1), ("lethal", 1), ("aggravated", 1)),
    (("aggravated", 1), ("bashing", 1), ("lethal", 1)),
    (("lethal", 1), ("aggravated", 1), ("bashing", 1)),
])
def test_aggravated_above_lethal_above_bashing_whatever_the_order(order):
    health = AE.health({})
    for kind, amount in order:
        health = health.with_damage(amount, kind)
    assert health.boxes == "ALB...."
    assert health.describe() == "Injured (-1) [ALB....]"


def test_bashing_to_incapacitated_knocks_out():
    health = AE.health({}).with_damage(7, "bashing")
    assert health.knocked_out and health.incapacitated and not health.dead
    assert health.describe() == "Incapacitated (knocked out) [BBBBBBB]"


def test_further_bashing_converts_the_highest_bashing_to_lethal_until_death():
    health = AE.health({}).with_damage(7, "bashing").with_damage(1, "bashing")
    assert health.boxes == "LBBBBBB"
    health = health.with_damage(5, "bashing")
    assert health.boxes == "LLLLLLB" and health.knocked_out
    health = health.with_damage(1, "bashing")
    assert health.boxes == "LLLLLLL" and health.dead
    assert health.describe() == "Dead [LLLLLLL]"
    assert health.with_damage(3, "bashing") == health


def test_lethal_to_incapacitated_is_death():
    health = AE.health({}).with_damage(6, "lethal")
    assert health.describe() == "Crippled (-5) [LLLLLL.]" and not health.incapacitated
    health = health.with_damage(1, "lethal")
    assert health.dead and health.level_name == "Dead"


def test_after_knockout_lethal_goes_on_top_and_the_pushed_bashing_rolls_over():
    """Once knocked out by bashing, a lethal level goes on top, pushes a bashing wound off the
    bottom, and that wound rolls over: the highest bashing wound turns lethal."""
    health = AE.health({}).with_damage(7, "bashing").with_damage(1, "lethal")
    assert health.boxes == "LLBBBBB"
    assert (health.bashing, health.lethal) == (5, 2)
    health = health.with_damage(2, "lethal")
    assert health.boxes == "LLLLLLB" and health.knocked_out
    health = health.with_damage(1, "lethal")  # pushes the last bashing off: nothing to roll over
    assert health.boxes == "LLLLLLL" and health.dead


def test_after_knockout_aggravated_goes_on_top_too():
    health = AE.health({}).with_damage(7, "bashing").with_damage(1, "aggravated")
    assert health.boxes == "ALBBBBB"


def test_penalty_is_the_worst_filled_level():
    assert [AE.health(wounds(bashing=n)).penalty for n in range(7)] == [0, 0, -1, -1, -2, -2, -5]


def test_extra_levels_from_the_trait_and_the_record():
    actor = fighter(**{"Extra Health": 2})
    health = AE.health({}, actor)
    assert [lvl.name for lvl in health.levels] == [
        "Bruised", "Hurt", "Hurt", "Hurt", "Injured", "Wounded", "Mauled", "Crippled", "Incapacitated"]
    assert health.meter == (9, 9)
    assert AE.health(health.with_damage(8, "bashing").to_record()).boxes == "BBBBBBBB."
    assert not health.with_damage(7, "lethal").incapacitated


def test_health_record_round_trips():
    health = AE.health({}).with_damage(2, "bashing").with_damage(1, "aggravated")
    assert AE.health(health.to_record()) == health


def test_staff_damage_and_heal():
    actor = fighter(health=wounds(bashing=2, lethal=1))
    assert AE.damage(actor, 1, "agg").boxes == "ALBB..."
    assert AE.heal(actor, 1, None).boxes == "LB....."        # least serious first
    assert AE.heal(actor, 1, "lethal").boxes == "BB....."
    assert AE.heal(actor, None, None).boxes == "......."
    dead = fighter(health=wounds(lethal=7))
    with pytest.raises(CombatError, match="already dead"):
        AE.damage(dead, 1, "lethal")
    with pytest.raises(CombatError, match="=all"):
        AE.heal(dead, 1, None)
    assert not AE.heal(dead, None, None).dead
    with pytest.raises(CombatError, match="Damage type"):
        AE.damage_type("fire")


def test_aggravated_damage_is_hard_to_heal():
    # seed (Damage Types): aggravated damage "is particularly hard to heal": healing
    # everything leaves it, naming it heals it; raising the dead clears the whole chart
    actor = fighter(health=wounds(bashing=1, lethal=2, aggravated=2))
    assert AE.heal(actor, None, None).boxes == "AA....."
    assert AE.heal(actor, 1, "aggravated").boxes == "ALLB..."
    assert AE.heal(fighter(health=wounds(aggravated=7)), None, None).boxes == "......."
    data = copy.deepcopy(load_system_data("aeon"))
    data["healing"]["all_heals_aggravated"] = True
    assert AeonSystem(data).heal(actor, None, None).boxes == "......."
    data["healing"]["all_heals_aggravated"] = "yes"
    with pytest.raises(RulesDataError, match="all_heals_aggravated"):
        AeonSystem(data)


# ============================================================================= soak


def test_baseline_soaks_bashing_only():
    soak = AE.soaks(fighter(Stamina=3))
    assert [(t, s.total, s.hardness) for t, s in soak.items()] == [
        ("bashing", 3, 1), ("lethal", 0, 0), ("aggravated", 0, 0)]


def test_unknown_kind_counts_as_baseline():
    assert AE.soaks(fighter(kind="Muggle", Stamina=3))["lethal"].total == 0


def test_zeta_soaks_half_stamina_lethal_rounded_down():
    soak = AE.soaks(fighter(kind="Zeta", Stamina=5))
    assert (soak["bashing"].total, soak["lethal"].total, soak["aggravated"].total) == (5, 2, 1)
    assert english(soak["lethal"].describe()) == "lethal soak Stamina/2 2, hardness 1"


def test_lethal_sources_are_summed_before_halving_for_aggravated():
    # Zeta Stamina 3: lethal 1 (alone: 0 aggravated); + armor lethal 1 = 2 → aggravated 1.
    soak = AE.soaks(fighter(kind="Zeta", Stamina=3, armor={"bashing": 3, "lethal": 1}))
    assert (soak["bashing"].total, soak["lethal"].total, soak["aggravated"].total) == (6, 2, 1)
    assert (soak["bashing"].hardness, soak["lethal"].hardness) == (3, 1)


def test_armor_with_its_own_aggravated_value():
    soak = AE.soaks(fighter(kind="Zeta", Stamina=4, armor={"lethal": 3, "aggravated": 3}))
    # lethal 2 + 3 = 5; aggravated = floor(2 / 2) from the natural source + 3 of the armor's own.
    assert (soak["lethal"].total, soak["aggravated"].total) == (5, 4)


def test_armor_table_is_data():
    assert AE.armor_columns == ("bashing", "lethal", "aggravated")
    assert AE.armor_table["flak-jacket"] == {"name": "Flak Jacket", "soak": {"bashing": 3, "lethal": 2}}


# =========================================================== damage: hardness and soak

# A Baseline with Stamina 6: bashing soak 6, hardness 3.
TOUGH = fighter("Tuff", Stamina=6)


@pytest.mark.parametrize(("gross", "faces", "levels"), [
    (2, (), 0),            # hardness - 1: ignored, no roll
    (3, (7,), 1),          # hardness: not below it, rolls (minimum 1 die)
    (4, (7,), 1),          # hardness + 1
    (5, (6,), 0),          # soak - 1: 1 die
    (6, (7,), 1),          # soak: 1 die
    (7, (7,), 1),          # soak + 1: gross - soak = 1 die
    (8, (7, 8), 2),        # soak + 2: 2 dice
])
def test_hardness_and_soak_boundaries(gross, faces, levels):
    roller = dice(*faces)
    harm, lines = AE.harm(TOUGH, gross, "bashing", roller)
    done(roller)
    assert harm.levels == levels
    if not faces:
        assert harm.damage_roll is None
        assert english(lines[-1]) == f"gross damage {gross} is below hardness 3: no effect."
    else:
        assert len(harm.damage_roll.faces) == len(faces)
        assert harm.damage_roll.target_number == 7 and not harm.damage_roll.botch


def test_damage_roll_line_shows_the_arithmetic():
    roller = dice(9, 1)
    harm, lines = AE.harm(TOUGH, 8, "bashing", roller)
    assert englished(lines) == ["Tuff's bashing soak Stamina 6, hardness 3",
                     "damage: gross 8 - soak 6 -> 2 dice TN 7: 9 1 -> 1 success",
                     "Tuff takes 1 level of bashing: Bruised (0) [B......]"]
    assert harm.health_after.boxes == "B......"


def test_no_soak_means_no_hardness():
    roller = dice(7, 7, 2)
    harm, _ = AE.harm(fighter(Stamina=4), 3, "lethal", roller)  # Baseline: no lethal soak
    assert harm.levels == 2


def test_armor_piercing_reduces_soak_and_recomputes_hardness():
    # Soak 6 / hardness 3; gross 2 is ignored without AP; with AP 3: soak 3, hardness 1.
    roller = dice(7)
    harm, lines = AE.harm(TOUGH, 2, "bashing", roller, armor_piercing=3)
    done(roller)
    assert (harm.soak.total, harm.soak.hardness, harm.levels) == (3, 1, 1)
    assert english(lines[0]) == "Tuff's bashing soak Stamina 6 - 3 (armor piercing) = 3, hardness 1"
    assert AE.harm(TOUGH, 2, "bashing", dice())[0].damage_roll is None


@pytest.mark.parametrize(("bonus", "hardness"), [(0, 3), (2, 5), (3, 6), (5, 6)])
def test_effects_add_to_hardness_never_above_the_soak(bonus, hardness):
    # Soak 6, natural hardness 3; the Hardness trait adds, capped at the soak (6).
    soak = AE.soaks(fighter("Tuff", Stamina=6, Hardness=bonus))["bashing"]
    assert (soak.total, soak.hardness) == (6, hardness)


def test_added_hardness_turns_a_rolling_attack_away_and_armor_piercing_cuts_it():
    tough = fighter("Tuff", Stamina=6, Hardness=2)  # hardness 5
    harm, lines = AE.harm(tough, 4, "bashing", dice())
    assert harm.damage_roll is None
    assert englished(lines) == ["Tuff's bashing soak Stamina 6, hardness 5 (with +2 from effects)",
                     "gross damage 4 is below hardness 5: no effect."]
    # Armor Piercing 4: soak 2, hardness min(2, 1 + 2) = 2: gross 4 rolls 2 dice.
    roller = dice(7, 7)
    harm, _ = AE.harm(tough, 4, "bashing", roller, armor_piercing=4)
    done(roller)
    assert (harm.soak.total, harm.soak.hardness, harm.levels) == (2, 2, 2)


def test_armor_piercing_never_below_zero_soak():
    soak = AE.soaks(TOUGH)["bashing"].pierce(9)
    assert (soak.total, soak.hardness) == (0, 0)


# ========================================================================== bleeding


def test_a_baseline_past_a_third_lethal_bleeds_one_level_per_interval():
    baseline = fighter()
    two = AE.health(wounds(lethal=2))            # 2 of 7 is not more than a third
    assert bleed(two, baseline, 30) == two
    three = AE.health(wounds(lethal=3))          # 3 of 7 is
    assert bleed(three, baseline, 9) == three
    assert bleed(three, baseline, 10).boxes == "LLLL..."
    assert bleed(three, baseline, 25).boxes == "LLLLL.."
    assert bleed(three, baseline, 10, treated=True) == three


def test_aggravated_counts_towards_bleeding_and_bleeding_can_kill():
    health = AE.health(wounds(aggravated=1, lethal=1, bashing=1))
    assert bleed(health, fighter(), 10) == health   # 2 serious of 7: no
    health = AE.health(wounds(aggravated=2, lethal=4))
    assert bleed(health, fighter(), 100).dead


def test_zetas_never_bleed():
    health = AE.health(wounds(lethal=5))
    assert bleed(health, fighter(kind="Zeta"), 100) == health


def test_bleed_interval_is_data():
    data = copy.deepcopy(load_system_data("aeon"))
    data["bleeding"]["interval_rounds"] = 3
    system = AeonSystem(data)
    health = system.health(wounds(lethal=3))
    assert bleed(health, fighter(), 6, system=system).lethal == 5


# =========================================================================== attacks

ALICE = fighter("Alice", Dexterity=3, Brawl=2, Melee=3, Firearms=2, Strength=3, weapon="sword")
BOB = fighter("Bob", Dexterity=2, Athletics=2, Brawl=1, Melee=2, Wits=2, Stamina=2, weapon="knife")


def attack(option: str, *faces: int, attacker=ALICE, target=BOB, modifier: int = 0):
    """Roll ``option``; the attacker first takes the weapon it names in hand."""
    named = option.split("+")[0].strip()
    if named in AE.weapon_names:
        attacker = replace(attacker, weapon=named)
    roller = dice(*faces)
    rolled = AE.attack(attacker, target, option, roller, modifier=modifier)
    done(roller)
    return rolled


def resolve(rolled, defense, *faces: int, attacker=ALICE, target=BOB):
    roller = dice(*faces)
    result = AE.resolve(rolled, defense, attacker, target, roller)
    done(roller)
    return result


def test_attack_options_are_weapons_and_called_shots():
    assert AE.attack_options() == (
        "punch", "kick", "clinch", "knife", "club", "sword", "spear", "pistol", "ap-pistol",
        "rifle", "pulling-blows", "maiming-blows", "showing-off", "disarm", "fierce-blows")


def test_weapon_in_hand_is_the_default():
    rolled = attack("", 7, 2, 3, 4, 5, 6)  # Dex 3 + Melee 3
    assert rolled.weapon.key == "sword" and rolled.roll.difficulty == 1
    assert english(rolled.describe()) == "Sword to hit: Dexterity 3 + Melee 3 = 6 dice TN 7, needs 1: 7 6 5 4 3 2 -> 1 success = success"
    assert rolled.needs_defense


def test_unarmed_default_is_the_first_weapon():
    rolled = attack("", 2, 2, 2, 2, 2, attacker=fighter("Cy", Dexterity=3, Brawl=2))
    assert rolled.weapon.key == "punch" and not rolled.needs_defense


@pytest.mark.parametrize(("option", "difficulty"), [
    ("sword+pulling-blows", 2),
    ("sword+showing-off", 3),
    ("sword+showing-off 4", 5),
    ("sword+show 3", 4),
    ("sword+disarm", 3),           # hand-to-hand +2
    ("pistol+disarm", 5),          # ranged +4
    ("sword+fierce", 2),
    ("sword+fierce+pulling", 3),
])
def test_called_shots_add_difficulty(option, difficulty):
    rolled = attack(option, 1, 1, 1, 1, 1, 1) if "pistol" not in option else attack(option, 1, 1, 1, 1, 1)
    assert rolled.roll.difficulty == difficulty


@pytest.mark.parametrize(("option", "message"), [
    ("sword+showing-off 5", r"^Showing Off is \+2 to 4 difficulty, not \+5\.$"),
    ("sword+disarm 3", r"^Disarm is \+2 difficulty, not \+3\.$"),
    ("sword+club", "Name one weapon per attack."),
    ("sword+fierce+fierce", "Fierce Blows is named twice."),
    ("laser", "No weapon or called shot 'laser'"),
    ("p", "'p' could be: punch, pistol"),
])
def test_bad_options_are_refused(option, message):
    with pytest.raises(CombatError, match=message):
        AE.attack(ALICE, BOB, option, dice())


def test_st_modifier_moves_the_successes_needed():
    assert attack("sword", 7, 7, 1, 1, 1, 1, modifier=1).roll.difficulty == 2
    with pytest.raises(CombatError, match="need 0 successes"):
        AE.attack(ALICE, BOB, "sword", dice(), modifier=-1)


def test_disarm_needs_a_weapon_to_disarm():
    with pytest.raises(CombatError, match="holds no weapon"):
        AE.attack(ALICE, fighter("Unarmed"), "punch+disarm", dice())


def test_attack_record_round_trips():
    rolled = attack("sword+showing-off 3", 7, 8, 9, 1, 2, 3)
    record = rolled.to_record()
    assert record["shots"] == [["showing-off", 3]]
    assert AE.attack_from_record(record) == rolled
    assert isinstance(AE.attack_from_record(record), AeonAttack)


def test_defense_record_round_trips():
    rolled = attack("sword", 7, 1, 1, 1, 1, 1)
    roller = dice(7, 3, 2, 9)
    defense = AE.defend(rolled, BOB, "dodge", roller)
    done(roller)
    assert AE.defense_from_record(defense.to_record()) == defense


def test_full_hit_sword_vs_baseline():
    # Alice: 2 successes; Bob no defense. Gross = Str 3 + Sword 3 + 2 = 8 lethal; Bob
    # (Baseline) has no lethal soak: 8 dice.
    rolled = attack("sword", 7, 8, 1, 2, 3, 4)
    result = resolve(rolled, None, 7, 7, 7, 1, 1, 1, 1, 1)
    assert result.hit and result.net_successes == 2
    assert "gross damage: Strength 3 + Sword 3 + net successes 2 = 8 (lethal)" in tuple(englished(result.lines))
    assert result.harm[0].levels == 3
    assert result.harm[0].health_after.boxes == "LLL...."


def test_dodge_successes_cancel_attack_successes():
    rolled = attack("sword", 7, 8, 9, 1, 2, 3)
    roller = dice(7, 8, 2, 2)   # Bob: Dex 2 + Athletics 2
    defense = AE.defend(rolled, BOB, "dodge", roller)
    done(roller)
    result = resolve(rolled, defense, *([2] * 7))  # gross 3 + 3 + 1 = 7 dice
    assert result.net_successes == 1
    assert "Bob's 2 successes cancel 2 of 3: 1 success left (needs 1)." in tuple(englished(result.lines))


def test_one_defense_success_cancels_in_the_singular():
    rolled = attack("sword", 7, 8, 9, 1, 2, 3)
    roller = dice(7, 2, 2, 2)   # Bob: Dex 2 + Athletics 2: 1 success
    defense = AE.defend(rolled, BOB, "dodge", roller)
    done(roller)
    result = resolve(rolled, defense, *([2] * 8))  # gross 3 + 3 + 2 = 8 dice
    assert "Bob's 1 success cancels 1 of 3: 2 successes left (needs 1)." in tuple(englished(result.lines))


def test_full_cancel_is_a_miss():
    rolled = attack("sword", 7, 1, 1, 1, 1, 1)
    defense = AE.defend(rolled, BOB, "parry", dice(9, 1, 1, 1))  # Dex 2 + Melee 2
    result = resolve(rolled, defense)
    assert not result.hit and result.harm == ()
    assert tuple(englished(result.lines))[-1] == "Alice's Sword misses Bob."


def test_called_shot_needs_its_successes_after_defense():
    rolled = attack("sword+fierce", 7, 8, 1, 1, 1, 1)   # needs 2, has 2
    defense = AE.defend(rolled, BOB, "dodge", dice(7, 1, 1, 1))
    result = resolve(rolled, defense)
    assert not result.hit and result.net_successes == 1


def test_botched_attack():
    rolled = attack("sword", 1, 2, 3, 4, 5, 6)
    assert rolled.roll.botch and not rolled.needs_defense
    result = resolve(rolled, None)
    assert not result.hit and tuple(englished(result.lines))[-1] == "Alice botches the Sword!"


@pytest.mark.parametrize(("defense", "defender", "message"), [
    ("parry", fighter("Nohands", Dexterity=2), "weapon in hand to parry"),
    ("jump", BOB, "Defend with one of: dodge, block, parry"),
])
def test_defense_refusals(defense, defender, message):
    rolled = attack("sword", 7, 1, 1, 1, 1, 1)
    with pytest.raises(CombatError, match=message):
        AE.defend(rolled, defender, defense, dice())


def test_cannot_block_or_parry_a_ranged_attack():
    rolled = attack("pistol", 7, 1, 1, 1, 1)
    for defense in ("block", "parry"):
        with pytest.raises(CombatError, match="ranged attack"):
            AE.defend(rolled, BOB, defense, dice())


def test_fierce_blows_adds_two_lethal():
    rolled = attack("sword+fierce", 7, 8, 1, 1, 1, 1)
    result = resolve(rolled, None, *([1] * 10))   # 3 + 3 + 2 + 2 = 10 dice
    assert "gross damage: Strength 3 + Sword 3 + net successes 2 + Fierce Blows 2 = 10 (lethal)" in tuple(englished(result.lines))
    assert result.harm[0].levels == 0


def test_fierce_blows_adds_three_bashing():
    rolled = attack("club+fierce", 7, 8, 1, 1, 1, 1)
    # Bob: bashing soak 2, hardness 1; gross = 3 + 2 + 2 + 3 = 10 → 8 dice.
    result = resolve(rolled, None, *([1] * 8))
    assert "gross damage: Strength 3 + Club 2 + net successes 2 + Fierce Blows 3 = 10 (bashing)" in tuple(englished(result.lines))


def test_pulling_blows_deals_bashing():
    rolled = attack("sword+pulling", 7, 8, 1, 1, 1, 1)
    assert rolled.damage_type == "bashing"
    result = resolve(rolled, None, *([7] * 6))   # gross 8 - bashing soak 2 = 6 dice
    assert result.harm[0].damage_type == "bashing"
    assert result.harm[0].health_after.boxes == "BBBBBB."


def test_pulling_blows_may_maim_rather_than_kill():
    # Seed (Called Shots): Pulling Blows "inflict a maiming wound rather than a death-blow".
    # Bob has one level left; Alice's sword (+1 difficulty: needs 2) hits with 2 successes,
    # gross Strength 3 + Sword 3 + 2 = 8 lethal against no lethal soak: 8 dice, 8 levels.
    hurt = replace(BOB, health={"bashing": 0, "lethal": 6, "aggravated": 0})
    rolled = attack("sword+maim", 7, 8, 1, 1, 1, 1, target=hurt)
    assert rolled.damage_type == "lethal"
    killing = resolve(attack("sword", 7, 8, 1, 1, 1, 1, target=hurt), None, *([7] * 8), target=hurt)
    assert killing.harm[0].health_after.dead
    result = resolve(rolled, None, *([7] * 8), target=hurt)
    after = result.harm[0].health_after
    assert not after.dead and after.incapacitated and after.boxes == "LLLLLLB"
    assert "Bob is maimed, not killed (Pulling Blows): Incapacitated (knocked out) [LLLLLLB]" in englished(result.lines)
    assert result.effects == (("maimed", "Bob", True),)
    assert AE.condition_marks({"maimed": True}) == ("maimed",)


def test_armor_piercing_weapon_uses_the_net_successes():
    zeta = fighter("Zed", kind="Zeta", Stamina=4, armor={"lethal": 8})  # lethal soak 10, hardness 5
    rolled = attack("ap-pistol", 7, 8, 9, 1, 1, target=zeta)   # Dex 3 + Firearms 2
    # gross 5 + 3 = 8; soak 10 - 3 = 7, hardness 3 → 1 die.
    result = resolve(rolled, None, 7, target=zeta)
    assert result.harm[0].soak.total == 7 and result.harm[0].soak.hardness == 3
    assert result.harm[0].levels == 1
    plain = attack("pistol", 7, 8, 9, 1, 1, target=zeta)
    # Without AP: soak 10, hardness 5; gross 8 → 1 die (minimum).
    assert resolve(plain, None, 2, target=zeta).harm[0].soak.hardness == 5


def test_disarm_hand_to_hand():
    rolled = attack("sword+disarm", 7, 8, 9, 10, 1, 1)   # needs 3, has 4
    # Bob: Wits 2 + Melee 2 (knife's ability) vs difficulty 4: 1 success → 3 short → 3 feet.
    result = resolve(rolled, None, 7, 1, 1, 1)
    assert result.hit and result.harm == ()
    assert result.effects == (("disarmed", "Bob", 3),)
    assert "Bob's weapon flies 3 feet away." in tuple(englished(result.lines))
    assert "Bob holds on? Wits 2 + Melee 2 = 4 dice TN 7, needs 4: 7 1 1 1 -> 1 success = failure" in tuple(englished(result.lines))


def test_disarm_held_on():
    rolled = attack("sword+disarm", 7, 8, 9, 1, 1, 1)    # needs 3, has 3
    result = resolve(rolled, None, 7, 8, 9, 1)
    assert result.effects == () and "Bob keeps hold of their weapon." in tuple(englished(result.lines))


def test_disarm_one_foot():
    rolled = attack("sword+disarm", 7, 8, 9, 1, 1, 1)
    result = resolve(rolled, None, 7, 8, 1, 1)
    assert result.effects == (("disarmed", "Bob", 1),)
    assert "Bob's weapon flies 1 foot away." in tuple(englished(result.lines))


def test_wounded_attacker_loses_dice():
    hurt = fighter("Hurt", Dexterity=3, Melee=3, weapon="sword", health=wounds(lethal=4))
    rolled = attack("", 7, 1, 1, 1, attacker=hurt)
    assert rolled.pool.parts[-1] == ("wounds", -2)


def test_knocked_out_cannot_attack_or_defend():
    out = fighter("Out", health=wounds(bashing=7), Dexterity=3)
    with pytest.raises(CombatError, match="knocked out"):
        AE.attack(out, BOB, "punch", dice())
    rolled = attack("sword", 7, 1, 1, 1, 1, 1)
    with pytest.raises(CombatError, match="knocked out"):
        AE.defend(rolled, out, "dodge", dice())


def test_health_value_is_frozen():
    health = AE.health({})
    with pytest.raises(AttributeError):
        health.bashing = 3  # type: ignore[misc]
    assert isinstance(health, AeonHealth)


def test_defense_difficulty_takes_successes_off_and_round_trips():
    rolled = attack("sword", 7, 8, 1, 1, 1, 1)
    roller = dice(7, 8, 1, 1)
    defense = AE.defend(rolled, BOB, "dodge", roller, modifier=1)
    done(roller)
    assert defense.net == 1
    assert english(defense.describe()).endswith("-> 2 successes - 1 (difficulty) = 1 success")
    assert AE.defense_from_record(defense.to_record()) == defense
    result = resolve(rolled, defense, *([1] * 7))   # 2 - 1 = 1 left: still a hit
    assert result.hit and result.net_successes == 1
    with pytest.raises(CombatError, match="only be raised"):
        AE.defend(rolled, BOB, "dodge", dice(), modifier=-1)


def test_defense_dice_modifier_and_wounds_change_the_pool():
    rolled = attack("sword", 7, 1, 1, 1, 1, 1)
    hurt = fighter("Hurt", Dexterity=2, Athletics=2, health=wounds(bashing=2))
    roller = dice(2, 2, 2, 2)
    defense = AE.defend(rolled, hurt, "dodge", roller, dice_modifier=1)
    done(roller)
    assert defense.pool.parts == (("Dexterity", 2), ("Athletics", 2), ("modifier", 1), ("wounds", -1))


def test_defense_choices_offer_only_what_defend_allows():
    ann, bob = fighter("Ann", Dexterity=3, Brawl=2), fighter("Bob")
    punch = AE.attack(ann, bob, "", dice(9, 2, 2, 2, 2))
    clinch = AE.attack(ann, bob, "clinch", dice(9, 2, 2, 2, 2))
    pistol = AE.attack(fighter("Ann", Dexterity=3, weapon="pistol"), bob, "pistol", dice(9, 2, 2))
    assert AE.defense_choices(punch, bob) == ("dodge", "block")
    assert AE.defense_choices(punch, fighter("Bob", weapon="sword")) == ("dodge", "block", "parry")
    assert AE.defense_choices(clinch, fighter("Bob", weapon="sword")) == ("dodge", "parry", "accept")
    assert AE.defense_choices(pistol, bob) == ("dodge",)
    clinched = Combatant("Bob", conditions={"clinch_with": "Cy"})
    assert AE.defense_choices(punch, clinched) == ()


@pytest.mark.parametrize(("holding", "option", "message"), [
    ("", "sword", "Alice holds no sword (empty-handed)."),
    ("knife", "rifle+fierce", "Alice holds no rifle (in hand: knife)."),
])
def test_a_named_weapon_must_be_in_hand(holding, option, message):
    with pytest.raises(CombatError, match=re.escape(message)):
        AE.attack(replace(ALICE, weapon=holding), BOB, option, dice())


def test_unarmed_attacks_need_no_weapon_in_hand():
    rolled = attack("kick", 9, 1, 1, 1, 1)
    assert rolled.weapon.key == "kick"


@pytest.mark.parametrize("option", ["showoff 99999", "showoff -3"])
def test_called_shot_numbers_are_small_whole_numbers(option):
    with pytest.raises(CombatError, match="is not a difficulty"):
        AE.attack(ALICE, BOB, option, dice())


# ---------------------------------------------------------------------- aeon NPC templates
def test_aeon_npc_templates_load_with_kinds_weapons_and_soak():
    from rules.data.templates import load_templates
    table = load_templates("aeon", AE.trait_names, AE.kinds, tuple(AE.weapons), trait_range=AE.trait_range)
    assert set(table) == {"thug", "soldier", "cavalry", "zeta"}
    assert {key: (t.kind, t.weapon) for key, t in table.items()} == {
        "thug": ("Baseline", "club"), "soldier": ("Baseline", "rifle"),
        "cavalry": ("Baseline", "spear"), "zeta": ("Zeta", "pistol")}
    for template in table.values():  # every template can roll initiative and be hidden from
        assert {"Dexterity", "Wits", "Stamina", "Awareness"} <= set(template.traits)
    # Seed: Baselines soak bashing = Stamina, no lethal; Zetas lethal = half Stamina, rounded down.
    soak = {key: {t: s.total for t, s in AE.soaks(fighter(t.name, kind=t.kind, **dict(t.traits))).items()}
            for key, t in table.items()}
    assert soak["thug"] == {"bashing": 3, "lethal": 0, "aggravated": 0}
    assert soak["zeta"] == {"bashing": 4, "lethal": 2, "aggravated": 1}


# ----------------------------------------------------------- the clinch's first turn of control
# Seed (Grappling): "the attacker does automatically control the clinch for the first turn";
# "Upon gaining control of a clinch, a grappler has one of three options": Hold, Crush ("Bashing
# damage equal to Strength plus the net successes on the control roll", Armor Piercing), Break.
def test_clinch_first_turn_is_a_hold_unless_another_option_is_named():
    rolled = attack("clinch", 9, 8, 7, 2, 2)
    assert rolled.clinch_choice == "hold"
    result = resolve(rolled, None)
    assert "Alice clinches Bob and controls the first turn: a hold." in tuple(englished(result.lines))
    assert result.effects == (("clinch", "Alice", "Bob"), ("clinch", "Bob", "Alice"), ("clinch_first", "Alice", None),
                              ("clinch_first", "Bob", None), ("held", "Bob", "Alice"))


def test_clinch_first_turn_crush_strength_plus_net_armor_piercing():
    # Control pool Dexterity 3 + Brawl 2 = 5 dice: 9 8 7 2 2 -> 3 net (no defense). Crush: gross =
    # Strength 3 + 3 = 6 bashing, Armor Piercing 3: Bob's soak Stamina 2 - 3 -> 0; 6 dice:
    # 7 7 2 2 2 2 -> 2 levels. No pin: the clinch goes on.
    rolled = attack("clinch crush", 9, 8, 7, 2, 2)
    assert (rolled.weapon.key, rolled.clinch_choice) == ("clinch", "crush")
    result = resolve(rolled, None, 7, 7, 2, 2, 2, 2)
    assert "Alice clinches Bob and controls the first turn: a crush." in tuple(englished(result.lines))
    assert "Alice crushes Bob: Strength 3 + net successes 3 = 6 bashing, armor piercing 3." in tuple(englished(result.lines))
    assert result.effects == (("clinch", "Alice", "Bob"), ("clinch", "Bob", "Alice"), ("clinch_first", "Alice", None),
                              ("clinch_first", "Bob", None))
    assert [(h.name, h.damage_type, h.gross, h.levels) for h in result.harm] == [("Bob", "bashing", 6, 2)]


def test_clinch_first_turn_break_and_throw():
    # Break: thrown Strength 3 yards; Bob's knockdown Dexterity 2 + Athletics 2: 2 2 2 2 -> prone.
    rolled = attack("clinch break throw", 9, 2, 2, 2, 2)
    assert rolled.clinch_choice == "break throw"
    result = resolve(rolled, None, 2, 2, 2, 2)
    assert "Alice throws Bob 3 yards (Strength 3)." in tuple(englished(result.lines))
    assert result.effects[4:] == (("released", "Bob", "Alice"), ("thrown", "Bob", 3), ("prone", "Bob", True))
    assert AE.attack_from_record(rolled.to_record()).clinch_choice == "break throw"


def test_accepted_clinch_the_winner_picks_by_its_plan():
    # Bob accepts, planning a crush. Alice 5 dice 9 2 2 2 2 -> 1; Bob Dexterity 2 + Brawl 1 =
    # 3 dice 9 9 8 -> 3: Bob controls, net 2. Crush: Bob's Strength 0 + 2 = 2 bashing, Armor
    # Piercing 2 on Alice (no Stamina: soak 0): 2 dice 7 2 -> 1 level.
    planner = replace(BOB, conditions={"clinch_plan": "crush"})
    rolled = attack("clinch", 9, 2, 2, 2, 2, target=planner)
    roller = dice()
    accepted = AE.defend(rolled, planner, "accept", roller)
    result = resolve(rolled, accepted, 9, 2, 2, 2, 2, 9, 9, 8, 7, 2, target=planner)
    assert "Bob crushes Alice: Strength 0 + net successes 2 = 2 bashing, armor piercing 2." in tuple(englished(result.lines))
    assert [(h.name, h.levels) for h in result.harm] == [("Alice", 1)]
    assert ("held", "Alice", "Bob") not in result.effects


@pytest.mark.parametrize(("option", "message"), [
    ("clinch squeeze", "^A clinch takes hold, crush or break: clinch crush, clinch break throw.$"),
    ("clinch hold throw", "^Only breaking the hold can release or throw.$"),
    ("clinch break fly", "^Break the hold how\\? release, ground or throw.$"),
])
def test_clinch_choice_refusals_roll_nothing(option, message):
    with pytest.raises(CombatError, match=message):
        AE.attack(ALICE, BOB, option, dice())


def test_a_riders_mark_names_its_mount_and_the_others_follow():
    marks = AE.condition_marks({"maimed": True, "mount": {"key": "horse"}, "bleeding_since": 2})
    assert englished(marks) == ["maimed", "on horse", "bleeding"]
    assert marks[1].key == "aeon.value.on_mount"
