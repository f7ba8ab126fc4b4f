"""Aeon multiple actions in a fight: the declaration, the actions left, the penalty of the
action being taken, and the mount's Ride roll spending one of them (the aeon seed:
Grappling, "actions may be split as normal"; Mounted Combat, "spend a dice action on a Ride
roll every turn"; the rule is Trinity's, ``rules.systems.aeon_actions``).

The state lives in the fighter's conditions in the fight (``world.fights``), so it survives a
reload; the round change clears it (``world.encounters.next_turn``):

- ``split``: the actions declared this round (absent: one action, no penalty, as before);
- ``actions_used``: the actions taken so far (the turn engine's own counter);
- ``ridden``: this round's Ride roll is made;
- ``contested``: this round the fighter contested control of its clinch.

A fighter with actions declared keeps its turn until they are used (or the Storyteller
passes it); the ones left over may still defend this round. This module imports only
``world.fight``, so the turn engine (``world.encounters``) can use it.
"""

from __future__ import annotations

from dataclasses import replace

from rules.systems.aeon_actions import PENALTY
from rules.systems.aeon_tactics import Mount
from rules.systems.base import Combatant
from world import dice
from world.fight import (
    add_log,
    announce,
    combatant,
    conditions_of,
    fighters,
    system_of,
    update_conditions,
)


def rules_of(system):
    """The system's multiple-action rule (aeon), or None."""
    return getattr(system, "multiple_actions", None)


def declared(encounter, obj) -> int:
    """The actions ``obj`` declared this round (0: none)."""
    return int(conditions_of(encounter, obj).get("split") or 0)


def used(encounter, obj) -> int:
    return int(conditions_of(encounter, obj).get("actions_used") or 0)


def left(encounter, obj) -> int | None:
    """The declared actions ``obj`` has left this round; None when it declared no split
    (then the turn engine's one action a round applies, as before)."""
    count = declared(encounter, obj)
    return max(0, count - used(encounter, obj)) if count >= 2 else None


def acting(encounter, obj, system=None, *, strict: bool = True) -> Combatant:
    """``obj``'s snapshot for the roll of its next action: with the split penalty of that
    action (``conditions["action_penalty"]``) when it declared several. ``strict`` False: a
    roll forced on it (a clinch partner's contest) is never refused."""
    system = system or system_of(encounter)
    fighter = combatant(encounter, obj, system)
    rules, count = rules_of(system), declared(encounter, obj)
    if rules is None or count < 2:
        return fighter
    condition = rules.condition(count, used(encounter, obj), strict=strict)
    return replace(fighter, conditions={**fighter.conditions, PENALTY: condition}) if condition else fighter


def spend(encounter, obj) -> int:
    """One more action used; returns how many of the declared are left."""
    update_conditions(encounter, obj, actions_used=used(encounter, obj) + 1)
    return max(0, declared(encounter, obj) - used(encounter, obj))


def end_turn(encounter, obj, at) -> None:
    """Mark ``obj``'s slot ``at`` of this round as used (its turn is over)."""
    if at is not None and [at, obj.id] not in [list(pair) for pair in encounter.acted or []]:
        encounter.acted = list(encounter.acted or []) + [[at, obj.id]]


def ride(encounter, actor, what: str, at) -> tuple[bool, tuple[str, ...]]:
    """The Ride roll a mount whose Control Rating is above the rider's Ride needs every turn
    (seed: Mounted Combat), made once a round before the rider's first action on its turn and
    spending one dice action with the split penalty. A rider who declared no split is
    counted as taking one more action (2: the Ride roll at -2, the ``what`` at -3) and told.
    Returns (the rider goes on with ``what``, the lines). On a failure (loss of control) or
    when the Ride roll took the last action, the rest of the turn is lost: every declared
    action is spent and the slot ``at`` is used; the caller then only tells the room
    (:func:`lost_turn`)."""
    state = conditions_of(encounter, actor)
    system = system_of(encounter)
    tactics, rules = getattr(system, "tactics", None), rules_of(system)
    if not state.get("mount") or state.get("ridden") or tactics is None or rules is None:
        return True, ()
    mount = Mount.from_record(state["mount"])
    if not tactics.needs_control_roll(combatant(encounter, actor, system), mount):
        return True, ()
    lines: list[str] = []
    if declared(encounter, actor) < 2:
        first, then = rules.penalties(2)
        lines.append(f"{actor.key} is counted as taking 2 actions: the Ride roll at {first}, "
                     f"the {what} at {then}.")
        update_conditions(encounter, actor, split=2)
    rider = acting(encounter, actor, system)
    with dice.roller(encounter) as roller:
        kept, rolled = tactics.control_roll(rider, mount, roller)
    lines.extend(rolled)
    update_conditions(encounter, actor, ridden=True)
    remaining = spend(encounter, actor)
    if kept and remaining:
        return True, tuple(lines)
    update_conditions(encounter, actor, actions_used=declared(encounter, actor))
    end_turn(encounter, actor, at)
    lines.append(f"{actor.key} has no {what} this turn." if not kept
                 else f"{actor.key} has no action left for the {what} this turn.")
    return False, tuple(lines)


def lost_turn(encounter, actor, what: str, lines) -> None:
    """Log and tell the room a Ride roll that ended the rider's turn."""
    add_log(encounter, actor.key, f"ride ({what})", lines)
    announce(encounter, "{actor} fights for control of the mount.", mapping={"actor": actor}, lines=lines)


def hud_lines(encounter) -> list[str]:
    """``"Actions: Alice 1 of 2 actions left"`` for those who declared several this round."""
    parts = []
    for obj in fighters(encounter):
        count = declared(encounter, obj)
        if count >= 2:
            parts.append(f"{obj.key} {left(encounter, obj)} of {count} actions left")
    return ["Actions: " + ", ".join(parts)] if parts else []
