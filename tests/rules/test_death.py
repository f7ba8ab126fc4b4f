"""Death needs a decision (docs/rules.md): the rules decide when damage is deadly, the game
who lets it kill. A player character the rules would kill is left dying at the nearest health
that is not dead, in every system, until the game master's ``kill`` or ``spare``; an NPC, or
anyone in a lethal fight, dies as the rules say; every death is told with who allowed it."""

from __future__ import annotations

import pytest

from rules.engine import Fighter, FightState, Intent, step
from rules.engine.draft import Draft
from rules.lines import Dying, Line
from rules.systems import CombatError, get_system
from rules.systems.base import Combatant
from tests.rules.forced_dice import dice
from tests.rules.wording import english

GM, ANN, BOB = 1, 10, 11
TRAITS = {"Strength": 2, "Dexterity": 2, "Stamina": 2, "Constitution": 2, "Wits": 2, "Brawl": 1}

#: system: (a deadly blow, the health left at death's door, its words)
DEADLY = {
    "storyteller": ((10, "lethal"), {"bashing": 0, "lethal": 7, "aggravated": 0, "dead": False},
                    "Incapacitated [LLLLLLL]"),
    "aeon": ((20, "lethal"), {"bashing": 1, "lethal": 6, "aggravated": 0, "extra": 0},
             "Incapacitated (knocked out) [LLLLLLB]"),
    "eldritch": ((100, "lethal"), None, "Down: Life Points -9/"),
    "elethril": ((100, ""), None, "Down -9/"),
}


def fight(system_key: str, **settings) -> FightState:
    fighters = tuple(Fighter(fid, name, npc=npc, sheet=Combatant(name=name, traits=dict(TRAITS)))
                     for fid, name, npc in ((ANN, "Ann", False), (BOB, "Bob", True)))
    return FightState(system=system_key, gm=GM, fighters=fighters, settings=settings)


def blow(state: FightState, fighter_id: int, decided_by: str = "") -> tuple[FightState, list]:
    """The fighter takes the system's deadly blow (stored as an attack stores it)."""
    d = Draft(state, get_system(state.system), dice())
    (amount, kind) = DEADLY[state.system][0]
    d.store_health(fighter_id, d.health(fighter_id).with_damage(amount, kind), decided_by=decided_by)
    d.tell_fates()
    return d.freeze(), d.events


def said(events) -> list[tuple[str, dict]]:
    """The ``said`` events' keys and values, each value as a player reads it."""
    return [(event.key, {name: english(value) for name, value in event.values.items()})
            for event in events if event.kind == "said"]


def health(state: FightState, fighter_id: int):
    return get_system(state.system).health(state.fighter(fighter_id).sheet.health,
                                           state.fighter(fighter_id).sheet)


@pytest.mark.parametrize("system_key", sorted(DEADLY))
def test_a_deadly_blow_leaves_a_player_character_dying_at_deaths_door(system_key):
    state, events = blow(fight(system_key), ANN)
    left = health(state, ANN)
    assert not left.dead and left.incapacitated
    record, text = DEADLY[system_key][1:]
    if record is not None:
        assert dict(state.fighter(ANN).sheet.health) == record
    assert left.describe().startswith(text)
    assert get_system(system_key).health(state.fighter(ANN).conditions["dying"], state.fighter(ANN).sheet).dead
    assert said(events) == [("fight.dying", {"by": "", "name": "Ann"})]
    assert [event.data["dying"] for event in events if event.kind == "health"] == [True]


@pytest.mark.parametrize("system_key", sorted(DEADLY))
def test_an_npc_dies_as_the_rules_say(system_key):
    state, events = blow(fight(system_key), BOB)
    assert health(state, BOB).dead and "dying" not in state.fighter(BOB).conditions
    assert said(events) == [("fight.died", {"by": "the rules (an NPC)", "name": "Bob"})]


def test_in_a_lethal_fight_a_player_character_dies_and_the_room_hears_who_allowed_it():
    state, events = blow(fight("storyteller", lethal="Stella"), ANN)
    assert health(state, ANN).dead
    assert said(events) == [("fight.died", {"by": "Stella (a lethal fight)", "name": "Ann"})]


def test_a_second_deadly_blow_on_the_dying_is_told_once():
    state, _ = blow(fight("eldritch"), ANN)
    state, events = blow(state, ANN)
    assert said(events) == [] and not health(state, ANN).dead and "dying" in state.fighter(ANN).conditions


@pytest.mark.parametrize("system_key", sorted(DEADLY))
def test_the_game_master_lets_the_death_stand(system_key):
    dying, _ = blow(fight(system_key), ANN)
    outcome = step(dying, Intent("kill", by=GM, fiat=True, targets=(ANN,), data={"by_name": "Stella"}),
                   get_system(system_key), dice())
    assert health(outcome.state, ANN).dead and "dying" not in outcome.state.fighter(ANN).conditions
    assert said(outcome.events) == [("fight.died", {"by": "Stella", "name": "Ann"})]
    assert english(outcome.log[0].what) == "kill Ann"


def test_the_game_master_spares_the_dying():
    dying, _ = blow(fight("aeon"), ANN)
    outcome = step(dying, Intent("spare", by=GM, fiat=True, targets=(ANN,), data={"by_name": "Stella"}),
                   get_system("aeon"), dice())
    assert health(outcome.state, ANN).describe() == "Incapacitated (knocked out) [LLLLLLB]"
    assert "dying" not in outcome.state.fighter(ANN).conditions
    assert [event.key for event in outcome.events if event.kind == "said"] == ["fight.spared"]


def test_only_the_game_master_decides_and_only_for_the_dying():
    dying, _ = blow(fight("storyteller"), ANN)
    system = get_system("storyteller")
    with pytest.raises(CombatError, match="Only this scene's Storyteller"):
        step(dying, Intent("kill", by=ANN, actor=ANN, targets=(ANN,)), system, dice())
    with pytest.raises(CombatError, match="Bob is not dying"):
        step(dying, Intent("kill", by=GM, fiat=True, targets=(BOB,)), system, dice())
    with pytest.raises(CombatError, match="Ann is not dying"):
        step(fight("storyteller"), Intent("spare", by=GM, fiat=True, targets=(ANN,)), system, dice())


def test_lethal_and_helpless_are_the_game_masters_switches():
    system = get_system("storyteller")
    on = step(fight("storyteller"), Intent("lethal", by=GM, fiat=True, option="on", data={"by_name": "Stella"}),
              system, dice()).state
    assert on.settings == {"lethal": "Stella"}
    assert FightState.from_record(on.to_record()) == on
    with pytest.raises(CombatError, match="already on"):
        step(on, Intent("lethal", by=GM, fiat=True, option="on"), system, dice())
    assert step(on, Intent("lethal", by=GM, fiat=True, option="off"), system, dice()).state.settings == {}
    with pytest.raises(CombatError, match="Only this scene's Storyteller"):
        step(on, Intent("helpless", by=ANN, option="on"), system, dice())


def test_ending_the_fight_spares_the_dying():
    dying, _ = blow(fight("storyteller"), ANN)
    summary = step(dying, Intent("end", by=GM, fiat=True), get_system("storyteller"), dice()).result
    assert summary[0].key == "line.health_spared"   # worded by the game: "Ann: Incapacitated [LLLLLLL] (dying: …)"
    assert summary[0].values["name"] == "Ann"
    assert summary[0].values["health"].describe() == "Incapacitated [LLLLLLL]"


def test_staff_healing_the_dying_ends_the_decision():
    dying, _ = blow(fight("storyteller"), ANN)
    healed = Fighter(ANN, "Ann", sheet=Combatant(name="Ann", traits=dict(TRAITS), health={"lethal": 5}))
    outcome = step(dying, Intent("refresh", data={"fighter": healed.to_record()}), get_system("storyteller"), dice())
    assert "dying" not in outcome.state.fighter(ANN).conditions
    with pytest.raises(CombatError, match="Ann is not dying"):
        step(outcome.state, Intent("kill", by=GM, fiat=True, targets=(ANN,)), get_system("storyteller"), dice())


def test_the_blows_own_words_say_dying_not_dead():
    d = Draft(fight("eldritch"), get_system("eldritch"), dice())
    deadly = d.health(ANN).with_damage(100, "lethal")
    d.store_health(ANN, deadly)
    d.say("attack.resolved", lines=[f"Ann takes 100 lethal: {deadly.describe()}"])
    assert d.events[-1].lines == (f"Ann takes 100 lethal: {d.health(ANN).describe()}, dying",)
    assert d.health(ANN).describe().startswith("Down: Life Points -9/")


def test_a_deadly_health_within_a_line_within_a_line_says_dying():
    d = Draft(fight("storyteller"), get_system("storyteller"), dice())
    deadly = d.health(ANN).with_damage(100, "lethal")
    d.store_health(ANN, deadly)
    inner = Line("line.health", {"name": "Ann", "health": deadly})
    d.say("attack.resolved", lines=[Line("line.roll_of", {"name": "Ann", "roll": inner}),
                                    Line("line.rolls", {"name": "Ann", "rolls": (inner, "2 levels")})])
    kept = Line("line.health", {"name": "Ann", "health": Dying(d.health(ANN))})
    assert d.events[-1].lines == (Line("line.roll_of", {"name": "Ann", "roll": kept}),
                                  Line("line.rolls", {"name": "Ann", "rolls": (kept, "2 levels")}))
    assert english(d.events[-1].lines[0]) == "Ann Ann: Incapacitated [LLLLLLL], dying"


def test_the_dying_cannot_leave_before_the_decision():
    dying, _ = blow(fight("storyteller"), ANN)
    with pytest.raises(CombatError, match="Ann is dying: the Storyteller decides first"):
        step(dying, Intent("leave", actor=ANN, by=ANN), get_system("storyteller"), dice())
