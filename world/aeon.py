"""The aeon fight's own actions: ambush and hide, the clinch, mounts, picking a weapon up,
treating a bleeding wound (the aeon seed: Surprise Attacks, Grappling, Mounted Combat, Disarming,
Baselines' bleeding; ``docs/rules/aeon.md``).

The dice and effects are in ``rules.systems.aeon.tactics``; this module checks whose turn it
is, stores the states on the encounter (``conditions``) and tells the room. Every function
raises ``CombatError`` (one player-facing line) and changes nothing when it refuses.
"""

from __future__ import annotations

from rules.systems import CombatError
from world import dice, fights, split_actions
from world.encounters import (
    actor_for,
    add_log,
    announce,
    announce_turn,
    apply_resolution,
    combatant,
    conditions_of,
    current_slot,
    dropped_weapons,
    fighters,
    find_combatant,
    has_acted,
    has_initiative,
    health_of,
    is_storyteller,
    modifiers_for,
    open_actions,
    release,
    require_encounter,
    require_free,
    require_turn,
    strike,
    system_of,
    update_conditions,
    use_action,
    use_modifiers,
)
from world.sheets import update_sheet, weapon_of
from world.text import escape, escape_for_room, quote

CLINCH_CHOICES = ("hold", "crush", "break", "decline")
THROWS = ("release", "ground", "throw")
DEFAULT_CLINCH_PLAN = "hold"


def tactics_of(encounter, what: str):
    """The fight's grappling, surprise and mount rules. Raises CombatError when its system has none."""
    system = system_of(encounter)
    tactics = getattr(system, "tactics", None)
    if tactics is None:
        raise CombatError(f"The {system.key} rules have no {what}.")
    return tactics


def _turn_action(encounter, actor) -> None:
    use_action(encounter, actor, current_slot(encounter)[0])


def _ride_check(encounter, actor, what: str) -> tuple[bool, tuple[str, ...]]:
    """The Ride roll a mount whose Control Rating is above the rider's Ride needs every turn
    before the rider acts, whatever it does (seed: Mounted Combat): once a round, the first
    action of the rider's turn, spending a dice action (``world.split_actions.ride``).
    Returns (the rider goes on, lines). Losing control loses the rest of the turn and tells
    the room; the caller then does nothing more."""
    going, lines = split_actions.ride(encounter, actor, what, current_slot(encounter)[0])
    if not going:
        split_actions.lost_turn(encounter, actor, what, lines)
        announce_turn(encounter)
    return going, lines


# ------------------------------------------------------------------ multiple actions
def declare_actions(caller, actor_name: str | None, text: str) -> int:
    """``+combat/split [<npc>=]<n>``: ``n`` actions this round (Trinity's multiple actions; the
    seed: "actions may be split as normal"), before the fighter's first action of the
    round; 1 takes back a split. The first action loses n dice, each later one 1 more
    (``rules.systems.aeon.multiple``). Raises CombatError."""
    encounter = require_encounter(caller)
    system = system_of(encounter)
    rules = split_actions.rules_of(system)
    if rules is None:
        raise CombatError(f"The {system.key} rules have no split actions.")
    actor = actor_for(caller, encounter, actor_name)
    digits = text.strip()
    if not digits.isascii() or not digits.isdigit() or len(digits) > 3:
        raise CombatError(f"Give the number of actions, 1 to {rules.max_actions}: +combat/split 2")
    count = rules.check_declared(int(digits))
    system.require_able(combatant(encounter, actor, system))
    state = conditions_of(encounter, actor)
    if state.get("actions_used") or state.get("ridden") or has_acted(encounter, actor):
        raise CombatError(f"{actor.key} has already acted this round: actions are split before the first.")
    if count == 1 and not state.get("split"):
        raise CombatError(f"{actor.key} has one action already: there is no split to take back.")
    if count == split_actions.declared(encounter, actor):
        raise CombatError(f"{actor.key} has already declared {count} actions.")
    update_conditions(encounter, actor, split=count if count > 1 else None)
    line = (f"{actor.key} declares {rules.describe(count)}." if count > 1
            else f"{actor.key} takes back the split: one action, no penalty.")
    add_log(encounter, actor.key, "split actions", [line])
    announce(encounter, "{actor} splits the round's actions.", mapping={"actor": actor}, lines=[line])
    return count


# ------------------------------------------------------------------------ surprise, hiding
def ambush(caller, actor_name: str | None, target_name: str, option: str, *, plain_sight: bool) -> None:
    """``ambush <target>[/<option>]``: a surprise attack, before rolling initiative (it opens
    the fight: a free attack) or on one's turn against someone who lost track of a hider.
    Dexterity + Stealth (+ the attacker's ``+combat/mod`` dice: invisibility, camouflage …)
    against Wits + Awareness (+ the target's ``+combat/mod`` dice, -2..+1, its preparedness);
    if the attacker wins, the target cannot defend."""
    encounter = require_encounter(caller)
    tactics = tactics_of(encounter, "surprise attacks")
    actor = actor_for(caller, encounter, actor_name)
    target = find_combatant(encounter, target_name)
    if target == actor:
        raise CombatError("You cannot attack yourself.")
    state = conditions_of(encounter, actor)
    opening = not has_initiative(encounter, actor)
    if opening and state.get("ambushed"):
        raise CombatError(f"{actor.key} has already made an opening ambush: roll initiative (+combat/init).")
    if not opening:
        if target.id not in (state.get("hidden_from") or []):
            raise CombatError(f"{target.key} knows where {actor.key} is: ambush before rolling "
                              "initiative, or hide first.")
        require_turn(encounter, actor)
    require_free(encounter, actor)
    system = system_of(encounter)
    if health_of(encounter, target, system).dead:
        raise CombatError(f"{target.key} is already dead.")
    system.difficulty_adjustable(option, combatant(encounter, actor, system))  # an unknown option fails here
    if not opening:
        going, ride = _ride_check(encounter, actor, "ambush")
        if not going:
            return
    readiness = modifiers_for(encounter, target, adjustable=False).dice
    # Invisibility, camouflage and the like: the ST's +combat/mod dice on the ambusher go to
    # its Stealth roll (seed: Surprise Attacks), used up there unless kept.
    cover = modifiers_for(encounter, actor, adjustable=False).dice
    with dice.roller(encounter) as roller:
        result = tactics.surprise(split_actions.acting(encounter, actor, system) if not opening
                                  else combatant(encounter, actor, system), combatant(encounter, target, system),
                                  roller, target_dice=readiness, plain_sight=plain_sight, attacker_dice=cover)
    if readiness:
        use_modifiers(encounter, target, adjustable=False, difficulty=False)
    if cover:
        use_modifiers(encounter, actor, adjustable=False, difficulty=False)
    if opening:
        update_conditions(encounter, actor, ambushed=True)
    told = (*ride, *result.lines) if not opening else result.lines
    add_log(encounter, actor.key, f"surprise on {target.key}", told)
    strike(encounter, actor, target, option, use_turn=not opening, defendable=not result.attacker_wins,
           notes=told)


def hide(caller, actor_name: str | None, *, obscured: bool) -> None:
    """``hide``: on one's turn, Dexterity + Stealth (+2 difficulty with witnesses, +2 automatic
    successes when ``obscured``); each other fighter able to see rolls Wits + Awareness, and
    those who fail lose track (the hider may ambush them)."""
    encounter = require_encounter(caller)
    tactics = tactics_of(encounter, "hiding")
    actor = actor_for(caller, encounter, actor_name)
    require_turn(encounter, actor)
    require_free(encounter, actor)
    system = system_of(encounter)
    witnesses = [obj for obj in fighters(encounter) if obj != actor
                 and not health_of(encounter, obj, system).incapacitated]
    kept, ride = _ride_check(encounter, actor, "hiding")
    if not kept:
        return
    mods = modifiers_for(encounter, actor, adjustable=False)
    with dice.roller(encounter) as roller:
        result = tactics.hide(split_actions.acting(encounter, actor, system),
                              [combatant(encounter, obj, system) for obj in witnesses], roller, obscured=obscured,
                              dice_modifier=mods.dice)
    use_modifiers(encounter, actor, adjustable=False, difficulty=False)
    _turn_action(encounter, actor)
    lost = [obj.id for obj in witnesses if obj.key in result.lost_by]
    update_conditions(encounter, actor, hidden_from=lost)
    add_log(encounter, actor.key, "hide", (*ride, *result.lines))
    announce(encounter, "{actor} tries to hide.", mapping={"actor": actor}, lines=(*ride, *result.lines))
    announce_turn(encounter)


# ------------------------------------------------------------------------------- clinch
def parse_clinch_choice(text: str) -> tuple[str, str]:
    """``"break throw"`` → ("break", "throw"); prefixes allowed. Raises CombatError."""
    words = text.casefold().split()
    usage = "Choose hold, crush, break [release|ground|throw] or decline."
    if not words or len(words) > 2:
        raise CombatError(usage)
    choice = _one(words[0], CLINCH_CHOICES, usage)
    throw = _one(words[1], THROWS, usage) if len(words) == 2 else ""
    if throw and choice != "break":
        raise CombatError(f"Only break takes {throw}: {usage}")
    return choice, throw


def _one(word: str, choices: tuple[str, ...], usage: str) -> str:
    found = [choice for choice in choices if choice.startswith(word)]
    if len(found) != 1:
        raise CombatError(usage)
    return found[0]


def _partner(encounter, actor):
    partner_id = conditions_of(encounter, actor).get("clinch_with")
    partner = next((obj for obj in fighters(encounter) if obj.id == partner_id), None)
    if partner is None:
        raise CombatError(f"{actor.key} is not in a clinch (attack <target>/clinch starts one).")
    return partner


def clinch_plan(caller, actor_name: str | None, text: str) -> None:
    """``clinch/plan <choice>``: what you do if you win control on your partner's turn
    (default hold); ``decline`` lets the contest go. Set before a clinch, it is also what you
    do if you accept one and win its first turn (seed: Grappling)."""
    encounter = require_encounter(caller)
    tactics_of(encounter, "clinches")
    actor = actor_for(caller, encounter, actor_name)
    choice, throw = parse_clinch_choice(text)
    update_conditions(encounter, actor, clinch_plan=" ".join(filter(None, (choice, throw))))
    fights.emit(encounter, "notice", to=caller, text=escape(
        f"If {actor.key} wins control on the other's turn: {choice}{' ' + throw if throw else ''}."))


def clinch(caller, actor_name: str | None, text: str) -> None:
    """``clinch <hold|crush|break [release|ground|throw]|decline>``: on one's turn in a clinch,
    both roll for control (the partner's plan answers for them and the contest uses their
    next action this round; one with no action left declines). The controller's choice is
    applied; both declining ends the clinch. Control is won anew each turn."""
    encounter = require_encounter(caller)
    tactics = tactics_of(encounter, "clinches")
    actor = actor_for(caller, encounter, actor_name)
    partner = _partner(encounter, actor)
    choice, throw = parse_clinch_choice(text)
    require_turn(encounter, actor)
    kept, ride = _ride_check(encounter, actor, "clinch contest")
    if not kept:
        return
    plan, plan_throw = parse_clinch_choice(conditions_of(encounter, partner).get("clinch_plan") or DEFAULT_CLINCH_PLAN)
    partner_left = split_actions.left(encounter, partner)
    partner_declines = plan == "decline" or (not open_actions(encounter, partner) if partner_left is None
                                             else not partner_left)
    system = system_of(encounter)
    actor_dice = modifiers_for(encounter, actor, adjustable=False).dice if choice != "decline" else 0
    partner_dice = modifiers_for(encounter, partner, adjustable=False).dice if not partner_declines else 0
    with dice.roller(encounter) as roller:
        contest = tactics.contest(split_actions.acting(encounter, actor, system),
                                  split_actions.acting(encounter, partner, system, strict=False), roller,
                                  first_declines=choice == "decline", second_declines=partner_declines,
                                  first_dice=actor_dice, second_dice=partner_dice)
        _turn_action(encounter, actor)
        for obj, rolled in ((actor, choice != "decline"), (partner, not partner_declines)):
            if rolled:
                use_modifiers(encounter, obj, adjustable=False, difficulty=False)
        if not partner_declines:
            use_action(encounter, partner)
        lines = [*ride, *contest.lines]
        for obj in (actor, partner):
            update_conditions(encounter, obj, held_by=None)
        # Having contested control this round, split actions left may do other things.
        update_conditions(encounter, actor, contested=True)
        if not partner_declines:
            update_conditions(encounter, partner, contested=True)
        if contest.ended:
            release(encounter, actor)
        elif contest.controller:
            controller, victim = (actor, partner) if contest.controller == actor.key else (partner, actor)
            option, how = (choice, throw) if controller == actor else (plan, plan_throw)
            outcome = tactics.control(option, combatant(encounter, controller, system),
                                      combatant(encounter, victim, system), contest.net, roller, throw=how)
            apply_resolution(encounter, system, outcome)
            lines.extend(outcome.lines)
    add_log(encounter, actor.key, f"clinch with {partner.key}", lines)
    announce(encounter, "{actor} and {partner} struggle in the clinch.",
             mapping={"actor": actor, "partner": partner}, lines=lines)
    announce_turn(encounter)


# -------------------------------------------------------------------------------- mounts
def mount(caller, actor_name: str | None, text: str) -> None:
    """``+mount <mount>[/<control rating>]``: ride into the fight (no action)."""
    encounter = require_encounter(caller)
    tactics = tactics_of(encounter, "mounts")
    actor = actor_for(caller, encounter, actor_name)
    name, _, control_text = text.partition("/")
    control = None
    if control_text.strip():
        digits = control_text.strip()
        if not digits.isascii() or not digits.isdigit() or len(digits) > 2:
            raise CombatError(f"A Control Rating is a whole number from 0 to 10, not '{quote(digits)}'.")
        control = int(digits)
    ridden = tactics.mount(name, control)
    if conditions_of(encounter, actor).get("mount"):
        raise CombatError(f"{actor.key} is already mounted: +dismount first.")
    if conditions_of(encounter, actor).get("clinch_with"):
        raise CombatError(f"{actor.key} is in a clinch and cannot mount.")
    update_conditions(encounter, actor, mount=ridden.to_record())
    rider = combatant(encounter, actor, system_of(encounter))
    needs = tactics.needs_control_roll(rider, ridden)
    announce(encounter, "{actor} mounts the " + escape_for_room(ridden.name) + ".", mapping={"actor": actor},
             lines=[f"Control Rating {ridden.control} ({ridden.size}), Ride {rider.trait('Ride')}: "
                    + ("a Ride roll each turn before acting." if needs else "no control roll needed.")])


def dismount(caller, actor_name: str | None) -> None:
    """``+dismount``: get down (no action). Refused on foot."""
    encounter = require_encounter(caller)
    tactics_of(encounter, "mounts")
    actor = actor_for(caller, encounter, actor_name)
    if not conditions_of(encounter, actor).get("mount"):
        raise CombatError(f"{actor.key} is on foot.")
    update_conditions(encounter, actor, mount=None)
    announce(encounter, "{actor} dismounts.", mapping={"actor": actor})


# ------------------------------------------------------------------- weapons, bleeding
def pick_up(caller, actor_name: str | None, text: str) -> None:
    """``pickup [<weapon>]``: on one's turn, Dexterity + the weapon's Ability, 1 success needed
    (seed: Disarming); success puts it in hand."""
    encounter = require_encounter(caller)
    system = system_of(encounter)
    if not hasattr(system, "pick_up"):
        raise CombatError(f"The {system.key} rules have no dropped weapons.")
    actor = actor_for(caller, encounter, actor_name)
    lying = dropped_weapons(encounter)
    if not lying:
        raise CombatError("No weapon lies on the ground here.")
    wanted = text.strip().casefold()
    found = [item for item in lying if not wanted or item["weapon"].startswith(wanted)
             or item["owner"].casefold().startswith(wanted)]
    if not found:
        raise CombatError(f"No dropped weapon '{quote(text.strip())}'. On the ground: "
                          + ", ".join(f"{item['owner']}'s {item['weapon']}" for item in lying) + ".")
    item = found[0]
    require_turn(encounter, actor)
    require_free(encounter, actor)
    kept, ride = _ride_check(encounter, actor, "pick-up")
    if not kept:
        return
    mods = modifiers_for(encounter, actor, adjustable=False)
    with dice.roller(encounter) as roller:
        success, lines = system.pick_up(split_actions.acting(encounter, actor, system), item["weapon"], roller,
                                        mods.dice)
    lines = (*ride, *lines)
    use_modifiers(encounter, actor, adjustable=False, difficulty=False)
    _turn_action(encounter, actor)
    if success:
        lying.remove(item)
        held = weapon_of(actor, system)
        if held:
            lying.append({"weapon": held, "owner": actor.key, "feet": 0})
            lines = (*lines, f"{actor.key} drops the {held} to take it.")
        encounter.dropped = lying
        update_sheet(actor, system, weapon=item["weapon"])
    add_log(encounter, actor.key, "pick up", lines)
    announce(encounter, "{actor} goes for " + escape_for_room(f"{item['owner']}'s {item['weapon']}") + ".",
             mapping={"actor": actor}, lines=lines)
    announce_turn(encounter)


def treat(caller, name: str) -> None:
    """``+combat/treat <name>``: stop a bleeding wound. The ST or staff at any time; a
    fighter on their turn, spending the action (Fray default: no roll; the source names none)."""
    encounter = require_encounter(caller)
    system = system_of(encounter)
    if not hasattr(system, "bleeds"):
        raise CombatError(f"The {system.key} rules have no bleeding.")
    target = find_combatant(encounter, name)
    if conditions_of(encounter, target).get("treated"):
        raise CombatError(f"{target.key}'s wounds are already treated.")
    fighter = combatant(encounter, target, system)
    if not system.bleeds(system.health(fighter.health, fighter), fighter):
        raise CombatError(f"{target.key} is not bleeding.")
    if not is_storyteller(caller, encounter):
        actor = actor_for(caller, encounter, None)
        require_turn(encounter, actor)
        require_free(encounter, actor)
        kept, ride = _ride_check(encounter, actor, "treating")
        if not kept:
            return
        if ride:
            add_log(encounter, actor.key, "ride", ride)
        _turn_action(encounter, actor)
    update_conditions(encounter, target, treated=True, bleeding_since=None)
    add_log(encounter, caller.key, f"treat {target.key}", [f"{target.key}'s wounds are treated: no more bleeding."])
    announce(encounter, "$You() $conj(treat) {target}'s wounds: no more bleeding.", actor=caller,
             mapping={"target": target})
    if not is_storyteller(caller, encounter):
        announce_turn(encounter)
