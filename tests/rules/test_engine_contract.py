"""The engine's contract, for every rule system that plays turns and for ``duel``, a fifth
system that lives only in the tests (``tests/fifth``): whole fights through ``step`` alone:
start, join, initiative, attack, defense, damage, a knock-out, rounds that end and begin;
every state reads back from its record; nothing a step refused is kept."""

from __future__ import annotations

import random

import pytest

from rules.dice import QueuedRoller, RandomRoller
from rules.engine import Fighter, FightState, Intent, step, turns, view
from rules.engine.replay import Diverged, Logged, TapeRoller, digest, replay
from rules.systems import CombatError, get_system
from rules.systems.base import Combatant
from tests import fifth
from tests.rules.wording import english


@pytest.fixture(autouse=True)
def duel_known():
    with fifth.known():
        yield


GM, ANN, BOB = 1, 10, 11

#: Sheets that fight each system to a knock-out in a few rounds.
SHEETS = {
    "storyteller": {"Dexterity": 4, "Brawl": 4, "Strength": 4, "Stamina": 1, "Wits": 2, "Dodge": 1},
    "aeon": {"Dexterity": 4, "Brawl": 4, "Strength": 4, "Stamina": 1, "Wits": 2, "Athletics": 1},
    "eldritch": {"Dexterity": 4, "Brawl": 4, "Strength": 4, "Constitution": 1, "Perception": 2},
    "elethril": {"THAC0": 10, "Armor Class": 10, "Hit Points": 3},
    "duel": {"Might": 2, "Guard": 1},
}


def fighter(fighter_id: int, name: str, system_key: str) -> dict:
    return Fighter(fighter_id, name, sheet=Combatant(name=name, traits=SHEETS[system_key])).to_record()


def begin(system, dice):
    """A fight of ``system``: Ann and Bob joined, both with initiative; the outcomes so far."""
    steps = [Intent("start", by=GM, fiat=True), Intent("join", actor=ANN, data={"fighter": fighter(ANN, "Ann", system.key)}),
             Intent("join", actor=BOB, data={"fighter": fighter(BOB, "Bob", system.key)})]
    if not system.declared_rounds:   # rounds declared first: initiative comes with the declarations
        steps += [Intent("initiative", actor=ANN), Intent("initiative", actor=BOB)]
    state, played = FightState(system=system.key), []
    for intent in steps:
        outcome = step(state, intent, system, dice)
        played.append((intent, outcome))
        state = outcome.state
    return state, played


def next_intent(system, state, ann: int = ANN, bob: int = BOB) -> Intent:
    """What a fighter (or the game master) does next: defend the waiting attack with the
    first defense, roll a missing initiative, attack the other on one's turn, else pass the
    round on (``ann`` and ``bob``: the two fighters' ids)."""
    d = view(state, system)
    if system.declared_rounds:   # each declares an attack on the other; the game master plays the round
        declaring = system.to_declare(d)
        if declaring:
            return Intent("attack", actor=declaring[0], targets=(bob if declaring[0] == ann else ann,))
        return Intent("next", by=state.gm, fiat=True)
    if d.pending:
        return Intent("defend", actor=d.pending[0].target, option=(*system.defense_names, "none")[0])
    if awaiting := turns.awaiting_initiative(d):
        return Intent("initiative", actor=awaiting[0])
    _, waiting = turns.current_slot(d)
    if waiting:
        actor = waiting[0]
        return Intent("attack", actor=actor, targets=(bob if actor == ann else ann,))
    return Intent("next", by=state.gm, fiat=True)


@pytest.mark.parametrize("key", sorted(SHEETS))
@pytest.mark.parametrize("seed", range(5))
def test_a_whole_fight_to_a_knock_out(key, seed):
    system = get_system(key)
    dice = RandomRoller(random.Random(seed))
    state, played = begin(system, dice)
    rounds = {state.round}
    for _ in range(300):
        d = view(state, system)
        if any(d.health(fighter_id).incapacitated for fighter_id in d.ids()):
            break
        intent = next_intent(system, state)
        try:
            outcome = step(state, intent, system, dice)
        except CombatError:   # a defense the rules refuse here: none
            intent = Intent("defend", actor=intent.actor, option="none")
            outcome = step(state, intent, system, dice)
        played.append((intent, outcome))
        assert FightState.from_record(outcome.state.to_record()) == outcome.state
        state = outcome.state
        rounds.add(state.round)
    d = view(state, system)
    down = [fighter_id for fighter_id in d.ids() if d.health(fighter_id).incapacitated]
    assert down, f"nobody down after {len(played)} steps"
    assert len(rounds) > 1   # rounds ended and began
    kinds = {event.kind for _, outcome in played for event in outcome.events}
    assert {"said", "notice", "health"} | ({"turn"} if not system.declared_rounds else set()) <= kinds
    resolved = "at " if system.declared_rounds else "attack on"   # elethril logs "fist at Bob" as it strikes
    assert any(resolved in english(entry.what) for _, outcome in played for entry in outcome.log)


@pytest.mark.parametrize("key", sorted(SHEETS))
def test_a_refused_step_keeps_nothing(key):
    system = get_system(key)
    state, _ = begin(system, RandomRoller(random.Random(1)))
    before = state.to_record()
    if system.declared_rounds:
        with pytest.raises(CombatError, match="yourself"):
            step(state, Intent("attack", actor=ANN, targets=(ANN,)), system, RandomRoller())
    else:
        _, waiting = turns.current_slot(view(state, system))
        other = ANN if waiting[0] == BOB else BOB
        with pytest.raises(CombatError, match="turn"):
            step(state, Intent("attack", actor=other, targets=(waiting[0],)), system, RandomRoller())
    assert state.to_record() == before


@pytest.mark.parametrize("key", sorted(SHEETS))
def test_a_fight_replays_from_its_intents_and_dice(key):
    system = get_system(key)
    dice = QueuedRoller([], RandomRoller(random.Random(7)))
    state, played = begin(system, dice)
    for _ in range(12):
        intent = next_intent(system, state)
        try:
            outcome = step(state, intent, system, dice)
        except CombatError:
            continue
        played.append((intent, outcome))
        state = outcome.state
    logged = [Logged(number, intent, [{"forced": True, "sides": sides, "face": face} for sides, face in outcome.dice],
                     digest(outcome.state)) for number, (intent, outcome) in enumerate(played, start=1)]
    assert replay(system, logged, state).matches
    tampered = list(logged)
    changed = next(i for i, entry in enumerate(logged) if entry.dice)
    faces = [dict(die) for die in logged[changed].dice]
    faces[0]["face"] = faces[0]["face"] % faces[0]["sides"] + 1
    tampered[changed] = Logged(logged[changed].number, logged[changed].intent, faces, logged[changed].after)
    result = replay(system, tampered, state)
    assert not result.matches and result.diverged_at == logged[changed].number


def test_a_replayed_intent_that_draws_other_dice_says_which_in_words():
    """The tape gives back an intent's dice: a die of other sides, one the seed does not give
    (face(bytes(32), 1, 10) is 6), or one more than were drawn is named, in the catalogue's words."""
    def why(records, rolls, seed=None):
        tape = TapeRoller(records, seed)
        with pytest.raises(Diverged) as raised:
            for sides in rolls:
                tape.roll(sides)
        return english(raised.value.why)

    assert why([{"forced": True, "sides": 10, "face": 4}], [6]) == "die 1 is a d6 where a d10 was drawn"
    assert why([{"counter": 1, "sides": 10, "face": 9}], [10], bytes(32)) == \
        "die 1 (counter 1) shows 9, the seed gives 6"
    assert why([{"forced": True, "sides": 10, "face": 4}], [10, 10]) == "it draws more dice than the 1 it drew"


def test_a_replay_the_rules_now_refuse_says_so_with_the_refusal_s_own_words():
    system = get_system("storyteller")
    result = replay(system, [Logged(1, Intent("dance", actor=ANN), [])], FightState(system="storyteller"))
    assert (result.played, result.diverged_at, result.matches) == (0, 1, False)
    assert english(result.why) == "the rules now refuse it: The storyteller rules have no 'dance'."


def test_duel_exact_numbers():
    """The fifth system's own arithmetic: Ann (Might 2) rolls initiative 5+2, Bob 1+2; Ann
    swings 3+2 = 5 (4 hits), Bob parries 2+1 = 3: a wound."""
    system = get_system("duel")
    state, _ = begin(system, QueuedRoller([5, 1], RandomRoller()))
    assert turns.current_slot(view(state, system))[1] == [ANN]
    state = step(state, Intent("attack", actor=ANN, targets=(BOB,)), system, QueuedRoller([3], RandomRoller())).state
    assert [pending.target for pending in state.pending] == [BOB]
    outcome = step(state, Intent("defend", actor=BOB, option="parry"), system, QueuedRoller([2], RandomRoller()))
    assert view(outcome.state, system).health(BOB).describe() == "2/3 wounds"
    said = [event for event in outcome.events if event.kind == "said"]
    assert said[0].key == "attack.resolved" and said[0].lines == ("Bob parries: 3", "Bob takes a wound: 2/3 wounds")


@pytest.mark.parametrize("key", ["storyteller", "aeon", "eldritch"])
def test_an_initiative_rolled_while_an_attack_waits_for_its_defense_tells_no_turn(key):
    """The turn is told once the defense resolves: told as the roll comes in, it would send the
    fighter next in order an attack prompt while their defense still waits."""
    system = get_system(key)
    state, _ = begin(system, RandomRoller(random.Random(1)))
    _, waiting = turns.current_slot(view(state, system))
    attacker = waiting[0]
    target = BOB if attacker == ANN else ANN
    sure_hit = QueuedRoller([9] * 20, RandomRoller(random.Random(2)))   # every die a 9: a hit
    state = step(state, Intent("attack", actor=attacker, targets=(target,)), system, sure_hit).state
    assert view(state, system).pending   # the attack waits for the target's defense
    joined = step(state, Intent("initiative", actor=12, by=GM, fiat=True, data={"fighter": fighter(12, "Cat", key)}),
                  system, RandomRoller(random.Random(3)))
    told = [event.key for event in joined.events if event.kind in ("said", "notice")]
    assert "initiative.rolled" in told
    assert not any(key.startswith("turn.") for key in told), told
    assert joined.state.turn == state.turn
    defended = step(joined.state, Intent("defend", actor=target, option="none"), system, RandomRoller(random.Random(4)))
    assert any(event.key == "turn.to_act" for event in defended.events)
