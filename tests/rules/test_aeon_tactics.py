"""Tests for Aeon tactics: grappling, surprise, hiding, mounted combat (pure Python, no DB).

The rules of the aeon seed ("Grappling", "Surprise Attacks", "Mounted
Combat") and the Fray defaults of ``rules/data/aeon.toml`` are pinned with forced dice: each
test queues exactly the faces it expects, the fallback roller fails on one die more, and
``done()`` checks none were left over.
"""

from __future__ import annotations

import ast
import copy
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

import rules.systems.aeon.tactics as tactics_module
from rules.data import RulesDataError, load_system_data
from rules.systems.aeon.system import AeonSystem
from rules.systems.aeon.tactics import AeonTactics, ContestRoll, Mount
from rules.systems.base import Combatant, CombatError, Pool
from tests.rules.forced_dice import dice, done
from tests.rules.wording import english, englished

AE = AeonSystem()
TA = AeonTactics(AE)


def fighter(name: str = "Ann", health=None, armor=None, **traits: int) -> Combatant:
    return Combatant(name=name, traits=traits, kind="Baseline", health=health or {}, armor=armor or {})


def run(call, *faces: int):
    """``call(roller)`` with exactly ``faces`` rolled."""
    roller = dice(*faces)
    result = call(roller)
    done(roller)
    return result


# Dexterity 3 + Brawl 2 = 5 dice; Strength 3 for crush and throw.
ALICE = fighter("Alice", Dexterity=3, Brawl=2, Strength=3)
# Strength 3 (cross-matched, higher than Dexterity 2) + Martial Arts 1 (higher than Brawl 0).
BOB = Combatant("Bob", traits={"Dexterity": 2, "Strength": 3, "Martial Arts": 1, "Stamina": 2,
                               "Athletics": 1, "Wits": 2, "Awareness": 2})


# ========================================================================== loading


def test_loads_the_tactics_tables_from_the_aeon_data():
    assert TA.control_abilities == ("Brawl", "Martial Arts")
    assert TA.control_attributes == ("Dexterity", "Strength")
    assert TA.target_dice_range == (-2, 1)
    assert TA.plain_sight_difficulty == 2 and TA.ties == "target"
    assert (TA.witness_difficulty, TA.obscured_successes, TA.witness_rule) == (2, 2, "success")
    assert TA.mounts == {
        "horse": Mount("horse", "Horse", 2, "individual"),
        "warhorse": Mount("warhorse", "Warhorse", 4, "individual"),
        "elephant": Mount("elephant", "African Elephant", 4, "large"),
    }
    assert TA.capped == ("Brawl", "Martial Arts", "Melee", "Firearms", "Archery", "Thrown",
                         "Athletics", "Heavy Weapons")


@pytest.mark.parametrize(("path", "value", "message"), [
    (("grappling", "abilities"), ["Brawl", "Kung Fu"], "grappling.abilities: 'Kung Fu'"),
    (("grappling", "abilities"), [], "grappling.abilities: name at least one"),
    (("grappling", "throw_trait"), 3, "grappling.throw_trait: expected str"),
    (("grappling", "knockdown_difficulty"), 0, "grappling.knockdown_difficulty: expected 1 or more"),
    (("surprise", "ties"), "coin", "surprise.ties: expected one of target, attacker"),
    (("surprise", "target_dice"), [1, -2], "surprise.target_dice"),
    (("surprise", "plain_sight_difficulty"), -1, "surprise.plain_sight_difficulty"),
    (("hiding", "witness_keeps_track"), "always", "hiding.witness_keeps_track"),
    (("hiding", "witnesses"), ["Perception", "Notice"], "hiding.witnesses: 'Notice'"),
    (("mounted", "sizes"), {}, "mounted.sizes: at least one size"),
    (("mounted", "sizes", "large", "needs_reach"), "yes", "mounted.sizes.large.needs_reach"),
    (("mounted", "control_roll"), ["Ridin"], "mounted.control_roll: 'Ridin'"),
    (("mounts", "horse", "size"), "huge", "mounts.horse.size: expected one of individual, large"),
    (("mounts", "horse", "control"), 11, "mounts.horse.control: expected 0 to 10"),
    (("mounts", "horse"), "Horse", "mounts.horse: expected a table"),
])
def test_bad_data_is_refused(path, value, message):
    data = copy.deepcopy(load_system_data("aeon"))
    table = data
    for key in path[:-1]:
        table = table[key]
    table[path[-1]] = value
    with pytest.raises(RulesDataError, match=message):
        AeonTactics(AE, data)


@pytest.mark.parametrize("section", ["grappling", "surprise", "hiding", "mounted", "mounts"])
def test_a_missing_section_is_a_clear_error(section):
    data = copy.deepcopy(load_system_data("aeon"))
    del data[section]
    with pytest.raises(RulesDataError, match=f"aeon: missing '{section}'"):
        AeonTactics(AE, data)


def test_the_module_is_engine_free():
    tree = ast.parse(Path(tactics_module.__file__).read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {(node.module or "").split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom)}
    assert not imported & {"evennia", "django"}
    # Nothing it imports pulls the engine in either.
    probe = ("import sys, rules.systems.aeon.tactics; "
             "print(sorted({m.split('.')[0] for m in sys.modules} & {'evennia', 'django'}))")
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", probe], cwd=root, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


# ======================================================================= grappling


def test_control_pool_best_ability_and_dex_or_cross_matched_strength():
    assert TA.control_pool(ALICE).parts == (("Dexterity", 3), ("Brawl", 2))
    assert TA.control_pool(BOB).parts == (("Strength", 3), ("Martial Arts", 1))
    # Ties go to the first listed: Dexterity, Brawl.
    even = fighter(Dexterity=2, Strength=2, Brawl=1, **{"Martial Arts": 1})
    assert TA.control_pool(even).parts == (("Dexterity", 2), ("Brawl", 1))


def test_control_pool_adds_the_modifier_and_the_wound_penalty():
    hurt = fighter(health={"bashing": 4}, Dexterity=3, Brawl=2)  # Wounded: -2
    pool = TA.control_pool(hurt, dice_modifier=1)
    assert pool.parts == (("Dexterity", 3), ("Brawl", 2), ("modifier", 1), ("wounds", -2))
    assert pool.describe() == "Dexterity 3 + Brawl 2 + 1 (modifier) - 2 (wounds) = 4"


def test_contest_more_successes_controls_by_the_difference():
    # Alice 5 dice: 9 7 -> 2 successes; Bob 4 dice: 8 -> 1 success.
    result = run(lambda r: TA.contest(ALICE, BOB, r), 9, 7, 3, 2, 1, 8, 4, 3, 2)
    assert (result.controller, result.net, result.ended) == ("Alice", 1, False)
    assert [roll.name for roll in result.rolls] == ["Alice", "Bob"]
    assert tuple(englished(result.lines)) == (
        "Alice control: Dexterity 3 + Brawl 2 = 5 dice TN 7, needs 1: 9 7 3 2 1 -> 2 successes = success",
        "Bob control: Strength 3 + Martial Arts 1 = 4 dice TN 7, needs 1: 8 4 3 2 -> 1 success = success",
        "Alice controls the clinch by 1 net success (2 to 1).",
    )


def test_contest_second_can_win():
    result = run(lambda r: TA.contest(ALICE, BOB, r), 2, 3, 4, 5, 6, 10, 9, 1, 1)
    assert (result.controller, result.net) == ("Bob", 2)
    assert tuple(englished(result.lines))[-1] == "Bob controls the clinch by 2 net successes (2 to 0)."


def test_contest_tie_controls_nothing():
    result = run(lambda r: TA.contest(ALICE, BOB, r), 7, 3, 3, 2, 1, 8, 4, 3, 2)
    assert (result.controller, result.net, result.ended) == (None, 0, False)
    assert tuple(englished(result.lines))[-1] == "Tie at 1 success: nobody controls the clinch this turn."


def test_contest_without_any_success_controls_nothing():
    result = run(lambda r: TA.contest(ALICE, BOB, r), 6, 5, 4, 3, 2, 6, 5, 4, 1)
    assert (result.controller, result.net) == (None, 0)
    assert tuple(englished(result.lines))[-1] == "No control successes: nobody controls the clinch this turn."


def test_a_decliner_rolls_nothing_and_the_other_controls_by_its_successes():
    result = run(lambda r: TA.contest(ALICE, BOB, r, second_declines=True), 9, 8, 3, 2, 1)
    assert (result.controller, result.net, result.ended) == ("Alice", 2, False)
    assert [roll.name for roll in result.rolls] == ["Alice"]
    assert tuple(englished(result.lines))[1:] == ("Bob declines the contest.",
                                "Alice controls the clinch by 2 net successes (2 to 0).")


def test_a_decliner_against_no_success_leaves_nobody_in_control():
    result = run(lambda r: TA.contest(ALICE, BOB, r, first_declines=True), 6, 5, 4, 1)
    assert (result.controller, result.net, result.ended) == (None, 0, False)


def test_both_decline_the_clinch_ends_without_dice():
    result = run(lambda r: TA.contest(ALICE, BOB, r, first_declines=True, second_declines=True))
    assert replace(result, lines=tuple(englished(result.lines))) == tactics_module.ControlContest(
        (), None, 0, True, ("Alice declines the contest.", "Bob declines the contest.",
                            "Neither contests control: the clinch ends."))


def test_a_knocked_out_participant_counts_as_declining():
    out = fighter("Bob", health={"bashing": 7}, Dexterity=4, Brawl=4)
    result = run(lambda r: TA.contest(ALICE, out, r), 7, 3, 3, 2, 1)
    assert (result.controller, result.net) == ("Alice", 1)
    assert tuple(englished(result.lines))[1:] == ("Bob is knocked out and cannot contest the clinch.",
                                "Alice controls the clinch by 1 net success (1 to 0).")


def test_accepted_clinch_both_roll_for_the_first_turn():
    result = run(lambda r: TA.accepted_clinch(ALICE, BOB, r), 9, 7, 3, 2, 1, 8, 8, 8, 2)
    assert (result.controller, result.net) == ("Bob", 1)
    assert len(result.rolls) == 2
    assert tuple(englished(result.lines))[0] == "Bob accepts Alice's clinch: both roll for control."
    assert tuple(englished(result.lines))[-1] == "Bob controls the clinch by 1 net success (3 to 2)."


def test_accepted_clinch_refuses_the_knocked_out():
    out = fighter("Bob", health={"bashing": 7})
    with pytest.raises(CombatError, match="^Bob is knocked out and cannot act.$"):
        TA.accepted_clinch(ALICE, out, dice())


def test_hold_pins_without_injury():
    outcome = run(lambda r: TA.control("hold", ALICE, BOB, 2, r))
    assert outcome.effects == (("held", "Bob", "Alice"),)
    assert outcome.harm == ()
    assert tuple(englished(outcome.lines)) == ("Alice holds Bob pinned, motionless.",)


def test_crush_is_bashing_strength_plus_net_with_armor_piercing():
    # Bob: bashing soak Stamina 2, hardness 1; pierced by the 2 net successes -> soak 0.
    # Gross 3 + 2 = 5, minus soak 0 = 5 dice: 9 8 7 -> 3 levels.
    outcome = run(lambda r: TA.control("cr", ALICE, BOB, 2, r), 9, 8, 7, 2, 1)
    assert outcome.effects == ()  # the clinch goes on, no pin
    (harm,) = outcome.harm
    assert (harm.name, harm.damage_type, harm.gross, harm.soak.total, harm.levels) == (
        "Bob", "bashing", 5, 0, 3)
    assert harm.health_after.bashing == 3
    assert tuple(englished(outcome.lines)) == (
        "Alice crushes Bob: Strength 3 + net successes 2 = 5 bashing, armor piercing 2.",
        "Bob's bashing soak Stamina 2 - 2 (armor piercing) = 0, hardness 0",
        "damage: gross 5 - soak 0 -> 5 dice TN 7: 9 8 7 2 1 -> 3 successes",
        "Bob takes 3 levels of bashing: Injured (-1) [BBB....]",
    )


def test_armor_piercing_turns_below_hardness_into_a_roll():
    # Tank: bashing soak Stamina 3 + armor 5 = 8, hardness 4. Gross Strength 1 + net 2 = 3.
    tank = fighter("Tank", armor={"bashing": 5, "lethal": 5}, Stamina=3)
    weak = fighter("Weak", Strength=1)
    plain, lines = AE.harm(tank, 3, "bashing", dice())
    assert plain.damage_roll is None and english(lines[-1]) == "gross damage 3 is below hardness 4: no effect."
    # Crush pierces 2: soak 6, hardness 3; 3 is not below 3 -> rolls the minimum 1 die.
    outcome = run(lambda r: TA.control("crush", weak, tank, 2, r), 8)
    (harm,) = outcome.harm
    assert (harm.soak.total, harm.soak.hardness, harm.levels) == (6, 3, 1)
    assert tuple(englished(outcome.lines))[1:] == (
        "Tank's bashing soak Stamina 3 + armor 5 = 8 - 2 (armor piercing) = 6, hardness 3",
        "damage: gross 3 - soak 6 -> 1 die (minimum) TN 7: 8 -> 1 success",
        "Tank takes 1 level of bashing: Bruised (0) [B......]",
    )


@pytest.mark.parametrize("throw", ["", "release", "rel"])
def test_break_releases(throw):
    outcome = run(lambda r: TA.control("break", ALICE, BOB, 1, r, throw=throw))
    assert outcome.effects == (("released", "Bob", "Alice"),)
    assert tuple(englished(outcome.lines)) == ("Alice breaks the hold and releases Bob.",)


@pytest.mark.parametrize("throw", ["ground", "prone", "g"])
def test_break_to_the_ground_leaves_them_prone(throw):
    outcome = run(lambda r: TA.control("b", ALICE, BOB, 1, r, throw=throw))
    assert outcome.effects == (("released", "Bob", "Alice"), ("prone", "Bob", True))
    assert tuple(englished(outcome.lines)) == ("Alice hurls Bob to the ground: prone.",)


def test_throw_strength_yards_knockdown_passed():
    # Bob's knockdown check: Dexterity 2 + Athletics 1 = 3 dice, needs 1: 7 -> keeps his feet.
    outcome = run(lambda r: TA.control("break", ALICE, BOB, 1, r, throw="throw"), 7, 3, 2)
    assert outcome.effects == (("released", "Bob", "Alice"), ("thrown", "Bob", 3))
    assert tuple(englished(outcome.lines)) == (
        "Alice throws Bob 3 yards (Strength 3).",
        "Bob knockdown: Dexterity 2 + Athletics 1 = 3 dice TN 7, needs 1: 7 3 2 -> 1 success = success",
        "Bob keeps their feet.",
    )


def test_throw_knockdown_failed_leaves_them_prone():
    outcome = run(lambda r: TA.control("break", ALICE, BOB, 1, r, throw="t"), 6, 5, 2)
    assert outcome.effects == (("released", "Bob", "Alice"), ("thrown", "Bob", 3),
                               ("prone", "Bob", True))
    assert tuple(englished(outcome.lines))[-1] == "Bob is knocked down: prone."


def test_knockdown_difficulty_comes_from_data():
    data = copy.deepcopy(load_system_data("aeon"))
    data["grappling"]["knockdown_difficulty"] = 2
    strict = AeonTactics(AE, data)
    outcome = run(lambda r: strict.control("break", ALICE, BOB, 1, r, throw="throw"), 7, 3, 2)
    assert ("prone", "Bob", True) in outcome.effects


@pytest.mark.parametrize(("choice", "kwargs", "message"), [
    ("kiss", {}, "Choose hold, crush or break."),
    ("", {}, "Choose hold, crush or break."),
    ("break", {"throw": "fling"}, "Break the hold how? release, ground or throw."),
    ("hold", {"throw": "throw"}, "Only breaking the hold can release or throw."),
])
def test_control_refusals(choice, kwargs, message):
    with pytest.raises(CombatError) as err:
        TA.control(choice, ALICE, BOB, 1, dice(), **kwargs)
    assert str(err.value) == message


def test_control_refuses_a_negative_net_and_a_knocked_out_controller():
    with pytest.raises(CombatError, match="^Net successes cannot be negative.$"):
        TA.control("crush", ALICE, BOB, -1, dice())
    with pytest.raises(CombatError, match="knocked out"):
        TA.control("hold", fighter("Alice", health={"bashing": 7}), BOB, 1, dice())


# ======================================================================== surprise

SNEAK = fighter("Sam", Dexterity=3, Stealth=2)   # 5 dice
GUARD = fighter("Gil", Wits=2, Awareness=2)       # 4 dice


def test_surprise_attacker_wins_on_more_successes():
    result = run(lambda r: TA.surprise(SNEAK, GUARD, r), 9, 8, 3, 2, 1, 7, 3, 2, 1)
    assert result.attacker_wins
    assert [roll.label for roll in result.rolls] == ["stealth", "awareness"]
    assert tuple(englished(result.lines)) == (
        "Sam stealth: Dexterity 3 + Stealth 2 = 5 dice TN 7, needs 1: 9 8 3 2 1 -> 2 successes = success",
        "Gil awareness: Wits 2 + Awareness 2 = 4 dice TN 7, needs 1: 7 3 2 1 -> 1 success = success",
        "Sam wins (2 to 1): Gil cannot defend (supernatural defenses aside).",
    )


def test_surprise_target_wins_on_more_successes():
    result = run(lambda r: TA.surprise(SNEAK, GUARD, r), 7, 3, 3, 2, 1, 9, 8, 2, 1)
    assert not result.attacker_wins
    assert tuple(englished(result.lines))[-1] == "Gil wins (1 to 2): Gil may defend as normal."


def test_surprise_tie_goes_to_the_target():
    result = run(lambda r: TA.surprise(SNEAK, GUARD, r), 7, 3, 3, 2, 1, 7, 3, 2, 1)
    assert not result.attacker_wins
    assert tuple(englished(result.lines))[-1] == "Gil wins (1 to 1): a tie goes to the target; Gil may defend as normal."


def test_surprise_ties_rule_is_data():
    data = copy.deepcopy(load_system_data("aeon"))
    data["surprise"]["ties"] = "attacker"
    bold = AeonTactics(AE, data)
    assert run(lambda r: bold.surprise(SNEAK, GUARD, r), 7, 3, 3, 2, 1, 7, 3, 2, 1).attacker_wins
    # ... but no success at all is never a win.
    assert not run(lambda r: bold.surprise(SNEAK, GUARD, r), 6, 3, 3, 2, 1, 6, 3, 2, 1).attacker_wins


def test_surprise_from_plain_sight_is_plus_two_difficulty():
    # 3 successes - 2 = 1 against 1: a tie, the target's.
    result = run(lambda r: TA.surprise(SNEAK, GUARD, r, plain_sight=True), 9, 8, 7, 2, 1, 7, 3, 2, 1)
    assert not result.attacker_wins
    assert result.rolls[0].roll.difficulty == 3
    assert tuple(englished(result.lines))[0].startswith("Sam stealth: Dexterity 3 + Stealth 2 = 5 dice TN 7, needs 3:")
    assert tuple(englished(result.lines))[2] == "From plain sight (+2 difficulty): 3 successes count as 1."
    # 4 successes - 2 = 2 against 1: the attacker wins.
    result = run(lambda r: TA.surprise(SNEAK, GUARD, r, plain_sight=True), 9, 8, 7, 7, 1, 7, 3, 2, 1)
    assert result.attacker_wins


def test_surprise_target_dice_range_plus_one_to_minus_two():
    result = run(lambda r: TA.surprise(SNEAK, GUARD, r, target_dice=-2), 9, 3, 3, 2, 1, 7, 1)
    assert result.rolls[1].pool.describe() == "Wits 2 + Awareness 2 - 2 (modifier) = 2"
    result = run(lambda r: TA.surprise(SNEAK, GUARD, r, target_dice=1), 9, 3, 3, 2, 1, 7, 7, 1, 1, 1)
    assert result.rolls[1].pool.size == 5 and not result.attacker_wins


@pytest.mark.parametrize(("target_dice", "shown"), [(2, "+2"), (-3, "-3")])
def test_surprise_target_dice_out_of_range_is_refused(target_dice, shown):
    with pytest.raises(CombatError) as err:
        TA.surprise(SNEAK, GUARD, dice(), target_dice=target_dice)
    assert str(err.value) == f"The target's preparedness is -2 to +1 dice, not {shown}."


def test_surprise_attacker_dice_add_to_stealth_and_wounds_count():
    hurt = fighter("Sam", health={"bashing": 2}, Dexterity=3, Stealth=2)  # Hurt: -1
    result = run(lambda r: TA.surprise(hurt, GUARD, r, attacker_dice=2), 7, 3, 3, 2, 1, 1, 3, 2, 1, 6)
    assert result.rolls[0].pool.describe() == "Dexterity 3 + Stealth 2 + 2 (modifier) - 1 (wounds) = 6"
    assert result.attacker_wins


# ========================================================================== hiding

WATCHER = fighter("Wes", Wits=2, Awareness=2)   # 4 dice
DOZER = fighter("Dot", Wits=1, Awareness=1)     # 2 dice


def test_hide_without_witnesses_needs_one_success():
    result = run(lambda r: TA.hide(SNEAK, [], r), 7, 3, 2, 1, 1)
    assert (result.hidden, result.lost_by, result.kept_by) == (True, (), ())
    assert tuple(englished(result.lines)) == (
        "Sam hiding: Dexterity 3 + Stealth 2 = 5 dice TN 7, needs 1: 7 3 2 1 1 -> 1 success = success",
        "Sam hides (1 success, 1 needed).",
    )


def test_hide_without_witnesses_can_fail():
    result = run(lambda r: TA.hide(SNEAK, [], r), 6, 5, 4, 3, 2)
    assert not result.hidden
    assert tuple(englished(result.lines))[-1] == "Sam fails to hide (0 successes, 1 needed)."


def test_hide_with_witnesses_needs_three_and_those_who_succeed_keep_track():
    # Seed (Surprise Attacks, hiding): "+2 difficulty for the presence of witnesses"; all
    # witnesses roll Wits + Awareness, "those who succeed keep track". Sam: 3 of 3 needed.
    # Wes 1 success (needs 1): keeps track; Dot 0: loses it.
    result = run(lambda r: TA.hide(SNEAK, [WATCHER, DOZER], r), 9, 8, 7, 2, 1, 7, 3, 2, 1, 6, 5)
    assert (result.hidden, result.lost_by, result.kept_by) == (True, ("Dot",), ("Wes",))
    assert [roll.name for roll in result.rolls] == ["Sam", "Wes", "Dot"]
    assert tuple(englished(result.lines)) == (
        "Sam hiding: Dexterity 3 + Stealth 2 = 5 dice TN 7, needs 3: 9 8 7 2 1 -> 3 successes = success",
        "Sam hides (3 successes, 3 needed).",
        "Wes awareness: Wits 2 + Awareness 2 = 4 dice TN 7, needs 1: 7 3 2 1 -> 1 success = success",
        "Dot awareness: Wits 1 + Awareness 1 = 2 dice TN 7, needs 1: 6 5 -> 0 successes = failure",
        "Still tracking Sam: Wes.",
        "Lost track of Sam: Dot.",
    )


def test_a_failed_hide_before_witnesses_keeps_them_all_tracking_without_rolls():
    result = run(lambda r: TA.hide(SNEAK, [WATCHER, DOZER], r), 9, 8, 3, 2, 1)
    assert (result.hidden, result.lost_by, result.kept_by) == (False, (), ("Wes", "Dot"))
    assert tuple(englished(result.lines))[-1] == "Sam fails to hide (2 successes, 3 needed)."


def test_hide_obscured_adds_two_automatic_successes():
    # 1 rolled + 2 automatic = 3: hidden even with witnesses; Wes rolls no success.
    result = run(lambda r: TA.hide(SNEAK, [WATCHER], r, obscured=True), 9, 3, 2, 1, 1, 6, 5, 2, 1)
    assert (result.hidden, result.lost_by, result.kept_by) == (True, ("Wes",), ())
    assert tuple(englished(result.lines))[1] == "Obscured: 1 success + 2 automatic = 3 successes."
    # Alone, with no success rolled at all, the 2 automatic successes still hide.
    alone = run(lambda r: TA.hide(SNEAK, [], r, obscured=True), 6, 5, 4, 3, 2)
    assert alone.hidden


def test_witness_rule_match_option_needs_the_hiders_successes():
    # The data option "match": a witness needs at least as many successes as the hider.
    data = copy.deepcopy(load_system_data("aeon"))
    data["hiding"]["witness_keeps_track"] = "match"
    matching = AeonTactics(AE, data)
    result = run(lambda r: matching.hide(SNEAK, [WATCHER, DOZER], r), 9, 8, 7, 2, 1, 9, 8, 7, 1, 9, 8)
    assert (result.lost_by, result.kept_by) == (("Dot",), ("Wes",))
    assert tuple(englished(result.lines))[2:4] == (
        "Wes awareness: Wits 2 + Awareness 2 = 4 dice TN 7, needs 3: 9 8 7 1 -> 3 successes = success",
        "Dot awareness: Wits 1 + Awareness 1 = 2 dice TN 7, needs 3: 9 8 -> 2 successes = failure",
    )


def test_hide_refuses_the_knocked_out():
    with pytest.raises(CombatError, match="knocked out"):
        TA.hide(fighter("Sam", health={"bashing": 7}), [], dice())


# ========================================================================= mounted


def test_abilities_are_capped_at_ride_melee_4_ride_3_is_melee_3():
    rider = fighter("Rae", Melee=4, Ride=3, Brawl=2, Dexterity=5, Stealth=5, Firearms=5)
    mounted = TA.mounted_traits(rider)
    assert mounted.trait("Melee") == 3                 # the seed's example
    assert mounted.trait("Firearms") == 3
    assert mounted.trait("Brawl") == 2                 # already below Ride
    assert mounted.trait("Dexterity") == 5 and mounted.trait("Stealth") == 5  # not capped
    assert mounted.name == "Rae" and rider.trait("Melee") == 4  # a copy


@pytest.mark.parametrize(("name", "key"), [
    ("horse", "horse"), ("Horse", "horse"), ("w", "warhorse"), ("elephant", "elephant"),
    ("african", "elephant"), ("African Elephant", "elephant"),
])
def test_mount_by_key_name_or_prefix(name, key):
    assert TA.mount(name) == TA.mounts[key]


def test_mount_control_override():
    assert TA.mount("horse", control=5) == Mount("horse", "Horse", 5, "individual")
    assert TA.mount("horse", control=0).control == 0
    with pytest.raises(CombatError) as err:
        TA.mount("horse", control=11)
    assert str(err.value) == "A Control Rating is 0 to 10, not 11."


def test_unknown_or_ambiguous_mount_is_refused():
    with pytest.raises(CombatError) as err:
        TA.mount("pony")
    assert str(err.value) == "No mount 'pony'. Choose from: horse, warhorse, elephant."
    data = copy.deepcopy(load_system_data("aeon"))
    data["mounts"]["hound"] = {"name": "Hound", "control": 1, "size": "individual"}
    with pytest.raises(CombatError, match="^'ho' could be: horse, hound.$"):
        AeonTactics(AE, data).mount("ho")


def test_mount_record_round_trip():
    mount = TA.mount("elephant", control=6)
    assert mount.to_record() == {"key": "elephant", "name": "African Elephant", "control": 6,
                                 "size": "large"}
    assert Mount.from_record(mount.to_record()) == mount


def test_control_roll_needed_only_when_control_exceeds_ride():
    rider = fighter("Rae", Dexterity=3, Ride=2)
    assert not TA.needs_control_roll(rider, TA.mount("horse"))     # Control 2, Ride 2
    assert TA.needs_control_roll(rider, TA.mount("warhorse"))      # Control 4 > Ride 2
    kept, lines = run(lambda r: TA.control_roll(rider, TA.mount("horse"), r))
    assert kept and tuple(englished(lines)) == ("Rae's Ride 2 masters the Horse (Control 2): no roll needed.",)


def test_control_roll_difficulty_is_the_control_rating():
    rider = fighter("Rae", Dexterity=3, Ride=2)
    kept, lines = run(lambda r: TA.control_roll(rider, TA.mount("warhorse"), r), 9, 8, 7, 7, 1)
    assert kept
    assert tuple(englished(lines)) == (
        "Rae ride: Dexterity 3 + Ride 2 = 5 dice TN 7, needs 4: 9 8 7 7 1 -> 4 successes = success",
        "Rae keeps the Warhorse under control.",
    )
    kept, lines = run(lambda r: TA.control_roll(rider, TA.mount("warhorse"), r), 9, 8, 7, 2, 1)
    assert not kept and english(lines[-1]) == "Rae loses control of the Warhorse!"


def test_control_roll_carries_the_wound_penalty():
    rider = fighter("Rae", health={"lethal": 2}, Dexterity=3, Ride=1)  # Hurt: -1
    kept, lines = run(lambda r: TA.control_roll(rider, TA.mount("horse"), r), 7, 7, 1)
    assert kept and english(lines[0]).startswith("Rae ride: Dexterity 3 + Ride 1 - 1 (wounds) = 3 dice TN 7, needs 2:")


HORSE = TA.mounts["horse"]
ELEPHANT = TA.mounts["elephant"]


@pytest.mark.parametrize(("attacker", "target", "reach", "expected"), [
    (None, HORSE, False, (1, 0, ("Target mounted (Horse): +1 difficulty from the ground.",))),
    (None, ELEPHANT, True, (2, 0, ("Target mounted (African Elephant): +2 difficulty from the ground.",))),
    (HORSE, None, False, (0, 1, ("Attacker mounted (Horse): +1 automatic success.",))),
    (ELEPHANT, None, True, (0, 2, ("Attacker mounted (African Elephant): +2 automatic successes.",))),
    (HORSE, HORSE, False, (0, 0, ("Both mounted: no mounted modifiers.",))),
    (None, None, False, (0, 0, ())),
])
def test_mounted_modifiers_hand_to_hand(attacker, target, reach, expected):
    extra, automatic, notes = TA.mounted_modifiers(attacker, target, ranged=False, weapon_reach=reach)
    assert (extra, automatic, tuple(englished(notes))) == expected


@pytest.mark.parametrize(("attacker", "target"), [(None, ELEPHANT), (ELEPHANT, None), (HORSE, ELEPHANT)])
def test_large_mounts_need_reach_weapons_hand_to_hand(attacker, target):
    with pytest.raises(CombatError) as err:
        TA.mounted_modifiers(attacker, target, ranged=False, weapon_reach=False)
    assert str(err.value) == ("Hand-to-hand attacks to or from the African Elephant's rider need "
                              "a weapon with reach.")


@pytest.mark.parametrize(("attacker", "target"), [(None, ELEPHANT), (HORSE, None), (ELEPHANT, HORSE)])
def test_ranged_attacks_have_no_mounted_modifiers(attacker, target):
    extra, automatic, notes = TA.mounted_modifiers(attacker, target, ranged=True, weapon_reach=False)
    assert (extra, automatic, tuple(englished(notes))) == (0, 0, ("Ranged attack: no mounted modifiers.",))
    assert TA.mounted_modifiers(None, None, ranged=True, weapon_reach=False) == (0, 0, ())


def test_contest_roll_describe_reuses_pool_and_roll():
    roll = TA.contest(ALICE, BOB, dice(9, 7, 3, 2, 1), second_declines=True).rolls[0]
    assert isinstance(roll, ContestRoll) and roll.pool == Pool((("Dexterity", 3), ("Brawl", 2)))
    assert english(roll.describe()) == f"Alice control: {roll.pool.dice()} {english(roll.roll.describe())}"
