"""The message catalogue: every word Fray says of a fight, as data.

Fray ships its wording in ``world/messages/*.toml`` (the defaults). A game rewords any entry
in its own TOML file, ``server/conf/messages.toml`` in the game directory, or the file the
setting ``FRAY_MESSAGES`` names (a path, relative to the game directory unless absolute):
the same tables and names as the defaults (``[attack]`` ``opens = "..."``), or a system's
own wording of a shared entry (``[eldritch.attack]`` ``opens = "..."``). Entries it does
not name keep Fray's words.

:func:`problems` checks that file (the Server refuses to start on any problem, one line
each: ``<file>: <key>: <problem>``): every key must be one Fray has, every template must
parse, and its ``{placeholders}`` must be exactly those of the default it replaces; a
``$You(name)`` or ``$pron()`` must name a placeholder of the entry and a pronoun Evennia knows;
a prefix may not break its line.
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path
from string import Formatter
from typing import Any

DEFAULTS = Path(__file__).with_name("messages")
#: The override file a game has when ``FRAY_MESSAGES`` names none (under the game directory).
GAME_FILE = Path("server") / "conf" / "messages.toml"
#: A ``$func(`` call in a template (``$$`` is a literal dollar sign).
_CALL = re.compile(r"(?<!\$)\$(\w+)\(")


def _flatten(node: dict, prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in node.items():
        name = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            flat.update(_flatten(value, name))
        else:
            flat[name] = value
    return flat


def read_defaults() -> dict[str, str]:
    """Fray's own words as the files hold them now (:func:`defaults` keeps the first read)."""
    flat: dict[str, str] = {}
    for path in sorted(DEFAULTS.glob("*.toml")):
        with open(path, "rb") as data:
            flat.update({key: str(value) for key, value in _flatten(tomllib.load(data)).items()})
    return flat


@cache
def defaults() -> dict[str, str]:
    """{``area.name`` or ``system.area.name``: template}: Fray's own words."""
    return read_defaults()


def override_path() -> Path | None:
    """The game's own message file: ``FRAY_MESSAGES`` (a path) if set, else
    ``server/conf/messages.toml`` in the game directory; None when there is none."""
    from django.conf import settings

    game_dir = Path(getattr(settings, "GAME_DIR", "") or ".")
    named = getattr(settings, "FRAY_MESSAGES", "")
    if named:
        path = Path(named)
        return path if path.is_absolute() else game_dir / path
    path = game_dir / GAME_FILE
    return path if path.exists() else None


def _systems() -> tuple[str, ...]:
    from rules.systems import system_keys

    return system_keys()


def replaced(key: str, known: dict[str, str] | None = None) -> str | None:
    """The default template an override of ``key`` replaces (among ``known``, default
    :func:`defaults`): the key's own, or for a system's wording of a shared entry
    (``eldritch.attack.opens``) the shared one; None: no such key."""
    known = defaults() if known is None else known
    if key in known:
        return known[key]
    system, _, shared = key.partition(".")
    if system in _systems() and shared in known and shared.split(".")[0] not in _systems():
        return known[shared]
    return None


def fields(template: str) -> list[str]:
    """The ``{placeholders}`` of ``template``, in order. Raises ValueError: it does not parse."""
    found = []
    for _, name, spec, conversion in Formatter().parse(template):
        if name is None:
            continue
        if not name.isidentifier() or spec or conversion:
            raise ValueError(f"placeholder {{{name}{'!' + conversion if conversion else ''}"
                             f"{':' + spec if spec else ''}}} is not a plain {{name}}")
        found.append(name)
    return found


def template_problem(template: Any, default: str | None = None) -> str:
    """What is wrong with ``template`` (an override of ``default``), or ""."""
    if not isinstance(template, str):
        return f"the template is a {type(template).__name__}, not a string"
    try:
        have = fields(template)
    except ValueError as error:
        return f"broken template: {error}"
    from evennia.utils.funcparser import ACTOR_STANCE_CALLABLES

    want = have if default is None else fields(default)
    for call in _CALL.finditer(template):
        if call.group(1) not in ACTOR_STANCE_CALLABLES:
            return f"broken template: unknown function ${call.group(1)}()"
        if ")" not in template[call.end():]:
            return f"broken template: ${call.group(1)}( is not closed"
        if problem := _call_problem(call.group(1), template[call.end():template.index(")", call.end())], want):
            return f"broken template: {problem}"
    if default is not None:
        unknown = [name for name in dict.fromkeys(have) if name not in want]
        missing = [name for name in dict.fromkeys(want) if name not in have]
        if unknown:
            return ("unknown placeholder " + ", ".join(f"{{{name}}}" for name in unknown)
                    + f" (this entry has: {', '.join(f'{{{n}}}' for n in dict.fromkeys(want)) or 'none'})")
        if missing:
            return "missing placeholder " + ", ".join(f"{{{name}}}" for name in missing)
    return ""


def _call_problem(name: str, inside: str, placeholders: list[str]) -> str:
    """What is wrong with the arguments of ``$name(inside)`` in an entry with
    ``placeholders``, or "": ``$You(ref)`` (and ``$you``, ``$your``, ``$Your``) and a
    ``$pron()``'s last argument name a fighter of the entry, ``$pron()`` a pronoun Evennia
    knows, with its options."""
    from evennia.utils.verb_conjugation import pronouns

    args = [arg.strip() for arg in inside.split(",")] if inside.strip() else []
    has = f"(this entry has: {', '.join(f'{{{n}}}' for n in dict.fromkeys(placeholders)) or 'none'})"
    if name.lower() in ("you", "your"):
        if args and args[0] not in placeholders:
            return f"${name}({inside}) names no placeholder of this entry {has}"
        return ""
    if name.lower() != "pron":
        return ""
    if not args or (args[0] != "I" and args[0].lower() not in pronouns.PRONOUN_TABLE):
        return f"unknown pronoun ${name}({inside})"
    options = {*pronouns.ALIASES, *pronouns.PRONOUN_TYPES, *pronouns.VIEWPOINTS, *pronouns.GENDERS}
    for place, arg in enumerate(args[1:], 2):
        words = arg.lower().replace(",", " ").split()
        if all(word in options for word in words) or " ".join(words) in options:
            continue
        if place == len(args) and arg in placeholders:
            continue
        return f"${name}({inside}): {arg!r} is neither a pronoun option nor a placeholder of this entry {has}"
    return ""


def _line_problem(key: str, template: Any) -> str:
    """A prefix (``[prefix]``) starts a line: it may not break one (``%r``, ``|/`` or a line break)."""
    if key.split(".")[0] == "prefix" and isinstance(template, str) and re.search(r"%[rR]|\|/|[\r\n]", template):
        return "a prefix is on the line it starts: no %r, |/ or line break"
    return ""


def read_overrides(path: Path) -> tuple[dict[str, Any], list[str]]:
    """({key: value} from the game's file, [problems]): a file that cannot be read or is not
    TOML is one problem."""
    try:
        with open(path, "rb") as data:
            return _flatten(tomllib.load(data)), []
    except FileNotFoundError:
        return {}, [f"{path}: the file does not exist (FRAY_MESSAGES)"]
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        return {}, [f"{path}: not a TOML file: {error}"]


def problems(path: Path | None = None) -> list[str]:
    """Every problem of the catalogue, one line each, ``<file>: <key>: <problem>``: Fray's own
    templates that do not parse, then the game's file (``path``, default
    :func:`override_path`): a key Fray does not have, a template that does not parse, an
    unknown or missing placeholder. The files are read as they are now, not as the running
    Server read them (``@reload`` checks them before it restarts the Server)."""
    known = read_defaults()
    found = [f"{DEFAULTS.name}/: {key}: {problem}" for key, text in known.items()
             if (problem := template_problem(text) or _line_problem(key, text))]
    path = override_path() if path is None else path
    if path is None:
        return found
    overrides, unreadable = read_overrides(path)
    found.extend(unreadable)
    for key, text in overrides.items():
        default = replaced(key, known)
        if default is None:
            found.append(f"{path}: {key}: unknown key (not one of Fray's messages)")
        elif problem := template_problem(text, default) or _line_problem(key, text):
            found.append(f"{path}: {key}: {problem}")
    return found


@cache
def catalogue() -> dict[str, str]:
    """Every template by key: Fray's words with the game's own in their place (the good
    entries of the game's file: the Server does not start with a bad one)."""
    merged = dict(defaults())
    path = override_path()
    if path is not None:
        overrides, _ = read_overrides(path)
        merged.update({key: text for key, text in overrides.items()
                       if replaced(key) is not None and not template_problem(text, replaced(key))
                       and not _line_problem(key, text)})
    return merged


def reload() -> None:
    """Read the files again (a test that changes them; ``@reload`` starts a new process)."""
    defaults.cache_clear()
    catalogue.cache_clear()
    plain_entry.cache_clear()


def entry(key: str, system: str = "") -> str:
    """The template of message ``key`` (the system's own wording first). Raises KeyError."""
    messages = catalogue()
    return messages.get(f"{system}.{key}") or messages[key]


@cache
def plain_entry(key: str, system: str = "") -> str:
    """:func:`entry` without its colour codes: a template for a log's or a page's plain text,
    stripped once (a roll-log entry words each of its lines this way). Raises KeyError."""
    from evennia.utils.ansi import strip_ansi  # Evennia's parser, loaded when first needed

    return strip_ansi(entry(key, system))


class Prefix:
    """A message prefix (``<Combat>``) that is a catalogue entry (``[prefix]``): read when
    formatted, so a game's wording shows, ``f"{COMBAT} ..."`` as before."""

    def __init__(self, key: str) -> None:
        self.key = key

    def __str__(self) -> str:
        return entry(f"prefix.{self.key}")

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"Prefix({self.key!r})"
