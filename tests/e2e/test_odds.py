"""End to end, ``+roll/odds`` over a real telnet socket: the exact chances
in the system of the fight in the room (else the game default), told only to the roller;
no die is used up and nothing is logged."""

import pytest

from .conftest import force

pytestmark = pytest.mark.e2e


def test_odds_follow_the_fight_here_and_roll_nothing(arena):
    st, alice, bob = arena
    force(st, [9, 9, 9])

    # No fight here: the game default (storyteller), Dexterity 3 + Brawl 2 at difficulty 6.
    out = alice.command("+roll/odds dex+brawl vs 6", r"5\+ successes\s+3\.1%")
    assert "Odds for " in out and "Dexterity 3 + Brawl 2 = 5 dice vs 6" in out
    for line in ("Botch                          2.1%", "Failure                       13.5%",
                 "1+ success                    84.4%", "3+ successes                  38.8%"):
        assert line in out, line
    assert "Odds for" not in bob.read_for(0.5)

    # An aeon fight here: target number 7, two successes needed.
    st.command("+combat/start aeon", r"Round 1")
    name = alice.account_name   # her aeon sheet: a sheet per system, set in the aeon fight here
    st.command(f"+stat {name}/Dexterity=3", r"Aeon sheet: .* Dexterity is now 3\.")
    st.command(f"+stat {name}/Brawl=2", r"Aeon sheet: .* Brawl is now 2\.")
    out = alice.command("+roll/odds dex+brawl vs 2", r"5\+ successes\s+1\.0%")
    assert "5 dice at TN 7, 2 successes needed" in out
    assert "Botch                          4.7%" in out and "2+ successes                  66.3%" in out

    # Bad input is one line, and no forced die was used by any of it.
    alice.command("+roll/odds dexteriy", r"Unknown trait 'dexteriy'\. Did you mean Dexterity\?")
    st.command("@dice", r"Forced dice queue: 9, 9, 9")
    st.command("+combat/log", r"Roll log, page 1 of 1 \(0 entries\)")
    st.command("@dice/clear", r"Forced dice queue: empty")
    st.command("+combat/end", r"end the fight")
