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
from rules.lines import Line
from rules.systems import CombatError, get_system
from rules.text import quote
from world import fights
from world.models import Fight, FightIntent, FightLogEntry
from world.text import COMBAT
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
    """``+combat/verify [<fight>]``: the report (lines of at most 78 columns), in the
    catalogue's words (``line.verify_*``). Raises CombatError for a fight that cannot be found."""
    row = _fight(caller, text)
    name = Line("line.verify_fight", {"fight": row.pk, "system": row.system_key})
    if not row.dice_commitment:
        return "\n".join([_head(Line("line.verify_no_seed_head", {"name": name})), line_text(Line("line.verify_no_seed"))])
    if row.ended is None:
        return "\n".join([_head(Line("line.verify_running_head", {"name": name})),
                          line_text(Line("line.verify_running_secret")),
                          line_text(Line("line.verify_commitment_shown", {"commitment": row.dice_commitment})),
                          line_text(Line("line.verify_drawn_so_far", {"count": row.dice_counter})), *replayed(row)])
    logged = FightLogEntry.objects.filter(fight_id=row.pk).order_by("number").values_list(
        "number", "actor", "what", "dice")
    result = check_dice(row.dice_seed, row.dice_commitment, row.dice_counter,
                        (LoggedEntry(number, actor, what, dice) for number, actor, what, dice in logged))
    return "\n".join([*report(name, result, row.system_key), *replayed(row),
                      line_text(Line("line.verify_seed", {"seed": row.dice_seed[:64]})),
                      line_text(Line("line.verify_commitment", {"commitment": row.dice_commitment[:64]}))])


def replayed(row: Fight) -> list[str]:
    """The replay of the fight's intents as report lines (the seed checks the dice once the
    fight has ended; before, the dice as drawn)."""
    intents = FightIntent.objects.filter(fight_id=row.pk).order_by("number")
    logged = (Logged(entry.number, Intent.from_record(entry.intent), entry.dice, entry.after) for entry in intents)
    try:
        system = get_system(row.system_key)
    except CombatError:
        return [line_text(Line("line.verify_rules_gone", {"system": row.system_key[:20]}))]
    seed = seed_bytes(row.dice_seed) if row.ended is not None else None
    result = replay(system, logged, FightState.from_record(row.state), seed)
    played = Line("line.verify_intent" if result.played == 1 else "line.verify_intents", {"count": result.played})
    if result.matches:
        return [line_text(Line("line.verify_replayed", {"intents": played})), line_text(Line("line.verify_replayed_what"))]
    # the reason in the catalogue's words, the fight's system's own
    if not result.diverged_at:
        return [_stop(line_text(Line("line.verify_replayed_but", {"intents": played, "why": result.why}), system.key))[:WIDTH]]
    entry = FightIntent.objects.filter(fight_id=row.pk, number=result.diverged_at).first()
    action = str((entry.intent if entry else {}).get("action", "?"))[:20]
    return [line_text(Line("line.verify_diverged", {"number": result.diverged_at, "action": action})),
            _stop(line_text(Line("line.verify_diverged_why", {"why": result.why}), system.key))[:WIDTH]]


def _head(line: Line) -> str:
    """The report's first line, after the ``<Combat>`` prefix."""
    return f"{COMBAT} {line_text(line)}"


def _stop(text: str) -> str:
    """``text`` ending a sentence: a full stop added unless it ends in one (or "!", "?")
    already, as a refusal worded by the catalogue does."""
    return text if text.endswith((".", "!", "?")) else text + "."


def _dice(count: int) -> Line:
    return Line("line.verify_die" if count == 1 else "line.verify_dice", {"count": count})


def _ranges(missing: tuple[tuple[int, int], ...]) -> str | Line:
    shown = ", ".join(str(first) if first == last else f"{first}-{last}" for first, last in missing[:3])
    return Line("line.verify_ranges_more", {"ranges": shown}) if len(missing) > 3 else shown


def report(name: str | Line, result: Verification, system: str = "") -> list[str]:
    """The verification as lines of at most 78 columns (a die's problem in the catalogue's
    words, ``system``'s own where it has them)."""
    if not result.seed_matches:
        return [_head(Line("line.verify_seed_mismatch", {"name": name})), line_text(Line("line.verify_seed_mismatch_note"))]
    counts = {"entries": Line("line.verify_entry" if result.entries == 1 else "line.verify_entries",
                              {"count": result.entries}),
              "confirmed": _dice(result.confirmed),
              "forced": Line("line.verify_forced_die" if result.forced == 1 else "line.verify_forced_dice",
                             {"count": result.forced})}
    lines = [_head(Line("line.verify_matches" if result.ok else "line.verify_matches_not_every", {"name": name})),
             line_text(Line("line.verify_counts", counts))]
    if result.missing:
        dice, ranges = _dice(result.missing_count), _ranges(result.missing)
        line = line_text(Line("line.verify_missing", {"dice": dice, "ranges": ranges}))
        lines += [line] if len(line) <= WIDTH else [line_text(Line("line.verify_missing_head", {"dice": dice})),
                                                     line_text(Line("line.verify_missing_counter", {"ranges": ranges}))]
    for mismatch in result.mismatches[:SHOWN_MISMATCHES]:
        entry = mismatch.entry
        where = line_text(Line("line.verify_entry_line", {"number": entry.number, "actor": str(entry.actor)[:20],
                                                      "what": str(entry.what)[:24]}))
        what = _stop(line_text(Line("line.verify_die_problem", {"die": mismatch.die, "problem": mismatch.problem}),
                           system))[:WIDTH - 4]
        if len(where) + 1 + len(what) <= WIDTH:
            lines.append(f"{where} {what}")
        else:
            lines += [where, f"    {what}"]
    hidden = len(result.mismatches) - SHOWN_MISMATCHES
    if hidden > 0:
        lines.append(line_text(Line("line.verify_more_die" if hidden == 1 else "line.verify_more_dice", {"count": hidden})))
    return lines[:1] + [line[:WIDTH] for line in lines[1:]]   # the first has colour codes
