"""Text helpers the rules and the game share: player text made printable and quoted short."""

from __future__ import annotations

MAX_QUOTED = 60


def _coded(ch: str) -> str:
    return f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}"


def printable(text: str) -> str:
    """``text`` with every non-printable or non-ASCII character written as ``\\uXXXX`` (beyond
    U+FFFF: ``\\UXXXXXXXX``)."""
    return "".join(ch if " " <= ch <= "~" else _coded(ch) for ch in str(text))


def visible(text: str) -> str:
    """``text`` with only its non-printable characters (controls, line and paragraph
    separators) written as :func:`printable` does; letters of every script kept as they are
    (a player's own words shown back, e.g. a scene log)."""
    return "".join(ch if ch.isprintable() else _coded(ch) for ch in str(text))


def quote(text: str) -> str:
    """Player text for an error line: printable and shortened past 60 characters (the game
    escapes the whole error line when it sends it)."""
    text = printable(text)
    if len(text) > MAX_QUOTED:
        text = text[: MAX_QUOTED - 3] + "..."
    return text
