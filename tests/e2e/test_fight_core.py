"""End to end, the fight core: a Server killed inside a command leaves the fight as it was
before that command (one transaction), and two Storytellers sending +combat/next in the same
instant pass one turn, not two."""

import re
import time

import pytest

from .conftest import force, guard_fight
from .harness import _pid_alive
from .test_crash_recovery import BACK_WITHIN, _login_when_back

pytestmark = pytest.mark.e2e


def test_a_server_killed_inside_a_command_leaves_the_fight_as_before_it(fray_server, arena):
    st, alice, bob = arena
    a, b = alice.account_name, bob.account_name
    guard_fight(st, alice, bob)
    hud_before = st.command("+combat", rf"Turn: Guard.*?{b}[^\n]*")
    log_before = st.command("+combat/log", r"\((\d+) entries\)")
    entries_before = re.search(r"\((\d+) entries\)", log_before).group(1)

    # The Guard's punch (9 8 7 3 2: 3 successes) is rolled, logged and written, and the Server
    # dies between the writes and the commit.
    force(st, [9, 8, 7, 3, 2])
    st.command("@dice/crash", r"kills the Server before its commit")
    pid = fray_server._read_pid(fray_server.server_pidfile)
    st.send(f"attack Guard={a}")
    deadline = time.monotonic() + 15
    while _pid_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _pid_alive(pid), "the armed crash did not kill the Server"
    fray_server.close_clients()

    st2 = _login_when_back(fray_server, fray_server.admin_user, fray_server.admin_password,
                           time.monotonic() + BACK_WITHIN)
    hud_after = st2.command("+combat", rf"Turn: Guard.*?{b}[^\n]*")
    assert "Waiting for defense" not in st2.read_for(0.5)

    def table(hud):  # from the turn on; who is idle (the clients were closed) aside
        return re.sub(r"\s+", " ", re.sub(r",? idle\b|~+", "", hud.split("Turn:", 1)[1]))   # the rule: the window's width

    assert table(hud_after) == table(hud_before)
    assert "acted" not in table(hud_after) and "TO ACT" in table(hud_after)
    log_after = st2.command("+combat/log", r"\((\d+) entries\)")
    assert re.search(r"\((\d+) entries\)", log_after).group(1) == entries_before
    assert "punch at" not in log_after
    # The faces the lost command rolled are back in the queue with it: the same punch now.
    st2.command("@dice", r"Forced dice queue: 9, 8, 7, 3, 2\r?\n")
    st2.command(f"attack Guard={a}", rf"Guard attacks {a} with[^\n]*\n(?:.*\n)*?.*3 successes")
    st2.command("+combat/end", r"end the fight")


def test_two_storytellers_sending_next_at_once_pass_one_turn(fray_server, fray_client, arena):
    st, alice, bob = arena
    a, b = alice.account_name, bob.account_name
    guard_fight(st, alice, bob)
    st.command("+combat/next", r"Guard passes")                       # Alice (12) to act
    st.command("+combat/next", rf"{a} passes")                        # Bob (8) to act
    st.expect(rf"Round 1: {b} to act")
    staff = fray_client()  # a second staff member, in the same room
    st.command(f"perm *{staff.account_name}=Builder", r"Builder")
    st.command(f"tel {staff.account_name}=here", r"Teleported")
    staff.expect(r"Arena")
    staff.read_for(0.3)
    # Both send +combat/next in the same instant, meaning to pass Bob. The Server is kept busy
    # for a second first, so both presses reach the Portal (which stamps when each arrived)
    # before either is run, however loaded the machine is.
    st.send("py import time; time.sleep(1)")
    st.send("+combat/next")
    staff.send("+combat/next")
    to_st, to_staff = st.read_for(3.0), staff.read_for(0.5)
    for seen in (to_st, to_staff):  # each sees one pass, one new round
        assert seen.count(f"{b} passes") == 1 and seen.count("Round 2 begins") == 1, seen
        assert "Guard passes" not in seen, seen
    refused = " ".join((to_st + to_staff).split())
    assert refused.count("The fight moved on as you sent that; nothing passed. Now: Round 2, Guard's turn.") == 1
    hud = st.command("+combat", r"Turn: [^\n]*")
    assert "Round 2" in hud and "Turn: Guard" in hud, hud
    st.command("+combat/end", r"end the fight")
