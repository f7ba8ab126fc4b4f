"""Tests for Elethril's initiative and segment timeline: every rule and example of
the elethril seed (sections 1a–4d), pinned with forced d10s.

Dice order in ``start_round``: one d10 per group (as given, then round-1 sides of one in
declaration order), then each individual's d10s (one per attack) in declaration order.
"""

from __future__ import annotations

import copy

import pytest

from rules.data import RulesDataError, load_system_data
from rules.systems.base import Combatant, CombatError
from rules.systems.elethril.declaring import Declaration, Group, SegmentInitiative
from rules.systems.elethril.system import ElethrilSystem
from rules.systems.elethril.timeline import (
    PHASES,
    SEGMENTS_PER_ROUND,
    Action,
    Event,
    build_timeline,
    cancel,
    delay,
    forfeit,
    landing,
    spoil,
    tick_of,
)
from tests.rules.forced_dice import dice, done
from tests.rules.wording import english

EL = ElethrilSystem()


def declared(actor: Combatant, *args, **kwargs) -> Declaration:
    """A declaration by the Storyteller for an NPC. The seed's scheduling rules are the same
    whoever declares; what a player may declare (the weapon in hand with the sheet's plusses
    and attacks, the off-hand weapon the ST granted, spells by Caster Level) is pinned in
    ``test_elethril.py`` and below in "players declare from the sheet"."""
    return Declaration(actor, *args, storyteller=True, **kwargs)


def who(name: str, weapon: str = "", **traits: int) -> Combatant:
    return Combatant(name=name, traits=traits, weapon=weapon)


def start(round_number: int, declarations, *faces: int, groups=(), carried=()):
    roller = dice(*faces)
    result = EL.start_round(round_number, declarations, roller, groups=groups, carried=carried)
    done(roller)
    return result


def by_actor(result) -> dict[str, SegmentInitiative]:
    return {i.actor: i for i in result.initiative}


def when(action: Action) -> list[tuple[int, int, str]]:
    return [(e.round, e.segment, e.phase) for e in action.events]


def action_of(result, name: str) -> Action:
    return next(a for a in result.actions if a.actor == name)


# ======================================================= 1a: round-1 group initiative


def test_seed_1a_side_a_rolls_4_side_b_7_becomes_1_and_4():
    result = start(1, [declared(who("Ann")), declared(who("Orc"))], 4, 7,
                   groups=[Group("A", ("Ann",)), Group("B", ("Orc",))])
    assert [(g.name, g.die, g.base) for g in result.groups] == [("A", 4, 1), ("B", 7, 4)]
    # "still two segments between": 1 and 4 (fists, speed 1: segments 2 and 5)
    assert {n: i.base for n, i in by_actor(result).items()} == {"Ann": 1, "Orc": 4}
    # Fray's reading of the seed (docs/rules/elethril.md, Surprise): the side behind is
    # surprised, its head start the surprise
    assert [english(g.describe()) for g in result.groups] == ["A: d10 4 -> base 1",
                                                     "B: d10 7 -> base 4 (3 segments behind)"]


def test_seed_1a_the_side_initiative_determines_surprise_as_data():
    # seed 1a: the round-1 group initiative "is used to determine surprise" (choose). Default
    # ([surprise] margin 1, segments 0): every side behind is surprised by its gap, nothing more.
    sides = [Group("A", ("Ann",)), Group("B", ("Orc",))]
    decls = [declared(who("Ann")), declared(who("Orc"))]
    result = start(1, decls, 4, 7, groups=sides)
    assert [(g.base, g.surprised) for g in result.groups] == [(1, 0), (4, 3)]
    assert result.groups[1].to_record() == {"name": "B", "die": 7, "base": 4, "surprised": 3}
    assert [(g.base, g.surprised) for g in start(1, decls, 5, 5, groups=sides).groups] == [(1, 0), (1, 0)]
    # A harsher game: 3 or more behind loses a round (10 segments more); 2 behind is no surprise.
    data = copy.deepcopy(load_system_data("elethril"))
    data["surprise"] = {"margin": 3, "segments": 10}
    harsh = ElethrilSystem(data)
    roller = dice(4, 7)
    result = harsh.start_round(1, decls, roller, groups=sides)
    done(roller)
    assert [(g.base, g.surprised) for g in result.groups] == [(1, 0), (14, 13)]
    assert english(result.groups[1].describe()) == "B: d10 7 -> base 14 (surprised: 13 segments behind)"
    assert by_actor(result)["Orc"].landing == (2, 5)          # 14 + fist 1: round 2, segment 5
    roller = dice(4, 6)
    assert [g.base for g in harsh.start_round(1, decls, roller, groups=sides).groups] == [1, 3]
    # Round 2 on: individuals roll, nobody is surprised.
    assert all(not g.surprised for g in harsh.start_round(2, decls, dice(9, 9)).groups)
    data["surprise"] = {"margin": 0, "segments": 0}
    assert ElethrilSystem(data).start_round(1, decls, dice(4, 9), groups=sides).groups[1].surprised == 0
    data["surprise"] = {"margin": -1, "segments": 0}
    with pytest.raises(RulesDataError, match="surprise"):
        ElethrilSystem(data)


def test_three_sides_and_ties_normalise_to_the_lowest():
    decls = [declared(who(n)) for n in ("Ann", "Bob", "Cid")]
    sides = [Group("A", ("Ann",)), Group("B", ("Bob",)), Group("C", ("Cid",))]
    assert [g.base for g in start(1, decls, 4, 7, 9, groups=sides).groups] == [1, 4, 6]
    assert [g.base for g in start(1, decls, 5, 5, 8, groups=sides).groups] == [1, 1, 4]


def test_individuals_add_their_modifiers_to_the_side_base():
    ann = who("Ann", "short sword", Reaction=1)
    bob = who("Bob", "long sword")
    result = start(1, [declared(ann, "Orc"), declared(bob, "Orc"), declared(who("Orc", "club"))],
                   4, 7, groups=[Group("A", ("Ann", "Bob"))])
    init = by_actor(result)
    assert (init["Ann"].total, init["Bob"].total, init["Orc"].total) == (3, 6, 8)  # 1-1+3, 1+5, 4+4
    assert english(init["Ann"].describe()) == "Ann: A base 1 - 1 (Reaction) + 3 (short sword) = 3 -> segment 3"
    assert result.groups[1].name == "Orc"   # on no side: a side of their own


def test_round_one_has_one_die_per_side_even_with_several_attacks():
    result = start(1, [declared(who("Ann", "dagger"), attacks=3)], 6, groups=[Group("A", ("Ann",))])
    assert by_actor(result)["Ann"].dice == ()


# ================================================= 1b: coordinating parts of a party


def elves():
    aaxi, baxi = who("Aaxi", "dagger"), who("Baxi", "long sword")
    gaxi = who("Gaxi", "short sword", Reaction=2)
    thaxi, easi = who("Thaxi", "long sword", Reaction=1), who("Easi", "dagger")
    zaxi = who("Zaxi", "battle axe")
    return [declared(e, "Human") for e in (aaxi, baxi, gaxi, thaxi, easi, zaxi)]


def test_seed_1b_the_six_elves():
    """Round 2: Aaxi and Baxi roll their own; the other four roll one die; Gaxi uses his own
    modifiers; Thaxi, Easi and Zaxi use Zaxi's (the slowest), so they act together."""
    nag = Group("nag", ("Gaxi", "Thaxi", "Easi", "Zaxi"), follow_slowest=("Thaxi", "Easi", "Zaxi"))
    result = start(2, elves(), 2, 3, 8, groups=[nag])       # nag 2, Aaxi 3, Baxi 8
    init = by_actor(result)
    assert [(g.name, g.die, g.base) for g in result.groups] == [("nag", 2, 2)]  # not normalised
    assert init["Aaxi"].total == 5 and init["Aaxi"].dice == (3,)
    assert init["Baxi"].landing == (3, 3)                   # 8 + 5 = 13
    assert init["Gaxi"].total == 3                          # 2 - 2 + 3: his own
    assert {init[n].total for n in ("Thaxi", "Easi", "Zaxi")} == {9}   # 2 + 7 (battle axe)
    assert english(init["Thaxi"].describe()) == "Thaxi: nag base 2 + 7 (Zaxi's modifiers) = 9 -> segment 9"
    steps = result.timeline.steps()
    assert [e.actor for e in steps[-1]] == ["Easi", "Thaxi", "Zaxi"]   # simultaneous
    assert steps[-1][0].segment == 9


def test_seed_1b_the_roller_s_bonus_is_not_everyone_s():
    thief, fighter = who("Thief", "dagger", Reaction=3), who("Fighter", "dagger")
    result = start(2, [declared(thief), declared(fighter)], 4,
                   groups=[Group("pair", ("Thief", "Fighter"))])
    init = by_actor(result)
    assert (init["Thief"].total, init["Fighter"].total) == (3, 6)
    assert init["Fighter"].parts == (("dagger", 2),)


def test_seed_1b_the_third_round_fireball():
    """'The third round, one of the humans Fireballs the elves': casting 3 segments from the
    mage's segment, discharged at the start of the next, before that segment's melee."""
    mage, aaxi = who("Human"), who("Aaxi", "short sword")
    result = start(3, [declared(mage, "elves", spell="fireball"), declared(aaxi, "Human")], 3, 3)
    assert when(action_of(result, "Human")) == [(3, 3, "casting"), (3, 6, "discharge")]
    at_six = result.timeline.at(6)
    assert [(e.actor, e.phase) for e in at_six] == [("Human", "discharge"), ("Aaxi", "melee")]


def test_groups_are_declared_before_any_die():
    decls = [declared(who("Ann")), declared(who("Bob"))]
    with pytest.raises(CombatError, match="Cid declares no action"):
        start(2, decls, groups=[Group("g", ("Ann", "Cid"))])        # no die consumed
    with pytest.raises(CombatError, match="in both"):
        start(2, decls, groups=[Group("g", ("Ann",)), Group("h", ("Ann", "Bob"))])
    with pytest.raises(CombatError, match="Bob is not in g"):
        start(2, decls, groups=[Group("g", ("Ann",), follow_slowest=("Bob",))])
    with pytest.raises(CombatError, match="declared twice"):
        start(2, decls + decls[:1])


# ====================================================== 2a, 2b: magical plusses and speed


def test_seed_2a_magical_plus_one_short_sword_has_speed_2():
    assert EL.wielded("short sword +1").speed == 2


def test_seed_2a_quality_plusses_do_not_affect_speed():
    sword = EL.wielded("short sword +1 q2")         # more quality than magic: only magic counts
    assert (sword.magic, sword.quality, sword.speed) == (1, 2, 2)
    assert EL.wielded("short sword q3").speed == 3


def test_seed_2b_speed_never_below_zero():
    assert EL.wielded("dagger +3").speed == 0


# ============================================================ 3a: segments and rounds


@pytest.mark.parametrize(("initiative", "where"), [
    (1, (1, 1)), (10, (1, 10)), (11, (2, 1)), (14, (2, 4)), (20, (2, 10)), (21, (3, 1)), (30, (3, 10)),
])
def test_seed_3a_initiative_is_the_segment_and_spills_into_later_rounds(initiative, where):
    assert SEGMENTS_PER_ROUND == 10
    assert landing(1, initiative) == where


def test_seed_3a_below_one_attacks_at_segment_one():
    quick = who("Ann", "dagger +3", Reaction=2)
    result = start(2, [declared(quick, modifiers=("hasted", "higher-ground"))], 1)
    init = by_actor(result)["Ann"]
    assert init.total == -4 and init.initiative == 1          # 1 - 2 + 0 - 2 - 1
    assert english(init.describe()).endswith("= -4 -> segment 1 (minimum)")
    assert when(action_of(result, "Ann")) == [(2, 1, "melee")]


def test_seed_3a_below_one_casting_begins_at_segment_one():
    result = start(2, [declared(who("Zed", Reaction=3), spell="magic missile", modifiers=("hasted",))], 2)
    assert when(action_of(result, "Zed")) == [(2, 1, "casting"), (2, 2, "discharge")]


def two_hander_round_one():
    ann, bob = who("Ann", "dagger"), who("Bob", "two-handed sword")
    return start(1, [declared(ann, "Bob"), declared(bob, "Ann")], 2, 5,
                 groups=[Group("A", ("Ann",)), Group("B", ("Bob",))])


def test_seed_3a_11_to_20_is_the_action_for_both_rounds():
    first = two_hander_round_one()
    bob = action_of(first, "Bob")
    assert when(bob) == [(2, 4, "melee")]                       # 4 + 10 = 14
    assert first.timeline.at(4) == () and first.timeline.later[0].actor == "Bob"
    assert bob.busy_in(2) and not bob.busy_in(3) and bob.next_initiative_round == 3
    with pytest.raises(CombatError, match="Bob is still acting"):
        start(2, [declared(who("Bob", "two-handed sword"))], carried=[bob])
    second = start(2, [declared(who("Ann", "dagger"), "Bob")], 6, carried=first.actions)
    assert [(e.actor, e.segment) for e in second.timeline.events] == [("Bob", 4), ("Ann", 8)]
    assert second.timeline.busy == ("Bob",)


def test_seed_3a_forfeiting_costs_one_on_the_new_roll():
    bob = forfeit(action_of(two_hander_round_one(), "Bob"), 2)
    assert bob.events == () and bob.next_initiative_round == 2 and not bob.busy_in(2)
    result = start(2, [declared(who("Bob", "dagger"), forfeited=True)], 3, carried=[bob])
    assert by_actor(result)["Bob"].parts == (("dagger", 2), ("forfeit", 1))
    assert by_actor(result)["Bob"].total == 6
    with pytest.raises(CombatError, match="Bob has no action carried into round 2"):
        forfeit(bob, 2)
    with pytest.raises(CombatError, match="carried over from an earlier round"):
        forfeit(action_of(two_hander_round_one(), "Ann"), 1)


def test_seed_3a_21_to_30_is_the_round_after():
    bob = who("Bob", "two-handed sword")
    result = start(2, [declared(bob, modifiers=("underwater", "hindered"))], 4)
    action = action_of(result, "Bob")
    assert by_actor(result)["Bob"].total == 23                  # 4 + 10 + 6 + 3
    assert when(action) == [(4, 3, "melee")]
    assert action.busy_in(3) and action.busy_in(4) and action.next_initiative_round == 5


# ================================================================ 3b: order in a segment


def everyone_at_five():
    return start(2, [
        declared(who("Ann", "dagger"), "X"),                       # melee: 3 + 2
        declared(who("Bea", "dart"), "X", attacks=1),              # missile: 3 + 2
        declared(who("Cid"), "X", spell="power word stun"),        # instant: 5
        declared(who("Dee"), "X", spell="fireball"),               # casting 2-4, discharges 5
        declared(who("Eve"), "X", item="wand", spell="magic missile"),  # item discharge: 2 + 3
    ], 3, 3, 5, 2, 2)


def test_seed_3b_discharge_instant_missile_melee():
    timeline = everyone_at_five().timeline
    assert [(e.actor, e.phase) for e in timeline.at(5)] == [
        ("Dee", "discharge"), ("Eve", "discharge"), ("Cid", "instant"), ("Bea", "missile"), ("Ann", "melee")]
    schedule = timeline.schedule()
    assert [(s.at, s.names) for s in schedule.slots] == [
        (5, ("Dee", "Eve")), (5, ("Cid",)), (5, ("Bea",)), (5, ("Ann",))]


# ====================================================================== 3c: spells


def test_seed_3c_spell_takes_effect_at_the_start_of_the_segment_after_casting():
    result = start(2, [declared(who("Dee"), "X", spell="fireball")], 4)
    assert when(action_of(result, "Dee")) == [(2, 4, "casting"), (2, 7, "discharge")]


def test_seed_3c_long_casting_spills_into_the_next_round():
    result = start(2, [declared(who("Dee"), "X", spell="flame strike")], 6)
    action = action_of(result, "Dee")
    assert when(action) == [(2, 6, "casting"), (3, 4, "discharge")]   # 6 + 8 = 14
    assert action.busy_in(3)


def test_seed_3c_power_words_and_cantrips_act_in_their_own_segment():
    for spell in ("power word kill", "cantrip"):
        result = start(2, [declared(who("Cid"), "X", spell=spell)], 5)
        assert when(action_of(result, "Cid")) == [(2, 5, "instant")]


def test_seed_3c_a_hit_while_casting_spoils_the_spell():
    actions = everyone_at_five().actions
    after, spoiled = spoil(actions, "Dee", 2, 3, "melee")
    assert spoiled is not None and spoiled.label == "Fireball" and spoiled.spoiled
    timeline = build_timeline(2, after)
    assert ("Dee", "discharge") not in [(e.actor, e.phase) for step in timeline.steps() for e in step]
    assert [(e.label, e.target, e.spoiled) for e in timeline.events if e.actor == "Dee" and e.phase == "discharge"] \
        == [("Fireball", "X", True)]      # drawn "Dee Fireball > X (spoiled)" (tests/game/test_elethril_board.py)


@pytest.mark.parametrize(("segment", "phase", "spoils"), [
    (2, "discharge", True),   # casting began at the start of segment 2
    (2, "melee", True),
    (4, "melee", True),
    (5, "discharge", False),  # the spell takes effect at the start of 5, with other discharges
    (5, "melee", False),
    (1, "melee", False),      # not casting yet
])
def test_seed_3c_the_casting_window(segment, phase, spoils):
    _, spoiled = spoil(everyone_at_five().actions, "Dee", 2, segment, phase)
    assert (spoiled is not None) is spoils


def test_seed_3c_a_discharge_in_its_segment_can_interrupt_a_power_word():
    actions = everyone_at_five().actions
    assert spoil(actions, "Cid", 2, 5, "discharge")[1] is not None
    assert spoil(actions, "Cid", 2, 5, "missile")[1] is None        # it went off before missiles


def test_a_spoiled_spell_frees_the_caster_for_the_next_round():
    result = start(2, [declared(who("Dee"), "X", spell="flame strike")], 6)
    assert result.timeline.later[0].label == "Flame Strike"
    actions, spoiled = spoil(result.actions, "Dee", 2, 9, "melee")
    assert spoiled is not None and (spoiled.round, spoiled.segment) == (3, 4)
    assert not actions[0].busy_in(3) and actions[0].next_initiative_round == 3
    assert build_timeline(2, actions).later == ()


# ================================================= 3b: magical items discharge their spell


def test_seed_3b_an_item_discharges_its_spell_at_initiative_plus_its_modifier():
    result = start(2, [declared(who("Eve", Reaction=1), "X", item="wand", spell="fireball")], 4)
    initiative = by_actor(result)["Eve"]
    assert initiative.parts == (("Reaction", -1), ("wand", 3))
    assert english(initiative.describe()) == "Eve: d10 4 - 1 (Reaction) + 3 (wand) = 6 -> segment 6"
    action = action_of(result, "Eve")
    # one discharge at the user's segment: no casting marker, Fireball's 3 segments do not count
    assert (action.kind, action.casting_from, when(action)) == ("item", 0, [(2, 6, "discharge")])
    event = action.events[0]
    assert (event.label, event.spell, event.item, event.target) == ("wand of Fireball", "fireball", "wand", "X")
    assert result.timeline.at(6) == (event,)   # drawn "[spell] Eve wand of Fireball > X" (tests/game/test_elethril_board.py)


@pytest.mark.parametrize(("item", "modifier"), [
    ("potion", 4), ("ring", 3), ("rod", 1), ("staff", 2), ("wand", 3)])
def test_each_item_type_has_its_phb_table_52_modifier(item, modifier):
    result = start(2, [declared(who("Eve"), item=item, spell="cure light wounds")], 1)
    assert by_actor(result)["Eve"].parts == ((item, modifier),)
    assert when(action_of(result, "Eve")) == [(2, 1 + modifier, "discharge")]


def test_seed_3b_an_item_goes_off_first_in_its_segment():
    """Potion d10 1 + 4 = 5; Power Word d10 5; dart d10 3 + 2; dagger d10 3 + 2."""
    result = start(2, [
        declared(who("Ann", "dagger"), "X"),
        declared(who("Bea", "dart"), "X", attacks=1),
        declared(who("Cid"), "X", spell="power word stun"),
        declared(who("Eve"), item="potion", spell="cure light wounds"),
    ], 3, 3, 5, 1)
    assert [(e.actor, e.phase) for e in result.timeline.at(5)] == [
        ("Eve", "discharge"), ("Cid", "instant"), ("Bea", "missile"), ("Ann", "melee")]
    assert [step[0].actor for step in result.timeline.steps()] == ["Eve", "Cid", "Bea", "Ann"]


def test_an_item_has_no_casting_so_a_hit_never_spoils_it():
    actions = everyone_at_five().actions
    eve = action_of(everyone_at_five(), "Eve")
    assert eve.effect is None
    for segment in range(1, 6):
        for phase in PHASES:
            after, spoiled = spoil(actions, "Eve", 2, segment, phase)
            assert spoiled is None and after == actions


def test_an_item_user_may_delay_and_one_who_falls_first_loses_the_discharge():
    action = action_of(start(2, [declared(who("Eve"), "X", item="rod", spell="magic missile")], 2), "Eve")
    assert when(action) == [(2, 3, "discharge")]
    assert when(delay(action, 2, 7, now=1)) == [(2, 7, "discharge")]
    cut, dropped = cancel(action, (tick_of(2, 2), PHASES.index("melee")))
    assert cut.events == () and [e.item for e in dropped] == ["rod"]


def test_item_events_round_trip_and_old_records_have_none():
    event = action_of(everyone_at_five(), "Eve").events[0]
    assert Event.from_record(event.to_record()) == event and event.item == "wand"
    old = {key: value for key, value in event.to_record().items() if key != "item"}
    assert Event.from_record(old).item == ""


def test_an_item_must_name_its_spell_and_the_item_type_must_exist():
    with pytest.raises(CombatError, match="A magical item discharges the spell it holds: name the spell."):
        start(2, [declared(who("Eve"), "X", item="wand")])
    with pytest.raises(CombatError, match="No magical item 'amulet'. Choose from: potion, ring, rod, staff, wand."):
        start(2, [declared(who("Eve"), "X", item="amulet", spell="fireball")])
    with pytest.raises(CombatError, match="No spell 'wish'"):
        start(2, [declared(who("Eve"), "X", item="wand", spell="wish")])


def test_unknown_spell_is_refused_before_any_die():
    with pytest.raises(CombatError, match="No spell 'wish'"):
        start(2, [declared(who("Dee"), spell="wish")])


# ========================================================================= 1c: delay


def test_seed_1c_a_mage_holds_a_cold_bolt_to_interrupt_another_caster():
    result = start(2, [declared(who("Ilsa"), "Vex", spell="cold bolt"),
                       declared(who("Vex"), "Ilsa", spell="fireball")], 2, 6)
    ilsa, vex = result.actions
    assert when(ilsa) == [(2, 2, "casting"), (2, 4, "discharge")]
    held = delay(ilsa, 2, 6, now=2)                       # Vex starts casting at 6
    assert when(held) == [(2, 6, "casting"), (2, 8, "discharge")]
    _, spoiled = spoil([held, vex], "Vex", 2, 8, "discharge")
    assert spoiled is not None and spoiled.label == "Fireball"   # Vex's discharge was due at 9


def test_delay_keeps_the_spacing_of_later_attacks():
    result = start(2, [declared(who("Ann", "dagger"), "X", attacks=2)], 1, 4)
    held = delay(action_of(result, "Ann"), 2, 6, now=1)
    assert when(held) == [(2, 6, "melee"), (2, 8, "melee")]


@pytest.mark.parametrize(("segment", "now", "message"), [
    (4, 6, "Segment 4 has passed: it is segment 6."),
    (5, 3, "Ann already acts at segment 5: delay to a later one (6 to 10)."),
    (3, 3, "Ann already acts at segment 5"),
    (11, 3, "Delay to a segment of this round: 1 to 10, not '11'."),
    (0, 3, "Delay to a segment of this round: 1 to 10, not '0'."),
])
def test_delay_refuses_past_and_earlier_segments(segment, now, message):
    action = action_of(start(2, [declared(who("Ann", "dagger"))], 3), "Ann")   # segment 5
    with pytest.raises(CombatError) as err:
        delay(action, 2, segment, now)
    assert str(err.value).startswith(message)


def test_delay_refuses_an_action_in_a_later_round_or_a_casting_under_way():
    bob = action_of(two_hander_round_one(), "Bob")
    with pytest.raises(CombatError, match="nothing left to do this round"):
        delay(bob, 1, 8, now=1)
    dee = action_of(start(2, [declared(who("Dee"), "X", spell="fireball")], 2), "Dee")
    with pytest.raises(CombatError, match="already casting"):
        delay(dee, 2, 8, now=3)


# ====================================================== 4a-4c: multiple melee attacks


def test_seed_4b_one_die_per_attack_keep_the_best():
    result = start(2, [declared(who("Ann", "long sword"), "X", attacks=2)], 7, 3)
    init = by_actor(result)["Ann"]
    assert (init.dice, init.base, init.total) == ((7, 3), 3, 8)
    assert english(init.describe()) == "Ann: d10 7, 3 -> 3 + 5 (long sword) = 8 -> segment 8"


def test_seed_4a_later_attacks_spaced_by_weapon_speed_and_past_10_continue():
    result = start(2, [declared(who("Ann", "long sword"), "X", attacks=2)], 7, 3)
    action = action_of(result, "Ann")
    assert when(action) == [(2, 8, "melee"), (3, 3, "melee")]
    assert action.busy_in(3) and action.next_initiative_round == 4


def test_seed_4a_reaction_speeds_only_the_first_attack():
    result = start(2, [declared(who("Ann", "long sword", Reaction=2), "X", attacks=3)], 3, 9, 9)
    assert [(e.round, e.segment) for e in action_of(result, "Ann").events] == [(2, 6), (3, 1), (3, 6)]


def test_seed_4a_a_magical_primary_weapon_quickens_every_following_attack():
    result = start(2, [declared(who("Ann", "long sword +2"), "X", attacks=3)], 3, 9, 9)
    assert [e.segment for e in action_of(result, "Ann").events] == [6, 9, 2]   # 3 + 3, +3, +3


def test_seed_4c_short_sword_and_dagger_the_dagger_two_segments_later():
    result = start(2, [declared(who("Ann", "short sword"), "X", off_hand="dagger")], 4, 6)
    events = action_of(result, "Ann").events
    assert [(e.segment, e.label, e.hand) for e in events] == [
        (7, "short sword", "primary"), (9, "dagger", "off")]
    assert by_actor(result)["Ann"].dice == (4, 6)   # two-weapon fighting: a die per attack


def test_seed_4a_a_magical_off_hand_weapon_quickens_only_itself():
    # Seed 4a: "Any initiative modifiers for magical weapons affect only the
    # initiative of that weapon": the dagger +1 strikes at 7 + (2 - 1) = 8, but the short
    # sword's next attack follows the dagger's own speed 2: 7 + 2 + 3 = 12, round 3 segment 2
    # (was segment 1: the +1 sped the primary too).
    result = start(2, [declared(who("Ann", "short sword"), "X", off_hand="dagger +1", attacks=2)], 4, 6, 9)
    assert [(e.round, e.segment, e.hand) for e in action_of(result, "Ann").events] == [
        (2, 7, "primary"), (2, 8, "off"), (3, 2, "primary")]


def test_seed_4a_an_off_hand_dagger_plus_2_does_not_speed_the_primary():
    # The case: an off-hand dagger +2 strikes with the sword (speed 2 - 2 = 0) and the
    # sword's second attack comes at round 3 segment 2, not round 2 segment 10.
    result = start(2, [declared(who("Ann", "short sword"), "X", off_hand="dagger +2", attacks=2)], 4, 6, 9)
    assert [(e.round, e.segment, e.hand) for e in action_of(result, "Ann").events] == [
        (2, 7, "primary"), (2, 7, "off"), (3, 2, "primary")]
    # A magical primary weapon still quickens every attack after it (seed 4a).
    result = start(2, [declared(who("Ann", "short sword +1"), "X", off_hand="dagger", attacks=2)], 4, 6, 9)
    assert [(e.round, e.segment, e.hand) for e in action_of(result, "Ann").events] == [
        (2, 6, "primary"), (2, 8, "off"), (2, 10, "primary")]   # 6 + 2, then + 2 (the +1 sword)


def test_seed_4c_attacks_past_segment_10_can_be_aborted():
    action = action_of(start(2, [declared(who("Ann", "long sword"), "X", attacks=2)], 7, 3), "Ann")
    aborted = forfeit(action, 3)
    assert when(aborted) == [(2, 8, "melee")] and not aborted.busy_in(3)


# ============================================================== 4d: missile weapons


def test_seed_4d_missiles_are_spaced_like_melee():
    result = start(2, [declared(who("Bea", "short bow"), "X")], 9, 2)   # rate 2: two dice
    action = action_of(result, "Bea")
    assert [(e.round, e.segment, e.phase, e.number, e.count) for e in action.events] == [
        (2, 9, "missile", 1, 2), (3, 6, "missile", 2, 2)]
    assert action.reload_rounds == 0


def test_seed_4d_a_rate_below_one_skips_rounds():
    result = start(2, [declared(who("Bea", "light crossbow +3"), "X"),
                       declared(who("Cat", "heavy crossbow", Reaction=2), "X")], 1, 1)
    light, heavy = result.actions
    assert heavy.reload_rounds == 1 and heavy.next_initiative_round == 4     # fires round 2
    assert light.reload_rounds == 0 and light.next_initiative_round == 3


def test_seed_4d_skipping_counts_from_the_last_attack_even_in_the_next_round():
    result = start(2, [declared(who("Cat", "heavy crossbow"), "X")], 4)     # 4 + 10 = 14
    heavy = action_of(result, "Cat")
    assert when(heavy) == [(3, 4, "missile")]
    assert heavy.busy_in(3) and heavy.busy_in(4) and heavy.next_initiative_round == 5


def test_missile_rate_limits_the_attacks():
    with pytest.raises(CombatError, match="fires at most 1 per round"):
        start(2, [declared(who("Bea", "light crossbow"), attacks=2)])


def test_a_spell_or_item_is_the_whole_action():
    with pytest.raises(CombatError, match="whole action"):
        start(2, [declared(who("Dee", "dagger"), spell="sleep", off_hand="dagger")])
    with pytest.raises(CombatError, match="whole action"):
        start(2, [declared(who("Dee", "dagger"), spell="sleep", item="wand", attacks=1)])
    with pytest.raises(CombatError, match="No initiative modifier 'flying'"):
        start(2, [declared(who("Dee"), modifiers=("flying",))])


def test_the_down_cannot_declare():
    down = Combatant("Ann", {"Hit Points": 5}, health={"damage": 5, "maximum": 5})
    with pytest.raises(CombatError, match="Ann is down"):
        start(2, [declared(down)])


# ================================================================ the HUD and records


def test_records_round_trip():
    result = start(2, [declared(who("Ann", "short sword +1"), "X", off_hand="dagger"),
                       declared(who("Dee"), "X", spell="fireball")], 4, 6, 2)
    for action in result.actions:
        assert Action.from_record(action.to_record()) == action
    for init in result.initiative:
        assert SegmentInitiative.from_record(init.to_record()) == init
    assert build_timeline(2, [Action.from_record(a.to_record()) for a in result.actions]) == result.timeline


def test_one_actor_two_actions_in_a_round_is_an_error():
    first = two_hander_round_one()
    bob = action_of(first, "Bob")
    with pytest.raises(CombatError, match="two actions"):
        build_timeline(2, [bob, Action("Bob", 2, "melee", ())])
