"""Tests for ``eldritch``'s limitations (minimum Strength, space, conspicuousness), hiding,
eye contact, line of sight and movement (seed: Limitations, Hiding, Eye Contact, Line of
Sight, Actions). Forced dice as in ``test_eldritch.py``."""

from __future__ import annotations

import json

import pytest

from rules.systems.base import Combatant, CombatError
from rules.systems.eldritch.checks import Concealment
from rules.systems.eldritch.system import EldritchSystem, Situation
from tests.rules.forced_dice import dice, done
from tests.rules.wording import english, english_parts, englished

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
    assert english(EL.strength_limit(EL.weapon("sword"), 2, 2).line) == \
        "sword two-handed: Strength 3 needed, 2 -> 1 short, -2"
    assert english(EL.strength_limit(EL.weapon("staff"), 2, 2).line) == \
        "staff two-handed: Strength 2 needed, 2 -> no penalty"
    assert EL.strength_limit(EL.weapon("9mm"), 0, 1) is None


def test_space_lines_count_yards_and_say_no_penalty_with_room_enough():
    lines = {(weapon, yards): english(EL.space_limit(EL.weapon(weapon), yards, "melee").line)
             for weapon, yards in (("staff", 1), ("staff", 3), ("big knife", 0))}
    assert lines == {("staff", 1): "staff needs a 3 yards radius, 1 yard here -> 2 short, -4",
                     ("staff", 3): "staff needs a 3 yards radius, 3 yards here -> no penalty",
                     ("big knife", 0): "big knife needs a 2 yards radius, 0 yards here -> 2 short, -4"}


def test_no_weapon_is_too_heavy_only_minus_two_per_level():
    # Seed (Limitations): "This is not to say that it cannot be used by weaker
    # people - but for every level of difference ... the character gains a -2": no refusal.
    # STR 1 with a big sword (STR x 7) one-handed: Strength 5 needed, 4 short, -8.
    tiny = fighter("Tiny", Strength=1, Dexterity=3, Melee=2, weapon="big-sword")
    roller = dice(9)
    attack = EL.attack(tiny, fighter("Bob"), "big sword 1h", roller)
    done(roller)
    assert english_parts(attack.roll.pool) == (("Dexterity", 3), ("Melee", 2), ("strength short", -8))
    assert englished(attack.notes) == ["big sword one-handed: Strength 5 needed, 1 -> 4 short, -8"]
    assert attack.roll.total == 3 + 2 - 8 + 9
    warhammer = EL.attack(fighter("Tiny", Dexterity=3, Melee=2, weapon="warhammer"), fighter("Bob"),
                          "warhammer", dice(9))
    assert ("strength short", -8) in english_parts(warhammer.roll.pool)     # two-handed: 4 needed, 0 has
    assert "too_heavy_after" not in EL.attack_table


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
    weak = fighter("Wil", Strength=2, Dexterity=3, Melee=3, weapon="sword")
    attack = EL.attack(weak, fighter("Bob"), "sword 2h", dice(9), situation=Situation(space=2))
    assert english(attack.label) == "sword (two-handed)" and attack.option == "sword 2h"
    assert english_parts(attack.roll.pool) == (("Dexterity", 3), ("Melee", 3), ("strength short", -2),
                                               ("space short", -4))
    assert englished(attack.notes) == ["sword two-handed: Strength 3 needed, 2 -> 1 short, -2",
                                       "sword needs a 4 yards radius, 2 yards here -> 2 short, -4"]
    assert english(attack.describe()).endswith("(sword two-handed: Strength 3 needed, 2 -> 1 short, -2; "
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
    assert tuple(englished(hidden.lines)) == ("Cara hides the sword: Intelligence 3 + Larceny 2 + d10 [6] = 11: 2 SLs",)
    search = EL.search(SEEKER, hidden, roller)            # 3 + 2 + 2 (size) + 4 = 11: a tie
    assert not search.found and search.bonus == 2
    assert tuple(englished(search.lines)) == ("Sid searches: Perception 3 + Notice 2 + 2 (weapon size) + d10 [4] = 11: 2 SLs "
                            "vs concealment 11", "Sid finds nothing on Cara.")
    found = EL.search(SEEKER, hidden, dice(5))
    assert found.found and english(found.lines[-1]) == "Sid finds Cara's sword."
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
    assert tuple(englished(hiding.lines)) == (
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
    assert not sight.established and tuple(englished(sight.lines)) == ("Tgt cannot make eye contact: blindfolded.",)
    sight = EL.eye_contact(PSI, TGT, dice(), yards=21, attacked_last=True)
    assert not sight.established
    assert tuple(englished(sight.lines)) == ("Tgt cannot make eye contact: 21 yards away (more than 20).",)


def test_eye_contact_after_being_attacked():
    sight = EL.eye_contact(PSI, TGT, dice(), attacked_last=True, yards=20)
    assert sight.established and sight.reason == "attacked"


def test_eye_contact_by_drawing_attention():
    sight = EL.eye_contact(PSI, TGT, dice(6, 7), draw_attention=True)   # 11 vs 4 + 7 = 11
    assert not sight.established and sight.reason == "attention"
    assert english(sight.lines[1]) == "Tgt resists: Willpower x2 4 + d10 [7] = 11: 2 SLs"
    assert EL.eye_contact(PSI, TGT, dice(8, 7), draw_attention=True).established


@pytest.mark.parametrize(("face", "made"), [(1, True), (3, True), (4, False), (10, False)])
def test_eye_contact_30_percent_chance(face, made):
    roller = dice(face)
    sight = EL.eye_contact(PSI, TGT, roller)
    done(roller)
    assert (sight.established, sight.face, sight.reason) == (made, face, "chance")
    assert english(sight.lines[0]).startswith(f"30% chance: +roll 0 shows {face} (1-3 makes it)")


# ======================================================================= line of sight


def test_line_of_sight_checklist():
    assert EL.line_of_sight(PSI, TGT, dice(), hidden=True, attacked_last=True).reason == "hidden"
    assert not EL.line_of_sight(PSI, TGT, dice(), blocked=True).established
    by_attack = EL.line_of_sight(PSI, TGT, dice(), partial=True, attacked_last=True)
    assert by_attack.established and by_attack.face is None
    open_field = EL.line_of_sight(PSI, TGT, dice())
    assert open_field.established and open_field.reason == "open"
    kept = EL.line_of_sight(PSI, TGT, dice(), partial=True, established=True)   # no die behind cover
    assert (kept.established, kept.reason, kept.face) == (True, "kept", None)
    assert not EL.line_of_sight(PSI, TGT, dice(), hidden=True, established=True).established
    assert not EL.line_of_sight(PSI, TGT, dice(), blocked=True, established=True).established


@pytest.mark.parametrize(("face", "made"), [(1, True), (5, True), (6, False), (10, False)])
def test_line_of_sight_50_percent_behind_partial_cover(face, made):
    sight = EL.line_of_sight(PSI, TGT, dice(face), partial=True)
    assert (sight.established, sight.face) == (made, face)
    assert english(sight.lines[0]).startswith(f"Partial cover, 50% chance: +roll 0 shows {face} (1-5 makes it)")


# ============================================================================ movement


def test_movement_spends_an_action():
    move = EL.movement(fighter("Hank"), "draw a weapon")
    assert move.penalty == 0 and tuple(englished(move.lines)) == ("Hank spends an action: draw a weapon.",)
    move = EL.movement(fighter("Hank"), "stand up", 2)
    assert tuple(englished(move.lines)) == ("Hank spends an action: stand up (rolls at -4).",)


def test_travel_is_an_action_at_half_the_yards_per_turn():
    assert EL.travel_is_action(5, 10) and EL.travel_is_action(6, 10)
    assert not EL.travel_is_action(4, 10)
    assert "draw a weapon" in EL.movement_examples


# ================================================================ the weapon in hand, grips


@pytest.mark.parametrize(("holder", "option", "message"), [
    # A named weapon must be the one in hand (+stat <name>/weapon=, or +move draw).
    (fighter("Hank", weapon="bat"), "9mm", "Hank holds no 9mm (in hand: bat)."),
    (fighter("Thug"), "9mm", "Thug holds no 9mm (empty-handed)."),
    (fighter("Ann", weapon="pistol"), "sword", "Ann holds no sword (in hand: pistol)."),
    (fighter("Ann", weapon="bat", **{"Whirling Sword": 1}), "whirling sword staff",
     "Ann holds no staff (in hand: bat)."),
    (fighter("Ann", weapon="brass-knuckles"), "gauntlet", "Ann holds no gauntlet (in hand: brass knuckles)."),
    # 1h/2h choose a hand-to-hand weapon's grip, once.
    (fighter("Dina", weapon="9mm"), "9mm 2h", "1h and 2h choose the grip of a hand-to-hand weapon (its "
                                              "minimum Strength), not of the 9mm (a firearm)."),
    (fighter("Dina", weapon="shotgun"), "shotgun 1h", "1h and 2h choose the grip of a hand-to-hand weapon "
                                                     "(its minimum Strength), not of the shotgun (12-gauge) "
                                                     "(a firearm)."),
    (fighter("Bo", weapon="brass-knuckles"), "brass knuckles 2h",
     "1h and 2h choose the grip of a hand-to-hand weapon (its minimum Strength), not of the brass knuckles "
     "(worn on the hand)."),
    (fighter("Hank", weapon="bat"), "bat 2h 2h", "Give the grip (1h or 2h) once."),
    (fighter("Hank", weapon="bat"), "bat 1h two-handed", "Give the grip (1h or 2h) once."),
    (fighter("Jo", weapon="javelin"), "javelin thrown throw", "Give 'thrown' once."),
    (fighter("Gus"), "grapple neck neck", "Give 'neck' once."),
])
def test_a_named_weapon_must_be_in_hand_and_a_grip_must_make_sense(holder, option, message):
    with pytest.raises(CombatError) as err:
        EL.attack(holder, fighter("Reprax"), option, dice())
    assert str(err.value) == message


def test_the_weapon_in_hand_and_unarmed_maneuvers_need_nothing_named():
    hank = fighter("Hank", Strength=3, Dexterity=4, Melee=2, Brawl=1, weapon="bat")
    # The bat in hand, named or not; unarmed maneuvers whatever is in hand.
    assert EL.choose("", hank).weapon.key == "bat" and EL.choose("bat", hank).weapon.key == "bat"
    assert EL.choose("bat 2h", hank).hands == 2 and EL.choose("bat 1h", hank).hands == 1
    assert [EL.choose(m, hank).maneuver.key for m in ("punch", "kick", "jump kick", "grapple")] == [
        "punch", "kick", "jump-kick", "grapple"]
    # A staff defaults to two hands (data: hands = 2): 1h chooses one, at Strength 5 - 2 = 3.
    staff = fighter("Sid", Strength=2, Dexterity=3, Melee=2, weapon="staff")
    two = EL.attack(staff, fighter("Bob"), "", dice(9))       # two-handed: needs 2, no penalty
    assert two.choice.hands == 2 and two.roll.total == 14
    one = EL.attack(staff, fighter("Bob"), "staff 1h", dice(9))   # one-handed: 1 short, -2
    assert english(one.label) == "staff (one-handed)" and one.roll.total == 12
    # Dina's 9mm is hers: the worked example still does 18.
    dina = fighter("Dina", Dexterity=6, Firearms=5, weapon="9mm")
    reprax = fighter("Reprax", Dexterity=5, Acrobatics=3, **{"Protection (Bullets)": 2})
    roller = dice(10, 8, 7)
    shot = EL.attack(dina, reprax, "9mm", roller)
    defense = EL.defend(shot, reprax, "dodge", roller)
    assert EL.resolve(shot, defense, dina, reprax, roller).harm[0].amount == 18


# ======================================================================= spotting
def test_spot_rolls_perception_notice_ambushes_against_the_kept_hiding_roll():
    seeker = fighter("Thug", Perception=2, Notice=1, Ambushes=1)
    sight = EL.spot(seeker, "Ann", 13, dice(9))               # 2 + 1 + 1 + 9 = 13: a tie spots
    assert sight.established and tuple(englished(sight.lines)) == (
        "Thug looks for Ann: Perception 2 + Notice 1 + Ambushes 1 + d10 [9] = 13: 3 SLs vs hiding 13 -> spots Ann",)
    sight = EL.spot(seeker, "Ann", 13, dice(8))               # 12: lower, unseen
    assert not sight.established and english(sight.lines[0]).endswith("= 12: 2 SLs vs hiding 13 -> does not see Ann")


def test_a_kept_search_roll_is_used_again():
    roll = EL.conceal(fighter("Ann", Intelligence=2, Larceny=1), "big knife", dice(8)).roll   # 11
    hidden = [Concealment("Ann", "big-knife", False, roll, ())]
    bob = fighter("Bob", Perception=2, Notice=1)
    kept = EL.search_roll(bob, dice(6))                       # 9
    roller = dice()
    found, lines = EL.search_all(bob, "Ann", hidden, roller, roll=kept, again=True)
    done(roller)
    assert english(lines[0]) == ("Bob searches Ann: Perception 2 + Notice 1 + d10 [6] = 9: 1 SL "
                        "(the same roll as before: a search is rolled once)")
    assert english(lines[1]) == "big knife: 9 + 0 (weapon size) = 9 vs concealment 11: not found"
    found, lines = EL.search_all(bob, "Ann", hidden, dice(), patdown=True, roll=kept, again=True)
    assert found[0].found and english(lines[1]) == "big knife: 9 + 3 (pat-down) = 12 vs concealment 11: found"


def test_npc_initiative_takes_dexterity_and_perception():
    assert EL.npc_initiative_traits == ("Dexterity", "Perception")
    light = Combatant(name="Goon", traits={"Dexterity": 4, "Perception": 3})
    roll = EL.roll_initiative(light, dice(6))                 # (4 + 3)/2 = 3 + 6 = 9
    assert (roll.total, roll.tiebreak) == (9, 3)


def test_opening_the_duffel_bag_finds_what_is_in_it():
    # Seed (Conspicuousness): "If they open the duffel bag, it's curtains".
    roll = EL.conceal(fighter("Ann", Intelligence=2, Larceny=1), "big sword", dice(8)).roll   # 11
    hidden = [Concealment("Ann", "big-sword", True, roll, ()), Concealment("Ann", "big-knife", False, roll, ())]
    bob = fighter("Bob", Perception=2, Notice=1)
    roller = dice(1, 7)                                     # 2 + 1 + (1, 7 -> 1) = 4
    found, lines = EL.search_all(bob, "Ann", hidden, roller, opened=True)
    done(roller)
    assert [s.found for s in found] == [True, False]
    assert tuple(englished(lines)) == ("Bob searches Ann, opening their bag: Perception 2 + Notice 1 + d10 [1, 7 -> 1] = 4: failure",
                     "big sword in a duffel bag: the bag is opened: found",
                     "big knife: 4 + 0 (weapon size) = 4 vs concealment 11: not found",
                     "Bob finds Ann's big sword.")
    # Not opened, the same roll finds nothing in the bag: 4 + (7 - 5) = 6 vs 11.
    found, lines = EL.search_all(bob, "Ann", hidden, dice(), roll=found[0].roll)
    assert not found[0].found and english(lines[1]) == "big sword in a duffel bag: 4 + 2 (duffel bag) = 6 vs concealment 11: not found"



def test_travel_under_half_the_yards_per_turn_is_no_action():
    # Seed (Movement): "Actual travel from point A to point B only counts as a
    # Movement action if the distance is equal or greater than half the character's
    # Yards/Turn". Fray's Yards/Turn (data): (Constitution + Dexterity) x 2: 3 + 3 -> 12.
    runner = fighter("Ann", Constitution=3, Dexterity=3)
    assert EL.yards_per_turn(runner) == 12
    short = EL.travel(runner, 5, "run 5 yards to the door")
    assert not short.spends and short.penalty == 0
    assert tuple(englished(short.lines)) == ("Ann: run 5 yards to the door (Yards/Turn 12: under half, not an action).",)
    far = EL.travel(runner, 6, "run 6 yards", actions_used=1)      # half: an action, the second
    assert far.spends and tuple(englished(far.lines)) == ("Ann spends an action: run 6 yards (Yards/Turn 12: half or more) "
                                        "(rolls at -2).",)
    with pytest.raises(CombatError, match="only action this turn"):
        EL.travel(Combatant(name="Wes", traits={"Dexterity": 3}, conditions={"whirling": True}), 1)
