"""Parse a dice pool as typed after +roll, e.g. "Dexterity + Brawl - 1 vs 6".

Grammar (whitespace allowed around operators and around "vs"):

    roll  := pool [ "vs" NUMBER ]
    pool  := [ "-" ] term { ("+" | "-") term }
    term  := NUMBER | COUNT "d" SIDES | TRAIT

Only numbers may be subtracted. A "-" inside a known hyphenated trait name
(e.g. "Primal-Urge") is part of the name, not a minus.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable
from dataclasses import dataclass
from difflib import get_close_matches

from rules.lines import Line, Refusal


@dataclass(frozen=True)
class DiceLimits:
    """Upper bounds that keep player input small; all counts are inclusive."""

    max_input_length: int = 200  # characters of the whole roll text
    max_terms: int = 20  # + / - separated terms
    max_dice: int = 100  # dice in one term and in the whole expression
    max_sides: int = 1000
    max_number: int = 1000  # any literal number (modifier, count, difficulty)


DEFAULT_LIMITS = DiceLimits()


class DiceSyntaxError(Refusal):
    """Dice text that cannot be read (a :class:`~rules.lines.Refusal`, a ``dice.refusal``
    line): one line, never several."""


class TraitError(DiceSyntaxError):
    """Unknown or ambiguous trait name."""


@dataclass(frozen=True)
class Term:
    """One signed term of a pool.

    sign:   +1 or -1 (the operator before the term; -1 only for "number").
    kind:   "number" | "trait" | "dice".
    text:   the term as typed, stripped, without its operator ("Dex", "3d10").
    number: "number": its value; "dice": the count of dice; else 0.
    sides:  "dice" only: faces per die (2..max_sides).
    trait:  "trait" only: the canonical trait name from trait_names.
    """

    sign: int
    kind: str
    text: str
    number: int = 0
    sides: int = 0
    trait: str = ""


@dataclass(frozen=True)
class PoolExpression:
    """A parsed roll: terms in typed order, optional difficulty, input text."""

    terms: tuple[Term, ...]
    difficulty: int | None  # value after "vs", or None
    text: str  # the whole input, stripped


_ALLOWED = frozenset(string.ascii_letters + string.digits + " +-'_.")
_MAX_DIGITS = 7  # longer digit strings are over any sane limit; skip int()
_WORD = r"[A-Za-z][A-Za-z0-9]*(?:['_][A-Za-z][A-Za-z0-9]*)*"  # THAC0; "d10" is dice, read first
_NAME = re.compile(rf"{_WORD}(?:[ -]{_WORD})*")
_NUMBER = re.compile(r"[0-9]+")
_DIFFICULTY = re.compile(r"-?[0-9]+")   # any whole number: its range is the rule system's
_DICE = re.compile(r"([0-9]+)[dD]([0-9]*)")
_COUNTLESS_DICE = re.compile(r"[dD][0-9]+")
_DECIMAL = re.compile(r"[0-9]*\.[0-9.]*")
_VS = re.compile(r"(?<![^ ])vs(?![^ ])", re.IGNORECASE)


def _shown(text: str) -> str:
    """`text` for a message as printable ASCII ('\\u0435' for others); the message quotes it."""
    return "".join(
        c if " " <= c <= "~" else (f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}")
        for c in text
    )


def match_trait(name: str, trait_names: Iterable[str]) -> str:
    """Canonical trait name for `name`: case-insensitive exact match wins; else the unique
    case-insensitive prefix match; else TraitError:
      unknown   -> "Unknown trait 'Dexteriy'. Did you mean Dexterity?"  (close spellings, if any)
      ambiguous -> "'Str' is ambiguous: Streetwise, Strength."  (candidates sorted, comma-joined)

    Messages quote names as printable ASCII (see DiceSyntaxError).
    """
    key = name.lower()
    names = tuple(dict.fromkeys(trait_names))
    for trait in names:
        if trait.lower() == key:
            return trait
    found = [t for t in names if key and t.lower().startswith(key)]
    if len(found) == 1:
        return found[0]
    if not found:
        close = _close(key, names)
        raise TraitError(Line(
            "dice.refusal.unknown_trait" if not close else "dice.refusal.unknown_trait_close_one" if len(close) == 1
            else "dice.refusal.unknown_trait_close_two" if len(close) == 2 else "dice.refusal.unknown_trait_close_three",
            {"name": _shown(name), **dict(zip(("first", "second", "third"), close))}))
    # the names as notation: a comma-separated list
    listed = ", ".join(_shown(t) for t in sorted(found, key=lambda t: (t.lower(), t)))
    raise TraitError(Line("dice.refusal.ambiguous_trait", {"name": _shown(name), "names": listed}))


def _close(key: str, names: tuple[str, ...]) -> list[str]:
    """The trait names spelled close to `key` (at most 3, closest first; none for "")."""
    by_lower = {trait.lower(): trait for trait in names}
    close = get_close_matches(key, list(by_lower), n=3) if key else []
    return [_shown(by_lower[c]) for c in close]


#: first words that mean "only I should see this": +roll/private does that
_PRIVATE_WORDS = frozenset({"secret", "secretly", "private", "privately", "hidden", "hide"})


def parse_pool(
    text: str, trait_names: Iterable[str] = (), limits: DiceLimits = DEFAULT_LIMITS
) -> PoolExpression:
    """Parse roll text such as "Dex + Brawl - 1 vs 7" into a PoolExpression.

    Traits resolve through match_trait(name, trait_names); an unknown trait is an
    error, never 0. Range checks per rule system (difficulty 2..10 etc.) are the
    caller's job; here the pool's numbers only need to be within `limits`, and the
    difficulty after "vs" is any whole number, negative or over `limits` too (the rule
    system refuses it in its own words: "Difficulty must be 2 to 10, not -3.").

    Raises DiceSyntaxError (TraitError for trait names) with a one-line,
    printable-ASCII message for anything that is not a valid roll.
    """
    text = text.strip()
    if len(text) > limits.max_input_length:
        raise DiceSyntaxError(Line("dice.refusal.too_long", {"most": limits.max_input_length}))
    for char in text:
        if char not in _ALLOWED:
            raise DiceSyntaxError(Line("dice.refusal.unexpected_character", {"char": _shown(char)}))
    pool, difficulty = _split_difficulty(text)
    if not pool:
        raise DiceSyntaxError(Line("dice.refusal.no_pool"))
    names = tuple(trait_names)
    pieces = _split_terms(pool, names)
    if len(pieces) > limits.max_terms:
        raise DiceSyntaxError(Line("dice.refusal.too_many_terms", {"most": limits.max_terms}))
    try:
        terms = tuple(_read_term(sign, piece, names, limits) for sign, piece in pieces)
    except DiceSyntaxError:
        word, _, rest = text.partition(" ")
        if word.lower() in _PRIVATE_WORDS and rest.strip():
            raise DiceSyntaxError(Line("dice.refusal.roll_privately",
                                       {"word": _shown(word), "rest": rest.strip()})) from None
        raise
    for index, term in enumerate(terms):
        if term.kind == "trait" and any(t.trait == term.trait for t in terms[:index]):
            raise DiceSyntaxError(Line("dice.refusal.named_twice", {"trait": term.trait}))
    if sum(t.number for t in terms if t.kind == "dice") > limits.max_dice:
        raise DiceSyntaxError(Line("dice.refusal.too_many_dice", {"most": limits.max_dice}))
    return PoolExpression(terms=terms, difficulty=difficulty, text=text)


def _whole(digits: str, limit: int, refusal: Line) -> int:
    """int(digits), or DiceSyntaxError(refusal) if it exceeds `limit`."""
    if len(digits) > _MAX_DIGITS or int(digits) > limit:
        raise DiceSyntaxError(refusal)
    return int(digits)


def _number(digits: str, limits: DiceLimits) -> int:
    return _whole(digits, limits.max_number, Line("dice.refusal.number_too_large", {"most": limits.max_number}))


def _split_difficulty(text: str) -> tuple[str, int | None]:
    """Split "pool vs N" into (pool, N); (text, None) when there is no "vs"."""
    found = list(_VS.finditer(text))
    if not found:
        return text, None
    if len(found) > 1:
        raise DiceSyntaxError(Line("dice.refusal.vs_twice"))
    pool, difficulty = text[: found[0].start()].strip(), text[found[0].end() :].strip()
    if not pool:
        raise DiceSyntaxError(Line("dice.refusal.no_pool_before_vs"))
    if not difficulty:
        raise DiceSyntaxError(Line("dice.refusal.no_difficulty"))
    if not _DIFFICULTY.fullmatch(difficulty):
        raise DiceSyntaxError(Line("dice.refusal.difficulty_not_a_number", {"difficulty": _shown(difficulty)}))
    return pool, int(difficulty)   # at most max_input_length digits


def _split_terms(pool: str, names: tuple[str, ...]) -> list[tuple[int, str]]:
    """Split a stripped, non-empty pool into (sign, term text) pairs."""
    if pool[-1] in "+-":
        raise DiceSyntaxError(Line("dice.refusal.ends_with_operator", {"pool": _shown(pool)}))
    if pool[0] == "+":
        raise DiceSyntaxError(Line("dice.refusal.starts_with_plus", {"pool": _shown(pool)}))
    hyphenated = [n.lower() for n in names if "-" in n]
    sign, start = (-1, 1) if pool[0] == "-" else (1, 0)
    pieces = []
    while True:
        end = _term_end(pool, start, hyphenated)
        piece = pool[start:end].strip()
        if not piece:
            raise DiceSyntaxError(Line("dice.refusal.two_operators", {"pool": _shown(pool)}))
        pieces.append((sign, piece))
        if end == len(pool):
            return pieces
        sign, start = (1 if pool[end] == "+" else -1), end + 1


def _term_end(pool: str, start: int, hyphenated: list[str]) -> int:
    """Index of the operator ending the term at `start` (len(pool) at the end).

    A "-" is read as part of the term when the text up to a later operator is a
    trait name that equals or begins a known hyphenated trait; longest wins.
    """
    ops = [i for i in range(start, len(pool)) if pool[i] in "+-"]
    first = ops[0] if ops else len(pool)
    if first == len(pool) or pool[first] == "+" or not hyphenated:
        return first
    plus = next((i for i in ops if pool[i] == "+"), len(pool))
    for end in reversed([i for i in ops if first < i < plus] + [plus]):
        name = pool[start:end].strip()
        if _NAME.fullmatch(name) and any(h.startswith(name.lower()) for h in hyphenated):
            return end
    return first


def _read_term(sign: int, piece: str, names: tuple[str, ...], limits: DiceLimits) -> Term:
    """Build the Term for one piece of text; raise DiceSyntaxError if it is none."""
    signed = _shown(("-" if sign < 0 else "") + piece)
    if _NUMBER.fullmatch(piece):
        return Term(sign=sign, kind="number", text=piece, number=_number(piece, limits))
    dice = _DICE.fullmatch(piece)
    if dice:
        count_digits, sides_digits = dice.groups()
        if not sides_digits:
            raise DiceSyntaxError(Line("dice.refusal.no_sides"))
        if sign < 0:
            raise DiceSyntaxError(Line("dice.refusal.negative_dice", {"term": signed}))
        _whole(count_digits, limits.max_dice, Line("dice.refusal.too_many_dice", {"most": limits.max_dice}))
        count = _number(count_digits, limits)  # a count is also a literal number
        if count == 0:
            raise DiceSyntaxError(Line("dice.refusal.no_dice", {"term": signed}))
        sides = _whole(sides_digits, limits.max_sides, Line("dice.refusal.too_many_sides", {"most": limits.max_sides}))
        if sides < 2:
            raise DiceSyntaxError(Line("dice.refusal.one_side", {"term": signed}))
        return Term(sign=sign, kind="dice", text=piece, number=count, sides=sides)
    if _COUNTLESS_DICE.fullmatch(piece):
        raise DiceSyntaxError(Line("dice.refusal.no_count", {"term": signed}))
    if _DECIMAL.fullmatch(piece):
        raise DiceSyntaxError(Line("dice.refusal.not_whole", {"term": signed}))
    if _NAME.fullmatch(piece):
        if sign < 0:
            raise DiceSyntaxError(Line("dice.refusal.subtracted", {"term": signed}))
        return Term(sign=sign, kind="trait", text=piece, trait=match_trait(piece, names))
    raise DiceSyntaxError(Line("dice.refusal.unreadable", {"term": signed}))
