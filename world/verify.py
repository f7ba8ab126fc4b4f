"""Verifiable dice for players: ``+combat/verify [<fight>]`` (docs/architecture.md,
"Verifiable dice").

Every fight commits to a secret seed when it starts (``world.fights``: its SHA-256, the
commitment, is shown at once); every die its services roll comes from that seed and a
counter (``world.fights.fight_dice``) and is recorded with the roll-log entry it belongs
to; the seed is revealed when the fight ends. ``+combat/verify`` replays every logged die
from the revealed seed (``rules.dice.seeded.verify``). Anyone may verify any fight: it shows
the commitment, the seed once revealed, and for a die that does not match its entry's number,
who rolled and what, never the log's lines.

It also replays the fight: every intent in its log, stepped again through the engine with the
dice it drew, must reach the state kept after it, and the last the state stored
(``rules.engine.replay``); the report names the first intent that goes otherwise.
"""

from __future__ import annotations

from rules.dice.seeded import LoggedEntry, Verification, seed_bytes
from rules.dice.seeded import verify as check_dice
from rules.engine import FightState, Intent
from rules.engine.replay import Logged, replay
from rules.systems import CombatError, get_system
from rules.text import quote
from world import fights
from world.models import Fight, FightIntent, FightLogEntry
from world.text import COMBAT, escape
from world.wording import line_text

#: Mismatching dice named one by one; the rest are counted.
SHOWN_MISMATCHES = 5
MAX_DIGITS = 9
WIDTH = 78


def _fight(caller, text: str) -> Fight:
    """The fight ``text`` names (its number, ``12`` or ``#12``), else the fight in the caller's
    room, else the last one that ended there. Raises CombatError."""
    text = (text or "").strip()
    if not text:
        row = fights.running_in(caller.location)
        if row is not None:
            return row
        ended = Fight.objects.filter(room_id=getattr(caller.location, "id", None),
                                     ended__isnull=False).order_by("-ended", "-id").first()
        if ended is None:
            raise CombatError("No fight here to verify: give its number, e.g. +combat/verify 12.")
        return ended
    digits = text[1:] if text.startswith("#") else text
    if not (digits.isascii() and digits.isdigit()):
        raise CombatError(f"Not a fight's number: '{quote(text[:20])}' (e.g. +combat/verify 12).")
    if len(digits.lstrip("0")) > MAX_DIGITS:
        raise CombatError("There is no fight with that number.")
    number = int(digits)
    row = Fight.objects.filter(pk=number).first()
    if row is None:
        raise CombatError(f"There is no fight #{number}.")
    return row


def verify(caller, text: str) -> str:
    """``+combat/verify [<fight>]``: the report (lines of at most 78 columns). Raises
    CombatError for a fight that cannot be found."""
    row = _fight(caller, text)
    name = f"Fight #{row.pk} ({row.system_key})"
    if not row.dice_commitment:
        return f"{COMBAT} {name} began before verifiable dice:\n  it has no seed to check."
    if row.ended is None:
        return "\n".join([
            f"{COMBAT} {name} is still running: its dice seed",
            "  stays secret until it ends. Its commitment (SHA-256 of the seed):",
            f"  {row.dice_commitment}",
            f"  Dice drawn so far: {row.dice_counter}.", *replayed(row)])
    logged = FightLogEntry.objects.filter(fight_id=row.pk).order_by("number").values_list(
        "number", "actor", "what", "dice")
    result = check_dice(row.dice_seed, row.dice_commitment, row.dice_counter,
                        (LoggedEntry(number, actor, what, dice) for number, actor, what, dice in logged))
    return "\n".join([*report(name, result, row.system_key), *replayed(row), f"  Seed:       {escape(row.dice_seed[:64])}",
                      f"  Commitment: {escape(row.dice_commitment[:64])}"])


def replayed(row: Fight) -> list[str]:
    """The replay of the fight's intents as report lines (the seed checks the dice once the
    fight has ended; before, the dice as drawn)."""
    intents = FightIntent.objects.filter(fight_id=row.pk).order_by("number")
    logged = (Logged(entry.number, Intent.from_record(entry.intent), entry.dice, entry.after) for entry in intents)
    try:
        system = get_system(row.system_key)
    except CombatError:
        return [f"  No replay: the {escape(row.system_key[:20])} rules are gone from this game."]
    seed = seed_bytes(row.dice_seed) if row.ended is not None else None
    result = replay(system, logged, FightState.from_record(row.state), seed)
    if result.matches:
        return [f"  Replayed {_plural(result.played, 'intent')}: the fight's state is as stored",
                "    (health, conditions, order, round)."]
    why = line_text(result.why, system.key)   # the catalogue's words, the fight's system's own
    if not result.diverged_at:
        return [f"  Replayed {_plural(result.played, 'intent')}, but {_stop(why)}"[:WIDTH]]
    entry = FightIntent.objects.filter(fight_id=row.pk, number=result.diverged_at).first()
    action = escape(str((entry.intent if entry else {}).get("action", "?"))[:20])
    return [f"  Replay: intent #{result.diverged_at} ({action}) goes otherwise:",
            f"    {_stop(why)}"[:WIDTH]]


def _stop(text: str) -> str:
    """``text`` ending a sentence: a full stop added unless it ends in one (or "!", "?")
    already, as a refusal worded by the catalogue does."""
    return text if text.endswith((".", "!", "?")) else text + "."


def _plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def _ranges(missing: tuple[tuple[int, int], ...]) -> str:
    shown = [str(first) if first == last else f"{first}-{last}" for first, last in missing[:3]]
    return ", ".join(shown) + (" and more" if len(missing) > 3 else "")


def report(name: str, result: Verification, system: str = "") -> list[str]:
    """The verification as lines of at most 78 columns (a die's problem in the catalogue's
    words, ``system``'s own where it has them)."""
    if not result.seed_matches:
        return [f"{COMBAT} {name}: the seed does NOT match",
                "  its commitment: none of its dice can be trusted."]
    head = "seed matches its commitment" if result.ok else "seed matches, but NOT every die does"
    lines = [f"{COMBAT} {name}: {head}.",
             f"  {_plural(result.entries, 'entry', 'entries')}, {_plural(result.confirmed, 'die', 'dice')} "
             f"confirmed; {_plural(result.forced, 'forced (test) die', 'forced (test) dice')}."]
    if result.missing:
        line = (f"  {_plural(result.missing_count, 'die', 'dice')} drawn but not in the log "
                f"(counter {_ranges(result.missing)}).")
        lines += [line] if len(line) <= WIDTH else [line[:line.index(" (")] + ":",
                                                     f"    counter {_ranges(result.missing)}."]
    for mismatch in result.mismatches[:SHOWN_MISMATCHES]:
        entry = mismatch.entry
        where = f"  Entry #{entry.number} ({escape(str(entry.actor)[:20])}: {escape(str(entry.what)[:24])}):"
        what = _stop(f"die {mismatch.die} {line_text(mismatch.problem, system)}")[:WIDTH - 4]
        if len(where) + 1 + len(what) <= WIDTH:
            lines.append(f"{where} {what}")
        else:
            lines += [where, f"    {what}"]
    hidden = len(result.mismatches) - SHOWN_MISMATCHES
    if hidden > 0:
        lines.append(f"  ... and {_plural(hidden, 'more die', 'more dice')} that do not match.")
    return lines[:1] + [line[:WIDTH] for line in lines[1:]]   # the first has colour codes
