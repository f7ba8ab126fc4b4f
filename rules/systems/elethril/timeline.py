"""Elethril's segment timeline: which actor does what at which segment of which round.

Source: the elethril seed (sections 1c, 3a–3c, 4a–4d). Pure values, no
dice: :mod:`rules.systems.elethril` rolls initiative and builds the :class:`Action` values;
this module orders, carries over, delays, forfeits and spoils them.

Units: a *round* is numbered from 1; a *segment* is 1–10 inside a round; a *tick* counts
segments from the start of round 1 (``tick = (round - 1) * 10 + segment``), so an action at
initiative 14 declared in round 1 lands on tick 14 = round 2, segment 4 (seed 3a).

Order inside one segment (seed 3b), as ``PHASES``: ``discharge`` (spells whose casting is
done, magical items, potions), ``instant`` (Power Words, cantrips), ``missile``, ``melee``.
``casting`` is a marker before them: a spell's casting begins at the start of its segment
(seed 3c); nothing resolves on it. Events with the same tick and phase are simultaneous.

Choices where the source is silent (also in ``rules/systems/elethril.py``):

- Delay (1c) moves all of the actor's pending events of the action by the same number of
  segments: later attacks keep their spacing, and the moved events keep their phase.
- A hit spoils a spell from the start of its casting segment (before that segment's
  discharges) up to, not including, its effect; an instant spell can only be spoiled by that
  segment's discharges (3c). A spoiled spell ends the action at the hit: the caster rolls
  initiative again in the next round not yet begun.
- Forfeiting (3a) and aborting later attacks (4c) are the same: the action's events from the
  given round on are dropped, and the caster's new roll takes the forfeit penalty.
- One who falls (down or dead) loses the rest of the action (:func:`cancel`): everything after
  the step they fell in, in this round and any later one; a fighter struck down in a step
  still acts in it (the step is simultaneous).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import groupby
from typing import Any

from rules.lines import Drawn, Line
from rules.systems.base import ActionSchedule, CombatError, Slot

SEGMENTS_PER_ROUND = 10
PHASES = ("casting", "discharge", "instant", "missile", "melee")


def tick_of(round_number: int, segment: int) -> int:
    """Ticks (segments since the start of round 1) of ``segment`` in ``round_number``."""
    return (round_number - 1) * SEGMENTS_PER_ROUND + segment


def moment(tick: int) -> tuple[int, int]:
    """``(round, segment)`` of a tick ≥ 1: tick 14 → (2, 4); tick 20 → (2, 10)."""
    return (tick - 1) // SEGMENTS_PER_ROUND + 1, (tick - 1) % SEGMENTS_PER_ROUND + 1


def landing(round_number: int, initiative: int) -> tuple[int, int]:
    """Where a final initiative (≥ 1) declared in ``round_number`` lands (seed 3a): 1–10 this
    round, 11–20 the next (segment = initiative − 10), 21–30 the round after, and so on."""
    return moment(tick_of(round_number, initiative))


@dataclass(frozen=True)
class Event:
    """One thing that happens at a segment: an attack, a spell's effect, its casting start.

    ``phase`` is one of ``PHASES``; ``number``/``count`` number the attacks of one action
    (2 of 3); ``hand`` is "" for a single weapon, else "primary" or "off" (two weapons);
    ``weapon`` is the weapon as the player named it (``attack``'s option), ``spell`` the
    spell's key, ``item`` the magical item type discharging it ("" for a spell cast; an
    item's discharge has no casting, so it is never spoiled). ``spoiled``: a hit spoiled the
    casting (seed 3c).
    """

    actor: str
    phase: str
    round: int
    segment: int
    label: str
    target: str = ""
    weapon: str = ""
    hand: str = ""
    spell: str = ""
    number: int = 1
    count: int = 1
    spoiled: bool = False
    item: str = ""

    @property
    def tick(self) -> int:
        return tick_of(self.round, self.segment)

    @property
    def position(self) -> tuple[int, int]:
        """``(tick, phase index)``: the moment inside the fight, for comparisons."""
        return self.tick, PHASES.index(self.phase)

    @property
    def order(self) -> tuple[Any, ...]:
        """Sort key: tick, phase (seed 3b), then actor name case-insensitively, attack number."""
        return (*self.position, self.actor.casefold(), self.actor, self.number)

    def moved(self, ticks: int) -> Event:
        round_number, segment = moment(self.tick + ticks)
        return replace(self, round=round_number, segment=segment)

    def to_record(self) -> dict[str, Any]:
        return {"actor": self.actor, "phase": self.phase, "round": self.round,
                "segment": self.segment, "label": self.label, "target": self.target,
                "weapon": self.weapon, "hand": self.hand, "spell": self.spell,
                "number": self.number, "count": self.count, "spoiled": self.spoiled, "item": self.item}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Event:
        return cls(actor=record["actor"], phase=record["phase"], round=int(record["round"]),
                   segment=int(record["segment"]), label=record["label"],
                   target=record.get("target", ""), weapon=record.get("weapon", ""),
                   hand=record.get("hand", ""), spell=record.get("spell", ""),
                   number=int(record.get("number", 1)), count=int(record.get("count", 1)),
                   spoiled=bool(record.get("spoiled", False)), item=record.get("item", ""))


@dataclass(frozen=True)
class Action:
    """One declared action and everything it schedules, possibly over several rounds.

    ``kind``: "melee", "missile", "spell" or "item". ``round``: the round it was declared
    in. ``events``: in order. ``reload_rounds``: rounds skipped after the last event before
    the next initiative roll (missile rate below one, seed 4d). ``casting_from``: the tick
    the spell's casting began (0: no spell). ``ended``: the tick a hit spoiled the casting,
    the action was forfeited or its actor fell (0: runs its course). ``delayed_to``: the tick
    the action was last held to (``+combat/delay``; 0: never).
    """

    actor: str
    round: int
    kind: str
    events: tuple[Event, ...]
    reload_rounds: int = 0
    casting_from: int = 0
    ended: int = 0
    delayed_to: int = 0

    @property
    def last_round(self) -> int:
        """The last round the action occupies (seed 3a: 11–20 counts for both rounds)."""
        if self.ended:
            return moment(self.ended)[0]
        return max([self.round] + [event.round for event in self.events])

    @property
    def next_initiative_round(self) -> int:
        """The round in which the actor next rolls initiative."""
        return self.last_round + 1 + self.reload_rounds

    def busy_in(self, round_number: int) -> bool:
        """Whether the action still holds ``round_number`` (so the actor rolls no initiative)."""
        return self.round < round_number < self.next_initiative_round

    @property
    def effect(self) -> Event | None:
        """The spell's effect event (discharge or instant), or None."""
        return next((e for e in self.events if e.phase in ("discharge", "instant") and e.spell
                     and self.casting_from), None)

    def casting_at(self, position: tuple[int, int]) -> bool:
        """Whether the caster is casting at ``(tick, phase index)``: from the casting marker
        of the start segment up to, not including, the effect (seed 3c)."""
        effect = self.effect
        if effect is None or self.ended:
            return False
        return (self.casting_from, 0) <= position < effect.position

    def to_record(self) -> dict[str, Any]:
        return {"actor": self.actor, "round": self.round, "kind": self.kind,
                "events": [event.to_record() for event in self.events],
                "reload_rounds": self.reload_rounds, "casting_from": self.casting_from,
                "ended": self.ended, "delayed_to": self.delayed_to}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Action:
        return cls(actor=record["actor"], round=int(record["round"]), kind=record["kind"],
                   events=tuple(Event.from_record(e) for e in record["events"]),
                   reload_rounds=int(record.get("reload_rounds", 0)),
                   casting_from=int(record.get("casting_from", 0)),
                   ended=int(record.get("ended", 0)), delayed_to=int(record.get("delayed_to", 0)))


@dataclass(frozen=True)
class Timeline:
    """One round's events in acting order (``events``), and the events the same actions hold
    for later rounds (``later``, in order). ``busy``: actors carrying an action into this round
    from an earlier one (they roll no initiative)."""

    round: int
    events: tuple[Event, ...]
    later: tuple[Event, ...] = ()
    busy: tuple[str, ...] = ()

    def at(self, segment: int) -> tuple[Event, ...]:
        """The events at ``segment`` (1–10), in order."""
        return tuple(event for event in self.events if event.segment == segment)

    def steps(self) -> tuple[tuple[Event, ...], ...]:
        """The events grouped into simultaneous steps (same segment and phase), in order;
        casting markers and spoiled spells are left out (nothing resolves on them)."""
        acting = [e for e in self.events if e.phase != "casting" and not e.spoiled]
        return tuple(tuple(group) for _, group in groupby(acting, key=lambda e: e.position))

    def schedule(self) -> ActionSchedule:
        """The steps as ``base.ActionSchedule`` slots: ``at`` = segment, names in order (a
        segment may give several slots, one per phase)."""
        return ActionSchedule(tuple(
            Slot(step[0].segment, tuple(dict.fromkeys(event.actor for event in step)))
            for step in self.steps()))


@dataclass(frozen=True)
class Board(Drawn):
    """The segment timeline board as the round's initiative event carries it (a value of its
    ``elethril.line.board`` line): the round's ``timeline`` and ``now``, the segment to be
    played next (0: none). Data, a drawn value: the game draws it for the reader
    (``world.segment_board``)."""

    timeline: Timeline
    now: int = 0


def _shown(action: Action, event: Event) -> bool:
    """A spoiled spell's events show only up to the round it was spoiled in."""
    return not (event.spoiled and event.round > moment(action.ended)[0])


def build_timeline(round_number: int, actions: Sequence[Action]) -> Timeline:
    """The timeline of ``round_number`` from the actions declared this round and those carried
    over from earlier rounds (any others are ignored). Deterministic for any input order.

    Raises:
        CombatError: two actions for one actor both hold this round.
    """
    holders: dict[str, Action] = {}
    for action in actions:
        if action.round == round_number or action.busy_in(round_number):
            if action.actor in holders:
                raise CombatError(Line("elethril.refusal.has_two_actions_round", {"action_actor": action.actor, "round_number": round_number}))
            holders[action.actor] = action
    now, later = [], []
    for action in holders.values():
        for event in action.events:
            if not _shown(action, event):
                continue
            if event.round == round_number:
                now.append(event)
            elif event.round > round_number and not event.spoiled:
                later.append(event)
    busy = sorted((a.actor for a in holders.values() if a.round < round_number),
                  key=lambda name: (name.casefold(), name))
    return Timeline(round_number, tuple(sorted(now, key=lambda e: e.order)),
                    tuple(sorted(later, key=lambda e: e.order)), tuple(busy))


def delay(action: Action, round_number: int, segment: int, now: int) -> Action:
    """``action`` held to ``segment`` of ``round_number`` (seed 1c), while the fight is at
    segment ``now`` of that round. All pending events (at ``now`` or later) move by the same
    number of segments; later attacks may spill into the next round.

    Raises:
        CombatError: the segment is past, not later than the action's own, beyond segment 10,
        or the action has nothing pending this round, acts at its last segment (nothing later
        to hold to) or is already casting.
    """
    if not 1 <= segment <= SEGMENTS_PER_ROUND:
        raise CombatError(delay_range_error(str(segment)))
    if segment < now:
        raise CombatError(Line("elethril.refusal.segment_has_passed_segment", {"segment": segment, "now": now}))
    start = tick_of(round_number, now)
    pending = [e for e in action.events if e.tick >= start]
    if action.ended or not pending or pending[0].round != round_number:
        raise CombatError(Line("elethril.refusal.has_nothing_left_do", {"action_actor": action.actor}))
    if action.casting_from and action.casting_from < start:
        raise CombatError(Line("elethril.refusal.already_casting_cannot_delay", {"action_actor": action.actor}))
    first = min(e.tick for e in pending)
    _, own = moment(first)
    if own == SEGMENTS_PER_ROUND:
        raise CombatError(Line("elethril.refusal.acts_at_segment_last", {"action_actor": action.actor, "own": own}))
    if tick_of(round_number, segment) <= first:
        raise CombatError(Line("elethril.refusal.already_acts_at_segment", {"action_actor": action.actor, "own": own, "own_2": own + 1, "segments_per_round": SEGMENTS_PER_ROUND}))
    shift = tick_of(round_number, segment) - first
    events = tuple(e.moved(shift) if e.tick >= start else e for e in action.events)
    casting_from = action.casting_from + shift if action.casting_from else 0
    return replace(action, events=tuple(sorted(events, key=lambda e: e.order)), casting_from=casting_from,
                   delayed_to=tick_of(round_number, segment))


def delay_range_error(text: str) -> Line:
    """The one refusal for a segment that is not 1-10 (``+combat/delay soon``, ``-5``, ``0``)."""
    return Line("elethril.refusal.delay_range", {"last": SEGMENTS_PER_ROUND, "text": text})


def cancel(action: Action, position: tuple[int, int]) -> tuple[Action, tuple[Event, ...]]:
    """``action`` after its actor fell at ``position`` (``(tick, phase index)``, the step they
    fell in): every event after it dropped, nothing carried into later rounds, no reloading.
    Returns the action and the dropped events (none: it had nothing left; an action already
    ended is returned unchanged)."""
    if action.ended:
        return action, ()
    dropped = tuple(e for e in action.events if e.position > position and not e.spoiled)
    if not dropped and not action.reload_rounds and action.last_round <= moment(position[0])[0]:
        return action, ()
    kept = tuple(e for e in action.events if e.position <= position)
    return replace(action, events=kept, ended=max(position[0], 1), reload_rounds=0), dropped


def forfeit(action: Action, round_number: int) -> Action:
    """``action`` with everything from ``round_number`` on dropped (seed 3a: forfeiting a
    carried-over action; 4c: aborting attacks past segment 10). The actor then rolls
    initiative in ``round_number`` with the forfeit penalty.

    Raises:
        CombatError: the action was declared in ``round_number`` or later, or holds nothing
        in ``round_number`` or later to forfeit.
    """
    if round_number <= action.round:
        raise CombatError(Line("elethril.refusal.only_action_carried_over"))
    if action.ended or not any(e.round >= round_number for e in action.events):
        raise CombatError(Line("elethril.refusal.has_no_action_carried_into", {"action_actor": action.actor, "round_number": round_number}))
    kept = tuple(e for e in action.events if e.round < round_number)
    return replace(action, events=kept, ended=tick_of(round_number, 0), reload_rounds=0)


def spoil(actions: Sequence[Action], caster: str, round_number: int, segment: int,
          phase: str) -> tuple[tuple[Action, ...], Event | None]:
    """After ``caster`` is hit at ``segment`` of ``round_number`` in ``phase`` (seed 3c: a hit
    while casting spoils the spell): the actions with the caster's spell spoiled, and the
    spoiled effect event (None when the caster was not casting at that moment)."""
    position = (tick_of(round_number, segment), PHASES.index(phase))
    result, spoiled = [], None
    for action in actions:
        if action.actor == caster and action.casting_at(position):
            spoiled = replace(action.effect, spoiled=True)
            events = tuple(replace(e, spoiled=True) if e.spell and e.phase != "casting" else e
                           for e in action.events)
            action = replace(action, events=events, ended=position[0], reload_rounds=0)
        result.append(action)
    return tuple(result), spoiled
