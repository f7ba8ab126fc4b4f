"""The elethril segment timeline board, drawn by the game (``world.segments``) from the
timeline the rules give as data: the HUD's and the round's initiative event's, for 78
columns, a narrower window and a screen reader."""

from __future__ import annotations

from dataclasses import dataclass
from unittest import mock

import pytest

from rules.lines import Drawn, Line
from rules.systems.elethril.timeline import Board, build_timeline, spoil
from tests.rules.test_elethril_timeline import everyone_at_five, start, two_hander_round_one
from world import wording
from world.segment_board import board_text, draw_board
from world.wording import line_text


def test_the_board_fits_78_columns():
    first = two_hander_round_one()
    assert draw_board(first.timeline) == [
        "Round 1 segments (lowest first; spell > instant > missile > melee)",
        " 1  .",
        " 2  .",
        " 3  [melee] Ann dagger > Bob",
        " 4  .", " 5  .", " 6  .", " 7  .", " 8  .", " 9  .", "10  .",
        "Later: r2 s4 Bob two-handed sword > Ann",
    ]
    marked = draw_board(first.timeline, now=3)
    assert marked[3] == " 3> [melee] Ann dagger > Bob" and marked[2] == " 2  ."
    crowded = draw_board(everyone_at_five().timeline)
    assert all(len(line) <= 78 for line in crowded)
    assert " 2  [casting] Dee begins Fireball" in crowded
    assert crowded[5:7] == [" 5  [spell] Dee Fireball > X; [spell] Eve wand of Magic Missile > X; [instant]",
                            "    Cid Power Word, Stun > X; [missile] Bea dart > X; [melee] Ann dagger > X"]


def test_a_narrow_window_wraps_the_rows_at_its_width():
    crowded = draw_board(everyone_at_five().timeline, width=50)
    assert crowded[:2] == ["Round 2 segments (lowest first; spell > instant >", "    missile > melee)"]
    assert crowded[6:10] == [" 5  [spell] Dee Fireball > X; [spell] Eve wand of",
                            "    Magic Missile > X; [instant] Cid Power Word,",
                            "    Stun > X; [missile] Bea dart > X; [melee] Ann",
                            "    dagger > X"]
    assert all(len(line) <= 50 for line in crowded)


def test_spoiled_items_and_carried_over_are_drawn():
    after, _ = spoil(everyone_at_five().actions, "Dee", 2, 3, "melee")
    assert draw_board(build_timeline(2, after), width=76)[5:8] == [
        " 5  [spell] Dee Fireball > X (spoiled); [spell] Eve wand of Magic Missile >",
        "    X; [instant] Cid Power Word, Stun > X; [missile] Bea dart > X; [melee]",
        "    Ann dagger > X"]
    assert draw_board(build_timeline(2, after), now=5, spoken=True)[2] == (
        "Segment 5, next: spell, Dee Fireball at X (spoiled); spell, Eve wand of Magic Missile at X; "
        "instant, Cid Power Word, Stun at X; missile, Bea dart at X; melee, Ann dagger at X.")
    second = start(2, [], carried=two_hander_round_one().actions)
    assert draw_board(second.timeline)[-1] == "Carried over: Bob"
    assert draw_board(second.timeline, spoken=True) == [
        "Round 2 segments, lowest first.", "Segment 4: melee, Bob two-handed sword at Ann.",
        "Carried over: Bob."]


def test_the_board_spoken_for_a_screen_reader():
    first = two_hander_round_one()
    assert draw_board(first.timeline, now=3, spoken=True) == [
        "Round 1 segments, lowest first.",
        "Segment 3, next: melee, Ann dagger at Bob.",
        "Later: round 2 segment 4, Bob two-handed sword at Ann.",
    ]


def test_the_event_carries_the_board_as_data_drawn_as_its_lines_are_indented():
    first = two_hander_round_one()
    line = Line("elethril.line.board", {"board": Board(first.timeline, 3)})
    told = line_text(line, "elethril")
    assert told.splitlines()[:4] == ["Round 1 segments (lowest first; spell > instant > missile > melee)",
                                     "   1  .", "   2  .", "   3> [melee] Ann dagger > Bob"]
    assert board_text(Board(first.timeline), plain=True) == "\n  ".join(draw_board(first.timeline, width=76))
    assert line_text(line, "elethril", spoken=True) == ("Round 1 segments, lowest first.\n"
                                                        "  Segment 3, next: melee, Ann dagger at Bob.\n"
                                                        "  Later: round 2 segment 4, Bob two-handed sword at Ann.")


def test_a_drawn_value_is_drawn_by_the_drawer_registered_for_its_kind():
    """The wording knows no board: the game registers each kind of drawn value's drawer as it
    starts (``world.apps``); a kind with none is a developer's mistake, said at once."""
    @dataclass(frozen=True)
    class Chart(Drawn):
        rows: int

    assert wording._drawer(Board(two_hander_round_one().timeline)) is board_text
    with pytest.raises(LookupError, match="No drawer for a Chart"):
        line_text(Line("elethril.line.board", {"board": Chart(2)}), "elethril")
    wording.draws(Chart, lambda chart, spoken, plain: f"{chart.rows} rows{' said' if spoken else ''}")
    try:
        assert line_text(Line("elethril.line.board", {"board": Chart(2)}), "elethril", spoken=True) == "2 rows said"
    finally:
        del wording._drawers[Chart]


def test_a_line_is_worded_once_a_way_and_a_drawn_one_once_a_width():
    """A command words an event's lines for the room, the roll log and the web page: each
    way once (``world.wording``'s memory); a line with a drawn value in it, even deep inside,
    once for each width, since only a drawing is laid out for one."""
    from world.text import views_for

    @dataclass(frozen=True)
    class Chart(Drawn):
        rows: int

    drawn = []

    def draw(chart, spoken, plain):
        from world.text import screen_width

        drawn.append(screen_width())
        return f"{chart.rows} rows at {screen_width()}"

    wording.draws(Chart, draw)
    wording._lately.clear()   # the memory is emptied when full: never during this test
    try:
        chart = Line("elethril.line.board", {"board": Chart(2)})
        rolled = Line("line.roll_of", {"name": "Ann", "roll": chart})
        plainly = Line("line.roll_of", {"name": "Ann", "roll": "a roll"})
        with views_for(_Session(52)):
            assert line_text(chart, "elethril") == "2 rows at 52"
            assert line_text(plainly, "elethril") == "Ann a roll"
        with views_for(_Session(200)):
            assert line_text(rolled, "elethril") == "Ann 2 rows at 200"
            assert line_text(rolled, "elethril") == "Ann 2 rows at 200"
            assert line_text(plainly, "elethril") == "Ann a roll"
        with views_for(_Session(52)):   # its chart worded at 52 already: the line is too, anew
            assert line_text(rolled, "elethril") == "Ann 2 rows at 52"
        assert drawn == [52, 200]
        with mock.patch.object(wording, "entry", side_effect=AssertionError("worded again")):
            with views_for(_Session(120)):
                assert line_text(plainly, "elethril") == "Ann a roll"
    finally:
        del wording._drawers[Chart]


def test_a_name_on_the_board_is_escaped_once_for_msg():
    after = start(2, [], carried=two_hander_round_one().actions)
    line = Line("elethril.line.board", {"board": Board(after.timeline)})
    assert line_text(line, "elethril").endswith("Carried over: Bob")
    assert "|" not in line_text(line, "elethril", plain=True)


class _Session:
    def __init__(self, width: int):
        self.protocol_flags = {"SCREENWIDTH": {0: width}}


class _Viewer:
    def __init__(self, *widths: int):
        self._sessions = [_Session(width) for width in widths]
        self.sessions = self
        self.told: list[tuple[str, object]] = []

    def all(self):
        return self._sessions

    def msg(self, text, session=None):
        self.told.append((text[0], session))


class _Room:
    """A room as ``msg_contents`` reaches its contents: each one not excluded gets the text
    (its ``{key}`` and ``$func()`` already done: this head has none)."""

    def __init__(self, *contents):
        self.contents = list(contents)

    def msg_contents(self, text, exclude=(), from_obj=None, mapping=None):
        for viewer in self.contents:
            if viewer not in exclude:
                viewer.msg((text.replace("\\$", "$"), {}))


def test_each_viewer_gets_the_board_laid_out_for_their_own_width_not_the_typists():
    from world.narration import tell_with_lines
    from world.text import views_for

    line = Line("elethril.line.board", {"board": Board(everyone_at_five().timeline)})
    wide, narrow, both = _Viewer(200), _Viewer(52), _Viewer(52, 200)
    with views_for(_Session(120)):  # the command's typist; the board worded once per width
        tell_with_lines(_Room(wide, narrow, both), "<Combat> Ann moves.", [line], "elethril")
    rows = [row for row in draw_board(everyone_at_five().timeline, width=198) if row.startswith(" 5")]
    board_198 = "  " + "\n  ".join(draw_board(everyone_at_five().timeline, width=198))
    board_50 = "  " + "\n  ".join(draw_board(everyone_at_five().timeline, width=50))
    assert len(rows) == 1 and len(rows[0]) > 120
    # one message each: the head with the board under it, for their width
    assert wide.told == [(f"<Combat> Ann moves.\n{board_198}", None)]
    assert narrow.told == [(f"<Combat> Ann moves.\n{board_50}", None)]
    # two windows of one player's: the head once, then each window its own board
    assert [(text, session and session.protocol_flags["SCREENWIDTH"][0]) for text, session in both.told] == [
        ("<Combat> Ann moves.", None), (board_50, 52), (board_198, 200)]
