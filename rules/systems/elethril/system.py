"""The ``elethril`` rule system: d20 against THAC0 and Armor Class, d10 segment initiative.

Source: the elethril seed ("Elethril - On Fighting", sections 1a–4d) on the AD&D
2nd-edition base of ``docs/rules/elethril.md``. Every number lives in ``rules/data/elethril.toml``;
the segment timeline (10 segments a round, the order inside a segment, delay, forfeit,
spoiling) is :mod:`rules.systems.elethril.timeline`.

Registered in ``rules.systems.REGISTRY``; its fight's actions (declaring, playing the segments,
magical items) are ``rules.systems.elethril.actions``.

A round, as the game layer drives it::

    carried = [a for a in actions if a.busy_in(r)]         # 3a: no roll while busy
    start = system.start_round(r, declarations, roller, groups=sides_or_parties, carried=carried)
    for step in start.timeline.steps(): ...                  # attack(..., hand=event.hand)
    actions = spoil(actions, caster, r, segment, phase)[0]   # after a hit on a caster
    Board(start.timeline, now)                               # the board the game draws

Rules (seed section in brackets):

- Initiative is lowest first. Round 1 [1a]: one d10 per side; the lowest becomes 1 and every
  other side the difference + 1 (4 vs 7 → 1 and 4). That roll "is used to determine
  surprise" (choose, ``[surprise]``): a side ``margin`` or more behind is surprised, the head
  start its surprise, pushed ``segments`` further back (default: margin 1, segments 0). From round 2, individuals roll; parties
  may coordinate [1b]: one d10 for the party, and each member adds either their own
  modifiers or the slowest member's (declared before the roll; the die carries nobody's
  bonus). With several attacks [4b] an individual rolls one d10 per attack and keeps the
  best (lowest) single die.
- Final initiative = base + modifiers: the reaction adjustment, the first weapon's speed
  factor (lowered by magical plusses only, never below 0) [2a, 2b], a magical item's
  modifier, the standard modifiers [PHB Table 52], the ST's modifier, +1 after a forfeit
  [3a]. Below 1 it is 1; 11–20 lands next round, 21–30 the round after [3a].
- Attacks after the first follow by the speed factor of the weapon making them: the off-hand
  weapon its own speed factor after the first primary attack, then the primary's further
  attacks, each its speed factor after the one before [4a, 4c]. An off-hand weapon's magical
  plusses quicken only its own strike; the primary's next attack follows the off-hand
  weapon's unquickened speed factor [4a: "only the initiative of that weapon"].
  Missiles alike; a rate of fire below one skips denominator − 1 rounds [4d].
- Spells [3c]: casting begins at the caster's initiative segment, takes the casting time
  in segments, and the spell takes effect at the start of the next segment. The casting time
  is not also added to the initiative (the source's change replaces the 2e rule of adding
  it). Instant spells (Power Words, cantrips) take effect in their own segment.
- Magical items [3b]: using one (a wand, ring, rod, staff or potion, ``[items]``) is a single
  discharge of the spell it holds at the user's initiative + the item's modifier (PHB Table
  52), in the segment's first phase: no casting, so nothing to spoil, and no Caster Level.
- To hit [docs/rules/elethril.md, To hit]: d20 + plusses + Hit Probability (+ two-weapon penalties) ≥ THAC0 −
  Armor Class (+ the ST's modifier); natural 20 hits, natural 1 misses (options). Damage:
  the weapon's dice for the target's size (S/M or L) + plusses + Damage Adjustment.
  No active defense. Hit points: 0 or less is down, −10 or less dead (options).

Fray choices where the source is silent (``# guess:`` in the data file, or here):

- The sheet's ``Reaction`` trait is the reaction adjustment (+ is better): it is subtracted.
- Round 1: a combatant on no declared side is a side of their own. Coordinated parties
  (round 2 on) are not normalised. A party rolls one die even for members with several
  attacks. The slowest member is the one with the highest own modifier total; the forfeit
  penalty stays personal.
- Armor Class: the sheet's ``Armor Class`` trait, else the worn armor note's, else 10.
  THAC0: the sheet's, else 20. Hit points: the sheet's ``Hit Points``, else 10.
- Quality plusses add to hit and damage like magical ones; a hit does at least 1 damage.
- Delay, spoiling and forfeiting: see :mod:`rules.systems.elethril.timeline`.

What makes an action stronger comes from the sheet (staff ``+stat``) or from the Storyteller,
never from a player's typed option (``Declaration.storyteller`` marks the ST declaring for an
NPC, whose typed choices are fiat):

- The weapon is the one in hand (the sheet's weapon) or a fist; its magical plus is the
  sheet's ``Weapon Plus``, its quality plus ``Weapon Quality``. Only the ST may name another
  weapon or type plusses (``short sword +1``, at most the traits' range).
- Melee attacks per round: the sheet's ``Attacks`` (unset: 1); a player may declare fewer
  (``*1``), the ST up to ``max_attacks``. Missiles fire their rate of fire (data) for everyone.
- The off-hand weapon is the one the ST grants for the fight (``conditions["off_hand"]``,
  ``+combat/offhand``), or the ST's choice for an NPC.
- Spells: up to the highest spell level of the sheet's ``Caster Level`` (the 2e wizard table,
  data); the ST may cast anything for NPCs.
- Magical items: staff put them on the sheet (type, spell, charges; ``+item``); the game layer
  (``rules.systems.elethril.actions``) checks the user holds the item with a charge left and spends the
  charge when it discharges. The ST may use any item type and spell for an NPC.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from difflib import get_close_matches
from fractions import Fraction
from itertools import groupby
from typing import Any

from rules.data import RulesDataError, load_system_data, require, require_choice
from rules.dice import (
    DEFAULT_LIMITS,
    DiceSyntaxError,
    PoolExpression,
    Roller,
    Term,
    parse_pool,
    roll_dice,
)
from rules.dice.odds import enumerate_outcomes
from rules.lines import Line, roll_of, text_of
from rules.systems.base import (
    ActionSchedule,
    Combatant,
    CombatError,
    InitiativeRoll,
    Odds,
    PointsHealth,
    Pool,
    Resolution,
    RollResult,
    RuleSystem,
    Slot,
    Verdict,
    load_armor_table,
)
from rules.systems.elethril.declaring import (
    Declaration,
    Group,
    GroupRoll,
    SegmentInitiative,
    item_label,
    signed_parts,
)
from rules.systems.elethril.timeline import (
    Action,
    Event,
    Timeline,
    build_timeline,
    landing,
    tick_of,
)

DAMAGE_TYPES = ("hp",)
#: Sheet traits read by name (their ranges are data: ``[traits.ranges]``).
WEAPON_PLUS = "Weapon Plus"
WEAPON_QUALITY = "Weapon Quality"
ATTACKS = "Attacks"
DEFAULT_TRAIT_RANGE = (0, 20)
SIZES = ("S", "M", "L")
WEAPON_KINDS = ("melee", "missile")
ARMOR_COLUMNS = ("armor_class",)

__all__ = [
    "ElethrilAttack", "ElethrilSystem", "Harm", "HitPoints", "NotationRoll", "Plan", "RoundStart", "Spell",
    "Weapon", "Wielded",
]


# ================================================================================ dice
@dataclass(frozen=True)
class NotationRoll:
    """Dice notation rolled: ``parts`` are ``(text, faces, value)`` in typed order, e.g.
    ``(("1d20", (17,), 17), ("", (), 2))``; a trait or modifier part has its label as text."""

    parts: tuple[tuple[str, tuple[int, ...], int], ...]

    @property
    def total(self) -> int:
        return sum(value for _, _, value in self.parts)

    def describe(self, with_total: bool = True) -> Line:
        """``"1d20 (17) + 2 = 19"``, ``"2d6 (3, 5) = 8"``, ``"1d20 (4) + 2 (Reaction) = 6"``
        as a line: each part after the first signed onto the ones before
        (``elethril.line.notation_*``), the total after them."""
        chain: Line | int | None = None
        for text, faces, value in self.parts:
            if faces:
                piece: Line | int = Line("elethril.line.notation_dice",
                                         {"dice": text, "faces": ", ".join(str(f) for f in faces)})
            else:
                piece = Line("elethril.line.notation_part", {"value": abs(value), "label": text}) if text else abs(value)
            negative = not faces and value < 0
            if chain is None:
                chain = Line("elethril.line.notation_negative", {"part": piece}) if negative else piece
            else:
                chain = Line("elethril.line.notation_minus" if negative else "elethril.line.notation_plus",
                             {"parts": chain, "part": piece})
        if with_total:
            return Line("elethril.line.notation_total", {"roll": chain, "total": self.total})
        return Line("elethril.line.notation", {"roll": chain})

    def to_record(self) -> dict[str, Any]:
        return {"parts": [[text, list(faces), value] for text, faces, value in self.parts],
                "total": self.total}


def roll_notation(terms: Sequence[Term], roller: Roller, actor: Combatant | None = None) -> NotationRoll:
    """Roll parsed dice notation (``parse_pool`` terms): dice, numbers, and traits of ``actor``."""
    parts = []
    for term in terms:
        if term.kind == "dice":
            faces = roll_dice(term.number, term.sides, roller)
            parts.append((f"{term.number}d{term.sides}", faces, sum(faces)))
        elif term.kind == "trait":
            parts.append((term.trait, (), actor.trait(term.trait) if actor else 0))
        else:
            parts.append(("", (), term.sign * term.number))
    return NotationRoll(tuple(parts))


def dice_notation(text: str, where: str) -> tuple[Term, ...]:
    """The terms of a data file's damage dice (``"1d6+1"``). Raises RulesDataError."""
    try:
        terms = parse_pool(text).terms
    except DiceSyntaxError as err:
        raise RulesDataError(f"{where}: {err}") from err
    if not any(term.kind == "dice" for term in terms):
        raise RulesDataError(f"{where}: give dice, e.g. '1d6+1', not {text!r}.")
    return terms


# ============================================================================= weapons
@dataclass(frozen=True)
class Weapon:
    """A row of the weapon table: ``speed`` in segments, damage notation against small or
    medium (``damage_sm``) and large (``damage_l``) targets, missiles' rate of fire per round
    (``"2"``, ``"1/2"``; "" for melee)."""

    key: str
    name: str
    kind: str
    speed: int
    damage_sm: str
    damage_l: str
    rate: str = ""

    @property
    def shots(self) -> int:
        """Attacks one action may hold: the whole rate of fire, at least 1 (1 for melee)."""
        return max(1, int(Fraction(self.rate))) if self.rate else 1

    @property
    def reload_rounds(self) -> int:
        """Rounds skipped after firing (seed 4d): denominator − 1 for a rate below one."""
        rate = Fraction(self.rate) if self.rate else Fraction(1)
        return rate.denominator - 1 if rate < 1 else 0


@dataclass(frozen=True)
class Wielded:
    """A weapon in hand with its plusses. Only ``magic`` plusses lower the speed factor, never
    below 0 (seed 2a, 2b); ``quality`` (weapon quality, metal purity) plusses never do."""

    weapon: Weapon
    magic: int = 0
    quality: int = 0

    @property
    def speed(self) -> int:
        """The speed factor in segments: a +1 short sword is 3 − 1 = 2."""
        return max(0, self.weapon.speed - self.magic)

    @property
    def key(self) -> str:
        """What ``wielded()`` reads back: ``"short-sword+1 q2"``."""
        return (self.weapon.key + (f"+{self.magic}" if self.magic else "")
                + (f" q{self.quality}" if self.quality else ""))

    @property
    def line(self) -> Line:
        """The weapon's name with its plusses as a line (``elethril.value.weapon*``):
        ``"short sword +1"``, ``"long sword +1, quality +2"``."""
        values = {"name": self.weapon.name, "magic": self.magic, "quality": self.quality}
        if self.quality:
            return Line("elethril.value.weapon_magic_quality" if self.magic else "elethril.value.weapon_quality", values)
        return Line("elethril.value.weapon_magic" if self.magic else "elethril.value.weapon", values)

    @property
    def label(self) -> str:
        """:attr:`line` in the game's words (``rules.lines.text_of``), as the fight's records
        keep it (an event's label, an initiative part's): ``"long sword +1, quality +2"`` (no
        brackets: it is shown inside brackets, ``+ 4 (long sword +1, quality +2)``)."""
        return text_of(self.line, "elethril")

    @property
    def kind(self) -> str:
        return self.weapon.kind

    #: The ST's ``+combat/mod`` may move this attack (the game layer's maneuver protocol).
    adjustable = True


_WIELDED = re.compile(r"(?P<name>[a-z][a-z' -]*?)\s*(?:\+\s*(?P<magic>\d{1,2}))?"
                      r"(?:\s*q(?:uality)?\s*\+?\s*(?P<quality>\d{1,2}))?")


@dataclass(frozen=True)
class Spell:
    """A row of the spell table: ``casting_time`` in segments; ``instant`` for Power Words and
    cantrips (effect in their own segment, seed 3c). When it takes effect, ``damage`` dice come
    off the target's hit points, or ``heal`` dice go back on (dice notation, "" for none);
    a spell with neither is narrated by the Storyteller."""

    key: str
    name: str
    level: int
    casting_time: int
    instant: bool = False
    damage: str = ""
    heal: str = ""


def _some(names: Sequence[str], most: int = 8) -> Line | str:
    """``names`` (data keys) joined, at most ``most`` of them (then "... and N more", a
    line), to keep an error line short."""
    shown = ", ".join(names[:most])
    return Line("elethril.value.some_more", {"names": shown, "more": len(names) - most}) if len(names) > most else shown


@dataclass(frozen=True)
class RoundStart:
    """A round begun: the group dice, everyone's initiative, the new actions and the round's
    timeline (new and carried-over actions)."""

    round: int
    groups: tuple[GroupRoll, ...]
    initiative: tuple[SegmentInitiative, ...]
    actions: tuple[Action, ...]
    timeline: Timeline

    def describe(self) -> tuple[Line, ...]:
        return tuple(g.describe() for g in self.groups) + tuple(i.describe() for i in self.initiative)


@dataclass(frozen=True)
class Plan:
    """A checked declaration (``ElethrilSystem.plan``): ``kind`` melee/missile/spell/item;
    ``attacks`` as (weapon, hand) in acting order; ``spell`` the spell cast or the one the
    ``item`` discharges; ``parts`` the actor's own initiative modifiers (the forfeit penalty
    is added when rolling)."""

    declaration: Declaration
    kind: str
    attacks: tuple[tuple[Wielded, str], ...] = ()
    spell: Spell | None = None
    item: tuple[str, str, int] | None = None  # key, name, modifier
    parts: tuple[tuple[str, int], ...] = ()   # own modifiers (no forfeit)

    @property
    def name(self) -> str:
        return self.declaration.actor.name

    @property
    def label(self) -> str:
        """The spell, or the item with its spell: ``"Fireball"``, ``"wand of Fireball"``."""
        if self.spell is None:
            return ""
        return item_label(self.item[1], self.spell) if self.item else self.spell.name

    @property
    def dice(self) -> int:
        return max(1, len(self.attacks))


# ======================================================================== health, attack
@dataclass(frozen=True)
class HitPoints(PointsHealth):
    """Hit points: ``maximum`` from the sheet, ``damage`` taken. Down at ``down_at`` or less
    (incapacitated), dead at ``dead_at`` or less (docs/rules/elethril.md). No wound penalty."""

    maximum: int
    damage: int = 0
    down_at: int = 0
    dead_at: int = -10

    @property
    def current(self) -> int:
        return self.maximum - self.damage

    def line(self) -> Line:
        """``"12/20 hp"``, ``"Down -3/20 hp"``, ``"Dead -10/20 hp"``."""
        values = {"current": self.current, "maximum": self.maximum}
        return Line("elethril.value.hit_points_dead" if self.dead else "elethril.value.hit_points_down"
                    if self.incapacitated else "elethril.value.hit_points", values)

    def with_damage(self, amount: int, damage_type: str = "") -> HitPoints:
        return replace(self, damage=self.damage + max(0, amount))

    def healed(self, amount: int | None, damage_type: str | None = None) -> HitPoints:
        """After healing ``amount`` hit points (None: all), never above the maximum (hit points
        have no damage types)."""
        return replace(self, damage=0 if amount is None else max(0, self.damage - max(0, amount)))

    def to_record(self) -> dict[str, Any]:
        return {"damage": self.damage, "maximum": self.maximum}


@dataclass(frozen=True)
class ElethrilAttack:
    """A rolled attack: d20 + ``bonus`` against THAC0 − Armor Class + ``modifier``. ``hit`` was
    decided when rolled (natural 20/1 options included). ``size``: the target's S/M/L."""

    attacker: str
    target: str
    weapon: Wielded
    hand: str
    bonus: Pool
    die: int
    thac0: int
    armor_class: int
    modifier: int
    size: str
    hit: bool

    needs_defense = False
    successes = 0        # nothing for a defender to beat: Armor Class is the only defense
    damage_type = "hp"

    @property
    def needed(self) -> int:
        return self.thac0 - self.armor_class + self.modifier

    @property
    def total(self) -> int:
        return self.die + self.bonus.size

    @property
    def label(self) -> Line:
        """The weapon, and the hand when it is the off hand: ``"dagger (off-hand)"``."""
        if self.hand == "off":
            return Line("elethril.line.attack_off_hand", {"label": self.weapon.line})
        return self.weapon.line

    def describe(self) -> Line:
        """The roll as a line: ``"short sword +1: d20 14 + 1 (magic) = 15 vs 15 (THAC0 20 - AC
        5): hit"``; ``(natural 20)`` when the natural die decided it."""
        if self.bonus.parts:
            roll = Line("elethril.line.die_plus", {"die": self.die, "parts": signed_parts(self.bonus.parts),
                                                    "total": self.total})
        else:
            roll = Line("elethril.line.die", {"die": self.die})
        need = {"thac0": self.thac0, "armor_class": self.armor_class, "modifier": abs(self.modifier)}
        need = Line(("elethril.line.to_hit_minus" if self.modifier < 0 else "elethril.line.to_hit_plus")
                    if self.modifier else "elethril.line.to_hit", need)
        values = {"label": self.label, "roll": roll, "needed": self.needed, "need": need, "die": self.die}
        if self.hit != (self.total >= self.needed):
            return Line("elethril.line.natural_hit" if self.hit else "elethril.line.natural_miss", values)
        return Line("elethril.line.hit" if self.hit else "elethril.line.miss", values)

    def to_record(self) -> dict[str, Any]:
        return {"attacker": self.attacker, "target": self.target, "weapon": self.weapon.key,
                "hand": self.hand, "parts": self.bonus.to_record(),
                "die": self.die, "thac0": self.thac0, "armor_class": self.armor_class,
                "modifier": self.modifier, "size": self.size, "hit": self.hit}


@dataclass(frozen=True)
class Harm:
    """Damage dealt to one combatant: the dice for its size, the added parts, the total."""

    name: str
    roll: NotationRoll
    parts: tuple[tuple[str, int], ...]
    amount: int
    health_before: HitPoints
    health_after: HitPoints


# ============================================================================== system
class ElethrilSystem(RuleSystem):
    """``elethril`` — see the module docstring. Raises RulesDataError on a bad data file."""

    key = "elethril"
    title = "Elethril (d20 vs THAC0, d10 segments, lowest first)"
    defense_names: tuple[str, ...] = ()
    defense_uses_action = False
    declared_rounds = True
    armor_columns = ARMOR_COLUMNS
    magic = None
    #: A fighter's elethril conditions: its standard initiative modifiers, the round it
    #: forfeited a carried action in, the off-hand weapon granted, the sheet item in use.
    condition_keys = frozenset({"initiative_modifiers", "forfeited_in", "off_hand", "item_in_use"})
    #: The fight's declared round (``rules.systems.elethril.actions``): the next segment to
    #: play, the declarations, the actions on the timeline, the initiative rolled, the parties.
    fight_fields = {"segment": int, "declarations": dict, "segment_actions": list, "segment_initiative": dict,
                    "parties": dict}
    gear = ("magic_items",)

    def __init__(self, data: Mapping[str, Any] | None = None) -> None:
        data = data if data is not None else load_system_data(self.key)
        to_hit = require(data, "to_hit", dict, "elethril")
        self.to_hit_die = require(to_hit, "die", int, "to_hit")
        self.natural_20_hits = require(to_hit, "natural_20_hits", bool, "to_hit")
        self.natural_1_misses = require(to_hit, "natural_1_misses", bool, "to_hit")
        self.default_thac0 = require(to_hit, "default_thac0", int, "to_hit")
        self.default_armor_class = require(to_hit, "default_armor_class", int, "to_hit")
        self.quality_plusses = require(to_hit, "quality_plusses", bool, "to_hit")
        self.minimum_damage = require(to_hit, "minimum_damage", int, "to_hit")
        if self.to_hit_die < 2:
            raise RulesDataError("to_hit.die: at least 2 sides.")
        two = require(data, "two_weapons", dict, "elethril")
        self.two_weapon_penalty = {"primary": require(two, "primary", int, "two_weapons"),
                                   "off": require(two, "off_hand", int, "two_weapons")}
        hp = require(data, "hit_points", dict, "elethril")
        self.default_hit_points = require(hp, "default_maximum", int, "hit_points")
        self.down_at = require(hp, "down_at", int, "hit_points")
        self.dead_at = require(hp, "dead_at", int, "hit_points")
        if self.default_hit_points < 1 or self.dead_at > self.down_at:
            raise RulesDataError("hit_points: need default_maximum >= 1 and dead_at <= down_at.")
        init = require(data, "initiative", dict, "elethril")
        self.initiative_die = require(init, "die", int, "initiative")
        self.minimum_initiative = require(init, "minimum", int, "initiative")
        self.forfeit_penalty = require(init, "forfeit_penalty", int, "initiative")
        self.reaction_trait = require(init, "reaction_trait", str, "initiative")
        self.max_attacks = require(init, "max_attacks", int, "initiative")
        surprise = require(data, "surprise", dict, "elethril")
        #: seed 1a (choose): a side ``surprise_margin`` or more behind the winning side's die
        #: in round 1 is surprised (0: nobody), its base pushed back ``surprise_segments`` more.
        self.surprise_margin = require(surprise, "margin", int, "surprise")
        self.surprise_segments = require(surprise, "segments", int, "surprise")
        if self.surprise_margin < 0 or self.surprise_segments < 0:
            raise RulesDataError("surprise: margin and segments are 0 or more.")
        if self.initiative_die < 2 or self.minimum_initiative < 1 or self.max_attacks < 1:
            raise RulesDataError("initiative: need die >= 2, minimum >= 1 and max_attacks >= 1.")
        self.modifiers = self._named_values(data, "modifiers")
        self.items = self._named_values(data, "items")
        self.item_charges = {}
        for key, table in require(data, "items", dict, "elethril").items():
            most = require(table, "max_charges", int, f"items.{key}")
            if most < 1:
                raise RulesDataError(f"items.{key}.max_charges: at least 1.")
            self.item_charges[key] = most
        self.kinds = {}
        for name, table in require(data, "kinds", dict, "elethril").items():
            size = require(table, "size", str, f"kinds.{name}")
            self.kinds[name] = {"size": require_choice(size, SIZES, f"kinds.{name}.size")}
        self.default_kind = require(data, "default_kind", str, "elethril")
        if self.default_kind not in self.kinds:
            raise RulesDataError(f"elethril.default_kind: {self.default_kind!r} is not among the kinds.")
        self.weapons = {key: self._weapon(key, table)
                        for key, table in require(data, "weapons", dict, "elethril").items()}
        self.weapon_names = {key: weapon.name for key, weapon in self.weapons.items()}
        if "fist" not in self.weapons:
            raise RulesDataError("elethril.weapons: the unarmed attack 'fist' is needed.")
        self.spells = {key: self._spell(key, table)
                       for key, table in require(data, "spells", dict, "elethril").items()}
        self.armor_table = load_armor_table(data, ARMOR_COLUMNS)
        traits = require(data, "traits", dict, "elethril")
        self.trait_names = tuple(require(traits, "names", list, "traits"))
        self.trait_ranges: dict[str, tuple[int, int]] = {}
        for name, bounds in require(traits, "ranges", dict, "traits").items():
            if name not in self.trait_names:
                raise RulesDataError(f"traits.ranges.{name}: not one of traits.names.")
            if (not isinstance(bounds, list) or len(bounds) != 2
                    or not all(isinstance(b, int) and not isinstance(b, bool) for b in bounds)
                    or bounds[0] > bounds[1]):
                raise RulesDataError(f"traits.ranges.{name}: give [low, high], whole numbers, low <= high.")
            self.trait_ranges[name] = (bounds[0], bounds[1])
        for trait in (WEAPON_PLUS, WEAPON_QUALITY, ATTACKS):
            if trait not in self.trait_ranges:
                raise RulesDataError(f"traits.ranges: give the range of {trait}.")
        if not 1 <= self.trait_ranges[ATTACKS][0] <= self.trait_ranges[ATTACKS][1] <= self.max_attacks:
            raise RulesDataError(f"traits.ranges.{ATTACKS}: within 1 and initiative.max_attacks "
                                 f"({self.max_attacks}).")
        casting = require(data, "casting", dict, "elethril")
        self.caster_level_trait = require(casting, "caster_level_trait", str, "casting")
        table = require(casting, "highest_spell_level", list, "casting")
        if (not table or table[0] != 0
                or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in table)
                or any(b < a for a, b in zip(table, table[1:]))):
            raise RulesDataError("casting.highest_spell_level: whole numbers from 0 (caster level 0) "
                                 "upwards, never decreasing.")
        self.highest_spell_levels = tuple(table)
        if self.caster_level_trait not in self.trait_names:
            raise RulesDataError(f"casting.caster_level_trait: {self.caster_level_trait!r} is not a trait.")

    @staticmethod
    def _named_values(data: Mapping[str, Any], section: str) -> dict[str, tuple[str, int]]:
        return {key: (require(table, "name", str, f"{section}.{key}"),
                      require(table, "value", int, f"{section}.{key}"))
                for key, table in require(data, section, dict, "elethril").items()}

    @staticmethod
    def _weapon(key: str, table: Mapping[str, Any]) -> Weapon:
        where = f"weapons.{key}"
        kind = require_choice(require(table, "kind", str, where), WEAPON_KINDS, f"{where}.kind")
        speed = require(table, "speed", int, where)
        if speed < 0:
            raise RulesDataError(f"{where}.speed: a speed factor is 0 or more.")
        damage = {column: require(table, column, str, where) for column in ("damage_sm", "damage_l")}
        for column, text in damage.items():
            dice_notation(text, f"{where}.{column}")
        rate = ""
        if kind == "missile":
            rate = require(table, "rate", str, where)
            try:
                value = Fraction(rate)
            except (ValueError, ZeroDivisionError) as err:
                raise RulesDataError(f"{where}.rate: a rate of fire such as '2' or '1/2', not {rate!r}.") from err
            if value <= 0 or (value.denominator != 1 and value.numerator != 1):
                raise RulesDataError(f"{where}.rate: a whole number or 1/N, not {rate!r}.")
        return Weapon(key, require(table, "name", str, where), kind, speed,
                      damage["damage_sm"], damage["damage_l"], rate)

    @staticmethod
    def _spell(key: str, table: Mapping[str, Any]) -> Spell:
        where = f"spells.{key}"
        casting_time = require(table, "casting_time", int, where)
        if casting_time < 1:
            raise RulesDataError(f"{where}.casting_time: at least 1 segment.")
        effects = {}
        for column in ("damage", "heal"):
            text = table.get(column, "")
            if not isinstance(text, str):
                raise RulesDataError(f"{where}.{column}: dice as text, e.g. '1d4+1'.")
            if text:
                dice_notation(text, f"{where}.{column}")
            effects[column] = text
        if effects["damage"] and effects["heal"]:
            raise RulesDataError(f"{where}: a spell does damage or heals, not both.")
        return Spell(key, require(table, "name", str, where), require(table, "level", int, where),
                     casting_time, bool(table.get("instant", False)), **effects)

    # ------------------------------------------------------------------------- lookups
    @staticmethod
    def _find(text: str, table: Mapping[str, Any], what: Line) -> str:
        wanted = "-".join(text.casefold().replace("'", "").replace(",", " ").split())
        if wanted in table:
            return wanted
        found = [key for key in table if wanted and key.startswith(wanted)]
        if len(found) == 1:
            return found[0]
        if found:
            raise CombatError(Line("refusal.could", {"name": text.strip()[:30], "shown": _some(found)}))
        close = get_close_matches(wanted, list(table), n=3, cutoff=0.6)
        values = {"what": what, "text": text.strip()[:30], "table": _some(list(table))}
        if close:
            raise CombatError(Line("elethril.refusal.no_close_choose_from", {**values, "close": ", ".join(close)}))
        raise CombatError(Line("elethril.refusal.no_choose_from", values))

    def wielded(self, text: str) -> Wielded:
        """The weapon named by ``text`` (unique key prefix, spaces as hyphens) with its
        plusses: ``"short sword +1"``, ``"long sword +1 q2"`` (magical +1, quality +2).
        Raises CombatError."""
        match = _WIELDED.fullmatch(text.strip().casefold())
        if not match:
            raise CombatError(Line("elethril.refusal.cannot_read_weapon_e", {"text": text.strip()[:30]}))
        weapon = self.weapons[self._find(match["name"], self.weapons, Line("elethril.value.thing_weapon"))]
        return Wielded(weapon, int(match["magic"] or 0), int(match["quality"] or 0))

    def in_hand(self, actor: Combatant, text: str = "") -> Wielded:
        """``text``'s weapon as written (an event's stored weapon key, the ST's choice), else
        the weapon in ``actor``'s hand with the sheet's ``Weapon Plus`` and ``Weapon Quality``
        (plusses written with the weapon win), else a fist (no plusses)."""
        if text:
            return self.wielded(text)
        held = self.wielded(actor.weapon or "fist")
        if held.weapon.key == "fist":
            return held
        return replace(held, magic=held.magic or max(0, actor.trait(WEAPON_PLUS)),
                       quality=held.quality or max(0, actor.trait(WEAPON_QUALITY)))

    def trait_range(self, name: str) -> tuple[int, int]:
        """The (low, high) a sheet trait may hold (``+stat``): Armor Class -10 to 10, THAC0 1 to
        25 … (``[traits.ranges]``); any other trait 0 to 20."""
        return self.trait_ranges.get(name, DEFAULT_TRAIT_RANGE)

    def _bounded_plusses(self, weapon: Wielded) -> Wielded:
        """The Storyteller's typed plusses, within the range of the sheet traits they stand for.
        Raises CombatError."""
        for trait, value in ((WEAPON_PLUS, weapon.magic), (WEAPON_QUALITY, weapon.quality)):
            low, high = self.trait_range(trait)
            if not low <= value <= high:
                what = "magical" if trait == WEAPON_PLUS else "quality"
                raise CombatError(Line("elethril.refusal.weapon_plus_not", {"what": what, "low": low, "high": high, "value": value}))
        return weapon

    def _weapon_for(self, actor: Combatant, text: str, storyteller: bool) -> Wielded:
        """The primary weapon of a declaration: as typed by the ST (for an NPC), else the weapon
        in hand with the sheet's plusses, or a fist. Raises CombatError."""
        if not text.strip():
            return self.in_hand(actor)
        named = self.wielded(text)
        if storyteller:
            if not (named.magic or named.quality) and named.weapon.key == self._held_key(actor):
                return self.in_hand(actor)
            return self._bounded_plusses(named)
        self._no_typed_plusses(named)
        if named.weapon.key == "fist":
            return named
        held = self.in_hand(actor)     # refuses a weapon in hand that elethril does not know
        if named.weapon.key == held.weapon.key:
            return held
        values = {"actor": actor.name, "held_weapon": held.weapon.name, "named_weapon": named.weapon.name}
        raise CombatError(Line("elethril.refusal.not_attack_with_weapon" if held.weapon.key != "fist"
                               else "elethril.refusal.not_attack_with_no_weapon", values))

    def _held_key(self, actor: Combatant) -> str:
        """The key of the weapon in ``actor``'s hand ("fist" for none; "" when elethril does
        not know it, e.g. another system's weapon)."""
        try:
            return self.wielded(actor.weapon or "fist").weapon.key
        except CombatError:
            return ""

    @staticmethod
    def _no_typed_plusses(named: Wielded) -> None:
        if named.magic or named.quality:
            raise CombatError(Line("elethril.refusal.plusses_come_from_sheet", {"named_weapon": named.weapon.name}))

    def _off_hand_for(self, actor: Combatant, text: str, storyteller: bool) -> Wielded:
        """The off-hand weapon of a declaration: the ST's choice for an NPC, else the one the
        ST granted for this fight (``conditions["off_hand"]``). Raises CombatError."""
        named = self.wielded(text)
        if storyteller:
            return self._bounded_plusses(named)
        self._no_typed_plusses(named)
        granted = str(actor.conditions.get("off_hand") or "")
        if not granted:
            raise CombatError(Line("elethril.refusal.has_no_off_hand", {"actor": actor.name}))
        allowed = self.wielded(granted)
        if allowed.weapon.key != named.weapon.key:
            raise CombatError(Line("elethril.refusal.off_hand_weapon_not", {"actor": actor.name, "allowed_weapon": allowed.weapon.name, "named_weapon": named.weapon.name}))
        return allowed

    def off_hand_grant(self, text: str) -> Wielded:
        """A weapon the Storyteller grants as someone's off-hand weapon (``+combat/offhand``):
        a melee weapon of the table, plusses within range. Raises CombatError."""
        weapon = self._bounded_plusses(self.wielded(text))
        if weapon.kind != "melee" or weapon.weapon.key == "fist":
            raise CombatError(Line("elethril.refusal.off_hand_weapon_melee", {"weapon_weapon": weapon.weapon.name}))
        return weapon

    def attacks_of(self, actor: Combatant) -> int:
        """Melee attacks per round from the sheet's ``Attacks`` (unset or below 1: 1)."""
        return max(1, actor.trait(ATTACKS))

    def highest_spell_level(self, actor: Combatant) -> int:
        """The highest spell level ``actor``'s ``Caster Level`` reaches (2e wizard table);
        -1 for one who is no caster (Caster Level 0 or unset)."""
        level = actor.trait(self.caster_level_trait)
        if level < 1:
            return -1
        return self.highest_spell_levels[min(level, len(self.highest_spell_levels) - 1)]

    def require_caster(self, actor: Combatant, spell: Spell) -> None:
        """Raises CombatError unless ``actor``'s Caster Level reaches ``spell``'s level."""
        highest = self.highest_spell_level(actor)
        trait = self.caster_level_trait
        if highest < 0:
            raise CombatError(Line("elethril.refusal.no_caster_set_by", {"actor": actor.name, "trait": trait}))
        if spell.level > highest:
            raise CombatError(Line("elethril.refusal.level_spell_casts_up", {"spell": spell.name, "spell_level": spell.level, "actor": actor.name, "trait": trait, "value": actor.trait(trait), "highest": highest}))

    def maneuver(self, option: str, attacker: Combatant) -> Wielded:
        """The game layer's pre-roll check of ``attack <target>/<option>``. Raises CombatError."""
        return self.in_hand(attacker, option)

    def spell(self, text: str) -> Spell:
        """The spell named by ``text`` (``cast <spell>``). Raises CombatError for an unknown one."""
        return self.spells[self._find(text, self.spells, Line("elethril.value.thing_spell"))]

    def item_type(self, text: str) -> str:
        """The key of the magical item type named by ``text`` (``"wand"``, a unique prefix will
        do). Raises CombatError."""
        return self._find(text, self.items, Line("elethril.value.thing_item"))

    def initiative_modifier(self, text: str) -> str:
        """The key of the standard initiative modifier named by ``text`` (``"hasted"``,
        ``"higher ground"``; a unique prefix will do). Raises CombatError."""
        return self._find(text, self.modifiers, Line("elethril.value.thing_modifier"))

    def _value(self, actor: Combatant, trait: str, default: int) -> int:
        return int(actor.traits[trait]) if trait in actor.traits else default

    def thac0(self, actor: Combatant) -> int:
        return self._value(actor, "THAC0", self.default_thac0)

    def armor_class(self, actor: Combatant) -> int:
        """The sheet's Armor Class, else the worn armor's, else the data's default (10)."""
        worn = actor.armor.get("armor_class")
        return self._value(actor, "Armor Class", self.default_armor_class if worn is None else int(worn))

    def size(self, actor: Combatant) -> str:
        return self.kinds.get(actor.kind, self.kinds[self.default_kind])["size"]

    # ---------------------------------------------------------------------------- odds
    def odds(self, expression: PoolExpression, actor: Combatant, *, modifier: int = 0,
             willpower: bool = False) -> Odds:
        """``+roll/odds [<bonus>][ vs <Armor Class>]``: the chance that ``actor``'s attack with
        the weapon in hand hits that Armor Class (or each of 10, 8 ... -10), by replaying
        ``attack`` on every face of the d20 (docs/rules/elethril.md "To hit"). The typed numbers
        and traits add to the roll. Raises DiceSyntaxError for dice, CombatError as ``attack``."""
        if willpower:
            raise CombatError(Line("elethril.refusal.elethril_has_no_willpower"))
        bonus = modifier
        for term in expression.terms:
            if term.kind == "dice":
                raise DiceSyntaxError(Line("elethril.refusal.odds_no_dice"))
            bonus += term.sign * (actor.trait(term.trait) if term.kind == "trait" else term.number)
        low, high = self.trait_range("Armor Class")
        classes = [expression.difficulty] if expression.difficulty is not None else list(range(high, low - 1, -2))
        if any(not low <= armor_class <= high for armor_class in classes):
            raise DiceSyntaxError(Line("elethril.refusal.odds_armor_class", {"high": high, "low": low}))
        weapon = self.in_hand(actor)
        rows = []
        for armor_class in classes:
            target = Combatant("target", traits={"Armor Class": armor_class})
            hits, _ = enumerate_outcomes(lambda roller, target=target: self.attack(
                actor, target, "", roller, dice_modifier=bonus).hit)
            rows.append((Line("elethril.line.odds_hit", {"armor_class": armor_class}), hits.get(True, Fraction(0))))
        need = {"weapon": weapon.label, "thac0": self.thac0(actor)}
        title = Line("elethril.title.odds_bonus", {**need, "bonus": f"{bonus:+d}"}) if bonus \
            else Line("elethril.title.odds", need)
        return Odds(title, tuple(rows))

    # ---------------------------------------------------------------------------- dice
    def roll_check(self, expression: PoolExpression, actor: Combatant, roller: Roller,
                   *, modifier: int = 0, willpower: bool = False) -> RollResult:
        """``+roll 1d20+2``, ``+roll 2d6``: dice notation (numbers and sheet traits may be
        added), ``vs N`` = the total to reach (a whole number within the dice limits);
        ``modifier`` is added. ``parse_pool`` already
        refuses ``1d0``, ``0d6``, ``-3d10`` and ``1d20+``. Raises DiceSyntaxError (no dice),
        CombatError (Willpower: there is none)."""
        if willpower:
            raise CombatError(Line("elethril.refusal.elethril_has_no_willpower"))
        if not any(term.kind == "dice" for term in expression.terms):
            raise DiceSyntaxError(Line("elethril.refusal.roll_no_dice"))
        if expression.difficulty is not None and abs(expression.difficulty) > DEFAULT_LIMITS.max_number:
            raise DiceSyntaxError(Line("dice.refusal.number_too_large", {"most": DEFAULT_LIMITS.max_number}))
        roll = roll_notation(expression.terms, roller, actor)
        if modifier:
            roll = NotationRoll(roll.parts + (("modifier", (), modifier),))
        line = Line("elethril.line.rolled", {"roll": roll.describe()})
        summary = Verdict("", total=roll.total)
        if expression.difficulty is not None:
            made = roll.total >= expression.difficulty
            summary = Verdict("success" if made else "failure", total=roll.total, difficulty=expression.difficulty)
            line = Line("elethril.line.rolled_success" if made else "elethril.line.rolled_failure",
                        {"roll": roll.describe(), "difficulty": expression.difficulty})
        return RollResult(lines=(line,), summary=summary,
                          record={**roll.to_record(), "difficulty": expression.difficulty,
                                  "result": summary.to_record()})

    # ---------------------------------------------------------------------- initiative
    @property
    def actions(self) -> Mapping[str, Any]:
        """The fight's actions (``rules.systems.elethril.actions``, which builds on this module)."""
        from rules.systems.elethril.actions import ACTIONS

        return ACTIONS

    def to_declare(self, draft: Any) -> list[int]:
        """Whom the round waits on to declare, by id (``rules.systems.elethril.actions``)."""
        from rules.systems.elethril.actions import to_declare

        return to_declare(draft)

    def require_able(self, actor: Combatant) -> None:
        health = self.health(actor.health, actor)
        if health.incapacitated:
            state = "dead" if health.dead else "down"
            raise CombatError(Line("elethril.refusal.cannot_act", {"actor": actor.name, "state": state}))

    def _reaction(self, actor: Combatant) -> tuple[tuple[str, int], ...]:
        reaction = actor.trait(self.reaction_trait)
        return ((self.reaction_trait, -reaction),) if reaction else ()

    def roll_initiative(self, actor: Combatant, roller: Roller) -> InitiativeRoll:
        """The base interface: one d10 + reaction + the speed factor of the weapon in hand
        (no sides, no declaration). ``total`` = the final initiative (at least 1), lowest
        first. Use ``start_round`` for the full rules. Raises CombatError."""
        self.require_able(actor)
        weapon = self.in_hand(actor)
        parts = self._reaction(actor) + ((weapon.label, weapon.speed),)
        die = roller.roll(self.initiative_die)
        return SegmentInitiative(actor.name, 1, die, parts, (die,),
                                 minimum=self.minimum_initiative).as_initiative_roll()

    def schedule(self, rolls: Sequence[InitiativeRoll]) -> ActionSchedule:
        """Lowest initiative first; equal totals share a slot (simultaneous), names sorted
        case-insensitively. ``at`` is the initiative (11+ = a later round, seed 3a). For the
        real segment order use ``start_round(...).timeline.schedule()``."""
        ordered = sorted(rolls, key=lambda r: (r.total, r.name.casefold(), r.name))
        return ActionSchedule(tuple(Slot(total, tuple(r.name for r in group))
                                    for total, group in groupby(ordered, key=lambda r: r.total)))

    def plan(self, declaration: Declaration) -> Plan:
        """Check a declaration before any die is rolled. Raises CombatError."""
        actor = declaration.actor
        magic = declaration.spell or declaration.item
        if magic and (declaration.weapon or declaration.off_hand or declaration.attacks):
            raise CombatError(Line("elethril.refusal.spell_item_whole_action"))
        if declaration.item and not declaration.spell:
            raise CombatError(Line("elethril.refusal.magical_item_discharges_spell"))
        parts = list(self._reaction(actor))
        spell = self.spell(declaration.spell) if declaration.spell else None
        item = None
        attacks: tuple[tuple[Wielded, str], ...] = ()
        if declaration.item:       # the item holds the spell: no Caster Level needed
            key = self.item_type(declaration.item)
            item = (key, *self.items[key])
            parts.append(self.items[key])
            kind = "item"
        elif spell:
            if not declaration.storyteller:
                self.require_caster(actor, spell)
            kind = "spell"
        else:
            storyteller = declaration.storyteller
            primary = self._weapon_for(actor, declaration.weapon, storyteller)
            own = primary.weapon.shots if primary.kind == "missile" else self.attacks_of(actor)
            count = declaration.attacks or own
            if not 1 <= count <= self.max_attacks:
                raise CombatError(Line("elethril.refusal.attacks_per_action_not", {"max_attacks": self.max_attacks, "declaration_attacks": declaration.attacks}))
            if primary.kind == "missile" and count > primary.weapon.shots:
                raise CombatError(Line("elethril.refusal.fires_at_most_per", {"primary_weapon": primary.weapon.name, "primary_weapon_shots": primary.weapon.shots, "primary_weapon_rate": primary.weapon.rate}))
            if primary.kind == "melee" and count > own and not storyteller:
                raise CombatError(Line("elethril.refusal.makes_attack" if own == 1 else "elethril.refusal.makes_attacks",
                                       {"actor": actor.name, "own": own, "count": count}))
            off = self._off_hand_for(actor, declaration.off_hand, storyteller) if declaration.off_hand else None
            hand = "primary" if off else ""
            order = [(primary, hand)] + ([(off, "off")] if off else []) + [(primary, hand)] * (count - 1)
            attacks = tuple(order)
            parts.append((primary.label, primary.speed))
            kind = primary.kind
        for key in declaration.modifiers:
            parts.append(self.modifiers[self._find(key, self.modifiers, Line("elethril.value.thing_modifier"))])
        if declaration.modifier:
            parts.append((Line("elethril.value.noted_modifier"), declaration.modifier))
        return Plan(declaration, kind, attacks, spell, item, tuple(parts))

    def start_round(self, round_number: int, declarations: Sequence[Declaration], roller: Roller,
                    *, groups: Sequence[Group] = (), carried: Sequence[Action] = ()) -> RoundStart:
        """Roll initiative for ``round_number`` and schedule everyone's action (seed 1a–4d).

        ``declarations``: one per actor rolling this round (actors busy with a ``carried``
        action may not declare: ``forfeit`` first). ``groups``: in round 1 the sides (anyone
        on none is a side of their own), normalised lowest = 1; later, coordinating parties
        (not normalised). Dice, in order: one d10 per group (as given, then round-1 sides of
        one in declaration order), then each individual's d10s (one per attack, keep the
        lowest) in declaration order. Everything is checked before the first die.

        Raises:
            CombatError: a busy, down or duplicate actor; an unknown weapon, spell, item or
            modifier; a group member not declaring; a member in two groups.
        """
        if round_number < 1:
            raise CombatError(Line("elethril.refusal.rounds_numbered_from"))
        busy = {a.actor: a for a in carried if a.busy_in(round_number)}
        plans: dict[str, Plan] = {}
        for declaration in declarations:
            name = declaration.actor.name
            if name in plans:
                raise CombatError(Line("elethril.refusal.declared_twice", {"name": name}))
            if name in busy:
                raise CombatError(Line("elethril.refusal.still_acting_from_round_forfeit", {"name": name, "busy_round": busy[name].round}))
            self.require_able(declaration.actor)
            plans[name] = self.plan(declaration)
        groups = list(groups)
        grouped: dict[str, str] = {}
        for group in groups:
            if not group.members:
                raise CombatError(Line("elethril.refusal.has_no_members", {"group": group.name}))
            for member in group.members:
                if member not in plans:
                    raise CombatError(Line("elethril.refusal.declares_no_action_this", {"member": member, "group": group.name}))
                if member in grouped:
                    raise CombatError(Line("elethril.refusal.both", {"member": member, "grouped": grouped[member], "group": group.name}))
                grouped[member] = group.name
            stray = set(group.follow_slowest) - set(group.members)
            if stray:
                raise CombatError(Line("elethril.refusal.not", {"stray": ', '.join(sorted(stray)), "group": group.name}))
        if round_number == 1:
            groups += [Group(name, (name,)) for name in plans if name not in grouped]
        group_rolls = [GroupRoll(g.name, roller.roll(self.initiative_die), 0) for g in groups]
        if round_number == 1 and group_rolls:
            lowest = min(g.die for g in group_rolls)
            group_rolls = [self._surprise(replace(g, base=g.die - lowest + 1), g.die - lowest)
                           for g in group_rolls]
        else:
            group_rolls = [replace(g, base=g.die) for g in group_rolls]
        results: dict[str, SegmentInitiative] = {}
        for group, rolled in zip(groups, group_rolls, strict=True):
            results.update(self._group_initiative(round_number, group, rolled, plans))
        for name, plan in plans.items():
            if name not in results:
                rolled_dice = roll_dice(plan.dice, self.initiative_die, roller)
                results[name] = SegmentInitiative(name, round_number, min(rolled_dice),
                                                  plan.parts + self._forfeit(plan), rolled_dice,
                                                  minimum=self.minimum_initiative)
        initiative = tuple(results[name] for name in plans)
        actions = tuple(self._action(plans[i.actor], i) for i in initiative)
        timeline = build_timeline(round_number, actions + tuple(busy.values()))
        return RoundStart(round_number, tuple(group_rolls), initiative, actions, timeline)

    def _surprise(self, rolled: GroupRoll, behind: int) -> GroupRoll:
        """Seed 1a, "used to determine surprise" (choose; ``[surprise]``): a side ``behind``
        the winner by ``surprise_margin`` or more is surprised; the normalised head start is
        its surprise, and its base goes ``surprise_segments`` further back."""
        if not self.surprise_margin or behind < self.surprise_margin:
            return rolled
        return replace(rolled, base=rolled.base + self.surprise_segments, surprised=behind + self.surprise_segments,
                       lost=self.surprise_segments)

    def _forfeit(self, plan: Plan) -> tuple[tuple[str, int], ...]:
        return (("forfeit", self.forfeit_penalty),) if plan.declaration.forfeited else ()

    def _group_initiative(self, round_number: int, group: Group, rolled: GroupRoll,
                          plans: Mapping[str, Plan]) -> dict[str, SegmentInitiative]:
        """Each member on the group's base with their own modifiers, or the slowest member's
        (the highest total) for those who follow the slowest (seed 1b)."""
        totals = {m: sum(v for _, v in plans[m].parts) for m in group.members}
        slowest = max(group.members, key=lambda m: totals[m])
        results = {}
        for member in group.members:
            plan = plans[member]
            parts = plan.parts
            if member in group.follow_slowest and member != slowest:
                parts = ((Line("elethril.value.part_modifiers_of", {"name": slowest}), totals[slowest]),)
            results[member] = SegmentInitiative(member, round_number, rolled.base,
                                                parts + self._forfeit(plan), group=group.name,
                                                minimum=self.minimum_initiative)
        return results

    def _action(self, plan: Plan, initiative: SegmentInitiative) -> Action:
        """The events of one action from its initiative (seed 3a–4d)."""
        name, target = plan.name, plan.declaration.target
        start = tick_of(initiative.round, initiative.initiative)

        def event(tick: int, phase: str, label: str, **more: Any) -> Event:
            round_number, segment = landing(1, tick)
            return Event(name, phase, round_number, segment, label, target, **more)

        if plan.item:      # seed 3b: one discharge at the user's segment, no casting to spoil
            return Action(name, initiative.round, "item",
                          (event(start, "discharge", plan.label, spell=plan.spell.key, item=plan.item[0]),))
        if plan.spell:
            spell = plan.spell
            if spell.instant:
                events = (event(start, "instant", spell.name, spell=spell.key),)
            else:
                events = (event(start, "casting", spell.name, spell=spell.key),
                          event(start + spell.casting_time, "discharge", spell.name, spell=spell.key))
            return Action(name, initiative.round, "spell", events, casting_from=start)
        events, tick = [], start
        for number, (weapon, hand) in enumerate(plan.attacks, start=1):
            at = tick
            if number > 1:
                # seed 4a: a magical weapon's plusses affect "only the initiative of that
                # weapon, although if the primary weapon, the result would affect all following
                # attacks": an off-hand weapon's own plusses quicken only its own strike; the
                # attacks after it follow its unquickened speed factor
                at = tick + weapon.speed
                tick += weapon.speed if hand != "off" else replace(weapon, magic=0).speed
            events.append(event(at, weapon.kind, weapon.label, weapon=weapon.key, hand=hand,
                                number=number, count=len(plan.attacks)))
        reload_rounds = max(weapon.weapon.reload_rounds for weapon, _ in plan.attacks)
        return Action(name, initiative.round, plan.kind, tuple(events), reload_rounds=reload_rounds)

    # ------------------------------------------------------------------------- attacks
    def attack_options(self) -> tuple[str, ...]:
        return tuple(self.weapons)

    def attack(self, attacker: Combatant, target: Combatant, option: str, roller: Roller,
               *, modifier: int = 0, dice_modifier: int = 0, hand: str = "") -> ElethrilAttack:
        """d20 + magic (+ quality) plusses + Hit Probability + two-weapon penalty (``hand``:
        "primary" or "off"; "" for one weapon) + ``dice_modifier`` against THAC0 − the
        target's Armor Class + ``modifier``. Raises CombatError."""
        self.require_able(attacker)
        if hand not in ("", "primary", "off"):
            raise CombatError(Line("elethril.refusal.hand_primary_off"))
        weapon = self.in_hand(attacker, option)
        parts: list[tuple[str | Line, int]] = [(Line("elethril.value.noted_magic"), weapon.magic)]
        if self.quality_plusses:
            parts.append((Line("elethril.value.noted_quality"), weapon.quality))
        parts += [("Hit Probability", attacker.trait("Hit Probability")),
                  (Line("elethril.value.noted_two_weapons"), self.two_weapon_penalty.get(hand, 0)),
                  (Line("elethril.value.noted_modifier"), dice_modifier)]
        bonus = Pool(tuple((label, value) for label, value in parts if value))
        die = roller.roll(self.to_hit_die)
        thac0, armor_class = self.thac0(attacker), self.armor_class(target)
        hit = die + bonus.size >= thac0 - armor_class + modifier
        if die == self.to_hit_die and self.natural_20_hits:
            hit = True
        if die == 1 and self.natural_1_misses:
            hit = False
        return ElethrilAttack(attacker.name, target.name, weapon, hand, bonus, die, thac0,
                              armor_class, modifier, self.size(target), hit)

    def landed(self, attack: ElethrilAttack) -> bool:
        """Whether the d20 hit the Armor Class (elethril's attacks open no defense window)."""
        return attack.hit

    def attack_from_record(self, record: Mapping[str, Any]) -> ElethrilAttack:
        return ElethrilAttack(
            attacker=record["attacker"], target=record["target"], weapon=self.wielded(record["weapon"]),
            hand=record.get("hand", ""), bonus=Pool.from_parts(record["parts"]), die=int(record["die"]),
            thac0=int(record["thac0"]), armor_class=int(record["armor_class"]),
            modifier=int(record.get("modifier", 0)), size=record["size"], hit=bool(record["hit"]))

    def defend(self, attack: Any, defender: Combatant, defense: str, roller: Roller,
               *, modifier: int = 0, dice_modifier: int = 0) -> Any:
        """Always refused: Armor Class is the only defense (docs/rules/elethril.md)."""
        raise CombatError(Line("elethril.refusal.elethril_has_no_active"))

    def resolve(self, attack: ElethrilAttack, defense: Any | None, attacker: Combatant,
                target: Combatant, roller: Roller) -> Resolution:
        """A miss does nothing; a hit rolls the weapon's damage for the target's size + plusses
        + Damage Adjustment (at least the minimum) off the target's hit points."""
        lines = [roll_of(attack.attacker, attack)]
        if not attack.hit:
            lines.append(Line("elethril.line.misses", {"attacker": attack.attacker, "label": attack.label,
                                                        "target": attack.target}))
            return Resolution(attack.attacker, attack.target, False, 0, tuple(lines), (), ())
        weapon = attack.weapon
        notation = weapon.weapon.damage_l if attack.size == "L" else weapon.weapon.damage_sm
        roll = roll_notation(dice_notation(notation, "damage"), roller)
        parts = [(Line("elethril.value.noted_magic"), weapon.magic),
                 (Line("elethril.value.noted_quality"), weapon.quality if self.quality_plusses else 0),
                 ("Damage Adjustment", attacker.trait("Damage Adjustment"))]
        parts = [(label, value) for label, value in parts if value]
        total = roll.total + sum(value for _, value in parts)
        amount = max(self.minimum_damage, total)
        working = Line(("elethril.line.working_minimum_plus" if parts else "elethril.line.working_minimum")
                       if amount > total else ("elethril.line.working_plus" if parts else "elethril.line.working"),
                       {"roll": roll.describe(with_total=not parts), "parts": signed_parts(parts), "total": total,
                        "amount": amount})
        before = self.health(target.health, target)
        after = before.with_damage(amount)
        lines += [Line("elethril.line.hits", {"attacker": attack.attacker, "label": attack.label,
                                               "target": attack.target}),
                  Line("elethril.line.damage_large" if attack.size == "L" else "elethril.line.damage_small_medium",
                       {"working": working}),
                  Line("elethril.line.loses_one" if amount == 1 else "elethril.line.loses",
                       {"target": attack.target, "count": amount, "health": after})]
        harm = Harm(attack.target, roll, tuple(parts), amount, before, after)
        return Resolution(attack.attacker, attack.target, True, 0, tuple(lines), (harm,), ())

    # -------------------------------------------------------------------------- spells
    def spell_effect(self, spell: str, caster: Combatant, target: Combatant | None,
                     roller: Roller) -> Resolution:
        """What spell ``spell`` (a key) does as it takes effect (seed 3c): its ``damage`` dice
        off ``target``'s hit points — no attack roll, Armor Class does not stop a spell — or
        its ``heal`` dice back onto the target (the caster when there is none), never above
        the maximum; otherwise the Storyteller narrates it. ``Resolution.hit`` is whether the
        target took damage (a hit on a caster spoils their spell). Raises CombatError when a
        damaging spell has no target."""
        found = self.spell(spell)
        if found.heal:
            target = target or caster
        if found.damage and target is None:
            raise CombatError(Line("elethril.refusal.needs_target_cast_target", {"found": found.name, "found_2": found.key}))
        lines = [Line("elethril.line.spell_on", {"caster": caster.name, "spell": found.name, "target": target.name})
                 if target is not None else Line("elethril.line.spell", {"caster": caster.name, "spell": found.name})]
        if not (found.damage or found.heal):
            lines.append("The Storyteller narrates what it does.")
            return Resolution(caster.name, target.name if target else "", False, 0, tuple(lines), (), ())
        before = self.health(target.health, target)
        if before.dead:
            lines.append(Line("elethril.line.dead_target", {"target": target.name}))
            return Resolution(caster.name, target.name, False, 0, tuple(lines), (), ())
        roll = roll_notation(dice_notation(found.damage or found.heal, "spell"), roller)
        if found.damage:
            after = before.with_damage(roll.total)
            lines += [Line("elethril.line.spell_damage", {"roll": roll.describe()}),
                      Line("elethril.line.loses_one" if roll.total == 1 else "elethril.line.loses",
                           {"target": target.name, "count": roll.total, "health": after})]
        else:
            after = before.healed(roll.total)
            lines += [Line("elethril.line.spell_healing", {"roll": roll.describe()}),
                      Line("elethril.line.regains_one" if before.damage - after.damage == 1
                           else "elethril.line.regains",
                           {"target": target.name, "count": before.damage - after.damage, "health": after})]
        harm = Harm(target.name, roll, (), after.damage - before.damage, before, after)
        return Resolution(caster.name, target.name, bool(found.damage and roll.total > 0), 0,
                          tuple(lines), (harm,), ())

    # -------------------------------------------------------------------------- health
    def health(self, record: Mapping[str, Any] | None, actor: Combatant | None = None) -> HitPoints:
        """Hit points from the record; the maximum from ``actor``'s Hit Points when given and
        set, else the record's, else the data's default."""
        record = record or {}
        maximum = int(record.get("maximum", self.default_hit_points))
        if actor is not None and "Hit Points" in actor.traits:
            maximum = actor.trait("Hit Points")
        return HitPoints(maximum, int(record.get("damage", 0)), self.down_at, self.dead_at)

    def damage_type(self, text: str) -> str:
        """Elethril has one kind of damage, hit points: ``"hp"``, ``"hit points"``, ``""``.
        Raises CombatError."""
        wanted = text.strip().casefold()
        if wanted and not ("hp".startswith(wanted) or "hit points".startswith(wanted)):
            raise CombatError(Line("elethril.refusal.damage_hit_points_hp"))
        return "hp"
