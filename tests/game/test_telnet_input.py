"""Fray's telnet input parser (server/conf/telnet.py) fed bytes directly, without a socket:
a line that is not UTF-8 in a UTF-8 session (a 0xFF data byte, doubled as telnet wants, or
an overlong UTF-8 sequence) is refused with Fray's own line and nothing of it runs; the
same bytes in a session whose encoding takes them run. And on the way out, text ending in an
escaped pipe reads as typed."""

from unittest import mock

import pytest
from evennia.server.portal.telnet import TelnetProtocol

from server.conf.telnet import (
    _MAX_LINE,
    REFUSE_LONG_LINE,
    REFUSE_OVERLONG_UTF8,
    REFUSE_STRAY_IAC,
    FrayTelnetProtocol,
)


def feed(data: bytes | list[bytes], encoding: str = "utf-8", longest: list | None = None) -> tuple[list[bytes], list[str]]:
    """(what reached Evennia, what the client was sent) for ``data`` (a list: read after read;
    ``longest`` gets the most bytes the line being read held after a read)."""
    proto = FrayTelnetProtocol.__new__(FrayTelnetProtocol)
    proto._line, proto._flaw, proto._byte_ff, proto._ready = bytearray(), None, False, []
    proto.state, proto.address = "data", "test"
    proto.protocol_flags = {"ENCODING": encoding}
    delivered, sent = [], []
    proto.send_text = lambda text, **kw: sent.append(text)
    with mock.patch.object(TelnetProtocol, "applicationDataReceived", lambda self, data: delivered.append(data)):
        for read in [data] if isinstance(data, bytes) else data:
            proto._parse(read)
            if longest is not None:
                longest.append(len(proto._line))
        proto._deliver()
    return delivered, sent


@pytest.mark.parametrize(("data", "refusal"), [
    (b"say \xff\xff\r\n", REFUSE_STRAY_IAC),          # IAC IAC: the data byte 0xFF
    (b"say \xff\xffx\xff\xff\r\n", REFUSE_STRAY_IAC),
    (b"say \xff\x78\r\n", REFUSE_STRAY_IAC),          # undoubled, as before
    (b"say \xc0\xaf\r\n", REFUSE_OVERLONG_UTF8),      # "/" in two bytes
    (b"say \xe0\x80\xaf\r\n", REFUSE_OVERLONG_UTF8),  # "/" in three
    (b"say \xf0\x80\x80\xaf\r\n", REFUSE_OVERLONG_UTF8),
    (b"\xc1\xbf\r\n", REFUSE_OVERLONG_UTF8),
])
def test_a_line_no_utf8_session_can_read_is_refused_with_frays_line(data, refusal):
    delivered, sent = feed(data)
    assert (delivered, sent) == ([], [refusal])


def test_the_lines_around_a_refused_one_still_run():
    delivered, sent = feed(b"say one\r\nsay \xc0\xaf\r\nsay \xff\xff\r\nsay two\r\n")
    assert b"".join(delivered) == b"say one\nsay two\n"
    assert sent == [REFUSE_OVERLONG_UTF8, REFUSE_STRAY_IAC]


@pytest.mark.parametrize("data", [b"say caf\xc3\xa9\r\n", b"say \xe2\x82\xac 5\r\n", b"say \xf0\x9f\x98\x80\r\n",
                                  b"say \xc3\x80\xc2\xaf\r\n"])
def test_utf8_runs(data):
    assert feed(data) == ([data[:-2] + b"\n"], [])


def test_a_latin1_session_reads_those_bytes_as_its_letters():
    assert feed(b"say \xff\xff \xc0\xaf\r\n", "latin-1") == ([b"say \xff \xc0\xaf\n"], [])


def test_a_line_that_never_ends_holds_at_most_64_kb_and_is_refused_when_it_does():
    longest = []
    reads = [b"say " + b"y" * 65536] + [b"y" * 65536] * 30 + [b"y\xff\xffy\r\nsay ok\r\n"]   # 2 MB, then a line
    delivered, sent = feed(reads, longest=longest)
    assert max(longest) <= _MAX_LINE
    assert (delivered, sent) == ([b"say ok\n"], [REFUSE_LONG_LINE])


def test_a_line_of_64_kb_still_runs():
    line = b"say " + b"y" * (_MAX_LINE - 4)
    assert feed([line[:40000], line[40000:] + b"\r\n"]) == ([line + b"\n"], [])


@pytest.mark.parametrize(("text", "shown"), [
    ("Declare (low to high): Zed ||", "Declare (low to high): Zed |"),   # a name "Zed |"
    ("a ||||", "a ||"), ("a |||", "a ||"), ("a |", "a |"), ("type ||n", "type |n"), ("a |||n", "a |"),
    ("plain", "plain"),
])
def test_text_ending_in_an_escaped_pipe_reads_as_typed(text, shown):
    proto = FrayTelnetProtocol.__new__(FrayTelnetProtocol)
    proto.protocol_flags = {"TTYPE": True, "ANSI": True}
    proto._paused, proto._held = False, None
    lines = []
    with mock.patch.object(TelnetProtocol, "sendLine", lambda self, line: lines.append(line)):
        proto.send_text(text)
    assert [line.replace("\x1b[0m", "") for line in lines] == [shown]
