"""Lines of working as data (``docs/architecture.md``, "Events"): what the rules say happened,
under an event's head line, as a message key of the game's catalogue and its values, never
a sentence. Kept apart from the engine so every rule system can make them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Line:
    """One line of working as data: ``key``, a message of the catalogue's ``[line]`` entries
    (``"line.attack_cancelled"``), and its ``values``: names, numbers, and health values (a
    system's ``Health``), which the game words for each reader (a track's boxes, or their
    counts in words for a screen reader)."""

    key: str
    values: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Dying:
    """A health value that would kill, shown as the health kept while the game master
    decides, and dying (``Draft.store_health``)."""

    health: Any


class Drawn:
    """A value of a line that the game draws for each reader rather than words: several lines
    laid out for the reader's width, or sentences for a screen reader (elethril's segment
    timeline ``Board``). Data, like every value; the game registers how each kind is drawn
    (``world.wording.draws``, once, as it starts)."""

    __slots__ = ()


def roll_of(name: str, rolled) -> Line:
    """``"<name> <the roll>"``: who rolled ``rolled`` (an attack, a defense: anything with a
    ``describe()``, its roll as a line) and its roll."""
    return Line("line.roll_of", {"name": name, "roll": rolled.describe()})


#: How a line reads where the rules must give text (a refusal's ``str()``): the game's
#: catalogue, as the game registers it (:func:`use_wording`); until then its key and values.
_wording: Callable[[Line, str], str] | None = None


def use_wording(words: Callable[[Line, str], str] | None) -> None:
    """Word lines with ``words`` (a line and a rule system's key, or "", in; one line of plain
    text out) from now on: the game registers its catalogue's words once, as it starts
    (``world.apps``)."""
    global _wording
    _wording = words


def text_of(line: Line, system: str = "") -> str:
    """``line`` in words (:func:`use_wording`), ``system``'s own where it has them; its key
    and values when no words are registered or the words have no such key."""
    if _wording is not None:
        try:
            return _wording(line, system)
        except KeyError:
            pass
    return f"{line.key} {dict(line.values)}"


class Refusal(ValueError):
    """A refusal of the rules, one player-facing line: raised with a sentence, or with a
    :class:`Line` (a refusal key of the catalogue and its values: the words are the game's).
    ``str()`` is that line as plain text (:func:`text_of`); ``line`` is the line, or None;
    ``system``: the key of the rule system whose own words apply, or "". The errors of the
    fight (``CombatError``), of dice text (``DiceSyntaxError``) and of chargen
    (``ChargenError``) are refusals."""

    def __init__(self, message: str | Line = "") -> None:
        super().__init__(message)
        self.line = message if isinstance(message, Line) else None
        self.system = ""

    def __str__(self) -> str:
        return text_of(self.line, self.system) if self.line is not None else super().__str__()
