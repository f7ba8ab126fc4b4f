"""NPCs that act (``+combat/ai``): the Storyteller hands NPCs to the AI, which takes their
turns and answers the attacks on them, through the same services as the Storyteller's own
``attack <npc>=...`` and ``defend <npc>=...``.

Which NPCs: the fight's ``ai`` field (object ids), set by :func:`set_ai`. Whom they fight:
the fight's ``sides`` (``+combat/side``, every system), else player characters against NPCs.
What they choose: ``rules.npc_ai`` (pure), from the options measured here.

When: after every command's unit has committed and published (``fights.when_settled``),
:func:`drain` looks at each fight that had events; while one waits on an AI NPC, the AI
takes one step in a unit of its own — a defense for an attack waiting on it, else its turn
(elethril: its declaration). The narration goes to the room as for any action. One step a
reactor tick: the Server takes other players' commands between the steps of a large AI
fight. A step never advances the round (``+combat/next`` stays the Storyteller's), an NPC
takes an action slot again only once the fight has changed since (a split fighter's next
action), and a chain of steps takes at most ``MAX_STEPS``: it always ends, at the latest with
the round.
"""

from __future__ import annotations

from evennia.objects.models import ObjectDB
from evennia.utils import logger
from twisted.internet import reactor

from rules import npc_ai
from rules.dice.odds import MiddleRoller
from rules.systems import CombatError
from world import aeon, encounters, fights, magic
from world.fight import (
    ai_ids,
    announce,
    combatant,
    conditions_of,
    encounter_in,
    fighters,
    find_combatant,
    rebuild_attack,
    require_encounter,
    require_storyteller,
    system_of,
)
from world.reactor import soon
from world.sheets import is_npc
from world.text import escape_for_room

USAGE = "Usage: +combat/ai <npc>[,<npc>...][=on or off]  (all: every NPC in the fight)"
MAX_NAMES = 20
MAX_STEPS = 200


# ----------------------------------------------------------------------------- the switch
def set_ai(caller, names_text: str, state_text: str | None) -> list:
    """ST: ``+combat/ai <npc>[,<npc>...][=on or off]`` or ``all`` for every NPC in the fight
    (on when no state is given); a name given twice counts once. Returns the NPCs changed
    (those already so are left out of the announcement). Raises CombatError, changing
    nothing: not the Storyteller or staff, a bad state, more than ``MAX_NAMES`` names, an
    unknown name, a player character, ``all`` with no NPC in the fight, every NPC named
    already so."""
    encounter = require_encounter(caller)
    require_storyteller(caller, encounter, "hand NPCs to the AI")
    state = (state_text if state_text is not None else "on").strip().casefold()
    if state not in ("on", "off"):
        raise CombatError(USAGE)
    text = names_text.strip()
    if text.casefold() == "all":
        objs = [obj for obj in fighters(encounter) if is_npc(obj)]
        if not objs:
            raise CombatError("No NPC is in this fight.")
    else:
        names = [name.strip() for name in text.split(",")]
        if not all(names):
            raise CombatError(USAGE)
        if len(names) > MAX_NAMES:
            raise CombatError(f"Name at most {MAX_NAMES} NPCs at once (or all).")
        objs = list(dict.fromkeys(find_combatant(encounter, name) for name in names))
        for obj in objs:
            if not is_npc(obj):
                raise CombatError(f"{obj.key} is a player character: the AI runs only NPCs.")
    ids = ai_ids(encounter)
    objs = [obj for obj in objs if (obj.id in ids) != (state == "on")]
    if not objs:
        raise CombatError(("Already run by the AI." if state == "on" else "Not run by the AI: nothing to switch off.")
                          + " (+combat shows (AI) beside each.)")
    ids = ids | {obj.id for obj in objs} if state == "on" else ids - {obj.id for obj in objs}
    encounter.ai = sorted(ids)
    who = ", ".join(obj.key for obj in objs)
    if state == "on":
        text = f"{who}: run by the AI now (+combat/ai {objs[0].key}=off hands {'it' if len(objs) == 1 else 'them'} back)."
    else:
        text = f"{who}: run by the Storyteller again."
    announce(encounter, escape_for_room(text))
    return objs


# ---------------------------------------------------------------------------- measuring
def _dice(result) -> int:
    """The pool of a rolled attack or defense (pool systems), or its total with middle dice
    (single-die systems)."""
    pool = getattr(result, "pool", None)
    if pool is not None and hasattr(pool, "size"):
        return int(pool.size)
    total = getattr(getattr(result, "roll", None), "total", None)
    return int(total) if isinstance(total, int) else 0


def _at_hand(weapon) -> bool:
    """A weapon every fighter has without holding it (aeon's punch, kick and clinch)."""
    return bool(getattr(weapon, "unarmed", False) or getattr(weapon, "clinch", False))


def attack_options(system, attacker, target) -> list[npc_ai.Option]:
    """The attacks ``attacker``'s sheet allows on ``target``: the weapon in hand (or the
    unarmed default), then every maneuver and every weapon always at hand (another weapon
    must be in hand); each with its pool (rolled with middle dice), what a hit does
    (``system.hit_damage``) and its exact chance to hit (``system.attack_chance``). One the
    rules refuse is left out."""
    weapons = getattr(system, "weapons", None) or {}
    names = ["", *(option for option in system.attack_options()
                   if option not in weapons or _at_hand(weapons[option]))]
    found = []
    for option in names:
        try:
            rolled = system.attack(attacker, target, option, MiddleRoller())
        except (CombatError, KeyError, ValueError):
            continue
        chance = float(system.attack_chance(attacker, target, option))
        found.append(npc_ai.Option(option, _dice(rolled), system.hit_damage(rolled, attacker), chance,
                                   str(getattr(rolled, "damage_type", "") or "")))
    return found


def defense_options(system, rolled, defender) -> list[npc_ai.Option]:
    """The defenses the system offers ``defender`` against ``rolled`` that the rules allow,
    each measured by rolling it with middle dice."""
    found = []
    for choice in system.defense_choices(rolled, defender):
        try:
            defense = system.defend(rolled, defender, choice, MiddleRoller())
        except (CombatError, KeyError, ValueError):
            continue
        found.append(npc_ai.Option(choice, _dice(defense)))
    return found


def spell_option(system, caster) -> npc_ai.Option | None:
    """The attack spell ``caster``'s sheet lets it cast (``rules.npc_ai.choose_spell``, from its
    Power), with its to-hit pool, damage dice (Power) and chance to be cast and hit; None: the
    system has no spells, or the caster no Power for any."""
    magic = system.magic
    if magic is None or not hasattr(magic, "spells"):
        return None
    spells = [npc_ai.SpellChoice(key, spell.required, spell.damage_type)
              for key, spell in magic.spells.items() if spell.kind == "attack"]
    power = caster.trait(magic.power_trait)
    chosen = npc_ai.choose_spell(spells, power)
    if chosen is None:
        return None
    dice = sum(caster.trait(name) for name in magic.to_hit)
    chance = float(magic.attack_chance(caster, chosen.key))
    return npc_ai.Option(chosen.key, dice, power, chance, chosen.damage_type, spell=True)


def _hurt(system, fighter, health=None) -> float:
    """How much of ``fighter``'s health is gone, 0.0 (whole) to 1.0."""
    current, maximum = (health or system.health(fighter.health, fighter)).meter
    return 1 - current / maximum if maximum else 0.0


def _fighters(encounter, system) -> tuple[list[npc_ai.Fighter], dict[str, str]]:
    """The fight's fighters as the AI sees them, and the sides set, each named by its object
    id (``"#12"``): two fighters never share one."""
    seen = []
    for obj in fighters(encounter):
        fighter = combatant(encounter, obj, system)
        health = system.health(fighter.health, fighter)
        seen.append(npc_ai.Fighter(f"#{obj.id}", is_npc(obj), _hurt(system, fighter, health),
                                   bool(health.incapacitated), bool(health.dead)))
    present = {obj.id for obj in fighters(encounter)}
    chosen = {f"#{int(obj_id)}": side for obj_id, side in fights.copied(encounter.sides or {}).items()
              if int(obj_id) in present}
    return seen, chosen


# ------------------------------------------------------------------------------- acting
def take_turn(encounter, npc) -> None:
    """``npc``'s turn (or, elethril, its declaration): attack the best enemy
    ``rules.npc_ai.rank_targets`` gives with the attack ``choose_attack`` picks, else the next
    enemy (the rules refuse every attack on a hidden one); with none left, pass. Held, it
    tries to escape; in a clinch (aeon), it contests control to crush."""
    system = system_of(encounter)
    seen, chosen = _fighters(encounter, system)
    declaring = encounters.declared(encounter)
    me = combatant(encounter, npc, system)
    why = "no enemy in the fight"
    try:
        encounters.require_free(encounter, npc)
        bound = False
    except CombatError:
        bound = True
    if bound and not declaring:
        try:
            if conditions_of(encounter, npc).get("clinch_with"):
                aeon.clinch(npc, None, "crush")
            else:
                encounters.escape_hold(npc, None)
            return
        except CombatError as refused:
            why = str(refused).rstrip(".")
    by_id = {f"#{obj.id}": obj for obj in fighters(encounter)}
    for name in [] if bound else npc_ai.rank_targets(f"#{npc.id}", seen, chosen):
        target = by_id[name]
        if declaring:
            best = npc_ai.Option("", 0)   # elethril declares with the weapon in hand
        else:
            them = combatant(encounter, target, system)
            spell = spell_option(system, me)
            best = npc_ai.choose_attack(attack_options(system, me, them) + ([spell] if spell else []))
        if best is None:
            why = "no attack the rules allow with a chance to hit"
            continue
        try:
            if best.spell:
                magic.cast(npc, None, best.option, [target.key])
            elif declaring:
                encounters.attack(npc, None, target.key, best.option)
            else:
                encounters.attack_in_turn(encounter, npc, target, best.option)
            return
        except CombatError as refused:
            why = str(refused).rstrip(".")
    if declaring:
        announce(encounter, "{target} (AI) declares nothing: " + escape_for_room(why) + ".", mapping={"target": npc})
        return
    at, _ = encounters.current_slot(encounter)
    encounters.use_action(encounter, npc, at, counts=False)
    announce(encounter, "{target} (AI) passes: " + escape_for_room(why) + ".", mapping={"target": npc})
    encounters.announce_turn(encounter)


def answer(encounter, npc, pending: dict) -> None:
    """Answer the attack ``pending`` on ``npc`` with its best defense; none when it has no
    defense left, or when a defense would cost the action it has not taken yet and it is
    less than half hurt (``rules.npc_ai.worth_defending``)."""
    system = system_of(encounter)
    choice = "none"
    me = combatant(encounter, npc, system)
    spends_action = not system.defend_after_acting
    if not spends_action or not encounters.out_of_actions(encounter, npc):
        if npc_ai.worth_defending(_hurt(system, me), spends_action):
            rolled = rebuild_attack(system, pending["attack"])
            best = npc_ai.choose_defense(defense_options(system, rolled, me))
            if best is not None:
                choice = best.option
        else:
            announce(encounter, "{target} (AI) keeps its action for its turn: no defense.", mapping={"target": npc})
    try:
        encounters.defend(npc, None, choice)
    except CombatError:   # refused (too few dice left, a rule the measure did not see): none
        if choice == "none":
            raise
        encounters.defend(npc, None, "none")


def step(encounter, done: set) -> bool:
    """One AI step in ``encounter``, if it waits on an AI NPC; False when it does not.
    An AI NPC rolls its own initiative when it has none (eldritch: each round); no turn is
    taken before everyone able to act has rolled, nor while the fight holds only NPCs and no
    sides are set (the players are still to join).
    ``done``: the turns already taken in this chain, so none is taken twice: a declaration by
    (round, id), an action slot by (round, slot, id, the fight's event number then), taken
    again only once an action has changed the fight (a split fighter's next action)."""
    ids = ai_ids(encounter)
    waiting = encounters.pending_attacks(encounter)
    for pending in waiting:
        if pending["target"].id in ids:
            answer(encounter, pending["target"], pending)
            return True
    if waiting:   # the fight waits for a defense by someone else
        return False
    if not encounter.sides and all(is_npc(obj) for obj in fighters(encounter)):
        return False   # NPCs alone, no sides set: the players are still to join
    system = system_of(encounter)
    if flow := encounters.declared(encounter):
        for obj in flow.to_declare(encounter, system):
            key = ("declare", int(encounter.round), obj.id)
            if obj.id in ids and key not in done:
                done.add(key)
                take_turn(encounter, obj)
                return True
        return False
    awaiting = encounters.awaiting_initiative(encounter, system)
    for obj in awaiting:
        if obj.id in ids and obj.location == encounter.obj:   # an AI NPC rolls its own
            encounters.roll_initiative(obj, encounter, obj)
            return True
    if awaiting:
        return False   # the round's order is not known until everyone able has rolled
    at, waiting = encounters.current_slot(encounter)
    for obj in waiting:
        key = (int(encounter.round), at, obj.id, fights.seq(encounter))
        if obj.id in ids and key not in done and obj.location == encounter.obj:
            done.add(key)
            take_turn(encounter, obj)
            return True
    return False


# ------------------------------------------------------------------------------- timing
_due: set[int] = set()
_done: set = set()
_steps = 0
_draining = False


def heard(event: fights.FightEvent) -> None:
    """The event stream's subscriber: note the room of a fight that changed."""
    if event.kind != "ended" and event.room is not None:
        _due.add(event.room.id)


def drain() -> None:
    """Run the AI's steps in the fights noted since, each in its own unit
    (``fights.when_settled`` calls it after each command): one step, then the next on the
    reactor's next tick (with no reactor running, the game-tier tests, all at once). A step
    that fails is logged and ends that fight's steps; the command before it stands."""
    global _draining, _steps
    if _draining:
        return
    _draining = True
    try:
        while _due and _steps < MAX_STEPS:
            room_id = _due.pop()
            room = ObjectDB.get_cached_instance(room_id) or ObjectDB.objects.filter(id=room_id).first()
            encounter = encounter_in(room)
            if encounter is None or not fights.stored(encounter, "ai"):
                continue
            _steps += 1
            try:
                with fights.unit("ai"):
                    stepped = step(encounter, _done)
            except Exception:
                logger.log_trace(f"Fray: the NPC AI failed in {room}.")
                continue
            if stepped:
                _due.add(room_id)
                if reactor.running:
                    break   # the next step on the next tick: other commands run between
    finally:
        _draining = False
    if _due and _steps < MAX_STEPS and reactor.running:
        soon(drain)
    else:   # the chain has ended
        _due.clear()
        _done.clear()
        _steps = 0


fights.subscribe(heard)
fights.when_settled(drain)
