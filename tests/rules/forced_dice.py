"""Forced dice for rules tests: every die a test rolls is one it named."""

from rules.dice import QueuedRoller


class NoMoreDice:
    """Fallback roller: any die beyond the queued faces is a test failure."""

    def roll(self, sides: int) -> int:
        raise AssertionError(f"unexpected extra d{sides} rolled")


def dice(*faces: int) -> QueuedRoller:
    """A roller giving exactly ``faces``, in order."""
    return QueuedRoller(list(faces), NoMoreDice())


def done(roller: QueuedRoller) -> None:
    """Assert every forced face was used."""
    assert roller.faces == [], f"faces not consumed: {roller.faces}"
