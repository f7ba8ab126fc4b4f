"""Exact odds (``rules.dice.odds``): the counted pool and the replayed roll agree with brute
force over every face sequence of small pools, for the systems' own roll classes."""

from fractions import Fraction
from itertools import product

import pytest

from rules.dice.odds import at_least, enumerate_outcomes, percent, pool_outcomes
from rules.systems.aeon.dice import AeonRoll
from rules.systems.eldritch.dice import DiceRules, roll_die
from rules.systems.storyteller.dice import PoolRoll


def brute_force(size, judge):
    """Every one of the 10**size face tuples, each weighing 10**-size."""
    outcomes = {}
    for faces in product(range(1, 11), repeat=size):
        key = judge(faces)
        outcomes[key] = outcomes.get(key, Fraction(0)) + Fraction(1, 10 ** size)
    return outcomes


def storyteller(difficulty, ones_cancel=True, automatic=0):
    def judge(faces):
        roll = PoolRoll(tuple(faces), difficulty, ones_cancel, automatic)
        return "botch" if roll.botch else roll.net
    return judge


def aeon(needed, automatic=0):
    def judge(faces):
        roll = AeonRoll(tuple(faces), 7, needed, automatic)
        return "botch" if roll.botch else roll.successes
    return judge


@pytest.mark.parametrize("size", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("difficulty", [2, 6, 9, 10])
def test_storyteller_pools_match_brute_force(size, difficulty):
    for judge in (storyteller(difficulty), storyteller(difficulty, automatic=1), storyteller(difficulty, False)):
        assert pool_outcomes(size, difficulty, judge) == brute_force(size, judge)


@pytest.mark.parametrize("size", [0, 1, 2, 3, 4])
def test_aeon_pools_match_brute_force(size):
    for judge in (aeon(1), aeon(2), aeon(3, automatic=1)):
        assert pool_outcomes(size, 7, judge) == brute_force(size, judge)


def test_storyteller_numbers():
    # one die vs 6: a 1 is a botch (1/10), 2-5 fail (4/10), 6-10 succeed (5/10)
    assert pool_outcomes(1, 6, storyteller(6)) == {"botch": Fraction(1, 10), 0: Fraction(4, 10), 1: Fraction(5, 10)}
    # two dice vs 6: botch = no success and at least one 1 = (5/10)**2 - (4/10)**2 = 9/100
    two = pool_outcomes(2, 6, storyteller(6))
    assert two["botch"] == Fraction(9, 100)
    assert at_least(two, 2) == Fraction(25, 100)
    assert sum(two.values()) == 1
    # thirty dice: the probabilities still sum to exactly 1
    assert sum(pool_outcomes(30, 6, storyteller(6)).values()) == 1


def test_eldritch_die_by_replay():
    rules = DiceRules(rows=((9, 1), (11, 2), (13, 3), (15, 4), (17, 5), (21, 6), (24, 7)))
    values, unexplored = enumerate_outcomes(lambda roller: roll_die(roller, rules)[1])
    assert unexplored == Fraction(2, 10 ** 12)  # twelve 10s, or twelve 1s, in a row: not followed
    assert sum(values.values()) + unexplored == 1
    assert values[5] == Fraction(1, 10)  # a plain 5
    assert values[12] == Fraction(1, 100)  # 10 then 7
    assert values[10] == Fraction(5, 100)  # 10 then 1-5
    assert values[-2] == Fraction(1, 100)  # 1 then 3
    assert values[1] == Fraction(5, 100)  # 1 then 6-10
    assert values[-7] == Fraction(1, 1000)  # 1, 1, 2
    plain = DiceRules(rows=rules.rows, rule_of_ten=False, rule_of_one=False)
    values, unexplored = enumerate_outcomes(lambda roller: roll_die(roller, plain)[1])
    assert unexplored == 0
    assert values == {face: Fraction(1, 10) for face in range(1, 11)}


def test_percent():
    assert percent(Fraction(3, 8)) == "37.5%"
    assert percent(Fraction(1, 10 ** 6)) == "<0.1%"
    assert percent(1 - Fraction(1, 10 ** 6)) == ">99.9%"
    assert percent(Fraction(0)) == "0.0%"
    assert percent(Fraction(1)) == "100.0%"


def test_pool_outcomes_refuses_a_bad_threshold():
    with pytest.raises(ValueError, match="succeeds at 2 to 10, not 1"):
        pool_outcomes(3, 1, storyteller(1))


# ------------------------------------------------------------ +roll/odds of the systems
from rules.dice import parse_pool  # noqa: E402
from rules.systems import get_system  # noqa: E402
from rules.systems.base import Combatant, Verdict  # noqa: E402
from tests.rules.wording import english  # noqa: E402

ALICE = Combatant("Alice", traits={"Dexterity": 2, "Brawl": 1, "Willpower": 3})


def replayed(system, text, **kw):
    """The distribution of ``+roll``'s verdicts, by replaying ``roll_check`` on every face."""
    expression = parse_pool(text, system.trait_names)
    outcomes, unexplored = enumerate_outcomes(lambda roller: system.roll_check(expression, ALICE, roller, **kw).summary)
    assert unexplored == 0
    return outcomes


def odds_of(system, text, **kw):
    return worded_rows(system.odds(parse_pool(text, system.trait_names), ALICE, **kw))


def worded_rows(odds) -> dict:
    """{each row's outcome as a player reads it (a line worded by the game): its chance}."""
    return {english(name): chance for name, chance in odds.rows}


def successes(outcomes, at_least_n):
    return sum((p for verdict, p in outcomes.items() if verdict.outcome == "success"
                and verdict.count >= at_least_n), Fraction(0))


@pytest.mark.parametrize("text", ["Dexterity+Brawl", "Dexterity+Brawl vs 8", "Dexterity", "2-2"])
@pytest.mark.parametrize("willpower", [False, True])
def test_storyteller_odds_are_the_rolls_own(text, willpower):
    system = get_system("storyteller")
    every = replayed(system, text, willpower=willpower)
    odds = odds_of(system, text, willpower=willpower)
    assert odds["Botch"] == every.get(Verdict("botch"), 0)
    assert odds["Failure"] == every.get(Verdict("failure"), 0)
    assert odds["1+ success"] == successes(every, 1)
    assert sum(odds[row] for row in ("Botch", "Failure", "1+ success")) == 1


@pytest.mark.parametrize("text", ["Dexterity+Brawl", "Dexterity+Brawl vs 2", "3 vs 3"])
@pytest.mark.parametrize("willpower", [False, True])
def test_aeon_odds_are_the_rolls_own(text, willpower):
    system = get_system("aeon")
    every = replayed(system, text, willpower=willpower)
    odds = odds_of(system, text, willpower=willpower)
    needed = parse_pool(text, system.trait_names).difficulty or 1
    assert odds["Botch"] == every.get(Verdict("botch"), 0)
    assert odds["Failure"] == every.get(Verdict("failure"), 0)
    label = f"{needed}+ success" + ("" if needed == 1 else "es")
    assert odds[label] == successes(every, needed)


def test_storyteller_odds_numbers():
    odds = get_system("storyteller").odds(parse_pool("Dexterity+Brawl vs 6", ("Dexterity", "Brawl")), ALICE)
    assert english(odds.title) == "Dexterity 2 + Brawl 1 = 3 dice vs 6"
    rows = worded_rows(odds)
    # three dice vs 6: no success in 5**3 of 1000; of those, no 1 either in 4**3: botch 61/1000
    assert rows["Botch"] == Fraction(61, 1000)
    assert rows["3+ successes"] == Fraction(125, 1000)
    assert [english(name) for name, _ in odds.rows] == ["Botch", "Failure", "1+ success", "2+ successes", "3+ successes"]


def test_thirty_dice_odds_sum_to_one():
    big = Combatant("Big", traits={"Dexterity": 15, "Brawl": 15})
    rows = worded_rows(get_system("storyteller").odds(parse_pool("Dexterity+Brawl", ("Dexterity", "Brawl")), big))
    assert rows["Botch"] + rows["Failure"] + rows["1+ success"] == 1


def test_eldritch_odds_bands():
    system = get_system("eldritch")
    char = Combatant("Char", traits={"Dexterity": 3, "Brawl": 2})
    odds = system.odds(parse_pool("Dexterity+Brawl", system.trait_names), char)
    assert english(odds.title) == "Dexterity 3 + Brawl 2 + d10, 9 or more succeeds"
    rows = worded_rows(odds)
    # 5 + d10 fails on 2, 3 and every natural 1 (its chain never climbs): 3 in 10, less the
    # twelve 1s in a row that are not followed
    assert rows["Failure"] == Fraction(3, 10) - Fraction(1, 10 ** 12)
    assert rows["1 SL"] == rows["2 SLs"] == rows["3 SLs"] == Fraction(2, 10)  # 4-5, 6-7, 8-9
    # 15-16: a natural 10 whose reroll adds nothing (1-5) or 1 (a 6): 6 in 100
    assert rows["4 SLs"] == Fraction(6, 100)
    assert sum(rows.values()) == 1 - Fraction(2, 10 ** 12)
    assert english(odds.note) == "Rerolls chained 12 dice deep are left out (<0.1%)."
    with pytest.raises(Exception, match=r"\+roll 0 is a bare d10"):
        system.odds(parse_pool("0", system.trait_names), char)


def test_elethril_odds_hit_each_armor_class():
    system = get_system("elethril")
    ann = Combatant("Ann", traits={"THAC0": 18, "Hit Probability": 1}, weapon="long sword")
    odds = system.odds(parse_pool("0", system.trait_names), ann)
    rows = worded_rows(odds)
    assert english(odds.title) == "long sword: d20 and the weapon's plusses vs THAC0 18 - AC"
    assert rows["Hit Armor Class 10"] == Fraction(14, 20)  # d20 + 1 >= 8: 7 to 20
    assert rows["Hit Armor Class 4"] == Fraction(8, 20)  # d20 + 1 >= 14
    assert rows["Hit Armor Class -10"] == Fraction(1, 20)  # only the natural 20
    assert list(rows) == [f"Hit Armor Class {ac}" for ac in range(10, -11, -2)]
    assert worded_rows(system.odds(parse_pool("2 vs 5", system.trait_names), ann)) == {
        "Hit Armor Class 5": Fraction(11, 20)}  # d20 + 3 >= 13
    with pytest.raises(Exception, match="Armor Class from 10 to -10"):
        system.odds(parse_pool("0 vs 11", system.trait_names), ann)
    with pytest.raises(Exception, match="add only numbers or traits"):
        system.odds(parse_pool("1d6", system.trait_names), ann)
