"""
Fixtures for end-to-end tests against a real server (see harness.py).

* ``fray_server``  -- session-scoped :class:`FrayServer`, started once,
  always stopped (and its temp game dir removed) at the end of the session,
  also when tests fail.
* ``fray_client``  -- factory for logged-in :class:`TelnetClient` objects::

      alice = fray_client("alice")           # creates account + character
      anon  = fray_client()                  # unique generated name
      admin = fray_client(superuser=True)    # the admin account (#1)
      raw   = fray_client(login=False)       # at the connection screen

  All clients made by the factory are closed after the test.

Every test under tests/e2e is automatically marked ``e2e`` (deselect with
``pytest -m "not e2e"``). Set FRAY_E2E_KEEP=1 to keep the temp game dir.
"""

import itertools
import re
import uuid
from pathlib import Path

import pytest

from .harness import FrayServer, TelnetClient

_E2E_DIR = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    for item in items:
        if _E2E_DIR in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def fray_server():
    server = FrayServer()
    try:
        server.start()
        yield server
    finally:
        server.cleanup()


_counter = itertools.count(1)


@pytest.fixture
def fray_client(fray_server):
    made: list[TelnetClient] = []

    def make(
        name: str | None = None,
        password: str | None = None,
        *,
        superuser: bool = False,
        create: bool = True,
        login: bool = True,
    ) -> TelnetClient:
        if superuser:
            name, password, create = fray_server.admin_user, fray_server.admin_password, False
        if name is None:
            name = f"tester{next(_counter)}x{uuid.uuid4().hex[:6]}"
        if password is None:
            password = f"Fr4y-{uuid.uuid4().hex[:12]}"
        client = fray_server.client(name=name)
        made.append(client)
        client.account_name, client.password = name, password
        if login:
            client.login(name, password, create=create)
        return client

    yield make
    for client in made:
        client.close()


def force(st, faces):
    st.command(f"@dice/force {','.join(map(str, faces))}", r"Forced dice queue: ")


def guard_fight(st, alice, bob):
    """A storyteller fight in the arena: Alice 12, Bob 8 and the Guard 14 (Strength 2, Brawl 2,
    Stamina 2), the Guard to act."""
    st.command("+combat/start", r"Round 1")
    alice.command("+combat/join", r"You join the fight")
    bob.command("+combat/join", r"You join the fight")
    force(st, [7])
    alice.command("+combat/init", r"rolls initiative: .*?=\s+12\.")
    force(st, [5])
    bob.command("+combat/init", r"rolls initiative: .*?=\s+8\.")
    force(st, [9])
    st.command("+npc/init Guard=2+3", r"Guard.* rolls initiative: .*?=\s+14\.")
    for trait, value in {"Strength": 2, "Brawl": 2, "Stamina": 2}.items():
        st.command(f"+stat Guard/{trait}={value}", rf"Guard's {trait} is now {value}\.")


@pytest.fixture
def arena(fray_client):
    """A fresh room holding the ST (the admin) and two players, alice and bob, with sheets.

    Returns (st, alice, bob) clients; the dice queue is empty."""
    tag = uuid.uuid4().hex[:6]
    st = fray_client(superuser=True)
    alice = fray_client(f"alice{tag}")
    bob = fray_client(f"bob{tag}")
    created = st.command(f"dig Arena{tag}", r"Created room Arena\w+\(#\d+\)")
    room = "#" + re.search(r"Created room Arena\w+\(#(\d+)\)", created).group(1)
    st.command(f"tel {room}", r"Arena")
    for who in (alice, bob):
        st.command(f"tel {who.account_name}={room}", r"Teleported")
        who.expect(r"Arena")
    sheets = {
        alice: {"Dexterity": 3, "Brawl": 2, "Strength": 2, "Wits": 2, "Stamina": 2, "Dodge": 2},
        bob: {"Dexterity": 2, "Brawl": 1, "Strength": 2, "Wits": 1, "Stamina": 1},
    }
    for who, traits in sheets.items():
        for trait, value in traits.items():
            st.command(f"+stat {who.account_name}/{trait}={value}", rf"{trait} is now {value}\.")
    st.command("@dice/clear", r"Forced dice queue: empty")
    return st, alice, bob
