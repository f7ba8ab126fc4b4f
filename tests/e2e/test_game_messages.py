"""End to end: a game's own message file (``server/conf/messages.toml``). With a broken entry
the Server does not start and ``make run``'s start says why in one line; with a good one the
game says its own words over telnet."""

import re
import subprocess
import sys

import pytest

from server.startup import Game

from .conftest import force
from .harness import FrayServer

pytestmark = pytest.mark.e2e

BROKEN = '[attack]\nopens = "{attacker} swings at {victim}."\n'
HOUSE = ('[prefix]\ncombat = "|r[COMBAT]|n"\n\n'
         '[attack]\nopens = "{attacker} swings {label} at {target}!"\n')


def test_a_broken_message_file_stops_the_start_and_a_good_one_is_spoken():
    server = FrayServer()
    messages = server.game_dir / "server" / "conf" / "messages.toml"
    try:
        messages.write_text(BROKEN)
        server.migrate()
        server.running = True  # cleanup stops whatever is left
        done = subprocess.run(
            [sys.executable, "-m", "server.startup", "start", "--stall", "60"],
            cwd=server.game_dir, env=server.env(), stdin=subprocess.DEVNULL,
            capture_output=True, text=True, timeout=600,
        )
        out = done.stdout + done.stderr
        print(out)
        assert done.returncode == 1, out
        said = [line for line in out.splitlines() if line.startswith("!!! ")]
        assert said == [f"!!! Fray does not start: message catalogue: {messages}: attack.opens: "
                        "unknown placeholder {victim} (this entry has: {attacker}, {target}, {label})"], out
        assert ">>> nothing left running." in out
        assert Game(server.game_dir).processes() == {"portal": [], "server": []}

        messages.write_text(HOUSE)
        server.start()
        st = server.client(name="st")
        st.login(server.admin_user, server.admin_password, create=False)
        room = re.search(r"Created room Ring\(#(\d+)\)", st.command("dig Ring", r"Created room Ring\(#\d+\)"))
        st.command(f"tel #{room.group(1)}", r"Ring")
        st.command("+combat/start", r"\[COMBAT\] .*start a fight")
        force(st, [9])
        st.command("+npc/init Guard=2+3", r"\[COMBAT\] Guard.* rolls initiative: .*?= 14\.")
        force(st, [1])
        st.command("+npc/init Thug=2+3", r"\[COMBAT\] Thug.* rolls initiative: .*?= 6\.")
        force(st, [9, 8, 7, 2, 2])
        out = st.command("attack Guard=Thug", r"\[COMBAT\] Guard swings punch at Thug!")
        assert "<Combat>" not in out, out
    finally:
        server.cleanup()
