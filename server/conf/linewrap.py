"""
Width for telnet output: wrap text that is already ANSI-rendered (escape sequences, not
Evennia's ``|r`` markup) so that no line is wider than a number of columns.

* A line that fits is left alone, byte for byte. The test for that is cheap: for ASCII
  text without tabs the raw length bounds the visible width (escapes only add
  characters), so a short line costs one ``isascii()`` and one ``len()``; no
  ``ANSIString`` is ever built.
* A longer line is broken at spaces (a word longer than the line is cut); the
  continuation lines start with the line's own indentation plus ``indent`` spaces.
* Escape sequences take no width and are never cut; with MXP on, MXP tags
  (``ESC[4z<SEND ...>``) take none either and entities (``&lt;``) take one.
* East Asian wide characters take two columns, combining marks and control
  characters none.

Pure Python, no Evennia import: ``server/conf/telnet.py`` calls :func:`wrap_text`.
"""

from __future__ import annotations

import re
import unicodedata

#: CSI sequences (colours, MXP mode switches ``ESC[1z``) and two-character escapes
_ESCAPE = r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-Z\\-_]"
_ESCAPE_RE = re.compile(_ESCAPE)
#: with MXP: a secure-mode switch followed by a tag is one zero-width unit; entities are one
#: column
_MXP_RE = re.compile(r"\x1b\[\d*z<[^<>]*>|" + _ESCAPE + r"|&(?:lt|gt|amp|quot|#\d+);")

MIN_WIDTH = 20


def char_width(ch: str) -> int:
    """Columns a character takes on a terminal."""
    if ch.isascii():
        return 1 if " " <= ch < "\x7f" else 0
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Cc", "Cf", "Mn", "Me"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def visible_width(line: str, mxp: bool = False) -> int:
    """Columns ``line`` (one line, ANSI-rendered) takes on a terminal."""
    units = _units(line, mxp)
    return sum(w for _, w in units)


def _units(line: str, mxp: bool) -> list[tuple[str, int]]:
    """``line`` as (text, columns) units: one per character, one per escape or MXP tag."""
    regex = _MXP_RE if mxp else _ESCAPE_RE
    units: list[tuple[str, int]] = []
    pos = 0
    for m in regex.finditer(line):
        if m.start() > pos:
            _add_chars(units, line[pos : m.start()])
        token = m.group()
        units.append((token, 1 if token.startswith("&") else 0))
        pos = m.end()
    if pos < len(line):
        _add_chars(units, line[pos:])
    return units


def _add_chars(units: list, text: str):
    if text.isascii() and text.isprintable():
        units.extend([(ch, 1) for ch in text])
    else:
        units.extend([(ch, 8 if ch == "\t" else char_width(ch)) for ch in text])


def _plain_width(line: str, mxp: bool) -> int:
    """Columns of ``line``, without building units (escapes removed by one regex)."""
    if mxp:
        return sum(w for _, w in _units(line, mxp))
    plain = _ESCAPE_RE.sub("", line)
    if plain.isascii() and "\t" not in plain:
        return len(plain) if plain.isprintable() else sum(map(char_width, plain))
    return sum(8 if ch == "\t" else char_width(ch) for ch in plain)


def fits(text: str, width: int) -> bool:
    """True when every line of ``text`` certainly fits ``width`` columns, judged cheaply
    (no escape parsing): ASCII, no tabs, and no line longer than ``width`` characters."""
    if not text.isascii() or "\t" in text:
        return False
    if len(text) <= width:
        return True
    return all(len(line) <= width for line in text.split("\n"))


def wrap_text(text: str, width: int, indent: int = 2, mxp: bool = False) -> str:
    """``text`` with every line wider than ``width`` columns wrapped (see the module doc)."""
    width = max(int(width), MIN_WIDTH)
    if fits(text, width):
        return text
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if len(line) <= width and line.isascii() and "\t" not in line:
            continue
        if _plain_width(line, mxp) > width:  # colour codes often make a line look long
            lines[i] = _wrap_line(line, width, indent, mxp)
    return "\n".join(lines)


def _wrap_line(line: str, width: int, indent: int, mxp: bool) -> str:
    units = _units(line, mxp)
    lead = 0
    for text, w in units:
        if text == " ":
            lead += 1
        elif w:
            break
    cont = " " * min(lead + indent, width // 2)

    done: list[str] = []
    cur: list[tuple[str, int]] = []  # units of the line being filled
    col = 0
    brk = -1  # index in cur of the last space a break may replace
    started = False  # a visible non-space character is on the current line
    first = True  # filling the first line (its leading spaces are kept)

    def finish(units_):
        while units_ and units_[-1][0] == " ":
            units_.pop()
        done.append("".join(t for t, _ in units_))

    def new_line(carry):
        nonlocal cur, col, brk, started, first
        first = False
        cur = [(cont, len(cont))]
        col = len(cont)
        brk, started = -1, False
        for unit in carry:  # the word moved down: no spaces in it
            add(unit)

    def add(unit):
        nonlocal col, brk, started
        text, w = unit
        if not w:
            cur.append(unit)
            return
        if text == " ":
            if not started:
                if first and col + 1 <= width:
                    cur.append(unit)
                    col += 1
                return  # leading spaces of a continuation are the indent's
            if col + 1 > width:
                finish(cur)
                new_line([])
                return
            brk = len(cur)
            cur.append(unit)
            col += 1
            return
        if col + w > width:
            if brk >= 0:
                head, carry = cur[:brk], cur[brk + 1 :]
                finish(head)
                new_line(carry)
            if col + w > width:  # no space to break at, or the word is longer than a line
                finish(cur)
                new_line([])
        cur.append(unit)
        col += w
        started = True

    for unit in units:
        add(unit)
    if not first and not started:  # only spaces (and escapes) were left for the last line
        done[-1] += "".join(t for t, w in cur[1:] if not w)
    else:
        finish(cur)
    return "\n".join(done)
