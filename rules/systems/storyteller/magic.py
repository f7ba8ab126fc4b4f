"""Storyteller magic: casting a spell, magical attacks (with Overshoot) and magical shields.

Sources: the storyteller seed sections "Magical Attack", "Magical Shield" and
"Soak", with the casting rules of ``docs/rules/storyteller.md`` ("Magic": "Casting", "Magical
attack", "Magical shield"). Every number and the spell list live in
``rules/data/storyteller_spells.toml``.

The flow mirrors the mundane attacks of :mod:`rules.systems.storyteller`:
``cast`` → ``magical_attack`` (opens the defense window when it hits) → ``resolve``;
or ``cast`` → ``raise_shield``. Dice, soak and health are the storyteller system's
(:class:`PoolRoll`, :func:`roll_pool`, ``StorytellerSystem._harm``, :class:`Resolution`,
:class:`Harm`); randomness only comes from the injected :class:`rules.dice.Roller`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rules.data import RulesDataError, load_system_data, require
from rules.dice import Roller
from rules.dice.odds import pool_outcomes
from rules.lines import Line, roll_of
from rules.systems.base import Combatant, CombatError, Pool, Resolution
from rules.systems.health import DAMAGE_TYPES
from rules.systems.storyteller.dice import (
    Harm,
    PoolRoll,
    StorytellerDefense,
    roll_pool,
    successes,
)
from rules.systems.storyteller.dice import levels as levels_line

if TYPE_CHECKING:
    from rules.systems.storyteller.system import StorytellerSystem

DATA_KEY = "storyteller_spells"
SPELL_KINDS = ("attack", "shield", "other")
#: The pool-part label of Special Effect successes spent on the hit or damage roll.
SE_LABEL = "special effects"


@dataclass(frozen=True)
class Spell:
    """One spell of the data file: ``key`` (``[spells.<key>]``), ``name`` (the incantation
    shown to players), ``school``, ``level`` (a ``[levels]`` name) and ``required`` (its Power
    successes, docs/rules/storyteller.md "Casting"), ``kind`` ``"attack" | "shield" | "other"``, ``damage_type`` (one
    of bashing/lethal/aggravated for attacks, ``""`` otherwise) and ``fire`` (seed: Soak —
    Vampires cannot soak fire)."""

    key: str
    name: str
    school: str
    level: str
    required: int
    kind: str
    damage_type: str
    fire: bool


@dataclass(frozen=True)
class CastRoll:
    """One casting (docs/rules/storyteller.md "Casting"): Power (+ wounds) vs 6 and Control
    (+ wounds) vs 10, both with 1s cancelling.

    ``fizzled``: fewer net Power successes than the spell's level requires, or the Power roll
    botched (a Control botch only leaves 0 Control successes: an Overshoot).
    ``overshoot``: not fizzled and fewer Control than Power successes.
    ``special_effects``: paired Power successes beyond the requirement,
    ``(power.net - required) // 2`` (0 when fizzled).
    """

    caster: str
    spell: Spell
    power_pool: Pool
    power: PoolRoll
    control_pool: Pool
    control: PoolRoll

    @property
    def fizzled(self) -> bool:
        return self.power.botch or self.power.net < self.spell.required

    @property
    def overshoot(self) -> bool:
        return not self.fizzled and self.control.net < self.power.net

    @property
    def special_effects(self) -> int:
        return 0 if self.fizzled else (self.power.net - self.spell.required) // 2

    def lines(self) -> tuple[Line, ...]:
        """The cast as lines of working: what is cast, the Power roll, the Control roll, the
        verdict (``"Stupefy fizzles (...)."``, ``"Stupefy is cast with an OVERSHOOT (...): 1
        Special Effect success."``)."""
        spell = self.spell
        if self.fizzled:
            verdict = (Line("storyteller.line.fizzles_botched", {"spell": spell.name}) if self.power.botch else
                       Line("storyteller.line.fizzles", {"spell": spell.name, "successes": successes(self.power.net),
                                                         "required": spell.required}))
        else:
            effects = Line("storyteller.line.special_effect" if self.special_effects == 1
                           else "storyteller.line.special_effects", {"count": self.special_effects})
            verdict = (Line("storyteller.line.spell_cast_overshoot", {"spell": spell.name, "control": self.control.net,
                                                                      "power": self.power.net, "effects": effects})
                       if self.overshoot else Line("storyteller.line.spell_cast", {"spell": spell.name, "effects": effects}))
        return (
            Line("storyteller.line.casts", {"caster": self.caster, "spell": spell.name, "level": spell.level,
                                            "required": Line("storyteller.line.power_success" if spell.required == 1
                                                             else "storyteller.line.power_successes",
                                                             {"count": spell.required})}),
            Line("storyteller.line.power", {"pool": self.power_pool.dice_line(), "roll": self.power.describe()}),
            Line("storyteller.line.control", {"pool": self.control_pool.dice_line(), "roll": self.control.describe()}),
            verdict,
        )

    def to_record(self) -> dict[str, Any]:
        """A plain dict; ``StorytellerMagic.cast_from_record`` rebuilds it (spell by key)."""
        return {"caster": self.caster, "spell": self.spell.key,
                "power_parts": self.power_pool.to_record(), "power": self.power.to_record(),
                "control_parts": self.control_pool.to_record(),
                "control": self.control.to_record()}


@dataclass(frozen=True)
class MagicalAttack:
    """A cast attack spell rolled to hit: Dexterity + Dueling (+ wounds) (+ Special Effect
    successes as the part ``"special effects"``) vs 6 (+ modifier) — seed: Magical Attack.

    The same duck type as ``StorytellerAttack``: ``label``, ``damage_type``, ``needs_defense``,
    ``describe()``, ``to_record()``, plus ``fire`` (``StorytellerSystem.defend`` refuses a block
    against damage the defender cannot soak, fire included). ``se_to_damage``: the Special Effect successes kept
    for the damage roll.
    """

    attacker: str
    target: str
    cast: CastRoll
    pool: Pool
    roll: PoolRoll
    se_to_damage: int

    @property
    def label(self) -> str:
        return self.cast.spell.name

    @property
    def needs_defense(self) -> bool:
        return self.roll.net > 0

    @property
    def successes(self) -> int:
        return self.roll.net

    @property
    def damage_type(self) -> str:
        return self.cast.spell.damage_type

    @property
    def fire(self) -> bool:
        return self.cast.spell.fire

    def describe(self) -> Line:
        """``"Reducto to hit: Dexterity 2 + Dueling 1 = 3 dice vs 6: ..."`` as a line of working."""
        return Line("storyteller.line.spell_to_hit_overshoot" if self.cast.overshoot else "storyteller.line.spell_to_hit",
                    {"label": self.label, "pool": self.pool.dice_line(), "roll": self.roll.describe()})

    def to_record(self) -> dict[str, Any]:
        """A plain dict (``"magic": True`` tells it from a mundane attack's record);
        ``StorytellerMagic.attack_from_record`` rebuilds it."""
        return {"magic": True, "attacker": self.attacker, "target": self.target,
                "option": self.cast.spell.key, "cast": self.cast.to_record(),
                "parts": self.pool.to_record(), "roll": self.roll.to_record(),
                "se_to_damage": self.se_to_damage}


def more_attacks(count: int) -> Line:
    """``"1 more attack"``, ``"2 more attacks"`` as a line."""
    return Line("storyteller.line.more_attack" if count == 1 else "storyteller.line.more_attacks", {"count": count})


@dataclass(frozen=True)
class Shield:
    """A raised magical shield (seed: Magical Shield): it blocks ``blocks`` more magical
    attacks against anyone in ``protected``; ``overshot`` shields zap whoever touches them.
    ``spell`` is the spell's name as shown to players."""

    caster: str
    spell: str
    blocks: int
    protected: tuple[str, ...]
    overshot: bool

    def line(self) -> Line:
        """``"Ann's Protego: blocks 2 more attacks, protects Ann, Bob."`` as a line (the room
        hears of a shield raised; the HUD shows it)."""
        return Line("storyteller.line.shield_crackling" if self.overshot else "storyteller.line.shield",
                    {"caster": self.caster, "shield": self.spell, "blocks": more_attacks(self.blocks),
                     "protected": ", ".join(self.protected)})

    def to_record(self) -> dict[str, Any]:
        return {"caster": self.caster, "spell": self.spell, "blocks": self.blocks,
                "protected": list(self.protected), "overshot": self.overshot}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Shield:
        return cls(caster=str(record["caster"]), spell=str(record["spell"]), blocks=int(record["blocks"]),
                   protected=tuple(str(name) for name in record["protected"]),
                   overshot=bool(record["overshot"]))


class StorytellerMagic:
    """Casting, magical attacks and shields on top of a :class:`StorytellerSystem`.

    ``data`` is the parsed ``storyteller_spells.toml`` (read from ``rules/data`` when None).
    Raises RulesDataError when the data is malformed: a missing table or value, an unknown
    level, kind or damage type (the message names the spell's key).
    """

    def __init__(self, system: StorytellerSystem, data: Mapping[str, Any] | None = None) -> None:
        self.system = system
        data = data if data is not None else load_system_data(DATA_KEY)
        levels = require(data, "levels", dict, DATA_KEY)
        for name in levels:
            if require(levels, name, int, "levels") < 0:
                raise RulesDataError(f"levels.{name}: expected 0 or more, got {levels[name]!r}.")
        self.levels: dict[str, int] = dict(levels)
        casting = require(data, "casting", dict, DATA_KEY)
        self.power_trait = require(casting, "power_trait", str, "casting")
        self.power_difficulty = require(casting, "power_difficulty", int, "casting")
        self.control_trait = require(casting, "control_trait", str, "casting")
        self.control_difficulty = require(casting, "control_difficulty", int, "casting")
        self.to_hit = tuple(require(casting, "to_hit", list, "casting"))
        self.to_hit_difficulty = require(casting, "to_hit_difficulty", int, "casting")
        self.damage_trait = require(casting, "damage_trait", str, "casting")
        self.damage_difficulty = require(casting, "damage_difficulty", int, "casting")
        self.extra_targets_on_hit = require(casting, "overshoot_extra_targets_on_hit", int, "casting")
        self.targets_on_miss = require(casting, "overshoot_targets_on_miss", int, "casting")
        self.zap_levels = require(casting, "shield_zap_levels", int, "casting")
        self.zap_type = require(casting, "shield_zap_type", str, "casting")
        if self.zap_type not in DAMAGE_TYPES:
            raise RulesDataError(f"casting.shield_zap_type: expected one of {', '.join(DAMAGE_TYPES)}, "
                                 f"got {self.zap_type!r}.")
        self.spells: dict[str, Spell] = {
            key: self._spell(key, table) for key, table in require(data, "spells", dict, DATA_KEY).items()}
        if not self.spells:
            raise RulesDataError(f"{DATA_KEY}.spells: at least one spell is needed.")

    def _spell(self, key: str, table: Any) -> Spell:
        where = f"spells.{key}"
        if not isinstance(table, Mapping):
            raise RulesDataError(f"{where}: expected a table, got {table!r}.")
        level = require(table, "level", str, where)
        if level not in self.levels:
            raise RulesDataError(f"{where}.level: unknown level {level!r}; "
                                 f"expected one of {', '.join(self.levels)}.")
        kind = require(table, "kind", str, where)
        if kind not in SPELL_KINDS:
            raise RulesDataError(f"{where}.kind: expected one of {', '.join(SPELL_KINDS)}, got {kind!r}.")
        damage_type = ""
        if kind == "attack":
            damage_type = table.get("damage_type", "lethal")  # docs/rules/storyteller.md: lethal by default
            if damage_type not in DAMAGE_TYPES:
                raise RulesDataError(f"{where}.damage_type: expected one of {', '.join(DAMAGE_TYPES)}, "
                                     f"got {damage_type!r}.")
        elif "damage_type" in table:
            raise RulesDataError(f"{where}.damage_type: only attack spells deal damage ({key} is a {kind}).")
        fire = table.get("fire", False)
        if not isinstance(fire, bool):
            raise RulesDataError(f"{where}.fire: expected true or false, got {fire!r}.")
        return Spell(key=key, name=require(table, "name", str, where), school=require(table, "school", str, where),
                     level=level, required=self.levels[level], kind=kind, damage_type=damage_type, fire=fire)

    # ----------------------------------------------------------------------- casting
    def spell(self, name: str) -> Spell:
        """The spell named by ``name``: its key or incantation, case-insensitively, exactly or
        by unique prefix (spaces count as hyphens). Raises CombatError listing the choices."""
        wanted = "-".join(name.casefold().split())
        aliases: dict[str, str] = {}
        for key, spell in self.spells.items():
            aliases[key.casefold()] = key
            aliases.setdefault("-".join(spell.name.casefold().split()), key)
        if wanted in aliases:
            return self.spells[aliases[wanted]]
        found = sorted({key for alias, key in aliases.items() if wanted and alias.startswith(wanted)})
        if len(found) == 1:
            return self.spells[found[0]]
        if found:
            raise CombatError(Line("refusal.could", {"name": name.strip()[:30], "shown": ', '.join(found)}))
        raise CombatError(Line("storyteller.refusal.no_spell_choose_from", {"name": name.strip()[:30], "spells": ', '.join(self.spells)}))

    def cast(self, caster: Combatant, spell_name: str, roller: Roller) -> CastRoll:
        """Cast ``spell_name``: Power (+ wounds) vs 6, then Control (+ wounds) vs 10, 1s
        cancelling, each + a tackle's penalty (at most 10) (docs/rules/storyteller.md "Casting"). Raises CombatError: unknown spell, or a caster who cannot act."""
        self.system.require_able(caster)
        spell = self.spell(spell_name)
        wounds = self.system.wound_parts(caster)
        power_pool = Pool(((self.power_trait, caster.trait(self.power_trait)),) + wounds)
        power = self.system.roll(power_pool.size, self.system.harder(self.power_difficulty, caster), roller)
        control_pool = Pool(((self.control_trait, caster.trait(self.control_trait)),) + wounds)
        control = self.system.roll(control_pool.size, self.system.harder(self.control_difficulty, caster), roller)
        return CastRoll(caster.name, spell, power_pool, power, control_pool, control)

    def cast_from_record(self, record: Mapping[str, Any]) -> CastRoll:
        """Rebuild ``CastRoll.to_record()``. Raises CombatError if the spell left the data file."""
        key = record["spell"]
        if key not in self.spells:
            raise CombatError(Line("storyteller.refusal.spell_no_longer_known", {"key": key}))
        return CastRoll(caster=str(record["caster"]), spell=self.spells[key],
                        power_pool=Pool.from_parts(record["power_parts"]), power=PoolRoll.from_record(record["power"]),
                        control_pool=Pool.from_parts(record["control_parts"]),
                        control=PoolRoll.from_record(record["control"]))

    def attack_chance(self, caster: Combatant, spell_name: str) -> Fraction:
        """The chance that casting attack spell ``spell_name`` does not fizzle and then hits,
        for the NPC AI: the Power roll's chance to reach the spell's successes times the
        to-hit roll's chance of a net success without Special Effect successes (so at least
        this). Raises CombatError: unknown spell."""
        spell = self.spell(spell_name)
        wounds = self.system.wound_parts(caster)
        power = Pool(((self.power_trait, caster.trait(self.power_trait)),) + wounds)
        power_at = self.system.harder(self.power_difficulty, caster)
        cast = pool_outcomes(power.size, power_at, lambda faces: not (
            (rolled := PoolRoll(faces, power_at)).botch or rolled.net < spell.required))
        to_hit = Pool(tuple((name, caster.trait(name)) for name in self.to_hit) + wounds)
        hit_at = self.system.moved_difficulty(self.to_hit_difficulty, 0)
        hit = pool_outcomes(to_hit.size, hit_at, lambda faces: PoolRoll(faces, hit_at).net > 0)
        return cast.get(True, Fraction(0)) * hit.get(True, Fraction(0))

    # ----------------------------------------------------------------------- attacks
    def magical_attack(self, caster: Combatant, target: Combatant, cast: CastRoll, roller: Roller,
                       *, se_to_hit: int, modifier: int = 0, dice_modifier: int = 0) -> MagicalAttack:
        """Roll to hit with a cast attack spell (seed: Magical Attack): Dexterity + Dueling
        (+ wounds) + ``se_to_hit`` Special Effect successes vs 6 + ``modifier``; the cast's other
        Special Effect successes go to the damage roll.

        Raises CombatError: the caster cannot act or is not the one who cast, the cast fizzled,
        the spell is not an attack, ``se_to_hit`` outside 0..``cast.special_effects``, or the
        difficulty would leave 2..10.
        """
        self.system.require_able(caster)
        if cast.caster != caster.name:
            raise CombatError(Line("storyteller.refusal.that_spell_was_cast", {"cast_caster": cast.caster, "caster": caster.name}))
        spell = cast.spell
        if cast.fizzled:
            raise CombatError(Line("storyteller.refusal.fizzled_there_nothing_aim", {"spell": spell.name}))
        if spell.kind != "attack":
            raise CombatError(Line("storyteller.refusal.not_attack_spell", {"spell": spell.name}))
        if not 0 <= se_to_hit <= cast.special_effects:
            raise CombatError(Line("storyteller.refusal.effects_on_hit_one" if cast.special_effects == 1
                                   else "storyteller.refusal.effects_on_hit",
                                   {"count": cast.special_effects, "on_hit": se_to_hit}))
        parts = tuple((name, caster.trait(name)) for name in self.to_hit)
        if dice_modifier:
            parts += (("modifier", dice_modifier),)
        parts += self.system.wound_parts(caster)
        if se_to_hit:
            parts += ((SE_LABEL, se_to_hit),)
        pool = Pool(parts)
        difficulty = self.system.moved_difficulty(self.to_hit_difficulty, modifier)
        roll = self.system.roll(pool.size, difficulty, roller)
        return MagicalAttack(caster.name, target.name, cast, pool, roll, cast.special_effects - se_to_hit)

    def attack_from_record(self, record: Mapping[str, Any]) -> MagicalAttack:
        """Rebuild ``MagicalAttack.to_record()``. Raises CombatError if the spell left the data file."""
        return MagicalAttack(attacker=str(record["attacker"]), target=str(record["target"]),
                             cast=self.cast_from_record(record["cast"]), pool=Pool.from_parts(record["parts"]),
                             roll=PoolRoll.from_record(record["roll"]), se_to_damage=int(record["se_to_damage"]))

    def _pick(self, candidates: list[str], count: int, roller: Roller) -> list[str]:
        """``count`` names drawn at random without replacement: one d(len) per draw, no die
        when a single candidate is left; all of them when there are too few."""
        pool, chosen = list(candidates), []
        while pool and len(chosen) < count:
            index = roller.roll(len(pool)) - 1 if len(pool) > 1 else 0
            chosen.append(pool.pop(index))
        return chosen

    def resolve(self, attack: MagicalAttack, defense: StorytellerDefense | None, caster: Combatant,
                target: Combatant, present: Sequence[Combatant], roller: Roller,
                shields: Mapping[str, Shield] | None = None) -> tuple[Resolution, dict[str, Shield]]:
        """Finish a magical attack (seed: Magical Attack, Magical Shield, Soak).

        ``defense`` successes cancel hit successes. ``shields`` maps a protected name to its
        :class:`Shield`. Which targets the spell reaches:

        - no Overshoot: the target on a hit, nobody on a miss (or botch);
        - Overshoot and a hit: the target plus 2 more drawn at random from ``present`` minus the
          caster and the target;
        - Overshoot and a miss: 3 drawn at random from ``present`` (plus the target if absent)
          minus the caster — the target may be among them.

        Each draw rolls a die with as many sides as candidates left (none for a single one);
        with too few candidates all are taken. A reached target behind a shield with blocks
        left is untouched: each such shield loses one block per attack and is removed (for
        everyone it protects) at 0. Damage is rolled once, Power + the Special Effect
        successes kept for damage, vs 7, 1s not cancelling; with several targets the levels
        are split evenly — each gets ``total // targets`` and the remainder dissipates (is
        lost), e.g. 7 over 3 = 2 each. Each target then soaks its share separately
        (Stamina vs 5, if its kind can soak the type; fire spells per ``can_soak``).

        Returns the :class:`Resolution` (``lines``: every roll and the split arithmetic;
        ``harm``: one :class:`Harm` per target that took its share, 0 levels included;
        ``hit``: the hit roll succeeded after defense) and the updated shields map (a new dict).
        """
        spell = attack.cast.spell
        new_shields = dict(shields or {})
        lines: list[str | Line] = [roll_of(attack.attacker, attack)]
        defense_net = defense.roll.net if defense else 0
        if defense:
            lines.append(roll_of(defense.defender, defense))
        net = 0 if attack.roll.botch else max(0, attack.roll.net - defense_net)
        if attack.roll.botch:
            lines.append(Line("storyteller.line.botches", {"attacker": attack.attacker, "label": spell.name}))
        elif defense and attack.roll.net:
            lines.append(Line("storyteller.line.cancels" if defense_net == 1 else "storyteller.line.cancel", {
                "defender": defense.defender, "successes": successes(defense_net),
                "cancelled": min(defense_net, attack.roll.net), "rolled": attack.roll.net, "left": successes(net)}))
        hit = net > 0
        others = [fighter.name for fighter in present if fighter.name != caster.name]
        if not attack.cast.overshoot:
            lines.append(Line("storyteller.line.spell_hits" if hit else "storyteller.line.spell_misses",
                              {"attacker": attack.attacker, "spell": spell.name, "target": attack.target}))
            reached = [target.name] if hit else []
        elif hit:
            candidates = [name for name in others if name != target.name]
            extra = self._pick(candidates, self.extra_targets_on_hit, roller)
            reached = [target.name] + extra
            lines.append(Line("storyteller.line.overshoot_hit" if extra else "storyteller.line.overshoot_hit_alone",
                              {"attacker": attack.attacker, "spell": spell.name, "target": attack.target,
                               **({"names": ", ".join(extra), "candidates": ", ".join(candidates)} if extra else {})}))
        else:
            candidates = others if target.name in others or target.name == caster.name else others + [target.name]
            reached = self._pick(candidates, self.targets_on_miss, roller)
            lines.append(Line("storyteller.line.overshoot_miss" if reached else "storyteller.line.overshoot_miss_alone",
                              {"attacker": attack.attacker, "spell": spell.name, "target": attack.target,
                               **({"names": ", ".join(reached), "candidates": ", ".join(candidates)} if reached else {})}))
        if not reached:
            return self._resolution(attack, hit, net, lines, []), new_shields
        exposed = []
        spent: list[Shield] = []
        for name in reached:
            shield = new_shields.get(name)
            if shield is not None and shield.blocks > 0:
                lines.append(Line("storyteller.line.blocks", {"caster": shield.caster, "shield": shield.spell,
                                                              "spell": spell.name, "name": name}))
                if shield not in spent:
                    spent.append(shield)
            else:
                exposed.append(name)
        for shield in spent:
            left = replace(shield, blocks=shield.blocks - 1)
            for name, held in list(new_shields.items()):
                if held == shield:
                    if left.blocks > 0:
                        new_shields[name] = left
                    else:
                        del new_shields[name]
            lines.append(Line("storyteller.line.can_block", {"caster": shield.caster, "shield": shield.spell,
                                                             "blocks": more_attacks(left.blocks)}) if left.blocks
                         else Line("storyteller.line.spent", {"caster": shield.caster, "shield": shield.spell}))
        if not exposed:
            return self._resolution(attack, hit, net, lines, []), new_shields
        parts = [(self.damage_trait, caster.trait(self.damage_trait))]
        if attack.se_to_damage:
            parts.append((SE_LABEL, attack.se_to_damage))
        pool = Pool(tuple(parts))
        damage_roll = roll_pool(pool.size, self.damage_difficulty, roller, ones_cancel=False)
        total = damage_roll.net
        lines.append(Line("storyteller.line.spell_damage_fire" if spell.fire else "storyteller.line.spell_damage",
                          {"pool": pool.dice_line(), "roll": damage_roll.describe(), "damage_type": spell.damage_type}))
        count = len(reached)
        share = total // count
        if count > 1:
            lost = total - share * count
            lines.append(Line("storyteller.line.split_lost" if lost else "storyteller.line.split",
                              {"levels": levels_line(total), "count": count, "total": total, "share": share,
                               **({"lost": lost} if lost else {})}))
        by_name = {fighter.name: fighter for fighter in present}
        by_name.setdefault(target.name, target)
        harm: list[Harm] = []
        for name in exposed:
            dealt, more = self.system._harm(by_name[name], pool, share, spell.damage_type, roller,
                                            rolled=False, fire=spell.fire)
            harm.append(replace(dealt, damage_roll=damage_roll))
            if count > 1:
                more[0] = Line("storyteller.line.share", {"name": name, "levels": levels_line(share),
                                                          "damage_type": spell.damage_type})
                lines.extend(more)
            else:
                lines.extend(more[1:])  # the damage line above already shows the levels
        return self._resolution(attack, hit, net, lines, harm), new_shields

    @staticmethod
    def _resolution(attack: MagicalAttack, hit: bool, net: int, lines: list[str | Line],
                    harm: list[Harm]) -> Resolution:
        return Resolution(attack.attacker, attack.target, hit, net, tuple(lines), tuple(harm), ())

    # ----------------------------------------------------------------------- shields
    @staticmethod
    def shield_from_record(record: Mapping[str, Any]) -> Shield:
        """A standing shield as the fight keeps it (``Shield.to_record()``)."""
        return Shield.from_record(record)

    def raise_shield(self, cast: CastRoll, protected: Sequence[str] = ()) -> Shield:
        """A shield from a cast shield spell (seed: Magical Shield): one block, the caster
        protected. Special Effect successes pay first for the people named in ``protected``
        beyond the caster (1 each), the rest add one block each; an Overshoot makes it zap.

        Raises CombatError: the cast fizzled, the spell is not a shield, or too few Special
        Effect successes for the people named (the message says how many are needed).
        """
        spell = cast.spell
        if cast.fizzled:
            raise CombatError(Line("storyteller.refusal.fizzled_no_shield_rises", {"spell": spell.name}))
        if spell.kind != "shield":
            raise CombatError(Line("storyteller.refusal.not_shield_spell", {"spell": spell.name}))
        extra: list[str] = []
        for name in protected:
            if name != cast.caster and name not in extra:
                extra.append(name)
        if len(extra) > cast.special_effects:
            raise CombatError(Line("storyteller.refusal.protecting_needs_one" if len(extra) == 1
                                   else "storyteller.refusal.protecting_needs",
                                   {"names": ", ".join(extra), "count": len(extra), "have": cast.special_effects}))
        return Shield(caster=cast.caster, spell=spell.name, blocks=1 + cast.special_effects - len(extra),
                      protected=(cast.caster, *extra), overshot=cast.overshoot)

    @staticmethod
    def shields_touched(toucher: str, other: str, shields: Mapping[str, Shield]) -> list[Shield]:
        """The overshot shields ``toucher`` touches in hand-to-hand contact with ``other`` (a
        brawl or melee attack, a grapple's escape): ``other``'s, and ``toucher``'s own (seed:
        "anyone who touches it (even the caster)"), each once. ``shields``: by protected name."""
        touched: list[Shield] = []
        for name in (other, toucher):
            shield = shields.get(name)
            if shield is not None and shield.overshot and shield not in touched:
                touched.append(shield)
        return touched

    def shield_zap(self, toucher: Combatant, shield: Shield, roller: Roller) -> tuple[Harm, list[str]] | None:
        """Touching an overshot shield (even its caster): 1 lethal level, which the toucher
        soaks (Stamina vs 5) only if their kind can soak lethal (seed: Magical Shield, Soak).
        Returns the harm and its lines, or None when the shield did not overshoot (no die)."""
        if not shield.overshot:
            return None
        dealt, lines = self.system._harm(toucher, None, self.zap_levels, self.zap_type, roller, rolled=False)
        return dealt, [Line("storyteller.line.zaps", {"caster": shield.caster, "shield": shield.spell,
                                                      "name": toucher.name})] + lines
