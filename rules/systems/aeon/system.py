"""The ``aeon`` rule system: d10 pools at TN 7, successes needed, wound chart, hardness.

Source: the aeon seed (Aeon Reborn: damage types, soak, hardness, Armor
Piercing, the wound chart turning bashing lethal, bleeding, called shots) with the Trinity 1st-edition
defaults described in ``docs/rules/aeon.md``. Every number lives in ``rules/data/aeon.toml``.

Grappling, surprise, hiding and mounted combat are in ``rules.systems.aeon.tactics``.

Choices where the source is silent (each also noted where it is made):

- *Net successes* of an attack = its successes minus the defense's successes. The attack hits
  when they reach the difficulty (successes needed); the difficulty is a threshold and is not
  subtracted again from the damage.
- Once knocked out (chart full, bashing at the bottom), a new lethal/aggravated level goes on
  top and pushes the lowest bashing wound off, which turns the highest remaining bashing wound
  lethal (the seed's "rolls over"; Fray's texts keep *rollover* for the storyteller's extra hit
  successes). With no bashing left to turn, the chart is all lethal: dead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache, cached_property
from typing import Any

from rules.data import RulesDataError, load_system_data, require, require_choice
from rules.dice import DEFAULT_LIMITS, DiceSyntaxError, PoolExpression, Roller
from rules.dice.odds import MiddleRoller, chance_of, pool_outcomes
from rules.lines import Line, roll_of
from rules.systems.aeon.actions import ACTIONS, ride
from rules.systems.aeon.dice import (
    AeonRoll,
    Harm,
    line_from_record,
    line_record,
    pool_roll,
    roll_aeon,
    successes,
)
from rules.systems.aeon.multiple import MultipleActions
from rules.systems.aeon.tactics import (
    BREAK_CHOICES,
    CONTROL_CHOICES,
    AeonTactics,
    Mount,
    pick_choice,
)
from rules.systems.base import (
    ActionSchedule,
    Combatant,
    CombatError,
    InitiativeRoll,
    Odds,
    Pool,
    Resolution,
    RollResult,
    RoundEffect,
    RuleSystem,
    Verdict,
    at_least_rows,
    highest_first,
    load_armor_table,
    match_damage_type,
    modifier_parts,
    trait_pool,
)
from rules.systems.health import DAMAGE_TYPES, HealthLevel, HealthTrack


# ================================================================================= health
@dataclass(frozen=True)
class AeonHealth(HealthTrack):
    """The wound chart (seed: Damage Types). The last level is Incapacitated: full with
    bashing at the bottom = knocked out; full with no bashing = dead. ``extra``: the extra
    levels a character has (their names come with ``levels``)."""

    extra: int = 0

    @property
    def dead(self) -> bool:
        return self.filled >= self.size and self.bashing == 0

    @property
    def knocked_out(self) -> bool:
        return self.filled >= self.size and self.bashing > 0

    def line(self) -> Line:
        """``"Hurt (-1)"``, ``"Incapacitated (knocked out)"``, ``"Dead"`` (``describe()`` adds
        the track: ``"Hurt (-1) [LB.....]"``)."""
        if self.knocked_out:
            return Line("aeon.value.knocked_out", {"level": self.level_line()})
        return self.penalty_line() if self.filled and not self.dead else self.level_line()

    def with_damage(self, amount: int, damage_type: str) -> AeonHealth:
        """The chart after ``amount`` levels of ``damage_type``, one level at a time:

        - room left: the level is added (the ordering puts it above any lower type);
        - full, bashing: the highest bashing wound turns lethal;
        - full, lethal/aggravated with bashing present (knocked out): the new level goes on
          top and pushes the lowest bashing wound off, which turns the highest remaining
          bashing wound lethal;
        - full with no bashing: dead already; nothing changes.
        """
        if damage_type not in DAMAGE_TYPES:
            raise CombatError(Line("refusal.damage_type_must_one", {"damage_types": ', '.join(DAMAGE_TYPES)}))
        counts = self.counts
        for _ in range(max(0, amount)):
            filled = sum(counts.values())
            if filled < self.size:
                counts[damage_type] += 1
            elif counts["bashing"] == 0:
                break  # dead
            elif damage_type == "bashing":
                counts["bashing"] -= 1
                counts["lethal"] += 1
            else:
                counts[damage_type] += 1
                counts["bashing"] -= 1  # pushed off the bottom ...
                if counts["bashing"]:  # ... and turns the highest one left lethal
                    counts["bashing"] -= 1
                    counts["lethal"] += 1
        return self.with_counts(counts)

    def spared(self) -> AeonHealth:
        """Not dead: a full chart with one bashing level at the bottom, knocked out (the least
        serious level below the top turned bashing; docs/rules.md, "Death needs a decision")."""
        if not self.dead or not (self.lethal or self.aggravated):
            return self
        counts = self.counts
        counts["lethal" if counts["lethal"] else "aggravated"] -= 1
        counts["bashing"] += 1
        return self.with_counts(counts)

    def to_record(self) -> dict[str, Any]:
        return {**self.counts, "extra": self.extra}


# =================================================================================== soak
@dataclass(frozen=True)
class Soak:
    """One damage type's soak with its sources, and the hardness derived from it."""

    damage_type: str
    #: Each source: its label (a trait's name, or a line: ``Stamina/2``, armor) and its value.
    parts: tuple[tuple[str | Line, int], ...]
    hardness_divide: int = 2
    pierced: int = 0  # Armor Piercing: the attack's net successes taken off
    hardness_bonus: int = 0  # effects adding to hardness (never above the soak)

    @property
    def total(self) -> int:
        return max(0, sum(value for _, value in self.parts) - self.pierced)

    @property
    def hardness(self) -> int:
        """floor(soak / 2) + the effects that add to it, never above the soak (seed: "it may
        never be raised above the actual soak rating"); recomputed from the reduced soak
        under Armor Piercing."""
        return min(self.total, self.total // self.hardness_divide + self.hardness_bonus)

    def pierce(self, successes: int) -> Soak:
        return replace(self, pierced=max(0, successes))

    def describe(self) -> Line:
        """``"lethal soak Stamina/2 1 + armor 2 = 3, hardness 1"`` as a line of working."""
        body = None
        for label, value in self.parts:
            part = Line("aeon.line.soak_part", {"label": label, "value": value})
            body = part if body is None else Line("aeon.line.soak_plus", {"body": body, "part": part})
        if body is None:
            body = Line("aeon.line.soak_none")
        if len(self.parts) > 1:
            body = Line("aeon.line.soak_total", {"body": body, "total": sum(value for _, value in self.parts)})
        if self.pierced:
            body = Line("aeon.line.soak_pierced", {"body": body, "pierced": self.pierced, "total": self.total})
        values = {"damage_type": self.damage_type, "body": body, "hardness": self.hardness}
        if self.hardness_bonus:
            return Line("aeon.line.soak_bonus", {**values, "bonus": self.hardness_bonus})
        return Line("aeon.line.soak", values)


# ================================================================================ attacks
@dataclass(frozen=True)
class Weapon:
    key: str
    label: str
    to_hit: tuple[str, ...]
    ability: str
    damage_trait: str
    damage_bonus: int
    damage_type: str
    ranged: bool
    armor_piercing: bool = False
    reach: bool = False   # may strike to or from a large mount (seed: Mounted Combat)
    clinch: bool = False  # starts a clinch instead of doing damage (seed: Grappling)
    unarmed: bool = False  # a body part, always at hand (punch, kick)


@dataclass(frozen=True)
class CalledShot:
    key: str
    label: str
    difficulty: int
    max_difficulty: int
    ranged_difficulty: int
    damage_type: str = ""
    no_damage: bool = False
    bonus_lethal: int = 0
    bonus_bashing: int = 0
    maims: bool = False


@dataclass(frozen=True)
class AeonAttack:
    """A rolled attack. ``shots`` are the called shots with the difficulty each added."""

    attacker: str
    target: str
    weapon: Weapon
    shots: tuple[tuple[CalledShot, int], ...]
    pool: Pool
    roll: AeonRoll
    #: Working shown before the to-hit roll (the mounted rider's Ride roll, mounted modifiers).
    preface: tuple[Line, ...] = ()
    #: The rider lost control of the mount: the action is spent, nothing is rolled.
    lost_control: bool = False
    #: A clinch: what the attacker does on gaining control ("hold", "crush", "break throw" …).
    clinch_choice: str = "hold"

    @property
    def needs_defense(self) -> bool:
        return not self.lost_control and self.roll.succeeded

    @property
    def successes(self) -> int:
        return self.roll.successes

    @property
    def label(self) -> str:
        return " + ".join([self.weapon.label] + [shot.label for shot, _ in self.shots])

    @property
    def damage_type(self) -> str:
        for shot, _ in self.shots:
            if shot.damage_type:
                return shot.damage_type
        return self.weapon.damage_type

    @property
    def option(self) -> str:
        return "+".join([self.weapon.key] + [f"{shot.key} {extra}" for shot, extra in self.shots])

    def describe(self) -> Line:
        """The to-hit roll (the ``preface`` lines are separate)."""
        if self.lost_control:
            return Line("aeon.line.no_attack")
        return Line("aeon.line.to_hit", {"label": self.label, "pool": self.pool.dice_line(),
                                         "roll": self.roll.describe()})

    def to_record(self) -> dict[str, Any]:
        return {"attacker": self.attacker, "target": self.target, "weapon": self.weapon.key,
                "shots": [[shot.key, extra] for shot, extra in self.shots],
                "parts": self.pool.to_record(), "roll": self.roll.to_record(),
                "preface": [line_record(line) for line in self.preface], "lost_control": self.lost_control,
                "clinch_choice": self.clinch_choice}


@dataclass(frozen=True)
class AeonDefense:
    """A rolled defense. ``difficulty`` (the ST's +N) takes N off its successes."""

    kind: str
    defender: str
    pool: Pool
    roll: AeonRoll
    difficulty: int = 0
    dice: int = 0  # an accepted clinch: the ST's dice for the defender's control roll

    @property
    def net(self) -> int:
        return max(0, self.roll.successes - self.difficulty)

    def describe(self) -> Line:
        """``"dodge: Dexterity 3 + Athletics 2 = 5 dice TN 7: ..."`` (less the ST's
        difficulty) as a line of working."""
        values = {"kind": self.kind, "pool": self.pool.dice_line(), "roll": self.roll.describe()}
        if self.difficulty:
            return Line("aeon.line.defense_difficulty", {**values, "difficulty": self.difficulty,
                                                         "successes": successes(self.net)})
        return Line("aeon.line.defense", values)

    def to_record(self) -> dict[str, Any]:
        return {"kind": self.kind, "defender": self.defender, "difficulty": self.difficulty, "dice": self.dice,
                "parts": self.pool.to_record(), "roll": self.roll.to_record()}


# ================================================================================ system
class AeonSystem(RuleSystem):
    """``aeon`` — see the module docstring. Raises RulesDataError on a bad data file."""

    key = "aeon"
    title = "Aeon (d10 pools at TN 7, successes needed)"
    armor_columns = DAMAGE_TYPES
    actions = ACTIONS
    #: A fighter's aeon conditions: the mount ridden (its record), this round's Ride roll made
    #: (``ridden``) and control of the clinch contested (``contested``), the clinch plan, the
    #: opening ambush made, bleeding (since the round) and treated, thrown (yards), and the
    #: clinch's first turn (``clinch_first``: begun this round, its control settled) and a
    #: maiming wound taken (``maimed``: Pulling Blows that would have killed).
    condition_keys = frozenset({"mount", "ridden", "contested", "clinch_plan", "ambushed", "bleeding_since",
                                "treated", "thrown", "clinch_first", "maimed"})
    round_conditions = ("ridden", "contested", "clinch_first")

    def __init__(self, data: Mapping[str, Any] | None = None) -> None:
        data = data if data is not None else load_system_data(self.key)
        dice = require(data, "dice", dict, "aeon")
        self.target_number = require(dice, "target_number", int, "dice")
        self.default_difficulty = require(dice, "default_difficulty", int, "dice")
        self.min_difficulty = require(dice, "min_difficulty", int, "dice")
        self.max_difficulty = require(dice, "max_difficulty", int, "dice")
        self.damage_target_number = require(dice, "damage_target_number", int, "dice")
        self.minimum_damage_dice = require(dice, "minimum_damage_dice", int, "dice")
        if not 2 <= self.target_number <= 10 or not 2 <= self.damage_target_number <= 10:
            raise RulesDataError("dice: target numbers must be 2 to 10.")
        if not 1 <= self.min_difficulty <= self.default_difficulty <= self.max_difficulty:
            raise RulesDataError("dice: need 1 <= min_difficulty <= default_difficulty <= max_difficulty.")
        actions = require(data, "actions", dict, "aeon")
        self.defense_uses_action = require(actions, "defense_uses_action", bool, "actions")
        self.defend_after_acting = require(actions, "defend_after_acting", bool, "actions")
        self.multiple_actions = MultipleActions.from_data(data)
        initiative = require(data, "initiative", dict, "aeon")
        self.initiative_traits = tuple(require(initiative, "traits", list, "initiative"))
        self.initiative_wounds = require(initiative, "wound_penalty", bool, "initiative")
        self.levels = tuple(
            HealthLevel(require(level, "name", str, "wound_levels"), require(level, "penalty", int, "wound_levels"))
            for level in require(data, "wound_levels", list, "aeon"))
        if len(self.levels) < 2:
            raise RulesDataError("aeon.wound_levels: at least two levels are needed (the last is Incapacitated).")
        extra = require(data, "extra_levels", dict, "aeon")
        self.extra_trait = require(extra, "trait", str, "extra_levels")
        self.extra_level = HealthLevel(require(extra, "name", str, "extra_levels"),
                                      require(extra, "penalty", int, "extra_levels"))
        bleeding = require(data, "bleeding", dict, "aeon")
        self.bleed_interval = require(bleeding, "interval_rounds", int, "bleeding")
        self.bleed_fraction = require(bleeding, "fraction", int, "bleeding")
        if self.bleed_interval < 1 or self.bleed_fraction < 1:
            raise RulesDataError("bleeding: interval_rounds and fraction must be at least 1.")
        healing = data.get("healing", {})
        self.all_heals_aggravated = healing.get("all_heals_aggravated", False)
        if not isinstance(self.all_heals_aggravated, bool):
            raise RulesDataError("healing.all_heals_aggravated must be true or false.")
        self.kinds = require(data, "kinds", dict, "aeon")
        for name, kind in self.kinds.items():
            where = f"kinds.{name}"
            require(kind, "bleeds", bool, where)
            for damage_type, source in require(kind, "soak", dict, where).items():
                if damage_type not in ("bashing", "lethal"):
                    raise RulesDataError(f"{where}.soak: natural soak is bashing or lethal "
                                         f"(aggravated is derived), got {damage_type!r}.")
                require(source, "trait", str, f"{where}.soak.{damage_type}")
                if require(source, "divide", int, f"{where}.soak.{damage_type}") < 1:
                    raise RulesDataError(f"{where}.soak.{damage_type}.divide: at least 1.")
        self.default_kind = require(data, "default_kind", str, "aeon")
        if self.default_kind not in self.kinds:
            raise RulesDataError(f"aeon.default_kind: {self.default_kind!r} is not among the kinds.")
        soak = require(data, "soak", dict, "aeon")
        self.aggravated_divide = require(soak, "aggravated_divide", int, "soak")
        self.hardness_divide = require(soak, "hardness_divide", int, "soak")
        self.hardness_trait = str(soak.get("hardness_trait", ""))
        if self.aggravated_divide < 1 or self.hardness_divide < 1:
            raise RulesDataError("soak: divisors must be at least 1.")
        traits = require(data, "traits", dict, "aeon")
        self.trait_names = tuple(name for group in traits.values() for name in group)
        self.weapons = {key: self._weapon(key, table)
                        for key, table in require(data, "weapons", dict, "aeon").items()}
        if not self.weapons:
            raise RulesDataError("aeon.weapons: at least one weapon (the unarmed attack) is needed.")
        self.weapon_names = {key: weapon.label for key, weapon in self.weapons.items()
                             if not weapon.clinch and not weapon.unarmed}
        self.called_shots = {key: self._called_shot(key, table)
                             for key, table in require(data, "called_shots", dict, "aeon").items()}
        self.disarm = data["called_shots"].get("disarm", {})
        self.called_shot_aliases = {alias: key for key, table in data["called_shots"].items()
                                    for alias in table.get("aliases", ())}
        self.defenses = require(data, "defenses", dict, "aeon")
        for name, table in self.defenses.items():
            require(table, "traits", list, f"defenses.{name}")
        self.defense_names = tuple(self.defenses) + ("accept",)
        self.armor_table = load_armor_table(data, DAMAGE_TYPES)
        self.options = tuple(self.weapons) + tuple(self.called_shots)

    def _weapon(self, key: str, table: Mapping[str, Any]) -> Weapon:
        where = f"weapons.{key}"
        return Weapon(
            key=key, label=require(table, "name", str, where),
            to_hit=tuple(require(table, "to_hit", list, where)),
            ability=require(table, "ability", str, where),
            damage_trait=require(table, "damage_trait", str, where),
            damage_bonus=require(table, "damage_bonus", int, where),
            damage_type=require_choice(require(table, "damage_type", str, where), DAMAGE_TYPES, f"{where}.damage_type"),
            ranged=require(table, "ranged", bool, where),
            armor_piercing=bool(table.get("armor_piercing", False)),
            reach=bool(table.get("reach", False)), clinch=bool(table.get("clinch", False)),
            unarmed=bool(table.get("unarmed", False)))

    def _called_shot(self, key: str, table: Mapping[str, Any]) -> CalledShot:
        where = f"called_shots.{key}"
        low = require(table, "difficulty", int, where)
        high = int(table.get("max_difficulty", low))
        if not 0 <= low <= high:
            raise RulesDataError(f"{where}: need 0 <= difficulty <= max_difficulty.")
        damage_type = table.get("damage_type", "")
        if damage_type:
            require_choice(damage_type, DAMAGE_TYPES, f"{where}.damage_type")
        return CalledShot(key=key, label=require(table, "label", str, where), difficulty=low,
                          max_difficulty=high, ranged_difficulty=int(table.get("ranged_difficulty", low)),
                          damage_type=damage_type, no_damage=bool(table.get("no_damage", False)),
                          bonus_lethal=int(table.get("bonus_lethal", 0)),
                          bonus_bashing=int(table.get("bonus_bashing", 0)), maims=bool(table.get("maims", False)))

    # ------------------------------------------------------------------------------ dice
    def wound_parts(self, actor: Combatant) -> tuple[tuple[str, int], ...]:
        penalty = self.health(actor.health, actor).penalty
        return (("wounds", penalty),) if penalty else ()

    def action_pool(self, actor: Combatant, parts: Sequence[tuple[str, int]], what: str) -> Pool:
        """``parts`` + the wound penalty + the penalty of the action being taken when the
        fighter split its actions (``conditions["action_penalty"]``, set by the game for the
        acting fighter only; ``rules.systems.aeon.multiple``). Raises CombatError when that
        penalty leaves a refused action below the minimum pool (1 die)."""
        pool = Pool(tuple(parts) + self.wound_parts(actor) + MultipleActions.parts(actor.conditions))
        return self.multiple_actions.require_pool(pool, actor.conditions, what, actor.name)

    def check_difficulty(self, difficulty: int) -> int:
        """``difficulty`` (successes needed) if within the data's range. Raises DiceSyntaxError."""
        if not self.min_difficulty <= difficulty <= self.max_difficulty:
            raise DiceSyntaxError(Line("aeon.refusal.difficulty_range", {
                "least": self.min_difficulty, "most": self.max_difficulty, "difficulty": difficulty}))
        return difficulty

    def roll_check(self, expression: PoolExpression, actor: Combatant, roller: Roller,
                   *, modifier: int = 0, willpower: bool = False) -> RollResult:
        """``+roll``: traits and numbers (``NdS`` only as d10s) summed into a pool at TN 7;
        ``vs N`` = successes needed. The pool as typed (with ``modifier``) may not be negative;
        the wound penalty may empty it (no dice: failure). ``willpower`` adds one automatic
        success (Trinity: spending Willpower). Raises DiceSyntaxError."""
        pool, difficulty = self.check_pool(expression, actor, modifier)
        roll = roll_aeon(pool.size, roller, target_number=self.target_number, difficulty=difficulty)
        outcome = self.check_outcome(roll, willpower)
        line = pool_roll(pool, roll)
        if willpower:
            line = Line("aeon.line.willpower", {"roll": line, "successes": successes(outcome)})
        if outcome == "botch":
            verdict = Verdict("botch")
        elif outcome >= difficulty:
            verdict = Verdict("success", outcome)
        else:
            verdict = Verdict("failure")
        return RollResult(lines=(line,), summary=verdict,
                          record={"pool": pool.to_record(), **roll.to_record(),
                                  "willpower": willpower, "result": verdict.to_record()})

    def check_pool(self, expression: PoolExpression, actor: Combatant, modifier: int) -> tuple[Pool, int]:
        """The pool and successes needed ``+roll`` (and ``+roll/odds``) roll; raises as
        ``roll_check``."""
        parts: list[tuple[str, int]] = []
        for term in expression.terms:
            if term.kind == "trait":
                parts.append((term.trait, actor.trait(term.trait)))
            elif term.kind == "dice":
                if term.sides != 10:
                    raise DiceSyntaxError(Line("aeon.refusal.only_ten_sided_dice", {"term": term.text}))
                parts.append(("", term.sign * term.number))
            else:
                parts.append(("", term.sign * term.number))
        if modifier:
            parts.append(("modifier", modifier))
        typed = Pool(tuple(parts)).size
        if typed < 0:
            raise DiceSyntaxError(Line("aeon.refusal.negative_pool", {"size": typed}))
        if typed > DEFAULT_LIMITS.max_dice:
            raise DiceSyntaxError(Line("dice.refusal.too_many_dice", {"most": DEFAULT_LIMITS.max_dice}))
        difficulty = self.check_difficulty(
            self.default_difficulty if expression.difficulty is None else expression.difficulty)
        if self.health(actor.health, actor).dead:
            raise CombatError(Line("aeon.refusal.dead_rolls_no_dice", {"actor": actor.name}))
        parts.extend(self.wound_parts(actor))
        pool = Pool(tuple(parts))
        return pool, difficulty

    @staticmethod
    def check_outcome(roll: AeonRoll, willpower: bool) -> int | str:
        """A check's outcome: "botch", or its successes (one more with Willpower, which also
        prevents the botch)."""
        return "botch" if roll.botch and not willpower else roll.successes + (1 if willpower else 0)

    def odds(self, expression: PoolExpression, actor: Combatant, *, modifier: int = 0,
             willpower: bool = False) -> Odds:
        """Botch, failure and reaching the successes needed (then more) at TN 7 for ``+roll``
        (docs/rules/aeon.md "Dice"), judged by the roll itself (``rules.dice.odds``)."""
        pool, difficulty = self.check_pool(expression, actor, modifier)

        outcomes = pool_outcomes(pool.size, self.target_number, lambda faces: self.check_outcome(
            AeonRoll(faces, self.target_number, difficulty), willpower))
        failure = sum((p for key, p in outcomes.items() if isinstance(key, int) and key < difficulty), Fraction(0))
        rows = [("Botch", outcomes.get("botch", Fraction(0))), ("Failure", failure),
                *at_least_rows(outcomes, difficulty)]
        title = Line("aeon.title.odds_willpower" if willpower else "aeon.title.odds",
                     {"pool": pool.dice_line(), "target_number": self.target_number, "needed": successes(difficulty)})
        return Odds(title, tuple(rows))

    # ------------------------------------------------------------------------ the fight
    def free_in_clinch(self, conditions: Mapping[str, Any]) -> bool:
        """Having contested control of the clinch this round, split actions left may do other
        things (seed: Grappling, "actions may be split as normal")."""
        return bool(conditions.get("contested"))

    def before_turn(self, draft: Any, fighter_id: int, what: str) -> tuple[bool, tuple[str, ...]]:
        """A rider's Ride roll, once a round before its first action on its turn
        (``rules.systems.aeon.actions.ride``)."""
        return ride(draft, fighter_id, what)

    def condition_marks(self, conditions: Mapping[str, Any]) -> tuple[str | Line, ...]:
        """``on horse`` (a line: the mount ridden), ``bleeding``, ``treated``, ``maimed``."""
        marks: list[str | Line] = ["maimed"] if conditions.get("maimed") else []
        if conditions.get("mount"):
            marks.append(Line("aeon.value.on_mount", {"mount": conditions["mount"].get("key", "mount")}))
        if conditions.get("bleeding_since") and not conditions.get("treated"):
            marks.append("bleeding")
        if conditions.get("treated"):
            marks.append("treated")
        return tuple(marks)

    # ------------------------------------------------------------------------ initiative
    def require_able(self, actor: Combatant) -> None:
        health = self.health(actor.health, actor)
        if health.incapacitated:
            state = "dead" if health.dead else "knocked out"
            raise CombatError(Line("aeon.refusal.cannot_act", {"actor": actor.name, "state": state}))

    def roll_initiative(self, actor: Combatant, roller: Roller) -> InitiativeRoll:
        """Dexterity + Wits + 1d10 (+ wound penalty, data option). Ties break on Dex + Wits."""
        self.require_able(actor)
        base = trait_pool(actor, self.initiative_traits)
        pool = Pool(base.parts + (self.wound_parts(actor) if self.initiative_wounds else ()))
        die = roller.roll(10)
        return InitiativeRoll(actor.name, pool, die, pool.size + die, base.size)

    def schedule(self, rolls: Sequence[InitiativeRoll]) -> ActionSchedule:
        """Highest first; equal total and equal Dex + Wits share a slot (simultaneous), names
        sorted case-insensitively inside it (as storyteller). No declaring order."""
        return ActionSchedule(highest_first(rolls))

    # ------------------------------------------------------------------------------ soak
    def kind_of(self, actor: Combatant) -> str:
        return actor.kind if actor.kind in self.kinds else self.default_kind

    def soaks(self, actor: Combatant) -> dict[str, Soak]:
        """Soak per damage type (seed: Soak and Hardness): natural soak by kind, then armor.
        All lethal sources are summed first; aggravated = floor(total lethal / 2) for the
        sources that give no aggravated value of their own, plus the own values of the rest
        (an armor listing ``aggravated``)."""
        kind = self.kinds[self.kind_of(actor)]
        parts: dict[str, list[tuple[str | Line, int]]] = {t: [] for t in DAMAGE_TYPES}
        for damage_type, source in kind["soak"].items():
            value = actor.trait(source["trait"]) // source["divide"]
            label = source["trait"] if source["divide"] == 1 else Line(
                "aeon.line.divided", {"trait": source["trait"], "divide": source["divide"]})
            parts[damage_type].append((label, value))
        armor = {column: int(actor.armor.get(column, 0) or 0) for column in DAMAGE_TYPES}
        for damage_type in ("bashing", "lethal"):
            if armor[damage_type]:
                parts[damage_type].append((Line("aeon.line.armor"), armor[damage_type]))
        own = armor["aggravated"] > 0
        derived_lethal = sum(v for _, v in parts["lethal"]) - (armor["lethal"] if own else 0)
        if derived_lethal // self.aggravated_divide:
            parts["aggravated"].append((Line("aeon.line.derived", {"lethal": derived_lethal,
                                                                   "divide": self.aggravated_divide}),
                                        derived_lethal // self.aggravated_divide))
        if own:
            parts["aggravated"].append((Line("aeon.line.armor"), armor["aggravated"]))
        bonus = max(0, actor.trait(self.hardness_trait)) if self.hardness_trait else 0
        return {t: Soak(t, tuple(parts[t]), self.hardness_divide, hardness_bonus=bonus) for t in DAMAGE_TYPES}

    def harm(self, victim: Combatant, gross: int, damage_type: str, roller: Roller,
             *, armor_piercing: int = 0) -> tuple[Harm, list[Line]]:
        """Soak and hardness against ``gross`` damage (seed: Hardness): below hardness nothing
        happens; otherwise roll max(gross - soak, minimum) dice at TN 7, one level a success.
        ``armor_piercing``: the attack's net successes, taken off the soak first."""
        soak = self.soaks(victim)[damage_type]
        if armor_piercing:
            soak = soak.pierce(armor_piercing)
        lines = [Line("aeon.line.soaks", {"victim": victim.name, "soak": soak.describe()})]
        before = self.health(victim.health, victim)
        if gross < soak.hardness:
            lines.append(Line("aeon.line.below_hardness", {"gross": gross, "hardness": soak.hardness}))
            return Harm(victim.name, damage_type, gross, soak, None, 0, before, before), lines
        size = max(self.minimum_damage_dice, gross - soak.total)
        roll = roll_aeon(size, roller, target_number=self.damage_target_number, difficulty=0)
        values = {"gross": gross, "soak": soak.total, "size": size, "roll": roll.describe()}
        if size > gross - soak.total:
            lines.append(Line("aeon.line.damage_die_minimum" if size == 1 else "aeon.line.damage_dice_minimum", values))
        else:
            lines.append(Line("aeon.line.damage_die" if size == 1 else "aeon.line.damage_dice", values))
        after = before.with_damage(roll.successes, damage_type)
        lines.append(Line("line.takes_one" if roll.successes == 1 else "line.takes",
                          {"victim": victim.name, "count": roll.successes, "damage_type": damage_type,
                           "health": after}))
        return Harm(victim.name, damage_type, gross, soak, roll, roll.successes, before, after), lines

    # -------------------------------------------------------------------------- attacks
    def attack_options(self) -> tuple[str, ...]:
        return self.options

    def _find(self, word: str, table: Mapping[str, Any]) -> str | None:
        if word in table:
            return word
        found = [key for key in table if key.startswith(word)]
        if len(found) > 1:
            raise CombatError(Line("refusal.could", {"name": word, "shown": ', '.join(found)}))
        return found[0] if found else None

    def parse_option(self, option: str, attacker: Combatant) -> tuple[Weapon, tuple[tuple[CalledShot, int], ...]]:
        """``"sword+fierce"``, ``"pistol+showing-off 3"``, ``"disarm"``: at most one weapon (the
        one in hand, else the first in the table, when none is named; a named weapon must be
        the one in hand, unless unarmed: punch, kick, clinch) and called shots, each
        at most once; a number after a ranged called shot picks its difficulty. Raises
        CombatError."""
        weapon: Weapon | None = None
        shots: list[tuple[CalledShot, int]] = []
        for chunk in option.casefold().split("+"):
            words = chunk.split()
            if not words:
                if option.strip():
                    raise CombatError(Line("aeon.refusal.cannot_read_join_weapon", {"option": option.strip()[:40]}))
                continue
            number = None
            if len(words) > 1 and words[-1].lstrip("+-").isdigit():
                if not words[-1].isdigit() or len(words[-1]) > 2:
                    raise CombatError(Line("aeon.refusal.not_difficulty_give_small", {"words": words[-1][:12]}))
                number = int(words[-1])
                words = words[:-1]
            name = "-".join(words)
            key = self._find(name, self.weapons)
            if key and number is None:
                if weapon:
                    raise CombatError(Line("aeon.refusal.name_one_weapon_per"))
                weapon = self.weapons[key]
                continue
            key = self.called_shot_aliases.get(name) or self._find(name, self.called_shots)
            if not key:
                raise CombatError(Line("aeon.refusal.no_weapon_called_shot", {"name": name[:30], "options": ', '.join(self.options)}))
            shot = self.called_shots[key]
            if any(s.key == key for s, _ in shots):
                raise CombatError(Line("aeon.refusal.named_twice", {"shot_label": shot.label}))
            if number is not None and not shot.difficulty <= number <= shot.max_difficulty:
                span = (Line("aeon.value.difficulty_span", {"least": shot.difficulty, "most": shot.max_difficulty})
                        if shot.max_difficulty > shot.difficulty else shot.difficulty)
                raise CombatError(Line("aeon.refusal.difficulty_not", {"shot_label": shot.label, "span": span, "number": number}))
            shots.append((shot, number if number is not None else shot.difficulty))
        if weapon and not (weapon.unarmed or weapon.clinch) and weapon.key != attacker.weapon:
            held = self.weapons.get(attacker.weapon)
            raise CombatError(Line("aeon.refusal.holds_no_weapon" if held else "aeon.refusal.holds_no_weapon_empty",
                                   {"attacker": attacker.name, "weapon": weapon.label.lower(),
                                    "shown": held.label.lower() if held else ""}))
        weapon = weapon or self.weapons.get(attacker.weapon) or next(iter(self.weapons.values()))
        resolved = []
        for shot, extra in shots:
            if shot.ranged_difficulty != shot.difficulty and weapon.ranged:
                extra = shot.ranged_difficulty
            resolved.append((shot, extra))
        return weapon, tuple(resolved)

    @cached_property
    def tactics(self):
        """Grappling, surprise, hiding and mounted combat (``rules.systems.aeon.tactics``)."""
        return AeonTactics(self)

    def mount_of(self, actor: Combatant):
        """The ``Mount`` ``actor`` rides in this fight (``conditions["mount"]``), or None."""
        record = actor.conditions.get("mount")
        return Mount.from_record(record) if record else None

    def fighting_pool(self, actor: Combatant, traits: Sequence[str]) -> Pool:
        """``actor``'s ratings of ``traits`` as a pool; mounted, each Ability capped at Ride
        names its cap (``"Athletics 2, capped by Ride" 1``: shown "Athletics 2, capped by Ride 1")."""
        fighting = self.as_fighting(actor)
        return Pool(tuple((Line("aeon.value.part_capped", {"name": name, "rating": actor.trait(name),
                                                             "cap": self.tactics.ride_trait})
                           if fighting.trait(name) < actor.trait(name) else name, fighting.trait(name))
                          for name in traits))

    def as_fighting(self, actor: Combatant) -> Combatant:
        """``actor`` with its offensive and defensive Abilities capped at Ride when mounted
        (seed: Mounted Combat)."""
        return self.tactics.mounted_traits(actor) if self.mount_of(actor) else actor

    def attack(self, attacker: Combatant, target: Combatant, option: str, roller: Roller,
               *, modifier: int = 0, dice_modifier: int = 0) -> AeonAttack:
        """Roll to hit: the weapon's pool (+ ``dice_modifier`` + wounds) at TN 7, needing 1 +
        the called shots' difficulty + ``modifier`` successes. A clinch rolls the control pool
        (seed: Grappling). Mounted (``conditions["mount"]``): Abilities capped at Ride, a Ride
        roll first when the mount's Control Rating is above Ride (failing it spends the action),
        and the mounted difficulty and automatic successes. Raises CombatError."""
        self.require_able(attacker)
        weapon, shots, clinch_choice, difficulty, automatic, notes = self.check_attack(
            attacker, target, option, modifier=modifier)
        mount = self.mount_of(attacker)
        preface = tuple(notes)
        fighting = self.as_fighting(attacker)
        # The game makes the turn's Ride roll as an action of its own first (``ridden``).
        if mount and not attacker.conditions.get("ridden") and self.tactics.needs_control_roll(attacker, mount):
            controlled, lines = self.tactics.control_roll(attacker, mount, roller)
            preface = tuple(lines) + preface
            if not controlled:
                return AeonAttack(attacker.name, target.name, weapon, shots, Pool(()),
                                  AeonRoll((), self.target_number, difficulty), tuple(lines), lost_control=True,
                                  clinch_choice=clinch_choice)
        if weapon.clinch:
            pool = self.tactics.control_pool(fighting, dice_modifier)
        else:
            pool = self.action_pool(attacker, self.fighting_pool(attacker, weapon.to_hit).parts
                                    + modifier_parts(dice_modifier), "attack")
        roll = roll_aeon(pool.size, roller, target_number=self.target_number, difficulty=difficulty,
                         automatic=automatic)
        return AeonAttack(attacker.name, target.name, weapon, shots, pool, roll, preface, clinch_choice=clinch_choice)

    def check_attack(self, attacker: Combatant, target: Combatant, option: str, *,
                     modifier: int = 0) -> tuple[Weapon, tuple[tuple[CalledShot, int], ...], str, int, int, tuple[str, ...]]:
        """Everything :meth:`attack` checks before any die: (weapon, called shots, clinch choice,
        successes needed, automatic successes, mounted notes). The game calls it before the
        turn's Ride roll, so a refused attack rolls nothing. Raises CombatError."""
        option, clinch_choice = self.split_clinch_choice(option)
        weapon, shots = self.parse_option(option, attacker)
        if any(shot.no_damage for shot, _ in shots) and not target.weapon:
            raise CombatError(Line("aeon.refusal.holds_no_weapon_disarm", {"target": target.name}))
        if weapon.clinch and shots:
            raise CombatError(Line("aeon.refusal.clinch_takes_no_called"))
        if weapon.clinch and target.conditions.get("clinch_with"):
            raise CombatError(Line("aeon.refusal.already_clinch", {"target": target.name}))
        mount, target_mount = self.mount_of(attacker), self.mount_of(target)
        extra, automatic, notes = (0, 0, ())
        if mount or target_mount:
            extra, automatic, notes = self.tactics.mounted_modifiers(
                mount, target_mount, ranged=weapon.ranged, weapon_reach=weapon.reach)
        difficulty = self.default_difficulty + sum(shot_extra for _, shot_extra in shots) + modifier + extra
        if not self.min_difficulty <= difficulty <= self.max_difficulty:
            raise CombatError(Line("aeon.refusal.that_would_need_successes", {"difficulty": difficulty, "min_difficulty": self.min_difficulty, "max_difficulty": self.max_difficulty}))
        return weapon, shots, clinch_choice, difficulty, automatic, notes

    def split_clinch_choice(self, option: str) -> tuple[str, str]:
        """``"clinch crush"`` → ("clinch", "crush"); ``"clinch break throw"`` → ("clinch",
        "break throw"): what the attacker does on gaining control (seed: Grappling, "Upon gaining
        control of a clinch, a grappler has one of three options"). Any other option comes back
        as it is, with "hold". Raises CombatError for an unknown choice or way to break."""
        words = option.casefold().split()
        if len(words) < 2 or "+" in option:
            return option, "hold"
        clinches = [key for key, weapon in self.weapons.items() if weapon.clinch]
        if not any(key == words[0] or key.startswith(words[0]) for key in clinches) \
                or len(words) > 3 or words[-1].isdigit():
            return option, "hold"
        choice = pick_choice(words[1], CONTROL_CHOICES, Line("aeon.refusal.clinch_takes"))
        how = ""
        if len(words) == 3:
            if choice != "break":
                raise CombatError(Line("aeon.refusal.only_breaking_hold_can"))
            how = pick_choice(words[2], BREAK_CHOICES, Line("aeon.refusal.break_how"))
        return words[0], " ".join(filter(None, (choice, how)))

    def first_control(self, choice: str, controller: Combatant, victim: Combatant, net: int,
                      roller: Roller) -> tuple[tuple[tuple[str, str, Any], ...], tuple[Harm, ...], tuple[str, ...]]:
        """The controller's option on the clinch's first turn (seed: Grappling): hold, crush or
        break, as :meth:`AeonTactics.control` with the roll's ``net`` successes; a hold says
        nothing more."""
        kind, _, how = (choice or "hold").partition(" ")
        if kind == "hold":
            return (("held", victim.name, controller.name),), (), ()
        outcome = self.tactics.control(kind, controller, victim, net, roller, throw=how)
        return outcome.effects, outcome.harm, outcome.lines

    def attack_chance(self, attacker: Combatant, target: Combatant, option: str) -> Fraction:
        """The chance that the attack's pool reaches the successes it needs at TN 7."""
        probe = self.attack(attacker, target, option, MiddleRoller())
        return chance_of(lambda roller: self.attack(attacker, target, option, roller).needs_defense,
                         d10_pool=(len(probe.roll.faces), probe.roll.target_number))

    def hit_damage(self, attack: AeonAttack, attacker: Combatant) -> int:
        """The damage pool of a hit: the weapon's damage trait and bonus (seed: Damage); 0 for
        a clinch, which takes control instead, or a disarm."""
        weapon = attack.weapon
        if weapon.clinch or any(shot.no_damage for shot, _ in attack.shots):
            return 0
        return max(0, (attacker.trait(weapon.damage_trait) if weapon.damage_trait else 0) + weapon.damage_bonus)

    def attack_from_record(self, record: Mapping[str, Any]) -> AeonAttack:
        return AeonAttack(
            attacker=record["attacker"], target=record["target"], weapon=self.weapons[record["weapon"]],
            shots=tuple((self.called_shots[key], int(extra)) for key, extra in record["shots"]),
            pool=Pool.from_parts(record["parts"]), roll=AeonRoll.from_record(record["roll"]),
            preface=tuple(line_from_record(line) for line in record.get("preface", ())), lost_control=bool(record.get("lost_control", False)),
            clinch_choice=str(record.get("clinch_choice") or "hold"))

    def defense_from_record(self, record: Mapping[str, Any]) -> AeonDefense:
        return AeonDefense(record["kind"], record["defender"], Pool.from_parts(record["parts"]),
                           AeonRoll.from_record(record["roll"]), int(record.get("difficulty", 0)),
                           int(record.get("dice", 0)))

    def defense_choices(self, attack: AeonAttack, defender: Combatant) -> tuple[str, ...]:
        """The defenses ``defend`` would allow here: none in a clinch; ``accept`` only against
        a clinch; no block or parry against a ranged attack; parry needs a weapon in hand."""
        if defender.conditions.get("clinch_with"):
            return ()
        choices = []
        for name, table in self.defenses.items():
            if (attack.weapon.clinch and table.get("not_against_clinch")) \
                    or (table.get("melee_only") and attack.weapon.ranged) \
                    or (table.get("needs_weapon") and not defender.weapon):
                continue
            choices.append(name)
        return tuple(choices) + (("accept",) if attack.weapon.clinch else ())

    def defend(self, attack: AeonAttack, defender: Combatant, defense: str, roller: Roller,
               *, modifier: int = 0, dice_modifier: int = 0) -> AeonDefense:
        """Dodge, block or parry at TN 7; each success cancels one attack success. A defense
        needs no threshold, so ``modifier`` (+N difficulty) takes N off its successes (a
        negative one is refused). Block and parry only against hand-to-hand attacks; parry
        needs a weapon in hand. Against a clinch: dodge or parry, or ``accept`` it (seed:
        Grappling); no dodge, parry or block while clinched. Mounted: Abilities capped at
        Ride. Raises CombatError."""
        self.require_able(defender)
        if defense == "accept":
            if not attack.weapon.clinch:
                raise CombatError(Line("aeon.refusal.only_clinch_can_accepted"))
            return AeonDefense("accept", defender.name, Pool(()), AeonRoll((), self.target_number, 0),
                               dice=dice_modifier)
        if defense not in self.defenses:
            raise CombatError(Line("aeon.refusal.defend_with_one_other", {"defense_names": ', '.join(self.defense_names)}))
        if defender.conditions.get("clinch_with"):
            raise CombatError(Line("aeon.refusal.clinch_no_dodge_parry", {"defender": defender.name}))
        table = self.defenses[defense]
        if attack.weapon.clinch and table.get("not_against_clinch"):
            raise CombatError(Line("aeon.refusal.clinch_can_dodged_parried", {"defense": defense}))
        if table.get("melee_only") and attack.weapon.ranged:
            raise CombatError(Line("aeon.refusal.you_cannot_ranged_attack", {"defense": defense}))
        if table.get("needs_weapon") and not defender.weapon:
            raise CombatError(Line("aeon.refusal.you_need_weapon_hand", {"defense": defense}))
        if modifier < 0:
            raise CombatError(Line("aeon.refusal.defense_difficulty_can_only"))
        pool = self.action_pool(defender, self.fighting_pool(defender, table["traits"]).parts
                                + modifier_parts(dice_modifier), defense)
        roll = roll_aeon(pool.size, roller, target_number=self.target_number, difficulty=0)
        return AeonDefense(defense, defender.name, pool, roll, modifier)

    def gross_damage(self, attack: AeonAttack, attacker: Combatant, net: int) -> tuple[int, Line]:
        """Weapon damage + net successes (+ Fierce Blows), with its working."""
        parts = []
        if attack.weapon.damage_trait:
            parts.append((attack.weapon.damage_trait, attacker.trait(attack.weapon.damage_trait)))
        if attack.weapon.damage_bonus:
            parts.append((attack.weapon.label, attack.weapon.damage_bonus))
        parts.append((Line("aeon.value.part_net_successes"), net))
        for shot, _ in attack.shots:
            bonus = shot.bonus_bashing if attack.damage_type == "bashing" else shot.bonus_lethal
            if bonus:
                parts.append((shot.label, bonus))
        pool = Pool(tuple(parts))
        return pool.size, pool.line()

    def resolve(self, attack: AeonAttack, defense: AeonDefense | None, attacker: Combatant,
                target: Combatant, roller: Roller) -> Resolution:
        """Cancel attack successes with defense successes; a hit needs the net to reach the
        difficulty. Then damage (gross, hardness, soak, Armor Piercing) or, for Disarm, the
        target's Wits + wielding ability against the net successes."""
        lines: list[str | Line] = [*attack.preface, roll_of(attack.attacker, attack)]
        if attack.lost_control:
            return Resolution(attack.attacker, attack.target, False, 0, tuple(lines), (), ())
        if attack.roll.botch:
            lines.append(Line("aeon.line.botches", {"attacker": attack.attacker, "label": attack.label}))
            return Resolution(attack.attacker, attack.target, False, 0, tuple(lines), (), ())
        if defense and defense.kind == "accept":
            contest = self.tactics.accepted_clinch(self.as_fighting(attacker), self.as_fighting(target), roller,
                                                   defense.dice)
            lines.extend(contest.lines)
            effects = self.clinch_effects(attack.attacker, attack.target, None)
            harm: tuple[Harm, ...] = ()
            if contest.controller:
                # The winner of the contest chooses: the attacker as it named, the one who
                # accepted by its clinch/plan (condition "clinch_plan"; hold by default).
                if contest.controller == attack.attacker:
                    controller, victim, choice = attacker, target, attack.clinch_choice
                else:
                    controller, victim = target, attacker
                    choice = str(target.conditions.get("clinch_plan") or "hold")
                    if choice.split()[0] not in CONTROL_CHOICES:
                        choice = "hold"  # a plan to decline: nothing to decline on the first turn
                more_effects, harm, more = self.first_control(choice, controller, victim, contest.net, roller)
                effects += more_effects
                lines.extend(more)
            return Resolution(attack.attacker, attack.target, True, contest.net, tuple(lines), harm, effects)
        defense_net = defense.net if defense else 0
        if defense:
            lines.append(roll_of(defense.defender, defense))
        net = max(0, attack.roll.successes - defense_net)
        if defense and attack.roll.successes:
            lines.append(Line("aeon.line.cancels" if defense_net == 1 else "aeon.line.cancel", {
                "defender": defense.defender, "successes": successes(defense_net),
                "cancelled": min(defense_net, attack.roll.successes), "rolled": attack.roll.successes,
                "left": successes(net), "needs": attack.roll.difficulty}))
        if net < attack.roll.difficulty or net == 0:
            lines.append(Line("aeon.line.misses", {"attacker": attack.attacker, "label": attack.label,
                                                   "target": attack.target}))
            return Resolution(attack.attacker, attack.target, False, net, tuple(lines), (), ())
        if attack.weapon.clinch:
            kind = attack.clinch_choice.split()[0] if attack.clinch_choice else "hold"
            lines.append(Line("aeon.line.clinches", {"attacker": attack.attacker, "target": attack.target,
                                                     "choice": kind}))
            effects, harm, more = self.first_control(attack.clinch_choice, attacker, target, net, roller)
            lines.extend(more)
            return Resolution(attack.attacker, attack.target, True, net, tuple(lines), harm,
                              self.clinch_effects(attack.attacker, attack.target, None) + effects)
        lines.append(Line("aeon.line.hits", {"attacker": attack.attacker, "label": attack.label,
                                             "target": attack.target}))
        if any(shot.no_damage for shot, _ in attack.shots):
            effects, more = self._disarm(attack, target, net, roller)
            lines.extend(more)
            return Resolution(attack.attacker, attack.target, True, net, tuple(lines), (), effects)
        gross, working = self.gross_damage(attack, attacker, net)
        lines.append(Line("aeon.line.gross_damage", {"working": working, "damage_type": attack.damage_type}))
        harm, more = self.harm(target, gross, attack.damage_type, roller,
                               armor_piercing=net if attack.weapon.armor_piercing else 0)
        lines.extend(more)
        effects: tuple[tuple[str, str, Any], ...] = ()
        if harm.health_after.dead and any(shot.maims for shot, _ in attack.shots):
            # seed (Called Shots): Pulling Blows may "inflict a maiming wound rather than a
            # death-blow": the killing level is taken as a knock-out, and the wound maims
            spared = harm.health_after.with_counts({**harm.health_after.counts, "bashing": 1,
                                                    attack.damage_type: harm.health_after.counts[attack.damage_type] - 1})
            harm = replace(harm, health_after=spared)
            lines.append(Line("aeon.line.maimed", {"target": attack.target, "health": spared}))
            effects = (("maimed", attack.target, True),)
        return Resolution(attack.attacker, attack.target, True, net, tuple(lines), (harm,), effects)

    @staticmethod
    def clinch_effects(attacker: str, target: str, controller: str | None) -> tuple[tuple[str, str, Any], ...]:
        """A clinch between the two begins: ("clinch", each, the other), and its first turn
        (``clinch_first``: no contest until the next, seed: "the attacker does automatically
        control the clinch for the first turn"); with ``controller``, it holds the other (the
        first turn's own choice is :meth:`first_control`'s)."""
        effects: list[tuple[str, str, Any]] = [("clinch", attacker, target), ("clinch", target, attacker),
                                               ("clinch_first", attacker, None), ("clinch_first", target, None)]
        if controller:
            effects.append(("held", target if controller == attacker else attacker, controller))
        return tuple(effects)

    def _disarm(self, attack: AeonAttack, target: Combatant, net: int,
                roller: Roller) -> tuple[tuple[tuple[str, str, Any], ...], list[Line]]:
        """The target rolls Wits + the wielding ability, difficulty = the net successes; each
        success short sends the weapon a foot away (seed: Disarming)."""
        wielded = self.weapons.get(target.weapon)
        ability = wielded.ability if wielded else "Melee"
        traits = list(self.disarm.get("resist", ["Wits"])) + [ability]
        pool = Pool(trait_pool(target, traits).parts + self.wound_parts(target))
        roll = roll_aeon(pool.size, roller, target_number=self.target_number, difficulty=net)
        short = max(0, net - roll.successes)
        feet = short * int(self.disarm.get("feet_per_success", 1))
        lines = [Line("aeon.line.holds_on", {"name": target.name, "roll": pool_roll(pool, roll)})]
        if not short:
            lines.append(Line("aeon.line.keeps_hold", {"name": target.name}))
            return (), lines
        lines.append(Line("aeon.line.flies_foot" if feet == 1 else "aeon.line.flies_feet",
                          {"name": target.name, "feet": feet}))
        return (("disarmed", target.name, feet),), lines

    def pick_up(self, actor: Combatant, weapon_key: str, roller: Roller,
                dice_modifier: int = 0) -> tuple[bool, tuple[Line, ...]]:
        """Retrieve a dropped, unattended weapon (seed: Disarming): Dexterity + the weapon's
        Ability, difficulty 1 (data ``pick_up``). Returns (in hand, the working)."""
        self.require_able(actor)
        weapon = self.weapons.get(weapon_key)
        traits = list(self.disarm.get("pick_up", ["Dexterity"])) + ([weapon.ability] if weapon else [])
        pool = self.action_pool(actor, trait_pool(actor, traits).parts + modifier_parts(dice_modifier), "pick-up")
        roll = roll_aeon(pool.size, roller, target_number=self.target_number,
                         difficulty=int(self.disarm.get("pick_up_difficulty", 1)))
        label = weapon.label if weapon else weapon_key
        outcome = Line("aeon.line.in_hand" if roll.succeeded else "aeon.line.fumbles", {"name": actor.name, "weapon": label})
        return roll.succeeded, (Line("aeon.line.pick_up", {"roll": pool_roll(pool, roll)}), outcome)

    # --------------------------------------------------------------------------- health
    def chart(self, extra: int = 0) -> tuple[HealthLevel, ...]:
        """The wound levels with ``extra`` more of the data's extra level, inserted after the
        last level of that name (at the front when there is none)."""
        if extra <= 0:
            return self.levels
        names = [level.name for level in self.levels]
        at = len(names) - names[::-1].index(self.extra_level.name) if self.extra_level.name in names else 0
        return self.levels[:at] + (self.extra_level,) * extra + self.levels[at:]

    def health(self, record: Mapping[str, Any] | None, actor: Combatant | None = None) -> AeonHealth:
        """The chart from its record; extra levels from ``actor``'s trait when given, else the
        record's ``extra``."""
        record = record or {}
        extra = actor.trait(self.extra_trait) if actor is not None else int(record.get("extra", 0))
        extra = max(0, extra)
        return AeonHealth(self.chart(extra), int(record.get("bashing", 0)), int(record.get("lethal", 0)),
                          int(record.get("aggravated", 0)), extra)

    def damage_type(self, text: str) -> str:
        """``"l"``, ``"Lethal"`` … → ``"lethal"``. Raises CombatError."""
        return match_damage_type(text, DAMAGE_TYPES)

    def heal(self, actor: Combatant, amount: int | None, damage_type: str | None) -> AeonHealth:
        """As ``RuleSystem.heal``, but aggravated damage is "particularly hard to heal" (seed:
        Damage Types): healing everything (``amount`` and ``damage_type`` None) of someone
        living heals their bashing and lethal wounds and leaves the aggravated ones, which heal
        only when named (``[healing] all_heals_aggravated``, false by default; raising the dead
        stays staff fiat and clears the chart)."""
        health = self.health(actor.health, actor)
        if amount is None and damage_type is None and not health.dead and not self.all_heals_aggravated:
            return health.healed(None, "bashing").healed(None, "lethal")
        return super().heal(actor, amount, damage_type)

    def start_of_round(self, fighter: Combatant, round_number: int) -> RoundEffect | None:
        """Bleeding in a fight (seed: Baselines past a third of their levels in lethal or
        aggravated). The first round that starts with ``fighter`` bleeding and untreated is
        remembered (``conditions["bleeding_since"]``); every ``interval_rounds`` after it they
        lose one lethal level. ``conditions["treated"]`` (``+combat/treat``) stops it; both
        marks clear once the wounds no longer bleed (healed), so a new wound bleeds again."""
        since = fighter.conditions.get("bleeding_since")
        health = self.health(fighter.health, fighter)
        if not self.bleeds(health, fighter):
            stale = {key: None for key in ("bleeding_since", "treated") if fighter.conditions.get(key)}
            return RoundEffect(conditions=stale) if stale else None
        if fighter.conditions.get("treated"):
            return RoundEffect(conditions={"bleeding_since": None}) if since is not None else None
        if since is None:
            return RoundEffect(conditions={"bleeding_since": round_number}, lines=(
                Line("aeon.line.bleeding_every_round" if self.bleed_interval == 1 else "aeon.line.bleeding",
                     {"name": fighter.name, "count": self.bleed_interval}),))
        if round_number <= int(since) or (round_number - int(since)) % self.bleed_interval:
            return None
        after = health.with_damage(1, "lethal")
        return RoundEffect(health=after, lines=(Line("aeon.line.bleeds", {"name": fighter.name, "health": after}),))

    def bleeds(self, health: AeonHealth, combatant: Combatant) -> bool:
        """More than a third of the levels lost to lethal or aggravated, and a kind that
        bleeds (Baselines; Zetas never). The dead do not bleed further."""
        kind = self.kinds[self.kind_of(combatant)]
        serious = health.lethal + health.aggravated
        return kind["bleeds"] and not health.dead and serious * self.bleed_fraction > health.size


def bleed(health: AeonHealth, combatant: Combatant, rounds_since: int, *,
          system: AeonSystem | None = None, treated: bool = False) -> AeonHealth:
    """``health`` after ``rounds_since`` rounds of bleeding (seed: Baselines who have lost more
    than a third of their levels to lethal/aggravated; Zetas never): one lethal level per full
    interval (data, default 10 rounds), re-checked each time; nothing when ``treated``.
    The caller counts rounds from the last bleed (or the wound that started it)."""
    system = system or default_system()
    if treated:
        return health
    for _ in range(max(0, rounds_since) // system.bleed_interval):
        if not system.bleeds(health, combatant):
            break
        health = health.with_damage(1, "lethal")
    return health


@cache
def default_system() -> AeonSystem:
    """The system from the shipped data file, loaded once (``bleed``'s default)."""
    return AeonSystem()
