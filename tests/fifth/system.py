"""``duel``: d6 + Might to hit (4 or more hits), a parry of d6 + Guard that beats the attack's
total cancels it, each hit takes 1 of 3 wounds; at 0 the fighter is out. Initiative: d6 +
Might, highest first."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rules.dice import PoolExpression, Roller
from rules.engine.actions import STANDARD
from rules.lines import roll_of
from rules.systems.base import (
    ActionSchedule,
    Combatant,
    CombatError,
    InitiativeRoll,
    PointsHealth,
    Pool,
    Resolution,
    RollResult,
    RuleSystem,
    Verdict,
    highest_first,
)

KEY = "duel"
WOUNDS = 3
TO_HIT = 4


@dataclass(frozen=True)
class Wounds(PointsHealth):
    taken: int = 0
    maximum: int = WOUNDS
    down_at: int = 0
    dead_at: int = -WOUNDS

    @property
    def current(self) -> int:
        return self.maximum - self.taken

    def describe(self) -> str:
        return f"{self.current}/{self.maximum} wounds"

    def with_damage(self, amount: int, damage_type: str = "") -> Wounds:
        return replace(self, taken=self.taken + max(0, amount))

    def healed(self, amount: int | None, damage_type: str | None = None) -> Wounds:
        return replace(self, taken=0 if amount is None else max(0, self.taken - amount))

    def to_record(self) -> dict[str, Any]:
        return {"taken": self.taken}


@dataclass(frozen=True)
class Swing:
    attacker: str
    target: str
    die: int
    total: int
    label: str = "swing"
    damage_type: str = "wound"

    @property
    def needs_defense(self) -> bool:
        return self.total >= TO_HIT

    @property
    def successes(self) -> int:
        return self.total

    def describe(self) -> str:
        return f"swings: 1d6 ({self.die}) = {self.total}"

    def to_record(self) -> dict[str, Any]:
        return {"attacker": self.attacker, "target": self.target, "die": self.die, "total": self.total}


@dataclass(frozen=True)
class Harm:
    name: str
    health_after: Wounds


class DuelSystem(RuleSystem):
    key = KEY
    title = "Duel (a test system)"
    trait_names = ("Might", "Guard")
    defense_names = ("parry",)
    defense_uses_action = False
    defend_after_acting = True
    npc_initiative_traits = ("Might", "Guard")
    actions = STANDARD

    def roll_check(self, expression: PoolExpression, actor: Combatant, roller: Roller, *, modifier: int = 0,
                   willpower: bool = False) -> RollResult:
        die = roller.roll(6)
        return RollResult(lines=(f"1d6 ({die})",), summary=Verdict("", total=die), record={"die": die})

    def roll_initiative(self, actor: Combatant, roller: Roller) -> InitiativeRoll:
        die = roller.roll(6)
        pool = Pool((("Might", actor.trait("Might")),))
        return InitiativeRoll(actor.name, pool, die, pool.size + die, actor.trait("Might"))

    def schedule(self, rolls: Sequence[InitiativeRoll]) -> ActionSchedule:
        return ActionSchedule(highest_first(rolls))

    def attack_options(self) -> tuple[str, ...]:
        return ()

    def attack(self, attacker: Combatant, target: Combatant, option: str, roller: Roller, *, modifier: int = 0,
               dice_modifier: int = 0) -> Swing:
        if option:
            raise CombatError(f"A duel has no '{option}'.")
        self.require_able(attacker)
        die = roller.roll(6)
        return Swing(attacker.name, target.name, die, die + attacker.trait("Might") + dice_modifier)

    def attack_from_record(self, record: Mapping[str, Any]) -> Swing:
        return Swing(record["attacker"], record["target"], int(record["die"]), int(record["total"]))

    def defend(self, attack: Swing, defender: Combatant, defense: str, roller: Roller, *, modifier: int = 0,
               dice_modifier: int = 0) -> int:
        return roller.roll(6) + defender.trait("Guard") + dice_modifier

    def resolve(self, attack: Swing, defense: int | None, attacker: Combatant, target: Combatant,
                roller: Roller) -> Resolution:
        hit = attack.needs_defense and (defense is None or defense <= attack.total)
        lines = [roll_of(attack.attacker, attack)]
        if defense is not None:
            lines.append(f"{target.name} parries: {defense}")
        harm = ()
        if hit:
            after = self.health(target.health, target).with_damage(1)
            harm = (Harm(target.name, after),)
            lines.append(f"{target.name} takes a wound: {after.describe()}")
        else:
            lines.append("No wound.")
        return Resolution(attack.attacker, target.name, hit, int(hit), tuple(lines), harm, ())

    def health(self, record: Mapping[str, Any] | None, actor: Combatant | None = None) -> Wounds:
        return Wounds(taken=int((record or {}).get("taken", 0)))

    def damage_type(self, text: str) -> str:
        if text.strip().casefold() not in ("wound", "w", "wounds"):
            raise CombatError("Damage type must be: wound.")
        return "wound"
