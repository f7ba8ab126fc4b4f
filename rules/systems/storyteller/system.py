"""The ``storyteller`` rule system: d10 pools against a difficulty (classic World of Darkness).

Source: the storyteller seed (initiative, brawl and melee attacks, dodge /
block / parry, soak by creature type) with the defaults described in
``docs/rules/storyteller.md`` (rule of ones, botches, health track). Every number lives in
``rules/data/storyteller.toml``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property
from typing import Any

from rules.data import RulesDataError, load_system_data, require, require_choice
from rules.dice import DEFAULT_LIMITS, DiceSyntaxError, PoolExpression, Roller
from rules.dice.odds import MiddleRoller, chance_of, pool_outcomes
from rules.lines import Line, roll_of
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
from rules.systems.storyteller.actions import ACTIONS
from rules.systems.storyteller.dice import (
    Harm,
    PoolRoll,
    StorytellerDefense,
    roll_pool,
    successes,
)
from rules.systems.storyteller.dice import (
    levels as levels_line,
)
from rules.systems.storyteller.magic import StorytellerMagic


@dataclass(frozen=True)
class StorytellerHealth(HealthTrack):
    """Seven health levels filled aggravated first, then lethal, then bashing
    (docs/rules/storyteller.md, "Health levels and wound penalties"); ``dead`` once lethal or
    aggravated damage passes Incapacitated."""

    dead: bool = False
    lethal_kills: bool = True   # lethal/aggravated into a full track is death (data, per kind)

    def line(self) -> Line:
        """``"Hurt (-1)"`` (``describe()``: ``"Hurt (-1) [LB.....]"``)."""
        return self.penalty_line() if self.filled and not self.incapacitated else self.level_line()

    def with_damage(self, amount: int, damage_type: str) -> StorytellerHealth:
        """The track after ``amount`` levels of ``damage_type``.

        A bashing level that finds the track full turns one bashing level into lethal. A
        lethal or aggravated level that finds it full is death when ``lethal_kills`` (the
        default: lethal past Incapacitated is death); otherwise it too turns a bashing level. With no bashing left to turn, any level is death.
        """
        counts = self.counts
        dead = self.dead
        for _ in range(max(0, amount)):
            if sum(counts.values()) < self.size:
                counts[damage_type] += 1
            elif damage_type != "bashing" and self.lethal_kills:
                dead = True
            elif counts["bashing"]:
                counts["bashing"] -= 1
                counts["aggravated" if damage_type == "aggravated" else "lethal"] += 1
            else:
                dead = True
        return self.with_counts(counts, dead=dead)

    def spared(self) -> StorytellerHealth:
        """Not dead: the track as it is, full (Incapacitated; docs/rules.md, "Death needs a
        decision")."""
        return replace(self, dead=False)

    def to_record(self) -> dict[str, Any]:
        return {**self.counts, "dead": self.dead}


@dataclass(frozen=True)
class Maneuver:
    """An attack: its to-hit pool, difficulty and damage (seed: Brawl Attack / Melee Attack)."""

    key: str
    label: str
    to_hit: tuple[str, ...]
    difficulty: int
    adjustable: bool
    damage_trait: str
    damage_bonus: int
    rollover: bool
    damage_type: str
    brawl: bool
    holds: bool = False
    tackle: bool = False
    weapon: str = ""
    damage_rolled: bool = True


@dataclass(frozen=True)
class StorytellerAttack:
    """A rolled attack. ``needs_defense``: it hit, so the target gets a defense window."""

    attacker: str
    target: str
    maneuver: Maneuver
    pool: Pool
    roll: PoolRoll

    @property
    def needs_defense(self) -> bool:
        return self.roll.net > 0

    @property
    def successes(self) -> int:
        return self.roll.net

    @property
    def label(self) -> str:
        return self.maneuver.label

    @property
    def damage_type(self) -> str:
        return self.maneuver.damage_type

    def describe(self) -> Line:
        """``"Punch to hit: Dexterity 3 + Brawl 2 = 5 dice vs 6: ..."`` as a line of working."""
        return Line("storyteller.line.to_hit", {"label": self.maneuver.label, "pool": self.pool.dice_line(),
                                                "roll": self.roll.describe()})

    def to_record(self) -> dict[str, Any]:
        return {"attacker": self.attacker, "target": self.target, "option": self.maneuver.key,
                "parts": self.pool.to_record(), "roll": self.roll.to_record()}


class StorytellerSystem(RuleSystem):
    """``storyteller`` — see the module docstring. Raises RulesDataError on a bad data file."""

    key = "storyteller"
    title = "Storyteller (d10 pools vs difficulty)"
    formal_duels = True   # a fight may be a formal duel: no brawl attacks (seed: Brawl Attack)
    default_kind = "Muggle"   # a sheet with no kind of the storyteller's (seed: Soak)
    escapes = True
    actions = ACTIONS
    condition_keys = frozenset({"tackled"})
    armor_columns = DAMAGE_TYPES

    def __init__(self, data: Mapping[str, Any] | None = None) -> None:
        data = data if data is not None else load_system_data(self.key)
        dice = require(data, "dice", dict, "storyteller")
        self.default_difficulty = require(dice, "default_difficulty", int, "dice")
        self.min_difficulty = require(dice, "min_difficulty", int, "dice")
        self.max_difficulty = require(dice, "max_difficulty", int, "dice")
        self.ones_cancel = require(dice, "ones_cancel", bool, "dice")
        self.damage_difficulty = require(dice, "damage_difficulty", int, "dice")
        self.empty_pool_chance_die = require(dice, "empty_pool_chance_die", bool, "dice")
        self.soak_difficulty = require(dice, "soak_difficulty", int, "dice")
        self.soak_trait = require(dice, "soak_trait", str, "dice")
        actions = require(data, "actions", dict, "storyteller")
        self.defense_uses_action = require(actions, "defense_uses_action", bool, "actions")
        self.defend_after_acting = require(actions, "defend_after_acting", bool, "actions")
        initiative = require(data, "initiative", dict, "storyteller")
        self.initiative_traits = tuple(require(initiative, "traits", list, "initiative"))
        self.reroll_each_round = require(initiative, "reroll_each_round", bool, "initiative")
        self.levels = tuple(
            HealthLevel(require(level, "name", str, "health_levels"), require(level, "penalty", int, "health_levels"))
            for level in require(data, "health_levels", list, "storyteller"))
        if not self.levels:
            raise RulesDataError("storyteller.health_levels: at least one level is needed.")
        health = require(data, "health", dict, "storyteller")
        self.lethal_kills = require(health, "lethal_past_incapacitated_kills", bool, "health")
        self.kinds = require(data, "kinds", dict, "storyteller")
        for name in self.kinds:
            for soaked in require(require(self.kinds, name, dict, "kinds"), "soaks", list, f"kinds.{name}"):
                if soaked not in DAMAGE_TYPES:
                    raise RulesDataError(f"kinds.{name}.soaks: expected damage types among "
                                         f"{', '.join(DAMAGE_TYPES)}, got {soaked!r}.")
            if "lethal_past_incapacitated_kills" in self.kinds[name]:
                require(self.kinds[name], "lethal_past_incapacitated_kills", bool, f"kinds.{name}")
            for unsoaked in self.kinds[name].get("fire_unsoaked", []):
                require_choice(unsoaked, DAMAGE_TYPES, f"kinds.{name}.fire_unsoaked")
        traits = require(data, "traits", dict, "storyteller")
        self.trait_names = tuple(name for group in traits.values() for name in group)
        self.maneuvers = {key: self._maneuver(key, table) for key, table in require(data, "maneuvers", dict, "storyteller").items()}
        melee = require(data, "melee", dict, "storyteller")
        self.weapons = require(data, "weapons", dict, "storyteller")
        for key, weapon in self.weapons.items():
            where = f"weapons.{key}"
            require(weapon, "concealed", str, where)
            self.maneuvers[key] = Maneuver(
                key=key, label=require(weapon, "name", str, where),
                to_hit=tuple(require(melee, "to_hit", list, "melee")),
                difficulty=require(melee, "difficulty", int, "melee"), adjustable=True,
                damage_trait="Strength", damage_bonus=require(weapon, "damage_bonus", int, where),
                rollover=True, damage_type=require_choice(require(weapon, "damage_type", str, where), DAMAGE_TYPES, f"{where}.damage_type"),
                brawl=False, weapon=key)
        # Shields (seed, Parry: "Must have shield or weapon in hand"): held like a weapon
        # (``+stat <name>/weapon=shield``) for parrying; they are no attack.
        self.shields = require(data, "shields", dict, "storyteller")
        for key in self.shields:
            require(require(self.shields, key, dict, "shields"), "name", str, f"shields.{key}")
            if key in self.maneuvers:
                raise RulesDataError(f"shields.{key}: the name of a maneuver or weapon already.")
        self.weapon_names = {key: weapon["name"] for key, weapon in self.weapons.items()}
        self.weapon_names.update({key: shield["name"] for key, shield in self.shields.items()})
        self.tackle = require(data, "tackle", dict, "storyteller")
        for name, kind in (("prone_check", list), ("prone_difficulty", int),
                           ("target_difficulty_penalty", int), ("botch_damage_trait", str)):
            require(self.tackle, name, kind, "tackle")
        self.escape = require(data, "escape", dict, "storyteller")
        require(self.escape, "traits", list, "escape")
        require(self.escape, "difficulty", int, "escape")
        self.armor_table = load_armor_table(data, DAMAGE_TYPES)
        self.defenses = require(data, "defenses", dict, "storyteller")
        for name in self.defenses:
            defense = require(self.defenses, name, dict, "defenses")
            require(defense, "traits", list, f"defenses.{name}")
            require(defense, "difficulty", int, f"defenses.{name}")
            require(defense, "adjustable", bool, f"defenses.{name}")
        self.defense_names = tuple(self.defenses)
        self.options = tuple(self.maneuvers)

    def _maneuver(self, key: str, table: Mapping[str, Any]) -> Maneuver:
        where = f"maneuvers.{key}"
        return Maneuver(
            key=key, label=require(table, "label", str, where),
            to_hit=tuple(require(table, "to_hit", list, where)),
            difficulty=require(table, "difficulty", int, where),
            adjustable=require(table, "adjustable", bool, where),
            damage_trait=require(table, "damage_trait", str, where),
            damage_bonus=require(table, "damage_bonus", int, where),
            rollover=require(table, "rollover", bool, where),
            damage_type=require_choice(require(table, "damage_type", str, where), DAMAGE_TYPES, f"{where}.damage_type"),
            brawl=require(table, "brawl", bool, where),
            holds=bool(table.get("holds", False)), tackle=bool(table.get("tackle", False)),
            damage_rolled=require(table, "damage_rolled", bool, where) if "damage_rolled" in table else True)

    @cached_property
    def magic(self):
        """Spellcasting (``rules.systems.storyteller.magic.StorytellerMagic``), loaded on first use."""
        return StorytellerMagic(self)

    # ----------------------------------------------------------------------------- dice
    def check_difficulty(self, difficulty: int) -> int:
        """``difficulty`` if within the data's range. Raises DiceSyntaxError."""
        if not self.min_difficulty <= difficulty <= self.max_difficulty:
            raise DiceSyntaxError(Line("storyteller.refusal.difficulty_range", {
                "least": self.min_difficulty, "most": self.max_difficulty, "difficulty": difficulty}))
        return difficulty

    def roll(self, size: int, difficulty: int, roller: Roller, *, automatic: int = 0) -> PoolRoll:
        """A pool of ``size`` dice vs ``difficulty`` with the rule of ones (checks, attacks,
        defenses, casting). An empty pool rolls nothing, or, with the data option
        ``empty_pool_chance_die``, one die that needs a 10 (docs/rules/storyteller.md "Dice")."""
        if size <= 0 and self.empty_pool_chance_die:
            return roll_pool(1, self.max_difficulty, roller, ones_cancel=self.ones_cancel, automatic=automatic)
        return roll_pool(size, difficulty, roller, ones_cancel=self.ones_cancel, automatic=automatic)

    def tackled(self, actor: Combatant) -> int:
        """The tackle's +difficulty on ``actor`` this turn (the game keeps it as the condition
        ``difficulty`` for the round after the tackle; see ``start_of_round``)."""
        return int(actor.conditions.get("difficulty", 0) or 0)

    def harder(self, base: int, actor: Combatant) -> int:
        """``base`` + the tackle's penalty on ``actor``, at most the highest difficulty: for the
        rolls the game passes no modifier to (``+roll``, Power and Control, escape, prone checks)."""
        return min(self.max_difficulty, base + self.tackled(actor))

    def start_of_round(self, fighter: Combatant, round_number: int) -> RoundEffect | None:
        """A tackle's +1 "to all actions next turn" (seed: Tackle): tackled in one round
        (``tackled``), the fighter rolls everything at +1 through the next, then it is gone."""
        waiting = int(fighter.conditions.get("tackled", 0) or 0)
        if waiting:
            return RoundEffect(conditions={"tackled": None, "difficulty": waiting},
                               lines=(Line("storyteller.line.tackled_this_turn", {"name": fighter.name, "bump": waiting}),))
        if self.tackled(fighter):
            return RoundEffect(conditions={"difficulty": None})
        return None

    def condition_marks(self, conditions: Mapping[str, Any]) -> tuple[str, ...]:
        return ("tackled",) if conditions.get("tackled") else ()

    def weapon_note(self, key: str) -> Line | str:
        """Where the weapon hides (the seed's weapon chart, Concealed: "Jacket", "Robes",
        "Nope!"; blank where the chart gives nothing): ``"hidden under a jacket"``,
        ``"hidden under robes"``, ``"cannot be hidden"`` as a line, or "" for nothing."""
        concealed = str(self.weapons.get(key, {}).get("concealed", "")).strip()
        if not concealed:
            return ""
        if concealed.rstrip("!").casefold() == "nope":
            return Line("storyteller.value.cannot_be_hidden")
        return Line("storyteller.value.hidden_under_a" if concealed.casefold() == "jacket"
                    else "storyteller.value.hidden_under", {"place": concealed.casefold()})

    def defense_adjustable(self, defense: str) -> bool:
        """Whether the ST's ``+combat/diff`` moves this defense (the seed stars dodge, block and
        parry: ``[defenses.<key>] adjustable``)."""
        return bool(self.defenses.get(defense, {}).get("adjustable"))

    def wound_parts(self, actor: Combatant) -> tuple[tuple[str, int], ...]:
        penalty = self.health(actor.health).penalty
        return (("wounds", penalty),) if penalty else ()

    def roll_check(self, expression: PoolExpression, actor: Combatant, roller: Roller,
                   *, modifier: int = 0, willpower: bool = False) -> RollResult:
        """``+roll``: the terms summed into a d10 pool (``3d10`` counts 3 dice) vs the difficulty.

        Raises DiceSyntaxError for dice other than d10 or a difficulty outside 2..10;
        CombatError for the incapacitated and the dead, or ``willpower`` with no Willpower rated.
        """
        pool, difficulty = self.check_pool(expression, actor, modifier, willpower)
        roll = self.roll(pool.size, difficulty, roller, automatic=1 if willpower else 0)
        verdict = Verdict("botch") if roll.botch else Verdict("success", roll.net) if roll.net else Verdict("failure")
        return RollResult(lines=(Line("storyteller.line.pool_roll", {"pool": pool.dice_line(), "roll": roll.describe()}),),
                          summary=verdict,
                          record={"pool": pool.to_record(), **roll.to_record(), "result": verdict.to_record()})

    def check_pool(self, expression: PoolExpression, actor: Combatant, modifier: int,
                   willpower: bool) -> tuple[Pool, int]:
        """The pool and difficulty ``+roll`` (and ``+roll/odds``) roll; raises as ``roll_check``."""
        parts: list[tuple[str, int]] = []
        for term in expression.terms:
            if term.kind == "trait":
                parts.append((term.trait, actor.trait(term.trait)))
            elif term.kind == "dice":
                if term.sides != 10:
                    raise DiceSyntaxError(Line("storyteller.refusal.only_ten_sided_dice", {"term": term.text}))
                parts.append(("", term.sign * term.number))
            else:
                parts.append(("", term.sign * term.number))
        if modifier:
            parts.append(("modifier", modifier))
        parts.extend(self.wound_parts(actor))
        difficulty = self.check_difficulty(
            self.default_difficulty if expression.difficulty is None else expression.difficulty)
        difficulty = self.harder(difficulty, actor)
        pool = Pool(tuple(parts))
        if pool.size > DEFAULT_LIMITS.max_dice:
            raise DiceSyntaxError(Line("dice.refusal.too_many_dice", {"most": DEFAULT_LIMITS.max_dice}))
        health = self.health(actor.health)
        if health.incapacitated:
            raise CombatError(Line("storyteller.refusal.rolls_no_dice", {"actor": actor.name, "health_level_name": health.level_name.lower()}))
        if willpower and actor.trait("Willpower") <= 0:
            raise CombatError(Line("storyteller.refusal.has_no_willpower_spend", {"actor": actor.name}))
        return pool, difficulty

    def odds(self, expression: PoolExpression, actor: Combatant, *, modifier: int = 0,
             willpower: bool = False) -> Odds:
        """Botch, failure and at least 1, 2, 3 ... net successes of ``+roll`` (docs/rules/
        storyteller.md "Dice"): every count of 1s, successes and other faces, judged by the
        roll itself (``rules.dice.odds.pool_outcomes``)."""
        pool, difficulty = self.check_pool(expression, actor, modifier, willpower)
        automatic = 1 if willpower else 0
        size, success_at = pool.size, difficulty
        if size <= 0 and self.empty_pool_chance_die:
            size, success_at = 1, self.max_difficulty

        def judge(faces: tuple[int, ...]) -> object:
            rolled = PoolRoll(faces, success_at, self.ones_cancel, automatic)
            return "botch" if rolled.botch else rolled.net

        outcomes = pool_outcomes(size, success_at, judge)
        rows = [("Botch", outcomes.get("botch", Fraction(0))), ("Failure", outcomes.get(0, Fraction(0))),
                *at_least_rows(outcomes, 1)]
        title = Line("storyteller.title.odds_willpower" if willpower else "storyteller.title.odds",
                     {"pool": pool.dice_line(), "difficulty": difficulty})
        return Odds(title, tuple(rows))

    # ----------------------------------------------------------------------- initiative
    def roll_initiative(self, actor: Combatant, roller: Roller) -> InitiativeRoll:
        """Wits + Dexterity + 1d10 + wound penalty (seed: Initiative). Ties break on Wits + Dex."""
        self.require_able(actor)
        base = trait_pool(actor, self.initiative_traits)
        pool = Pool(base.parts + self.wound_parts(actor))
        die = roller.roll(10)
        return InitiativeRoll(actor.name, pool, die, pool.size + die, base.size)

    def schedule(self, rolls: Sequence[InitiativeRoll]) -> ActionSchedule:
        """Act highest to lowest; equal total and equal Wits + Dex share a slot (simultaneous),
        names sorted case-insensitively inside it; declare in the reverse order
        (docs/rules/storyteller.md, "Initiative and turn order")."""
        slots = highest_first(rolls)
        declare = tuple(name for slot in reversed(slots) for name in slot.names)
        return ActionSchedule(slots, declare)

    # -------------------------------------------------------------------------- attacks
    def attack_options(self) -> tuple[str, ...]:
        return self.options

    def maneuver(self, option: str, attacker: Combatant) -> Maneuver:
        """The maneuver or weapon named by ``option`` (unique prefix, spaces as hyphens); with
        no option, the weapon in hand or a punch. Raises CombatError."""
        wanted = "-".join(option.casefold().split())
        if not wanted:
            return self.maneuvers.get(attacker.weapon) or self.maneuvers["punch"]
        if wanted in self.maneuvers:
            return self.maneuvers[wanted]
        found = [key for key in self.maneuvers if key.startswith(wanted)]
        if len(found) == 1:
            return self.maneuvers[found[0]]
        if found:
            raise CombatError(Line("refusal.could", {"name": option, "shown": ', '.join(found)}))
        raise CombatError(Line("storyteller.refusal.no_maneuver_weapon_choose", {"option": option, "options": ', '.join(self.options)}))

    def difficulty_adjustable(self, option: str, attacker: Combatant) -> bool:
        """Only the starred difficulties of the seed move (``Maneuver.adjustable``)."""
        return self.maneuver(option, attacker).adjustable

    def moved_difficulty(self, base: int, modifier: int) -> int:
        """``base + modifier``. Raises CombatError when that leaves the 2..10 range."""
        difficulty = base + modifier
        if not self.min_difficulty <= difficulty <= self.max_difficulty:
            raise CombatError(Line("storyteller.refusal.that_would_make_difficulty", {"difficulty": difficulty, "min_difficulty": self.min_difficulty, "max_difficulty": self.max_difficulty}))
        return difficulty

    def require_able(self, actor: Combatant) -> None:
        health = self.health(actor.health)
        if health.incapacitated:
            raise CombatError(Line("storyteller.refusal.cannot_act", {"actor": actor.name, "health_level_name": health.level_name.lower()}))

    def attack(self, attacker: Combatant, target: Combatant, option: str, roller: Roller,
               *, modifier: int = 0, dice_modifier: int = 0) -> StorytellerAttack:
        """Roll to hit with the maneuver's pool + wound penalty vs its difficulty + ``modifier``.

        ``modifier`` moves the difficulty (ST discretion, tackle's +1). Raises CombatError
        when the attacker cannot act, the difficulty would leave 2..10, or a brawl attack is
        made in a formal duel (the fight's scene condition ``duel``; seed: "Disallowed in
        formal duels").
        """
        self.require_able(attacker)
        maneuver = self.maneuver(option, attacker)
        if maneuver.brawl and attacker.conditions.get("duel"):
            raise CombatError(Line("storyteller.refusal.this_formal_duel_brawl", {"maneuver_label": maneuver.label}))
        pool = Pool(trait_pool(attacker, maneuver.to_hit).parts + modifier_parts(dice_modifier)
                    + self.wound_parts(attacker))
        roll = self.roll(pool.size, self.moved_difficulty(maneuver.difficulty, modifier), roller)
        return StorytellerAttack(attacker.name, target.name, maneuver, pool, roll)

    def attack_chance(self, attacker: Combatant, target: Combatant, option: str) -> Fraction:
        """The chance that the attack's pool gets a net success at its difficulty."""
        probe = self.attack(attacker, target, option, MiddleRoller())
        return chance_of(lambda roller: self.attack(attacker, target, option, roller).needs_defense,
                         d10_pool=(len(probe.roll.faces), probe.roll.difficulty))

    def hit_damage(self, attack: StorytellerAttack, attacker: Combatant) -> int:
        """The damage pool of a hit with one net success: the maneuver's damage trait and
        bonus (no rollover); 0 for a maneuver that rolls no damage."""
        maneuver = attack.maneuver
        if not maneuver.damage_trait:
            return 0
        return max(0, attacker.trait(maneuver.damage_trait) + maneuver.damage_bonus)

    def attack_from_record(self, record: Mapping[str, Any]) -> StorytellerAttack:
        return StorytellerAttack(
            attacker=record["attacker"], target=record["target"],
            maneuver=self.maneuvers[record["option"]],
            pool=Pool.from_parts(record["parts"]),
            roll=PoolRoll.from_record(record["roll"]))

    def can_soak(self, actor: Combatant, damage_type: str, fire: bool = False) -> bool:
        """Whether ``actor``'s kind rolls soak against ``damage_type`` (seed: Soak table);
        ``fire``: fire damage, which a kind's ``fire_unsoaked`` types keep it from soaking
        (Vampires soak every aggravated wound "except for Fire": lethal fire they soak)."""
        kind = self.kinds.get(actor.kind, {})
        soaks = set(kind.get("soaks", ()))
        if kind.get("transformed_only"):
            base = self.kinds.get(actor.base_kind, {}) if actor.base_kind != actor.kind else {}
            soaks = set(base.get("soaks", ())) | (soaks if actor.transformed else set())
        if fire and damage_type in kind.get("fire_unsoaked", ()):
            return False
        return damage_type in soaks

    def defense_choices(self, attack: StorytellerAttack, defender: Combatant) -> tuple[str, ...]:
        """The defenses the seed lets ``defender`` make against ``attack``: no block against a
        damage type they cannot soak, no parry with nothing in hand ("Defensive Actions")."""
        return tuple(name for name in self.defense_names if self._refusal(attack, defender, name) is None)

    def _refusal(self, attack: StorytellerAttack, defender: Combatant, defense: str) -> Line | None:
        table = self.defenses[defense]
        if table.get("needs_soak") and not self.can_soak(defender, attack.damage_type,
                                                         getattr(attack, "fire", False)):
            return Line("storyteller.refusal.cannot_block", {"damage_type": attack.damage_type})
        if table.get("needs_weapon") and not defender.weapon:   # a weapon or a shield (``shields``)
            return Line("storyteller.refusal.parry_needs_weapon")
        return None

    def defend(self, attack: StorytellerAttack, defender: Combatant, defense: str, roller: Roller,
               *, modifier: int = 0, dice_modifier: int = 0) -> StorytellerDefense:
        """Dodge, block or parry: the pool vs 6 (+ ``modifier``); each success cancels one
        attack success. Raises CombatError: unknown defense, block against a type the
        defender cannot soak, parry with nothing in hand, or an incapacitated defender."""
        self.require_able(defender)
        if defense not in self.defenses:
            raise CombatError(Line("storyteller.refusal.defend_with_one_other", {"defense_names": ', '.join(self.defense_names)}))
        table = self.defenses[defense]
        refused = self._refusal(attack, defender, defense)
        if refused:
            raise CombatError(refused)
        pool = Pool(trait_pool(defender, table["traits"]).parts + modifier_parts(dice_modifier)
                    + self.wound_parts(defender))
        roll = self.roll(pool.size, self.moved_difficulty(table["difficulty"], modifier), roller)
        return StorytellerDefense(defense, defender.name, pool, roll, defender.weapon)

    def _harm(self, victim: Combatant, pool: Pool | None, levels_or_dice: int, damage_type: str,
              roller: Roller, *, rolled: bool = True, fire: bool = False) -> tuple[Harm, list[str]]:
        """Roll damage (or take ``levels_or_dice`` levels outright), roll soak, and return the
        harm with its lines of arithmetic.

        The soak pool is Stamina when the victim's kind can soak the type (``fire``: the
        damage is fire, see ``can_soak``), plus the worn approved armor's value for the type
        (``victim.armor``). Armor is a Fray default (the source has no armor table): it adds
        soak dice, and lets a kind that cannot soak a type soak it with the armor dice alone.
        """
        lines: list[str | Line] = []
        damage_roll = None
        if rolled:
            damage_roll = roll_pool(levels_or_dice, self.damage_difficulty, roller, ones_cancel=False)
            raw = damage_roll.net
            shown = (pool or Pool((("", levels_or_dice),))).dice_line()
            lines.append(Line("storyteller.line.damage", {"pool": shown, "roll": damage_roll.describe(),
                                                          "damage_type": damage_type}))
        else:
            raw = levels_or_dice
            lines.append(Line("storyteller.line.damage_levels", {"levels": levels_line(raw), "damage_type": damage_type}))
        soak_roll = None
        natural = self.can_soak(victim, damage_type, fire)
        armor = int(victim.armor.get(damage_type, 0) or 0)
        if raw and (natural or armor):
            parts = trait_pool(victim, (self.soak_trait,)).parts if natural else ()
            soak_pool = Pool(parts + (((Line("storyteller.value.part_armor"), armor),) if armor else ()))
            soak_roll = roll_pool(soak_pool.size, self.soak_difficulty, roller, ones_cancel=False)
            lines.append(Line("storyteller.line.soaks" if natural else "storyteller.line.soaks_armor_only",
                              {"victim": victim.name, "pool": soak_pool.dice_line(), "roll": soak_roll.describe()}))
        elif raw:
            lines.append(Line("storyteller.line.cannot_soak_fire" if fire else "storyteller.line.cannot_soak",
                              {"victim": victim.name, "damage_type": damage_type, "kind": victim.kind}))
        levels = max(0, raw - (soak_roll.net if soak_roll else 0))
        before = self.health(victim.health, victim)
        after = before.with_damage(levels, damage_type)
        lines.append(Line("line.takes_one" if levels == 1 else "line.takes",
                          {"victim": victim.name, "count": levels, "damage_type": damage_type, "health": after}))
        return Harm(victim.name, damage_type, pool, damage_roll, soak_roll, levels, before, after), lines

    def resolve(self, attack: StorytellerAttack, defense: StorytellerDefense | None,
                attacker: Combatant, target: Combatant, roller: Roller) -> Resolution:
        """Cancel hit successes with defense successes; on a hit roll damage (rollover = net
        successes beyond the first), soak, and wound. Also the parry counter-damage, the hold
        of grapple/hold, tackle's prone checks and +1 difficulty, and tackle's botch."""
        maneuver = attack.maneuver
        lines: list[str | Line] = [roll_of(attack.attacker, attack)]
        defense_net = defense.roll.net if defense else 0
        if defense:
            lines.append(roll_of(defense.defender, defense))
        net = max(0, attack.roll.net - defense_net)
        harm: list[Harm] = []
        effects: list[tuple[str, str, Any]] = []
        if attack.roll.botch:
            lines.append(Line("storyteller.line.botches", {"attacker": attack.attacker, "label": maneuver.label}))
            if maneuver.tackle:
                levels = target.trait(self.tackle["botch_damage_trait"])
                dealt, more = self._harm(attacker, None, levels, maneuver.damage_type, roller, rolled=False)
                harm.append(dealt)
                lines.extend(more)
            return Resolution(attack.attacker, attack.target, False, 0, tuple(lines), tuple(harm), ())
        if defense and attack.roll.net:
            lines.append(Line("storyteller.line.cancels" if defense_net == 1 else "storyteller.line.cancel", {
                "defender": defense.defender, "successes": successes(defense_net),
                "cancelled": min(defense_net, attack.roll.net), "rolled": attack.roll.net, "left": successes(net)}))
        if net == 0:
            lines.append(Line("storyteller.line.misses", {"attacker": attack.attacker, "label": maneuver.label,
                                                          "target": attack.target}))
            counter = self._parry_counter(attack, defense, attacker, roller)
            if counter:
                dealt, more = counter
                harm.append(dealt)
                lines.extend(more)
            return Resolution(attack.attacker, attack.target, False, 0, tuple(lines), tuple(harm), ())
        lines.append(Line("storyteller.line.hits", {"attacker": attack.attacker, "label": maneuver.label,
                                                    "target": attack.target}))
        if maneuver.damage_trait:
            rollover = net - 1 if maneuver.rollover else 0
            parts = [(maneuver.damage_trait, attacker.trait(maneuver.damage_trait))]
            if maneuver.damage_bonus:
                parts.append((maneuver.label, maneuver.damage_bonus))
            if rollover:
                parts.append(("rollover", rollover))
            pool = Pool(tuple(parts))
            dealt, more = self._harm(target, pool, pool.size, maneuver.damage_type, roller,
                                     rolled=maneuver.damage_rolled)
            harm.append(dealt)
            lines.extend(more)
        if maneuver.holds:
            effects.append(("held", target.name, attacker.name))
            lines.append(Line("storyteller.line.held", {"target": target.name, "attacker": attacker.name,
                                                        "traits": " + ".join(self.escape["traits"])}))
        if maneuver.tackle:
            for fighter in (attacker, target):
                check_pool = Pool(trait_pool(fighter, self.tackle["prone_check"]).parts + self.wound_parts(fighter))
                check = self.roll(check_pool.size, self.harder(self.tackle["prone_difficulty"], fighter), roller)
                upright = check.net > 0
                lines.append(Line("storyteller.line.stays_up" if upright else "storyteller.line.prone",
                                  {"name": fighter.name, "pool": check_pool.dice_line(), "roll": check.describe()}))
                if not upright:
                    effects.append(("prone", fighter.name, True))
            bump = self.tackle["target_difficulty_penalty"]
            effects.append(("tackled", target.name, bump))
            lines.append(Line("storyteller.line.tackle_next_turn", {"target": target.name, "bump": bump}))
        return Resolution(attack.attacker, attack.target, True, net, tuple(lines), tuple(harm), tuple(effects))

    def _parry_counter(self, attack: StorytellerAttack, defense: StorytellerDefense | None,
                       attacker: Combatant, roller: Roller) -> tuple[Harm, list[str]] | None:
        """Parrying a Brawl attack with a lethal or aggravated weapon: the parry's successes
        beyond those that cancelled are a damage pool against the attacker (seed: Parry)."""
        if not defense or defense.kind != "parry" or not attack.maneuver.brawl:
            return None
        weapon = self.maneuvers.get(defense.weapon)
        if not weapon or weapon.damage_type not in ("lethal", "aggravated"):
            return None
        extra = defense.roll.net - attack.roll.net
        if extra <= 0:
            return None
        pool = Pool(((Line("storyteller.value.part_parry_extra_successes"), extra),))
        dealt, lines = self._harm(attacker, pool, extra, weapon.damage_type, roller)
        return dealt, [Line("storyteller.line.cuts", {"defender": defense.defender, "weapon": weapon.label})] + lines

    def escape_hold(self, escaper: Combatant, holder: Combatant, roller: Roller) -> tuple[bool, tuple[str, ...]]:
        """Contested Strength + Brawl: the held one escapes with more successes than the holder."""
        self.require_able(escaper)
        rolls = []
        for fighter in (escaper, holder):
            pool = Pool(trait_pool(fighter, self.escape["traits"]).parts + self.wound_parts(fighter))
            rolls.append((fighter, pool, self.roll(pool.size, self.harder(self.escape["difficulty"], fighter), roller)))
        lines = tuple(Line("storyteller.line.contest", {"name": f.name, "pool": p.dice_line(), "roll": r.describe()})
                      for f, p, r in rolls)
        escaped = rolls[0][2].net > rolls[1][2].net
        return escaped, lines + (Line("storyteller.line.breaks_free" if escaped else "storyteller.line.stays_held",
                                      {"name": escaper.name}),)

    # --------------------------------------------------------------------------- health
    def health(self, record: Mapping[str, Any] | None, actor: Combatant | None = None) -> StorytellerHealth:
        record = record or {}
        kind = self.kinds.get(actor.kind, {}) if actor is not None else {}
        return StorytellerHealth(self.levels, int(record.get("bashing", 0)), int(record.get("lethal", 0)),
                           int(record.get("aggravated", 0)), bool(record.get("dead", False)),
                           bool(kind.get("lethal_past_incapacitated_kills", self.lethal_kills)))

    def damage_type(self, text: str) -> str:
        """``"l"``, ``"Lethal"`` … → ``"lethal"``. Raises CombatError."""
        return match_damage_type(text, DAMAGE_TYPES)
