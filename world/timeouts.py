"""Defenses that are not answered in time: in a fight whose game master set
``+combat/timeout <seconds>``, an attack left waiting for its target's defense that long
resolves with no defense (the ``lapse`` action, as the game master), told to the room.

The Server keeps the time: :func:`watch` (after every command's unit, and once the Server
runs) starts one timer per waiting attack and stops those no longer needed. The state keeps
no clock, so after a restart each waiting attack's wait begins anew: later, never lost.
"""

from __future__ import annotations

from evennia.utils import logger
from twisted.internet import reactor

from rules.engine import Intent
from rules.systems import CombatError
from world import fights

_timers: dict[tuple[int, int], object] = {}   # (fight id, attack id) -> the reactor's delayed call


def due() -> dict[tuple[int, int], int]:
    """``{(fight id, attack id): seconds}``: every attack waiting in a running fight with a
    timeout."""
    waiting = {}
    for row in fights.running():
        state = fights.state(row)
        seconds = int(state.settings.get("timeout") or 0)
        for pending in state.pending if seconds else ():
            waiting[(row.pk, pending.id)] = seconds
    return waiting


def watch() -> None:
    """Start a timer for each waiting attack (:func:`due`) that has none; cancel those whose
    attack was answered. Needs the reactor running (the game-tier tests call :func:`lapse`)."""
    if not reactor.running:
        return
    waiting = due()
    for key, seconds in waiting.items():
        if key not in _timers:
            _timers[key] = reactor.callLater(seconds, lapse, *key)
    for key in set(_timers) - set(waiting):
        timer = _timers.pop(key)
        if timer.active():
            timer.cancel()


def lapse(fight_id: int, attack_id: int) -> None:
    """The wait for attack ``attack_id`` in fight ``fight_id`` is over: if it still waits, it
    resolves with no defense, in a unit of its own."""
    _timers.pop((fight_id, attack_id), None)
    row = next((row for row in fights.running() if row.pk == fight_id), None)
    if row is None or (fight_id, attack_id) not in due():
        return
    try:
        with fights.unit("lapse"):
            fights.perform(row, Intent("lapse", by=fights.state(row).gm, fiat=True, data={"attack": attack_id}))
    except CombatError as refused:   # answered in the same instant
        logger.log_info(f"Fray: fight #{fight_id}: attack {attack_id} did not lapse: {refused}")
