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
    alice.command(f"attack Guard={a}", r"<Fray> You can only act for yourself; this scene's Storyteller acts for NPCs\.")
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


def test_a_scene_with_three_templated_npcs(arena):
    st, alice, bob = arena
    a = alice.account_name
    bob.command("+npc/create Bandit=thug", r"<Fray> Only a Narrator or staff can")
    st.command("+npc/create Thug*3=thug", r"Created Thug 1, Thug 2, Thug 3 from the thug template\.")
    st.command("+npc/create Thug Z", r"<Fray> 'Thug Z' looks too much like Thug 2")
    st.command("+combat/start", r"Round 1")
    for name, face, total in (("Thug 1", 9, 13), ("Thug 2", 5, 9), ("Thug 3", 1, 5)):
        force(st, [face])
        st.command(f"+npc/init {name}", rf"{name}.* rolls initiative: Wits 2 \+ Dexterity 2 = 4 \+ 1d10 \({face}\) = {total}\.")
    alice.command("+combat/join", r"You join the fight")
    force(st, [7])
    alice.command("+combat/init", r"= 12\.")
    hud = alice.command("+combat", r"Declare \(low to high\): .*$")
    assert [line.split()[1:3] for line in hud.splitlines() if "Thug" in line and "(NPC)" in line] == \
        [["Thug", "1"], ["Thug", "2"], ["Thug", "3"]]

    # Thug 1 slashes at Alice with its switchblade: Dex 2 + Melee 2 = 4 dice vs 6: 9 9 2 2 -> 2.
    force(st, [9, 9, 2, 2])
    st.send(f"attack Thug 1={a}")
    alice.expect(r"Switchblade is coming at .* Answer: defend dodge")
    # The ST removes Thug 1 from the scene: its waiting attack is cancelled with a notice.
    alice.command("+combat", r"Waiting for defense: Thug 1 -> ")
    st.send("+npc/remove Thug 1")
    alice.expect(rf"The attack of Thug 1 on {a} is cancelled\.")
    st.expect(r"You remove Thug 1 from the scene\.")
    st.read_for(0.5)
    listing = st.command("+npc/list", r"Thug 3.*$")
    assert "Thug 1" not in listing and "Thug 2" in listing
    st.command("+combat/log", r"#5 R1 Thug 1: Switchblade at .*\n\s+Switchblade to hit: Dexterity 2 \+ Melee 2 = 4 dice vs 6: 9 9 2 2")
    st.command("+combat/list", r"storyteller\s+1\s+admin\s+3")
    st.command("+combat/end", r"You end the fight after 1 round\.")
