"""The eldritch fight's actions: the shared ones (``rules.engine.actions.STANDARD``) and
eldritch's own (the eldritch seed; ``docs/rules/eldritch.md``): the game master's space
(``+combat/space``), hiding and spotting the hidden, eye contact and line of sight, movement
actions (``+move``, with a whirling sword drawn by one who steps into it), Double Jump Kick's
several targets, Sacrifice, waking the unconscious, a Drama Point, and concealing and searching
for weapons (``+conceal``, ``+search``: what a character hides is kept on the character, given
to the step in ``data["concealed"]`` and returned changed).

The dice and effects are in ``rules.systems.eldritch`` (system, checks); here is whose turn
it is, what the fight keeps (the fighter's conditions: ``in_sight``, ``spot_tries``,
``hide_total``, ``hid_early``, ``passed_out`` …) and what the room is told (message keys
``eldritch.*``, ``world/messages/eldritch.toml``). Every action raises ``CombatError`` (one
player-facing line) before any die when it refuses; the step then keeps nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from rules.dice import Roller
from rules.engine import attacks, turns
from rules.engine.actions import STANDARD, Action, require_actor, require_target
from rules.engine.draft import Draft
from rules.engine.intents import Intent
from rules.lines import Line, roll_of
from rules.systems.base import Combatant, CombatError
from rules.systems.eldritch.checks import Concealment, listed
from rules.systems.eldritch.dice import EldritchRoll

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


# ---------------------------------------------------------------------------- helpers
def used(d: Draft, fighter_id: int) -> int:
    """The offensive or movement actions the fighter took this turn."""
    return int(d.conditions_of(fighter_id).get("actions_used", 0) or 0)


def spend(d: Draft, fighter_id: int) -> None:
    """Spend the action of the turn the fighter is taking now."""
    turns.use_turn(d, fighter_id)


def hidden_from(d: Draft, hider: int, seeker: int) -> bool:
    return seeker in (d.conditions_of(hider).get("hidden_from") or [])


def attacked_last(d: Draft, attacker: int, victim: int) -> bool:
    """Whether ``attacker``'s last action was an attack on ``victim`` (seed, Eye Contact: "in
    their last action"; Line of Sight: "in their prior action"): any later action clears it,
    the end of the turn does not; a pass, a defense, a roll or a look is no action."""
    return victim in (d.conditions_of(attacker).get("last_attack") or [])


def require_seeing(d: Draft, fighter_id: int) -> None:
    """Raises CombatError when the fighter is down or out cold: the one who looks (+spot,
    +eyecontact, +los) must be awake."""
    if d.health(fighter_id).incapacitated or d.conditions_of(fighter_id).get("passed_out"):
        raise CombatError(Line("eldritch.refusal.no_state_look_for", {"fighter": d.name(fighter_id)}))


def in_sight(d: Draft, one: int, other: int) -> bool:
    """Whether a line of sight was made between ``one`` and ``other`` (either way) and has not
    been broken since (``in_sight``: the ids on each side's conditions)."""
    return other in (d.conditions_of(one).get("in_sight") or [])


def keep_sight(d: Draft, one: int, other: int) -> None:
    for fighter_id, seen in ((one, other), (other, one)):
        kept = list(d.conditions_of(fighter_id).get("in_sight") or [])
        if seen not in kept:
            d.update_conditions(fighter_id, in_sight=kept + [seen])


def break_sight(d: Draft, fighter_id: int, others: Sequence[int] | None = None) -> None:
    """Forget the lines of sight between the fighter and ``others`` (default: everyone): it
    hid from them or moved to gain cover (seed, Line of Sight: the exceptions to "applies to
    BOTH")."""
    for other in d.ids():
        if other == fighter_id or (others is not None and other not in others):
            continue
        for one, seen in ((fighter_id, other), (other, fighter_id)):
            kept = list(d.conditions_of(one).get("in_sight") or [])
            if seen in kept:
                d.update_conditions(one, in_sight=[item for item in kept if item != seen])


def tell(d: Draft, recipients: Sequence[int | None], lines: Sequence[Line | str], told: set | None = None) -> set:
    """Private working: ``lines`` to each of ``recipients`` once (None and ids in ``told``
    skipped; NPCs are never told); returns the ids told."""
    told = set() if told is None else told
    for who in recipients:
        if who is None or who in told or (d.has(who) and d.is_npc(who)):
            continue
        told.add(who)
        d.tell(who, "eldritch.working", values={"first": lines[0]}, lines=lines[1:])
    return told


# ---------------------------------------------------------------------- concealment
def concealments(stored: Mapping[str, Any], carrier: str) -> list[Concealment]:
    """What a carrier hides (``stored``: the character's ``concealed`` record): one
    Concealment per weapon, all sharing its one roll."""
    if not stored.get("roll"):
        return []
    roll = EldritchRoll.from_record(stored["roll"])
    return [Concealment(carrier, item["weapon"], bool(item["duffel"]), roll, ()) for item in stored["weapons"]]


def conceal(system, carrier: Combatant, stored: Mapping[str, Any], text: str, duffel: bool,
            roller: Roller) -> tuple[dict[str, Any], list[Line]]:
    """``+conceal <weapon>[/duffel]``: the first weapon hidden rolls Intelligence + Larceny
    once; every weapon hidden after it uses the same roll (seed: "you only roll once").
    Returns (the new ``concealed`` record, the lines). Raises CombatError."""
    weapon = system.weapon(text)
    hidden = list(stored.get("weapons", []))
    if any(item["weapon"] == weapon.key for item in hidden):
        raise CombatError(Line("eldritch.refusal.already_hides_conceal_clear", {"carrier": carrier.name, "weapon": weapon.name}))
    if stored.get("roll"):
        roll = EldritchRoll.from_record(stored["roll"])
        record = dict(stored)
        lines = [Line("eldritch.line.conceals_too_duffel" if duffel else "eldritch.line.conceals_too",
                      {"carrier": carrier.name, "weapon": weapon.name, "total": roll.total})]
    else:
        found = system.conceal(carrier, weapon.key, roller, duffel=duffel)
        record = {"roll": found.roll.to_record()}  # a new concealment: searchers roll anew
        lines = list(found.lines)
    record["weapons"] = hidden + [{"weapon": weapon.key, "duffel": duffel}]
    return record, lines


def search(system, searcher: Combatant, searcher_id: int, carrier: str, stored: Mapping[str, Any], roller: Roller,
           *, patdown: bool, opened: bool, before: Sequence[Line | str] = (),
           penalty: int = 0) -> tuple[dict[str, Any], list[Line | str], list[Line | str]]:
    """``+search``: Perception + Larceny or Notice, + each hidden weapon's size - 4 (+3 for a
    pat-down; size - 5 in a duffel bag), against the carrier's one concealment roll; each
    searcher rolls once against a carrier and reuses that roll until the carrier conceals
    anew; ``opened``: the duffel bag is opened ("it's curtains"). ``before``: the lines of
    the movement action a pat-down is, ``penalty`` its extra-action penalty (a later action of
    the turn rolls at -2 for each before it; the kept roll stays as rolled). Returns (the carrier's new ``concealed`` record, every
    line, the lines the searcher sees: their roll and what they find)."""
    searched = dict(stored.get("searched") or {})
    kept = searched.get(str(searcher_id))
    roll = EldritchRoll.from_record(kept) if kept else system.search_roll(searcher, roller)
    found, lines = system.search_all(searcher, carrier, concealments(stored, carrier), roller, patdown=patdown,
                                     roll=roll, again=bool(kept), opened=opened, penalty=penalty)
    record = dict(stored)
    if not kept:
        searched[str(searcher_id)] = roll.to_record()
        record["searched"] = searched
    lines = [*before, *lines]
    shown = len(before)
    seen = [*lines[:shown + 1], *(line for line, item in zip(lines[shown + 1:-1], found, strict=True) if item.found),
            lines[-1]]
    return record, lines, seen


class Conceal(Action):
    """``+conceal <weapon>[/duffel]`` in a fight (rolled with its dice, in its roll log):
    ``option`` the weapon, ``data``: ``concealed`` (the actor's record), ``duffel``. Returns
    the new record (the game keeps it on the character)."""

    key = "conceal"

    def perform(self, d: Draft, intent: Intent) -> dict[str, Any]:
        actor = require_actor(d, intent)
        record, lines = conceal(d.system, d.combatant(actor), intent.data.get("concealed") or {}, intent.option,
                                bool(intent.data.get("duffel")), d.dice)
        d.add_log(d.name(actor), Line("eldritch.title.conceal"), lines)
        tell(d, [intent.by, actor, d.gm], lines)
        return record


class Search(Action):
    """``+search <name>[/patdown|/open]`` in a fight: ``data``: ``concealed`` (the carrier's
    record), ``carrier`` ({"id", "name", "npc"}: anyone in the room), ``patdown``,
    ``opened``. Looking someone over is no action; a pat-down (or opening their bag) lays
    hands on them, a movement action (seed: "any physical action that is neither Offensive
    nor Defensive"): once the searcher has initiative, on their turn, spending an action. One
    hidden from the searcher cannot be searched. Returns the carrier's new record."""

    key = "search"

    def perform(self, d: Draft, intent: Intent) -> dict[str, Any]:
        system = d.system
        actor = require_actor(d, intent)
        carrier = intent.data["carrier"]
        carrier_id, name = int(carrier["id"]), str(carrier["name"])
        if carrier_id == actor:
            raise CombatError(Line("eldritch.refusal.you_know_what_you"))
        if d.has(carrier_id) and hidden_from(d, carrier_id, actor):
            raise CombatError(Line("eldritch.refusal.cannot_see_who_hiding", {"actor": d.name(actor), "name": name}))
        patdown, opened = bool(intent.data.get("patdown")), bool(intent.data.get("opened"))
        moving = (patdown or opened) and d.has_initiative(actor)
        before: tuple[Line | str, ...] = ()
        penalty = 0
        if moving:
            turns.require_turn(d, actor)
            turns.require_free(d, actor)
            doing = Line("eldritch.line.move_patdown" if patdown else "eldritch.line.move_open_bag", {"target": name})
            before = system.movement(d.combatant(actor), doing, used(d, actor)).lines
            penalty = system.action_penalty(used(d, actor))
        record, lines, seen = search(system, d.combatant(actor), actor, name, intent.data.get("concealed") or {},
                                     d.dice, patdown=patdown, opened=opened, before=before, penalty=penalty)
        if moving:
            spend(d, actor)
        d.add_log(d.name(actor), Line("eldritch.title.patdown_of" if moving else "eldritch.title.search_of",
                                      {"carrier": name}), lines)
        carrier_told = None if carrier.get("npc") else carrier_id
        told = tell(d, [carrier_told, d.gm] + ([] if intent.by == actor else [intent.by]), lines)
        tell(d, [intent.by], seen, told)
        if moving:
            d.say("eldritch.patdown" if patdown else "eldritch.open_bag", refs={"actor": actor},
                  values={"target": name})
            turns.announce_turn(d)
        return record


# ---------------------------------------------------------------------------- space
def parse_space(text: str) -> tuple[int | None, bool]:
    """``"3"``, ``"3 wall"``, ``"open"``, ``"open wall"`` -> (yards or None, wall). Raises CombatError."""
    words = text.casefold().split()
    usage = Line("eldritch.refusal.space_usage")
    if not words or len(words) > 2 or (len(words) == 2 and words[1] != "wall"):
        raise CombatError(usage)
    if words[0] == "open":
        return None, len(words) == 2
    if not words[0].isascii() or not words[0].isdigit() or int(words[0]) > MAX_YARDS:
        raise CombatError(Line("eldritch.refusal.give_space_as_whole", {"max_yards": MAX_YARDS}))
    return int(words[0]), len(words) == 2


class Space(Action):
    """``+combat/space <yards>|open[ wall]``: the game master sets the room weapons have here
    (seed: Spacial Comfort, -2 per yard short of size - 2) and whether a wall is at hand
    (Wall Flip); ``option`` what was typed."""

    key = "space"

    def perform(self, d: Draft, intent: Intent) -> None:
        d.require_gm("set the space")
        yards, wall = parse_space(intent.option)
        scene = {key: value for key, value in d.scene.items() if key not in ("space", "wall")}
        if yards is not None:
            scene["space"] = yards
        if wall:
            scene["wall"] = True
        d.scene = scene
        d.say("eldritch.space", actor=intent.by,
              values={"space": d.system.scene_text(scene) or Line("eldritch.line.scene_open")})


# ------------------------------------------------------------------------- hiding
class Hide(Action):
    """``hide`` (seed: Hiding): Dexterity + Larceny + Stealth or Dexterity + Acrobatics +
    Sneaking (the better) against each other fighter's Perception + Notice + Ambushes; a
    higher roll hides from that one. Before rolling initiative it is free (once); later it is
    a movement action on one's turn. The roll is kept for ``+spot``. ``option`` "obscured"
    is aeon's and refused."""

    key = "hide"

    def perform(self, d: Draft, intent: Intent) -> None:
        system = d.system
        if intent.option == "obscured":
            raise CombatError(Line("eldritch.refusal.obscured_aeon_switch_eldritch"))
        actor = require_actor(d, intent)
        turns.require_free(d, actor)
        opening = not d.has_initiative(actor)
        count = used(d, actor)
        if opening:
            if d.conditions_of(actor).get("hid_early"):
                raise CombatError(Line("eldritch.refusal.has_hidden_before_fight", {"actor": d.name(actor)}))
        else:
            turns.require_turn(d, actor)
            system.movement(d.combatant(actor), Line("eldritch.line.move_hide"), count)  # refuses past the limit, out cold, whirling
        seekers = [other for other in d.ids() if other != actor  # the down and the out cold see nothing
                   and not d.health(other).incapacitated and not d.conditions_of(other).get("passed_out")]
        result = system.hide(d.combatant(actor), [d.combatant(other) for other in seekers], d.dice,
                             penalty=0 if opening else system.action_penalty(count))
        if not opening:
            spend(d, actor)
        beaten = [other for other in seekers if d.name(other) in result.hidden_from]
        break_sight(d, actor, beaten)
        d.update_conditions(actor, hidden_from=beaten, hid_early=opening or None,
                            hide_total=result.roll.total if beaten else None, spot_tries=None)
        d.add_log(d.name(actor), Line("eldritch.title.hide_early" if opening else "eldritch.title.hide"),
                  result.lines)
        d.say("eldritch.hide", refs={"actor": actor}, lines=result.lines)
        if not opening:
            turns.announce_turn(d)


class Spot(Action):
    """``+spot <name>``: look for one hiding from the actor (seed, Line of Sight: "If the
    target is hiding, Perception rolls need to be made to have any idea of their presence"):
    Perception + Notice + Ambushes against the hider's kept hiding roll; not lower spots them.
    Looking is no action; one try per hider each turn (and again after they hide anew)."""

    key = "spot"

    def perform(self, d: Draft, intent: Intent) -> None:
        actor, target = require_actor(d, intent), require_target(d, intent)
        if target == actor:
            raise CombatError(Line("eldritch.refusal.you_know_where_you"))
        state = d.conditions_of(target)
        if not hidden_from(d, target, actor):
            raise CombatError(Line("eldritch.refusal.not_hidden_from", {"target": d.name(target), "actor": d.name(actor)}))
        require_seeing(d, actor)
        if actor in (state.get("spot_tries") or []):
            raise CombatError(Line("eldritch.refusal.has_already_looked_for", {"actor": d.name(actor), "target": d.name(target)}))
        sight = d.system.spot(d.combatant(actor), d.name(target), int(state.get("hide_total", 0) or 0), d.dice)
        hidden = [item for item in state.get("hidden_from") or [] if not (sight.established and item == actor)]
        d.update_conditions(target, spot_tries=[*(state.get("spot_tries") or []), actor], hidden_from=hidden)
        d.add_log(d.name(actor), Line("eldritch.title.spot", {"target": d.name(target)}), sight.lines)
        d.say("eldritch.spot", refs={"actor": actor, "target": target}, lines=sight.lines)


# ------------------------------------------------------------- eye contact, sight
def looking(d: Draft, intent: Intent, not_yourself: Line) -> tuple[int, int]:
    """(the one looking, the one looked at) for eye contact and line of sight. Raises
    CombatError (``not_yourself`` at oneself; the down or out cold cannot look)."""
    actor, target = require_actor(d, intent), require_target(d, intent)
    if target == actor:
        raise CombatError(not_yourself)
    require_seeing(d, actor)
    return actor, target


def parse_yards(text: str | None) -> int | None:
    """The distance typed for eye contact, in whole yards (None: not given). Raises CombatError."""
    if text is None:
        return None
    text = text.strip()
    if not text.isascii() or not text.isdigit() or len(text) > 4:
        from rules.text import quote

        raise CombatError(Line("eldritch.refusal.give_distance_whole_yards", {"text": quote(text)}))
    return int(text)


class EyeContact(Action):
    """``+eyecontact <name>[=<yards>]`` (seed: Eye Contact): impossible when the target
    cannot (``data["impaired"]``), is further than 20 yards (``data["yards"]``), or hides
    from the caster; made when the target attacked the caster in their last action; with
    ``data["attention"]`` Willpower + Influence against the target's Willpower doubled; else
    a 30% chance. Not an action."""

    key = "eye_contact"

    def perform(self, d: Draft, intent: Intent) -> None:
        actor, target = looking(d, intent, Line("eldritch.refusal.eye_contact_yourself"))
        yards = parse_yards(intent.data.get("yards"))
        sight = d.system.eye_contact(d.combatant(actor), d.combatant(target), d.dice,
                                     impaired=Line("eldritch.line.blinded") if intent.data.get("impaired") else "",
                                     yards=yards, attacked_last=attacked_last(d, target, actor),
                                     draw_attention=bool(intent.data.get("attention")),
                                     hidden=hidden_from(d, target, actor))
        d.add_log(d.name(actor), Line("eldritch.title.sight_with", {"what": sight.what, "target": d.name(target)}),
                  sight.lines)
        d.say("eldritch.eye_contact", refs={"actor": actor, "target": target}, lines=sight.lines)


class LineOfSight(Action):
    """``+los <name>[/partial]`` (seed: Line of Sight): none to one hiding from the looker
    or behind blank walls, full cover or great distance (``data["blocked"]``); made when the
    target attacked the looker in their prior action, or with nothing in the way; behind
    partial cover (``data["partial"]``) a 50% chance, gained by moving: once the looker has
    initiative, a movement action on their turn."""

    key = "line_of_sight"

    def perform(self, d: Draft, intent: Intent) -> None:
        system = d.system
        actor, target = looking(d, intent, Line("eldritch.refusal.sight_yourself"))
        partial, blocked = bool(intent.data.get("partial")), bool(intent.data.get("blocked"))
        hidden = hidden_from(d, target, actor)
        last = attacked_last(d, target, actor)
        if blocked and in_sight(d, actor, target):
            break_sight(d, actor, [target])   # walls or full cover between them now
        kept = in_sight(d, actor, target)
        moving = partial and not hidden and not blocked and not last and not kept and d.has_initiative(actor)
        movement = None
        if moving:
            turns.require_turn(d, actor)
            turns.require_free(d, actor)
            movement = system.movement(d.combatant(actor), Line("eldritch.line.move_sight", {"target": d.name(target)}),
                                       used(d, actor))
        sight = system.line_of_sight(d.combatant(actor), d.combatant(target), d.dice, hidden=hidden,
                                     blocked=blocked, partial=partial, attacked_last=last, established=kept)
        if sight.established:
            keep_sight(d, actor, target)
        if movement is not None:
            spend(d, actor)
            d.add_log(d.name(actor), Line("eldritch.title.move"), movement.lines)
        d.add_log(d.name(actor), Line("eldritch.title.sight_with", {"what": sight.what, "target": d.name(target)}),
                  sight.lines)
        d.say("eldritch.line_of_sight", refs={"actor": actor, "target": target}, lines=sight.lines)
        if moving:
            turns.announce_turn(d)


# ----------------------------------------------------------------------- movement
def parse_move(text: str) -> tuple[str, str]:
    """``"draw sword"`` -> ("draw", "sword"); a unique prefix of a verb will do. Raises CombatError."""
    words = text.split(None, 1)
    usage = Line("eldritch.refusal.move_how", {"moves": ", ".join(MOVES)})
    if not words:
        raise CombatError(usage)
    found = [verb for verb in MOVES if verb.startswith(words[0].casefold())]
    if len(found) != 1:
        raise CombatError(usage)
    rest = words[1].strip() if len(words) == 2 else ""
    if len(rest) > MAX_MOVE_TEXT:
        raise CombatError(Line("eldritch.refusal.describe_move_at_most", {"max_move_text": MAX_MOVE_TEXT}))
    return found[0], rest


class Move(Action):
    """``+move <verb> [...]`` (seed: Movement actions): on one's turn, spends an action (the
    extra-action penalty applies as to any action). ``draw <weapon>`` puts it in hand (out of
    hiding, if hidden: ``data["concealed"]``, the actor's record, is returned without it),
    ``stand`` gets up from prone, ``release`` lets go of whoever one holds, ``cover`` breaks
    every line of sight made with the mover; the other verbs are posed. Travel (run, go,
    crawl) with a distance first (``run 5 to the door``) is an action only at half the
    mover's Yards/Turn or more; shorter, it spends nothing. Moving up to one whirling a sword
    (``run to <name>``) draws their whirl. Returns the actor's concealed record (None: no
    change)."""

    key = "move"

    def perform(self, d: Draft, intent: Intent) -> dict[str, Any] | None:
        system = d.system
        actor = require_actor(d, intent)
        verb, rest = parse_move(intent.option)
        turns.require_turn(d, actor)
        turns.require_free(d, actor)
        name = d.name(actor)
        stored = dict(intent.data.get("concealed") or {})
        weapon = None
        victims: list[int] = []
        if verb == "draw":
            hidden = concealments(stored, name)
            if not rest and len(hidden) != 1:
                raise CombatError(Line("eldritch.refusal.draw_which_weapon_move"))
            weapon = system.weapon(rest) if rest else system.weapons[hidden[0].weapon]
            what: str | Line = Line("eldritch.line.move_draw", {"weapon": weapon.name})
        elif verb == "stand":
            if not d.conditions_of(actor).get("prone"):
                raise CombatError(Line("eldritch.refusal.not_prone", {"name": name}))
            what = Line("eldritch.line.move_stand")
        elif verb == "cover":
            what = Line("eldritch.line.move_cover_how", {"text": rest}) if rest else Line("eldritch.line.move_cover")
        elif verb == "release":
            victims = [other for other in d.ids() if d.conditions_of(other).get("held_by") == actor]
            if not victims:
                raise CombatError(Line("eldritch.refusal.holds_nobody", {"name": name}))
            what = Line("eldritch.line.move_release", {"names": listed([d.name(other) for other in victims])})
        else:
            what = Line("eldritch.line.move_posed", {"verb": verb, "text": rest}) if rest else verb
        distance = _DISTANCE.match(rest) if verb in TRAVEL else None
        toward = distance.group(2) if distance else rest
        if distance:
            yards = int(distance.group(1))
            where = distance.group(2).strip()
            values = {"verb": verb, "yards": yards, "text": where}
            if yards == 1:
                what = Line("eldritch.line.move_yard_to" if where else "eldritch.line.move_yard", values)
            else:
                what = Line("eldritch.line.move_yards_to" if where else "eldritch.line.move_yards", values)
            movement = system.travel(d.combatant(actor), yards, what, used(d, actor))
        else:
            movement = system.movement(d.combatant(actor), what, used(d, actor))
        if not movement.spends:
            d.add_log(name, Line("eldritch.title.travel"), movement.lines)
            d.say("eldritch.moves", refs={"actor": actor}, lines=movement.lines)
            step_in(d, actor, toward)
            return None
        spend(d, actor)
        record = None
        if weapon is not None:
            d.set_sheet(actor, weapon=weapon.key)
            if stored:
                stored["weapons"] = [item for item in stored.get("weapons", []) if item["weapon"] != weapon.key]
                record = stored if stored["weapons"] else {}
        if verb == "stand":
            d.update_conditions(actor, prone=None)
        if verb == "cover":
            break_sight(d, actor)
        for victim in victims:
            d.update_conditions(victim, held_by=None, by_neck=None, wrestling_hold=None, sleeper_hold=None)
        d.add_log(name, Line("eldritch.title.move"), movement.lines)
        d.say("eldritch.moves", refs={"actor": actor}, lines=movement.lines)
        if not step_in(d, actor, toward):
            turns.announce_turn(d)
        return record


def step_in(d: Draft, actor: int, rest: str) -> bool:
    """``+move run to <name>`` up to a fighter whirling a sword (seed, Whirling Sword: "Anybody
    who steps into range of the whirling sword is attacked"): their whirl attacks the mover
    with the turn's one roll. True when it did (the attack then awaits the mover's defense)."""
    found = _TOWARD.match(rest)
    if not found:
        return False
    wanted = found.group(1).casefold()
    whirler = next((other for other in d.ids() if other != actor and d.name(other).casefold() == wanted), None)
    if whirler is None:
        return False
    whirl = d.system.step_in(d.combatant(whirler), d.combatant(actor))
    if whirl is None:
        return False
    attacks.whirled(d, whirler, actor, whirl)
    return True


# --------------------------------------------------------- maneuvers beyond attack
class AttackMany(Action):
    """``attack <target>,<target>/double jump kick``: one roll, one attack on each, each
    defended on its own (seed: Double Jump Kick). ``option``: the maneuver."""

    key = "attack_many"

    def perform(self, d: Draft, intent: Intent) -> None:
        system = d.system
        actor = require_actor(d, intent)
        targets = list(intent.targets)
        if not targets:
            raise CombatError(Line("eldritch.refusal.name_each_target_once"))
        for target in targets:   # oneself, one hiding from the attacker, the dead
            attacks.require_target(d, actor, target)
        turns.require_turn(d, actor)
        turns.require_free(d, actor)
        system.difficulty_adjustable(intent.option, d.combatant(actor))  # an unknown option fails here
        mods = d.modifiers_for(actor)
        rolled = system.attack_many(d.combatant(actor), [d.combatant(target) for target in targets], intent.option,
                                    d.dice, modifier=mods.difficulty, dice_modifier=mods.dice)
        d.use_modifiers(actor)
        spend(d, actor)
        d.update_conditions(actor, hidden_from=None, last_attack=targets)
        d.add_log(d.name(actor), Line("eldritch.title.attack_at_targets", {
                      "label": rolled[0].label, "targets": listed([d.name(target) for target in targets])}),
                  [rolled[0].describe(), *mods.notes])
        for target, attack in zip(targets, rolled, strict=True):
            whirl = system.step_in(d.combatant(target), d.combatant(actor), attack)
            if whirl is not None:   # kicking into a whirling sword draws it, as any hand-to-hand attack
                attacks.whirled(d, target, actor, whirl)
            attacks.deliver(d, actor, target, attack)


class Sacrifice(Action):
    """``+sacrifice <name>``: throw oneself between the attack waiting on ``name`` and them
    (seed: Sacrifice). Needs the maneuver and a higher initiative than the attacker this
    turn; a parry or Ranged Deflection at -3. More SLs than the attack: parried for them; a
    success: the sacrificer takes the hit, all its SLs; a failure: ``name`` must still
    defend. It counts as one of the sacrificer's defenses this turn."""

    key = "sacrifice"

    def perform(self, d: Draft, intent: Intent) -> None:
        actor, target = require_actor(d, intent), require_target(d, intent)
        pending = attacks.pending_for(d, target)
        attacker = pending.attacker
        rolled = d.attack_of(pending.attack)

        def initiative(fighter_id: int) -> int | None:
            record = d.initiative.get(fighter_id)
            return int(record["total"]) if record else None

        mods = d.modifiers_for(actor, adjustable=False)
        defense = d.system.sacrifice(rolled, d.combatant(actor), d.dice, initiative=initiative(actor),
                                     attacker_initiative=initiative(attacker), modifier=mods.difficulty,
                                     dice_modifier=mods.dice)
        d.use_modifiers(actor, adjustable=False)
        d.update_conditions(actor, defenses_used=int(d.conditions_of(actor).get("defenses_used", 0)) + 1)
        if defense.outcome == "failed":
            lines = [roll_of(d.name(actor), defense),
                     Line("eldritch.line.sacrifice_failed", {"target": d.name(target)})]
            d.add_log(d.name(actor), Line("eldritch.title.sacrifice_for", {"target": d.name(target)}), lines)
            d.say("eldritch.sacrifice", refs={"actor": actor, "attacker": attacker, "target": target}, lines=lines)
            d.tell_controller(target, "eldritch.still_defend",
                              values={"target": d.name(target), "attacker": d.name(attacker)})
            return
        attacks.close(d, pending)
        victim = actor if defense.outcome == "takes" else target
        attacks.finish(d, attacker, victim, rolled, defense, list(mods.notes))


class Wake(Action):
    """``+wake <name>``: medical attention or smelling salts bring round one out cold (seed:
    Sleeper Hold). A fighter on their turn, spending an action; the game master at any time
    (no ``actor``; ``data["by_name"]`` their name)."""

    key = "wake"

    def perform(self, d: Draft, intent: Intent) -> None:
        target = require_target(d, intent)
        if not d.conditions_of(target).get("passed_out"):
            raise CombatError(Line("eldritch.refusal.not_out_cold", {"target": d.name(target)}))
        actor = intent.actor
        if actor is None:
            d.require_gm("wake someone at any time")
            who, who_id = str(intent.data.get("by_name", "")), intent.by
        else:
            actor = require_actor(d, intent)
            if actor == target:
                raise CombatError(Line("eldritch.refusal.out_cold_someone_else", {"actor": d.name(actor)}))
            turns.require_turn(d, actor)
            turns.require_free(d, actor)
            d.system.movement(d.combatant(actor), Line("eldritch.line.move_wake", {"target": d.name(target)}), used(d, actor))
            spend(d, actor)
            who, who_id = d.name(actor), actor
        d.update_conditions(target, passed_out=None)
        d.add_log(who, Line("eldritch.title.wake", {"target": d.name(target)}), [Line("eldritch.line.brings_round", {"who": who, "target": d.name(target)})])
        d.say("eldritch.wake", refs={"who": who_id, "target": target})
        if actor is not None:
            turns.announce_turn(d)


class DramaPoint(Action):
    """``+drama``: spend a Drama Point on the next defense (seed: Damaging Block against a
    weapon). Fray does not count Drama Points: the Storyteller does."""

    key = "drama"

    def perform(self, d: Draft, intent: Intent) -> None:
        actor = require_actor(d, intent)
        if d.conditions_of(actor).get("drama_point"):
            raise CombatError(Line("eldritch.refusal.has_already_spent_drama", {"actor": d.name(actor)}))
        d.update_conditions(actor, drama_point=True)
        d.add_log(d.name(actor), Line("eldritch.title.drama_point"), [Line("eldritch.line.spends_drama", {"actor": d.name(actor)})])
        d.say("eldritch.drama", refs={"actor": actor})


#: The eldritch fight's actions, by key.
ACTIONS: Mapping[str, Action] = {**STANDARD, **{action.key: action for action in (
    Conceal(), Search(), Space(), Hide(), Spot(), EyeContact(), LineOfSight(), Move(), AttackMany(), Sacrifice(),
    Wake(), DramaPoint(),
)}}
