"""server/conf/linewrap.py: the width rule of Fray's telnet output (pure, no server)."""

import re

from server.conf.linewrap import visible_width, wrap_text

ESC = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
LONG = ("<Combat> Guard's punch is coming at alice with 3 successes. Answer: defend dodge, "
        "defend block, defend parry or defend none.")


def test_a_line_that_fits_is_returned_as_it_is():
    for text in ("You say, \"hi\"", "\x1b[1m\x1b[31m" + "x" * 78 + "\x1b[0m", "a\nb\n" + "c" * 78):
        assert wrap_text(text, 78) is text


def test_long_lines_break_at_spaces_with_an_indented_continuation():
    out = wrap_text(LONG, 78).split("\n")
    assert len(out) == 2 and all(len(line) <= 78 for line in out)
    assert out[1].startswith("  ") and not out[1].startswith("   ")
    assert " ".join(line.strip() for line in out) == LONG


def test_colour_codes_take_no_width_and_are_never_cut():
    coloured = LONG.replace("alice", "\x1b[1;32malice\x1b[0m").replace("Answer:", "\x1b[38;5;208mAnswer:\x1b[0m")
    for width in (78, 60, 40, 20):
        out = wrap_text(coloured, width).split("\n")
        assert all(visible_width(line) <= width for line in out)
        # every escape arrives whole, in order, and the words are all there
        assert ESC.findall("".join(out)) == ESC.findall(coloured)
        assert " ".join(ESC.sub("", line).strip() for line in out) == LONG


def test_the_line_keeps_its_indent_and_the_continuation_goes_two_further():
    line = "  dodge: Dexterity 3 + Dodge 2 = 5 dice vs 6: 8 4 3 2 2 -> 1 success = 1 success"
    out = wrap_text(line, 60).split("\n")
    assert out[0].startswith("  dodge:") and out[1].startswith("    ") and out[1][4] != " "


def test_a_word_longer_than_the_line_is_cut_and_wide_characters_count_two():
    out = wrap_text("x" * 130, 50).split("\n")
    assert [len(line) for line in out] == [50, 50, 34]
    out = wrap_text("日本語" * 20, 30).split("\n")
    assert all(visible_width(line) <= 30 for line in out) and "".join(o.strip() for o in out) == "日本語" * 20


def test_mxp_tags_take_no_width():
    link = "\x1b[4z<SEND HREF=\"look\">" + "look" + "\x1b[4z</SEND>"
    line = ("word " * 14) + link
    assert wrap_text(line, 78, mxp=True) == line  # 74 visible columns: fits
    assert "\n" in wrap_text(line, 78, mxp=False)  # counted as text it would not
