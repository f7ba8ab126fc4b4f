"""The fight in the game: one row, one transaction per command, and :func:`perform`.

A fight is one ``world.models.Fight`` row. Its state is a frozen
``rules.engine.FightState`` kept as one JSON document; its roll log and its intent log are
rows (``FightLogEntry``, ``FightIntent``). Every change is an intent played by the pure
engine (``rules.engine.step``) through :func:`perform`, which, inside the command's unit of
work:

1. loads the fight once (the row is kept in memory between commands: the Server's reactor
   thread is its only writer);
2. brings each fighter's sheet up to date (a ``refresh`` intent, logged, for any that changed
   outside the fight: ``+stat``, ``+damage``, a worn armor note, a rename);
3. steps the engine with the fight's dice (``world.dice``);
4. writes back what changed on the characters (health, the weapon in hand, gear), keeps the
   new state, the roll-log entries and the intent with the dice it drew.

At the end of the unit, inside one ``transaction.atomic()``: one ``UPDATE`` of each fight that
changed, one ``INSERT`` each for its new log and intent rows, the characters' Attributes as
written; then the commit; only then are the events handed to the subscribers (the telnet
narrator, GMCP, the web tracker, scene logs: ``subscribe``). A command that fails is rolled
back whole and publishes nothing. Outside a command (login and movement hooks) a perform is
its own unit.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from evennia.objects.models import ObjectDB
from evennia.utils import logger

from rules.dice.seeded import SeededRoller, commitment, seed_bytes
from rules.engine import Event, Fighter, FightState, Intent, Outcome, step, view
from rules.engine.replay import digest
from rules.systems import RuleSystem, get_system
from world import dice, statements
from world.models import Fight, FightIntent, FightLogEntry
from world.wording import line_text


# --------------------------------------------------------------------------------- events
@dataclass(frozen=True)
class FightEvent:
    """One event of a fight as its subscribers get it, after the commit: the engine's
    ``event`` (kind, message key, values, lines, data) with the fight's id, its sequence
    number (from 1 in each fight), the round, and the game objects it names: the fight's
    ``room``, the ``actor`` ($You()), the ``refs`` by placeholder, and ``to`` (a notice's
    one reader)."""

    fight: int
    seq: int
    round: int
    event: Event
    room: Any = None
    actor: Any = None
    refs: Mapping[str, Any] = field(default_factory=dict)
    to: Any = None

    @property
    def kind(self) -> str:
        return self.event.kind

    @property
    def key(self) -> str:
        return self.event.key

    @property
    def values(self) -> Mapping[str, Any]:
        return self.event.values

    @property
    def lines(self) -> tuple[str, ...]:
        return self.event.lines

    @property
    def data(self) -> Mapping[str, Any]:
        return self.event.data


_subscribers: list[Callable[[FightEvent], None]] = []
_settled: list[Callable[[], None]] = []
_recorders: list[Callable[[list[FightEvent]], None]] = []


def subscribe(callback: Callable[[FightEvent], None]) -> None:
    """Call ``callback(event)`` for every committed event of every fight, in order
    (``world.subscribers`` registers the game's subscribers, once, at start)."""
    if callback not in _subscribers:
        _subscribers.append(callback)


def record_with(callback: Callable[[list[FightEvent]], None]) -> None:
    """Call ``callback(events)`` with each unit's events inside its transaction, after the
    fights are saved and before the commit: for what is kept beside a fight (the web
    tracker's narration), written in the same commit and rolled back with it. The callback
    contains its own failures (a savepoint around its writes); its events are published
    after the commit as every other."""
    if callback not in _recorders:
        _recorders.append(callback)


def when_settled(callback: Callable[[], None]) -> None:
    """Call ``callback()`` after every command's unit has committed, published its events and
    run its ``afterwards``, with no unit open: for work that takes units of its own (the NPC
    AI, ``world.ai``)."""
    if callback not in _settled:
        _settled.append(callback)


def obj(obj_id: int | None):
    """The game object with ``obj_id`` (the cache first), or None."""
    if obj_id is None:
        return None
    cached = ObjectDB.get_cached_instance(obj_id)
    if cached is not None and cached.pk is not None:
        return cached
    return ObjectDB.objects.filter(id=obj_id).first()


def _resolved(event: Event) -> dict:
    """The game objects an event names, looked up as it happens (an NPC deleted by the same
    command is still shown by name when the event goes out)."""
    return {"actor": obj(event.actor), "refs": {name: obj(ref) for name, ref in event.refs.items()},
            "to": obj(event.to)}


def _published(row: Fight, event: Event, seq: int, round_: int, objects: dict) -> FightEvent:
    return FightEvent(fight=row.pk, seq=seq, round=round_, event=event, room=obj(row.room_id), **objects)


def _publish(events: list[FightEvent]) -> None:
    for event in events:
        for callback in list(_subscribers):
            callback(event)


# ----------------------------------------------------------------------- running fights
_running: dict[int, Fight] | None = None   # fight id -> row, every running fight


def running() -> list[Fight]:
    """Every running fight (rows kept in memory; loaded once)."""
    global _running
    if _running is None:
        _running = {row.pk: row for row in Fight.objects.filter(ended__isnull=True).order_by("id")}
    return list(_running.values())


def reset() -> None:
    """Forget every fight kept in memory (read anew): for tests, whose database is new."""
    global _running
    _running = None
    _units.clear()


def running_in(room) -> Fight | None:
    """The fight running in ``room``, or None."""
    room_id = getattr(room, "id", None)
    if room_id is None:
        return None
    return next((row for row in running() if row.room_id == room_id), None)


def fight_of(thing) -> Fight | None:
    """The running fight ``thing`` (a game object) fights in, anywhere, or None."""
    thing_id = getattr(thing, "id", None)
    if thing_id is None:
        return None
    return next((row for row in running() if state(row).has(thing_id)), None)


def system_of(row: Fight) -> RuleSystem:
    return get_system(row.system_key)


def _forget(row: Fight) -> None:
    """A fight kept in memory whose changes were rolled back: read anew from its row."""
    for attr in ("fray_state", "fray_dice"):
        if hasattr(row, attr):
            delattr(row, attr)
    try:
        row.refresh_from_db()
    except Fight.DoesNotExist:
        if _running is not None:
            _running.pop(row.pk, None)


# ----------------------------------------------------------------------- the unit of work
class Loaded:
    """One fight as a unit changes it: the state it was saved with, the state now, the new
    log, intent and event rows, and the characters to write back."""

    def __init__(self, row: Fight):
        self.row = row
        self.saved = state(row)
        self.state = self.saved
        self.record: dict | None = None   # the state's record, once made
        self.log: list[FightLogEntry] = []
        self.intents: list[FightIntent] = []
        self.events: list[tuple[Event, int, dict]] = []   # (event, round, the objects it names)

    def save(self) -> None:
        row = self.row
        tape = getattr(row, "fray_dice", None)
        drew = tape is not None and tape.counter != row.dice_counter
        if drew:
            row.dice_counter = tape.counter
        if self.state is not self.saved or self.events or self.log or drew:
            if self.state.turn != self.saved.turn:
                row.moved_at = time.time()
            row.state = self.record if self.record is not None else self.state.to_record()
            row.round = int(self.state.round)
            row.system_key = self.state.system
            if self.state.ended and row.ended is None:
                row.ended = timezone.now()   # the dice are revealed: anyone may check them now
                row.seq += 1
                self.events.append((Event("ended", data={"seed": row.dice_seed, "commitment": row.dice_commitment}),
                                    int(self.state.round), {}))
            statements.update(row, ("state", "round", "system_key", "seq", "log_count", "intent_count", "updated", "ended",
                          "dice_counter", "moved_at"))
            row.fray_state = self.state
            self.saved = self.state
        if self.log:
            statements.insert(self.log)
            self.log = []
        if self.intents:
            statements.insert(self.intents)
            self.intents = []


class Unit:
    """The fights one command touched, and what to do once its events are out."""

    def __init__(self):
        self.fights: dict[int, Loaded] = {}
        self.afterwards: list[Callable[[], None]] = []


_units: list[Unit] = []

#: Benchmarks (``bench/``): with ``FRAY_BENCH_SQL=1`` every command's SQL statements and row
#: writes are counted into ``server/logs/fray-sql.log`` as ``<label>\t<statements>\t<writes>``.
BENCH_SQL = os.environ.get("FRAY_BENCH_SQL") == "1"
WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


@contextmanager
def unit(label: str = "") -> Iterator[Unit]:
    """One command's unit of work: every fight it touches is loaded once, saved once, in one
    transaction; the events go out after the commit. Nested units join the outer one. An
    exception rolls everything back and publishes nothing. ``label`` names the command for
    the SQL counts of ``FRAY_BENCH_SQL``."""
    if _units:
        yield _units[-1]
        return
    if BENCH_SQL:
        with _counting(label):
            yield from _run_unit()
        return
    yield from _run_unit()


@contextmanager
def _counting(label: str):
    counts = [0, 0]

    def count(execute, sql, params, many, context):
        counts[0] += 1
        counts[1] += sql.lstrip().upper().startswith(WRITES)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        yield
    with open(os.path.join(settings.GAME_DIR, "server", "logs", "fray-sql.log"), "a") as out:
        out.write(f"{label}\t{counts[0]}\t{counts[1]}\n")


def _run_unit():
    work = Unit()
    _units.append(work)
    try:
        with transaction.atomic():
            yield work
            events = []
            for loaded in work.fights.values():
                loaded.save()
                first = loaded.row.seq - len(loaded.events)
                events += [_published(loaded.row, event, first + number, round_, objects)
                           for number, (event, round_, objects) in enumerate(loaded.events, start=1)]
            if events:
                for callback in list(_recorders):
                    callback(events)
                dice.crash_if_armed()
    except BaseException:
        for loaded in work.fights.values():
            _keep_drawn(loaded)
            _forget(loaded.row)
        raise
    finally:
        _units.pop()
    for loaded in work.fights.values():
        _drop_unlogged(loaded.row)
        loaded.events = []
        if loaded.row.ended is not None and _running is not None:
            _running.pop(loaded.row.pk, None)
    _publish(events)
    if work.afterwards:
        with unit():
            for callback in work.afterwards:
                callback()
    for callback in list(_settled):
        callback()


def afterwards(callback: Callable[[], None]) -> None:
    """Call ``callback()`` once this command's events are out (at once outside a command):
    for a view that must follow the narration, like the HUD shown on ``+combat/start``."""
    if _units:
        _units[-1].afterwards.append(callback)
    else:
        callback()


def load(row: Fight) -> Loaded:
    """The fight ``row`` as the open unit sees it (a unit of its own when none is open is
    the caller's: :func:`perform` opens one)."""
    work = _units[-1]
    loaded = work.fights.get(row.pk)
    if loaded is None:
        loaded = work.fights[row.pk] = Loaded(row)
    return loaded


def state(row: Fight) -> FightState:
    """The fight's state as it is now: in the open unit, with the changes made so far."""
    if _units and row.pk in _units[-1].fights:
        return _units[-1].fights[row.pk].state
    kept = getattr(row, "fray_state", None)
    if kept is None:
        kept = row.fray_state = FightState.from_record(row.state)
    return kept


def reading(row: Fight):
    """A read-only draft of the fight (``rules.engine.view``) for views and queries."""
    return view(state(row), system_of(row))


# ------------------------------------------------------------------------------ perform
def start(room, system: RuleSystem, gm, *, duel: bool = False, lethal: bool = False) -> Fight:
    """A new fight in ``room`` under ``system``, run by ``gm``: its row (with a secret dice
    seed, its commitment shown at once) and the ``start`` intent (``duel``, ``lethal``: see
    ``rules.engine.actions.Start``). Raises CombatError."""
    seed = secrets.token_bytes(32)
    row = Fight(room_id=room.id, system_key=system.key, state=FightState(system=system.key).to_record(),
                dice_seed=seed.hex(), dice_commitment=commitment(seed))
    with unit("start"):
        row.save()
        running()
        _running[row.pk] = row
        perform(row, Intent("start", by=gm.id, fiat=True, data={
            "duel": duel, "lethal": gm.key if lethal else "", "fight": row.pk,
            "commitment": row.dice_commitment}))
    return row


def perform(row: Fight, intent: Intent) -> Outcome:
    """Play ``intent`` in the fight (see the module docstring). Returns the engine's
    :class:`~rules.engine.Outcome`. Raises CombatError when the rules refuse it: nothing of
    it is kept (the dice it drew stay drawn)."""
    with unit(intent.action):
        loaded = load(row)
        system = system_of(row)
        for fighter in loaded.state.fighters:
            _refresh(loaded, system, fighter)
        outcome = _step(loaded, system, intent)
        return outcome


def sync(thing) -> None:
    """``thing``'s character changed outside the fight it is in (``+stat``, ``+damage``,
    armor, a rename): the fight takes its sheet now (a logged ``refresh``)."""
    row = fight_of(thing)
    if row is None:
        return
    with unit("sync"):
        loaded = load(row)
        _refresh(loaded, system_of(row), loaded.state.fighter(thing.id))


def fighter_record(thing, system: RuleSystem, overrides: Mapping[str, int] | None = None) -> dict:
    """``thing`` (a character or NPC) as a fighter enters a fight: its sheet and gear now."""
    return _fighter(thing, system, overrides).to_record()


def _fighter(thing, system: RuleSystem, overrides: Mapping[str, int] | None = None) -> Fighter:
    from world.sheets import is_npc, snapshot

    gear = {name: _plain(thing.attributes.get(name, category="fray")) for name in system.gear
            if thing.attributes.has(name, category="fray")}
    return Fighter(id=thing.id, name=thing.key, npc=is_npc(thing), sheet=snapshot(thing, system, overrides),
                   gear=gear)


def _plain(value: Any) -> Any:
    from evennia.utils.dbserialize import deserialize

    from rules.engine.state import plain

    return plain(deserialize(value))


def _refresh(loaded: Loaded, system: RuleSystem, fighter: Fighter) -> None:
    """The fight takes the fighter's character as it is now, when it changed (logged)."""
    thing = obj(fighter.id)
    if thing is None:
        return
    now = _fighter(thing, system)
    if (now.name, now.sheet, dict(now.gear)) != (fighter.name, fighter.sheet, dict(fighter.gear)):
        _step(loaded, system, Intent("refresh", actor=fighter.id, data={"fighter": now.to_record()}))


def _step(loaded: Loaded, system: RuleSystem, intent: Intent) -> Outcome:
    row = loaded.row
    tape = fight_dice(row)
    first = len(tape.draws) if tape is not None else 0
    with dice.roller(tape) as roller:
        outcome = step(loaded.state, intent, system, roller)
    every = [draw.to_record() for draw in tape.draws[first:]] if tape is not None else []
    if tape is not None:
        del tape.draws[first:]
    drawn = list(every)
    _write_back(loaded.state, outcome.state, system)
    loaded.state = outcome.state
    loaded.record = outcome.state.to_record()
    for entry in outcome.log:
        row.log_count += 1
        records, drawn_left = drawn[:len(entry.dice)], drawn[len(entry.dice):]
        loaded.log.append(FightLogEntry(fight=row, number=row.log_count, round=entry.round, actor=entry.actor[:80],
                                        what=line_text(entry.what, row.system_key, plain=True)[:200], dice=records, **log_lines(entry.lines, row.system_key)))
        drawn = drawn_left
    row.intent_count += 1
    loaded.intents.append(FightIntent(fight=row, number=row.intent_count, intent=intent.to_record(),
                                      dice=every, after=digest(loaded.record)))
    for event in outcome.events:
        row.seq += 1
        loaded.events.append((event, int(outcome.state.round), _resolved(event)))
    return outcome


def _write_back(before: FightState, after: FightState, system: RuleSystem) -> None:
    """What a step changed on the fighters' characters: health, the weapon in hand, gear."""
    from world.sheets import store_health, update_sheet

    was = {fighter.id: fighter for fighter in before.fighters}
    for fighter in after.fighters:
        old = was.get(fighter.id)
        if old is None or (old.sheet is fighter.sheet and old.gear is fighter.gear):
            continue
        thing = obj(fighter.id)
        if thing is None:
            continue
        if dict(old.sheet.health) != dict(fighter.sheet.health):
            store_health(thing, system, fighter.sheet.health)
        if old.sheet.weapon != fighter.sheet.weapon:
            update_sheet(thing, system, weapon=fighter.sheet.weapon)
        for name in system.gear:
            if old.gear.get(name) != fighter.gear.get(name):
                thing.attributes.add(name, fighter.gear.get(name), category="fray")


# ------------------------------------------------------------------------------- the dice
def fight_dice(row: Fight) -> SeededRoller | None:
    """The fight's seeded dice (``world.dice.roller(fight)`` draws every die of the fight
    from them), or None for a fight begun before verifiable dice. They live with the row kept
    in memory; ``draws`` holds those drawn by the step being played, which its intent and
    its roll-log entries record."""
    tape = getattr(row, "fray_dice", None)
    if tape is None:
        seed = seed_bytes(row.dice_seed)
        if seed is None or row.ended is not None:
            return None
        tape = row.fray_dice = SeededRoller(seed, row.dice_counter)
    return tape


def _drop_unlogged(row: Fight) -> None:
    tape = getattr(row, "fray_dice", None)
    if tape is not None:
        tape.draws.clear()


def _keep_drawn(loaded: Loaded) -> None:
    """After a rollback: the fight's counter still moves past the dice the failed command
    drew (one UPDATE of the counter alone), so no die is ever drawn twice."""
    tape = getattr(loaded.row, "fray_dice", None)
    if tape is None or not tape.counter:
        return
    try:
        Fight.objects.filter(pk=loaded.row.pk, dice_counter__lt=tape.counter).update(dice_counter=tape.counter)
    except Exception:  # the database itself failed: the dice were seen by nobody (no commit)
        logger.log_trace("Fray: could not keep a failed command's dice counter.")


# -------------------------------------------------------------------------- the roll log
def log_count(row: Fight) -> int:
    return row.log_count


def log_lines(lines, system: str) -> dict:
    """A roll-log entry's ``lines`` as plain text, and ``spoken``: the same for a screen
    reader (``world.wording``), kept only when it differs."""
    shown = [line_text(line, system, plain=True) for line in lines]
    spoken = [line_text(line, system, plain=True, spoken=True) for line in lines]
    return {"lines": shown, "spoken": spoken if spoken != shown else []}


def log_entries(row: Fight, first: int = 1, last: int | None = None) -> list[dict]:
    """Roll-log entries ``first`` to ``last`` (numbers from 1; default: to the newest), as
    ``{"number", "round", "actor", "what", "lines", "spoken"}``; one query for a page."""
    saved = FightLogEntry.objects.filter(fight_id=row.pk, number__gte=first)
    if last is not None:
        saved = saved.filter(number__lte=last)
    entries = list(saved.order_by("number"))
    if _units and row.pk in _units[-1].fights:
        entries += [entry for entry in _units[-1].fights[row.pk].log
                    if entry.number >= first and (last is None or entry.number <= last)]
    return [{"number": entry.number, **entry.to_record(), "spoken": list(entry.spoken or ())} for entry in entries]


def seq(row: Fight) -> int:
    """The number of the fight's last event."""
    return row.seq
