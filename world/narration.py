"""The words of a fight: its events (``rules.engine.events``, data) rendered from the
message catalogue (``world/messages/*.toml``), and the telnet narrator.

A ``said`` event is one ``<Combat>`` line to the fight's room: the catalogue's entry for its
``key``, its ``values`` put in as literal text, its ``refs`` left as ``{name}`` for Evennia's
``msg_contents`` to show each viewer as that viewer sees them, ``$You()``/``$conj()`` for the
actor; then its ``lines`` (the dice and arithmetic), the same for everyone. A ``notice`` goes
to one reader. A system's own entries, and its own wording of a shared one, are
``[<system>.<area>]`` (``world/messages/<system>.toml``), looked up before ``[<area>]``.
"""

from __future__ import annotations

import re
from functools import cache
from html import escape as escape_html

from evennia.utils.ansi import strip_ansi
from evennia.utils.funcparser import ACTOR_STANCE_CALLABLES, FuncParser

from rules.lines import Line
from world import catalogue as messages
from world.text import (
    COMBAT,
    ROLL,
    answered,
    escape,
    escape_for_room,
    literal_for_room,
    named,
    reads_aloud,
    screen_width,
    session_width,
    views_for,
)
from world.wording import line_text, lines_text, value_text  # noqa: F401 (the lines' words)

_PARSER = FuncParser(ACTOR_STANCE_CALLABLES)


class _Bystander:
    """The reader a log is written for: in the room, but neither the actor nor a target."""

    key = name = "someone"

    def __bool__(self):
        return True


#: Whom ``$You()`` speaks to in the scene log and on the web: a bystander.
BYSTANDER = _Bystander()

entry = messages.entry


class _Fill(dict):
    """Values as given; any other ``{name}`` left in place (a ref, for ``msg_contents``)."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def template(event, system: str = "") -> str:
    """The event's line for ``msg_contents``: values literal, refs ``{name}``, ``$You()``."""
    text = entry(event.key, system)
    values = {name: room_text(value, system) for name, value in event.values.items()}
    return text.format_map(_Fill(values))


def room_text(value, system: str = "") -> str:
    """An event's value made literal for ``msg_contents``: a line (a roll) worded from the
    catalogue, its template's colours kept; anything else escaped whole."""
    if isinstance(value, Line):
        return literal_for_room(line_text(value, system))
    return escape_for_room(str(value))


def value_for_msg(value, system: str = "", spoken: bool = False) -> str:
    """An event's value for ``msg``: a line worded (:func:`line_text`), anything else escaped."""
    return line_text(value, system, spoken=spoken) if isinstance(value, Line) else escape(str(value))


def notice_text(event, system: str = "", spoken: bool = False) -> str:
    """A notice's text for ``msg`` (values escaped; a notice names no refs)."""
    values = {name: value_for_msg(value, system, spoken) for name, value in event.values.items()}
    text = entry(event.key, system).format_map(_Fill(values))
    if event.lines:
        text = "\n".join([text, lines_text(event.lines, system, spoken=spoken)])
    return text


def deliver(viewer, render) -> None:
    """Send ``viewer`` ``render(spoken)``, rendered for the viewer's own screen
    (:func:`views_for`: a segment board is laid out for their width, not the typist's): once,
    or, when one of their sessions reads aloud or their widths differ, to each session its own
    (a screen reader hears a track's boxes as words, from the track's counts)."""
    sessions = _sessions(viewer)
    if not any(reads_aloud(session) for session in sessions) and len(set(map(session_width, sessions))) <= 1:
        with views_for(sessions[0] if sessions else None):
            viewer.msg(text=(render(False), {}))
        return
    for session in sessions:
        with views_for(session):
            viewer.msg(text=(render(reads_aloud(session)), {}), session=session)


def tell_lines(viewers, lines, system: str = "") -> None:
    """Send each of ``viewers`` an event's lines (:func:`deliver`), worded once for each way
    they are read (spoken or not, and the width), not once for each viewer."""
    render = _lines_for(lines, system)
    for viewer in viewers:
        deliver(viewer, lambda spoken: render(spoken, screen_width()))


def _lines_for(lines, system: str):
    """``render(spoken, width)``: ``lines`` worded for that view (:func:`lines_text`, inside
    the view's :func:`views_for`), each view worded once."""
    worded: dict[tuple[bool, int], str] = {}

    def render(spoken: bool, width: int) -> str:
        if (spoken, width) not in worded:
            worded[spoken, width] = lines_text(lines, system, spoken=spoken)
        return worded[spoken, width]

    return render


def _sessions(viewer) -> list:
    return list(getattr(getattr(viewer, "sessions", None), "all", lambda: [])())


def tell_with_lines(room, head: str, lines=(), system: str = "", *, from_obj=None, mapping=None) -> None:
    """``head`` (a line for ``msg_contents``: ``$You()``, ``{ref}``) to everyone in ``room``,
    each with ``lines`` under it as they read them, in one message: the viewers who read the
    lines alike (most of a room: the lines of dice do not depend on the width unless one is
    drawn for it) get one ``msg_contents``; a viewer whose sessions read them differently (a
    screen reader beside a plain client) gets the head, then each session its own lines. The
    command's typist (``world.text.answered``) is told first: their answer is on its way
    while the room's copies are made."""
    mapping = dict(mapping or {})
    render = _lines_for(lines, system)
    alike: dict[str | None, list] = {}
    apart = []
    for viewer in room.contents:
        views = set()
        for session in (_sessions(viewer) or [None]) if lines else ():
            with views_for(session):
                views.add(render(reads_aloud(session), screen_width()))
        if len(views) <= 1:
            alike.setdefault(views.pop() if views else None, []).append(viewer)
        else:
            apart.append(viewer)
    everyone = list(room.contents)
    typist = getattr(answered(), "puppet", None)

    def send(text: str, viewers: list) -> None:
        room.msg_contents(text, exclude=[it for it in everyone if it not in viewers], from_obj=from_obj,
                          mapping=mapping)

    for shown, viewers in sorted(alike.items(), key=lambda group: typist not in group[1]):
        text = head if shown is None else f"{head}\n{literal_for_room(shown)}"
        if typist in viewers:
            send(text, [typist])
            viewers = [it for it in viewers if it != typist]
        if viewers:
            send(text, viewers)
    if apart:
        send(head, apart)
        tell_lines(apart, lines, system)


def system_key(event) -> str:
    from world.fights import running

    row = next((row for row in running() if row.pk == event.fight), None)
    return row.system_key if row is not None else ""


def obj(obj_id):
    from world.fights import obj as lookup

    return lookup(obj_id)


def narrate(event) -> None:
    """The telnet narrator (a subscriber of ``world.fights``): a fight's events as
    ``<Combat>`` lines, per viewer."""
    room = event.room
    if event.kind == "said" and room is not None:
        system = system_key(event)
        tell_with_lines(room, f"{COMBAT} {template(event, system)}", event.lines, system, from_obj=event.actor,
                        mapping=event.refs)
    elif event.kind == "notice" and event.to is not None:
        system = system_key(event)
        deliver(event.to, lambda spoken: f"{COMBAT} {notice_text(event, system, spoken=spoken)}")
    elif event.kind == "rolled":
        line = event.values["line"]
        system = system_key(event) if isinstance(line, Line) else ""
        if event.data.get("private"):
            shown = f"{ROLL} (private) {value_for_msg(line, system)}"
            for reader in dict.fromkeys(filter(None, (event.to, obj(event.data.get("gm"))))):
                reader.msg(shown)
        elif room is not None:
            room.msg_contents(f"{ROLL} {room_text(line, system)}")
    elif event.kind == "ended" and room is not None and event.data.get("seed"):
        revealed = entry("fight.dice_revealed").format_map(_Fill(fight=event.fight))
        seed = entry("fight.seed").format_map(_Fill(seed=escape_for_room(str(event.data["seed"]))))
        room.msg_contents(f"{COMBAT} {revealed}\n  {seed}")


def tell_room(room, key: str, *, actor=None, refs=None, values=None, lines=()) -> None:
    """Message ``key`` to a room with no fight (an NPC removed from the scene): as a fight's
    ``said`` event would be told."""
    from rules.engine import Event

    if room is None:
        return
    event = Event("said", key=key, values=dict(values or {}), lines=tuple(lines))
    tell_with_lines(room, f"{COMBAT} {template(event)}", event.lines, from_obj=actor, mapping=refs)


def bystander(template: str, from_obj=None, mapping: dict | None = None, room=None) -> str:
    """``template`` (as handed to ``msg_contents``) as a bystander reads it: ``$You()`` in
    the third person, ``{key}`` as each object's name; colour codes kept."""
    you, mapping = named(from_obj or room, mapping)
    text = _PARSER.parse(str(template), raise_errors=False, return_string=True, caller=you,
                         receiver=BYSTANDER, mapping=mapping)
    try:
        text = text.format_map({key: (obj.get_display_name(looker=None) if hasattr(obj, "get_display_name")
                                      else str(obj)) for key, obj in mapping.items()})
    except (KeyError, ValueError, IndexError, AttributeError):
        pass  # what Evennia delivered could not have been formatted either
    return text


def head_line(event, system: str | None = None) -> str:
    """A ``said`` event's ``<Combat>`` line as a bystander reads it, colour codes kept."""
    system = system_key(event) if system is None else system
    return bystander(f"{COMBAT} {template(event, system)}", event.actor, dict(event.refs), event.room)


def narration_text(event, system: str | None = None) -> str:
    """A narration event as a bystander read it: the ``<Combat>`` head line, then its lines
    of dice indented by 2 (plain text: the scene log and the web tracker keep it so)."""
    return page_texts(event, system)[0]


def web_html(event, system: str | None = None) -> str:
    """A narration event for a web page, as HTML to put in as is: the catalogue's words as a
    bystander reads them, every character of the text escaped (``&lt;`` …), colour codes as
    ``<span class="color-NNN">`` (the webclient's classes; the prefix is a styled span, not a
    raw ``|y<Combat>|n``), names as names, line breaks as ``<br>``; its dice lines after,
    indented."""
    return page_texts(event, system)[1]


#: What only Evennia's HTML parser renders: colour and MUX codes, tabs, links, line breaks.
_MARKUP = re.compile(r"[|%\t\n]|://|www\.")


def _html(text: str) -> str:
    """``text`` for a page: Evennia's parser for what has markup, else escaped as it is (the
    same HTML, without the parser's cost)."""
    from evennia.utils.text2html import parse_html

    return parse_html(text) if _MARKUP.search(text) else escape_html(text, quote=False)


@cache
def _prefix_views(prefix: str) -> tuple[str, str] | None:
    """A prefix's ``(text, html)`` when Evennia's parser renders it apart from what follows
    (its colours closed: ``|y<Combat>|n``), else None."""
    from evennia.utils.text2html import parse_html

    html = parse_html(prefix)
    return (strip_ansi(prefix), html) if parse_html(f"{prefix} x") == f"{html} x" else None


def page_texts(event, system: str | None = None) -> tuple[str, str]:
    """``(narration_text, web_html)`` of a narration event, its head line and lines worded
    once (the tracker keeps both for every event). Evennia's parser, which takes most of the
    cost, only gets what it must render: the ``<Combat>`` prefix once, and what has markup."""
    system = system_key(event) if system is None else system
    head, prefix = head_line(event, system), str(COMBAT)
    views = _prefix_views(prefix) if head.startswith(prefix) else None
    if views is not None and not _MARKUP.search(head, len(prefix)):
        text, html = [views[0] + head[len(prefix):]], [views[1] + _html(head[len(prefix):])]
    else:
        text, html = [strip_ansi(head)], [_html(head)]
    text += [f"  {line_text(line, system, plain=True)}" for line in event.lines]
    html += [_html(f"  {line_text(line, system)}") for line in event.lines]
    return "\n".join(text), "<br>".join(html)


def check() -> list[str]:
    """Problems with the message catalogue, Fray's and the game's own file, one line each
    (``world.catalogue.problems``): the Server does not start with any."""
    return messages.problems()
