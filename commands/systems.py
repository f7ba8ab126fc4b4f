"""What the shared commands hand to one rule system's own parsing: the ``+combat`` switches
only some systems have, and ``cast``/``+spells`` where a system casts its own way. Each
returns False when the input is not its to handle."""

from __future__ import annotations

from commands import aeon, eldritch

#: The +combat switches of single systems (and of the Storyteller's tools) beyond the shared ones.
SWITCHES: tuple[str, ...] = ()
SWITCHES += aeon.SWITCHES + eldritch.SWITCHES


def combat_switch(command, switch: str) -> bool:
    return aeon.combat_switch(command, switch) or eldritch.combat_switch(command, switch)


def cast(command, actor: str | None, spell: str, targets: list[str]) -> bool:
    return False


def cast_usage(command) -> bool:
    return False


def spells(command) -> bool:
    return False
