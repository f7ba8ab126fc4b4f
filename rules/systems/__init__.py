"""The registry of rule systems, by key (``DESIGN.md``: storyteller, eldritch, aeon, elethril)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from rules.systems.base import CombatError, RuleSystem
from rules.systems.storyteller import StorytellerSystem

#: key -> factory. Systems not built yet are absent; ``get_system`` names the ones there are.
REGISTRY: dict[str, Callable[[], RuleSystem]] = {
    StorytellerSystem.key: StorytellerSystem,
}


def system_keys() -> tuple[str, ...]:
    return tuple(REGISTRY)


@cache
def get_system(key: str) -> RuleSystem:
    """The rule system registered as ``key`` (case-insensitive), loaded once.

    Raises:
        CombatError: no such system.
    """
    factory = REGISTRY.get(key.strip().casefold())
    if factory is None:
        raise CombatError(f"No rule system '{key}'. Available: {', '.join(system_keys())}.")
    return factory()


__all__ = ["CombatError", "RuleSystem", "get_system", "system_keys"]
