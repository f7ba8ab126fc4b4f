"""Running a service call from a web view: in the Server's reactor thread, in one unit.

Django views run in the web server's thread pool, but a fight's state in memory and the
sessions players are told through belong to the reactor thread (``world.fights``: its only
writer). :func:`call` hands the call to the reactor and waits for its result, so a button on
the web tracker or an action in the admin changes the game exactly as the matching command
would: one ``fights.unit()`` transaction, then the events.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from twisted.internet import reactor, threads
from twisted.python.threadable import isInIOThread

from world import fights

T = TypeVar("T")

_soon: set[Callable[[], None]] = set()


def _in_unit(label: str, fn: Callable[..., T], args, kwargs) -> T:
    with fights.unit(label):
        return fn(*args, **kwargs)


def call(label: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` inside ``fights.unit(label)``, run in the reactor thread; its
    result, or the exception it raised (``CombatError`` included), in the caller's thread. In
    the reactor thread itself, or with no reactor running (the game-tier tests), it runs at
    once."""
    if reactor.running and not isInIOThread():
        return threads.blockingCallFromThread(reactor, _in_unit, label, fn, args, kwargs)
    return _in_unit(label, fn, args, kwargs)


def soon(fn: Callable[[], None]) -> None:
    """``fn()`` once on the reactor's next tick, however often it is asked for before then:
    for a fight-stream subscriber that gathers a command's events and handles them together
    (GMCP, the web tracker's narration). With no reactor running (the game-tier tests) it runs
    at once. Reactor thread."""
    if not reactor.running:
        fn()
        return
    if fn in _soon:
        return
    _soon.add(fn)

    def run() -> None:
        _soon.discard(fn)
        fn()

    reactor.callLater(0, run)
