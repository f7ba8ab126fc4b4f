"""Declared rounds played segment by segment (``RuleSystem.declared_rounds``: elethril): the
HUD and the queries the game asks of such a fight, read from the fight's state
(``rules.systems.elethril.actions``)."""

from __future__ import annotations

import textwrap

from rules.lines import Line
from rules.systems import CombatError
from rules.systems.elethril import actions as rounds
from rules.systems.elethril.timeline import SEGMENTS_PER_ROUND, Board, Event, Timeline
from world import fights, poses
from world.marks import is_game_master, next_line, settings_lines
from world.marks import status as fighter_status
from world.text import DEFAULT_WIDTH, columns, escape, fit, screen_width, spoken, titled
from world.wording import line_text


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
            shown = _words(rounds.short(action))
        elif fighter_id in declared:
            shown = "declared"
            if sees_all or viewer_id == fighter_id:
                try:
                    shown = _words(rounds.plan_short(system.plan(rounds.declaration(d, fighter_id, declared[fighter_id]))))
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
    """Hit points for the HUD's narrow column: ``"12/20 hp"``, ``"Down -3/20"``, ``"Dead -14/20"``."""
    text = health.describe()
    return text.removesuffix(" hp") if health.incapacitated else text


def party_lines(d) -> str:
    parties: dict[str, list[str]] = {}
    for fighter_id, (party, slowest) in (d.extra.get("parties") or {}).items():
        if d.has(int(fighter_id)):
            parties.setdefault(party, []).append(d.name(int(fighter_id)) + ("*" if slowest else ""))
    if not parties:
        return ""
    return ("Parties (round 2 on, * the slowest's modifiers): "
            + "; ".join(f"{party}: {', '.join(names)}" for party, names in sorted(parties.items())))


# ------------------------------------------------------------------------- the board
def draw_board(timeline: Timeline, now: int = 0, width: int = DEFAULT_WIDTH, spoken: bool = False) -> list[str]:
    """The round's segment timeline in plain lines of at most ``width`` columns, ``now``
    (1-10) marking the segment to be played next with ``>``: the HUD's board and the round's
    initiative event's (:func:`board_text`)::

        Round 2 segments (lowest first; spell > instant > missile > melee)
         1  .
         3> [melee] Ann short sword > Orc (1/2)
         ...
        Later: r3 s4 Bob two-handed sword > Ann

    ``spoken`` (a screen reader): a sentence a segment that has something, no columns or
    marks ("Segment 3, next: melee, Ann short sword at Orc (1/2).")."""
    if spoken:
        return _spoken_board(timeline, now)
    lines = textwrap.wrap(_words(Line("elethril.line.board_title", {"round": timeline.round})), width=width,
                          subsequent_indent="    ", break_on_hyphens=False)
    for segment in range(1, SEGMENTS_PER_ROUND + 1):
        body = "; ".join(_words(Line("elethril.line.board_event", {"phase": _phase(e), "event": _event(e)}))
                         for e in timeline.at(segment)) or "."
        mark = ">" if segment == now else " "
        lines.extend(textwrap.wrap(body, width=width, initial_indent=f"{segment:>2}{mark} ",
                                   subsequent_indent="    ", break_on_hyphens=False))
    if timeline.busy:
        lines.extend(textwrap.wrap(_words(Line("elethril.line.board_busy", {"names": ", ".join(timeline.busy)})),
                                   width=width, subsequent_indent="    "))
    if timeline.later:
        body = "; ".join(_words(Line("elethril.line.board_later_event",
                                     {"round": e.round, "segment": e.segment, "event": _event(e)}))
                         for e in timeline.later)
        lines.extend(textwrap.wrap(_words(Line("elethril.line.board_later", {"events": body})), width=width,
                                   subsequent_indent="    ", break_on_hyphens=False))
    return lines


def _spoken_board(timeline: Timeline, now: int) -> list[str]:
    lines = [_words(Line("elethril.line.board_title_spoken", {"round": timeline.round}))]
    for segment in range(1, SEGMENTS_PER_ROUND + 1):
        events = timeline.at(segment)
        if events:
            body = "; ".join(_words(Line("elethril.line.board_event_spoken",
                                         {"phase": _phase(e), "event": _event(e, spoken=True)})) for e in events)
            lines.append(_words(Line("elethril.line.board_segment_next_spoken" if segment == now
                                     else "elethril.line.board_segment_spoken", {"segment": segment, "events": body})))
    if timeline.busy:
        lines.append(_words(Line("elethril.line.board_busy_spoken", {"names": ", ".join(timeline.busy)})))
    if timeline.later:
        body = "; ".join(_words(Line("elethril.line.board_later_event_spoken",
                                     {"round": e.round, "segment": e.segment, "event": _event(e, spoken=True)}))
                         for e in timeline.later)
        lines.append(_words(Line("elethril.line.board_later_spoken", {"events": body})))
    return lines


def board_text(board: Board, spoken: bool = False, plain: bool = False) -> str:
    """The board an event carries (``elethril.line.board``), as one of the event's lines of
    working: laid out for the reader's width (:func:`screen_width`) less the 2 columns the
    lines are indented by, its own lines after the first indented by 2 as well; escaped for
    ``msg`` unless ``plain`` (a log, a page)."""
    lines = draw_board(board.timeline, board.now, screen_width() - 2, spoken)
    return "\n  ".join(lines if plain else map(escape, lines))


def _words(line: Line) -> str:
    return line_text(line, "elethril", plain=True)


def _phase(event: Event) -> str:
    """The tag of the step an event acts in (seed 3b): casting, spell, instant, missile, melee."""
    key = {"casting": "elethril.line.phase_casting", "discharge": "elethril.line.phase_discharge",
           "instant": "elethril.line.phase_instant", "missile": "elethril.line.phase_missile",
           "melee": "elethril.line.phase_melee"}[event.phase]
    return _words(Line(key))


def _event(event: Event, spoken: bool = False) -> str:
    """``"Ann short sword > Orc (2/3, off-hand)"``, ``"Zed begins Fireball"`` (spoken: ``at``
    for ``>``)."""
    values = {"actor": event.actor, "label": event.label, "target": event.target}
    if event.phase == "casting":
        text = _words(Line("elethril.line.board_casting", values))
    elif not event.target:
        text = _words(Line("elethril.line.board_action", values))
    else:
        text = _words(Line("elethril.line.board_action_at_spoken" if spoken else "elethril.line.board_action_at",
                           values))
    notes = []
    if event.count > 1:
        notes.append(_words(Line("elethril.line.board_attack_of", {"number": event.number, "count": event.count})))
    if event.hand == "off":
        notes.append(_words(Line("elethril.line.board_off_hand")))
    if event.spoiled:
        notes.append(_words(Line("elethril.line.board_spoiled")))
    if notes:
        text += _words(Line("elethril.line.board_notes", {"notes": ", ".join(notes)}))
    return text
