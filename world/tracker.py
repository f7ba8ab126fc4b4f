"""The web tracker's services (``web/website/views/fights.py``): a fight's narration kept as
rows, its HUD as data, the running fights, who may run a fight from the web, and the
Storyteller's buttons.

Narration: this module records each ``narration`` event of a command as a bystander read it,
as text and as HTML (``world.narration.page_texts``), in ``world.models.FightNarration``, in
the command's own transaction (one INSERT; ``fights.record_with``), and pushes what changed
to the open pages on the next reactor tick (a subscriber of the fight's event stream, beside
the telnet narrator). It never breaks the command that caused it (a failure is logged). It
also notes, per fight, the last event it has told the pages of (:func:`caught_up`).

Everything here that reads or changes a fight's state in memory (``hud``, ``running``,
``act``) belongs to the reactor thread: the web views call it through ``world.reactor.call``.
Raises ``CombatError`` (one player-facing line) and changes nothing when it refuses.
"""

from __future__ import annotations

from django.db import transaction
from evennia.utils import logger

from rules.engine import turns
from rules.systems import CombatError
from world import combat, fights, gmcp, npcs, reactor, statements
from world.access import STAFF, has_perm
from world.marks import marks
from world.models import Fight, FightLogEntry, FightNarration
from world.narration import page_texts

#: The Storyteller's buttons: action -> what it does, for refusals ("Only ... can <doing>").
ACTIONS = {"next": "advance the fight", "resolve": "resolve attacks", "add": "add combatants",
           "npc": "roll initiative for NPCs", "end": "end the fight"}

_waiting: list[FightNarration] = []   # written, to push on the next tick
_recorded: dict[tuple[int, int], FightNarration] = {}   # (fight, seq) -> written, not yet published
_seen: dict[int, list[int]] = {}   # fight id -> [last event written before, last received], not yet written
_written: dict[int, int] = {}      # fight id -> last event seq written out (read by web threads)
_pushers: list = []                # called after each tick's narration is written (world.live)


def when_written(callback) -> None:
    """Call ``callback(changed, lines)`` after each tick's narration is written: ``changed``
    {fight id: its last event}, ``lines`` {fight id: its new narration, ``{"seq", "round",
    "text"}``} (``world.subscribers`` registers the web tracker's push, ``world.live``)."""
    if callback not in _pushers:
        _pushers.append(callback)


# ------------------------------------------------------------------------------ narration
def record(events: list[fights.FightEvent]) -> None:
    """The fight's recorder (``fights.record_with``): each narration event's page texts,
    written in the command's own transaction (one INSERT, in a savepoint: a failed write
    loses the web's copy, never the command), kept to push on the next tick."""
    rows = []
    for event in events:
        if event.kind == "said":
            try:
                text, html = page_texts(event)
            except Exception:  # noqa: BLE001 - logged; the command and the fight go on
                logger.log_trace("Fray tracker: could not render a narration")
                continue
            rows.append(FightNarration(fight_id=event.fight, seq=event.seq, round=event.round, text=text, html=html))
    _recorded.clear()   # what a rolled-back command recorded was never written
    if not rows:
        return
    try:
        with transaction.atomic():
            statements.insert(rows, ignore_conflicts=True)
    except Exception:  # noqa: BLE001 - logged; the fight goes on without those lines on the web
        logger.log_trace("Fray tracker: could not store narration")
        return
    _recorded.update({(row.fight_id, row.seq): row for row in rows})


def on_event(event: fights.FightEvent) -> None:
    """The fight-stream subscriber: a committed event (its narration written with it) goes
    to the pages on the next tick."""
    row = _recorded.pop((event.fight, event.seq), None)
    if row is not None:
        _waiting.append(row)
    _seen.setdefault(event.fight, [event.seq - 1, event.seq])[1] = event.seq
    reactor.soon(flush)   # the game-tier tests (no reactor): at once


def flush() -> None:
    """Tell those who push the fights that changed since the last tick to the pages watching
    them (:func:`when_written`), with their new narration."""
    rows = list(_waiting)
    _waiting.clear()
    changed = {fight_id: last for fight_id, (_, last) in _seen.items()}
    _written.update(changed)   # first written, then no longer waiting: a web thread never sees a gap
    _seen.clear()
    lines: dict[int, list[dict]] = {}
    for row in rows:
        lines.setdefault(row.fight_id, []).append({"seq": row.seq, "round": row.round, "text": row.text,
                                                   "html": row.html})
    for callback in list(_pushers):
        callback(changed, lines)


def caught_up(fight_id: int, seq: int) -> bool:
    """Whether every event of the fight up to ``seq`` has been written out (a fight with no
    event since the Server started has)."""
    return fight_id not in _seen and _written.get(fight_id, seq) >= seq


def written_seq(fight_id: int, seq: int) -> int:
    """The last event of the fight whose narration is written out, ``seq`` being its last
    event: the events after it are written, and pushed, on the next tick. Reactor thread."""
    waiting = _seen.get(fight_id)
    return min(seq, waiting[0]) if waiting is not None else seq




def narration(fight_id: int, after: int = 0, limit: int = 500) -> list[dict]:
    """The fight's narration after event ``after``, oldest first: ``{"seq", "round", "text",
    "html"}``
    (at most ``limit``: the newest ones when there are more)."""
    rows = FightNarration.objects.filter(fight_id=fight_id, seq__gt=after).order_by("-seq")
    found = list(rows.values("seq", "round", "text", "html")[:limit])
    return found[::-1]


# ----------------------------------------------------------------------------------- HUD
def running_row(fight_id: int) -> Fight | None:
    """The running fight ``fight_id`` (None once it has ended)."""
    return next((row for row in fights.running() if row.pk == fight_id), None)


def log_after(fight_id: int, after: int = 0, limit: int = 200) -> list[dict]:
    """The roll-log entries after number ``after`` (the newest ``limit``), oldest first:
    ``{"number", "round", "actor", "what", "lines"}``."""
    entries = FightLogEntry.objects.filter(fight_id=fight_id, number__gt=after).order_by("-number")[:limit]
    return [{"number": entry.number, "round": entry.round, "actor": entry.actor, "what": entry.what,
             "lines": list(entry.lines)} for entry in reversed(list(entries))]


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


# ------------------------------------------------------------------------ a player's buttons
#: A player's buttons (``play``'s actions).
PLAYS = ("attack", "defend", "pass", "split", "cast", "move")
#: The actions of a system's own a player's page offers, when the fight's system has them.
OWN = ("split", "cast", "move")


def fighter_of(account, row: Fight):
    """The account's character fighting in this fight. Raises CombatError when it has none."""
    character = viewer_in(account, row)
    if character is None:
        raise CombatError("You have no character in this fight.")
    return character


def controls(row: Fight, account) -> dict | None:
    """A player's controls on the page (None: the account has no character in the fight):
    ``{"name", "turn": whether it is their turn, "defense": the attack waiting on them with
    its choices (``Fray.Combat``'s) or null, "targets": the other fighters, "attacks": the
    maneuvers and weapons ``attack`` takes ("" first: the weapon in hand), "actions": attack,
    pass and the system's own (split, cast, move) it has, "spells"}``. Reactor thread."""
    viewer = viewer_in(account, row)
    if viewer is None:
        return None
    d = fights.reading(row)
    system = d.system
    waiting = system.to_declare(d) if system.declared_rounds else turns.current_slot(d)[1]
    actions = ["attack", *(() if system.declared_rounds else ("pass",)), *(key for key in OWN if key in system.actions)]
    magic = system.magic
    spells = sorted(spell.name for spell in getattr(magic, "spells", {}).values()) if "cast" in actions else []
    return {"name": d.name(viewer.id), "turn": viewer.id in waiting, "defense": gmcp.defense_for(d, viewer.id),
            "targets": [d.name(fighter_id) for fighter_id in d.ids() if fighter_id != viewer.id],
            "attacks": ["", *system.attack_options()], "actions": actions, "spells": spells}


def play(fight_id: int, account, action: str, target: str = "", option: str = "", seen=None) -> None:
    """A player's button on the page, for the account's character in the fight, through the
    same service as its command: ``attack`` (``attack <target>[/<option>]``), ``defend``
    (``defend <option>``), ``pass``, ``split`` (``+combat/split <option>``), ``cast``
    (``+cast <option>[=<target>]``), ``move`` (``+move <option>``). ``seen``: the fight's
    event number the page showed (an attack or pass pressed on a page behind the fight is
    refused). Reactor thread, inside one unit (``world.reactor.call``). Raises CombatError."""
    from world import checks

    row = running_row(fight_id)
    if row is None:
        raise CombatError(f"Fight #{fight_id} has ended.")
    caller = fighter_of(account, row)
    if action not in PLAYS:
        raise CombatError(f"Unknown action '{action}'.")
    if seen is not None and action != "defend" and str(seen) != str(fights.seq(row)):
        raise CombatError("The fight moved on since your page showed it; nothing was done. "
                          f"Now: {combat.now_text(row)}.")
    if any(ch in target + option for ch in "\r\n") or len(target) > 80 or len(option) > 80:
        raise CombatError("A name or choice: one line of at most 80 characters.")
    if action == "attack":
        combat.attack(caller, None, target, option, row=row)
    elif action == "defend":
        combat.defend(caller, None, option, row=row)
    elif action == "pass":
        if fights.system_of(row).declared_rounds:
            raise CombatError(f"The {row.system_key} rules have no pass: declare nothing, and the round goes on.")
        combat.act(caller, "pass", None, row=row)
    elif action == "split":
        combat.require_action(row, "split", "split actions")
        combat.act(caller, "split", None, option=option, row=row)
    elif action == "cast":
        combat.cast(caller, None, option, [target] if target else [], row=row)
    else:
        checks.move(caller, None, option, row=row)
