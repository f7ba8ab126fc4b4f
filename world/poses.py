"""Pose order: who has posed in a room, in what order, and who the fight still waits on to
pose (a MUSH habit: the Storyteller sees who is still to pose, in fights and in scenes).

A pose is a say, pose or emit (``say``, ``pose``, ``:``, ``;``, ``@emit``) that a character
makes to the room: the room notes it once per message (``typeclasses.rooms``, beside the
scene log). What is noted is kept on the room (the Attribute ``poses``, category ``fray``:
``{"order": [[id, name, epoch seconds], ...], "round": [fight id, round, epoch seconds]}``),
so it survives a reload, a restart and a killed process. In a fight, "posed" means posed
since the round began (:func:`on_fight_event` notes when a fight's round changes).
"""

from __future__ import annotations

import time

from world import fights
from world.scenes import kind_of
from world.sheets import is_npc, rewrite

#: The most characters a room remembers the poses of.
KEPT = 40


def _record(room) -> dict:
    return dict(room.attributes.get("poses", category="fray", default=None) or {})


def _store(room, record: dict) -> None:
    rewrite(room, "poses", record)


def heard(room, text, from_obj) -> None:
    """Called by the room after it delivered ``text``: a say, pose or emit by a character is
    noted as its latest pose."""
    if from_obj is None or kind_of(text) is None or not getattr(from_obj, "id", None):
        return
    record = _record(room)
    order = [entry for entry in record.get("order", ()) if entry[0] != from_obj.id]
    order.append([from_obj.id, from_obj.key, time.time()])
    record["order"] = order[-KEPT:]
    _store(room, record)


def on_fight_event(event: fights.FightEvent) -> None:
    """The fight's event stream: the first event of a new round (or of a new fight) notes when
    the round began in the fight's room."""
    room = event.room
    if room is None or event.kind == "ended" or room.ndb.fray_pose_round == (event.fight, event.round):
        return   # the round already noted (the cache spares a read per event)
    record = _record(room)
    if record.get("round", [None, None])[:2] != [event.fight, event.round]:
        record["round"] = [event.fight, event.round, time.time()]
        _store(room, record)
    room.ndb.fray_pose_round = (event.fight, event.round)


def last_poses(room, record: dict | None = None) -> dict[int, float]:
    """``{character id: when they last posed here}`` (epoch seconds; ``record``: the room's,
    when read already)."""
    return {int(entry[0]): float(entry[2]) for entry in (record or _record(room)).get("order", ())}


def round_began(room, row, record: dict | None = None) -> float:
    """When the fight ``row``'s current round began (0.0 when not noted: everything counts)."""
    kept = (record or _record(room)).get("round") or []
    return float(kept[2]) if len(kept) == 3 and kept[:2] == [row.pk, int(fights.state(row).round)] else 0.0


def expected(d) -> list[int]:
    """The fighters the fight waits on to pose: its player characters able to act, not the
    idle (NPCs pose through their Storyteller), in joining order."""
    return [fighter_id for fighter_id in d.ids()
            if not d.is_npc(fighter_id) and not d.is_idle(fighter_id) and not d.health(fighter_id).incapacitated]


def unposed(row, d=None) -> list[int]:
    """Those of :func:`expected` in fight ``row`` who have not posed since its round began
    (``d``: the fight as the caller already reads it, ``fights.reading``)."""
    d = d or fights.reading(row)
    room = fights.obj(row.room_id)
    if room is None:
        return []
    record = _record(room)
    since, posed = round_began(room, row, record), last_poses(room, record)
    return [fighter_id for fighter_id in expected(d) if posed.get(fighter_id, 0.0) <= since]


def ago(seconds: float) -> str:
    """``"just now"``, ``"40s ago"``, ``"12m ago"``, ``"3h ago"``."""
    seconds = max(0, int(seconds))
    if seconds < 10:
        return "just now"
    for size, unit in ((3600, "h"), (60, "m")):
        if seconds >= size:
            return f"{seconds // size}{unit} ago"
    return f"{seconds}s ago"


def players_in(room) -> list:
    """The player characters in ``room`` (not NPCs)."""
    return [obj for obj in room.contents if hasattr(obj, "sheets") and not is_npc(obj)]


def order_lines(room) -> list[str]:
    """``+scene/order``: the player characters in ``room`` in the order they are to pose, the
    one who posed longest ago (or never) first, each with when they last posed."""
    present = players_in(room)
    posed, now = last_poses(room), time.time()
    ranked = sorted(present, key=lambda obj: (posed.get(obj.id, 0.0), obj.key.casefold()))
    return [f"{number}. {obj.key}: {ago(now - posed[obj.id]) if obj.id in posed else 'not yet'}"
            for number, obj in enumerate(ranked, start=1)]
