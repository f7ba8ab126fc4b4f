"""What a step of the fight produced: :class:`Event` values (data, never sentences),
:class:`LogEntry` values for the roll log, and the :class:`Outcome` that carries both with the
new state.

An event names what happened by ``kind`` and, for what is told in words, by its message
``key`` in the game's message catalogue (``world/narration``): the words are the game's, the
facts are the event's. ``refs`` name fighters (and other game objects) by id, to be shown to
each viewer as that viewer sees them; ``values`` are plain facts (numbers, labels, names);
``lines`` are the working of the dice: each a :class:`Line` (a message key and its values,
worded by the game) or, where the rules still word it, a finished string.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.engine.state import FightState
from rules.lines import Dying, Line  # noqa: F401 (part of what an event carries)

#: The kinds of event (``Event.kind``):
#: ``said``: told to the fight's room (``key``, ``actor`` for $You(), ``refs``, ``values``, ``lines``);
#: ``notice``: told to ``to`` alone (a defense prompt, "your turn");
#: ``turn``: the fight moved on (``data``: round, slot, waiting: names);
#: ``health``: a fighter's health changed (``data``: name, current, maximum, text, incapacitated, dead);
#: ``roster``: a fighter left (``data``: left);
#: ``order``: the game master changed this round's acting order (``data``: round, order);
#: ``rolled``: a ``+roll`` (``values``: line; ``data``: private, gm; ``to``: the roller's player);
#: ``ended``: the fight is over.
KINDS = ("said", "notice", "turn", "health", "roster", "order", "rolled", "ended")


@dataclass(frozen=True)
class Event:
    """One thing that happened in a fight (see :data:`KINDS`)."""

    kind: str
    key: str = ""
    actor: int | None = None
    refs: Mapping[str, int] = field(default_factory=dict)
    values: Mapping[str, Any] = field(default_factory=dict)
    lines: tuple[str | Line, ...] = ()
    to: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class LogEntry:
    """One roll-log entry: who (``actor``, a name), ``what`` (its title: a catalogue line, or
    a name or notation that needs no words), the working ``lines``, the ``round``, and the
    dice drawn since the entry before it as ``(sides, face)``."""

    actor: str
    what: str | Line
    lines: tuple[str | Line, ...]
    round: int
    dice: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class Outcome:
    """What :func:`rules.engine.step` returns: the new ``state``, the ``events`` in order, the
    roll-log ``log`` entries, ``dice``: every die drawn, ``(sides, face)`` in order, and
    ``result``: what the action returned (an initiative roll, the names added …)."""

    state: FightState
    events: tuple[Event, ...]
    log: tuple[LogEntry, ...]
    dice: tuple[tuple[int, int], ...] = ()
    result: Any = None
