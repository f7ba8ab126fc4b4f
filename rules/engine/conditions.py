"""The conditions a fighter can be in, and who declares them.

A fighter's conditions in a fight are plain data by key (``Fighter.conditions``). The engine
declares the ones its turn flow keeps (:data:`ENGINE`); each rule system declares its own
(``RuleSystem.condition_keys``). Writing any other key is a programming error
(:func:`check_keys`), so no system reads or writes another's by accident.
"""

from __future__ import annotations

from collections.abc import Iterable

#: The engine's own conditions: held (by a fighter's id), in a clinch (with a fighter's id),
#: prone, a tackle's difficulty, the game master's difficulty change (``adjust``) and dice
#: (``mod``, kept with ``mod_keep``), the actions and defenses used this round, the fighters
#: one hides from (ids), the actions declared this round (``split``), the one aimed at
#: (``aim``: the target's id and the bonus), whom the fighter's latest action attacked
#: (``last_attack``: ids; any later action clears it, a pass or a defense does not) and, for a
#: player character the rules would have killed, the deadly health waiting for the game
#: master's decision (``dying``: its record; ``Draft.store_health``).
ENGINE = frozenset({
    "held_by", "clinch_with", "prone", "difficulty", "adjust", "mod", "mod_keep", "actions_used",
    "defenses_used", "hidden_from", "split", "aim", "last_attack", "dying",
})

#: Conditions whose value is another fighter's id (shown to the rules as its name).
ID_CONDITIONS = ("held_by", "clinch_with")

#: Conditions listing other fighters' ids, kept by the game and not shown to the rules.
ID_LIST_CONDITIONS = ("hidden_from", "in_sight", "last_attack")

#: Conditions that last one round: cleared when the next begins.
ROUND = ("actions_used", "defenses_used", "split")


def check_keys(keys: Iterable[str], system) -> None:
    """Raises KeyError for a condition neither the engine nor ``system`` declares."""
    unknown = set(keys) - ENGINE - set(system.condition_keys)
    if unknown:
        raise KeyError(f"Undeclared condition(s) for {system.key}: {', '.join(sorted(unknown))}")
