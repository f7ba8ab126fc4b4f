"""Tests for the ``storyteller`` rule system (pure Python, no DB).

Every number of the storyteller seed and of ``docs/rules/storyteller.md`` is pinned
here with forced dice: each test queues exactly the faces it expects to be rolled, the fallback roller
fails the test if one more die is asked for, and ``done()`` checks that none were left over.
"""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.data import RulesDataError, load_system_data
from rules.dice import DiceSyntaxError, parse_pool
from rules.lines import Line
from rules.systems import get_system
from rules.systems.base import Combatant, CombatError, InitiativeRoll, Pool, Verdict
from rules.systems.storyteller.system import StorytellerSystem
from tests.rules.forced_dice import dice, done  # noqa: E402
from tests.rules.wording import english, englished

ST = get_system("storyteller")


def fighter(name: str = "Ann", kind: str = "Muggle", weapon: str = "", health=None,
            base_kind: str = "Muggle", transformed: bool = False, conditions=None,
            **traits: int) -> Combatant:
    return Combatant(name=name, traits=traits, kind=kind, base_kind=base_kind,
                     transformed=transformed, weapon=weapon, health=health or {},
                     conditions=conditions or {})


def check(text: str, actor: Combatant | None = None, *faces: int, willpower: bool = False,
          modifier: int = 0):
    roller = dice(*faces)
    result = ST.roll_check(parse_pool(text, ST.trait_names), actor or fighter(), roller,
                           willpower=willpower, modifier=modifier)
    done(roller)
    return result


# ======================================================================== registry


def test_registry_returns_the_storyteller_system():
    assert isinstance(ST, StorytellerSystem)
    assert ST.key == "storyteller"
    assert get_system(" StoryTeller ").key == "storyteller"
    with pytest.raises(CombatError):
        get_system("nope")


# =========================================================================== pools


@pytest.mark.parametrize(("faces", "net", "summary"), [
    ((6, 5, 4), 1, Verdict("success", 1)),           # 6 reaches difficulty 6, 5 does not
    ((10, 9, 6), 3, Verdict("success", 3)),
    ((5, 4, 2), 0, Verdict("failure")),
    ((8, 9, 1), 1, Verdict("success", 1)),           # one 1 cancels one success
    ((8, 1, 1), 0, Verdict("failure")),             # successes all cancelled: failure, not botch
    ((8, 1, 1, 1), 0, Verdict("failure")),          # never below 0 (and still no botch)
    ((5, 1, 3), 0, Verdict("botch")),               # no success and at least one 1
    ((1, 1, 1), 0, Verdict("botch")),
])
def test_pool_successes_ones_and_botch(faces, net, summary):
    result = check("3 vs 6" if len(faces) == 3 else "4 vs 6", None, *faces)
    assert result.summary == summary
    assert result.record["faces"] == list(faces)
    assert result.record["difficulty"] == 6
    assert result.record["result"] == summary.to_record()
    if summary == Verdict("botch"):
        assert "BOTCH" in english(result.lines[0])


def test_default_difficulty_is_6():
    result = check("2", None, 6, 5)
    assert result.record["difficulty"] == 6
    assert result.summary == Verdict("success", 1)


@pytest.mark.parametrize("difficulty", range(2, 11))
def test_difficulty_2_to_10_accepted_and_the_face_must_reach_it(difficulty):
    below = max(difficulty - 1, 2) if difficulty > 2 else 2   # avoid a 1 (it would cancel)
    faces = (difficulty, below)
    result = check(f"2 vs {difficulty}", None, *faces)
    assert result.record["difficulty"] == difficulty
    expected = 2 if difficulty == 2 else 1
    assert result.summary == Verdict("success", 1 if expected == 1 else 2)


@pytest.mark.parametrize("difficulty", [0, 1, 11, 12])
def test_difficulty_outside_2_to_10_refused(difficulty):
    with pytest.raises(DiceSyntaxError, match="2 to 10"):
        check(f"3 vs {difficulty}")     # no dice rolled


@pytest.mark.parametrize("text", ["0", "0 vs 6", "2 - 3", "Strength vs 6"])
def test_empty_pool_rolls_no_dice_and_says_so(text):
    result = check(text)                  # the fallback would fail on any die
    assert result.record["faces"] == []
    assert result.summary == Verdict("failure")
    assert "empty pool" in english(result.lines[0])


def test_sum_of_numbers_rolls_that_many_dice():
    result = check("3+2 vs 6", None, 6, 6, 2, 2, 2)
    assert len(result.record["faces"]) == 5
    assert result.summary == Verdict("success", 2)


def test_d10_dice_count_as_dice_in_the_pool():
    result = check("3d10 vs 7", None, 7, 6, 10)
    assert len(result.record["faces"]) == 3
    assert result.summary == Verdict("success", 2)
    assert check("Dex + 1d10", fighter(Dexterity=2), 6, 6, 6).summary == Verdict("success", 3)


@pytest.mark.parametrize("text", ["2d6", "1d20 vs 6", "2 + 3d6"])
def test_other_dice_refused(text):
    with pytest.raises(DiceSyntaxError, match="d10"):
        check(text)


@pytest.mark.parametrize(("text", "key", "message"), [
    ("3 vs 11", "storyteller.refusal.difficulty_range", "Difficulty must be 2 to 10, not 11."),
    ("3 vs -3", "storyteller.refusal.difficulty_range", "Difficulty must be 2 to 10, not -3."),
    ("3 vs 99999999999", "storyteller.refusal.difficulty_range", "Difficulty must be 2 to 10, not 99999999999."),
    ("2 + 3d6", "storyteller.refusal.only_ten_sided_dice", "Storyteller pools are d10s: '3d6' is not."),
    ("60+60 vs 6", "dice.refusal.too_many_dice", "Too many dice: at most 100."),
])
def test_refused_rolls_are_one_line_of_the_catalogue(text, key, message):
    with pytest.raises(DiceSyntaxError) as err:
        check(text)
    assert (err.value.line.key, str(err.value)) == (key, message)


def test_traits_sum_into_the_pool():
    actor = fighter(Dexterity=3, Brawl=2)
    result = check("Dex + Brawl vs 7", actor, 7, 7, 6, 6, 2)
    assert english(result.lines[0]).startswith("Dexterity 3 + Brawl 2 = 5 dice")
    assert result.summary == Verdict("success", 2)


@pytest.mark.parametrize(("faces", "summary"), [
    ((1,), Verdict("success", 1)),                 # the automatic success: no botch, 1s can't cancel it
    ((7, 1), Verdict("success", 1)),               # the rolled success is cancelled, willpower's is not
    ((7, 8, 1), Verdict("success", 2)),
    ((3, 4), Verdict("success", 1)),
    ((1, 1), Verdict("success", 1)),
])
def test_willpower_adds_one_automatic_success_ones_cannot_cancel(faces, summary):
    result = check(f"{len(faces)} vs 6", fighter(Willpower=3), *faces, willpower=True)
    assert result.summary == summary
    assert result.record["automatic"] == 1
    assert "(willpower)" in english(result.lines[0])


def test_willpower_on_an_empty_pool_is_one_success():
    assert check("0", fighter(Willpower=1), willpower=True).summary == Verdict("success", 1)


@pytest.mark.parametrize("willpower", [0, None])
def test_willpower_spend_needs_willpower(willpower):
    actor = fighter(Dexterity=3) if willpower is None else fighter(Dexterity=3, Willpower=willpower)
    with pytest.raises(CombatError) as caught:
        check("Dexterity", actor, willpower=True)
    assert str(caught.value) == "Ann has no Willpower to spend: roll without /wp."


@pytest.mark.parametrize(("health", "dice_left"), [
    ({}, 5),
    ({"bashing": 1}, 5),                  # Bruised 0
    ({"bashing": 2}, 4),                  # Hurt -1
    ({"lethal": 3}, 4),                   # Injured -1
    ({"lethal": 4}, 3),                   # Wounded -2
    ({"aggravated": 5}, 3),               # Mauled -2
    ({"bashing": 6}, 0),                  # Crippled -5
])
def test_wound_penalty_reduces_the_pool(health, dice_left):
    actor = fighter(Dexterity=3, Brawl=2, health=health)
    result = check("Dex + Brawl", actor, *([6] * dice_left))
    assert len(result.record["faces"]) == dice_left
    penalty = 5 - dice_left
    if penalty:
        assert f"- {penalty} (wounds)" in english(result.lines[0])
    else:
        assert "wounds" not in english(result.lines[0])


def test_roll_check_modifier_joins_the_pool():
    result = check("3", None, 6, 6, 6, 6, modifier=1)
    assert "1 (modifier)" in english(result.lines[0])
    assert len(result.record["faces"]) == 4


def test_ones_cancel_is_a_data_option():
    data = load_system_data("storyteller")
    data["dice"]["ones_cancel"] = False
    system = StorytellerSystem(data)
    roller = dice(7, 1)
    result = system.roll_check(parse_pool("2", system.trait_names), fighter(), roller)
    done(roller)
    assert result.summary == Verdict("success", 1)


# ==================================================================== initiative


def test_initiative_is_wits_plus_dexterity_plus_1d10():
    roller = dice(7)
    roll = ST.roll_initiative(fighter(Wits=2, Dexterity=3), roller)
    done(roller)
    assert (roll.die, roll.total, roll.tiebreak) == (7, 12, 5)
    assert roll.describe() == "Wits 2 + Dexterity 3 = 5 + 1d10 (7) = 12"


def test_initiative_die_is_a_d10():
    with pytest.raises(ValueError, match="d10"):
        ST.roll_initiative(fighter(Wits=2, Dexterity=3), dice(11))
    assert ST.roll_initiative(fighter(), dice(10)).total == 10


def test_initiative_applies_the_wound_penalty():
    roller = dice(7)
    roll = ST.roll_initiative(fighter(Wits=2, Dexterity=3, health={"lethal": 4}), roller)
    done(roller)
    assert roll.total == 10                       # Wounded -2
    assert roll.tiebreak == 5                     # ties still break on Wits + Dex
    assert "2 (wounds)" in roll.describe()


def test_incapacitated_cannot_roll_initiative():
    with pytest.raises(CombatError):
        ST.roll_initiative(fighter(health={"bashing": 7}), dice())


def init(name: str, total: int, tiebreak: int) -> InitiativeRoll:
    return InitiativeRoll(name, Pool((("Wits", 0), ("Dexterity", tiebreak))), total - tiebreak,
                          total, tiebreak)


def test_schedule_acts_highest_first_and_declares_lowest_first():
    schedule = ST.schedule([init("Bob", 9, 4), init("Ann", 14, 5), init("Cid", 11, 3)])
    assert [(s.at, s.names) for s in schedule.slots] == [
        (14, ("Ann",)), (11, ("Cid",)), (9, ("Bob",))]
    assert schedule.declare == ("Bob", "Cid", "Ann")


def test_schedule_ties_break_on_wits_plus_dex_then_share_a_slot():
    rolls = [init("Zed", 12, 4), init("amy", 12, 6), init("Bob", 12, 4), init("Cat", 10, 2)]
    schedule = ST.schedule(rolls)
    assert [(s.at, s.names) for s in schedule.slots] == [
        (12, ("amy",)), (12, ("Bob", "Zed")), (10, ("Cat",))]
    assert schedule.declare == ("Cat", "Bob", "Zed", "amy")


def test_schedule_of_nobody_is_empty():
    assert ST.schedule([]).slots == ()


@given(st.lists(st.tuples(st.integers(-5, 25), st.integers(0, 10)), min_size=1, max_size=8)
       .flatmap(lambda values: st.permutations(
           [init(f"N{i}", total, tie) for i, (total, tie) in enumerate(values)])
           .map(lambda shuffled: (values, shuffled))))
def test_schedule_is_identical_for_any_input_order(case):
    values, shuffled = case
    original = [init(f"N{i}", total, tie) for i, (total, tie) in enumerate(values)]
    expected = ST.schedule(original)
    assert ST.schedule(shuffled) == expected
    assert ST.schedule(list(reversed(shuffled))) == expected
    # acting order is non-increasing; every name appears exactly once
    keys = [(r.total, r.tiebreak) for s in expected.slots for r in original if r.name in s.names]
    assert keys == sorted(keys, reverse=True)
    assert sorted(n for s in expected.slots for n in s.names) == sorted(r.name for r in original)
    assert expected.declare == tuple(n for s in reversed(expected.slots) for n in s.names)


# ====================================================================== maneuvers

ATTACKER = dict(Strength=3, Dexterity=2, Brawl=2, Melee=1, Athletics=1, Stamina=2)


@pytest.mark.parametrize(("option", "traits", "difficulty"), [
    ("punch", ("Dexterity", "Brawl"), 6),
    ("kick", ("Dexterity", "Brawl"), 7),
    ("grapple", ("Strength", "Brawl"), 7),
    ("hold", ("Strength", "Brawl"), 6),
    ("tackle", ("Strength", "Brawl"), 7),
    ("dagger", ("Dexterity", "Melee"), 6),
    ("staff", ("Dexterity", "Melee"), 6),
])
def test_maneuver_to_hit_pool_and_difficulty(option, traits, difficulty):
    attacker = fighter("Ann", **ATTACKER)
    size = sum(ATTACKER[t] for t in traits)
    roller = dice(*([difficulty] + [difficulty - 1] * (size - 1)))
    attack = ST.attack(attacker, fighter("Bob"), option, roller)
    done(roller)
    assert attack.pool.parts == tuple((t, ATTACKER[t]) for t in traits)
    assert attack.roll.difficulty == difficulty
    assert attack.roll.net == 1
    assert attack.needs_defense


@pytest.mark.parametrize(("modifier", "difficulty"), [(-4, 2), (-1, 5), (1, 7), (2, 8), (4, 10)])
def test_modifier_moves_the_difficulty(modifier, difficulty):
    faces = (2, 2, 2, 2) if difficulty == 2 else (difficulty, difficulty - 1, 2, 2)
    roller = dice(*faces)
    attack = ST.attack(fighter(**ATTACKER), fighter("Bob"), "punch", roller, modifier=modifier)
    done(roller)
    assert attack.roll.difficulty == difficulty
    assert attack.roll.net == (4 if difficulty == 2 else 1)


@pytest.mark.parametrize(("option", "modifier"), [("punch", 5), ("punch", -5), ("kick", 4)])
def test_modifier_cannot_leave_2_to_10(option, modifier):
    with pytest.raises(CombatError):
        ST.attack(fighter(**ATTACKER), fighter("Bob"), option, dice(), modifier=modifier)


def test_attack_pool_takes_the_wound_penalty():
    attacker = fighter(health={"bashing": 2}, **ATTACKER)          # Hurt -1
    roller = dice(6, 6, 6)
    attack = ST.attack(attacker, fighter("Bob"), "punch", roller)
    done(roller)
    assert attack.pool.size == 3
    assert "1 (wounds)" in english(attack.describe())


def test_empty_attack_pool_rolls_nothing_and_misses():
    attack = ST.attack(fighter(), fighter("Bob"), "punch", dice())
    assert attack.roll.faces == () and not attack.needs_defense
    roller = dice()
    resolution = ST.resolve(attack, None, fighter(), fighter("Bob"), roller)
    assert not resolution.hit and resolution.harm == ()


def test_maneuver_lookup_by_prefix_default_and_spaces():
    assert ST.maneuver("gra", fighter()).key == "grapple"
    assert ST.maneuver("Brass Knuckles", fighter()).key == "brass-knuckles"
    assert ST.maneuver("", fighter()).key == "punch"
    assert ST.maneuver("", fighter(weapon="sword")).key == "sword"
    with pytest.raises(CombatError):
        ST.maneuver("s", fighter())                  # sword, switchblade, spear, staff
    with pytest.raises(CombatError):
        ST.maneuver("bazooka", fighter())


def hit(option: str, successes: int, attacker: Combatant | None = None, *, difficulty: int):
    """An attack of ``option`` with exactly ``successes`` net successes (no 1s)."""
    attacker = attacker or fighter("Ann", **ATTACKER)
    size = ST.maneuver(option, attacker).to_hit
    size = sum(attacker.trait(t) for t in size) + ST.health(attacker.health).penalty
    faces = [10] * successes + [2] * (size - successes)
    roller = dice(*faces)
    attack = ST.attack(attacker, fighter("Bob"), option, roller)
    done(roller)
    assert attack.roll.net == successes and attack.roll.difficulty == difficulty
    return attack


def resolve(attack, defense, attacker, target, *faces):
    roller = dice(*faces)
    resolution = ST.resolve(attack, defense, attacker, target, roller)
    done(roller)
    return resolution


@pytest.mark.parametrize(("option", "difficulty", "net", "parts"), [
    ("punch", 6, 1, (("Strength", 3),)),
    ("punch", 6, 3, (("Strength", 3), ("rollover", 2))),
    ("kick", 7, 1, (("Strength", 3), ("kick", 1))),
    ("kick", 7, 2, (("Strength", 3), ("kick", 1), ("rollover", 1))),
])
def test_brawl_damage_pools(option, difficulty, net, parts):
    attacker = fighter("Ann", **ATTACKER)
    target = fighter("Bob", Stamina=1)
    attack = hit(option, net, attacker, difficulty=difficulty)
    size = sum(v for _, v in parts)
    # damage: all 6s (each a success vs 6); soak Stamina 1 vs 5: a 4 fails
    resolution = resolve(attack, None, attacker, target, *([6] * size), 4)
    (harm,) = resolution.harm
    assert harm.pool.parts == parts
    assert harm.damage_roll.difficulty == 6
    assert harm.soak_roll.difficulty == 5
    assert harm.levels == size
    assert harm.damage_type == "bashing"
    assert harm.health_after.bashing == min(size, 7)
    assert resolution.hit and resolution.net_successes == net
    assert ("held", "Bob", "Ann") not in resolution.effects


def test_grapple_does_the_attackers_strength_in_damage():
    """Seed, Grapple: "On success, attacker does their Strength in damage" (where punch says
    "Strength + rollover successes vs 6 for damage"): Fray's reading (a data option,
    ``damage_rolled = false``) is Strength levels outright, no rollover; then soak."""
    attacker = fighter("Ann", **ATTACKER)               # Strength 3
    target = fighter("Bob", Stamina=1)
    attack = hit("grapple", 3, attacker, difficulty=7)
    resolution = resolve(attack, None, attacker, target, 4)   # only the soak die: 4 fails vs 5
    (harm,) = resolution.harm
    assert harm.damage_roll is None and harm.levels == 3
    assert harm.pool.parts == (("Strength", 3),)
    assert "damage: 3 levels bashing" in englished(resolution.lines)
    assert ("held", "Bob", "Ann") in resolution.effects
    data = copy.deepcopy(load_system_data("storyteller"))
    data["maneuvers"]["grapple"]["damage_rolled"] = True       # the other reading: dice vs 6
    rolled = StorytellerSystem(data)
    roller = dice(6, 6, 2, 4)
    resolution = rolled.resolve(rolled.attack_from_record(attack.to_record()), None, attacker, target, roller)
    done(roller)
    assert resolution.harm[0].damage_roll.difficulty == 6 and resolution.harm[0].levels == 2


def test_hold_does_no_damage_and_holds():
    attacker = fighter("Ann", **ATTACKER)
    attack = hit("hold", 3, attacker, difficulty=6)
    resolution = resolve(attack, None, attacker, fighter("Bob"))        # no dice at all
    assert resolution.hit and resolution.harm == ()
    assert resolution.effects == (("held", "Bob", "Ann"),)


def test_escape_is_contested_strength_plus_brawl_vs_6():
    escaper = fighter("Bob", Strength=2, Brawl=1)
    holder = fighter("Ann", **ATTACKER)               # Str 3 + Brawl 2
    roller = dice(6, 6, 2, 6, 5, 5, 5, 5)
    escaped, lines = ST.escape_hold(escaper, holder, roller)
    done(roller)
    assert escaped                                    # 2 successes beat 1
    roller = dice(6, 6, 2, 6, 6, 5, 5, 5)
    escaped, _ = ST.escape_hold(escaper, holder, roller)
    done(roller)
    assert not escaped                                # a tie keeps the hold


def test_tackle_success_damage_prone_checks_and_difficulty_next_turn():
    attacker = fighter("Ann", **ATTACKER)              # Dex 2 + Athletics 1 = 3 dice
    target = fighter("Bob", Stamina=1, Dexterity=1, Athletics=1)
    attack = hit("tackle", 2, attacker, difficulty=7)
    # damage Str 3 + 1 + rollover 1 = 5 dice vs 6; soak 1 die; prone checks vs 7
    resolution = resolve(attack, None, attacker, target,
                         6, 6, 2, 2, 2,        # damage: 2 successes
                         5,                    # Bob soaks 1
                         7, 2, 2,              # Ann: 1 success vs 7 -> stays up
                         6, 2)                 # Bob: 6 fails vs 7 -> prone
    (harm,) = resolution.harm
    assert harm.pool.parts == (("Strength", 3), ("tackle", 1), ("rollover", 1))
    assert harm.levels == 1 and harm.damage_type == "bashing"
    assert ("prone", "Ann", True) not in resolution.effects
    assert ("prone", "Bob", True) in resolution.effects
    assert ("tackled", "Bob", 1) in resolution.effects
    assert "Bob is at +1 difficulty to all actions next turn." in englished(resolution.lines)


def test_tackle_penalty_lasts_the_whole_next_turn_then_goes():
    """Seed, Tackle: "Target is at +1 difficulty to all actions next turn": marked when
    tackled, on every roll through the next round, gone the round after."""
    effect = ST.start_of_round(fighter("Bob", conditions={"tackled": 1}), 2)
    assert effect.conditions == {"tackled": None, "difficulty": 1}
    assert "Bob is at +1 difficulty to all actions this turn (tackled)." in englished(effect.lines)
    bob = fighter("Bob", Power=2, Control=2, Strength=1, Brawl=1, conditions={"difficulty": 1})
    roller = dice(7, 7)
    assert ST.roll_check(parse_pool("2", ST.trait_names), bob, roller).record["difficulty"] == 7
    done(roller)
    roller = dice(7, 2, 10, 2)
    cast = ST.magic.cast(bob, "lumos", roller)          # Power vs 7, Control vs 10 (at most 10)
    done(roller)
    assert (cast.power.difficulty, cast.control.difficulty) == (7, 10)
    roller = dice(7, 7, 2, 2)
    escaped, _ = ST.escape_hold(bob, fighter("Ann", Strength=1, Brawl=1), roller)
    done(roller)
    assert escaped                                      # Bob needs 7s: 7 7 -> 2; Ann vs 6: 0
    assert ST.start_of_round(bob, 3).conditions == {"difficulty": None}
    assert ST.start_of_round(fighter("Bob"), 3) is None


def test_tackle_prone_check_one_cancels_and_both_can_fall():
    attacker = fighter("Ann", **ATTACKER)
    target = fighter("Bob", Stamina=0, Dexterity=1, Athletics=0)
    attack = hit("tackle", 1, attacker, difficulty=7)
    resolution = resolve(attack, None, attacker, target,
                         2, 2, 2, 2,           # damage Str 3 + 1: no success, no soak roll
                         10, 1, 2,             # Ann: the 1 cancels the 10 -> prone
                         10)                   # Bob: stays up
    assert resolution.harm[0].levels == 0
    assert ("prone", "Ann", True) in resolution.effects
    assert ("prone", "Bob", True) not in resolution.effects


def test_tackle_prone_check_takes_the_wound_penalty():
    attacker = fighter("Ann", health={"bashing": 2}, **ATTACKER)     # Hurt -1
    target = fighter("Bob", Dexterity=2, Athletics=1, health={"lethal": 4})   # Wounded -2
    attack = hit("tackle", 1, attacker, difficulty=7)
    resolution = resolve(attack, None, attacker, target,
                         2, 2, 2, 2,           # damage: nothing
                         7, 7,                 # Ann: 3 - 1 = 2 dice
                         2)                    # Bob: 3 - 2 = 1 die -> prone
    assert ("prone", "Bob", True) in resolution.effects
    assert ("prone", "Ann", True) not in resolution.effects


def test_tackle_next_turn_difficulty_applies_as_modifier():
    roller = dice(7, 2, 2, 2)                     # Dex 2 + Brawl 2
    attack = ST.attack(fighter(**ATTACKER), fighter("Bob"), "punch", roller, modifier=1)
    done(roller)
    assert attack.roll.difficulty == 7


def test_tackle_botch_hurts_the_attacker_by_target_stamina_soakable():
    attacker = fighter("Ann", **ATTACKER)              # Stamina 2, Muggle soaks bashing
    target = fighter("Bob", Stamina=3)
    roller = dice(1, 2, 3, 4, 5)                       # Str 3 + Brawl 2: no success, a 1
    attack = ST.attack(attacker, target, "tackle", roller)
    done(roller)
    assert attack.roll.botch and not attack.needs_defense
    resolution = resolve(attack, None, attacker, target, 5, 2)   # Ann soaks 1 of 3
    (harm,) = resolution.harm
    assert harm.name == "Ann" and harm.damage_type == "bashing"
    assert harm.damage_roll is None                    # levels, not dice
    assert harm.soak_roll.faces == (5, 2)
    assert harm.levels == 2
    assert harm.health_after.bashing == 2
    assert not resolution.hit and resolution.effects == ()


def test_other_botches_do_nothing_more():
    attacker = fighter("Ann", **ATTACKER)
    roller = dice(1, 3, 3, 3)
    attack = ST.attack(attacker, fighter("Bob"), "punch", roller)
    done(roller)
    resolution = resolve(attack, None, attacker, fighter("Bob"))
    assert attack.roll.botch and resolution.harm == () and not resolution.hit


WEAPONS = [
    ("dagger", "Dagger", 1, "lethal", "Jacket"),
    ("switchblade", "Switchblade", 1, "lethal", ""),
    ("sword", "Sword", 2, "lethal", "Robes"),
    ("greatsword", "Greatsword", 3, "lethal", "Nope!"),
    ("brass-knuckles", "Brass Knuckles", 1, "bashing", ""),
    ("whip", "Whip", 1, "bashing", "Jacket"),
    ("lance", "Lance", 4, "lethal", "Nope!"),
    ("spear", "Spear", 3, "lethal", "Nope!"),
    ("staff", "Staff", 2, "bashing", "Nope!"),
]


def test_the_weapon_table_is_exactly_the_seed():
    assert {key for key in ST.weapons} == {w[0] for w in WEAPONS}


@pytest.mark.parametrize(("key", "name", "bonus", "damage_type", "concealed"), WEAPONS)
@pytest.mark.parametrize("net", [1, 3])
def test_weapon_table(key, name, bonus, damage_type, concealed, net):
    maneuver = ST.maneuvers[key]
    assert (maneuver.label, maneuver.damage_bonus, maneuver.damage_type) == (name, bonus, damage_type)
    assert maneuver.to_hit == ("Dexterity", "Melee") and maneuver.difficulty == 6
    assert ST.weapons[key]["concealed"] == concealed
    attacker = fighter("Ann", **dict(ATTACKER, Melee=3))       # Dex 2 + Melee 3
    target = fighter("Bob", Stamina=1)                         # a Muggle: soaks bashing only
    attack = hit(name, net, attacker, difficulty=6)
    size = 3 + bonus + (net - 1)
    soak = (4,) if damage_type == "bashing" else ()
    resolution = resolve(attack, None, attacker, target, *([6] * size), *soak)
    (harm,) = resolution.harm
    expected = (("Strength", 3), (name, bonus)) + ((("rollover", net - 1),) if net > 1 else ())
    assert harm.pool.parts == expected
    assert harm.damage_type == damage_type
    assert harm.levels == size
    assert (harm.soak_roll is not None) == (damage_type == "bashing")
    if damage_type == "lethal":
        assert any("cannot soak lethal" in line for line in englished(resolution.lines))


# ==================================================================== damage, soak


def test_damage_and_soak_rolls_ones_do_not_cancel_and_never_botch():
    attacker = fighter("Ann", **ATTACKER)
    target = fighter("Bob", Stamina=3)
    attack = hit("punch", 2, attacker, difficulty=6)           # damage Str 3 + 1 rollover
    resolution = resolve(attack, None, attacker, target,
                         6, 1, 1, 10,                          # 2 successes, 1s ignored
                         5, 1, 1)                              # soak: 5 reaches 5 -> 1
    (harm,) = resolution.harm
    assert harm.damage_roll.net == 2 and not harm.damage_roll.botch
    assert harm.soak_roll.net == 1 and not harm.soak_roll.botch
    assert harm.levels == 1


def test_damage_all_ones_is_zero_not_botch_and_no_soak_is_rolled():
    attacker = fighter("Ann", **ATTACKER)
    attack = hit("punch", 1, attacker, difficulty=6)
    resolution = resolve(attack, None, attacker, fighter("Bob", Stamina=3), 1, 1, 1)
    (harm,) = resolution.harm
    assert harm.damage_roll.net == 0 and not harm.damage_roll.botch
    assert harm.soak_roll is None and harm.levels == 0


def test_soak_difficulty_5_boundary_and_never_below_zero():
    attacker = fighter("Ann", **ATTACKER)
    attack = hit("punch", 1, attacker, difficulty=6)
    resolution = resolve(attack, None, attacker, fighter("Bob", Stamina=4),
                         6, 2, 2,                              # 1 level
                         5, 5, 4, 10)                          # soak 3 -> 0 levels
    assert resolution.harm[0].soak_roll.net == 3
    assert resolution.harm[0].levels == 0
    assert resolution.harm[0].health_after.filled == 0


def test_damage_and_soak_ignore_the_wound_penalty():
    attacker = fighter("Ann", health={"bashing": 6}, **dict(ATTACKER, Dexterity=5, Brawl=5))
    target = fighter("Bob", Stamina=2, health={"bashing": 6})  # Crippled -5
    attack = hit("punch", 1, attacker, difficulty=6)           # 10 - 5 = 5 dice
    resolution = resolve(attack, None, attacker, target, 6, 2, 2, 4, 4)
    harm = resolution.harm[0]
    assert len(harm.damage_roll.faces) == 3                    # Strength 3, no penalty
    assert len(harm.soak_roll.faces) == 2                      # Stamina 2, no penalty


@pytest.mark.parametrize(("kind", "base", "transformed", "soaks"), [
    ("Muggle", "Muggle", False, {"bashing"}),
    ("Wizard", "Wizard", False, {"bashing", "lethal"}),
    ("Vampire", "Muggle", False, {"bashing", "lethal", "aggravated"}),
    ("Werewolf", "Muggle", False, {"bashing"}),
    ("Werewolf", "Wizard", False, {"bashing", "lethal"}),
    ("Werewolf", "Muggle", True, {"bashing", "lethal", "aggravated"}),
    ("Werewolf", "Wizard", True, {"bashing", "lethal", "aggravated"}),
    ("Ghost", "Muggle", False, set()),
])
def test_soak_by_kind(kind, base, transformed, soaks):
    actor = fighter(kind=kind, base_kind=base, transformed=transformed)
    for damage_type in ("bashing", "lethal", "aggravated"):
        assert ST.can_soak(actor, damage_type) == (damage_type in soaks), damage_type


def test_vampires_soak_all_aggravated_except_fire():
    vampire = fighter(kind="Vampire")
    assert ST.can_soak(vampire, "aggravated")
    assert not ST.can_soak(vampire, "aggravated", fire=True)
    # Seed, Soak: "Vampires can soak all Agg damage except for Fire": lethal fire
    # (Incendio, Confringo) and bashing fire are soaked as any lethal or bashing.
    assert ST.can_soak(vampire, "lethal", fire=True)
    assert ST.can_soak(vampire, "bashing", fire=True)
    werewolf = fighter(kind="Werewolf", transformed=True)
    assert ST.can_soak(werewolf, "aggravated", fire=True)     # the exception is vampires'


def test_wizard_soaks_lethal_in_resolution():
    attacker = fighter("Ann", **dict(ATTACKER, Melee=3))
    target = fighter("Bob", kind="Wizard", base_kind="Wizard", Stamina=2)
    attack = hit("sword", 1, attacker, difficulty=6)
    resolution = resolve(attack, None, attacker, target, 6, 6, 6, 6, 6, 5, 5)
    assert resolution.harm[0].levels == 3
    assert resolution.harm[0].health_after.lethal == 3


# ======================================================================== defense


def defend(attack, defender, defense, *faces, modifier=0):
    roller = dice(*faces)
    result = ST.defend(attack, defender, defense, roller, modifier=modifier)
    done(roller)
    return result


@pytest.mark.parametrize(("defense", "traits"), [
    ("dodge", ("Dexterity", "Dodge")),
    ("block", ("Dexterity", "Brawl")),
    ("parry", ("Dexterity", "Melee")),
])
def test_defense_pools_vs_6(defense, traits):
    defender = fighter("Bob", weapon="staff", Dexterity=3, Dodge=2, Brawl=1, Melee=4)
    attack = hit("punch", 2, difficulty=6)
    size = sum(defender.trait(t) for t in traits)
    result = defend(attack, defender, defense, *([6] + [5] * (size - 1)))
    assert result.pool.parts == tuple((t, defender.trait(t)) for t in traits)
    assert result.roll.difficulty == 6
    assert result.roll.net == 1


def test_defense_pool_takes_wounds_and_modifier_moves_difficulty():
    defender = fighter("Bob", Dexterity=3, Dodge=2, health={"bashing": 4})   # Wounded -2
    attack = hit("punch", 1, difficulty=6)
    result = defend(attack, defender, "dodge", 7, 6, 2, modifier=1)
    assert result.pool.size == 3 and result.roll.difficulty == 7 and result.roll.net == 1


@pytest.mark.parametrize("defense", ["dodge", "block", "parry"])
def test_defense_difficulties_are_starred_so_the_st_may_move_them(defense):
    """Seed, Defensive Actions: "Roll Dexterity + Dodge vs 6*" (block and parry too): the
    asterisk lets the ST move the difficulty, as for a punch."""
    assert ST.defense_adjustable(defense)
    assert not ST.defense_adjustable("none")
    defender = fighter("Bob", weapon="staff", Dexterity=1)
    result = defend(hit("punch", 1, difficulty=6), defender, defense, 8, modifier=2)
    assert result.roll.difficulty == 8 and result.roll.net == 1


def test_empty_pool_chance_die_is_an_option_off_by_default():
    """The rules default: an empty pool may roll one die needing 10 (off unless set)."""
    assert not ST.empty_pool_chance_die
    check("0", None)                                  # off: no die at all
    data = copy.deepcopy(load_system_data("storyteller"))
    data["dice"]["empty_pool_chance_die"] = True
    chance = StorytellerSystem(data)
    for face, summary in ((10, Verdict("success", 1)), (9, Verdict("failure")), (1, Verdict("botch"))):
        roller = dice(face)
        result = chance.roll_check(parse_pool("0", chance.trait_names), fighter(), roller)
        done(roller)
        assert result.summary == summary and result.record["difficulty"] == 10
    roller = dice(10)
    attack = chance.attack(fighter(Dexterity=0, Brawl=0), fighter("Bob"), "punch", roller)
    done(roller)
    assert attack.roll.difficulty == 10 and attack.roll.net == 1


def test_each_defense_success_cancels_one_and_rollover_follows():
    attacker = fighter("Ann", **ATTACKER)
    target = fighter("Bob", Dexterity=2, Dodge=1, Stamina=0)
    attack = hit("punch", 3, attacker, difficulty=6)
    defense = defend(attack, target, "dodge", 6, 2, 2)         # 1 success
    resolution = resolve(attack, defense, attacker, target, 6, 6, 6, 6)   # Str 3 + 1 rollover
    assert resolution.net_successes == 2
    assert resolution.harm[0].pool.parts == (("Strength", 3), ("rollover", 1))
    assert resolution.harm[0].levels == 4


def test_defense_cancelling_everything_is_a_miss():
    attacker = fighter("Ann", **ATTACKER)
    target = fighter("Bob", Dexterity=2, Dodge=1)
    attack = hit("punch", 2, attacker, difficulty=6)
    defense = defend(attack, target, "dodge", 6, 7, 8)
    resolution = resolve(attack, defense, attacker, target)   # no damage dice
    assert not resolution.hit and resolution.harm == () and resolution.net_successes == 0


def test_defense_ones_cancel_defense_successes():
    attack = hit("punch", 2, difficulty=6)
    result = defend(attack, fighter("Bob", Dexterity=2, Dodge=1), "dodge", 6, 7, 1)
    assert result.roll.net == 1


def test_block_refused_for_a_type_the_defender_cannot_soak():
    sword = hit("sword", 1, fighter("Ann", **dict(ATTACKER, Melee=3)), difficulty=6)
    muggle = fighter("Bob", Dexterity=2, Brawl=2)
    with pytest.raises(CombatError, match="lethal"):
        ST.defend(sword, muggle, "block", dice())
    wizard = fighter("Bob", kind="Wizard", base_kind="Wizard", Dexterity=2, Brawl=2)
    assert defend(sword, wizard, "block", 6, 2, 2, 2).roll.net == 1
    punch = hit("punch", 1, difficulty=6)
    assert defend(punch, muggle, "block", 6, 2, 2, 2).roll.net == 1


def test_parry_refused_with_nothing_in_hand():
    attack = hit("punch", 1, difficulty=6)
    with pytest.raises(CombatError, match="weapon"):
        ST.defend(attack, fighter("Bob", Dexterity=2, Melee=2), "parry", dice())


def test_parry_with_a_shield_in_hand():
    """Seed, Parry: "Must have shield or weapon in hand": a shield (data, held like a weapon)
    allows a parry; it cuts no brawler and is no attack."""
    assert ST.weapon_names["shield"] == "Shield" and "shield" not in ST.maneuvers
    bob = fighter("Bob", weapon="shield", Dexterity=2, Melee=2)
    attacker = fighter("Ann", **ATTACKER)
    attack = hit("punch", 1, attacker, difficulty=6)
    defense = defend(attack, bob, "parry", 10, 10, 10, 2)       # 3 successes vs 1
    assert defense.roll.net == 3 and defense.weapon == "shield"
    resolution = resolve(attack, defense, attacker, bob)          # a miss, no counter-damage
    assert not resolution.hit and resolution.harm == ()
    with pytest.raises(CombatError, match="No maneuver or weapon 'shield'"):
        ST.attack(bob, attacker, "shield", dice())
    assert ST.maneuver("", bob).key == "punch"                   # a shield in hand: a punch


def test_unknown_defense_and_incapacitated_defender_refused():
    attack = hit("punch", 1, difficulty=6)
    with pytest.raises(CombatError):
        ST.defend(attack, fighter("Bob"), "pray", dice())
    with pytest.raises(CombatError):
        ST.defend(attack, fighter("Bob", health={"lethal": 7}), "dodge", dice())


@pytest.mark.parametrize("option", ["punch", "kick"])
def test_parry_counter_lethal_weapon_vs_brawl(option):
    attacker = fighter("Ann", **ATTACKER)                      # a Muggle: cannot soak lethal
    parrier = fighter("Bob", weapon="sword", Dexterity=2, Melee=2)
    attack = hit(option, 1, attacker, difficulty=6 if option == "punch" else 7)
    defense = defend(attack, parrier, "parry", 6, 7, 8, 2)     # 3 successes: 1 cancels, 2 extra
    resolution = resolve(attack, defense, attacker, parrier, 6, 6)   # 2 dice vs 6
    (harm,) = resolution.harm
    assert not resolution.hit
    assert harm.name == "Ann" and harm.damage_type == "lethal"
    assert harm.pool.size == 2 and harm.damage_roll.difficulty == 6
    assert harm.levels == 2 and harm.health_after.lethal == 2


def test_parry_counter_soaked_by_a_wizard():
    attacker = fighter("Ann", kind="Wizard", base_kind="Wizard", **ATTACKER)   # Stamina 2
    parrier = fighter("Bob", weapon="dagger", Dexterity=2, Melee=2)
    attack = hit("punch", 1, attacker, difficulty=6)
    defense = defend(attack, parrier, "parry", 6, 7, 2, 2)     # 1 extra
    resolution = resolve(attack, defense, attacker, parrier, 6, 5, 2)
    assert resolution.harm[0].levels == 0


def test_no_parry_counter_without_extra_successes():
    attacker = fighter("Ann", **ATTACKER)
    parrier = fighter("Bob", weapon="sword", Dexterity=2, Melee=2)
    attack = hit("punch", 2, attacker, difficulty=6)
    defense = defend(attack, parrier, "parry", 6, 7, 2, 2)
    assert resolve(attack, defense, attacker, parrier).harm == ()


def test_no_parry_counter_with_a_bashing_weapon():
    attacker = fighter("Ann", **ATTACKER)
    parrier = fighter("Bob", weapon="staff", Dexterity=2, Melee=2)
    attack = hit("punch", 1, attacker, difficulty=6)
    defense = defend(attack, parrier, "parry", 6, 7, 8, 9)
    assert resolve(attack, defense, attacker, parrier).harm == ()


def test_no_parry_counter_against_a_weapon_attack():
    attacker = fighter("Ann", **dict(ATTACKER, Melee=3))
    parrier = fighter("Bob", weapon="sword", Dexterity=2, Melee=2)
    attack = hit("dagger", 1, attacker, difficulty=6)
    defense = defend(attack, parrier, "parry", 6, 7, 8, 9)
    resolution = resolve(attack, defense, attacker, parrier)
    assert resolution.harm == () and not resolution.hit


# ========================================================================= health

LEVELS = [("Bruised", 0), ("Hurt", -1), ("Injured", -1), ("Wounded", -2), ("Mauled", -2),
          ("Crippled", -5), ("Incapacitated", None)]


def test_health_levels_are_the_seven_of_the_track():
    assert [level.name for level in ST.levels] == [name for name, _ in LEVELS]
    assert [level.penalty for level in ST.levels[:6]] == [p for _, p in LEVELS[:6]]


@pytest.mark.parametrize(("filled", "name", "penalty"),
                         [(i + 1, name, p) for i, (name, p) in enumerate(LEVELS)])
@pytest.mark.parametrize("damage_type", ["bashing", "lethal", "aggravated"])
def test_worst_filled_level_gives_the_penalty(filled, name, penalty, damage_type):
    health = ST.damage(fighter(), filled, damage_type)
    assert health.level_name == name
    assert health.incapacitated == (name == "Incapacitated")
    if penalty is not None:
        assert health.penalty == penalty
    assert health.meter == (7 - filled, 7)
    assert not health.dead


def test_fresh_track():
    health = ST.health({})
    assert (health.level_name, health.penalty, health.meter) == ("Healthy", 0, (7, 7))
    assert health.describe() == "Healthy [.......]"
    assert ST.health(None) == health


def test_describe_shows_level_penalty_and_boxes():
    health = ST.health({"lethal": 1, "bashing": 1})
    assert health.describe() == "Hurt (-1) [LB.....]"


@pytest.mark.parametrize("order", [
    ("bashing", "lethal", "aggravated"), ("aggravated", "bashing", "lethal"),
    ("lethal", "aggravated", "bashing"), ("bashing", "aggravated", "lethal"),
])
def test_aggravated_above_lethal_above_bashing_whatever_the_order(order):
    actor = fighter()
    for damage_type in order:
        actor = fighter(health=ST.damage(actor, 1, damage_type).to_record())
    assert ST.health(actor.health).boxes == "ALB...."


def test_full_track_plus_bashing_turns_bashing_into_lethal():
    health = ST.damage(fighter(), 7, "bashing")
    assert health.incapacitated and not health.dead
    more = health.with_damage(1, "bashing")
    assert (more.bashing, more.lethal, more.dead) == (6, 1, False)
    assert more.boxes == "LBBBBBB"
    lots = health.with_damage(7, "bashing")
    assert (lots.bashing, lots.lethal, lots.dead) == (0, 7, False)
    assert lots.with_damage(1, "bashing").dead


def test_full_track_plus_lethal_is_death_unless_the_kind_overrides():
    """The rules default "Lethal past Incapacitated is death (a kind may override)": Bob
    takes 2 lethal, 5 bashing, then 1 lethal: dead, though bashing is left to turn."""
    bob = fighter("Bob")
    for amount, damage_type in ((2, "lethal"), (5, "bashing"), (1, "lethal")):
        bob = fighter("Bob", health=ST.damage(bob, amount, damage_type).to_record())
    assert ST.health(bob.health, bob).dead
    assert ST.health({"bashing": 7}).with_damage(1, "aggravated").dead
    data = copy.deepcopy(load_system_data("storyteller"))
    data["kinds"]["Vampire"]["lethal_past_incapacitated_kills"] = False
    tough = StorytellerSystem(data)
    vampire = fighter("Cy", kind="Vampire", health={"bashing": 5, "lethal": 2})
    more = tough.health(vampire.health, vampire).with_damage(1, "lethal")
    assert (more.bashing, more.lethal, more.dead) == (4, 3, False)
    assert tough.damage(fighter("Bob", health={"bashing": 5, "lethal": 2}), 1, "lethal").dead
    data["health"]["lethal_past_incapacitated_kills"] = False
    assert not StorytellerSystem(data).health({"bashing": 5, "lethal": 2}).with_damage(1, "lethal").dead


def test_lethal_past_incapacitated_with_no_bashing_left_is_death():
    health = ST.damage(fighter(), 7, "lethal")
    assert health.incapacitated and not health.dead
    dead = health.with_damage(1, "lethal")
    assert dead.dead and dead.level_name == "Dead"
    assert ST.damage(fighter(), 8, "lethal").dead
    assert ST.health({"aggravated": 7}).with_damage(1, "aggravated").dead
    assert ST.health({"lethal": 6, "bashing": 1}).with_damage(1, "aggravated").dead


def test_healing():
    actor = fighter(health={"bashing": 2, "lethal": 2, "aggravated": 1})
    assert ST.heal(actor, 1, None).to_record() == {
        "bashing": 1, "lethal": 2, "aggravated": 1, "dead": False}        # least serious first
    assert ST.heal(actor, 3, None).to_record() == {
        "bashing": 0, "lethal": 1, "aggravated": 1, "dead": False}
    assert ST.heal(actor, 5, "l").lethal == 0
    assert ST.heal(actor, 1, "Aggravated").aggravated == 0
    assert ST.heal(actor, None, None).filled == 0
    assert ST.heal(actor, None, "bashing").to_record()["lethal"] == 2
    dead = fighter(health={"lethal": 7, "dead": True})
    assert ST.heal(dead, None, None).to_record() == {                 # +heal <name>=all: staff fiat
        "bashing": 0, "lethal": 0, "aggravated": 0, "dead": False}
    with pytest.raises(CombatError, match="dead"):
        ST.heal(dead, 2, "lethal")
    with pytest.raises(CombatError, match="already dead"):
        ST.damage(dead, 1, "bashing")
    with pytest.raises(CombatError):
        ST.heal(actor, 1, "fire")


def test_damage_type_names():
    assert ST.damage(fighter(), 2, "B").bashing == 2
    assert ST.damage(fighter(), 2, "leth").lethal == 2
    with pytest.raises(CombatError):
        ST.damage(fighter(), 1, "x")


@given(st.integers(0, 7), st.integers(0, 7), st.integers(0, 7), st.booleans())
def test_health_record_round_trips(bashing, lethal, aggravated, dead):
    record = {"bashing": bashing, "lethal": lethal, "aggravated": aggravated, "dead": dead}
    health = ST.health(record)
    assert health.to_record() == record
    assert ST.health(health.to_record()) == health


def test_incapacitated_cannot_attack():
    with pytest.raises(CombatError, match="incapacitated"):
        ST.attack(fighter(health={"bashing": 7}, **ATTACKER), fighter("Bob"), "punch", dice())


@pytest.mark.parametrize("option", ["punch", "tackle", "sword"])
def test_attack_record_round_trips(option):
    attacker = fighter("Ann", health={"bashing": 2}, **ATTACKER)
    roller = dice(*([1, 10, 6, 2, 5, 9][:4]))
    attack = ST.attack(attacker, fighter("Bob"), option, roller)
    rebuilt = ST.attack_from_record(attack.to_record())
    assert rebuilt == attack
    assert rebuilt.to_record() == attack.to_record()


# ================================================================ data validation


def broken(mutate):
    data = copy.deepcopy(load_system_data("storyteller"))
    mutate(data)
    with pytest.raises(RulesDataError) as caught:
        StorytellerSystem(data)
    return str(caught.value)


def test_the_shipped_data_loads():
    system = StorytellerSystem(load_system_data("storyteller"))
    assert system.default_difficulty == 6
    assert (system.min_difficulty, system.max_difficulty) == (2, 10)
    assert system.damage_difficulty == 6 and system.soak_difficulty == 5
    assert system.soak_trait == "Stamina" and system.ones_cancel
    assert system.initiative_traits == ("Wits", "Dexterity")
    assert set(system.defense_names) == {"dodge", "block", "parry"}
    assert system.tackle["prone_check"] == ["Dexterity", "Athletics"]
    assert system.tackle["prone_difficulty"] == 7
    assert system.tackle["target_difficulty_penalty"] == 1
    assert system.tackle["botch_damage_trait"] == "Stamina"
    assert system.escape == {"traits": ["Strength", "Brawl"], "difficulty": 6}


def _del(path):
    def mutate(data):
        *parents, last = path
        table = data
        for key in parents:
            table = table[key]
        del table[last]
    return mutate


def _set(path, value):
    def mutate(data):
        *parents, last = path
        table = data
        for key in parents:
            table = table[key]
        table[last] = value
    return mutate


@pytest.mark.parametrize(("mutate", "named"), [
    (_del(["dice"]), "dice"),
    (_del(["dice", "default_difficulty"]), "default_difficulty"),
    (_set(["dice", "default_difficulty"], "6"), "default_difficulty"),
    (_set(["dice", "soak_difficulty"], True), "soak_difficulty"),
    (_set(["dice", "ones_cancel"], 1), "ones_cancel"),
    (_del(["initiative", "traits"]), "traits"),
    (_set(["initiative", "traits"], "Wits"), "traits"),
    (_set(["health_levels", 2, "penalty"], "-1"), "penalty"),
    (_del(["health_levels", 0, "name"]), "name"),
    (_set(["health_levels"], []), "health_levels"),
    (_del(["maneuvers", "kick", "to_hit"]), "to_hit"),
    (_set(["maneuvers", "punch", "difficulty"], 6.0), "difficulty"),
    (_set(["maneuvers", "punch", "damage_type"], "piercing"), "damage_type"),
    (_del(["weapons", "sword", "damage_bonus"]), "damage_bonus"),
    (_set(["weapons", "sword", "damage_type"], "fire"), "damage_type"),
    (_del(["weapons", "dagger", "concealed"]), "concealed"),
    (_del(["melee", "difficulty"]), "difficulty"),
    (_del(["tackle", "prone_difficulty"]), "prone_difficulty"),
    (_set(["tackle", "prone_check"], "Dexterity"), "prone_check"),
    (_del(["tackle", "botch_damage_trait"]), "botch_damage_trait"),
    (_del(["escape", "traits"]), "traits"),
    (_del(["defenses", "parry", "difficulty"]), "difficulty"),
    (_set(["defenses", "dodge", "traits"], "Dexterity"), "traits"),
    (_set(["kinds", "Muggle", "soaks"], ["bash"]), "soaks"),
    (_del(["kinds", "Wizard", "soaks"]), "soaks"),
    (_set(["kinds", "Vampire", "fire_unsoaked"], ["fire"]), "fire_unsoaked"),
    (_set(["kinds", "Vampire", "lethal_past_incapacitated_kills"], "no"), "lethal_past_incapacitated_kills"),
    (_del(["health", "lethal_past_incapacitated_kills"]), "lethal_past_incapacitated_kills"),
    (_del(["dice", "empty_pool_chance_die"]), "empty_pool_chance_die"),
    (_del(["defenses", "dodge", "adjustable"]), "adjustable"),
    (_del(["shields", "shield", "name"]), "name"),
    (_set(["shields", "sword"], {"name": "Sword"}), "shields.sword"),
    (_set(["maneuvers", "grapple", "damage_rolled"], "no"), "damage_rolled"),
])
def test_broken_data_raises_rules_data_error_naming_the_key(mutate, named):
    assert named in broken(mutate)


@pytest.mark.parametrize("option", ["punch", "kick", "grapple", "hold", "tackle", ""])
def test_brawl_attacks_are_disallowed_in_formal_duels(option):
    """Seed, Brawl Attack: "Disallowed in formal duels"; a weapon attack is not brawl."""
    duellist = fighter("Ann", conditions={"duel": True}, **ATTACKER)
    with pytest.raises(CombatError, match="formal duel: brawl attacks"):
        ST.attack(duellist, fighter("Bob"), option, dice())
    roller = dice(2, 2, 2)                           # Dexterity 2 + Melee 1
    assert not ST.attack(duellist, fighter("Bob"), "sword", roller).needs_defense
    done(roller)


def test_the_weapon_charts_concealed_column_says_where_a_weapon_hides():
    """The storyteller seed's weapon chart, Concealed: Dagger "Jacket", Sword "Robes",
    Greatsword "Nope!", Switchblade blank."""
    system = StorytellerSystem()
    assert english(system.weapon_note("dagger")) == "hidden under a jacket"
    assert english(system.weapon_note("sword")) == "hidden under robes"
    assert english(system.weapon_note("greatsword")) == "cannot be hidden"
    assert system.weapon_note("switchblade") == ""


def test_parry_is_offered_only_with_a_weapon_or_shield_in_hand():
    # seed, Defensive Actions: Parry "Must have shield or weapon in hand."
    attacker = Combatant(name="Guard", traits={"Dexterity": 3, "Brawl": 2})
    attack = ST.attack(attacker, Combatant(name="Ann"), "", dice(9, 9, 2, 2, 2))
    bare = Combatant(name="Ann", traits={"Dexterity": 2, "Melee": 2})
    assert ST.defense_choices(attack, bare) == ("dodge", "block")
    with pytest.raises(CombatError, match="You need a weapon or shield in hand to parry."):
        ST.defend(attack, bare, "parry", dice())
    armed = Combatant(name="Ann", traits={"Dexterity": 2, "Melee": 2}, weapon="dagger")
    assert ST.defense_choices(attack, armed) == ("dodge", "block", "parry")


@pytest.mark.parametrize("parts, text", [
    ((), "0"),
    ((("Dexterity", 3),), "Dexterity 3"),
    ((("Dexterity", 3), ("Brawl", 2), ("wounds", -1)), "Dexterity 3 + Brawl 2 - 1 (wounds) = 4"),
    ((("wounds", -2), ("Stamina", 3)), "-2 (wounds) + Stamina 3 = 1"),
    ((("", 4), ("", -1), ("modifier", 2)), "4 - 1 + 2 (modifier) = 5"),
    ((("Power", 6), ("special effects", 1), ("willpower", 1), ("rollover", 2)),
     "Power 6 + 1 (special effects) + 1 (willpower) + 2 (rollover) = 10"),
    ((("Strength", 2), (Line("aeon.value.noted_action", {"index": 2, "declared": 3}), -2)),
     "Strength 2 - 2 (action 2 of 3) = 0"),
    ((("Stamina", 2), ("armor", 2)), "Stamina 2 + armor 2 = 4"),
])
def test_a_pool_as_a_line_reads_as_its_description(parts, text):
    pool = Pool(parts)
    assert pool.describe() == text
    assert english(pool.line()) == text
    assert english(pool.dice_line()) == pool.dice() == f"{text} {'die' if pool.size == 1 else 'dice'}"


def test_a_pool_part_labelled_by_a_line_keeps_it_through_its_record_and_string_labels_still_load():
    half = Line("eldritch.value.part_half", {"traits": Pool((("Dexterity", 2), ("Perception", 2))).chain()})
    action = Line("aeon.value.noted_action", {"index": 2, "declared": 3})
    pool = Pool(((half, 2), (action, -1), ("Brawl", 1)))
    record = json.loads(json.dumps(pool.to_record()))
    assert record[1] == [{"line": "aeon.value.noted_action", "values": {"index": 2, "declared": 3}}, -1]
    assert record[2] == ["Brawl", 1]
    assert Pool.from_parts(record) == pool
    assert Pool.from_parts(record).describe() == "(Dexterity 2 + Perception 2)/2 = 2 - 1 (action 2 of 3) + Brawl 1 = 2"
    # a record from before labels could be lines: every label a string
    assert Pool.from_parts([["Dexterity", 3], ["wounds", -1]]) == Pool((("Dexterity", 3), ("wounds", -1)))


def test_an_initiative_roll_as_a_line_reads_as_its_description():
    roll = InitiativeRoll("Ann", Pool((("Wits", 2), ("Dexterity", 3), ("wounds", -1))), 7, 11, 3)
    assert english(roll.line()) == roll.describe() == "Wits 2 + Dexterity 3 - 1 (wounds) = 4 + 1d10 (7) = 11"
