"""End to end: an eldritch fight over real telnet sockets — the extra-action schedule, a
firearm, an advanced maneuver (Ear Pop's stun), an approved armor note soaking by its column,
and the fight surviving ``evennia reload``. Every die is forced (``@dice/force``); Eldritch's
Rule of 10 rerolls a forced 10 (initiative's d10 is plain).

The scenario (the admin is the Storyteller; Alice is the player):

* ``+combat/start eldritch``, ``+combat/space 3``. Alice (Dexterity 3, Perception 4, Fast
  Reaction Time: score (3 + 4) / 2 + 3 = 6) rolls 9: 15, so she acts at 15, 10 and 5; the NPC
  Thug (Dexterity 2, Perception 2: score 2) rolls 10: 12, acting at 12, 7 and 2. The order:
  A15, T12, A10, T7, A5, T2.
* Alice asks for the table's Bulletproof Vest (bash 8, lethal 5, bullets 12); staff approve
  it and she wears it.
* Round 1: Alice fires her 9mm at 15 (10 x net SLs, the Thug has no bullets soak). The Thug
  punches at 12 into the vest: bash soak Constitution 2 + armor 8 takes it all. At 10 Alice
  Ear Pops him (bought with +stat), at -2 for her second action: he is stunned for the rest
  of the turn and passed over at 7.
* ``evennia reload``: the same HUD, the stun still on him. Alice's third action (at -4)
  meets his second defense of the turn (at -2); he is passed over at 2; the next turn ends
  the stun and asks for initiative again.
"""

import re

import pytest

from .conftest import force

pytestmark = pytest.mark.e2e

#: The HUD's last line in this fight (after the table): the ST's space.
SPACE = r"Space: 3 yards of room"


def hud(client, last_row: str) -> str:
    """``+combat`` read up to ``last_row`` (a regex); the HUD from its title on."""
    got = client.command("+combat", last_row)
    return got[got.rindex("<Combat> Eldritch"):]


def folded(text: str) -> str:
    """``text`` with every run of whitespace made one space (the HUD wraps long statuses)."""
    return " ".join(text.split())


def test_eldritch_schedule_firearm_ear_pop_armor_and_reload(fray_server, fray_client, arena):
    st, alice, _bob = arena  # Alice's eldritch sheet: Dexterity 3, Strength 2, Brawl 2 and more below
    a = alice.account_name

    # ---------------------------------------------------------------- start and sheets
    st.command("+combat/start eldritch", r"You start a fight \(eldritch\)\..*Eldritch \(1d10 \+ traits, Success Levels\)")
    st.command("+combat/space 3", r"You set the space: 3 yards of room\.")
    # +stat in the eldritch fight's room sets her eldritch sheet (the arena's traits are storyteller's)
    for trait, value in {"Dexterity": 3, "Strength": 2, "Brawl": 2, "Perception": 4, "Constitution": 2, "Firearms": 3, "Acrobatics": 2,
                         "Fast Reaction Time": 1, "Ear Pop": 1}.items():
        st.command(f"+stat {a}/{trait}={value}", rf"{trait} is now {value}\.")
    st.command(f"+stat {a}/weapon=9mm", r"now holds a 9mm\.")
    st.command("+npc/create Thug", r"Thug")
    for trait, value in {"Dexterity": 2, "Perception": 2, "Strength": 2, "Constitution": 2, "Brawl": 2,
                         "Acrobatics": 1}.items():
        st.command(f"+npc/set Thug/{trait}={value}", rf"Thug's {trait} is now {value}\.")
    st.command("+combat/add Thug", r"Thug is brought into the fight\.")
    alice.command("+combat/join", r"You join the fight")

    # ----------------------------------------------------- armor: requested, approved, worn
    filed = alice.command("+request/armor bulletproof vest=The Thug hits hard",
                          r"Request #\d+ filed: Bulletproof Vest\.")
    number = re.search(r"Request #(\d+) filed", filed).group(1)
    st.command(f"+request/approve {number}",
               rf"Request #{number} approved: #{number} Bulletproof Vest \(eldritch: bash 8, lethal 5, bullets 12\)")
    alice.expect(rf"Your armor request #{number} is approved")
    alice.command(f"+armor/wear {number}", rf"You wear #{number} Bulletproof Vest")

    # ---------------------------------------------------------------------- initiative
    force(st, [9])
    alice.command("+combat/init", rf"{a} rolls initiative: \(Dexterity 3 \+ Perception 4\)/2 = 3 \+ "
                  r"Fast Reaction Time 3 = 6 \+ 1d10 \(9\) = 15\.")
    force(st, [10])
    st.command("+npc/init Thug", r"Thug rolls initiative: \(Dexterity 2 \+ Perception 2\)/2 = 2 \+ 1d10 \(10\) = 12\.")
    board = hud(alice, SPACE)
    assert re.findall(rf"^\s+\d\s+({a}|Thug \(NPC\))\s+(\d+)", board, re.M) == [
        (a, "15"), ("Thug (NPC)", "12"), (a, "10"), ("Thug (NPC)", "7"), (a, "5"), ("Thug (NPC)", "2")]
    assert re.search(rf"1\s+{a}\s+15\s+Life Points 26/26\s+TO ACT", board)
    assert "Space: 3 yards of room" in board

    # ------------------------------------------------------------- round 1: the 9mm at 15
    # Dexterity 3 + Firearms 3 + 4 = 10: 1 SL. The Thug dodges with Dexterity + the better of
    # Acrobatics 1 and Brawl 2: 2 + 2 + 3 = 7, a failure.
    # 10 (9mm) x 1 net SL = 10 lethal; the Thug has no bullets soak.
    force(st, [4])
    out = alice.command("attack Thug/9mm", r"Thug may defend\.")
    assert f"{a} 9mm: Dexterity 3 + Firearms 3 + d10 [4] = 10: 1 SL" in out
    force(st, [3])
    out = st.command("defend Thug=dodge", r"Round 1: Thug to act\.")
    assert "Firearms 3 + d10 [4]" not in out  # the to-hit line is told once, with the attack
    assert "Thug dodge: Dexterity 2 + Brawl 2 + d10 [3] = 7: failure" in out
    assert "damage: 10 (9mm) x 1 net SL = 10 lethal" in out
    assert "Thug's bullets soak: 0" in out
    assert "Thug loses 10 Life Points of lethal: Life Points 16/26" in out

    # -------------------------------------- round 1: the Thug's punch at 12 meets the vest
    # Dexterity 2 + Brawl 2 + 6 = 10: 1 SL. Alice dodges: 3 + 2 + 2 = 7, a failure (no action
    # used). (Strength 2 x 2) + 1 = 5 bash against Constitution 2 + armor 8 = 10: nothing.
    force(st, [6])
    st.send(f"attack Thug={a}")
    alice.expect(r"Thug's punch is coming at .* with 1 SL\. Answer: defend dodge, defend block, defend parry")
    force(st, [2])
    out = alice.command("dodge", rf"Round 1: {a} to act\.")
    assert f"{a} dodge: Dexterity 3 + Acrobatics 2 + d10 [2] = 7: failure" in out
    assert "damage: (Strength 2) x 2 + 1 net SL = 5 bash" in out
    assert f"{a}'s bash soak: Constitution 2 + 8 (armor) = 10" in out
    assert f"{a} loses 0 Life Points of bash: Life Points 26/26" in out

    # ------------------------------------------- round 1: Ear Pop at 10, her second action
    # Dexterity 3 + Brawl 2 - 3 (ear pop) - 2 (2nd action) + (10, then 7: 12) = 12: 2 SLs.
    # The ST takes it for the Thug: (Strength 2 x 2) + 2 = 6 bash - Constitution 2 = 4.
    # Constitution doubled 4 - 2 (the attack's SLs) + 7 = 9: 1 SL, fewer than 2: stunned,
    # so the Thug is passed over at 7 and Alice acts again.
    force(st, [10, 7])
    out = alice.command("attack Thug/ear pop", r"Thug may defend\.")
    assert f"{a} Ear Pop: Dexterity 3 + Brawl 2 - 3 (ear pop) - 2 (2nd action) + d10 [10, 7 -> 12] = 12: 2 SLs" in out
    force(st, [7])
    out = st.command("defend Thug=none", rf"Round 1: {a} to act\.")
    assert "damage: (Strength 2) x 2 + 2 net SLs = 6 bash" in out
    assert "Thug loses 4 Life Points of bash: Life Points 12/26" in out
    assert "Thug shakes it off? Constitution x2 4 - 2 (ear pop) + d10 [7] = 9: 1 SL (needs 2 SLs)" in out
    assert "Thug is stunned for the rest of the turn: defend only (no Full Defense)." in out
    st.command(f"attack Thug={a}", rf"<Fray> It is not Thug's turn: waiting on {a}\.")

    last_row = r"6\s+Thug \(NPC\)\s+2\s+Life Points 12/26\s+stunned"
    before_reload = hud(alice, SPACE)
    assert re.search(last_row, before_reload)
    assert re.search(rf"3\s+{a}\s+10\s+Life Points 26/26\s+acted", before_reload)
    assert re.search(r"4\s+Thug \(NPC\)\s+7\s+Life Points 12/26\s+acted, stunned", before_reload)  # passed over
    assert re.search(rf"5\s+{a}\s+5\s+Life Points 26/26\s+TO ACT", before_reload)

    # -------------------------------------------------------------------- evennia reload
    fray_server.reload()
    alice2 = fray_client(a, alice.password, create=False)
    alice2.expect(rf"{a} is back\.")
    alice2.expect(SPACE)  # the reconnect notice shows the HUD; then ask for it
    assert hud(alice2, SPACE) == before_reload
    st2 = fray_client(superuser=True)

    # --------------------------------------------- round 1 goes on: the third action at 5
    # 9mm: 3 + 3 - 4 (3rd action) + 8 = 10: 1 SL. The stunned Thug still dodges, his second
    # defense this turn: 2 + 2 (Brawl, better than Acrobatics 1) - 2 (defense 2) + 5 = 7:
    # 10 lethal more. Then he is passed over at 2: the turn is over.
    force(st2, [8])
    out = alice2.command("attack Thug", r"Thug may defend\.")
    assert f"{a} 9mm: Dexterity 3 + Firearms 3 - 4 (3rd action) + d10 [8] = 10: 1 SL" in out
    force(st2, [5])
    out = st2.command("defend Thug=dodge", r"Round 1: everyone has acted; the ST moves on with \+combat/next\.")
    assert "Thug dodge: Dexterity 2 + Brawl 2 - 2 (defense 2) + d10 [5] = 7: failure" in out
    assert "Thug loses 10 Life Points of lethal: Life Points 2/26" in out

    # ----------------------------------------- a new turn: the stun ends, initiative anew
    out = st2.command("+combat/next", r"Round 2: roll initiative \(\+combat/init; NPCs: \+npc/init <name>\)\.")
    assert "Round 2 begins." in out
    assert "Thug is no longer stunned." in out
    board = hud(alice2, SPACE)
    assert re.search(r"-\s+Thug \(NPC\)\s+-\s+Life Points 2/26\s+no init", board)
    assert "stunned" not in board
    st2.command("@dice", r"Forced dice queue: empty")  # every forced die was rolled, no more
    st2.command("+combat/end", rf"You end the fight after 2 rounds\.\n\s+Thug: Life Points 2/26\n\s+{a}: Life Points 26/26")
