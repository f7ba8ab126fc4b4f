"""`make run`'s start (python -m server.startup start): it says what it waits for, and
when the server stops making progress it gives up and stops what it started."""

import subprocess
import sys

import pytest

from server.startup import Game

from .harness import FrayServer

pytestmark = pytest.mark.e2e

#: a Server that hangs, idle, while starting (before it listens or talks to the Portal)
HANGING_PLUGIN = '''
import time


def start_plugin_services(server):
    time.sleep(3600)
'''


def test_a_server_that_makes_no_progress_is_given_up_and_cleaned_away():
    server = FrayServer()
    try:
        (server.game_dir / "server" / "conf" / "server_services_plugins.py").write_text(
            HANGING_PLUGIN
        )
        server.migrate()
        done = subprocess.run(
            [sys.executable, "-m", "server.startup", "start", "--stall", "20"],
            cwd=server.game_dir, env=server.env(), stdin=subprocess.DEVNULL,
            capture_output=True, text=True, timeout=600,
        )
        out = done.stdout + done.stderr
        print(out)
        assert done.returncode == 1, out
        assert ">>> waiting for the Portal" in out or ">>> waiting for the launcher" in out
        assert f"to finish starting and show the login screen on port {server.telnet_port}" in out
        assert "!!! no progress for 20s while waiting for the Server" in out
        assert ">>> stopping what was started (evennia stop)" in out
        assert ">>> nothing left running." in out
        assert Game(server.game_dir).processes() == {"portal": [], "server": []}
        assert not server.portal_pidfile.exists() and not server.server_pidfile.exists()
    finally:
        server.cleanup()
