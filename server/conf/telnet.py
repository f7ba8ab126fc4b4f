"""
Fray's telnet protocol: Evennia's, with an input parser that cannot be wedged, lines
ended by CR alone, and output wrapped to the client's width.

Enabled in ``server/conf/settings.py`` with
``TELNET_PROTOCOL_CLASS = "server.conf.telnet.FrayTelnetProtocol"`` (runs in the Portal).

Input (``dataReceived``)
    Twisted's parser (``twisted.conch.telnet.Telnet.dataReceived``) raises
    ``ValueError("Stumped")`` on an IAC followed by a byte that is no telnet command and
    stays in its escaped state, so every later packet raises again: the session is never
    answered again. This parser is the same state machine with recovery:

    * ``IAC`` + a byte that is no command (``ff 00``, ``ff 78``, ``ff 0d`` ...): the IAC was
      a data byte 0xFF the client forgot to double (cp1251 sends "я" as 0xFF, latin-1
      "ÿ"), and the byte after it is read as ordinary input. The line holding it (or a
      0xFF doubled as telnet wants, ``IAC IAC``) is run if it decodes in the session's
      encoding; otherwise (UTF-8, where 0xFF never occurs) it is refused with a message
      saying why, and nothing of it runs (Evennia would read it as latin-1 instead).
    * In a UTF-8 session, a line holding an overlong UTF-8 sequence (a character in more
      bytes than it needs: ``c0 af`` for "/") is refused the same way, with its own message.
    * ``IAC SE`` without a subnegotiation: ignored.
    * A line past 64 KB (no line end yet): the rest of it is dropped as it arrives, so a
      client that never ends its line cannot grow the Portal's memory; when it ends, it is
      refused with a message saying why.
    * A subnegotiation (``IAC SB``) still open when a line feed arrives (NAWS, whose four
      binary bytes may hold one, excepted) was never going to end: it is dropped and the
      line refused the same way.
    * A subnegotiation longer than 64 KB is dropped, the rest of it skipped up to its
      ``IAC SE`` (or a line feed, which refuses the line).
    * A packet ending in ``IAC`` (or ``CR``) is fine: the state carries to the next one.
    * An error in a negotiation handler (Evennia's GMCP decoder on bad JSON or bytes) is
      logged in one line and parsing goes on; ``IAC DONT GMCP`` (or MSDP) turns it off.

    A CR ends a line at once (CR LF, CR NUL and LF alone too): before, a line ended by CR
    alone waited in Twisted's "newline" state until the next line came.

Output (``sendLine``)
    Every text line is wrapped (``server/conf/linewrap.py``) to the width the client
    reported with NAWS, else ``CLIENT_DEFAULT_WIDTH`` (78): broken at spaces, continuation
    lines indented by ``FRAY_TELNET_WRAP_INDENT`` (2) more than the line, colour codes
    taking no width and never cut. Lines that fit are sent as they are, cheaply.
    ``FRAY_TELNET_WRAP = False`` turns it off.

Output to a client that does not read (``pauseProducing``)
    The protocol is its connection's streaming producer: once the connection's send buffer
    passes Twisted's 64 KB, text lines wait in the protocol instead, at most
    ``FRAY_TELNET_HELD_OUTPUT`` bytes (128 KB); past that the oldest are dropped, as a MUSH
    flushes a full output queue. When the client reads again, it is told how many lines it
    missed, then gets the rest. The kernel's send buffer for each client is fixed at
    ``FRAY_TELNET_SEND_BUFFER`` (64 KB; Linux would grow it to 4 MB). A client that never
    reads holds at most about 200 KB of the Portal's memory, and costs the others nothing.
"""

from __future__ import annotations

import codecs
import re
import socket
from collections import deque

from django.conf import settings
from evennia.server.portal.naws import NAWS
from evennia.server.portal.telnet import _RE_SCREENREADER_REGEX as SCREENREADER_STRIP
from evennia.server.portal.telnet import TelnetProtocol
from evennia.server.portal.telnet_oob import GMCP, MSDP
from evennia.utils import logger
from evennia.utils.ansi import parse_ansi
from twisted.conch.telnet import (
    AO,
    AYT,
    BRK,
    DM,
    DO,
    DONT,
    EC,
    EL,
    EOR,
    GA,
    IAC,
    IP,
    NOP,
    SB,
    SE,
    WILL,
    WONT,
)

from server.conf.amp import no_delay
from server.conf.linewrap import wrap_text

_SIMPLE_COMMANDS = frozenset((EOR, NOP, DM, BRK, IP, AO, AYT, EC, EL, GA))
_OPTION_COMMANDS = frozenset((WILL, WONT, DO, DONT))
#: where plain data stops being plain: an IAC or a line end
_DATA_STOP = re.compile(rb"[\xff\r\n]")
#: an overlong UTF-8 sequence: a lead byte that can only begin one (C0, C1), or E0 / F0 whose
#: next byte makes the character shorter than its length says
_OVERLONG_UTF8 = re.compile(rb"[\xc0\xc1][\x80-\xbf]|\xe0[\x80-\x9f]|\xf0[\x80-\x8f]")
#: bytes a subnegotiation may collect before it is dropped as never-ending
_MAX_SUBNEGOTIATION = 64 * 1024
#: bytes a line may collect (Evennia refuses a command past MAX_CHAR_LIMIT, 6000 characters,
#: once it has it); past these the rest of the line is dropped as it arrives and the line refused
_MAX_LINE = 64 * 1024

REFUSE_STRAY_IAC = (
    "<Fray> That line was not run: it held the byte 0xFF, which is never UTF-8 (a client"
    " set to cp1251 or latin-1 sends it for some letters). Set your client's encoding to"
    " UTF-8 and send it again."
)
REFUSE_OVERLONG_UTF8 = (
    "<Fray> That line was not run: it held an overlong UTF-8 sequence (a character sent in"
    " more bytes than it needs), which is never valid UTF-8. Send it again as plain UTF-8."
)
#: the notice a client that stopped reading gets when it reads again
OUTPUT_DROPPED = "<Fray> {count} lines of output were dropped while your client was not reading."

REFUSE_LONG_LINE = (
    f"<Fray> That line was not run: it was longer than {_MAX_LINE // 1024} KB. Send a shorter one."
)
REFUSE_BROKEN_SEQUENCE = (
    "<Fray> That line was not run: it held a broken telnet sequence (IAC SB without"
    " IAC SE). Send it again."
)


def _is_utf8(encoding: str) -> bool:
    try:
        return codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        return False


class FrayTelnetProtocol(TelnetProtocol):
    """Evennia's TelnetProtocol with a recovering parser and width-aware output."""

    # ------------------------------------------------------------------ input

    def connectionMade(self):
        self._line = bytearray()  # the line being read
        self._flaw = None  # why the line being read must not run (a refusal text)
        self._byte_ff = False  # the line holds the data byte 0xFF (undoubled or doubled)
        self._ready: list[bytes] = []  # complete lines of this packet, not yet delivered
        self._paused = False  # the connection's send buffer is full: lines wait in _held
        self._held: deque[str | bytes] = deque()
        self._held_size = 0
        self._dropped = 0
        super().connectionMade()
        self.transport.registerProducer(self, True)
        size = getattr(settings, "FRAY_TELNET_SEND_BUFFER", 64 * 1024)
        try:   # the kernel's send buffer for this client, fixed (not grown to 4 MB by Linux)
            if size:
                self.transport.getHandle().setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)
        except (AttributeError, OSError):   # a transport with no socket of its own (TLS, tests)
            pass
        no_delay(self.transport)   # a line and its prompt go out as written, not after an ACK

    def dataReceived(self, data):
        size = self._window()
        try:
            self._parse(data)
        except Exception:  # noqa: BLE001 - never leave the parser stuck
            logger.log_trace("Fray telnet: input parser error; state reset")
            self.state = "data"
            self._line.clear()
            self._flaw, self._byte_ff = None, False
        if self._window() != size and self.protocol_flags.get("AUTORESIZE") and self.handshakes <= 0:
            # the client resized (NAWS): the Server lays its views out for the new width.
            # Evennia resyncs before it reads the new size, so its Server was one resize late.
            self.sessionhandler.sync(self)
        self._deliver()

    def _window(self) -> tuple:
        """The (width, height) the client last reported."""
        flags = self.protocol_flags
        return ((flags.get("SCREENWIDTH") or {}).get(0), (flags.get("SCREENHEIGHT") or {}).get(0))

    def _parse(self, data: bytes):
        i, n = 0, len(data)
        while i < n:
            state = self.state
            if state == "data":
                m = _DATA_STOP.search(data, i)
                if m is None:
                    self._add(data[i:])
                    return
                j = m.start()
                if j > i:
                    self._add(data[i:j])
                stop = data[j : j + 1]
                i = j + 1
                if stop == IAC:
                    self.state = "escaped"
                else:
                    self._end_line()
                    if stop == b"\r":
                        self.state = "newline"
                continue
            b = data[i : i + 1]
            if state == "newline":
                # CR already ended the line; an LF or NUL right after it belongs to it
                self.state = "data"
                if b in (b"\n", b"\0"):
                    i += 1
                continue  # anything else is read again as data
            i += 1
            if state == "escaped":
                self.state = "data"
                if b == IAC:
                    self._add(IAC)   # IAC IAC: the data byte 0xFF
                    self._byte_ff = True
                elif b == SB:
                    self.state = "subnegotiation"
                    self.commands = []
                elif b in _SIMPLE_COMMANDS:
                    self._call(self.commandReceived, b, None)
                elif b in _OPTION_COMMANDS:
                    self.state = "command"
                    self.command = b
                elif b == SE:
                    pass  # the end of a subnegotiation that never began
                else:
                    # no command: the IAC was the client's data byte 0xFF, undoubled;
                    # read this byte again as data
                    self._add(IAC)
                    self._byte_ff = True
                    i -= 1
            elif state == "command":
                self.state = "data"
                command = self.command
                del self.command
                self._call(self.commandReceived, command, b)
            elif state == "subnegotiation":
                if b == IAC:
                    self.state = "subnegotiation-escaped"
                elif b == b"\n" and not (self.commands[:1] == [NAWS] and len(self.commands) < 9):
                    self._drop_subnegotiation()
                else:
                    self.commands.append(b)
                    if len(self.commands) > _MAX_SUBNEGOTIATION:
                        logger.log_info(f"Fray telnet: dropped an over-long subnegotiation ({self.address})")
                        del self.commands
                        self.state = "subnegotiation-discard"
            elif state == "subnegotiation-discard":  # the rest of an over-long one
                if b == IAC:
                    self.state = "subnegotiation-discard-escaped"
                elif b == b"\n":
                    self.state = "data"
                    self._flaw = REFUSE_BROKEN_SEQUENCE
                    self._end_line()
            elif state == "subnegotiation-discard-escaped":
                self.state = "data" if b == SE else "subnegotiation-discard"
            elif state == "subnegotiation-escaped":
                if b == SE:
                    self.state = "data"
                    commands = self.commands
                    del self.commands
                    if commands:
                        self._call(self.negotiate, commands)
                else:
                    self.state = "subnegotiation"
                    self.commands.append(b)
            else:  # an unknown state (cannot happen): start over
                logger.log_err(f"Fray telnet: unknown parser state {state!r}; reset")
                self.state = "data"

    def _drop_subnegotiation(self):
        logger.log_info(f"Fray telnet: dropped an unterminated subnegotiation ({self.address})")
        self.state = "data"
        del self.commands
        self._flaw = REFUSE_BROKEN_SEQUENCE
        self._end_line()

    def _call(self, handler, *args):
        """A negotiation handler; its errors are logged in one line (never the client's
        data, which may be huge), parsing goes on."""
        self._deliver()  # lines before a command reach the game first (as in Twisted)
        try:
            handler(*args)
        except Exception as err:  # noqa: BLE001
            what = args[0] if args and isinstance(args[0], bytes) else b"".join(args[0][:1]) if args else b""
            logger.log_err(f"Fray telnet: ignored bad telnet input {what!r} ({self.address}): "
                           f"{type(err).__name__}: {str(err)[:120]}")

    def disableLocal(self, option):
        """A client that turns GMCP or MSDP off (``IAC DONT``) is sent none from then on."""
        if option in (GMCP, MSDP):
            setattr(self.oob, "GMCP" if option == GMCP else "MSDP", False)
            self.protocol_flags["OOB"] = bool(self.oob.GMCP or self.oob.MSDP)
            self.sessionhandler.sync(self.sessionhandler.get(self.sessid))
            return True
        return super().disableLocal(option)

    def _add(self, data: bytes) -> None:
        """``data`` onto the line being read, unless the line is past :data:`_MAX_LINE`: then
        it is dropped (as is the rest of the line) and the line will be refused."""
        if self._flaw is REFUSE_LONG_LINE:
            return
        if len(self._line) + len(data) > _MAX_LINE:
            self._line.clear()
            self._flaw = REFUSE_LONG_LINE
            return
        self._line += data

    def _end_line(self):
        line = bytes(self._line)
        self._line.clear()
        flaw, self._flaw = self._flaw, None
        encoding = self.protocol_flags.get("ENCODING") or "utf-8"
        if self._byte_ff:
            self._byte_ff = False
            if flaw is None:
                try:
                    line.decode(encoding)
                except (LookupError, UnicodeDecodeError):
                    flaw = REFUSE_STRAY_IAC
        if flaw is None and _OVERLONG_UTF8.search(line) and _is_utf8(encoding):
            flaw = REFUSE_OVERLONG_UTF8
        if flaw is None:
            self._ready.append(line)
            return
        logger.log_info(f"Fray telnet: refused a malformed line ({self.address}): {line[:80]!r}")
        self._deliver()
        self.send_text(flaw, options={})

    def _deliver(self):
        """Hand the complete lines read so far to Evennia (one chunk, as Evennia expects:
        its HTTP guard looks at several lines at once)."""
        if self._ready:
            lines, self._ready = self._ready, []
            super().applicationDataReceived(b"\n".join(lines) + b"\n")
        elif self._line and self.state == "data" and self._line.strip() == b"\0":
            # a lone NUL: the legacy keepalive Evennia answers with its idle command
            self._line.clear()
            super().applicationDataReceived(b"\0")

    # ------------------------------------------------------------------ output

    def line_width(self) -> int:
        """The client's width: NAWS (or ``option screenwidth``) when reported, else
        ``CLIENT_DEFAULT_WIDTH``."""
        try:
            width = int(self.protocol_flags.get("SCREENWIDTH", {}).get(0) or 0)
        except (AttributeError, TypeError, ValueError):
            width = 0
        return width if width > 0 else settings.CLIENT_DEFAULT_WIDTH

    def send_text(self, *args, **kwargs):
        """Evennia's, but text for a screen reader keeps escaped ``||`` and ``%%`` literal:
        Evennia strips its colour codes (turning ``||`` into ``|``, ``%%`` into ``%``) and then
        parses it again, which made a player's ``|r``, ``|/`` or ``%r`` act.

        And text ending in an escaped pipe (a name "Zed |" sent as ``Zed ||``) reads as typed:
        Evennia ends text that ends in ``|`` with ``||n`` (for a lone pipe), which showed
        "Zed ||n". Such text gets ``|n|n`` more: Evennia drops one reset and ends on the other."""
        options = kwargs.get("options") or {}
        if args and args[0] and options.get("screenreader", self.protocol_flags.get("SCREENREADER", False)):
            text = parse_ansi(args[0], strip_ansi=True, xterm256=False, mxp=False)
            text = SCREENREADER_STRIP.sub("", text).replace("|", "||").replace("%", "%%")
            kwargs["options"] = {**options, "screenreader": False, "nocolor": True}
            args = (text, *args[1:])
        text = args[0] if args else None
        if isinstance(text, str) and text.endswith("||") and (len(text) - len(text.rstrip("|"))) % 2 == 0 \
                and not options.get("raw", self.protocol_flags.get("RAW")):
            args = (text + "|n|n", *args[1:])
        return super().send_text(*args, **kwargs)

    def sendLine(self, line):
        if isinstance(line, str) and getattr(settings, "FRAY_TELNET_WRAP", True):
            line = wrap_text(
                line,
                self.line_width(),
                indent=getattr(settings, "FRAY_TELNET_WRAP_INDENT", 2),
                mxp=bool(self.protocol_flags.get("MXP")),
            )
        if self._paused or self._held:
            self._hold(line)
            return None
        return super().sendLine(line)

    # ------------------------------------------------------------------ a client that does not read

    def _hold(self, line) -> None:
        """Keep ``line`` until the client reads again; past the limit, drop the oldest."""
        self._held.append(line)
        self._held_size += len(line)
        limit = getattr(settings, "FRAY_TELNET_HELD_OUTPUT", 128 * 1024)
        while self._held_size > limit and len(self._held) > 1:
            self._held_size -= len(self._held.popleft())
            self._dropped += 1

    def pauseProducing(self):
        """The connection's send buffer is full (Twisted): hold text lines from now on."""
        self._paused = True

    def resumeProducing(self):
        """The client read its buffer down: say what was dropped, then send what waited,
        until the buffer fills again."""
        self._paused = False
        if self._dropped:
            count, self._dropped = self._dropped, 0
            TelnetProtocol.sendLine(self, OUTPUT_DROPPED.format(count=count))
        while self._held and not self._paused:
            line = self._held.popleft()
            self._held_size -= len(line)
            TelnetProtocol.sendLine(self, line)

    def stopProducing(self):
        """The connection is closing: nothing more to send."""
        self._held.clear()
        self._held_size = 0
