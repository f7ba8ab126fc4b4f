"""Attacks, written once for every system: roll an attack on the attacker's turn, deliver it
(a hit the target can still answer opens a defense window: a :class:`Pending` attack), defend,
resolve, and store what the rules decided (health, lasting effects, weapons dropped or taken,
magical shields).

The rules decide, in the system's ``attack``, ``defend`` and ``resolve``; this module keeps
the books and tells the room. Every function raises ``CombatError`` (one player-facing line)
when it refuses; the step then keeps nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rules.engine import splits, turns
from rules.engine.conditions import ID_CONDITIONS
from rules.engine.draft import Draft
from rules.engine.state import Pending
from rules.lines import Line, roll_of
from rules.systems.base import CombatError


# ---------------------------------------------------------------------------- storing
def store_harm(d: Draft, harmed: Iterable[Any]) -> None:
    """Store each harmed fighter's health after the harm (a harm names its fighter)."""
    named = d.by_name()
    for harm in harmed:
        if harm.name in named:
            d.store_health(named[harm.name], harm.health_after)


def release(d: Draft, fighter_id: int) -> None:
    """End the fighter's clinch and holds, on both sides."""
    partners = {d.conditions_of(fighter_id).get(key) for key in ID_CONDITIONS}
    for other in d.ids():
        state = d.conditions_of(other)
        if other == fighter_id or other in partners or fighter_id in {state.get(key) for key in ID_CONDITIONS}:
            d.update_conditions(other, held_by=None, clinch_with=None)


def apply_resolution(d: Draft, resolution) -> None:
    """Store a resolution: the harmed fighters' health, then each lasting effect
    ``(effect, name, detail)``: held (by detail), prone, difficulty (+detail), clinch (with
    detail), released (from every hold and clinch), disarmed (the weapon lands ``detail``
    feet away: ``Draft.dropped``), weapon-taken (``{"weapon", "from"}``: now in hand, no
    longer in the giver's); any other effect as the system's ``condition_after`` says."""
    store_harm(d, resolution.harm)
    named = d.by_name()
    for effect, name, detail in resolution.effects:
        fighter_id = named.get(name)
        if fighter_id is None:
            continue
        other = named.get(detail) if isinstance(detail, str) else None
        state = d.conditions_of(fighter_id)
        if effect == "held":
            state["held_by"] = other
        elif effect == "prone":
            state["prone"] = True
        elif effect == "difficulty":
            state["difficulty"] = int(state.get("difficulty", 0) or 0) + int(detail)
        elif effect == "clinch":
            state["clinch_with"] = other
        elif effect == "released":
            release(d, fighter_id)
            continue
        elif effect == "disarmed":
            held = d.sheet(fighter_id).weapon
            if held:
                d.dropped.append({"weapon": held, "owner": name, "feet": int(detail)})
                d.set_sheet(fighter_id, weapon="")
        elif effect == "weapon-taken":
            giver = named.get(detail.get("from"))
            if giver is not None and d.sheet(giver).weapon == detail["weapon"]:
                d.set_sheet(giver, weapon="")
            d.set_sheet(fighter_id, weapon=detail["weapon"])
            continue
        else:
            state = d.system.condition_after(state, effect, detail)
        d.set_conditions(fighter_id, state)


# --------------------------------------------------------------------------- shields
def shields(d: Draft) -> dict:
    """{protected name: Shield} of the magical shields standing (none without magic)."""
    magic = d.system.magic
    return {} if magic is None else {name: magic.shield_from_record(record) for name, record in d.shields.items()}


def store_shields(d: Draft, standing: dict) -> None:
    d.shields = {name: shield.to_record() for name, shield in standing.items()}


def shield_zaps(d: Draft, actor: int, other: int) -> None:
    """The actor in hand-to-hand contact with ``other`` (an attack, an escape) touches every
    overshot shield on either of them, its own included, and is zapped by each."""
    magic = d.system.magic
    if magic is None:
        return
    for shield in magic.shields_touched(d.name(actor), d.name(other), shields(d)):
        harm, lines = magic.shield_zap(d.combatant(actor), shield, d.dice)
        store_harm(d, [harm])
        d.add_log(d.name(actor), Line("title.shield_zap"), lines)
        d.say("attack.shield_zap", refs={"actor": actor}, values={"shield": Line("line.shield_of", {"caster": shield.caster})},
              lines=lines)


# ------------------------------------------------------------------------ the attack
def attack_lines(attack) -> list[str | Line]:
    """The lines of the attack's own rolls as its resolution opens with them: its preface (an
    aeon mount's control roll), then the to-hit roll (``rules.lines.roll_of(attacker,
    attack)``). A system's ``resolve`` opens with these same lines; :func:`finish` leaves them
    out where the room heard them as the defense window opened."""
    return [*getattr(attack, "preface", ()), roll_of(attack.attacker, attack)]


def can_defend(d: Draft, target: int) -> bool:
    return not d.health(target).incapacitated and (d.system.defend_after_acting
                                                   or not turns.out_of_actions(d, target))


def require_target(d: Draft, actor: int, target: int) -> None:
    """Raises CombatError for an attack on oneself, on one the actor lost track of (hiding)
    or on the dead."""
    if target == actor:
        raise CombatError(Line("refusal.you_cannot_attack_yourself"))
    if actor in (d.conditions_of(target).get("hidden_from") or []):
        raise CombatError(Line("refusal.has_lost_track_who", {"actor": d.name(actor), "target": d.name(target)}))
    if d.health(target).dead:
        raise CombatError(Line("refusal.already_dead", {"target": d.name(target)}))


def strike(d: Draft, actor: int, target: int, option: str, *, use_turn: bool = True, defendable: bool = True,
           notes: Sequence[str] = ()) -> None:
    """Roll the actor's attack on the target and deliver it (``use_turn``: spend the current
    action; before it, the system's ``before_turn``, e.g. an aeon mount's Ride roll).
    Validates everything before the dice. Raises CombatError."""
    require_target(d, actor, target)
    system = d.system
    adjustable = system.difficulty_adjustable(option, d.combatant(actor))  # raises before any roll
    if use_turn:
        system.check_attack(d.combatant(actor), d.combatant(target), option,
                            modifier=d.modifiers_for(actor, adjustable).difficulty)
        going, before = system.before_turn(d, actor, "attack")
        if not going:
            return turns.announce_turn(d)
        notes = [*before, *notes]
    mods = d.modifiers_for(actor, adjustable)
    aim = aimed(d, actor, target)
    rolled = system.attack(splits.acting(d, actor) if use_turn else d.combatant(actor), d.combatant(target),
                           option, d.dice, modifier=mods.difficulty, dice_modifier=mods.dice + aim)
    d.use_modifiers(actor, adjustable)
    if use_turn:
        turns.use_turn(d, actor)
    d.update_conditions(actor, hidden_from=None, aim=None, last_attack=[target])  # attacking shows where you are
    mod_notes = (*mods.notes, *((Line("line.aimed", {"target": d.name(target), "bonus": aim}),) if aim else ()))
    d.add_log(d.name(actor), Line("title.attack_at", {"label": rolled.label, "name": d.name(target)}),
              [*(notes if use_turn else ()), *getattr(rolled, "preface", ()), rolled.describe(), *mod_notes])
    shield_zaps(d, actor, target)
    whirl = system.step_in(d.combatant(target), d.combatant(actor), rolled)
    if whirl is not None:   # eldritch Whirling Sword: stepping into it draws its attack
        whirled(d, target, actor, whirl)
    deliver(d, actor, target, rolled, defendable=defendable, notes=notes)


def whirled(d: Draft, whirler: int, mover: int, whirl) -> None:
    """A whirling sword attacks one who stepped into its range (eldritch Whirling Sword:
    "Anybody who steps into range of the whirling sword is attacked"), with the turn's one
    roll: the whirler's latest attack."""
    d.update_conditions(whirler, last_attack=[mover])
    d.add_log(d.name(whirler), Line("title.attack_at", {"label": whirl.label, "name": d.name(mover)}), [*whirl.notes, whirl.describe()])
    deliver(d, whirler, mover, whirl, notes=whirl.notes)


def aimed(d: Draft, actor: int, target: int) -> int:
    """The bonus dice of an aim (``aim``) the actor took at ``target``: 0 for another."""
    aim = d.conditions_of(actor).get("aim") or {}
    return int(aim.get("bonus", 0)) if aim.get("target") == target else 0


def deliver(d: Draft, actor: int, target: int, rolled, *, defendable: bool = True, notes: Sequence[str] = ()) -> None:
    """A rolled attack reaches its target: a hit the target can still answer opens a defense
    window (a pending attack); anything else is resolved at once. ``defendable`` False: the
    target may not defend (a surprise attack that won)."""
    system = d.system
    if rolled.needs_defense and defendable and can_defend(d, target):
        attack_id = int(d.next_attack_id)
        d.next_attack_id = attack_id + 1
        d.pending.append(Pending(id=attack_id, attacker=actor, target=target, attack=rolled.to_record(),
                                 round=int(d.round)))
        d.say("attack.opens", refs={"attacker": actor, "target": target}, values={"label": rolled.label},
              lines=[*notes, *getattr(rolled, "preface", ()), roll_of(d.name(actor), rolled),
                     Line("line.may_defend", {"target": d.name(target)})])
        prefix = f"defend {d.name(target)}=" if d.is_npc(target) else "defend "
        answers = ", ".join(prefix + choice for choice in system.defense_choices(rolled, d.combatant(target)))
        cost = Line("value.defense_free" if not system.defense_uses_action
                    else "value.defense_uses_an_action_left" if splits.left(d, target) is not None
                    else "value.defense_uses_the_action")
        d.tell_controller(target, "attack.prompt", values={
            "attacker": d.name(actor), "label": rolled.label, "target": d.name(target),
            "successes": system.successes_line(rolled.successes),
            "answers": Line("value.answers_or", {"answers": answers}) if answers else "", "none": prefix + "none",
            "cost": cost})
        return
    why = []
    if rolled.needs_defense and not defendable:
        why.append(Line("line.surprised", {"target": d.name(target)}))
    elif rolled.needs_defense and d.health(target).incapacitated:
        why.append(Line("line.down_no_defense", {"target": d.name(target)}))
    elif rolled.needs_defense:
        why.append(Line("line.acted_no_defense", {"target": d.name(target)}))
    finish(d, actor, target, rolled, None, why, told=notes)


def finish(d: Draft, attacker: int, target: int, attack, defense, notes: Sequence[str] = (), *,
           told: Sequence[str] | None = None) -> None:
    """Resolve the attack on the target (``defense``: the defense rolled, or None) and store
    it. ``notes``: new lines to log and tell before the resolution. ``told``: None when the
    room heard of the attack as its defense window opened; else it is resolved at once, and
    the room hears ``told`` (what came with it, e.g. a surprise contest), the notes, the roll
    and the rest."""
    system = d.system
    if getattr(attack, "cast", None) is not None:
        present = [d.combatant(fighter_id) for fighter_id in d.ids()]
        resolution, standing = system.magic.resolve(attack, defense, d.combatant(attacker), d.combatant(target),
                                                    present, d.dice, shields(d))
        store_shields(d, standing)
    else:
        resolution = system.resolve(attack, defense, d.combatant(attacker), turns.struck(d, target), d.dice)
    apply_resolution(d, resolution)
    rolled, rest = attack_lines(attack), list(resolution.lines)
    if rest[:len(rolled)] == rolled:
        rest = rest[len(rolled):]
    else:
        rolled = []
    d.add_log(d.name(attacker), Line("title.attack_on", {"name": d.name(target)}), [*notes, *rest])
    lines = [*notes, *rest] if told is None else [*told, *notes, *rolled, *rest]
    d.say("attack.resolved", refs={"attacker": attacker, "target": target}, values={"label": attack.label},
          lines=lines)
    d.tell_fates()
    if not d.pending:
        turns.announce_turn(d)


# ------------------------------------------------------------------------- defending
def pending_for(d: Draft, target: int) -> Pending:
    """The oldest attack waiting on the target's defense. Raises CombatError."""
    for pending in d.pending:
        if pending.target == target:
            return pending
    raise CombatError(Line("refusal.no_attack_waiting_for", {"target": d.name(target)}))


def close(d: Draft, pending: Pending) -> None:
    d.pending = [item for item in d.pending if item.id != pending.id]


def defense_choice(d: Draft, kind: str) -> str:
    """The defense (or ``none``) named by ``kind`` (a unique prefix; ``wall flip`` is
    ``wall-flip``). Raises CombatError."""
    if not d.system.defense_names:
        raise CombatError(Line("refusal.rules_have_no_defense", {"system": d.system.key}))
    wanted = "-".join(kind.casefold().split())
    choices = (*d.system.defense_names, "none")
    found = [choice for choice in choices if wanted and choice.startswith(wanted)]
    if len(found) != 1:
        raise CombatError(Line("refusal.defend_with_one", {"choices": ', '.join(choices)}))
    return found[0]


def defend(d: Draft, actor: int, choice: str) -> None:
    """The actor answers the oldest attack waiting on it with ``choice`` (a defense of the
    system's, or ``none``). Raises CombatError."""
    system = d.system
    pending = pending_for(d, actor)
    rolled = d.attack_of(pending.attack)
    defense = None
    notes: list[str] = []
    if choice != "none":
        if not system.defend_after_acting and turns.out_of_actions(d, actor):
            raise CombatError(Line("refusal.has_already_acted_this_round", {"actor": d.name(actor)}))
        adjustable = system.defense_adjustable(choice)
        mods = d.modifiers_for(actor, adjustable=adjustable)
        defense = system.defend(rolled, splits.acting(d, actor), choice, d.dice, modifier=mods.difficulty,
                                dice_modifier=mods.dice)
        d.use_modifiers(actor, adjustable=adjustable)
        d.update_conditions(actor, defenses_used=int(d.conditions_of(actor).get("defenses_used", 0)) + 1)
        notes = list(mods.notes)
        if system.defense_uses_action:
            turns.use_action(d, actor)
    close(d, pending)
    finish(d, pending.attacker, actor, rolled, defense, notes)


def resolve_all(d: Draft) -> int:
    """Resolve every waiting attack with no defense; returns how many. Raises CombatError."""
    waiting = list(d.pending)
    if not waiting:
        raise CombatError(Line("refusal.no_attacks_waiting_for"))
    for pending in waiting:
        close(d, pending)
        finish(d, pending.attacker, pending.target, d.attack_of(pending.attack), None)
    return len(waiting)
