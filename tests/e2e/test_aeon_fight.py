"""End to end: an aeon fight over real telnet sockets — armor and hardness, a clinch that
crushes, and the clinch surviving ``evennia reload``. Every die is forced (``@dice/force``).

The scenario (the admin is the Storyteller; Alice, a Baseline, is the player):

* ``+combat/start aeon``; Alice, the NPC Lookout and the NPC Thug roll Dexterity + Wits + 1d10:
  Lookout 14, Alice 10, Thug 7.
* Alice files a request for the aeon table's Hardsuit (bashing 5, lethal 5); staff approve
  it and she wears it: bashing soak Stamina 2 + armor 5 = 7, hardness floor(7 / 2) = 3.
* Round 1: the Lookout (Strength 1) punches her with 1 net success: gross 1 + 1 = 2 is below
  hardness 3, no effect. Alice clinches the Thug, who takes it (``defend Thug=none``): she
  controls the first turn, a hold. The Thug, clinched, may not attack; it passes.
* Round 2: the Lookout punches with 2 net successes: gross 1 + 2 = 3 is at hardness, so one
  die is rolled although 3 - 7 < 1 (minimum damage). Alice, clinched, may not dodge. On her
  turn she crushes the Thug: bashing Strength 2 + net control successes, Armor Piercing by
  the net successes takes the Thug's soak (Stamina 1) down to 0.
* ``evennia reload``: the same HUD (clinch marks, health), and the clinch still binds Alice.
"""

import re

import pytest

from .conftest import force

pytestmark = pytest.mark.e2e


def hud(client, last_row: str) -> str:
    """``+combat``, read up to ``last_row`` (a regex for the end of the table's last row); the
    HUD from its title on."""
    got = client.command("+combat", last_row)
    return got[got.rindex("<Combat> Aeon"):]


def folded(text: str) -> str:
    """``text`` with every run of whitespace made one space (the HUD wraps long statuses)."""
    return " ".join(text.split())


def test_aeon_armor_hardness_clinch_and_reload(fray_server, fray_client, arena):
    st, alice, _bob = arena
    a = alice.account_name
    # Alice's aeon sheet (one sheet per system; the arena's traits are storyteller's), set
    # before the fight with /aeon
    for trait, value in {"Dexterity": 3, "Wits": 2, "Strength": 2, "Brawl": 2, "Stamina": 2}.items():
        st.command(f"+stat/aeon {a}/{trait}={value}", rf"Aeon sheet: {a}'s {trait} is now {value}\.")

    # ---------------------------------------------------------------- start and initiative
    st.command("+combat/start aeon", r"You start a fight \(aeon\)\..*Aeon \(d10 pools at TN 7, successes needed\)")
    alice.command("+combat/join", r"You join the fight")
    force(st, [5])  # Dexterity 3 + Wits 2 = 5, + 5 = 10
    alice.command("+combat/init", rf"{a} rolls initiative: Dexterity 3 \+ Wits 2 = 5 \+ 1d10 \(5\) = 10\.")
    force(st, [9])  # Wits 2, Dexterity 3: 5 + 9 = 14
    st.command("+npc/init Lookout=2+3", r"Lookout rolls initiative: Dexterity 3 \+ Wits 2 = 5 \+ 1d10 \(9\) = 14\.")
    force(st, [3])  # Wits 2, Dexterity 2: 4 + 3 = 7
    st.command("+npc/init Thug=2+2", r"Thug rolls initiative: Dexterity 2 \+ Wits 2 = 4 \+ 1d10 \(3\) = 7\.")
    for npc, traits in (("Lookout", {"Strength": 1, "Brawl": 1}),
                        ("Thug", {"Strength": 3, "Brawl": 1, "Stamina": 1})):
        for trait, value in traits.items():
            st.command(f"+stat {npc}/{trait}={value}", rf"{npc}'s {trait} is now {value}\.")

    # ---------------------------------------------------- armor: requested, approved, worn
    # Filed in the aeon fight's room, so the request is for the aeon armor table's Hardsuit.
    filed = alice.command("+request/armor hardsuit=The Lookout hits hard", r"Request #\d+ filed: Hardsuit\.")
    number = re.search(r"Request #(\d+) filed", filed).group(1)
    st.command(f"+request/approve {number}",
               rf"Request #{number} approved: #{number} Hardsuit \(aeon: bashing 5, lethal 5\) is now {a}'s armor note\.")
    alice.expect(rf"Your armor request #{number} is approved by {fray_server.admin_user}")
    alice.command("+armor/wear hardsuit", rf"You wear #{number} Hardsuit \(aeon: bashing 5, lethal 5\)\.")

    board = hud(alice, r"3\s+Thug \(NPC\)\s+7\s+Healthy \[\.{7}\]")
    assert board.splitlines()[1].startswith(f"Round 1   Storyteller: {fray_server.admin_user}   Turn: Lookout")
    assert re.search(r"1\s+Lookout \(NPC\)\s+14\s+Healthy \[\.{7}\]\s+TO ACT", board)
    assert re.search(rf"2\s+{a}\s+10\s+Healthy \[\.{{7}}\]", board)

    # ----------------------------------------------------- round 1: below hardness, nothing
    # The Lookout punches: Dexterity 3 + Brawl 1 = 4 dice at TN 7, needs 1: 9 2 2 2 -> 1 success.
    force(st, [9, 2, 2, 2])
    st.send(f"attack Lookout={a}")
    alice.expect(r"Lookout's punch is coming at .* with 1 success\. Answer: defend dodge")
    # No defense: gross = Strength 1 + 1 net = 2 < hardness 3 -> no damage roll at all.
    out = alice.command("defend none", r"gross damage 2 is below hardness 3: no effect\.")
    assert "gross damage: Strength 1 + net successes 1 = 2 (bashing)" in out
    assert f"{a}'s bashing soak Stamina 2 + armor 5 = 7, hardness 3" in out
    assert "takes" not in out

    # ------------------------------------------------------------ round 1: the clinch
    # Control pool: the better of Dexterity 3 / Strength 2 + the better of Brawl 2 / Martial
    # Arts 0 = 5 dice: 8 8 1 1 1 -> 2 successes. The Thug has not acted: it may answer.
    force(st, [8, 8, 1, 1, 1])
    out = alice.command("attack Thug/clinch", r"Thug may defend\.")
    assert f"{a} clinch to hit: Dexterity 3 + Brawl 2 = 5 dice TN 7, needs 1: 8 8 1 1 1 -> 2 successes = success" in out
    st.expect(r"Answer: defend Thug=dodge, defend Thug=accept or defend Thug=none")
    # The Thug takes it: Alice controls the first turn, a hold (no dice rolled).
    st.command("defend Thug=none", rf"{a} clinches Thug and controls the first turn: a hold\.")
    board = hud(alice, rf"clinch:{a},\s+held")
    assert "Turn: Thug" in board
    assert re.search(rf"2\s+{a}\s+10\s+Healthy \[\.{{7}}\]\s+acted, clinch:Thug", board)
    assert f"clinch:{a}, held" in folded(board)
    # Clinched, the Thug can only contest control; the ST passes its turn.
    st.command(f"attack Thug={a}", r"<Fray> Thug is in a clinch: contest control with clinch <hold\|crush\|break\|decline>\.")
    st.command("+combat/next", r"Thug passes\.\n.*Round 2 begins\.\n.*Round 2: Lookout to act\.")

    # ------------------------------------ round 2: at hardness, one die; no dodge in a clinch
    # The Lookout punches: 9 8 2 2 -> 2 successes. The damage die (8) is queued now: the
    # refused dodge must roll nothing, so the 8 is still there for the damage roll.
    force(st, [9, 8, 2, 2])
    st.send(f"attack Lookout={a}")
    # In a clinch the only answer offered is none.
    alice.expect(r"Lookout's punch is coming at .* with 2 successes\. Answer: defend none;")
    force(st, [8])
    alice.command("dodge", rf"<Fray> {a} is in a clinch: no dodge, parry or block\.")
    # No defense: gross = Strength 1 + 2 net = 3 = hardness 3: it does something. 3 - soak 7
    # is below 1, so the minimum of 1 die is rolled: 8 -> 1 level of bashing.
    out = alice.command("defend none", rf"{a} takes 1 level of bashing: Bruised \(0\) \[B\.{{6}}\]")
    assert "gross damage: Strength 1 + net successes 2 = 3 (bashing)" in out
    assert f"{a}'s bashing soak Stamina 2 + armor 5 = 7, hardness 3" in out
    assert "damage: gross 3 - soak 7 -> 1 die (minimum) TN 7: 8 -> 1 success" in out

    # ------------------------------------------------------------- round 2: the crush
    # Alice (Bruised, -0) rolls 5 dice: 9 9 8 2 2 -> 3; the Thug the better of Dexterity 2 /
    # Strength 3 + Brawl 1 = 4 dice: 7 2 2 2 -> 1. Alice controls by 3 - 1 = 2 net successes.
    # Crush: bashing = Strength 2 + 2 = 4, Armor Piercing 2: soak Stamina 1 - 2 -> 0,
    # hardness 0; 4 - 0 = 4 dice: 7 7 7 1 -> 3 levels. The contest used the Thug's action too.
    force(st, [9, 9, 8, 2, 2, 7, 2, 2, 2, 7, 7, 7, 1])
    out = alice.command("clinch crush", r"Round 2: everyone has acted; the ST moves on with \+combat/next\.")
    assert f"{a} control: Dexterity 3 + Brawl 2 = 5 dice TN 7, needs 1: 9 9 8 2 2 -> 3 successes = success" in out
    assert "Thug control: Strength 3 + Brawl 1 = 4 dice TN 7, needs 1: 7 2 2 2 -> 1 success = success" in out
    assert f"{a} controls the clinch by 2 net successes (3 to 1)." in out
    assert f"{a} crushes Thug: Strength 2 + net successes 2 = 4 bashing, armor piercing 2." in out
    assert "Thug's bashing soak Stamina 1 - 2 (armor piercing) = 0, hardness 0" in out
    assert "damage: gross 4 - soak 0 -> 4 dice TN 7: 7 7 7 1 -> 3 successes" in out
    assert "Thug takes 3 levels of bashing: Injured (-1) [BBB....]" in out

    last_row = rf"3\s+Thug \(NPC\)\s+7\s+Injured \(-1\) \[BBB\.{{4}}\]\s+acted,\s+clinch:{a}"
    before_reload = hud(alice, last_row)
    assert "Turn: round over (+combat/next)" in before_reload
    assert re.search(r"1\s+Lookout \(NPC\)\s+14\s+Healthy \[\.{7}\]\s+acted", before_reload)
    assert re.search(rf"2\s+{a}\s+10\s+Bruised \(0\) \[B\.{{6}}\]\s+acted, clinch:Thug", before_reload)
    assert "held" not in before_reload  # a crush is no pin: the clinch goes on without a hold

    # -------------------------------------------------------------------- evennia reload
    fray_server.reload()
    alice2 = fray_client(a, alice.password, create=False)
    alice2.expect(rf"{a} is back\.")
    alice2.expect(last_row)  # the reconnect notice shows the HUD; then ask for it
    assert hud(alice2, last_row) == before_reload

    # The clinch still binds: round 3, the Lookout passes, and Alice may not make an attack.
    st2 = fray_client(superuser=True)
    st2.command("+combat/next", r"Round 3 begins\.\n.*Round 3: Lookout to act\.")
    st2.command("+combat/next", rf"Lookout passes\.\n.*Round 3: {a} to act\.")
    alice2.command("attack Lookout", rf"<Fray> {a} is in a clinch: contest control with clinch")
    st2.command("@dice", r"Forced dice queue: empty")  # every forced die was rolled, no more
    out = st2.command("+combat/end", r"You end the fight after 3 rounds\.\n.*Thug: Injured \(-1\) \[BBB\.{4}\]")
    assert f"{a}: Bruised (0) [B......]" in out
    assert "Lookout: Healthy [.......]" in out
