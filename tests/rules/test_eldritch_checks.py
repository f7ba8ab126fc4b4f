"""Tests for ``eldritch``'s limitations (minimum Strength, space, conspicuousness), hiding,
eye contact, line of sight and movement (seed: Limitations, Hiding, Eye Contact, Line of
Sight, Actions). Forced dice as in ``test_eldritch.py``."""

from __future__ import annotations

import json

import pytest

from rules.systems.base import Combatant, CombatError
from rules.systems.eldritch import EldritchSystem, Situation
from rules.systems.eldritch_checks import Concealment
from tests.rules.forced_dice import dice, done

EL = EldritchSystem()


def fighter(name: str = "Ann", traits: dict | None = None, *, weapon: str = "", **more: int) -> Combatant:
    return Combatant(name=name, traits={**(traits or {}), **more}, weapon=weapon)


# ============================================================================ strength


@pytest.mark.parametrize(("weapon", "strength", "hands", "needed", "penalty"), [
    ("brass knuckles", 1, 1, 1, 0),    # seed: "brass-knuckles or a stake ... STR 1"
    ("stake", 0, 1, 1, -2),
    ("crowbar", 4, 1, 4, 0),           # seed: "a crowbar or a sword one-handed ... STR 4"
    ("sword", 4, 1, 4, 0),
    ("sword", 2, 1, 4, -4),            # -2 per level short
    ("sword", 2, 2, 3, -2),            # both hands: penalties start past 3
    ("halberd", 4, 2, 4, 0),
    ("halberd", 1, 2, 4, -6),
])
def test_minimum_strength(weapon, strength, hands, needed, penalty):
    limit = EL.strength_limit(EL.weapon(weapon), strength, hands)
    assert (limit.needed, limit.penalty) == (needed, penalty)


def test_minimum_strength_lines_and_firearms():
    assert EL.strength_limit(EL.weapon("sword"), 2, 2).line == \
        "sword two-handed: Strength 3 needed, 2 -> 1 short, -2"
    assert EL.strength_limit(EL.weapon("9mm"), 0, 1) is None


def test_a_weapon_too_heavy_is_refused():
    with pytest.raises(CombatError) as err:
        EL.attack(fighter("Tiny", Dexterity=3, Melee=2), fighter("Bob"), "warhammer", dice())
    assert str(err.value) == ("The warhammer is too heavy: two-handed it needs Strength 4, and 0 is "
                              "more than 3 short.")


# =============================================================================== space


@pytest.mark.parametrize(("weapon", "yards", "needed", "penalty"), [
    ("big knife", 2, 2, 0),            # seed: "a large knife or hatchet ... a two yard radius"
    ("hatchet", 1, 2, -2),
    ("odachi", 5, 5, 0),               # seed: "an odachi (big sword) or a halberd ... five yard"
    ("halberd", 3, 5, -4),
    ("brass knuckles", 0, 1, -2),
])
def test_spacial_comfort(weapon, yards, needed, penalty):
    limit = EL.space_limit(EL.weapon(weapon), yards)
    assert (limit.needed, limit.penalty) == (needed, penalty)


def test_space_does_not_apply_to_firearms_thrown_weapons_or_without_a_setting():
    assert EL.space_limit(EL.weapon("9mm"), 0, "firearm") is None
    assert EL.space_limit(EL.weapon("javelin"), 0, "thrown") is None
    assert EL.space_limit(EL.weapon("halberd"), None) is None
    assert EL.space_limit(None, 1) is None


def test_attack_carries_strength_and_space_penalties_with_their_working():
    weak = fighter("Wil", Strength=2, Dexterity=3, Melee=3)
    attack = EL.attack(weak, fighter("Bob"), "sword 2h", dice(9), situation=Situation(space=2))
    assert attack.label == "sword (two-handed)" and attack.option == "sword 2h"
    assert attack.roll.pool.parts == (("Dexterity", 3), ("Melee", 3), ("strength short", -2),
                                      ("space short", -4))
    assert attack.notes == ("sword two-handed: Strength 3 needed, 2 -> 1 short, -2",
                            "sword needs a 4 yards radius, 2 yards here -> 2 short, -4")
    assert attack.describe().endswith("(sword two-handed: Strength 3 needed, 2 -> 1 short, -2; "
                                      "sword needs a 4 yards radius, 2 yards here -> 2 short, -4)")


# ===================================================================== conspicuousness


@pytest.mark.parametrize(("weapon", "duffel", "patdown", "bonus"), [
    ("halberd", False, False, 3),      # size - 4
    ("halberd", False, True, 6),       # pat-down +3
    ("halberd", True, False, 2),       # duffel bag: size - 5
    ("halberd", True, True, 2),
    ("stake", False, False, -1),
    ("9mm", False, False, 0),          # a firearm's size (guess) is 4
])
def test_search_bonus(weapon, duffel, patdown, bonus):
    assert EL.search_bonus(EL.weapon(weapon), duffel=duffel, patdown=patdown) == bonus


CARA = fighter("Cara", Intelligence=3, Larceny=2)
SEEKER = fighter("Sid", Perception=3, Larceny=1, Notice=2)


def test_conceal_once_search_against_it_ties_to_the_carrier():
    roller = dice(6, 4)
    hidden = EL.conceal(CARA, "sword", roller)            # 3 + 2 + 6 = 11
    assert hidden.lines == ("Cara hides the sword: Intelligence 3 + Larceny 2 + d10 [6] = 11: 2 SLs",)
    search = EL.search(SEEKER, hidden, roller)            # 3 + 2 + 2 (size) + 4 = 11: a tie
    assert not search.found and search.bonus == 2
    assert search.lines == ("Sid searches: Perception 3 + Notice 2 + 2 (weapon size) + d10 [4] = 11: 2 SLs "
                            "vs concealment 11", "Sid finds nothing on Cara.")
    found = EL.search(SEEKER, hidden, dice(5))
    assert found.found and found.lines[-1] == "Sid finds Cara's sword."
    patted = EL.search(SEEKER, hidden, dice(1, 7), patdown=True)   # 3 + 2 + 5 + (1, 7 -> 1)
    assert patted.bonus == 5 and patted.roll.total == 11 and not patted.found
    done(roller)


def test_concealment_is_remembered_as_a_record():
    hidden = EL.conceal(CARA, "big sword", dice(8), duffel=True)
    again = Concealment.from_record(json.loads(json.dumps(hidden.to_record())))
    assert again.roll == hidden.roll and again.duffel and again.weapon == "big-sword"
    assert EL.search(SEEKER, again, dice(1, 9), patdown=True).bonus == 2


def test_conceal_an_unknown_weapon_is_refused():
    with pytest.raises(CombatError, match="No weapon 'bazooka'"):
        EL.conceal(CARA, "bazooka", dice())


# ============================================================================== hiding

HAL = fighter("Hal", Dexterity=4, Larceny=2, Stealth=1, Acrobatics=3, Sneaking=2)


def test_hiding_takes_the_better_way_against_each_seeker():
    s1 = fighter("S1", Perception=3, Notice=2)
    s2 = fighter("S2", Perception=4, Notice=3, Ambushes=2)
    roller = dice(5, 9, 4)
    hiding = EL.hide(HAL, [s1, s2], roller)
    done(roller)
    assert hiding.roll.total == 4 + 3 + 2 + 5              # Dex + Acrobatics + Sneaking
    assert hiding.hidden_from == ("S2",) and not hiding.hidden
    assert hiding.lines == (
        "Hal hides: Dexterity 4 + Acrobatics 3 + Sneaking 2 + d10 [5] = 14: 3 SLs",
        "S1 looks: Perception 3 + Notice 2 + Ambushes 0 + d10 [9] = 14: 3 SLs -> spots Hal",
        "S2 looks: Perception 4 + Notice 3 + Ambushes 2 + d10 [4] = 13: 3 SLs -> does not see Hal")


def test_hiding_a_chosen_way():
    hiding = EL.hide(HAL, [fighter("S1")], dice(5, 5), way=0)
    assert hiding.roll.total == 4 + 2 + 1 + 5 and hiding.hidden
    with pytest.raises(CombatError, match="Hide one of 2 ways"):
        EL.hide(HAL, [], dice(), way=2)


# ========================================================================= eye contact

PSI = fighter("Psi", Willpower=3, Influence=2)
TGT = fighter("Tgt", Willpower=2)


def test_eye_contact_impossible():
    sight = EL.eye_contact(PSI, TGT, dice(), impaired="blindfolded")
    assert not sight.established and sight.lines == ("Tgt cannot make eye contact: blindfolded.",)
    sight = EL.eye_contact(PSI, TGT, dice(), yards=21, attacked_last=True)
    assert not sight.established
    assert sight.lines == ("Tgt cannot make eye contact: 21 yards away (more than 20).",)


def test_eye_contact_after_being_attacked():
    sight = EL.eye_contact(PSI, TGT, dice(), attacked_last=True, yards=20)
    assert sight.established and sight.reason == "attacked"


def test_eye_contact_by_drawing_attention():
    sight = EL.eye_contact(PSI, TGT, dice(6, 7), draw_attention=True)   # 11 vs 4 + 7 = 11
    assert not sight.established and sight.reason == "attention"
    assert sight.lines[1] == "Tgt resists: Willpower x2 4 + d10 [7] = 11: 2 SLs"
    assert EL.eye_contact(PSI, TGT, dice(8, 7), draw_attention=True).established


@pytest.mark.parametrize(("face", "made"), [(1, True), (3, True), (4, False), (10, False)])
def test_eye_contact_30_percent_chance(face, made):
    roller = dice(face)
    sight = EL.eye_contact(PSI, TGT, roller)
    done(roller)
    assert (sight.established, sight.face, sight.reason) == (made, face, "chance")
    assert sight.lines[0].startswith(f"30% chance: +roll 0 shows {face} (1-3 makes it)")


# ======================================================================= line of sight


def test_line_of_sight_checklist():
    assert EL.line_of_sight(PSI, TGT, dice(), hidden=True, attacked_last=True).reason == "hidden"
    assert not EL.line_of_sight(PSI, TGT, dice(), blocked=True).established
    by_attack = EL.line_of_sight(PSI, TGT, dice(), partial=True, attacked_last=True)
    assert by_attack.established and by_attack.face is None
    open_field = EL.line_of_sight(PSI, TGT, dice())
    assert open_field.established and open_field.reason == "open"


@pytest.mark.parametrize(("face", "made"), [(1, True), (5, True), (6, False), (10, False)])
def test_line_of_sight_50_percent_behind_partial_cover(face, made):
    sight = EL.line_of_sight(PSI, TGT, dice(face), partial=True)
    assert (sight.established, sight.face) == (made, face)
    assert sight.lines[0].startswith(f"Partial cover, 50% chance: +roll 0 shows {face} (1-5 makes it)")


# ============================================================================ movement


def test_movement_spends_an_action():
    move = EL.movement(fighter("Hank"), "draw a weapon")
    assert move.penalty == 0 and move.lines == ("Hank spends an action: draw a weapon.",)
    move = EL.movement(fighter("Hank"), "stand up", 2)
    assert move.lines == ("Hank spends an action: stand up (rolls at -4).",)


def test_travel_is_an_action_at_half_the_yards_per_turn():
    assert EL.travel_is_action(5, 10) and EL.travel_is_action(6, 10)
    assert not EL.travel_is_action(4, 10)
    assert "draw a weapon" in EL.movement_examples
