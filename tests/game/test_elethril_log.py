"""The roll log of an elethril fight: its entries' titles, worded by the game from
``[elethril.title]`` when each entry is stored (forced dice, the cast of
``test_elethril_commands``)."""

import tests.game.test_elethril_commands as fight
from commands import fray
from world.models import FightLogEntry


class TestRollLogTitles(fight.ElethrilFightTest):
    def titles(self) -> list[tuple[str, str]]:
        return [(entry.actor, entry.what) for entry in FightLogEntry.objects.order_by("number")]

    def test_declaring_rolling_striking_and_delaying_are_titled(self):
        self.player(fray.CmdAttack(), "Zed")
        self.st(fray.CmdCast(), "Zed=fireball=Char2")
        self.force(5, 2)
        self.st(fray.CmdAttack(), "Orc=Char2")
        self.force(12, 3)
        self.st(fray.CmdCombat(), "/next")
        self.assertEqual(self.titles(), [
            ("Char2", "declares"), ("Zed", "declares"), ("Orc", "declares"), ("initiative", "round 1"),
            ("Zed", "begins casting"), ("Char2", "short sword at Zed")])

    def test_a_delay_is_titled_with_its_segment(self):
        self.player(fray.CmdAttack(), "Zed")
        self.st(fray.CmdCast(), "Zed=fireball=Char2")
        self.force(5, 2)
        self.st(fray.CmdAttack(), "Orc=Char2")
        self.player(fray.CmdCombat(), "/delay 6")
        self.assertEqual(self.titles()[-2:], [("initiative", "round 1"), ("Char2", "delays to segment 6")])
