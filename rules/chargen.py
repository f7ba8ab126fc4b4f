"""Character generation and experience as pure rules: values in, values out.

Each rule system's chargen table is ``rules/data/chargen/<system key>.toml`` (its keys are
explained at the top of ``storyteller.toml``): trait groups with their creation ranges, point
pools or priorities, costs, freebies, required and staff-only traits, experience costs; or,
for a system whose scores are rolled (elethril), the dice, the classes and the tables that turn
scores into the sheet's traits. Nothing here touches the game: a sheet is ``{trait: rating}``,
a refusal is a :class:`ChargenError` whose line says exactly why (a ``chargen.refusal`` key of
the message catalogue and its values: the words are the game's), what a sheet still lacks is
lines too (``chargen.line``), and dice are injected (anything with ``roll(sides) -> int``).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Protocol

from rules.data import DATA_DIR, RulesDataError, require
from rules.lines import Line, Refusal

CHARGEN_DIR = DATA_DIR / "chargen"
POINTS, ROLLED = "points", "rolled"
#: The highest rating (and XP) a player's text may name: anything larger is refused before
#: any sum is made.
MAX_NUMBER = 1000


class ChargenError(Refusal):
    """A change the chargen or experience rules refuse (a :class:`~rules.lines.Refusal`)."""


class Roller(Protocol):
    def roll(self, sides: int) -> int: ...


@dataclass(frozen=True)
class XpCost:
    """Experience to raise a trait one dot: ``flat`` each dot, else ``per_rating`` times the
    current rating (``new`` when the rating is 0). All 0: not bought with experience."""

    flat: int = 0
    per_rating: int = 0
    new: int = 0

    @property
    def buyable(self) -> bool:
        return bool(self.flat or self.per_rating or self.new)

    def step(self, rating: int) -> int:
        """The cost to go from ``rating`` to ``rating + 1``."""
        if self.flat:
            return self.flat
        if rating <= 0 and self.new:
            return self.new
        return max(rating, 1) * self.per_rating


@dataclass(frozen=True)
class Group:
    """Traits bought alike (Attributes, Abilities …)."""

    name: str
    traits: tuple[str, ...]
    base: int
    minimum: int
    maximum: int
    #: ``{category: traits}`` ranked by ``priorities`` (oWoD's 7/5/3), else empty.
    categories: Mapping[str, tuple[str, ...]]
    priorities: tuple[int, ...]
    #: The group's own pool of points (0 with priorities, a shared pool or freebies only).
    points: int
    #: The name of another group whose pool this one spends ("" for its own).
    pool: str
    cost: int
    costs: Mapping[str, int]
    freebie_cost: int
    freebie_costs: Mapping[str, int]
    max_by_trait: Mapping[str, int]
    #: The highest rating experience may buy (0: the sheet's own maximum for the trait).
    xp_max: int
    xp: XpCost
    xp_by_trait: Mapping[str, XpCost]

    def dot_cost(self, trait: str) -> int:
        return self.costs.get(trait, self.cost)

    def freebie_dot_cost(self, trait: str) -> int:
        return self.freebie_costs.get(trait, self.freebie_cost)

    def highest(self, trait: str) -> int:
        return self.max_by_trait.get(trait, self.maximum)

    def xp_cost(self, trait: str) -> XpCost:
        return self.xp_by_trait.get(trait, self.xp)

    def category_of(self, trait: str) -> str:
        for name, traits in self.categories.items():
            if trait in traits:
                return name
        return self.pool or self.name


@dataclass(frozen=True)
class CharClass:
    """A class of a rolled system (elethril's Warrior …)."""

    name: str
    hit_die: int
    thac0: int
    caster_level: int
    warrior_constitution: bool
    requires: Mapping[str, int]


@dataclass(frozen=True)
class Pool:
    """One budget as spent: its name, size and points spent (more than ``size`` overflows)."""

    name: str
    size: int
    spent: int
    #: The group it belongs to (for a category: "Abilities").
    group: str

    @property
    def left(self) -> int:
        return self.size - self.spent


@dataclass(frozen=True)
class Tally:
    """Points spent and left in every pool, and the freebies."""

    pools: tuple[Pool, ...]
    freebies: int
    freebies_spent: int
    #: Why the sheet is over budget, a line (None when it is within).
    over: Line | None = None

    @property
    def freebies_left(self) -> int:
        return self.freebies - self.freebies_spent

    def pool(self, name: str) -> Pool | None:
        return next((pool for pool in self.pools if pool.name == name), None)


@dataclass(frozen=True)
class Rolled:
    """A roll of the ability scores: ``{score: total}`` and each score's faces."""

    scores: Mapping[str, int]
    faces: Mapping[str, tuple[int, ...]]


@dataclass(frozen=True)
class ChargenRules:
    """One system's chargen table."""

    system: str
    method: str
    groups: tuple[Group, ...]
    freebies: int
    kinds: tuple[str, ...]
    weapon: bool
    required: tuple[str, ...]
    locked: tuple[str, ...]
    #: Rolled systems: the scores in order, the dice, the classes and tables.
    scores: tuple[str, ...] = ()
    dice: int = 0
    sides: int = 0
    classes: Mapping[str, CharClass] = field(default_factory=dict)
    tables: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    armor_class: int = 10
    attacks: int = 1
    rolled_xp: Mapping[str, XpCost] = field(default_factory=dict)

    # --- lookups ------------------------------------------------------------------------
    def group_of(self, trait: str) -> Group | None:
        return next((group for group in self.groups if trait in group.traits), None)

    @property
    def trait_names(self) -> tuple[str, ...]:
        return tuple(trait for group in self.groups for trait in group.traits)

    def start(self) -> dict[str, int]:
        """A new chargen sheet: every trait at its group's base."""
        return {trait: group.base for group in self.groups for trait in group.traits}

    # --- point-bought sheets ------------------------------------------------------------
    def tally(self, traits: Mapping[str, int]) -> Tally:
        """What ``traits`` spend: each pool's points (a category ranked by what it spends),
        then the freebies for whatever is past a pool; ``over`` says why when it is too much."""
        spent: dict[str, int] = {}
        for group in self.groups:
            for trait in group.traits:
                dots = int(traits.get(trait, group.base)) - group.base
                if dots > 0:
                    name = group.category_of(trait) if group.categories else (group.pool or group.name)
                    spent[name] = spent.get(name, 0) + dots * (group.dot_cost(trait) if (
                        group.points or group.pool or group.categories) else group.freebie_dot_cost(trait))
        pools: list[Pool] = []
        freebies_spent, over = 0, None
        for group in self.groups:
            if group.categories:
                ranked = sorted(group.categories, key=lambda name: -spent.get(name, 0))
                sizes = dict(zip(ranked, sorted(group.priorities, reverse=True)))
                names = list(group.categories)
            elif group.pool:
                continue
            elif group.points:
                sizes, names = {group.name: group.points}, [group.name]
            else:   # freebies only
                freebies_spent += spent.get(group.name, 0)
                continue
            for name in names:
                pool = Pool(name, sizes[name], spent.get(name, 0), group.name)
                pools.append(pool)
                if pool.left < 0:
                    if group.freebie_cost > 0:
                        freebies_spent += -pool.left * group.freebie_cost
                    elif not over:
                        over = Line("chargen.line.pool_overspent_one" if pool.size == 1 else "chargen.line.pool_overspent",
                                    {"pool": pool.name, "spent": pool.spent, "size": pool.size})
        if not over and freebies_spent > self.freebies:
            over = Line("chargen.line.freebies_overspent_one" if freebies_spent == 1 else "chargen.line.freebies_overspent",
                        {"spent": freebies_spent, "freebies": self.freebies})
        return Tally(tuple(pools), self.freebies, freebies_spent, over)

    def set_trait(self, traits: Mapping[str, int], trait: str, rating: int) -> dict[str, int]:
        """``traits`` with ``trait`` at ``rating``, if the creation rules allow it. Raises
        ChargenError saying why not ("Brawl 4 is over the creation maximum 3", "2 points left
        for Skills and 0 freebie points; Melee 3 costs 3")."""
        if self.method == ROLLED:
            raise ChargenError(Line("chargen.refusal.rolled_trait", {"trait": trait, "system": self.system}))
        group = self.require_group(trait)
        low, high = group.minimum, group.highest(trait)
        if rating > high:
            raise ChargenError(Line("chargen.refusal.over_creation_maximum",
                                    {"trait": trait, "rating": rating, "highest": high}))
        if rating < low:
            raise ChargenError(Line("chargen.refusal.under_creation_minimum",
                                    {"trait": trait, "rating": rating, "lowest": low}))
        before = {**self.start(), **{k: int(v) for k, v in traits.items()}}
        after = {**before, trait: rating}
        tally = self.tally(after)
        if tally.over and rating > before.get(trait, group.base):
            was = self.tally(before)
            cost = (rating - before.get(trait, group.base)) * (
                group.dot_cost(trait) if (group.points or group.pool or group.categories) else group.freebie_dot_cost(trait))
            name = group.category_of(trait) if group.categories else (group.pool or group.name)
            pool = was.pool(name)
            left = None
            if pool:
                points = max(pool.left, 0)
                left = Line("chargen.line.points_left_one" if points == 1 else "chargen.line.points_left",
                            {"left": points, "pool": name})
            if self.freebies:
                freebies, dot = max(was.freebies_left, 0), group.freebie_dot_cost(trait)
                if dot:
                    free = Line("chargen.line.freebies_left_dots_cost_one" if freebies == 1
                                else "chargen.line.freebies_left_dots_cost",
                                {"left": freebies, "group": group.name, "cost": dot})
                else:
                    free = Line("chargen.line.freebies_left_not_bought_one" if freebies == 1
                                else "chargen.line.freebies_left_not_bought", {"left": freebies, "group": group.name})
                left = Line("chargen.line.points_and_freebies_left", {"points": left, "freebies": free}) if left \
                    else free
            raise ChargenError(Line("chargen.refusal.over_budget", {"left": left, "trait": trait, "rating": rating,
                                                                    "cost": cost}) if left else tally.over)
        return after

    def require_group(self, trait: str) -> Group:
        if trait in self.locked:
            raise ChargenError(Line("chargen.refusal.set_by_staff", {"trait": trait, "system": self.system}))
        group = self.group_of(trait)
        if group is None:
            raise ChargenError(Line("chargen.refusal.not_bought", {"trait": trait, "system": self.system}))
        return group

    def problems(self, traits: Mapping[str, int], extra: Mapping[str, Any] | None = None) -> list[Line]:
        """Why the sheet cannot be submitted yet, one line each (empty when it can): a trait
        under its minimum, a required trait missing, points left or overspent; for a rolled
        system, no roll or no class."""
        extra = extra or {}
        lines = []
        if self.method == ROLLED:
            if not extra.get("scores"):
                lines.append(Line("chargen.line.roll_first"))
            elif not extra.get("class"):
                # the classes as the command's notation: <Warrior|Wizard>
                lines.append(Line("chargen.line.choose_class", {"classes": "|".join(self.classes)}))
            return lines
        sheet = {**self.start(), **traits}
        for group in self.groups:
            for trait in group.traits:
                if sheet.get(trait, 0) < group.minimum:
                    lines.append(Line("chargen.line.under_creation_minimum",
                                      {"trait": trait, "rating": sheet.get(trait, 0), "lowest": group.minimum}))
        for trait in self.required:
            if sheet.get(trait, 0) <= 0:
                lines.append(Line("chargen.line.required", {"trait": trait}))
        tally = self.tally(sheet)
        if tally.over:
            lines.append(tally.over)
        for pool in tally.pools:
            if pool.left > 0:
                lines.append(Line("chargen.line.points_left_to_spend_one" if pool.left == 1
                                  else "chargen.line.points_left_to_spend", {"left": pool.left, "pool": pool.name}))
        if self.freebies and tally.freebies_left > 0 and not tally.over:
            lines.append(Line("chargen.line.freebies_left_to_spend_one" if tally.freebies_left == 1
                              else "chargen.line.freebies_left_to_spend", {"left": tally.freebies_left}))
        return lines

    # --- rolled sheets ------------------------------------------------------------------
    def roll_scores(self, roller: Roller) -> Rolled:
        """The ability scores rolled in order (3d6 each, by default)."""
        faces = {score: tuple(roller.roll(self.sides) for _ in range(self.dice)) for score in self.scores}
        return Rolled({score: sum(rolled) for score, rolled in faces.items()}, faces)

    def require_class(self, text: str) -> CharClass:
        wanted = text.strip().casefold()
        found = [name for name in self.classes if name.casefold() == wanted] or \
            [name for name in self.classes if wanted and name.casefold().startswith(wanted)]
        if len(found) != 1:
            # the classes as notation: comma-separated names
            raise ChargenError(Line("chargen.refusal.no_such_class",
                                    {"system": self.system, "classes": ", ".join(self.classes)}))
        return self.classes[found[0]]

    def derive(self, scores: Mapping[str, int], klass: CharClass) -> dict[str, int]:
        """The sheet's traits from rolled ``scores`` and a class. Raises ChargenError when a
        score is under the class's minimum."""
        for score, lowest in klass.requires.items():
            if int(scores.get(score, 0)) < lowest:
                raise ChargenError(Line("chargen.refusal.class_needs", {"klass": klass.name, "score": score,
                                                                        "lowest": lowest, "have": scores.get(score, 0)}))

        def look(table: str, score: str) -> int:
            values = self.tables[table]
            index = min(max(int(scores.get(score, 10)), 3), 3 + len(values) - 1) - 3
            return values[index]

        strength, dexterity, constitution = self.scores[0], self.scores[1], self.scores[2]
        hp_table = "hit_points_warrior" if klass.warrior_constitution else "hit_points"
        return {"THAC0": klass.thac0, "Armor Class": self.armor_class + look("defense", dexterity),
                "Hit Points": max(1, klass.hit_die + look(hp_table, constitution)),
                "Reaction": look("reaction", dexterity), "Hit Probability": look("hit_probability", strength),
                "Damage Adjustment": look("damage_adjustment", strength), "Attacks": self.attacks,
                "Caster Level": klass.caster_level}

    # --- experience ---------------------------------------------------------------------
    def xp_cost(self, trait: str, old: int, new: int, highest: int) -> int:
        """Experience to raise ``trait`` from ``old`` to ``new`` (``highest``: the sheet's
        maximum for it). Raises ChargenError for a trait not bought with experience, a rating
        not above the current one or over the maximum."""
        if self.method == ROLLED:
            cost = self.rolled_xp.get(trait)
        else:
            group = self.group_of(trait)
            cost = group.xp_cost(trait) if group is not None and trait not in self.locked else None
            if group is not None:   # experience buys up to xp_max, else the creation maximum
                highest = min(highest, max(group.xp_max, group.highest(trait)))
        if cost is None or not cost.buyable:
            raise ChargenError(Line("chargen.refusal.not_bought_with_experience", {"trait": trait, "system": self.system}))
        if new <= old:
            raise ChargenError(Line("chargen.refusal.not_higher", {"trait": trait, "old": old}))
        if new > highest:
            raise ChargenError(Line("chargen.refusal.over_maximum", {"trait": trait, "rating": new, "highest": highest}))
        return sum(cost.step(rating) for rating in range(old, new))


# --- loading ---------------------------------------------------------------------------------

def _xp(table: Any, where: str) -> XpCost:
    if not isinstance(table, Mapping):
        raise RulesDataError(f"{where}: expected a table like {{ per_rating = 2 }}.")
    unknown = set(table) - {"flat", "per_rating", "new"}
    if unknown:
        raise RulesDataError(f"{where}: unknown keys {', '.join(sorted(unknown))}.")
    values = {key: _whole(table, key, where) for key in table}
    return XpCost(**values)


def _whole(table: Mapping[str, Any], key: str, where: str, low: int = -MAX_NUMBER) -> int:
    value = require(table, key, int, where)
    if not low <= value <= MAX_NUMBER:
        raise RulesDataError(f"{where}.{key}: expected {low} to {MAX_NUMBER}, got {value}.")
    return value


def _names(table: Mapping[str, Any], key: str, where: str, known: Iterable[str]) -> tuple[str, ...]:
    names = tuple(require(table, key, list, where)) if key in table else ()
    known = set(known)
    for name in names:
        if name not in known:
            raise RulesDataError(f"{where}.{key}: '{name}' is not a trait of the system.")
    return names


def _group(table: Mapping[str, Any], where: str, known: tuple[str, ...]) -> Group:
    name = require(table, "name", str, where)
    categories = {cat: _names(table["categories"], cat, f"{where}.categories", known)
                  for cat in table.get("categories", {})}
    traits = tuple(t for names in categories.values() for t in names) or _names(table, "traits", where, known)
    if not traits:
        raise RulesDataError(f"{where}: no traits.")
    priorities = tuple(table.get("priorities", ()))
    if categories and len(priorities) != len(categories):
        raise RulesDataError(f"{where}: {len(categories)} categories need {len(categories)} priorities.")
    group = Group(
        name=name, traits=traits, base=_whole(table, "base", where), minimum=_whole(table, "min", where),
        maximum=_whole(table, "max", where), categories=MappingProxyType(categories), priorities=priorities,
        points=_whole(table, "points", where, 0) if "points" in table else 0, pool=str(table.get("pool", "")),
        cost=_whole(table, "cost", where) if "cost" in table else 1,
        costs=MappingProxyType({t: _whole(table["costs"], t, f"{where}.costs") for t in _names(
            {"c": list(table.get("costs", {}))}, "c", f"{where}.costs", traits)}),
        freebie_cost=_whole(table, "freebie_cost", where, 0) if "freebie_cost" in table else 0,
        freebie_costs=MappingProxyType({t: _whole(table["freebie_costs"], t, f"{where}.freebie_costs") for t in _names(
            {"c": list(table.get("freebie_costs", {}))}, "c", f"{where}.freebie_costs", traits)}),
        max_by_trait=MappingProxyType({t: _whole(table["max_by_trait"], t, f"{where}.max_by_trait") for t in _names(
            {"c": list(table.get("max_by_trait", {}))}, "c", f"{where}.max_by_trait", traits)}),
        xp_max=_whole(table, "xp_max", where, 0) if "xp_max" in table else 0,
        xp=_xp(table.get("xp", {}), f"{where}.xp"),
        xp_by_trait=MappingProxyType({t: _xp(table["xp_by_trait"][t], f"{where}.xp_by_trait.{t}") for t in _names(
            {"c": list(table.get("xp_by_trait", {}))}, "c", f"{where}.xp_by_trait", traits)}))
    if not group.minimum <= group.base <= group.maximum and not group.base < group.minimum:
        raise RulesDataError(f"{where}: base {group.base} is outside {group.minimum}..{group.maximum}.")
    if group.freebie_cost and group.cost != 1 and not categories:
        raise RulesDataError(f"{where}: a group bought past its pool with freebies costs 1 point a dot.")
    return group


def build(system: str, data: Mapping[str, Any], trait_names: Iterable[str]) -> ChargenRules:
    """A system's chargen rules from its table (``data``), checked against the system's
    ``trait_names``. Raises RulesDataError naming what is wrong."""
    known = tuple(trait_names)
    where = f"chargen.{system}"
    method = require(data, "method", str, where)
    if method not in (POINTS, ROLLED):
        raise RulesDataError(f"{where}.method: expected points or rolled, got {method!r}.")
    common = dict(system=system, method=method, kinds=tuple(data.get("kinds", ())), weapon=bool(data.get("weapon", True)),
                  required=_names(data, "required", where, known), locked=_names(data, "locked", where, known))
    if method == ROLLED:
        rolled = require(data, "rolled", dict, where)
        classes = {}
        for name, table in require(data, "classes", dict, where).items():
            at = f"{where}.classes.{name}"
            classes[name] = CharClass(name, _whole(table, "hit_die", at, 1), _whole(table, "thac0", at),
                                      _whole(table, "caster_level", at, 0), bool(table.get("warrior_constitution")),
                                      MappingProxyType(dict(table.get("requires", {}))))
        tables = {key: tuple(values) for key, values in require(data, "tables", dict, where).items()}
        for key in ("hit_probability", "damage_adjustment", "reaction", "defense", "hit_points", "hit_points_warrior"):
            if len(tables.get(key, ())) != 16:
                raise RulesDataError(f"{where}.tables.{key}: expected 16 values (scores 3 to 18).")
        xp = {t: _xp(cost, f"{where}.xp.{t}") for t, cost in data.get("xp", {}).items()}
        for trait in xp:
            if trait not in known:
                raise RulesDataError(f"{where}.xp: '{trait}' is not a trait of the system.")
        scores = tuple(require(rolled, "scores", list, f"{where}.rolled"))
        if len(scores) < 3:
            raise RulesDataError(f"{where}.rolled.scores: Strength, Dexterity and Constitution first.")
        return ChargenRules(groups=(), freebies=0, scores=scores, dice=_whole(rolled, "dice", f"{where}.rolled", 1),
                            sides=_whole(rolled, "sides", f"{where}.rolled", 2), classes=MappingProxyType(classes),
                            tables=MappingProxyType(tables), armor_class=_whole(rolled, "armor_class", f"{where}.rolled"),
                            attacks=_whole(rolled, "attacks", f"{where}.rolled"), rolled_xp=MappingProxyType(xp),
                            **common)
    groups = tuple(_group(table, f"{where}.groups[{n}]", known) for n, table in enumerate(require(data, "groups", list, where)))
    names = {group.name for group in groups}
    for group in groups:
        if group.pool and group.pool not in names:
            raise RulesDataError(f"{where}: group {group.name} spends the pool of '{group.pool}', which is no group.")
    return ChargenRules(groups=groups, freebies=_whole(data, "freebies", where, 0), **common)


_CACHE: dict[str, ChargenRules] = {}


def load(system: str, trait_names: Iterable[str], data_dir: Path | None = None) -> ChargenRules:
    """The chargen rules of ``system`` from ``<data_dir>/<system>.toml`` (cached for the
    default directory). Raises RulesDataError for a missing or wrong file."""
    if data_dir is None and system in _CACHE:
        return _CACHE[system]
    path = (data_dir or CHARGEN_DIR) / f"{system}.toml"
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError as err:
        raise RulesDataError(f"The {system} rules have no character generation table.") from err
    except tomllib.TOMLDecodeError as err:
        raise RulesDataError(f"{path.name}: {err}") from err
    rules = build(system, data, trait_names)
    if data_dir is None:
        _CACHE[system] = rules
    return rules
