"""Dice rollers: the only source of randomness, always injected by the caller."""

from __future__ import annotations

import random
from collections.abc import Callable, MutableSequence
from typing import Protocol


class Roller(Protocol):
    """Anything that can roll one die."""

    def roll(self, sides: int) -> int:
        """Roll one die with `sides` faces; return a face in 1..sides."""
        ...


class RandomRoller:
    """Roller backed by a `random.Random` instance (never the global one).

    RandomRoller(rng=None): `rng` defaults to a fresh, OS-seeded random.Random().
    Pass random.Random(seed) for reproducible rolls.
    """

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng = rng if rng is not None else random.Random()

    def roll(self, sides: int) -> int:
        """One die: a face in 1..sides (uses rng.randint)."""
        return self._rng.randint(1, sides)


class ForcedFaceError(ValueError):
    """A queued face that does not fit the die being rolled (a tester's mistake)."""


class QueuedRoller:
    """Roller that returns forced faces first, then defers to `fallback`.

    QueuedRoller(faces, fallback, on_forced=None): `faces` is used in order and
    consumed in place (the caller owns the sequence and may persist what is
    left); `on_forced(sides, face)` is told of each forced face used (the
    fight's dice record it as forced).
    """

    def __init__(self, faces: MutableSequence[int], fallback: Roller,
                 on_forced: Callable[[int, int], None] | None = None) -> None:
        self.faces = faces
        self.fallback = fallback
        self.on_forced = on_forced

    def roll(self, sides: int) -> int:
        """Pop and return faces[0] if any are queued, else fallback.roll(sides).

        Raises ForcedFaceError("Forced face 12 does not fit a d10.") when the queued
        face is outside 1..sides; that face is still consumed, so a bad entry
        cannot jam every later roll.
        """
        if not self.faces:
            return self.fallback.roll(sides)
        face = self.faces.pop(0)
        if not 1 <= face <= sides:
            raise ForcedFaceError(f"Forced face {face} does not fit a d{sides}.")
        if self.on_forced is not None:
            self.on_forced(sides, face)
        return face


def roll_dice(count: int, sides: int, roller: Roller) -> tuple[int, ...]:
    """Roll `count` dice of `sides` faces; return the faces in roll order.

    Returns a tuple of `count` ints, each in 1..sides (empty when count is 0).
    Raises ValueError if count < 0 or sides < 1.
    """
    if count < 0:
        raise ValueError(f"Cannot roll {count} dice.")
    if sides < 1:
        raise ValueError(f"A die needs at least one side, not {sides}.")
    return tuple(roller.roll(sides) for _ in range(count))
