"""Fray's Server-side session (``SERVER_SESSION_CLASS``): text for a session with the
screen-reader flag (``option screenreader=True``) is made plain before it leaves.

Fray's views are built as sentences for such a session (``world.text.views_for``); this catches
what every viewer shares, the room's narration: a health track's box art in words, arrows as
"gives" (``world.text.speak``). Evennia's Portal then drops the ``~~~`` rules as it always does
for a screen reader.
"""

from evennia.server.serversession import ServerSession as BaseServerSession

from world.text import reads_aloud, speak


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
