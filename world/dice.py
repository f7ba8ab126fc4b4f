"""Where the dice come from: real randomness, or the ``FRAY_TEST_DICE`` queue.

When the server process starts with ``FRAY_TEST_DICE=1`` in its environment, a queue of
forced die faces (filled by the Developer-only ``@dice/force``) is consumed by the next rolls
in order; it is stored in the database, so it survives ``evennia reload``. Without the
variable the queue does not exist and nothing can be forced.

A fight's dice come from its secret seed and a counter (``rules.dice.seeded``, "Verifiable
dice" in docs/architecture.md); every other roll uses ``random.SystemRandom``
(docs/architecture.md, "Test-only").
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from contextlib import contextmanager

from evennia.server.models import ServerConfig

from rules.dice import ForcedFaceError, QueuedRoller, RandomRoller, Roller
from rules.dice.seeded import SeededRoller
from rules.systems import CombatError

TEST_DICE_ENABLED = os.environ.get("FRAY_TEST_DICE") == "1"
FORCED_FACES_KEY = "fray_forced_dice"
MAX_FORCED_FACES = 200

_SYSTEM_RANDOM = RandomRoller(random.SystemRandom())


def forced_faces() -> list[int]:
    """The queued faces (empty when the hook is off)."""
    if not TEST_DICE_ENABLED:
        return []
    return list(ServerConfig.objects.conf(FORCED_FACES_KEY, default=[]) or [])


def _store(faces: list[int]) -> None:
    ServerConfig.objects.conf(FORCED_FACES_KEY, list(faces))


def require_test_dice() -> None:
    """Raises CombatError unless the server was started with ``FRAY_TEST_DICE=1``."""
    if not TEST_DICE_ENABLED:
        raise CombatError("Forced dice are off: start the server with FRAY_TEST_DICE=1 to use them.")


def force(faces: list[int]) -> list[int]:
    """Append ``faces`` (each 1..1000) to the queue; returns the whole queue. Raises CombatError."""
    require_test_dice()
    queue = forced_faces() + list(faces)
    if len(queue) > MAX_FORCED_FACES:
        raise CombatError(f"At most {MAX_FORCED_FACES} forced faces may wait in the queue.")
    _store(queue)
    return queue


def crash_flag() -> str:
    """The file that arms ``@dice/crash`` (in the game's server dir)."""
    from django.conf import settings

    return os.path.join(settings.GAME_DIR, "server", "fray-crash-next-save")


def arm_crash() -> None:
    """Test hook: the next command that saves a fight kills the Server process (SIGKILL)
    after writing and before the commit. Raises CombatError when the hook is off."""
    require_test_dice()
    with open(crash_flag(), "w") as flag:
        flag.write("armed\n")


def crash_if_armed() -> None:
    """Called by ``world.fights`` between the writes and the commit of a command."""
    if TEST_DICE_ENABLED and os.path.exists(crash_flag()):
        os.unlink(crash_flag())
        os.kill(os.getpid(), 9)


def clear() -> None:
    """Empty the queue. Raises CombatError when the hook is off."""
    require_test_dice()
    _store([])


@contextmanager
def roller(seeded: SeededRoller | None = None) -> Iterator[Roller]:
    """A roller for one command: queued faces first (test hook), then ``seeded``, a fight's
    dice (``world.fights.fight_dice``: each die drawn is recorded, a forced face as forced),
    else real randomness.

    The faces consumed are removed from the stored queue when the block ends, even when a
    rule refused the action part-way (those dice were rolled). A forced face that does not
    fit its die raises CombatError.
    """
    source = seeded if seeded is not None else _SYSTEM_RANDOM
    if not TEST_DICE_ENABLED:
        yield source
        return
    queue = forced_faces()
    start = len(queue)
    try:
        yield QueuedRoller(queue, source, on_forced=seeded.forced if seeded is not None else None)
    except ForcedFaceError as err:
        raise CombatError(f"{err} Clear the queue with @dice/clear.") from err
    finally:
        if len(queue) != start:
            _store(queue)
