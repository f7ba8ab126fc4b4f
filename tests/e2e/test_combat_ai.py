"""End to end over telnet: the Storyteller hands the Guard to the AI (``+combat/ai``); on its
turn it kicks Alice, who is asked for her defense; switched off and on again, and half hurt,
it answers Alice's punch with its largest defense pool (block). Every die is forced (``@dice/force``)."""

import re

import pytest

from .conftest import force, guard_fight

pytestmark = pytest.mark.e2e


def test_the_ai_guard_attacks_on_its_turn_and_blocks(arena):
    st, alice, bob = arena
    a = alice.account_name
    guard_fight(st, alice, bob)   # Guard 14 (Dexterity 3, Strength 2, Brawl 2, Stamina 2), alice 12, bob 8

    # The Guard's best attack is a kick (3 damage at 7 beats a punch's 2 at 6): 9 9 8 2 2 vs 7.
    force(st, [9, 9, 8, 2, 2])
    st.send("+combat/ai Guard")
    st.expect(r"Guard: run by the AI now")
    alice.expect(rf"Guard's kick is coming at {a} with 3 successes\. Answer: defend dodge, defend block "
                 r"or defend none")
    hud = st.command("+combat", r"Waiting for defense: Guard -> ")
    assert "Guard (AI)" in hud
    # Alice dodges (5 dice: 2 successes), 1 left: damage 3 dice 6 6 6, soak 2 dice 5 2.
    force(st, [6, 6, 2, 2, 2, 6, 6, 6, 5, 2])
    alice.command("dodge", rf"{a} takes 2 levels of bashing: Hurt \(-1\) \[BB\.{{5}}\]")

    # Off: the Storyteller's again; Bob passes, round 2 waits on the Guard, who is moved last.
    st.command("+combat/ai Guard=off", r"Guard: run by the Storyteller again\.")
    st.command("+combat/next", r"Round 2 begins\.")
    st.command("+combat/order Guard=3", r"Guard")
    st.command("+combat/ai Guard", r"Guard: run by the AI now")
    # Unhurt, the AI would keep its action and take the punch; half hurt, it defends. Alice
    # punches (4 dice with her wound: 3 successes); the AI blocks with Dexterity 3 + Brawl 2
    # - 2 (wounds) (its dodge has 1 die): 2 successes; 1 left: damage 2 dice, soak 2 dice.
    st.command("+damage Guard=4 bashing", r"Guard: Healthy .*\+ 4 bashing -> Wounded \(-2\)")
    force(st, [9, 9, 9, 2, 6, 6, 2, 6, 6, 2, 2])
    out = alice.command("attack Guard", r"Guard takes 2 levels of bashing")
    assert "Guard block: Dexterity 3 + Brawl 2 - 2 (wounds) = 3 dice vs 6: 6 6 2 -> 2 successes" in out
    st.command("@dice/clear", r"Forced dice queue: empty")
    st.command("+combat/end", r"You end the fight after 2 rounds\.")


def test_elethril_the_ai_orc_declares_for_the_round(arena):
    st, alice, bob = arena
    a = alice.account_name
    st.command("+combat/start elethril", r"You start a fight \(elethril\)")
    alice.command("+combat/join", r"You join the fight\. Declare an action")
    st.command("+npc/create Orc=orc", r"Created Orc from the orc template\.")
    st.command("+combat/add Orc", r"Orc is brought into the fight\.")
    st.command("+combat/side Orc=foes", r"Orc: side foes\.")
    st.command(f"+combat/side {a}=party", rf"{a}: side party\.")
    # The AI declares for the Orc at once: the weapon in hand at Alice, its only enemy.
    st.send("+combat/ai Orc")
    st.expect(r"Orc: run by the AI now")
    alice.expect(r"Orc declares an action for round 1\.")
    board = " ".join(st.command("+combat", r"Round 1 segments").split())
    assert re.search(rf"Orc \(AI\) foes - [^>]*> (\S+ hp )?{a} ", board), board   # the target may wrap
    # Alice declares too (initiative is rolled); the ST takes the Orc back: its declaration stands.
    force(st, [6, 3])   # with everyone declared, round 1's sides roll: foes 6, party 3
    alice.command("attack Orc", r"declare")
    st.command("+combat/ai Orc=off", r"Orc: run by the Storyteller again\.")
    board = " ".join(st.command("+combat", r"Round 1 segments").split())
    assert re.search(rf"Orc \(NPC\) foes \d+ [^>]*> (\S+ hp )?{a} ", board), board
