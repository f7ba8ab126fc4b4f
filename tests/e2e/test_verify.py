"""End to end, verifiable dice over real telnet sockets: a fight with real
(unforced) dice commits to its seed when it starts, reveals it when it ends, and
``+combat/verify`` confirms every die; the dice shown are the seed's own."""

import hashlib
import re

import pytest

from rules.dice.seeded import face

pytestmark = pytest.mark.e2e


def test_a_fight_with_real_dice_is_confirmed(arena):
    st, alice, bob = arena
    started = st.command("+combat/start", r"Dice commitment \(SHA-256 of its secret seed\):\s+[0-9a-f]{64}")
    number, commitment = re.search(r"Fight #(\d+)\. Dice commitment \(SHA-256 of its secret seed\):\s+"
                                   r"([0-9a-f]{64})", started).groups()
    alice.command("+combat/join", r"You join the fight")
    bob.command("+combat/join", r"You join the fight")
    init = alice.command("+combat/init", r"rolls initiative: .*?= \d+\.")
    alice_die = int(re.search(r"1d10 \((\d+)\)", init).group(1))
    bob.command("+combat/init", r"rolls initiative: .*?= \d+\.")
    st.command("+npc/init Guard=2+3", r"Guard.* rolls initiative: .*?= \d+\.")
    rolled = alice.command("+roll dex+brawl vs 6", r"5 dice vs 6: [\d ]+->")
    faces = sorted(int(f) for f in re.search(r"5 dice vs 6: ([\d ]+)->", rolled).group(1).split())

    running = bob.command("+combat/verify", r"Dice drawn so far: \d+\.")
    assert f"Fight #{number} (storyteller) is still running" in running
    assert commitment in running and "Dice drawn so far: 8." in running

    ended = st.command("+combat/end", r"Seed: [0-9a-f]{64}")
    assert f"The dice of fight #{number} are revealed: check them with +combat/verify {number}." in ended
    seed = bytes.fromhex(re.search(r"Seed: ([0-9a-f]{64})", ended).group(1))
    assert hashlib.sha256(seed).hexdigest() == commitment
    # The dice shown were the seed's: Alice's initiative die is die 1, her +roll dice 4 to 8.
    assert alice_die == face(seed, 1, 10)
    assert faces == sorted(face(seed, n, 10) for n in range(4, 9))

    report = bob.command(f"+combat/verify {number}", r"Commitment: [0-9a-f]{64}")
    assert f"Fight #{number} (storyteller): seed matches its commitment." in report
    assert "4 entries, 8 dice confirmed; 0 forced (test) dice." in report
    assert "not in the log" not in report
    assert alice.command("+combat/verify", r"Commitment: [0-9a-f]{64}").count("seed matches its commitment") == 1
