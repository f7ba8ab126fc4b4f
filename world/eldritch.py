"""The eldritch fight's own actions (the eldritch seed): the ST's space, concealing and searching for
weapons, hiding and spotting the hidden, eye contact, line of sight, movement actions,
Sacrifice, Double Jump Kick's two targets, waking the unconscious and spending a Drama Point
(``docs/rules/eldritch.md``).

The dice and effects are in ``rules.systems.eldritch`` and ``eldritch_checks``; this module
checks whose turn it is, stores the states (the encounter's ``conditions`` and ``scene``, the
character's ``concealed``) and tells the room. Every function raises ``CombatError`` (one
player-facing line) and changes nothing when it refuses.
"""

from __future__ import annotations

import re

from evennia.utils.dbserialize import deserialize

from rules.systems import CombatError, get_system
from rules.systems.base import plural
from rules.systems.eldritch.checks import Concealment
from rules.systems.eldritch.dice import EldritchRoll
from world import dice, fights
from world.access import NARRATOR, require_perm
from world.encounters import (
    actor_for,
    add_log,
    announce,
    announce_turn,
    close_pending,
    combatant,
    conditions_of,
    current_slot,
    deliver,
    encounter_in,
    fighters,
    find_combatant,
    find_named,
    finish_attack,
    has_initiative,
    health_of,
    initiative_rolls,
    is_storyteller,
    modifiers_for,
    notify_controller,
    pending_for,
    rebuild_attack,
    require_encounter,
    require_free,
    require_storyteller,
    require_turn,
    system_of,
    update_conditions,
    use_action,
    use_modifiers,
)
from world.sheets import is_npc, snapshot, update_sheet
from world.text import COMBAT, escape, escape_for_room, quote

KEY = "eldritch"
MAX_YARDS = 99
MAX_MOVE_TEXT = 60
#: ``+move`` verbs; draw, stand, release and cover change the fight, the others are posed.
MOVES = ("draw", "stand", "release", "cover", "run", "climb", "leap", "swing", "catch", "crawl",
         "transform", "go")
#: ``+move`` verbs that are travel from A to B: with a distance (``+move run 5 to the door``)
#: they are a movement action only at half the Yards/Turn or more (seed, Movement).
TRAVEL = ("run", "go", "crawl")
#: ``+move run to <name>``: moving up to someone (Whirling Sword's "steps into range").
_TOWARD = re.compile(r"(?:to|toward|towards|at)\s+([^\s.,;!?]+)", re.IGNORECASE)
_DISTANCE = re.compile(r"(\d{1,3})(?!\d)(?:\s*(?:yards?|yds?)\b)?\s*(.*)$", re.IGNORECASE)
#: Log entries that are not a fighter's action (for "attacked in their last action"): rolls,
#: defenses (logged as the attacker's "attack on …"; a Sacrifice is a defense too), looking.
NOT_ACTIONS = ("initiative", "roll", "private roll", "start of round", "attack on ", "shield zap",
               "eye contact", "line of sight", "drama point", "conceal", "search", "sacrifice",
               "spot", "hide before", "travel")


# ---------------------------------------------------------------------------- helpers
def rules_of(encounter, what: str, needs: str):
    """The fight's rules, when they have ``needs`` (e.g. ``"space_limit"``). Raises
    CombatError naming ``what`` for a fight under other rules."""
    system = system_of(encounter)
    if not hasattr(system, needs):
        raise CombatError(f"The {system.key} rules have no {what}.")
    return system


def rules_here(caller, what: str):
    """(encounter or None, rules) for a check that also works outside a fight: the fight's
    rules here (refused when they are not Eldritch's), else Eldritch's whatever the game's
    default."""
    encounter = encounter_in(caller.location)
    if encounter is None:
        return None, get_system(KEY)
    return encounter, rules_of(encounter, what, "conceal")


def _in_room(caller, name: str):
    """A character or NPC in ``caller``'s room by name (exact, else a unique prefix)."""
    here = [obj for obj in (caller.location.contents if caller.location else []) if hasattr(obj, "sheets")]
    return find_named(here, name, "Name someone here.", "No one called '{}' here.")


def _actor_here(caller, encounter, name: str | None):
    """Who acts outside the turn order: the caller, or (``<npc>=``) an NPC — in the fight,
    one the scene's Storyteller runs; outside a fight, one here, for Narrators."""
    if not name:
        return caller
    if encounter is not None:
        return actor_for(caller, encounter, name)
    require_perm(caller, NARRATOR, "act for NPCs")
    npc = _in_room(caller, name)
    if not is_npc(npc):
        raise CombatError(f"{npc.key} is a player character: only they can act for themselves.")
    return npc


def _snap(encounter, obj, system):
    """``obj``'s snapshot: with its fight conditions when it is fighting here."""
    if encounter is not None and obj in fighters(encounter):
        return combatant(encounter, obj, system)
    return snapshot(obj, system)


def _tell(caller, encounter, lines: list[str], *others) -> None:
    """Private working: to the caller, ``others`` (e.g. the one searched) and the scene's ST
    (an NPC's lines go to whoever runs it)."""
    _send(encounter, lines, [caller, *others, encounter.storyteller if encounter is not None else None])


def _send(encounter, lines, recipients, told: set | None = None) -> set:
    """``lines`` to each of ``recipients`` once (NPCs and None skipped; ids in ``told`` too):
    in a fight as its notice events, else at once; returns the ids told."""
    text = "\n".join([escape(lines[0])] + [f"  {escape(line)}" for line in lines[1:]])
    told = set() if told is None else told
    for who in recipients:
        if who is None or who.id in told or is_npc(who):
            continue
        told.add(who.id)
        if encounter is not None:
            fights.emit(encounter, "notice", text=text, to=who)
        else:
            who.msg(f"{COMBAT} {text}")
    return told


def _turn_action(encounter, actor) -> None:
    use_action(encounter, actor, current_slot(encounter)[0])


def _hidden_from(encounter, hider, seeker) -> bool:
    return seeker.id in (conditions_of(encounter, hider).get("hidden_from") or [])


def _require_seeing(encounter, actor, system) -> None:
    """Raises CombatError when ``actor`` is down or out cold (in a fight): the one who looks
    (+spot, +eyecontact, +los) must be awake."""
    if encounter is not None and (health_of(encounter, actor, system).incapacitated
                                  or conditions_of(encounter, actor).get("passed_out")):
        raise CombatError(f"{actor.key} is in no state to look for anyone.")


def _in_sight(encounter, one, other) -> bool:
    """Whether a line of sight was made between ``one`` and ``other`` (either way) and has not
    been broken since (kept as ``in_sight``, the ids on each side's conditions)."""
    return encounter is not None and other.id in (conditions_of(encounter, one).get("in_sight") or [])


def _keep_sight(encounter, one, other) -> None:
    for obj, seen in ((one, other), (other, one)):
        kept = list(conditions_of(encounter, obj).get("in_sight") or [])
        if seen.id not in kept:
            update_conditions(encounter, obj, in_sight=kept + [seen.id])


def break_sight(encounter, obj, others=None) -> None:
    """Forget the lines of sight between ``obj`` and ``others`` (default: everyone): it hid
    from them or moved to gain cover (seed, Line of Sight: the exceptions to "applies to
    BOTH")."""
    for other in fighters(encounter):
        if other == obj or (others is not None and other not in others):
            continue
        for one, seen in ((obj, other), (other, obj)):
            kept = list(conditions_of(encounter, one).get("in_sight") or [])
            if seen.id in kept:
                update_conditions(encounter, one, in_sight=[i for i in kept if i != seen.id])


def attacked_last(encounter, attacker, victim) -> bool:
    """Whether ``attacker``'s last action was an attack on ``victim`` (seed, Eye Contact: "in
    their last action"; Line of Sight: "in their prior action"), read from the roll log: the
    attacker's latest action (an attack, a movement action, hiding, escaping, waking someone,
    a pat-down …; not a defense, a roll or a look) must be that attack. Any other action
    clears it; the end of the turn does not (issue 17: an attack at the end of the previous
    turn is still their last action until they act again; a pass is no action)."""
    if encounter is None:
        return False
    for entry in fights.latest_log(encounter, attacker.key):
        if str(entry.get("what", "")).startswith(NOT_ACTIONS):
            continue
        what = str(entry["what"])
        return " at " in what and victim.key in what.rpartition(" at ")[2].split(", ")
    return False


# ---------------------------------------------------------------------------- space
def parse_space(text: str) -> tuple[int | None, bool]:
    """``"3"``, ``"3 wall"``, ``"open"``, ``"open wall"`` -> (yards or None, wall). Raises CombatError."""
    words = text.casefold().split()
    usage = "Usage: +combat/space <yards>|open[ wall], e.g. +combat/space 3 wall"
    if not words or len(words) > 2 or (len(words) == 2 and words[1] != "wall"):
        raise CombatError(usage)
    if words[0] == "open":
        return None, len(words) == 2
    if not words[0].isascii() or not words[0].isdigit() or int(words[0]) > MAX_YARDS:
        raise CombatError(f"Give the space as whole yards from 0 to {MAX_YARDS}, or open: {usage[7:]}")
    return int(words[0]), len(words) == 2


def set_space(caller, text: str) -> None:
    """ST: ``+combat/space <yards>|open[ wall]`` — the room weapons have here (seed:
    Spacial Comfort, -2 per yard short of size - 2) and whether a wall is at hand (Wall
    Flip); ``+combat/space`` alone shows it."""
    encounter = require_encounter(caller)
    system = system_of(encounter)
    if not text.strip():
        scene = fights.copied(encounter.scene or {})
        caller.msg(f"{COMBAT} Space here: {system.scene_text(scene) or 'open, no wall at hand'}.")
        return
    require_storyteller(caller, encounter, "set the space")
    rules_of(encounter, "weapon space", "space_limit")
    yards, wall = parse_space(text)
    scene = dict(fights.copied(encounter.scene or {}))
    scene.pop("space", None)
    scene.pop("wall", None)
    if yards is not None:
        scene["space"] = yards
    if wall:
        scene["wall"] = True
    encounter.scene = scene
    announce(encounter, "$You() $conj(set) the space: " + (system.scene_text(scene) or "open, no wall at hand") + ".",
             actor=caller)


# ----------------------------------------------------------------- conspicuousness
def concealments(obj) -> list[Concealment]:
    """What ``obj`` hides: one Concealment per weapon, all sharing its one roll."""
    stored = deserialize(getattr(obj, "concealed", None) or {})
    if not stored.get("roll"):
        return []
    roll = EldritchRoll.from_record(stored["roll"])
    return [Concealment(obj.key, item["weapon"], bool(item["duffel"]), roll, ()) for item in stored["weapons"]]


def conceal(caller, actor_name: str | None, text: str, *, duffel: bool) -> None:
    """``+conceal <weapon>[/duffel]``: the first weapon hidden rolls Intelligence + Larceny
    once; every weapon hidden after it uses the same roll (seed: "you only roll once")."""
    encounter, system = rules_here(caller, "concealment")
    actor = _actor_here(caller, encounter, actor_name)
    weapon = system.weapon(text)
    stored = dict(deserialize(actor.concealed or {}))
    hidden = list(stored.get("weapons", []))
    if any(item["weapon"] == weapon.key for item in hidden):
        raise CombatError(f"{actor.key} already hides a {weapon.name} (+conceal/clear to start over).")
    where = " in a duffel bag" if duffel else ""
    if stored.get("roll"):
        roll = EldritchRoll.from_record(stored["roll"])
        lines = [f"{actor.key} hides the {weapon.name}{where} as well: the concealment roll of "
                 f"{roll.total} stands (one roll for every weapon)."]
    else:
        with dice.roller(encounter) as roller:
            found = system.conceal(_snap(encounter, actor, system), weapon.key, roller, duffel=duffel)
        stored = {"roll": found.roll.to_record()}  # a new concealment: searchers roll anew
        lines = list(found.lines)
    stored["weapons"] = hidden + [{"weapon": weapon.key, "duffel": duffel}]
    actor.concealed = stored
    if encounter is not None:
        add_log(encounter, actor.key, "conceal", lines)
    _tell(caller, encounter, lines, actor)


def clear_concealed(caller, actor_name: str | None) -> None:
    """``+conceal/clear``: forget what is hidden (the next ``+conceal`` rolls anew)."""
    encounter, _ = rules_here(caller, "concealment")
    actor = _actor_here(caller, encounter, actor_name)
    if not concealments(actor):
        raise CombatError(f"{actor.key} hides no weapon.")
    actor.concealed = {}
    _tell(caller, encounter, [f"{actor.key} no longer hides any weapon."], actor)


def show_concealed(caller, actor_name: str | None) -> None:
    """``+conceal``: what the actor hides, and the roll."""
    encounter, system = rules_here(caller, "concealment")
    actor = _actor_here(caller, encounter, actor_name)
    hidden = concealments(actor)
    if not hidden:
        raise CombatError(f"{actor.key} hides no weapon. +conceal <weapon> hides one.")
    names = ", ".join(system.weapons[c.weapon].name + (" (duffel bag)" if c.duffel else "") for c in hidden)
    _tell(caller, encounter, [f"{actor.key} hides: {names}; concealment {hidden[0].roll.total} "
                              f"({hidden[0].roll.describe()})."])


def search(caller, actor_name: str | None, name: str, *, patdown: bool, opened: bool = False) -> None:
    """``+search <name>[/patdown|/open]``: Perception + Larceny or Notice, + each hidden
    weapon's size - 4 (+3 for a pat-down; size - 5 in a duffel bag), against its carrier's one
    concealment roll. ``opened`` (``/open``): the searcher opens the carrier's duffel bag
    (seed: "If they open the duffel bag, it's curtains"): what is in it is found, no roll
    needed; hands on them like a pat-down.

    Fray's reading of the source (Conspicuousness): like the concealment ("you only roll
    once"), each searcher rolls once against a carrier: searching them again, or patting them
    down, reuses that roll (+3 for the pat-down) until the carrier conceals anew (after
    ``+conceal/clear``, or drawing all they hid). Looking someone over is no action; a
    pat-down lays hands on them, a movement action (seed: "any physical action that is
    neither Offensive nor Defensive"): in a fight, once the searcher has initiative, it is
    made on their turn and spends an action. One hidden from the searcher cannot be searched.
    The searcher sees their roll and what they find; the one searched and the scene's
    Storyteller (and whoever acts for an NPC) see the whole working."""
    encounter, system = rules_here(caller, "concealment")
    actor = _actor_here(caller, encounter, actor_name)
    target = _in_room(caller, name)
    if target == actor:
        raise CombatError("You know what you carry: +conceal shows it.")
    fighting = encounter is not None and actor in fighters(encounter)
    if fighting and target in fighters(encounter) and _hidden_from(encounter, target, actor):
        raise CombatError(f"{actor.key} cannot see {target.key}, who is hiding (+spot {target.key} first).")
    fighter = _snap(encounter, actor, system)
    movement = None
    if (patdown or opened) and fighting and has_initiative(encounter, actor):
        require_turn(encounter, actor)
        require_free(encounter, actor)
        verb = "pat down" if patdown else "open the bag of"
        movement = system.movement(fighter, f"{verb} {target.key}",
                                   int(fighter.conditions.get("actions_used", 0) or 0))
    stored = dict(deserialize(target.concealed or {}))
    searched = dict(stored.get("searched") or {})
    kept = searched.get(str(actor.id))
    with dice.roller(encounter) as roller:
        roll = EldritchRoll.from_record(kept) if kept else system.search_roll(fighter, roller)
        found, lines = system.search_all(fighter, target.key, concealments(target), roller, patdown=patdown,
                                         roll=roll, again=bool(kept), opened=opened)
    if not kept:
        searched[str(actor.id)] = roll.to_record()
        target.concealed = {**stored, "searched": searched}
    if movement is not None:
        _turn_action(encounter, actor)
        lines = (*movement.lines, *lines)
    if encounter is not None:
        add_log(encounter, actor.key, f"{'pat-down' if movement else 'search'} of {target.key}", lines)
    shown = len(movement.lines) if movement else 0
    seen = [*lines[:shown + 1], *(line for line, item in zip(lines[shown + 1:-1], found, strict=True) if item.found),
            lines[-1]]
    storyteller = encounter.storyteller if encounter is not None else None
    told = _send(encounter, list(lines), [target, storyteller] + ([] if caller == actor else [caller]))
    _send(encounter, seen, [caller], told)
    if movement is not None:
        announce(encounter, "{actor} pats down {target}." if patdown else "{actor} opens {target}'s bag.",
                 mapping={"actor": actor, "target": target})
        announce_turn(encounter)


# ------------------------------------------------------------------------- hiding
def hide(caller, actor_name: str | None, *, obscured: bool = False) -> None:
    """``hide`` in an eldritch fight (seed: Hiding): Dexterity + Larceny + Stealth or
    Dexterity + Acrobatics + Sneaking (the better) against each other fighter's Perception +
    Notice + Ambushes; a higher roll hides from that one. Before rolling initiative it is
    free (once); later it is a movement action on one's turn. The roll is kept for ``+spot``."""
    encounter = require_encounter(caller)
    system = rules_of(encounter, "hiding", "hiding_table")
    if obscured:
        raise CombatError("/obscured is an aeon switch: an Eldritch hider just rolls (hide).")
    actor = actor_for(caller, encounter, actor_name)
    require_free(encounter, actor)
    opening = not has_initiative(encounter, actor)
    fighter = combatant(encounter, actor, system)
    used = int(fighter.conditions.get("actions_used", 0) or 0)
    if opening:
        if conditions_of(encounter, actor).get("hid_early"):
            raise CombatError(f"{actor.key} has hidden before the fight once: roll initiative (+combat/init).")
    else:
        require_turn(encounter, actor)
        system.movement(fighter, "hide", used)  # refuses past the limit, out cold, whirling
    seekers = [obj for obj in fighters(encounter) if obj != actor  # the down and the out cold see nothing
               and not health_of(encounter, obj, system).incapacitated
               and not conditions_of(encounter, obj).get("passed_out")]
    with dice.roller(encounter) as roller:
        result = system.hide(fighter, [combatant(encounter, obj, system) for obj in seekers], roller,
                             penalty=0 if opening else system.action_penalty(used))
    if not opening:
        _turn_action(encounter, actor)
    beaten = [obj.id for obj in seekers if obj.key in result.hidden_from]
    break_sight(encounter, actor, [obj for obj in seekers if obj.id in beaten])
    update_conditions(encounter, actor, hidden_from=beaten, hid_early=opening or None,
                      hide_total=result.roll.total if beaten else None, spot_tries=None)
    add_log(encounter, actor.key, "hide before the fight" if opening else "hide", result.lines)
    announce(encounter, "{actor} tries to hide.", mapping={"actor": actor}, lines=result.lines)
    if not opening:
        announce_turn(encounter)


def spot(caller, actor_name: str | None, name: str) -> None:
    """``+spot <name>``: look for one hiding from the actor (seed, Line of Sight: "If the
    target is hiding, Perception rolls need to be made to have any idea of their presence"):
    Perception + Notice + Ambushes against the hider's kept hiding roll; not lower spots them
    (they are no longer hidden from the actor: attack, eye contact and line of sight become
    possible). Looking is no action; one try per hider each turn (and again after they hide
    anew)."""
    encounter = require_encounter(caller)
    system = rules_of(encounter, "spotting", "spot")
    actor = actor_for(caller, encounter, actor_name)
    target = find_combatant(encounter, name)
    if target == actor:
        raise CombatError("You know where you are.")
    state = conditions_of(encounter, target)
    if not _hidden_from(encounter, target, actor):
        raise CombatError(f"{target.key} is not hidden from {actor.key}.")
    _require_seeing(encounter, actor, system)
    if actor.id in (state.get("spot_tries") or []):
        raise CombatError(f"{actor.key} has already looked for {target.key} this turn.")
    with dice.roller(encounter) as roller:
        sight = system.spot(combatant(encounter, actor, system), target.key, int(state.get("hide_total", 0) or 0),
                            roller)
    tries = [*(state.get("spot_tries") or []), actor.id]
    hidden = [obj_id for obj_id in state.get("hidden_from") or [] if not (sight.established and obj_id == actor.id)]
    update_conditions(encounter, target, spot_tries=tries, hidden_from=hidden)
    add_log(encounter, actor.key, f"spot {target.key}", sight.lines)
    announce(encounter, "{actor} looks around for {target}.", mapping={"actor": actor, "target": target},
             lines=sight.lines)


# ------------------------------------------------------------- eye contact, sight
def _looking(caller, actor_name: str | None, name: str, what: str, not_yourself: str):
    """(encounter or None, rules, the one looking, the one looked at) for ``+eyecontact`` and
    ``+los``, in a fight or out of one. Raises CombatError (``not_yourself`` at oneself; the
    down or out cold cannot look)."""
    encounter, system = rules_here(caller, what)
    actor = _actor_here(caller, encounter, actor_name)
    target = find_combatant(encounter, name) if encounter is not None else _in_room(caller, name)
    if target == actor:
        raise CombatError(not_yourself)
    _require_seeing(encounter, actor, system)
    return encounter, system, actor, target


def eye_contact(caller, actor_name: str | None, name: str, *, yards_text: str | None,
                attention: bool, impaired: bool) -> None:
    """``+eyecontact <name>[=<yards>]`` (seed: Eye Contact): impossible when the target
    cannot (``impaired``), is further than 20 yards, or hides from the caster; made when the
    target attacked the caster in their last action (``attacked_last``: even last turn, nothing
    since); with ``attention`` Willpower +
    Influence against the target's Willpower doubled; else a 30% chance (+roll 0: 1-3)."""
    encounter, system, actor, target = _looking(caller, actor_name, name, "eye contact",
                                                "Eye contact is made with someone else.")
    yards = None
    if yards_text is not None:
        text = yards_text.strip()
        if not text.isascii() or not text.isdigit() or len(text) > 4:
            raise CombatError(f"Give the distance in whole yards, not '{quote(text)}'.")
        yards = int(text)
    hidden = encounter is not None and _hidden_from(encounter, target, actor)
    with dice.roller(encounter) as roller:
        sight = system.eye_contact(_snap(encounter, actor, system), _snap(encounter, target, system), roller,
                                   impaired="blinded or cut off" if impaired else "", yards=yards,
                                   attacked_last=attacked_last(encounter, target, actor),
                                   draw_attention=attention, hidden=hidden)
    _sighting(caller, encounter, actor, target, sight, "tries to catch {target}'s eye.")


def line_of_sight(caller, actor_name: str | None, name: str, *, partial: bool, blocked: bool) -> None:
    """``+los <name>[/partial]`` (seed: Line of Sight): none to one hiding from the caller or
    behind blank walls, full cover or great distance (``blocked``); made when the target
    attacked the caller in their prior action, or with nothing in the way; behind partial
    cover a 50% chance (+roll 0: 1-5), gained by moving: in a fight, a movement action on
    one's turn."""
    encounter, system, actor, target = _looking(caller, actor_name, name, "line of sight",
                                                "Line of sight is to someone else.")
    hidden = encounter is not None and _hidden_from(encounter, target, actor)
    last = attacked_last(encounter, target, actor)
    if blocked and _in_sight(encounter, actor, target):
        break_sight(encounter, actor, [target])   # walls or full cover between them now
    kept = _in_sight(encounter, actor, target)
    moving = partial and not hidden and not blocked and not last and not kept and encounter is not None \
        and has_initiative(encounter, actor)
    fighter = _snap(encounter, actor, system)
    movement = None
    if moving:
        require_turn(encounter, actor)
        require_free(encounter, actor)
        movement = system.movement(fighter, f"move for a line of sight to {target.key}",
                                   int(fighter.conditions.get("actions_used", 0) or 0))
    with dice.roller(encounter) as roller:
        sight = system.line_of_sight(fighter, _snap(encounter, target, system), roller, hidden=hidden,
                                     blocked=blocked, partial=partial, attacked_last=last, established=kept)
    if encounter is not None and sight.established:
        _keep_sight(encounter, actor, target)
    if movement is not None:
        _turn_action(encounter, actor)
        add_log(encounter, actor.key, "move", movement.lines)  # an action: "their last action" moves on
    _sighting(caller, encounter, actor, target, sight, "looks for a line of sight to {target}.")
    if moving:
        announce_turn(encounter)


def _sighting(caller, encounter, actor, target, sight, template: str) -> None:
    if encounter is None:
        caller.location.msg_contents(f"{COMBAT} " + escape_for_room(f"{actor.key} " + template.replace(
            "{target}", target.key)))
        caller.location.msg_contents("\n".join(f"  {escape_for_room(line)}" for line in sight.lines))
        return
    add_log(encounter, actor.key, f"{sight.what} with {target.key}", sight.lines)
    announce(encounter, "{actor} " + template, mapping={"actor": actor, "target": target}, lines=sight.lines)


# ----------------------------------------------------------------------- movement
def parse_move(text: str) -> tuple[str, str]:
    """``"draw sword"`` -> ("draw", "sword"); a unique prefix of a verb will do. Raises CombatError."""
    words = text.split(None, 1)
    usage = f"Move how? {', '.join(MOVES)} (help +move)."
    if not words:
        raise CombatError(usage)
    found = [verb for verb in MOVES if verb.startswith(words[0].casefold())]
    if len(found) != 1:
        raise CombatError(usage)
    rest = words[1].strip() if len(words) == 2 else ""
    if len(rest) > MAX_MOVE_TEXT:
        raise CombatError(f"Describe the move in at most {MAX_MOVE_TEXT} characters.")
    return found[0], rest


def move(caller, actor_name: str | None, text: str) -> None:
    """``+move <verb> [...]`` (seed: Movement actions): on one's turn, spends an action (the
    extra-action penalty applies as to any action). ``draw <weapon>`` puts it in hand (out of
    hiding, if hidden), ``stand`` gets up from prone, ``release`` lets go of whoever one
    holds, ``cover`` breaks every line of sight made with the mover; run, climb, leap,
    swing, catch, crawl, transform and go are posed. Travel (run, go, crawl) with a distance
    first (``run 5 to the door``) is an action only at half the mover's Yards/Turn or more
    (seed: "Actual travel ... only counts as a Movement action if the distance is equal or
    greater than half the character's Yards/Turn"); shorter, it spends nothing."""
    encounter = require_encounter(caller)
    system = rules_of(encounter, "movement actions", "movement")
    actor = actor_for(caller, encounter, actor_name)
    verb, rest = parse_move(text)
    require_turn(encounter, actor)
    require_free(encounter, actor)
    fighter = combatant(encounter, actor, system)
    weapon = None
    victims = []
    if verb == "draw":
        hidden = concealments(actor)
        if not rest and len(hidden) != 1:
            raise CombatError("Draw which weapon? +move draw <weapon>")
        weapon = system.weapon(rest) if rest else system.weapons[hidden[0].weapon]
        what = f"draw the {weapon.name}"
    elif verb == "stand":
        if not fighter.conditions.get("prone"):
            raise CombatError(f"{actor.key} is not prone.")
        what = "stand up"
    elif verb == "cover":
        what = f"take cover {rest}".strip()
    elif verb == "release":
        victims = [obj for obj in fighters(encounter) if conditions_of(encounter, obj).get("held_by") == actor.id]
        if not victims:
            raise CombatError(f"{actor.key} holds nobody.")
        what = f"let go of {', '.join(obj.key for obj in victims)}"
    else:
        what = f"{verb} {rest}".strip()
    distance = _DISTANCE.match(rest) if verb in TRAVEL else None
    used = int(fighter.conditions.get("actions_used", 0) or 0)
    if distance:
        yards = int(distance.group(1))
        what = f"{verb} {plural(yards, 'yard')} {distance.group(2)}".strip()
        movement = system.travel(fighter, yards, what, used)
    else:
        movement = system.movement(fighter, what, used)
    if not movement.spends:
        add_log(encounter, actor.key, "travel", movement.lines)
        announce(encounter, "{actor} moves.", mapping={"actor": actor}, lines=movement.lines)
        _step_in(encounter, system, actor, distance.group(2) if distance else rest)
        return
    _turn_action(encounter, actor)
    if weapon is not None:
        update_sheet(actor, system, weapon=weapon.key)
        stored = dict(deserialize(actor.concealed or {}))
        if stored:
            stored["weapons"] = [item for item in stored.get("weapons", []) if item["weapon"] != weapon.key]
            actor.concealed = stored if stored["weapons"] else {}
    if verb == "stand":
        update_conditions(encounter, actor, prone=None)
    if verb == "cover":
        break_sight(encounter, actor)
    for victim in victims:
        update_conditions(encounter, victim, held_by=None, by_neck=None, wrestling_hold=None, sleeper_hold=None)
    add_log(encounter, actor.key, "move", movement.lines)
    announce(encounter, "{actor} moves.", mapping={"actor": actor}, lines=movement.lines)
    if not _step_in(encounter, system, actor, distance.group(2) if distance else rest):
        announce_turn(encounter)


def _step_in(encounter, system, actor, rest: str) -> bool:
    """``+move run to <name>`` up to a fighter whirling a sword (seed, Whirling Sword: "Anybody
    who steps into range of the whirling sword is attacked"): their whirl attacks the mover
    with the turn's one roll. True when it did (the attack then awaits the mover's defense)."""
    found = _TOWARD.match(rest)
    if not found:
        return False
    name = found.group(1).casefold()
    whirler = next((obj for obj in fighters(encounter) if obj != actor and obj.key.casefold() == name), None)
    if whirler is None:
        return False
    whirl = system.step_in(combatant(encounter, whirler, system), combatant(encounter, actor, system))
    if whirl is None:
        return False
    add_log(encounter, whirler.key, f"{whirl.label} at {actor.key}", [*whirl.notes, whirl.describe()])
    deliver(encounter, whirler, actor, whirl, notes=whirl.notes)
    return True


# --------------------------------------------------------- maneuvers beyond attack
def attack_many(caller, actor_name: str | None, names_text: str, option: str) -> None:
    """``attack <target>,<target>/double jump kick``: one roll, one attack on each, each
    defended on its own (seed: Double Jump Kick)."""
    encounter = require_encounter(caller)
    system = rules_of(encounter, "attacks on several targets", "attack_many")
    actor = actor_for(caller, encounter, actor_name)
    names = [name.strip() for name in names_text.split(",")]
    if not all(names):
        raise CombatError("Name each target once, e.g. attack Thug,Guard/double jump kick.")
    targets = [find_combatant(encounter, name) for name in names]
    if actor in targets:
        raise CombatError("You cannot attack yourself.")
    for target in targets:
        if health_of(encounter, target, system).dead:
            raise CombatError(f"{target.key} is already dead.")
    require_turn(encounter, actor)
    require_free(encounter, actor)
    system.difficulty_adjustable(option, combatant(encounter, actor, system))  # an unknown option fails here
    mods = modifiers_for(encounter, actor)
    with dice.roller(encounter) as roller:
        rolled = system.attack_many(combatant(encounter, actor, system),
                                    [combatant(encounter, obj, system) for obj in targets], option, roller,
                                    modifier=mods.difficulty, dice_modifier=mods.dice)
    use_modifiers(encounter, actor)
    _turn_action(encounter, actor)
    update_conditions(encounter, actor, hidden_from=None)
    add_log(encounter, actor.key, f"{rolled[0].label} at {', '.join(obj.key for obj in targets)}",
            [rolled[0].describe(), *mods.notes])
    for target, attack in zip(targets, rolled, strict=True):
        deliver(encounter, actor, target, attack)


def sacrifice(caller, actor_name: str | None, name: str) -> None:
    """``+sacrifice <name>``: throw oneself between the attack waiting on ``name`` and them
    (seed: Sacrifice). Needs the maneuver and a higher initiative than the attacker this
    turn; a parry or Ranged Deflection at -3 (and the actions and defenses already made;
    never against a firearm). More SLs than the attack: parried for them; a success: the
    sacrificer takes the hit, all its SLs; a failure: ``name`` must still defend.
    It counts as one of the sacrificer's defenses this turn."""
    encounter = require_encounter(caller)
    system = rules_of(encounter, "Sacrifice", "sacrifice")
    actor = actor_for(caller, encounter, actor_name)
    target = find_combatant(encounter, name)
    pending = pending_for(encounter, target)
    attacker = pending["attacker"]
    rolled = rebuild_attack(system, pending["attack"])
    initiative = {roll.name: roll.total for roll in initiative_rolls(encounter)}
    mods = modifiers_for(encounter, actor, adjustable=False)
    with dice.roller(encounter) as roller:
        defense = system.sacrifice(rolled, combatant(encounter, actor, system), roller,
                                   initiative=initiative.get(actor.key), attacker_initiative=initiative.get(attacker.key),
                                   modifier=mods.difficulty, dice_modifier=mods.dice)
    use_modifiers(encounter, actor, adjustable=False)
    update_conditions(encounter, actor, defenses_used=int(conditions_of(encounter, actor).get("defenses_used", 0)) + 1)
    if defense.outcome == "failed":
        lines = [f"{actor.key} {defense.describe()}",
                 f"The Sacrifice fails: {target.key} must still defend."]
        add_log(encounter, actor.key, f"sacrifice for {target.key}", lines)
        announce(encounter, "{actor} dives in front of {attacker}'s attack on {target}.",
                 mapping={"actor": actor, "attacker": attacker, "target": target}, lines=lines)
        notify_controller(encounter, target, f"{escape(target.key)} must still answer {escape(attacker.key)}'s attack.")
        return
    close_pending(encounter, pending)
    victim = actor if defense.outcome == "takes" else target
    finish_attack(encounter, attacker, victim, rolled, defense, list(mods.notes))


def wake(caller, actor_name: str | None, name: str) -> None:
    """``+wake <name>``: medical attention or smelling salts bring round one out cold (seed:
    Sleeper Hold). The ST at any time; a fighter on their turn, spending an action."""
    encounter = require_encounter(caller)
    system = rules_of(encounter, "waking", "movement")
    target = find_combatant(encounter, name)
    if not conditions_of(encounter, target).get("passed_out"):
        raise CombatError(f"{target.key} is not out cold.")
    if actor_name or not is_storyteller(caller, encounter):
        actor = actor_for(caller, encounter, actor_name)
        if actor == target:
            raise CombatError(f"{actor.key} is out cold: someone else must wake them.")
        require_turn(encounter, actor)
        require_free(encounter, actor)
        fighter = combatant(encounter, actor, system)
        system.movement(fighter, f"wake {target.key}", int(fighter.conditions.get("actions_used", 0) or 0))
        _turn_action(encounter, actor)
        who = actor
    else:
        actor, who = None, caller
    update_conditions(encounter, target, passed_out=None)
    add_log(encounter, who.key, f"wake {target.key}", [f"{who.key} brings {target.key} round."])
    announce(encounter, "{who} brings {target} round.", mapping={"who": who, "target": target})
    if actor is not None:
        announce_turn(encounter)


def drama_point(caller, actor_name: str | None) -> None:
    """``+drama``: spend a Drama Point on the next defense (seed: Damaging Block against a
    weapon). Fray does not count Drama Points: the Storyteller does."""
    encounter = require_encounter(caller)
    rules_of(encounter, "Drama Points", "sacrifice")
    actor = actor_for(caller, encounter, actor_name)
    if conditions_of(encounter, actor).get("drama_point"):
        raise CombatError(f"{actor.key} has already spent a Drama Point on the next defense.")
    update_conditions(encounter, actor, drama_point=True)
    add_log(encounter, actor.key, "drama point", [f"{actor.key} spends a Drama Point on the next defense."])
    announce(encounter, "{actor} spends a Drama Point on the next defense.", mapping={"actor": actor})
