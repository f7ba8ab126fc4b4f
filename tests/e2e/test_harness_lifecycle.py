"""The harness' crash/restart helpers work (and the data survives them)."""

import uuid

import pytest

pytestmark = pytest.mark.e2e


def test_kill_and_restart_keep_accounts(fray_server, fray_client):
    name = f"dora{uuid.uuid4().hex[:8]}"
    fray_client(name, "Dora-pw-77").close()

    old_pid = fray_server._read_pid(fray_server.server_pidfile)
    fray_server.kill()  # SIGKILL the Server, start it again
    assert fray_server._read_pid(fray_server.server_pidfile) != old_pid
    fray_client(name, "Dora-pw-77", create=False).command("look", r"Limbo")

    fray_server.restart()  # full stop + start (Portal too)
    fray_client(name, "Dora-pw-77", create=False).command("look", r"Limbo")
