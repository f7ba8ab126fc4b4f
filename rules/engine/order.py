"""The Storyteller's acting order for one round (``+combat/order``): pure, values in and out.

A round's order is a list of *places*; each place is one or more *entries* ``(at, name)``
acting together (a ``Slot`` of the system's schedule: ``at`` is the initiative value the slot
is known by, so an entry keeps its key wherever it is moved). The Storyteller's order for a
round is stored as these places (lists, as JSON keeps them) with the round it is for;
:func:`apply` lays it over the system's own schedule, which stays the order of every other
round (the storyteller seed: the highest initiative acts first "unless the ST prefers
otherwise")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import groupby

from rules.systems.base import ActionSchedule, Slot

Entry = tuple[int, str]


def places(schedule: ActionSchedule) -> list[list[Entry]]:
    """The schedule's places, each a list of its entries."""
    return [[(slot.at, name) for name in slot.names] for slot in schedule.slots]


def stored(order: Sequence[Sequence[Entry]], round_: int) -> dict:
    """The record kept in the fight's state for ``order`` in round ``round_``."""
    return {"round": int(round_), "slots": [[[int(at), str(name)] for at, name in place] for place in order]}


def apply(base: ActionSchedule, record: Mapping | None, round_: int) -> ActionSchedule:
    """``base`` (the system's schedule) in the order of ``record`` when it is for ``round_``;
    else ``base`` itself. Entries of the record no longer in ``base`` (a fighter gone) are
    dropped; entries of ``base`` the record does not know (a late initiative roll) come right
    after the place of the entry before them in ``base``, so nothing is ever lost."""
    if not record or int(record.get("round", -1)) != int(round_):
        return base
    present = {entry for place in places(base) for entry in place}
    order = [[entry for entry in ((int(at), str(name)) for at, name in place) if entry in present]
             for place in record.get("slots", ())]
    order = [place for place in order if place]
    known = {entry for place in order for entry in place}
    anchor = -1   # the index of the place the next new entries follow
    for place in places(base):
        for entry in place:
            if entry in known:
                anchor = next(i for i, there in enumerate(order) if entry in there)
        new = [entry for entry in place if entry not in known]
        if new:
            anchor += 1
            order.insert(anchor, new)
            known.update(new)
    slots = tuple(Slot(at, tuple(name for _, name in group))
                  for place in order for at, group in groupby(place, key=lambda entry: entry[0]))
    return ActionSchedule(slots, base.declare)


def move(order: Sequence[Sequence[Entry]], entry: Entry, index: int) -> list[list[Entry]]:
    """``order`` with ``entry`` taken from its place (the others there stay together) and put
    alone at place ``index`` (0-based) of what is left."""
    rest = [[other for other in place if other != entry] for place in order]
    rest = [place for place in rest if place]
    return [*rest[:index], [entry], *rest[index:]]
