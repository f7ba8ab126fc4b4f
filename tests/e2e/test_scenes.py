"""End to end: a scene log over real telnet. Two players pose and say while a Storyteller
fight runs in the room; +scene/log shows their lines and the fight's narration, each once,
in the order the room saw them; the scene goes on after a reload and a restart."""

import re

import pytest

from .conftest import force, guard_fight

pytestmark = pytest.mark.e2e


def test_scene_log_keeps_poses_says_and_fight_narration_in_order(fray_server, fray_client, arena):
    st, alice, bob = arena
    a, b = alice.account_name, bob.account_name

    started = alice.command("+scene/start Ambush at the docks", r"Scene #\d+: Ambush at the docks is recording")
    scene = re.search(r"Scene #(\d+)", started).group(1)
    bob.expect(rf"{a} starts scene #{scene}: Ambush at the docks")
    alice.command(":checks the crates.", rf"{a} checks the crates\.")
    bob.expect(rf"{a} checks the crates\.")
    bob.command("say Quiet, someone is coming.", r'You say, "Quiet, someone is coming\."')
    alice.expect(rf'{b} says, "Quiet, someone is coming\."')

    st.command("@remit Thunder rolls over the harbour.", r"Emitted to Arena\w+ and contents")
    alice.expect(r"Thunder rolls over the harbour\.")
    guard_fight(st, alice, bob)
    # The Guard (14) punches Alice: Dex 3 + Brawl 2 = 5 dice vs 6: 9 8 7 3 2 -> 3 successes.
    force(st, [9, 8, 7, 3, 2])
    st.send(f"attack Guard={a}")
    alice.expect(r"Answer: defend dodge")
    bob.command("pose ducks behind a barrel.", rf"{b} ducks behind a barrel\.")
    alice.expect(rf"{b} ducks behind a barrel\.")

    log = alice.command("+scene/log", r"Page \d+ of \d+ \(\d+ lines\)\.")
    assert all(len(line) <= 78 for line in log.splitlines()), log
    wanted = [
        f"{a} checks the crates.",
        f'{b} says, "Quiet, someone is coming."',
        "Thunder rolls over the harbour.",
        "<Combat> ",  # the Storyteller starts the fight
        f"<Combat> {a} joins the fight.",
        f"<Combat> {b} joins the fight.",
        f"<Combat> {a} rolls initiative: Wits 2 + Dexterity 3 = 5 + 1d10 (7) = 12.",
        f"<Combat> {b} rolls initiative: Wits 1 + Dexterity 2 = 3 + 1d10 (5) = 8.",
        "<Combat> Guard rolls initiative: Wits 2 + Dexterity 3 = 5 + 1d10 (9) = 14.",
        f"<Combat> Guard attacks {a} with punch.",
        "  Guard punch to hit: Dexterity 3 + Brawl 2 = 5 dice vs 6: 9 8 7 3 2 -> 3 successes",
        f"{b} ducks behind a barrel.",
    ]
    flat = " ".join(log.split())  # lines wrap at 78 columns: compare the words
    position = 0
    for text in (" ".join(text.split()) for text in wanted):
        found = flat.find(text, position)
        assert found >= 0, f"{text!r} missing or out of order in:\n{log}"
        position = found + len(text)
    assert flat.count(f"Guard attacks {a} with punch.") == 1
    assert flat.count(f"{a} checks the crates.") == 1
    assert flat.count("Thunder rolls over the harbour.") == 1
    assert flat.count(f"{b} ducks behind a barrel.") == 1

    # The scene lives in the database: it goes on recording after a reload and a restart.
    fray_server.reload()
    alice = fray_client(a, alice.password, create=False)
    alice.command(":hums after the reload.", rf"{a} hums after the reload\.")
    fray_server.restart()
    bob = fray_client(b, bob.password, create=False)
    bob.command("say Still here.", r'You say, "Still here\."')
    first = bob.command(f"+scene/log #{scene}=1", r"Page 1 of \d+ \(\d+ lines\)\.")
    pages = int(re.search(r"Page 1 of (\d+)", first).group(1))
    log = " ".join((first + "".join(bob.command(f"+scene/log #{scene}={page}", rf"Page {page} of {pages} ")
                                    for page in range(2, pages + 1))).split())
    assert "Ambush at the docks" in log and ", running." in log
    ducks = log.find(f"{b} ducks behind a barrel.")
    hums = log.find(f"{a} hums after the reload.")
    still = log.find(f'{b} says, "Still here."')
    assert 0 <= ducks < hums < still, log

    bob.command("+scene/stop", rf"{b} stops scene #{scene} \(\d+ lines\)")
    listing = bob.command("+scene/list", r"\+scene/log #<id> reads one\.")
    assert re.search(rf"^\s*{scene}\s.*Ambush at the docks", listing, re.M), listing


def test_mush_codes_act_in_a_pose_and_stay_as_typed_in_an_error(fray_client, arena):
    # The client strips colour escapes and CRs: a %r arrives as a line end, a colour code not
    # at all; what a player typed in an error line arrives as typed.
    st, alice, bob = arena
    a = alice.account_name
    alice.command("+scene/start %ch%crMUSH%cn codes", r"Scene #\d+: MUSH codes is recording")
    alice.command(":waves.%rThen%bbows %ch%crlow%cn.", rf"{a} waves\.\nThen bows low\.")
    bob.expect(rf"{a} waves\.\nThen bows low\.")
    alice.command("+scene/log", rf"\n{a} waves\.\nThen bows low\.\nPage 1 of 1 \(1 line\)\.")
    alice.command("+scene/log ab%rcd%ch=1", r"'ab%rcd%ch' is not a scene id\. \+scene/list shows them\.")
