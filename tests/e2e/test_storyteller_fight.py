"""End to end: a Storyteller fight over real telnet sockets, with forced dice, surviving a
reload, a full restart and a killed server process.

The admin account is the Storyteller; two players fight a light NPC made by
``+npc/init Guard=2+3``. Every die is forced with ``@dice/force`` (the server runs with
``FRAY_TEST_DICE=1``), so every number below is exact.
"""

import re

import pytest

from .conftest import force

pytestmark = pytest.mark.e2e


def test_full_round_reload_restart_and_kill(fray_server, fray_client, arena):
    st, alice, bob = arena
    a, b = alice.account_name, bob.account_name

    st.command("+combat/start", r"Round 1")
    alice.command("+combat/join", r"You join the fight")
    bob.command("+combat/join", r"You join the fight")
    force(st, [7])
    alice.command("+combat/init", r"rolls initiative: Wits 2 \+ Dexterity 3 = 5 \+ 1d10 \(7\) = 12\.")
    force(st, [5])
    bob.command("+combat/init", r"rolls initiative: Wits 1 \+ Dexterity 2 = 3 \+ 1d10 \(5\) = 8\.")
    force(st, [9])
    st.command("+npc/init Guard=2+3", r"Guard.* rolls initiative: Wits 2 \+ Dexterity 3 = 5 \+ 1d10 \(9\) = 14\.")
    for trait, value in {"Strength": 2, "Brawl": 2, "Stamina": 2, "Dodge": 1}.items():
        st.command(f"+stat Guard/{trait}={value}", rf"Guard's {trait} is now {value}\.")

    hud = alice.command("+combat", r"Declare \(low to high\): .*$")
    assert re.search(r"1\s+Guard \(NPC\)\s+14\s+Healthy \[\.{7}\]\s+TO ACT", hud)
    assert re.search(rf"2\s+{a}\s+12", hud) and re.search(rf"3\s+{b}\s+8", hud)
    assert f"Declare (low to high): {b}, {a}, Guard" in hud

    # Players cannot act out of turn or for the NPC.
    alice.command("attack Guard", r"<Fray> It is not .*'s turn: waiting on Guard\.")
    alice.command(f"attack Guard={b}", r"<Fray> You can only act for yourself; this scene's Storyteller acts for NPCs\.")

    # The Guard (14) punches Alice: Dex 3 + Brawl 2 = 5 dice vs 6: 9 8 7 3 2 -> 3 successes.
    force(st, [9, 8, 7, 3, 2])
    st.send(f"attack Guard={a}")
    alice.expect(r"Answer: defend dodge, defend block or defend none")   # no weapon: no parry
    # Alice dodges: Dex 3 + Dodge 2 = 5 dice: 8 4 3 2 2 -> 1 success; 2 hits left, rollover 1.
    # Damage Str 2 + rollover 1 = 3 dice vs 6: 10 6 2 -> 2; soak Stamina 2 vs 5: 4 1 -> 0.
    force(st, [8, 4, 3, 2, 2, 10, 6, 2, 4, 1])
    alice.send("dodge")
    out = alice.expect(rf"{a} takes 2 levels of bashing: Hurt \(-1\) \[BB\.{{5}}\]")
    assert "dodge: Dexterity 3 + Dodge 2 = 5 dice vs 6: 8 4 3 2 2 -> 1 success = 1 success" in out
    assert "1 success cancels 1 of 3: 2 successes left." in out
    assert "damage: Strength 2 + 1 (rollover) = 3 dice vs 6: 10 6 2 -> 2 successes = 2 successes bashing" in out
    assert f"{a} soaks: Stamina 2 dice vs 5: 4 1 -> 0 successes = 0 successes" in out
    bob.expect(rf"{a} takes 2 levels of bashing")

    # Alice used her action to dodge; Bob (8) kicks the Guard, who has acted and can't defend.
    # Kick: Dex 2 + Brawl 1 = 3 dice vs 7: 8 7 1 -> 2 - 1 one = 1 success.
    # Damage Str 2 + 1 = 3 dice vs 6: 7 6 1 -> 2; Guard soaks Stamina 2: 3 2 -> 0.
    force(st, [8, 7, 1, 7, 6, 1, 3, 2])
    out = bob.command("attack Guard/kick", r"Guard takes 2 levels of bashing: Hurt \(-1\) \[BB\.{5}\]")
    assert "Guard has already acted this round and cannot defend." in out
    assert "kick to hit: Dexterity 2 + Brawl 1 = 3 dice vs 7: 8 7 1 -> 2 successes - 1 one = 1 success" in out

    hud_round1 = bob.command("+combat", r"Declare \(low to high\): .*$")
    assert "Round 1: everyone has acted; the ST moves on with +combat/next." in hud_round1  # told after the kick
    assert "Turn: round over (+combat/next)" in hud_round1

    # Round 2: the Guard punches Bob, who is left to answer after a reload.
    st.command("+combat/next", r"Round 2 begins\.")
    # The Guard is Hurt (-1): Dex 3 + Brawl 2 - 1 = 4 dice vs 6: 9 9 2 2 -> 2 successes.
    force(st, [9, 9, 2, 2])
    st.send(f"attack Guard={b}")
    told = bob.expect(r"Answer: defend dodge")
    assert "Guard punch to hit: Dexterity 3 + Brawl 2 - 1 (wounds) = 4 dice vs 6: 9 9 2 2 -> 2 successes" in told
    before_reload = bob.command("+combat", r"Waiting for defense: .*$")

    def same_fight(hud):
        """The HUD from the system line on, spaces folded and the idle marks (players the
        harness disconnected stay in the fight, idle) left out."""
        text = hud.split("<Combat> Storyteller", 1)[1]
        return re.sub(r" +", " ", re.sub(r",? idle\b", "", text))

    # evennia reload: the same fight, to the character (the harness reconnects).
    fray_server.reload()
    after = fray_client(b, bob.password, create=False).command("+combat", r"Waiting for defense: .*$")
    assert same_fight(after) == same_fight(before_reload)
    assert re.search(rf"{a}\s+12\s+.*TO ACT, idle", after)  # Alice's connection was closed: idle

    # Full stop/start: log in again and find the same fight.
    fray_server.restart()
    st2 = fray_client(superuser=True)
    bob2 = fray_client(b, bob.password, create=False)
    assert same_fight(bob2.command("+combat", r"Waiting for defense: .*$")) == same_fight(before_reload)

    # Bob takes it: damage Str 2 + rollover 1 = 3 dice vs 6: 6 6 2 -> 2; soak Stamina 1: 2 -> 0.
    force(st2, [6, 6, 2, 2])
    out = bob2.command("defend none", rf"{b} takes 2 levels of bashing: Hurt \(-1\) \[BB\.{{5}}\]")
    assert f"Guard's punch at {b}:" in out  # the attack kept through reload and restart
    assert "punch to hit" not in out  # its to-hit line was told once, when it was made

    # A killed server process comes back to the same fight and wounds.
    fray_server.kill()
    bob3 = fray_client(b, bob.password, create=False)
    hud = bob3.command("+combat", r"Declare \(low to high\): .*$")
    assert "Round 2" in hud
    assert re.search(r"Guard \(NPC\)\s+14\s+Hurt \(-1\) \[BB\.{5}\]\s+acted", hud)
    assert re.search(rf"{a}\s+12\s+Hurt \(-1\) \[BB\.{{5}}\]\s+TO ACT", hud)
    assert re.search(rf"{b}\s+8\s+Hurt \(-1\) \[BB\.{{5}}\]", hud)
    st3 = fray_client(superuser=True)
    st3.command("+combat/end", r"You end the fight after 2 rounds\.")
