"""What a fight waits for, said: an attack waiting on its target's defense stops the target
acting until it is answered, is named in the turn's words, and lapses as the game master's
timeout says; +combat/next passes nothing while defenses or initiative are awaited."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.engine import Fighter, FightState, Intent, step, turns, view
from rules.systems import CombatError, get_system
from rules.systems.base import Combatant
from tests.rules.forced_dice import dice, done
from tests.rules.wording import english

GM, ANN, BOB, CID = 1, 10, 11, 12
SYSTEM = get_system("storyteller")
TRAITS = {"Dexterity": 2, "Wits": 2, "Brawl": 1, "Strength": 1, "Stamina": 1, "Dodge": 1}


def play(state: FightState, intent: Intent, *faces: int):
    roller = dice(*faces)
    outcome = step(state, intent, SYSTEM, roller)
    done(roller)
    return outcome


def joined(*people: tuple[int, str, bool]) -> FightState:
    state = play(FightState(system="storyteller"), Intent("start", by=GM, fiat=True)).state
    for fighter_id, name, npc in people:
        record = Fighter(fighter_id, name, npc=npc, sheet=Combatant(name=name, traits=dict(TRAITS))).to_record()
        state = play(state, Intent("join", actor=fighter_id, data={"fighter": record})).state
    return state


@pytest.fixture
def attacked() -> FightState:
    """Ann (initiative 14) has punched the NPC Bob (5); Bob's defense is awaited."""
    state = joined((ANN, "Ann", False), (BOB, "Bob", True))
    state = play(state, Intent("initiative", actor=ANN), 10).state
    state = play(state, Intent("initiative", actor=BOB), 1).state
    state = play(state, Intent("attack", actor=ANN, targets=(BOB,)), 9, 9, 2).state
    assert [pending.target for pending in state.pending] == [BOB]
    return state


def test_the_target_of_a_waiting_attack_is_told_to_defend_first(attacked):
    with pytest.raises(CombatError) as refused:
        step(attacked, Intent("attack", by=GM, fiat=True, actor=BOB, targets=(ANN,)), SYSTEM, dice())
    assert str(refused.value) == "Ann's punch waits for Bob's defense first: defend Bob=dodge|block|none."
    with pytest.raises(CombatError, match="waits for your defense first: defend dodge"):
        state = joined((ANN, "Ann", False), (CID, "Cid", False))
        state = play(state, Intent("initiative", actor=ANN), 10).state
        state = play(state, Intent("initiative", actor=CID), 1).state
        state = play(state, Intent("attack", actor=ANN, targets=(CID,)), 9, 9, 2).state
        step(state, Intent("attack", by=CID, actor=CID, targets=(ANN,)), SYSTEM, dice())


def test_the_turn_names_the_defense_the_fight_waits_for(attacked):
    d = view(attacked, SYSTEM)
    assert english(turns.now_line(d)) == "Round 1, Bob's turn; waiting for Bob's defense"
    assert english(turns.turn_line(d, turns.current_slot(d)[1])) == "Bob; waiting for Bob's defense"
    with pytest.raises(CombatError) as refused:
        step(attacked, Intent("next", by=GM, fiat=True), SYSTEM, dice())
    assert str(refused.value) == "Nothing passed: waiting for Bob's defense. Let them answer, or +combat/resolve."


def test_the_turn_names_each_defense_the_fight_waits_for_once(attacked):
    state = joined((ANN, "Ann", False), (BOB, "Bob", True), (CID, "Cid", False))
    state = replace(state, initiative=attacked.initiative, pending=tuple(
        replace(attacked.pending[0], id=number, target=target)
        for number, target in enumerate((BOB, CID, BOB, ANN), start=1)))
    d = view(state, SYSTEM)
    assert english(turns.defenses_line(d)) == "waiting for Bob's, Cid's and Ann's defenses"
    two = view(replace(state, pending=state.pending[:2]), SYSTEM)
    assert english(turns.defenses_line(two)) == "waiting for Bob's and Cid's defenses"
    assert turns.defenses_line(view(replace(state, pending=()), SYSTEM)) is None


def test_an_unanswered_defense_lapses_after_the_timeout(attacked):
    state = play(attacked, Intent("timeout", by=GM, fiat=True, option="30")).state
    assert state.settings == {"timeout": 30}
    outcome = play(state, Intent("lapse", by=GM, fiat=True, data={"attack": state.pending[0].id}), 8, 2, 2)
    resolved = [event for event in outcome.events if event.key == "attack.resolved"][0]
    assert english(resolved.lines[0]) == "No defense from Bob within 30 seconds."
    assert outcome.state.pending == ()
    with pytest.raises(CombatError, match="no longer waiting"):
        step(outcome.state, Intent("lapse", by=GM, fiat=True, data={"attack": 1}), SYSTEM, dice())


@pytest.mark.parametrize("option", ["9", "3601", "-5", "x", "30s", "１２"])
def test_a_timeout_is_10_to_3600_seconds_or_off(attacked, option):
    with pytest.raises(CombatError, match="Give the wait in seconds, 10 to 3600, or off"):
        step(attacked, Intent("timeout", by=GM, fiat=True, option=option), SYSTEM, dice())
    with pytest.raises(CombatError, match="no limit already"):
        step(attacked, Intent("timeout", by=GM, fiat=True, option="off"), SYSTEM, dice())


def test_a_round_never_ends_before_everyone_able_has_rolled_initiative():
    state = joined((ANN, "Ann", False), (BOB, "Bob", True))
    state = play(state, Intent("initiative", actor=BOB), 1).state
    passed = play(state, Intent("next", by=GM, fiat=True))   # Bob passes; Ann has not rolled
    assert passed.state.round == 1
    assert keys(passed)[-1] == "turn.awaiting_initiative"
    with pytest.raises(CombatError) as refused:
        step(passed.state, Intent("next", by=GM, fiat=True), SYSTEM, dice())
    assert str(refused.value) == ("Nothing passed: waiting for initiative from Ann (+combat/init; NPCs: "
                                  "+npc/init <name>; +combat/idle <name> leaves one out).")
    idle = play(passed.state, Intent("idle", by=GM, fiat=True, targets=(ANN,))).state
    assert play(idle, Intent("next", by=GM, fiat=True)).state.round == 2


def keys(outcome) -> list[str]:
    return [event.key for event in outcome.events if event.kind in ("said", "notice")]


def test_a_roll_that_does_not_change_who_acts_announces_nothing():
    state = joined((ANN, "Ann", False), (BOB, "Bob", True), (CID, "Cid", False))
    first = play(state, Intent("initiative", actor=ANN), 5)
    assert keys(first) == ["initiative.rolled", "turn.to_act", "turn.prompt"]
    lower = play(first.state, Intent("initiative", actor=BOB), 1)
    assert keys(lower) == ["initiative.rolled"]
    higher = play(lower.state, Intent("initiative", actor=CID), 10)
    assert keys(higher) == ["initiative.rolled", "turn.to_act", "turn.prompt"]


def test_an_npc_the_ai_runs_gets_no_prompt_meant_for_a_person():
    state = joined((ANN, "Ann", False), (BOB, "Bob", True))
    state = play(state, Intent("ai", by=GM, fiat=True, targets=(BOB,), option="on")).state
    state = play(state, Intent("initiative", actor=ANN), 1).state
    outcome = play(state, Intent("initiative", actor=BOB), 10)
    assert keys(outcome) == ["initiative.rolled", "turn.to_act"]


def test_a_fighter_renamed_mid_fight_keeps_its_turn():
    state = joined((ANN, "Ann", False), (BOB, "Bob", True))
    state = play(state, Intent("initiative", actor=ANN), 10).state
    state = play(state, Intent("initiative", actor=BOB), 1).state
    brute = Fighter(ANN, "Brute", sheet=Combatant(name="Brute", traits=dict(TRAITS))).to_record()
    state = play(state, Intent("refresh", data={"fighter": brute})).state
    d = view(state, SYSTEM)
    assert turns.current_slot(d) == (14, [ANN])
    assert english(turns.now_line(d)) == "Round 1, Brute's turn"
    outcome = play(state, Intent("attack", actor=ANN, targets=(BOB,)), 9, 9, 2)
    assert [pending.attacker for pending in outcome.state.pending] == [ANN]


def test_a_defense_in_a_system_without_any_says_so():
    state = FightState(system="elethril", gm=GM, fighters=(Fighter(ANN, "Ann", sheet=Combatant(name="Ann")),))
    with pytest.raises(CombatError) as refused:
        step(state, Intent("defend", actor=ANN, option="dodge"), get_system("elethril"), dice())
    assert str(refused.value) == "The elethril rules have no defense to choose: Armor Class is the defense."


def test_joining_without_a_sheet_for_the_fights_system_is_told():
    state = play(FightState(system="storyteller"), Intent("start", by=GM, fiat=True)).state
    bare = Fighter(ANN, "Ann", sheet=Combatant(name="Ann")).to_record()
    outcome = play(state, Intent("join", actor=ANN, data={"fighter": bare}))
    told = [event for event in outcome.events if event.key == "control.no_sheet"]
    assert [dict(event.values) for event in told] == [{"names": "Ann", "system": "storyteller", "have": "has"}]
    sheeted = Fighter(BOB, "Bob", npc=True, sheet=Combatant(name="Bob", traits=dict(TRAITS))).to_record()
    added = play(outcome.state, Intent("add", by=GM, fiat=True, data={"fighters": [sheeted]}))
    assert "control.no_sheet" not in keys(added)


def test_at_a_tied_eldritch_slot_next_passes_only_those_still_to_act():
    eldritch = get_system("eldritch")
    traits = {"Dexterity": 4, "Perception": 2, "Brawl": 4, "Strength": 4, "Constitution": 1}
    state = FightState(system="eldritch", gm=GM, fighters=tuple(
        Fighter(fid, name, npc=npc, sheet=Combatant(name=name, traits=dict(traits)))
        for fid, name, npc in ((ANN, "Ann", False), (BOB, "Bob", True))))
    for fighter_id in (ANN, BOB):
        state = step(state, Intent("initiative", actor=fighter_id), eldritch, dice(5)).state
    at, tied = turns.current_slot(view(state, eldritch))
    assert tied == [ANN, BOB]
    state = step(state, Intent("pass", actor=ANN), eldritch, dice()).state
    outcome = step(state, Intent("next", by=GM, fiat=True), eldritch, dice())
    assert [dict(event.values) for event in outcome.events if event.key == "turn.passes"] == [{"names": "Bob"}]
    assert turns.current_slot(view(outcome.state, eldritch))[0] < at   # their next actions, 5 steps on
