"""End-to-end smoke test: a real server, real telnet connections."""

import re
import uuid

import pytest

pytestmark = pytest.mark.e2e


def test_two_players_see_each_other_speak(fray_client):
    tag = uuid.uuid4().hex[:8]
    alice = fray_client(f"alice{tag}")
    bob = fray_client(f"bob{tag}")

    alice.command("look", r"Limbo")
    alice.send(f"say hello {tag}")
    alice.expect(rf'You say, "hello {tag}')
    bob.expect(rf'alice{tag} says, "hello {tag}')


def test_superuser_can_run_py(fray_client):
    admin = fray_client(superuser=True)
    out = admin.command("py 6*7", r"^42$")
    assert ">>> 6*7" in out


def test_the_server_keeps_its_startup_objects_out_of_the_collector(fray_client):
    # server/conf/at_server_startstop.py: frozen at start, young generations collected less often
    admin = fray_client(superuser=True)
    out = admin.command("py __import__('gc').get_threshold(), __import__('gc').get_freeze_count() > 100000",
                        r"^\(\(\d+, \d+, \d+\), \w+\)$", timeout=30)
    assert "((10000, 20, 50), True)" in out, out


def test_ports_are_the_ones_picked(fray_server):
    assert fray_server.websocket_port == fray_server.web_port + 1
    assert fray_server.amp_port == fray_server.web_port + 5
    assert re.match(r"http://127\.0\.0\.1:\d+/webclient$", fray_server.webclient_url)


def test_reload_keeps_accounts(fray_server, fray_client):
    name = f"carol{uuid.uuid4().hex[:8]}"
    carol = fray_client(name, "carol-pw-1")
    carol.close()

    fray_server.reload()

    again = fray_client(name, "carol-pw-1", create=False)
    again.command("look", r"Limbo")
