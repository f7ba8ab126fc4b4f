"""The interface every rule system implements, and the value types they share.

Values in, frozen results out: the service layer (``world/``) snapshots characters into
:class:`Combatant` values, calls a :class:`RuleSystem`, and stores the plain-dict records the
results give back. Randomness always arrives as a :class:`rules.dice.Roller`.

The seams are drawn for all four systems of ``docs/architecture.md``:

- ``roll_check`` — what ``+roll`` means (a d10 pool, 1d10 + traits, dice notation …);
- ``roll_initiative`` + ``schedule`` — an :class:`ActionSchedule` of slots, where a slot is an
  initiative value or a segment and a name may appear in several slots (extra actions);
- ``attack`` → ``defend`` → ``resolve`` — an attack may open a defense window (the pending
  attack), and its record survives a server restart between the steps;
- health as a system-specific value with a common face (:class:`Health`).
"""

from __future__ import annotations

import inspect
import tomllib
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from itertools import groupby
from pathlib import Path
from typing import Any, Protocol

from rules.data import RulesDataError, require
from rules.dice import PoolExpression, Roller
from rules.dice.odds import chance_of
from rules.lines import Line, Refusal, text_of


class CombatError(Refusal):
    """A rule refuses the action (e.g. parry without a weapon): a
    :class:`~rules.lines.Refusal`, whose ``system`` is set as it leaves ``rules.engine.step``."""


@dataclass(frozen=True)
class Combatant:
    """A snapshot of one fighter, taken by the service layer for one rules call.

    ``traits`` maps canonical trait names to ratings (missing = 0). ``health`` is the record
    of the system's health value (``Health.to_record()``), empty for a fresh fighter.
    ``kind``/``base_kind``/``transformed`` are the creature type (Storyteller soak);
    ``weapon`` is the key of the weapon in hand, or "". ``armor`` maps the system's armor
    columns (``RuleSystem.armor_columns``) to the soak values of the worn, staff-approved
    armor note (empty when none is worn).
    """

    name: str
    traits: Mapping[str, int] = field(default_factory=dict)
    kind: str = "Muggle"
    base_kind: str = "Muggle"
    transformed: bool = False
    weapon: str = ""
    health: Mapping[str, Any] = field(default_factory=dict)
    armor: Mapping[str, int] = field(default_factory=dict)
    conditions: Mapping[str, Any] = field(default_factory=dict)

    def trait(self, name: str) -> int:
        """The rating of trait ``name`` (canonical spelling), 0 when unset."""
        return int(self.traits.get(name, 0))


def trait_pool(actor: Combatant, traits: Sequence[str]) -> Pool:
    """``actor``'s ratings of ``traits`` as a pool, e.g. Dexterity 3 + Brawl 2."""
    return Pool(tuple((name, actor.trait(name)) for name in traits))


def modifier_parts(dice_modifier: int) -> tuple[tuple[str, int], ...]:
    """The Storyteller's ``+combat/mod`` as a pool part (none for 0)."""
    return (("modifier", dice_modifier),) if dice_modifier else ()


def match_damage_type(text: str, damage_types: Sequence[str]) -> str:
    """The damage type named by player text (``"l"``, ``"Lethal"`` → ``"lethal"``).

    Raises:
        CombatError: no single type starts with ``text``.
    """
    wanted = text.strip().casefold()
    found = [kind for kind in damage_types if wanted and kind.startswith(wanted)]
    if len(found) != 1:
        raise CombatError(Line("refusal.damage_type_must_one", {"damage_types": ', '.join(damage_types)}))
    return found[0]


def load_armor_table(data: Mapping[str, Any], columns: Sequence[str]) -> dict[str, dict[str, Any]]:
    """``{key: {"name", "soak": {column: value}}}`` from a data file's ``[armor.<key>]`` tables.

    Raises:
        RulesDataError: a table without a name, without any column, or with an unknown one.
    """
    table: dict[str, dict[str, Any]] = {}
    for key, entry in data.get("armor", {}).items():
        where = f"armor.{key}"
        name = require(entry, "name", str, where)
        soak = {column: require(entry, column, int, where) for column in columns if column in entry}
        if not soak or set(entry) - set(columns) - {"name"}:
            raise RulesDataError(f"{where}: give name and soak values per column ({', '.join(columns)}).")
        table[key] = {"name": name, "soak": soak}
    return table


#: Pool parts shown as "N (label)" rather than "Label N". A label may also be a
#: :class:`~rules.lines.Line` (a label the rules compose: ``"2nd action"``, ``"action 2 of 3"``),
#: worded by the game: it reads "Label N" like a trait, or "N (label)" when its key's last name
#: starts with ``noted_`` (``"aeon.value.noted_action"``).
ANNOTATED_PARTS = ("wounds", "modifier", "willpower", "rollover", "special effects")


def is_noted(label: str | Line) -> bool:
    """Whether a part labelled ``label`` reads "N (label)", signed by the chain: a label of
    :data:`ANNOTATED_PARTS`, or a line whose key's last name starts with ``noted_``."""
    if isinstance(label, Line):
        return label.key.rpartition(".")[2].startswith("noted_")
    return label in ANNOTATED_PARTS


def _value_record(value: Any) -> Any:
    if isinstance(value, Line):
        return label_record(value)
    if isinstance(value, (tuple, list)):
        return [_value_record(item) for item in value]
    return value


def label_record(label: str | Line) -> str | dict[str, Any]:
    """A pool part's label as a record keeps it: a string as it is, a line as ``{"line": key,
    "values": {...}}`` (a line among its values likewise)."""
    if isinstance(label, Line):
        return {"line": label.key, "values": {name: _value_record(value) for name, value in label.values.items()}}
    return label


def _value_from_record(value: Any) -> Any:
    if isinstance(value, Mapping) and "line" in value:
        return label_from_record(value)
    if isinstance(value, list):
        return tuple(_value_from_record(item) for item in value)
    return value


def label_from_record(record: Any) -> str | Line:
    """The label :func:`label_record` stored: a line, or a string (as older records hold every label)."""
    if isinstance(record, Line):
        return record
    if isinstance(record, Mapping) and "line" in record:
        return Line(str(record["line"]), {str(name): _value_from_record(value)
                                           for name, value in (record.get("values") or {}).items()})
    return str(record)


@dataclass(frozen=True)
class Pool:
    """A sum of labelled parts, e.g. ``(("Dexterity", 3), ("Brawl", 2), ("wounds", -1))``; a
    label is a trait's name, a word of :data:`ANNOTATED_PARTS`, "" for a number, or a line."""

    parts: tuple[tuple[str | Line, int], ...]

    @property
    def size(self) -> int:
        return sum(value for _, value in self.parts)

    def describe(self) -> str:
        """``"Dexterity 3 + Brawl 2 - 1 (wounds) = 4"``; a literal number has the label "":
        :meth:`line` in the game's words (``rules.lines.text_of``)."""
        return text_of(self.line())

    def chain(self) -> Line | None:
        """The parts as one line, each chained by its sign, without the total; None for none."""
        chain = None
        for label, value in self.parts:
            part = part_line(label, value)
            negative = value < 0 and (is_noted(label) or not label)
            if chain is None:
                chain = Line("line.pool_negative", {"part": part}) if negative else part
            else:
                chain = Line("line.pool_minus" if negative else "line.pool_plus", {"pool": chain, "part": part})
        return chain

    def line(self) -> Line:
        """:meth:`describe` as a line of working (``line.pool_*``): each part a line, chained
        by its sign, with the total after two parts or more."""
        chain = self.chain()
        if chain is None:
            return Line("line.pool_number", {"value": 0})
        return Line("line.pool_total", {"pool": chain, "size": self.size}) if len(self.parts) > 1 else chain

    def dice_line(self) -> Line:
        """:meth:`dice` as a line of working: ``"Dexterity 3 + Brawl 2 = 5 dice"``."""
        return Line("line.pool_die" if self.size == 1 else "line.pool_dice", {"pool": self.line()})

    @classmethod
    def from_parts(cls, parts: Sequence[Sequence[Any]]) -> Pool:
        """The pool stored as ``[[label, value], ...]`` (:meth:`to_record`; a label a string or
        a line's record, :func:`label_record`)."""
        return cls(tuple((label_from_record(label), int(value)) for label, value in parts))

    def to_record(self) -> list[list[Any]]:
        """``[[label, value], ...]``: each label as :func:`label_record` keeps it."""
        return [[label_record(label), value] for label, value in self.parts]

    def dice(self) -> str:
        """``describe()`` followed by "die" or "dice": ``"Dexterity 3 + Brawl 2 = 5 dice"``
        (:meth:`dice_line` in the game's words)."""
        return text_of(self.dice_line())


def part_line(label: str | Line, value: int) -> Line:
    """One part of a pool as a line: a trait ``"Dexterity 3"``, a number, or a noted part
    ``"1 (wounds)"`` (its size; the sign is the chain's); a label that is a line reads as a
    trait's name, or noted (:func:`is_noted`)."""
    size = abs(value)
    if isinstance(label, Line):
        if is_noted(label):
            return Line("line.pool_noted", {"value": size, "label": label})
        return Line("line.pool_trait", {"label": label, "value": value})
    if label in ANNOTATED_PARTS:
        return Line("line.pool_wounds" if label == "wounds" else "line.pool_modifier" if label == "modifier"
                    else "line.pool_willpower" if label == "willpower" else "line.pool_rollover"
                    if label == "rollover" else "line.pool_special_effects", {"value": size})
    if label:
        return Line("line.pool_trait", {"label": label, "value": value})
    return Line("line.pool_number", {"value": size})


class Health(Protocol):
    """The common face of every system's health value (frozen)."""

    @property
    def penalty(self) -> int: ...  # wound penalty added to dice pools (0 or negative)

    @property
    def incapacitated(self) -> bool: ...

    @property
    def dead(self) -> bool: ...

    @property
    def meter(self) -> tuple[int, int]: ...  # (current, maximum), for HUDs and GMCP

    def describe(self) -> str: ...  # one short line, e.g. "Hurt (-1) [LB.....]" (track_line() in words)

    def words(self) -> str: ...  # describe() without a track's boxes: "Hurt (-1)" (line() in words)

    def line(self) -> Line: ...  # words() as a line of the catalogue, worded by the game

    def track_line(self) -> Line: ...  # describe() as a line: line(), and a track's boxes if any

    def with_damage(self, amount: int, damage_type: str) -> Health: ...  # no soak

    def healed(self, amount: int | None, damage_type: str | None) -> Health: ...  # None: all / any

    def spared(self) -> Health: ...  # the nearest health that is not dead (at death's door)

    def to_record(self) -> dict[str, Any]: ...


class PointsHealth:
    """Health as points counting down from ``maximum`` (eldritch Life Points, elethril hit
    points): down at ``down_at`` or less, dead at ``dead_at`` or less; no wound penalty.
    Subclasses are frozen dataclasses giving ``maximum``, ``down_at``, ``dead_at`` and a
    ``current`` property."""

    maximum: int
    down_at: int
    dead_at: int
    current: int
    penalty = 0

    @property
    def incapacitated(self) -> bool:
        return self.current <= self.down_at

    @property
    def dead(self) -> bool:
        return self.current <= self.dead_at

    @property
    def meter(self) -> tuple[int, int]:
        return (self.current, self.maximum)

    def words(self) -> str:
        """Points have no track: :meth:`describe` as it is."""
        return self.describe()

    def describe(self) -> str:
        """:meth:`line` in the game's words (``rules.lines.text_of``)."""
        return text_of(self.line())

    def line(self) -> Line:
        """The points in words, as a line of the catalogue (each system's own)."""
        raise NotImplementedError

    def track_line(self) -> Line:
        """Points have no track: :meth:`line` as it is."""
        return self.line()

    def spared(self):
        """This health, or if it is dead the nearest that is not: one point above ``dead_at``
        (down, at death's door; docs/rules.md, "Death needs a decision")."""
        return self if not self.dead else self.healed(self.dead_at + 1 - self.current, None)


@dataclass(frozen=True)
class InitiativeRoll:
    """One combatant's initiative: ``total`` orders the schedule, ``tiebreak`` breaks ties."""

    name: str
    pool: Pool
    die: int
    total: int
    tiebreak: int

    def describe(self) -> str:
        """``"Dexterity 2 + Wits 2 = 4 + 1d10 (7) = 11"``: :meth:`line` in the game's words."""
        return text_of(self.line())

    def line(self) -> Line:
        """:meth:`describe` as a line of working (the engine's initiative event and log)."""
        return Line("line.initiative", {"pool": self.pool.line(), "die": self.die, "total": self.total})

    def to_record(self) -> dict[str, Any]:
        return {"name": self.name, "parts": self.pool.to_record(), "die": self.die,
                "total": self.total, "tiebreak": self.tiebreak}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> InitiativeRoll:
        return cls(name=record["name"], pool=Pool.from_parts(record["parts"]),
                   die=int(record["die"]), total=int(record["total"]), tiebreak=int(record["tiebreak"]))


@dataclass(frozen=True)
class Slot:
    """One step of a round: ``at`` is the initiative value (or segment); ``names`` act together."""

    at: int
    names: tuple[str, ...]


@dataclass(frozen=True)
class ActionSchedule:
    """The acting order of one round and, where the system has one, the declaring order."""

    slots: tuple[Slot, ...]
    declare: tuple[str, ...] = ()


def highest_first(rolls: Sequence[InitiativeRoll]) -> tuple[Slot, ...]:
    """Slots from initiative, highest total first; equal total and equal tiebreak share a slot
    (simultaneous) with the names sorted case-insensitively — deterministic for any input order."""
    ordered = sorted(rolls, key=lambda r: (-r.total, -r.tiebreak, r.name.casefold(), r.name))
    return tuple(Slot(total, tuple(r.name for r in group))
                 for (total, _), group in groupby(ordered, key=lambda r: (r.total, r.tiebreak)))


@dataclass(frozen=True)
class Resolution:
    """A finished attack, as every system returns it from ``resolve``: ``lines`` show every
    roll and the arithmetic; ``harm`` holds one system-specific harm per wounded combatant
    (each with ``name`` and ``health_after``); ``effects`` are the lasting states for the
    fight as ``(effect, name, detail)``, e.g. ``("held", "Bob", "Ann")``."""

    attacker: str
    target: str
    hit: bool
    net_successes: int
    lines: tuple[str | Line, ...]
    harm: tuple[Any, ...]
    effects: tuple[tuple[str, str, Any], ...]


@dataclass(frozen=True)
class Verdict:
    """``+roll``'s verdict as data, never a sentence (the roll's lines say it to players):
    ``outcome`` is ``"botch"``, ``"failure"``, ``"success"`` or ``""`` (no verdict: a total
    alone); ``count`` the successes or Success Levels where the system counts them (0
    otherwise); ``total`` the sum rolled where the system adds dice (None for a pool of
    successes); ``difficulty`` the total a roll ``vs N`` had to reach, where one was typed.
    Frozen and hashable: replaying ``roll_check`` counts outcomes by it (``rules.dice.odds``)."""

    outcome: str
    count: int = 0
    total: int | None = None
    difficulty: int | None = None

    def to_record(self) -> dict[str, Any]:
        """``{"outcome": …, "count": …, "total": …, "difficulty": …}``, as a roll's record keeps it."""
        return {"outcome": self.outcome, "count": self.count, "total": self.total, "difficulty": self.difficulty}


@dataclass(frozen=True)
class RollResult:
    """What ``+roll`` produced: ``lines`` show the dice and the arithmetic; ``summary`` is the
    verdict as data (:class:`Verdict`), kept in ``record`` as ``"result"``."""

    lines: tuple[str | Line, ...]
    summary: Verdict
    record: Mapping[str, Any]


@dataclass(frozen=True)
class Odds:
    """What ``+roll/odds`` shows: ``title`` (the pool as it would be rolled) and ``rows`` of
    (outcome, its exact probability); ``note`` names anything left out (``rules.dice.odds``)."""

    title: str | Line
    rows: tuple[tuple[str | Line, Fraction], ...]
    note: str | Line = ""


def at_least_rows(outcomes: Mapping[Any, Fraction], first: int, *,
                  limit: int = 8) -> list[tuple[str | Line, Fraction]]:
    """``("3+ successes", p)`` rows from ``first`` up, while the chance is at least 0.05% (the
    first row always), at most ``limit`` rows; each row's outcome a line
    (``line.at_least_successes``)."""
    rows: list[tuple[str | Line, Fraction]] = []
    value = first
    while len(rows) < limit:
        chance = sum((p for key, p in outcomes.items() if isinstance(key, int) and key >= value), Fraction(0))
        if rows and chance < Fraction(1, 2000):
            break
        rows.append((Line("line.at_least_success" if value == 1 else "line.at_least_successes", {"value": value}),
                     chance))
        value += 1
    return rows


@dataclass(frozen=True)
class RoundEffect:
    """What befalls one fighter as a new round begins (e.g. aeon bleeding) or as one of its
    action slots is spent (``after_action``): ``health`` after it (None: unchanged),
    ``conditions`` to set on the fighter (a None value clears one), and the working for the
    room."""

    health: Any = None
    conditions: Mapping[str, Any] = field(default_factory=dict)
    lines: tuple[str | Line, ...] = ()


@cache
def command_help(system_class: type) -> Mapping[str, str]:
    """{command key: that system's part of the command's help} from ``help.toml`` beside the
    module that defines ``system_class`` ({} when it has none). Raises RulesDataError on a
    file that is not TOML or holds something other than texts."""
    path = Path(inspect.getfile(system_class)).with_name("help.toml")
    if not path.exists():
        return {}
    try:
        with open(path, "rb") as data:
            entries = tomllib.load(data)
    except tomllib.TOMLDecodeError as err:
        raise RulesDataError(f"{path.name} of {system_class.__name__}: {err}") from err
    if not all(isinstance(text, str) for text in entries.values()):
        raise RulesDataError(f"{path.name} of {system_class.__name__}: every entry is a text")
    return {key: text.strip("\n") for key, text in entries.items()}


class RuleSystem(ABC):
    """One tabletop rule system. Subclasses load their tables from ``rules/data/<key>.toml``."""

    key: str
    title: str
    trait_names: tuple[str, ...]
    defense_names: tuple[str, ...]
    #: Whether an active defense spends one of the defender's actions this round.
    defense_uses_action: bool = True
    #: Whether one may still defend after using every action this round.
    defend_after_acting: bool = False
    #: Whether a round is declared first and then played segment by segment (elethril, seed
    #: 004 section 3), instead of turns in initiative order: the game runs such a fight
    #: through the system's own actions (elethril: ``rules.systems.elethril.actions``).
    declared_rounds: bool = False
    #: The columns an armor note gives soak values for (e.g. bashing/lethal/aggravated).
    armor_columns: tuple[str, ...] = ()
    #: {armor key: {"name": str, "soak": {column: value}}} from the system's data file.
    armor_table: Mapping[str, Any] = {}
    #: The system's spellcasting (``cast``, ``magical_attack``, ``resolve``, ``raise_shield`` …),
    #: or None when it has none.
    magic: Any = None
    #: {kind: its table}: the creature kinds this system's soak knows (``+stat <name>/kind``).
    kinds: Mapping[str, Any] = {}
    #: The two traits ``+npc/init <name>=<a>+<b>`` gives a light NPC (its initiative's).
    npc_initiative_traits: tuple[str, str] = ("Wits", "Dexterity")
    #: {weapon key: its name}: what ``+stat <name>/weapon`` may put in hand.
    weapon_names: Mapping[str, str] = {}
    #: {weapon key: the system's weapon}: its weapon table (empty: none).
    weapons: Mapping[str, Any] = {}
    #: The creature kind a sheet without one has ("" where kinds play no part).
    default_kind: str = ""
    #: Whether a fight may be a formal duel, where brawl attacks are refused (storyteller).
    formal_duels: bool = False
    #: What to do once joined, for the start line ("…then roll +combat/init.") and the join line.
    #: Whether initiative is rolled anew every round (eldritch, by its data).
    reroll_each_round: bool = False
    #: Whether a held fighter may ``escape`` (storyteller, eldritch): ``escape_hold``.
    escapes: bool = False
    #: The rule for several actions declared in one turn (``+combat/split``; aeon), or None:
    #: ``condition``, ``check_declared``, ``describe``, ``penalties``, ``max_actions``.
    multiple_actions: Any = None
    #: The conditions of a fighter this system keeps (``rules.engine.conditions``), and those
    #: of them that last only a round (cleared as the next begins).
    condition_keys: frozenset[str] = frozenset()
    round_conditions: tuple[str, ...] = ()
    #: The fields this system keeps on the fight (``FightState.extra``): name -> a function
    #: making its empty value.
    fight_fields: Mapping[str, Any] = {}
    #: The actions a fight under this system plays, by key (``rules.engine.actions``); the
    #: system's package sets them.
    actions: Mapping[str, Any] = {}
    #: The Attributes a character keeps for this system besides the sheet, which a fight
    #: reads and writes back (``Fighter.gear``: elethril's ``magic_items``).
    gear: tuple[str, ...] = ()

    @property
    def command_help(self) -> Mapping[str, str]:
        """{command key: this system's part of that command's help}: the system's package
        ships it as ``help.toml`` (``help attack`` shows the part of the system played here)."""
        return command_help(type(self))

    @abstractmethod
    def roll_check(self, expression: PoolExpression, actor: Combatant, roller: Roller,
                   *, modifier: int = 0, willpower: bool = False) -> RollResult:
        """Roll what a player typed after ``+roll``. Raises DiceSyntaxError for what the system refuses."""

    def odds(self, expression: PoolExpression, actor: Combatant, *, modifier: int = 0,
             willpower: bool = False) -> Odds:
        """``+roll/odds``: the exact chances of what ``roll_check`` would roll, computed, not
        simulated. Raises what ``roll_check`` raises, or CombatError where there are none."""
        raise CombatError(Line("refusal.rules_have_no_odds", {"system": self.key}))

    @abstractmethod
    def roll_initiative(self, actor: Combatant, roller: Roller) -> InitiativeRoll:
        """Roll initiative. Raises CombatError when the actor cannot act."""

    @abstractmethod
    def schedule(self, rolls: Sequence[InitiativeRoll]) -> ActionSchedule:
        """The round's schedule from everyone's initiative; deterministic for equal input."""

    @abstractmethod
    def attack_options(self) -> tuple[str, ...]:
        """The maneuver and weapon keys ``attack <target>/<option>`` accepts."""

    @abstractmethod
    def attack(self, attacker: Combatant, target: Combatant, option: str, roller: Roller,
               *, modifier: int = 0, dice_modifier: int = 0) -> Any:
        """Roll an attack; ``modifier`` moves the difficulty, ``dice_modifier`` the pool (the ST's
        ``+combat/mod``). The result has ``needs_defense``, ``successes`` (what the defender must
        beat), ``label``, ``damage_type``, ``describe()`` and ``to_record()``."""

    def hit_damage(self, attack: Any, attacker: Combatant) -> int:
        """What a hit of ``attack`` (as :meth:`attack` returned it) does before soak at its
        fewest successes, in the system's own measure (damage dice, or points): how the NPC AI
        (``+combat/ai``) weighs one attack against another. 0 for an attack that does no damage
        (a hold, a disarm); 0 by default. Raises nothing."""
        return 0

    def successes_line(self, count: int) -> Line:
        """An attack's successes as the system counts them, for its target's prompt: ``"1
        success"``, ``"3 successes"`` (``line.success``/``line.successes``; eldritch: Success
        Levels)."""
        return Line("line.success" if count == 1 else "line.successes", {"count": count})

    def landed(self, attack: Any) -> bool:
        """Whether a rolled attack hit: it opens a defense window (by default)."""
        return bool(attack.needs_defense)

    def attack_chance(self, attacker: Combatant, target: Combatant, option: str) -> Fraction:
        """The exact chance that :meth:`attack` with these :meth:`landed`, for the NPC AI
        (``+combat/ai``) to weigh its attacks: by default the roll replayed on every face of
        its die and of the rerolls it chains, three dice deep (``rules.dice.odds.chance_of``);
        the pool systems count their pool. Raises CombatError (what :meth:`attack` raises)
        for an attack the rules refuse."""
        return chance_of(lambda roller: self.landed(self.attack(attacker, target, option, roller)), max_dice=3)

    def trait_range(self, name: str) -> tuple[int, int]:
        """The lowest and highest rating ``+stat`` allows for trait ``name`` (0 to 20, by
        default; e.g. elethril's Armor Class runs negative)."""
        return (0, 20)

    def difficulty_adjustable(self, option: str, attacker: Combatant) -> bool:
        """Whether the ST's ``+combat/diff`` moves this attack's difficulty (all, by default).
        Raises CombatError for an option the system does not know."""
        return True

    def defense_adjustable(self, defense: str) -> bool:
        """Whether the ST's ``+combat/diff`` moves this defense's difficulty (none, by default)."""
        return False

    def defense_choices(self, attack: Any, defender: Combatant) -> tuple[str, ...]:
        """The defenses worth offering ``defender`` against ``attack`` (all, by default)."""
        return self.defense_names

    def can_act(self, fighter: Combatant) -> bool:
        """Whether ``fighter`` takes its turns (not incapacitated, by default)."""
        return not self.health(fighter.health, fighter).incapacitated

    def require_able(self, actor: Combatant) -> None:
        """Raises CombatError, in the system's words, when ``actor`` is too hurt to act."""
        health = self.health(actor.health, actor)
        if health.incapacitated:
            raise CombatError(Line("refusal.dead_cannot_act" if health.dead else "refusal.down_cannot_act",
                                   {"actor": actor.name}))

    def refuse_unable(self, actor: Combatant) -> None:
        """Raises CombatError saying why ``actor``, who cannot act (``can_act``), may not take
        a turn (down, out cold …); returns when the reason is the turn's to give (the stunned
        only defend: "not your turn"). By default :meth:`require_able`."""
        self.require_able(actor)

    def free_in_clinch(self, conditions: Mapping[str, Any]) -> bool:
        """Whether a fighter in a clinch may do other things with actions left (aeon: having
        contested control this round). No, by default."""
        return False

    def check_attack(self, attacker: Combatant, target: Combatant, option: str, *, modifier: int = 0) -> None:
        """Raises CombatError for an attack the rules refuse before its turn is spent (aeon:
        a clinch on the mounted). Nothing, by default."""

    def step_in(self, whirler: Combatant, approacher: Combatant, attack: Any = None) -> Any:
        """The attack ``whirler`` makes on one who steps into its reach (eldritch Whirling
        Sword), or None (by default)."""
        return None

    def before_turn(self, draft: Any, fighter_id: int, what: str) -> tuple[bool, tuple[str, ...]]:
        """What must come before a fighter's action on its turn (an aeon rider's Ride roll),
        on the fight's draft (``rules.engine.draft.Draft``): (the fighter goes on with
        ``what``, the lines to add). A lost turn is told here. By default (True, ())."""
        return True, ()

    def weapon_note(self, key: str) -> str:
        """What the sheet says of the weapon ``key`` besides its name (storyteller: where it
        can be hidden); "" for nothing (by default)."""
        return ""

    def to_declare(self, draft: Any) -> list[int]:
        """Whom a fight of declared rounds waits on to declare, by id (none, for a system
        that plays turns)."""
        return []

    def escape_hold(self, escaper: Combatant, holder: Combatant, roller: Roller) -> tuple[bool, tuple[str, ...]]:
        """``escaper``'s roll to escape ``holder``'s hold: (escaped, lines). Only for a system
        with ``escapes``."""
        raise CombatError(Line("refusal.rules_have_no_escape", {"system": self.key}))

    def condition_after(self, conditions: Mapping[str, Any], effect: str, detail: Any) -> dict[str, Any]:
        """``conditions`` after a lasting effect of this system's (an effect tuple of a
        ``Resolution``): by default the effect's name set to its detail (None or False clears
        it). Raises nothing."""
        return {**conditions, effect: True if detail is None else detail}

    def after_action(self, fighter: Combatant, *, passed: bool = False) -> RoundEffect | None:
        """What changes when ``fighter`` spends one of its action slots (never for a defense);
        ``passed``: the slot went by unused (the fighter could not act then). Only
        ``conditions`` and ``lines`` are used. Nothing, by default."""
        return None

    def start_of_round(self, fighter: Combatant, round_number: int) -> RoundEffect | None:
        """What happens to ``fighter`` as round ``round_number`` begins; None for nothing."""
        return None

    def condition_marks(self, conditions: Mapping[str, Any]) -> tuple[str, ...]:
        """Short HUD marks (plain text, the game escapes them) for this system's lasting
        conditions of one fighter, as the game stores them; none by default."""
        return ()

    def scene_text(self, scene: Mapping[str, Any]) -> str:
        """The ST's scene settings (``Encounter.scene``) in words for the HUD; "" for none."""
        return ""

    @abstractmethod
    def attack_from_record(self, record: Mapping[str, Any]) -> Any:
        """Rebuild an attack stored while its defense window was open."""

    @abstractmethod
    def defend(self, attack: Any, defender: Combatant, defense: str, roller: Roller,
               *, modifier: int = 0, dice_modifier: int = 0) -> Any:
        """Roll a defense against a pending attack. Raises CombatError when it isn't allowed."""

    @abstractmethod
    def resolve(self, attack: Any, defense: Any | None, attacker: Combatant, target: Combatant,
                roller: Roller) -> Any:
        """Finish an attack: damage, soak, health after. Pure: returns the new health records."""

    @abstractmethod
    def health(self, record: Mapping[str, Any] | None, actor: Combatant | None = None) -> Health:
        """The health value from its record (a fresh one when the record is empty)."""

    @abstractmethod
    def damage_type(self, text: str) -> str:
        """The canonical damage type named by player text (prefix allowed). Raises CombatError."""

    def damage(self, actor: Combatant, amount: int, damage_type: str) -> Health:
        """``actor``'s health after ``amount`` of ``damage_type`` (no soak): staff ``+damage``.

        Raises:
            CombatError: an unknown damage type, or ``actor`` is already dead.
        """
        kind = self.damage_type(damage_type)
        health = self.health(actor.health, actor)
        if health.dead:
            raise CombatError(Line("refusal.already_dead_other", {"actor": actor.name}))
        return health.with_damage(amount, kind)

    def heal(self, actor: Combatant, amount: int | None, damage_type: str | None) -> Health:
        """``actor``'s health after healing ``amount`` (None: all) of ``damage_type`` (None: the
        least serious first): staff ``+heal``. Healing everything gives a fresh health, which
        also raises the dead (staff fiat).

        Raises:
            CombatError: an unknown damage type, or other healing of the dead.
        """
        kind = self.damage_type(damage_type) if damage_type else None
        if amount is None and kind is None:
            return self.health(None, actor)
        health = self.health(actor.health, actor)
        if health.dead:
            raise CombatError(Line("refusal.dead_only_heal_all", {"actor": actor.name}))
        return health.healed(amount, kind)
