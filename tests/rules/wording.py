"""The rules' lines of working (``rules.lines.Line``) in Fray's default English, for the rules
tests to read them as a player would: worded by the game's own catalogue (``world.wording``,
registered as the world app starts, ``rules.lines.use_wording``)."""

from rules.lines import Line, text_of


def english(line) -> str:
    """``line`` as a sighted player reads it (a string stays as it is; a line within it, or
    several, worded as the game words them)."""
    return text_of(line) if isinstance(line, Line) else line


def englished(lines) -> list[str]:
    return [english(line) for line in lines]


def english_parts(pool) -> tuple:
    """A pool's ``(label, value)`` parts with each label as a player reads it (a label the
    rules give as a line worded by the game)."""
    return tuple((english(label), value) for label, value in pool.parts)
