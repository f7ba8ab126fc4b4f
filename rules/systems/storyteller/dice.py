"""Storyteller dice and results shared by the system (``rules.systems.storyteller``) and its
magic (``rules.systems.storyteller.magic``): a d10 pool against a difficulty (``PoolRoll``,
``roll_pool``), a defense roll and the harm of an attack. Source:
the storyteller seed; in the project's words: ``docs/rules/storyteller.md``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules.dice import Roller, roll_dice
from rules.lines import Line
from rules.systems.base import Pool

if TYPE_CHECKING:
    from rules.systems.storyteller.system import StorytellerHealth



@dataclass(frozen=True)
class PoolRoll:
    """A d10 pool rolled against a difficulty.

    ``ones_cancel``: each 1 cancels a success (never below 0) and the roll may botch (no
    success, at least one 1). Damage and soak rolls set it False: no cancelling, no botch.
    ``automatic``: successes that 1s cannot cancel (Willpower). docs/rules/storyteller.md "Dice".
    """

    faces: tuple[int, ...]
    difficulty: int
    ones_cancel: bool = True
    automatic: int = 0

    @property
    def successes(self) -> int:
        return sum(1 for face in self.faces if face >= self.difficulty)

    @property
    def ones(self) -> int:
        return sum(1 for face in self.faces if face == 1)

    @property
    def net(self) -> int:
        cancelled = self.ones if self.ones_cancel else 0
        return max(0, self.successes - cancelled) + self.automatic

    @property
    def botch(self) -> bool:
        return self.ones_cancel and self.automatic == 0 and self.successes == 0 and self.ones > 0

    def describe(self) -> Line:
        """``"vs 6: 10 8 3 1 -> 2 successes - 1 one = 1 success"`` as a line of working."""
        if not self.faces and not self.automatic:
            return Line("storyteller.line.roll_empty", {"difficulty": self.difficulty, "successes": successes(0)})
        if self.faces:
            faces = " ".join(str(face) for face in sorted(self.faces, reverse=True))
            line = Line("storyteller.line.roll", {"difficulty": self.difficulty, "faces": faces,
                                                  "successes": successes(self.successes)})
        else:
            line = Line("storyteller.line.roll_no_dice", {"difficulty": self.difficulty,
                                                          "successes": successes(self.successes)})
        if self.ones_cancel and self.ones and self.successes:
            line = Line("storyteller.line.cancelled", {"roll": line, "ones": Line(
                "storyteller.line.one" if self.ones == 1 else "storyteller.line.ones", {"count": self.ones})})
        if self.automatic:
            line = Line("storyteller.line.willpower", {"roll": line, "automatic": self.automatic})
        if self.botch:
            return Line("storyteller.line.botch", {"roll": line})
        return Line("storyteller.line.net", {"roll": line, "net": successes(self.net)})

    def to_record(self) -> dict[str, Any]:
        return {"faces": list(self.faces), "difficulty": self.difficulty,
                "ones_cancel": self.ones_cancel, "automatic": self.automatic}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> PoolRoll:
        return cls(tuple(int(face) for face in record["faces"]), int(record["difficulty"]),
                   bool(record["ones_cancel"]), int(record["automatic"]))


def successes(count: int) -> Line:
    """``"1 success"``, ``"2 successes"`` as a line."""
    return Line("storyteller.line.success" if count == 1 else "storyteller.line.successes", {"count": count})


def levels(count: int) -> Line:
    """``"1 level"``, ``"3 levels"`` as a line."""
    return Line("storyteller.line.level" if count == 1 else "storyteller.line.levels", {"count": count})


def roll_pool(size: int, difficulty: int, roller: Roller, *, ones_cancel: bool = True,
              automatic: int = 0) -> PoolRoll:
    """Roll ``size`` d10 (none when size <= 0: the pool is empty) against ``difficulty``."""
    faces = roll_dice(size, 10, roller) if size > 0 else ()
    return PoolRoll(faces, difficulty, ones_cancel, automatic)


@dataclass(frozen=True)
class StorytellerDefense:
    kind: str
    defender: str
    pool: Pool
    roll: PoolRoll
    weapon: str = ""

    def describe(self) -> Line:
        """``"dodge: Dexterity 3 + Dodge 2 = 5 dice vs 6: ..."`` as a line of working."""
        return Line("storyteller.line.defense", {"kind": self.kind, "pool": self.pool.dice_line(),
                                                 "roll": self.roll.describe()})


@dataclass(frozen=True)
class Harm:
    """Damage dealt to one combatant, with the rolls that produced it."""

    name: str
    damage_type: str
    pool: Pool | None
    damage_roll: PoolRoll | None
    soak_roll: PoolRoll | None
    levels: int
    health_before: StorytellerHealth
    health_after: StorytellerHealth
