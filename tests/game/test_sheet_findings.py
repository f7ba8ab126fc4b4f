"""Adversary findings on a sheet per system: the server-start migration (a bad old sheet, ratings
out of range), the admin sheet form (all or nothing, ``?system=``), kinds and transformation
per system, ``+npc/create/<system>`` for an existing NPC, and ``+sheet``'s refusals."""

from unittest import mock

from evennia.utils import create

from commands import fray, npcs
from rules.systems import CombatError, get_system
from tests.game.test_admin_screens import AdminTest
from tests.game.test_combat_commands import FrayCommandTest
from world import sheets
from world.admin import sheet_form
from world.models import FraySheet
from world.sheets import sheet_of, update_sheet


def old_style(obj, **values):
    obj.attributes.remove("sheets", category="fray")
    for name, value in values.items():
        obj.attributes.add(name, value, category="fray")


class TestAdminFindings(AdminTest):
    def data(self, system, **changes):
        form = sheet_form(FraySheet, get_system(system))(instance=self.char2)
        data = {name: form.initial.get(name, "") for name in form.fields}
        data.update(changes)
        return data

    def url(self, system):
        return f"/admin/fray/fraysheet/{self.char2.id}/change/?system={system}"

    def test_a_werewolf_made_a_wizard_is_saved_whole(self):
        update_sheet(self.char2, "storyteller", kind="Werewolf", base_kind="Muggle", transformed=True)
        page = self.client.post(self.url("storyteller"), self.data(
            "storyteller", kind="Wizard", base_kind="Wizard", transformed="no", weapon="sword"), follow=True)
        self.assertNotContains(page, "only Werewolves transform")
        self.assertContains(page, "Char2&#x27;s kind is now Wizard (no longer transformed).")
        self.assertEqual(sheet_of(self.char2, "storyteller"), {"kind": "Wizard", "base_kind": "Wizard",
                                                              "transformed": False, "weapon": "sword"})

    def test_one_refusal_saves_nothing_and_says_no_success(self):
        update_sheet(self.char2, "storyteller", kind="Werewolf", transformed=True)
        before = sheet_of(self.char2, "storyteller")
        real = sheets.set_stat

        def refusing(target, field, value, system):
            if field == "weapon":
                raise CombatError("No swords today.")
            return real(target, field, value, system)

        with mock.patch("world.sheets.set_stat", refusing):
            page = self.client.post(self.url("storyteller"), self.data(
                "storyteller", kind="Wizard", transformed="no", weapon="sword", trait_0="4"))
        self.assertEqual(page.status_code, 200)
        self.assertContains(page, "No swords today.")
        self.assertNotContains(page, "successfully")
        self.assertEqual(sheet_of(self.char2, "storyteller"), before)

    def test_the_system_parameter(self):
        page = self.client.get(self.url("AEON"))
        self.assertContains(page, "aeon traits")
        page = self.client.post(self.url("AEON"), self.data("aeon", kind="Zeta"))
        self.assertEqual(page.status_code, 302)
        self.assertEqual(sheet_of(self.char2, "aeon").get("kind"), "Zeta")
        self.assertNotIn("kind", sheet_of(self.char2, "storyteller"))
        before = dict(self.char2.sheets)
        for page in (self.client.get(self.url("foo"), follow=True),
                     self.client.post(self.url("foo"), self.data("storyteller", kind="Wizard"), follow=True)):
            self.assertEqual(page.redirect_chain[-1][0], "/admin/fray/fraysheet/")
            self.assertContains(page, "No rule system &#x27;foo&#x27;. Systems: storyteller, aeon, eldritch, elethril.")
            self.assertEqual(dict(self.char2.sheets), before)


class TestKindFindings(FrayCommandTest):
    def test_a_new_kind_clears_transformed(self):
        self.st(fray.CmdStat(), "Char2/kind=Werewolf")
        self.st(fray.CmdStat(), "Char2/transformed=yes", "<Combat> Storyteller sheet: Char2 is now transformed.")
        self.st(fray.CmdStat(), "Char2/kind=Muggle",
                "<Combat> Storyteller sheet: Char2's kind is now Muggle (no longer transformed).")
        self.st(fray.CmdStat(), "Char2/kind=Werewolf", "<Combat> Storyteller sheet: Char2's kind is now Werewolf.")
        sheet = self.st(fray.CmdSheet(), "Char2")
        self.assertIn("Kind: Werewolf (base Muggle, not transformed)", " ".join(sheet.split()))   # wrapped at 78

    def test_each_system_shows_its_own_kind(self):
        self.st(npcs.CmdNpc(), "/create Thug=thug")
        def kind_in_list(system):
            out = self.st(npcs.CmdNpc(), f"/list/{system}")
            self.assertEqual(out.count("Muggle"), system == "storyteller")
            return [line.split()[1] for line in out.splitlines() if line.startswith(" Thug ")][0]

        self.assertEqual([kind_in_list(system) for system in ("storyteller", "aeon", "eldritch", "elethril")],
                         ["Muggle", "Baseline", "-", "Human"])
        self.assertIn("Thug  NPC  aeon sheet  Kind: Baseline", self.st(npcs.CmdNpc(), "/sheet/aeon Thug"))
        self.assertIn("Thug  NPC  elethril sheet  Kind: Human", self.st(npcs.CmdNpc(), "/sheet/elethril Thug"))

    def test_transformed_without_transformation(self):
        before = dict(self.char2.sheets)
        self.st(fray.CmdStat(), "/eldritch Char2/transformed=yes", "<Fray> The eldritch rules have no transformation.")
        self.st(fray.CmdStat(), "/elethril Char2/transformed=yes", "<Fray> The elethril rules have no transformation.")
        self.st(fray.CmdStat(), "/aeon Char2/transformed=no", "<Fray> The aeon rules have no transformation.")
        self.assertEqual(dict(self.char2.sheets), before)

    def test_an_ambiguous_kind_lists_the_candidates(self):
        self.st(fray.CmdStat(), "Char2/kind=w", "<Fray> 'w' could be: Werewolf, Wizard.")
        self.st(fray.CmdStat(), "Char2/kind=wi", "<Combat> Storyteller sheet: Char2's kind is now Wizard.")


class TestNpcCreateForASystem(FrayCommandTest):
    def test_an_empty_sheet_is_filled_and_a_full_one_refused(self):
        self.st(fray.CmdCombat(), "/start aeon")
        self.st(npcs.CmdNpc(), "/create Z=zeta", "<Combat> Created Z from the zeta template.")
        self.st(npcs.CmdNpc(), "/create/storyteller Z=thug",
                "<Combat> Z's storyteller sheet was empty: it now has the thug template's sheet (Muggle, ")
        z = [obj for obj in self.room1.contents if obj.key == "Z"][0]
        self.assertEqual(sheet_of(z, "storyteller")["traits"]["Brawl"], 3)
        self.assertEqual(sheet_of(z, "aeon")["kind"], "Zeta")
        self.st(npcs.CmdNpc(), "/create/storyteller Z=guard",
                "<Fray> There is already an NPC named Z here. For numbered copies: +npc/create Z*2=guard. "
                "Its storyteller sheet is not empty: +npc/clear/storyteller Z clears it for a template.")
        self.assertEqual(sheet_of(z, "storyteller")["traits"]["Brawl"], 3)
        self.st(npcs.CmdNpc(), "/clear/storyteller Z",
                "<Combat> Z's storyteller sheet is cleared (+npc/create/storyteller Z=<template> fills it).")
        self.assertEqual(sheet_of(z, "storyteller"), {})
        self.assertEqual(sheet_of(z, "aeon")["kind"], "Zeta")
        self.st(npcs.CmdNpc(), "/clear/storyteller Z", "<Fray> Z's storyteller sheet is already empty.")
        self.st(npcs.CmdNpc(), "/create/storyteller Z=guard", "<Combat> Z's storyteller sheet was empty: it now has")
        self.st(npcs.CmdNpc(), "/create Z", "<Fray> There is already an NPC named Z here. "
                "For numbered copies: +npc/create Z*2.")


class TestSheetRefusals(FrayCommandTest):
    def test_a_player_names_no_one_but_themselves(self):
        for name in ("Orc", "OldGuy"):
            npc = create.create_object("typeclasses.npcs.NPC", key=name, location=self.room1)
            self.addCleanup(npc.delete)
        self.player(fray.CmdSheet(), "O", "<Fray> Only a Narrator or staff can see other characters' sheets.")
        self.player(fray.CmdSheet(), "Orc", "<Fray> Only a Narrator or staff can see other characters' sheets.")
        self.player(fray.CmdSheet(), "char2", "Char2  Character  storyteller sheet")
        self.player(fray.CmdSheet(), "me", "Char2  Character  storyteller sheet")
        self.st(fray.CmdSheet(), "O", "<Fray> 'O' could be: ")

    def test_a_switch_without_a_name_gives_the_usage(self):
        self.player(fray.CmdSheet(), "/", "<Fray> Usage: +sheet[/<system>] [<name>]")

