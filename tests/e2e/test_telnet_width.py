"""End to end: every line Fray sends over telnet fits the client's width.

A Storyteller fight is played over real telnet sockets twice: by clients that negotiate
nothing (78 columns, Evennia's CLIENT_DEFAULT_WIDTH) and by clients that report a
60-column window with NAWS. Every line each of them received is checked; the long roll
and narration lines arrive wrapped, their words intact. The wrapping is done once, in
Fray's telnet protocol (``server/conf/telnet.py``)."""

import re
import struct
import uuid

import pytest

from .conftest import force
from .harness import CONNECTION_SCREEN_RE, TelnetClient

pytestmark = pytest.mark.e2e

NAWS = 31
ANSWER = "Answer: defend dodge, defend block or defend none"


def ws(text: str) -> str:
    """``text`` as a regex whose spaces may be any whitespace (a wrap may fall there)."""
    return re.escape(text).replace(r"\ ", r"\s+")


def lines_over(client, width):
    """The received lines (ANSI codes stripped by the harness) wider than ``width``."""
    return [line for line in client.transcript.split("\n") if len(line) > width]


def play_short_fight(st, alice, bob):
    """Round 1 of the Storyteller fight of test_storyteller_fight.py, then the HUD, the
    roll log, help, the quit warning and the end of the fight."""
    a = alice.account_name
    tag = uuid.uuid4().hex[:6]
    created = st.command(f"dig Ring{tag}", r"Created room Ring\w+\(#\d+\)")
    room = "#" + re.search(r"Created room Ring\w+\(#(\d+)\)", created).group(1)
    st.command(f"tel {room}", r"Ring")
    for who in (alice, bob):
        st.command(f"tel {who.account_name}={room}", r"Teleported")
        who.expect(r"Ring")
    sheets = {
        alice: {"Dexterity": 3, "Brawl": 2, "Strength": 2, "Wits": 2, "Stamina": 2, "Dodge": 2},
        bob: {"Dexterity": 2, "Brawl": 1, "Strength": 2, "Wits": 1, "Stamina": 1},
    }
    for who, traits in sheets.items():
        for trait, value in traits.items():
            st.command(f"+stat {who.account_name}/{trait}={value}", ws(f"{trait} is now {value}."))
    st.command("@dice/clear", r"Forced dice queue: empty")

    st.command("+combat/start", r"Round 1")
    alice.command("+combat/join", r"You join the fight")
    bob.command("+combat/join", r"You join the fight")
    force(st, [7])
    alice.command("+combat/init", ws("Wits 2 + Dexterity 3 = 5 + 1d10 (7) = 12."))
    force(st, [5])
    bob.command("+combat/init", ws("Wits 1 + Dexterity 2 = 3 + 1d10 (5) = 8."))
    force(st, [9])
    st.command("+npc/init Guard=2+3", ws("Wits 2 + Dexterity 3 = 5 + 1d10 (9) = 14."))
    for trait, value in {"Strength": 2, "Brawl": 2, "Stamina": 2, "Dodge": 1}.items():
        st.command(f"+stat Guard/{trait}={value}", ws(f"Guard's {trait} is now {value}."))
    alice.command("+combat", ws("Declare (low to high):") + r".*$")

    force(st, [9, 8, 7, 3, 2])
    st.send(f"attack Guard={a}")
    alice.expect(ws(ANSWER))
    bob.expect(ws(f"{a} may defend."))
    force(st, [8, 4, 3, 2, 2, 10, 6, 2, 4, 1])
    alice.send("dodge")
    out = alice.expect(ws(f"{a} takes 2 levels of bashing: Hurt (-1) [BB.....]"))
    assert re.search(ws("dodge: Dexterity 3 + Dodge 2 = 5 dice vs 6: 8 4 3 2 2 -> 1 success = 1 success"), out)
    force(st, [8, 7, 1, 7, 6, 1, 3, 2])
    out = bob.command("attack Guard/kick", ws("Guard takes 2 levels of bashing: Hurt (-1) [BB.....]"))
    assert re.search(ws("kick to hit: Dexterity 2 + Brawl 1 = 3 dice vs 7: 8 7 1 -> 2 successes - 1 one = 1 success"), out)

    bob.command("+combat", ws("Declare (low to high):") + r".*$")
    st.command("+combat/log", ws("Roll log, page 1 of") + r".*entries\)")
    st.read_for(1.0)
    alice.command("help +combat", r"\+combat")
    if "(Page [" in alice.read_for(1.5):  # long help is paged (EvMore): leave the pager
        alice.send("q")
        alice.read_for(0.5)
    alice.command("quit", ws("Type quit again to leave."))
    st.command("+combat/end", ws("You end the fight after 1 round"))
    st.read_for(0.5)
    alice.read_for(0.5)
    bob.read_for(0.5)


@pytest.fixture
def telnet_login(fray_server):
    """Factory: a logged-in TelnetClient reporting ``naws`` ((width, height)) or, with
    None, negotiating nothing. (fray_client's clients report a wide window.)"""
    made = []

    def login(name=None, *, naws, superuser=False):
        if superuser:
            name, password, create = fray_server.admin_user, fray_server.admin_password, False
        else:
            password, create = f"Fr4y-{uuid.uuid4().hex[:12]}", True
        c = TelnetClient(fray_server.host, fray_server.telnet_port, name=name, naws=naws)
        made.append(c)
        c.expect(CONNECTION_SCREEN_RE, timeout=30)
        c.read_for(0.3)
        c.login(name, password, create=create)
        c.account_name, c.password = name, password
        return c

    yield login
    for c in made:
        c.close()


def test_a_fight_fits_78_columns_for_a_client_that_negotiates_nothing(telnet_login):
    tag = uuid.uuid4().hex[:6]
    st = telnet_login(superuser=True, naws=None)
    alice = telnet_login(f"alice{tag}", naws=None)
    bob = telnet_login(f"bob{tag}", naws=None)
    play_short_fight(st, alice, bob)
    for who in (st, alice, bob):
        assert lines_over(who, 78) == [], f"{who.name}: lines wider than 78 columns"
        assert "\n  " in who.transcript
    # the 163-column "... is coming at ..." line arrived wrapped, every word intact
    assert ANSWER not in alice.transcript and re.search(ws(ANSWER), alice.transcript)
    assert max(len(line) for line in alice.transcript.split("\n")) > 70  # the width is used


def test_a_fight_fits_the_60_columns_a_naws_client_reports(telnet_login):
    tag = uuid.uuid4().hex[:6]
    st = telnet_login(superuser=True, naws=(60, 24))
    alice = telnet_login(f"alice{tag}", naws=(60, 24))
    bob = telnet_login(f"bob{tag}", naws=None)  # negotiates nothing: 78 columns
    st.transcript = alice.transcript = ""  # from here on every line must fit 60 columns
    play_short_fight(st, alice, bob)
    for who in (st, alice):
        assert lines_over(who, 60) == [], f"{who.name}: lines wider than 60 columns"
        assert max(len(line) for line in who.transcript.split("\n")) > 50
    assert ANSWER not in alice.transcript and re.search(ws(ANSWER), alice.transcript)
    assert lines_over(bob, 78) == []
    assert max(len(line) for line in bob.transcript.split("\n")) > 60  # bob's own width


def naws_update(client, width: int, height: int = 24) -> None:
    """The client's window changes size: it tells the server (IAC SB NAWS ... IAC SE)."""
    size = struct.pack("!HH", width, height).replace(b"\xff", b"\xff\xff")
    client._sendall(bytes([255, 250, NAWS]) + size + bytes([255, 240]))


def test_a_resized_window_gets_views_laid_out_for_its_new_width_at_once(telnet_login):
    tag = uuid.uuid4().hex[:6]
    st = telnet_login(superuser=True, naws=(120, 24))
    alice = telnet_login(f"alice{tag}", naws=(120, 24))
    for trait, value in {"Dexterity": 3, "Brawl": 2, "Strength": 2}.items():
        st.command(f"+stat {alice.account_name}/{trait}={value}", ws(f"{trait} is now {value}."))
    wide = alice.command("+sheet", r"Health \(storyteller\)")
    assert "Dexterity: 3, " not in wide   # three columns, side by side
    naws_update(alice, 40)
    alice.read_for(0.5)
    narrow = alice.command("+sheet", r"Health \(storyteller\)")
    assert "Dexterity: 3, Brawl: 2" in " ".join(narrow.split()), narrow   # one entry a row, for 40 columns
    assert max(len(line) for line in narrow.split("\n")) <= 40
    naws_update(alice, 120)
    alice.read_for(0.5)
    assert "Dexterity: 3, " not in alice.command("+sheet", r"Health \(storyteller\)")
