"""The Encounter script: one persistent script per fight, attached to its room.

Only storage lives here; the flow is in ``world.encounters``. Objects are stored directly in
Attributes (Evennia packs them as database references), everything else as plain lists and
dicts, so a reload, a restart or a killed process comes back to the same fight.
"""

from evennia.scripts.scripts import DefaultScript
from evennia.typeclasses.attributes import AttributeProperty


class Encounter(DefaultScript):
    """One fight.

    Attributes:
        system_key: the rule system's key (``rules.systems``).
        storyteller: the character running the scene (may act for NPCs), or None.
        round: the current round, from 1.
        combatants: the fighting objects (Characters and NPCs), in joining order.
        initiative: {object id: ``InitiativeRoll.to_record()``}.
        acted: ids that have used their action this round.
        pending: open defense windows, ``{"id", "attacker", "target", "attack", "round"}``.
        conditions: {object id: {"held_by": id, "prone": bool, "difficulty": int, "clinch_with": id,
            "mount": record, "hidden_from": [ids], "bleeding_since": round, "treated": bool …}}.
        log: every roll of the fight, ``{"round", "actor", "what", "lines"}``.
        next_attack_id: the number the next pending attack gets.
        shields: {protected combatant's name: a magical shield's record}.
        idle: ids of combatants marked idle (link-dead, quit, or set by the ST).
        dropped: weapons lying in the fight, ``{"weapon": key, "owner": name, "feet": n}``.
        scene: the ST's settings for the whole fight (e.g. ``{"space": yards}``), seen by the
            rules in every fighter's ``conditions``.
        declarations, sides, parties, segment, segment_actions, segment_initiative: an
            elethril fight's round (``world.elethril``): {id: declared action}, {id: side},
            {id: [party, follows the slowest]}, the next segment to play (0 = declaring),
            ``Action.to_record()`` of the actions holding this or a later round, and
            {name: ``SegmentInitiative.to_record()``} of this round.
    """

    system_key = AttributeProperty("storyteller", autocreate=False)
    storyteller = AttributeProperty(None, autocreate=False)
    round = AttributeProperty(1, autocreate=False)
    combatants = AttributeProperty(list, autocreate=False)
    initiative = AttributeProperty(dict, autocreate=False)
    acted = AttributeProperty(list, autocreate=False)
    pending = AttributeProperty(list, autocreate=False)
    conditions = AttributeProperty(dict, autocreate=False)
    log = AttributeProperty(list, autocreate=False)
    next_attack_id = AttributeProperty(1, autocreate=False)
    shields = AttributeProperty(dict, autocreate=False)
    idle = AttributeProperty(list, autocreate=False)
    dropped = AttributeProperty(list, autocreate=False)
    scene = AttributeProperty(dict, autocreate=False)
    declarations = AttributeProperty(dict, autocreate=False)
    sides = AttributeProperty(dict, autocreate=False)
    parties = AttributeProperty(dict, autocreate=False)
    segment = AttributeProperty(0, autocreate=False)
    segment_actions = AttributeProperty(list, autocreate=False)
    segment_initiative = AttributeProperty(dict, autocreate=False)

    def at_script_creation(self):
        self.key = "fray_encounter"
        self.desc = "A Fray combat encounter"
        self.persistent = True
