"""Making player-supplied text safe to echo, and Fray's message prefixes.

Evennia interprets ``|`` colour codes (``|r``, ``|/`` line breaks …) and the MUSH codes
(``%r``, ``%t``, ``%b``, ``%ch%cr``: the color_markups contrib, ``server/conf/settings.py``) in
everything sent to a session, and ``msg_contents`` also runs ``$func()`` calls and ``{key}``
substitution. Player text is escaped for the sink it goes to (``|`` and ``%`` doubled);
non-printable characters are shown as ``\\uXXXX``. Free text a player writes for others to
read (an armor request's reason, a staff comment, a scene title) keeps its ``%`` codes:
:func:`free_text`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

from rules.text import printable, visible
from world.catalogue import Prefix

#: The message prefixes: catalogue entries (``[prefix]`` in ``world/messages/fight.toml``), so a
#: game may restyle them (``world.catalogue``); each reads as its text in an f-string.
COMBAT = Prefix("combat")
ROLL = Prefix("roll")
FRAY = Prefix("fray")
def doubled(text: str) -> str:
    """``text`` with ``|`` and ``%`` doubled: shown as typed, no colour code or MUSH code
    (``%r``, ``%ch``) acting."""
    return text.replace("|", "||").replace("%", "%%")


def literal(text: str) -> str:
    """Like :func:`escape`, keeping non-ASCII letters: :func:`visible`, ``|`` and ``%`` doubled."""
    return doubled(visible(text))


def escape(text: str) -> str:
    """Player text made literal for ``obj.msg``: printable, with ``|`` and ``%`` doubled."""
    return doubled(printable(text))


def free_text(text: str) -> str:
    """Free text a player wrote for others to read, for ``obj.msg``: :func:`visible`, ``|``
    doubled (Evennia's codes stay literal, as in :func:`escape`), the MUSH codes (``%r``,
    ``%t``, ``%b``, ``%ch%cr`` …) kept to act, and a colour it started ended after it (``|n``)."""
    text = visible(text).replace("|", "||")
    return text + "|n" if "%c" in text else text


def plain(text: str) -> str:
    """Free text as a plain view reads it (a table cell, a scene title on the web): the MUSH
    codes done (``%r`` a line break, ``%b`` a space, colours dropped), ``|`` kept as typed."""
    from evennia.utils.ansi import strip_ansi

    return strip_ansi(str(text).replace("|", "||"))


def unformatted(text: str) -> str:
    """Player text for a message Evennia formats for each reader (``msg_contents`` fills
    ``{key}`` from its mapping): braces doubled, so ``{}`` or ``{you:>5000000}`` is shown as
    typed, never run."""
    return text.replace("{", "{{").replace("}", "}}")


def without_controls(text: str, parsed: bool = False) -> str:
    """``text`` with control and format characters (ESC, BEL, NUL, a right-to-left override)
    written as ``\\uXXXX``: nothing a player types moves another's cursor or retitles their
    window. Line breaks and the letters of every script stay. ``parsed``: the text goes through
    Evennia's function parser, whose escape is a backslash, so the written ones are doubled."""
    mark = "\\\\" if parsed else "\\"
    return "".join(ch if ch.isprintable() or ch == "\n" else mark + visible(ch)[1:] for ch in str(text))


def escape_for_room(text: str) -> str:
    """Text made literal for ``msg_contents`` (colour codes, ``$func()`` and ``{key}``)."""
    return literal_for_room(escape(text))


# Evennia's funcparser keeps a backslash followed by another as it is, and drops one followed
# by anything else, keeping that (a "$" then starts no call): every run of backslashes gets one
# more (it then escapes what follows it, a "$" too), and a "$" after none gets one.
_FUNC_ESCAPE = re.compile(r"\\+|(?<!\\)(?=\$)")


def literal_for_room(text: str) -> str:
    """Text whose colour codes are meant, made literal for ``msg_contents`` otherwise
    (``$func()`` and ``{key}``): a line the catalogue worded, its values already escaped."""
    if "\\" in text or "$" in text:   # the search costs 14 µs a line; most lines hold neither
        text = _FUNC_ESCAPE.sub(r"\g<0>\\", text)
    return text.replace("{", "{{").replace("}", "}}")


class Named:
    """An object as ``msg_contents`` names it to a viewer: its display name shown as typed
    (colour and MUSH codes doubled, :func:`literal`), whoever set it (a staff ``@name`` may
    hold ``|r`` or ``%r``). Evennia puts a ``{key}`` name into the finished text as it is,
    but a ``$You()`` name before the ``{key}`` substitution: that one (``braces``) has its
    ``{`` and ``}`` doubled too. Equal to the object (``$You()`` reads "You" to its own
    actor); anything else is the object's."""

    __slots__ = ("thing", "braces")

    def __init__(self, thing, braces: bool = False):
        self.thing, self.braces = thing, braces

    def get_display_name(self, looker=None, **kwargs) -> str:
        name = literal(self.thing.get_display_name(looker=looker, **kwargs))
        return name.replace("{", "{{").replace("}", "}}") if self.braces else name

    def __eq__(self, other) -> bool:
        return self.thing == (other.thing if isinstance(other, Named) else other)

    def __hash__(self) -> int:
        return hash(self.thing)

    def __getattr__(self, name):
        return getattr(self.thing, name)


def named(from_obj, mapping: Mapping | None) -> tuple[object, dict]:
    """``msg_contents``'s ``from_obj`` and ``mapping`` with every name in them shown as typed
    (:class:`Named`): (the actor for ``$You()``, the mapping for ``{key}``)."""
    names = {key: Named(thing) if hasattr(thing, "get_display_name") else thing
             for key, thing in (mapping or {}).items()}
    if not hasattr(from_obj, "get_display_name"):
        return from_obj, names
    names.setdefault("you", Named(from_obj))
    return Named(from_obj, braces=True), names


# ---------------------------------------------------------------------- screen readers
_spoken: ContextVar[bool] = ContextVar("fray_spoken", default=False)
RULE = re.compile(r"\s{3,}")


def reads_aloud(session) -> bool:
    """Whether ``session`` has the screen-reader flag (``option screenreader=True``)."""
    return bool(session is not None and getattr(session, "protocol_flags", {}).get("SCREENREADER"))


#: The screen widths the views lay themselves out for (narrower or wider windows get these),
#: the one assumed without NAWS, and the width under which a table becomes one line a row.
MIN_WIDTH, DEFAULT_WIDTH, MAX_WIDTH, NARROW = 40, 78, 200, 60
_width: ContextVar[int] = ContextVar("fray_width", default=DEFAULT_WIDTH)


def session_width(session) -> int:
    """The width ``session``'s client reported (NAWS: Evennia's ``SCREENWIDTH``), kept within
    :data:`MIN_WIDTH` to :data:`MAX_WIDTH`; :data:`DEFAULT_WIDTH` without one."""
    flags = getattr(session, "protocol_flags", None) or {}
    reported = (flags.get("SCREENWIDTH") or {}).get(0) or DEFAULT_WIDTH
    try:
        return max(MIN_WIDTH, min(MAX_WIDTH, int(reported)))
    except (TypeError, ValueError):
        return DEFAULT_WIDTH


@contextmanager
def views_for(session) -> Iterator[None]:
    """Render the views built inside for ``session``: linear sentences when it has the
    screen-reader flag, laid out for its width (the base command wraps every command in
    this)."""
    token = _spoken.set(reads_aloud(session))
    sized = _width.set(session_width(session) if session is not None else DEFAULT_WIDTH)
    try:
        yield
    finally:
        _spoken.reset(token)
        _width.reset(sized)


def screen_width() -> int:
    """The width the view being built is for (:func:`views_for`; 78 outside a command)."""
    return _width.get()


# ------------------------------------------------------------------ the typist's answer first
_answering: ContextVar[object | None] = ContextVar("fray_answering", default=None)


@contextmanager
def answering(session) -> Iterator[None]:
    """Inside, the command being run answers ``session``, its typist (the base command wraps
    every command in this): the narration is told to the typist before the room
    (``world.narration.tell_with_lines``), and what the typist is sent leaves for the Portal
    at once (``server/conf/serversession.py``), not after every copy for the room is made."""
    token = _answering.set(session)
    try:
        yield
    finally:
        _answering.reset(token)


def answered():
    """The session the command being run answers (:func:`answering`), or None."""
    return _answering.get()


def scaled(widths: Sequence[int], width: int, headers: Sequence[str] | None = None) -> list[int]:
    """Column widths drawn for 78 columns, stretched (or squeezed) for a ``width`` one, each
    still as wide as its header and a space either side (the last column, not in ``widths``,
    takes what is left)."""
    if width == DEFAULT_WIDTH:
        return list(widths)
    least = [len(header) + 2 for header in headers or ()] or [3] * len(widths)
    return [max(low, size * width // DEFAULT_WIDTH) for size, low in zip(widths, [*least, *[3] * len(widths)])]


def one_line_a_row(headers: Sequence[str] | None, rows: Iterable[Sequence[str]], width: int) -> str:
    """A table for a narrow window: each row one entry (:func:`sentences`), wrapped to
    ``width`` with its continuation lines indented; plain cells in, escaped text out."""
    return "\n".join(fit(line, width) for line in sentences(headers, rows).splitlines())


def spoken() -> bool:
    """Whether the view being built is for a screen reader."""
    return _spoken.get()


def track_words(health) -> str:
    """A health track's boxes in words, from its counts: ``"1 lethal, 1 bashing, 5 of 7 free"``."""
    counts = (("aggravated", health.aggravated), ("lethal", health.lethal), ("bashing", health.bashing))
    free = health.size - health.filled
    return ", ".join([*(f"{count} {word}" for word, count in counts if count), f"{max(0, free)} of {health.size} free"])


def speak(text: str) -> str:
    """Outgoing text made plain for a screen reader: arrows (``->``) as "gives". (A health
    track is said in words where it is worded, from its counts: ``world.wording.health_text``; nothing re-reads text for it.)"""
    return text.replace(" -> ", " gives ")


def sentences(headers: Sequence[str] | None, rows: Iterable[Sequence[str]]) -> str:
    """A table read aloud: one sentence a row, each cell after its column's name (the name
    column alone; empty cells, and ``-`` but for a name, left out); cells as they are (already
    escaped)."""
    out = []
    for row in rows:
        parts = []
        for index, cell in enumerate(row):
            cell = " ".join(str(cell).split())
            header = headers[index] if headers and index < len(headers) else ""
            if not cell or (cell == "-" and header != "Name"):
                continue
            parts.append(cell if header in ("", "Name", "#") else f"{header.lower()} {cell}")
        if parts:
            out.append(", ".join(parts) + ".")
    return "\n".join(out)


def wrap_words(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters, broken at spaces as EvTable breaks
    them (a word's following space counts against its line), over-long words cut."""
    words = text.split()
    lines, line = [], ""
    for number, word in enumerate(words):
        piece = word + (" " if number < len(words) - 1 else "")
        if line and len(line) + len(piece) > width:
            lines.append(line.rstrip())
            line = ""
        while len(piece.rstrip()) > width:
            lines.append(piece[:width])
            piece = piece[width:]
        line += piece
    lines.append(line.rstrip())
    return lines


def fit(text: str, width: int | None = None, indent: int = 2) -> str:
    """Plain ``text`` escaped in lines of at most ``width`` columns (default: the viewer's,
    :func:`screen_width`), broken at the last space that fits (inner spacing kept), the
    continuation lines indented by ``indent`` (a HUD's header line with long names). For a
    screen reader: one line, the wide gaps as sentence breaks."""
    if spoken():
        said = RULE.sub(". ", text.strip())
        return escape(said if said.endswith((".", "!", "?")) else said + ".")
    width = width or screen_width()
    text = printable(text)
    lines = []
    while len(text) > width:
        cut = text.rfind(" ", indent + 1, width + 1)
        cut = cut if cut > 0 else width
        lines.append(text[:cut].rstrip())
        text = " " * indent + text[cut:].strip()
    lines.append(text)
    return "\n".join(doubled(line) for line in lines)


def titled(title: str) -> str:
    """A view's first line, ``<Combat> <title>``, wrapped to the viewer's width."""
    from evennia.utils.ansi import strip_ansi

    shown = f"{COMBAT} "
    return f"{shown}|w" + fit(title, max(MIN_WIDTH, screen_width()) - len(strip_ansi(shown))) + "|n"


def columns(headers: Sequence[str] | None, widths: Sequence[int], rows: Iterable[Sequence[str]], *,
            width: int | None = None, highlight: Mapping[str, str] | None = None) -> str:
    """A table of fixed-width columns under a ``~`` rule, for the views typed every few
    seconds (the HUD): plain cells in, escaped text out (measured as shown, ``\\uXXXX`` and
    all), each cell wrapped at word breaks inside its column as EvTable wrapped it, with one
    space either side, rows top-aligned; the last column takes what ``widths`` leave of
    ``width`` (78); no ``headers``: no header and no rule. ``highlight`` colours a phrase kept
    whole on one line (``{"TO ACT": "|g"}``). Costs microseconds a row, where EvTable costs
    milliseconds. ``widths`` are drawn for 78 columns and stretched to ``width`` (default: the
    viewer's, :func:`screen_width`); under :data:`NARROW`, one line a row
    (:func:`one_line_a_row`). For a screen reader: :func:`sentences`."""
    if spoken():
        return sentences(headers, ([escape(cell) for cell in row] for row in rows))
    width = width or screen_width()
    if width < NARROW:
        return one_line_a_row(headers, rows, width)
    widths = scaled(widths, width, headers)
    widths = [*widths, width - sum(widths)]
    highlight = highlight or {}

    def row_lines(cells: Sequence[str]) -> list[str]:
        wrapped = [wrap_words(printable(cell), size - 2) for cell, size in zip(cells, widths)]
        lines = []
        for index in range(max(len(cell) for cell in wrapped)):
            parts = []
            for cell, size in zip(wrapped, widths):
                text = cell[index] if index < len(cell) else ""
                shown = doubled(text)  # printable already: a \uXXXX counts as shown
                for phrase, colour in highlight.items():
                    shown = shown.replace(phrase, f"{colour}{phrase}|n")
                parts.append(" " + shown + " " * (size - 1 - len(text)))
            lines.append("".join(parts))
        return lines

    out = [*row_lines(headers), "~" * width] if headers else []
    for row in rows:
        out.extend(row_lines(row))
    return "\n".join(out)


def table(headers: Sequence[str], widths: Sequence[int], rows: Iterable[Sequence[str]], *,
          width: int | None = None) -> str:
    """A list view (not on a hot path) as Evennia's EvTable draws it, ``widths`` (drawn for 78
    columns, stretched to ``width``: default the viewer's) for all but the last column; cells
    already escaped. Under :data:`NARROW`: one line a row. For a screen reader:
    :func:`sentences`."""
    if spoken():
        return sentences(headers, rows)
    width = width or screen_width()
    if width < NARROW:
        from evennia.utils.ansi import strip_ansi

        return one_line_a_row(headers, ([strip_ansi(str(cell)) for cell in row] for row in rows), width)
    widths = scaled(widths, width, headers)
    if widths and len(widths) == len(headers):   # every column given: the last takes the rounding
        widths[-1] += width - sum(widths)
    from evennia.utils.evtable import EvTable

    drawn = EvTable(*headers, width=width, border="header")
    for row in rows:
        drawn.add_row(*row)
    for column, size in enumerate(widths):
        drawn.reformat_column(column, width=size)
    # EvTable turned the escaped cells' ``||`` into ``|`` and ``%%`` into ``%`` (its colour
    # codes are ANSI by now)
    return doubled(str(drawn))
