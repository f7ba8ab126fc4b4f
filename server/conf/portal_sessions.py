"""Fray's Portal session handler: every typed line carries when the Portal received it.

The Server runs commands one at a time; two staff sending ``+combat/next`` in the same
instant reach it one after the other, and the second would pass the next fighter's turn too.
The Portal's receive time (``received``, epoch seconds, set on the command by Evennia's
cmdhandler) tells the fight that a command was sent before the turn it meant had already
moved on (``world.combat.next_turn``). Set as ``PORTAL_SESSION_HANDLER_CLASS``.
"""

import time

from django.conf import settings
from evennia.server.portal.portalsessionhandler import PortalSessionHandler

_MAX_CHAR_LIMIT = settings.MAX_CHAR_LIMIT


class FrayPortalSessionHandler(PortalSessionHandler):
    def data_in(self, session, **kwargs):
        text = kwargs.get("text")
        if isinstance(text, (str, bytes)) and not (_MAX_CHAR_LIMIT > 0 and len(text) > _MAX_CHAR_LIMIT):
            kwargs["text"] = [[text], {"received": time.time()}]
        elif isinstance(text, (list, tuple)) and len(text) == 2 and isinstance(text[1], dict):
            kwargs["text"] = [text[0], {**text[1], "received": time.time()}]
        super().data_in(session, **kwargs)
