"""rules/systems/acting_order.py: the Storyteller's order laid over a system's schedule."""

from rules.engine import order as acting_order
from rules.systems.base import ActionSchedule, Slot

BASE = ActionSchedule((Slot(14, ("Guard",)), Slot(12, ("Ann", "Cid")), Slot(8, ("Bob",))), ("Bob", "Ann", "Cid", "Guard"))


def names(schedule):
    return [list(slot.names) for slot in schedule.slots]


def test_no_order_or_another_rounds_order_leaves_the_schedule_as_it_is():
    record = acting_order.stored([[(8, "Bob")], [(14, "Guard")], [(12, "Ann"), (12, "Cid")]], 2)
    assert acting_order.apply(BASE, None, 2) is BASE
    assert acting_order.apply(BASE, record, 3) is BASE
    assert names(acting_order.apply(BASE, record, 2)) == [["Bob"], ["Guard"], ["Ann", "Cid"]]
    assert acting_order.apply(BASE, record, 2).declare == BASE.declare


def test_move_takes_one_out_of_a_tie_and_puts_it_alone():
    order = acting_order.move(acting_order.places(BASE), (12, "Cid"), 0)
    assert order == [[(12, "Cid")], [(14, "Guard")], [(12, "Ann")], [(8, "Bob")]]
    record = acting_order.stored(order, 1)
    assert record == {"round": 1, "slots": [[[12, "Cid"]], [[14, "Guard"]], [[12, "Ann"]], [[8, "Bob"]]]}
    applied = acting_order.apply(BASE, record, 1)
    assert [(slot.at, slot.names) for slot in applied.slots] == [
        (12, ("Cid",)), (14, ("Guard",)), (12, ("Ann",)), (8, ("Bob",))]


def test_a_fighter_gone_is_dropped_and_a_late_roll_follows_the_one_before_it():
    record = acting_order.stored([[(8, "Bob")], [(14, "Guard")], [(12, "Ann"), (12, "Cid")]], 1)
    later = ActionSchedule((Slot(14, ("Guard",)), Slot(13, ("Orc",)), Slot(12, ("Ann",)), Slot(2, ("Imp",))))
    assert names(acting_order.apply(later, record, 1)) == [["Guard"], ["Orc"], ["Ann"], ["Imp"]]
    first = ActionSchedule((Slot(20, ("Orc",)), Slot(14, ("Guard",)), Slot(8, ("Bob",))))
    assert names(acting_order.apply(first, record, 1)) == [["Orc"], ["Bob"], ["Guard"]]
