"""What an NPC run by the AI (``+combat/ai``) chooses: pure choices, values in, a choice out.

The game layer (``world/ai.py``) measures the options an NPC's sheet gives it under the
fight's rule system and hands them here; nothing here rolls, reads a sheet or knows a system.

- :func:`sides` — each fighter's side: the Storyteller's (``+combat/side``), else player
  characters on ``PLAYERS`` and NPCs on ``NPCS``.
- :func:`choose_target` — the enemy to attack: one able to fight before one who is down, the
  most hurt first, then the order given; None when no fighter is of another side.
- :func:`choose_attack` — the attack with the best expected effect: the most to-hit dice
  plus damage; an attack that does no damage only when nothing else does.
- :func:`choose_defense` — the defense with the largest pool; None when none is left.
- :func:`choose_spell` — the attack spell a caster casts: one it can cast reliably (the
  Power successes it needs at most half its Power dice), the worst damage type first, then
  the highest level; None when it knows none such.

Ties go to the earlier choice in the order given (the weapon in hand comes first).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

PLAYERS = "players"
NPCS = "npcs"


@dataclass(frozen=True)
class Fighter:
    """One fighter as the AI sees it: ``name``; ``npc``: run by the Storyteller; ``hurt``: how
    much of its health is gone, 0.0 (whole) to 1.0; ``down``: incapacitated; ``dead``."""

    name: str
    npc: bool
    hurt: float = 0.0
    down: bool = False
    dead: bool = False


@dataclass(frozen=True)
class Option:
    """An attack or defense the NPC can make: ``option`` as typed after ``attack <target>/``
    (``""``: the weapon in hand) or after ``defend``; ``dice``: its to-hit (or defense) pool,
    or for a single-die system its bonus; ``damage``: what a hit adds to the damage (0 for a
    defense, or an attack that does none); ``spell``: a spell cast instead of an attack."""

    option: str
    dice: int
    damage: int = 0
    spell: bool = False


@dataclass(frozen=True)
class SpellChoice:
    """An attack spell: its ``key``; ``required``: the Power successes it needs;
    ``damage_type``: bashing, lethal or aggravated."""

    key: str
    required: int
    damage_type: str


#: How bad each damage type is, for :func:`choose_spell` (worse is higher).
DAMAGE_RANK = {"bashing": 1, "lethal": 2, "aggravated": 3}


def sides(fighters: Sequence[Fighter], chosen: Mapping[str, str]) -> dict[str, str]:
    """``{name: side}``: the side the Storyteller gave (``chosen``, by name; case kept), else
    ``PLAYERS`` for a player character and ``NPCS`` for an NPC."""
    return {fighter.name: chosen.get(fighter.name) or (NPCS if fighter.npc else PLAYERS) for fighter in fighters}


def enemies(me: str, fighters: Sequence[Fighter], chosen: Mapping[str, str]) -> list[Fighter]:
    """The living fighters on another side than ``me``'s, in the order given."""
    side = sides(fighters, chosen)
    mine = side.get(me)
    return [fighter for fighter in fighters
            if fighter.name != me and side[fighter.name] != mine and not fighter.dead]


def choose_target(me: str, fighters: Sequence[Fighter], chosen: Mapping[str, str]) -> str | None:
    """The name of the enemy ``me`` attacks: the able before the down, then the most hurt,
    then the first given; None when there is no enemy (the NPC passes)."""
    found = enemies(me, fighters, chosen)
    if not found:
        return None
    best = min(range(len(found)), key=lambda i: (found[i].down, -found[i].hurt, i))
    return found[best].name


def choose_attack(options: Sequence[Option]) -> Option | None:
    """The attack with the most ``dice + damage`` (ties: the most dice, then the first);
    one that does no damage only when none does. None when there is none."""
    if not options:
        return None
    damaging = [option for option in options if option.damage > 0] or list(options)
    best = max(range(len(damaging)), key=lambda i: (damaging[i].dice + damaging[i].damage, damaging[i].dice, -i))
    return damaging[best]


def choose_defense(options: Sequence[Option]) -> Option | None:
    """The defense with the largest pool (ties: the first); None when there is none (the NPC
    answers ``none``)."""
    if not options:
        return None
    best = max(range(len(options)), key=lambda i: (options[i].dice, -i))
    return options[best]


def choose_spell(spells: Sequence[SpellChoice], power: int) -> SpellChoice | None:
    """The spell a caster with ``power`` Power dice casts: among those needing at most
    ``power // 2`` successes (the ones it casts more often than not fizzling), the worst
    damage type, then the most successes needed, then the first; None when none qualifies
    (no Power, or only harder spells)."""
    able = [spell for spell in spells if 0 < spell.required * 2 <= power]
    if not able:
        return None
    best = max(range(len(able)), key=lambda i: (DAMAGE_RANK.get(able[i].damage_type, 0), able[i].required, -i))
    return able[best]
