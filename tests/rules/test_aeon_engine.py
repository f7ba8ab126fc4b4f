"""Aeon's own actions through the pure engine (``rules.engine.step``; the game tier plays the
same through the commands): a split, the mount's Ride roll before an attack, hiding then an
ambush, a clinch contest, treating a bleeding wound. Forced dice; every state reads back from
its record, and a refusal keeps nothing."""

from __future__ import annotations

import pytest

from rules.engine import Fighter, FightState, Intent, splits, step, turns, view
from rules.systems import CombatError, get_system
from rules.systems.base import Combatant
from tests.rules.forced_dice import dice, done
from tests.rules.wording import english, englished

GM, ANN, BOB = 1, 10, 11
ANN_SHEET = {"Dexterity": 3, "Brawl": 2, "Strength": 2, "Wits": 2, "Stamina": 2, "Stealth": 2, "Awareness": 1,
             "Athletics": 1, "Ride": 1}
BOB_SHEET = {"Wits": 2, "Dexterity": 2, "Stamina": 1, "Strength": 3, "Brawl": 1, "Athletics": 1, "Awareness": 1}
SYSTEM = get_system("aeon")


def fighter(fighter_id: int, name: str, traits: dict, npc: bool = False, health: dict | None = None) -> dict:
    return Fighter(fighter_id, name, npc=npc,
                   sheet=Combatant(name=name, traits=traits, health=health or {})).to_record()


def play(state: FightState, intent: Intent, *faces: int):
    roller = dice(*faces)
    outcome = step(state, intent, SYSTEM, roller)
    done(roller)
    assert FightState.from_record(outcome.state.to_record()) == outcome.state
    return outcome


def said(outcome) -> str:
    return "\n".join(english(line) for event in outcome.events for line in (event.key, *event.lines))


@pytest.fixture
def fight() -> FightState:
    """Ann (initiative 10) and the NPC Bob (5): Ann's turn."""
    state = FightState(system="aeon")
    for intent, faces in ((Intent("start", by=GM, fiat=True), ()),
                          (Intent("join", actor=ANN, data={"fighter": fighter(ANN, "Ann", ANN_SHEET)}), ()),
                          (Intent("join", actor=BOB, data={"fighter": fighter(BOB, "Bob", BOB_SHEET, npc=True)}), ()),
                          (Intent("initiative", actor=ANN), (5,)), (Intent("initiative", actor=BOB), (1,))):
        state = play(state, intent, *faces).state
    assert turns.current_slot(view(state, SYSTEM))[1] == [ANN]
    return state


def conditions(state: FightState, fighter_id: int) -> dict:
    return dict(state.fighter(fighter_id).conditions)


def test_a_split_then_two_punches_at_minus_2_and_minus_3(fight):
    state = play(fight, Intent("split", actor=ANN, option="2")).state
    assert conditions(state, ANN)["split"] == 2
    outcome = play(state, Intent("attack", actor=ANN, targets=(BOB,)), 2, 2, 2)
    assert "punch to hit: Dexterity 3 + Brawl 2 - 2 (action 1 of 2) = 3 dice" in said(outcome)
    assert turns.current_slot(view(outcome.state, SYSTEM))[1] == [ANN]
    outcome = play(outcome.state, Intent("attack", actor=ANN, targets=(BOB,)), 2, 2)
    assert "- 3 (action 2 of 2) = 2 dice" in said(outcome)
    assert turns.current_slot(view(outcome.state, SYSTEM))[1] == [BOB]


def test_the_hud_lists_each_split_fighter_s_actions_left(fight):
    state = play(fight, Intent("split", actor=ANN, option="2")).state
    assert englished(splits.hud_lines(view(state, SYSTEM))) == ["Actions: Ann 2 of 2 actions left"]
    state = play(state, Intent("attack", actor=ANN, targets=(BOB,)), 2, 2, 2).state
    state = play(state, Intent("split", by=GM, fiat=True, actor=BOB, option="3")).state
    assert englished(splits.hud_lines(view(state, SYSTEM))) == ["Actions: Ann 1 of 2 actions left, Bob 3 of 3 actions left"]
    assert splits.hud_lines(view(fight, SYSTEM)) == []


def test_a_split_is_refused_after_the_first_action(fight):
    state = play(fight, Intent("attack", actor=ANN, targets=(BOB,)), 2, 2, 2, 2, 2).state
    before = state.to_record()
    with pytest.raises(CombatError, match="actions are split before the first"):
        step(state, Intent("split", actor=ANN, option="2"), SYSTEM, dice())
    assert state.to_record() == before


def test_a_lost_ride_roll_loses_the_turn(fight):
    state = play(fight, Intent("mount", actor=ANN, option="horse")).state
    outcome = play(state, Intent("attack", actor=ANN, targets=(BOB,)), 9, 2)
    text = said(outcome)
    assert "Ann is counted as taking 2 actions: the Ride roll at -2, the attack at -3." in text
    assert "Ann loses control of the Horse!" in text and "Ann has no attack this turn." in text
    assert outcome.state.pending == ()
    assert turns.open_actions(view(outcome.state, SYSTEM), ANN) == []


def test_hiding_then_an_ambush_from_hiding(fight):
    outcome = play(fight, Intent("hide", actor=ANN), 9, 9, 8, 8, 1, 6, 2, 2)
    assert conditions(outcome.state, ANN)["hidden_from"] == [BOB]
    state = play(outcome.state, Intent("next", by=GM, fiat=True)).state   # Bob passes: round 2
    outcome = play(state, Intent("ambush", actor=ANN, targets=(BOB,)), 9, 9, 2, 2, 2, 2, 2, 2, 9, 2, 2, 2, 2, 7, 2)
    assert "Ann wins (2 to 0): Bob cannot defend" in said(outcome)
    assert "hidden_from" not in conditions(outcome.state, ANN)
    assert view(outcome.state, SYSTEM).health(BOB).bashing == 1


def test_a_clinch_contest_crushes(fight):
    state = play(fight, Intent("attack", actor=ANN, targets=(BOB,), option="clinch"), 8, 8, 1, 1, 1).state
    state = play(state, Intent("defend", actor=BOB, option="none")).state
    assert conditions(state, BOB)["clinch_with"] == ANN
    state = play(state, Intent("next", by=GM, fiat=True)).state
    outcome = play(state, Intent("clinch", actor=ANN, option="crush"), 9, 9, 8, 2, 2, 7, 2, 2, 2, 7, 7, 7, 1)
    assert "Bob takes 3 levels of bashing" in said(outcome)
    assert conditions(outcome.state, ANN)["contested"] is True
    assert turns.open_actions(view(outcome.state, SYSTEM), BOB) == []


def test_the_game_master_treats_a_bleeding_wound(fight):
    state = play(fight, Intent("refresh", actor=ANN, data={"fighter": fighter(
        ANN, "Ann", ANN_SHEET, health={"bashing": 0, "lethal": 3, "aggravated": 0})})).state
    with pytest.raises(CombatError, match="Bob is not bleeding"):
        step(state, Intent("treat", by=GM, fiat=True, targets=(BOB,)), SYSTEM, dice())
    outcome = play(state, Intent("treat", by=GM, fiat=True, targets=(ANN,), data={"by_name": "GM"}))
    assert conditions(outcome.state, ANN)["treated"] is True
    assert [event.key for event in outcome.events] == ["aeon.treat"]
    assert SYSTEM.condition_marks(conditions(outcome.state, ANN)) == ("treated",)
