"""The Encounter script: one persistent script per fight, attached to its room.

The script is the fight's handle in the game; the fight itself is a ``world.models.Fight``
row (one JSON state, an append-only roll log), loaded once per command and saved once by
``world.fights``. The flow is in ``world.encounters``.
"""

from evennia.scripts.scripts import DefaultScript

from world import fights


def _field(name: str, doc: str) -> property:
    def get(self):
        return fights.load(self).get(name)

    def set(self, value):
        fights.set_field(self, name, value)

    return property(get, set, doc=doc)


class Encounter(DefaultScript):
    """One fight. Its fields live in the fight's state (``world.fights``):

    system_key: the rule system's key (``rules.systems``).
    storyteller: the character running the scene (may act for NPCs), or None.
    round: the current round, from 1.
    combatants: the fighting objects (Characters and NPCs), in joining order.
    initiative: {object id: ``InitiativeRoll.to_record()``}.
    acted: [slot, object id] of the actions used this round.
    pending: open defense windows, ``{"id", "attacker", "target", "attack", "round"}``.
    conditions: {object id: {"held_by": id, "prone": bool, "difficulty": int, "clinch_with": id,
        "mount": record, "hidden_from": [ids], "bleeding_since": round, "treated": bool …}}.
    next_attack_id: the number the next pending attack gets.
    shields: {protected combatant's name: a magical shield's record}.
    idle: ids of combatants marked idle (link-dead, quit, or set by the ST).
    dropped: weapons lying in the fight, ``{"weapon": key, "owner": name, "feet": n}``.
    scene: the ST's settings for the whole fight (e.g. ``{"space": yards}``), seen by the
        rules in every fighter's ``conditions``.
    declarations, sides, parties, segment, segment_actions, segment_initiative: an elethril
        fight's round (``world.elethril``): {id: declared action}, {id: side}, {id: [party,
        follows the slowest]}, the next segment to play (0 = declaring),
        ``Action.to_record()`` of the actions holding this or a later round, and
        {name: ``SegmentInitiative.to_record()``} of this round.
    turn_moved: ``[turn, time]``: the turn (round, slot, who) and when the fight last moved on
        to it (a ``+combat/next`` sent before then is refused, not applied to the next turn).
    order: the Storyteller's acting order for one round (``+combat/order``), as
        ``{"round": n, "slots": [[[at, name], ...], ...]}`` (``rules.systems.acting_order``).
    log: the roll log as a list of ``{"round", "actor", "what", "lines"}`` (read only; the
        game reads it a page at a time through ``world.fights``).
    """

    @property
    def log(self) -> list[dict]:
        return [{key: entry[key] for key in ("round", "actor", "what", "lines")}
                for entry in fights.log_entries(self)]

    def fight_dice(self):
        """The fight's seeded dice (``world.fights.fight_dice``; None: a fight begun before
        verifiable dice): ``world.dice.roller(encounter)`` draws from them."""
        return fights.fight_dice(self)

    def at_script_creation(self):
        self.key = "fray_encounter"
        self.desc = "A Fray combat encounter"
        self.persistent = True

    def delete(self):
        if self.id is not None:
            fights.end(self)
        return super().delete()


for _name in fights.FIELDS:
    setattr(Encounter, _name, _field(_name, f"The fight's {_name} (world.fights)."))
