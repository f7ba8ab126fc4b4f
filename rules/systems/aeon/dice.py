"""Aeon dice and harm: a d10 pool at a target number (``AeonRoll``, ``roll_aeon``) and the
damage one attack deals (``Harm``), shared by the system (``rules.systems.aeon``) and its
tactics (``rules.systems.aeon.tactics``). Source: the aeon seed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules.dice import Roller, roll_dice
from rules.lines import Line

if TYPE_CHECKING:
    from rules.systems.aeon.system import AeonHealth, Soak


@dataclass(frozen=True)
class AeonRoll:
    """A d10 pool at ``target_number``; ``difficulty`` successes needed (0: a damage roll,
    which counts successes and never botches). 1s never cancel. Botch: no success, a 1."""

    faces: tuple[int, ...]
    target_number: int = 7
    difficulty: int = 1
    automatic: int = 0  # automatic successes (seed: Mounted Combat; Hiding when obscured)

    @property
    def successes(self) -> int:
        return sum(1 for face in self.faces if face >= self.target_number) + self.automatic

    @property
    def ones(self) -> int:
        return sum(1 for face in self.faces if face == 1)

    @property
    def botch(self) -> bool:
        return self.difficulty > 0 and self.successes == 0 and self.ones > 0

    @property
    def succeeded(self) -> bool:
        return self.successes >= self.difficulty > 0

    def describe(self) -> Line:
        """``"TN 7, needs 2: 9 7 3 1 -> 2 successes = success"`` as a line of working
        (``aeon.line.roll*``; its faces high to low, pure notation)."""
        target = (Line("aeon.line.tn_needs", {"target_number": self.target_number, "difficulty": self.difficulty})
                  if self.difficulty else Line("aeon.line.tn", {"target_number": self.target_number}))
        if not self.faces and not self.automatic:
            return Line("aeon.line.roll_empty", {"tn": target})
        faces: Line | str = " ".join(str(face) for face in sorted(self.faces, reverse=True)) or Line("aeon.line.no_dice")
        if self.automatic:
            faces = Line("aeon.line.automatic", {"faces": faces, "count": self.automatic})
        line = Line("aeon.line.roll", {"tn": target, "faces": faces, "successes": successes(self.successes)})
        if self.botch:
            return Line("aeon.line.rolled_botch", {"roll": line})
        if self.difficulty:
            return Line("aeon.line.rolled_success" if self.succeeded else "aeon.line.rolled_failure", {"roll": line})
        return line

    def to_record(self) -> dict[str, Any]:
        return {"faces": list(self.faces), "target_number": self.target_number,
                "difficulty": self.difficulty, "automatic": self.automatic}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> AeonRoll:
        return cls(tuple(int(face) for face in record["faces"]), int(record["target_number"]),
                   int(record["difficulty"]), int(record.get("automatic", 0)))


def successes(count: int) -> Line:
    """``"1 success"``, ``"2 successes"``."""
    return Line("aeon.line.success" if count == 1 else "aeon.line.successes", {"count": count})


def pool_roll(pool, roll: AeonRoll) -> Line:
    """A pool and its roll: ``"Dexterity 3 + Brawl 2 = 5 dice TN 7, needs 1: ..."``."""
    return Line("aeon.line.pool_roll", {"pool": pool.dice_line(), "roll": roll.describe()})


def line_record(line: Line | str) -> Any:
    """A line of working as a fight stores it (a pending attack's preface): ``{"key": ...,
    "values": {...}}``, a line within it alike; its values are names, numbers and notation."""
    if isinstance(line, Line):
        return {"key": line.key, "values": {name: line_record(value) for name, value in line.values.items()}}
    return line


def line_from_record(record: Any) -> Line | Any:
    """The line :func:`line_record` stored (a string stored before lines were data stays one)."""
    if isinstance(record, Mapping) and set(record) == {"key", "values"}:
        return Line(str(record["key"]), {name: line_from_record(value) for name, value in record["values"].items()})
    return record


def roll_aeon(size: int, roller: Roller, *, target_number: int = 7, difficulty: int = 1,
              automatic: int = 0) -> AeonRoll:
    """Roll ``size`` d10 (none when size <= 0: an empty pool), plus ``automatic`` successes."""
    return AeonRoll(roll_dice(size, 10, roller) if size > 0 else (), target_number, difficulty, automatic)


@dataclass(frozen=True)
class Harm:
    """Damage dealt to one combatant: the arithmetic and the roll that produced it.
    ``damage_roll`` is None when the gross damage fell below hardness."""

    name: str
    damage_type: str
    gross: int
    soak: Soak
    damage_roll: AeonRoll | None
    levels: int
    health_before: AeonHealth
    health_after: AeonHealth
