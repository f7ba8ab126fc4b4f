"""Character generation and experience rules (rules/chargen.py) over the shipped tables."""

import pytest

from rules import chargen
from rules.chargen import ChargenError
from rules.data import RulesDataError
from rules.systems import get_system
from tests.rules.forced_dice import dice
from tests.rules.wording import englished


def rules_of(key):
    return chargen.load(key, get_system(key).trait_names)


def build(rules, **ratings):
    traits = rules.start()
    for trait, rating in ratings.items():
        traits = rules.set_trait(traits, trait.replace("_", " "), rating)
    return traits


def test_every_system_has_a_table_that_names_only_its_own_traits():
    for key in ("storyteller", "aeon", "eldritch", "elethril"):
        rules = rules_of(key)
        assert set(rules.trait_names) <= set(get_system(key).trait_names)
        assert set(rules.locked) <= set(get_system(key).trait_names)


def test_storyteller_attributes_start_at_one_and_the_most_spent_category_gets_seven():
    rules = rules_of("storyteller")
    traits = build(rules, Strength=5, Dexterity=4)   # 4 + 3 dots: Physical, ranked first
    tally = rules.tally(traits)
    assert [(p.name, p.size, p.spent) for p in tally.pools[:3]] == [
        ("Physical", 7, 7), ("Social", 5, 0), ("Mental", 3, 0)]
    assert tally.freebies_spent == 0


def test_storyteller_ability_over_its_creation_maximum_is_refused_by_name():
    rules = rules_of("storyteller")
    with pytest.raises(ChargenError, match=r"^Brawl 4 is over the creation maximum 3\.$"):
        rules.set_trait(rules.start(), "Brawl", 4)


def test_storyteller_dots_past_the_priorities_spend_freebies():
    rules = rules_of("storyteller")
    traits = build(rules, Strength=5, Dexterity=4, Stamina=2)   # Physical 8 of 7: 1 dot = 5 freebies
    assert rules.tally(traits).freebies_spent == 5
    assert rules.tally(traits).freebies_left == 10


def test_storyteller_refusal_when_the_freebies_run_out_names_what_is_left():
    rules = rules_of("storyteller")
    traits = build(rules, Strength=5, Dexterity=5)          # Physical 8 of 7: 5 freebies
    traits = rules.set_trait(traits, "Stamina", 3)           # 10 of 7: 15 freebies, none left
    with pytest.raises(ChargenError) as refused:
        rules.set_trait(traits, "Stamina", 4)
    assert str(refused.value) == ("0 points left for Physical and 0 freebie points left "
                                  "(Attributes dots cost 5); Stamina 4 costs 1.")
    assert rules.tally(traits).freebies_left == 0


def test_storyteller_problems_list_the_points_left_before_submission():
    rules = rules_of("storyteller")
    assert englished(rules.problems(rules.start())) == [
        "7 points left for Physical.", "5 points left for Social.", "3 points left for Mental.",
        "13 points left for Talents.", "9 points left for Skills.", "5 points left for Knowledges.",
        "15 freebie points left."]


def test_aeon_abilities_share_one_pool_of_eighteen_and_locked_traits_are_refused():
    rules = rules_of("aeon")
    traits = build(rules, Brawl=3, Melee=3, Firearms=3, Athletics=3, Awareness=3, Stealth=3)
    assert rules.tally(traits).pool("Abilities").spent == 18
    with pytest.raises(ChargenError, match=r"^Hardness is set by staff, not bought in aeon character generation\.$"):
        rules.set_trait(traits, "Hardness", 1)
    assert rules.start()["Willpower"] == 3


def test_eldritch_points_pools_have_no_freebies_and_say_what_is_left():
    rules = rules_of("eldritch")
    traits = build(rules, Brawl=5, Melee=5, Acrobatics=3)
    with pytest.raises(ChargenError) as refused:
        rules.set_trait(traits, "Notice", 3)
    assert str(refused.value) == "2 points left for Skills; Notice 3 costs 3."


def test_eldritch_advanced_maneuver_costs_two_character_points_and_five_xp():
    rules = rules_of("eldritch")
    traits = build(rules, Acute_Senses=1, Fast_Reaction_Time=1, Natural_Toughness=1)   # 6 of 10
    traits = rules.set_trait(traits, "Atemi Grip", 1)
    assert rules.tally(traits).pool("Qualities").spent == 8
    traits = rules.set_trait(traits, "Wall Flip", 1)
    with pytest.raises(ChargenError, match=r"^0 points left for Qualities; Ear Pop 1 costs 2\.$"):
        rules.set_trait(traits, "Ear Pop", 1)
    assert rules.xp_cost("Ear Pop", 0, 1, 1) == 5
    with pytest.raises(ChargenError, match=r"^Ear Pop 2 is over the maximum 1\.$"):
        rules.xp_cost("Ear Pop", 0, 2, 1)


def test_eldritch_drawback_gives_character_points_back():
    rules = rules_of("eldritch")
    traits = build(rules, Acute_Senses=1, Fast_Reaction_Time=1, Natural_Toughness=1, Situational_Awareness=1,
                   Honorable=2, Atemi_Grip=1)
    assert rules.tally(traits).pool("Qualities").spent == 8   # 8 - 2 + 2
    with pytest.raises(ChargenError, match=r"not bought with experience"):
        rules.xp_cost("Honorable", 2, 3, 20)


def test_eldritch_attributes_under_their_minimum_block_submission():
    rules = rules_of("eldritch")
    problems = englished(rules.problems(rules.start()))
    assert problems[0] == "Strength 0 is under the creation minimum 1."
    assert "20 points left for Attributes." in problems


def test_xp_costs_follow_the_current_rating():
    rules = rules_of("storyteller")
    assert rules.xp_cost("Brawl", 0, 1, 5) == 3          # a new ability
    assert rules.xp_cost("Brawl", 2, 4, 5) == 2 * 2 + 3 * 2
    assert rules.xp_cost("Strength", 3, 4, 5) == 12
    with pytest.raises(ChargenError, match=r"^Brawl is 3 already; name a higher rating\.$"):
        rules.xp_cost("Brawl", 3, 3, 5)


def test_elethril_scores_are_rolled_three_dice_each_in_order():
    rules = rules_of("elethril")
    faces = [6, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1]
    rolled = rules.roll_scores(dice(*faces))
    assert dict(rolled.scores) == {"Strength": 18, "Dexterity": 15, "Constitution": 12, "Intelligence": 9,
                                   "Wisdom": 6, "Charisma": 3}
    assert rolled.faces["Strength"] == (6, 6, 6)


def test_elethril_class_and_scores_give_the_sheet_traits():
    rules = rules_of("elethril")
    warrior = rules.require_class("war")
    traits = rules.derive({"Strength": 18, "Dexterity": 16, "Constitution": 17}, warrior)
    assert traits == {"THAC0": 20, "Armor Class": 8, "Hit Points": 13, "Reaction": 1, "Hit Probability": 1,
                      "Damage Adjustment": 2, "Attacks": 1, "Caster Level": 0}
    with pytest.raises(ChargenError, match=r"^A Wizard needs Intelligence 9; yours is 8\.$"):
        rules.derive({"Intelligence": 8}, rules.require_class("Wizard"))
    with pytest.raises(ChargenError, match=r"^THAC0 comes from your rolled scores"):
        rules.set_trait({}, "THAC0", 15)


def test_a_table_naming_a_trait_the_system_lacks_is_refused(tmp_path):
    (tmp_path / "aeon.toml").write_text('method = "points"\nfreebies = 0\n[[groups]]\nname = "A"\n'
                                        'traits = ["THAC0"]\nbase = 0\nmin = 0\nmax = 3\npoints = 3\n')
    with pytest.raises(RulesDataError, match="'THAC0' is not a trait of the system"):
        chargen.load("aeon", get_system("aeon").trait_names, data_dir=tmp_path)


def test_experience_buys_no_more_than_the_groups_experience_maximum():
    rules = rules_of("storyteller")
    assert rules.xp_cost("Brawl", 4, 5, 20) == 8
    with pytest.raises(ChargenError, match=r"^Brawl 6 is over the maximum 5\.$"):
        rules.xp_cost("Brawl", 5, 6, 20)
    assert rules.xp_cost("Willpower", 9, 10, 20) == 9   # advantages: the sheet's own maximum


def test_one_point_left_reads_in_the_singular_in_problems_and_refusals():
    storyteller = rules_of("storyteller")
    traits = build(storyteller, Strength=5, Dexterity=3)            # Physical 6 of 7
    assert englished(storyteller.problems(traits))[0] == "1 point left for Physical."
    traits = build(storyteller, Strength=5, Dexterity=5, Stamina=2, Willpower=4)   # 10 + 4 of 15 freebies
    assert storyteller.tally(traits).freebies_left == 1
    assert englished(storyteller.problems(traits))[-1] == "1 freebie point left."
    with pytest.raises(ChargenError) as refused:
        storyteller.set_trait(traits, "Stamina", 3)
    assert str(refused.value) == ("0 points left for Physical and 1 freebie point left "
                                  "(Attributes dots cost 5); Stamina 3 costs 1.")
    eldritch = rules_of("eldritch")
    traits = build(eldritch, Brawl=5, Melee=5, Acrobatics=4)          # Skills 14 of 15
    with pytest.raises(ChargenError) as refused:
        eldritch.set_trait(traits, "Notice", 2)
    assert str(refused.value) == "1 point left for Skills; Notice 2 costs 2."
    assert refused.value.line.key == "chargen.refusal.over_budget"
    assert refused.value.line.values["left"].key == "chargen.line.points_left_one"


def test_a_refusal_is_a_catalogue_line_with_its_values():
    rules = rules_of("storyteller")
    with pytest.raises(ChargenError) as refused:
        rules.set_trait(rules.start(), "Brawl", 4)
    assert refused.value.line.key == "chargen.refusal.over_creation_maximum"
    assert dict(refused.value.line.values) == {"trait": "Brawl", "rating": 4, "highest": 3}
    assert str(refused.value) == "Brawl 4 is over the creation maximum 3."
