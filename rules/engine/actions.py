"""Actions as objects: each thing a fight can be asked to do is one :class:`Action`, found by
its key in the fight's rule system (``RuleSystem.actions``), and played by
:func:`rules.engine.step` on a :class:`~rules.engine.draft.Draft`.

:data:`STANDARD` holds the actions every system that plays turns shares: the game master's
controls, joining and leaving, initiative, attacking, defending, escaping a hold and aiming.
A system's package adds its own (an aeon clinch, an eldritch Sacrifice) or puts its own in
place of one (elethril declares its attacks: ``rules.systems.elethril.actions``).

An action checks what the rules refuse, before any die, by raising ``CombatError`` (one
player-facing line): the step then keeps nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rules.engine import attacks, splits, turns
from rules.engine.draft import Draft
from rules.engine.events import Line
from rules.engine.intents import Intent
from rules.engine.state import Fighter
from rules.systems.base import CombatError, InitiativeRoll
from rules.text import quote


class Action:
    """One thing a fight can be asked to do. ``key`` is the intent's ``action``. An action
    players type as a command of its own has a ``verb`` (the game makes the command:
    ``commands/actions.py``), ``takes`` what follows it (``"target"``: a fighter's name, or
    ``""``: nothing), a ``usage`` line and a ``help`` text."""

    key: ClassVar[str] = ""
    verb: ClassVar[str] = ""
    takes: ClassVar[str] = ""
    usage: ClassVar[str] = ""
    help: ClassVar[str] = ""

    def perform(self, d: Draft, intent: Intent) -> Any:
        """Play ``intent`` on ``d``. Raises CombatError (nothing is kept) when it refuses."""
        raise NotImplementedError


def require_actor(d: Draft, intent: Intent) -> int:
    """The intent's actor, who must be in the fight. Raises CombatError."""
    if intent.actor is None or not d.has(intent.actor):
        raise CombatError(Line("refusal.you_not_this_fight"))
    return intent.actor


def require_target(d: Draft, intent: Intent) -> int:
    if intent.target is None or not d.has(intent.target):
        raise CombatError(Line("refusal.name_combatant"))
    return intent.target


# ------------------------------------------------------------------------- the fight
class Start(Action):
    """The fight begins (``+combat/start``): ``data``: ``duel`` (a formal duel, for a system
    with ``formal_duels``), ``lethal`` (who made it lethal: player characters die without a
    decision), ``fight`` (its number) and ``commitment`` (its dice)."""

    key = "start"

    def perform(self, d: Draft, intent: Intent) -> None:
        duel = bool(intent.data.get("duel"))
        if duel and not d.system.formal_duels:
            raise CombatError(Line("refusal.rules_have_no_formal", {"system": d.system.key}))
        d.gm = intent.by
        d.round = 1
        if duel:
            d.scene = {"duel": True}
        if intent.data.get("lethal"):
            d.settings["lethal"] = str(intent.data["lethal"])
        lines = []
        if intent.data.get("commitment"):
            lines = [Line("line.commitment", {"fight": intent.data.get("fight")}),
                     Line("line.commitment_hash", {"commitment": str(intent.data["commitment"])})]
        d.say("fight.duel_started" if duel else "fight.started", actor=intent.by,
              values={"system": d.system.key, "how": Line("value.start_hint")}, lines=lines)
        if d.settings.get("lethal"):
            d.say("control.lethal_on", actor=intent.by)


class End(Action):
    """The game master ends the fight: everyone's health is the summary."""

    key = "end"

    def perform(self, d: Draft, intent: Intent) -> list[Line]:
        d.require_gm("end the fight")
        summary = [Line("line.health_spared" if d.conditions_of(fighter_id).get("dying") else "line.health",
                        {"name": d.name(fighter_id), "health": d.health(fighter_id)})
                   for fighter_id in d.ids()]
        d.say("fight.ended", actor=intent.by,
              values={"rounds": Line("line.round" if int(d.round) == 1 else "line.rounds", {"count": int(d.round)})},
              lines=summary)
        d.ended = True
        return summary


def fighter_of(intent: Intent, index: int | None = None) -> Fighter:
    """The fighter an intent brings in (``data["fighter"]``, or ``data["fighters"][index]``)."""
    record = intent.data["fighter"] if index is None else intent.data["fighters"][index]
    return Fighter.from_record(record)


def add_fighter(d: Draft, fighter: Fighter) -> bool:
    """Put the fighter in the fight; False when it already was. Raises CombatError when
    another fighter has its name (the commands, the HUD and the AI find fighters by name)."""
    if d.has(fighter.id):
        return False
    if any(d.name(other).casefold() == fighter.name.casefold() for other in d.ids()):
        raise CombatError(Line("refusal.fighter_called_this_fight", {"fighter": fighter.name}))
    d.add(fighter)
    return True


class Join(Action):
    """A fighter joins (``+combat/join``; ``data["fighter"]``: who, as they are)."""

    key = "join"

    def perform(self, d: Draft, intent: Intent) -> None:
        fighter = fighter_of(intent)
        if d.system.health(fighter.sheet.health, fighter.sheet).dead:
            raise CombatError(Line("refusal.dead_do_not_fight"))
        if not add_fighter(d, fighter):
            raise CombatError(Line("refusal.you_already_this_fight"))
        d.say("fight.joined", actor=fighter.id, values={"hint": Line("value.join_hint")})
        unsheeted(d, [fighter])


class Add(Action):
    """The game master brings characters in (``+combat/add``; ``data["fighters"]``)."""

    key = "add"

    def perform(self, d: Draft, intent: Intent) -> list[str]:
        d.require_gm("add combatants")
        found = [fighter_of(intent, index) for index in range(len(intent.data["fighters"]))]
        already = [fighter.name for fighter in found if d.has(fighter.id)]
        if already and len(already) == len(found):
            raise CombatError(Line("refusal.already_in_fight_one" if len(already) == 1 else "refusal.already_in_fight",
                                   {"names": ", ".join(already)}))
        added = [fighter.name for fighter in found if add_fighter(d, fighter)]
        note = Line("line.already_was" if len(already) == 1 else "line.already_were",
                    {"names": ", ".join(already)}) if already else ""
        d.say("control.added_one" if len(added) == 1 else "control.added",
              values={"names": ", ".join(added), "note": note})
        unsheeted(d, [fighter for fighter in found if fighter.name in added])
        return added


def unsheeted(d: Draft, joined: list[Fighter]) -> None:
    """Tell the room which of those who just joined have no sheet under the fight's system
    (every pool of theirs is 0 until staff or the Storyteller set their traits)."""
    bare = [fighter.name for fighter in joined if not fighter.sheet.traits]
    if bare:
        d.say("control.no_sheet", values={"names": ", ".join(bare), "system": d.system.key,
                                          "have": "has" if len(bare) == 1 else "have"})


def remove_fighter(d: Draft, fighter_id: int) -> list[Line]:
    """Take the fighter out, cancelling attacks by or on them; returns notices. Their
    initiative and the actions they used are kept, so leaving and rejoining gains nothing."""
    notices = []
    keep = []
    for pending in d.pending:
        if fighter_id in (pending.attacker, pending.target):
            notices.append(Line("line.attack_cancelled",
                                {"attacker": d.name(pending.attacker), "target": d.name(pending.target)}))
        else:
            keep.append(pending)
    d.pending = keep
    d.emit("roster", data={"left": d.name(fighter_id)})
    if splits.declared(d, fighter_id) >= 2 and splits.used(d, fighter_id):
        # a split already begun ends with leaving: the actions it had left are spent
        d.acted.extend((at, fighter_id) for at in turns.open_actions(d, fighter_id))
    attacks.release(d, fighter_id)
    d.ai = [item for item in d.ai if item != fighter_id]   # back in the fight, the game master runs it
    name = d.name(fighter_id)
    d.shields.pop(name, None)
    d.drop(fighter_id)
    return notices


class Leave(Action):
    """A fighter leaves (``+combat/leave``)."""

    key = "leave"

    def perform(self, d: Draft, intent: Intent) -> None:
        actor = require_actor(d, intent)
        if d.conditions_of(actor).get("dying"):
            raise CombatError(Line("refusal.dying_storyteller_decides_first", {"actor": d.name(actor)}))
        notices = remove_fighter(d, actor)
        d.say("fight.left", actor=actor, lines=notices)


class Remove(Action):
    """The game master takes a fighter out (``+combat/remove``; ``option`` ``scene``: an NPC
    removed from the scene, ``+npc/remove``)."""

    key = "remove"

    def perform(self, d: Draft, intent: Intent) -> None:
        d.require_gm("remove combatants")
        target = require_target(d, intent)
        notices = remove_fighter(d, target)
        key = "control.removed_from_scene" if intent.option == "scene" else "control.removed"
        d.say(key, actor=intent.by, refs={"target": target}, lines=notices)


class Destroyed(Action):
    """A fighter's object is being deleted: out of the fight, attacks cancelled, holds ended."""

    key = "destroyed"

    def perform(self, d: Draft, intent: Intent) -> None:
        target = require_target(d, intent)
        notices = remove_fighter(d, target)
        d.say("fight.destroyed", refs={"target": target}, lines=notices)


class GmGone(Action):
    """The game master's character is being deleted: the fight has none."""

    key = "gm_gone"

    def perform(self, d: Draft, intent: Intent) -> None:
        gone = d.gm
        d.gm = None
        d.say("fight.gm_gone", refs={"target": gone} if gone is not None else {})


class Transfer(Action):
    """The game master hands the fight to another (``targets``: the new one's id; the world
    checks they may run it)."""

    key = "transfer"

    def perform(self, d: Draft, intent: Intent) -> None:
        d.require_gm("hand the scene over")
        new = intent.target
        if new == d.gm:
            raise CombatError(Line("refusal.already_runs_scene", {"name": intent.data.get("name") or d.name(new)}))
        d.gm = new
        d.say("control.transferred", actor=intent.by, refs={"target": new})


class Away(Action):
    """A fighter goes idle without the game master: ``option`` ``left`` (walked out of the
    room) or ``disconnected``; or comes ``back`` (logged in again)."""

    key = "away"

    def perform(self, d: Draft, intent: Intent) -> None:
        actor = require_actor(d, intent)
        back = intent.option == "back"
        if d.set_idle(actor, not back):
            d.say(f"fight.{intent.option}", refs={"target": actor})


class Idle(Action):
    """The game master marks a fighter idle, or back (``+combat/idle``)."""

    key = "idle"

    def perform(self, d: Draft, intent: Intent) -> None:
        d.require_gm("mark combatants idle")
        target = require_target(d, intent)
        idle = not d.is_idle(target)
        d.set_idle(target, idle)
        d.say("control.idle" if idle else "control.not_idle", refs={"target": target})


class Refresh(Action):
    """A fighter's character changed outside the fight (``+stat``, ``+damage``, armor worn, a
    rename): the fight takes its sheet as it is now (``data["fighter"]``); a changed health is
    told as a health event."""

    key = "refresh"

    def perform(self, d: Draft, intent: Intent) -> None:
        fighter = fighter_of(intent)
        if not d.has(fighter.id):
            return
        before = d.fighters[fighter.id]
        d.replace_fighter(before.with_sheet(fighter.sheet, fighter.gear))
        if before.name != fighter.sheet.name:
            renamed(d, fighter.id, before.name, fighter.sheet.name)
        if dict(before.sheet.health) != dict(fighter.sheet.health):
            health = d.health(fighter.id)
            d.store_health(fighter.id, health, decided_by="staff")
            if not health.dead:
                d.update_conditions(fighter.id, dying=None)   # healed by staff: no longer dying


def renamed(d: Draft, fighter_id: int, old: str, new: str) -> None:
    """A fighter renamed mid-fight (``@name``) keeps its place: its initiative and its entries
    in the game master's order for the round go by the new name."""
    if fighter_id in d.initiative:
        d.initiative[fighter_id] = {**d.initiative[fighter_id], "name": new}
    if d.order:
        d.order = {**d.order, "slots": [[[at, new if name == old else name] for at, name in place]
                                        for place in d.order.get("slots", ())]}


# ------------------------------------------------------------------- game master's
def parse_shift(text: str, limit: int, example: str) -> int:
    """``"+2"``, ``"-1"``, ``"3"`` → int within ±limit. Raises CombatError."""
    text = text.strip()
    digits = text[1:] if text[:1] in "+-" else text
    if not digits.isascii() or not digits.isdigit() or len(digits) > 2 or int(digits) > limit:
        raise CombatError(Line("refusal.give_change_as_number", {"limit": limit, "example": example}))
    return -int(digits) if text.startswith("-") else int(digits)


MAX_DIFFICULTY_SHIFT = 8
MAX_DICE_SHIFT = 10


class Difficulty(Action):
    """``+combat/diff <name>=<+/-n>``: the difficulty of that fighter's next attack (or
    defense, where the system stars it) moves; 0 clears it (``option``: the change typed)."""

    key = "diff"

    def perform(self, d: Draft, intent: Intent) -> None:
        d.require_gm("move difficulties")
        target = require_target(d, intent)
        amount = parse_shift(intent.option, MAX_DIFFICULTY_SHIFT, "+combat/diff Guard=+1")
        d.update_conditions(target, adjust=amount)
        system = d.system
        what = Line("value.attack_or_defense" if any(map(system.defense_adjustable, system.defense_names))
                    else "value.attack")
        d.say("control.difficulty", actor=intent.by, refs={"target": target},
              values={"what": what, "change": f"{amount:+d}" if amount else Line("value.back_to_normal")})


class DiceModifier(Action):
    """``+combat/mod <name>=<+/-n>[ keep]``: dice added to that fighter's next roll, or every
    roll until cleared (``keep``); 0 clears it (``option``: what was typed after ``=``)."""

    key = "mod"

    def perform(self, d: Draft, intent: Intent) -> None:
        d.require_gm("set modifiers")
        target = require_target(d, intent)
        words = intent.option.split()
        keep = len(words) == 2 and words[1].casefold() == "keep"
        if not words or len(words) > 2 or (len(words) == 2 and not keep):
            raise CombatError(Line("refusal.usage_combat_mod_name"))
        amount = parse_shift(words[0], MAX_DICE_SHIFT, "+combat/mod Guard=-2")
        kept = keep and bool(amount)
        d.update_conditions(target, mod=amount, mod_keep=kept)
        what = Line("value.dice_until_cleared" if kept else "value.dice_next_roll", {"change": f"{amount:+d}"})
        d.say("control.modifier", actor=intent.by, refs={"target": target},
              values={"what": what if amount else Line("value.cleared")})


class Resolve(Action):
    """``+combat/resolve``: every waiting attack resolves with no defense."""

    key = "resolve"

    def perform(self, d: Draft, intent: Intent) -> int:
        d.require_gm("resolve attacks")
        return attacks.resolve_all(d)


class Next(Action):
    """``+combat/next``: those still to act pass; a new round starts after the last (the game
    refuses a press meant for a turn already over: ``world.combat.next_turn``)."""

    key = "next"

    def perform(self, d: Draft, intent: Intent) -> None:
        d.require_gm("advance the fight")
        turns.pass_turn(d)


class Ai(Action):
    """``+combat/ai``: the NPCs the AI runs (``targets``, NPCs), switched ``option`` ``on`` or
    ``off``; those already so are left out."""

    key = "ai"

    def perform(self, d: Draft, intent: Intent) -> list[int]:
        d.require_gm("hand NPCs to the AI")
        on = intent.option == "on"
        for target in intent.targets:
            if not d.is_npc(target):
                raise CombatError(Line("refusal.player_character_ai_runs", {"target": d.name(target)}))
        changed = [target for target in dict.fromkeys(intent.targets) if (target in d.ai) != on]
        if not changed:
            raise CombatError(Line("refusal.already_ai" if on else "refusal.not_ai"))
        d.ai = sorted(set(d.ai) | set(changed)) if on else [item for item in d.ai if item not in changed]
        d.say("control.ai_on" if on else "control.ai_off",
              values={"names": ", ".join(d.name(target) for target in changed), "first": d.name(changed[0]),
                      "them": "it" if len(changed) == 1 else "them"})
        return changed


#: The longest wait for a defense ``+combat/timeout`` sets, in seconds (an hour).
MAX_DEFENSE_WAIT = 3600


class DefenseTimeout(Action):
    """``+combat/timeout <seconds> or off``: how long an attack waits for its target's defense
    before it resolves with none (``settings["timeout"]``, 10 to :data:`MAX_DEFENSE_WAIT`
    seconds; ``off``: it waits for the answer or ``+combat/resolve``). The game keeps the time
    (``world.timeouts``) and plays :class:`Lapse`."""

    key = "timeout"

    def perform(self, d: Draft, intent: Intent) -> None:
        d.require_gm("set how long defenses wait")
        text = intent.option
        if text == "off":
            if not d.settings.get("timeout"):
                raise CombatError(Line("refusal.defenses_wait_with_no"))
            d.settings.pop("timeout", None)
        elif text.isascii() and text.isdigit() and len(text) < 6 and 10 <= int(text) <= MAX_DEFENSE_WAIT:
            d.settings["timeout"] = int(text)
        else:
            raise CombatError(Line("refusal.give_wait_seconds_off", {"max_defense_wait": MAX_DEFENSE_WAIT}))
        d.say("control.timeout" if d.settings.get("timeout") else "control.no_timeout", actor=intent.by,
              values={"seconds": d.settings.get("timeout", 0)})


class Lapse(Action):
    """An attack left unanswered for the fight's ``settings["timeout"]`` resolves with no
    defense (``data["attack"]``: the waiting attack's id; played by the game's timer, as the
    game master)."""

    key = "lapse"

    def perform(self, d: Draft, intent: Intent) -> None:
        d.require_gm("resolve attacks")
        pending = next((item for item in d.pending if item.id == intent.data.get("attack")), None)
        if pending is None:
            raise CombatError(Line("refusal.that_attack_no_longer"))
        attacks.close(d, pending)
        seconds = int(d.settings.get("timeout", 0))
        attacks.finish(d, pending.attacker, pending.target, d.attack_of(pending.attack), None,
                       [Line("line.lapsed", {"target": d.name(pending.target), "seconds": seconds})])


# ------------------------------------------------------------------- life and death
def require_dying(d: Draft, intent: Intent) -> int:
    d.require_gm("decide a death")
    target = require_target(d, intent)
    if not d.conditions_of(target).get("dying"):
        raise CombatError(Line("refusal.not_dying_only_player", {"target": d.name(target)}))
    return target


class Kill(Action):
    """``+combat/kill <name>``: the game master lets the deadly damage the rules dealt a dying
    player character stand (``data["by_name"]``: who decided): they die."""

    key = "kill"

    def perform(self, d: Draft, intent: Intent) -> None:
        target = require_dying(d, intent)
        deadly = d.system.health(d.conditions_of(target)["dying"], d.combatant(target))
        by = str(intent.data.get("by_name") or "the Storyteller")
        d.store_health(target, deadly, decided_by=by)
        d.add_log(by, Line("title.kill", {"name": d.name(target)}), [Line("line.health", {"name": d.name(target), "health": deadly})])


class Spare(Action):
    """``+combat/spare <name>``: the game master spares a dying player character, who keeps
    the health nearest death that is not (``Health.spared``)."""

    key = "spare"

    def perform(self, d: Draft, intent: Intent) -> None:
        target = require_dying(d, intent)
        d.update_conditions(target, dying=None)
        d.say("fight.spared", actor=intent.by, refs={"target": target})
        d.add_log(str(intent.data.get("by_name") or ""), Line("title.spare", {"name": d.name(target)}),
                  [Line("line.health", {"name": d.name(target), "health": d.health(target)})])


class Setting(Action):
    """An on/off choice of the game master's for the fight (``FightState.settings``):
    ``option`` ``on`` or ``off``; on keeps who chose it (``data["by_name"]``). ``lethal``:
    player characters die as the rules say, with no decision; ``helpless``: the AI may attack
    the helpless (the incapacitated, the dying, the idle); ``posewait``: ``+combat/next`` waits
    until every player character has posed this round (the game keeps the poses)."""

    def __init__(self, key: str, doing: str) -> None:
        self.key = key
        self.doing = doing

    def perform(self, d: Draft, intent: Intent) -> None:
        d.require_gm(self.doing)
        if intent.option not in ("on", "off"):
            raise CombatError(Line("refusal.usage_combat_off", {"control": self.key}))
        on = intent.option == "on"
        if bool(d.settings.get(self.key)) == on:
            raise CombatError(Line("refusal.control_already_on" if on else "refusal.control_already_off",
                                   {"control": self.key}))
        if on:
            d.settings[self.key] = str(intent.data.get("by_name") or "the Storyteller")
        else:
            d.settings.pop(self.key, None)
        d.say(f"control.{self.key}_{'on' if on else 'off'}", actor=intent.by)


#: What a side (``+combat/side``) may be called.
GROUP_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 '-")
MAX_GROUP_NAME = 20


def group_name(text: str, what: str) -> str:
    """A side's or party's name as typed, spaces squeezed ("" clears). Raises CombatError."""
    group = " ".join(part for part in text.split(" ") if part)   # spaces squeezed; a line break is refused
    if group and (len(group) > MAX_GROUP_NAME or not set(group) <= GROUP_NAME_CHARS or not group[0].isalnum()):
        raise CombatError(Line("refusal.named_with_letters_digits", {"what": what, "max_group_name": MAX_GROUP_NAME, "group": quote(group)}))
    return group


class Side(Action):
    """``+combat/side <names>=<side>``: whom the AI's NPCs fight (``world.ai``), in every
    system; in a system with declared rounds, round 1 also rolls one die per side. ``option``
    the side ("" takes them off theirs); ``targets`` those named."""

    key = "side"

    def perform(self, d: Draft, intent: Intent) -> None:
        d.require_gm("set sides")
        side = group_name(intent.option, "side")
        sides = {int(key): value for key, value in (d.extra.get("sides") or {}).items()}
        targets = list(dict.fromkeys(intent.targets))
        for target in targets:
            if side:
                sides[target] = side
            else:
                sides.pop(target, None)
        d.extra["sides"] = sides
        late = bool(side) and d.system.declared_rounds and d.round > 1
        d.say("control.side_late" if late else "control.side" if side else "control.no_side",
              values={"names": ", ".join(d.name(target) for target in targets), "side": side})


class Reveal(Action):
    """``+combat/reveal <name>``: the game master judges that something clearly shows where a
    hiding fighter is (the aeon seed: those who lose track of a hider do so "until something
    is done to clearly illustrate their location"): nobody has lost track of them now."""

    key = "reveal"

    def perform(self, d: Draft, intent: Intent) -> None:
        d.require_gm("reveal a hider")
        target = require_target(d, intent)
        if not d.conditions_of(target).get("hidden_from"):
            raise CombatError(Line("refusal.not_hiding_from_anyone", {"target": d.name(target)}))
        d.update_conditions(target, hidden_from=None)
        d.add_log(intent.data.get("by_name", ""), Line("title.reveal", {"name": d.name(target)}), [Line("line.seen_again", {"target": d.name(target)})])
        d.say("control.revealed", actor=intent.by, refs={"target": target})


# --------------------------------------------------------------------------- initiative
class Initiative(Action):
    """Roll initiative (``+combat/init``; for an NPC, ``+npc/init``: ``data["overrides"]``
    its two traits, ``data["fighter"]`` to bring it in first; ``data["held"]``: one of several
    rolled at once, whose turn is told after the last by :class:`TellTurn`)."""

    key = "initiative"

    def perform(self, d: Draft, intent: Intent) -> InitiativeRoll:
        if "fighter" in intent.data:
            d.require_gm("roll initiative for NPCs")
            if add_fighter(d, fighter_of(intent)):
                unsheeted(d, [fighter_of(intent)])
        actor = require_actor(d, intent)
        if d.has_initiative(actor):
            when = "round" if d.system.reroll_each_round else "fight"
            raise CombatError(Line("refusal.already_has_initiative_this", {"actor": d.name(actor), "when": when}))
        roll = d.system.roll_initiative(d.combatant(actor, intent.data.get("overrides")), d.dice)
        d.initiative[actor] = roll.to_record()
        d.add_log(d.name(actor), Line("title.initiative"), [roll.line()])
        d.say("initiative.rolled", refs={"actor": actor}, values={"roll": roll.line()})
        if not intent.data.get("held"):
            turns.announce_turn(d, only_if_moved=True)   # a roll that changes who is to act
        return roll


class TellTurn(Action):
    """After several initiative rolls with the turn held (``+npc/init all``): tell whose turn
    it is once every roll is in, if it moved (a turn told after the first roll would name
    someone a later roll overtakes)."""

    key = "tell_turn"

    def perform(self, d: Draft, intent: Intent) -> None:
        d.require_gm("roll initiative for NPCs")
        turns.announce_turn(d, only_if_moved=True)


# ------------------------------------------------------------------------------ fighting
class Attack(Action):
    """``attack <target>[/<option>]`` on the actor's turn (``option``: a maneuver or weapon of
    the system's)."""

    key = "attack"

    def perform(self, d: Draft, intent: Intent) -> None:
        actor, target = require_actor(d, intent), require_target(d, intent)
        turns.require_turn(d, actor)
        turns.require_free(d, actor)
        attacks.strike(d, actor, target, intent.option)


class Defend(Action):
    """``defend <choice>``: answer the oldest attack waiting on the actor (``data["kept"]``:
    the AI keeps its action for its turn, and says so)."""

    key = "defend"

    def perform(self, d: Draft, intent: Intent) -> None:
        actor = require_actor(d, intent)
        choice = attacks.defense_choice(d, intent.option)   # a bad name before whether an attack waits
        if intent.data.get("kept"):
            d.say("ai.keeps", refs={"target": actor})
        attacks.defend(d, actor, choice)


class Pass(Action):
    """The actor lets its turn go by: the NPC AI, with nothing it may do (``data["why"]``), or
    a player on their turn (the web tracker's Pass: said as the game master's pass of one)."""

    key = "pass"

    def perform(self, d: Draft, intent: Intent) -> None:
        actor = require_actor(d, intent)
        if "why" not in intent.data:
            turns.require_turn(d, actor)
        turns.use_action(d, actor, turns.current_slot(d)[0], counts=False)
        if "why" in intent.data:
            d.say("ai.passes", refs={"target": actor}, values={"why": intent.data["why"]})
        else:
            d.say("turn.passes", values={"names": d.name(actor)})
        turns.announce_turn(d)


class Escape(Action):
    """``escape``: a held fighter spends its action on the system's escape roll."""

    key = "escape"

    def perform(self, d: Draft, intent: Intent) -> None:
        actor = require_actor(d, intent)
        holder = d.conditions_of(actor).get("held_by")
        system = d.system
        if not system.escapes:
            raise CombatError(Line("refusal.rules_have_no_escape", {"system": system.key}))
        if holder is None or not d.has(holder):
            raise CombatError(Line("refusal.not_held", {"actor": d.name(actor)}))
        turns.require_turn(d, actor)
        escaped, lines = system.escape_hold(d.combatant(actor), d.combatant(holder), d.dice)
        attacks.shield_zaps(d, actor, holder)   # struggling is contact
        turns.use_turn(d, actor)
        if escaped:
            d.update_conditions(actor, held_by=None)
        d.add_log(d.name(actor), Line("title.escape"), lines)
        d.say("attack.escape", refs={"actor": actor, "holder": holder}, lines=lines)
        turns.announce_turn(d)


class Aim(Action):
    """``aim <target>``: the actor spends its turn taking aim; its next attack at that target
    (and only that one) gets +1 (a die in a pool system, +1 to the roll in the others).
    Aiming again at another target moves the aim."""

    key = verb = "aim"
    takes = "target"
    usage = "aim <target>"
    help = ("Spend your turn taking aim: your next attack at that target gets +1\n"
            "    (a die in a pool system, +1 to the roll in the others).")
    BONUS = 1

    def perform(self, d: Draft, intent: Intent) -> None:
        actor, target = require_actor(d, intent), require_target(d, intent)
        attacks.require_target(d, actor, target)
        turns.require_turn(d, actor)
        turns.require_free(d, actor)
        going, before = d.system.before_turn(d, actor, "aim")
        if not going:
            return turns.announce_turn(d)
        turns.use_turn(d, actor)
        d.update_conditions(actor, aim={"target": target, "bonus": self.BONUS})
        lines = [*before, Line("line.aim", {"actor": d.name(actor), "target": d.name(target), "bonus": self.BONUS})]
        d.add_log(d.name(actor), Line("title.aim", {"name": d.name(target)}), lines)
        d.say("attack.aim", refs={"actor": actor, "target": target}, lines=lines)
        turns.announce_turn(d)


class Roll(Action):
    """``+roll <pool>`` where a fight runs: ``option`` the pool typed; ``actor`` a fighter
    (its conditions and the game master's dice modifier count), or ``data["fighter"]``
    for a bystander; ``data``: ``private`` (only the roller and the game master see it),
    ``willpower``. Logged in the fight's roll log, rolled with its dice."""

    key = "roll"

    def perform(self, d: Draft, intent: Intent) -> None:
        from rules.dice import parse_pool

        system = d.system
        expression = parse_pool(intent.option, system.trait_names)
        fighting = intent.actor is not None and d.has(intent.actor)
        roller = d.combatant(intent.actor) if fighting else fighter_of(intent).sheet
        dice_mod = d.modifiers_for(intent.actor).dice if fighting else 0
        private = bool(intent.data.get("private"))
        result = system.roll_check(expression, roller, d.dice, modifier=dice_mod,
                                   willpower=bool(intent.data.get("willpower")))
        line = Line("line.rolls", {"name": roller.name, "rolls": tuple(result.lines)})
        notes = [Line("line.storyteller_dice", {"change": f"{dice_mod:+d}"})] if dice_mod else []
        d.add_log(roller.name, Line("title.private_roll" if private else "title.roll"), [*result.lines, *notes])
        if dice_mod:
            d.use_modifiers(intent.actor, adjustable=False)
        d.emit("rolled", to=intent.by, values={"line": line}, data={"private": private, "gm": d.gm})


class Order(Action):
    """``+combat/order <name>=<place>|before <other>|after <other>``: the game master moves a
    fighter's next action this round (``targets``: the fighter, and the other for before or
    after; ``option``: ``at``, ``before`` or ``after``; ``data["place"]``: the place, from 1).
    The next round goes by initiative again (``rules.engine.order``; the storyteller seed:
    the highest first "unless the ST prefers otherwise").

    Only a fighter with an action still to come moves, and only among the places still to
    come; it moves alone (a tie it shared stays together); with several actions a round,
    its next action moves, never past its own following one."""

    key = "order"

    def perform(self, d: Draft, intent: Intent) -> None:
        from rules.engine import order as acting_order

        d.require_gm("change the acting order")
        fighter = require_target(d, intent)
        name = d.name(fighter)
        if not d.has_initiative(fighter):
            raise CombatError(Line("refusal.has_no_initiative_yet", {"name": name}))
        turns.require_able(d, fighter)  # one who cannot act has no turn to move
        order = acting_order.places(turns.schedule(d))
        used = turns.used_actions(d)
        ids = d.by_name()

        def open_entry(entry) -> bool:
            return entry[1] in ids and (entry[0], ids[entry[1]]) not in used

        waiting = [entry for place in order for entry in place if entry[1] == name and open_entry(entry)]
        if not waiting:
            raise CombatError(Line("refusal.has_already_acted_this", {"name": name}))
        entry = waiting[0]
        rest = acting_order.move(order, entry, 0)[1:]    # the order without the entry moved
        # the current turn: the first place with an action to come; those before are past
        first = next(i for i, place in enumerate(order) if any(map(open_entry, place)))
        last = len(rest)
        if len(waiting) > 1:   # not past their own following action
            last = next(i for i, place in enumerate(rest) if waiting[1] in place)
        if intent.option == "at":
            index = int(intent.data["place"]) - 1
            if not first <= index <= last:
                raise CombatError(Line("refusal.place_from_past" if first else "refusal.place_from",
                                       {"name": name, "first": first + 1, "last": last + 1}))
        else:
            other = intent.targets[1]
            if other == fighter:
                raise CombatError(Line("refusal.put_before_after_someone", {"name": name}))
            theirs = [e for place in rest for e in place if e[1] == d.name(other)]
            if not theirs:
                raise CombatError(Line("refusal.has_no_place_this", {"other": d.name(other)}))
            anchor = next((e for e in theirs if open_entry(e)), theirs[-1])
            index = next(i for i, place in enumerate(rest) if anchor in place) + (intent.option == "after")
            if index < first:
                raise CombatError(Line("refusal.turn_past_can_go", {"other": d.name(other), "name": name, "first": first + 1}))
            if index > last:
                raise CombatError(Line("refusal.next_action_cannot_go", {"name": name, "last": last + 1}))
        new = [*rest[:index], [entry], *rest[index:]]
        if new == order:
            raise CombatError(Line("refusal.already_at_place", {"name": name, "index": index + 1}))
        turn_before = turns.current_slot(d)
        d.order = acting_order.stored(new, d.round)
        listing = Line("line.order", {"round": d.round, "order": numbered(new)})
        d.add_log(intent.data.get("by_name", ""), Line("title.order", {"name": name, "place": index + 1}), [listing])
        d.say("control.order", actor=intent.by, refs={"target": fighter}, values={"place": index + 1},
              lines=[listing])
        d.emit("order", data={"round": int(d.round), "order": [[n for _, n in place] for place in new]})
        if turns.current_slot(d) != turn_before:
            turns.announce_turn(d)


def numbered(order) -> Line:
    """``"1. Bob, 2. Ann & Cid"`` (a tie shares a number, as on the HUD) as a line."""
    listing = None
    for n, place in enumerate(order, start=1):
        names = None
        for _, name in place:
            names = name if names is None else Line("line.order_tie", {"names": names, "name": name})
        entry = Line("line.order_place", {"place": n, "names": names})
        listing = entry if listing is None else Line("line.order_next", {"order": listing, "place": entry})
    return listing


#: The actions every turn-playing system shares, by key.
STANDARD: Mapping[str, Action] = {action.key: action for action in (
    Start(), End(), Join(), Add(), Leave(), Remove(), Destroyed(), GmGone(), Transfer(), Away(), Idle(),
    Refresh(), Difficulty(), DiceModifier(), Resolve(), Next(), Ai(), Initiative(), TellTurn(), Attack(), Defend(),
    Escape(), Aim(), Roll(), Pass(), Order(), Side(), Reveal(), Kill(), Spare(),
    Setting("lethal", "make the fight lethal"), Setting("helpless", "let the AI attack the helpless"),
    Setting("posewait", "make the fight wait for poses"), DefenseTimeout(), Lapse(),
)}
