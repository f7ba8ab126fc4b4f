"""The fight engine: ``step(state, intent, system, dice) -> Outcome``, pure.

A fight is a frozen :class:`FightState`. Everything that changes it is an :class:`Intent`
(attack, defend, next …), played by the fight's rule system's action of that key
(``RuleSystem.actions``; the shared ones are ``rules.engine.actions.STANDARD``) on a draft of
the state, with dice injected. What comes out is the new state, the events (data, never
sentences: the game renders them) and the roll-log entries. A refused intent raises
``CombatError`` and changes nothing. No Evennia, no Django: the game
(``world.fights.perform``) loads, steps, saves in one transaction and publishes after the commit.
"""

from __future__ import annotations

from rules.dice import Roller
from rules.engine.draft import Draft
from rules.engine.events import Event, Line, LogEntry, Outcome
from rules.engine.intents import Intent
from rules.engine.state import Fighter, FightState, Pending
from rules.lines import Refusal
from rules.systems.base import CombatError, RuleSystem


def step(state: FightState, intent: Intent, system: RuleSystem, dice: Roller) -> Outcome:
    """Play ``intent`` on ``state`` under ``system`` with ``dice``. Returns the
    :class:`Outcome`; its ``result`` is what the action returned (an initiative roll, the
    names added …). Raises CombatError (nothing changes) when the rules refuse it, or for an
    action the system does not have; DiceSyntaxError for dice text it cannot read (``+roll``).
    A refusal's ``system`` is the fight's, so it is worded in that system's own words."""
    action = system.actions.get(intent.action)
    if action is None:
        raise CombatError(Line("refusal.rules_have_no", {"system": system.key, "action": intent.action}))
    if state.ended:
        raise CombatError(Line("refusal.that_fight_over"))
    d = Draft(state, system, dice, intent)
    try:
        result = action.perform(d, intent)
    except Refusal as refused:   # worded with the fight's system's own words where it has them
        refused.system = refused.system or system.key
        raise
    d.tell_fates()
    return Outcome(state=d.freeze(), events=tuple(d.events), log=tuple(d.log), dice=tuple(d.dice.drawn),
                   result=result)


def view(state: FightState, system: RuleSystem) -> Draft:
    """A draft of ``state`` for reading (the HUD, whose turn it is): no dice may be drawn."""
    return Draft(state, system, NO_DICE)


class _NoDice:
    def roll(self, sides: int) -> int:
        raise RuntimeError("A view of a fight draws no dice.")


NO_DICE = _NoDice()

__all__ = ["CombatError", "Draft", "Event", "Line", "FightState", "Fighter", "Intent", "LogEntry", "Outcome", "Pending",
           "step", "view"]
