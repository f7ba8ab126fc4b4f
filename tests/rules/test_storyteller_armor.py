"""Armor soak under the storyteller system (Fray default: armor adds soak dice per damage type)."""

from __future__ import annotations

import copy

import pytest

from rules.data import RulesDataError, load_system_data
from rules.systems import get_system
from rules.systems.base import Combatant
from rules.systems.storyteller.system import StorytellerSystem
from tests.rules.forced_dice import dice
from tests.rules.wording import englished

ST = get_system("storyteller")


def test_armor_table_is_data():
    assert ST.armor_columns == ("bashing", "lethal", "aggravated")
    assert ST.armor_table["goblin-mail"] == {"name": "Goblin-made Mail", "soak": {"bashing": 2, "lethal": 2}}


def test_armor_adds_soak_dice_to_stamina():
    wizard = Combatant("Wiz", {"Stamina": 2}, kind="Wizard", armor={"bashing": 2, "lethal": 2})
    roller = dice(5, 5, 5, 1)  # Stamina 2 + armor 2 = 4 dice vs 5
    harm, lines = ST._harm(wizard, None, 3, "lethal", roller, rolled=False)
    assert harm.soak_roll.faces == (5, 5, 5, 1) and harm.levels == 0
    assert "Wiz soaks: Stamina 2 + armor 2 = 4 dice vs 5: 5 5 5 1 -> 3 successes = 3 successes" in englished(lines)


def test_armor_lets_a_muggle_soak_lethal_with_the_armor_dice_alone():
    muggle = Combatant("Mo", {"Stamina": 3}, kind="Muggle", armor={"bashing": 1, "lethal": 1})
    harm, lines = ST._harm(muggle, None, 2, "lethal", dice(6), rolled=False)
    assert harm.levels == 1
    assert "Mo soaks (armor only): armor 1 die vs 5: 6 -> 1 success = 1 success" in englished(lines)


def test_no_armor_for_the_type_changes_nothing():
    muggle = Combatant("Mo", {"Stamina": 3}, kind="Muggle", armor={"bashing": 1})
    harm, lines = ST._harm(muggle, None, 2, "lethal", dice(), rolled=False)
    assert harm.soak_roll is None and harm.levels == 2


@pytest.mark.parametrize("broken", [
    {"name": "Bad"},                                    # no soak column
    {"name": "Bad", "fire": 2},                         # unknown column
    {"name": "Bad", "lethal": "two"},                   # not a number
    {"bashing": 1},                                     # no name
])
def test_armor_data_is_validated(broken):
    data = copy.deepcopy(load_system_data("storyteller"))
    data["armor"]["bad"] = broken
    with pytest.raises(RulesDataError, match="armor.bad"):
        StorytellerSystem(data)
