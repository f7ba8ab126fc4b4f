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


@dataclass(frozen=True)
class DiceLimits:
    """Upper bounds that keep player input small; all counts are inclusive."""

    max_input_length: int = 200  # characters of the whole roll text
    max_terms: int = 20  # + / - separated terms
    max_dice: int = 100  # dice in one term and in the whole expression
    max_sides: int = 1000
    max_number: int = 1000  # any literal number (modifier, count, difficulty)


DEFAULT_LIMITS = DiceLimits()


class DiceSyntaxError(ValueError):
    """One-line, player-facing message (str(exc)). Never multi-line."""


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


_POOL_EXAMPLE = "e.g. +roll Dexterity+Brawl vs 6."
_ALLOWED = frozenset(string.ascii_letters + string.digits + " +-'_.")
_MAX_DIGITS = 7  # longer digit strings are over any sane limit; skip int()
_WORD = r"[A-Za-z][A-Za-z0-9]*(?:['_][A-Za-z][A-Za-z0-9]*)*"  # THAC0; "d10" is dice, read first
_NAME = re.compile(rf"{_WORD}(?:[ -]{_WORD})*")
_NUMBER = re.compile(r"[0-9]+")
_DICE = re.compile(r"([0-9]+)[dD]([0-9]*)")
_COUNTLESS_DICE = re.compile(r"[dD][0-9]+")
_DECIMAL = re.compile(r"[0-9]*\.[0-9.]*")
_VS = re.compile(r"(?<![^ ])vs(?![^ ])", re.IGNORECASE)


def _quote(text: str) -> str:
    """Quote `text` for a message as printable ASCII ('\\u0435' for others)."""
    shown = "".join(
        c if " " <= c <= "~" else (f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}")
        for c in text
    )
    return f"'{shown}'"


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
        raise TraitError(f"Unknown trait {_quote(name)}.{_did_you_mean(key, names)}")
    listed = ", ".join(_quote(t)[1:-1] for t in sorted(found, key=lambda t: (t.lower(), t)))
    raise TraitError(f"{_quote(name)} is ambiguous: {listed}.")


def _did_you_mean(key: str, names: tuple[str, ...]) -> str:
    """`` Did you mean Dexterity?`` for the trait names spelled close to `key` ("" if none)."""
    by_lower = {trait.lower(): trait for trait in names}
    close = get_close_matches(key, list(by_lower), n=3) if key else []
    if not close:
        return ""
    shown = [_quote(by_lower[c])[1:-1] for c in close]
    listed = shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"
    return f" Did you mean {listed}?"


#: first words that mean "only I should see this": +roll/private does that
_PRIVATE_WORDS = frozenset({"secret", "secretly", "private", "privately", "hidden", "hide"})


def parse_pool(
    text: str, trait_names: Iterable[str] = (), limits: DiceLimits = DEFAULT_LIMITS
) -> PoolExpression:
    """Parse roll text such as "Dex + Brawl - 1 vs 7" into a PoolExpression.

    Traits resolve through match_trait(name, trait_names); an unknown trait is an
    error, never 0. Range checks per rule system (difficulty 2..10 etc.) are the
    caller's job; here numbers only need to be within `limits`.

    Raises DiceSyntaxError (TraitError for trait names) with a one-line,
    printable-ASCII message for anything that is not a valid roll.
    """
    text = text.strip()
    if len(text) > limits.max_input_length:
        raise DiceSyntaxError(f"Roll text too long: at most {limits.max_input_length} characters.")
    for char in text:
        if char not in _ALLOWED:
            raise DiceSyntaxError(f"Unexpected character {_quote(char)} in the roll.")
    pool, difficulty = _split_difficulty(text, limits)
    if not pool:
        raise DiceSyntaxError(f"Give a pool to roll, {_POOL_EXAMPLE}")
    names = tuple(trait_names)
    pieces = _split_terms(pool, names)
    if len(pieces) > limits.max_terms:
        raise DiceSyntaxError(f"Too many terms: at most {limits.max_terms}.")
    try:
        terms = tuple(_read_term(sign, piece, names, limits) for sign, piece in pieces)
    except DiceSyntaxError:
        word, _, rest = text.partition(" ")
        if word.lower() in _PRIVATE_WORDS and rest.strip():
            raise DiceSyntaxError(
                f"{_quote(word)} is not a trait or number. To roll where only you and the "
                f"Storyteller see it: +roll/private {rest.strip()}.") from None
        raise
    for index, term in enumerate(terms):
        if term.kind == "trait" and any(t.trait == term.trait for t in terms[:index]):
            raise DiceSyntaxError(f"{term.trait} is named twice in the pool.")
    if sum(t.number for t in terms if t.kind == "dice") > limits.max_dice:
        raise DiceSyntaxError(f"Too many dice: at most {limits.max_dice}.")
    return PoolExpression(terms=terms, difficulty=difficulty, text=text)


def _whole(digits: str, limit: int, message: str) -> int:
    """int(digits), or DiceSyntaxError(message) if it exceeds `limit`."""
    if len(digits) > _MAX_DIGITS or int(digits) > limit:
        raise DiceSyntaxError(message)
    return int(digits)


def _number(digits: str, limits: DiceLimits) -> int:
    return _whole(digits, limits.max_number, f"Number too large: at most {limits.max_number}.")


def _split_difficulty(text: str, limits: DiceLimits) -> tuple[str, int | None]:
    """Split "pool vs N" into (pool, N); (text, None) when there is no "vs"."""
    found = list(_VS.finditer(text))
    if not found:
        return text, None
    if len(found) > 1:
        raise DiceSyntaxError(f"Use 'vs' only once, {_POOL_EXAMPLE}")
    pool, difficulty = text[: found[0].start()].strip(), text[found[0].end() :].strip()
    if not pool:
        raise DiceSyntaxError(f"Give a pool before 'vs', {_POOL_EXAMPLE}")
    if not difficulty:
        raise DiceSyntaxError("Give a difficulty after 'vs', e.g. +roll 3d10 vs 6.")
    if not _NUMBER.fullmatch(difficulty):
        raise DiceSyntaxError(
            f"Difficulty must be one whole number, e.g. vs 6, not {_quote(difficulty)}."
        )
    return pool, _number(difficulty, limits)


def _split_terms(pool: str, names: tuple[str, ...]) -> list[tuple[int, str]]:
    """Split a stripped, non-empty pool into (sign, term text) pairs."""
    if pool[-1] in "+-":
        raise DiceSyntaxError(f"Incomplete roll: {_quote(pool)} ends with an operator.")
    if pool[0] == "+":
        raise DiceSyntaxError(f"Incomplete roll: {_quote(pool)} starts with '+'.")
    hyphenated = [n.lower() for n in names if "-" in n]
    sign, start = (-1, 1) if pool[0] == "-" else (1, 0)
    pieces = []
    while True:
        end = _term_end(pool, start, hyphenated)
        piece = pool[start:end].strip()
        if not piece:
            raise DiceSyntaxError(f"Incomplete roll: two operators in a row in {_quote(pool)}.")
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
    signed = _quote(("-" if sign < 0 else "") + piece)
    if _NUMBER.fullmatch(piece):
        return Term(sign=sign, kind="number", text=piece, number=_number(piece, limits))
    dice = _DICE.fullmatch(piece)
    if dice:
        count_digits, sides_digits = dice.groups()
        if not sides_digits:
            raise DiceSyntaxError("Dice need sides, e.g. 3d10.")
        if sign < 0:
            raise DiceSyntaxError(f"Cannot roll a negative number of dice: {signed}.")
        _whole(count_digits, limits.max_dice, f"Too many dice: at most {limits.max_dice}.")
        count = _number(count_digits, limits)  # a count is also a literal number
        if count == 0:
            raise DiceSyntaxError(f"Roll at least one die: {signed}.")
        sides = _whole(
            sides_digits, limits.max_sides, f"Too many sides: at most {limits.max_sides}."
        )
        if sides < 2:
            raise DiceSyntaxError(f"Dice need at least 2 sides: {signed}.")
        return Term(sign=sign, kind="dice", text=piece, number=count, sides=sides)
    if _COUNTLESS_DICE.fullmatch(piece):
        raise DiceSyntaxError(f"Give the number of dice: {signed}, e.g. 1d10.")
    if _DECIMAL.fullmatch(piece):
        raise DiceSyntaxError(f"Not a whole number: {signed}.")
    if _NAME.fullmatch(piece):
        if sign < 0:
            raise DiceSyntaxError(f"Only numbers can be subtracted: {signed}.")
        return Term(sign=sign, kind="trait", text=piece, trait=match_trait(piece, names))
    raise DiceSyntaxError(f"Cannot read {signed} as a number, dice or a trait.")
