"""
Room

Rooms are simple containers that has no location of their own.

"""

from evennia.objects.objects import DefaultRoom

from world import poses, scenes
from world.text import named, without_controls

from .objects import ObjectParent


class Room(ObjectParent, DefaultRoom):
    """
    Rooms are like any Object, except their location is None
    (which is default). They also use basetype_setup() to
    add locks so they cannot be puppeted or picked up.
    (to change that, use at_object_creation instead)

    See mygame/typeclasses/objects.py for a list of
    properties and methods available on all Objects.
    """

    def msg_contents(self, text=None, exclude=None, from_obj=None, mapping=None, raise_funcparse_errors=False,
                     **kwargs):
        """Evennia's delivery to everyone here (the names in ``$You()`` and ``{key}`` shown as
        typed: ``world.text.named``), then the scene log (``world.scenes``): a say,
        pose or emit is recorded once when a scene runs here (one cached check otherwise),
        and noted as its maker's latest pose (``world.poses``)."""
        mapping = dict(mapping) if mapping else {}
        typed = text   # the scene log strips the controls itself
        if scenes.kind_of(text) is not None:   # a pose or emit: no control bytes (a say's: at_say)
            if isinstance(text, (tuple, list)):
                text = (without_controls(text[0], parsed=True), *text[1:]) if text and isinstance(text[0], str) else text
            elif isinstance(text, str):
                text = without_controls(text, parsed=True)
        actor, names = named(from_obj, mapping)   # every name shown as typed
        super().msg_contents(text=text, exclude=exclude, from_obj=actor, mapping=names,
                             raise_funcparse_errors=raise_funcparse_errors, **kwargs)
        scenes.heard(self, typed, from_obj, mapping)
        poses.heard(self, text, from_obj)

    def at_object_delete(self):
        """Destroyed: a scene running here stops; its log stays (``world.scenes``)."""
        scenes.room_deleted(self)
        return super().at_object_delete()
