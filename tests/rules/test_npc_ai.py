"""The NPC AI's pure choices (rules/npc_ai.py): exact picks for exact inputs."""

from rules.npc_ai import (
    NPCS,
    PLAYERS,
    Fighter,
    Option,
    choose_attack,
    choose_defense,
    choose_target,
    enemies,
    sides,
)

ANN, BOB = Fighter("Ann", npc=False), Fighter("Bob", npc=False)
GUARD, THUG = Fighter("Guard", npc=True), Fighter("Thug", npc=True)


def test_default_sides_are_players_against_npcs():
    assert sides([ANN, GUARD, THUG], {}) == {"Ann": PLAYERS, "Guard": NPCS, "Thug": NPCS}


def test_a_chosen_side_wins_over_the_default():
    assert sides([ANN, GUARD], {"Guard": "town"}) == {"Ann": PLAYERS, "Guard": "town"}
    assert [f.name for f in enemies("Guard", [ANN, GUARD, THUG], {"Guard": "town"})] == ["Ann", "Thug"]


def test_target_the_most_hurt_able_enemy_then_the_first():
    hurt = Fighter("Bob", npc=False, hurt=0.5)
    assert choose_target("Guard", [ANN, hurt, GUARD], {}) == "Bob"
    assert choose_target("Guard", [ANN, BOB, GUARD], {}) == "Ann"


def test_the_down_come_after_the_able_and_the_dead_never():
    down = Fighter("Ann", npc=False, hurt=0.9, down=True)
    dead = Fighter("Bob", npc=False, hurt=1.0, down=True, dead=True)
    assert choose_target("Guard", [down, BOB, GUARD], {}) == "Bob"
    assert choose_target("Guard", [down, GUARD], {}) == "Ann"
    assert choose_target("Guard", [dead, GUARD], {}) is None


def test_no_enemy_no_target():
    assert choose_target("Guard", [GUARD, THUG], {}) is None
    assert choose_target("Guard", [ANN, GUARD], {"Ann": "x", "Guard": "x"}) is None


def test_best_attack_is_most_dice_plus_damage():
    punch, kick, sword = Option("", 5, 2), Option("kick", 4, 3), Option("sword", 6, 4)
    assert choose_attack([punch, kick]) == punch          # 7 each: the more dice
    assert choose_attack([Option("", 4, 3), kick]) == Option("", 4, 3)   # a full tie: the first
    assert choose_attack([punch, kick, sword]) == sword


def test_an_attack_without_damage_only_when_nothing_else():
    hold, punch = Option("hold", 9, 0), Option("punch", 3, 1)
    assert choose_attack([hold, punch]) == punch
    assert choose_attack([hold]) == hold
    assert choose_attack([]) is None


def test_best_defense_is_the_largest_pool():
    assert choose_defense([Option("dodge", 3), Option("block", 5), Option("parry", 5)]) == Option("block", 5)
    assert choose_defense([]) is None


def test_the_spell_cast_is_the_worst_damage_it_casts_reliably():
    from rules.npc_ai import SpellChoice, choose_spell

    stun, burn, blast = SpellChoice("stun", 2, "bashing"), SpellChoice("burn", 2, "lethal"), SpellChoice("blast", 3, "lethal")
    curse = SpellChoice("curse", 5, "aggravated")
    assert choose_spell([stun, burn, blast, curse], 4) == burn      # blast needs 3 of 4 dice
    assert choose_spell([stun, burn, blast, curse], 6) == blast     # lethal, the higher level
    assert choose_spell([stun, burn, blast, curse], 10) == curse
    assert choose_spell([stun, burn], 3) is None                    # 2 of 3 dice: too risky
    assert choose_spell([stun], 0) is None
    assert choose_spell([], 9) is None
