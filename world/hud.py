"""The fight's HUD (``+combat``): what the fight is, round, whose turn, each fighter's
initiative, health and marks, what waits. Typed every few seconds by everyone in a fight,
so it reads the state once and lays out its own columns (``world.text.columns``), never
EvTable (``docs/performance.md``).

A system that plays declared rounds (elethril) has its segment HUD (``world.segments``).
"""

from __future__ import annotations

from rules.engine import splits, turns
from rules.engine.attacks import shields
from world import fights, poses
from world.marks import is_game_master, next_line, settings_lines
from world.marks import status as fighter_status
from world.text import columns, fit, titled
from world.wording import health_text, line_text


def render_hud(row, viewer=None) -> str:
    """The HUD of fight ``row`` for ``viewer``, laid out for their window's width."""
    d = fights.reading(row)
    if d.system.declared_rounds:
        from world.segments import render_hud as segments_hud

        return segments_hud(row, viewer)
    system = d.system
    rolls = {roll.name: roll for roll in turns.initiative_rolls(d)}
    order = turns.schedule(d)
    used = turns.used_actions(d)
    named = d.by_name()
    at_now, waiting = turns.first_waiting(order, used, named, lambda fighter_id: turns.able(d, fighter_id))
    with_actions = {named[name] for slot in order.slots for name in slot.names
                    if name in named and (slot.at, named[name]) not in used}
    listed = [(str(position), named[name], slot.at) for position, slot in enumerate(order.slots, start=1)
              for name in slot.names if name in named]  # a name in each of its slots
    listed += [("-", fighter_id, None) for fighter_id in d.ids() if d.name(fighter_id) not in rolls]
    rows = []
    game_master = is_game_master(d, viewer)
    unposed = set(poses.unposed(row, d)) if game_master else set()
    for position, fighter_id, at in listed:
        health = d.health(fighter_id)
        name = d.name(fighter_id)
        status = []
        if health.incapacitated:
            status.append("down")
        elif fighter_id in waiting and at == at_now:
            status.append("TO ACT")
        elif (at, fighter_id) in used or (name in rolls and fighter_id not in with_actions):
            status.append("acted")
        elif name not in rolls:
            status.append("no init")
        status.extend(fighter_status(d, fighter_id, unposed))
        shown = name + (" (AI)" if fighter_id in d.ai else " (NPC)" if d.is_npc(fighter_id) else "")
        rows.append((position, shown, str(at) if at is not None else "-", health_text(health), ", ".join(status)))
    gm = fights.obj(d.gm)
    lines = [titled(system.title),
             fit(f"Round {d.round}   Storyteller: {gm.key if gm else 'nobody'}   "
                 f"Turn: {line_text(turns.turn_line(d, waiting), system.key, plain=True)}"),
             columns(("#", "Name", "Init", "Health", "Status"), (4, 20, 6, 25), rows,
                     highlight={"TO ACT": "|g", "DYING": "|r"})]
    notes = []
    if (d.order or {}).get("round") == d.round:
        notes.append("Order: the Storyteller's, this round only (+combat/order).")
    if order.declare:
        notes.append("Declare (low to high): " + ", ".join(order.declare))
    notes.extend(line_text(line, system.key, plain=True) for line in splits.hud_lines(d))
    if d.scene.get("duel"):
        notes.append("Formal duel: brawl attacks are disallowed.")
    notes.extend(settings_lines(d))
    scene = system.scene_text(d.scene)
    if scene:
        notes.append("Space: " + line_text(scene, system.key, plain=True))
    for name, shield in sorted(shields(d).items()):
        notes.append(f"Shield on {name}: {line_text(shield.line(), system.key, plain=True)}")
    if d.dropped:
        notes.append("On the ground: " + ", ".join(f"{item['owner']}'s {item['weapon']} ({item['feet']} ft)"
                                                   for item in d.dropped))
    notes.extend(next_line(d, game_master))
    for pending in d.pending:
        notes.append(f"Waiting for defense: {d.name(pending.attacker)} -> {d.name(pending.target)} (#{pending.id})")
    lines.extend(fit(note) for note in notes)
    return "\n".join(lines)
