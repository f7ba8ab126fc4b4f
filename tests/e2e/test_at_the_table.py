"""End to end, over real telnet: what a table needs from a fight. An unanswered defense is
named on the HUD, stops +combat/next and lapses after the Storyteller's +combat/timeout on
the Server's own timer; +combat/next with the turn number passes that turn once; poses are
counted; a blow that would kill a player character leaves them dying until +combat/kill."""

import re

import pytest

from .conftest import force, guard_fight

pytestmark = pytest.mark.e2e


def test_waiting_defense_timeout_next_by_number_poses_and_death(fray_server, fray_client, arena):
    st, alice, bob = arena
    a, b = alice.account_name, bob.account_name
    guard_fight(st, alice, bob)   # Guard 14, alice 12, bob 8: the Guard to act

    # A defense waits: named on the HUD; +combat/next passes nothing; it lapses after 10 s.
    st.command("+combat/timeout 10", r"You give each defense 10 seconds")
    force(st, [9, 8, 7, 3, 2, 2, 2, 2, 2, 2])   # 3 to hit; then damage 4 dice and no success
    st.send(f"attack Guard={a}")
    alice.expect(r"Answer: defend dodge, defend block or defend none")
    hud = st.command("+combat", r"Storyteller: \+combat/next \d+ passes this turn")
    assert re.search(rf"Turn: \w+; waiting for {a}'s defense", " ".join(hud.split())), hud
    st.command("+combat/next", rf"Nothing passed: waiting for {a}'s defense\.")
    alice.expect(rf"No defense from {a} within 10 seconds\.", timeout=40)

    # +combat/next with the number the HUD shows passes that turn, and only once.
    hud = st.command("+combat", r"Storyteller: \+combat/next \d+ passes this turn")
    turn = re.search(r"\+combat/next (\d+) passes this turn", hud).group(1)
    st.send(f"+combat/next {turn}")
    st.send(f"+combat/next {turn}")
    seen = " ".join(st.read_for(2.0).split())
    assert seen.count(f"{a} passes") == 1 and f"Turn {turn} is over; nothing passed." in seen, seen

    # Poses: bob has not posed this round; after his pose, he has.
    assert f"Still to pose: {a}, {b}." in " ".join(st.command("+combat/poses", r"Pose order").split())
    bob.command(":squares up.", rf"{b} squares up\.")
    assert f"Posed: {b}. Still to pose: {a}." in " ".join(st.command("+combat/poses", r"Pose order").split())

    # Bob is at death's door (staff damage: their decision), then the Guard's next punch would
    # kill him: he is dying until the Storyteller decides.
    st.command(f"+damage {b}=7 lethal", r"Incapacitated")
    st.command(f"+combat/next {int(turn) + 1}", r"Round 2")
    force(st, [9, 9, 9, 9, 9, 9, 9, 9, 2, 2])
    st.send(f"attack Guard={b}")
    st.expect(rf"{b} is dying: that would kill them\. The Storyteller decides: \+combat/kill {b}, or "
              rf"\+combat/spare {b}\.")
    assert "DYING" in st.command("+combat", r"Storyteller: \+combat/next")
    st.command(f"+combat/kill {b}", rf"{b} dies\. Allowed by \w+\.")
    st.command("+combat/end", r"end the fight")


def test_less_typing_several_traits_at_once_and_every_npcs_initiative(fray_server, fray_client, arena):
    st, alice, bob = arena
    a = alice.account_name
    st.command(f"+stat {a}=Dexterity 4, Brawl 3, Strength 2", r"Strength is now 2")
    sheet = " ".join(alice.command("+sheet", r"Health \(storyteller\)").split())
    assert "Dexterity: 4" in sheet and "Brawl: 3" in sheet and "Strength: 2" in sheet, sheet
    st.command(f"+stat {a}=Dexterity 5, Brawl 99", r"Brawl")   # one bad item: nothing changes
    assert "Dexterity: 4" in " ".join(alice.command("+sheet", r"Health \(storyteller\)").split())
    st.command("+npc/create Thug*2=thug", r"Thug 2")
    st.command("+combat/start", r"Round 1")
    force(st, [5, 6])
    out = " ".join(st.command("+npc/init all", r"Initiative rolled for [^\n]*").split())
    assert "Initiative rolled for Thug 1, Thug 2." in out, out
    st.command("+combat/end", r"end the fight")
