"""What the shared commands hand to one rule system's own parsing: the ``+combat`` switches
only some systems have, and ``cast``/``+spells`` where a system casts its own way. Each
returns False when the input is not its to handle."""

from __future__ import annotations

from commands import aeon, eldritch, elethril

#: The +combat switches of single systems beyond the shared ones.
SWITCHES: tuple[str, ...] = aeon.SWITCHES + eldritch.SWITCHES + elethril.SWITCHES


def combat_switch(command, switch: str) -> bool:
    return any(system.combat_switch(command, switch) for system in (aeon, eldritch, elethril))


def cast(command, actor: str | None, spell: str, targets: list[str]) -> bool:
    return elethril.cast(command, actor, spell, targets)


def cast_usage(command) -> bool:
    return elethril.cast_usage(command)


def spells(command) -> bool:
    return elethril.spells(command)
