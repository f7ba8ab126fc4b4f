"""Fray's Server-side session (``SERVER_SESSION_CLASS``): text for a session with the
screen-reader flag (``option screenreader=True``) is made plain before it leaves.

Fray's views are built as sentences for such a session (``world.text.views_for``); this catches
what every viewer shares, the room's narration: a health track's box art in words, arrows as
"gives" (``world.text.speak``). Evennia's Portal then drops the ``~~~`` rules as it always does
for a screen reader.

What a command sends its typist leaves for the Portal at once (``world.text.answering``), not
when the Server's reactor next writes, after the copies for everyone else in the room.

A connection whose GMCP (or MSDP) answer reaches the Server only after its login gets its
character's GMCP packages then (``load_sync_data``).
"""

from evennia.server.serversession import ServerSession as BaseServerSession

from server.conf.amp import send_now
from world.text import answered, reads_aloud, speak


class ServerSession(BaseServerSession):
    """A player's connection, as the Server sees it."""

    def data_out(self, **kwargs):
        text = kwargs.get("text")
        if text and reads_aloud(self):
            if isinstance(text, str):
                kwargs["text"] = speak(text)
            elif isinstance(text, (tuple, list)) and text and isinstance(text[0], str):
                kwargs["text"] = (speak(text[0]), *text[1:])
        super().data_out(**kwargs)
        if answered() is self:
            send_now()

    def at_disconnect(self, reason=None):
        """Closed: a web tracker page it was stops following its fight (``world.live``)."""
        from world import live

        live.forget(self)
        super().at_disconnect(reason)

    def load_sync_data(self, sessdata):
        """The Portal's news of this connection. A telnet client's GMCP (or MSDP) answer reaches
        the Server when the Portal syncs, once every negotiation has answered or after Evennia's
        2 seconds; a client that logs in sooner (TinTin++ typing the login at once) was logged
        in without out-of-band data, so its character's packages (``world.gmcp``), sent on login,
        are sent now."""
        had_oob = bool((getattr(self, "protocol_flags", None) or {}).get("OOB"))
        super().load_sync_data(sessdata)
        puppet = getattr(self, "puppet", None)
        if not had_oob and self.protocol_flags.get("OOB") and puppet is not None:
            from world import gmcp

            gmcp.refresh(puppet, force=True)
