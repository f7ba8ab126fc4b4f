"""Aeon dice and harm: a d10 pool at a target number (``AeonRoll``, ``roll_aeon``) and the
damage one attack deals (``Harm``), shared by the system (``rules.systems.aeon``) and its
tactics (``rules.systems.aeon.tactics``). Source: the aeon seed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules.dice import Roller, roll_dice
from rules.systems.base import plural

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

    def verdict(self) -> str:
        if self.botch:
            return "BOTCH"
        if not self.difficulty:
            return plural(self.successes, 'success')
        if self.succeeded:
            return plural(self.successes, 'success')
        return "failure"

    def describe(self) -> str:
        """``"TN 7, needs 2: 9 7 3 1 -> 2 successes = success"``."""
        need = f", needs {self.difficulty}" if self.difficulty else ""
        if not self.faces and not self.automatic:
            return f"TN {self.target_number}{need}: no dice (empty pool) -> 0 successes"
        faces = " ".join(str(face) for face in sorted(self.faces, reverse=True)) or "no dice"
        if self.automatic:
            faces += f" + {self.automatic} automatic"
        text = f"TN {self.target_number}{need}: {faces} -> {plural(self.successes, 'success')}"
        if self.botch:
            return text + " = BOTCH"
        if self.difficulty:
            return text + (" = success" if self.succeeded else " = failure")
        return text

    def to_record(self) -> dict[str, Any]:
        return {"faces": list(self.faces), "target_number": self.target_number,
                "difficulty": self.difficulty, "automatic": self.automatic}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> AeonRoll:
        return cls(tuple(int(face) for face in record["faces"]), int(record["target_number"]),
                   int(record["difficulty"]), int(record.get("automatic", 0)))


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
