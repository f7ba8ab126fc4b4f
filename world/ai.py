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

from evennia.utils import logger
from twisted.internet import reactor

from rules import npc_ai
from rules.dice.odds import MiddleRoller
from rules.engine import Intent, turns
from rules.systems import CombatError
from world import combat, fights
from world.reactor import soon

USAGE = "Usage: +combat/ai <npc>[,<npc>...][=on or off]  (all: every NPC in the fight)"
MAX_NAMES = 20
MAX_STEPS = 200


# ----------------------------------------------------------------------------- the switch
def set_ai(caller, names_text: str, state_text: str | None) -> list[int]:
    """The game master: ``+combat/ai <npc>[,<npc>...][=on or off]`` or ``all`` for every NPC
    in the fight (on when no state is given); a name given twice counts once. Returns the ids
    changed. Raises CombatError, changing nothing: not the game master or staff, a bad state,
    more than ``MAX_NAMES`` names, an unknown name, a player character, ``all`` with no NPC
    in the fight, every NPC named already so."""
    row = combat.require_fight(caller)
    combat.require_gm(caller, row, "hand NPCs to the AI")
    state = (state_text if state_text is not None else "on").strip().casefold()
    if state not in ("on", "off"):
        raise CombatError(USAGE)
    text = names_text.strip()
    if text.casefold() == "all":
        ids = [fighter.id for fighter in fights.state(row).fighters if fighter.npc]
        if not ids:
            raise CombatError("No NPC is in this fight.")
    else:
        names = [name.strip() for name in text.split(",")]
        if not all(names):
            raise CombatError(USAGE)
        if len(names) > MAX_NAMES:
            raise CombatError(f"Name at most {MAX_NAMES} NPCs at once (or all).")
        ids = [combat.find(row, name) for name in names]
    return combat.perform(caller, row, "ai", targets=tuple(dict.fromkeys(ids)), option=state)


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
    weapons = system.weapons
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
    if magic is None:
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


def _fighters(d) -> tuple[list[npc_ai.Fighter], dict[str, str]]:
    """The fight's fighters as the AI sees them, and the sides set, each named by its id
    (``"#12"``): two fighters never share one."""
    seen = []
    for fighter_id in d.ids():
        health = d.health(fighter_id)
        seen.append(npc_ai.Fighter(f"#{fighter_id}", d.is_npc(fighter_id), _hurt(d.system, d.combatant(fighter_id), health),
                                   bool(health.incapacitated), bool(health.dead), d.is_idle(fighter_id)))
    chosen = {f"#{int(fighter_id)}": side for fighter_id, side in (d.extra.get("sides") or {}).items()
              if d.has(int(fighter_id))}
    return seen, chosen


# ------------------------------------------------------------------------------- acting
def take_turn(row, npc: int) -> None:
    """The NPC's turn (or, in declared rounds, its declaration): attack the best enemy
    ``rules.npc_ai.rank_targets`` gives with the attack ``choose_attack`` picks, else the next
    enemy (the rules refuse every attack on a hidden one); with none left, pass. Held, it
    tries to escape; in a clinch (aeon), it contests control to crush."""
    d = fights.reading(row)
    system = d.system
    seen, chosen = _fighters(d)
    declaring = system.declared_rounds
    me = d.combatant(npc)
    why = "no enemy in the fight"
    try:
        turns.require_free(d, npc)
        bound = False
    except CombatError:
        bound = True
    if bound and not declaring:
        clinched = d.conditions_of(npc).get("clinch_with")
        intent = Intent("clinch", actor=npc, option="crush") if clinched else Intent("escape", actor=npc)
        try:
            fights.perform(row, intent)
            return
        except CombatError as refused:
            why = str(refused).rstrip(".")
    targets = [] if bound else npc_ai.rank_targets(f"#{npc}", seen, chosen, bool(d.settings.get("helpless")))
    if not bound and not targets and npc_ai.enemies(f"#{npc}", seen, chosen):
        why = "only the helpless are left, and +combat/helpless is off"
    for name in targets:
        target = int(name[1:])
        if declaring:
            best = npc_ai.Option("", 0)   # declared rounds: the weapon in hand
        else:
            them = d.combatant(target)
            spell = spell_option(system, me)
            best = npc_ai.choose_attack(attack_options(system, me, them) + ([spell] if spell else []))
        if best is None:
            why = "no attack the rules allow with a chance to hit"
            continue
        action = "cast" if best.spell else "attack"
        try:
            fights.perform(row, Intent(action, actor=npc, targets=(target,), option=best.option))
            return
        except CombatError as refused:
            why = str(refused).rstrip(".")
    fights.perform(row, Intent("pass", actor=npc, data={"why": why}))


def answer(row, npc: int, pending) -> None:
    """Answer the attack ``pending`` on the NPC with its best defense; none when it has no
    defense left, or when a defense would cost the action it has not taken yet and it is
    less than half hurt (``rules.npc_ai.worth_defending``)."""
    d = fights.reading(row)
    system = d.system
    choice = "none"
    kept = False
    me = d.combatant(npc)
    spends_action = not system.defend_after_acting
    if not spends_action or not turns.out_of_actions(d, npc):
        if npc_ai.worth_defending(_hurt(system, me), spends_action):
            best = npc_ai.choose_defense(defense_options(system, d.attack_of(pending.attack), me))
            if best is not None:
                choice = best.option
        else:
            kept = True
    try:
        fights.perform(row, Intent("defend", actor=npc, option=choice, data={"kept": True} if kept else {}))
    except CombatError:   # refused (too few dice left, a rule the measure did not see): none
        if choice == "none":
            raise
        fights.perform(row, Intent("defend", actor=npc, option="none"))


def step(row, done: set) -> bool:
    """One AI step in the fight, if it waits on an AI NPC; False when it does not. An AI
    NPC rolls its own initiative when it has none (eldritch: each round); no turn is taken
    before everyone able to act has rolled, nor while the fight holds only NPCs and no sides
    are set (the players are still to join). ``done``: the turns already taken in this chain,
    so none is taken twice: a declaration by (round, id), an action slot by (round, slot, id,
    the fight's event number then), taken again only once an action has changed the fight."""
    d = fights.reading(row)
    ids = set(d.ai)
    for pending in d.pending:
        if pending.target in ids:
            answer(row, pending.target, pending)
            return True
    if d.pending:   # the fight waits for a defense by someone else
        return False
    if not d.extra.get("sides") and all(d.is_npc(fighter_id) for fighter_id in d.ids()):
        return False   # NPCs alone, no sides set: the players are still to join
    here = {thing.id for thing in (fights.obj(row.room_id).contents if fights.obj(row.room_id) else [])}
    if d.system.declared_rounds:
        for fighter_id in d.system.to_declare(d):
            key = ("declare", int(d.round), fighter_id)
            if fighter_id in ids and key not in done:
                done.add(key)
                take_turn(row, fighter_id)
                return True
        return False
    awaiting = turns.awaiting_initiative(d)
    for fighter_id in awaiting:
        if fighter_id in ids and fighter_id in here:   # an AI NPC rolls its own
            fights.perform(row, Intent("initiative", actor=fighter_id))
            return True
    if awaiting:
        return False   # the round's order is not known until everyone able has rolled
    at, waiting = turns.current_slot(d)
    for fighter_id in waiting:
        key = (int(d.round), at, fighter_id, fights.seq(row))
        if fighter_id in ids and key not in done and fighter_id in here:
            done.add(key)
            take_turn(row, fighter_id)
            return True
    return False


# ------------------------------------------------------------------------------- timing
_due: set[int] = set()
_done: set = set()
_steps = 0
_draining = False


def heard(event: fights.FightEvent) -> None:
    """The event stream's subscriber: note a fight that changed."""
    if event.kind != "ended":
        _due.add(event.fight)


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
            fight_id = _due.pop()
            row = next((row for row in fights.running() if row.pk == fight_id), None)
            if row is None or not fights.state(row).ai:
                continue
            _steps += 1
            try:
                with fights.unit("ai"):
                    stepped = step(row, _done)
            except Exception:
                logger.log_trace(f"Fray: the NPC AI failed in fight #{fight_id}.")
                continue
            if stepped:
                _due.add(fight_id)
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
