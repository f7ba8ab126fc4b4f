"""The fight's state, its one transaction per command, its roll log and its event stream.

A fight is one ``world.models.Fight`` row: its whole state is one JSON document, loaded once
per command and saved once, inside one database transaction, together with the new roll-log
rows (``FightLogEntry``). Every change a player may see is a frozen :class:`FightEvent` with
the fight's id and a sequence number; events are handed to the subscribers (the telnet
narrator first; the web tracker, GMCP and scene logs subscribe the same way) only after the
transaction has committed, so nobody is told of a change that a crash undid.

The unit of work::

    with fights.unit():        # the base command wraps every Fray command in one
        ... services read and change ``encounter.<field>`` in memory ...
    # one UPDATE per changed fight, one INSERT for the new log rows, COMMIT, then the events

Outside a unit (login and movement hooks, the shell) every change is saved and published at
once, like an Evennia Attribute. The Evennia reactor runs one command at a time, so two
commands for the same fight never interleave; anything else that changes a fight (a web
view) runs its service call in the reactor thread too.

Stored values are plain JSON: game objects become ``{"#obj": id}`` (a deleted object comes
back as None), tuples ``{"#tuple": [...]}``, and dicts with keys other than strings
``{"#map": [[key, value], ...]}``, so every value reads back exactly as it was stored.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Mapping, MutableSequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from evennia.objects.models import ObjectDB
from evennia.utils import logger

from rules.dice.seeded import SeededRoller, commitment, seed_bytes
from world import dice
from world.models import Fight, FightLogEntry

#: The fields of a fight's state and the value each has before it is first set.
FIELDS: dict[str, Callable[[], Any]] = {
    "system_key": lambda: "storyteller", "storyteller": lambda: None, "round": lambda: 1,
    "combatants": list, "initiative": dict, "acted": list, "pending": list, "conditions": dict,
    "next_attack_id": lambda: 1, "shields": dict, "idle": list, "dropped": list, "scene": dict,
    "declarations": dict, "sides": dict, "parties": dict, "segment": lambda: 0,
    "segment_actions": list, "segment_initiative": dict, "turn_moved": lambda: None,
    "order": lambda: None, "ai": list,
}


# ------------------------------------------------------------------------------- encoding
def encode(value: Any) -> Any:
    """A fight value as JSON data (see the module docstring). Raises TypeError for anything
    else (a fight stores only plain data and game objects)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, ObjectDB):
        return {"#obj": value.id}
    if isinstance(value, Mapping):
        if all(isinstance(key, str) and not key.startswith("#") for key in value):
            return {key: encode(item) for key, item in value.items()}
        return {"#map": [[encode(key), encode(item)] for key, item in value.items()]}
    if isinstance(value, tuple):
        return {"#tuple": [encode(item) for item in value]}
    if isinstance(value, (list, MutableSequence)):
        return [encode(item) for item in value]
    raise TypeError(f"A fight cannot store a {type(value).__name__}.")


def copied(value: Any) -> Any:
    """A copy of a fight value whose dicts, lists and tuples are new (game objects and
    everything else are shared): change it freely, then assign it back to save it."""
    if isinstance(value, Mapping):
        return {key: copied(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return tuple(copied(item) for item in value)
    if isinstance(value, list):
        return [copied(item) for item in value]
    return value


def _object_ids(data: Any, found: set[int]) -> set[int]:
    if isinstance(data, dict):
        if "#obj" in data and len(data) == 1:
            found.add(int(data["#obj"]))
        else:
            for item in data.values():
                _object_ids(item, found)
    elif isinstance(data, list):
        for item in data:
            _object_ids(item, found)
    return found


def decode(data: Any) -> Any:
    """The value ``encode`` stored, with game objects looked up (the cache first, one query
    for the rest); a deleted object is None."""
    ids = _object_ids(data, set())
    objects = {}
    missing = []
    for obj_id in ids:
        cached = ObjectDB.get_cached_instance(obj_id)
        if cached is not None and cached.pk is not None:
            objects[obj_id] = cached
        else:
            missing.append(obj_id)
    if missing:
        objects.update((obj.id, obj) for obj in ObjectDB.objects.filter(id__in=missing))
    return _decode(data, objects)


def _decode(data: Any, objects: dict) -> Any:
    if isinstance(data, list):
        return [_decode(item, objects) for item in data]
    if not isinstance(data, dict):
        return data
    if len(data) == 1:
        if "#obj" in data:
            return objects.get(int(data["#obj"]))
        if "#tuple" in data:
            return tuple(_decode(item, objects) for item in data["#tuple"])
        if "#map" in data:
            return {_decode(key, objects): _decode(item, objects) for key, item in data["#map"]}
    return {key: _decode(item, objects) for key, item in data.items()}


# --------------------------------------------------------------------------------- events
@dataclass(frozen=True)
class FightEvent:
    """One change to a fight, as its subscribers see it.

    ``kind``: ``"narration"`` (a line to the room: ``text`` is a template with per-viewer
    ``$You()``/``{key}`` parts filled from ``actor`` and ``mapping``, then the plain
    ``lines`` of dice and arithmetic), ``"notice"`` (``text`` for ``to`` alone, or the
    Storyteller for an NPC), ``"turn"`` (``data``: round, whose turn), ``"health"``
    (``data``: name, current and maximum of the health meter, the health level in words),
    ``"roster"`` (``data``: ``left``, the name of a fighter taken out), ``"ended"`` (``data``:
    the dice ``seed``, revealed, and its ``commitment``). ``seq`` counts from 1 in each fight; ``fight`` is the ``Fight`` id.
    """

    fight: int
    seq: int
    kind: str
    round: int
    room: Any = None
    text: str = ""
    actor: Any = None
    mapping: Mapping[str, Any] = field(default_factory=dict)
    lines: tuple[str, ...] = ()
    to: Any = None
    data: Mapping[str, Any] = field(default_factory=dict)


_subscribers: list[Callable[[FightEvent], None]] = []
_settled: list[Callable[[], None]] = []


def subscribe(callback: Callable[[FightEvent], None]) -> None:
    """Call ``callback(event)`` for every committed event of every fight, in order."""
    if callback not in _subscribers:
        _subscribers.append(callback)


def when_settled(callback: Callable[[], None]) -> None:
    """Call ``callback()`` after every command's unit has committed, published its events and
    run its ``afterwards``, with no unit open: for work that takes units of its own (the NPC
    AI, ``world.ai``)."""
    if callback not in _settled:
        _settled.append(callback)


def _publish(events: list[FightEvent]) -> None:
    for event in events:
        for callback in list(_subscribers):
            callback(event)


# ---------------------------------------------------------------------------- the state
class Loaded:
    """One fight as a command sees it: the row, the decoded state, the new log rows and the
    events waiting for the commit."""

    def __init__(self, row: Fight):
        self.row = row
        self.saved = row.state
        self.state = decode(row.state)
        self.log: list[FightLogEntry] = []
        self.events: list[FightEvent] = []

    def get(self, name: str) -> Any:
        if name in self.state:
            return self.state[name]
        return FIELDS[name]()

    def save(self) -> None:
        """Write what changed: the row when its state did, the new log rows in one INSERT."""
        data = encode(self.state)
        row = self.row
        tape = getattr(row, "fray_dice", None)
        drew = tape is not None and tape.counter != row.dice_counter
        if drew:
            row.dice_counter = tape.counter
        if data != self.saved or self.events or self.log or row.ended or drew:
            row.state = data
            row.round = int(self.state.get("round", 1) or 1)
            row.system_key = str(self.state.get("system_key", "storyteller"))
            row.save(update_fields=["state", "round", "system_key", "seq", "log_count", "updated",
                                    "ended", "script", "dice_counter"])
            self.saved = data
        if self.log:
            FightLogEntry.objects.bulk_create(self.log)
            self.log = []


class Unit:
    """The fights loaded by one command, by their script's id, and what to do once its
    events are out."""

    def __init__(self):
        self.fights: dict[int, Loaded] = {}
        self.afterwards: list[Callable[[], None]] = []


_units: list[Unit] = []


#: Benchmarks (``bench/``): with ``FRAY_BENCH_SQL=1`` every command's SQL statements and row
#: writes are counted into ``server/logs/fray-sql.log`` as ``<label>\t<statements>\t<writes>``.
BENCH_SQL = os.environ.get("FRAY_BENCH_SQL") == "1"
WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


@contextmanager
def unit(label: str = ""):
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
            for loaded in work.fights.values():
                loaded.save()
            if any(loaded.events for loaded in work.fights.values()):
                dice.crash_if_armed()
    except BaseException:
        for script_id, loaded in work.fights.items():
            _keep_drawn(loaded)
            _forget(script_id)
        raise
    finally:
        _units.pop()
    for loaded in work.fights.values():
        _drop_unlogged(loaded.row)
    _publish([event for loaded in work.fights.values() for event in loaded.events])
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


def load(script) -> Loaded:
    """The fight run by the Encounter ``script``, loaded once per unit (or afresh outside
    one). A fight stored by an earlier Fray (in the script's Attributes) moves to its row."""
    work = _units[-1] if _units else None
    if work is not None and script.id in work.fights:
        return work.fights[script.id]
    row = script.ndb.fray_fight_row
    if row is None:
        row = Fight.objects.filter(script_id=script.id).first() or _adopt(script)
        script.ndb.fray_fight_row = row
    loaded = Loaded(row)
    if work is not None:
        work.fights[script.id] = loaded
    return loaded


def _adopt(script) -> Fight:
    """A new row for ``script``, with what an earlier Fray kept in its Attributes."""
    state, log = {}, []
    for name in FIELDS:
        value = script.attributes.get(name)
        if value is not None:
            state[name] = value
    for entry in script.attributes.get("log") or []:
        log.append(dict(entry))
    seed = secrets.token_bytes(32)  # the fight's dice (``fight_dice``), secret until it ends
    row = Fight(script_id=script.id, room_id=script.db_obj_id, state=encode(state),
                system_key=str(state.get("system_key", "storyteller")), round=int(state.get("round", 1) or 1),
                dice_seed=seed.hex(), dice_commitment=commitment(seed))
    row.save()
    if log:
        FightLogEntry.objects.bulk_create(
            FightLogEntry(fight=row, number=number, round=int(entry.get("round", 1)), actor=str(entry.get("actor", "")),
                          what=str(entry.get("what", ""))[:200], lines=[str(line) for line in entry.get("lines", [])])
            for number, entry in enumerate(log, start=1))
        row.log_count = len(log)
        row.save(update_fields=["log_count"])
    for name in [*state, *(["log"] if log else [])]:
        script.attributes.remove(name)
    return row


def _forget(script_id: int) -> None:
    """Drop a fight's row kept in memory (its changes were rolled back): read it anew."""
    from evennia.scripts.models import ScriptDB

    script = ScriptDB.get_cached_instance(script_id)
    if script is not None:
        script.ndb.fray_fight_row = None


def _commit_now(loaded: Loaded) -> None:
    """Outside a unit: save and publish at once."""
    if _units:
        return
    try:
        with transaction.atomic():
            loaded.save()
    except BaseException:
        _forget(loaded.row.script_id)
        raise
    events, loaded.events = loaded.events, []
    _publish(events)


def stored(script, name: str) -> Any:
    """The JSON of field ``name`` as last saved (None when unset), read without decoding the
    state: a cheap look for a field of plain data."""
    row = script.ndb.fray_fight_row
    if row is None:
        return load(script).saved.get(name)
    return (row.state or {}).get(name)


def set_field(script, name: str, value: Any) -> None:
    loaded = load(script)
    loaded.state[name] = value
    _commit_now(loaded)


# ------------------------------------------------------------------------------- the dice
def fight_dice(script) -> SeededRoller | None:
    """The fight's seeded dice (``world.dice.roller(encounter)`` draws every die of the fight
    from them), or None for a fight begun before verifiable dice. They live with the row kept
    in memory; the dice drawn wait for the fight's next roll-log entry, which records them."""
    row = load(script).row
    tape = getattr(row, "fray_dice", None)
    if tape is None:
        seed = seed_bytes(row.dice_seed)
        if seed is None or row.ended is not None:
            return None
        tape = row.fray_dice = SeededRoller(seed, row.dice_counter)
    return tape


def _drop_unlogged(row: Fight) -> None:
    """After the commit: dice drawn but logged by no entry stay out of the log (the counter
    moved on, so ``+combat/verify`` lists them as not in the log)."""
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


def add_log(script, actor: str, what: str, lines) -> None:
    """Append one roll-log entry (``round``: the fight's current round) with the fight's dice
    drawn since the last entry."""
    loaded = load(script)
    row = loaded.row
    row.log_count += 1
    tape = getattr(row, "fray_dice", None)
    drawn = [draw.to_record() for draw in tape.draws] if tape is not None else []
    if tape is not None:
        tape.draws.clear()
    loaded.log.append(FightLogEntry(fight=row, number=row.log_count, round=int(loaded.get("round")),
                                    actor=str(actor)[:80], what=str(what)[:200], lines=[str(line) for line in lines],
                                    dice=drawn))
    _commit_now(loaded)


def log_count(script) -> int:
    return load(script).row.log_count


def log_entries(script, first: int = 1, last: int | None = None) -> list[dict]:
    """Roll-log entries ``first`` to ``last`` (numbers from 1; default: to the newest), as
    ``{"number", "round", "actor", "what", "lines"}``; one query for a page."""
    loaded = load(script)
    saved = FightLogEntry.objects.filter(fight_id=loaded.row.pk, number__gte=first)
    if last is not None:
        saved = saved.filter(number__lte=last)
    entries = list(saved.order_by("number"))
    entries += [entry for entry in loaded.log if entry.number >= first and (last is None or entry.number <= last)]
    return [{"number": entry.number, **entry.to_record()} for entry in entries]


def latest_log(script, actor: str | None = None):
    """The roll-log entries newest first (of ``actor`` only, when given), read lazily."""
    loaded = load(script)
    for entry in reversed(loaded.log):
        if actor is None or entry.actor == actor:
            yield {"number": entry.number, **entry.to_record()}
    query = FightLogEntry.objects.filter(fight_id=loaded.row.pk)
    if actor is not None:
        query = query.filter(actor=actor[:80])
    for entry in query.order_by("-number").iterator(chunk_size=20):
        yield {"number": entry.number, **entry.to_record()}


def emit(script, kind: str, **fields) -> FightEvent:
    """Record one event of the fight (published after the commit, or now outside a unit)."""
    loaded = load(script)
    loaded.row.seq += 1
    event = FightEvent(fight=loaded.row.pk, seq=loaded.row.seq, kind=kind, round=int(loaded.get("round")),
                       room=script.obj, **fields)
    loaded.events.append(event)
    _commit_now(loaded)
    return event


def seq(script) -> int:
    """The number of the fight's last event."""
    return load(script).row.seq


def end(script) -> None:
    """Mark the fight ended (its row and roll log stay); called as its script is deleted."""
    loaded = load(script)
    loaded.row.ended = timezone.now()
    loaded.row.script = None
    emit(script, "ended", data={"seed": loaded.row.dice_seed, "commitment": loaded.row.dice_commitment})
