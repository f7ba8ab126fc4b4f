"""End to end, over real telnet sockets: MSSP from the settings, malformed telnet input
that no longer wedges a session, and lines ended by CR alone.

Fray's telnet protocol is ``server/conf/telnet.py`` (``TELNET_PROTOCOL_CLASS``)."""

import random
import re
import socket
import time
import uuid

import pytest

from .harness import CONNECTION_SCREEN_RE, DO, IAC, SB, SE, WILL, FrayServer, HarnessError

pytestmark = pytest.mark.e2e

MSSP, MSSP_VAR, MSSP_VAL = 70, 1, 2
#: the refusal of a line holding an undoubled 0xFF (words may wrap onto the next line)
REFUSED_0XFF = r"That\s+line\s+was\s+not\s+run:\s+it\s+held\s+the\s+byte\s+0xFF"


# --------------------------------------------------------------------------- MSSP


def read_mssp(host: str, port: int, timeout: float = 20.0) -> dict[str, list[str]]:
    """Connect, wait for the server's IAC WILL MSSP, answer IAC DO MSSP and parse the
    IAC SB MSSP ... IAC SE it sends: {variable: [values]}."""
    will, sb, se = bytes([IAC, WILL, MSSP]), bytes([IAC, SB, MSSP]), bytes([IAC, SE])
    deadline = time.monotonic() + timeout
    buf, asked = b"", False
    with socket.create_connection((host, port), timeout=timeout) as sock:
        while True:
            if not asked and will in buf:
                sock.sendall(bytes([IAC, DO, MSSP]))
                asked = True
            start = buf.find(sb)
            end = buf.find(se, start) if start >= 0 else -1
            if end >= 0:
                payload = buf[start + len(sb) : end]
                break
            if time.monotonic() > deadline:
                raise AssertionError(f"no MSSP reply (asked: {asked}); received {buf!r}")
            sock.settimeout(max(0.1, deadline - time.monotonic()))
            chunk = sock.recv(65536)
            assert chunk, f"connection closed; received {buf!r}"
            buf += chunk
    table: dict[str, list[str]] = {}
    for part in payload.split(bytes([MSSP_VAR]))[1:]:
        name, *values = part.split(bytes([MSSP_VAL]))
        table.setdefault(name.decode(), []).extend(v.decode() for v in values)
    return table


def test_mssp_reports_the_game_and_its_ports(fray_server):
    table = read_mssp(fray_server.host, fray_server.telnet_port)
    assert table["NAME"] == ["Fray"]
    assert table["PORT"] == [str(fray_server.telnet_port)]
    assert table["WEB PORT"] == [str(fray_server.web_port)]
    assert table["SSL"] == ["0"]  # no SSL port is open
    assert re.fullmatch(r"Fray \(Evennia 5\.\S+\)", table["CODEBASE"][0])
    assert table["GENRE"] == ["Fantasy"]
    assert table["CONTACT"] == [""] and table["WEBSITE"] == [""]  # not set, not invented
    assert table["PLAYERS"][0].isdigit() and table["UPTIME"][0].isdigit()
    assert table["UTF-8"] == ["1"] and table["ANSI"] == ["1"]


@pytest.fixture(scope="module")
def configured_server():
    """A second real server whose settings name the game's contact, genre and host.

    Started at most twice: on a loaded machine Evennia's launcher sometimes gives up on a
    second Portal ("Connection to Evennia timed out"), which is not what is tested here."""
    settings = (
        'SERVERNAME = "Fray Test Arena"\n'
        'FRAY_MSSP_HOSTNAME = "fray.example.org"\n'
        'FRAY_MSSP_CONTACT = "staff@example.org"\n'
        'FRAY_MSSP_GENRE = "Horror"\n'
        'FRAY_MSSP_CODEBASE = "Fray 1.0"\n'
        'FRAY_MSSP_EXTRA = {"LOCATION": "Germany"}\n'
    )
    for attempt in (1, 2):
        server = FrayServer(extra_settings=settings)
        try:
            server.start()
            break
        except HarnessError:
            server.cleanup()
            if attempt == 2:
                raise
    try:
        yield server
    finally:
        server.cleanup()


def test_mssp_takes_name_contact_genre_website_from_settings(configured_server):
    server = configured_server
    table = read_mssp(server.host, server.telnet_port)
    assert table["NAME"] == ["Fray Test Arena"]
    assert table["HOSTNAME"] == ["fray.example.org"]
    assert table["CONTACT"] == ["staff@example.org"]
    assert table["GENRE"] == ["Horror"]
    assert table["CODEBASE"] == ["Fray 1.0"]
    assert table["LOCATION"] == ["Germany"]
    assert table["WEBSITE"] == [f"http://fray.example.org:{server.web_port}/"]
    assert table["PORT"] == [str(server.telnet_port)]
    assert table["SSL"] == ["0"]


# --------------------------------------------------------------------------- wedges

#: (bytes sent on their own, whether the line they start is refused)
MALFORMED = {
    "IAC NUL": (b"\xff\x00", True),
    "SE without SB": (b"\xff\xf0", False),
    "IAC x": (b"\xff\x78", True),
    "packet ending in IAC": (b"look\xff", True),
}


def _probe(client, logged_in: bool):
    """A line, sent, and the answer it must get."""
    if logged_in:
        tag = uuid.uuid4().hex[:8]
        client.send(f"say probe {tag}")
        client.expect(rf'You say, "probe {tag}"')
    else:
        client.send("look")
        client.expect(CONNECTION_SCREEN_RE)


@pytest.mark.parametrize("logged_in", [False, True], ids=["login screen", "logged in"])
@pytest.mark.parametrize("name", list(MALFORMED))
def test_malformed_telnet_input_does_not_wedge_the_session(fray_client, name, logged_in):
    data, refused = MALFORMED[name]
    client = fray_client(login=logged_in)
    client._sendall(data)
    time.sleep(0.3)  # its own packet
    if refused:
        # the line the malformed bytes began is answered with a refusal, nothing of it runs
        client.send("look")
        client.expect(REFUSED_0XFF)
    _probe(client, logged_in)
    _probe(client, logged_in)  # and the session goes on


def test_cp1251_ya_is_refused_clearly_and_play_goes_on(fray_client):
    """A cp1251 client typing "attack я" sends exactly b"attack \\xff\\r\\n"."""
    player = fray_client()
    player._sendall(b"attack \xff\r\n")
    got = player.expect(REFUSED_0XFF + r".*?send\s+it\s+again\.")
    assert re.search(r"Set\s+your\s+client's\s+encoding\s+to\s+UTF-8", got)
    assert player.read_for(1.0).strip() == ""  # the refused line ran nothing
    _probe(player, logged_in=True)
    _probe(player, logged_in=True)


def test_a_doubled_0xff_and_an_overlong_utf8_sequence_get_frays_refusal(fray_client):
    """IAC IAC is the data byte 0xFF (never UTF-8); c0 af is "/" in two bytes (never valid UTF-8):
    Evennia would read either line as latin-1 and run it."""
    player = fray_client()
    player._sendall(b"say \xff\xff\r\n")
    player.expect(REFUSED_0XFF + r".*?send\s+it\s+again\.")
    player._sendall(b"say \xc0\xaf\r\n")
    player.expect(r"That\s+line\s+was\s+not\s+run:\s+it\s+held\s+an\s+overlong\s+UTF-8\s+sequence"
                  r".*?plain\s+UTF-8\.")
    assert player.read_for(1.0).strip() == ""  # the refused lines ran nothing
    _probe(player, logged_in=True)


def test_unterminated_subnegotiation_is_dropped_at_the_line_end(fray_client):
    client = fray_client()
    client._sendall(b"\xff\xfa\x18")  # IAC SB TTYPE, and never IAC SE
    time.sleep(0.3)
    client.send("look")
    client.expect(r"That\s+line\s+was\s+not\s+run:\s+it\s+held\s+a\s+broken\s+telnet\s+sequence")
    _probe(client, logged_in=True)


def test_random_bytes_never_wedge_a_session(fray_server):
    """Sessions fed random bytes (seeded), then a line end: the next line is answered.
    MCCP (85, 86) is left out: asked for, it compresses the output, by design."""
    rng = random.Random(14)
    for round_ in range(25):
        junk = bytes(b if b not in (85, 86) else 0 for b in rng.randbytes(64))
        client = fray_server.client(name=f"fuzz{round_}")
        try:
            client._sendall(junk)
            time.sleep(0.1)
            client._sendall(b"\r\n")
            time.sleep(0.3)
            client.read_for(0.2)
            client.send("look")
            client.expect(CONNECTION_SCREEN_RE, timeout=15)
        except AssertionError as err:
            raise AssertionError(f"round {round_}, junk {junk!r}: {err}") from None
        finally:
            client.close()


# --------------------------------------------------------------------------- line ends


def test_a_line_ended_by_cr_alone_runs_at_once(fray_client):
    client = fray_client()
    tag = uuid.uuid4().hex[:6]
    client._sendall(f"say cr-{tag}\r".encode())
    client.expect(rf'You say, "cr-{tag}"', timeout=5)  # nothing else sent after the CR
    client._sendall(f"say one-{tag}\rsay two-{tag}\r".encode())
    client.expect(rf'You say, "one-{tag}".*You say, "two-{tag}"', timeout=5)
    # CR LF split across packets is one line end, not two
    client._sendall(f"say three-{tag}\r".encode())
    client.expect(rf'You say, "three-{tag}"', timeout=5)
    client._sendall(f"\nsay four-{tag}\r\n".encode())
    client.expect(rf'You say, "four-{tag}"', timeout=5)
    assert client.read_for(1.0).strip() == ""


# --------------------------------------------------------------------------- a client that does not read


def test_a_client_that_stops_reading_loses_old_output_not_the_game(fray_server, fray_client):
    """A player whose client stops reading while 3 MB of output is sent to them: the Portal
    holds at most about 200 KB for them and drops the oldest lines; the game goes on for
    everyone else; when the client reads again it is told how many lines it missed, then
    gets the newest output, and its next command is answered (server/conf/telnet.py)."""
    admin = fray_client(superuser=True)
    stalled, other = fray_client(), fray_client()
    tag = uuid.uuid4().hex[:6]
    created = admin.command(f"dig Flood{tag}", rf"Created room Flood{tag}\(#\d+\)")
    room = "#" + re.search(rf"Created room Flood{tag}\(#(\d+)\)", created).group(1)
    admin.command(f"tel {stalled.account_name}={room}", r"Teleported")
    stalled.expect(rf"Flood{tag}")
    words = " ".join(f"word{n}" for n in range(700))    # about 5 KB a look
    admin.command(f"@desc {room}={words}", r"set")
    stalled.read_for(0.5)
    for _ in range(600):                                 # 3 MB the client does not read
        stalled._sendall(b"look\r\n")
        time.sleep(0.02)
    stalled._sendall(f"say end-{tag}\r\n".encode())
    started = time.monotonic()
    other.command("look", r"Limbo", timeout=20)          # the game goes on for the others
    assert time.monotonic() - started < 10
    time.sleep(2)
    received = bytearray()                               # read it all at once, as a client would
    stalled.sock.setblocking(True)
    stalled.sock.settimeout(60)
    while f"end-{tag}".encode() not in received[-4096:]:
        received += stalled.sock.recv(1 << 20)
    stalled.sock.setblocking(False)
    text = received.decode("utf-8", "replace")
    dropped = re.search(r"<Fray> (\d+) lines of output were dropped while your client was not\s+reading\.", text)
    assert dropped and int(dropped.group(1)) > 300      # most of the 600 looks never reached it,
    assert 0 < text.count("word699") < 300              # the newest did,
    assert text.rindex("word699") > dropped.start()     # the last after the notice
    stalled.command("look", r"word699", timeout=20)     # and the next command is answered
