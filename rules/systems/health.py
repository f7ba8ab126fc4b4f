"""The health track the d10 pool systems share (storyteller and aeon): health levels filled by
bashing, lethal and aggravated damage, always listed aggravated above lethal above bashing, each
level with its wound penalty. What differs is what a full track means: each system's subclass
says what damage past the last level does (it turns bashing lethal) and when the fighter is dead
(``rules.systems.storyteller.system.StorytellerHealth``, ``rules.systems.aeon.system.AeonHealth``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from rules.lines import Line, text_of

DAMAGE_TYPES = ("bashing", "lethal", "aggravated")
"""The damage types, least serious first (healing's default order)."""


@dataclass(frozen=True)
class HealthLevel:
    """One health level: its ``name`` ("Hurt") and its wound ``penalty`` (-1)."""

    name: str
    penalty: int


@dataclass(frozen=True)
class HealthTrack:
    """Counts of each damage type on ``levels`` (from the system's data file). A subclass
    gives ``dead``, ``with_damage`` and ``line``."""

    levels: tuple[HealthLevel, ...]
    bashing: int = 0
    lethal: int = 0
    aggravated: int = 0

    @property
    def size(self) -> int:
        return len(self.levels)

    @property
    def filled(self) -> int:
        return self.bashing + self.lethal + self.aggravated

    @property
    def counts(self) -> dict[str, int]:
        return {"bashing": self.bashing, "lethal": self.lethal, "aggravated": self.aggravated}

    @property
    def boxes(self) -> str:
        """``"AALB..."``: one letter per filled level, the first level first; ``.`` for an
        empty one."""
        text = "A" * self.aggravated + "L" * self.lethal + "B" * self.bashing
        return text + "." * (self.size - len(text))

    def describe(self) -> str:
        """``"Hurt (-1) [LB.....]"``: :meth:`words`, then the track's :attr:`boxes` (:meth:`track_line`
        in the game's words)."""
        return text_of(self.track_line())

    def track_line(self) -> Line:
        """:meth:`describe` as a line: :meth:`line`, then the track's :attr:`boxes` (notation)."""
        return Line("value.health_track", {"health": self.line(), "boxes": self.boxes})

    def words(self) -> str:
        """The health level in words (each system's own), without the track's boxes: :meth:`line`
        in the game's words."""
        return text_of(self.line())

    def line(self) -> Line:
        """The health level as a line (each system's own), without the track's boxes."""
        raise NotImplementedError

    def level_line(self) -> Line:
        """The last level filled as a line: its name (data), ``Healthy`` or ``Dead``."""
        if self.dead:
            return Line("value.health_dead")
        return Line("value.health_level", {"level": self.levels[self.filled - 1].name}) if self.filled \
            else Line("value.health_healthy")

    def penalty_line(self) -> Line:
        """The level and its wound penalty: ``"Hurt (-1)"``."""
        return Line("value.health_penalty", {"level": self.level_line(), "penalty": self.penalty})

    @property
    def incapacitated(self) -> bool:
        return self.dead or self.filled >= self.size

    @property
    def level_name(self) -> str:
        if self.dead:
            return "Dead"
        return self.levels[self.filled - 1].name if self.filled else "Healthy"

    @property
    def penalty(self) -> int:
        """The wound penalty of the last level filled (0 when healthy)."""
        return self.levels[self.filled - 1].penalty if self.filled else 0

    @property
    def meter(self) -> tuple[int, int]:
        """(levels left, levels in all): GMCP's and the HUD's gauge."""
        return (self.size - self.filled, self.size)

    def with_counts(self, counts: Mapping[str, int], **changes: Any) -> HealthTrack:
        return replace(self, bashing=counts["bashing"], lethal=counts["lethal"],
                       aggravated=counts["aggravated"], **changes)

    def healed(self, amount: int | None, damage_type: str | None) -> HealthTrack:
        """The track after healing ``amount`` levels (None: all) of ``damage_type`` (None: the
        least serious first). Healing never raises the dead."""
        counts = self.counts
        order = [damage_type] if damage_type else list(DAMAGE_TYPES)
        remaining = self.filled if amount is None else max(0, amount)
        for kind in order:
            taken = min(counts[kind], remaining)
            counts[kind] -= taken
            remaining -= taken
        return self.with_counts(counts)

    def to_record(self) -> dict[str, Any]:
        return self.counts
