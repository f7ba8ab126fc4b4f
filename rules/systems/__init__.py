"""The registry of rule systems, by key (``docs/architecture.md``: storyteller, eldritch, aeon, elethril)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from rules.systems.aeon import AeonSystem
from rules.systems.base import CombatError, RuleSystem
from rules.systems.eldritch import EldritchSystem
from rules.systems.elethril import ElethrilSystem
from rules.systems.storyteller import StorytellerSystem

#: key -> factory. Systems not built yet are absent; ``get_system`` names the ones there are.
REGISTRY: dict[str, Callable[[], RuleSystem]] = {
    StorytellerSystem.key: StorytellerSystem,
    AeonSystem.key: AeonSystem,
    EldritchSystem.key: EldritchSystem,
    ElethrilSystem.key: ElethrilSystem,
}


def system_keys() -> tuple[str, ...]:
    return tuple(REGISTRY)


def get_system(key: str) -> RuleSystem:
    """The rule system registered as ``key`` (case-insensitive), loaded once.

    Raises:
        CombatError: no such system.
    """
    typed = str(key or "").strip()  # a stored key may be anything
    wanted = typed.casefold()
    if wanted not in REGISTRY:
        raise CombatError(f"No rule system '{typed[:30]}'. Available: {', '.join(system_keys())}.")
    return _load(wanted)


@cache
def _load(key: str) -> RuleSystem:
    return REGISTRY[key]()


__all__ = ["CombatError", "RuleSystem", "get_system", "system_keys"]
