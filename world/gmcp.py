"""GMCP for MUD clients (Mudlet, MUSHclient, TinTin++): ``Char.Vitals`` and ``Fray.Combat``.

Sent only to sessions that negotiated out-of-band data (GMCP, or MSDP, over telnet; the
webclient gets the same as OOB messages); a client that negotiates nothing gets nothing extra.
Each package goes to a session once on login and again whenever its content changes: after a
fight's committed events (a subscriber of ``world.fights``; the events of one command are
gathered and sent on the next reactor tick, so a command costs each viewer at most one package
of each kind), after a staff ``+damage``/``+heal`` outside a fight, and on moving between rooms.

``Char.Vitals`` (the character's health meter under the system of the fight they are in, or
the game's default system)::

    {"hp": 5, "maxhp": 7, "health": "Hurt (-1)", "system": "storyteller",
     "down": false, "dead": false}

``Fray.Combat`` (the fight in the character's room, as ``+combat`` shows it to them)::

    {"active": true, "fight": 3, "system": "storyteller", "round": 2,
     "now": "Round 2, Bob's turn", "turn": ["Bob"], "order": [["Bob"], ["Guard"]],
     "gm": "Stella",
     "fighters": [{"name": "Guard", "npc": true, "initiative": 12, "hp": 6, "maxhp": 7,
                   "health": "Bruised", "down": false, "dead": false, "idle": false}],
     "defense": {"id": 4, "attacker": "Guard", "attack": "punch", "successes": 3,
                 "choices": ["dodge", "block", "parry", "none"]},
     "unposed": ["Bob"]}

``order`` is this round's acting order, a list per place (those tied act together; the
Storyteller's ``+combat/order`` if set; empty in elethril, whose HUD shows the segments).
``defense`` is the oldest attack waiting on this character's answer (``defend <choice>``),
or null; ``now`` ends with "; waiting for Bob's defense" while one is awaited. ``unposed``:
the player characters who have not posed since the round began (``world.poses``). With no
fight in the room: ``{"active": false}``. ``hp``/``maxhp`` are the meter of
``rules.systems.base.Health`` (health levels left, Life Points, hit points).
"""

from __future__ import annotations

from evennia.utils import logger

from rules.engine import turns
from world import fights, poses, reactor
from world.sheets import default_system, snapshot
from world.wording import health_words as worded_health
from world.wording import line_text

VITALS = "Char_Vitals"  # Evennia sends an OOB name "A_B" as the GMCP package "A.B"
COMBAT = "Fray_Combat"

_dirty: dict[int, object] = {}  # id -> character taking OOB data, to be sent on the next tick
_seen: set[int] = set()  # ids asked about since the last tick


def oob_sessions(obj) -> list:
    """The sessions puppeting ``obj`` that take out-of-band data."""
    sessions = getattr(obj, "sessions", None)
    if sessions is None:
        return []
    return [session for session in sessions.all() if session.protocol_flags.get("OOB")]


def health_words(health) -> str:
    """A health value in words, without the track's box art: ``"Hurt (-1)"`` (the game's words,
    ``world.wording``)."""
    return worded_health(health)


def meter(health) -> dict:
    current, maximum = health.meter
    return {"hp": current, "maxhp": maximum, "health": health_words(health),
            "down": bool(health.incapacitated), "dead": bool(health.dead)}


def vitals(obj, row=None) -> dict:
    """``Char.Vitals`` for ``obj``: under the system of fight ``row`` if ``obj`` fights in
    it, else the game's default system."""
    if row is not None and fights.state(row).has(obj.id):
        d = fights.reading(row)
        return {**meter(d.health(obj.id)), "system": d.system.key}
    system = default_system()
    fighter = snapshot(obj, system)
    return {**meter(system.health(fighter.health, fighter)), "system": system.key}


def combat(row, viewer) -> dict:
    """``Fray.Combat`` for ``viewer``: the fight ``row`` (None: no fight here)."""
    from world.combat import now_text
    from world.segments import initiatives

    if row is None or row.ended is not None:
        return {"active": False}
    d = fights.reading(row)
    system = d.system
    declared = system.declared_rounds
    rolled = initiatives(d) if declared else {roll.name: roll.total for roll in turns.initiative_rolls(d)}
    roster = [{"name": d.name(fighter_id), "npc": d.is_npc(fighter_id), "initiative": rolled.get(d.name(fighter_id)),
               **meter(d.health(fighter_id)), "idle": d.is_idle(fighter_id)} for fighter_id in d.ids()]
    defense = defense_for(d, getattr(viewer, "id", None))
    gm = fights.obj(d.gm)
    waiting = system.to_declare(d) if declared else turns.current_slot(d)[1]
    return {"active": True, "fight": row.pk, "system": system.key, "round": int(d.round), "now": now_text(row),
            "turn": [d.name(fighter_id) for fighter_id in waiting],
            "order": [] if declared else [list(slot.names) for slot in turns.schedule(d).slots],
            "gm": gm.key if gm else None, "fighters": roster, "defense": defense,
            "unposed": [d.name(fighter_id) for fighter_id in poses.unposed(row, d)]}


def defense_for(d, viewer_id: int | None) -> dict | None:
    """``Fray.Combat``'s ``defense``: the oldest attack waiting on ``viewer_id``'s answer, or
    None."""
    for pending in d.pending:
        if pending.target == viewer_id:
            attack = d.attack_of(pending.attack)
            choices = d.system.defense_choices(attack, d.combatant(viewer_id))
            return {"id": pending.id, "attacker": d.name(pending.attacker), "attack": line_text(attack.label, d.system.key, plain=True),
                    "successes": getattr(attack, "successes", None), "choices": [*choices, "none"]}
    return None


def send(obj, *, force: bool = False) -> None:
    """Send ``obj``'s sessions that take OOB data both packages, each only if it changed
    since the last one they got (``force``: anyway, as at login). The fight is the one ``obj``
    fights in, else the one in their room."""
    sessions = oob_sessions(obj)
    if not sessions:
        return
    row = fights.fight_of(obj) or fights.running_in(obj.location)
    packages = {VITALS: vitals(obj, row), COMBAT: combat(row, obj)}
    for session in sessions:
        sent = session.ndb.fray_gmcp or {}
        changed = {name: payload for name, payload in packages.items() if force or sent.get(name) != payload}
        if changed:
            session.msg(**changed)
            session.ndb.fray_gmcp = {**sent, **changed}


def refresh(obj, *, force: bool = False) -> None:
    """:func:`send`, never failing the caller (a client's extra must not break a command)."""
    if not oob_sessions(obj):
        return
    try:
        with fights.unit("gmcp"):
            send(obj, force=force)
    except Exception:  # noqa: BLE001 - logged; the command or login goes on
        logger.log_trace("Fray GMCP")


def on_event(event: fights.FightEvent) -> None:
    """The fight-stream subscriber: note who may see the change (everyone in the fight's room,
    and the one it is about), send on the next reactor tick."""
    for obj in (*(event.room.contents if event.room is not None else ()), event.actor, event.to,
                *event.refs.values()):
        if getattr(obj, "id", None) is not None and obj.id not in _seen:
            _seen.add(obj.id)  # a command's events name the same people: ask each once a tick
            if oob_sessions(obj):
                _dirty[obj.id] = obj
    reactor.soon(flush)   # the game-tier tests (no reactor): at once


def flush() -> None:
    """Send each viewer noted since the last tick what changed for them."""
    viewers = list(_dirty.values())
    _dirty.clear()
    _seen.clear()
    if not viewers:
        return
    try:
        with fights.unit("gmcp"):
            for obj in viewers:
                send(obj)
    except Exception:  # noqa: BLE001 - logged; the fight goes on
        logger.log_trace("Fray GMCP")


