"""Tests for the 14 advanced maneuvers of ``eldritch`` (seed: Advanced Maneuvers), the basic
grapple, and escaping a hold. Forced dice as in ``test_eldritch.py``."""

from __future__ import annotations

import copy
import json
from dataclasses import replace

import pytest

from rules.data import load_system_data
from rules.systems.base import Combatant, CombatError
from rules.systems.eldritch.system import EldritchSystem, Situation
from tests.rules.forced_dice import dice, done
from tests.rules.wording import english, english_parts, englished

EL = EldritchSystem()
ALL = {name: 1 for name in load_system_data("eldritch")["traits"]["maneuvers"]}


def fighter(name: str, traits: dict | None = None, *, weapon: str = "", health=None, armor=None,
            bought: bool = True, **more: int) -> Combatant:
    return Combatant(name=name, traits={**(ALL if bought else {}), **(traits or {}), **more},
                     weapon=weapon, health=health or {}, armor=armor or {})


GUS = fighter("Gus", Strength=4, Dexterity=3, Brawl=3)
VIC = fighter("Vic", Constitution=3, Willpower=2, Strength=2, Dexterity=2, Brawl=1, Acrobatics=3)
HANK = fighter("Hank", Strength=3, Dexterity=4, Melee=2, weapon="bat", bought=False)
HENRY = fighter("Henry", Constitution=4, Dexterity=3, Acrobatics=2, bought=False,
                **{"Natural Toughness": 1})
DINA = fighter("Dina", Dexterity=6, Firearms=5, weapon="9mm", bought=False)
HELD = Situation(grappling="Vic")
NECK = Situation(grappling="Vic", neck=True)


def test_there_are_fourteen_advanced_maneuvers():
    advanced = [m.label for m in EL.maneuvers.values() if m.advanced]
    assert advanced == list(ALL) and len(advanced) == 14


@pytest.mark.parametrize(("option", "label"), [
    ("atemi grip", "Atemi Grip"), ("atemi strike", "Atemi Strike"),
    ("double jump kick", "Double Jump Kick"), ("ear pop", "Ear Pop"), ("eye pluck", "Eye Pluck"),
    ("sleeper hold", "Sleeper Hold"), ("whirling sword sword", "Whirling Sword"),
    ("wrestling hold", "Wrestling Hold"),
])
def test_advanced_maneuvers_must_be_bought(option, label):
    novice = fighter("Ann", bought=False, Dexterity=5, Strength=3)
    with pytest.raises(CombatError) as err:
        EL.attack(novice, VIC, option, dice(), situation=NECK)
    assert str(err.value) == f"Ann has not bought the {label} maneuver."


@pytest.mark.parametrize(("defense", "label"), [
    ("catch weapon", "Catch Weapon"), ("damaging block", "Damaging Block"),
    ("ranged deflection", "Ranged Deflection"), ("wall flip", "Wall Flip"),
])
def test_defensive_maneuvers_must_be_bought(defense, label):
    attack = EL.attack(GUS, HENRY, "punch", dice(9))
    with pytest.raises(CombatError, match=f"Henry has not bought the {label} maneuver."):
        EL.defend(attack, HENRY, defense, dice(), situation=Situation(wall=True))


@pytest.mark.parametrize(("option", "message"), [
    ("prone fighting", "Prone Fighting is always in use once bought."),
    ("wall flip", "Wall Flip is a defense: defend wall-flip."),
    ("sacrifice", "Sacrifice is made with the sacrifice command."),
    ("punch bat", "A punch takes no weapon."),
    ("bat neck", "Only a grapple takes an opponent by the neck."),
    ("punch 2h", "Only a weapon is held one- or two-handed."),
    ("bat thrown", "The bat cannot be thrown."),
])
def test_options_that_are_not_attacks(option, message):
    with pytest.raises(CombatError) as err:
        EL.choose(option, GUS)
    assert str(err.value) == message


# ================================================================== grapple and holds


def test_grapple_sets_the_grappled_state():
    roller = dice(3)                              # Dex 3 + Brawl 3 + 2 + 3 = 11: 2 SLs
    attack = EL.attack(GUS, VIC, "grapple neck", roller)
    assert english(attack.label) == "grapple (by the neck)" and attack.option == "grapple neck"
    resolution = EL.resolve(attack, None, GUS, VIC, roller)
    done(roller)
    assert resolution.hit and resolution.harm == ()
    assert resolution.effects == (("held", "Vic", "Gus"), ("grappled", "Vic", {"by": "Gus", "neck": True}))


def test_atemi_grip_needs_a_grapple():
    with pytest.raises(CombatError) as err:
        EL.attack(GUS, VIC, "atemi grip", dice())
    assert str(err.value) == "Atemi Grip needs Vic grappled first."


def test_atemi_grip_numbs_by_net_sls_and_fades():
    roller = dice(10, 8, 4)                       # Str 4 + Brawl 3 - 2 + 13 = 18: 5 SLs
    attack = EL.attack(GUS, VIC, "atemi grip", roller, situation=HELD)
    assert not attack.needs_defense               # the victim resists instead
    resolution = EL.resolve(attack, None, GUS, VIC, roller)   # Con 3 + Wp 2 + 4 = 9: 1 SL
    done(roller)
    assert resolution.hit and resolution.net_successes == 4
    assert resolution.effects == (("atemi-grip", "Vic", 4),)
    assert englished(resolution.lines)[1] == "Vic resists: Constitution 3 + Willpower 2 + d10 [4] = 9: 1 SL"
    assert [EL.fading_penalty(4, n) for n in range(6)] == [-4, -3, -2, -1, 0, 0]


def test_sleeper_hold_needs_the_neck():
    with pytest.raises(CombatError, match="Sleeper Hold needs Vic grappled first."):
        EL.attack(GUS, VIC, "sleeper hold", dice())
    with pytest.raises(CombatError, match="Sleeper Hold needs Vic grappled by the neck."):
        EL.attack(GUS, VIC, "sleeper hold", dice(), situation=HELD)


def test_sleeper_hold_accumulates_sls_to_constitution():
    roller = dice(9, 3)                           # 5 + 9 = 14: 3 SLs vs Con x2 6 + 3 = 9: 1 SL
    attack = EL.attack(GUS, VIC, "sleeper hold", roller, situation=NECK)
    resolution = EL.resolve(attack, None, GUS, VIC, roller)
    assert resolution.effects == (("sleeper-hold", "Vic", {"by": "Gus", "sls": 2, "needed": 3}),)
    roller = dice(9, 3)
    attack = EL.attack(GUS, VIC, "sleeper hold", roller, situation=Situation(grappling="Vic", neck=True,
                                                                            sleeper_sls=2))
    resolution = EL.resolve(EL.attack_from_record(attack.to_record()), None, GUS, VIC, roller)
    assert resolution.effects == (("passed-out", "Vic", 6),)       # 4 of 3: 5 turns + 1 over
    assert englished(resolution.lines)[-1] == "4 SLs of 3: Vic passes out for 6 turns."


def test_sleeper_hold_big_success_puts_out_for_longer():
    roller = dice(10, 10, 10, 5, 2)               # 5 + (10 + 5 + 5) = 25: 7 SLs vs 8: 0 SLs
    attack = EL.attack(GUS, VIC, "sleeper hold", roller, situation=NECK)
    resolution = EL.resolve(attack, None, GUS, VIC, roller)
    done(roller)
    assert resolution.effects == (("passed-out", "Vic", 5 + 7 - 3),)


def test_wrestling_hold_pins_or_leaves_grappled():
    roller = dice(9, 4)   # 5 + 9 = 14: 3 SLs vs best(Str, Dex) 2 + best(Brawl, Acro) 3 + 4 = 9
    resolution = EL.resolve(EL.attack(GUS, VIC, "wrestling hold", roller, situation=HELD), None, GUS, VIC, roller)
    assert resolution.effects == (("wrestling-hold", "Vic", {"by": "Gus", "penalty": -2}),)
    assert englished(resolution.lines)[1] == "Vic resists: Strength 2 + Acrobatics 3 + d10 [4] = 9: 1 SL"
    roller = dice(4, 6)
    resolution = EL.resolve(EL.attack(GUS, VIC, "wrestling hold", roller, situation=HELD), None, GUS, VIC, roller)
    assert not resolution.hit and resolution.effects == ()
    assert englished(resolution.lines)[-1] == "Vic stays grappled."


def test_escape_hold_is_contested_strength_brawl_ties_to_the_holder():
    roller = dice(9, 5)
    escaped, lines = EL.escape_hold(VIC, GUS, roller)   # 2 + 1 + 9 = 12 vs 4 + 3 + 5 = 12
    done(roller)
    assert not escaped and english(lines[-1]) == "Vic stays held."
    escaped, _ = EL.escape_hold(VIC, GUS, dice(10, 6, 5))
    assert escaped


# ======================================================================== strikes


def test_atemi_strike_ignores_natural_soak_not_armor():
    armored = fighter("Henry", HENRY.traits, bought=False, armor={"bash": 1, "lethal": 2, "bullets": 0})
    roller = dice(7)                              # Dex 3 + Brawl 3 - 2 + 7 = 11: 2 SLs
    attack = EL.attack(GUS, armored, "atemi strike", roller)
    resolution = EL.resolve(attack, None, GUS, armored, roller)
    (harm,) = resolution.harm
    assert (harm.raw, harm.soak.size, harm.amount) == (4 * 2 + 2, 1, 9)
    assert "Henry's bash soak (no natural soak): 1 (armor)" in englished(resolution.lines)


def test_double_jump_kick_two_targets_one_roll_each_defends():
    jo = fighter("Jo", Dexterity=4, Brawl=3, Strength=2)
    roller = dice(8, 2)
    first, second = EL.attack_many(jo, [HENRY, VIC], "double jump kick", roller)
    assert (first.target, second.target) == ("Henry", "Vic")
    assert first.roll == second.roll and first.roll.total == 4 + 3 - 4 + 8
    defense = EL.defend(second, VIC, "dodge", roller)        # Vic: 2 + 3 + 2 = 7
    resolution = EL.resolve(second, defense, jo, VIC, roller)
    done(roller)
    assert resolution.harm[0].raw == (2 + 1) * 3 + 2    # (STR + 1) x 3 + 2 net SLs


def test_double_jump_kick_needs_dex_4_and_two_targets():
    with pytest.raises(CombatError, match="Double Jump Kick needs Dexterity 4 or better."):
        EL.attack_many(GUS, [HENRY, VIC], "double jump kick", dice())
    jo = fighter("Jo", Dexterity=4, Brawl=3)
    with pytest.raises(CombatError, match="strikes 2 opponents at once: name them all"):
        EL.attack(jo, VIC, "double jump kick", dice())
    with pytest.raises(CombatError, match="takes 2 targets, each named once"):
        EL.attack_many(jo, [VIC, VIC], "double jump kick", dice())


ED = fighter("Ed", Dexterity=4, Brawl=3, Strength=3)


@pytest.mark.parametrize(("check_faces", "effects", "verdict"), [
    ((9,), (("stunned", "Vic", "rest of turn"),),   # 6 - 3 + 9 = 12: 2 SLs < 3
     "Vic is stunned for the rest of the turn: defend only (no Full Defense)."),
    ((3,), (("passed-out", "Vic", None),),          # 6: failed outright
     "Vic passes out and crumples to the ground."),
    ((10, 9), (),                                   # 3 + 14 = 17: 5 SLs
     "Vic shakes it off: 5 SLs, not fewer than the attack's 3."),
    ((5,), (),                                      # 3 + 5 = 8: a failure
     "Vic passes out and crumples to the ground."),
    ((10, 6), (),                                   # 3 + 11 = 14: 3 SLs, as many as the attack's
     "Vic shakes it off: 3 SLs, not fewer than the attack's 3."),
])
def test_ear_pop_damage_then_constitution_doubled_check(check_faces, effects, verdict):
    roller = dice(9, *check_faces)                 # 4 + 3 - 3 + 9 = 13: 3 SLs
    attack = EL.attack(ED, VIC, "ear pop", roller)
    resolution = EL.resolve(attack, None, ED, VIC, roller)
    done(roller)
    assert resolution.harm[0].raw == 3 * 2 + 3 and resolution.harm[0].amount == 9 - 3
    if verdict.endswith("crumples to the ground."):
        effects = (("passed-out", "Vic", None),)
    assert resolution.effects == effects
    assert englished(resolution.lines)[-2].startswith("Vic shakes it off? Constitution x2 6 - 3 (ear pop) + d10")
    assert englished(resolution.lines)[-1] == verdict      # every outcome says what became of Vic


@pytest.mark.parametrize(("actions_left", "detail", "verdict"), [
    (2, "rest of turn", "Vic is stunned for the rest of the turn: defend only (no Full Defense)."),
    (None, "rest of turn", "Vic is stunned for the rest of the turn: defend only (no Full Defense)."),
    # seed: "(or his first action, should the move be performed at the end of a turn)"
    (0, "first action", "Vic is stunned through their first action next turn: defend only (no Full Defense)."),
])
def test_ear_pop_at_the_end_of_the_victims_turn_stuns_their_first_action(actions_left, detail, verdict):
    target = replace(VIC, conditions={} if actions_left is None else {"actions_left": actions_left})
    roller = dice(9, 9)                             # 13: 3 SLs; the check 6 - 3 + 9 = 12: 2 SLs < 3
    resolution = EL.resolve(EL.attack(ED, target, "ear pop", roller), None, ED, target, roller)
    done(roller)
    assert resolution.effects == (("stunned", "Vic", detail),)
    assert englished(resolution.lines)[-1] == verdict


def test_honorable_fighters_must_pass_a_willpower_check():
    honorable = fighter("Ed", ED.traits, Willpower=3, Honorable=1)
    roller = dice(5)                                # Willpower 3 - 2 + 5 = 6: fails
    attack = EL.attack(honorable, VIC, "ear pop", roller)
    done(roller)
    assert attack.roll is None and not attack.needs_defense
    assert EL.attack_from_record(json.loads(json.dumps(attack.to_record()))) == attack
    resolution = EL.resolve(attack, None, honorable, VIC, dice())
    assert not resolution.hit
    assert englished(resolution.lines)[-1] == "Ed cannot bring themselves to use the Ear Pop (Honorable)."
    roller = dice(10, 9, 9)                         # 1 + 14 = 15: passes; then the attack
    attack = EL.attack(honorable, VIC, "eye pluck", roller)
    done(roller)
    assert attack.honor.succeeded and attack.roll.total == 9


def test_eye_pluck_takes_an_eye_past_constitution_doubled():
    roller = dice(10, 10, 9)                        # 0 + 19 = 19: 5 SLs
    attack = EL.attack(ED, VIC, "eye pluck", roller)
    resolution = EL.resolve(attack, None, ED, VIC, roller)
    done(roller)
    (harm,) = resolution.harm
    assert (harm.raw, harm.amount, harm.damage_type) == (3 * 2 + 2 * 5, 16, "lethal")
    assert resolution.effects == (("eye-lost", "Vic", "Ed"),)
    armored = fighter("Vic", VIC.traits, armor={"bash": 10, "lethal": 12, "bullets": 6})
    roller = dice(10, 10, 9)
    resolution = EL.resolve(EL.attack(ED, armored, "eye pluck", roller), None, ED, armored, roller)
    assert resolution.harm[0].amount == 4 and resolution.effects == ()


# ======================================================================= defenses

TIA = fighter("Tia", Strength=3, Dexterity=4, Thrown=3, bought=False, weapon="shuriken")
CAT = fighter("Cat", Dexterity=5, Brawl=2, Thrown=4)


def test_catch_weapon_catches_on_equal_or_better():
    roller = dice(8, 10, 6)                       # 7 + 8 = 15 vs Dex 5 + Thrown 4 - 5 + 11 = 15
    attack = EL.attack(TIA, CAT, "shuriken", roller)
    defense = EL.defend(attack, CAT, "catch weapon", roller)
    assert defense.roll.pool.parts == (("Dexterity", 5), ("Thrown", 4), ("catch weapon", -5))
    resolution = EL.resolve(attack, defense, TIA, CAT, roller)
    done(roller)
    assert not resolution.hit and resolution.harm == ()
    # Fray default: a thrown weapon caught is in the catcher's hand now, not the thrower's.
    assert resolution.effects == (("weapon-taken", "Cat", {"weapon": "shuriken", "from": "Tia"}),)
    assert "Cat catches the shuriken and holds it now!" in englished(resolution.lines)


def test_a_missed_catch_adds_five_base_damage():
    roller = dice(8, 5)                           # 15: 4 SLs vs 9: 1 SL
    attack = EL.attack(TIA, CAT, "shuriken", roller)
    resolution = EL.resolve(attack, EL.defend(attack, CAT, "catch", roller), TIA, CAT, roller)
    (harm,) = resolution.harm
    assert harm.raw == 3 * 3 + 5 + 2 * 3
    assert "damage: (Strength 3) x 3 + 5 (missed catch) + 2 x 3 net SLs = 20 lethal" in englished(resolution.lines)


def test_bullets_cannot_be_caught_or_deflected_and_melee_cannot_be_caught():
    shot = EL.attack(DINA, CAT, "9mm", dice(5))
    with pytest.raises(CombatError, match="No one can catch bullets."):
        EL.defend(shot, CAT, "catch weapon", dice())
    with pytest.raises(CombatError, match="No one can deflect bullets."):
        EL.defend(shot, CAT, "ranged deflection", dice())
    swing = EL.attack(HANK, CAT, "bat", dice(5))
    with pytest.raises(CombatError, match="Catch Weapon works only against thrown or launched attacks."):
        EL.defend(swing, CAT, "catch weapon", dice())


def test_damaging_block_hurts_the_attacker():
    bo = fighter("Bo", Strength=4, Dexterity=3, Brawl=3, bought=False)
    dee = fighter("Dee", Strength=3, Dexterity=4, Brawl=4)
    roller = dice(5, 9)                           # punch 11: 2 SLs; block 4 + 4 - 2 + 9 = 15: 4 SLs
    attack = EL.attack(bo, dee, "punch", roller)
    defense = EL.defend(attack, dee, "damaging block", roller)
    resolution = EL.resolve(attack, defense, bo, dee, roller)
    done(roller)
    assert not resolution.hit
    (harm,) = resolution.harm
    assert harm.name == "Bo" and (harm.raw, harm.amount, harm.damage_type) == (3 * 2 + 2, 8, "bash")


def test_damaging_block_against_a_weapon_costs_a_drama_point():
    dee = fighter("Dee", Strength=3, Dexterity=4, Brawl=4)
    swing = EL.attack(HANK, dee, "bat", dice(5))
    with pytest.raises(CombatError) as err:
        EL.defend(swing, dee, "damaging block", dice())
    assert str(err.value) == "Damaging Block against a weapon costs a Drama Point."
    defense = EL.defend(swing, dee, "damaging block", dice(4), drama_point=True)
    assert defense.drama_point
    with pytest.raises(CombatError, match="works only against unarmed or melee attacks"):
        EL.defend(EL.attack(DINA, dee, "9mm", dice(5)), dee, "damaging block", dice())


def test_ranged_deflection_minus_2_thrown_minus_4_launched():
    rae = fighter("Rae", Dexterity=4, Brawl=2, Melee=3)
    throw = EL.attack(replace(TIA, weapon="spear"), rae, "spear thrown", dice(5))
    assert english(throw.label) == "spear (thrown)" and throw.option == "spear thrown"
    assert EL.choose("javelin", replace(TIA, weapon="javelin")).mode == "thrown"   # thrown by default
    with pytest.raises(CombatError, match="You cannot block a ranged attack"):
        EL.defend(throw, rae, "block", dice())
    # Empty-handed, Rae blocks the spear by its shaft (Brawl); Melee 3 would
    # be a parry, which needs a weapon in hand.
    defense = EL.defend(throw, rae, "ranged deflection", dice(6))
    assert defense.roll.pool.parts == (("Dexterity", 4), ("Brawl", 2), ("ranged deflection", -2))
    defense = EL.defend(throw, replace(rae, weapon="sword"), "ranged deflection", dice(6))
    assert defense.roll.pool.parts == (("Dexterity", 4), ("Melee", 3), ("ranged deflection", -2))
    data = copy.deepcopy(load_system_data("eldritch"))
    data["weapons"]["bow"] = {"name": "bow", "category": "lethal", "multiplier": 4, "modes": ["launched"]}
    archery = EldritchSystem(data)
    arrow = archery.attack(replace(TIA, weapon="bow"), rae, "bow", dice(5))
    defense = archery.defend(arrow, rae, "ranged deflection", dice(6))
    assert defense.roll.pool.parts[-1] == ("ranged deflection", -4)


SAL = fighter("Sal", Dexterity=4, Melee=3, weapon="sword")


def _bat_on_henry():
    return EL.attack(HANK, HENRY, "bat", dice(9))   # 15: 4 SLs


def test_sacrifice_needs_a_higher_initiative():
    for mine in (None, 12, 14):
        with pytest.raises(CombatError) as err:
            EL.sacrifice(_bat_on_henry(), SAL, dice(), initiative=mine, attacker_initiative=14)
        assert str(err.value) == "Sacrifice needs a higher initiative than Hank's."
    with pytest.raises(CombatError, match="Sal has not bought the Sacrifice maneuver."):
        EL.sacrifice(_bat_on_henry(), fighter("Sal", bought=False), dice(), initiative=20,
                     attacker_initiative=14)
    with pytest.raises(CombatError, match="shields someone else"):
        EL.sacrifice(_bat_on_henry(), fighter("Henry"), dice(), initiative=20, attacker_initiative=14)


def test_sacrifice_parries_for_the_target():
    attack = _bat_on_henry()
    roller = dice(10, 10, 6)                      # Dex 4 + Melee 3 - 3 + 16 = 20: 5 SLs > 4
    defense = EL.sacrifice(attack, SAL, roller, initiative=15, attacker_initiative=14)
    assert defense.outcome == "parried"
    resolution = EL.resolve(attack, defense, HANK, HENRY, roller)
    done(roller)
    assert not resolution.hit and resolution.harm == ()


def test_sacrifice_that_succeeds_without_beating_takes_the_hit():
    attack = _bat_on_henry()
    defense = EL.sacrifice(attack, SAL, dice(7), initiative=15, attacker_initiative=14)  # 11: 2 SLs
    assert defense.outcome == "takes"
    with pytest.raises(CombatError, match="Sal took the hit: resolve it against them."):
        EL.resolve(attack, defense, HANK, HENRY, dice())
    resolution = EL.resolve(attack, defense, HANK, SAL, dice())
    assert resolution.hit and resolution.target == "Sal"
    # Seed: "they take the damage intended for the target": the bat's 4 SLs,
    # not 4 - 2: (3 x 5) + 4 = 19 (it was 17).
    assert resolution.harm[0].name == "Sal" and resolution.harm[0].raw == 15 + 4 == 19
    assert "damage: (Strength 3) x 5 + 4 net SLs = 19 bash" in englished(resolution.lines)
    assert "Sal throws themselves in the way and takes the hit meant for Henry." in englished(resolution.lines)


def test_a_failed_sacrifice_leaves_the_target_to_defend():
    attack = _bat_on_henry()
    roller = dice(3)                              # 7: failed
    defense = EL.sacrifice(attack, SAL, roller, initiative=15, attacker_initiative=14,
                           situation=Situation(defenses_used=1))
    assert defense.outcome == "failed" and ("defense 2", -2) in english_parts(defense.roll.pool)
    resolution = EL.resolve(attack, defense, HANK, HENRY, dice())
    assert "Sal's Sacrifice fails" in englished(resolution.lines)[1]
    assert resolution.harm[0].name == "Henry" and resolution.harm[0].amount == 15 + 4 - 6


def test_sacrifice_cannot_stop_bullets():
    # Seed (Ranged Deflection): "No character can deflect bullets" - not even
    # by throwing oneself in the way with a sword in hand.
    shot = EL.attack(DINA, HENRY, "9mm", dice(9))
    for sal in (SAL, replace(SAL, weapon="")):
        with pytest.raises(CombatError) as err:
            EL.sacrifice(shot, sal, dice(), initiative=20, attacker_initiative=14)
        assert str(err.value) == "No character can deflect bullets: Sacrifice cannot stop a firearm."


def test_sacrifice_is_a_parry_with_the_multiple_action_penalties():
    # Seed: "rolls a normal parry or deflection at a -3 (minus any multiple
    # action penalties they've already accumulated)": the parry needs a weapon in hand; two
    # actions and one defense already this turn: -4 and -2.
    with pytest.raises(CombatError) as err:
        EL.sacrifice(_bat_on_henry(), replace(SAL, weapon=""), dice(), initiative=20, attacker_initiative=14)
    assert str(err.value) == "Sacrifice is a parry: Sal needs a weapon in hand."
    roller = dice(9)
    defense = EL.sacrifice(_bat_on_henry(), SAL, roller, initiative=20, attacker_initiative=14,
                           situation=Situation(actions_used=2, defenses_used=1))
    done(roller)
    assert english_parts(defense.roll.pool) == (("Dexterity", 4), ("Melee", 3), ("sacrifice", -3),
                                                ("3rd action", -4), ("defense 2", -2))
    assert defense.roll.total == 4 + 3 - 3 - 4 - 2 + 9


def test_sacrifice_against_a_thrown_weapon_is_ranged_deflection():
    # seed: "a normal parry or deflection": against a thrown spear, Ranged Deflection's roll
    # (-2 of its own), then -3.
    throw = EL.attack(replace(TIA, weapon="spear"), HENRY, "spear thrown", dice(9))
    roller = dice(9)
    defense = EL.sacrifice(throw, SAL, roller, initiative=20, attacker_initiative=14)
    done(roller)
    assert english_parts(defense.roll.pool) == (("Dexterity", 4), ("Melee", 3), ("ranged deflection", -2),
                                       ("sacrifice", -3))
    with pytest.raises(CombatError) as err:
        EL.sacrifice(throw, fighter("Sam", {"Sacrifice": 1}, bought=False, Dexterity=4, weapon="sword"),
                     dice(), initiative=20, attacker_initiative=14)
    assert str(err.value) == "Sacrifice against a thrown weapon is a deflection: Sam has not bought Ranged Deflection."


def test_ranged_deflection_blocks_only_a_blunt_part_and_parries_only_with_a_weapon():
    # Seed: thrown weapons "can be Blocked (if there's a part of the weapon
    # that isn't sharp) or Parried (with a weapon)": empty-handed, a Melee 4 fighter cannot
    # parry; a shuriken, sharp all over, cannot be blocked.
    mel = fighter("Mel", Dexterity=3, Melee=4, Brawl=1)
    star = EL.attack(TIA, mel, "shuriken", dice(9))
    with pytest.raises(CombatError) as err:
        EL.defend(star, mel, "ranged deflection", dice())
    assert str(err.value) == "The shuriken is sharp all over: only a weapon in hand can deflect it (a parry)."
    assert "ranged-deflection" not in EL.defense_choices(star, mel)
    defense = EL.defend(star, replace(mel, weapon="sword"), "ranged deflection", dice(6))
    assert defense.roll.pool.parts == (("Dexterity", 3), ("Melee", 4), ("ranged deflection", -2))
    knife = EL.attack(replace(TIA, weapon="big-knife"), mel, "big knife thrown", dice(9))
    defense = EL.defend(knife, mel, "ranged deflection", dice(6))   # the handle: a block, Brawl
    assert defense.roll.pool.parts == (("Dexterity", 3), ("Brawl", 1), ("ranged deflection", -2))


WES = fighter("Wes", Strength=3, Constitution=1, Dexterity=4, Acrobatics=3)


def test_wall_flip_needs_a_wall():
    with pytest.raises(CombatError, match="Wall Flip needs a wall or solid vertical surface at hand."):
        EL.defend(EL.attack(HANK, WES, "bat", dice(5)), WES, "wall flip", dice())


def test_wall_flip_not_hit_gives_plus_three():
    roller = dice(5, 9)                           # bat 11; flip 4 + 3 - 3 + 9 = 13
    attack = EL.attack(HANK, WES, "bat", roller)
    defense = EL.defend(attack, WES, "wall flip", roller, situation=Situation(wall=True))
    resolution = EL.resolve(attack, defense, HANK, WES, roller)
    done(roller)
    assert not resolution.hit
    assert resolution.effects == (("wall-flip", "Wes", {"over": "Hank", "bonus": 3}),)
    roller = dice(5)
    counter = EL.attack(WES, HANK, "punch", roller, situation=Situation(flipped_over="Hank"))
    assert ("wall flip", 3) in english_parts(counter.roll.pool)
    assert counter.effects == (("wall-flip-spent", "Wes", "Hank"),)
    assert EL.resolve(counter, None, WES, HANK, dice()).effects[0] == ("wall-flip-spent", "Wes", "Hank")
    other = EL.attack(WES, HENRY, "punch", dice(5), situation=Situation(flipped_over="Hank"))
    assert ("wall flip", 3) not in english_parts(other.roll.pool)
    defense = EL.defend(other, HENRY, "dodge", dice(5), situation=Situation(flip_defense=True))
    assert ("wall flip", 3) in english_parts(defense.roll.pool)


def test_a_failed_wall_flip_hurts_the_flipper_and_leaves_them_prone():
    roller = dice(5, 2)                           # bat 11; flip 4 + 2 = 6: failed
    attack = EL.attack(HANK, WES, "bat", roller)
    defense = EL.defend(attack, WES, "wall flip", roller, situation=Situation(wall=True))
    resolution = EL.resolve(attack, defense, HANK, WES, roller)
    done(roller)
    assert resolution.hit and ("prone", "Wes", True) in resolution.effects
    fall, hit = resolution.harm
    assert (fall.raw, fall.amount) == (3 * 2, 6 - 1)
    assert (hit.raw, hit.amount) == (15 + 2, 17 - 1)
    assert hit.health_before == fall.health_after          # Life Points chain through both
    assert hit.health_after.meter == (26 - 5 - 16, 26)


WU = fighter("Wu", Strength=4, Dexterity=4, Melee=3, weapon="sword")


def test_whirling_sword_takes_the_whole_turn_and_tires():
    roller = dice(8)
    attack = EL.attack(WU, HANK, "whirling sword", roller)
    assert english(attack.label) == "Whirling Sword (sword)"
    assert attack.roll.total == 4 + 3 - 4 + 8
    # The start of the whirl keeps its one roll for the turn
    assert attack.effects == (("whirling-sword", "Wu", {"turn": 1, "penalty": -4, "roll": attack.roll.to_record()}),)
    resolution = EL.resolve(attack, None, WU, HANK, dice())
    assert resolution.effects[0] == attack.effects[0]
    later = EL.attack(WU, HANK, "whirling sword", dice(8), situation=Situation(whirl_turns=1))
    assert ("whirling, later turn", -2) in english_parts(later.roll.pool)
    assert later.effects == (("whirling-sword", "Wu", {"turn": 2, "penalty": -6, "roll": later.roll.to_record()}),)
    again = EL.attack(WU, HENRY, "whirling sword", dice(8),
                      situation=Situation(whirling=True, actions_used=5))
    assert again.effects == ()                    # same turn: no action spent, no new start


def test_whirling_sword_refusals():
    with pytest.raises(CombatError, match="Whirling Sword needs a sword or other balanced weapon, not a bat."):
        EL.attack(fighter("Wu", WU.traits, weapon="bat"), HANK, "whirling sword", dice())
    with pytest.raises(CombatError, match=r"Whirling Sword needs a weapon in hand \(\+move draw <weapon>\)\."):
        EL.attack(fighter("Wu", WU.traits), HANK, "whirling sword", dice())
    with pytest.raises(CombatError, match="Whirling Sword takes the whole turn: Wu has already acted."):
        EL.attack(WU, HANK, "whirling sword", dice(), situation=Situation(actions_used=1))
    with pytest.raises(CombatError, match="Wu is whirling their sword: it is their only action this turn."):
        EL.attack(WU, HANK, "sword", dice(), situation=Situation(whirling=True))


def test_whirling_sword_parries_close_attacks_only_while_whirling():
    swing = EL.attack(HANK, WU, "bat", dice(5))
    with pytest.raises(CombatError, match="parries only while you whirl it"):
        EL.defend(swing, WU, "whirling sword", dice())
    defense = EL.defend(swing, WU, "whirling", dice(6), situation=Situation(whirling=True, whirl_turns=1))
    assert english_parts(defense.roll.pool) == (("Dexterity", 4), ("Melee", 3), ("whirling sword", -4),
                                       ("whirling, later turn", -2))
    shot = EL.attack(DINA, WU, "9mm", dice(5))
    with pytest.raises(CombatError, match="Whirling Sword does nothing against ranged attacks."):
        EL.defend(shot, WU, "whirling sword", dice(), situation=Situation(whirling=True))



def test_whirling_swords_one_roll_attacks_and_defends_for_the_whole_turn():
    # Seed (Whirling Sword): "The character uses a (Dexterity + Melee -4) roll
    # to attack and defend for the entire turn", "the only action the character can attempt",
    # and it "does squat against ranged attacks".
    roller = dice(8)
    first = EL.attack(WU, HANK, "whirling sword", roller)          # 4 + 3 - 4 + 8 = 11
    done(roller)
    kind, _, detail = first.effects[0]
    state = EL.condition_after({}, kind, detail)
    assert state == {"whirling": True, "whirl_turns": 0, "whirl_roll": first.roll.to_record()}
    whirler = Combatant(name="Wu", traits=WU.traits, weapon="sword", conditions=state)
    roller = dice()                                                  # no new die: the same 11
    second = EL.attack(whirler, HENRY, "whirling sword", roller)
    done(roller)
    assert second.roll == first.roll and second.effects == ()
    swing = EL.attack(HANK, whirler, "bat", dice(5))
    roller = dice()
    parry = EL.defend(swing, whirler, "whirling sword", roller,
                      situation=Situation.of(whirler))
    done(roller)
    assert parry.roll == first.roll                                  # no defense penalty either
    with pytest.raises(CombatError, match=r"Wu is whirling their sword: its roll is their only defense this "
                                          r"turn \(defend whirling-sword\)\."):
        EL.defend(swing, whirler, "dodge", dice())
    assert EL.defense_choices(swing, whirler) == ("whirling-sword",)
    shot = EL.attack(DINA, whirler, "9mm", dice(5))
    with pytest.raises(CombatError, match="does nothing against ranged attacks"):
        EL.defend(shot, whirler, "dodge", dice())
    assert EL.defense_choices(shot, whirler) == ()
    # The next turn the roll is gone (and another turn of it is at -2 more).
    assert EL.start_of_round(whirler, 2).conditions == {"whirling": None, "whirl_turns": 1, "whirl_roll": None}



def test_stepping_into_range_of_a_whirling_sword_is_attacked():
    # Seed (Whirling Sword): "Anybody who steps into range of the whirling
    # sword is attacked": a hand-to-hand attack on the whirler draws the turn's whirl first.
    roller = dice(8)
    first = EL.attack(WU, HANK, "whirling sword", roller)
    kind, _, detail = first.effects[0]
    whirler = Combatant(name="Wu", traits=WU.traits, weapon="sword", conditions=EL.condition_after({}, kind, detail))
    swing = EL.attack(HANK, whirler, "bat", dice(5))
    whirl = EL.step_in(whirler, HANK, swing)
    assert (whirl.attacker, whirl.target, whirl.roll, english(whirl.label)) == ("Wu", "Hank", first.roll, "Whirling Sword (sword)")
    assert tuple(englished(whirl.notes)) == ("Hank steps into range of Wu's whirling sword.",)
    assert EL.step_in(whirler, DINA, EL.attack(DINA, whirler, "9mm", dice(5))) is None   # a shot steps nowhere
    assert EL.step_in(WU, HANK, swing) is None                                           # not whirling
