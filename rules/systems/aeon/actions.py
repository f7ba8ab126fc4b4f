"""The aeon fight's actions: the shared ones (``rules.engine.actions.STANDARD``) and aeon's own
(the aeon seed: Surprise Attacks, Grappling, Mounted Combat, Disarming, Baselines' bleeding;
Trinity's multiple actions; ``docs/rules/aeon.md``): ``+combat/split``, ``ambush``, ``hide``,
``clinch`` and ``clinch/plan``, ``+mount`` and ``+dismount``, ``pickup`` and ``+combat/treat``;
and the mount's Ride roll that comes before a rider's action on its turn (:func:`ride`, the
system's ``before_turn``).

The dice and effects are in ``rules.systems.aeon.tactics`` and the system; here is whose turn
it is, what the fight keeps (the fighter's conditions: ``split``, ``ridden``, ``contested``,
``mount``, ``clinch_plan``, ``ambushed``, ``treated`` …) and what the room is told (message
keys ``aeon.*``, ``world/messages/aeon.toml``). Every action raises ``CombatError`` (one
player-facing line) before any die when it refuses; the step then keeps nothing.
"""

from __future__ import annotations

from rules.engine import attacks, splits, turns
from rules.engine.actions import STANDARD, Action, require_actor, require_target
from rules.engine.draft import Draft
from rules.engine.intents import Intent
from rules.lines import Line
from rules.systems.aeon.tactics import Mount
from rules.systems.base import CombatError
from rules.text import quote

CLINCH_CHOICES = ("hold", "crush", "break", "decline")
THROWS = ("release", "ground", "throw")
DEFAULT_CLINCH_PLAN = "hold"


# ------------------------------------------------------------------------- the Ride roll
def doing(what: str) -> Line | str:
    """What a rider's turn was for (``what``: ``"attack"``, ``"pick-up"`` …) as a line's value."""
    return (Line("aeon.line.doing_attack") if what == "attack" else Line("aeon.line.doing_ambush") if what == "ambush"
            else Line("aeon.line.doing_hiding") if what == "hiding"
            else Line("aeon.line.doing_clinch") if what == "clinch contest"
            else Line("aeon.line.doing_pick_up") if what == "pick-up"
            else Line("aeon.line.doing_treating") if what == "treating" else what)


def ride(d: Draft, actor: int, what: str) -> tuple[bool, tuple[Line, ...]]:
    """The Ride roll a mount whose Control Rating is above the rider's Ride needs every turn
    before the rider acts, whatever it does (seed: Mounted Combat: "spend a dice action on a
    Ride roll every turn"): once a round, before the rider's first action on its turn, spending
    one dice action with the split penalty. A rider who declared no split is counted as taking
    one more action (2: the Ride roll at -2, the ``what`` at -3) and told. Returns (the rider
    goes on with ``what``, the lines). On a failure (loss of control), or when the Ride roll
    took the last action, the rest of the turn is lost: every declared action is spent, the
    slot is used, and the room is told here; the caller then only announces the turn."""
    state = d.conditions_of(actor)
    system = d.system
    if not state.get("mount") or state.get("ridden"):
        return True, ()
    tactics, rules = system.tactics, system.multiple_actions
    mount = Mount.from_record(state["mount"])
    if not tactics.needs_control_roll(d.combatant(actor), mount):
        return True, ()
    at = turns.current_slot(d)[0]
    name = d.name(actor)
    lines: list[Line] = []
    if splits.declared(d, actor) < 2:
        first, then = rules.penalties(2)
        lines.append(Line("aeon.line.counted_two", {"name": name, "first": first, "what": doing(what), "then": then}))
        d.update_conditions(actor, split=2)
    kept, rolled = tactics.control_roll(splits.acting(d, actor), mount, d.dice)
    lines.extend(rolled)
    d.update_conditions(actor, ridden=True)
    remaining = splits.spend(d, actor)
    if kept and remaining:
        return True, tuple(lines)
    d.update_conditions(actor, actions_used=splits.declared(d, actor))
    splits.end_turn(d, actor, at)
    lines.append(Line("aeon.line.no_action_left" if kept else "aeon.line.no_doing", {"name": name, "what": doing(what)}))
    d.add_log(name, Line("aeon.title.ride_for", {"what": what}), lines)
    d.say("aeon.ride.lost", refs={"actor": actor}, lines=lines)
    return False, tuple(lines)


def before_action(d: Draft, actor: int, what: str) -> tuple[bool, tuple[Line, ...]]:
    """The system's ``before_turn`` (the Ride roll); a lost turn is announced (whose turn it
    is now) and (False, lines) returned: the caller does nothing more."""
    going, lines = d.system.before_turn(d, actor, what)
    if not going:
        turns.announce_turn(d)
    return going, lines


# ------------------------------------------------------------------ multiple actions
class Split(Action):
    """``+combat/split [<npc>=]<n>``: ``n`` actions this round (Trinity's multiple actions; the
    seed: "actions may be split as normal"), before the fighter's first action of the round; 1
    takes back a split. The first action loses n dice, each later one 1 more
    (``rules.systems.aeon.multiple``). ``option``: the number typed."""

    key = "split"

    def perform(self, d: Draft, intent: Intent) -> int:
        rules = d.system.multiple_actions
        actor = require_actor(d, intent)
        digits = intent.option.strip()
        if not digits.isascii() or not digits.isdigit() or len(digits) > 3:
            raise CombatError(Line("aeon.refusal.give_number_actions_combat", {"rules_max_actions": rules.max_actions}))
        count = rules.check_declared(int(digits))
        turns.require_able(d, actor)
        name = d.name(actor)
        state = d.conditions_of(actor)
        if state.get("actions_used") or state.get("ridden") or turns.has_acted(d, actor):
            raise CombatError(Line("aeon.refusal.has_already_acted_this_round_actions", {"name": name}))
        if count == 1 and not state.get("split"):
            raise CombatError(Line("aeon.refusal.has_one_action_already", {"name": name}))
        if count == splits.declared(d, actor):
            raise CombatError(Line("aeon.refusal.has_already_declared_actions", {"name": name, "count": count}))
        d.update_conditions(actor, split=count if count > 1 else None)
        line = (Line("aeon.line.declares", {"name": name, "actions": rules.describe(count)}) if count > 1 else Line("aeon.line.takes_back", {"name": name}))
        d.add_log(name, Line("aeon.title.split"), [line])
        d.say("aeon.split", refs={"actor": actor}, lines=[line])
        return count


# ------------------------------------------------------------------------ surprise, hiding
class Ambush(Action):
    """``ambush <target>[/<option>]``: a surprise attack, before rolling initiative (it opens
    the fight: a free attack) or on one's turn against someone who lost track of a hider.
    Dexterity + Stealth (+ the attacker's ``+combat/mod`` dice: invisibility, camouflage …)
    against Wits + Awareness (+ the target's ``+combat/mod`` dice, -2..+1, its preparedness);
    if the attacker wins, the target cannot defend. ``option``: the weapon and called shots;
    ``data["plain"]``: from plain sight (+2 difficulty)."""

    key = "ambush"

    def perform(self, d: Draft, intent: Intent) -> None:
        system = d.system
        actor, target = require_actor(d, intent), require_target(d, intent)
        if target == actor:
            raise CombatError(Line("refusal.you_cannot_attack_yourself"))
        name, target_name = d.name(actor), d.name(target)
        state = d.conditions_of(actor)
        opening = not d.has_initiative(actor)
        if opening and state.get("ambushed"):
            raise CombatError(Line("aeon.refusal.has_already_made_opening", {"name": name}))
        if not opening:
            if target not in (state.get("hidden_from") or []):
                raise CombatError(Line("aeon.refusal.knows_where_ambush_before", {"target_name": target_name, "name": name}))
            turns.require_turn(d, actor)
        turns.require_free(d, actor)
        if d.health(target).dead:
            raise CombatError(Line("aeon.refusal.already_dead_named", {"target_name": target_name}))
        system.difficulty_adjustable(intent.option, d.combatant(actor))  # an unknown option fails here
        ridden: tuple[Line, ...] = ()
        if not opening:
            going, ridden = before_action(d, actor, "ambush")
            if not going:
                return
        readiness = d.modifiers_for(target, adjustable=False).dice
        # Invisibility, camouflage and the like: the game master's +combat/mod dice on the
        # ambusher go to its Stealth roll (seed: Surprise Attacks), used up there unless kept.
        cover = d.modifiers_for(actor, adjustable=False).dice
        result = system.tactics.surprise(d.combatant(actor) if opening else splits.acting(d, actor),
                                         d.combatant(target), d.dice, target_dice=readiness,
                                         plain_sight=bool(intent.data.get("plain")), attacker_dice=cover)
        if readiness:
            d.use_modifiers(target, adjustable=False)
        if cover:
            d.use_modifiers(actor, adjustable=False)
        if opening:
            d.update_conditions(actor, ambushed=True)
        told = (*ridden, *result.lines)
        d.add_log(name, Line("aeon.title.surprise", {"target": target_name}), told)
        attacks.strike(d, actor, target, intent.option, use_turn=not opening, defendable=not result.attacker_wins,
                       notes=told)


class Hide(Action):
    """``hide``: on one's turn, Dexterity + Stealth (+2 difficulty with witnesses, +2 automatic
    successes when ``option`` is ``obscured``); each other fighter able to see rolls Wits +
    Awareness, and those who fail lose track (the hider may ambush them)."""

    key = "hide"

    def perform(self, d: Draft, intent: Intent) -> None:
        actor = require_actor(d, intent)
        turns.require_turn(d, actor)
        turns.require_free(d, actor)
        witnesses = [other for other in d.ids() if other != actor and not d.health(other).incapacitated]
        going, ridden = before_action(d, actor, "hiding")
        if not going:
            return
        mods = d.modifiers_for(actor, adjustable=False)
        result = d.system.tactics.hide(splits.acting(d, actor), [d.combatant(other) for other in witnesses], d.dice,
                                       obscured=intent.option == "obscured", dice_modifier=mods.dice)
        d.use_modifiers(actor, adjustable=False)
        turns.use_turn(d, actor)
        lost = [other for other in witnesses if d.name(other) in result.lost_by]
        d.update_conditions(actor, hidden_from=lost)
        lines = (*ridden, *result.lines)
        d.add_log(d.name(actor), Line("aeon.title.hide"), lines)
        d.say("aeon.hide", refs={"actor": actor}, lines=lines)
        turns.announce_turn(d)


# ------------------------------------------------------------------------------- clinch
def parse_clinch_choice(text: str) -> tuple[str, str]:
    """``"break throw"`` → ("break", "throw"); prefixes allowed. Raises CombatError."""
    words = text.casefold().split()
    usage = Line("aeon.refusal.clinch_usage")
    if not words or len(words) > 2:
        raise CombatError(usage)
    choice = _one(words[0], CLINCH_CHOICES, usage)
    throw = _one(words[1], THROWS, usage) if len(words) == 2 else ""
    if throw and choice != "break":
        raise CombatError(Line("aeon.refusal.only_break_takes", {"throw": throw, "usage": usage}))
    return choice, throw


def _one(word: str, choices: tuple[str, ...], usage: str) -> str:
    found = [choice for choice in choices if choice.startswith(word)]
    if len(found) != 1:
        raise CombatError(usage)
    return found[0]


class Clinch(Action):
    """``clinch <hold|crush|break [release|ground|throw]|decline>`` (``option``): on one's turn
    in a clinch, both roll for control (the partner's plan answers for them and the contest
    uses their next action this round; one with no action left declines). The controller's
    choice is applied; both declining ends the clinch. Control is won anew each turn, from the
    turn after the clinch began (its first turn's control is settled as it begins)."""

    key = "clinch"

    def perform(self, d: Draft, intent: Intent) -> None:
        system = d.system
        tactics = system.tactics
        actor = require_actor(d, intent)
        partner = d.conditions_of(actor).get("clinch_with")
        if partner is None or not d.has(partner):
            raise CombatError(Line("aeon.refusal.not_clinch_attack_target", {"actor": d.name(actor)}))
        choice, throw = parse_clinch_choice(intent.option)
        turns.require_turn(d, actor)
        if d.conditions_of(actor).get("clinch_first"):
            # seed: the attacker (or the winner of an accepted clinch's roll) controls the
            # first turn: no contest in it; the action goes by
            turns.use_turn(d, actor)
            line = Line("aeon.line.clinch_settled")
            d.add_log(d.name(actor), Line("aeon.title.clinch", {"partner": d.name(partner)}), [line])
            d.say("aeon.clinch.first_turn", refs={"actor": actor, "partner": partner}, lines=[line])
            turns.announce_turn(d)
            return
        going, ridden = before_action(d, actor, "clinch contest")
        if not going:
            return
        plan, plan_throw = parse_clinch_choice(d.conditions_of(partner).get("clinch_plan") or DEFAULT_CLINCH_PLAN)
        partner_left = splits.left(d, partner)
        partner_declines = plan == "decline" or (not turns.open_actions(d, partner) if partner_left is None
                                                 else not partner_left)
        actor_dice = d.modifiers_for(actor, adjustable=False).dice if choice != "decline" else 0
        partner_dice = d.modifiers_for(partner, adjustable=False).dice if not partner_declines else 0
        # seed (Mounted Combat): "all offensive and defensive Abilities used while mounted" are
        # capped by Ride: every turn's control roll too
        contest = tactics.contest(system.as_fighting(splits.acting(d, actor)),
                                  system.as_fighting(splits.acting(d, partner, strict=False)), d.dice,
                                  first_declines=choice == "decline", second_declines=partner_declines,
                                  first_dice=actor_dice, second_dice=partner_dice)
        turns.use_turn(d, actor)
        for fighter, rolled in ((actor, choice != "decline"), (partner, not partner_declines)):
            if rolled:
                d.use_modifiers(fighter, adjustable=False)
        if not partner_declines:
            turns.use_action(d, partner)
        lines = [*ridden, *contest.lines]
        for fighter in (actor, partner):
            d.update_conditions(fighter, held_by=None)
        # Having contested control this round, split actions left may do other things.
        d.update_conditions(actor, contested=True)
        if not partner_declines:
            d.update_conditions(partner, contested=True)
        if contest.ended:
            attacks.release(d, actor)
        elif contest.controller:
            controller, victim = (actor, partner) if contest.controller == d.name(actor) else (partner, actor)
            option, how = (choice, throw) if controller == actor else (plan, plan_throw)
            outcome = tactics.control(option, d.combatant(controller), d.combatant(victim), contest.net, d.dice,
                                      throw=how)
            attacks.apply_resolution(d, outcome)
            lines.extend(outcome.lines)
        d.add_log(d.name(actor), Line("aeon.title.clinch", {"partner": d.name(partner)}), lines)
        d.say("aeon.clinch.struggle", refs={"actor": actor, "partner": partner}, lines=lines)
        turns.announce_turn(d)


class ClinchPlan(Action):
    """``clinch/plan <choice>`` (``option``): what the fighter does if it wins control on its
    partner's turn (default hold); ``decline`` lets the contest go. Set before a clinch, it is
    also what it does if it accepts one and wins its first turn (seed: Grappling). Told to the
    one who set it."""

    key = "clinch_plan"

    def perform(self, d: Draft, intent: Intent) -> None:
        actor = require_actor(d, intent)
        choice, throw = parse_clinch_choice(intent.option)
        plan = " ".join(filter(None, (choice, throw)))
        d.update_conditions(actor, clinch_plan=plan)
        d.tell(intent.by, "aeon.clinch.plan", values={"name": d.name(actor), "plan": plan}, about=actor)


# -------------------------------------------------------------------------------- mounts
class MountUp(Action):
    """``+mount <mount>[/<control rating>]`` (``option``): ride into the fight (no action)."""

    key = "mount"

    def perform(self, d: Draft, intent: Intent) -> None:
        tactics = d.system.tactics
        actor = require_actor(d, intent)
        name, _, control_text = intent.option.partition("/")
        control = None
        if control_text.strip():
            digits = control_text.strip()
            if not digits.isascii() or not digits.isdigit() or len(digits) > 2:
                raise CombatError(Line("aeon.refusal.control_rating_whole_number", {"digits": quote(digits)}))
            control = int(digits)
        ridden = tactics.mount(name, control)
        state = d.conditions_of(actor)
        if state.get("mount"):
            raise CombatError(Line("aeon.refusal.already_mounted_dismount_first", {"actor": d.name(actor)}))
        if state.get("clinch_with"):
            raise CombatError(Line("aeon.refusal.clinch_cannot_mount", {"actor": d.name(actor)}))
        d.update_conditions(actor, mount=ridden.to_record(), hidden_from=None)   # a rider is seen
        rider = d.combatant(actor)
        needs = tactics.needs_control_roll(rider, ridden)
        d.say("aeon.mount.mounted", refs={"actor": actor}, values={"mount": ridden.name},
              lines=[Line("aeon.line.mount_needs_roll" if needs else "aeon.line.mount_no_roll", {
                  "control": ridden.control, "size": ridden.size, "trait": tactics.ride_trait,
                  "ride": rider.trait(tactics.ride_trait)})])


class Dismount(Action):
    """``+dismount``: get down (no action). Refused on foot."""

    key = "dismount"

    def perform(self, d: Draft, intent: Intent) -> None:
        actor = require_actor(d, intent)
        if not d.conditions_of(actor).get("mount"):
            raise CombatError(Line("aeon.refusal.foot", {"actor": d.name(actor)}))
        d.update_conditions(actor, mount=None)
        d.say("aeon.mount.dismounted", refs={"actor": actor})


# ------------------------------------------------------------------- weapons, bleeding
class PickUp(Action):
    """``pickup [<weapon or its owner>]`` (``option``): on one's turn, Dexterity + the weapon's
    Ability, 1 success needed (seed: Disarming); success puts it in hand (the weapon held
    before is dropped)."""

    key = "pick_up"

    def perform(self, d: Draft, intent: Intent) -> None:
        system = d.system
        actor = require_actor(d, intent)
        if not d.dropped:
            raise CombatError(Line("aeon.refusal.no_weapon_lies_ground"))
        wanted = intent.option.strip().casefold()
        found = [item for item in d.dropped if not wanted or item["weapon"].startswith(wanted)
                 or item["owner"].casefold().startswith(wanted)]
        if not found:
            raise CombatError(Line("aeon.refusal.no_dropped_weapon", {
                "wanted": quote(intent.option.strip()),
                "ground": tuple(Line("aeon.line.owners_weapon", {"owner": item["owner"], "weapon": item["weapon"]})
                                for item in d.dropped)}))
        item = found[0]
        turns.require_turn(d, actor)
        turns.require_free(d, actor)
        going, ridden = before_action(d, actor, "pick-up")
        if not going:
            return
        name = d.name(actor)
        mods = d.modifiers_for(actor, adjustable=False)
        success, rolled = system.pick_up(splits.acting(d, actor), item["weapon"], d.dice, mods.dice)
        lines = [*ridden, *rolled]
        d.use_modifiers(actor, adjustable=False)
        turns.use_turn(d, actor)
        if success:
            d.dropped.remove(item)
            held = d.sheet(actor).weapon
            if held:
                d.dropped.append({"weapon": held, "owner": name, "feet": 0})
                lines.append(Line("aeon.line.drops", {"name": name, "weapon": held}))
            d.set_sheet(actor, weapon=item["weapon"])
        d.add_log(name, Line("aeon.title.pick_up"), lines)
        d.say("aeon.pick_up", refs={"actor": actor},
              values={"weapon": Line("aeon.line.owners_weapon", {"owner": item["owner"], "weapon": item["weapon"]})},
              lines=lines)
        turns.announce_turn(d)


class Treat(Action):
    """``+combat/treat <name>`` (``targets``): stop a bleeding wound. The game master or staff
    at any time (``fiat``, no actor); a fighter on its turn, spending the action (Fray default:
    no roll; the source names none)."""

    key = "treat"

    def perform(self, d: Draft, intent: Intent) -> None:
        system = d.system
        target = require_target(d, intent)
        target_name = d.name(target)
        if d.conditions_of(target).get("treated"):
            raise CombatError(Line("aeon.refusal.wounds_already_treated", {"target_name": target_name}))
        fighter = d.combatant(target)
        if not system.bleeds(system.health(fighter.health, fighter), fighter):
            raise CombatError(Line("aeon.refusal.not_bleeding", {"target_name": target_name}))
        by_gm = intent.fiat
        who = str(intent.data.get("by_name", ""))
        if not by_gm:
            actor = require_actor(d, intent)
            who = d.name(actor)
            turns.require_turn(d, actor)
            turns.require_free(d, actor)
            going, ridden = before_action(d, actor, "treating")
            if not going:
                return
            if ridden:
                d.add_log(who, Line("aeon.title.ride"), ridden)
            turns.use_turn(d, actor)
        d.update_conditions(target, treated=True, bleeding_since=None)
        d.add_log(who, Line("aeon.title.treat", {"target": target_name}), [Line("aeon.line.treated", {"name": target_name})])
        d.say("aeon.treat", actor=intent.by, refs={"target": target})
        if not by_gm:
            turns.announce_turn(d)


#: The actions of an aeon fight, by key.
ACTIONS = {**STANDARD, **{action.key: action for action in (
    Split(), Ambush(), Hide(), Clinch(), ClinchPlan(), MountUp(), Dismount(), PickUp(), Treat(),
)}}
