"""End to end: a Storyteller magic duel over telnet — a stunner with an Overshoot that strikes a
bystander and splits the damage, a shield, and the shield blocking the next stunner.
Every die is forced (``@dice/force``)."""

import pytest

from .conftest import force

pytestmark = pytest.mark.e2e


def test_stunner_overshoot_and_shield(arena):
    st, alice, bob = arena
    a, b = alice.account_name, bob.account_name
    for who, traits in ((a, {"Power": 4, "Control": 1, "Dueling": 2}), (b, {"Power": 3, "Control": 3, "Dueling": 1})):
        for trait, value in traits.items():
            st.command(f"+stat {who}/{trait}={value}", rf"{trait} is now {value}\.")
        st.command(f"+stat {who}/kind=Wizard", r"kind is now Wizard\.")

    st.command("+combat/start", r"Round 1")
    alice.command("+combat/join", r"You join the fight")
    bob.command("+combat/join", r"You join the fight")
    force(st, [9])
    st.command("+npc/init Guard=2+3", r"= 14\.")
    for trait, value in {"Stamina": 2, "Power": 3, "Control": 3, "Dueling": 1}.items():
        st.command(f"+stat Guard/{trait}={value}", rf"Guard's {trait} is now {value}\.")
    force(st, [7])
    alice.command("+combat/init", r"= 12\.")
    force(st, [5])
    bob.command("+combat/init", r"= 8\.")
    alice.command("+spells", r"stunner\s+Stupefy\s+Fourth Year \(2\)\s+attack\s+bashing")

    # Round 1: the Guard (14) holds back; Alice (12) casts Stupefy at it.
    st.command("+combat/next", rf"Round 1: {a} to act\.")
    # Power 4 vs 6: 9 8 7 6 -> 4 (needs 2: 1 Special Effect success, spent on the hit);
    # Control 1 vs 10: 3 -> 0 < 4: OVERSHOOT. To hit: Dex 3 + Dueling 2 + 1 = 6 dice: 9 9 9 2 2 2 -> 3.
    # The Guard has acted, so no defense; the Overshoot also strikes the only bystander, Bob.
    # Damage: Power 4 vs 7: 10 9 8 2 -> 3 levels, split 3 // 2 = 1 each, 1 dissipating.
    # Soaks (Stamina vs 5): the Guard 2 2 -> 0, Bob 2 -> 0.
    force(st, [9, 8, 7, 6, 3, 9, 9, 9, 2, 2, 2, 10, 9, 8, 2, 2, 2, 2])
    out = alice.command("+cast stunner=Guard", rf"{b} takes 1 level of bashing: Bruised \(0\) \[B\.{{6}}\]")
    assert "Stupefy is cast with an OVERSHOOT (Control 0 < Power 4): 1 Special Effect success." in out
    assert "Dexterity 3 + Dueling 2 + 1 (special effects) = 6 dice vs 6: 9 9 9 2 2 2 -> 3 successes" in out
    assert f"hits Guard and OVERSHOOTS: it also strikes {b}" in out
    assert "split 3 levels among 2 targets: 3 // 2 = 1 each, 1 dissipating." in out
    assert "Guard takes 1 level of bashing: Bruised (0) [B......]" in out

    # Bob (8) raises Protego: Power 3: 9 9 9 -> 3 (needs 2, 0 Special Effects: 1 block);
    # Control 3: 10 10 10 -> 3, no Overshoot.
    force(st, [9, 9, 9, 10, 10, 10])
    bob.command("+cast protego", r"Protego")
    hud = bob.command("+combat", rf"Shield on {b}: .*$")
    assert hud.splitlines()[-1].endswith(f"{b}'s Protego: blocks 1 more attack, protects {b}.")

    # Round 2: the Guard casts Stupefy at Bob. Power 3: 8 8 8 -> 3; Control 3: 10 10 10 -> 3.
    # To hit: Dex 3 + Dueling 1 = 4 dice vs 6: 9 9 2 2 -> 2 successes; Bob may defend.
    st.command("+combat/next", r"Round 2 begins\.")
    force(st, [8, 8, 8, 10, 10, 10, 9, 9, 2, 2])
    st.send(f"+cast Guard=stunner={b}")
    bob.expect(r"Answer: defend dodge")
    out = bob.command("defend none", r"Protego is spent and dissipates\.")
    assert f"{b}'s Protego blocks the Stupefy for {b}." in out
    hud = bob.command("+combat", r"Declare \(low to high\): .*$")
    assert f"Shield on {b}" not in hud
    assert "Bruised (0) [B......]" in hud
    st.command("+combat/end", r"You end the fight after 2 rounds\.")
