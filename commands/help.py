"""Command help by rule system: what ``help <command>`` shows (Evennia's ``Command.get_help``).

A Fray command's docstring is the part of its help every system shares; a switch that needs
more than its usage line is a subtopic of it (``## log`` under ``# subtopics``). Each rule
system's own part of a command's help comes with the system (``RuleSystem.command_help``, its
package's ``help.toml``). :func:`help_text` puts the part of the system
played here (the fight in the room, else the game's default) into the page itself, names the
other systems' parts (``help attack/eldritch``), and gives every switch a subtopic of its own,
built from its usage lines when the docstring has none (``help +combat/leave``). Evennia's
help command does the rest: ``help <command>/<subtopic>`` and the subtopic index.
"""

from __future__ import annotations

import re
from inspect import cleandoc

from rules.systems import get_system, system_keys

SUBTOPICS = re.compile(r"^#[ \t]*subtopics[ \t]*$", re.I | re.M)
SECTION = re.compile(r"^##[ \t]+(\S.*?)[ \t]*$", re.M)


def sections(text: str) -> dict[str, str]:
    """``{name: text}`` of the ``## <name>`` sections of ``text`` (names lower-cased)."""
    parts = SECTION.split(text)
    found: dict[str, str] = {}
    for name, body in zip(parts[1::2], parts[2::2]):
        found.setdefault(name.strip().lower(), body.strip("\n"))  # a repeated name: the first
    return found


def usage_lines(text: str, key: str, switch: str) -> list[str]:
    """The lines of ``text`` about ``<key>/<switch>``: its usage lines and its line in a
    ``Switches:`` list (``/<switch>  ...``), each with its continuation lines (indented deeper
    than it, up to a blank line or the next usage)."""
    found: list[str] = []
    lines = text.splitlines()
    starts = (f"{key}/{switch}".lower(), f"/{switch}".lower())
    for number, line in enumerate(lines):
        head = line.strip().lower()
        if not any(head.startswith(start) and head[len(start):len(start) + 1] in ("", " ", "=", "[")
                   for start in starts):
            continue
        found.append(line.strip())
        indent = len(line) - len(line.lstrip())
        for follow in lines[number + 1:]:
            if not follow.strip() or len(follow) - len(follow.lstrip()) <= indent + 2 \
                    or follow.strip().lower().startswith((key.lower(), "/")):
                break
            found.append("  " + follow.strip())
    return found


def system_parts(key: str) -> dict[str, str]:
    """{system key: that system's part of the help of command ``key``}, in registry order."""
    return {name: text for name in system_keys() if (text := get_system(name).command_help.get(key))}


def subtopics(rest: str, key: str) -> dict[str, str]:
    """The systems' parts of command ``key``'s help, then the docstring's own sections."""
    return {**system_parts(key), **sections(rest)}


def help_text(doc: str, key: str, switches: tuple[str, ...], here: str) -> str:
    """The help page of a command for a player where ``here`` (a system key) is played.

    ``doc`` is the command's docstring; ``switches`` its allowed switches (a switch with no
    section of its own gets its usage lines from the shared part). Returns Evennia help
    text: the shared part, then the ``here`` part headed with the system's name, a line naming
    the other systems' subtopics, and a ``# subtopics`` block with every system part and switch.
    """
    doc = cleandoc(doc or "")
    main, rest = (*SUBTOPICS.split(doc, 1), "")[:2]
    parts = subtopics(rest, key)
    systems = [name for name in system_keys() if name in parts]
    if here in parts:  # listed first, so 'help attack/' opens the part played here
        parts = {here: parts[here], **parts}
    page = main.rstrip()
    if here in parts:
        page += f"\n\n|w{here.capitalize()}|n (the rule system here):\n{parts[here]}"
    others = [name for name in systems if name != here]
    if others:
        # without a leading +, as Evennia's help titles and subtopic list show it
        page += f"\n\nOther systems (help {key.lstrip('+')}/<system>): {', '.join(others)}."
    for switch in switches:
        if switch not in parts and (lines := usage_lines(main, key, switch)):
            parts[switch] = "\n".join(lines)
    if not parts:
        return page
    index = "\n\n".join(f"## {name}\n{body}" for name, body in parts.items())
    return f"{page}\n\n# subtopics\n\n{index}"


def web_text(doc: str, key: str = "") -> str:
    """A command's whole help for the website's help page, which has no room and so no system
    here: the shared part, then every system's part and every switch page under its name
    (``Aeon``, ``/log``); no ``key`` (a help topic's text): every subtopic under its name
    (``Dice``). Plain text, dedented; the page escapes it."""
    main, rest = (*SUBTOPICS.split(cleandoc(doc or ""), 1), "")[:2]
    systems = set(system_keys())
    switches = bool(key)
    page = [main.rstrip()]
    for name, body in (subtopics(rest, key) if key else sections(rest)).items():
        title = name.capitalize() if name in systems or not switches else f"/{name}"
        page.append(f"{title}\n{'-' * len(title)}\n{body}")
    return "\n\n".join(page)

