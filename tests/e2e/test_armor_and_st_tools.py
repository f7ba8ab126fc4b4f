"""End to end: a player asks staff for armor, staff approve it, she wears it, and the next hit's
soak roll grows by the armor's dice; her attempts to approve armor herself, set stats or act
for the NPC are refused. Every die is forced (``@dice/force``)."""

import re

import pytest

from .conftest import force

pytestmark = pytest.mark.e2e


def test_approved_armor_changes_the_next_soak(arena):
    st, alice, bob = arena
    a = alice.account_name

    st.command("+combat/start", r"Round 1")
    alice.command("+combat/join", r"You join the fight")
    force(st, [9])
    st.command("+npc/init Guard=2+3", r"= 14\.")
    for trait, value in {"Strength": 2, "Brawl": 2, "Stamina": 2}.items():
        st.command(f"+stat Guard/{trait}={value}", rf"Guard's {trait} is now {value}\.")
    force(st, [7])
    alice.command("+combat/init", r"= 12\.")

    # Round 1, no armor: the Guard's punch (5 dice: 9 9 2 2 2 -> 2) lands undefended;
    # damage Str 2 + rollover 1 = 3 dice: 6 6 2 -> 2; soak Stamina 2 dice: 2 2 -> 0.
    force(st, [9, 9, 2, 2, 2])
    st.send(f"attack Guard={a}")
    alice.expect(r"Answer: defend dodge")
    force(st, [6, 6, 2, 2, 2])
    out = alice.command("defend none", rf"{a} takes 2 levels of bashing: Hurt \(-1\) \[BB\.{{5}}\]")
    assert f"{a} soaks: Stamina 2 dice vs 5: 2 2 -> 0 successes" in out

    # Alice asks for armor; she cannot approve it herself, set stats, or act for the Guard.
    filed = alice.command("+request/armor goblin=The Guard hits hard", r"Request #\d+ filed: .*$")
    number = re.search(r"Request #(\d+) filed", filed).group(1)
    alice.command(f"+request/approve {number}", r"<Fray> Only staff \(Builder or above\) can approve")
    alice.command(f"+stat {a}/Stamina=5", r"<Fray> Only staff \(Builder or above\) can set stats\.")
    alice.command(f"attack Guard={a}", r"<Fray> You can only act for yourself; Storytellers act for NPCs\.")
    alice.command("+armor/wear goblin", r"<Fray> .*")  # nothing approved yet
    st.command(f"+request/approve {number}=Stay safe", rf"Request #{number} approved")
    alice.expect(rf"Your armor request #{number} is approved")
    alice.command(f"+armor/wear {number}", r"Goblin-made Mail")
    alice.command(f"+armor/show {bob.account_name}", r"Goblin-made Mail")
    bob.expect(r"Goblin-made Mail")

    # Alice passes her turn; round 2: the same punch now meets Stamina 2 + armor 2 = 4 soak dice.
    st.command("+combat/next", rf"{a} passes\.\n.*Round 2 begins\.")
    force(st, [9, 9, 2, 2, 2])
    st.send(f"attack Guard={a}")
    alice.expect(r"Answer: defend dodge")
    force(st, [6, 6, 2, 5, 5, 2, 2])
    out = alice.command("defend none", rf"{a} takes 0 levels of bashing: Hurt \(-1\) \[BB\.{{5}}\]")
    assert f"{a} soaks: Stamina 2 + armor 2 = 4 dice vs 5: 5 5 2 2 -> 2 successes" in out

    st.command("+combat/log", r"Stamina 2 \+ armor 2 = 4 dice vs 5: 5 5 2 2")
    st.command("+combat/end", r"You end the fight after 2 rounds\.")
