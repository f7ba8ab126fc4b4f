"""Several actions in one turn, declared before the first (``+combat/split``): for a system
with a multiple-action rule (``RuleSystem.multiple_actions``: aeon, Trinity's rule, whose
penalties are in ``rules.systems.aeon.actions``). The state is the fighter's conditions:

- ``split``: the actions declared this round (absent: one action, no penalty);
- ``actions_used``: the actions taken so far (the turn flow's own counter).

A fighter with actions declared keeps its turn until they are used (or the game master passes
it); the ones left over may still defend this round. The round's end clears both.
"""

from __future__ import annotations

from dataclasses import replace

from rules.engine.draft import Draft
from rules.lines import Line
from rules.systems.base import Combatant

#: The condition the multiple-action rule reads: the penalty of the action being taken.
PENALTY = "action_penalty"


def declared(d: Draft, fighter_id: int) -> int:
    """The actions the fighter declared this round (0: none)."""
    return int(d.conditions_of(fighter_id).get("split") or 0)


def used(d: Draft, fighter_id: int) -> int:
    return int(d.conditions_of(fighter_id).get("actions_used") or 0)


def left(d: Draft, fighter_id: int) -> int | None:
    """The declared actions the fighter has left this round; None when it declared none
    (then the turn flow's one action a round applies)."""
    count = declared(d, fighter_id)
    return max(0, count - used(d, fighter_id)) if count >= 2 else None


def acting(d: Draft, fighter_id: int, *, strict: bool = True) -> Combatant:
    """The fighter as the roll of its next action sees it: with the penalty of that action
    (condition ``action_penalty``) when it declared several. ``strict`` False: a roll forced
    on it (a clinch partner's contest) is never refused."""
    fighter = d.combatant(fighter_id)
    rules, count = d.system.multiple_actions, declared(d, fighter_id)
    if rules is None or count < 2:
        return fighter
    condition = rules.condition(count, used(d, fighter_id), strict=strict)
    return replace(fighter, conditions={**fighter.conditions, PENALTY: condition}) if condition else fighter


def spend(d: Draft, fighter_id: int) -> int:
    """One more action used; returns how many of the declared are left."""
    d.update_conditions(fighter_id, actions_used=used(d, fighter_id) + 1)
    return max(0, declared(d, fighter_id) - used(d, fighter_id))


def end_turn(d: Draft, fighter_id: int, at: int | None) -> None:
    """Mark the fighter's slot ``at`` of this round as used (its turn is over)."""
    if at is not None and (at, fighter_id) not in d.acted:
        d.acted.append((at, fighter_id))


def hud_lines(d: Draft) -> list[Line]:
    """``"Actions: Alice 1 of 2 actions left"`` for those who declared several this round."""
    fighters = None
    for fighter_id in d.ids():
        if declared(d, fighter_id) >= 2:
            part = Line("line.split_actions_left", {"name": d.name(fighter_id), "left": left(d, fighter_id),
                                              "declared": declared(d, fighter_id)})
            fighters = part if fighters is None else Line("line.list_next", {"names": fighters, "name": part})
    return [Line("line.split_actions", {"fighters": fighters})] if fighters is not None else []
