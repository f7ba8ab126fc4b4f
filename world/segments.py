"""Declared rounds played segment by segment (``RuleSystem.declared_rounds``: elethril): the
HUD and the queries the game asks of such a fight, read from the fight's state
(``rules.systems.elethril.actions``)."""

from __future__ import annotations

from rules.lines import Line
from rules.systems import CombatError
from rules.systems.elethril import actions as rounds
from world import fights, poses
from world.marks import is_game_master, next_line, settings_lines
from world.marks import status as fighter_status
from world.segment_board import draw_board
from world.text import columns, escape, fit, screen_width, spoken, titled
from world.wording import health_text, line_text


def initiatives(d) -> dict[str, int]:
    """{name: initiative segment} rolled this round."""
    return rounds.initiatives(d)


def render_hud(row, viewer=None) -> str:
    """The 78-column HUD of a fight of declared rounds: round and phase, each fighter's side,
    initiative, action, hit points and status, then the round's segment timeline (``>``
    marks the next)."""
    d = fights.reading(row)
    system = d.system
    r, now = rounds.round_of(d), rounds.now(d)
    board = rounds.timeline(d)
    declared = rounds.declarations(d)
    initiative = initiatives(d)
    sides = {int(key): value for key, value in (d.extra.get("sides") or {}).items()}
    waiting = rounds.to_declare(d)
    viewer_id = getattr(viewer, "id", None)
    sees_all = is_game_master(d, viewer)
    unposed = set(poses.unposed(row, d)) if sees_all else set()
    rows, modifiers, off_hands = [], [], []
    for fighter_id in d.ids():
        name = d.name(fighter_id)
        fighter = d.combatant(fighter_id)
        health = d.health(fighter_id)
        action = rounds.holding(d, fighter_id)
        status = []
        if fighter_id in waiting:
            status.append("to declare")
        elif action is not None and action.round < r and system.can_act(fighter):
            status.append("busy")
        status.extend(fighter_status(d, fighter_id, unposed))
        if action is not None and action.round < r and not any(e.round >= r for e in action.events):
            shown = "reloading"   # a missile rate below one (seed 4d)
        elif action is not None and (now or action.round < r):
            shown = line_text(rounds.short(action), "elethril", plain=True)
        elif fighter_id in declared:
            shown = "declared"
            if sees_all or viewer_id == fighter_id:
                try:
                    shown = line_text(rounds.plan_short(system.plan(rounds.declaration(d, fighter_id, declared[fighter_id]))),
                                      "elethril", plain=True)
                except CombatError:
                    pass
        else:
            shown = "-"
        init = str(initiative[name]) if name in initiative else "-"
        if action is not None and action.delayed_to and rounds.tick_of(r, 1) <= action.delayed_to <= rounds.tick_of(r, 10):
            init = f"{'' if init == '-' else init}>{action.delayed_to - rounds.tick_of(r, 0)}"   # held: 6>8
        shown_name = name + (" (AI)" if fighter_id in d.ai else " (NPC)" if d.is_npc(fighter_id) else "")
        rows.append((shown_name, sides.get(fighter_id, "-"), init, shown, hud_health(health), ", ".join(status)))
        state = d.conditions_of(fighter_id)
        keys = state.get("initiative_modifiers") or ()
        if keys:
            modifiers.append(f"{name} {', '.join(keys)}")
        if state.get("off_hand"):
            off_hands.append(f"{name} {system.wielded(state['off_hand']).label}")
    if now:
        upcoming = rounds.pending_events(d, now)
        phase = f"next: segment {upcoming[0].segment} (+combat/next)" if upcoming else "round over (+combat/next)"
    elif waiting:
        phase = "declaring, waiting on " + ", ".join(d.name(item) for item in waiting)
    else:
        phase = "declaring (+combat/next rolls initiative)"
    gm = fights.obj(d.gm)
    lines = [titled(system.title),
             fit(f"Round {r}   Storyteller: {gm.key if gm else 'nobody'}   {phase}"),
             columns(("Name", "Side", "Init", "Action", "Health", "Status"), (14, 7, 6, 24, 15), rows,
                     highlight={"to declare": "|g", "DYING": "|r"})]
    notes = [party_lines(d), *settings_lines(d)]
    if modifiers:
        notes.append("Initiative modifiers: " + "; ".join(modifiers))
    if off_hands:
        notes.append("Off-hand weapons (+combat/offhand): " + "; ".join(off_hands))
    lines.extend(fit(note) for note in notes if note)
    lines.extend(escape(line) for line in draw_board(board, rounds.next_segment(d), screen_width(), spoken()))
    lines.extend(fit(note) for note in next_line(d, sees_all))
    return "\n".join(lines)


def hud_health(health) -> str:
    """Hit points for the HUD's narrow column: ``"12/20 hp"``, ``"Down -3/20"``, ``"Dead -14/20"``
    (the down and the dead without the unit: ``elethril.value.hud_*``)."""
    if not health.incapacitated:
        return health_text(health, "elethril")
    return line_text(Line("elethril.value.hud_dead" if health.dead else "elethril.value.hud_down",
                          {"current": health.current, "maximum": health.maximum}), "elethril", plain=True)


def party_lines(d) -> str:
    parties: dict[str, list[str]] = {}
    for fighter_id, (party, slowest) in (d.extra.get("parties") or {}).items():
        if d.has(int(fighter_id)):
            parties.setdefault(party, []).append(d.name(int(fighter_id)) + ("*" if slowest else ""))
    if not parties:
        return ""
    return ("Parties (round 2 on, * the slowest's modifiers): "
            + "; ".join(f"{party}: {', '.join(names)}" for party, names in sorted(parties.items())))
