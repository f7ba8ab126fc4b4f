"""The fight as one frozen value: :class:`FightState`, its :class:`Fighter` values and the
attacks waiting for a defense (:class:`Pending`).

Everything the rules need to play a fight is here, by id: the game's objects are outside
(``world/`` turns names into ids and writes a fighter's changed sheet back to its character).
A state reads back from its record (plain JSON: ``to_record`` / ``from_record``) exactly as it
was, so a fight survives reload, restart and a killed process, and a replay of its intents
can be compared with what was stored (``rules.engine.replay``).

A rule system keeps its own per-fight fields in ``FightState.extra`` (declared by
``RuleSystem.fight_fields``) and its own per-fighter conditions beside the engine's
(``RuleSystem.condition_keys``, ``rules.engine.conditions``); nothing here knows a system.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rules.systems.base import Combatant

#: The sheet fields of a fighter's snapshot, as ``Combatant`` names them.
SHEET_FIELDS = ("traits", "kind", "base_kind", "transformed", "weapon", "health", "armor")


def sheet_record(sheet: Combatant) -> dict[str, Any]:
    """``sheet`` (a fighter's snapshot, conditions left out) as JSON data."""
    return {"traits": dict(sheet.traits), "kind": sheet.kind, "base_kind": sheet.base_kind,
            "transformed": bool(sheet.transformed), "weapon": sheet.weapon,
            "health": plain(sheet.health), "armor": dict(sheet.armor)}


def sheet_from_record(name: str, record: Mapping[str, Any]) -> Combatant:
    return Combatant(name=name, traits=dict(record.get("traits") or {}), kind=record.get("kind") or "Muggle",
                     base_kind=record.get("base_kind") or "Muggle",
                     transformed=bool(record.get("transformed", False)), weapon=record.get("weapon") or "",
                     health=plain(record.get("health") or {}), armor=dict(record.get("armor") or {}))


def plain(value: Any) -> Any:
    """``value`` as JSON keeps it: mappings as dicts with string keys, sequences as lists."""
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value


@dataclass(frozen=True)
class Fighter:
    """One fighter: ``id`` (the game object's), ``name``, whether an ``npc``, the ``sheet``
    the rules see (a :class:`Combatant` with no conditions: traits, kind, weapon in hand,
    health record, worn armor), ``gear`` (what a system keeps on the character besides the
    sheet, by Attribute name, e.g. elethril's ``magic_items``) and its ``conditions`` in this
    fight (plain data by key; ``rules.engine.conditions``)."""

    id: int
    name: str
    npc: bool = False
    sheet: Combatant = field(default_factory=lambda: Combatant(name=""))
    gear: Mapping[str, Any] = field(default_factory=dict)
    conditions: Mapping[str, Any] = field(default_factory=dict)

    def to_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {"id": self.id, "name": self.name, "sheet": sheet_record(self.sheet)}
        if self.npc:
            record["npc"] = True
        if self.gear:
            record["gear"] = plain(self.gear)
        if self.conditions:
            record["conditions"] = plain(self.conditions)
        return record

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Fighter:
        name = str(record["name"])
        return cls(id=int(record["id"]), name=name, npc=bool(record.get("npc", False)),
                   sheet=sheet_from_record(name, record.get("sheet") or {}), gear=dict(record.get("gear") or {}),
                   conditions=dict(record.get("conditions") or {}))

    def with_sheet(self, sheet: Combatant, gear: Mapping[str, Any]) -> Fighter:
        return replace(self, name=sheet.name, sheet=replace(sheet, conditions={}), gear=dict(gear))


@dataclass(frozen=True)
class Pending:
    """An attack that waits for its target's defense: ``attack`` is the system's record of
    the rolled attack (``RuleSystem.attack_from_record`` rebuilds it)."""

    id: int
    attacker: int
    target: int
    attack: Mapping[str, Any]
    round: int

    def to_record(self) -> dict[str, Any]:
        return {"id": self.id, "attacker": self.attacker, "target": self.target, "attack": plain(self.attack),
                "round": self.round}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Pending:
        return cls(id=int(record["id"]), attacker=int(record["attacker"]), target=int(record["target"]),
                   attack=dict(record["attack"]), round=int(record["round"]))


@dataclass(frozen=True)
class FightState:
    """One fight, frozen. ``gm`` is the game master running it (the Storyteller, Narrator …:
    who acts for its NPCs), ``fighters`` those in it in joining order; ``initiative`` the
    initiative records by fighter id (``InitiativeRoll.to_record()``), ``acted`` the
    ``(slot, fighter id)`` actions used this round, ``pending`` the attacks waiting for a
    defense, ``idle`` and ``ai`` fighter ids, ``order`` the game master's acting order for one
    round (``rules.systems.acting_order``), ``scene`` the game master's settings seen by the
    rules in every fighter's conditions, ``shields`` the magical shields standing (by the name
    of the one protected), ``dropped`` the weapons lying about, ``turn`` counts the times the
    fight moved on to another turn (``turn_key`` names the one it is on), ``extra`` the
    rule system's own fields (``RuleSystem.fight_fields``) and ``settings`` the game master's
    choices for running the fight, unseen by the rules: ``lethal`` (who made it a fight where
    player characters die without a decision), ``helpless`` (who let the AI attack the
    helpless)."""

    system: str
    round: int = 1
    gm: int | None = None
    fighters: tuple[Fighter, ...] = ()
    initiative: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)
    acted: tuple[tuple[int, int], ...] = ()
    pending: tuple[Pending, ...] = ()
    next_attack_id: int = 1
    idle: tuple[int, ...] = ()
    ai: tuple[int, ...] = ()
    order: Mapping[str, Any] | None = None
    scene: Mapping[str, Any] = field(default_factory=dict)
    shields: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    dropped: tuple[Mapping[str, Any], ...] = ()
    turn: int = 0
    turn_key: tuple[Any, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)
    settings: Mapping[str, Any] = field(default_factory=dict)
    ended: bool = False

    def fighter(self, fighter_id: int) -> Fighter:
        """The fighter with ``fighter_id``. Raises KeyError when none is in the fight."""
        for fighter in self.fighters:
            if fighter.id == fighter_id:
                return fighter
        raise KeyError(fighter_id)

    def has(self, fighter_id: int | None) -> bool:
        return any(fighter.id == fighter_id for fighter in self.fighters)

    def to_record(self) -> dict[str, Any]:
        return {
            "system": self.system, "round": self.round, "gm": self.gm,
            "fighters": [fighter.to_record() for fighter in self.fighters],
            "initiative": {str(key): plain(value) for key, value in self.initiative.items()},
            "acted": [list(pair) for pair in self.acted],
            "pending": [pending.to_record() for pending in self.pending],
            "next_attack_id": self.next_attack_id, "idle": list(self.idle), "ai": list(self.ai),
            "order": plain(self.order), "scene": plain(self.scene), "shields": plain(self.shields),
            "dropped": plain(self.dropped), "turn": self.turn, "turn_key": plain(self.turn_key),
            "extra": plain(self.extra), "settings": plain(self.settings), "ended": self.ended,
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> FightState:
        return cls(
            system=str(record["system"]), round=int(record.get("round", 1)),
            gm=None if record.get("gm") is None else int(record["gm"]),
            fighters=tuple(Fighter.from_record(item) for item in record.get("fighters", ())),
            initiative={int(key): dict(value) for key, value in (record.get("initiative") or {}).items()},
            acted=tuple((int(at), int(fighter_id)) for at, fighter_id in record.get("acted", ())),
            pending=tuple(Pending.from_record(item) for item in record.get("pending", ())),
            next_attack_id=int(record.get("next_attack_id", 1)),
            idle=tuple(int(item) for item in record.get("idle", ())),
            ai=tuple(int(item) for item in record.get("ai", ())),
            order=record.get("order"), scene=dict(record.get("scene") or {}),
            shields=dict(record.get("shields") or {}), dropped=tuple(record.get("dropped") or ()),
            turn=int(record.get("turn", 0)), turn_key=tuple(record.get("turn_key") or ()),
            extra=dict(record.get("extra") or {}), settings=dict(record.get("settings") or {}),
            ended=bool(record.get("ended", False)),
        )
