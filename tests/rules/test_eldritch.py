"""Tests for the ``eldritch`` rule system: dice, initiative, attack, damage, soak, health.

The numbers and worked examples of the eldritch seed and ``docs/rules/eldritch.md`` are
pinned with forced dice: each test queues exactly the faces it expects, the fallback roller
fails the test on one die more, and ``done()`` checks none were left over.
"""

from __future__ import annotations

import copy
import json
from dataclasses import replace

import pytest

from rules.data import RulesDataError, load_system_data
from rules.dice import DiceSyntaxError, parse_pool
from rules.systems import system_keys
from rules.systems.base import Combatant, CombatError, InitiativeRoll, Pool, Verdict
from rules.systems.eldritch.dice import DiceRules, roll_die
from rules.systems.eldritch.system import EldritchSystem, LifePoints, Situation
from tests.rules.forced_dice import dice, done
from tests.rules.wording import english, english_parts, englished

EL = EldritchSystem()


def fighter(name: str = "Ann", traits: dict | None = None, *, weapon: str = "", health=None,
            armor=None, **more: int) -> Combatant:
    return Combatant(name=name, traits={**(traits or {}), **more}, weapon=weapon,
                     health=health or {}, armor=armor or {})


def check(text: str, actor: Combatant | None = None, *faces: int, modifier: int = 0):
    roller = dice(*faces)
    result = EL.roll_check(parse_pool(text, EL.trait_names), actor or fighter(), roller, modifier=modifier)
    done(roller)
    return result


DAISY = fighter("Daisy", {"Dexterity": 9, "Perception": 4, "Acute Senses": 1,
                          "Fast Reaction Time": 1, "Situational Awareness": 1})
HANK = fighter("Hank", {"Dexterity": 4, "Perception": 2, "Situational Awareness": 1,
                        "Strength": 3, "Melee": 2}, weapon="bat")
HENRY = fighter("Henry", {"Constitution": 4, "Natural Toughness": 1, "Dexterity": 3, "Acrobatics": 2})
DINA = fighter("Dina", {"Dexterity": 6, "Firearms": 5}, weapon="9mm")
REPRAX = fighter("Reprax", {"Protection (Bullets)": 2, "Dexterity": 5, "Acrobatics": 3})


# ========================================================================== loading


def test_loads_from_data_and_is_registered():
    assert EL.key == "eldritch"
    assert EL.armor_columns == ("bash", "lethal", "bullets")
    assert "eldritch" in system_keys()
    assert not EL.defense_uses_action and EL.defend_after_acting


@pytest.mark.parametrize(("path", "value", "message"), [
    (("dice", "success_levels"), [[9, 1], [8, 2]], "dice.success_levels"),
    (("dice", "beyond_every"), 0, "dice.beyond_every"),
    (("initiative", "max_actions"), 0, "max_actions"),
    (("weapons", "bat", "category"), "pointy", "weapons.bat.category"),
    (("weapons", "bat", "modes"), ["flung"], "weapons.bat.modes"),
    (("maneuvers", "ear-pop", "use"), "dance", "maneuvers.ear-pop.use"),
    (("maneuvers", "ear-pop", "traits"), ["Dexterity", "Brwal"], "unknown trait 'Brwal'"),
    (("soak", "Constitution", "fire"), 1, "soak.Constitution"),
    (("armor", "chain-mail", "fire"), 1, "armor.chain-mail"),
    (("life_points", "dead_at"), 5, "dead_at"),
])
def test_data_is_validated(path, value, message):
    data = copy.deepcopy(load_system_data("eldritch"))
    table = data
    for key in path[:-1]:
        table = table[key]
    table[path[-1]] = value
    with pytest.raises(RulesDataError, match=message):
        EldritchSystem(data)


def test_maneuvers_the_code_relies_on_must_be_in_the_data():
    data = copy.deepcopy(load_system_data("eldritch"))
    del data["maneuvers"]["wall-flip"]
    with pytest.raises(RulesDataError, match="eldritch.maneuvers: 'wall-flip' is needed."):
        EldritchSystem(data)


def test_a_firearm_needs_a_size_and_a_missing_key_is_named():
    data = copy.deepcopy(load_system_data("eldritch"))
    del data["weapons"]["9mm"]["size"]
    with pytest.raises(RulesDataError, match="weapons.9mm: a firearm needs a size"):
        EldritchSystem(data)
    data = copy.deepcopy(load_system_data("eldritch"))
    del data["initiative"]["step"]
    with pytest.raises(RulesDataError, match="initiative: missing 'step'"):
        EldritchSystem(data)


# ============================================================================= dice


@pytest.mark.parametrize(("total", "levels"), [
    (-3, 0), (8, 0), (9, 1), (10, 1), (11, 2), (12, 2), (13, 3), (14, 3), (15, 4), (16, 4),
    (17, 5), (20, 5), (21, 6), (23, 6), (24, 7), (26, 7), (27, 8), (29, 8), (30, 9), (33, 10),
])
def test_success_level_table(total, levels):
    assert EL.success_levels(total) == levels


@pytest.mark.parametrize(("faces", "value"), [
    ((5,), 5),
    ((10, 7), 12),          # 10 + (7 - 5)
    ((10, 6), 11),
    ((10, 5), 10),          # a reroll under 6 adds nothing
    ((10, 10, 8), 18),      # a further 10 chains: 10 + 5 + 3
    ((10, 1), 10),          # never a Rule of 1 inside a Rule-of-10 chain
    ((10, 10, 1), 15),
    ((1, 3), -2),           # 3 - 5
    ((1, 5), 0),
    ((1, 6), 1),            # a reroll over 5: the die stays 1
    ((1, 1, 2), -7),        # -4, then a further 1 chains: + (2 - 5)
    ((1, 1, 7), -4),
    ((1, 1, 1, 5), -8),
])
def test_rule_of_ten_and_rule_of_one(faces, value):
    roller = dice(*faces)
    assert roll_die(roller, EL.dice_rules) == (faces, value)
    done(roller)


def test_rules_of_ten_and_one_are_options():
    rules = DiceRules(EL.dice_rules.rows, rule_of_ten=False, rule_of_one=False)
    assert roll_die(dice(10), rules) == ((10,), 10)
    assert roll_die(dice(1), rules) == ((1,), 1)


def test_roll_shows_faces_total_and_success_levels():
    result = check("Dexterity + Brawl", fighter(Dexterity=3, Brawl=2), 10, 8)
    assert tuple(englished(result.lines)) == ("Dexterity 3 + Brawl 2 + d10 [10, 8 -> 13] = 18: 5 SLs",)
    assert result.summary == Verdict("success", 5, total=18)
    assert result.record["faces"] == [10, 8] and result.record["success_levels"] == 5


def test_roll_below_nine_fails_and_a_one_can_go_negative():
    result = check("Dex + 2", fighter(Dexterity=3), 1, 2)
    assert tuple(englished(result.lines)) == ("Dexterity 3 + 2 + d10 [1, 2 -> -3] = 2: failure",)
    assert result.summary == Verdict("failure", total=2)


def test_numbers_subtract_and_one_d10_may_be_written():
    result = check("1d10 + Dex - 1", fighter(Dexterity=4), 6)
    assert result.record["parts"] == [["Dexterity", 4], ["", -1]]
    assert result.summary == Verdict("success", 1, total=9)


def test_modifier_is_added():
    result = check("Dex", fighter(Dexterity=4), 5, modifier=-2)
    assert tuple(englished(result.lines)) == ("Dexterity 4 - 2 (modifier) + d10 [5] = 7: failure",)


@pytest.mark.parametrize("face", [1, 3, 10])
def test_roll_zero_is_a_bare_d10_showing_its_face(face):
    result = check("0", None, face)  # a 10 or a 1 does not reroll
    assert result.summary == Verdict("", total=face)
    assert result.record == {"chance": True, "face": face}
    assert tuple(englished(result.lines)) == (f"+roll 0: a bare d10 shows {face}.",)


@pytest.mark.parametrize(("text", "message"), [
    ("0.5", "Not a whole number: '0.5'."),
    ("1d10+", "Incomplete roll: '1d10+' ends with an operator."),
    ("Dex+", "Incomplete roll: 'Dex+' ends with an operator."),
])
def test_parse_pool_refuses_bad_text(text, message):
    with pytest.raises(DiceSyntaxError) as err:
        parse_pool(text, EL.trait_names)
    assert str(err.value) == message


@pytest.mark.parametrize(("text", "message"), [
    ("2d10", "An Eldritch roll is one d10 plus traits and numbers: '2d10' is not allowed."),
    ("1d6 + Dex", "An Eldritch roll is one d10 plus traits and numbers: '1d6' is not allowed."),
    ("1d10 + 1d10", "An Eldritch roll is one d10 plus traits and numbers: '1d10' is not allowed."),
    ("Dex vs 6", "Eldritch rolls take no 'vs': a total of 9 or more succeeds."),
])
def test_refused_rolls_are_one_line(text, message):
    with pytest.raises(DiceSyntaxError) as err:
        EL.roll_check(parse_pool(text, EL.trait_names), fighter(Dexterity=1), dice())
    assert str(err.value) == message
    assert "\n" not in str(err.value)


def test_willpower_spend_is_refused_and_the_dead_roll_nothing():
    with pytest.raises(DiceSyntaxError, match="no Willpower spend"):
        EL.roll_check(parse_pool("2", EL.trait_names), fighter(), dice(), willpower=True)
    with pytest.raises(CombatError, match="dead"):
        check("2", fighter(health={"lethal": 20}))


# ======================================================================= initiative


def test_initiative_scores_of_the_worked_example():
    assert EL.initiative_score(DAISY).size == 11   # (9 + 4)/2 up = 7, +3 FRT, +1 SA
    assert EL.initiative_score(HANK).size == 4     # (4 + 2)/2 = 3, +1 SA
    no_acute = fighter(Dexterity=9, Perception=4)
    assert EL.initiative_score(no_acute).size == 6  # rounded down without Acute Senses


def test_daisy_rolls_20_with_a_plain_d10():
    roller = dice(9)
    roll = EL.roll_initiative(DAISY, roller)
    done(roller)
    assert (roll.total, roll.die, roll.tiebreak) == (20, 9, 11)
    assert roll.describe() == ("(Dexterity 9 + Perception 4)/2 rounded up = 7 + Fast Reaction Time 3 + "
                               "Situational Awareness 1 = 11 + 1d10 (9) = 20")
    ten = EL.roll_initiative(HANK, dice(10))  # no Rule of 10 on initiative: one die only
    assert ten.total == 14


def test_initiative_without_bonuses_shows_the_half_with_its_equals():
    plain = fighter(Dexterity=2, Perception=2)
    roll = EL.roll_initiative(plain, dice(3))
    assert roll.describe() == "(Dexterity 2 + Perception 2)/2 = 2 + 1d10 (3) = 5"


def test_worked_example_daisy_20_hank_14_interleave():
    daisy = EL.roll_initiative(DAISY, dice(9))
    hank = EL.roll_initiative(HANK, dice(10))
    order = EL.schedule([hank, daisy])
    assert [(slot.at, slot.names) for slot in order.slots] == [
        (20, ("Daisy",)), (15, ("Daisy",)), (14, ("Hank",)), (10, ("Daisy",)),
        (9, ("Hank",)), (5, ("Daisy",)), (4, ("Hank",))]
    assert "".join(f"{s.names[0][0]}{s.at} " for s in order.slots).split() == \
        ["D20", "D15", "H14", "D10", "H9", "D5", "H4"]


def _init(name: str, total: int, score: int) -> InitiativeRoll:
    return InitiativeRoll(name, Pool((("", score),)), total - score, total, score)


@pytest.mark.parametrize(("total", "slots"), [
    (23, (23, 18, 13, 8, 3)),     # "If Daisy had rolled 23, she'd get 5 actions"
    (26, (26, 21, 16, 11, 6)),    # "if she had (somehow) rolled 26, she'd still only get 5"
    (20, (20, 15, 10, 5)),
    (5, (5,)),                    # nothing at 0 or less
    (1, (1,)),
])
def test_extra_actions_at_minus_five_at_most_five(total, slots):
    assert EL.action_slots(_init("Daisy", total, 11)) == slots
    assert [s.at for s in EL.schedule([_init("Daisy", total, 11)]).slots] == list(slots)


def test_schedule_ties_higher_score_first_then_together():
    rolls = [_init("cid", 12, 4), _init("Bea", 12, 6), _init("amy", 12, 4)]
    order = EL.schedule(rolls)
    assert [(s.at, s.names) for s in order.slots] == [
        (12, ("Bea",)), (12, ("amy", "cid")), (7, ("Bea",)), (7, ("amy", "cid")),
        (2, ("Bea",)), (2, ("amy", "cid"))]
    assert EL.schedule(list(reversed(rolls))) == order


def test_action_and_defense_penalties_are_cumulative():
    assert [EL.action_penalty(n) for n in range(5)] == [0, -2, -4, -6, -8]
    assert [EL.defense_penalty(n) for n in range(4)] == [0, -2, -4, -6]


def test_a_sixth_offensive_or_movement_action_is_refused():
    EL.check_action(4)
    with pytest.raises(CombatError) as err:
        EL.check_action(5)
    assert str(err.value) == "No one may take more than 5 offensive or movement actions in a turn."
    with pytest.raises(CombatError, match="more than 5"):
        EL.attack(HANK, HENRY, "bat", dice(), situation=Situation(actions_used=5))
    with pytest.raises(CombatError, match="more than 5"):
        EL.movement(HANK, "draw a weapon", 5)


def test_the_down_cannot_roll_initiative():
    with pytest.raises(CombatError, match="Hank is down and cannot act"):
        EL.roll_initiative(fighter("Hank", health={"bash": 10}), dice())


# ==================================================================== worked examples


def test_worked_example_hanks_bat_does_11():
    """Hank STR 3, bat STR x 5; Henry Con 4 + Natural Toughness; 4 SLs vs 2 SLs."""
    roller = dice(9, 6)
    attack = EL.attack(HANK, HENRY, "bat", roller)
    assert english(attack.describe()) == "bat: Dexterity 4 + Melee 2 + d10 [9] = 15: 4 SLs"
    assert attack.needs_defense and attack.successes == 4
    defense = EL.defend(attack, HENRY, "dodge", roller)
    assert english(defense.describe()) == "dodge: Dexterity 3 + Acrobatics 2 + d10 [6] = 11: 2 SLs"
    resolution = EL.resolve(attack, defense, HANK, HENRY, roller)
    done(roller)
    assert resolution.hit and resolution.net_successes == 2
    (harm,) = resolution.harm
    assert (harm.raw, harm.soak.size, harm.amount) == (17, 6, 11)
    assert harm.damage_type == "bash"
    assert harm.health_after.meter == (15, 26)
    assert tuple(englished(resolution.lines))[-3:] == (
        "damage: (Strength 3) x 5 + 2 net SLs = 17 bash",
        "Henry's bash soak: Constitution 4 + Natural Toughness 2 = 6",
        "Henry loses 11 Life Points of bash: Life Points 15/26")


def test_worked_example_dinas_9mm_does_18():
    """Dina's 9mm does 10 x net SLs; Reprax's Protection (Bullets) 2 soaks 12; 7 SLs vs 4."""
    roller = dice(10, 8, 7)
    attack = EL.attack(DINA, REPRAX, "9mm", roller)
    assert attack.roll.total == 24 and attack.successes == 7
    defense = EL.defend(attack, REPRAX, "dodge", roller)
    assert defense.roll.success_levels == 4
    resolution = EL.resolve(attack, defense, DINA, REPRAX, roller)
    done(roller)
    (harm,) = resolution.harm
    assert resolution.net_successes == 3
    assert (harm.raw, harm.soak.size, harm.amount, harm.damage_type) == (30, 12, 18, "lethal")
    assert "damage: 10 (9mm) x 3 net SLs = 30 lethal" in englished(resolution.lines)
    assert "Reprax's bullets soak: Protection (Bullets) 12" in englished(resolution.lines)


# ============================================================================ attacks


def test_ties_go_to_the_defender():
    roller = dice(9, 9)
    attack = EL.attack(HANK, HENRY, "bat", roller)                 # 15
    defense = EL.defend(attack, fighter("Henry", Dexterity=4, Acrobatics=2), "dodge", roller)  # 15
    resolution = EL.resolve(attack, defense, HANK, HENRY, roller)
    done(roller)
    assert not resolution.hit and resolution.harm == ()
    assert "Henry's 15 meets or beats 15: the bat misses." in englished(resolution.lines)


def test_a_failed_attack_needs_no_defense_and_misses():
    roller = dice(2)
    attack = EL.attack(HANK, HENRY, "bat", roller)   # 8: failure
    assert not attack.needs_defense
    resolution = EL.resolve(attack, None, HANK, HENRY, roller)
    assert not resolution.hit and englished(resolution.lines)[-1] == "Hank's bat misses Henry."


def test_no_defense_keeps_every_success_level():
    roller = dice(7)
    attack = EL.attack(HANK, HENRY, "bat", roller)   # 13: 3 SLs
    resolution = EL.resolve(attack, None, HANK, HENRY, roller)
    assert resolution.net_successes == 3 and resolution.harm[0].amount == 15 + 3 - 6


def test_lethal_damage_doubles_net_sls_and_lethal_soak_is_armor_only():
    swordsman = fighter("Sam", Strength=4, Dexterity=3, Melee=3, weapon="sword")
    target = fighter("Tom", Constitution=5, armor={"bash": 1, "lethal": 2, "bullets": 0})
    roller = dice(8)                                  # 14: 3 SLs
    attack = EL.attack(swordsman, target, "sword", roller)
    resolution = EL.resolve(attack, None, swordsman, target, roller)
    (harm,) = resolution.harm
    assert (harm.raw, harm.soak.size, harm.amount) == (4 * 6 + 2 * 3, 2, 28)
    assert "damage: (Strength 4) x 6 + 2 x 3 net SLs = 30 lethal" in englished(resolution.lines)
    assert "Tom's lethal soak: 2 (armor)" in englished(resolution.lines)


def test_armor_adds_its_column_and_damage_never_goes_below_zero():
    vest = dict(EL.armor_table["bulletproof-vest"]["soak"])
    target = fighter("Vic", armor=vest)
    roller = dice(3)                                  # Dina: 11 + 3 = 14: 3 SLs vs no defense
    attack = EL.attack(DINA, target, "9mm", roller)
    harm = EL.resolve(attack, None, DINA, target, roller).harm[0]
    assert (harm.raw, harm.soak.size, harm.amount) == (30, 12, 18)
    plate = fighter("Pat", Constitution=3, armor=dict(EL.armor_table["plate-armor"]["soak"]))
    roller = dice(3)                                  # Hank: 9: 1 SL; 16 bash vs 3 + 10
    harm = EL.resolve(EL.attack(HANK, plate, "bat", roller), None, HANK, plate, roller).harm[0]
    assert (harm.raw, harm.soak.size, harm.amount) == (16, 13, 3)
    roller = dice(3)
    tank = fighter("Tank", Constitution=20)
    harm = EL.resolve(EL.attack(HANK, tank, "bat", roller), None, HANK, tank, roller).harm[0]
    assert harm.amount == 0 and harm.health_after.meter == (90, 90)


def test_unarmed_punch_is_str_x2_bash():
    boxer = fighter("Bo", Strength=4, Dexterity=3, Brawl=3)
    roller = dice(5)                                  # 11: 2 SLs
    attack = EL.attack(boxer, HENRY, "", roller)
    assert attack.label == "punch" and attack.damage_type == "bash"
    harm = EL.resolve(attack, None, boxer, HENRY, roller).harm[0]
    assert harm.raw == 4 * 2 + 2


def test_empty_option_uses_the_weapon_in_hand():
    assert EL.choose("", HANK).weapon.key == "bat"
    assert EL.choose("", fighter()).maneuver.key == "punch"


def test_extra_actions_and_defenses_carry_their_penalties():
    roller = dice(9, 9)
    attack = EL.attack(HANK, HENRY, "bat", roller, situation=Situation(actions_used=2))
    assert english_parts(attack.roll.pool)[-1] == ("3rd action", -4)
    assert attack.roll.total == 11
    defense = EL.defend(attack, HENRY, "dodge", roller, situation=Situation(defenses_used=1))
    assert english_parts(defense.roll.pool)[-1] == ("defense 2", -2)
    assert english(defense.describe()) == "dodge: Dexterity 3 + Acrobatics 2 - 2 (defense 2) + d10 [9] = 12: 2 SLs"


def test_situation_is_read_from_the_snapshots_conditions_when_not_given():
    class Snapshot:
        name = "Hank"
        traits = HANK.traits
        weapon = "bat"
        health: dict = {}
        armor: dict = {}
        conditions = {"actions_used": 1, "unknown": 3}

        def trait(self, name):
            return int(self.traits.get(name, 0))

    assert Situation.of(Snapshot()) == Situation(actions_used=1)
    attack = EL.attack(Snapshot(), HENRY, "bat", dice(9))
    assert ("2nd action", -2) in english_parts(attack.roll.pool)


def test_st_modifiers_prone_and_prone_fighting():
    roller = dice(9)
    attack = EL.attack(HANK, HENRY, "bat", roller, modifier=1, dice_modifier=2,
                       situation=Situation(prone=True))
    assert english_parts(attack.roll.pool)[-3:] == (("prone", -4), ("modifier", 2), ("difficulty", -1))
    trained = fighter("Hank", {**HANK.traits, "Prone Fighting": 1}, weapon="bat")
    attack = EL.attack(trained, HENRY, "bat", dice(9), situation=Situation(prone=True))
    assert ("prone", -4) not in english_parts(attack.roll.pool)


def test_block_and_parry_answer_only_hand_to_hand():
    attack = EL.attack(DINA, HENRY, "9mm", dice(5))
    with pytest.raises(CombatError, match="You cannot block a ranged attack: dodge it."):
        EL.defend(attack, HENRY, "block", dice())
    with pytest.raises(CombatError, match="You need a weapon in hand to parry."):
        EL.defend(EL.attack(HANK, HENRY, "bat", dice(5)), HENRY, "parry", dice())
    with pytest.raises(CombatError, match="Defend with one of"):
        EL.defend(attack, HENRY, "cower", dice())


def test_a_brawler_dodges_with_dexterity_plus_brawl():
    # Seed (Actions, Defensive): "Dexterity + Acrobatics for a full-on dodge;
    # DEX + Brawl for a dodge or hand-to-hand block": against a gun, a Brawl 4 fighter with no
    # Acrobatics dodges at Dexterity 3 + Brawl 4, not at Acrobatics 0.
    brawler = fighter("Bruno", Dexterity=3, Brawl=4)
    roller = dice(5, 6)
    shot = EL.attack(DINA, brawler, "9mm", roller)
    defense = EL.defend(shot, brawler, "dodge", roller)
    done(roller)
    assert english(defense.describe()) == "dodge: Dexterity 3 + Brawl 4 + d10 [6] = 13: 3 SLs"
    both = fighter("Ace", Dexterity=3, Acrobatics=2, Brawl=2)      # equal: the full-on dodge
    assert EL.defend(shot, both, "dodge", dice(6)).roll.pool.parts == (("Dexterity", 3), ("Acrobatics", 2))


def test_attack_records_round_trip_through_json():
    roller = dice(10, 7, 1, 2)
    for attack in (EL.attack(HANK, HENRY, "bat 2h", roller),
                   EL.attack(replace(HANK, weapon="javelin"), HENRY, "javelin thrown", roller)):
        record = json.loads(json.dumps(attack.to_record()))
        assert EL.attack_from_record(record) == attack
    done(roller)


def test_defense_records_round_trip():
    roller = dice(9, 4)
    attack = EL.attack(HANK, HENRY, "bat", roller)
    defense = EL.defend(attack, HENRY, "dodge", roller)
    assert EL.defense_from_record(json.loads(json.dumps(defense.to_record()))) == defense


# ===================================================================== weapons, armor

BASH = {3: ["brass-knuckles", "fist-loads", "gauntlet"], 4: ["chair-leg", "tonfa", "nightstick", "club"],
        5: ["lead-pipe", "bat", "short-stave", "staff"], 6: ["hammer", "crowbar", "mace"],
        7: ["warhammer", "sledge"]}
LETHAL = {3: ["stake", "small knife", "broken bottle", "shuriken"],
          4: ["big knife", "short spear", "hatchet", "sickle", "chakram"],
          5: ["short sword", "javelin", "spear", "crowbar (hook)"],
          6: ["sword", "axe", "scythe", "guisarme"], 7: ["big sword", "battle axe", "halberd"]}
FIREARMS = {5: [".22", ".25", "5mm", "6mm"], 10: [".380 ACP", ".38", "9mm", ".44", ".45 ACP"],
            15: ["10mm", "11mm", ".357 mag", "12mm", ".41 mag", ".44 mag"],
            20: ["Shotgun", "12-Gauge", "5.56 mm", "7.62mm"],
            25: ["AK-47", "Uzi", "Tommy Gun", "Assault Rifle"]}


@pytest.mark.parametrize(("table", "category"), [(BASH, "bash"), (LETHAL, "lethal"), (FIREARMS, "firearm")])
def test_every_weapon_of_the_source_tables_by_name(table, category):
    for multiplier, names in table.items():
        for name in names:
            weapon = EL.weapon(name)
            assert (weapon.multiplier, weapon.category) == (multiplier, category), name


def test_weapon_count_and_formulas():
    assert len(EL.weapons) == 16 + 20 + 22
    assert english(EL.weapon("bat").formula()) == "STR x 5 bash"
    assert english(EL.weapon("9mm").formula()) == "10 x SLs"
    assert EL.weapon("crowbar").category == "bash" and EL.weapon("crowbar hook").category == "lethal"
    assert EL.weapon("odachi").key == "big-sword"
    assert EL.weapon_names["357-mag"] == ".357 mag"


def test_unknown_and_ambiguous_weapons_are_one_clear_line():
    with pytest.raises(CombatError) as err:
        EL.attack(HANK, HENRY, "knife", dice())
    assert str(err.value) == "No weapon 'knife' in the Eldritch tables. Did you mean: small-knife, big-knife?"
    with pytest.raises(CombatError, match="'rifle' could be: rifle-5.56mm, rifle-7.62mm."):
        EL.weapon("rifle")
    with pytest.raises(CombatError, match="No weapon 'lightsaber'"):
        EL.choose("lightsaber", HANK)
    with pytest.raises(CombatError) as err:
        EL.weapon("zzz")
    assert str(err.value) == "No weapon 'zzz' in the Eldritch tables."
    with pytest.raises(CombatError, match="'atemi' could be: atemi-grip, atemi-strike."):
        EL.choose("atemi", HANK)


def test_armor_table_is_the_source_table():
    assert {key: tuple(entry["soak"].values()) for key, entry in EL.armor_table.items()} == {
        "leather-jacket": (1, 2, 0), "leather-armor": (3, 5, 2), "chain-mail": (8, 8, 4),
        "plate-armor": (10, 12, 6), "bulletproof-vest": (8, 5, 12), "combat-armor": (12, 12, 12)}
    assert EL.armor_table["combat-armor"]["name"] == "Combat Armor"


def test_soak_sources():
    tough = fighter(Constitution=3, **{"Natural Toughness": 1, "Protection (Bullets)": 1},
                    armor={"bash": 3, "lethal": 5, "bullets": 2})
    assert EL.soak(tough, "bash").size == 3 + 2 + 3
    assert EL.soak(tough, "lethal").size == 5
    assert EL.soak(tough, "bullets").size == 6 + 2
    assert EL.soak(tough, "bash", natural=False).size == 3


# ============================================================================== health


def test_life_points():
    assert EL.life_points(fighter(Strength=3, Constitution=4)) == 38
    assert EL.life_points(fighter(Strength=3, Constitution=4, **{"Hard to Kill": 2})) == 44
    assert EL.health({}).meter == (10, 10)                       # no sheet: the base
    assert EL.health({"maximum": 30, "bash": 4}).meter == (26, 30)


def test_down_and_dead():
    actor = fighter("Zed", Strength=1, Constitution=1)           # 18 Life Points
    health = EL.damage(actor, 17, "bash")
    assert health.describe() == "Life Points 1/18" and not health.incapacitated
    health = health.with_damage(1, "lethal")
    assert health.incapacitated and not health.dead
    assert health.describe() == "Down: Life Points 0/18"
    health = health.with_damage(10, "lethal")
    assert health.dead and health.describe() == "Dead: Life Points -10/18"
    assert health.penalty == 0
    with pytest.raises(CombatError, match="already dead"):
        EL.damage(fighter("Zed", Strength=1, Constitution=1, health=health.to_record()), 1, "l")


def test_damage_heal_and_damage_types():
    assert [EL.damage_type(t) for t in ("b", "Bash", "bashing", "L", "lethal")] == \
        ["bash", "bash", "bash", "lethal", "lethal"]
    with pytest.raises(CombatError, match="Damage type must be one of: bash, lethal."):
        EL.damage_type("fire")
    actor = fighter(Strength=1, Constitution=1, health={"bash": 3, "lethal": 4})
    assert EL.heal(actor, 4, None).to_record() == {"maximum": 18, "bash": 0, "lethal": 3}
    assert EL.heal(actor, 2, "lethal").to_record() == {"maximum": 18, "bash": 3, "lethal": 2}
    dead = fighter(Strength=1, Constitution=1, health={"lethal": 30})
    with pytest.raises(CombatError, match="only '\\+heal Ann=all'"):
        EL.heal(dead, 5, None)
    assert EL.heal(dead, None, None).meter == (18, 18)


def test_life_points_record_round_trips():
    health = LifePoints(30, 2, 5)
    assert EL.health(health.to_record()) == health


# ======================== Fray's reading of the seed: Acute Scent (docs/rules/eldritch.md, Initiative)
def test_daisys_acute_scent_rounds_her_initiative_up():
    # seed (Extra Actions): "Demon Daisy has DEX 9, PER 4, Acute Scent, Fast Reaction Time, and
    # Situational Awareness. Her total Initiative is 11": (9 + 4)/2 = 6.5 up to 7, +3, +1.
    daisy = fighter("Daisy", {"Dexterity": 9, "Perception": 4, "Acute Scent": 1,
                              "Fast Reaction Time": 1, "Situational Awareness": 1})
    assert EL.initiative_score(daisy).size == 11
    assert english_parts(EL.initiative_score(daisy))[0] == ("(Dexterity 9 + Perception 4)/2 rounded up =", 7)
    assert EL.round_up_with == ("Acute Senses", "Acute Scent")


def test_firearm_limits_keep_their_own_sizes_unless_the_data_says_multiplier():
    # seed (Limitations): the limitations are "directly tied to ... the weapon's damage
    # multiplier"; minimum Strength is "(damage multiplier -2)". Fray's choice (data
    # attack.firearm_limits = false): a 9mm (10 x SLs) has size 4, only for conspicuousness.
    assert EL.weapon("9mm").size == 4
    assert EL.strength_limit(EL.weapon("9mm"), 0, 1) is None
    assert EL.space_limit(EL.weapon("9mm"), 1, "firearm") is None
    data = copy.deepcopy(load_system_data("eldritch"))
    data["attack"]["firearm_limits"] = True
    literal = EldritchSystem(data)
    # Read literally a 9mm needs Strength 10 - 2 = 8 one-handed, and 8 yards of room.
    assert literal.weapon("9mm").size == 10
    assert english(literal.strength_limit(literal.weapon("9mm"), 5, 1).line) == \
        "9mm one-handed: Strength 8 needed, 5 -> 3 short, -6"
    assert literal.space_limit(literal.weapon("9mm"), 5, "firearm").penalty == -6
    assert literal.search_bonus(literal.weapon("9mm")) == 6


def composed(roll) -> str:
    """An eldritch roll as the rules composed it before its line was data: a capitalised
    label a trait ("Name N"), a lower-case one a signed number with the label in brackets."""
    pieces = []
    for label, value in roll.pool.parts:
        if not label:
            pieces.append((value < 0, str(abs(value))))
        elif label[:1].isupper():
            pieces.append((False, f"{label} {value}"))
        else:
            pieces.append((value < 0, f"{abs(value)} ({label})"))
    parts = ""
    if pieces:
        parts = ("-" if pieces[0][0] else "") + pieces[0][1] + "".join(
            f" {'-' if negative else '+'} {body}" for negative, body in pieces[1:])
    shown = ", ".join(str(face) for face in roll.faces)
    faces = f"[{shown} -> {roll.die}]" if len(roll.faces) > 1 else f"[{shown}]"
    levels = roll.success_levels
    verdict = ("1 SL" if levels == 1 else f"{levels} SLs") if levels > 0 else "failure"
    return f"{parts + ' + d10' if parts else 'd10'} {faces} = {roll.total}: {verdict}"


def test_roll_line_words_as_describe_for_every_shape_of_pool():
    from rules.systems.base import Pool
    from rules.systems.eldritch.dice import EldritchRoll
    shapes = [(), (("Dexterity", 3),), (("Dexterity", 3), ("Brawl", 2), ("ear pop", -2), ("", 1)),
              (("", -2),), (("wounds", -3), ("Strength", -1))]
    dice_ = [((7,), 7, 10, 0), ((10, 8), 13, 18, 5), ((1, 3), -2, -5, 0), ((5,), 5, 9, 1)]
    for parts in shapes:
        for faces, die, total, levels in dice_:
            roll = EldritchRoll(Pool(parts), faces, die, total, levels)
            assert englished([roll.line(), roll.describe()]) == [composed(roll)] * 2
    assert englished([EldritchRoll(Pool((("ear pop", -2),)), (5,), 5, 3, 1).line()]) == ["-2 (ear pop) + d10 [5] = 3: 1 SL"]
