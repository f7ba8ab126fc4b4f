"""The fight as one step changes it: a :class:`Draft`, private to :func:`rules.engine.step`.

A draft is made from a frozen :class:`FightState`, changed by the step's action (through the
methods here and the turn flow, ``rules.engine.turns``), and frozen again; the state it came
from is never touched, so a step that raises leaves nothing changed. What the step tells
(events) and logs (roll-log entries) collects on the draft in order, with every die drawn.

Fighters are ids here. The rules see a fighter as a ``Combatant`` (:meth:`Draft.combatant`):
its sheet, and its conditions with the scene's settings under them, other fighters named
(``held_by``, ``clinch_with``) and the game's own bookkeeping left out (``hidden_from``,
``in_sight``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rules.dice import Roller
from rules.engine.conditions import ID_CONDITIONS, ID_LIST_CONDITIONS, check_keys
from rules.engine.events import Dying, Event, Line, LogEntry
from rules.engine.intents import Intent
from rules.engine.state import Fighter, FightState, Pending, plain
from rules.lines import text_of
from rules.systems.base import Combatant, CombatError, RuleSystem
from rules.text import quote


class Recorder:
    """A roller that notes every die it hands out, ``(sides, face)`` in order."""

    def __init__(self, roller: Roller) -> None:
        self.roller = roller
        self.drawn: list[tuple[int, int]] = []

    def roll(self, sides: int) -> int:
        face = self.roller.roll(sides)
        self.drawn.append((sides, face))
        return face


@dataclass(frozen=True)
class Modifiers:
    """What changes a fighter's next roll, and why: ``difficulty`` (a tackle's +N, and the game
    master's ``+combat/diff`` where the difficulty may be moved), ``dice`` (``+combat/mod``)
    and ``notes`` naming each source for the roll log."""

    difficulty: int
    dice: int
    notes: tuple[Line, ...]


#: Values :func:`copied` returns as they are, known by their exact type at once (most are).
_LEAVES = frozenset((str, int, float, bool, type(None)))


def copied(value: Any) -> Any:
    """A deep copy of plain data (dicts, lists, tuples)."""
    kind = type(value)
    if kind in _LEAVES:
        return value
    if kind is dict:
        return {key: copied(item) for key, item in value.items()}
    if kind is list:
        return [copied(item) for item in value]
    if isinstance(value, Mapping):
        return {key: copied(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(copied(item) for item in value)
    return value


class Draft:
    """One fight being changed by one intent (see the module docstring)."""

    def __init__(self, state: FightState, system: RuleSystem, dice: Roller, intent: Intent | None = None) -> None:
        self.system = system
        self.intent = intent
        self.dice = Recorder(dice)
        self._logged_dice = 0
        self.round = state.round
        self.gm = state.gm
        self.fighters: dict[int, Fighter] = {fighter.id: fighter for fighter in state.fighters}
        self.conditions: dict[int, dict[str, Any]] = {fighter.id: dict(copied(fighter.conditions))
                                                      for fighter in state.fighters}
        self.initiative: dict[int, dict[str, Any]] = copied(dict(state.initiative))
        self.acted: list[tuple[int, int]] = list(state.acted)
        self.pending: list[Pending] = list(state.pending)
        self.next_attack_id = state.next_attack_id
        self.idle: list[int] = list(state.idle)
        self.ai: list[int] = list(state.ai)
        self.order = copied(state.order)
        self._scene: dict[str, Any] = copied(dict(state.scene))
        self._seen: dict[int, Combatant] = {}   # each fighter as the rules see it, until it changes
        self.kept: dict[str, Any] = {}          # what the turn flow worked out, by what it came from
        self.shields: dict[str, Any] = copied(dict(state.shields))
        self.dropped: list[dict[str, Any]] = [dict(copied(item)) for item in state.dropped]
        self.turn = state.turn
        self.turn_key = tuple(state.turn_key)
        self.extra: dict[str, Any] = copied(dict(state.extra))
        self.settings: dict[str, Any] = copied(dict(state.settings))
        self.ended = state.ended
        self._fates: list[tuple[str, int, str | Line]] = []   # deaths and the dying, told after the blow
        self._retold: dict[str, str] = {}   # the rules' deadly words for the dying -> what is so
        self._spared: dict[str, Any] = {}   # the same deadly words -> the health kept (for a Line)
        self.events: list[Event] = []
        self.log: list[LogEntry] = []

    @property
    def scene(self) -> dict[str, Any]:
        return self._scene

    @scene.setter
    def scene(self, value: dict[str, Any]) -> None:
        self._scene = value
        self._seen.clear()

    def freeze(self) -> FightState:
        fighters = tuple(replace(fighter, conditions=self.conditions.get(fighter_id, {}))
                         for fighter_id, fighter in self.fighters.items())
        return FightState(
            system=self.system.key, round=self.round, gm=self.gm, fighters=fighters,
            initiative=self.initiative, acted=tuple(self.acted), pending=tuple(self.pending),
            next_attack_id=self.next_attack_id, idle=tuple(self.idle), ai=tuple(self.ai), order=self.order,
            scene=self.scene, shields=self.shields, dropped=tuple(self.dropped), turn=self.turn,
            turn_key=tuple(plain(self.turn_key)), extra=plain(self.extra), settings=plain(self.settings),
            ended=self.ended)

    # ------------------------------------------------------------------------ fighters
    def ids(self) -> list[int]:
        """The fighters' ids, in joining order."""
        return list(self.fighters)

    def has(self, fighter_id: int | None) -> bool:
        return fighter_id in self.fighters

    def name(self, fighter_id: int) -> str:
        return self.fighters[fighter_id].name

    def is_npc(self, fighter_id: int) -> bool:
        return self.fighters[fighter_id].npc

    def by_name(self) -> dict[str, int]:
        """{name: id} of the fighters (the rules name fighters in their results)."""
        return {fighter.name: fighter_id for fighter_id, fighter in self.fighters.items()}

    def find(self, name: str) -> int:
        """The fighter called ``name`` (``find_named``). Raises CombatError."""
        return find_named([(fighter_id, fighter.name) for fighter_id, fighter in self.fighters.items()], name,
                          Line("refusal.name_combatant"), "refusal.no_combatant")

    def add(self, fighter: Fighter) -> None:
        self.fighters[fighter.id] = fighter
        self.conditions[fighter.id] = dict(copied(fighter.conditions))
        self._seen.pop(fighter.id, None)

    def replace_fighter(self, fighter: Fighter) -> None:
        """Put ``fighter`` (its sheet, gear, name) in place of the one with its id."""
        self.fighters[fighter.id] = fighter
        self._seen.pop(fighter.id, None)

    def drop(self, fighter_id: int) -> None:
        self.fighters.pop(fighter_id, None)
        self.conditions.pop(fighter_id, None)
        self._seen.clear()   # others may have named it (held_by …)

    def sheet(self, fighter_id: int) -> Combatant:
        return self.fighters[fighter_id].sheet

    def set_sheet(self, fighter_id: int, **changes: Any) -> None:
        """Change fields of a fighter's sheet (``weapon``, ``health`` …): written back to the
        character by the game."""
        fighter = self.fighters[fighter_id]
        self.fighters[fighter_id] = replace(fighter, sheet=replace(fighter.sheet, **changes))
        self._seen.pop(fighter_id, None)

    def gear(self, fighter_id: int, name: str, default: Any = None) -> Any:
        return copied(self.fighters[fighter_id].gear.get(name, default))

    def set_gear(self, fighter_id: int, name: str, value: Any) -> None:
        fighter = self.fighters[fighter_id]
        self.fighters[fighter_id] = replace(fighter, gear={**fighter.gear, name: plain(value)})
        self._seen.pop(fighter_id, None)

    # ---------------------------------------------------------------------- conditions
    def conditions_of(self, fighter_id: int) -> dict[str, Any]:
        """A copy of the fighter's conditions (none for one not in the fight)."""
        return copied(self.conditions.get(fighter_id, {}))

    def set_conditions(self, fighter_id: int, values: Mapping[str, Any]) -> None:
        """Replace the fighter's conditions (falsy values are left out). Raises KeyError for a
        condition neither the engine nor the system declares."""
        cleaned = {key: plain(value) for key, value in values.items() if value}
        check_keys(cleaned, self.system)
        if fighter_id in self.fighters:
            self.conditions[fighter_id] = cleaned
            self._seen.clear()   # a fighter's conditions may name another (held_by, clinch_with)

    def update_conditions(self, fighter_id: int, **changes: Any) -> None:
        """Set (a None or falsy value clears) some of the fighter's conditions."""
        state = self.conditions_of(fighter_id)
        state.update(changes)
        self.set_conditions(fighter_id, state)

    def combatant(self, fighter_id: int, overrides: Mapping[str, int] | None = None) -> Combatant:
        """The fighter as the rules see it: its sheet (``overrides`` on top of its traits), its
        conditions over the scene's settings, other fighters by name."""
        if overrides is None and fighter_id in self._seen:
            return self._seen[fighter_id]
        fighter = self.fighters[fighter_id]
        state = self.conditions_of(fighter_id)
        for key in ID_CONDITIONS:
            if key in state:
                state[key] = self.fighters[state[key]].name if state[key] in self.fighters else ""
        for key in ID_LIST_CONDITIONS:
            state.pop(key, None)
        sheet = fighter.sheet
        if overrides:
            sheet = replace(sheet, traits={**sheet.traits, **overrides})
        seen = replace(sheet, name=fighter.name, conditions={**copied(self.scene), **state})
        if overrides is None:
            self._seen[fighter_id] = seen
        return seen

    def health(self, fighter_id: int):
        """The fighter's health value under the fight's system."""
        fighter = self.combatant(fighter_id)
        return self.system.health(fighter.health, fighter)

    def store_health(self, fighter_id: int, health, decided_by: str | Line = "") -> None:
        """A fighter's new health, told to the fight's subscribers (a ``health`` event).

        The rules decide when damage is deadly; who lets it kill is the game's (docs/rules.md,
        "Death needs a decision"). A player character the rules would kill, in a fight that is
        not lethal (``settings["lethal"]``), keeps the nearest health that is not dead
        (``Health.spared``) and is ``dying``: the deadly health waits for the game master's
        ``+combat/kill`` or ``+combat/spare``. ``decided_by`` names who decided a death (the
        game master, staff); an NPC's death is the rules'. A death is told with who allowed it
        (:meth:`tell_fates`)."""
        was_dead = self.health(fighter_id).dead
        dying = False
        if health.dead and not was_dead and not decided_by:
            if self.is_npc(fighter_id):
                decided_by = Line("value.by_the_rules")
            elif self.settings.get("lethal"):
                decided_by = Line("value.by_lethal", {"who": self.settings["lethal"]})
            else:
                dying = True
        if dying:
            first = not self.conditions_of(fighter_id).get("dying")
            self.update_conditions(fighter_id, dying=plain(health.to_record()))
            deadly, health = health.describe(), health.spared()
            self._retold[deadly] = text_of(Line("value.dying", {"health": health.track_line()}))
            self._spared[deadly] = health
            if first:
                self._fates.append(("fight.dying", fighter_id, ""))
        elif health.dead and not was_dead:
            self.update_conditions(fighter_id, dying=None)
            self._fates.append(("fight.died", fighter_id, decided_by))
        self.set_sheet(fighter_id, health=plain(health.to_record()))
        current, maximum = health.meter
        self.emit("health", actor=fighter_id, data={
            "name": self.name(fighter_id), "current": current, "maximum": maximum, "text": health.describe(),
            "incapacitated": health.incapacitated, "dead": health.dead, "dying": dying})

    def tell_fates(self) -> None:
        """Tell the room of each death (with who allowed it) and each player character left
        dying since the last telling, in order (after the blow's own narration)."""
        for key, fighter_id, decided_by in self._fates:
            if self.has(fighter_id):
                self.say(key, refs={"target": fighter_id},
                         values={"by": decided_by, "name": self.name(fighter_id)})
        self._fates.clear()

    def attack_of(self, record: Mapping[str, Any]) -> Any:
        """The rolled attack a :class:`Pending` keeps (``Pending.attack``) rebuilt by the
        system (a spell's record says so). Raises CombatError for a spell in a system without
        magic."""
        if record.get("magic"):
            if self.system.magic is None:
                raise CombatError(Line("refusal.rules_have_no_spells", {"system": self.system.key}))
            return self.system.magic.attack_from_record(record)
        return self.system.attack_from_record(record)

    def is_idle(self, fighter_id: int) -> bool:
        return fighter_id in self.idle

    def set_idle(self, fighter_id: int, idle: bool) -> bool:
        """Mark the fighter idle or back; True when that changed anything."""
        if self.is_idle(fighter_id) == idle:
            return False
        self.idle = [item for item in self.idle if item != fighter_id] + ([fighter_id] if idle else [])
        return True

    def has_initiative(self, fighter_id: int) -> bool:
        return fighter_id in self.initiative

    # ---------------------------------------------------------------------- modifiers
    def modifiers_for(self, fighter_id: int, adjustable: bool = True) -> Modifiers:
        state = self.conditions_of(fighter_id)
        tackle, adjust, dice_mod = (int(state.get(key, 0) or 0) for key in ("difficulty", "adjust", "mod"))
        notes = []
        if tackle:
            notes.append(Line("line.tackled", {"change": tackle}))
        if adjust and adjustable:
            notes.append(Line("line.storyteller_difficulty", {"change": f"{adjust:+d}"}))
        if dice_mod:
            notes.append(Line("line.storyteller_dice_kept" if state.get("mod_keep") else "line.storyteller_dice",
                              {"change": f"{dice_mod:+d}"}))
        return Modifiers(tackle + (adjust if adjustable else 0), dice_mod, tuple(notes))

    def use_modifiers(self, fighter_id: int, adjustable: bool = True) -> None:
        """Use up what applied to the fighter's roll: the game master's difficulty change
        (``adjustable``) and a one-roll ``+combat/mod`` (a kept one stays). A tackle's penalty
        lasts the whole turn; the rules end it."""
        state = self.conditions_of(fighter_id)
        used = {"adjust"} if adjustable else set()
        if not state.get("mod_keep"):
            used.add("mod")
        if used & set(state):
            self.set_conditions(fighter_id, {key: value for key, value in state.items() if key not in used})

    # ------------------------------------------------------------------------- telling
    def emit(self, kind: str, **fields: Any) -> Event:
        event = Event(kind=kind, **fields)
        self.events.append(event)
        return event

    def say(self, key: str, *, actor: int | None = None, refs: Mapping[str, int] | None = None,
            values: Mapping[str, Any] | None = None, lines: Sequence[str] = ()) -> None:
        """Tell the fight's room (message ``key``; ``actor`` is $You(); ``refs`` fighters shown
        as each viewer sees them; ``values`` plain facts; ``lines`` the working, where the rules'
        words for a death that waits for the game master's decision read as what is so: the
        health kept, and dying)."""
        told = tuple(lines) if not self._retold else tuple(self._retold_line(line) for line in lines)
        self.emit("said", key=key, actor=actor, refs=dict(refs or {}), values=dict(values or {}), lines=told)

    def _retold_line(self, line: str | Line) -> str | Line:
        if isinstance(line, str):
            for deadly, dying in self._retold.items():
                line = line.replace(deadly, dying)
            return line
        return self._retell(line)

    def _retell(self, line: Line) -> Line:
        """``line`` with each deadly health in it (in a line within it too) as the health
        kept while the game master decides, and dying (:class:`Dying`)."""
        def retold(value):
            if isinstance(value, Line):
                return self._retell(value)
            if isinstance(value, tuple):
                return tuple(retold(part) for part in value)
            if hasattr(value, "words") and value.describe() in self._retold:
                return Dying(self._spared[value.describe()])
            return value

        values = {name: retold(value) for name, value in line.values.items()}
        return line if values == dict(line.values) else Line(line.key, values)

    def tell(self, to: int | None, key: str, *, values: Mapping[str, Any] | None = None,
             lines: Sequence[str] = (), about: int | None = None) -> None:
        """Tell ``to`` alone (a character id) message ``key``."""
        if to is not None:
            self.emit("notice", key=key, to=to, values=dict(values or {}), lines=tuple(lines),
                      data={"about": self.name(about) if about is not None and about in self.fighters else ""})

    def controller(self, fighter_id: int) -> int | None:
        """Who answers for the fighter: the player, or the game master for an NPC."""
        return self.gm if self.is_npc(fighter_id) else fighter_id

    def tell_controller(self, fighter_id: int, key: str, *, values: Mapping[str, Any] | None = None) -> None:
        """Tell the fighter (or, for an NPC, the game master) something only they need."""
        self.tell(self.controller(fighter_id), key, values=values, about=fighter_id)

    def add_log(self, actor: str, what: str | Line, lines: Iterable[str | Line]) -> None:
        """One roll-log entry, with the dice drawn since the entry before it; ``what``, its
        title, a catalogue line (``title.*``) or a name or notation that needs no words."""
        drawn = tuple(self.dice.drawn[self._logged_dice:])
        self._logged_dice = len(self.dice.drawn)
        self.log.append(LogEntry(actor=str(actor), what=what if isinstance(what, Line) else str(what), lines=tuple(line if isinstance(line, Line) else str(line) for line in lines),
                                 round=int(self.round), dice=drawn))

    # --------------------------------------------------------------------- the caller
    @property
    def by(self) -> int | None:
        return self.intent.by if self.intent is not None else None

    def require_gm(self, doing: str) -> None:
        """Raises CombatError unless the intent came from the fight's game master or staff."""
        if self.intent is None or not self.intent.fiat:
            raise CombatError(Line("refusal.only_this_scene_storyteller", {"doing": doing}))


def find_named(candidates: Sequence[tuple[int, str]], name: str, unnamed: Line, missing: str) -> int:
    """The id of the one of ``candidates`` (``(id, name)``) called ``name``: case-insensitive;
    exact beats a unique prefix; among names alike but for case, the exact case; or
    ``#<id>``. Raises CombatError: ``unnamed`` (a line) for a blank name, the refusal keyed
    ``missing`` (its ``{name}``: the name typed) when none matches, the choices when several do (with their ids where the names are
    alike: a rename can give two fighters one name)."""
    text = name.strip()
    wanted = text.casefold()
    if not wanted:
        raise CombatError(unnamed)
    if wanted[0] == "#" and wanted[1:].isdigit() and len(wanted) < 12:
        found = [item for item in candidates if item[0] == int(wanted[1:])]
        if found:
            return found[0][0]
        raise CombatError(Line(missing, {"name": quote(name)}))
    exact = [item for item in candidates if item[1].casefold() == wanted]
    exact = [item for item in exact if item[1] == text] if len(exact) > 1 else exact
    found = exact or [item for item in candidates if item[1].casefold().startswith(wanted)]
    if len(found) == 1:
        return found[0][0]
    if found:
        alike = len({item[1].casefold() for item in found}) < len(found)
        shown: str | Line = ""
        for number, called in found:
            one = Line("value.name_with_id", {"name": called, "id": number}) if alike else called
            shown = Line("value.names_then", {"names": shown, "name": one}) if shown else one
        raise CombatError(Line("refusal.could", {"name": quote(name), "shown": shown}))
    raise CombatError(Line(missing, {"name": quote(name)}))
