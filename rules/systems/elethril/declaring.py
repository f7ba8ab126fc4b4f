"""What an elethril round is declared and rolled with (the elethril seed, sections 1a-4b): a
fighter's :class:`Declaration`, the sides and parties that share a die (:class:`Group`,
:class:`GroupRoll`), each actor's :class:`SegmentInitiative`; and the words for them. The
system (``rules.systems.elethril.system``) plans and rolls them; the fight's actions
(``rules.systems.elethril.actions``) keep them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules.lines import Line, text_of
from rules.systems.base import Combatant, InitiativeRoll, Pool
from rules.systems.elethril.timeline import landing

if TYPE_CHECKING:
    from rules.systems.elethril.system import Spell


def signed_parts(parts: Sequence[tuple[str | Line, int]]) -> Line | str:
    """``" + 3 (short sword) - 1 (Reaction)"``: each part after a base, labelled (a label a
    name, or a line), as one line (``elethril.value.signed_*``); "" for no parts."""
    chain: Line | str = ""
    for label, value in parts:
        values = {"parts": chain, "value": abs(value), "label": label}
        if label:
            chain = Line("elethril.value.signed_minus" if value < 0 else "elethril.value.signed_plus", values)
        else:
            chain = Line("elethril.value.signed_minus_bare" if value < 0 else "elethril.value.signed_plus_bare", values)
    return chain



def item_line(item_name: str, spell_name: str) -> Line:
    """A magical item with the spell it holds, as a line: ``"wand of Fireball"``."""
    return Line("elethril.value.item", {"kind": item_name, "spell": spell_name})


def item_label(item_name: str, spell: Spell) -> str:
    """:func:`item_line` in the game's words (``rules.lines.text_of``), as the fight's records
    keep it (an event's label): ``"wand of Fireball"``."""
    return text_of(item_line(item_name, spell.name), "elethril")



# ========================================================================== initiative
@dataclass(frozen=True)
class Group:
    """A side (round 1, seed 1a) or a coordinating party (round 2 on, seed 1b): ``members``
    share one d10; those in ``follow_slowest`` add the slowest member's modifiers instead of
    their own (chosen before the roll)."""

    name: str
    members: tuple[str, ...]
    follow_slowest: tuple[str, ...] = ()


@dataclass(frozen=True)
class Declaration:
    """What ``actor`` does this round, declared before initiative is rolled.

    - attack: ``weapon`` (as typed, e.g. ``"short sword +1"``; "" = the weapon in hand, else
      a fist), ``off_hand`` (a second weapon, "" for none), ``attacks`` with the primary
      weapon (0: 1 in melee, the rate of fire for missiles);
    - ``spell``: a spell key (``cast <spell>``); with ``item``, a magical item type (``[items]``:
      wand, potion …), the spell that item discharges (``use <item>``: at initiative + the
      item's modifier, no casting time, no Caster Level). This engine cannot see the sheet:
      the game layer checks the item is on it with a charge left (unless ``storyteller``);
    - ``modifiers``: standard modifier keys (``hasted``, ``higher-ground`` …);
      ``modifier``: the ST's initiative modifier; ``forfeited``: this actor forfeited a
      carried-over action (+1, seed 3a);
    - ``storyteller``: the Storyteller declares for an NPC, so a weapon not in hand, typed
      plusses, more attacks than the sheet's and any spell are allowed. Otherwise everything
      that makes the action stronger comes from the sheet (see the module docstring).
    """

    actor: Combatant
    target: str = ""
    weapon: str = ""
    off_hand: str = ""
    attacks: int = 0
    spell: str = ""
    item: str = ""
    modifiers: tuple[str, ...] = ()
    modifier: int = 0
    forfeited: bool = False
    storyteller: bool = False


@dataclass(frozen=True)
class GroupRoll:
    """One d10 for a side or party; ``base`` = the die, or in round 1 the normalised base
    (the lowest side 1, the others the difference + 1)."""

    name: str
    die: int
    base: int
    #: Round 1: segments behind the winning side, when that is enough to be surprised
    #: (``[surprise]`` in the data; seed 1a: the side initiative "is used to determine
    #: surprise"); 0 for none.
    surprised: int = 0
    #: Of those, the segments the data's ``[surprise] segments`` added: a surprise that costs
    #: time. Without them the side is only behind by its gap, and is said to be.
    lost: int = 0

    def describe(self) -> Line:
        """``"B: d10 7 -> base 14 (surprised: 13 segments behind)"``."""
        values = {"name": self.name, "die": self.die, "base": self.base}
        if self.surprised:
            behind = Line(("elethril.line.surprised_behind_one" if self.surprised == 1 else "elethril.line.surprised_behind")
                          if self.lost else ("elethril.line.behind_one" if self.surprised == 1
                                             else "elethril.line.behind"), {"count": self.surprised})
            then = Line("elethril.line.base_behind" if self.base != self.die else "elethril.line.behind_only",
                        {"base": self.base, "behind": behind})
        elif self.base != self.die:
            then = Line("elethril.line.base", {"base": self.base})
        else:
            return Line("elethril.line.group", values)
        return Line("elethril.line.group_then", {**values, "then": then})

    def to_record(self) -> dict[str, Any]:
        record = {"name": self.name, "die": self.die, "base": self.base, "surprised": self.surprised}
        return {**record, "lost": self.lost} if self.lost else record


@dataclass(frozen=True)
class SegmentInitiative:
    """One actor's initiative for one round. ``dice``: the actor's own d10s (one per attack,
    the best kept) — empty when the base is ``group``'s. ``total`` = base + ``parts``;
    ``initiative`` = total, at least the minimum; it lands at ``landing`` (round, segment)."""

    actor: str
    round: int
    base: int
    parts: tuple[tuple[str, int], ...]
    dice: tuple[int, ...] = ()
    group: str = ""
    minimum: int = 1

    @property
    def total(self) -> int:
        return self.base + sum(value for _, value in self.parts)

    @property
    def initiative(self) -> int:
        return max(self.minimum, self.total)

    @property
    def landing(self) -> tuple[int, int]:
        return landing(self.round, self.initiative)

    def describe(self) -> Line:
        """``"Ann: d10 7, 4 -> 4 + 3 (short sword) = 7 -> segment 7"``."""
        if self.group:
            base = Line("elethril.line.group_base", {"group": self.group, "base": self.base})
        else:
            base = Line("elethril.line.dice_best" if len(self.dice) > 1 else "elethril.line.dice",
                        {"dice": ", ".join(str(d) for d in self.dice), "base": self.base})
        round_number, segment = self.landing
        where = Line("elethril.line.at_segment", {"segment": segment}) if round_number == self.round \
            else Line("elethril.line.at_round_segment", {"round": round_number, "segment": segment})
        values = {"actor": self.actor, "base": base, "parts": signed_parts(self.parts), "total": self.total,
                  "where": where}
        if self.total < self.minimum:
            return Line("elethril.line.initiative_plus_minimum" if self.parts else "elethril.line.initiative_minimum",
                        values)
        return Line("elethril.line.initiative_plus" if self.parts else "elethril.line.initiative_base", values)

    def as_initiative_roll(self) -> InitiativeRoll:
        """The base interface's value: ``total`` = the final initiative, no tiebreak (ties act
        together)."""
        return InitiativeRoll(self.actor, Pool(self.parts), self.base, self.initiative, 0)

    def to_record(self) -> dict[str, Any]:
        return {"actor": self.actor, "round": self.round, "base": self.base,
                "parts": Pool(self.parts).to_record(), "dice": list(self.dice),
                "group": self.group, "minimum": self.minimum}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> SegmentInitiative:
        return cls(actor=record["actor"], round=int(record["round"]), base=int(record["base"]),
                   parts=Pool.from_parts(record["parts"]).parts,
                   dice=tuple(int(d) for d in record.get("dice", ())), group=record.get("group", ""),
                   minimum=int(record.get("minimum", 1)))


