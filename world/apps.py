import re

from django.apps import AppConfig
from django.db.models import Field
from django.db.models.lookups import IRegex, Regex

#: Python's word boundary, not preceded by an escaping backslash.
_WORD_BOUNDARY = re.compile(r"(?<!\\)((?:\\\\)*)\\b")


class _PortableRegex:
    """``regex``/``iregex`` with Python's word boundary ``\\b`` sent to PostgreSQL as its own
    ``\\y``: to PostgreSQL ``\\b`` is a backspace, so Evennia 5.0.1's partial-name search (a
    regex of ``\\b<word>``) found nothing there, and ``+sheet Ali`` by staff answered "No
    character" (evennia issue #3857, fixed only in Evennia 6, which needs Python 3.12)."""

    def process_rhs(self, compiler, connection):
        rhs, params = super().process_rhs(compiler, connection)
        if connection.vendor == "postgresql":
            params = [_WORD_BOUNDARY.sub(r"\1\\y", param) if isinstance(param, str) else param
                      for param in params]
        return rhs, params


class PortableRegex(_PortableRegex, Regex):
    pass


class PortableIRegex(_PortableRegex, IRegex):
    pass


class WorldConfig(AppConfig):
    """Fray's service layer; its Django side is the fight and roll-log tables."""

    name = "world"
    label = "fray"
    verbose_name = "Fray"

    def ready(self) -> None:
        from rules.lines import use_wording
        from rules.systems.elethril.timeline import Board
        from world.segment_board import board_text
        from world.wording import draws, line_text

        Field.register_lookup(PortableRegex)
        Field.register_lookup(PortableIRegex)
        # the rules' refusals (a CombatError raised with a line) in the catalogue's words, the
        # game's own where it has them: one line of plain text (escaped where it is sent)
        use_wording(lambda line, system: line_text(line, system, plain=True))
        # the values of lines the game draws rather than words, each kind with its drawer
        draws(Board, board_text)   # elethril's segment timeline, laid out for the reader's width
