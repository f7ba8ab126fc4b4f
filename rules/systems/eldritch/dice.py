"""Eldritch dice: 1d10 + traits and numbers, Success Levels, the Rule of 10 and the Rule of 1.

Source: the eldritch seed assumes the Eldritch mechanics page, which we do not have; the
Unisystem defaults of ``docs/rules/eldritch.md`` (Dice) fill it (numbers in
``rules/data/eldritch.toml`` ``[dice]``):

- a roll is 1d10 + the traits and numbers named; it succeeds at the first row of the Success
  Level table (9);
- Rule of 10: a natural 10 rerolls; a reroll of 6+ adds (reroll - 5) to 10 and a further 10
  chains. Rule of 1: a natural 1 rerolls; a reroll of 5 or less makes the die (reroll - 5)
  and a further 1 chains (each chained reroll of 5 or less adds its (reroll - 5)). A Rule of 1
  never triggers inside a Rule-of-10 chain;
- initiative's d10 and ``+roll 0``'s chance die are plain d10s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.data import RulesDataError, require
from rules.dice import Roller
from rules.lines import Line
from rules.systems.base import ANNOTATED_PARTS, Combatant, Pool, Verdict, part_line


@dataclass(frozen=True)
class DiceRules:
    """The ``[dice]`` table: the Success Level rows and the Rule of 10/1 options."""

    rows: tuple[tuple[int, int], ...]
    beyond_every: int = 3
    rule_of_ten: bool = True
    rule_of_one: bool = True
    ten_reroll_min: int = 6
    one_reroll_max: int = 5
    reroll_offset: int = 5

    @property
    def success_at(self) -> int:
        """The lowest successful total (the first row: 9)."""
        return self.rows[0][0]

    def success_levels(self, total: int) -> int:
        """Success Levels of ``total``: 0 below the first row; past the last row one more
        every ``beyond_every`` points (24-26 -> 7, 27-29 -> 8)."""
        levels = 0
        for at, value in self.rows:
            if total >= at:
                levels = value
        last_at, last_value = self.rows[-1]
        if total >= last_at:
            levels = last_value + (total - last_at) // self.beyond_every
        return levels

    @classmethod
    def from_data(cls, dice: Mapping[str, Any]) -> DiceRules:
        """Raises RulesDataError for a bad ``[dice]`` table."""
        rows = require(dice, "success_levels", list, "dice")
        try:
            parsed = tuple((int(at), int(levels)) for at, levels in rows)
        except (TypeError, ValueError) as err:
            raise RulesDataError("dice.success_levels: give [total, success levels] pairs.") from err
        if not parsed or any(b[0] <= a[0] or b[1] <= a[1] for a, b in zip(parsed, parsed[1:], strict=False)) \
                or parsed[0][1] < 1:
            raise RulesDataError("dice.success_levels: totals and levels must rise, from at least 1 level.")
        every = require(dice, "beyond_every", int, "dice")
        if every < 1:
            raise RulesDataError("dice.beyond_every: at least 1.")
        return cls(parsed, every, require(dice, "rule_of_ten", bool, "dice"),
                   require(dice, "rule_of_one", bool, "dice"), require(dice, "ten_reroll_min", int, "dice"),
                   require(dice, "one_reroll_max", int, "dice"), require(dice, "reroll_offset", int, "dice"))


def roll_die(roller: Roller, rules: DiceRules) -> tuple[tuple[int, ...], int]:
    """One d10 with the Rule of 10 and the Rule of 1: (natural faces in order, what it counts).

    ``10, 7`` -> 12; ``10, 10, 8`` -> 18; ``10, 3`` -> 10; ``10, 1`` -> 10 (no Rule of 1 in a
    Rule-of-10 chain); ``1, 3`` -> -2; ``1, 1, 2`` -> -7; ``1, 7`` -> 1.
    """
    first = roller.roll(10)
    faces = [first]
    value = first
    if first == 10 and rules.rule_of_ten:
        face = 10
        while face == 10:
            face = roller.roll(10)
            faces.append(face)
            if face >= rules.ten_reroll_min:
                value += face - rules.reroll_offset
    elif first == 1 and rules.rule_of_one:
        face = roller.roll(10)
        faces.append(face)
        if face <= rules.one_reroll_max:
            value = face - rules.reroll_offset
            while face == 1:
                face = roller.roll(10)
                faces.append(face)
                if face <= rules.one_reroll_max:
                    value += face - rules.reroll_offset
    return tuple(faces), value


def parts_line(parts: Sequence[tuple[str | Line, int]]) -> Line | None:
    """A pool's parts as a line of working (``line.pool_*``), or None for no parts:
    ``"Dexterity 3 + Brawl 2 - 2 (ear pop) + 1"``: a capitalised label is a trait ("Name N");
    a lower-case one (a maneuver's modifier), a word of ``ANNOTATED_PARTS`` or a label the
    rules give as a line is a signed number with the label in brackets; a literal number has
    the label ""."""
    chain: Line | None = None
    for label, value in parts:
        if not label:
            negative, part = value < 0, Line("line.pool_number", {"value": abs(value)})
        elif isinstance(label, Line):   # a label the rules compose ("2nd action"): noted
            negative, part = value < 0, Line("line.pool_noted", {"value": abs(value), "label": label})
        elif label in ANNOTATED_PARTS:  # "modifier": worded by its own key
            negative, part = value < 0, part_line(label, value)
        elif label[:1].isupper():
            negative, part = False, Line("line.pool_trait", {"label": label, "value": value})
        else:
            negative, part = value < 0, Line("line.pool_noted", {"value": abs(value), "label": label})
        if chain is None:
            chain = Line("line.pool_negative", {"part": part}) if negative else part
        else:
            chain = Line("line.pool_minus" if negative else "line.pool_plus", {"pool": chain, "part": part})
    return chain


@dataclass(frozen=True)
class EldritchRoll:
    """1d10 + ``pool``: ``faces`` are the natural faces (the die, then any rerolls), ``die``
    what the die counts, ``total`` = pool + die, ``success_levels`` from the table (0: failed)."""

    pool: Pool
    faces: tuple[int, ...]
    die: int
    total: int
    success_levels: int

    @property
    def succeeded(self) -> bool:
        return self.success_levels > 0

    @property
    def net(self) -> int:
        """The Success Levels (the name other systems' rolls use)."""
        return self.success_levels

    def faces_text(self) -> str:
        """The faces as notation: ``"[7]"``, ``"[10, 8 -> 13]"``, ``"[1, 3 -> -2]"``."""
        shown = ", ".join(str(face) for face in self.faces)
        return f"[{shown} -> {self.die}]" if len(self.faces) > 1 else f"[{shown}]"

    def verdict(self) -> Verdict:
        """``+roll``'s verdict (``RollResult.summary``, kept in its record, never shown: the
        roll's line says it): the total and its Success Levels, or a failure."""
        if self.succeeded:
            return Verdict("success", self.success_levels, self.total)
        return Verdict("failure", total=self.total)

    def verdict_line(self) -> Line:
        """The Success Levels as a line: ``"5 SLs"``, ``"1 SL"``, ``"failure"``."""
        if not self.succeeded:
            return Line("eldritch.line.failure", {})
        return sl_count(self.success_levels)

    def line(self) -> Line:
        """The roll as a line of working: ``"Dexterity 3 + Brawl 2 + d10 [10, 8 -> 13] = 18: 5
        SLs"``; the faces are notation (:meth:`faces_text`)."""
        pool = parts_line(self.pool.parts)
        values = {"faces": self.faces_text(), "total": self.total, "verdict": self.verdict_line()}
        if pool is None:
            return Line("eldritch.line.roll_bare", values)
        return Line("eldritch.line.roll", {"pool": pool, **values})

    def describe(self) -> Line:
        """The roll as a line of working (:meth:`line`), as other systems' rolls give it."""
        return self.line()

    def to_record(self) -> dict[str, Any]:
        return {"parts": self.pool.to_record(), "faces": list(self.faces),
                "die": self.die, "total": self.total, "success_levels": self.success_levels}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> EldritchRoll:
        return cls(Pool.from_parts(record["parts"]), tuple(int(face) for face in record["faces"]),
                   int(record["die"]), int(record["total"]), int(record["success_levels"]))


def sl_count(count: int) -> Line:
    """``"1 SL"``, ``"3 SLs"``."""
    return Line("eldritch.line.sl" if count == 1 else "eldritch.line.sls", {"count": count})


def net_sls(count: int) -> Line:
    """``"1 net SL"``, ``"3 net SLs"``."""
    return Line("eldritch.line.net_sl" if count == 1 else "eldritch.line.net_sls", {"count": count})


def line_record(line: Any) -> Any:
    """A line of working as a fight stores it (an attack's notes): ``{"key": ..., "values":
    {...}}``, a line within it alike; a string stays one."""
    if isinstance(line, Line):
        return {"key": line.key, "values": {name: line_record(value) for name, value in line.values.items()}}
    if isinstance(line, tuple):
        return {"parts": [line_record(part) for part in line]}
    return line


def line_from_record(record: Any) -> Any:
    """The line :func:`line_record` stored (a string stored before lines were data stays one)."""
    if isinstance(record, Mapping) and set(record) == {"key", "values"}:
        return Line(str(record["key"]), {name: line_from_record(value) for name, value in record["values"].items()})
    if isinstance(record, Mapping) and set(record) == {"parts"}:
        return tuple(line_from_record(part) for part in record["parts"])
    return record


def roll_eldritch(pool: Pool, roller: Roller, rules: DiceRules) -> EldritchRoll:
    """Roll 1d10 (Rule of 10/1 per ``rules``) + ``pool``."""
    faces, die = roll_die(roller, rules)
    total = pool.size + die
    return EldritchRoll(pool, faces, die, total, rules.success_levels(total))


def with_parts(roll: EldritchRoll, parts: Sequence[tuple[str | Line, int]], rules: DiceRules) -> EldritchRoll:
    """The same die (``roll``'s) under other pool ``parts``: a bonus that counts for one use of a
    roll kept for several (Whirling Sword's one roll a turn; Wall Flip's +3 against one)."""
    pool = Pool(tuple(parts))
    total = pool.size + roll.die
    return EldritchRoll(pool, roll.faces, roll.die, total, rules.success_levels(total))


def trait_parts(actor: Combatant, spec: Sequence[Any]) -> tuple[tuple[str, int], ...]:
    """Pool parts from a data trait list: ``"Dexterity"``; ``"Constitution x2"`` (doubled);
    a list inside picks ``actor``'s best (``["Brawl", "Thrown"]``)."""
    parts = []
    for entry in spec:
        if isinstance(entry, (list, tuple)):
            best = max(entry, key=lambda name: (_rated(actor, name), -list(entry).index(name)))
            parts.append((_label(best), _rated(actor, best)))
        else:
            parts.append((_label(entry), _rated(actor, entry)))
    return tuple(parts)


def _label(entry: str) -> str:
    name, times = _doubling(entry)
    return name if times == 1 else f"{name} x{times}"


def _doubling(entry: str) -> tuple[str, int]:
    name, _, times = entry.rpartition(" x")
    if name and times.isdigit():
        return name, int(times)
    return entry, 1


def _rated(actor: Combatant, entry: str) -> int:
    name, times = _doubling(entry)
    return actor.trait(name) * times


def trait_spec_names(spec: Sequence[Any]) -> tuple[str, ...]:
    """The trait names a data trait list mentions (for validation)."""
    names: list[str] = []
    for entry in spec:
        for item in entry if isinstance(entry, (list, tuple)) else (entry,):
            if not isinstance(item, str):
                raise RulesDataError(f"trait lists hold names, not {item!r}.")
            names.append(_doubling(item)[0])
    return tuple(names)
