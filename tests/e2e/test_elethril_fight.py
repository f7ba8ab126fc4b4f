"""End to end: an elethril fight over real telnet sockets — three rounds of declare, roll,
play the segments; a caster interrupted; state surviving ``evennia reload``. Every die is
forced (``@dice/force``).

The scenario (the admin is the Storyteller; Alice and Bob are the players):

* ``+combat/start elethril``; Alice (THAC0 17, Armor Class 5, 12 hit points, a long sword,
  speed 5) and Bob (THAC0 19, Armor Class 7, 10 hit points, a sling, speed 6) on side
  "party"; the NPCs Zed (hedge-mage: THAC0 20, Armor Class 10, 8 hit points) and Orc (orc:
  THAC0 19, Armor Class 6, 5 hit points, a short sword, speed 3) on side "foes".
* Round 1, group initiative (seed 1a): foes roll 6, party 3 -> party base 1, foes base 4.
  Zed begins casting a Fireball at segment 4 (3 segments: it would take effect at 7);
  Alice's long sword (1 + 5 = segment 6) hits him while casting: the Fireball is spoiled
  (seed 3c). At segment 7 Bob's sling (missile) goes before the Orc's short sword (melee)
  (seed 3b), and no Fireball goes off.
* Round 2, individual initiative: Bob's 5 + 6 = 11 lands in round 3, segment 1 (seed 3a);
  Zed's Magic Missile hits Bob; Alice holds her blow from segment 7 to 8 (``+combat/delay``,
  seed 1c; the HUD's Init shows 7>8), a past segment is refused, and she drops the Orc, whose
  own blow at segment 9 is cancelled at once, which ends the round.
* ``evennia reload``: round 3's declaring, Bob's carried shot and everyone's hit points come
  back the same.
* Round 3: Bob's carried shot lands at segment 1, without a new roll; Zed casts Cure Light
  Wounds (5 segments) and is healed before Alice's long sword drops him.
"""

import re

import pytest

from .conftest import force

pytestmark = pytest.mark.e2e


def folded(text: str) -> str:
    return " ".join(text.split())


def hud(client, last_line: str) -> str:
    """``+combat`` read up to ``last_line`` (a regex for the HUD's last line), from its title."""
    got = client.command("+combat", last_line)
    return got[got.rindex("<Combat> Elethril"):]


def same_fight(board: str) -> str:
    """The HUD with runs of spaces folded and idle marks (the harness disconnects players on a
    reload) left out."""
    return re.sub(r" +", " ", re.sub(r",? idle\b", "", board))


def test_elethril_three_rounds_an_interrupted_caster_and_reload(fray_server, fray_client, arena):
    st, alice, bob = arena
    a, b = alice.account_name, bob.account_name

    # ------------------------------------------------------------------------------ set up
    st.command("+combat/start elethril", r"You start a fight \(elethril\)\. Join with \+combat/join, then declare an "
                                         r"action: attack <target>\[/<weapon>\], cast <spell>\[=<target>\] or use <item>\[=<target>\]\.")
    alice.command("+combat/join", r"You join the fight\. Declare an action")
    bob.command("+combat/join", r"You join the fight\. Declare an action")
    st.command("+npc/create Zed=hedge-mage", r"Created Zed from the hedge-mage template\.")
    st.command("+npc/create Orc=orc", r"Created Orc from the orc template\.")
    st.command("+combat/add Zed,Orc", r"Zed, Orc are brought into the fight\.")
    for who, traits in ((a, {"THAC0": 17, "Armor Class": 5, "Hit Points": 12}),
                        (b, {"THAC0": 19, "Armor Class": 7, "Hit Points": 10})):
        for trait, value in traits.items():
            st.command(f"+stat {who}/{trait}={value}", rf"{trait} is now {value}\.")
    st.command(f"+stat {a}/weapon=long sword", r"now holds a long sword\.")
    st.command(f"+stat {b}/weapon=sling", r"now holds a sling\.")
    st.command(f"+combat/side {a},{b}=party", rf"{a}, {b}: side party\.")
    st.command("+combat/side Zed,Orc=foes", r"Zed, Orc: side foes\.")

    # ------------------------------------------------------------- round 1: declare, roll
    # Round 1: the modifiers go on the side's base (seed 1a).
    alice.command("attack Zed", rf"{a} will attack Zed with long sword; initiative party base \+ 5 \(long sword\)\.")
    bob.command("attack Orc", rf"{b} will attack Orc with sling; initiative party base \+ 6 \(sling\)\.")
    st.command(f"cast Zed=fireball={a}", rf"Zed will cast Fireball at {a}; initiative foes base\.")
    board = hud(alice, r"^10  \.$")
    assert "declaring, waiting on Orc" in board
    assert re.search(r"Zed \(NPC\)\s+foes\s+-\s+declared", board)      # what Zed declared is secret
    force(st, [6, 3])   # sides in alphabetical order: foes 6, party 3
    out = st.command(f"attack Orc={a}", r"hold yours with \+combat/delay\.")
    for line in ("foes: d10 6 -> base 4", "party: d10 3 -> base 1",
                 f"{a}: party base 1 + 5 (long sword) = 6 -> segment 6",
                 f"{b}: party base 1 + 6 (sling) = 7 -> segment 7",
                 "Zed: foes base 4 -> segment 4",
                 "Orc: foes base 4 + 3 (short sword) = 7 -> segment 7",
                 " 4> [casting] Zed begins Fireball",
                 f" 6  [melee] {a} long sword > Zed",
                 f" 7  [spell] Zed Fireball > {a}; [missile] {b} sling > Orc; [melee] Orc short"):
        assert folded(line) in folded(out), line

    # ------------------------------------------------- round 1: the caster is interrupted
    st.command("+combat/next", r"Round 1, segment 4:\n.*Zed begins casting Fireball: it takes effect at segment 7\.")
    force(st, [13, 5])  # Alice: d20 13 vs 17 - 10 = 7, hit; 1d8 5
    out = st.command("+combat/next", r"Zed is hit while casting: Fireball is spoiled\.")
    assert f"{a} long sword: d20 13 vs 7 (THAC0 17 - AC 10): hit" in out
    assert "damage (small/medium): 1d8 (5) = 5" in out
    assert "Zed loses 5 hit points: 3/8 hp" in out
    board = hud(bob, r"^10  \.$")
    assert f"7> [spell] Zed Fireball > {a} (spoiled); [missile] {b} sling > Orc;" in folded(board)
    assert re.search(rf"Zed \(NPC\)\s+foes\s+4\s+Fireball > {a} \(spoiled\)\s+3/8 hp", board), board   # 200 wide
    # Segment 7: Bob's sling d20 14 vs 19 - 6 = 13, hit, 1d4 3 + 1; then the Orc's short
    # sword d20 15 vs 19 - 5 = 14, hit, 1d6 4. No Fireball.
    force(st, [14, 3, 15, 4])
    out = st.command("+combat/next", r"Round 1 is over\. Round 2: declare your actions\.")
    assert out.index(f"{b}'s sling at Orc:") < out.index(f"Orc's short sword at {a}:")
    assert f"{b} sling: d20 14 vs 13 (THAC0 19 - AC 6): hit" in out
    assert "damage (small/medium): 1d4 (3) + 1 = 4" in out
    assert "Orc loses 4 hit points: 1/5 hp" in out
    assert "Orc short sword: d20 15 vs 14 (THAC0 19 - AC 5): hit" in out
    assert f"{a} loses 4 hit points: 8/12 hp" in out
    assert "Fireball" not in out

    # --------------------------------------------- round 2: individual dice, 11+ and delay
    alice.command("attack Orc", rf"{a} will attack Orc with long sword")
    bob.command("attack Zed", rf"{b} will attack Zed with sling")
    st.command(f"cast Zed=magic missile={b}", r"Zed will cast Magic Missile")
    force(st, [2, 5, 1, 6])   # joining order: Alice, Bob, Zed, Orc
    out = st.command(f"attack Orc={a}", r"hold yours with \+combat/delay\.")
    assert f"{a}: d10 2 + 5 (long sword) = 7 -> segment 7" in out
    assert f"{b}: d10 5 + 6 (sling) = 11 -> round 3, segment 1" in out
    assert "Zed: d10 1 -> segment 1" in out
    assert "Orc: d10 6 + 3 (short sword) = 9 -> segment 9" in out
    assert f"Later: r3 s1 {b} sling > Zed" in folded(out)
    alice.command("+combat/delay 8", rf"{a} holds the action to segment 8\.\n\s+{a}: long sword > Orc at segment 8\.")
    assert re.search(rf"{a}\s+party\s+7>8\s+long sword > Orc", hud(bob, r"^10  \.$"))
    st.command("+combat/next", r"Zed begins casting Magic Missile: it takes effect at segment 2\.")
    force(st, [2])      # Magic Missile: 1d4 2 + 1, no attack roll
    st.command("+combat/next", rf"Zed's Magic Missile takes effect on {b}:\n\s+damage: 1d4 \(2\) \+ 1 = 3\n"
                               rf"\s+{b} loses 3 hit points: 7/10 hp")
    alice.command("+combat/delay 2", r"<Fray> Segment 2 has passed: it is segment 3\.")
    # Alice: d20 16 vs 17 - 6 = 11, hit; 1d8 6. The fallen Orc's blow at segment 9 is cancelled
    # at once (said once), which leaves nothing in round 2: it ends.
    force(st, [16, 6])
    out = st.command("+combat/next", r"Round 2 is over\. Round 3: declare your actions\.\n.*still acting.*\.")
    assert f"{a} long sword: d20 16 vs 11 (THAC0 17 - AC 6): hit" in out
    assert "Orc loses 6 hit points: Down -5/5 hp" in out
    assert f"Orc is down: short sword > {a} at segment 9 is cancelled." in out
    assert out.count("Orc is down") == 1
    assert f"{b} is still acting: sling > Zed at segment 1." in out

    last_row = rf"^Carried over: {b}$"
    before_reload = hud(alice, last_row)
    assert f"declaring, waiting on {a}, Zed" in before_reload
    assert re.search(rf"{b}\s+party\s+-\s+sling > Zed\s+7/10 hp\s+busy", before_reload)
    assert re.search(r"Orc \(NPC\)\s+foes\s+-\s+-\s+Down -5/5\s", before_reload)
    assert f" 1  [missile] {b} sling > Zed" in before_reload

    # -------------------------------------------------------------------- evennia reload
    fray_server.reload()
    alice2 = fray_client(a, alice.password, create=False)
    alice2.expect(rf"{a} is back\.")
    alice2.expect(last_row)  # the reconnect notice shows the HUD
    assert same_fight(hud(alice2, last_row)) == same_fight(before_reload)
    st2 = fray_client(superuser=True)

    # ------------------------------------------------- round 3: the carried shot, a heal
    alice2.command("attack Zed", rf"{a} will attack Zed with long sword")
    force(st2, [4, 2])   # Alice 4 + 5 = 9; Zed 2: Cure Light Wounds (5 segments) at 7
    out = st2.command("cast Zed=cure light wounds=Zed", r"hold yours with \+combat/delay\.")
    assert f"{a}: d10 4 + 5 (long sword) = 9 -> segment 9" in out
    assert f"{b}: d10" not in out    # Bob's action holds round 3: no new roll (seed 3a)
    assert f"1> [missile] {b} sling > Zed" in folded(out)
    assert "7 [spell] Zed Cure Light Wounds > Zed" in folded(out)
    force(st2, [18, 1])  # Bob's carried shot: d20 18 vs 19 - 10 = 9, hit; 1d4 1 + 1
    out = st2.command("+combat/next", r"Zed loses 2 hit points: 1/8 hp")
    assert f"{b} sling: d20 18 vs 9 (THAC0 19 - AC 10): hit" in out
    st2.command("+combat/next", r"Zed begins casting Cure Light Wounds: it takes effect at segment 7\.")
    force(st2, [5])
    st2.command("+combat/next", r"healing: 1d8 \(5\) = 5\n\s+Zed regains 5 hit points: 6/8 hp")
    force(st2, [19, 8])  # Alice: d20 19 vs 7, hit; 1d8 8
    out = st2.command("+combat/next", r"Round 3 is over\. Round 4: declare your actions\.")
    assert "Zed loses 8 hit points: Down -2/8 hp" in out
    st2.command("@dice", r"Forced dice queue: empty")  # every forced die was rolled, no more
    out = st2.command("+combat/end", r"You end the fight after 4 rounds\..*Orc: Down -5/5 hp")
    assert f"{a}: 8/12 hp" in out and f"{b}: 7/10 hp" in out and "Zed: Down -2/8 hp" in out
