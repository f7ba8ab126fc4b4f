"""``duel``: a minimal fifth rule system that lives only in the tests, to show that a system
needs no file outside its own package: it is registered at run time
(``rules.systems.register``) and plays through the engine's shared actions. :func:`known`
registers it for the tests that play it, and only while they run (the other tests see the
game's four systems)."""

from collections.abc import Iterator
from contextlib import contextmanager

from rules.systems import register, unregister


@contextmanager
def known() -> Iterator[None]:
    """``duel`` is a registered system inside the block."""
    register("duel", "tests.fifth.system:DuelSystem")
    try:
        yield
    finally:
        unregister("duel")
