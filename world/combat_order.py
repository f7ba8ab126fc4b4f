"""The game master's acting order for this round: ``+combat/order`` (the engine's ``order``
action, ``rules.engine.actions.Order``) and the view of it.

The storyteller seed has the highest initiative act first "unless the ST prefers otherwise".
``+combat/order <name>=<n>`` (or ``=before <other>``, ``=after <other>``) moves a fighter to
place ``n`` of this round's order; the next round goes by initiative again. A fight of
declared rounds (elethril) has none: its segment timeline decides who acts when.
"""

from __future__ import annotations

from rules.engine import order as acting_order
from rules.engine import turns
from rules.systems import CombatError
from world import combat, fights
from world.text import COMBAT, fit

MAX_POSITION_DIGITS = 3


def parse_where(text: str) -> tuple[str, str]:
    """``"3"`` → ("at", "3"); ``"before Bob"`` → ("before", "Bob"). Raises CombatError."""
    word, _, rest = text.strip().partition(" ")
    if word.casefold() in ("before", "after") and rest.strip():
        return word.casefold(), rest.strip()
    text = text.strip()
    if text.isascii() and text.isdigit() and len(text) <= MAX_POSITION_DIGITS:
        return "at", text
    raise CombatError("Usage: +combat/order <name>=<place>, or =before <name>, or =after <name>.")


def _no_order(row) -> None:
    if combat.system_of(row).declared_rounds:
        raise CombatError("Elethril has no acting order to change: each round's segment timeline "
                          "(initiative, weapon speed, phase) decides who acts when.")


def set_order(caller, name: str, where_text: str) -> None:
    """The game master: ``+combat/order <name>=<n>|before <other>|after <other>``. Raises
    CombatError (and changes nothing) when it refuses."""
    row = combat.require_fight(caller)
    combat.require_gm(caller, row, "change the acting order")
    _no_order(row)
    how, where = parse_where(where_text)
    fighter = combat.find(row, name)
    targets = (fighter,) if how == "at" else (fighter, combat.find(row, where))
    combat.perform(caller, row, "order", targets=targets, option=how,
                   data={"by_name": caller.key, **({"place": int(where)} if how == "at" else {})})


def render_order(caller) -> str:
    """``+combat/order``: this round's acting order, whose it is, and who has acted."""
    row = combat.require_fight(caller)
    if combat.system_of(row).declared_rounds:
        raise CombatError("Elethril has no acting order: +combat shows the round's segment timeline.")
    d = fights.reading(row)
    order = acting_order.places(turns.schedule(d))
    mine = bool(d.order) and int(d.order.get("round", -1)) == int(d.round)
    lines = [f"|w{COMBAT} Acting order, round {d.round}|n ({'the Storyteller' + chr(39) + 's' if mine else 'by initiative'})"]
    if not order:
        lines.append("Nobody has initiative yet (+combat/init, +npc/init).")
        return "\n".join(lines)
    used = turns.used_actions(d)
    ids = d.by_name()
    rolled = {roll.name: roll.total for roll in turns.initiative_rolls(d)}
    at_now, waiting = turns.current_slot(d)
    now = {d.name(fighter_id) for fighter_id in waiting}
    for n, place in enumerate(order, start=1):
        parts = []
        for at, name in place:
            state = ("to act" if at == at_now and name in now
                     else "acted" if name in ids and (at, ids[name]) in used else "")
            init = f"init {at}" if rolled.get(name) == at else f"action at {at}"
            parts.append(f"{name} ({init}{', ' + state if state else ''})")
        lines.append(fit(f"{n:>2}. " + " & ".join(parts), indent=4))
    if mine:
        lines.append("Next round goes by initiative again.")
    return "\n".join(lines)
