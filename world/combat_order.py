"""The Storyteller's acting order for this round: ``+combat/order``.

The storyteller seed has the highest initiative act first "unless the ST prefers otherwise".
``+combat/order <name>=<n>`` (or ``=before <other>``, ``=after <other>``) moves a fighter to
place ``n`` of this round's order; the next round goes by initiative again. What is kept is
the round's whole order (``rules.systems.acting_order``) in the fight's state (``order``), so
it survives a reload; ``world.encounters.schedule`` lays it over the system's schedule, and
every listing (the HUD, GMCP, whose turn it is) follows from there.

Choices:

- Only a fighter with an action still to come this round moves, and only among the places
  still to come: not before the first place where someone has yet to act (the current turn).
  Put at that place, they act now, before those waiting there.
- A fighter moves alone: those they shared a place with (a tie) stay together.
- With several actions a round (eldritch), the fighter's *next* action moves, and never past
  their own following action (each fighter's actions keep their order); the others stay at
  their initiative.
- Elethril is refused: its segment timeline (initiative, weapon speed, the phase of each
  action) decides who acts when.
"""

from __future__ import annotations

from rules.systems import CombatError, acting_order
from world import fights
from world.encounters import (
    add_log,
    announce,
    announce_turn,
    current_slot,
    declared,
    fighters,
    find_combatant,
    has_initiative,
    initiatives,
    require_able,
    require_encounter,
    require_storyteller,
    schedule,
    used_actions,
)
from world.sheets import WIDTH
from world.text import COMBAT, fit

MAX_POSITION_DIGITS = 3


def places(encounter) -> list[list[tuple[int, str]]]:
    """This round's places, in acting order: each a list of ``(at, name)`` entries."""
    return acting_order.places(schedule(encounter))


def numbered(order) -> str:
    """``"1. Bob, 2. Ann & Cid"`` (a tie shares a number, as on the HUD)."""
    return ", ".join(f"{n}. " + " & ".join(name for _, name in place) for n, place in enumerate(order, start=1))


def parse_where(text: str) -> tuple[str, str]:
    """``"3"`` → ("at", "3"); ``"before Bob"`` → ("before", "Bob"). Raises CombatError."""
    word, _, rest = text.strip().partition(" ")
    if word.casefold() in ("before", "after") and rest.strip():
        return word.casefold(), rest.strip()
    text = text.strip()
    if text.isascii() and text.isdigit() and len(text) <= MAX_POSITION_DIGITS:
        return "at", text
    raise CombatError("Usage: +combat/order <name>=<place>, or =before <name>, or =after <name>.")


def set_order(caller, name: str, where_text: str) -> None:
    """ST: ``+combat/order <name>=<n>|before <other>|after <other>`` for this round.
    Raises CombatError (and changes nothing) when it refuses."""
    encounter = require_encounter(caller)
    require_storyteller(caller, encounter, "change the acting order")
    if declared(encounter):
        raise CombatError("Elethril has no acting order to change: each round's segment timeline "
                          "(initiative, weapon speed, phase) decides who acts when.")
    how, where = parse_where(where_text)
    obj = find_combatant(encounter, name)
    if not has_initiative(encounter, obj):
        raise CombatError(f"{obj.key} has no initiative yet, so no place in the order.")
    require_able(encounter, obj)  # one who cannot act has no turn to move
    order = places(encounter)
    used = used_actions(encounter)
    ids = {o.key: o.id for o in fighters(encounter)}

    def open_entry(entry) -> bool:
        return entry[1] in ids and (entry[0], ids[entry[1]]) not in used

    mine = [entry for place in order for entry in place if entry[1] == obj.key]
    waiting = [entry for entry in mine if open_entry(entry)]
    if not waiting:
        raise CombatError(f"{obj.key} has already acted this round; the next round goes by initiative.")
    entry = waiting[0]
    rest = acting_order.move(order, entry, 0)[1:]    # the order without the entry moved
    # the current turn: the first place with an action to come (the mover's own included);
    # the places before it are unchanged in ``rest``
    first = next(i for i, place in enumerate(order) if any(map(open_entry, place)))
    last = len(rest)
    if len(waiting) > 1:   # not past their own following action
        last = next(i for i, place in enumerate(rest) if waiting[1] in place)
    if how == "at":
        index = int(where) - 1
        if not first <= index <= last:
            raise CombatError(f"Give {obj.key} a place from {first + 1} to {last + 1}"
                              f"{' (the places before are past)' if first else ''}.")
    else:
        other = find_combatant(encounter, where)
        if other == obj:
            raise CombatError(f"Put {obj.key} before or after someone else.")
        theirs = [e for place in rest for e in place if e[1] == other.key]
        if not theirs:
            raise CombatError(f"{other.key} has no place in this round's order (no initiative).")
        anchor = next((e for e in theirs if open_entry(e)), theirs[-1])
        index = next(i for i, place in enumerate(rest) if anchor in place) + (how == "after")
        if index < first:
            raise CombatError(f"{other.key}'s turn is past: {obj.key} can go from place {first + 1} on.")
        if index > last:
            raise CombatError(f"{obj.key}'s next action cannot go after their following one "
                              f"(place {last + 1}).")
    new = [*rest[:index], [entry], *rest[index:]]
    if new == order:
        raise CombatError(f"{obj.key} is already at place {index + 1}.")
    turn_before = current_slot(encounter)
    encounter.order = acting_order.stored(new, encounter.round)
    listing = f"Round {encounter.round} order: {numbered(new)}"
    add_log(encounter, caller.key, f"order: {obj.key} to place {index + 1}", [listing])
    announce(encounter, "$You() $conj(put) {target} at place " + str(index + 1) + " of this round's order.",
             actor=caller, mapping={"target": obj}, lines=[listing])
    fights.emit(encounter, "order", data={"round": int(encounter.round),
                                          "order": [[n for _, n in place] for place in new]})
    if current_slot(encounter) != turn_before:
        announce_turn(encounter)


def render_order(caller) -> str:
    """``+combat/order``: this round's acting order, whose it is, and who has acted."""
    encounter = require_encounter(caller)
    if declared(encounter):
        raise CombatError("Elethril has no acting order: +combat shows the round's segment timeline.")
    order = places(encounter)
    whose = "the Storyteller's" if is_set(encounter) else "by initiative"
    lines = [f"|w{COMBAT} Acting order, round {encounter.round}|n ({whose})"]
    if not order:
        lines.append("Nobody has initiative yet (+combat/init, +npc/init).")
        return "\n".join(lines)
    used = used_actions(encounter)
    ids = {o.key: o.id for o in fighters(encounter)}
    rolled = initiatives(encounter)
    at_now, waiting = current_slot(encounter)
    now = {o.key for o in waiting}
    for n, place in enumerate(order, start=1):
        parts = []
        for at, name in place:
            state = ("to act" if at == at_now and name in now
                     else "acted" if name in ids and (at, ids[name]) in used else "")
            init = f"init {at}" if rolled.get(name) == at else f"action at {at}"
            parts.append(f"{name} ({init}{', ' + state if state else ''})")
        lines.append(fit(f"{n:>2}. " + " & ".join(parts), WIDTH, indent=4))
    if is_set(encounter):
        lines.append("Next round goes by initiative again.")
    return "\n".join(lines)


def is_set(encounter) -> bool:
    """Whether the Storyteller set this round's order."""
    record = encounter.order or {}
    return bool(record) and int(record.get("round", -1)) == int(encounter.round)
