"""Dice: parse what players type after +roll, and roll dice with an injected roller.

>>> expr = parse_pool("Dex + Brawl - 1 vs 7", ["Dexterity", "Brawl"])
>>> [(t.sign, t.kind, t.trait or t.number) for t in expr.terms]
[(1, 'trait', 'Dexterity'), (1, 'trait', 'Brawl'), (-1, 'number', 1)]
>>> expr.difficulty
7
"""

from rules.dice.pool import (
    DEFAULT_LIMITS,
    DiceLimits,
    DiceSyntaxError,
    PoolExpression,
    Term,
    TraitError,
    match_trait,
    parse_pool,
)
from rules.dice.rollers import ForcedFaceError, QueuedRoller, RandomRoller, Roller, roll_dice

__all__ = [
    "DEFAULT_LIMITS",
    "DiceLimits",
    "DiceSyntaxError",
    "ForcedFaceError",
    "PoolExpression",
    "QueuedRoller",
    "RandomRoller",
    "Roller",
    "Term",
    "TraitError",
    "match_trait",
    "parse_pool",
    "roll_dice",
]
