"""The registry of rule systems, by key (``docs/architecture.md``): each a package
``rules/systems/<key>/`` whose system class carries its actions; imported when first asked for."""

from __future__ import annotations

from functools import cache
from importlib import import_module

from rules.lines import Line
from rules.systems.base import CombatError, RuleSystem

#: key -> "module:class" of the system.
REGISTRY: dict[str, str] = {
    "storyteller": "rules.systems.storyteller.system:StorytellerSystem",
    "aeon": "rules.systems.aeon.system:AeonSystem",
    "eldritch": "rules.systems.eldritch.system:EldritchSystem",
    "elethril": "rules.systems.elethril.system:ElethrilSystem",
}


def register(key: str, where: str) -> None:
    """Make the system at ``where`` (``"module:class"``) known as ``key``: a game's own system
    (or a test's) needs no file of Fray's changed."""
    REGISTRY[key.casefold()] = where
    _load.cache_clear()


def unregister(key: str) -> None:
    """Forget the system registered as ``key`` (a test's, once it is done)."""
    REGISTRY.pop(key.casefold(), None)
    _load.cache_clear()


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
        raise CombatError(Line("refusal.no_rule_system_available", {"typed": typed[:30], "systems": ', '.join(system_keys())}))
    return _load(wanted)


@cache
def _load(key: str) -> RuleSystem:
    module, _, name = REGISTRY[key].partition(":")
    return getattr(import_module(module), name)()


__all__ = ["CombatError", "RuleSystem", "get_system", "register", "system_keys", "unregister"]
