"""What a player may declare under elethril: what makes an action stronger comes from the sheet
(staff ``+stat``) or from the Storyteller, never from a player's typed option.

- the weapon is the one in hand, or a fist; its plusses are the sheet's ``Weapon Plus`` and
  ``Weapon Quality``; typed plusses and other weapons only when the ST declares for an NPC;
- melee attacks per round are the sheet's ``Attacks`` (unset: 1); the ST may declare more;
- the off-hand weapon is the one the ST granted for the fight (``conditions["off_hand"]``);
- spells up to the level the sheet's ``Caster Level`` reaches (2e wizard table, data); a
  magical item carries its spell and needs none;
- trait ranges for ``+stat`` (``trait_range``); one who falls loses the rest of the action
  (``cancel``); delay at the last segment.

Forced dice as everywhere: each test names every face it expects to be rolled.
"""

from __future__ import annotations

import pytest

from rules.systems.base import Combatant, CombatError
from rules.systems.elethril.declaring import Declaration
from rules.systems.elethril.system import ElethrilSystem
from rules.systems.elethril.timeline import PHASES, cancel, delay, tick_of
from tests.rules.forced_dice import dice, done
from tests.rules.test_elethril import refused_with_data_changed
from tests.rules.wording import english, englished

EL = ElethrilSystem()


def pc(name: str = "Ann", weapon: str = "short-sword", off_hand: str = "", **traits: int) -> Combatant:
    """A player's fighter: sheet traits by keyword (``Weapon_Plus=1``), the weapon in hand as
    the sheet stores it (a key), an off-hand weapon the ST granted."""
    return Combatant(name=name, traits={k.replace("_", " "): v for k, v in traits.items()}, weapon=weapon,
                     conditions={"off_hand": off_hand} if off_hand else {})


def refused(declaration: Declaration) -> str:
    with pytest.raises(CombatError) as err:
        EL.plan(declaration)
    return str(err.value)


def start(declarations, *faces: int, round_number: int = 2):
    roller = dice(*faces)
    result = EL.start_round(round_number, declarations, roller)
    done(roller)
    return result


# ============================================================================ weapons


def test_a_player_attacks_with_the_weapon_in_hand_or_a_fist():
    assert EL.plan(Declaration(pc(), "Orc")).attacks[0][0].label == "short sword"
    assert EL.plan(Declaration(pc(), "Orc", weapon="short sword")).attacks[0][0].label == "short sword"
    assert EL.plan(Declaration(pc(), "Orc", weapon="fist")).attacks[0][0].label == "fist"
    assert refused(Declaration(pc(), "Orc", weapon="dagger")) == (
        "Ann holds a short sword, not a dagger: attack with the weapon in hand or a fist "
        "(staff change it: +stat Ann/weapon=).")
    assert refused(Declaration(pc(weapon=""), "Orc", weapon="two-handed sword")) == (
        "Ann holds no weapon, not a two-handed sword: attack with the weapon in hand or a fist "
        "(staff change it: +stat Ann/weapon=).")


@pytest.mark.parametrize("typed", ["short sword +50", "short sword +1", "short sword q2", "short sword +1 q1"])
def test_a_player_cannot_type_plusses(typed):
    assert refused(Declaration(pc(), "Orc", weapon=typed)) == (
        "Plusses come from the sheet (Weapon Plus, Weapon Quality: set by staff), not the attack: "
        "name the weapon alone, e.g. 'short sword'.")


def test_the_sheet_s_weapon_plus_lowers_speed_and_adds_to_hit_and_damage():
    """Seed 2a through the sheet: a +1 short sword has speed 2; quality adds to hit and damage
    but never to speed. d10 4 + 2 (short sword +1) = segment 6; d20 11 + 1 + 1 = 13 vs THAC0 18
    - AC 5 = 13: hit; 1d6 4 + 1 (magic) + 1 (quality) = 6."""
    ann = pc(THAC0=18, Weapon_Plus=1, Weapon_Quality=1)
    result = start([Declaration(ann, "Orc")], 4)
    assert tuple(englished(result.describe())) == ("Ann: d10 4 + 2 (short sword +1, quality +1) = 6 -> segment 6",)
    event = result.timeline.at(6)[0]
    orc = Combatant("Orc", {"Armor Class": 5, "Hit Points": 9})
    roller = dice(11, 4)
    rolled = EL.attack(ann, orc, event.weapon, roller)
    resolution = EL.resolve(rolled, None, ann, orc, roller)
    done(roller)
    assert english(rolled.describe()) == ("short sword +1, quality +1: d20 11 + 1 (magic) + 1 (quality) = 13 vs 13 "
                                 "(THAC0 18 - AC 5): hit")
    assert tuple(englished(resolution.lines))[2:] == ("damage (small/medium): 1d6 (4) + 1 (magic) + 1 (quality) = 6",
                                    "Orc loses 6 hit points: 3/9 hp")


def test_the_weapon_in_hand_carries_the_sheet_plusses_and_a_fist_none():
    assert EL.in_hand(pc(weapon="long-sword", Weapon_Plus=2)).label == "long sword +2"
    assert EL.in_hand(pc(weapon="long-sword", Weapon_Plus=2)).speed == 3
    assert EL.in_hand(pc(weapon="", Weapon_Plus=2)).label == "fist"
    assert EL.plan(Declaration(pc(Weapon_Plus=2), "Orc", weapon="fist")).attacks[0][0].label == "fist"
    roller = dice(5)
    assert EL.roll_initiative(pc(weapon="long-sword", Weapon_Plus=2), roller).total == 8   # 5 + 3
    done(roller)


def test_the_storyteller_may_give_an_npc_any_weapon_and_plusses_within_range():
    orc = pc("Orc")
    plan = EL.plan(Declaration(orc, "Ann", weapon="long sword +2 q1", storyteller=True))
    assert plan.attacks[0][0].label == "long sword +2, quality +1"
    assert refused(Declaration(orc, "Ann", weapon="dagger +50", storyteller=True)) == (
        "A weapon's magical plus is 0 to 5, not 50.")
    assert refused(Declaration(orc, "Ann", weapon="dagger q9", storyteller=True)) == (
        "A weapon's quality plus is 0 to 5, not 9.")
    # Naming the weapon in hand, plain, keeps the sheet's plusses.
    held = EL.plan(Declaration(pc("Orc", Weapon_Plus=1), "Ann", weapon="short sword", storyteller=True))
    assert held.attacks[0][0].label == "short sword +1"
    # Holding another system's weapon: the ST's choice still stands, a player may use a fist.
    assert EL.plan(Declaration(pc("Orc", weapon="greatsword"), "Ann", weapon="dagger",
                               storyteller=True)).attacks[0][0].label == "dagger"
    assert EL.plan(Declaration(pc("Ann", weapon="greatsword"), "Orc", weapon="fist")).attacks[0][0].label == "fist"
    assert refused(Declaration(pc("Ann", weapon="greatsword"), "Orc", weapon="dagger")).startswith(
        "No weapon 'greatsword'.")


# ============================================================================ attacks


def test_a_player_makes_the_sheet_s_attacks_never_more():
    assert refused(Declaration(pc(), "Orc", attacks=10)) == (
        "Ann makes 1 attack a round (Attacks on the sheet, set by staff), not 10.")
    assert refused(Declaration(pc(Attacks=2), "Orc", attacks=3)) == (
        "Ann makes 2 attacks a round (Attacks on the sheet, set by staff), not 3.")
    # Attacks 2: two attacks by default, one d10 each, the best kept (seed 4b); *1 for fewer.
    result = start([Declaration(pc(Attacks=2), "Orc")], 6, 2)
    assert tuple(englished(result.describe())) == ("Ann: d10 6, 2 -> 2 + 3 (short sword) = 5 -> segment 5",)
    assert [(e.segment, e.number, e.count) for e in result.timeline.events] == [(5, 1, 2), (8, 2, 2)]
    assert len(EL.plan(Declaration(pc(Attacks=2), "Orc", attacks=1)).attacks) == 1


def test_the_storyteller_may_declare_more_attacks_up_to_the_maximum():
    assert len(EL.plan(Declaration(pc("Orc"), "Ann", attacks=3, storyteller=True)).attacks) == 3
    assert refused(Declaration(pc("Orc"), "Ann", attacks=11, storyteller=True)) == (
        "Attacks per action: 1 to 10, not 11.")


def test_missiles_fire_their_rate_for_players_too():
    assert len(EL.plan(Declaration(pc(weapon="short-bow"), "Orc")).attacks) == 2
    assert refused(Declaration(pc(weapon="short-bow"), "Orc", attacks=3)) == (
        "A short bow fires at most 2 per round (rate 2).")


# =========================================================================== off hand


def test_the_off_hand_weapon_is_the_one_the_storyteller_granted():
    assert refused(Declaration(pc(), "Orc", off_hand="dagger")) == (
        "Ann has no off-hand weapon: the Storyteller grants one (+combat/offhand Ann=<weapon>).")
    granted = pc(off_hand="dagger+1")
    plan = EL.plan(Declaration(granted, "Orc", off_hand="dagger"))
    assert [(weapon.label, hand) for weapon, hand in plan.attacks] == [("short sword", "primary"),
                                                                      ("dagger +1", "off")]
    assert refused(Declaration(granted, "Orc", off_hand="knife")) == "Ann's off-hand weapon is a dagger, not a knife."
    assert refused(Declaration(granted, "Orc", off_hand="dagger +3")).startswith("Plusses come from the sheet")
    npc = EL.plan(Declaration(pc("Orc"), "Ann", off_hand="hand axe +1", storyteller=True))
    assert npc.attacks[1][0].label == "hand axe +1"


def test_granting_an_off_hand_weapon():
    assert EL.off_hand_grant("dagger +1").key == "dagger+1"
    for text, message in {"short bow": "An off-hand weapon is a melee weapon, not a short bow.",
                          "fist": "An off-hand weapon is a melee weapon, not a fist.",
                          "dagger +6": "A weapon's magical plus is 0 to 5, not 6."}.items():
        with pytest.raises(CombatError) as err:
            EL.off_hand_grant(text)
        assert str(err.value) == message


# ============================================================================= spells


@pytest.mark.parametrize(("level", "highest"), [
    (0, -1), (1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (7, 4), (9, 5), (11, 5), (12, 6), (14, 7),
    (16, 8), (18, 9), (20, 9), (25, 9),
])
def test_caster_level_gives_the_2e_wizard_table_s_highest_spell_level(level, highest):
    assert EL.highest_spell_level(pc(Caster_Level=level)) == highest


def test_a_player_casts_only_what_the_caster_level_reaches():
    assert refused(Declaration(pc(), "Orc", spell="power word kill")) == (
        "Ann is no caster: Caster Level is set by staff (+stat Ann/Caster Level=<level>).")
    assert refused(Declaration(pc(), spell="cantrip")).startswith("Ann is no caster")
    assert EL.plan(Declaration(pc(Caster_Level=1), spell="cantrip")).spell.key == "cantrip"
    assert EL.plan(Declaration(pc(Caster_Level=3), "Orc", spell="cold bolt")).spell.key == "cold-bolt"
    assert refused(Declaration(pc(Caster_Level=3), "Orc", spell="fireball")) == (
        "Fireball is a level 3 spell: Ann's Caster Level 3 casts up to level 2.")
    assert refused(Declaration(pc(Caster_Level=17), "Orc", spell="power word kill")) == (
        "Power Word, Kill is a level 9 spell: Ann's Caster Level 17 casts up to level 8.")
    assert EL.plan(Declaration(pc(Caster_Level=18), "Orc", spell="power word kill")).spell.level == 9


def test_the_storyteller_casts_anything_for_an_npc():
    assert EL.plan(Declaration(pc("Zed"), "Ann", spell="power word kill", storyteller=True)).spell.level == 9


def test_an_item_carries_its_spell_so_a_player_needs_no_caster_level():
    plan = EL.plan(Declaration(pc(), "Orc", item="wand", spell="power word kill"))
    assert (plan.kind, plan.label, plan.item, plan.spell.key) == (
        "item", "wand of Power Word, Kill", ("wand", "wand", 3), "power-word-kill")
    assert plan.parts == (("wand", 3),)      # no weapon speed factor: the item is the action
    assert refused(Declaration(pc(), "Orc", item="wand", spell="fireball", weapon="short sword")) == (
        "A spell or an item is the whole action: no weapon attacks with it.")
    assert EL.item_type("wa") == "wand" and EL.item_type("Potion") == "potion"
    assert EL.item_charges == {"potion": 1, "ring": 50, "rod": 50, "staff": 25, "wand": 100}


def test_the_item_s_spell_takes_effect_like_the_spell():
    """The discharge event carries the spell's key: ``spell_effect`` does the rest, damage off
    the target (no attack roll) or, for a potion, healing on its drinker."""
    result = start([Declaration(pc("Eve"), "Orc", item="wand", spell="magic missile")], 2)
    event = result.actions[0].events[0]
    roller = dice(3)
    hit = EL.spell_effect(event.spell, pc("Eve"), Combatant("Orc", {"Hit Points": 5}), roller)
    done(roller)
    assert tuple(englished(hit.lines)) == ("Eve's Magic Missile takes effect on Orc.", "damage: 1d4 (3) + 1 = 4",
                         "Orc loses 4 hit points: 1/5 hp")
    drinker = Combatant("Ann", {"Hit Points": 10}, health={"damage": 6, "maximum": 10})
    roller = dice(5)
    healed = EL.spell_effect("cure light wounds", drinker, None, roller)
    done(roller)
    assert englished(healed.lines)[-1] == "Ann regains 5 hit points: 9/10 hp"


# ===================================================================== trait ranges


@pytest.mark.parametrize(("trait", "bounds"), [
    ("Armor Class", (-10, 10)), ("THAC0", (1, 25)), ("Hit Points", (1, 200)), ("Reaction", (-6, 5)),
    ("Hit Probability", (-5, 7)), ("Damage Adjustment", (-4, 14)), ("Weapon Plus", (0, 5)),
    ("Weapon Quality", (0, 5)), ("Attacks", (1, 10)), ("Caster Level", (0, 20)), ("Strength", (0, 20)),
])
def test_trait_ranges(trait, bounds):
    assert EL.trait_range(trait) == bounds


def test_the_new_traits_are_on_the_sheet():
    assert {"Weapon Plus", "Weapon Quality", "Attacks", "Caster Level"} <= set(EL.trait_names)


@pytest.mark.parametrize(("path", "value", "message"), [
    (("traits", "ranges", "THAC0"), [5, 1], "traits.ranges.THAC0"),
    (("traits", "ranges", "THAC0"), [1], "traits.ranges.THAC0"),
    (("traits", "ranges", "Luck"), [0, 1], "traits.ranges.Luck: not one of traits.names"),
    (("traits", "ranges", "Attacks"), [1, 11], "traits.ranges.Attacks"),
    (("casting", "highest_spell_level"), [0, 2, 1], "casting.highest_spell_level"),
    (("casting", "highest_spell_level"), [1, 1], "casting.highest_spell_level"),
    (("casting", "caster_level_trait"), "Level", "casting.caster_level_trait"),
    (("items", "wand", "max_charges"), 0, "items.wand.max_charges: at least 1"),
    (("items", "wand", "max_charges"), "many", "items.wand"),
])
def test_range_and_casting_data_is_validated(path, value, message):
    refused_with_data_changed(path, value, message)


# ===================================================================== the fallen


def test_one_who_falls_loses_the_rest_of_the_action():
    """Orc's short bow: d10 1 + 7 = segment 8, the second shot 7 later (round 3, segment 5).
    Struck down in segment 8's melee step, after loosing the first arrow: the second is
    cancelled and nothing holds round 3."""
    result = start([Declaration(pc("Orc", weapon="short-bow"), "Ann")], 1, 3)
    bow = result.actions[0]
    assert [(e.round, e.segment) for e in bow.events] == [(2, 8), (3, 5)]
    assert bow.busy_in(3)
    cut, dropped = cancel(bow, (tick_of(2, 8), PHASES.index("melee")))
    assert [(e.round, e.segment) for e in cut.events] == [(2, 8)]
    assert [(e.round, e.segment, e.number) for e in dropped] == [(3, 5, 2)]
    assert not cut.busy_in(3) and cut.next_initiative_round == 3
    assert cancel(cut, (tick_of(2, 9), 0)) == (cut, ())           # said once: already ended


def test_one_who_falls_before_acting_loses_it_all_and_a_reload_too():
    result = start([Declaration(pc("Cat", weapon="heavy-crossbow"), "Ann")], 4)   # 4 + 10 = 14
    heavy = result.actions[0]
    cut, dropped = cancel(heavy, (tick_of(2, 6), PHASES.index("melee")))
    assert cut.events == () and len(dropped) == 1 and cut.reload_rounds == 0
    assert not cut.busy_in(3)
    done_already = start([Declaration(pc("Bob", weapon="dagger"), "Ann")], 1).actions[0]  # segment 3
    assert cancel(done_already, (tick_of(2, 5), 0)) == (done_already, ())


# ============================================================================== delay


def test_an_action_at_segment_10_cannot_be_delayed():
    ogre = start([Declaration(pc("Ogre", weapon="club"), "Ann")], 6).actions[0]   # 6 + 4 = 10
    with pytest.raises(CombatError) as err:
        delay(ogre, 2, 8, now=3)
    assert str(err.value) == "Ogre acts at segment 10, the last of the round: the action cannot be delayed further this round."


def test_a_delay_is_remembered_for_the_hud():
    ann = start([Declaration(pc(weapon="dagger"), "Orc")], 4).actions[0]     # 4 + 2 = 6
    held = delay(ann, 2, 8, now=2)
    assert held.delayed_to == tick_of(2, 8)
    assert type(held).from_record(held.to_record()) == held
