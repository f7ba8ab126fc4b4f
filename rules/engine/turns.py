"""The turn flow, written once for every system that plays turns in initiative order: the
schedule of the round, whose turn it is, the actions used, passing over those who cannot act,
the round's end and the next round's start.

The schedule is derived from the stored initiative each time (the system's ``schedule``, with
the game master's order for this round laid over it: ``rules.systems.acting_order``), so it is
the same on every listing and after a reload. A system that declares its rounds
(``RuleSystem.declared_rounds``: elethril) plays them with its own actions and never calls
the turn functions here. Every function raises ``CombatError`` (one player-facing line) and
changes nothing the step keeps when it refuses.
"""

from __future__ import annotations

from dataclasses import replace

from rules.engine import order as acting_order
from rules.engine import splits
from rules.engine.conditions import ROUND
from rules.engine.draft import Draft
from rules.lines import Line
from rules.systems.base import ActionSchedule, Combatant, CombatError, InitiativeRoll


# ------------------------------------------------------------------------------ schedule
def initiative_rolls(d: Draft) -> list[InitiativeRoll]:
    """The initiative of the fighters in the fight, each under its name now (a fighter
    renamed since it rolled keeps its place)."""
    return [InitiativeRoll.from_record({**record, "name": d.name(fighter_id)})
            for fighter_id, record in d.initiative.items() if fighter_id in d.fighters]


def schedule(d: Draft) -> ActionSchedule:
    """This round's schedule: the system's, in the game master's order when one was set
    (worked out once for the initiative, names and order it comes from)."""
    key = (tuple((fighter_id, record.get("total"), record.get("tiebreak"), d.name(fighter_id))
                 for fighter_id, record in d.initiative.items() if fighter_id in d.fighters),
           d.round, repr(d.order))
    kept = d.kept.get("schedule")
    if kept is None or kept[0] != key:
        kept = d.kept["schedule"] = (key, acting_order.apply(d.system.schedule(initiative_rolls(d)), d.order,
                                                             d.round))
    return kept[1]


def used_actions(d: Draft) -> set[tuple[int, int]]:
    """The actions used this round, as ``(slot, fighter id)``."""
    return set(d.acted)


def open_actions(d: Draft, fighter_id: int) -> list[int]:
    """The slots of the fighter's actions this round not used yet, in order."""
    used = used_actions(d)
    name = d.name(fighter_id)
    return [slot.at for slot in schedule(d).slots if name in slot.names and (slot.at, fighter_id) not in used]


def able(d: Draft, fighter_id: int) -> bool:
    return d.system.can_act(d.combatant(fighter_id))


def current_slot(d: Draft) -> tuple[int | None, list[int]]:
    """(slot, the fighters in it still to act): the first slot with an unused action of
    someone able to act (the incapacitated and the dead are passed over); (None, []) when
    the round's actions are all used."""
    return first_waiting(schedule(d), used_actions(d), d.by_name(), lambda fighter_id: able(d, fighter_id))


def first_waiting(order: ActionSchedule, used: set, named: dict[str, int], is_able) -> tuple[int | None, list[int]]:
    ids = {name: fighter_id for name, fighter_id in named.items() if is_able(fighter_id)}
    for slot in order.slots:
        waiting = [ids[name] for name in slot.names if name in ids and (slot.at, ids[name]) not in used]
        if waiting:
            return slot.at, waiting
    return None, []


def ends_round(d: Draft) -> bool:
    """Whether passing those now to act would leave nobody to act this round (the next
    ``+combat/next`` starts a new round)."""
    at, waiting = current_slot(d)
    passed = used_actions(d) | {(at, fighter_id) for fighter_id in waiting}
    return not first_waiting(schedule(d), passed, d.by_name(), lambda fighter_id: able(d, fighter_id))[1]


def has_acted(d: Draft, fighter_id: int) -> bool:
    """Whether the fighter rolled initiative and has no action left this round."""
    return d.has_initiative(fighter_id) and not open_actions(d, fighter_id)


def out_of_actions(d: Draft, fighter_id: int) -> bool:
    """No action left this round to defend with: the slot used, or, with several actions
    declared (``splits``), every declared action used."""
    left = splits.left(d, fighter_id)
    return has_acted(d, fighter_id) if left is None else left == 0


def use_action(d: Draft, fighter_id: int, at: int | None = None, *, counts: bool = True) -> None:
    """Spend the fighter's action at slot ``at`` (default: its next unused one); ``counts``
    False (a pass) leaves ``actions_used`` (what later actions are penalised by) as it was.
    The system's ``after_action`` follows (a stun wearing off …)."""
    remaining = open_actions(d, fighter_id)
    if counts and d.conditions_of(fighter_id).get("last_attack"):
        d.update_conditions(fighter_id, last_attack=None)   # another action since that attack
    if at is None:
        at = remaining[0] if remaining else None
    if counts and splits.left(d, fighter_id) is not None:
        # several actions declared: each one counts, and the turn lasts until none is left
        if not splits.spend(d, fighter_id) and at in remaining:
            splits.end_turn(d, fighter_id, at)
        return
    if at is not None and at in remaining:
        d.acted.append((at, fighter_id))
        effect = d.system.after_action(d.combatant(fighter_id), passed=not counts)
        changes = dict(effect.conditions) if effect is not None else {}
        if counts:
            changes["actions_used"] = int(d.conditions_of(fighter_id).get("actions_used", 0)) + 1
        if changes:
            d.update_conditions(fighter_id, **changes)
        if effect is not None and effect.lines:
            d.add_log(d.name(fighter_id), Line("title.after_action"), effect.lines)
            d.say("turn.after_action", refs={"target": fighter_id}, lines=effect.lines)


def use_turn(d: Draft, fighter_id: int) -> None:
    """Spend the action of the turn the fighter is taking now."""
    use_action(d, fighter_id, current_slot(d)[0])


def struck(d: Draft, fighter_id: int) -> Combatant:
    """The fighter as an attack on it is resolved: with ``actions_left``, its unused slots
    this round, once it has rolled initiative (eldritch's Ear Pop stun)."""
    fighter = d.combatant(fighter_id)
    if not d.has_initiative(fighter_id):
        return fighter
    return replace(fighter, conditions={**fighter.conditions, "actions_left": len(open_actions(d, fighter_id))})


# -------------------------------------------------------------------------------- checks
def require_able(d: Draft, fighter_id: int) -> None:
    """Raises CombatError, in the system's words (incapacitated, knocked out, down, out
    cold), when the fighter cannot act."""
    fighter = d.combatant(fighter_id)
    if not d.system.can_act(fighter):
        d.system.refuse_unable(fighter)


def require_turn(d: Draft, fighter_id: int) -> None:
    """Raises CombatError unless it is the fighter's turn and it has an action left. One who
    cannot act is told why first, in its system's words, not that it has acted."""
    require_able(d, fighter_id)
    name = d.name(fighter_id)
    owed = next((pending for pending in d.pending if pending.target == fighter_id), None)
    if owed is not None:
        raise CombatError(owed_defense(d, owed))
    if not d.has_initiative(fighter_id):
        raise CombatError(Line("refusal.has_no_initiative_yet_combat", {"name": name}))
    if has_acted(d, fighter_id):
        raise CombatError(Line("refusal.has_already_acted_this_round_other", {"name": name}))
    _, waiting = current_slot(d)
    if fighter_id not in waiting:
        names = ", ".join(d.name(item) for item in waiting) or "nobody"
        raise CombatError(Line("refusal.not_turn_waiting", {"name": name, "names": names}))
    if any(pending.attacker == fighter_id for pending in d.pending):
        raise CombatError(Line("refusal.attack_still_waiting_for", {"name": name}))


def owed_defense(d: Draft, pending) -> Line:
    """What an attack waiting on its target's defense asks of them, said to whoever tries to
    act for the target first: ``"Guard's punch waits for your defense first: defend
    dodge|block|parry|none."`` (an NPC's: ``defend Guard=dodge|...``)."""
    target = pending.target
    rolled = d.attack_of(pending.attack)
    choices = "|".join((*d.system.defense_choices(rolled, d.combatant(target)), "none"))
    values = {"attacker": d.name(pending.attacker), "label": rolled.label, "target": d.name(target),
              "choices": choices}
    if d.by == target:
        return Line("refusal.waits_for_your_defense_npc" if d.is_npc(target) else "refusal.waits_for_your_defense",
                    values)
    return Line("refusal.waits_for_defense_npc" if d.is_npc(target) else "refusal.waits_for_defense", values)


def require_free(d: Draft, fighter_id: int) -> None:
    """Raises CombatError when a clinch or a hold leaves the fighter only its way out."""
    state = d.conditions_of(fighter_id)
    name = d.name(fighter_id)
    if state.get("clinch_with") and not (d.system.free_in_clinch(state) and splits.left(d, fighter_id)):
        raise CombatError(Line("refusal.clinch_contest_control_with", {"name": name}))
    if state.get("held_by"):
        raise CombatError(Line("refusal.held_can_only_try", {"name": name}))


def awaiting_initiative(d: Draft) -> list[int]:
    """The fighters able to act, and not idle, who have not rolled initiative yet."""
    return [fighter_id for fighter_id in d.ids() if not d.has_initiative(fighter_id) and not d.is_idle(fighter_id)
            and able(d, fighter_id)]


# ---------------------------------------------------------------------------- moving on
def pass_over_unable(d: Draft) -> None:
    """Spend, as passes, the actions the turn has moved past of those who could not act then
    (down, stunned …), so that healing or waking them later does not take the turn back.
    Nothing goes by while someone able still has to roll initiative (their slot may come
    first)."""
    if awaiting_initiative(d):
        return
    at, _ = current_slot(d)
    named = d.by_name()
    used = used_actions(d)
    for slot in schedule(d).slots:
        for name in slot.names:
            fighter_id = named.get(name)
            if fighter_id is not None and (slot.at, fighter_id) not in used and not able(d, fighter_id):
                use_action(d, fighter_id, slot.at, counts=False)
                # a slot lost (stunned, out cold, down) is their last action: no attack then
                d.update_conditions(fighter_id, last_attack=None)
        if slot.at == at:
            return


def moved_to(d: Draft, key: tuple) -> None:
    """Note that the fight is on turn ``key`` (any value naming it): a new key counts one
    more turn (``FightState.turn``), so a late ``+combat/next`` can tell it came too late."""
    key = tuple(key)
    if tuple(d.turn_key) != key:
        d.turn_key = key
        d.turn += 1


def announce_turn(d: Draft, *, only_if_moved: bool = False) -> None:
    """Tell the room whose turn it is now (after passing over those who cannot act), or what
    the round waits for; prompt those to act (an NPC's game master, not one the AI runs).
    ``only_if_moved``: say nothing when the turn is the one already told (an initiative roll
    that does not change who is to act), nor while an attack waits for its defense (the
    defense's resolution tells the turn; told now, it would prompt the fighter next in order
    to attack before their defense)."""
    if only_if_moved and d.pending:
        return
    pass_over_unable(d)
    at, waiting = current_slot(d)
    before = d.turn
    moved_to(d, ("slot", int(d.round), at, [*waiting]))
    if only_if_moved and waiting and d.turn == before:
        return   # the same fighters to act: told already
    d.emit("turn", data={"round": int(d.round), "slot": at, "waiting": [d.name(item) for item in waiting]})
    if waiting:
        d.say("turn.to_act", values={"round": d.round, "names": ", ".join(d.name(item) for item in waiting)})
        for fighter_id in waiting:
            if fighter_id in d.ai:
                continue   # the AI takes its turn: no prompt meant for a person
            key = "turn.prompt_clinch" if d.conditions_of(fighter_id).get("clinch_with") else "turn.prompt"
            d.tell_controller(fighter_id, key, values={"name": d.name(fighter_id)})
    elif not initiative_rolls(d):
        d.say("turn.roll_initiative", values={"round": d.round})
    elif rolling := awaiting_initiative(d):
        d.say("turn.awaiting_initiative", values={"round": d.round,
                                                  "names": ", ".join(d.name(item) for item in rolling)})
    else:
        d.say("turn.all_acted", values={"round": d.round})


def start_round(d: Draft) -> None:
    """What the rules make happen to each fighter as the round begins (aeon: bleeding)."""
    for fighter_id in d.ids():
        effect = d.system.start_of_round(d.combatant(fighter_id), int(d.round))
        if effect is None:
            continue
        if effect.health is not None:
            d.store_health(fighter_id, effect.health)
        d.update_conditions(fighter_id, **effect.conditions)
        if effect.lines:
            d.add_log(d.name(fighter_id), Line("title.start_of_round"), effect.lines)
            d.say("turn.start_of_round", refs={"target": fighter_id}, lines=effect.lines)


def next_round(d: Draft) -> None:
    """The round is over: the next one begins (actions, defenses and splits reset, the game
    master's order forgotten, initiative rolled anew where the system rolls every round)."""
    d.round = int(d.round) + 1
    d.acted = []
    d.order = None
    cleared = {key: None for key in (*ROUND, *d.system.round_conditions)}
    for fighter_id in d.ids():
        d.update_conditions(fighter_id, **cleared)
    if d.system.reroll_each_round:
        d.initiative = {}
    d.say("turn.round_begins", values={"round": d.round})
    start_round(d)


def pass_turn(d: Draft) -> None:
    """The game master's ``+combat/next``: those still to act in the current slot pass; a new
    round starts after the last, once everyone able has rolled initiative. Raises CombatError
    (nothing passes) while a defense is awaited, or when only initiative rolls are awaited."""
    if d.pending:
        raise CombatError(Line("refusal.nothing_passed_let_them", {"waiting": defenses_line(d)}))
    if not initiative_rolls(d):
        raise CombatError(Line("refusal.nobody_has_rolled_initiative"))
    at, waiting = current_slot(d)
    rolling = awaiting_initiative(d)
    if rolling and not waiting:
        raise CombatError(Line("refusal.nothing_passed_waiting_for", {"rolling": ', '.join(d.name(item) for item in rolling)}))
    if waiting:
        for fighter_id in waiting:
            use_action(d, fighter_id, at, counts=False)  # a pass is no action taken
        names = ", ".join(d.name(item) for item in waiting)
        d.say("turn.passes" if len(waiting) == 1 else "turn.pass", values={"names": names})
    if not current_slot(d)[1] and not rolling:   # a round never ends before all able have rolled
        next_round(d)
    announce_turn(d)


# ------------------------------------------------------------------------------ words
def turn_line(d: Draft, waiting: list[int]) -> Line:
    """The HUD's "Turn:": who is to act, or what the round waits for; then any defense
    the fight waits for (:func:`defenses_line`)."""
    if waiting:
        turn = Line("line.turn_names", {"names": ", ".join(d.name(item) for item in waiting)})
    elif not initiative_rolls(d) or awaiting_initiative(d):
        turn = Line("line.turn_awaiting_initiative")
    else:
        turn = Line("line.turn_round_over")
    return _with_defenses(d, turn)


def defenses_line(d: Draft) -> Line | None:
    """``"waiting for Bob's defense"`` while attacks wait on their targets (each target
    once), else None."""
    targets = list(dict.fromkeys(pending.target for pending in d.pending))
    if not targets:
        return None
    names = [Line("line.whose", {"name": d.name(target)}) for target in targets]
    listed = names[0]
    for index, name in enumerate(names[1:], start=2):
        listed = Line("line.list_last" if index == len(names) else "line.list_next", {"names": listed, "name": name})
    return Line("line.waiting_for_defense" if len(targets) == 1 else "line.waiting_for_defenses", {"names": listed})


def now_line(d: Draft) -> Line:
    """Whose turn it is, in a few words ("Round 2, Bob's turn; waiting for Ann's defense")."""
    waiting = current_slot(d)[1]
    if waiting:
        names = ", ".join(d.name(item) for item in waiting)
        turn = Line("line.now_turn_s" if names.endswith("s") else "line.now_turn",
                    {"round": int(d.round), "names": names})
        return _with_defenses(d, turn)
    return Line("line.now_round", {"round": int(d.round), "now": turn_line(d, waiting)})


def _with_defenses(d: Draft, turn: Line) -> Line:
    """``turn``, then the defenses the fight waits for, if any (``"Bob; waiting for Ann's
    defense"``)."""
    defenses = defenses_line(d)
    return turn if defenses is None else Line("line.turn_and_defenses", {"turn": turn, "defenses": defenses})
