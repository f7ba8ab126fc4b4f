"""End to end over telnet: a sheet per rule system. Staff give Alice an elethril sheet (an Elf
with THAC0 17 and a long sword) and an aeon kind (Zeta) beside her storyteller sheet (a
Vampire); in a storyteller fight ``+sheet`` shows her storyteller sheet only, and the Guard's
dagger finds her soaking lethal as the Vampire she is there. Every die is forced."""

import pytest

from .conftest import force, guard_fight

pytestmark = pytest.mark.e2e


def test_each_system_keeps_its_own_sheet(arena):
    st, alice, bob = arena
    a = alice.account_name

    st.command(f"+stat {a}/kind=Vampire", rf"Storyteller sheet: {a}'s kind is now Vampire\.")
    st.command(f"+stat/elethril {a}/kind=Elf", rf"Elethril sheet: {a}'s kind is now Elf\.")
    st.command(f"+stat/elethril {a}/THAC0=17", rf"Elethril sheet: {a}'s THAC0 is now 17\.")
    st.command(f"+stat/elethril {a}/weapon=long sword", rf"Elethril sheet: {a} now holds a long sword\.")
    st.command(f"+stat/aeon {a}/kind=Zeta", rf"Aeon sheet: {a}'s kind is now Zeta\.")
    # What the system does not know is refused, naming it; an unknown switch too.
    st.command(f"+stat {a}/THAC0=17", r"<Fray> On the storyteller sheet: Unknown trait 'THAC0'\.")
    st.command(f"+stat {a}/kind=Zeta", r"<Fray> Kind \(storyteller\) must be one of: Muggle, Wizard, Vampire, "
                                       r"Werewolf\.")
    st.command(f"+stat/zork {a}/kind=Elf", r"<Fray> Unknown switch '/zork' for \+stat\.")

    guard_fight(st, alice, bob)
    st.command("+stat Guard/Melee=1", r"Storyteller sheet: Guard's Melee is now 1\.")
    st.command("+stat Guard/weapon=dagger", r"Storyteller sheet: Guard now holds a Dagger\.")
    sheet = st.command(f"+sheet {a}", r"Health \(storyteller\): [^\n]*")
    assert f"{a}  Character  storyteller sheet  Kind: Vampire" in sheet
    for other in ("Elf", "Zeta", "THAC0", "long sword"):
        assert other not in sheet
    mine = alice.command("+sheet", r"Health \(storyteller\): [^\n]*")
    assert "Kind: Vampire" in mine and "Dexterity: 3" in mine

    # The Guard's dagger: Dexterity 3 + Melee 1: 9 9 9 2 -> 3; damage Strength 2 + Dagger 1 + 2
    # (rollover): 10 10 10 2 2 -> 3 lethal; a Vampire soaks lethal: Stamina 2 vs 5: 6 1 -> 1.
    force(st, [9, 9, 9, 2])
    st.send(f"attack Guard={a}/dagger")
    alice.expect(r"Answer: defend dodge")
    force(st, [10, 10, 10, 2, 2, 6, 1])
    out = alice.command("defend none", rf"{a} takes 2 levels of lethal: Hurt \(-1\) \[LL\.{{5}}\]")
    assert f"{a} soaks: Stamina 2 dice vs 5: 6 1 -> 1 success" in out
    st.command("+combat/end", r"You end the fight")

    elethril = st.command(f"+sheet/elethril {a}", r"Health \(elethril\): [^\n]*")
    assert f"{a}  Character  elethril sheet  Kind: Elf" in elethril
    assert "THAC0: 17" in elethril and "Weapon in hand: long sword" in elethril
    assert "Dexterity" not in elethril
    st.command(f"+sheet/aeon {a}", rf"{a}  Character  aeon sheet  Kind: Zeta")
