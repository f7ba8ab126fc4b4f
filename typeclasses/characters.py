"""Characters: the Fray sheet, health, creature kind and combat state live here as Attributes.

Everything is stored in the ``fray`` Attribute category so it shows in the Django admin and
survives reloads, restarts and a killed server (docs/architecture.md, "One command, one transaction").
"""

from evennia.objects.objects import DefaultCharacter
from evennia.typeclasses.attributes import AttributeProperty

from .objects import ObjectParent


class Character(ObjectParent, DefaultCharacter):
    """A player character.

    Attributes (category ``fray``):
        sheets: one sheet per rule system, ``{system key: {"traits": {canonical trait name:
            rating}, "kind": creature kind of that system (storyteller: Muggle, Wizard,
            Vampire, Werewolf; aeon: Baseline, Zeta; elethril: Elf, Dwarf ...), "base_kind":
            what a Werewolf soaks as when not transformed, "transformed": bool, "weapon": key
            of the weapon in hand ("" for none)}}``, each key only once set; a fight reads
            the sheet of its own system (``world.sheets``); staff set it with ``+stat``.
        health: {system key: health record}; see ``rules.systems.base.Health``.
        armor_notes: staff-approved armor notes, each ``{"id", "system", "armor", "name",
            "soak": {column: value}, "approved_by", "approved_at", "comment", "request"}``;
            only staff commands write them (``world.armor``).
        worn_armor: the id of the note worn, or None.
        pending_notices: staff answers (armor requests, revoked notes) kept while the player
            was away, shown and cleared at the next login (``world.armor.deliver_notices``).
        concealed: the weapons hidden on the character (Eldritch ``+conceal``):
            ``{"roll": EldritchRoll record, "weapons": [{"weapon": key, "duffel": bool}]}``,
            one roll for them all, used against every ``+search``.
        magic_items: elethril magical items, each ``{"id", "type", "spell", "charges"}``
            (an ``[items]`` type, a ``[spells]`` key, charges left); only staff write them
            (``+item``), a use spends a charge (``rules.systems.elethril.actions``).
        magic_item_serial: the highest item number ever given (numbers are not reused).
    """

    sheets = AttributeProperty(dict, category="fray", autocreate=False)
    health = AttributeProperty(dict, category="fray", autocreate=False)
    armor_notes = AttributeProperty(list, category="fray", autocreate=False)
    worn_armor = AttributeProperty(None, category="fray", autocreate=False)
    pending_notices = AttributeProperty(list, category="fray", autocreate=False)
    concealed = AttributeProperty(dict, category="fray", autocreate=False)
    magic_items = AttributeProperty(list, category="fray", autocreate=False)
    magic_item_serial = AttributeProperty(0, category="fray", autocreate=False)

    def access(self, accessing_obj, access_type="read", default=False, no_superuser_bypass=False, **kwargs):
        """Evennia's lock check, with one shortcut on a hot path: for every command typed in a
        room, Evennia asks each object there whether the typist may use its commands
        (``call``, superusers included). A character's ``call:false()`` lock says no; that
        answer is given without running the lock (docs/performance.md)."""
        if access_type == "call" and no_superuser_bypass and self.locks.get("call") == "call:false()":
            self.at_access(False, accessing_obj, access_type, **kwargs)
            return False
        return super().access(accessing_obj, access_type=access_type, default=default,
                              no_superuser_bypass=no_superuser_bypass, **kwargs)

    def at_post_puppet(self, **kwargs):
        """On (re)connect: no longer idle in a fight still going on, shown its HUD, and sent
        the GMCP packages (``world.gmcp``) if the client takes them."""
        super().at_post_puppet(**kwargs)
        from world.combat import reconnect_notice
        from world.text import views_for

        with views_for(next(iter(self.sessions.all()), None)):  # the HUD as sentences for a screen reader
            notice = reconnect_notice(self)
        if notice:
            self.msg(notice)
        from world.armor import deliver_notices

        deliver_notices(self)
        from world import gmcp

        gmcp.refresh(self, force=True)

    def at_post_move(self, source_location, move_type="move", **kwargs):
        """Walking out of a fight's room: still in the fight, marked idle."""
        super().at_post_move(source_location, move_type=move_type, **kwargs)
        from world.combat import left_the_room

        left_the_room(self)
        from world import gmcp

        gmcp.refresh(self)

    def at_rename(self, oldname, newname):
        """Renamed (``@name``) while in a fight: the fight knows them by the new name at once."""
        super().at_rename(oldname, newname)
        from world.fights import sync

        sync(self)

    def at_object_delete(self):
        """Destroyed (``@destroy``) while in a fight: taken out of it, the attacks by or on
        them cancelled and announced, as ``+combat/remove`` does."""
        from world.combat import left_by_deletion

        left_by_deletion(self)
        return super().at_object_delete()

    def at_post_unpuppet(self, account=None, session=None, **kwargs):
        """Quitting or going link-dead: stay in any fight, marked idle."""
        super().at_post_unpuppet(account=account, session=session, **kwargs)
        from world.combat import set_idle_on_disconnect

        set_idle_on_disconnect(self)
