"""The words of a fight's lines of working (``rules.engine.Line``: a message key and its values),
from the message catalogue, for every output: ``msg`` (escaped), a screen reader (a track's
boxes as words, from its counts), and plain text for a log or a page. ``world.narration``
uses them for the events; ``world.fights`` for the roll log it stores."""

from __future__ import annotations

from collections.abc import Callable

from rules.lines import Drawn, Dying, Line
from world.catalogue import catalogue, entry, plain_entry
from world.text import escape, screen_width, track_words
from world.text import spoken as is_spoken


class _Fill(dict):
    """Values as given; any other ``{name}`` left in place."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


#: How each kind of drawn value (``rules.lines.Drawn``) is drawn: {its type: its drawer},
#: registered once as the game starts (:func:`draws`, ``world.apps``).
_drawers: dict[type, Callable[[Drawn, bool, bool], str]] = {}


def draws(kind: type[Drawn], drawer: Callable[[Drawn, bool, bool], str]) -> None:
    """Draw every value of ``kind`` in a line with ``drawer``: the value, whether for a screen
    reader (``spoken``) and whether as plain text (``plain``: a log, a page) in; its text out,
    its lines after the first indented by 2 as an event's lines are, escaped for ``msg``
    unless plain. The game registers each kind once, as it starts (``world.apps``)."""
    _drawers[kind] = drawer


def _drawer(value: Drawn) -> Callable[[Drawn, bool, bool], str]:
    for kind in type(value).__mro__:
        if kind in _drawers:
            return _drawers[kind]
    raise LookupError(f"No drawer for a {type(value).__name__}: register one (world.wording.draws).")


def value_text(value, spoken: bool = False) -> str:
    """A value of a :class:`~rules.engine.Line` in words: a health value as the rules show it
    (``"Hurt (-1) [LB.....]"``), for a screen reader its track's counts in words (``"Hurt
    (-1), 1 lethal, 1 bashing, 5 of 7 free"``); anything else as text."""
    if isinstance(value, Dying):
        return entry("value.dying").format_map(_Fill(health=value_text(value.health, spoken)))
    if hasattr(value, "track_line") and hasattr(value, "meter"):
        return health_text(value, spoken=spoken)
    return str(value)


def health_text(health, system: str = "", *, spoken: bool | None = None) -> str:
    """A system's health value in the game's words (plain text): ``"Hurt (-1) [LB.....]"``
    (``Health.track_line``), for a screen reader a track's counts in words instead of its
    boxes (``"Hurt (-1), 1 lethal, 1 bashing, 5 of 7 free"``; ``spoken`` None: as the view
    being built is, ``world.text.spoken``). Points read the same either way."""
    if (is_spoken() if spoken is None else spoken) and hasattr(health, "boxes"):
        return f"{health_words(health, system)}, {track_words(health)}"
    return line_text(health.track_line(), system, plain=True)


def health_words(health, system: str = "") -> str:
    """A health value in the game's words without a track's boxes: ``"Hurt (-1)"`` (``Health.line``)."""
    return line_text(health.line(), system, plain=True)


#: Lines worded lately, each way: ``{(id(line), system, spoken, plain[, width]): (line, the
#: catalogue, its text)}``, the width only for a line with a drawn value in it (the only words
#: laid out for a width). An event's lines are worded for the room, the roll log and the web
#: page in the same command; a line is frozen, so its words are kept while the line and the
#: catalogue they came from are (the entry holds the line: its id is not reused meanwhile).
_lately: dict[tuple, tuple] = {}
_KEPT = 512
_drawings = 0   # drawn values worded so far: a line that drew one was laid out for a width


def line_text(line, system: str = "", *, spoken: bool = False, plain: bool = False) -> str:
    """One line of working: a :class:`~rules.engine.Line` from the catalogue (its values
    shown as typed; a value that is itself a line worded as one: a roll within a sentence), or
    the rules' finished string. ``plain``: text for a log or a page (not
    escaped, the template's colour codes dropped); else escaped for ``msg``; a drawn value
    laid out for the view's width (``world.text.screen_width``)."""
    global _drawings
    if isinstance(line, str):
        return line if plain else escape(line)
    key, messages = (id(line), system, spoken, plain), catalogue()
    for stored in (key, (*key, screen_width())):
        kept = _lately.get(stored)
        if kept is not None and kept[0] is line and kept[1] is messages:
            _drawings += stored is not key   # a line within a line: the outer one drew too
            return kept[2]
    drawn = _drawings
    template = plain_entry(line.key, system) if plain else entry(line.key, system)
    text = template.format_map(_Fill({name: _worded(value, system, spoken, plain) for name, value in line.values.items()}))
    if len(_lately) >= _KEPT:
        _lately.clear()
    _lately[key if drawn == _drawings else (*key, screen_width())] = (line, messages, text)
    return text


def _worded(value, system: str, spoken: bool, plain: bool) -> str:
    """A line's value as it goes into its template: a line within it worded as a line (its
    own template's colours kept, its values escaped), a drawn value by its kind's drawer
    (:func:`draws`: elethril's segment timeline drawn for the reader's width), anything else
    as :func:`value_text`."""
    if isinstance(value, Line):
        return line_text(value, system, spoken=spoken, plain=plain)
    if isinstance(value, tuple):
        return entry("value.separator", system).join(_worded(part, system, spoken, plain) for part in value)
    if isinstance(value, Drawn):  # drawn for the reader, its own lines escaped
        global _drawings
        _drawings += 1
        return _drawer(value)(value, spoken, plain)
    text = value_text(value, spoken)
    return text if plain else escape(text)


def lines_text(lines, system: str = "", *, spoken: bool = False) -> str:
    """An event's lines for ``msg``, each indented by 2."""
    return "\n".join(f"  {line_text(line, system, spoken=spoken)}" for line in lines)


