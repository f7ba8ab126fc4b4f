"""Tests for rules.dice: pool parsing, trait matching and rollers (pure Python, no DB)."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import (
    DEFAULT_LIMITS,
    DiceLimits,
    DiceSyntaxError,
    PoolExpression,
    QueuedRoller,
    RandomRoller,
    Term,
    TraitError,
    match_trait,
    parse_pool,
    roll_dice,
)

TRAITS = (
    "Strength",
    "Streetwise",
    "Dexterity",
    "Brawl",
    "Dodge",
    "Melee",
    "Wits",
    "Stamina",
    "Primal-Urge",
    "Natural Toughness",
)


def parse(text, traits=TRAITS, limits=DEFAULT_LIMITS):
    return parse_pool(text, traits, limits)


def num(value, sign=1, text=None):
    return Term(sign=sign, kind="number", text=text or str(value), number=value)


def dice(count, sides, text=None):
    return Term(sign=1, kind="dice", text=text or f"{count}d{sides}", number=count, sides=sides)


def trait(name, text=None):
    return Term(sign=1, kind="trait", text=text or name, trait=name)


def error(text, traits=TRAITS, limits=DEFAULT_LIMITS):
    with pytest.raises(DiceSyntaxError) as caught:
        parse_pool(text, traits, limits)
    return caught


def message(text, traits=TRAITS, limits=DEFAULT_LIMITS):
    return str(error(text, traits, limits).value)


# ------------------------------------------------------------------ valid pools


@pytest.mark.parametrize(
    ("text", "terms", "difficulty"),
    [
        ("0", (num(0),), None),
        ("5", (num(5),), None),
        ("-2", (num(2, sign=-1),), None),
        ("- 2", (num(2, sign=-1),), None),
        ("007", (num(7, text="007"),), None),
        ("2d6", (dice(2, 6),), None),
        ("3D10", (dice(3, 10, text="3D10"),), None),
        ("1d20+2", (dice(1, 20), num(2)), None),
        ("3+2 vs 6", (num(3), num(2)), 6),
        ("3d10 vs 0", (dice(3, 10),), 0),
        ("3d10 VS 6", (dice(3, 10),), 6),
        ("3d10   Vs   6", (dice(3, 10),), 6),
        (
            "Dex + Brawl - 1 vs 7",
            (trait("Dexterity", "Dex"), trait("Brawl"), num(1, sign=-1)),
            7,
        ),
        ("dex+brawl-2", (trait("Dexterity", "dex"), trait("Brawl", "brawl"), num(2, -1)), None),
        ("DEXTERITY", (trait("Dexterity", "DEXTERITY"),), None),
        ("Natural Toughness+1", (trait("Natural Toughness"), num(1)), None),
        ("natural tough", (trait("Natural Toughness", "natural tough"),), None),
        ("Strength+1d10-3 vs 8", (trait("Strength"), dice(1, 10), num(3, -1)), 8),
        ("  Wits + Dodge  ", (trait("Wits"), trait("Dodge")), None),
    ],
)
def test_valid_pools(text, terms, difficulty):
    assert parse(text) == PoolExpression(terms=terms, difficulty=difficulty, text=text.strip())


def test_modifiers_are_kept_as_separate_terms():
    expr = parse("3+2 vs 6")
    assert sum(t.sign * t.number for t in expr.terms) == 5


def test_results_are_frozen():
    expr = parse("dex+2")
    with pytest.raises(AttributeError):
        expr.difficulty = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        expr.terms[0].sign = -1  # type: ignore[misc]


def test_trait_names_may_be_any_iterable():
    assert parse_pool("brawl", iter(["Brawl"])).terms == (trait("Brawl", "brawl"),)


# ------------------------------------------------------------------ hyphen vs minus


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("Primal-Urge+2", (trait("Primal-Urge"), num(2))),
        ("primal-urge", (trait("Primal-Urge", "primal-urge"),)),
        ("Primal-U", (trait("Primal-Urge", "Primal-U"),)),
        ("Primal-Urge-2", (trait("Primal-Urge"), num(2, -1))),
        ("Primal-2", (trait("Primal-Urge", "Primal"), num(2, -1))),
        ("Wits + Primal-Urge - 1", (trait("Wits"), trait("Primal-Urge"), num(1, -1))),
    ],
)
def test_known_hyphenated_trait_is_one_term(text, terms):
    assert parse(text).terms == terms


def test_hyphenated_exact_match_beats_longer_name():
    traits = ("Primal-Urge", "Primal-Urge-Rage")
    assert parse_pool("Primal-Urge-1", traits).terms == (trait("Primal-Urge"), num(1, -1))
    assert parse_pool("Primal-Urge-R", traits).terms == (
        trait("Primal-Urge-Rage", "Primal-Urge-R"),
    )


def test_ambiguous_hyphenated_prefix_is_reported():
    assert message("Primal-U", ("Primal-Urge", "Primal-Unity")) == (
        "'Primal-U' is ambiguous: Primal-Unity, Primal-Urge."
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Dexterity-Brawl", "Only numbers can be subtracted: '-Brawl'."),
        ("Dex - Brawl", "Only numbers can be subtracted: '-Brawl'."),
        ("-Dex", "Only numbers can be subtracted: '-Dex'."),
        ("Wits-Primal-Urge", "Only numbers can be subtracted: '-Primal-Urge'."),
        ("Primal - Urge", "Only numbers can be subtracted: '-Urge'."),
    ],
)
def test_only_numbers_can_be_subtracted(text, expected):
    caught = error(text)
    assert str(caught.value) == expected
    assert not isinstance(caught.value, TraitError)


def test_hyphen_without_hyphenated_traits_is_minus():
    assert message("Primal-Urge", ("Primal",)) == "Only numbers can be subtracted: '-Urge'."


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "Give a pool to roll, e.g. +roll Dexterity+Brawl vs 6."),
        ("   ", "Give a pool to roll, e.g. +roll Dexterity+Brawl vs 6."),
        ("vs 6", "Give a pool before 'vs', e.g. +roll Dexterity+Brawl vs 6."),
        ("vs", "Give a pool before 'vs', e.g. +roll Dexterity+Brawl vs 6."),
        ("vs x", "Give a pool before 'vs', e.g. +roll Dexterity+Brawl vs 6."),
        ("3d10 vs", "Give a difficulty after 'vs', e.g. +roll 3d10 vs 6."),
        ("3d10 vs x", "Difficulty must be one whole number, e.g. vs 6, not 'x'."),
        ("3d10 vs 6 7", "Difficulty must be one whole number, e.g. vs 6, not '6 7'."),
        ("3d10 vs 6.5", "Difficulty must be one whole number, e.g. vs 6, not '6.5'."),
        ("3d10 vs - 1", "Difficulty must be one whole number, e.g. vs 6, not '- 1'."),
        ("3d10 vs +1", "Difficulty must be one whole number, e.g. vs 6, not '+1'."),
        ("3d10 vs 6 vs 7", "Use 'vs' only once, e.g. +roll Dexterity+Brawl vs 6."),
        ("1d10+", "Incomplete roll: '1d10+' ends with an operator."),
        ("1d10 -", "Incomplete roll: '1d10 -' ends with an operator."),
        ("+", "Incomplete roll: '+' ends with an operator."),
        ("-", "Incomplete roll: '-' ends with an operator."),
        ("dex + vs 6", "Incomplete roll: 'dex +' ends with an operator."),
        ("+5", "Incomplete roll: '+5' starts with '+'."),
        ("dex++brawl", "Incomplete roll: two operators in a row in 'dex++brawl'."),
        ("dex+ -2", "Incomplete roll: two operators in a row in 'dex+ -2'."),
        ("--2", "Incomplete roll: two operators in a row in '--2'."),
        ("0.5", "Not a whole number: '0.5'."),
        ("dex+.5", "Not a whole number: '.5'."),
        ("3d", "Dice need sides, e.g. 3d10."),
        ("d10", "Give the number of dice: 'd10', e.g. 1d10."),
        ("1d0", "Dice need at least 2 sides: '1d0'."),
        ("1d1", "Dice need at least 2 sides: '1d1'."),
        ("0d6", "Roll at least one die: '0d6'."),
        ("-3d10", "Cannot roll a negative number of dice: '-3d10'."),
        ("5-3d10", "Cannot roll a negative number of dice: '-3d10'."),
        ("101d10", "Too many dice: at most 100."),
        ("999999999d10", "Too many dice: at most 100."),
        ("1" * 150 + "d10", "Too many dice: at most 100."),
        ("60d10+41d10", "Too many dice: at most 100."),
        ("1d1001", "Too many sides: at most 1000."),
        ("1d99999999999", "Too many sides: at most 1000."),
        ("1001", "Number too large: at most 1000."),
        ("dex+99999999999999", "Number too large: at most 1000."),
        ("3x", "Cannot read '3x' as a number, dice or a trait."),
        ("Dex5", "Unknown trait 'Dex5'."),  # a name may hold digits (THAC0)
        ("Natural  Toughness", "Cannot read 'Natural  Toughness' as a number, dice or a trait."),
        ("3 d10", "Cannot read '3 d10' as a number, dice or a trait."),
        ("x" * 201, "Roll text too long: at most 200 characters."),
        ("+".join(["1"] * 21), "Too many terms: at most 20."),
    ],
)
def test_syntax_errors(text, expected):
    assert message(text) == expected


def test_limits_at_the_boundary_are_allowed():
    assert parse("100d1000").terms == (dice(100, 1000),)
    assert parse("50d10+50d10").terms == (dice(50, 10), dice(50, 10))
    assert parse("1000 vs 1000").difficulty == 1000


def test_the_difficulty_is_any_whole_number_for_the_rule_system_to_check():
    assert (parse("3d10 vs -1").difficulty, parse("3d10 vs 0").difficulty) == (-1, 0)
    assert parse("3d10 vs 1001").difficulty == 1001
    assert parse("3d10 vs 99999999999").difficulty == 99999999999
    assert len(parse("+".join(["1"] * 20)).terms) == 20
    assert parse("1+" + " " * 196 + "1").text.startswith("1+")


def test_custom_limits():
    small = DiceLimits(max_input_length=10, max_terms=2, max_dice=5, max_sides=6, max_number=9)
    assert message("1+1+1", limits=small) == "Too many terms: at most 2."
    assert message("6d6", limits=small) == "Too many dice: at most 5."
    assert message("3d6+3d6", limits=small) == "Too many dice: at most 5."
    assert message("1d8", limits=small) == "Too many sides: at most 6."
    assert message("10", limits=small) == "Number too large: at most 9."
    assert parse("1d6 vs 10", limits=small).difficulty == 10   # the difficulty's range is the rule system's
    assert message("1+1+1+1+1+1", limits=small) == "Roll text too long: at most 10 characters."
    assert parse("5d6 vs 9", limits=small).terms == (dice(5, 6),)


def test_dice_count_is_also_a_literal_number():
    limits = DiceLimits(max_dice=50, max_number=20)
    assert message("30d10", limits=limits) == "Number too large: at most 20."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("|rDex", "Unexpected character '|' in the roll."),
        ("Dex|/", "Unexpected character '|' in the roll."),
        ("%rDex", "Unexpected character '%' in the roll."),
        ("2*3", "Unexpected character '*' in the roll."),
        ("(dex)", "Unexpected character '(' in the roll."),
        ("dex\nbrawl", "Unexpected character '\\u000a' in the roll."),
        ("Natural\tToughness", "Unexpected character '\\u0009' in the roll."),
        ("dex\x1b[31m", "Unexpected character '\\u001b' in the roll."),
        ("D\u0435xterity", "Unexpected character '\\u0435' in the roll."),
        ("Dex\u200bterity", "Unexpected character '\\u200b' in the roll."),
        ("dex+\U0001f3b2", "Unexpected character '\\U0001f3b2' in the roll."),
        ("\uff13d10", "Unexpected character '\\uff13' in the roll."),
    ],
)
def test_unexpected_characters(text, expected):
    assert message(text) == expected


# ------------------------------------------------------------------ traits


def test_match_trait_exact_and_prefix():
    assert match_trait("dexterity", TRAITS) == "Dexterity"
    assert match_trait("DEX", TRAITS) == "Dexterity"
    assert match_trait("Stam", TRAITS) == "Stamina"
    assert match_trait("prim", TRAITS) == "Primal-Urge"


def test_exact_match_wins_over_longer_prefix_match():
    assert match_trait("melee", ("Melee", "Melee Weapons")) == "Melee"
    assert match_trait("Melee W", ("Melee", "Melee Weapons")) == "Melee Weapons"


def test_match_trait_unknown():
    with pytest.raises(TraitError) as caught:
        match_trait("Dexteriy", TRAITS)
    assert str(caught.value) == "Unknown trait 'Dexteriy'. Did you mean Dexterity?"
    assert isinstance(caught.value, DiceSyntaxError)
    assert isinstance(caught.value, ValueError)


def test_match_trait_unknown_names_up_to_three_close_spellings_closest_first():
    with pytest.raises(TraitError) as caught:
        match_trait("Brawn", ("Brawl", "Brown"))
    assert str(caught.value) == "Unknown trait 'Brawn'. Did you mean Brown or Brawl?"
    with pytest.raises(TraitError) as caught:
        match_trait("Brawn", ("Brawl", "Brown", "Brain"))
    assert str(caught.value) == "Unknown trait 'Brawn'. Did you mean Brown, Brawl or Brain?"
    assert caught.value.line.key == "dice.refusal.unknown_trait_close_three"
    assert dict(caught.value.line.values) == {"name": "Brawn", "first": "Brown", "second": "Brawl", "third": "Brain"}


def test_a_refusal_is_a_catalogue_line_and_a_sentence_still_reads_as_given():
    with pytest.raises(DiceSyntaxError) as caught:
        parse_pool("101d10")
    assert caught.value.line.key == "dice.refusal.too_many_dice"
    assert dict(caught.value.line.values) == {"most": 100}
    assert str(caught.value) == "Too many dice: at most 100."
    assert DiceSyntaxError("Aeon pools are d10s.").line is None
    assert str(DiceSyntaxError("Aeon pools are d10s.")) == "Aeon pools are d10s."


def test_match_trait_unknown_without_a_close_spelling_suggests_nothing():
    with pytest.raises(TraitError) as caught:
        match_trait("Laser", TRAITS)
    assert str(caught.value) == "Unknown trait 'Laser'."


def test_a_trait_named_twice_is_refused():
    assert message("Dex+Brawl+Brawl") == "Brawl is named twice in the pool."
    assert message("Dex + Dexterity vs 6") == "Dexterity is named twice in the pool."
    assert parse("Brawl+2+2").terms == (trait("Brawl"), num(2), num(2))


@pytest.mark.parametrize("word", ["secret", "Private", "hidden"])
def test_a_secret_first_word_points_to_private(word):
    assert message(f"{word} 3d10 vs 7") == (
        f"'{word}' is not a trait or number. To roll where only you and the Storyteller "
        "see it: +roll/private 3d10 vs 7.")


def test_match_trait_ambiguous_lists_sorted_candidates():
    for order in (TRAITS, tuple(reversed(TRAITS))):
        with pytest.raises(TraitError) as caught:
            match_trait("Str", order)
        assert str(caught.value) == "'Str' is ambiguous: Streetwise, Strength."
    with pytest.raises(TraitError) as caught:
        match_trait("S", TRAITS)
    assert str(caught.value) == "'S' is ambiguous: Stamina, Streetwise, Strength."


def test_match_trait_duplicates_are_not_ambiguous():
    assert match_trait("Bra", ("Brawl", "Brawl")) == "Brawl"


def test_match_trait_empty_name_is_unknown():
    with pytest.raises(TraitError, match=r"^Unknown trait ''\.$"):
        match_trait("", TRAITS)


def test_match_trait_messages_escape_odd_names():
    with pytest.raises(TraitError) as caught:
        match_trait("x\ny", TRAITS)
    assert str(caught.value) == "Unknown trait 'x\\u000ay'."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Str+1", "'Str' is ambiguous: Streetwise, Strength."),
        ("Dexteriy + Brawl", "Unknown trait 'Dexteriy'. Did you mean Dexterity?"),
        ("dex+d", "'d' is ambiguous: Dexterity, Dodge."),
        ("Brawl vs 6", "Unknown trait 'Brawl'."),
    ],
)
def test_trait_errors_from_parse_pool(text, expected):
    traits = () if text == "Brawl vs 6" else TRAITS
    caught = error(text, traits)
    assert isinstance(caught.value, TraitError)
    assert str(caught.value) == expected


def test_unknown_trait_never_counts_as_zero():
    with pytest.raises(TraitError):
        parse_pool("Dexterity+2")


# ------------------------------------------------------------------ rollers


class FixedRoller:
    def __init__(self, face):
        self.face = face
        self.calls = []

    def roll(self, sides):
        self.calls.append(sides)
        return self.face


def test_queued_roller_consumes_faces_in_order_then_falls_back():
    faces = [3, 7, 10]
    fallback = FixedRoller(1)
    roller = QueuedRoller(faces, fallback)
    assert roller.roll(10) == 3
    assert faces == [7, 10]
    assert roll_dice(4, 10, roller) == (7, 10, 1, 1)
    assert faces == []
    assert fallback.calls == [10, 10]


def test_queued_roller_rejects_faces_that_do_not_fit():
    faces = [12, 4]
    roller = QueuedRoller(faces, FixedRoller(1))
    with pytest.raises(ValueError, match=r"^Forced face 12 does not fit a d10\.$"):
        roller.roll(10)
    assert faces == [4]
    assert roller.roll(10) == 4
    with pytest.raises(ValueError, match=r"^Forced face 0 does not fit a d6\.$"):
        QueuedRoller([0], FixedRoller(1)).roll(6)


def test_random_roller_is_deterministic_with_a_seed():
    first = roll_dice(20, 10, RandomRoller(random.Random(1)))
    second = roll_dice(20, 10, RandomRoller(random.Random(1)))
    expected = random.Random(1)
    assert first == second == tuple(expected.randint(1, 10) for _ in range(20))


def test_random_roller_does_not_touch_global_random():
    random.seed(5)
    state = random.getstate()
    roll_dice(10, 6, RandomRoller(random.Random(2)))
    roll_dice(10, 6, RandomRoller())
    assert random.getstate() == state


@given(st.integers(0, 30), st.integers(2, 1000), st.integers())
def test_roll_dice_shape(count, sides, seed):
    faces = roll_dice(count, sides, RandomRoller(random.Random(seed)))
    assert isinstance(faces, tuple)
    assert len(faces) == count
    assert all(1 <= face <= sides for face in faces)


def test_roll_dice_rejects_bad_arguments():
    assert roll_dice(0, 10, FixedRoller(1)) == ()
    with pytest.raises(ValueError):
        roll_dice(-1, 10, FixedRoller(1))
    with pytest.raises(ValueError):
        roll_dice(1, 0, FixedRoller(1))


# ------------------------------------------------------------------ properties


def assert_player_message(exc):
    text = str(exc)
    assert text and text.isascii() and text.isprintable(), repr(text)


ROLL_ALPHABET = st.sampled_from(
    list("0123456789dD+- .'_|%vsVS\t\n") + ["Dex", "Primal", "-Urge", "Str", " vs ", "\u0435"]
)


@given(st.text())
def test_parse_pool_never_crashes_on_any_text(text):
    try:
        result = parse_pool(text, TRAITS)
    except DiceSyntaxError as exc:
        assert_player_message(exc)
    else:
        assert isinstance(result, PoolExpression)


@given(st.lists(ROLL_ALPHABET, max_size=30).map("".join))
def test_parse_pool_near_grammar_text(text):
    try:
        result = parse_pool(text, TRAITS)
    except DiceSyntaxError as exc:
        assert_player_message(exc)
    else:
        assert result.terms
        assert all(t.sign in (1, -1) for t in result.terms)
        assert all(t.sign == 1 for t in result.terms if t.kind != "number")
        assert sum(t.number for t in result.terms if t.kind == "dice") <= DEFAULT_LIMITS.max_dice
        assert all(t.trait in TRAITS for t in result.terms if t.kind == "trait")


@given(st.text(), st.lists(st.text()))
def test_match_trait_messages_are_one_printable_line(name, traits):
    try:
        assert match_trait(name, traits) in traits
    except TraitError as exc:
        assert_player_message(exc)


def test_trait_names_may_hold_digits_after_a_letter():
    names = ["THAC0", "Reaction"]
    assert parse_pool("1d20+thac0", names).terms == (
        dice(1, 20), Term(sign=1, kind="trait", text="thac0", trait="THAC0"))
    # A leading d and digits are still dice without a count.
    with pytest.raises(DiceSyntaxError, match="Give the number of dice"):
        parse_pool("d20", names)
