"""The rules' lines of working (``rules.lines.Line``) in Fray's default English, for the rules
tests to read them as a player would (the game words them through ``world.wording``; this
reads the same catalogue files, without Django)."""

import tomllib
from functools import cache
from pathlib import Path

from rules.lines import Dying, Line

MESSAGES = Path(__file__).resolve().parents[2] / "world" / "messages"


@cache
def _catalogue() -> dict[str, str]:
    flat = {}

    def walk(prefix, node):
        for key, value in node.items():
            name = f"{prefix}.{key}" if prefix else key
            if isinstance(value, dict):
                walk(name, value)
            else:
                flat[name] = value

    for path in sorted(MESSAGES.glob("*.toml")):
        walk("", tomllib.loads(path.read_text()))
    return flat


def _value(value) -> str:
    if isinstance(value, Line):
        return english(value)
    if isinstance(value, Dying):
        return _catalogue()["value.dying"].format(health=_value(value.health))
    return value.describe() if hasattr(value, "words") else str(value)


def english(line) -> str:
    """``line`` as a sighted player reads it (a string stays as it is)."""
    if not isinstance(line, Line):
        return line
    return _catalogue()[line.key].format(**{name: _value(value) for name, value in line.values.items()})


def englished(lines) -> list[str]:
    return [english(line) for line in lines]
