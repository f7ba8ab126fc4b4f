"""`make run`'s start (python -m server.startup start): it says what it waits for, and
when the server stops making progress it gives up and stops what it started; on a new
database it is ready only once Evennia's setup restart is over; stale pid files do not stop it; `stop` returns once the Portal and Server have left."""

import subprocess
import sys

import pytest

from server.startup import INITIAL_SETUP_DONE, RESET_DONE, Game

from .harness import CONNECTION_SCREEN_RE, FrayServer, TelnetClient

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


def test_a_first_start_is_ready_when_a_player_can_log_in_and_stale_pid_files_are_removed():
    """On a new database Evennia runs its initial setup, shows the login screen for a moment,
    then restarts the Server once: `start` says ready only after that restart. And pid files
    left by a kill, whose pids now belong to other processes (a restarted container), are
    removed instead of making twistd refuse to start ("Another twistd server is running")."""
    server = FrayServer()
    squatter = subprocess.Popen(["sleep", "600"])  # a live process that is not Fray's
    try:
        server.migrate()
        for pidfile in (server.server_pidfile, server.portal_pidfile):
            pidfile.write_text(f"{squatter.pid}\n")
        server.running = True  # cleanup stops it
        done = subprocess.run(
            [sys.executable, "-m", "server.startup", "start"],
            cwd=server.game_dir, env=server.env(), stdin=subprocess.DEVNULL,
            capture_output=True, text=True, timeout=600,
        )
        ready_log = (server.game_dir / "server" / "logs" / "server.log").read_text()
        out = done.stdout + done.stderr
        print(out)
        assert done.returncode == 0, out + server.log_tail()
        assert f">>> removed the stale server.pid (pid {squatter.pid}" in out
        assert f">>> removed the stale portal.pid (pid {squatter.pid}" in out
        assert squatter.poll() is None  # only its pid files were touched

        # when it said ready, Evennia's one restart after the setup was over
        setup = ready_log.index(INITIAL_SETUP_DONE)
        assert ready_log.find(RESET_DONE, setup) > setup, ready_log

        # and a player logs in at once
        with TelnetClient(server.host, server.telnet_port, name="first") as client:
            client.expect(CONNECTION_SCREEN_RE, timeout=5)
            client.read_for(0.3)
            client.login(server.admin_user, server.admin_password, create=False, timeout=10)

        # `stop` returns only once the Portal and the Server have left, their pid files with them
        done = subprocess.run(
            [sys.executable, "-m", "server.startup", "stop"],
            cwd=server.game_dir, env=server.env(), stdin=subprocess.DEVNULL,
            capture_output=True, text=True, timeout=120,
        )
        out = done.stdout + done.stderr
        assert done.returncode == 0, out
        assert Game(server.game_dir).processes() == {"portal": [], "server": []}, out
        assert ">>> nothing left running." in out
        assert not server.portal_pidfile.exists() and not server.server_pidfile.exists()
        server.running = False
    finally:
        squatter.kill()
        squatter.wait()
        server.cleanup()
