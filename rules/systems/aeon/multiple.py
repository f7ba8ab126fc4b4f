"""Aeon multiple actions (the aeon seed, Grappling: "actions may be split as normal"; the
rule played is Trinity's): a fighter declares N actions for the round; the first action's
pool loses ``first_penalty`` x N dice and each later one ``step`` more (3 actions: -3, -4,
-5). An action whose reduced pool would be below ``min_pool`` dice is refused before it is
rolled. Data: ``[multiple_actions]`` in ``rules/data/aeon.toml``; ``docs/rules/aeon.md``
("Actions").

Pure: the game layer keeps the declaration and the count of actions used, and hands the
penalty of the action being taken to the rules on the fighter's snapshot
(``conditions["action_penalty"]``, see :meth:`MultipleActions.condition`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.data import RulesDataError, require
from rules.lines import Line
from rules.systems.base import CombatError, Pool, label_from_record, label_record

#: The snapshot condition carrying the penalty of the action being taken:
#: ``[label, dice (negative), strict]``; strict: a pool below the minimum is refused.
PENALTY = "action_penalty"


@dataclass(frozen=True)
class MultipleActions:
    max_actions: int = 10
    first_penalty: int = 1
    step: int = 1
    min_pool: int = 1

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> MultipleActions:
        """From the ``[multiple_actions]`` table. Raises RulesDataError."""
        table = require(data, "multiple_actions", dict, "aeon")
        where = "multiple_actions"
        made = cls(require(table, "max_actions", int, where), require(table, "first_penalty", int, where),
                   require(table, "step", int, where), require(table, "min_pool", int, where))
        if made.max_actions < 2 or made.first_penalty < 0 or made.step < 0 or made.min_pool < 0:
            raise RulesDataError(f"{where}: need max_actions >= 2 and no negative penalty or minimum.")
        return made

    def check_declared(self, count: int) -> int:
        """``count`` if it is 1 to ``max_actions`` (1: no split). Raises CombatError."""
        if not 1 <= count <= self.max_actions:
            raise CombatError(Line("aeon.refusal.declare_actions_not", {"max_actions": self.max_actions, "count": count}))
        return count

    def penalty(self, declared: int, index: int) -> int:
        """The dice (0 or negative) off action ``index`` (0 = the first) of ``declared``:
        -(first_penalty x declared + step x index); none without a split (1 action)."""
        if declared < 2:
            return 0
        return -(self.first_penalty * declared + self.step * max(0, index))

    def penalties(self, declared: int) -> tuple[int, ...]:
        """Each action's penalty in order: 3 -> (-3, -4, -5)."""
        return tuple(self.penalty(declared, index) for index in range(declared))

    def label(self, declared: int, index: int) -> Line:
        """The pool part's label, a noted part: ``"action 2 of 3"``."""
        return Line("aeon.value.noted_action", {"index": index + 1, "declared": declared})

    def condition(self, declared: int, index: int, *, strict: bool = True) -> list[Any] | None:
        """The snapshot condition for action ``index`` of ``declared`` (None: no penalty).
        ``strict`` False: the roll is forced on the fighter (a clinch partner's contest), so
        a pool emptied by the penalty rolls nothing rather than being refused."""
        dice = self.penalty(declared, index)
        return [label_record(self.label(declared, index)), dice, strict] if dice else None

    @staticmethod
    def parts(conditions: Mapping[str, Any]) -> tuple[tuple[str | Line, int], ...]:
        """The penalty part carried by a snapshot's conditions, if any."""
        carried = conditions.get(PENALTY)
        return ((label_from_record(carried[0]), int(carried[1])),) if carried else ()

    def require_pool(self, pool: Pool, conditions: Mapping[str, Any], what: str, name: str) -> Pool:
        """``pool`` if its split penalty (carried in ``conditions``) leaves it at least
        ``min_pool`` dice; a strict action below it is refused. Raises CombatError."""
        carried = conditions.get(PENALTY)
        if carried and carried[2] and pool.size < self.min_pool:
            raise CombatError(Line("aeon.refusal.would_have_dice_after", {"name": name, "what": what, "pool_size": max(0, pool.size), "carried": format(carried[1], '+d'), "carried_2": label_from_record(carried[0]), "min_pool": self.min_pool}))
        return pool

    def describe(self, declared: int) -> Line:
        """``"3 actions: -3, -4, -5 dice"`` as a line of working (the penalties as notation)."""
        return Line("aeon.line.actions", {"count": declared,
                                          "penalties": ", ".join(str(p) for p in self.penalties(declared))})
