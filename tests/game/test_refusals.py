"""Bad input at the eldritch and elethril commands and the shared ones the engine added
(``aim``, ``+combat/reveal``): each refusal is one ``<Fray>`` line, never a traceback, and
nothing is changed — not the fight (its state and roll log), not what the characters carry."""

from commands import aeon, eldritch, fray, items
from commands.actions import commands
from tests.game.test_eldritch_commands import EldritchFightTest
from tests.game.test_elethril_commands import ElethrilFightTest
from world import fights

#: Player text that has tripped parsers before: colour codes, MUSH codes, line breaks, a
#: telnet IAC, full-width digits, a Cyrillic look-alike, a huge number, a long run.
ODD = ("|r|hboom", "%ch%cr", "a%rb", "a\nb", "\xff\xfb", "\uff13", "Т\u0445ug", "9" * 40, "x" * 300)


def aim():
    return next(command for command in commands() if command.key == "aim")()


class RefusalCheck:
    def kept(self):
        row = self.encounter.row
        carried = [dict(obj.attributes.get(name, category="fray") or {}) if name == "concealed"
                   else list(obj.attributes.get(name, category="fray") or [])
                   for obj in (self.char1, self.char2) for name in ("concealed", "magic_items")]
        return fights.state(row).to_record(), row.log_count, carried

    def refused(self, caller, command, args):
        before = self.kept()
        out = self.call(command, args, caller=caller)
        with self.subTest(command=type(command).__name__, args=args):
            self.assertTrue(out.startswith("<Fray> "), out)
            self.assertEqual(out.count("\n"), 0, out)
            self.assertNotIn("Traceback", out)
            self.assertEqual(self.kept(), before)


class TestEldritchRefusals(RefusalCheck, EldritchFightTest):
    def test_each_refusal_is_one_line_and_keeps_everything(self):
        self.npc("Boss", {"Dexterity": 1})
        self.initiative(2, 9)   # the Thug's turn first
        player = self.char2
        cases = [
            (eldritch.CmdConceal(), ""), (eldritch.CmdConceal(), "/duffel"), (eldritch.CmdConceal(), "ray gun"),
            (eldritch.CmdConceal(), "=knife"), (eldritch.CmdConceal(), "Thug=knife"),
            (eldritch.CmdConceal(), "/clear"),
            (eldritch.CmdSearch(), ""), (eldritch.CmdSearch(), "Nobody"), (eldritch.CmdSearch(), "Char2"),
            (eldritch.CmdSearch(), "/patdown/open Thug"), (eldritch.CmdSearch(), "Thug/patdown"),
            (eldritch.CmdSpot(), ""), (eldritch.CmdSpot(), "Thug"), (eldritch.CmdSpot(), "Char2"),
            (eldritch.CmdEyeContact(), "Thug=abc"), (eldritch.CmdEyeContact(), "Thug=99999"),
            (eldritch.CmdEyeContact(), "Thug=-1"), (eldritch.CmdEyeContact(), "Char2"),
            (eldritch.CmdLos(), ""), (eldritch.CmdLos(), "Nobody/partial"),
            (eldritch.CmdMove(), ""), (eldritch.CmdMove(), "fly"), (eldritch.CmdMove(), "run " + "x" * 100),
            (eldritch.CmdMove(), "stand"),
            (eldritch.CmdSacrifice(), ""), (eldritch.CmdSacrifice(), "Thug"), (eldritch.CmdSacrifice(), "Nobody"),
            (eldritch.CmdWake(), "Thug"), (eldritch.CmdWake(), ""),
            (fray.CmdAttack(), "Thug,,Boss/double jump kick"), (fray.CmdAttack(), "Thug,Nobody/double jump kick"),
            (fray.CmdAttack(), "Thug,Boss/double jump kick"),
            (fray.CmdCombat(), "/space 3"), (aeon.CmdHide(), "/obscured"),
            (aim(), ""), (aim(), "Nobody"), (aim(), "Thug"),
            (fray.CmdCombat(), "/reveal Thug"),
        ]
        cases += [(command, odd) for odd in ODD for command in (eldritch.CmdSpot(), eldritch.CmdLos(),
                                                              eldritch.CmdMove(), eldritch.CmdSacrifice(),
                                                              eldritch.CmdConceal(), eldritch.CmdSearch())]
        for command, args in cases:
            self.refused(player, command, args)
        for command, args in [(fray.CmdCombat(), "/space lots"), (fray.CmdCombat(), "/space -1"),
                              (fray.CmdCombat(), "/space \uff13"), (fray.CmdCombat(), "/reveal"),
                              (fray.CmdCombat(), "/reveal Nobody"), (fray.CmdCombat(), "/reveal Thug"),
                              (eldritch.CmdWake(), "Thug"), (eldritch.CmdMove(), "Char2=run")]:
            self.refused(self.char1, command, args)


class TestElethrilRefusals(RefusalCheck, ElethrilFightTest):
    def test_each_refusal_is_one_line_and_keeps_everything(self):
        player, st = self.char2, self.char1
        for command, args in [
            (fray.CmdCombat(), "/party Orc=nag"), (fray.CmdCombat(), "/offhand Orc=dagger"),
            (fray.CmdCombat(), "/delay 5"), (fray.CmdCombat(), "/delay"), (fray.CmdCombat(), "/forfeit"),
            (fray.CmdCombat(), "/forfeit Orc"), (fray.CmdCombat(), "/init bogus"),
            (fray.CmdCombat(), "/init Orc=hasted"), (fray.CmdCombat(), "/init"),
            (items.CmdUse(), ""), (items.CmdUse(), "nothing"), (items.CmdUse(), "#999999999"),
            (fray.CmdCast(), "nonsense"), (fray.CmdCast(), "fireball=Orc=Zed"), (fray.CmdCast(), "fireball"),
            (fray.CmdAttack(), "Orc/short sword*0"), (fray.CmdAttack(), "Orc/*"), (fray.CmdAttack(), "Orc/long sword,"),
            (fray.CmdAttack(), "Char2"), (fray.CmdAttack(), "Nobody"), (aim(), "Orc"),
        ] + [(fray.CmdAttack(), f"Orc/{odd}") for odd in ODD] + [(fray.CmdCombat(), f"/delay {odd}") for odd in ODD]:
            self.refused(player, command, args)
        for command, args in [
            (fray.CmdCombat(), "/party =nag"), (fray.CmdCombat(), "/party Orc=bad!name"),
            (fray.CmdCombat(), "/party Orc=nag/fastest"), (fray.CmdCombat(), "/party Orc=/slowest"),
            (fray.CmdCombat(), "/party Orc,,Zed=nag"), (fray.CmdCombat(), "/party Nobody=nag"),
            (fray.CmdCombat(), "/offhand Orc=ray gun"), (fray.CmdCombat(), "/offhand =dagger"),
            (fray.CmdCombat(), "/delay Orc=5"), (fray.CmdCombat(), "/forfeit Orc"),
            (fray.CmdCombat(), "/next"), (fray.CmdCombat(), "/init Nobody=hasted"),
            (items.CmdUse(), "Orc=wand/nothing=Char2"), (items.CmdUse(), "Orc=/=Char2"),
        ] + [(fray.CmdCombat(), f"/party Orc={odd}") for odd in ODD]:
            self.refused(st, command, args)
