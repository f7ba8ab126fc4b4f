"""Exact odds of a roll: every outcome with its probability as a Fraction, computed, not
simulated (``+roll/odds``).

Two ways, both driving the systems' own roll code so the odds can never disagree with it:

- :func:`pool_outcomes` for a pool of d10s whose result depends only on how many dice show 1,
  how many succeed and how many do neither (storyteller, aeon): one representative roll per
  such count, weighted by the multinomial probability. Pools of 30 dice take under 500 rolls.
- :func:`enumerate_outcomes` for a roll of few dice whose count depends on the faces (eldritch's
  Rules of 10 and 1, elethril's d20): the roll is replayed against every sequence of faces, a
  branch per face. Chains longer than ``max_dice`` faces are not followed; their probability is
  returned as what was left unexplored (2 x 10**-12 for eldritch's chains at the default).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from math import comb

from rules.dice.rollers import Roller

Distribution = dict[Hashable, Fraction]


def pool_outcomes(size: int, success_at: int, judge: Callable[[tuple[int, ...]], Hashable]) -> Distribution:
    """``{judge(faces): probability}`` over every roll of ``size`` d10 (none when ``size`` <= 0).

    ``success_at`` is the lowest succeeding face (2..10); ``judge`` must depend only on how many
    faces are 1, how many are ``success_at`` or more, and how many are neither: it is called
    with one representative tuple per such count (1s, then 10s, then a face in between).
    Raises ValueError for ``success_at`` outside 2..10.
    """
    if not 2 <= success_at <= 10:
        raise ValueError(f"A d10 pool succeeds at 2 to 10, not {success_at}.")
    size = max(size, 0)
    succeeding, neither = 11 - success_at, success_at - 2  # faces of each kind; one face is 1
    between = success_at - 1
    counts: dict[Hashable, int] = {}  # in tenths to the power of size: integers are fast
    for ones in range(size + 1):
        for successes in range(size - ones + 1):
            rest = size - ones - successes
            if rest and not neither:
                continue
            ways = comb(size, ones) * comb(size - ones, successes) * succeeding ** successes * neither ** rest
            key = judge((1,) * ones + (10,) * successes + (between,) * rest)
            counts[key] = counts.get(key, 0) + ways
    return {key: Fraction(ways, 10 ** size) for key, ways in counts.items()}


class _Branch(Exception):
    """The replayed roll asked for a face past the sequence being explored."""

    def __init__(self, sides: int) -> None:
        super().__init__(sides)
        self.sides = sides


class _Replay:
    """A roller answering with a fixed sequence of faces."""

    def __init__(self, faces: tuple[int, ...]) -> None:
        self.faces, self.used = faces, 0

    def roll(self, sides: int) -> int:
        if self.used == len(self.faces):
            raise _Branch(sides)
        face = self.faces[self.used]
        self.used += 1
        return face


def enumerate_outcomes(roll: Callable[[Roller], Hashable], *, max_dice: int = 12) -> tuple[Distribution, Fraction]:
    """``({roll(roller): probability}, unexplored)``: ``roll`` replayed against every sequence
    of faces of at most ``max_dice`` dice, each face of a d``n`` weighing 1/n. ``unexplored``
    is the probability of the longer sequences (0 when every roll ends sooner). ``roll`` must
    be pure: the same faces give the same result. Exceptions other than the replay's own pass."""
    outcomes: Distribution = {}
    unexplored = Fraction(0)
    pending: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while pending:
        faces, weight = pending.pop()
        replay = _Replay(faces)
        try:
            result = roll(replay)
        except _Branch as branch:
            if len(faces) >= max_dice:
                unexplored += weight
                continue
            share = weight / branch.sides
            pending.extend((faces + (face,), share) for face in range(branch.sides, 0, -1))
            continue
        outcomes[result] = outcomes.get(result, Fraction(0)) + weight
    return outcomes, unexplored


class MiddleRoller:
    """A roller showing every die's middle face (5 on a d10): a roll made with it tells its
    pool, bonus and difficulty without a random die."""

    def roll(self, sides: int) -> int:
        return (sides + 1) // 2


def chance_of(roll: Callable[[Roller], object], *, d10_pool: tuple[int, int] | None = None,
              max_dice: int = 12) -> Fraction:
    """The exact chance that ``roll(roller)`` is true (the NPC AI's chance to hit).

    ``d10_pool``: ``(size, success_at)`` for a roll of a pool of ``size`` d10 judged only by
    how many faces are 1, succeed or neither (:func:`pool_outcomes`); dice it asks for past the
    pool (a botch's own roll) show a plain face. Otherwise every sequence of faces is replayed
    (:func:`enumerate_outcomes`, ``max_dice`` deep; the longer chains count as false). Raises
    what ``roll`` raises.
    """
    if d10_pool is not None:
        size, success_at = d10_pool
        plain = (max(success_at - 1, 2),) * 20
        outcomes = pool_outcomes(size, success_at, lambda faces: bool(roll(_Replay(faces + plain))))
    else:
        outcomes, _ = enumerate_outcomes(lambda roller: bool(roll(roller)), max_dice=max_dice)
    return outcomes.get(True, Fraction(0))


def at_least(outcomes: Distribution, value: int) -> Fraction:
    """The probability of an integer outcome of ``value`` or more (other keys are ignored)."""
    return sum((p for key, p in outcomes.items() if isinstance(key, int) and key >= value), Fraction(0))


def percent(probability: Fraction) -> str:
    """``"37.5%"``; under 0.05% but not 0 is ``"<0.1%"``, over 99.95% but not 1 ``">99.9%"``."""
    if 0 < probability < Fraction(1, 2000):
        return "<0.1%"
    if Fraction(1999, 2000) < probability < 1:
        return ">99.9%"
    return f"{float(probability) * 100:.1f}%"
