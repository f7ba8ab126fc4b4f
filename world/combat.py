"""The fight's services for the game's commands, web buttons and hooks: who may act for whom,
names turned into fighters, and one intent performed (``world.fights.perform``).

Everything the rules decide is in the engine (``rules.engine``); here is what needs the game:
the caller's room and permissions, finding characters, creating NPCs, and what is shown only
to the caller. Every function raises ``CombatError`` (one player-facing line) and changes
nothing when it refuses. See ``docs/architecture.md``.
"""

from __future__ import annotations

from evennia.utils.create import create_object

from rules.engine import Intent, turns
from rules.engine.draft import find_named
from rules.engine.turns import now_line
from rules.lines import Line
from rules.systems import CombatError, RuleSystem, get_system
from rules.systems.base import InitiativeRoll
from rules.text import quote
from world import chargen, fights, narration, poses
from world.access import NARRATOR, STAFF, has_perm, require_perm
from world.marks import is_game_master
from world.models import Fight
from world.sheets import default_system, is_npc, update_sheet
from world.text import COMBAT, escape, spoken, table
from world.wording import line_text

NPC_TYPECLASS = "typeclasses.npcs.NPC"
NPC_NAME_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 '-")
MAX_NPC_NAME = 20
MAX_INIT_TRAIT = 20
#: ``+npc/init all``: every NPC here; no NPC may be called this.
ALL_NPCS = "all"
LOG_PAGE = 8


# ------------------------------------------------------------------------------- finding
def fight_here(caller) -> Fight | None:
    """The fight running in ``caller``'s room, or None."""
    return fights.running_in(getattr(caller, "location", None))


def require_fight(caller) -> Fight:
    row = fight_here(caller)
    if row is None:
        raise CombatError("There is no fight here. A Storyteller starts one with +combat/start.")
    return row


def system_here(caller) -> RuleSystem:
    """The system of the fight in ``caller``'s room, else the game default (also for an
    Account, which has no room)."""
    row = fight_here(caller)
    return fights.system_of(row) if row is not None else default_system()


def fighter_ids(row: Fight) -> list[int]:
    return [fighter.id for fighter in fights.state(row).fighters]


def fighters(row: Fight) -> list:
    """The fighting game objects, in joining order."""
    return [thing for thing in (fights.obj(fighter_id) for fighter_id in fighter_ids(row)) if thing is not None]


def find(row: Fight, name: str) -> int:
    """The id of the fighter called ``name`` (exact beats a unique prefix; ``#<id>``).
    Raises CombatError."""
    return find_named([(fighter.id, fighter.name) for fighter in fights.state(row).fighters], name,
                      Line("refusal.name_combatant"), "refusal.no_combatant")


def find_combatant(row: Fight, name: str):
    """The game object of the fighter called ``name``. Raises CombatError."""
    return fights.obj(find(row, name))


def is_gm(caller, row: Fight) -> bool:
    """Whether ``caller`` runs the fight: its game master (who started it), or staff."""
    return is_game_master(fights.state(row), caller)


def require_gm(caller, row: Fight, doing: str) -> None:
    if not is_gm(caller, row):
        raise CombatError(f"Only this scene's Storyteller or staff can {doing}.")


#: What a game master who is not fighting types to act for an NPC, by the intent's action: the
#: example in the refusal when they name none (an action not here gets the refusal without one).
ACTING_FOR = {"attack": "attack Orc=Ann", "attack_many": "attack Orc=Ann", "defend": "defend Orc=dodge",
              "escape": "escape Orc", "aim": "aim Orc=Ann"}


def actor_for(caller, row: Fight, name: str | None, action: str = "") -> int:
    """Who acts: ``caller`` itself, or (``<npc>=`` prefix) an NPC the caller runs as the game
    master (``action``: the intent's, for the example shown to a game master who is not
    fighting and names no NPC). Raises CombatError."""
    state = fights.state(row)
    if not name:
        if not state.has(caller.id):
            if is_gm(caller, row):
                example = ACTING_FOR.get(action)
                raise CombatError(Line("refusal.not_fighting_name_npc", {"example": example}) if example
                                  else Line("refusal.not_fighting_name_npc_any"))
            raise CombatError("You are not in this fight. Join it with +combat/join.")
        return caller.id
    if not is_gm(caller, row):
        try:
            actor = find(row, name)
        except CombatError:
            actor = None
        if actor != caller.id:
            raise CombatError("You can only act for yourself; this scene's Storyteller acts for NPCs.")
        return caller.id
    actor = find(row, name)
    if actor == caller.id:
        return caller.id
    if not state.fighter(actor).npc:
        raise CombatError(f"{state.fighter(actor).name} is a player character: only they can act for themselves.")
    return actor


def perform(caller, row: Fight, action: str, **fields):
    """Perform ``action`` in the fight for ``caller`` (its game master's controls when they
    run it); returns the action's result."""
    intent = Intent(action, by=getattr(caller, "id", None), fiat=is_gm(caller, row), **fields)
    return fights.perform(row, intent).result


def system_of(row: Fight) -> RuleSystem:
    return fights.system_of(row)


# ----------------------------------------------------------------------------- the fight
def start(caller, system_key: str | None, *, duel: bool = False, lethal: bool = False) -> Fight:
    """Start a fight in ``caller``'s room, run by ``caller``; ``duel``: a formal duel (only
    for a system with ``formal_duels``); ``lethal``: player characters die as the rules say,
    with no decision. Raises CombatError."""
    require_perm(caller, NARRATOR, "start a fight")
    if caller.location is None:
        raise CombatError("You need to be in a room to start a fight.")
    if fight_here(caller):
        raise CombatError("A fight is already running here (+combat to see it).")
    system = get_system(system_key) if system_key else default_system()
    if duel and not system.formal_duels:
        raise CombatError(f"The {system.key} rules have no formal duels: +combat/start {system.key}")
    return fights.start(caller.location, system, caller, duel=duel, lethal=lethal)


def end(caller, row: Fight | None = None) -> str:
    """The game master ends the fight (default: the one here); returns the summary."""
    row = row or require_fight(caller)
    return "\n".join(line_text(line, plain=True) for line in perform(caller, row, "end"))


def _not_elsewhere(thing, row: Fight, leave_hint: str = "+combat/leave there first") -> None:
    elsewhere = fights.fight_of(thing)
    if elsewhere is not None and elsewhere.pk != row.pk:
        room = fights.obj(elsewhere.room_id)
        raise CombatError(f"{thing.key} is already in the fight in {room.key if room else 'another room'}: "
                          f"{leave_hint}.")


def join(caller) -> None:
    elsewhere = fights.fight_of(caller)
    if elsewhere is not None and elsewhere.room_id != getattr(caller.location, "id", None):
        room = fights.obj(elsewhere.room_id)
        raise CombatError(f"{caller.key} is already in the fight in {room.key if room else 'another room'}: "
                          "+combat/leave first.")
    row = require_fight(caller)
    chargen.require_may_join(caller, system_of(row))
    perform(caller, row, "join", actor=caller.id, data={"fighter": fights.fighter_record(caller, system_of(row))})


def leave(caller) -> None:
    """``+combat/leave``: out of the fight the caller is in, from wherever they are."""
    row = fights.fight_of(caller) or require_fight(caller)
    if not fights.state(row).has(caller.id):
        raise CombatError("You are not in this fight.")
    perform(caller, row, "leave", actor=caller.id)
    room = fights.obj(row.room_id)
    if room is not None and caller.location != room:
        fights.afterwards(lambda: caller.msg(f"{COMBAT} You leave the fight in {escape(room.key)}."))


def add_named(caller, names_text: str, row: Fight | None = None) -> list[str]:
    """The game master: ``+combat/add <name>[,<name>...]``: characters or NPCs in the fight's
    room join it (default: the caller's room's fight)."""
    row = row or require_fight(caller)
    require_gm(caller, row, "add combatants")
    names = [name.strip() for name in names_text.split(",")]
    if not all(names):
        raise CombatError("Usage: +combat/add <name>[,<name>...]")
    room = fights.obj(row.room_id)
    here = [thing for thing in (room.contents if room else []) if hasattr(thing, "sheets")]
    found = []
    for name in names:
        wanted = name.casefold()
        matches = [thing for thing in here if thing.key.casefold() == wanted] or \
            [thing for thing in here if thing.key.casefold().startswith(wanted)]
        if len(matches) != 1:
            raise CombatError(f"No single character '{quote(name)}' here." if not matches else
                              f"'{quote(name)}' could be: {', '.join(thing.key for thing in matches)}.")
        found.append(matches[0])
    for thing in found:
        _not_elsewhere(thing, row, "+combat/leave there first")
    system = system_of(row)
    return perform(caller, row, "add", data={"fighters": [fights.fighter_record(thing, system) for thing in found]})


def remove_named(caller, name: str) -> None:
    """The game master: ``+combat/remove <name>``."""
    row = require_fight(caller)
    require_gm(caller, row, "remove combatants")
    perform(caller, row, "remove", targets=(find(row, name),))


def transfer(caller, name: str) -> None:
    """The game master: ``+combat/transfer <player>`` hands the fight to another Narrator or
    staff member here."""
    row = require_fight(caller)
    require_gm(caller, row, "hand the scene over")
    wanted = name.strip().casefold()
    matches = [thing for thing in caller.location.contents
               if thing.account and thing.key.casefold() == wanted and not is_npc(thing)]
    if not matches:
        raise CombatError(f"No player '{quote(name)}' here.")
    new = matches[0]
    if new.id == fights.state(row).gm:
        raise CombatError(f"{new.key} already runs this scene.")
    if not has_perm(new, NARRATOR):
        raise CombatError(f"{new.key} is not a Narrator or staff member.")
    perform(caller, row, "transfer", targets=(new.id,), data={"name": new.key})


def set_side(caller, names_text: str, side: str) -> None:
    """``+combat/side <names>=<side>`` (every system; an empty side clears). Raises CombatError."""
    row = require_fight(caller)
    require_gm(caller, row, "set sides")
    names = [name.strip() for name in names_text.split(",")]
    if not all(names):
        raise CombatError("Usage: +combat/side <name>[,<name>...]=<side>")
    perform(caller, row, "side", targets=tuple(find(row, name) for name in names), option=side)


def reveal(caller, name: str) -> None:
    """The game master: ``+combat/reveal <name>``: a hider is seen by everyone again."""
    row = require_fight(caller)
    require_gm(caller, row, "reveal a hider")
    perform(caller, row, "reveal", targets=(find(row, name),), data={"by_name": caller.key})


def decide_death(caller, name: str, action: str) -> None:
    """The game master decides a dying player character's fate: ``+combat/kill <name>`` or
    ``+combat/spare <name>`` (``action``)."""
    row = require_fight(caller)
    require_gm(caller, row, "decide a death")
    perform(caller, row, action, targets=(find(row, name),), data={"by_name": caller.key})


def kill(caller, name: str) -> None:
    decide_death(caller, name, "kill")


def spare(caller, name: str) -> None:
    decide_death(caller, name, "spare")


def set_setting(caller, key: str, text: str) -> None:
    """The game master's settings for the fight: ``+combat/lethal [on|off]``,
    ``+combat/helpless [on|off]`` (alone: on), ``+combat/timeout <seconds>|off`` (``key``)."""
    row = require_fight(caller)
    require_gm(caller, row, f"change +combat/{key}")
    perform(caller, row, key, option=text.strip().lower() or "on", data={"by_name": caller.key})


def poses_text(caller) -> str:
    """``+combat/poses``: who has posed since the round began and who has not, then the
    room's pose order (``world.poses``)."""
    row = require_fight(caller)
    d = fights.reading(row)
    waiting = set(poses.unposed(row, d))
    players = poses.expected(d)
    posed = [d.name(item) for item in players if item not in waiting]
    still = [d.name(item) for item in players if item in waiting]
    room = fights.obj(row.room_id)
    lines = [f"Round {d.round}. Posed: {', '.join(posed) or 'nobody yet'}. "
             f"Still to pose: {', '.join(still) or 'nobody'}."]
    if room is not None:
        lines += ["Pose order (next to pose first):",
                  *poses.order_lines(room)]
    return "\n".join(lines)


def nudge(caller) -> list[str]:
    """``+combat/nudge``: the game master reminds the player characters who have not posed
    since the round began; returns their names. Raises CombatError."""
    row = require_fight(caller)
    require_gm(caller, row, "nudge for poses")
    d = fights.reading(row)
    waiting = poses.unposed(row, d)
    if not waiting:
        raise CombatError(f"Everyone in the fight has posed since round {d.round} began.")
    for fighter_id in waiting:
        who = fights.obj(fighter_id)
        if who is not None:
            who.msg(f"{COMBAT} {escape(caller.key)} waits for your pose (round {d.round}).")
    return [d.name(item) for item in waiting]


def toggle_idle(caller, name: str) -> None:
    row = require_fight(caller)
    require_gm(caller, row, "mark combatants idle")
    perform(caller, row, "idle", targets=(find(row, name),))


def adjust_difficulty(caller, name: str, amount_text: str) -> None:
    """The game master: ``+combat/diff <name>=<+/-n>``."""
    row = require_fight(caller)
    require_gm(caller, row, "move difficulties")
    perform(caller, row, "diff", targets=(find(row, name),), option=amount_text)


def set_dice_mod(caller, name: str, text: str) -> None:
    """The game master: ``+combat/mod <name>=<+/-n>[ keep]``."""
    row = require_fight(caller)
    require_gm(caller, row, "set modifiers")
    perform(caller, row, "mod", targets=(find(row, name),), option=text)


def resolve_all(caller, row: Fight | None = None) -> int:
    row = row or require_fight(caller)
    return perform(caller, row, "resolve")


def next_turn(caller, sent_at: float | None = None, row: Fight | None = None, turn: int | None = None) -> None:
    """The game master's ``+combat/next [<turn>]``: those still to act pass. A press meant for
    a turn already over is refused with whose turn it is now: ``turn``, the turn number the
    presser saw (``FightState.turn``, on the game master's HUD), must still be the fight's;
    without one, ``sent_at`` (epoch seconds: when the Portal received the command) must be
    later than the fight last moved on. Raises CombatError."""
    row = row or require_fight(caller)
    require_gm(caller, row, "advance the fight")
    now = fights.state(row).turn
    if turn is not None and turn > now:
        raise CombatError(f"Turn {turn} has not come yet; nothing passed. Now: {now_text(row)}. "
                          f"+combat/next {now} passes that.")
    if turn is not None and turn != now:
        raise CombatError(f"Turn {turn} is over; nothing passed. Now: {now_text(row)}. "
                          f"+combat/next {now} passes that.")
    d = fights.reading(row)
    if (d.settings.get("posewait") and not d.pending and not d.system.declared_rounds and turns.ends_round(d)
            and (waiting := poses.unposed(row, d))):
        names = ", ".join(d.name(item) for item in waiting)
        raise CombatError(f"Nothing passed: round {d.round} waits for poses from {names} (+combat/nudge; "
                          "+combat/posewait off stops waiting).")
    if turn is None and sent_at is not None and row.moved_at and row.moved_at > float(sent_at):
        raise CombatError(f"The fight moved on as you sent that; nothing passed. Now: {now_text(row)}. "
                          f"+combat/next {now} passes that.")
    perform(caller, row, "next")


# ---------------------------------------------------------------------------- initiative
def roll_initiative(caller, row: Fight | None = None) -> InitiativeRoll:
    """``+combat/init``: the caller's initiative. Raises CombatError."""
    row = row or require_fight(caller)
    if not fights.state(row).has(caller.id) and not system_of(row).declared_rounds:
        raise CombatError("You are not in this fight. Join it with +combat/join.")
    return perform(caller, row, "initiative", actor=caller.id)


def validate_npc_name(name: str) -> str:
    """An NPC name: 1-20 ASCII letters, digits, spaces, hyphens, apostrophes, and not ``all``
    (``+npc/init all`` means every NPC). Raises CombatError."""
    name = " ".join(name.split())
    if not name:
        raise CombatError("Give the NPC a name.")
    if len(name) > MAX_NPC_NAME or not set(name) <= NPC_NAME_CHARS or not name[0].isalpha():
        raise CombatError(f"NPC names are 1-{MAX_NPC_NAME} letters, digits, spaces, hyphens or "
                          f"apostrophes, starting with a letter: '{quote(name)}' is not.")
    if name.casefold() == ALL_NPCS:
        raise CombatError(f"'{quote(name)}' cannot be an NPC's name: +npc/init all rolls for every NPC here.")
    return name


def parse_init_traits(text: str, traits: tuple[str, str]) -> dict[str, int]:
    """``"2+3"`` → {traits[0]: 2, traits[1]: 3}. Raises CombatError."""
    parts = [part.strip() for part in text.split("+")]
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() and len(p) <= 2 for p in parts) \
            or any(int(p) > MAX_INIT_TRAIT for p in parts):
        raise CombatError(f"Give {traits[0]} and {traits[1]} as two numbers 0-{MAX_INIT_TRAIT}: "
                          f"+npc/init <name>={init_numbers(traits)}")
    return {traits[0]: int(parts[0]), traits[1]: int(parts[1])}


def init_numbers(traits: tuple[str, str]) -> str:
    """``("Wits", "Dexterity")`` → ``"<wits>+<dexterity>"`` (for the usage lines)."""
    return "+".join(f"<{trait.casefold()}>" for trait in traits)


def npc_init(caller, name: str, numbers_text: str | None, row: Fight | None = None) -> InitiativeRoll:
    """``+npc/init <name>=<a>+<b>`` (the system's ``npc_initiative_traits``) or ``+npc/init
    <name>`` (its sheet), in the fight (default: the caller's room's). Raises CombatError."""
    row = row or require_fight(caller)
    require_gm(caller, row, "roll initiative for NPCs")
    system = system_of(row)
    if system.declared_rounds:
        return perform(caller, row, "npc_initiative")
    name = validate_npc_name(name)
    traits = system.npc_initiative_traits
    numbers = parse_init_traits(numbers_text, traits) if numbers_text is not None else None
    room = fights.obj(row.room_id)
    existing = [thing for thing in room.contents if is_npc(thing) and thing.key.casefold() == name.casefold()]
    others = [thing for thing in room.contents if not is_npc(thing) and thing.key.casefold() == name.casefold()]
    if others:
        raise CombatError(f"'{quote(name)}' is a player character here, not an NPC.")
    if existing:
        npc = existing[0]
    elif numbers is None:
        raise CombatError(f"No NPC '{quote(name)}' here. Give its numbers: +npc/init {quote(name)}={init_numbers(traits)}")
    else:
        npc = create_object(NPC_TYPECLASS, key=name, location=room)
        update_sheet(npc, system, traits=dict(numbers))
    data = {"overrides": numbers} if numbers is not None else {}
    if not fights.state(row).has(npc.id):
        _not_elsewhere(npc, row)
        data["fighter"] = fights.fighter_record(npc, system)
    return perform(caller, row, "initiative", actor=npc.id, data=data)


# ------------------------------------------------------------------------------- actions
def act(caller, action: str, actor_name: str | None, target_names: list[str] = (), option: str = "",
        row: Fight | None = None, **data):
    """The caller (or, ``<npc>=``, an NPC it runs) does ``action`` at the fighters named, in
    the fight here (``row``: that fight, for the web tracker). Raises CombatError."""
    row = row or require_fight(caller)
    actor = actor_for(caller, row, actor_name, action)
    targets = tuple(find(row, name) for name in target_names)
    return perform(caller, row, action, actor=actor, targets=targets, option=option, data=data)


def require_action(row: Fight, action: str, what: str) -> RuleSystem:
    """The fight's system, when it has ``action`` (one only some systems have). Raises
    CombatError in their words where it has none ("The storyteller rules have no clinches.":
    ``what``)."""
    system = system_of(row)
    if action not in system.actions:
        raise CombatError(f"The {system.key} rules have no {what}.")
    return system


def act_own(caller, action: str, what: str, actor_name: str | None, target_names: list[str] = (), option: str = "",
            row: Fight | None = None, **data):
    """``act`` for an action only some systems have (:func:`require_action`)."""
    row = row or require_fight(caller)
    require_action(row, action, what)
    return act(caller, action, actor_name, target_names, option, row=row, **data)


def attack(caller, actor_name: str | None, target_name: str, option: str, row: Fight | None = None) -> None:
    """``attack <target>[/<option>]`` (or ``<npc>=<target>[/<option>]``). Raises CombatError."""
    row = row or require_fight(caller)
    system = system_of(row)
    if "*" in target_name:   # ``attack Zed*1``: the number of attacks with no weapon named
        target_name, _, count = target_name.rpartition("*")
        if not target_name.strip() or "*" in target_name:
            raise CombatError("Name the target, then the number of attacks once: attack Orc*2.")
        if not system.declared_rounds:
            raise CombatError(f"A number of attacks ('*{quote(count.strip())}') is only declared in "
                              f"elethril fights: attack {quote(target_name.strip())}.")
        if "*" in option:
            raise CombatError("Give the number of attacks once, at the end: attack Orc/long sword*2.")
        option = f"{option}*{count}"
    act(caller, "attack", actor_name, [target_name], option, row=row)


def defend(caller, actor_name: str | None, kind: str, row: Fight | None = None) -> None:
    """``defend <choice>`` against the oldest attack waiting on the actor."""
    act(caller, "defend", actor_name, option=kind, row=row)


def escape_hold(caller, actor_name: str | None) -> None:
    act(caller, "escape", actor_name)


# ------------------------------------------------------------------------------- hooks
def reconnect_notice(character) -> str:
    """The HUD of the fight ``character`` is in, for when they log back in ("" if none)."""
    from world.hud import render_hud

    row = fights.fight_of(character)
    if row is None:
        return ""
    if character.id in fights.state(row).idle:
        fights.perform(row, Intent("away", actor=character.id, option="back"))
    return render_hud(row, character)


def left_the_room(character) -> None:
    """A fighter who walks out of the fight's room stays in it, idle."""
    row = fights.fight_of(character)
    if row is not None and getattr(character.location, "id", None) != row.room_id:
        fights.perform(row, Intent("away", actor=character.id, option="left"))


def set_idle_on_disconnect(character) -> None:
    """Quitting or link-dead: still in the fight, marked idle (once no other connection of
    the player's plays the character: ``MULTISESSION_MODE`` 1)."""
    if character.sessions.count():
        return
    row = fights.fight_of(character)
    if row is not None:
        fights.perform(row, Intent("away", actor=character.id, option="disconnected"))


def left_by_deletion(thing) -> None:
    """``thing`` is being deleted (``@destroy``): out of its fight (attacks by or on it
    cancelled, holds ended); the fight it ran as game master has none."""
    row = fights.fight_of(thing)
    if row is not None:
        fights.perform(row, Intent("destroyed", targets=(thing.id,)))
    for running in fights.running():
        if fights.state(running).gm == thing.id:
            fights.perform(running, Intent("gm_gone"))


# ------------------------------------------------------------------------------- views
def now_text(row: Fight) -> str:
    """Whose turn it is, in a few words ("Round 2, Bob's turn")."""
    d = fights.reading(row)
    if d.system.declared_rounds:
        return f"Round {d.round}, segment {d.extra.get('segment') or 'declaring'}"
    return line_text(now_line(d), d.system.key, plain=True)


def render_list(caller) -> str:
    """Staff: every fight running anywhere."""
    require_perm(caller, STAFF, "list every fight")
    rows = []
    for row in fights.running():
        room = fights.obj(row.room_id)
        state = fights.state(row)
        gm = fights.obj(state.gm)
        rows.append((escape(f"{room.key}(#{room.id})" if room else "-"), row.system_key, str(state.round),
                     escape(gm.key if gm else "-"), str(len(state.fighters))))
    return (table(("Room", "System", "Round", "Storyteller", "Fighters"), (), rows)
            if rows else "No fights are running.")


def render_log(caller, page_text: str) -> str:
    """The game master or staff: ``+combat/log [<page>]``: every roll of this fight with its
    inputs, newest page by default."""
    row = require_fight(caller)
    require_gm(caller, row, "read the roll log")
    count = fights.log_count(row)
    pages = max(1, -(-count // LOG_PAGE))
    text = page_text.strip()
    if text and (not text.isascii() or not text.isdigit() or len(text) > 4 or not 1 <= int(text) <= pages):
        raise CombatError(f"Give a page from 1 to {pages}.")
    page = int(text) if text else pages
    lines = [f"|w{COMBAT} Roll log, page {page} of {pages}|n ({count} entries)"]
    first = (page - 1) * LOG_PAGE
    for entry in fights.log_entries(row, first + 1, first + LOG_PAGE):
        head = (f"Entry {entry['number']}, round {entry['round']}, " if spoken()
                else f"#{entry['number']} R{entry['round']} ")
        lines.append(escape(f"{head}{entry['actor']}: {entry['what']}"))
        lines.extend("    " + escape(line) for line in (spoken() and entry["spoken"] or entry["lines"]))
    if count == 0:
        lines.append("No rolls yet.")
    return "\n".join(lines)


# --------------------------------------------------------------------------------- magic
def spells_of(system: RuleSystem):
    """The system's spellcasting. Raises CombatError when it has none."""
    if system.magic is None:
        raise CombatError(f"The {system.key} rules have no spells.")
    return system.magic


def _is_spell(magic, name: str) -> bool:
    try:
        magic.spell(name)
    except CombatError:
        return False
    return True


def cast(caller, actor_name: str | None, spell_name: str, targets: list[str], *, se_to_damage: bool = False,
         row: Fight | None = None) -> None:
    """``+cast``: in a fight, the ``cast`` intent (the caster's turn, or a shield as their
    defense); outside a fight only spells of kind "other" are cast, shown to the room.
    Raises CombatError (nothing is rolled then)."""
    from world import dice
    from world.sheets import snapshot
    from world.text import escape_for_room

    row = row or fight_here(caller)
    system = system_of(row) if row is not None else system_here(caller)
    magic = spells_of(system)
    if row is not None:
        if (actor_name is None and len(targets) == 1 and is_gm(caller, row) and not fights.state(row).has(caller.id)
                and not _is_spell(magic, spell_name) and _is_spell(magic, targets[0])):
            # ``cast Zed=protego`` from a game master who is not fighting: an NPC's spell with
            # no target (the target is optional), not a spell "Zed" cast at "protego"
            actor_name, spell_name, targets = spell_name, targets[0], []
        actor = actor_for(caller, row, actor_name)   # who may cast, before what is cast
        magic.spell(spell_name)
        perform(caller, row, "cast", actor=actor, targets=tuple(find(row, name) for name in targets),
                option=spell_name, data={"damage": se_to_damage})
        return
    spell = magic.spell(spell_name)
    if actor_name or spell.kind != "other":
        raise CombatError(f"{spell.name} needs a fight: attack and shield spells are cast in +combat.")
    with dice.roller() as roller:
        rolled = magic.cast(snapshot(caller, system), spell.key, roller)
    narration.tell_with_lines(caller.location, f"{COMBAT} " + escape_for_room(f"{caller.key} casts {spell.name}."),
                              rolled.lines(), system.key)
