"""Aeon multiple actions (the aeon seed, Grappling: "actions may be split as
normal", played with Trinity's rule): the first of N actions loses N dice, each later one 1
more; an action left below 1 die is refused before any die is rolled. Pure rules, forced dice.
"""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from rules.data import RulesDataError, load_system_data
from rules.systems.aeon.multiple import PENALTY, MultipleActions
from rules.systems.aeon.system import AeonSystem
from rules.systems.base import Combatant, CombatError
from tests.rules.forced_dice import dice, done
from tests.rules.wording import english, englished

AE = AeonSystem()
RULE = AE.multiple_actions


def fighter(**traits: int) -> Combatant:
    return Combatant(name="Ann", traits=traits, kind="Baseline")


def acting(who: Combatant, declared: int, index: int, *, strict: bool = True) -> Combatant:
    condition = RULE.condition(declared, index, strict=strict)
    return replace(who, conditions={**who.conditions, PENALTY: condition}) if condition else who


def test_the_data_is_trinitys_cumulative_penalty():
    assert RULE == MultipleActions(max_actions=10, first_penalty=1, step=1, min_pool=1)
    assert RULE.penalties(3) == (-3, -4, -5)
    assert RULE.penalties(2) == (-2, -3)
    assert RULE.penalties(1) == (0,)
    assert english(RULE.describe(3)) == "3 actions: -3, -4, -5 dice"
    assert RULE.condition(1, 0) is None
    assert RULE.condition(2, 1) == [{"line": "aeon.value.noted_action", "values": {"index": 2, "declared": 2}},
                                    -3, True]
    assert english(MultipleActions.parts({PENALTY: RULE.condition(2, 1)})[0][0]) == "action 2 of 2"


@pytest.mark.parametrize("count", [0, 11, 99])
def test_a_declaration_outside_1_to_10_is_refused(count):
    with pytest.raises(CombatError, match=f"Declare 1 to 10 actions, not {count}."):
        RULE.check_declared(count)


def test_a_bad_table_stops_the_load():
    data = copy.deepcopy(load_system_data("aeon"))
    data["multiple_actions"]["max_actions"] = 1
    with pytest.raises(RulesDataError, match="multiple_actions"):
        AeonSystem(data)
    del data["multiple_actions"]
    with pytest.raises(RulesDataError, match="multiple_actions"):
        AeonSystem(data)


def test_each_attack_of_three_loses_more_dice():
    ann, bob = fighter(Dexterity=4, Brawl=3), fighter(Stamina=2)
    # Dexterity 4 + Brawl 3 = 7 dice, -3 for the first of 3 actions: 4 dice.
    roller = dice(9, 8, 2, 2)
    first = AE.attack(acting(ann, 3, 0), bob, "punch", roller)
    done(roller)
    assert english(first.describe()) == ("punch to hit: Dexterity 4 + Brawl 3 - 3 (action 1 of 3) = 4 dice "
                                "TN 7, needs 1: 9 8 2 2 -> 2 successes = success")
    # The third: -5, 2 dice.
    roller = dice(7, 1)
    third = AE.attack(acting(ann, 3, 2), bob, "punch", roller)
    done(roller)
    assert third.pool.size == 2 and third.successes == 1
    assert "- 5 (action 3 of 3) = 2 dice" in english(third.describe())


def test_an_action_left_with_no_die_is_refused_before_rolling():
    ann, bob = fighter(Dexterity=2, Brawl=1), fighter()
    roller = dice()  # no die may be rolled
    with pytest.raises(CombatError, match=r"Ann's attack would have 0 dice after -4 for action 2 of 3"):
        AE.attack(acting(ann, 3, 1), bob, "punch", roller)
    done(roller)


def test_a_defense_uses_the_penalty_of_its_action():
    ann, bob = fighter(Dexterity=3, Brawl=2), fighter(Dexterity=3, Athletics=2)
    attack = AE.attack(ann, bob, "punch", dice(9, 9, 2, 2, 2))
    # Dodge: Dexterity 3 + Athletics 2 = 5, -3 for the second of 2 actions: 2 dice.
    roller = dice(8, 3)
    defense = AE.defend(attack, acting(bob, 2, 1), "dodge", roller)
    done(roller)
    assert english(defense.describe()) == ("dodge: Dexterity 3 + Athletics 2 - 3 (action 2 of 2) = 2 dice TN 7: "
                                  "8 3 -> 1 success")
    with pytest.raises(CombatError, match="Ann's dodge would have 0 dice"):
        AE.defend(attack, acting(replace(bob, name="Ann"), 5, 0), "dodge", dice())


def test_a_forced_contest_roll_is_never_refused_and_rolls_nothing_when_emptied():
    ann = fighter(Dexterity=3, Brawl=2)
    bob = replace(fighter(Dexterity=1, Brawl=1), name="Bob")
    # Ann 5 - 2 = 3 dice (action 1 of 2); Bob, the partner, 2 - 3 = -1: no dice, no refusal.
    roller = dice(9, 8, 1)
    contest = AE.tactics.contest(acting(ann, 2, 0), acting(bob, 2, 1, strict=False), roller)
    done(roller)
    assert contest.controller == "Ann" and contest.net == 2
    assert "Dexterity 3 + Brawl 2 - 2 (action 1 of 2) = 3 dice" in tuple(englished(contest.lines))[0]


def test_the_ride_roll_and_pickup_carry_the_penalty():
    rider = fighter(Dexterity=3, Ride=1, Melee=2)
    horse = AE.tactics.mount("horse")
    # Dexterity 3 + Ride 1 = 4, -2 (action 1 of 2): 2 dice needing the Control Rating 2.
    roller = dice(9, 9)
    kept, lines = AE.tactics.control_roll(acting(rider, 2, 0), horse, roller)
    done(roller)
    assert kept and "Dexterity 3 + Ride 1 - 2 (action 1 of 2) = 2 dice" in english(lines[0])
    with pytest.raises(CombatError, match="pick-up would have 0 dice"):
        AE.pick_up(acting(rider, 5, 0), "knife", dice())


def test_without_a_split_nothing_changes():
    ann, bob = fighter(Dexterity=3, Brawl=2), fighter()
    roller = dice(9, 2, 2, 2, 2)
    attack = AE.attack(ann, bob, "punch", roller)
    done(roller)
    assert english(attack.describe()) == ("punch to hit: Dexterity 3 + Brawl 2 = 5 dice TN 7, needs 1: "
                                 "9 2 2 2 2 -> 1 success = success")


def test_an_attack_after_the_games_ride_roll_rolls_no_second_one():
    horse = AE.tactics.mount("horse").to_record()
    rider = replace(fighter(Dexterity=3, Ride=1, Brawl=1), conditions={"mount": horse, "ridden": True})
    # Only the punch: Dexterity 3 + Brawl 1 = 4, -3 (action 2 of 2): 1 die; no Ride roll.
    roller = dice(9)
    attack = AE.attack(acting(rider, 2, 1), fighter(), "punch", roller)
    done(roller)
    assert attack.pool.size == 1 and not attack.lost_control
    assert not any("Ride" in line for line in englished(attack.preface))
