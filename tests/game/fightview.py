"""The fight as the game tests look at it: a :class:`Fight` handle whose fields read the
fight's state as it is now (objects for ids, as the tests compare them), and the questions
the tests ask of it (whose turn, what is pending), answered by the engine's own functions.

Tests change a fight only through commands, except where they set a condition to arrange a
case (:func:`update_conditions`), which writes the state as a step would."""

from __future__ import annotations

from dataclasses import replace

from rules.engine import Intent, turns
from rules.engine.attacks import shields
from world import combat, fights
from world.models import Fight as Row


class Fight:
    """One fight (its row), read live."""

    def __init__(self, row: Row):
        self.row = row

    def __eq__(self, other):
        return isinstance(other, Fight) and other.row.pk == self.row.pk

    def __hash__(self):
        return hash(self.row.pk)

    @property
    def id(self) -> int:
        return self.row.pk

    @property
    def state(self):
        return fights.state(self.row)

    @property
    def d(self):
        return fights.reading(self.row)

    @property
    def round(self):
        return self.state.round

    @round.setter
    def round(self, number: int) -> None:
        """Arrange a case: the fight in round ``number``, saved as a step would."""
        self.put(replace(self.state, round=number))

    acted = property(lambda self: [list(pair) for pair in self.state.acted])
    conditions = property(lambda self: {fighter.id: dict(fighter.conditions) for fighter in self.state.fighters
                                        if fighter.conditions})
    pending = property(lambda self: pending_attacks(self))
    @property
    def storyteller(self):
        return fights.obj(self.state.gm)

    @storyteller.setter
    def storyteller(self, character) -> None:
        """Arrange a case: the fight handed to ``character``, saved as a step would."""
        self.put(replace(self.state, gm=character.id if character is not None else None))

    def put(self, state) -> None:
        self.row.state = state.to_record()
        self.row.save(update_fields=["state"])
        self.row.fray_state = state
    scene = property(lambda self: dict(self.state.scene))
    ai = property(lambda self: list(self.state.ai))
    idle = property(lambda self: list(self.state.idle))
    initiative = property(lambda self: {key: dict(value) for key, value in self.state.initiative.items()})
    order = property(lambda self: self.state.order)
    @property
    def dropped(self):
        return [dict(item) for item in self.state.dropped]

    @dropped.setter
    def dropped(self, items) -> None:
        """Arrange a case: weapons lying about, saved as a step would."""
        self.put(replace(self.state, dropped=tuple(dict(item) for item in items)))

    pk = property(lambda self: self.row.pk)   # fights.log_entries / log_count take the handle too
    log_count = property(lambda self: self.row.log_count)
    seq = property(lambda self: self.row.seq)
    system_key = property(lambda self: self.state.system)
    combatants = property(lambda self: fighters(self))
    log = property(lambda self: [{key: entry[key] for key in ("round", "actor", "what", "lines")}
                                 for entry in fights.log_entries(self.row)])
    obj = property(lambda self: fights.obj(self.row.room_id))

    def extra(self, name, default=None):
        return self.state.extra.get(name, default)

    def by_id(self, name):
        """A field kept by fighter id (the state keeps JSON's string keys)."""
        return {int(key): value for key, value in self.extra(name, {}).items()}

    declarations = property(lambda self: self.by_id("declarations"))
    sides = property(lambda self: self.by_id("sides"))
    parties = property(lambda self: self.by_id("parties"))
    segment = property(lambda self: self.extra("segment", 0))
    segment_actions = property(lambda self: self.extra("segment_actions", []))
    segment_initiative = property(lambda self: self.extra("segment_initiative", {}))

    def forget(self) -> None:
        """Read the fight anew from its row, as after a reload."""
        fights._forget(self.row)
        self.row = Row.objects.get(pk=self.row.pk)
        fights.running()
        fights._running[self.row.pk] = self.row

    def fight_dice(self):
        return fights.fight_dice(self.row)

    def delete(self) -> None:
        """End the fight (as ``+combat/end`` does, without its game master)."""
        fights.perform(self.row, Intent("end", fiat=True))


def encounter_in(room) -> Fight | None:
    row = fights.running_in(room)
    return Fight(row) if row is not None else None


def fight_of(obj) -> Fight | None:
    row = fights.fight_of(obj)
    return Fight(row) if row is not None else None


def fighters(fight: Fight) -> list:
    return combat.fighters(fight.row)


def find_combatant(fight: Fight, name: str):
    return combat.find_combatant(fight.row, name)


def pending_attacks(fight: Fight) -> list[dict]:
    return [{"id": pending.id, "attacker": fights.obj(pending.attacker), "target": fights.obj(pending.target),
             "attack": dict(pending.attack), "round": pending.round} for pending in fight.state.pending]


def current_slot(fight: Fight) -> tuple:
    at, waiting = turns.current_slot(fight.d)
    return at, [fights.obj(fighter_id) for fighter_id in waiting]


def schedule(fight: Fight):
    return turns.schedule(fight.d)


def open_actions(fight: Fight, obj) -> list[int]:
    return turns.open_actions(fight.d, obj.id)


def has_acted(fight: Fight, obj) -> bool:
    return turns.has_acted(fight.d, obj.id)


def has_initiative(fight: Fight, obj) -> bool:
    return obj.id in fight.state.initiative


def conditions_of(fight: Fight, obj) -> dict:
    return fight.d.conditions_of(obj.id)


def is_idle(fight: Fight, obj) -> bool:
    return obj.id in fight.state.idle


def health_of(fight: Fight, obj, system=None):
    return fight.d.health(obj.id)


def system_of(fight: Fight):
    return fights.system_of(fight.row)


def now_text(fight: Fight) -> str:
    return combat.now_text(fight.row)


def dropped_weapons(fight: Fight) -> list[dict]:
    return fight.dropped


def shields_in(fight: Fight) -> dict:
    return shields(fight.d)


def update_conditions(fight: Fight, obj, **changes) -> None:
    """Arrange a case: set (None clears) some of ``obj``'s conditions, saved as a step would."""
    state = fight.state
    fighter = state.fighter(obj.id)
    merged = {key: value for key, value in {**fighter.conditions, **changes}.items() if value}
    new = replace(state, fighters=tuple(replace(item, conditions=merged) if item.id == obj.id else item
                                        for item in state.fighters))
    fight.put(new)


reconnect_notice = combat.reconnect_notice
left_by_deletion = combat.left_by_deletion
attack = combat.attack


def start(caller, system_key=None, **kw) -> Fight:
    return Fight(combat.start(caller, system_key, **kw))


def npc_init(caller, name, numbers=None):
    return combat.npc_init(caller, name, numbers)


def add_combatant(fight: Fight, obj) -> None:
    fights.perform(fight.row, Intent("join", actor=obj.id, data={
        "fighter": fights.fighter_record(obj, system_of(fight))}))
