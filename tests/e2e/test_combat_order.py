"""End to end: the Storyteller changes this round's acting order over real telnet
(``+combat/order``); the HUD and whose turn it is follow, through a reload, and the next
round goes by initiative again. Dice forced with ``@dice/force``."""

import re

import pytest

from .conftest import guard_fight

pytestmark = pytest.mark.e2e


def places(hud: str) -> list[str]:
    """The names on the HUD's rows, in order."""
    return [match.group(1) for match in re.finditer(r"^\s*\d+\s+(\S+)", hud, re.MULTILINE)]


def test_the_storyteller_reorders_the_round(fray_server, fray_client, arena):
    st, alice, bob = arena
    a, b = alice.account_name, bob.account_name
    guard_fight(st, alice, bob)          # Guard 14, Alice 12, Bob 8: the Guard to act
    hud = alice.command("+combat", r"Declare \(low to high\): .*$")
    assert places(hud) == ["Guard", a, b]

    alice.command(f"+combat/order {b}=1",
                  r"<Fray> Only this scene's Storyteller or staff can change the acting order\.")
    st.command(f"+combat/order {b}=1", rf"Round 1: {b} to act\.")
    bob.expect(rf"puts {b} at place 1 of this round's order\.")
    hud = alice.command("+combat", r"Declare \(low to high\): .*$")
    assert "Order: the Storyteller's, this round only (+combat/order)." in hud
    assert places(hud) == [b, "Guard", a]
    assert re.search(rf"1\s+{b}\s+8\s+.*TO ACT", hud)
    alice.command("attack Guard", rf"<Fray> It is not {a}'s turn: waiting on {b}\.")
    st.command(f"+combat/order {a}=before Guard", rf"put {a} at place 2 of this round's order\.")
    log = st.command("+combat/log", rf"order: {a} to place 2\s+Round 1 order: .*$")
    assert f"Round 1 order: 1. {b}, 2. {a}, 3. Guard" in log

    # The order is kept in the fight: a reload changes nothing.
    fray_server.reload()
    st2 = fray_client(superuser=True)
    bob2 = fray_client(b, bob.password, create=False)
    hud = bob2.expect(r"Declare \(low to high\): .*$")     # the fight, shown as Bob logs back in
    assert places(hud) == [b, a, "Guard"]
    hud = bob2.command("+combat", r"Declare \(low to high\): .*$")
    assert "Order: the Storyteller's, this round only (+combat/order)." in hud
    assert places(hud) == [b, a, "Guard"]
    st2.command("+combat/next", rf"Round 1: {a} to act\.")
    st2.command("+combat/next", r"Round 1: Guard to act\.")
    out = st2.command("+combat/next", r"Round 2: Guard to act\.")
    assert "Round 2 begins." in out
    hud = bob2.command("+combat", r"Declare \(low to high\): .*$")
    assert places(hud) == ["Guard", a, b]
    assert "Order: the Storyteller's" not in hud
    st2.command("+combat/end", r"You end the fight after 2 rounds\.")
