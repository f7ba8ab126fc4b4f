"""Tests for ``eldritch``'s lasting conditions as the game keeps them (``condition_after``,
``start_of_round``, ``can_act``) and read back from ``Combatant.conditions``: holds kept on
the one held, Atemi Grip's fading numbness, a Wrestling Hold's pin, stun and passing out,
Whirling Sword's turns, Wall Flip, Drama Points; and the checks the game calls with them
(search of everything hidden, hiding at the extra-action penalty, movement refusals).
Forced dice as in ``test_eldritch.py``."""

from __future__ import annotations

import copy

import pytest

from rules.data import RulesDataError, load_system_data
from rules.systems.base import Combatant, CombatError
from rules.systems.eldritch.checks import Concealment
from rules.systems.eldritch.system import EldritchSystem, Situation
from tests.rules.forced_dice import dice, done
from tests.rules.wording import english, english_parts, englished

EL = EldritchSystem()
ALL = {name: 1 for name in load_system_data("eldritch")["traits"]["maneuvers"]}


def fighter(name: str, conditions: dict | None = None, *, weapon: str = "", **traits: int) -> Combatant:
    return Combatant(name=name, traits={**ALL, **traits}, weapon=weapon, conditions=conditions or {})


GUS = fighter("Gus", Strength=4, Dexterity=3, Brawl=3)


def vic(**conditions) -> Combatant:
    return fighter("Vic", conditions, Constitution=3, Willpower=2, Strength=2, Dexterity=2, Brawl=1,
                   Acrobatics=3)


# ================================================================ condition_after
@pytest.mark.parametrize(("effect", "detail", "after"), [
    ("grappled", {"by": "Gus", "neck": True}, {"by_neck": True, "sleeper_hold": None, "wrestling_hold": None}),
    ("passed-out", 6, {"passed_out": 6, "sleeper_hold": None, "stunned": None}),
    ("passed-out", None, {"passed_out": True, "sleeper_hold": None, "stunned": None}),
    ("passed-out", False, {"passed_out": False, "sleeper_hold": None, "stunned": None}),
    ("atemi-grip", 4, {"atemi_grip": 4}),
    ("stunned", "rest of turn", {"stunned": "rest of turn"}),
    ("stunned", "first action", {"stunned": "first action"}),
    ("sleeper-hold", {"by": "Gus", "sls": 1, "needed": 3}, {"sleeper_hold": {"by": "Gus", "sls": 1, "needed": 3}}),
    ("wall-flip", {"over": "Hank", "bonus": 3}, {"flipped_over": "Hank", "flip_defense": True}),
    ("wall-flip-spent", "Hank", {"flipped_over": None}),
    ("whirling-sword", {"turn": 2, "penalty": -6}, {"whirling": True, "whirl_turns": 1}),
    ("drama-point", False, {"drama_point": False}),
    ("eye-lost", "Ed", {"eye_lost": "Ed"}),
])
def test_effects_become_the_conditions_situation_reads(effect, detail, after):
    assert EL.condition_after({"prone": True}, effect, detail) == {"prone": True, **after}


def test_an_unknown_effect_falls_back_to_the_base_rule():
    assert EL.condition_after({}, "prone", None) == {"prone": True}


def test_situation_reads_the_kept_conditions():
    situation = Situation.of(vic(held_by="Gus", wrestling_hold={"by": "Gus", "penalty": -2}, atemi_grip=3,
                                 passed_out=4))
    assert (situation.held_by, situation.pinned, situation.atemi_grip, situation.passed_out) == ("Gus", -2, 3, 4)
    # A pin counts only while its holder still holds.
    assert Situation.of(vic(wrestling_hold={"by": "Gus", "penalty": -2})).pinned == 0


# =========================================================== holds kept on the held
def test_a_hold_kept_on_the_victim_allows_the_grip_and_carries_sleeper_sls():
    with pytest.raises(CombatError, match="Sleeper Hold needs Vic grappled by the neck."):
        EL.attack(GUS, vic(held_by="Gus"), "sleeper hold", dice())
    with pytest.raises(CombatError, match="Atemi Grip needs Vic grappled first."):
        EL.attack(GUS, vic(held_by="Ann"), "atemi grip", dice())
    roller = dice(5, 2)            # Str 4 + Brawl 3 - 2 + 5 = 10: 1 SL; Con x2 6 + 2 = 8
    target = vic(held_by="Gus", by_neck=True, sleeper_hold={"by": "Gus", "sls": 2, "needed": 3})
    attack = EL.attack(GUS, target, "sleeper hold", roller)
    assert attack.carried == 2
    resolution = EL.resolve(attack, None, GUS, target, roller)
    done(roller)
    assert resolution.effects == (("passed-out", "Vic", 5),)    # 2 + 1 = 3 of 3: 5 turns


def test_escaping_takes_the_numbness_the_pin_and_the_action_penalty():
    roller = dice(9, 5)
    held = vic(held_by="Gus", atemi_grip=2, wrestling_hold={"by": "Gus", "penalty": -1}, actions_used=1)
    escaped, lines = EL.escape_hold(held, GUS, roller)
    done(roller)
    assert english(lines[0]) == ("Vic: Strength 2 + Brawl 1 - 2 (2nd action) - 2 (numb, atemi grip) - 1 (wrestling hold) "
                        "+ d10 [9] = 7: failure")
    assert not escaped


# ==================================================================== numbness
def test_atemi_grip_numbness_weighs_on_attacks_and_defenses_and_fades_with_actions_only():
    numb = fighter("Vic", {"atemi_grip": 3}, Dexterity=2, Brawl=1, Acrobatics=3)
    roller = dice(9)
    attack = EL.attack(numb, GUS, "punch", roller)               # 2 + 1 - 3 + 9 = 9
    assert english_parts(attack.roll.pool) == (("Dexterity", 2), ("Brawl", 1), ("numb, atemi grip", -3))
    assert attack.roll.total == 9 and attack.effects == ()     # it fades when the action is spent
    swing = EL.attack(GUS, numb, "punch", dice(5))               # 3 + 3 + 5 = 11
    defense = EL.defend(swing, numb, "dodge", dice(9))           # 2 + 3 - 3 + 9 = 11: a tie
    assert defense.roll.total == 11
    resolution = EL.resolve(swing, defense, GUS, numb, dice())
    assert not [e for e in resolution.effects if e[0] == "atemi-grip"]   # a dodge is no action
    # seed: "Each consecutive action, the penalty is reduced by 1": the game calls after_action
    # for each action (attack, movement, hiding, escape), never for a defense.
    assert EL.after_action(numb).conditions == {"atemi_grip": 2}
    assert EL.after_action(fighter("Vic", {"atemi_grip": 1})).conditions == {"atemi_grip": 0}
    assert EL.after_action(GUS) is None
    assert EL.after_action(numb, passed=True) is None           # a slot that goes by is no action


def test_a_stun_from_the_end_of_a_turn_ends_with_the_first_slot_of_the_next():
    stunned = vic(stunned="first action", atemi_grip=2)
    assert not EL.can_act(stunned)
    assert EL.start_of_round(stunned, 2) is None                # it outlasts the turn's end
    effect = EL.after_action(stunned, passed=True)
    assert (dict(effect.conditions), tuple(englished(effect.lines))) == (
        {"stunned": None}, ("Vic loses the first action of the turn to the stun and is no longer stunned.",))
    assert EL.after_action(vic(stunned="rest of turn"), passed=True) is None
    assert EL.numb_after(1) == 0 and EL.numb_after(0) == 0


def test_atemi_grip_numbness_weighs_on_every_physical_roll():
    # seed: "a reductive penalty to all physical rolls": escaping, the resisting rolls of
    # Wrestling Hold, Sleeper Hold and Atemi Grip, Ear Pop's check, hiding; not a search.
    numb = vic(atemi_grip=2, held_by="Gus")
    roller = dice(9, 5)                       # Vic: 2 + 1 - 2 + 9 = 10; Gus: 4 + 3 + 5 = 12
    escaped, lines = EL.escape_hold(numb, GUS, roller)
    assert not escaped and english(lines[0]) == "Vic: Strength 2 + Brawl 1 - 2 (numb, atemi grip) + d10 [9] = 10: 1 SL"
    # Wrestling Hold: Gus 4 + 3 - 2 + 5 = 10; Vic the better of Strength/Dexterity 2 + the better
    # of Brawl/Acrobatics 3 - 2 (numb) + 6 = 9.
    roller = dice(5, 6)
    attack = EL.attack(GUS, numb, "wrestling hold", roller)
    resolution = EL.resolve(attack, None, GUS, numb, roller)
    assert "Vic resists: Strength 2 + Acrobatics 3 - 2 (numb, atemi grip) + d10 [6] = 9: 1 SL" in englished(resolution.lines)
    # Sleeper Hold: Constitution x2 6 - 2 (numb) + 4 = 8: a failure.
    roller = dice(5, 4)
    held = vic(atemi_grip=2, held_by="Gus", by_neck=True)
    resolution = EL.resolve(EL.attack(GUS, held, "sleeper hold", roller), None, GUS, held, roller)
    assert "Vic resists: Constitution x2 6 - 2 (numb, atemi grip) + d10 [4] = 8: failure" in englished(resolution.lines)
    # Atemi Grip again: Constitution 3 + Willpower 2 - 2 (numb) + 4 = 7.
    roller = dice(5, 4)
    resolution = EL.resolve(EL.attack(GUS, numb, "atemi grip", roller), None, GUS, numb, roller)
    assert "Vic resists: Constitution 3 + Willpower 2 - 2 (numb, atemi grip) + d10 [4] = 7: failure" in englished(resolution.lines)
    # Ear Pop: Gus 3 + 3 - 3 + 6 = 9: 1 SL; the check: Constitution x2 6 - 1 (the attack's SL)
    # - 2 (numb) + 6 = 9: 1 SL, not fewer: shaken off.
    roller = dice(6, 6)
    resolution = EL.resolve(EL.attack(GUS, numb, "ear pop", roller), None, GUS, numb, roller)
    assert ("Vic shakes it off? Constitution x2 6 - 1 (ear pop) - 2 (numb, atemi grip) + d10 [6] = 9: 1 SL "
            "(needs 1 SL)") in englished(resolution.lines)
    assert "Vic shakes it off: 1 SL, not fewer than the attack's 1." in englished(resolution.lines)
    # Hiding (Dexterity): - 2; the seekers' and a searcher's Perception rolls are not physical.
    result = EL.hide(numb, [GUS], dice(7, 5))
    assert english_parts(result.roll.pool)[-1] == ("numb, atemi grip", -2)
    assert EL.search_roll(numb, dice(5)).pool.parts == (("Perception", 0), ("Larceny", 0))


# ======================================================== stun and passing out
def test_the_stunned_and_the_unconscious_do_not_act():
    assert EL.can_act(vic())
    assert not EL.can_act(vic(stunned="rest of turn"))
    assert not EL.can_act(vic(passed_out=True))
    with pytest.raises(CombatError, match="Vic is stunned and can only defend this turn."):
        EL.attack(vic(stunned="rest of turn"), GUS, "punch", dice())
    with pytest.raises(CombatError, match="Vic is out cold."):
        EL.movement(vic(passed_out=2), "run")
    # The stunned still defend; the unconscious cannot.
    swing = EL.attack(GUS, vic(), "punch", dice(5))
    assert EL.defend(swing, vic(stunned="rest of turn"), "dodge", dice(4)).roll.total == 9
    with pytest.raises(CombatError, match="Vic is out cold and cannot defend."):
        EL.defend(swing, vic(passed_out=True), "dodge", dice())


def test_an_attack_on_one_out_cold_cannot_be_defended_and_wakes_them():
    target = vic(passed_out=True)
    roller = dice(5)
    attack = EL.attack(GUS, target, "punch", roller)
    assert not attack.needs_defense and english(attack.defenseless) == "Vic is out cold and cannot defend."
    assert EL.attack_from_record(attack.to_record()) == attack
    resolution = EL.resolve(attack, None, GUS, target, roller)
    done(roller)
    assert ("passed-out", "Vic", False) in resolution.effects
    assert "Being attacked wakes Vic." in englished(resolution.lines)


@pytest.mark.parametrize(("conditions", "changes", "lines"), [
    ({"stunned": "rest of turn"}, {"stunned": None}, ("Vic is no longer stunned.",)),
    ({"passed_out": 3}, {"passed_out": 2}, ("Vic is out for 2 more turns.",)),
    ({"passed_out": 2}, {"passed_out": 1}, ("Vic is out for 1 more turn.",)),
    ({"passed_out": 1}, {"passed_out": None}, ("Vic comes to.",)),
    ({"whirling": True, "whirl_turns": 1}, {"whirling": None, "whirl_turns": 2}, ()),
    ({"whirl_turns": 2}, {"whirl_turns": None}, ()),
])
def test_a_new_turn(conditions, changes, lines):
    effect = EL.start_of_round(vic(**conditions), 2)
    assert (dict(effect.conditions), tuple(englished(effect.lines))) == (changes, lines)


def test_a_new_turn_leaves_the_others_alone():
    assert EL.start_of_round(vic(passed_out=True, atemi_grip=2, held_by="Gus"), 2) is None


# ================================================================= drama point
def test_a_drama_point_kept_for_the_next_defense_is_spent_on_damaging_block():
    club = EL.attack(fighter("Thug", weapon="club", Dexterity=2, Melee=2), vic(), "club", dice(5))
    defender = fighter("Dee", {"drama_point": True}, Dexterity=3, Brawl=2, Strength=3)
    defense = EL.defend(club, defender, "damaging block", dice(8))
    assert defense.drama_point
    resolution = EL.resolve(club, defense, fighter("Thug", weapon="club", Dexterity=2, Melee=2), defender, dice())
    assert ("drama-point", "Dee", False) in resolution.effects
    # A dodge does not spend it.
    assert not EL.defend(club, defender, "dodge", dice(8)).drama_point


# ============================================================ checks the game uses
def test_search_all_rolls_once_and_adds_each_weapons_bonus():
    roll = EL.conceal(fighter("Ann", Intelligence=2, Larceny=1), "big knife", dice(8)).roll   # 11
    hidden = [Concealment("Ann", "big-knife", False, roll, ()), Concealment("Ann", "big-sword", True, roll, ())]
    roller = dice(6)
    found, lines = EL.search_all(fighter("Bob", Perception=2, Notice=1), "Ann", hidden, roller, patdown=True)
    done(roller)
    assert [s.found for s in found] == [True, False]
    assert tuple(englished(lines)) == ("Bob pats down Ann: Perception 2 + Notice 1 + d10 [6] = 9: 1 SL",
                     "big knife: 9 + 3 (pat-down) = 12 vs concealment 11: found",
                     "big sword in a duffel bag: 9 + 2 (duffel bag) = 11 vs concealment 11: not found",
                     "Bob finds Ann's big knife.")
    _, lines = EL.search_all(fighter("Bob", Perception=2), "Ann", [], dice(9))
    assert english(lines[-1]) == "Bob finds nothing on Ann."


def test_hiding_later_in_the_turn_takes_the_action_penalty():
    roller = dice(7, 5)
    result = EL.hide(fighter("Ann", Dexterity=3, Larceny=1, Stealth=2), [vic()], roller, penalty=-2)
    done(roller)
    assert english(result.lines[0]) == "Ann hides: Dexterity 3 + Larceny 1 + Stealth 2 - 2 (extra action) + d10 [7] = 11: 2 SLs"


def test_eye_contact_with_one_hiding_is_impossible():
    sight = EL.eye_contact(GUS, vic(), dice(), hidden=True)
    assert not sight.established and sight.reason == "hidden"


def test_no_movement_beside_whirling_sword():
    with pytest.raises(CombatError, match="Gus is whirling their sword"):
        EL.movement(fighter("Gus", {"whirling": True}), "run")


# ============================================================== defenses offered
def test_only_the_defenses_defend_allows_are_offered():
    novice = Combatant(name="Ann", traits={"Dexterity": 2})
    punch = EL.attack(GUS, novice, "punch", dice(5))
    shot = EL.attack(fighter("Dina", weapon="9mm", Dexterity=6, Firearms=5), novice, "9mm", dice(5))
    assert EL.defense_choices(punch, novice) == ("dodge", "block")
    assert EL.defense_choices(punch, Combatant(name="Ann", weapon="bat")) == ("dodge", "block", "parry")
    assert EL.defense_choices(shot, novice) == ("dodge",)
    trained = fighter("Wu", {"wall": True}, weapon="sword")
    assert EL.defense_choices(punch, trained) == ("dodge", "block", "parry", "damaging-block", "wall-flip")
    # Whirling, the sword's roll is the only defense (seed: "to attack and
    # defend for the entire turn")
    whirler = fighter("Wu", {"wall": True, "whirling": True}, weapon="sword")
    assert EL.defense_choices(punch, whirler) == ("whirling-sword",)
    knife = EL.attack(fighter("Gus", weapon="small-knife", Dexterity=3, Brawl=3), trained, "small knife thrown",
                      dice(5))
    assert EL.defense_choices(knife, trained) == ("dodge", "catch-weapon", "ranged-deflection", "wall-flip")
    assert EL.defense_choices(punch, vic(passed_out=True)) == ()


def test_hud_marks_and_the_scene_in_words():
    assert englished(EL.condition_marks({"held_by": 7, "by_neck": True, "sleeper_hold": {"sls": 1, "needed": 3},
                                         "atemi_grip": 2, "stunned": "first action", "passed_out": 1,
                                         "flip_defense": True, "flipped_over": "Hank"})) == [
        "by the neck", "sleeper 1/3", "numb -2", "stunned", "out 1 turn", "wall flip +3", "flipped over Hank"]
    assert englished(EL.condition_marks({"sleeper_hold": {"sls": 1, "needed": 3}, "passed_out": True})) == ["out cold"]
    assert englished(EL.condition_marks({"held_by": 7, "wrestling_hold": {"penalty": -2}, "passed_out": 2,
                                         "whirling": True, "whirl_turns": 1, "eye_lost": True,
                                         "drama_point": True})) == [
        "pinned -2", "out 2 turns", "whirling (turn 2)", "one eye", "drama point"]
    assert english(EL.scene_text({"space": 1, "wall": True})) == "1 yard of room, a wall at hand"
    assert englished([EL.scene_text({"space": 3}), EL.scene_text({"space": 0, "wall": False}),
                      EL.scene_text({"wall": True})]) == ["3 yards of room", "0 yards of room", "a wall at hand"]
    assert EL.scene_text({}) == "" and EL.condition_marks({}) == ()


def test_wall_flips_plus_three_lasts_for_all_further_defenses():
    # Fray's reading of the seed (Wall Flip): "If not hit, The character adds a +3 bonus
    # to all further defensive actions": a new turn keeps it (data: defense_bonus_lasts "fight").
    assert EL.maneuvers["wall-flip"].extra["defense_bonus_lasts"] == "fight"
    assert EL.start_of_round(vic(flip_defense=True, flipped_over="Hank"), 2) is None
    data = copy.deepcopy(load_system_data("eldritch"))
    data["maneuvers"]["wall-flip"]["defense_bonus_lasts"] = "turn"
    by_turn = EldritchSystem(data)
    assert dict(by_turn.start_of_round(vic(flip_defense=True, flipped_over="Hank"), 2).conditions) == \
        {"flip_defense": None}
    data["maneuvers"]["wall-flip"]["defense_bonus_lasts"] = "week"
    with pytest.raises(RulesDataError, match="maneuvers.wall-flip.defense_bonus_lasts: expected one of fight, turn"):
        EldritchSystem(data)
