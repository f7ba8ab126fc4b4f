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
    rank_targets,
    sides,
    worth_defending,
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


def test_the_helpless_are_left_alone_unless_allowed_and_the_dead_always():
    down = Fighter("Ann", npc=False, hurt=0.9, down=True)
    idle = Fighter("Cid", npc=False, hurt=0.0, idle=True)
    dead = Fighter("Bob", npc=False, hurt=1.0, down=True, dead=True)
    assert choose_target("Guard", [down, BOB, GUARD], {}) == "Bob"
    assert choose_target("Guard", [down, GUARD], {}) is None
    assert choose_target("Guard", [idle, GUARD], {}) is None
    assert rank_targets("Guard", [down, idle, BOB, GUARD], {}, helpless_too=True) == ["Bob", "Ann", "Cid"]
    assert choose_target("Guard", [dead, GUARD], {}, helpless_too=True) is None


def test_no_enemy_no_target():
    assert choose_target("Guard", [GUARD, THUG], {}) is None
    assert choose_target("Guard", [ANN, GUARD], {"Ann": "x", "Guard": "x"}) is None


def test_best_attack_is_the_most_damage_to_expect():
    punch = Option("", 5, 2, chance=0.75)        # 1.5 to expect
    kick = Option("kick", 4, 3, chance=0.5)      # 1.5: a tie, the likelier to hit wins
    sword = Option("sword", 6, 4, chance=0.25)   # 1.0: the most damage, but it seldom hits
    assert choose_attack([kick, punch]) == punch
    assert choose_attack([punch, kick, sword]) == punch
    assert choose_attack([sword, Option("axe", 3, 4, chance=0.25)]) == sword   # then more dice
    assert choose_attack([Option("", 4, 3), Option("kick", 4, 3)]) == Option("", 4, 3)   # a full tie: the first


def test_a_hard_attack_loses_to_an_easy_one_with_the_same_dice():
    # a called shot to the head: same pool, more damage, far harder to land
    assert choose_attack([Option("head", 6, 5, chance=0.1), Option("", 6, 3, chance=0.8)]).option == ""


def test_an_attack_without_damage_only_when_nothing_else():
    hold, punch = Option("hold", 9, 0, chance=0.9), Option("punch", 3, 1, chance=0.1)
    assert choose_attack([hold, punch]) == punch
    assert choose_attack([hold, Option("trip", 9, 0, chance=0.95)]).option == "trip"   # the likeliest
    assert choose_attack([hold]) == hold
    assert choose_attack([]) is None


def test_targets_ranked_for_when_the_rules_refuse_the_first():
    hurt = Fighter("Bob", False, hurt=0.5)
    assert rank_targets("Guard", [ANN, hurt, GUARD], {}) == ["Bob", "Ann"]
    assert rank_targets("Guard", [GUARD, THUG], {}) == []


def test_a_defense_that_costs_the_action_only_when_half_hurt():
    assert worth_defending(0.0, spends_action=False)
    assert not worth_defending(0.0, spends_action=True)
    assert not worth_defending(0.49, spends_action=True)
    assert worth_defending(0.5, spends_action=True)


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


def test_lethal_harm_counts_twice_bashing():
    from rules.npc_ai import damage_rank

    assert [damage_rank(word) for word in ("bashing", "bash", "Lethal", "agg", "hp", "")] == [1, 1, 2, 3, 1, 1]
    kick = Option("kick", 4, 3, chance=0.67, damage_type="bashing")       # 2.0 to expect
    spell = Option("incendio", 6, 4, chance=0.33, damage_type="lethal")   # 1.32, twice: 2.64
    assert choose_attack([kick, spell]) == spell
    assert choose_attack([kick, Option("knife", 4, 2, chance=0.4, damage_type="lethal")]) == kick   # 1.6


def test_no_chance_to_hit_no_attack_and_no_die_no_defense():
    assert choose_attack([Option("", 0, 2, chance=0.0), Option("kick", 0, 3, chance=0.0)]) is None
    assert choose_attack([Option("", 0, 2, chance=0.0), Option("hold", 2, 0, chance=0.3)]).option == "hold"
    assert choose_defense([Option("dodge", 0), Option("block", 0)]) is None
    assert choose_defense([Option("dodge", 0), Option("block", 1)]) == Option("block", 1)
