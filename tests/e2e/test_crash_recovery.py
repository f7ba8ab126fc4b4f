"""End to end: the Server process dies (kill -9) mid-fight and comes back by itself.

Nobody runs `evennia start`: the Portal's watchdog (server/conf/portal_services_plugins.py)
notices the Server's connection dropped without a shutdown or reload and starts it again.
Within 30 s of the kill a player logs in again, and a player who stayed connected through the
crash is still in character (typeclasses/accounts.py tells the Portal whom each session
puppets): she finds the same fight waiting on her defense and answers it, typing no `ic`.
"""

import re
import time

import pytest

from .conftest import force, guard_fight
from .harness import CONNECTION_SCREEN_RE, HarnessError, TelnetClient

pytestmark = pytest.mark.e2e

BACK_WITHIN = 30.0  # seconds, from the kill to a logged-in player


def _login_when_back(server, name, password, deadline):
    """Keep trying a fresh connection + login until it works or the deadline passes."""
    last = None
    while time.monotonic() < deadline:
        left = deadline - time.monotonic()
        client = None
        try:
            client = TelnetClient(server.host, server.telnet_port, timeout=10, name=name)
            client.expect(CONNECTION_SCREEN_RE, timeout=max(0.5, min(10, left)))
            client.read_for(0.3)
            client.login(name, password, create=False, timeout=max(0.5, min(10, left)))
            server._clients.append(client)  # closed by the harness
            client.account_name, client.password = name, password
            return client
        except (HarnessError, OSError) as err:
            last = err
            if client is not None:
                client.close()
            time.sleep(0.25)
    raise AssertionError(f"{name} could not log in within {BACK_WITHIN}s of the kill: {last}")


def _same_fight(hud):
    text = hud.split("<Combat> Storyteller", 1)[1]
    return re.sub(r" +", " ", re.sub(r",? idle\b", "", text))


def test_killed_server_comes_back_by_itself_mid_fight(fray_server, fray_client, arena):
    st, alice, bob = arena
    a, b = alice.account_name, bob.account_name

    guard_fight(st, alice, bob)

    # The Guard (14) punches Alice: 5 dice vs 6: 9 8 7 3 2 -> 3 successes; she must answer.
    force(st, [9, 8, 7, 3, 2])
    st.send(f"attack Guard={a}")
    alice.expect(r"Answer:\s+defend\s+dodge")
    before = alice.command("+combat", r"Waiting for defense: .*$")
    assert f"Waiting for defense: Guard -> {a}" in before

    portal_pid = fray_server._read_pid(fray_server.portal_pidfile)
    launcher_log = fray_server.launcher_log.read_text()
    # Alice stays connected through the crash; the others leave.
    st.close()
    bob.close()
    alice.read_for(0.3)

    killed_at = time.monotonic()
    deadline = killed_at + BACK_WITHIN
    old_pid = fray_server.kill_server()
    bob2 = _login_when_back(fray_server, b, bob.password, deadline)
    back_after = time.monotonic() - killed_at
    print(f"\nServer pid {old_pid} killed; {b} logged in again after {back_after:.1f}s")
    assert back_after < BACK_WITHIN

    # It came back by itself: a new Server under the same Portal, no launcher command run.
    new_pid = fray_server._read_pid(fray_server.server_pidfile)
    assert new_pid and new_pid != old_pid
    assert fray_server._read_pid(fray_server.portal_pidfile) == portal_pid
    assert fray_server.launcher_log.read_text() == launcher_log
    portal_log = (fray_server.game_dir / "server" / "logs" / "portal.log").read_text()
    assert "Fray watchdog: starting the Server again" in portal_log

    # Alice never left: still in character (no `ic`), the same fight, still waiting on her.
    after = alice.command(
        "+combat", r"Waiting for defense: .*$|Command '\+combat' is not available.*$",
        timeout=max(1.0, deadline - time.monotonic()),
    )
    assert "is not available" not in after, f"{a} came back out of character:\n{after}"
    assert _same_fight(after) == _same_fight(before)
    print(f"{a}, connected throughout, played on after {time.monotonic() - killed_at:.1f}s")
    assert time.monotonic() - killed_at < BACK_WITHIN

    # And she acts: dodge 5 dice: 8 4 3 2 2 -> 1 success; 2 hits left, rollover 1.
    # Damage Str 2 + 1 = 3 dice vs 6: 10 6 2 -> 2; soak Stamina 2 vs 5: 4 1 -> 0.
    st2 = fray_client(superuser=True)
    force(st2, [8, 4, 3, 2, 2, 10, 6, 2, 4, 1])
    alice.read_for(0.3)
    alice.send("dodge")
    alice.expect(rf"{a}\s+takes\s+2\s+levels\s+of\s+bashing:\s+Hurt\s+\(-1\)\s+\[BB\.{{5}}\]")
    bob2.expect(rf"{a}\s+takes\s+2\s+levels\s+of\s+bashing")
    st2.command("+combat/end", r"You\s+end\s+the\s+fight")
