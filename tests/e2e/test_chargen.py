"""End to end over telnet, one server: a new player builds a storyteller sheet with +chargen,
submits it, cannot join a fight until staff approve it (the game's default,
FRAY_UNAPPROVED_MAY_JOIN = False), is told of the approval, then fights with the sheet they
built and spends the experience staff award; then builds, submits and has approved an aeon, an
eldritch and an elethril sheet (its scores rolled over telnet), and fights with each."""

import re
import uuid

import pytest

from .conftest import force
from .harness import FrayServer

pytestmark = pytest.mark.e2e

SHEET = [("Strength", 4), ("Dexterity", 4), ("Stamina", 3), ("Charisma", 3), ("Manipulation", 3),
         ("Appearance", 2), ("Perception", 2), ("Intelligence", 2), ("Wits", 2),
         ("Alertness", 3), ("Athletics", 3), ("Brawl", 3), ("Dodge", 3), ("Awareness", 1),
         ("Melee", 3), ("Firearms", 3), ("Stealth", 3), ("Medicine", 3), ("Occult", 2), ("Willpower", 10)]


AEON = [("Strength", 3), ("Dexterity", 4), ("Stamina", 2), ("Perception", 3), ("Intelligence", 2), ("Wits", 3),
        ("Appearance", 2), ("Manipulation", 2), ("Charisma", 2), ("Brawl", 3), ("Melee", 3), ("Firearms", 3),
        ("Athletics", 3), ("Awareness", 3), ("Stealth", 3), ("Willpower", 6), ("Dexterity", 5), ("Endurance", 1)]
ELDRITCH = [("Strength", 4), ("Dexterity", 4), ("Constitution", 3), ("Intelligence", 3), ("Perception", 3),
            ("Willpower", 3), ("Brawl", 5), ("Melee", 4), ("Acrobatics", 3), ("Notice", 3),
            ("Acute Senses", 1), ("Fast Reaction Time", 1), ("Natural Toughness", 1), ("Hard to Kill", 2),
            ("Atemi Grip", 1)]


@pytest.fixture(scope="module")
def strict_server():
    server = FrayServer(extra_settings="FRAY_UNAPPROVED_MAY_JOIN = False")
    try:
        server.start()
        yield server
    finally:
        server.cleanup()


def test_a_new_player_builds_submits_is_approved_and_fights(strict_server):
    tag = uuid.uuid4().hex[:6]
    st = strict_server.client(name="st")
    st.login(strict_server.admin_user, strict_server.admin_password, create=False)
    alice = strict_server.client(name="alice")
    name = f"alice{tag}"
    alice.login(name, f"Fr4y-{uuid.uuid4().hex[:12]}")

    created = st.command(f"dig Hall{tag}", r"Created room Hall\w+\(#\d+\)")
    room = "#" + re.search(r"Created room Hall\w+\(#(\d+)\)", created).group(1)
    st.command(f"tel {room}", r"Hall")
    st.command(f"tel {name}={room}", r"Teleported")
    alice.expect(r"Hall")

    alice.command("+sheet", r"\(no traits set\)")
    alice.command("+chargen", r"Next: 7 points left for Physical\.")
    alice.command("+chargen/set Brawl=4", r"<Fray> Brawl 4 is over the creation maximum 3\.")
    for trait, rating in SHEET:
        alice.command(f"+chargen/set {trait}={rating}", rf"your {trait} is now {rating}\.")
    alice.command("+chargen", r"Ready: \+chargen/submit")
    alice.command("+chargen/submit", r"Your storyteller sheet is submitted \(#\d+\)")
    st.expect(rf"{name} submits their storyteller sheet for approval \(#\d+\)")

    st.command("+combat/start", r"Round 1")
    alice.command("+combat/join", r"<Fray> Your storyteller sheet is not approved yet, so you cannot join on your own")

    st.command("+approve/list", rf"{name}.*storyteller")
    st.command(f"+approve {name}=Welcome!", rf"You approve {name}'s storyteller sheet")
    alice.expect(r"Your storyteller sheet is approved by .*Comment: Welcome!")
    alice.command("+chargen/set Brawl=2", r"<Fray> Your storyteller sheet is approved: raise traits with \+xp/spend")

    alice.command("+combat/join", r"You join the fight")
    force(st, [7])
    alice.command("+combat/init", r"rolls initiative: Wits 2 \+ Dexterity 4 = 6 \+ 1d10 \(7\) = 13\.")
    force(st, [1])
    st.command("+npc/init Guard=2+3", r"Guard.* rolls initiative: .*= 6\.")
    st.command("+stat Guard/Stamina=1", r"Guard's Stamina is now 1\.")
    st.command("@dice/clear", r"Forced dice queue: empty")

    # Alice's punch with the sheet she built: Dexterity 4 + Brawl 3 = 7 dice.
    force(st, [9, 9, 9, 2, 2, 2, 2])
    told = alice.command("attack Guard", r"punch to hit: Dexterity 4 \+ Brawl 3 = 7 dice vs 6: 9 9 9 2 2 2 2")
    assert "3 successes" in told + alice.read_for(0.5)
    st.command("@dice/force " + ",".join(["9"] * 12), r"Forced dice queue: ")
    st.command("+combat/resolve", r"Guard takes \d+ levels? of bashing")
    st.command("@dice/clear", r"Forced dice queue: empty")

    alice.command("+xp", r"You have 0 XP\.")
    st.command(f"+xp/award {name}=3/First fight", rf"You award {name} 3 XP")
    alice.expect(r"awards you 3 XP: First fight \(balance 3\)\.")
    alice.command("+xp/spend Athletics", r"<Fray> Athletics 4 costs 6 XP; you have 3\.")
    alice.command("+xp/spend Awareness", r"You spend 2 XP: your storyteller Awareness is now 2\. 1 XP left\.")

    # The other systems: each built, submitted and approved by its switch.
    for trait, rating in AEON:
        alice.command(f"+chargen/set/aeon {trait}={rating}", rf"your {trait} is now {rating}\.")
    for trait, rating in ELDRITCH:
        alice.command(f"+chargen/set/eldritch {trait}={rating}", rf"your {trait} is now {rating}\.")
    # elethril: the scores are rolled (3d6 in order, real dice); a class needs its prime score at
    # 9 or more, so a roll that reaches none (about 1 in 50) is tried again by a new player
    roller, roller_name = alice, name
    for attempt in range(6):
        rolled = roller.command("+chargen/roll/elethril",
                                r"you roll 3d6 for each score, in order: Strength \d+ \(\d\+\d\+\d\).*$")
        roller.command("+chargen/log", r"elethril rolled 3d6 in order")
        scores = dict(re.findall(r"(Strength|Dexterity|Intelligence|Wisdom) (\d+)", rolled))
        fit = next((klass for klass, score in (("Warrior", "Strength"), ("Rogue", "Dexterity"),
                                               ("Wizard", "Intelligence"), ("Priest", "Wisdom"))
                    if int(scores[score]) >= 9), None)
        if fit:
            break
        roller_name = f"roller{attempt}{tag}"
        roller = strict_server.client(name=roller_name)
        roller.login(roller_name, f"Fr4y-{uuid.uuid4().hex[:12]}")
        st.command(f"tel {roller_name}={room}", r"Teleported")
    assert fit, "six rolls reached no class's prime score"
    roller.command(f"+chargen/set/elethril class={fit}", rf"you are a {fit}: THAC0 20")
    for key, player, who in (("aeon", alice, name), ("eldritch", alice, name), ("elethril", roller, roller_name)):
        player.command(f"+chargen/submit/{key}", rf"Your {key} sheet is submitted")
        st.command(f"+approve/{key} {who}", rf"You approve {who}'s {key} sheet")
        player.expect(rf"Your {key} sheet is approved by")

    # ... and each approved sheet joins a fight of its system on its own and attacks with it
    st.command("+combat/end", r"You end the fight")
    for key, player, who in (("aeon", alice, name), ("eldritch", alice, name)):
        st.command(f"+combat/start {key}", rf"You start a fight \({key}\)")
        player.command("+combat/join", r"You join the fight")
        force(st, [10])
        player.command("+combat/init", rf"{who} rolls initiative")
        force(st, [1])
        st.command("+npc/init Guard=1+1", r"Guard.* rolls initiative")
        st.command("@dice/clear", r"Forced dice queue: empty")
        player.command("attack Guard", rf"{who}.*Guard")
        st.command("+combat/end", r"You end the fight")
    st.command("+combat/start elethril", r"You start a fight \(elethril\)")
    roller.command("+combat/join", r"You join the fight")
    st.command("+npc/create Orc=orc", r"Created Orc from the orc template\.")
    st.command("+combat/add Orc", r"Orc.* brought into the fight\.")
    roller.command("attack Orc", rf"{roller_name} will attack Orc")
    st.command("+combat/end", r"You end the fight")
