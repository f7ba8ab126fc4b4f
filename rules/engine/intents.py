"""What someone asks the fight to do: an :class:`Intent`, a small frozen value.

An intent names its action (``"attack"``, ``"defend"``, ``"next"`` …: the key of an action in
the fight's rule system, ``RuleSystem.actions``), the fighter who acts and the fighters it is
aimed at, by id. The game (``world/``) builds it from a command, a web button or the NPC AI,
after finding the names and checking who may act for whom; the engine checks the rules
(``rules.engine.step``). The fight's intent log stores each one, so a fight can be replayed
from its intents and its dice (``rules.engine.replay``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.engine.state import plain


@dataclass(frozen=True)
class Intent:
    """``action``: the action's key. ``actor``: the fighter who acts (None for the game
    master's controls and for the fight itself). ``by``: the character who asked (the game
    master, a player; told what only they see). ``targets``: fighter ids aimed at, in the
    order given. ``option``: the action's one word of choice (a maneuver or weapon, a
    defense). ``fiat``: asked by the fight's game master or staff, whose controls these are.
    ``data``: whatever else the action takes, as plain data."""

    action: str
    actor: int | None = None
    by: int | None = None
    targets: tuple[int, ...] = ()
    option: str = ""
    fiat: bool = False
    data: Mapping[str, Any] = field(default_factory=dict)

    @property
    def target(self) -> int | None:
        """The first target, or None."""
        return self.targets[0] if self.targets else None

    def to_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {"action": self.action}
        for name in ("actor", "by"):
            if getattr(self, name) is not None:
                record[name] = getattr(self, name)
        if self.targets:
            record["targets"] = list(self.targets)
        if self.option:
            record["option"] = self.option
        if self.fiat:
            record["fiat"] = True
        if self.data:
            record["data"] = plain(self.data)
        return record

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Intent:
        return cls(action=str(record["action"]),
                   actor=None if record.get("actor") is None else int(record["actor"]),
                   by=None if record.get("by") is None else int(record["by"]),
                   targets=tuple(int(item) for item in record.get("targets", ())),
                   option=str(record.get("option", "")), fiat=bool(record.get("fiat", False)),
                   data=dict(record.get("data") or {}))
