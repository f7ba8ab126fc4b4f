"""Tests for the ``elethril`` rule system's base: dice notation, to hit, damage, hit points, data.

The AD&D 2e base of ``docs/rules/elethril.md`` pinned with forced dice: each test queues exactly the faces
it expects to be rolled (a die of the wrong size or one too many fails the test). Initiative,
segments and the source's examples are in ``test_elethril_timeline.py``.
"""

from __future__ import annotations

import copy

import pytest

from rules.data import RulesDataError, load_system_data
from rules.dice import DiceSyntaxError, parse_pool
from rules.systems import system_keys
from rules.systems.base import Combatant, CombatError, InitiativeRoll, Pool, Verdict
from rules.systems.elethril.system import ElethrilAttack, ElethrilSystem, HitPoints
from tests.rules.forced_dice import dice, done
from tests.rules.wording import english, englished

EL = ElethrilSystem()


def fighter(name: str = "Ann", kind: str = "Human", weapon: str = "", health=None, armor=None,
            **traits: int) -> Combatant:
    return Combatant(name=name, traits={k.replace("_", " "): v for k, v in traits.items()},
                     kind=kind, weapon=weapon, health=health or {}, armor=armor or {})


def check(text: str, *faces: int, actor: Combatant | None = None, modifier: int = 0):
    roller = dice(*faces)
    result = EL.roll_check(parse_pool(text, EL.trait_names), actor or fighter(), roller,
                           modifier=modifier)
    done(roller)
    return result


def swing(attacker: Combatant, target: Combatant, option: str, *faces: int, **kwargs) -> ElethrilAttack:
    roller = dice(*faces)
    rolled = EL.attack(attacker, target, option, roller, **kwargs)
    done(roller)
    return rolled


def resolve(attack: ElethrilAttack, attacker: Combatant, target: Combatant, *faces: int):
    roller = dice(*faces)
    result = EL.resolve(attack, None, attacker, target, roller)
    done(roller)
    return result


# ============================================================================ loading


def test_loads_from_data_and_is_registered():
    assert EL.key == "elethril"
    assert "elethril" in system_keys()
    assert EL.weapons["short-sword"].speed == 3
    assert EL.defense_names == () and EL.magic is None
    assert EL.weapon_names["two-handed-sword"] == "two-handed sword"
    assert EL.kinds["Ogre"] == {"size": "L"}   # tables, like every system's kinds


@pytest.mark.parametrize(("key", "speed", "small", "large"), [
    ("dagger", 2, "1d4", "1d3"), ("short-sword", 3, "1d6", "1d8"), ("long-sword", 5, "1d8", "1d12"),
    ("two-handed-sword", 10, "1d10", "3d6"), ("battle-axe", 7, "1d8", "1d8"),
    ("heavy-crossbow", 10, "1d4+1", "1d6+1"),
])
def test_weapon_table_is_the_phb_table(key, speed, small, large):
    weapon = EL.weapons[key]
    assert (weapon.speed, weapon.damage_sm, weapon.damage_l) == (speed, small, large)


@pytest.mark.parametrize(("path", "value", "message"), [
    (("weapons", "dagger", "speed"), -1, "weapons.dagger.speed"),
    (("weapons", "dagger", "kind"), "thrown", "weapons.dagger.kind"),
    (("weapons", "dagger", "damage_sm"), "1d", "weapons.dagger.damage_sm"),
    (("weapons", "dagger", "damage_l"), "3", "weapons.dagger.damage_l"),
    (("weapons", "short-bow", "rate"), "3/2", "weapons.short-bow.rate"),
    (("weapons", "short-bow", "rate"), "fast", "weapons.short-bow.rate"),
    (("spells", "fireball", "casting_time"), 0, "spells.fireball.casting_time"),
    (("spells", "fireball", "damage"), "5d", "spells.fireball.damage"),
    (("spells", "fireball", "damage"), 6, "spells.fireball.damage"),
    (("spells", "fireball", "heal"), "1d8", "spells.fireball: a spell does damage or heals"),
    (("kinds", "Ogre", "size"), "H", "kinds.Ogre.size"),
    (("default_kind",), "Dragon", "default_kind"),
    (("hit_points", "dead_at"), 1, "hit_points"),
    (("initiative", "minimum"), 0, "initiative"),
    (("armor", "leather", "soak"), 2, "armor.leather"),
])
def test_data_is_validated(path, value, message):
    refused_with_data_changed(path, value, message)


def refused_with_data_changed(path, value, message):
    """The data file with ``value`` at ``path`` is refused, naming ``message``."""
    data = copy.deepcopy(load_system_data("elethril"))
    table = data
    for key in path[:-1]:
        table = table[key]
    table[path[-1]] = value
    with pytest.raises(RulesDataError, match=message):
        ElethrilSystem(data)


def test_missing_key_is_a_clear_error():
    data = copy.deepcopy(load_system_data("elethril"))
    del data["initiative"]["forfeit_penalty"]
    with pytest.raises(RulesDataError, match="initiative: missing 'forfeit_penalty'"):
        ElethrilSystem(data)


# ========================================================================= +roll


@pytest.mark.parametrize(("text", "faces", "line", "summary"), [
    ("1d20+2", (17,), "1d20 (17) + 2 = 19", Verdict("", total=19)),
    ("2d6", (3, 5), "2d6 (3, 5) = 8", Verdict("", total=8)),
    ("1d8 - 1 + 1d4", (1, 4), "1d8 (1) - 1 + 1d4 (4) = 4", Verdict("", total=4)),
    ("1d20 vs 15", (15,), "1d20 (15) = 15 vs 15: success", Verdict("success", total=15, difficulty=15)),
    ("1d20 vs 15", (14,), "1d20 (14) = 14 vs 15: failure", Verdict("failure", total=14, difficulty=15)),
    ("1d20 vs -3", (1,), "1d20 (1) = 1 vs -3: success", Verdict("success", total=1, difficulty=-3)),
])
def test_roll_takes_dice_notation(text, faces, line, summary):
    result = check(text, *faces)
    assert tuple(englished(result.lines)) == (line,)
    assert result.summary == summary


def test_roll_adds_sheet_traits_and_the_modifier():
    result = check("1d20 + Reaction", 4, actor=fighter(Reaction=2), modifier=-1)
    assert tuple(englished(result.lines)) == ("1d20 (4) + 2 (Reaction) - 1 (modifier) = 5",)
    assert result.record["total"] == 5


@pytest.mark.parametrize(("text", "message"), [
    ("1d0", "Dice need at least 2 sides: '1d0'."),
    ("0d6", "Roll at least one die: '0d6'."),
    ("-3d10", "Cannot roll a negative number of dice: '-3d10'."),
    ("1d20+", "Incomplete roll: '1d20+' ends with an operator."),
    ("5", "Give dice to roll, e.g. +roll 1d20+2 or +roll 2d6."),
    ("1d20 vs 1001", "Number too large: at most 1000."),
    ("1d20 vs 99999999999", "Number too large: at most 1000."),
])
def test_bad_rolls_are_one_clear_line(text, message):
    with pytest.raises(DiceSyntaxError) as err:
        EL.roll_check(parse_pool(text, EL.trait_names), fighter(), dice())
    assert str(err.value) == message


def test_no_willpower():
    with pytest.raises(CombatError, match="no Willpower"):
        EL.roll_check(parse_pool("1d20"), fighter(), dice(), willpower=True)


# ======================================================================== to hit


def test_d20_must_reach_thac0_minus_armor_class():
    ann, orc = fighter(THAC0=18), fighter("Orc", Armor_Class=5)
    hit = swing(ann, orc, "long sword", 13)
    assert hit.hit and hit.needed == 13
    assert english(hit.describe()) == "long sword: d20 13 vs 13 (THAC0 18 - AC 5): hit"
    miss = swing(ann, orc, "long sword", 12)
    assert not miss.hit and miss.needs_defense is False


def test_plusses_and_hit_probability_add_to_the_roll():
    ann, orc = fighter(THAC0=18, Hit_Probability=1), fighter("Orc", Armor_Class=5)
    rolled = swing(ann, orc, "long sword +1 q1", 10)
    assert rolled.hit and rolled.total == 13
    assert english(rolled.describe()) == ("long sword +1, quality +1: d20 10 + 1 (magic) + 1 (quality) "
                                 "+ 1 (Hit Probability) = 13 vs 13 (THAC0 18 - AC 5): hit")


def test_natural_20_hits_and_natural_1_misses():
    weak, plated = fighter(THAC0=20), fighter("Orc", Armor_Class=-5)
    assert swing(weak, plated, "", 20).hit                       # needs 25
    assert english(swing(weak, plated, "", 20).describe()).endswith("hit (natural 20)")
    master, bare = fighter(THAC0=1), fighter("Orc", Armor_Class=10)
    assert not swing(master, bare, "", 1).hit                    # needs -9
    data = copy.deepcopy(load_system_data("elethril"))
    data["to_hit"]["natural_20_hits"] = False
    roller = dice(20)
    assert not ElethrilSystem(data).attack(weak, plated, "", roller).hit


def test_armor_class_from_sheet_then_armor_then_default():
    assert EL.armor_class(fighter()) == 10
    assert EL.armor_class(fighter(armor={"armor_class": 5})) == 5
    assert EL.armor_class(fighter(armor={"armor_class": 5}, Armor_Class=2)) == 2
    assert EL.armor_class(fighter(Armor_Class=0)) == 0   # AC 0 is a real value, not "unset"
    assert EL.thac0(fighter()) == 20
    assert EL.armor_table["chain-mail"]["soak"] == {"armor_class": 5}


def test_two_weapon_penalties_and_st_modifiers():
    ann, orc = fighter(THAC0=15), fighter("Orc", Armor_Class=5)
    primary = swing(ann, orc, "short sword", 11, hand="primary")
    assert primary.total == 9 and not primary.hit               # 11 - 2 < 10
    off = swing(ann, orc, "dagger", 14, hand="off")
    assert off.total == 10 and off.hit and english(off.label) == "dagger (off-hand)"
    moved = swing(ann, orc, "dagger", 10, modifier=2, dice_modifier=1)
    assert moved.needed == 12 and moved.total == 11 and not moved.hit
    assert english(moved.describe()) == ("dagger: d20 10 + 1 (modifier) = 11 vs 12 "
                                "(THAC0 15 - AC 5 + 2 (modifier)): miss")
    with pytest.raises(CombatError, match="primary"):
        swing(ann, orc, "dagger", hand="left")


def test_weapon_in_hand_else_fist_and_unknown_weapons():
    assert EL.maneuver("", fighter(weapon="long sword +2")).key == "long-sword+2"
    assert EL.maneuver("", fighter()).weapon.key == "fist"
    assert EL.wielded("footman's mace").weapon.key == "footmans-mace"
    assert EL.wielded("Two Handed Sword +1").label == "two-handed sword +1"
    with pytest.raises(CombatError, match="No weapon 'lightsaber'"):
        EL.maneuver("lightsaber", fighter())
    with pytest.raises(CombatError, match="could be"):
        EL.wielded("b")


def test_attack_record_round_trips():
    rolled = swing(fighter(THAC0=15), fighter("Ogre", kind="Ogre", Armor_Class=4), "long sword +1 q2", 9,
                   hand="primary", modifier=1, dice_modifier=-1)
    assert EL.attack_from_record(rolled.to_record()) == rolled


def test_no_active_defense():
    rolled = swing(fighter(), fighter("Orc"), "", 5)
    with pytest.raises(CombatError, match="Armor Class is the defense"):
        EL.defend(rolled, fighter("Orc"), "dodge", dice())


# ======================================================================== damage


def test_damage_dice_by_target_size():
    ann = fighter(THAC0=10)
    human, ogre = fighter("Bob", Hit_Points=20), fighter("Ogre", kind="Ogre", Hit_Points=30)
    small = resolve(swing(ann, human, "long sword", 15), ann, human, 8)       # 1d8
    assert small.hit and small.harm[0].amount == 8
    assert englished(small.lines)[2] == "damage (small/medium): 1d8 (8) = 8"
    assert englished(small.lines)[3] == "Bob loses 8 hit points: 12/20 hp"
    large = resolve(swing(ann, ogre, "long sword", 15), ann, ogre, 11)        # 1d12
    assert large.harm[0].amount == 11 and large.harm[0].health_after.meter == (19, 30)
    assert englished(large.lines)[2] == "damage (large): 1d12 (11) = 11"


def test_two_handed_sword_does_3d6_to_large():
    ann, ogre = fighter(THAC0=10), fighter("Ogre", kind="Ogre", Hit_Points=30)
    result = resolve(swing(ann, ogre, "two-handed sword", 15), ann, ogre, 6, 6, 5)
    assert result.harm[0].amount == 17


def test_damage_adds_plusses_and_adjustment_with_a_minimum_of_one():
    strong = fighter(THAC0=10, Damage_Adjustment=2)
    bob = fighter("Bob", Hit_Points=20)
    result = resolve(swing(strong, bob, "dagger +1", 15), strong, bob, 3)
    assert englished(result.lines)[2] == "damage (small/medium): 1d4 (3) + 1 (magic) + 2 (Damage Adjustment) = 6"
    weak = fighter(THAC0=10, Damage_Adjustment=-2)
    result = resolve(swing(weak, bob, "dagger", 15), weak, bob, 1)
    assert result.harm[0].amount == 1
    assert englished(result.lines)[2].endswith("= -1 -> 1 (minimum)")


def test_a_miss_rolls_no_damage():
    ann, bob = fighter(THAC0=20), fighter("Bob")
    result = resolve(swing(ann, bob, "", 3), ann, bob)
    assert not result.hit and result.harm == () and englished(result.lines)[-1] == "Ann's fist misses Bob."


# ===================================================================== hit points


def test_hit_points_are_the_health_value():
    health = EL.health({}, fighter(Hit_Points=12))
    assert (health.meter, health.penalty, health.describe()) == ((12, 12), 0, "12/12 hp")
    assert EL.health({}).meter == (10, 10)                     # the default maximum (guess)
    assert EL.health(health.to_record()) == health


def test_down_at_zero_dead_at_minus_ten():
    ann = fighter(Hit_Points=12)
    down = EL.damage(ann, 12, "hp")
    assert down.incapacitated and not down.dead and down.describe() == "Down 0/12 hp"
    dying = EL.damage(ann, 21, "hp")
    assert dying.incapacitated and not dying.dead             # -9
    dead = EL.damage(ann, 22, "hit points")
    assert dead.dead and dead.describe() == "Dead -10/12 hp"
    with pytest.raises(CombatError, match="down and cannot act"):
        EL.attack(fighter(health=down.to_record(), Hit_Points=12), fighter("Bob"), "", dice())
    with pytest.raises(CombatError, match="already dead"):
        EL.damage(fighter(health=dead.to_record(), Hit_Points=12), 1, "hp")


def test_healing():
    ann = fighter(health={"damage": 8, "maximum": 12}, Hit_Points=12)
    assert EL.heal(ann, 3, None).current == 7
    assert EL.heal(ann, 30, "hp").current == 12
    dead = fighter(health={"damage": 30, "maximum": 12}, Hit_Points=12)
    with pytest.raises(CombatError, match="only"):
        EL.heal(dead, 5, None)
    assert EL.heal(dead, None, None) == HitPoints(12, 0)


@pytest.mark.parametrize("text", ["", "hp", "h", "Hit Points", "hit"])
def test_damage_type_is_hit_points(text):
    assert EL.damage_type(text) == "hp"


def test_other_damage_types_are_refused():
    with pytest.raises(CombatError, match="hit points"):
        EL.damage_type("lethal")


# ========================================================= the base interface


def test_roll_initiative_is_d10_plus_reaction_and_weapon_speed():
    roller = dice(4)
    roll = EL.roll_initiative(fighter(weapon="long sword", Reaction=1), roller)
    done(roller)
    assert (roll.die, roll.total) == (4, 8)     # 4 - 1 + 5


def test_schedule_is_lowest_first_ties_together():
    def init(name: str, total: int) -> InitiativeRoll:
        return InitiativeRoll(name, Pool(()), total, total, 0)
    schedule = EL.schedule([init("cid", 7), init("Bea", 3), init("amy", 7), init("Dan", 14)])
    assert [(s.at, s.names) for s in schedule.slots] == [
        (3, ("Bea",)), (7, ("amy", "cid")), (14, ("Dan",))]


# ====================================================================== spell effects


def effect(spell: str, caster: Combatant, target: Combatant | None, *faces: int):
    roller = dice(*faces)
    result = EL.spell_effect(spell, caster, target, roller)
    done(roller)
    return result


def test_a_damaging_spell_needs_no_attack_roll_and_ignores_armor_class():
    orc = fighter("Orc", Hit_Points=12, Armor_Class=0)
    result = effect("magic missile", fighter("Zed"), orc, 3)          # 1d4+1: no d20
    assert tuple(englished(result.lines)) == ("Zed's Magic Missile takes effect on Orc.", "damage: 1d4 (3) + 1 = 4",
                            "Orc loses 4 hit points: 8/12 hp")
    assert result.hit and result.harm[0].health_after == HitPoints(12, 4)


def test_fireball_is_5d6_at_the_lowest_casting_level():
    result = effect("fireball", fighter("Zed"), fighter("Ann"), 6, 5, 4, 3, 2)
    assert "damage: 5d6 (6, 5, 4, 3, 2) = 20" in englished(result.lines)
    assert englished(result.lines)[-1] == "Ann loses 20 hit points: Dead -10/10 hp"


def test_a_healing_spell_heals_the_caster_by_default_never_above_the_maximum():
    zed = fighter("Zed", health={"damage": 3, "maximum": 10})
    result = effect("cure light wounds", zed, None, 7)
    assert tuple(englished(result.lines)) == ("Zed's Cure Light Wounds takes effect on Zed.", "healing: 1d8 (7) = 7",
                            "Zed regains 3 hit points: 10/10 hp")
    assert not result.hit and result.harm[0].health_after == HitPoints(10, 0)


def test_a_spell_without_dice_is_narrated_and_the_dead_are_left_alone():
    result = effect("sleep", fighter("Zed"), fighter("Orc"))
    assert tuple(englished(result.lines)) == ("Zed's Sleep takes effect on Orc.", "The Storyteller narrates what it does.")
    assert not result.hit and result.harm == ()
    dead = fighter("Orc", health={"damage": 20, "maximum": 10})
    assert englished(effect("fireball", fighter("Zed"), dead).lines)[-1] == "Orc is dead: nothing happens."
    with pytest.raises(CombatError, match="Fireball needs a target: cast fireball=<target>"):
        effect("fireball", fighter("Zed"), None)


def test_initiative_modifiers_by_name_or_prefix():
    assert EL.initiative_modifier("higher ground") == "higher-ground"
    assert EL.initiative_modifier("hast") == "hasted"
    with pytest.raises(CombatError, match="No initiative modifier 'flying'"):
        EL.initiative_modifier("flying")
