"""End to end, GMCP: a MUD client that takes GMCP gets Char.Vitals and Fray.Combat
on login and on every change of its fight, over a real telnet socket; a client that refuses
GMCP gets none."""

import uuid

import pytest

from .conftest import force, guard_fight

pytestmark = pytest.mark.e2e


def test_a_gmcp_client_follows_its_fight_and_its_health(fray_server, arena):
    st, alice, bob = arena
    name = f"carol{uuid.uuid4().hex[:6]}"
    carol = fray_server.client(name=name, gmcp=True)
    carol.login(name, "Fr4y-" + uuid.uuid4().hex[:12])
    vitals = carol.expect_gmcp("Char.Vitals")
    assert vitals == {"hp": 7, "maxhp": 7, "health": "Healthy", "system": "storyteller",
                      "down": False, "dead": False}
    assert carol.expect_gmcp("Fray.Combat") == {"active": False}

    st.command(f"tel {name}=here", r"Teleported")
    carol.expect(r"Arena")
    for trait, value in {"Dexterity": 2, "Wits": 1, "Stamina": 1}.items():
        st.command(f"+stat {name}/{trait}={value}", rf"{trait} is now {value}\.")
    guard_fight(st, alice, bob)
    combat = carol.expect_gmcp("Fray.Combat", lambda c: c.get("active") and len(c["fighters"]) == 3)
    assert combat["system"] == "storyteller" and combat["round"] == 1
    assert combat["turn"] == ["Guard"] and combat["defense"] is None
    guard = next(f for f in combat["fighters"] if f["name"] == "Guard")
    assert (guard["npc"], guard["initiative"], guard["hp"], guard["maxhp"]) == (True, 14, 7, 7)

    carol.command("+combat/join", r"You join the fight")
    force(st, [3])
    carol.command("+combat/init", r"rolls initiative: .*?=\s+6\.")
    combat = carol.expect_gmcp("Fray.Combat", lambda c: any(f["name"] == name for f in c["fighters"]))
    assert next(f for f in combat["fighters"] if f["name"] == name)["initiative"] is None  # joined
    combat = carol.expect_gmcp("Fray.Combat", lambda c: any(f["name"] == name and f["initiative"] == 6
                                                            for f in c["fighters"]))
    assert [f["name"] for f in combat["fighters"]][-1] == name

    # The Guard punches carol (9 8 7 3 2: 3 successes): her client is told what is coming.
    force(st, [9, 8, 7, 3, 2])
    st.command(f"attack Guard={name}", rf"{name} may defend")
    combat = carol.expect_gmcp("Fray.Combat", lambda c: c["defense"] is not None)
    assert combat["defense"]["attacker"] == "Guard" and combat["defense"]["successes"] == 3
    assert "dodge" in combat["defense"]["choices"] and combat["defense"]["choices"][-1] == "none"

    # She takes it: the damage dice all hit, the soak die misses.
    force(st, [10] * 6 + [2] * 3)
    carol.command("defend none", r"takes \d+ levels? of (?:bashing|lethal)")
    hurt = carol.expect_gmcp("Char.Vitals", lambda v: v["hp"] < 7)
    assert hurt["maxhp"] == 7 and hurt["health"] != "Healthy" and "[" not in hurt["health"]
    combat = carol.expect_gmcp("Fray.Combat", lambda c: c["defense"] is None)
    assert next(f for f in combat["fighters"] if f["name"] == name)["hp"] == hurt["hp"]
    st.command("@dice/clear", r"Forced dice queue: empty")

    st.command("+combat/end", r"end the fight")
    assert carol.expect_gmcp("Fray.Combat", lambda c: not c["active"]) == {"active": False}
    # A client that refused GMCP was never sent any.
    assert alice.gmcp_messages == [] and bob.gmcp_messages == []


def test_a_screen_reader_gets_sentences(fray_server, arena):
    st, alice, bob = arena
    a = alice.account_name
    alice.command("option screenreader=True", r"SCREENREADER was changed")
    guard_fight(st, alice, bob)
    hud = alice.command("+combat", r"Round 1\. Storyteller: [^\n]*\n(?:.*\n)*?.*Guard \(NPC\)[^\n]*\n")
    assert "~" not in hud and "    " not in hud, hud
    assert "Guard (NPC), init 14, health Healthy, 7 of 7 free, status TO ACT." in hud, hud
    seen = st.command(f"+damage {a}=2 lethal", r"Hurt \(-1\) \[LL\.{5}\]")  # the staff's plain view
    assert "[LL.....]" in seen
    heard = alice.expect(r"<Combat> [^\n]*\(by [^\n]*\n")
    assert f"{a}: Healthy, 7 of 7 free + 2 lethal gives Hurt (-1), 2 lethal, 5 of 7 free (by" in heard, heard
    # escaped text stays literal: Evennia strips a screen reader's colour codes, then parses again
    alice.command("+armor/show nobody|/x|rred%rz%ch", r"No one called 'nobody\|/x\|rred%rz%ch' here")
    st.command("+combat/end", r"end the fight")


def test_bad_gmcp_from_a_client_is_ignored_in_a_line_of_log(fray_server, fray_client):
    from pathlib import Path

    from .harness import GMCP, IAC, SB, SE

    st = fray_client(superuser=True)
    name = f"gil{uuid.uuid4().hex[:6]}"
    gil = fray_server.client(name=name, gmcp=True)
    gil.login(name, "Fr4y-" + uuid.uuid4().hex[:12])
    gil.expect_gmcp("Fray.Combat")
    logs = Path(fray_server.game_dir) / "server" / "logs"
    before = {log: (logs / log).stat().st_size for log in ("portal.log", "server.log")}

    def gmcp(body: bytes) -> None:
        gil._sendall(bytes([IAC, SB, GMCP]) + body.replace(b"\xff", b"\xff\xff") + bytes([IAC, SE]))

    for body in (b"Core.Hello {not json", b"Core.Hello " + b"[" * 30000 + b"]" * 30000,
                 b"Core.\xc3\x28Hello {}", b'Char.Login {"name": "gil", "password": "hunter2"}', b"Core.Ping"):
        gmcp(body)
    gmcp(b'Core.Hello "' + b"B" * 70000 + b'say INJECTED"')  # over 64 KB: skipped to its IAC SE
    gil.command("look", r"Limbo")
    tag = uuid.uuid4().hex[:6]
    gil.command(f"say still here {tag}", rf'You say, "still here {tag}"')
    assert "INJECTED" not in gil.transcript
    written = {log: (logs / log).read_bytes()[size:] for log, size in before.items()}
    assert b"Traceback" not in written["portal.log"] + written["server.log"], written
    assert b"hunter2" not in written["portal.log"] + written["server.log"]
    assert len(written["portal.log"]) < 4000, len(written["portal.log"])  # a line each, not the data

    # The client turns GMCP off: nothing more is sent to it.
    gil._sendall(bytes([IAC, 254, GMCP]))  # IAC DONT GMCP
    gil.read_for(0.5)
    gil.gmcp_messages.clear()
    st.command(f"+damage {name}=1 lethal", r"Hurt|Bruised")
    gil.expect(r"\(by ")
    gil.read_for(1.0)
    assert gil.gmcp_messages == []
