"""Making player-supplied text safe to echo, and Fray's message prefixes.

Evennia interprets ``|`` colour codes (``|r``, ``|/`` line breaks …) in everything sent to a
session, and ``msg_contents`` also runs ``$func()`` calls and ``{key}`` substitution. Player
text is escaped for the sink it goes to; non-printable characters are shown as ``\\uXXXX``.
"""

from __future__ import annotations

COMBAT = "|y<Combat>|n"
ROLL = "|c<Roll>|n"
FRAY = "|r<Fray>|n"
MAX_QUOTED = 60


def printable(text: str) -> str:
    """``text`` with every non-printable or non-ASCII character written as ``\\uXXXX``."""
    return "".join(ch if " " <= ch <= "~" else f"\\u{ord(ch):04x}" for ch in str(text))


def escape(text: str) -> str:
    """Player text made literal for ``obj.msg``: printable, with ``|`` doubled."""
    return printable(text).replace("|", "||")


def quote(text: str) -> str:
    """Player text for an error line: printable and shortened past 60 characters (the command
    layer escapes the whole error line with :func:`escape` when it sends it)."""
    text = printable(text)
    if len(text) > MAX_QUOTED:
        text = text[: MAX_QUOTED - 3] + "..."
    return text


def escape_for_room(text: str) -> str:
    """Text made literal for ``msg_contents`` (colour codes, ``$func()`` and ``{key}``)."""
    return (escape(text).replace("\\", "\\\\").replace("$", "$$")
            .replace("{", "{{").replace("}", "}}"))
