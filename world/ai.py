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
from rules.systems import CombatError
from world import encounters, fights, magic
from world.fight import (
    ai_ids,
    announce,
    combatant,
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
    (on when no state is given). Returns
    the NPCs changed. Raises CombatError, changing nothing: not the Storyteller or staff, a
    bad state, more than ``MAX_NAMES`` names, an unknown name, a player character, ``all``
    with no NPC in the fight."""
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
class _Probe:
    """A roller that shows every die's middle face: an attack or defense rolled with it
    tells its pool (or bonus) without drawing a die of the fight."""

    def roll(self, sides: int) -> int:
        return (sides + 1) // 2


def _dice(result) -> int:
    """The pool of a rolled attack or defense (pool systems), or its total with middle dice
    (single-die systems)."""
    pool = getattr(result, "pool", None)
    if pool is not None and hasattr(pool, "size"):
        return int(pool.size)
    total = getattr(getattr(result, "roll", None), "total", None)
    return int(total) if isinstance(total, int) else 0


def _damage(result, attacker) -> int:
    """What a hit of ``result`` adds to the damage: its maneuver's damage trait and bonus,
    where the system keeps them there (storyteller); else 0."""
    maneuver = getattr(result, "maneuver", None)
    trait = getattr(maneuver, "damage_trait", "") or ""
    bonus = getattr(maneuver, "damage_bonus", 0) or 0
    return (attacker.trait(trait) if trait else 0) + int(bonus)


def attack_options(system, attacker, target) -> list[npc_ai.Option]:
    """The attacks ``attacker``'s sheet allows on ``target``: the weapon in hand (or the
    unarmed default), then every maneuver that is not a weapon (a weapon must be in hand);
    each measured by rolling it with middle dice (one the rules refuse is left out)."""
    weapons = set(getattr(system, "weapons", None) or ())
    names = ["", *(option for option in system.attack_options() if option not in weapons)]
    found = []
    for option in names:
        try:
            rolled = system.attack(attacker, target, option, _Probe())
        except (CombatError, KeyError, ValueError):
            continue
        found.append(npc_ai.Option(option, _dice(rolled), _damage(rolled, attacker)))
    return found


def defense_options(system, rolled, defender) -> list[npc_ai.Option]:
    """The defenses the system offers ``defender`` against ``rolled`` that the rules allow,
    each measured by rolling it with middle dice."""
    found = []
    for choice in system.defense_choices(rolled, defender):
        try:
            defense = system.defend(rolled, defender, choice, _Probe())
        except (CombatError, KeyError, ValueError):
            continue
        found.append(npc_ai.Option(choice, _dice(defense)))
    return found


def spell_option(system, caster) -> tuple[str, npc_ai.Option] | None:
    """The attack spell ``caster``'s sheet lets it cast (``rules.npc_ai.choose_spell``, from its
    Power) with its to-hit pool and damage dice (Power), or None: the system has no spells,
    or the caster no Power for any."""
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
    return chosen.key, npc_ai.Option(chosen.key, dice, power, spell=True)


def _fighters(encounter, system) -> tuple[list[npc_ai.Fighter], dict[str, str]]:
    """The fight's fighters as the AI sees them, and the sides set, by name."""
    seen = []
    for obj in fighters(encounter):
        fighter = combatant(encounter, obj, system)
        health = system.health(fighter.health, fighter)
        current, maximum = health.meter
        hurt = 1 - current / maximum if maximum else 0.0
        seen.append(npc_ai.Fighter(obj.key, is_npc(obj), hurt, bool(health.incapacitated), bool(health.dead)))
    by_id = {obj.id: obj.key for obj in fighters(encounter)}
    chosen = {by_id[int(obj_id)]: side for obj_id, side in fights.copied(encounter.sides or {}).items()
              if int(obj_id) in by_id}
    return seen, chosen


# ------------------------------------------------------------------------------- acting
def take_turn(encounter, npc) -> None:
    """``npc``'s turn (or, elethril, its declaration): attack the enemy ``rules.npc_ai``
    picks with its best attack; with no enemy (or when the rules refuse every attack), pass."""
    system = system_of(encounter)
    seen, chosen = _fighters(encounter, system)
    name = npc_ai.choose_target(npc.key, seen, chosen)
    if name is not None:
        target = find_combatant(encounter, name)
        if encounters.declared(encounter):
            best = npc_ai.Option("", 0)   # elethril declares with the weapon in hand
        else:
            me = combatant(encounter, npc, system)
            options = attack_options(system, me, combatant(encounter, target, system))
            spell = spell_option(system, me)
            best = npc_ai.choose_attack(options + ([spell[1]] if spell else []))
        if best is not None:
            try:
                if best.spell:
                    magic.cast(npc, None, best.option, [target.key])
                else:
                    encounters.attack(npc, None, target.key, best.option)
                return
            except CombatError as refused:
                why = str(refused).rstrip(".")
        else:
            why = "no attack the rules allow"
    else:
        why = "no enemy in the fight"
    if encounters.declared(encounter):
        announce(encounter, "{target} (AI) declares nothing: " + escape_for_room(why) + ".", mapping={"target": npc})
        return
    at, _ = encounters.current_slot(encounter)
    encounters.use_action(encounter, npc, at, counts=False)
    announce(encounter, "{target} (AI) passes: " + escape_for_room(why) + ".", mapping={"target": npc})
    encounters.announce_turn(encounter)


def answer(encounter, npc, pending: dict) -> None:
    """Answer the attack ``pending`` on ``npc`` with its best defense, or none when it has no
    defense left."""
    system = system_of(encounter)
    choice = "none"
    if system.defend_after_acting or not encounters.out_of_actions(encounter, npc):
        rolled = rebuild_attack(system, pending["attack"])
        best = npc_ai.choose_defense(defense_options(system, rolled, combatant(encounter, npc, system)))
        if best is not None:
            choice = best.option
    try:
        encounters.defend(npc, None, choice)
    except CombatError:   # refused (too few dice left, a rule the measure did not see): none
        if choice == "none":
            raise
        encounters.defend(npc, None, "none")


def step(encounter, done: set) -> bool:
    """One AI step in ``encounter``, if it waits on an AI NPC; False when it does not.
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
    system = system_of(encounter)
    if flow := encounters.declared(encounter):
        for obj in flow.to_declare(encounter, system):
            key = ("declare", int(encounter.round), obj.id)
            if obj.id in ids and key not in done:
                done.add(key)
                take_turn(encounter, obj)
                return True
        return False
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
