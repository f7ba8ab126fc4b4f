"""The elethril fight's actions: rounds declared first, then played segment by segment (the
elethril seed, sections 1a-4d; ``docs/rules/elethril.md``). The system's round policy
(``RuleSystem.declared_rounds``): no one rolls initiative alone and no one waits for a
turn; everyone declares an action (``attack``, ``cast``, ``use``), initiative is rolled for
the round once the last has declared (or the game master moves on), and ``+combat/next``
plays the next segment that has something in it.

What the fight keeps (``FightState.extra``, the system's ``fight_fields``): ``segment`` (the
next to play; 0 while declaring), ``declarations`` ({fighter id: what was declared}),
``segment_actions`` (this round's actions and those carried into it, as timeline records),
``segment_initiative`` ({name: the roll}) and ``parties`` ({fighter id: [party, slowest]});
the sides are the engine's (``extra["sides"]``). A fighter's own: ``initiative_modifiers``,
``forfeited_in``, ``off_hand`` and ``item_in_use``; its magical items are its gear
(``magic_items``), a charge spent as an item discharges.

The dice, plans and timeline are in ``rules.systems.elethril`` (system, timeline); the words
are ``elethril.*`` (``world/messages/elethril.toml``). Every action raises ``CombatError``
(one player-facing line) before any die when it refuses; the step then keeps nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rules.engine import attacks, turns
from rules.engine.actions import STANDARD, Action, group_name, require_actor, require_target
from rules.engine.draft import Draft
from rules.engine.intents import Intent
from rules.lines import Line, text_of
from rules.systems.base import CombatError
from rules.systems.elethril.declaring import (
    Declaration,
    Group,
    SegmentInitiative,
    item_line,
    signed_parts,
)
from rules.systems.elethril.timeline import (
    PHASES,
    SEGMENTS_PER_ROUND,
    Board,
    Event,
    Timeline,
    build_timeline,
    cancel,
    delay,
    delay_range_error,
    forfeit,
    spoil,
    tick_of,
)
from rules.systems.elethril.timeline import Action as Planned
from rules.text import quote

if TYPE_CHECKING:
    from rules.systems.elethril.system import Plan, Spell

#: The declaring commands as ``commands.elethril`` names them in its refusal (the rules' own
#: lines name them with ``elethril.value.how_to_declare``).
HOW_TO_DECLARE = "attack <target>[/<weapon>], cast <spell>[=<target>] or use <item>[=<target>]"
NO_INITIATIVE = Line("elethril.refusal.no_initiative")
NO_NPC_INITIATIVE = Line("elethril.refusal.no_npc_initiative")
MAX_ITEM_NUMBER_DIGITS = 6


# ------------------------------------------------------------------------------ reading
def round_of(d: Draft) -> int:
    return int(d.round or 1)


def now(d: Draft) -> int:
    """The next segment to play; 0 while the round is being declared."""
    return int(d.extra.get("segment") or 0)


def stored_actions(d: Draft) -> list[Planned]:
    return [Planned.from_record(record) for record in d.extra.get("segment_actions") or []]


def store_actions(d: Draft, actions) -> None:
    d.extra["segment_actions"] = [action.to_record() for action in actions]


def live_actions(d: Draft) -> list[Planned]:
    """The stored actions of those still in the fight (one who left and rejoins resumes)."""
    names = {d.name(fighter_id) for fighter_id in d.ids()}
    return [action for action in stored_actions(d) if action.actor in names]


def timeline(d: Draft) -> Timeline:
    """This round's segment timeline, rebuilt from the stored actions."""
    return build_timeline(round_of(d), live_actions(d))


def holding(d: Draft, fighter_id: int) -> Planned | None:
    """The fighter's action holding this round (declared in it, or carried over into it)."""
    r, name = round_of(d), d.name(fighter_id)
    return next((a for a in live_actions(d) if a.actor == name and (a.round == r or a.busy_in(r))), None)


def carried(d: Draft, fighter_id: int) -> Planned | None:
    """The fighter's action from an earlier round still holding this one (seed 3a, 4c, 4d)."""
    action = holding(d, fighter_id)
    return action if action is not None and action.round < round_of(d) else None


def declarations(d: Draft) -> dict[int, dict]:
    return {int(key): dict(value) for key, value in (d.extra.get("declarations") or {}).items()}


def declaration(d: Draft, fighter_id: int, record: Mapping[str, Any]) -> Declaration:
    state = d.conditions_of(fighter_id)
    return Declaration(actor=d.combatant(fighter_id), target=record.get("target", ""),
                       weapon=record.get("weapon", ""), off_hand=record.get("off_hand", ""),
                       attacks=int(record.get("attacks", 0)), spell=record.get("spell", ""),
                       item=record.get("item", ""), modifiers=tuple(state.get("initiative_modifiers") or ()),
                       forfeited=state.get("forfeited_in") == round_of(d),
                       storyteller=bool(record.get("storyteller", False)))


def initiatives(d: Draft) -> dict[str, int]:
    """{name: initiative segment} rolled this round."""
    return {name: SegmentInitiative.from_record(record).initiative
            for name, record in (d.extra.get("segment_initiative") or {}).items()}


def to_declare(d: Draft) -> list[int]:
    """Those the round waits on: able, not idle, not busy with a carried action, undeclared."""
    if now(d):
        return []
    declared = declarations(d)
    return [fighter_id for fighter_id in d.ids()
            if fighter_id not in declared and not d.is_idle(fighter_id) and carried(d, fighter_id) is None
            and d.system.can_act(d.combatant(fighter_id))]


def how_to_declare(d: Draft, fighter_id: int) -> Line:
    """The declaring commands for the fighter: the player's own, or the game master's for an NPC."""
    if d.is_npc(fighter_id):
        return Line("elethril.value.how_to_declare_npc", {"name": d.name(fighter_id)})
    return Line("elethril.value.how_to_declare")


def pending_events(d: Draft, after: int) -> list[Event]:
    return [e for e in timeline(d).events if e.segment >= after and not e.spoiled]


def next_segment(d: Draft) -> int:
    """The segment the next ``+combat/next`` plays (0: none, or still declaring)."""
    upcoming = pending_events(d, now(d)) if now(d) else []
    return upcoming[0].segment if upcoming else 0


# ----------------------------------------------------------------------------- wording
def describe_plan(d: Draft, fighter_id: int, plan: Plan) -> Line:
    """``"attack Orc with short sword and dagger (off-hand); initiative d10 + 3 (short sword)"``:
    the plan, and what its initiative modifiers are added to this round: in round 1 the
    side's base (seed 1a), later the party's d10 (the slowest member's modifiers when they are
    not the slowest, seed 1b) or the fighter's own (best of one per attack, seed 4b)."""
    declared = plan.declaration
    if plan.spell is not None:
        if plan.item:
            what = Line("elethril.line.plan_use_at" if declared.target else "elethril.line.plan_use",
                        {"label": plan.label, "target": declared.target})
        else:
            what = Line("elethril.line.plan_cast_at" if declared.target else "elethril.line.plan_cast",
                        {"label": plan.label, "target": declared.target})
    else:
        off = [weapon for weapon, hand in plan.attacks if hand == "off"]
        count = len(plan.attacks) - len(off)
        values = {"target": declared.target, "weapon": plan.attacks[0][0].line,
                  "off": off[0].line if off else "", "count": count}
        if off:
            what = Line("elethril.line.plan_attack_off_many" if count > 1 else "elethril.line.plan_attack_off", values)
        else:
            what = Line("elethril.line.plan_attack_many" if count > 1 else "elethril.line.plan_attack", values)
    values = {"what": what, "modifiers": signed_parts(plan.parts), "dice": plan.dice}
    if round_of(d) == 1:
        side = {int(key): value for key, value in (d.extra.get("sides") or {}).items()}.get(fighter_id)
        key = "elethril.line.plan_side" if side else "elethril.line.plan_own_side"
        return Line(key, {**values, "side": side or ""})
    party = {int(key): value for key, value in (d.extra.get("parties") or {}).items()}.get(fighter_id)
    if party:
        name, slowest = party
        key = "elethril.line.plan_party_slowest" if slowest else "elethril.line.plan_party"
        return Line(key, {**values, "party": name})
    key = "elethril.line.plan_own" if plan.dice == 1 else "elethril.line.plan_best"
    return Line(key, values)


def short(action: Planned) -> Line:
    """An action for the HUD: ``"short sword, dagger > Orc"``, ``"long sword x2 > Orc"``."""
    events = [event for event in action.events if event.phase != "casting"]
    if not events:
        return Line("elethril.line.action_reloading" if action.reload_rounds else "elethril.line.action_none")
    labels = list(dict.fromkeys(event.label for event in events))
    shown = _action(labels, len(events), events[0].target)
    return Line("elethril.line.action_spoiled", {"action": shown}) if any(event.spoiled for event in events) else shown


def plan_short(plan: Plan) -> Line:
    """A declared plan for the HUD, in the words of :func:`short`."""
    target = plan.declaration.target
    if plan.spell is not None:
        return _action([plan.label], 1, target)
    return _action(list(dict.fromkeys(weapon.label for weapon, _ in plan.attacks)), len(plan.attacks), target)


def _action(labels: list[str], count: int, target: str) -> Line:
    """The labels of an action's attacks (``"x2"`` for one label used twice) and its target."""
    values = {"labels": ", ".join(labels), "count": count, "target": target}
    if len(labels) == 1 and count > 1:
        return Line("elethril.line.action_times_at" if target else "elethril.line.action_times", values)
    return Line("elethril.line.action_at" if target else "elethril.line.action", values)


def attack_label(event: Event) -> str | Line:
    """An attack's label with which attack of how many it is and the hand: ``"dagger (2/2,
    off-hand)"``; the label alone for one attack with the primary hand."""
    values = {"label": event.label, "number": event.number, "count": event.count}
    if event.count > 1:
        return Line("elethril.line.attack_of_off_hand" if event.hand == "off" else "elethril.line.attack_of", values)
    return Line("elethril.line.attack_off_hand", values) if event.hand == "off" else event.label


def where(r: int, event: Event) -> Line:
    """When ``event`` comes, seen from round ``r``: its segment, and its round when later."""
    if event.round == r:
        return Line("elethril.line.at_segment", {"segment": event.segment})
    return Line("elethril.line.at_round_segment", {"round": event.round, "segment": event.segment})


# ------------------------------------------------------------------------------ declaring
def require_declaring(d: Draft, actor: int) -> None:
    r = round_of(d)
    if now(d):
        raise CombatError(Line("elethril.refusal.round_initiative_rolled_actions", {"r": r}))
    d.system.require_able(d.combatant(actor))   # the fallen are not sent to forfeit
    held = carried(d, actor)
    if held is not None:
        name = d.name(actor)
        if any(event.round >= r for event in held.events):
            command = Line("elethril.value.forfeit_npc", {"name": name}) if d.is_npc(actor) \
                else Line("elethril.value.forfeit")
            raise CombatError(Line("elethril.refusal.still_acting_from_round", {"name": name, "held_round": held.round, "command": command}))
        raise CombatError(Line("elethril.refusal.reloading_until_round", {"name": name, "held_next_initiative_round": held.next_initiative_round}))


def parse_weapons(option: str) -> dict:
    """``"short sword +1,dagger"`` (primary, off-hand), ``"long sword*2"`` (attacks); an
    empty primary is the weapon in hand. Raises CombatError."""
    text, count = option.strip(), 0
    if "*" in text:
        text, _, number = text.rpartition("*")
        number = number.strip()
        if not number.isascii() or not number.isdigit() or len(number) > 2 or int(number) < 1:
            raise CombatError(Line("elethril.refusal.give_number_attacks_after", {"number": quote(number)}))
        count = int(number)
    primary, comma, off_hand = (part.strip() for part in text.partition(","))
    if comma and not off_hand:
        raise CombatError(Line("elethril.refusal.name_off_hand_weapon"))
    return {"weapon": primary, "off_hand": off_hand, "attacks": count}


def by_gm(d: Draft, intent: Intent, actor: int) -> bool:
    """Whether the game master declares for an NPC (whose typed choices are their fiat)."""
    return d.is_npc(actor) and intent.fiat


def declare(d: Draft, intent: Intent, actor: int, record: dict) -> None:
    require_declaring(d, actor)
    plan = d.system.plan(declaration(d, actor, record))  # every check, no dice
    declared = declarations(d)
    again = actor in declared
    declared[actor] = record
    d.extra["declarations"] = declared
    text = describe_plan(d, actor, plan)
    d.add_log(d.name(actor), Line("elethril.title.declares"), [text])
    d.tell(intent.by, "elethril.will", values={"name": d.name(actor), "text": text})
    d.say("elethril.redeclares" if again else "elethril.declares", refs={"actor": actor},
          values={"round": round_of(d)})
    roll_when_ready(d)


def spell_target(d: Draft, actor: int, spell: Spell, what: str | Line, targets, usage: Line) -> str:
    """The one target named for ``spell`` ("" for none): a damaging spell needs one, not the
    actor. ``what``: the spell's name, or the item discharging it as a line; ``usage``: the
    command with a target. Raises CombatError."""
    if len(targets) > 1:
        raise CombatError(Line("elethril.refusal.name_one_target", {"usage": usage}))
    target = targets[0] if targets else None
    if spell.damage and target is None:
        what = what[:1].upper() + what[1:] if isinstance(what, str) else what
        raise CombatError(Line("elethril.refusal.needs_target", {"what": what, "usage": usage}))
    if spell.damage and target == actor:
        raise CombatError(Line("elethril.refusal.you_cannot_aim_spell"))
    return d.name(target) if target is not None else ""


class DeclareAttack(Action):
    """``attack <target>[/<weapon>[,<off-hand>]][*<attacks>]``: the actor's action this
    round (``option``: the weapons and the number of attacks)."""

    key = "attack"

    def perform(self, d: Draft, intent: Intent) -> None:
        actor, target = require_actor(d, intent), require_target(d, intent)
        if target == actor:
            raise CombatError(Line("refusal.you_cannot_attack_yourself"))
        if d.health(target).dead:
            raise CombatError(Line("refusal.already_dead", {"target": d.name(target)}))
        declare(d, intent, actor, {"target": d.name(target), **parse_weapons(intent.option),
                                   "storyteller": by_gm(d, intent, actor)})


def acting_as(d: Draft, intent: Intent, actor: int) -> str:
    """``"Ogre="`` when the game master declares for another, else ""."""
    return "" if intent.by == actor else f"{d.name(actor)}="


class DeclareSpell(Action):
    """``cast <spell>[=<target>]``: the spell as the actor's action this round (its casting
    begins at their segment and lasts its casting time, seed 3c). ``option``: the spell;
    ``data["damage"]``: the /damage switch, which elethril spells do not have."""

    key = "cast"

    def perform(self, d: Draft, intent: Intent) -> None:
        actor = require_actor(d, intent)
        spell = d.system.spell(intent.option)
        if intent.data.get("damage"):
            raise CombatError(Line("elethril.refusal.elethril_spells_have_no"))
        usage = Line("elethril.value.usage_cast", {"acting_as": acting_as(d, intent, actor), "spell": spell.key})
        target = spell_target(d, actor, spell, spell.name, intent.targets, usage)
        declare(d, intent, actor, {"target": target, "spell": spell.key, "storyteller": by_gm(d, intent, actor)})


class DeclareItem(Action):
    """``use <item>[=<target>]``: discharge a magical item's spell as the actor's action this
    round, at initiative + the item's modifier (seed 3b). The item is one of the actor's own
    (``+item``) with a charge left; the game master may name any ``<type>/<spell>`` for an
    NPC. ``option``: the item as typed."""

    key = "use"

    def perform(self, d: Draft, intent: Intent) -> None:
        system = d.system
        actor = require_actor(d, intent)
        storyteller = by_gm(d, intent, actor)
        kind, spell, number = pick_item(d, actor, intent.option, storyteller)
        usage = Line("elethril.value.usage_use", {"acting_as": acting_as(d, intent, actor),
                                                  "item": quote(intent.option.strip())})
        what = Line("elethril.value.the_item", {"item": item_line(system.items[kind][0], spell.name)})
        target = spell_target(d, actor, spell, what, intent.targets, usage)
        declare(d, intent, actor, {"target": target, "item": kind, "spell": spell.key, "item_id": number,
                                   "storyteller": storyteller})


class Forfeit(Action):
    """``+combat/forfeit``: give up an action carried over from an earlier round (or attacks
    spilling past segment 10) to declare anew, +1 on the new initiative roll (seed 3a, 4c)."""

    key = "forfeit"

    def perform(self, d: Draft, intent: Intent) -> None:
        actor = require_actor(d, intent)
        r = round_of(d)
        d.system.require_able(d.combatant(actor))   # the fallen have nothing to forfeit
        if now(d):
            raise CombatError(Line("elethril.refusal.round_initiative_rolled_forfeit", {"r": r}))
        held = carried(d, actor)
        name = d.name(actor)
        if held is None:
            raise CombatError(Line("elethril.refusal.has_no_action_carried", {"name": name, "r": r}))
        given_up = forfeit(held, r)
        store_actions(d, [given_up if action == held else action for action in stored_actions(d)])
        d.update_conditions(actor, forfeited_in=r)
        lines = [Line("elethril.line.declares_anew", {"name": name, "penalty": d.system.forfeit_penalty})]
        d.add_log(name, Line("elethril.title.forfeits"), lines)
        d.say("elethril.forfeits", refs={"actor": actor}, values={"round": held.round}, lines=lines)
        d.tell_controller(actor, "elethril.declare_for", values={"name": name, "round": r,
                                                                 "how": how_to_declare(d, actor)})


class Modifiers(Action):
    """``+combat/init <modifier>[,<modifier>...]``: standard initiative modifiers (hasted,
    higher ground …, PHB Table 52) for one's rolls from now on; ``none`` clears them. The
    game master sets anyone's (``targets``). ``option``: what was typed."""

    key = "modifiers"

    def perform(self, d: Draft, intent: Intent) -> None:
        system = d.system
        if intent.targets:
            d.require_gm("set someone else's initiative modifiers")
            actor = require_target(d, intent)
        else:
            actor = require_actor(d, intent)
        words = [word.strip() for word in intent.option.split(",")]
        if not all(words):
            raise CombatError(Line("elethril.refusal.usage_combat_init_modifier"))
        keys = [] if [w.casefold() for w in words] == ["none"] else \
            list(dict.fromkeys(system.initiative_modifier(word) for word in words))
        d.update_conditions(actor, initiative_modifiers=keys)
        named: Line | None = None   # "hasted -2, hindered +3": each one's name and value
        for key in keys:
            one = Line("elethril.value.modifier", {"name": system.modifiers[key][0],
                                                   "value": f"{system.modifiers[key][1]:+d}"})
            named = one if named is None else Line("elethril.value.modifiers_more", {"modifiers": named, "modifier": one})
        d.say("elethril.modifiers", refs={"actor": actor},
              values={"what": Line("elethril.line.initiative_modifiers", {"modifiers": named}) if keys
                      else Line("elethril.line.no_initiative_modifiers")})


class OffHand(Action):
    """``+combat/offhand <names>=<weapon>``: the game master grants the off-hand weapon those
    named (``targets``) may fight with in this fight (seed 4c); ``option`` the weapon, with
    plusses ("" takes it away)."""

    key = "offhand"

    def perform(self, d: Draft, intent: Intent) -> None:
        d.require_gm("grant off-hand weapons")
        targets = list(dict.fromkeys(intent.targets))
        weapon = d.system.off_hand_grant(intent.option) if intent.option.strip() else None
        for target in targets:
            d.update_conditions(target, off_hand=weapon.key if weapon else None)
        names = ", ".join(d.name(target) for target in targets)
        if weapon:
            d.say("elethril.off_hand", values={"names": names, "weapon": weapon.label, "name": weapon.weapon.name})
        else:
            d.say("elethril.no_off_hand", values={"names": names})


class Party(Action):
    """``+combat/party <names>=<party>[/slowest]``: from round 2 those named (``targets``)
    coordinate: one d10 for the party, each adding their own modifiers or, with ``slowest``
    (``data``), the slowest member's (seed 1b); an empty party (``option``) lets them roll
    alone again."""

    key = "party"

    def perform(self, d: Draft, intent: Intent) -> None:
        d.require_gm("set parties")
        party = group_name(intent.option, "party")
        slowest = bool(intent.data.get("slowest"))
        parties = {int(key): list(value) for key, value in (d.extra.get("parties") or {}).items()}
        targets = list(dict.fromkeys(intent.targets))
        for target in targets:
            if party:
                parties[target] = [party, slowest]
            else:
                parties.pop(target, None)
        d.extra["parties"] = parties
        names = ", ".join(d.name(target) for target in targets)
        how = "the slowest member's modifiers" if slowest else "their own modifiers"
        d.say("elethril.party" if party else "elethril.no_party", values={"names": names, "party": party, "how": how})


class Delay(Action):
    """``+combat/delay <segment>``: hold the actor's action to a later segment of this round
    (seed 1c); later attacks keep their spacing. ``option``: the segment typed."""

    key = "delay"

    def perform(self, d: Draft, intent: Intent) -> None:
        actor = require_actor(d, intent)
        text = intent.option.strip()
        if not text.isascii() or not text.isdigit() or not 1 <= int(text[:3]) <= SEGMENTS_PER_ROUND:
            raise CombatError(delay_range_error(quote(text[:20])))
        r, at = round_of(d), now(d)
        if not at:
            raise CombatError(Line("elethril.refusal.round_initiative_not_rolled", {"r": r}))
        action = holding(d, actor)
        name = d.name(actor)
        if action is None:
            raise CombatError(Line("elethril.refusal.has_no_action_this", {"name": name}))
        held = delay(action, r, int(text), at)
        store_actions(d, [held if stored == action else stored for stored in stored_actions(d)])
        moved = [e for e in held.events if e.tick >= tick_of(r, at) and e.phase != "casting"]
        lines = [Line("elethril.line.delayed", {"name": name, "what": short(held), "when": where(r, moved[0])})] \
            if moved else []
        d.add_log(name, Line("elethril.title.delays", {"segment": int(text)}), lines)
        d.say("elethril.delays", refs={"actor": actor}, values={"segment": int(text)}, lines=lines)


# ------------------------------------------------------------------------------- rolling
def groups(d: Draft, r: int, names: set[str]) -> list[Group]:
    """Round 1: the sides; later: the parties with at least two members declaring."""
    by_id = {fighter_id: d.name(fighter_id) for fighter_id in d.ids()}
    if r == 1:
        sides: dict[str, list[str]] = {}
        for fighter_id, side in (d.extra.get("sides") or {}).items():
            name = by_id.get(int(fighter_id))
            if name in names:
                sides.setdefault(side, []).append(name)
        return [Group(side, tuple(members)) for side, members in sorted(sides.items(), key=lambda s: s[0].casefold())]
    parties: dict[str, list[tuple[str, bool]]] = {}
    for fighter_id, (party, slowest) in (d.extra.get("parties") or {}).items():
        name = by_id.get(int(fighter_id))
        if name in names:
            parties.setdefault(party, []).append((name, bool(slowest)))
    return [Group(party, tuple(name for name, _ in members), tuple(name for name, slow in members if slow))
            for party, members in sorted(parties.items(), key=lambda p: p[0].casefold()) if len(members) >= 2]


def anything_to_roll(d: Draft) -> bool:
    """Whether someone in the fight declared, or holds this round with a carried action."""
    r = round_of(d)
    return (any(d.has(fighter_id) for fighter_id in declarations(d))
            or any(action.busy_in(r) for action in live_actions(d)))


def roll_when_ready(d: Draft) -> None:
    """Roll initiative once nobody is left to declare (and someone does something)."""
    if not now(d) and not to_declare(d) and anything_to_roll(d):
        roll_round(d)


def roll_round(d: Draft) -> None:
    """Roll this round's initiative for the declared actions and announce the timeline."""
    system = d.system
    r = round_of(d)
    lapsed = cancel_fallen(d, (tick_of(r, 0), len(PHASES)))
    declared = declarations(d)
    declared_now = []
    for fighter_id in d.ids():  # joining order: the order of the individual dice
        if fighter_id not in declared:
            continue
        name = d.name(fighter_id)
        if not system.can_act(d.combatant(fighter_id)):
            lapsed.append(Line("elethril.line.lapses_dead" if d.health(fighter_id).dead else "elethril.line.lapses_down",
                               {"name": name}))
            del declared[fighter_id]
            continue
        this = declaration(d, fighter_id, declared[fighter_id])
        try:
            system.plan(this)   # the sheet or the game master's grant may have changed since
            used = held_item(d, fighter_id, declared[fighter_id])
        except CombatError as err:
            lapsed.append(Line("elethril.line.lapses_refused", {"name": name, "why": str(err)}))
            del declared[fighter_id]
            continue
        d.update_conditions(fighter_id, item_in_use=used["id"] if used else None)
        declared_now.append(this)
    d.extra["declarations"] = {key: value for key, value in declared.items() if d.has(key)}
    rolling = groups(d, r, {item.actor.name for item in declared_now})
    busy = [action for action in live_actions(d) if action.busy_in(r)]
    start = system.start_round(r, declared_now, d.dice, groups=rolling, carried=busy)
    store_actions(d, stored_actions(d) + list(start.actions))
    d.extra["segment_initiative"] = {i.actor: i.to_record() for i in start.initiative}
    d.extra["segment"] = 1
    turns.moved_to(d, ("segment", r, 1))
    lines = [*start.describe(), *lapsed]
    d.add_log("initiative", Line("elethril.title.round", {"round": r}), lines)
    board = Line("elethril.line.board", {"board": Board(timeline(d), next_segment(d))})
    d.say("elethril.initiative", values={"round": r}, lines=[*lines, board])
    d.say("elethril.play")


# ------------------------------------------------------------------------------- playing
class Next(Action):
    """``+combat/next``: roll initiative with whoever has declared, or play the next segment
    that has something in it (ending the round after the last)."""

    key = "next"

    def perform(self, d: Draft, intent: Intent) -> None:
        d.require_gm("advance the fight")
        if now(d):
            play_segment(d)
            return
        if not anything_to_roll(d):
            raise CombatError(Line("elethril.refusal.nobody_has_declared_action",
                                   {"how_to_declare": Line("elethril.value.how_to_declare")}))
        waiting = to_declare(d)
        if waiting:
            d.say("elethril.nothing_declared", values={"names": ", ".join(d.name(item) for item in waiting),
                                                       "declare": "declares" if len(waiting) == 1 else "declare"})
        roll_round(d)


def play_segment(d: Draft) -> None:
    upcoming = pending_events(d, now(d))
    if not upcoming:
        end_round(d)
        return
    segment = upcoming[0].segment
    play(d, segment)
    d.extra["segment"] = segment + 1
    turns.moved_to(d, ("segment", round_of(d), segment + 1))
    if segment >= SEGMENTS_PER_ROUND or not pending_events(d, segment + 1):
        end_round(d)


def play(d: Draft, segment: int) -> None:
    system = d.system
    r = round_of(d)
    d.say("elethril.segment", values={"round": r, "segment": segment})
    announce_fallen(d, cancel_fallen(d, (tick_of(r, segment), -1)))
    named = d.by_name()
    for event in timeline(d).at(segment):
        if event.phase != "casting" or event.spoiled or event.actor not in named:
            continue
        caster = named[event.actor]
        if not system.can_act(d.combatant(caster)):
            spoil_casting(d, caster, event)
            d.say("elethril.caster_down", refs={"caster": caster}, values={"label": event.label})
            continue
        action = holding(d, caster)
        effect = action.effect if action is not None else None
        what = Line("elethril.line.casting_until", {"label": event.label, "when": where(r, effect)}) \
            if effect is not None else Line("elethril.line.casting", {"label": event.label})
        d.add_log(event.actor, Line("elethril.title.begins_casting"), [Line("elethril.line.sentence", {"text": what})])
        d.say("elethril.casting", refs={"caster": caster}, values={"what": what})
    done = None
    while True:
        steps = [step for step in timeline(d).steps()
                 if step[0].segment == segment and (done is None or step[0].position > done)]
        if not steps:
            break
        done = steps[0][0].position
        play_step(d, steps[0])
        announce_fallen(d, cancel_fallen(d, done))


def cancel_fallen(d: Draft, position: tuple[int, int]) -> list[Line]:
    """Cancel what those who have fallen (down or dead) would still do after ``position``
    (``(tick, phase index)``): later attacks, a spell not yet cast, anything carried into
    later rounds. Returns one line per fighter whose action was cut short (each is said once:
    a cancelled action is ended)."""
    named = d.by_name()
    actions = stored_actions(d)
    changed, lines = False, []
    for index, action in enumerate(actions):
        fighter_id = named.get(action.actor)
        if fighter_id is None or action.ended or d.system.can_act(d.combatant(fighter_id)):
            continue
        cut, dropped = cancel(action, position)
        if cut == action:
            continue
        actions[index], changed = cut, True
        if dropped:
            values = {"actor": action.actor, "what": short(replace(action, events=dropped)),
                      "when": where(round_of(d), dropped[0])}
            if d.health(fighter_id).dead:
                key = "elethril.line.dead_cancelled_from" if len(dropped) > 1 else "elethril.line.dead_cancelled_at"
            else:
                key = "elethril.line.down_cancelled_from" if len(dropped) > 1 else "elethril.line.down_cancelled_at"
            lines.append(Line(key, values))
    if changed:
        store_actions(d, actions)
    return lines


def announce_fallen(d: Draft, lines: list[Line]) -> None:
    for line in lines:
        d.add_log(line.values["actor"], Line("elethril.title.falls"), [line])
        d.say("elethril.cancelled", values={"text": line})


def play_step(d: Draft, step) -> None:
    """One step: simultaneous events (same segment and phase). Who may act is settled before
    any of them resolves, so those who fall in the step still strike in it."""
    named = d.by_name()
    before = {name: d.combatant(fighter_id) for name, fighter_id in named.items()}
    for event in step:
        actor = named.get(event.actor)
        if actor is None:
            continue
        if not d.system.can_act(before[event.actor]):
            what = Line("elethril.line.attack_of", {"label": event.label, "number": event.number, "count": event.count}) \
                if event.count > 1 else event.label
            fighter = before[event.actor]
            state = "dead" if d.system.health(fighter.health, fighter).dead else "down"
            d.say("elethril.lost", refs={"actor": actor}, values={"state": state, "what": what})
            continue
        if event.phase in ("discharge", "instant"):
            discharge(d, event, actor, named, before)
        else:
            strike(d, event, actor, named, before)


def target_of(d: Draft, event: Event, actor: int, named, before, label: str) -> int | None:
    """The event's target, or None (said) when it is gone or was already dead as the step
    began (the step is simultaneous: one falling in it is still struck in it)."""
    target = named.get(event.target)
    if target is None:
        d.say("elethril.target_gone", refs={"actor": actor}, values={"label": label, "target": event.target})
        return None
    fighter = before[event.target]
    health = d.system.health(fighter.health, fighter)
    if health.dead:
        d.say("elethril.target_dead", refs={"actor": actor, "target": target}, values={"label": label})
        return None
    if actor in d.ai and not d.settings.get("helpless") and (health.incapacitated or d.is_idle(target)):
        d.say("ai.holds_back", refs={"actor": actor, "target": target}, values={"label": label})
        return None   # declared while the target could fight back: the AI leaves the helpless alone
    return target


def spoil_casting(d: Draft, victim: int, event: Event) -> Event | None:
    """Spoil the victim's spell if they are casting at ``event``'s moment (seed 3c)."""
    actions, spoiled = spoil(stored_actions(d), d.name(victim), event.round, event.segment, event.phase)
    if spoiled is not None:
        store_actions(d, actions)
    return spoiled


def strike(d: Draft, event: Event, actor: int, named, before) -> None:
    """A melee or missile attack at its segment: d20 against THAC0 - Armor Class, damage."""
    system = d.system
    attacker = before[event.actor]
    label = attack_label(event)     # "dagger (2/2, off-hand)"
    target = target_of(d, event, actor, named, before, label)
    if target is None:
        return
    mods = d.modifiers_for(actor)
    victim = d.combatant(target)
    rolled = system.attack(attacker, victim, event.weapon, d.dice, modifier=mods.difficulty, dice_modifier=mods.dice,
                           hand=event.hand)
    resolution = system.resolve(rolled, None, attacker, victim, d.dice)
    d.use_modifiers(actor)
    attacks.apply_resolution(d, resolution)
    lines = [*resolution.lines, *mods.notes]
    if resolution.hit:
        spoiled = spoil_casting(d, target, event)
        if spoiled is not None:
            lines.append(Line("elethril.line.spoiled", {"target": d.name(target), "label": spoiled.label}))
    d.add_log(event.actor, Line("elethril.title.strikes", {"label": label, "target": d.name(target)}), lines)
    d.say("elethril.strikes", refs={"attacker": actor, "target": target}, values={"label": label}, lines=lines)


def discharge(d: Draft, event: Event, caster: int, named, before) -> None:
    """A spell taking effect (seed 3c), or a magical item discharging its spell (3b, a charge
    spent as it goes off): its damage or healing; a damaged caster's own casting is spoiled."""
    target = None
    if event.target:
        target = target_of(d, event, caster, named, before, event.label)
        if target is None:
            return
    spent = spend_charge(d, caster, event) if event.item else []
    if spent is None:
        return
    resolution = d.system.spell_effect(event.spell, before[event.actor],
                                       d.combatant(target) if target is not None else None, d.dice)
    attacks.apply_resolution(d, resolution)
    lines = [*resolution.lines[1:], *spent]
    if resolution.hit and target is not None:
        spoiled = spoil_casting(d, target, event)
        if spoiled is not None:
            lines.append(Line("elethril.line.spoiled", {"target": d.name(target), "label": spoiled.label}))
    d.add_log(event.actor, Line("elethril.title.takes_effect", {"label": event.label}), [resolution.lines[0], *lines])
    if target is not None:
        d.say("elethril.takes_effect_on", refs={"caster": caster, "target": target}, values={"label": event.label},
              lines=lines)
    else:
        d.say("elethril.takes_effect", refs={"caster": caster}, values={"label": event.label}, lines=lines)


def end_round(d: Draft) -> None:
    """The round is over: the next one's declaring begins (carried actions stay)."""
    r = round_of(d) + 1
    fallen = cancel_fallen(d, (tick_of(r, 0), len(PHASES)))
    d.round = r
    d.extra.update(segment=0, declarations={}, segment_initiative={})
    kept = [action for action in stored_actions(d) if action.busy_in(r)]
    store_actions(d, kept)
    names = {d.name(fighter_id) for fighter_id in d.ids()}
    lines = []
    for action in kept:
        if action.actor not in names:
            continue
        coming = [e for e in action.events if e.round >= r and e.phase != "casting"]
        if coming:
            lines.append(Line("elethril.line.still_acting", {"actor": action.actor, "what": short(action),
                                                              "when": where(r, coming[0])}))
        else:
            lines.append(Line("elethril.line.reloading", {"actor": action.actor, "round": action.next_initiative_round}))
    turns.moved_to(d, ("segment", r, 0))
    d.say("elethril.round_over", values={"over": r - 1, "round": r}, lines=fallen + lines)
    waiting = to_declare(d)
    npcs = [d.name(item) for item in waiting if d.is_npc(item)]
    for fighter_id in waiting:
        if not d.is_npc(fighter_id):
            d.tell(fighter_id, "elethril.declare_yours", values={"round": r, "how": Line("elethril.value.how_to_declare")})
    if npcs and d.gm is not None:
        d.tell(d.gm, "elethril.declare_npcs", values={"names": ", ".join(npcs)})
    roll_when_ready(d)


# ------------------------------------------------------------------------- magical items
def item_charges_line(item: Mapping[str, Any], system) -> Line:
    """A sheet item with its number and charges left, as a line: ``"#2 wand of Fireball (3
    charges)"``."""
    charges = int(item["charges"])
    return Line("elethril.value.item_one_charge" if charges == 1 else "elethril.value.item_charges",
                {"number": item["id"], "item": sheet_item_line(item, system), "charges": charges})


def describe_item(item: Mapping[str, Any], system) -> str:
    """:func:`item_charges_line` in the game's words (``rules.lines.text_of``): ``"#2 wand of
    Fireball (3 charges)"``."""
    return text_of(item_charges_line(item, system), "elethril")


def sheet_item_line(item: Mapping[str, Any], system) -> Line:
    """A sheet item as a line, ``"wand of Fireball"`` (:func:`item_line`; the stored keys
    when the data no longer has them)."""
    kind = system.items.get(item.get("type"), (item.get("type") or "?",))[0]
    spell = system.spells.get(item.get("spell"))
    return item_line(kind, spell.name if spell else item.get("spell") or "?")


def item_words(item: Mapping[str, Any], system) -> str:
    """:func:`sheet_item_line` in the game's words (``rules.lines.text_of``): ``"wand of
    Fireball"``."""
    return text_of(sheet_item_line(item, system), "elethril")


def normal(text: str) -> str:
    """Typed words as a data key: ``"Magic Missile"`` → ``"magic-missile"``."""
    return "-".join(text.casefold().replace("'", "").replace(",", " ").split())


def items_of(d: Draft, fighter_id: int) -> list[dict]:
    return [dict(item) for item in d.gear(fighter_id, "magic_items", []) or []]


def pick_item(d: Draft, actor: int, text: str, storyteller: bool) -> tuple[str, Spell, int]:
    """The item ``use`` names: ``(type key, spell, sheet item id)``. One of the actor's own by
    number (``2``, ``#2``), type or spell (a unique start; ``<type>/<spell>`` narrows), with
    a charge left; for the game master declaring for an NPC, ``<type>/<spell>`` is any item
    (id 0: no sheet item, no charges). Raises CombatError."""
    system = d.system
    name = d.name(actor)
    wanted = text.strip()
    kind_text, slash, spell_text = wanted.partition("/")
    if slash and storyteller:
        if not kind_text.strip() or not spell_text.strip():
            raise CombatError(Line("elethril.refusal.name_item_spell_use"))
        return system.item_type(kind_text), system.spell(spell_text), 0
    items = items_of(d, actor)
    if not items:
        raise CombatError(Line("elethril.refusal.has_no_magical_items_any" if storyteller
                               else "elethril.refusal.has_no_magical_items", {"name": name}))
    number = wanted.removeprefix("#")
    if number.isascii() and number.isdigit():
        found = [i for i in items if len(number) <= MAX_ITEM_NUMBER_DIGITS and i["id"] == int(number)]
    else:
        kind, spell = normal(kind_text), normal(spell_text) if slash else ""
        found = [i for i in items if (slash and i["type"].startswith(kind) and i["spell"].startswith(spell))
                 or (not slash and kind and kind in (i["type"], i["spell"]))]
        if not found and not slash and kind:
            found = [i for i in items if i["type"].startswith(kind) or i["spell"].startswith(kind)]
    if not found:
        raise CombatError(Line("elethril.refusal.has_no_magical_item", {"name": name, "wanted": quote(wanted)}))
    if len(found) > 1:
        choices: str | Line = ", ".join(describe_item(i, system) for i in found)
        if len(choices) > 100:   # one short error line: the numbers only
            choices = Line("elethril.value.item_numbers", {"numbers": "#" + ", #".join(str(i["id"]) for i in found)})
        raise CombatError(Line("elethril.refusal.could_use_number", {"wanted": quote(wanted), "choices": choices}))
    item = found[0]
    kind, spell = system.item_type(item["type"]), system.spell(item["spell"])
    if int(item["charges"]) < 1:
        raise CombatError(Line("elethril.refusal.no_charges_left", {"name": name, "item": item_line(system.items[kind][0], spell.name),
                                                                    "number": item["id"]}))
    return kind, spell, int(item["id"])


def held_item(d: Draft, fighter_id: int, record: Mapping[str, Any]) -> dict | None:
    """The sheet item a declaration uses, checked again as initiative is rolled (staff may
    have taken it away); None when it uses none. Raises CombatError."""
    number = int(record.get("item_id") or 0)
    if not number:
        return None
    name = d.name(fighter_id)
    item = next((i for i in items_of(d, fighter_id) if i["id"] == number), None)
    if item is None or (item["type"], item["spell"]) != (record.get("item"), record.get("spell")):
        raise CombatError(Line("elethril.refusal.no_longer_holds_magical", {"name": name, "number": number}))
    if int(item["charges"]) < 1:
        raise CombatError(Line("elethril.refusal.has_no_charges_left", {"name": name, "item": sheet_item_line(item, d.system),
                                                                        "number": number}))
    return item


def spend_charge(d: Draft, caster: int, event: Event) -> list[Line] | None:
    """Spend a charge of the sheet item the caster discharges (``item_in_use``): the line
    saying so; [] for the game master's item for an NPC (no charges); None, said, when the
    item is gone or empty (nothing happens)."""
    number = d.conditions_of(caster).get("item_in_use")
    if not number:
        return []
    items = items_of(d, caster)
    item = next((i for i in items if i["id"] == number and (i["type"], i["spell"]) == (event.item, event.spell)),
                None)
    if item is None or int(item["charges"]) < 1:
        why = Line("elethril.line.why_gone" if item is None else "elethril.line.why_empty")
        d.add_log(event.actor, Line("elethril.title.fails", {"label": event.label}), [Line("elethril.line.item_gone" if item is None
                                                             else "elethril.line.item_empty", {"label": event.label})])
        d.say("elethril.item_fails", refs={"caster": caster}, values={"label": event.label, "why": why})
        return None
    item["charges"] = int(item["charges"]) - 1
    d.set_gear(caster, "magic_items", items)
    return [Line("elethril.line.charge_spent", {"actor": event.actor, "label": event.label, "number": number,
                                                "left": item["charges"]})]


# ----------------------------------------------------------------- the shared, reworded
class Initiative(Action):
    """``+combat/init`` and ``+npc/init``: nothing to roll alone; ``data["fighter"]`` (an NPC
    the game master names) is brought in first, as the shared action would."""

    key = "initiative"

    def perform(self, d: Draft, intent: Intent) -> None:
        raise CombatError(NO_INITIATIVE)


class NpcInitiative(Action):
    key = "npc_initiative"

    def perform(self, d: Draft, intent: Intent) -> None:
        raise CombatError(NO_NPC_INITIATIVE)


class DeclareNothing(Action):
    """The NPC AI, with nothing it may declare (``data["why"]``): said, and nothing kept."""

    key = "pass"

    def perform(self, d: Draft, intent: Intent) -> None:
        actor = require_actor(d, intent)
        d.say("ai.declares_nothing", refs={"target": actor}, values={"why": intent.data.get("why", "")})


#: The elethril fight's actions, by key: the shared controls and joining, its own declaring
#: and playing in place of the turn's (no aim and no acting order: the segments decide).
ACTIONS: Mapping[str, Action] = {
    **{key: action for key, action in STANDARD.items() if key not in ("aim", "order")},
    **{action.key: action for action in (
        DeclareAttack(), DeclareSpell(), DeclareItem(), Forfeit(), Modifiers(), OffHand(), Party(), Delay(), Next(),
        Initiative(), NpcInitiative(), DeclareNothing(),
    )},
}

