"""Making player-supplied text safe to echo, and Fray's message prefixes.

Evennia interprets ``|`` colour codes (``|r``, ``|/`` line breaks …) in everything sent to a
session, and ``msg_contents`` also runs ``$func()`` calls and ``{key}`` substitution. Player
text is escaped for the sink it goes to; non-printable characters are shown as ``\\uXXXX``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

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


def wrap_words(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters, broken at spaces as EvTable breaks
    them (a word's following space counts against its line), over-long words cut."""
    words = text.split()
    lines, line = [], ""
    for number, word in enumerate(words):
        piece = word + (" " if number < len(words) - 1 else "")
        if line and len(line) + len(piece) > width:
            lines.append(line.rstrip())
            line = ""
        while len(piece.rstrip()) > width:
            lines.append(piece[:width])
            piece = piece[width:]
        line += piece
    lines.append(line.rstrip())
    return lines


def fit(text: str, width: int = 78, indent: int = 2) -> str:
    """Plain ``text`` escaped in lines of at most ``width`` columns, broken at the last space
    that fits (inner spacing kept), the continuation lines indented by ``indent`` (a HUD's
    header line with long names)."""
    text = printable(text)
    lines = []
    while len(text) > width:
        cut = text.rfind(" ", indent + 1, width + 1)
        cut = cut if cut > 0 else width
        lines.append(text[:cut].rstrip())
        text = " " * indent + text[cut:].strip()
    lines.append(text)
    return "\n".join(line.replace("|", "||") for line in lines)


def columns(headers: Sequence[str] | None, widths: Sequence[int], rows: Iterable[Sequence[str]], *,
            width: int = 78, highlight: Mapping[str, str] | None = None) -> str:
    """A table of fixed-width columns under a ``~`` rule, for the views typed every few
    seconds (the HUD): plain cells in, escaped text out (measured as shown, ``\\uXXXX`` and
    all), each cell wrapped at word breaks inside its column as EvTable wrapped it, with one
    space either side, rows top-aligned; the last column takes what ``widths`` leave of
    ``width`` (78); no ``headers``: no header and no rule. ``highlight`` colours a phrase kept
    whole on one line (``{"TO ACT": "|g"}``). Costs microseconds a row, where EvTable costs
    milliseconds."""
    widths = [*widths, width - sum(widths)]
    highlight = highlight or {}

    def row_lines(cells: Sequence[str]) -> list[str]:
        wrapped = [wrap_words(printable(cell), size - 2) for cell, size in zip(cells, widths)]
        lines = []
        for index in range(max(len(cell) for cell in wrapped)):
            parts = []
            for cell, size in zip(wrapped, widths):
                text = cell[index] if index < len(cell) else ""
                shown = text.replace("|", "||")  # printable already: a \uXXXX counts as shown
                for phrase, colour in highlight.items():
                    shown = shown.replace(phrase, f"{colour}{phrase}|n")
                parts.append(" " + shown + " " * (size - 1 - len(text)))
            lines.append("".join(parts))
        return lines

    out = [*row_lines(headers), "~" * width] if headers else []
    for row in rows:
        out.extend(row_lines(row))
    return "\n".join(out)
