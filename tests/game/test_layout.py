"""Every view lays itself out for the client's width (NAWS), from 40 columns to 200: the HUD
of both round shapes, the sheet and the lists, at 40, 60, 78, 120 and 200 columns. No line is
wider than the window, and a table's columns line up under their headers; under 60 columns a
table is one entry a row."""

from commands import armor, fray, npcs, scenes
from tests.game.test_combat_commands import FrayCommandTest
from tests.game.test_elethril_commands import ElethrilFightTest

WIDTHS = (40, 60, 78, 120, 200)


class LayoutTest(FrayCommandTest):
    def at_width(self, width: int, cmd, args: str = "", caller=None) -> str:
        self.session.protocol_flags["SCREENWIDTH"] = {0: width}
        self.addCleanup(self.session.protocol_flags.pop, "SCREENWIDTH", None)
        return self.call(cmd, args, caller=caller or self.char1)

    def assert_fits(self, text: str, width: int, what: str) -> None:
        wide = [line for line in text.splitlines() if len(line) > width]
        self.assertEqual(wide, [], f"{what} at {width} columns")

    def assert_aligned(self, text: str, headers: tuple[str, ...], what: str) -> None:
        """Each row starts each column where its header does (a space before it)."""
        lines = text.splitlines()
        head = next(index for index, line in enumerate(lines) if all(name in line for name in headers))
        starts = [lines[head].index(name) for name in headers[1:]]
        self.assertTrue(set(lines[head + 1]) == {"~"}, what)
        for line in lines[head + 2:]:
            if not line.strip() or not line.startswith(" "):
                break
            for start in starts:
                self.assertEqual(line[start - 1], " ", f"{what}: {line!r}")


class TestTurnsHud(LayoutTest):
    def test_the_hud_fits_every_width_and_its_columns_line_up(self):
        self.storyteller_fight("Bartholomew-Guardman")
        for width in WIDTHS:
            hud = self.at_width(width, fray.CmdCombat())
            self.assert_fits(hud, width, "HUD")
            if width >= 60:
                self.assert_aligned(hud, ("#", "Name", "Init", "Health", "Status"), f"HUD at {width}")
                self.assertEqual(max(len(line) for line in hud.splitlines()), width)   # the rule fills it
            else:
                self.assertIn("1, Char2, init 9, health Healthy [.......], status TO ACT", " ".join(hud.split()))

    def test_the_sheet_and_the_lists_fit_every_width(self):
        self.storyteller_fight("Guard")
        self.call(armor.CmdRequest(), "/armor Leather Coat=for the docks job", caller=self.char2)
        self.call(scenes.CmdScene(), "/start The ambush at the docks", caller=self.char2)
        for width in WIDTHS:
            for what, cmd, args, caller in (("+sheet", fray.CmdSheet(), "", self.char2),
                                            ("+npc/list", npcs.CmdNpc(), "/list", None),
                                            ("+npc/templates", npcs.CmdNpc(), "/templates", None),
                                            ("+combat/list", fray.CmdCombat(), "/list", None),
                                            ("+request/list", armor.CmdRequest(), "/list", None),
                                            ("+scene/list", scenes.CmdScene(), "/list", None)):
                self.assert_fits(self.at_width(width, cmd, args, caller), width, what)


class TestSegmentsHud(ElethrilFightTest, LayoutTest):
    def test_the_segment_hud_fits_every_width(self):
        for width in WIDTHS:
            hud = self.at_width(width, fray.CmdCombat())
            self.assert_fits(hud, width, "segment HUD")
            if width >= 60:
                self.assert_aligned(hud, ("Name", "Side", "Init", "Action", "Health", "Status"), f"at {width}")
