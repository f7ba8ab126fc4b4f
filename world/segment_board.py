"""Elethril's segment timeline board, drawn from the timeline the rules give as data
(``rules.systems.elethril.timeline``): for the segment HUD (``world.segments``) and for the
round's initiative event, whose line ``elethril.line.board`` carries it as a
:class:`~rules.systems.elethril.timeline.Board`, a drawn value (``world.wording`` draws it
with :func:`board_text`, its drawer, which ``world.apps`` registers); laid out for the
reader's width, or as sentences for a screen reader. Its words are the catalogue's
``[elethril.line]`` ``board_*`` entries."""

from __future__ import annotations

import textwrap

from evennia.utils.ansi import strip_ansi

from rules.lines import Line
from rules.systems.elethril.timeline import SEGMENTS_PER_ROUND, Board, Event, Timeline
from world.catalogue import entry
from world.text import DEFAULT_WIDTH, escape, screen_width


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
    lines = textwrap.wrap(words(Line("elethril.line.board_title", {"round": timeline.round})), width=width,
                          subsequent_indent="    ", break_on_hyphens=False)
    for segment in range(1, SEGMENTS_PER_ROUND + 1):
        body = "; ".join(words(Line("elethril.line.board_event", {"phase": _phase(e), "event": _event(e)}))
                         for e in timeline.at(segment)) or "."
        mark = ">" if segment == now else " "
        lines.extend(textwrap.wrap(body, width=width, initial_indent=f"{segment:>2}{mark} ",
                                   subsequent_indent="    ", break_on_hyphens=False))
    if timeline.busy:
        lines.extend(textwrap.wrap(words(Line("elethril.line.board_busy", {"names": ", ".join(timeline.busy)})),
                                   width=width, subsequent_indent="    "))
    if timeline.later:
        body = "; ".join(words(Line("elethril.line.board_later_event",
                                     {"round": e.round, "segment": e.segment, "event": _event(e)}))
                         for e in timeline.later)
        lines.extend(textwrap.wrap(words(Line("elethril.line.board_later", {"events": body})), width=width,
                                   subsequent_indent="    ", break_on_hyphens=False))
    return lines


def _spoken_board(timeline: Timeline, now: int) -> list[str]:
    lines = [words(Line("elethril.line.board_title_spoken", {"round": timeline.round}))]
    for segment in range(1, SEGMENTS_PER_ROUND + 1):
        events = timeline.at(segment)
        if events:
            body = "; ".join(words(Line("elethril.line.board_event_spoken",
                                         {"phase": _phase(e), "event": _event(e, spoken=True)})) for e in events)
            lines.append(words(Line("elethril.line.board_segment_next_spoken" if segment == now
                                     else "elethril.line.board_segment_spoken", {"segment": segment, "events": body})))
    if timeline.busy:
        lines.append(words(Line("elethril.line.board_busy_spoken", {"names": ", ".join(timeline.busy)})))
    if timeline.later:
        body = "; ".join(words(Line("elethril.line.board_later_event_spoken",
                                     {"round": e.round, "segment": e.segment, "event": _event(e, spoken=True)}))
                         for e in timeline.later)
        lines.append(words(Line("elethril.line.board_later_spoken", {"events": body})))
    return lines


def board_text(board: Board, spoken: bool = False, plain: bool = False) -> str:
    """The board an event carries (``elethril.line.board``), as one of the event's lines of
    working: laid out for the reader's width (:func:`screen_width`) less the 2 columns the
    lines are indented by, its own lines after the first indented by 2 as well; escaped for
    ``msg`` unless ``plain`` (a log, a page)."""
    lines = draw_board(board.timeline, board.now, screen_width() - 2, spoken)
    return "\n  ".join(lines if plain else map(escape, lines))


def words(line: Line) -> str:
    """A line of the board in elethril's words, plain (its values are names, labels and
    numbers: the board's lines are escaped whole where they are sent)."""
    return strip_ansi(entry(line.key, "elethril")).format_map({name: str(value) for name, value in line.values.items()})


def _phase(event: Event) -> str:
    """The tag of the step an event acts in (seed 3b): casting, spell, instant, missile, melee."""
    key = {"casting": "elethril.line.phase_casting", "discharge": "elethril.line.phase_discharge",
           "instant": "elethril.line.phase_instant", "missile": "elethril.line.phase_missile",
           "melee": "elethril.line.phase_melee"}[event.phase]
    return words(Line(key))


def _event(event: Event, spoken: bool = False) -> str:
    """``"Ann short sword > Orc (2/3, off-hand)"``, ``"Zed begins Fireball"`` (spoken: ``at``
    for ``>``)."""
    values = {"actor": event.actor, "label": event.label, "target": event.target}
    if event.phase == "casting":
        text = words(Line("elethril.line.board_casting", values))
    elif not event.target:
        text = words(Line("elethril.line.board_action", values))
    else:
        text = words(Line("elethril.line.board_action_at_spoken" if spoken else "elethril.line.board_action_at",
                           values))
    notes = []
    if event.count > 1:
        notes.append(words(Line("elethril.line.board_attack_of", {"number": event.number, "count": event.count})))
    if event.hand == "off":
        notes.append(words(Line("elethril.line.board_off_hand")))
    if event.spoiled:
        notes.append(words(Line("elethril.line.board_spoiled")))
    if notes:
        text += words(Line("elethril.line.board_notes", {"notes": ", ".join(notes)}))
    return text
