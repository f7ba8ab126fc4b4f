"""The storyteller fight's actions: the shared ones (``rules.engine.actions.STANDARD``) and
``+cast`` (the storyteller seed, Magical Attack and Magical Shield; ``docs/rules/storyteller.md``
"Magic"). Casting is Power vs 6 and Control vs 10 in one action; an attack spell then rolls to
hit and opens a defense window like any attack; a shield raises a shield that blocks magical
attacks, and cast against a spell waiting on the caster it is their defense.
"""

from __future__ import annotations

from rules.engine import attacks, turns
from rules.engine.actions import STANDARD, Action, require_actor
from rules.engine.draft import Draft
from rules.engine.intents import Intent
from rules.lines import Line
from rules.systems.base import CombatError


class Cast(Action):
    """``+cast <spell>[=<targets>]``: ``option`` the spell, ``targets`` its target (an attack)
    or those it protects (a shield); ``data["damage"]``: Special Effect successes on damage,
    not the hit. On the caster's turn, but a shield cast against a spell waiting on the caster
    is their defense (it uses their action for the round)."""

    key = "cast"

    def perform(self, d: Draft, intent: Intent) -> None:
        actor = require_actor(d, intent)
        magic = d.system.magic
        if magic is None:
            raise CombatError(Line("refusal.rules_have_no_spells", {"system": d.system.key}))
        spell = magic.spell(intent.option)
        waiting = [pending for pending in d.pending if pending.target == actor and pending.attack.get("magic")]
        as_defense = spell.kind == "shield" and bool(waiting)
        if as_defense:
            if not attacks.can_defend(d, actor):
                raise CombatError(Line("storyteller.refusal.has_already_acted_this_round_cannot", {"actor": d.name(actor)}))
        else:
            turns.require_turn(d, actor)
        target = None
        protected: list[str] = []
        if spell.kind == "attack":
            if len(intent.targets) != 1:
                raise CombatError(Line("storyteller.refusal.name_one_target_cast", {"spell": spell.key}))
            target = intent.target
            if target == actor:
                raise CombatError(Line("storyteller.refusal.you_cannot_aim_spell"))
        elif spell.kind == "shield":
            protected = [d.name(item) for item in intent.targets]
        elif intent.targets:
            raise CombatError(Line("storyteller.refusal.takes_no_targets_fight", {"spell": spell.name}))
        rolled = magic.cast(d.combatant(actor), spell.key, d.dice)  # a tackle's +1 too
        shield = None
        if spell.kind == "shield" and not rolled.fizzled:
            shield = magic.raise_shield(rolled, protected)
        attack = None
        mods = d.modifiers_for(actor)
        if spell.kind == "attack" and not rolled.fizzled:
            se_to_hit = 0 if intent.data.get("damage") else rolled.special_effects
            attack = magic.magical_attack(d.sheet(actor), d.sheet(target), rolled, d.dice,
                                          se_to_hit=se_to_hit, modifier=mods.difficulty, dice_modifier=mods.dice)
        if attack is not None:
            d.use_modifiers(actor)
        turns.use_action(d, actor, None if as_defense else turns.current_slot(d)[0])
        lines = list(rolled.lines())
        # the to-hit roll is logged here, once; its resolution is logged without it
        d.add_log(d.name(actor), Line("storyteller.title.casts", {"spell": spell.name}),
                  [*lines, *((attack.describe(), *mods.notes) if attack is not None else ())])
        d.say("magic.cast", refs={"actor": actor}, values={"spell": spell.name}, lines=lines)
        if shield is not None:
            standing = attacks.shields(d)
            standing.update({name: shield for name in shield.protected})
            attacks.store_shields(d, standing)
            d.say("magic.shield", values={"shield": shield.line()})
        if as_defense:
            pending = waiting[0]
            attacks.close(d, pending)
            attacks.finish(d, pending.attacker, actor, d.attack_of(pending.attack), None)
        elif attack is not None:
            attacks.deliver(d, actor, target, attack)
        else:
            turns.announce_turn(d)


ACTIONS = {**STANDARD, Cast.key: Cast()}
