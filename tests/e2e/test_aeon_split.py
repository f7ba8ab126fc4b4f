"""End to end: aeon multiple actions over real telnet (the aeon seed: "actions
may be split as normal", Trinity's rule). Every die is forced (``@dice/force``).

Alice (Dexterity 3, Brawl 2, Strength 2; initiative 10) against the NPC Thug (Stamina 1;
initiative 7). Alice declares 2 actions: her first punch loses 2 dice, her second 3. The
declaration, and the action she has left, survive ``evennia reload``.
"""

import pytest

from .conftest import force

pytestmark = pytest.mark.e2e


def hud(client, last: str) -> str:
    got = client.command("+combat", last)
    return got[got.rindex("<Combat> Aeon"):]


def test_aeon_split_actions_through_a_reload(fray_server, fray_client, arena):
    st, alice, _bob = arena
    a = alice.account_name
    st.command("+combat/start aeon", r"You start a fight \(aeon\)")
    # Alice's aeon sheet: +stat in the aeon fight's room (the arena's traits are storyteller's)
    for trait, value in {"Dexterity": 3, "Wits": 2, "Strength": 2, "Brawl": 2, "Stamina": 2}.items():
        st.command(f"+stat {a}/{trait}={value}", rf"Aeon sheet: {a}'s {trait} is now {value}\.")
    alice.command("+combat/join", r"You join the fight")
    force(st, [5])
    alice.command("+combat/init", rf"{a} rolls initiative: .* = 10\.")
    force(st, [3])
    st.command("+npc/init Thug=2+2", r"Thug rolls initiative: .* = 7\.")
    st.command("+stat Thug/Stamina=1", r"Thug's Stamina is now 1\.")

    # The declaration: told to the room with its penalties, and on the HUD.
    out = alice.command("+combat/split 2", rf"{a} declares 2 actions: -2, -3 dice\.")
    assert f"{a} splits the round's actions." in out
    board = hud(alice, rf"Actions: {a} 2 of 2 actions left")
    assert f"Turn: {a}" in board
    alice.command("+combat/split 99", r"<Fray> Declare 1 to 10 actions, not 99\.")

    # Action 1 of 2: Dexterity 3 + Brawl 2 - 2 = 3 dice: 9 2 2 -> 1 success.
    force(st, [9, 2, 2])
    out = alice.command("attack Thug", r"Thug may defend\.")
    assert (f"{a} punch to hit: Dexterity 3 + Brawl 2 - 2 (action 1 of 2) = 3 dice TN 7, needs 1: "
            "9 2 2 -> 1 success = success") in out
    # No defense: gross Strength 2 + 1 = 3 bashing - soak 1 = 2 dice: 7 2 -> 1 level.
    force(st, [7, 2])
    st.command("defend Thug=none", r"Thug takes 1 level of bashing")
    before = hud(alice, rf"Actions: {a} 1 of 2 actions left")
    assert f"Turn: {a}" in before

    # ------------------------------------------------------------------ evennia reload
    fray_server.reload()
    alice2 = fray_client(a, alice.password, create=False)
    alice2.expect(rf"{a} is back\.")
    after = hud(alice2, rf"Actions: {a} 1 of 2 actions left")
    assert after == before

    # Action 2 of 2, after the reload: -3, 2 dice: 9 9 -> 2 successes.
    force_st = fray_client(superuser=True)
    force(force_st, [9, 9])
    out = alice2.command("attack Thug", r"Thug may defend\.")
    assert (f"{a} punch to hit: Dexterity 3 + Brawl 2 - 3 (action 2 of 2) = 2 dice TN 7, needs 1: "
            "9 9 -> 2 successes = success") in out
    force(force_st, [2, 2, 2])
    force_st.command("defend Thug=none", r"Round 1: Thug to act\.")
    hud(alice2, rf"Actions: {a} 0 of 2 actions left")
    alice2.command("attack Thug", rf"<Fray> {a} has already acted this round\.")
    force_st.command("@dice", r"Forced dice queue: empty")
    # A new round clears the declaration.
    force_st.command("+combat/next", r"Round 2 begins\.")
    board = hud(alice2, r"Thug \(NPC\)[^\n]*\n")
    assert "Actions:" not in board
    force_st.command("+combat/end", r"You end the fight after 2 rounds\.")
