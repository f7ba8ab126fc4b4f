"""The web tracker's services (``web/website/views/fights.py``): a fight's narration kept as
rows, its HUD as data, the running fights, who may run a fight from the web, and the
Storyteller's buttons.

Narration: this module subscribes to the fight's event stream (``world.fights``) beside the
telnet narrator, and keeps each ``narration`` event as a bystander read it
(``world.scenes.narration_text``) in ``world.models.FightNarration``, one bulk INSERT per
reactor tick. It never breaks the command that caused it (a failure is logged). It also
notes, per fight, the last event it has written out (:func:`caught_up`), so a web poll that
sees a new ``Fight.seq`` before the rows are in asks again instead of missing a line.

Everything here that reads or changes a fight's state in memory (``hud``, ``running``,
``act``) belongs to the reactor thread: the web views call it through ``world.reactor.call``.
Raises ``CombatError`` (one player-facing line) and changes nothing when it refuses.
"""

from __future__ import annotations

from evennia.utils import logger

from rules.systems import CombatError
from world import combat, fights, gmcp, npcs, reactor, scenes
from world.access import STAFF, has_perm
from world.marks import marks
from world.models import Fight, FightNarration

#: The Storyteller's buttons: action -> what it does, for refusals ("Only ... can <doing>").
ACTIONS = {"next": "advance the fight", "resolve": "resolve attacks", "add": "add combatants",
           "npc": "roll initiative for NPCs", "end": "end the fight"}

_waiting: list[FightNarration] = []
_seen: dict[int, int] = {}      # fight id -> last event seq received, not yet written out
_written: dict[int, int] = {}   # fight id -> last event seq written out (read by web threads)


# ------------------------------------------------------------------------------ narration
def on_event(event: fights.FightEvent) -> None:
    """The fight-stream subscriber: a narration event waits to be written on the next tick."""
    try:
        if event.kind == "said":
            _waiting.append(FightNarration(fight_id=event.fight, seq=event.seq, round=event.round,
                                           text=scenes.narration_text(event)))
    except Exception:  # noqa: BLE001 - logged; the command and the fight go on
        logger.log_trace("Fray tracker: could not render a narration")
    _seen[event.fight] = event.seq
    reactor.soon(flush)   # the game-tier tests (no reactor): at once


def flush() -> None:
    """Write the narration waiting since the last tick (one INSERT)."""
    rows = list(_waiting)
    _waiting.clear()
    try:
        if rows:
            FightNarration.objects.bulk_create(rows, ignore_conflicts=True)
    except Exception:  # noqa: BLE001 - logged; the fight goes on without those lines on the web
        logger.log_trace("Fray tracker: could not store narration")
    _written.update(_seen)   # first written, then no longer waiting: a web thread never sees a gap
    _seen.clear()


def caught_up(fight_id: int, seq: int) -> bool:
    """Whether every event of the fight up to ``seq`` has been written out (a fight with no
    event since the Server started has)."""
    return fight_id not in _seen and _written.get(fight_id, seq) >= seq




def narration(fight_id: int, after: int = 0, limit: int = 500) -> list[dict]:
    """The fight's narration after event ``after``, oldest first: ``{"seq", "round", "text"}``
    (at most ``limit``: the newest ones when there are more)."""
    rows = FightNarration.objects.filter(fight_id=fight_id, seq__gt=after).order_by("-seq")
    found = list(rows.values("seq", "round", "text")[:limit])
    return found[::-1]


# ----------------------------------------------------------------------------------- HUD
def running_row(fight_id: int) -> Fight | None:
    """The running fight ``fight_id`` (None once it has ended)."""
    return next((row for row in fights.running() if row.pk == fight_id), None)


def hud(fight_id: int, viewer=None) -> dict | None:
    """The HUD of a running fight as data (None when it has ended): ``world.gmcp.combat``'s
    ``Fray.Combat`` for ``viewer`` (their own waiting defense, or None), each fighter with
    its ``conditions`` too (the telnet HUD's marks: ``prone``, ``held``, ``clinch:Bob`` …),
    and ``waiting``, every attack waiting for a defense: ``{"id", "attacker", "target"}``.
    Reactor thread."""
    row = running_row(fight_id)
    if row is None:
        return None
    data = gmcp.combat(row, viewer)
    d = fights.reading(row)
    for entry, fighter_id in zip(data["fighters"], d.ids()):
        entry["conditions"] = marks(d, fighter_id)
        entry["ai"] = fighter_id in d.ai
    place = {name: number for number, slot in reversed(list(enumerate(data["order"]))) for name in slot}
    data["fighters"].sort(key=lambda entry: place.get(entry["name"], len(place)))   # stable: joining order
    data["waiting"] = [{"id": pending.id, "attacker": d.name(pending.attacker), "target": d.name(pending.target)}
                       for pending in d.pending]
    return data


def running() -> list[dict]:
    """Every running fight: ``{"id", "room", "system", "round", "gm", "fighters"}``
    (names), newest first. Reactor thread."""
    out = []
    for row in reversed(fights.running()):
        state = fights.state(row)
        room, gm = fights.obj(row.room_id), fights.obj(state.gm)
        out.append({"id": row.pk, "room": room.key if room else "-", "system": row.system_key,
                    "round": int(state.round), "gm": gm.key if gm else "",
                    "fighters": [fighter.name for fighter in state.fighters]})
    return out


# ------------------------------------------------------------------------------ who may
def gm_id(row: Fight) -> int | None:
    """The id of the fight's game master as last saved (also for an ended fight)."""
    gm = (row.state or {}).get("gm")
    return int(gm) if gm is not None else None


def characters_of(account) -> list:
    """The account's characters, those it puppets first."""
    puppets = list(account.get_all_puppets()) if hasattr(account, "get_all_puppets") else []
    # read as stored: Evennia's ``account.characters.all()`` rewrites the list on every call
    playable = account.attributes.get("_playable_characters", default=None) or []
    return puppets + [obj for obj in playable if obj is not None and obj not in puppets]


def may_run(account, row: Fight) -> bool:
    """Whether ``account`` runs the fight from the web (its buttons, its roll log): one of its
    characters is the fight's game master, or it is staff (``world.access.STAFF``)."""
    if account is None or not account.is_authenticated:
        return False
    gm = gm_id(row)
    return any(obj.id == gm for obj in characters_of(account)) or has_perm(account, STAFF)


def viewer_in(account, row: Fight):
    """The account's character fighting in this fight (for its waiting defense), or None."""
    ids = {int(fighter["id"]) for fighter in (row.state or {}).get("fighters") or []}
    return next((obj for obj in characters_of(account) if obj.id in ids), None)


def acting_as(account, row: Fight):
    """The character the account's buttons act as: its character that is the fight's game
    master, else (staff) the one it puppets, else its first. Raises CombatError when it has
    none."""
    mine = characters_of(account)
    gm = gm_id(row)
    character = next((obj for obj in mine if obj.id == gm), None) or (mine[0] if mine else None)
    if character is None:
        raise CombatError("Your account has no character to act with: create one first.")
    return character


def act(fight_id: int, account, action: str, name: str = "", numbers: str | None = None,
        seen: int | None = None) -> None:
    """One of the game master's buttons, through the same service as its command:
    ``next`` (``+combat/next``), ``resolve``, ``add`` (``+combat/add <name>``), ``npc``
    (``+npc/init <name>[=<numbers>]``), ``end``. ``seen``: the fight's event number the page
    showed; when the fight has moved on since, nothing is done. Reactor thread, inside one unit
    (``world.reactor.call``). Raises CombatError."""
    row = running_row(fight_id)
    if row is None:
        raise CombatError(f"Fight #{fight_id} has ended.")
    caller = acting_as(account, row)
    if seen is not None and fights.seq(row) != seen:
        raise CombatError("The fight moved on since your page showed it; nothing was done. "
                          f"Now: {combat.now_text(row)}.")
    if action == "next":
        combat.next_turn(caller, row=row)
    elif action == "resolve":
        combat.resolve_all(caller, row=row)
    elif action == "add":
        combat.add_named(caller, name, row=row)
    elif action == "npc" and " ".join(name.split()).casefold() == combat.ALL_NPCS and not numbers:
        npcs.init_all(caller, row=row)   # +npc/init all: every NPC here with a sheet
    elif action == "npc":
        combat.npc_init(caller, name, numbers, row=row)
    elif action == "end":
        combat.end(caller, row=row)
    else:
        raise CombatError(f"Unknown action '{action}'.")
