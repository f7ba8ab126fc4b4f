"""Who may do what: permission checks through Evennia's lock system.

A puppeted character is checked against its account's permissions (and the superuser passes),
exactly as a ``perm()`` lock does. ``Narrator`` sits between Player and Helper (settings).
"""

from __future__ import annotations

from evennia.locks.lockhandler import check_perm

from rules.systems import CombatError

NARRATOR = "Narrator"
STAFF = "Builder"


def has_perm(caller, permission: str) -> bool:
    """Whether ``caller`` holds ``permission`` or a higher one (superuser always): the
    ``perm()`` lock's own check, without parsing a lockstring on every command."""
    return bool(check_perm(caller, permission))


def require_perm(caller, permission: str, doing: str) -> None:
    """Raises CombatError naming the permission ``doing`` needs."""
    if not has_perm(caller, permission):
        who = "staff (Builder or above)" if permission == STAFF else f"a {permission} or staff"
        raise CombatError(f"Only {who} can {doing}.")
