"""What an NPC run by the AI (``+combat/ai``) chooses: pure choices, values in, a choice out.

The game layer (``world/ai.py``) measures the options an NPC's sheet gives it under the
fight's rule system and hands them here; nothing here rolls, reads a sheet or knows a system.

- :func:`sides` — each fighter's side: the Storyteller's (``+combat/side``), else player
  characters on ``PLAYERS`` and NPCs on ``NPCS``.
- :func:`rank_targets` — the enemies to attack, best first: the most hurt first, then the
  order given; never the helpless (down, dying or idle) unless the Storyteller allows it
  (``+combat/helpless``), and then after the able; empty when there is none.
- :func:`choose_attack` — the attack with the most harm to expect: its chance to hit times
  what a hit does, lethal counting twice and aggravated three times as much as bashing; an
  attack that does no damage only when nothing else does.
- :func:`choose_defense` — the defense with the largest pool; None when none is left.
- :func:`worth_defending` — whether to defend at all where a defense costs the NPC its
  action: only once it is half hurt (the AI keeps its action to attack until then).
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
    much of its health is gone, 0.0 (whole) to 1.0; ``down``: incapacitated (the dying too);
    ``dead``; ``idle``: idle or link-dead."""

    name: str
    npc: bool
    hurt: float = 0.0
    down: bool = False
    dead: bool = False
    idle: bool = False

    @property
    def helpless(self) -> bool:
        """Down or idle: left alone unless the Storyteller allows otherwise."""
        return self.down or self.idle


@dataclass(frozen=True)
class Option:
    """An attack or defense the NPC can make: ``option`` as typed after ``attack <target>/``
    (``""``: the weapon in hand) or after ``defend``; ``dice``: its to-hit (or defense) pool,
    or for a single-die system its bonus; ``damage``: what a hit does (0 for a defense, or an
    attack that does none); ``chance``: of an attack, its chance to hit, 0.0 to 1.0 (its
    difficulty in it); ``damage_type``: the system's word for the damage (bashing, lethal …);
    ``spell``: a spell cast instead of an attack."""

    option: str
    dice: int
    damage: int = 0
    chance: float = 1.0
    damage_type: str = ""
    spell: bool = False

    @property
    def harm(self) -> float:
        """The harm to expect: ``chance * damage``, times the damage type's rank
        (:func:`damage_rank`)."""
        return self.chance * self.damage * damage_rank(self.damage_type)


@dataclass(frozen=True)
class SpellChoice:
    """An attack spell: its ``key``; ``required``: the Power successes it needs;
    ``damage_type``: bashing, lethal or aggravated."""

    key: str
    required: int
    damage_type: str


#: How bad each damage type is, for :func:`choose_spell` and :func:`choose_attack` (worse is
#: higher; by the start of the system's word: "bash" is bashing, "agg" aggravated).
DAMAGE_RANK = {"bashing": 1, "lethal": 2, "aggravated": 3}


def damage_rank(damage_type: str) -> int:
    """:data:`DAMAGE_RANK` of a system's damage word, read by its start (``"bash"``,
    ``"Lethal"``, ``"agg"``); 1 for any other (hit points, no damage)."""
    word = damage_type.casefold()
    return next((rank for name, rank in DAMAGE_RANK.items() if word and name.startswith(word[:3])), 1)


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


def rank_targets(me: str, fighters: Sequence[Fighter], chosen: Mapping[str, str],
                 helpless_too: bool = False) -> list[str]:
    """The names of the enemies ``me`` may attack, best first: the most hurt, then the order
    given; the helpless (:attr:`Fighter.helpless`) only when ``helpless_too``, and then after
    the able; empty when there is none (the NPC passes). The game tries the next when the
    rules refuse every attack on one (a hidden fighter)."""
    found = [fighter for fighter in enemies(me, fighters, chosen) if helpless_too or not fighter.helpless]
    order = sorted(range(len(found)), key=lambda i: (found[i].helpless, -found[i].hurt, i))
    return [found[i].name for i in order]


def choose_target(me: str, fighters: Sequence[Fighter], chosen: Mapping[str, str],
                  helpless_too: bool = False) -> str | None:
    """The first of :func:`rank_targets`, or None."""
    return next(iter(rank_targets(me, fighters, chosen, helpless_too)), None)


def choose_attack(options: Sequence[Option]) -> Option | None:
    """The attack with the most :attr:`Option.harm` (ties: the likelier to hit, then the most
    dice, then the first); one that does no damage only when none does, then the likeliest
    to hit. None when there is none with a chance to hit (the NPC passes)."""
    able = [option for option in options if option.chance > 0]
    if not able:
        return None
    damaging = [option for option in able if option.damage > 0]
    pool = damaging or able
    best = max(range(len(pool)), key=lambda i: (pool[i].harm, pool[i].chance, pool[i].dice, -i))
    return pool[best]


def choose_defense(options: Sequence[Option]) -> Option | None:
    """The defense with the largest pool (ties: the first); None when there is none with a
    die in it (the NPC answers ``none`` and keeps its action)."""
    able = [option for option in options if option.dice > 0]
    if not able:
        return None
    best = max(range(len(able)), key=lambda i: (able[i].dice, -i))
    return able[best]


def choose_spell(spells: Sequence[SpellChoice], power: int) -> SpellChoice | None:
    """The spell a caster with ``power`` Power dice casts: among those needing at most
    ``power // 2`` successes (the ones it casts more often than not fizzling), the worst
    damage type, then the most successes needed, then the first; None when none qualifies
    (no Power, or only harder spells)."""
    able = [spell for spell in spells if 0 < spell.required * 2 <= power]
    if not able:
        return None
    best = max(range(len(able)), key=lambda i: (damage_rank(able[i].damage_type), able[i].required, -i))
    return able[best]


def worth_defending(hurt: float, spends_action: bool) -> bool:
    """Whether an NPC with ``hurt`` of its health gone (0.0 to 1.0) answers an attack with a
    defense: always where a defense is free, else (it would cost this round's action, as in
    storyteller) only once half its health is gone."""
    return not spends_action or hurt >= 0.5
