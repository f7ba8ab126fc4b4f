"""The engine's contract in the game: for every rule system (and ``duel``, the fifth system
that lives only in ``tests/fifth``), a whole fight of two characters played through
``world.fights.perform``, the path every command takes, with the fight's own seeded dice, to
a knock-out. The fight's row holds the same state when read afresh, and ``+combat/verify``
replays every logged intent to that state."""

from __future__ import annotations

from evennia.utils.test_resources import EvenniaTest

from rules.engine import FightState, Intent, view
from rules.systems import CombatError, get_system
from tests import fifth
from tests.rules.test_engine_contract import SHEETS, next_intent
from world import fights, verify
from world.models import Fight as Row
from world.sheets import update_sheet

MAX_STEPS = 300


class ContractTest(EvenniaTest):
    def setUp(self):
        super().setUp()
        self.enterContext(fifth.known())

    def fight_to_a_knock_out(self, key: str):
        """char1 (who runs it) and char2 fight a ``key`` fight out; returns the row and the
        number of intents played after the joins."""
        system = get_system(key)
        for character in (self.char1, self.char2):
            update_sheet(character, system, traits=SHEETS[key])
        row = fights.start(self.room1, system, self.char1)
        for character in (self.char1, self.char2):
            fights.perform(row, Intent("join", actor=character.id,
                                       data={"fighter": fights.fighter_record(character, system)}))
        for played in range(MAX_STEPS):
            d = view(fights.state(row), system)
            if any(d.health(fighter_id).incapacitated for fighter_id in d.ids()):
                return row, played
            intent = next_intent(system, fights.state(row), self.char1.id, self.char2.id)
            try:
                fights.perform(row, intent)
            except CombatError:   # a defense the rules refuse here: none
                fights.perform(row, Intent("defend", actor=intent.actor, option="none"))
        self.fail(f"nobody down after {MAX_STEPS} intents")

    def check(self, key: str) -> None:
        row, played = self.fight_to_a_knock_out(key)
        state = fights.state(row)
        self.assertGreater(played, 4)
        self.assertGreater(state.round, 1)   # rounds ended and began
        fights._forget(row)
        stored = Row.objects.get(pk=row.pk)
        self.assertEqual(FightState.from_record(stored.state), state)
        self.assertEqual(verify.replayed(stored)[1], "    (health, conditions, order, round).")
        self.assertRegex(verify.replayed(stored)[0], r"^  Replayed \d+ intents: the fight's state is as stored$")


for _key in sorted(SHEETS):
    setattr(ContractTest, f"test_a_{_key}_fight_goes_to_a_knock_out_through_perform_and_replays",
            lambda self, key=_key: self.check(key))
