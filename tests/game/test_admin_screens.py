"""The Django admin's Fray screens (world/admin.py): armor requests approved or denied through
the same services as +request (the player told as in the game), sheets and NPCs edited with
+stat's checks, armor notes edited and revoked; bad input shown beside its field with nothing
changed; staff only; CSRF enforced; player text escaped."""

from django.test import Client
from evennia.utils import create
from evennia.utils.test_resources import EvenniaTest

from rules.systems import get_system
from world import armor, sheets
from world.admin import notes_form, sheet_form
from world.models import ArmorNotes, ArmorRequest, FraySheet
from world.sheets import sheet_of, traits_of, update_sheet, weapon_of

SCRIPT = "<script>alert(1)</script>"


class AdminTest(EvenniaTest):
    def setUp(self):
        super().setUp()
        self.staff = create.create_account("Warden", "warden@example.com", "Fr4y-admin-pw", is_superuser=True)
        self.addCleanup(self.staff.delete)
        self.client = Client()
        self.client.force_login(self.staff)
        self.char2.armor_notes = []
        self.char2.worn_armor = None
        self.char2.pending_notices = []
        self.system = sheets.default_system()

    def file(self, what="goblin", why="From the vault"):
        return armor.file_armor_request(self.char2, what, why, self.system)["id"]

    def url(self, number, action="change"):
        return f"/admin/fray/armorrequest/{number}/{action}/"

    def state(self):
        return (armor.all_requests(), armor.notes_of(self.char2), list(self.char2.pending_notices or []))


class TestArmorRequests(AdminTest):
    def test_list_filter_and_search(self):
        first, second = self.file("goblin"), self.file("troll-hide cloak", "won it")
        page = self.client.get("/admin/fray/armorrequest/")
        self.assertEqual(page.status_code, 200)
        self.assertContains(page, "Goblin-made Mail")
        self.assertContains(page, "troll-hide cloak")
        found = self.client.get("/admin/fray/armorrequest/", {"q": "troll"})
        self.assertContains(found, "troll-hide cloak")
        self.assertNotContains(found, "Goblin-made Mail")
        armor.deny(self.char1, first, "no")
        open_only = self.client.get("/admin/fray/armorrequest/", {"status__exact": "open"})
        self.assertContains(open_only, "troll-hide cloak")
        self.assertNotContains(open_only, "Goblin-made Mail")
        page = self.client.get(self.url(second))
        self.assertEqual(page.status_code, 200)
        self.assertContains(page, 'id="fray-approve"')
        self.assertContains(page, 'id="fray-deny"')
        # A handled request has no buttons; raw fields are read-only.
        self.assertNotContains(self.client.get(self.url(first)), 'id="fray-approve"')
        self.assertEqual(self.client.post(self.url(second), {"status": "approved"}).status_code, 403)
        self.assertEqual(armor.get_request(second)["status"], "open")

    def test_the_soak_example_is_in_the_requests_systems_columns(self):
        number = armor.file_armor_request(self.char2, "troll-hide cloak", "won it", get_system("eldritch"))["id"]
        self.assertContains(self.client.get(self.url(number)), "e.g. bash:1,lethal:2; leave empty")
        self.assertContains(self.client.get(self.url(self.file("cloak"))), "e.g. bashing:1; leave empty")

    def test_approve_makes_the_note_and_tells_the_player(self):
        number = self.file("goblin")
        page = self.client.post(self.url(number, "approve"), {"soak": "", "comment": "Well earned."}, follow=True)
        self.assertEqual(page.redirect_chain, [(self.url(number), 302)])
        self.assertContains(page, f"Request #{number} approved: Goblin-made Mail (bashing 2, lethal 2). Char2 is told.")
        note = armor.notes_of(self.char2)[0]
        self.assertEqual((note["id"], note["soak"], note["approved_by"], note["comment"]),
                         (number, {"bashing": 2, "lethal": 2}, "Warden", "Well earned."))
        request = armor.get_request(number)
        self.assertEqual((request["status"], request["handled_by"]), ("approved", "Warden"))
        self.assertEqual(self.char2.pending_notices,
                         [f"|g<Armor>|n Your armor request #{number} is approved by Warden: #{number} Goblin-made "
                          f"Mail (storyteller: bashing 2, lethal 2). Wear it with +armor/wear {number}. "
                          f"Comment: Well earned."])
        # Approving again is the service's refusal, shown as an error; nothing changes.
        before = self.state()
        again = self.client.post(self.url(number, "approve"), {"soak": "bashing:1"})
        self.assertEqual(again.status_code, 409)
        self.assertContains(again, f"Request #{number} is already approved (by Warden", status_code=409)
        self.assertEqual(self.state(), before)

    def test_custom_armor_with_soak_values(self):
        number = self.file("troll-hide cloak", "won it")
        before = self.state()
        page = self.client.post(self.url(number, "approve"), {"soak": "", "comment": ""})
        self.assertContains(page, f"Request #{number} is for a custom armor: give its soak values", status_code=409)
        self.assertEqual(self.state(), before)
        self.client.post(self.url(number, "approve"), {"soak": "b:3, agg:1", "comment": "note: fine"})
        note = armor.notes_of(self.char2)[0]
        self.assertEqual((note["soak"], note["comment"]), ({"bashing": 3, "aggravated": 1}, "note: fine"))

    def test_bad_soak_is_refused_beside_the_field(self):
        number = self.file("goblin")
        before = self.state()
        for soak, error in (("bashing:99", "Soak values are whole numbers 0-10, not &#x27;99&#x27; for bashing."),
                            ("fire:2", "Unknown armor column &#x27;fire&#x27;. Columns: bashing, lethal, aggravated."),
                            ("bashing:|r2", "Soak values are whole numbers 0-10"),
                            ("bashing:\uff12", "Soak values are whole numbers 0-10"),
                            ("bashing:0", "Give at least one soak value above 0."),
                            ("bashing 2", "Give soak values as &lt;column&gt;:&lt;n&gt; joined by commas")):
            with self.subTest(soak=soak):
                page = self.client.post(self.url(number, "approve"), {"soak": soak, "comment": "x"})
                self.assertEqual(page.status_code, 400)
                self.assertContains(page, '<li class="danger">Nothing was changed: correct the errors below.</li>',
                                    status_code=400, html=True)
                self.assertContains(page, "ul.messagelist li.danger", status_code=400)  # styled as an error
                self.assertContains(page, error, status_code=400)
                self.assertEqual(self.state(), before)
        long = self.client.post(self.url(number, "approve"), {"soak": "", "comment": "x" * (armor.MAX_COMMENT + 1)})
        self.assertContains(long, "Ensure this value has at most 200 characters (it has 201).", status_code=400)
        self.assertEqual(self.state(), before)
        for comment in ("two\nlines", "a\tb", "nul\x00"):
            page = self.client.post(self.url(number, "approve"), {"soak": "", "comment": comment})
            self.assertContains(page, "Write it on one line, without control characters.", status_code=400)
            page = self.client.post(self.url(number, "deny"), {"reason": comment})
            self.assertContains(page, "Write it on one line, without control characters.", status_code=400)
        self.assertEqual(self.state(), before)

    def test_deny_needs_a_reason_and_tells_the_player(self):
        number = self.file("goblin")
        before = self.state()
        for reason in ("", "   "):
            page = self.client.post(self.url(number, "deny"), {"reason": reason})
            self.assertContains(page, "Give a reason: the player is told it.", status_code=400)
            self.assertEqual(self.state(), before)
        page = self.client.post(self.url(number, "deny"), {"reason": "Not in this era."}, follow=True)
        self.assertContains(page, f"Request #{number} (Goblin-made Mail) denied. Char2 is told.")
        request = armor.get_request(number)
        self.assertEqual((request["status"], request["handled_by"], request["comment"]),
                         ("denied", "Warden", "Not in this era."))
        self.assertEqual(self.char2.pending_notices,
                         [f"|g<Armor>|n Your armor request #{number} (Goblin-made Mail) is denied by Warden: "
                          f"Not in this era."])

    def test_the_player_online_is_told_at_once(self):
        number = self.file("goblin")
        seen = []
        self.char2.msg = lambda text=None, **kwargs: seen.append(text)
        self.char2.sessions.count = lambda: 1
        self.client.post(self.url(number, "deny"), {"reason": "No."})
        self.assertEqual(seen, [f"|g<Armor>|n Your armor request #{number} (Goblin-made Mail) is denied by Warden: No."])
        self.assertEqual(self.char2.pending_notices, [])

    def test_bad_requests(self):
        number = self.file("goblin")
        before = self.state()
        self.assertEqual(self.client.get(self.url(number, "approve")).status_code, 405)
        self.assertEqual(self.client.post(self.url(999999999, "approve"), {"soak": "bashing:1"}).status_code, 404)
        self.assertEqual(self.client.post("/admin/fray/armorrequest/99999999999999999999/approve/").status_code, 404)
        # Not a number: Django admin's own answer for an unknown object, a redirect with a message.
        page = self.client.post("/admin/fray/armorrequest/%EF%BC%92/approve/", follow=True)
        self.assertContains(page, "doesn’t exist")
        page = self.client.get("/admin/fray/armorrequest/99999999999999999999/change/", follow=True)
        self.assertContains(page, "doesn’t exist")
        self.assertEqual(self.state(), before)

    def test_missing_csrf_token_is_403(self):
        number = self.file("goblin")
        before = self.state()
        strict = Client(enforce_csrf_checks=True)
        strict.force_login(self.staff)
        self.assertEqual(strict.post(self.url(number, "approve"), {"soak": "bashing:1"}).status_code, 403)
        self.assertEqual(strict.post(self.url(number, "deny"), {"reason": "no"}).status_code, 403)
        self.assertEqual(self.state(), before)

    def test_not_staff_gets_no_access(self):
        number = self.file("goblin")
        before = self.state()
        player = Client()
        player.force_login(self.account2)
        for url in ("/admin/fray/armorrequest/", self.url(number), "/admin/fray/fraysheet/", "/admin/fray/armornotes/"):
            with self.subTest(url=url):
                page = player.get(url)
                self.assertEqual(page.status_code, 302)
                self.assertIn("/admin/login/", page["Location"])
        page = player.post(self.url(number, "approve"), {"soak": "bashing:1"})
        self.assertEqual(page.status_code, 302)
        self.assertIn("/admin/login/", page["Location"])
        self.assertEqual(Client().get("/admin/fray/armorrequest/").status_code, 302)
        self.assertEqual(self.state(), before)

    def test_player_text_is_escaped(self):
        number = self.file(SCRIPT[:40], SCRIPT)
        for url in ("/admin/fray/armorrequest/", self.url(number)):
            page = self.client.get(url)
            self.assertNotContains(page, "<script>alert")
            self.assertContains(page, "&lt;script&gt;alert(1)")
        ArmorRequest.objects.filter(id=number).update(requester_name=SCRIPT[:40])
        self.assertNotContains(self.client.get("/admin/fray/armorrequest/"), "<script>alert")


class TestSheets(AdminTest):
    def post_sheet(self, obj, model="fraysheet", system="storyteller", **changes):
        form = sheet_form(FraySheet, get_system(system))(instance=obj)
        data = {name: form.initial.get(name, "") for name in form.fields}
        for trait, value in changes.items():
            name = trait if trait in form.fields else f"trait_{form.TRAITS.index(trait)}"
            data[name] = value
        return self.client.post(f"/admin/fray/{model}/{obj.id}/change/?system={system}", data)

    def test_list_and_search(self):
        update_sheet(self.char2, "storyteller", traits={"Dexterity": 3, "Brawl": 2})
        npc = create.create_object("typeclasses.npcs.NPC", key="Guard <b>", location=self.room1)
        self.addCleanup(npc.delete)
        page = self.client.get("/admin/fray/fraysheet/")
        self.assertEqual(page.status_code, 200)
        self.assertContains(page, "Dexterity 3, Brawl 2")
        self.assertNotContains(page, "Guard &lt;b&gt;")
        found = self.client.get("/admin/fray/fraysheet/", {"q": "Char2"})
        self.assertContains(found, "Dexterity 3, Brawl 2")
        self.assertContains(found, "1 result")
        npcs = self.client.get("/admin/fray/fraynpc/")
        self.assertContains(npcs, "Guard &lt;b&gt;")
        self.assertNotContains(npcs, "Guard <b>")
        self.assertNotContains(npcs, "Dexterity 3, Brawl 2")
        self.assertEqual(self.client.get(f"/admin/fray/fraysheet/{self.char2.id}/change/").status_code, 200)
        self.assertEqual(self.client.get(f"/admin/fray/fraynpc/{npc.id}/change/").status_code, 200)
        self.assertEqual(self.client.get(f"/admin/fray/fraynpc/{self.char2.id}/change/").status_code, 302)

    def test_edit_applies_stat(self):
        update_sheet(self.char2, "storyteller", traits={"Dexterity": 3})
        page = self.post_sheet(self.char2, Dexterity="4", Brawl="2", weapon="dagger")
        self.assertEqual(page.status_code, 302)
        self.assertEqual(traits_of(self.char2, "storyteller"), {"Dexterity": 4, "Brawl": 2})
        self.assertEqual(weapon_of(self.char2, "storyteller"), "dagger")
        self.post_sheet(self.char2, Dexterity="")
        self.assertEqual(traits_of(self.char2, "storyteller"), {"Brawl": 2})

    def test_each_system_has_its_own_form(self):
        update_sheet(self.char2, "storyteller", traits={"Dexterity": 3}, kind="Vampire")
        page = self.client.get(f"/admin/fray/fraysheet/{self.char2.id}/change/?system=elethril")
        self.assertContains(page, "elethril traits")
        self.assertContains(page, "THAC0")
        self.assertNotContains(page, "Dexterity")
        self.assertContains(page, 'href="?system=aeon"')
        self.assertNotContains(self.client.get(f"/admin/fray/fraysheet/{self.char2.id}/change/?system=eldritch"),
                               "Base kind")  # eldritch has no kinds
        page = self.post_sheet(self.char2, system="elethril", THAC0="17", kind="Elf", weapon="long-sword")
        self.assertEqual(page.status_code, 302)
        self.assertEqual(sheet_of(self.char2, "elethril"), {"traits": {"THAC0": 17}, "kind": "Elf",
                                                           "weapon": "long-sword"})
        self.assertEqual(sheet_of(self.char2, "storyteller"), {"traits": {"Dexterity": 3}, "kind": "Vampire"})
        page = self.post_sheet(self.char2, system="aeon", kind="Vampire")
        self.assertContains(page, "Select a valid choice. Vampire is not one of the available choices.")
        self.assertEqual(sheet_of(self.char2, "aeon"), {})

    def test_bad_values_are_shown_per_field_and_nothing_is_saved(self):
        update_sheet(self.char2, "storyteller", traits={"Dexterity": 3})
        for trait, value, error in (("Dexterity", "25", "Dexterity must be a whole number from 0 to 20, not &#x27;25&#x27;."),
                                    ("Dexterity", "\uff13", "Dexterity must be a whole number from 0 to 20"),
                                    ("Dexterity", "|r3", "Dexterity must be a whole number from 0 to 20"),
                                    ("weapon", "bazooka", "Select a valid choice."),
                                    ("transformed", "yes", "A Muggle does not transform; only Werewolves do.")):
            with self.subTest(trait=trait, value=value):
                page = self.post_sheet(self.char2, Brawl="2", **{trait: value})
                self.assertContains(page, error)
                self.assertContains(page, "errorlist")
                self.assertEqual(traits_of(self.char2, "storyteller"), {"Dexterity": 3})
                self.assertEqual((weapon_of(self.char2, "storyteller"), sheet_of(self.char2, "storyteller").get("transformed", False)), ("", False))
        page = self.post_sheet(self.char2, system="elethril", **{"Armor Class": "11"})
        self.assertContains(page, "Armor Class must be a whole number from -10 to 10")
        self.assertEqual(sheet_of(self.char2, "elethril"), {})
        page = self.post_sheet(self.char2, kind="Werewolf", transformed="yes")
        self.assertEqual(page.status_code, 302)
        self.assertEqual((sheet_of(self.char2, "storyteller").get("kind"), sheet_of(self.char2, "storyteller").get("transformed")), ("Werewolf", True))


class TestArmorNotes(AdminTest):
    def approved(self):
        number = self.file("goblin")
        armor.approve(self.char1, number, "")
        self.char2.pending_notices = []
        return number

    def post_notes(self, **changes):
        form = notes_form(ArmorNotes, armor.notes_of(self.char2))(instance=self.char2)
        data = {name: form.fields[name].initial for name in form.fields if form.fields[name].initial is not None}
        data.update(changes)
        return self.client.post(f"/admin/fray/armornotes/{self.char2.id}/change/", data)

    def test_list_edit_and_revoke(self):
        number = self.approved()
        page = self.client.get("/admin/fray/armornotes/")
        self.assertContains(page, f"#{number} Goblin-made Mail (storyteller: bashing 2, lethal 2)")
        self.assertEqual(self.client.get(f"/admin/fray/armornotes/{self.char2.id}/change/").status_code, 200)
        before = self.state()
        for soak, error in (("bashing:99", "Soak values are whole numbers 0-10"),
                            ("fire:1", "Unknown armor column &#x27;fire&#x27;"),
                            ("bashing:\uff12", "Soak values are whole numbers 0-10")):
            with self.subTest(soak=soak):
                self.assertContains(self.post_notes(**{f"soak_{number}": soak}), error)
                self.assertEqual(self.state(), before)
        self.assertContains(self.post_notes(**{f"name_{number}": "x" * 41}), "at most 40 characters")
        self.assertContains(self.post_notes(**{f"name_{number}": "Old\nMail"}), "Write it on one line")
        self.assertEqual(self.state(), before)
        self.assertEqual(self.post_notes(**{f"soak_{number}": "bashing:3", f"name_{number}": "Old <Mail>"}).status_code,
                         302)
        note = armor.notes_of(self.char2)[0]
        self.assertEqual((note["name"], note["soak"]), ("Old <Mail>", {"bashing": 3}))
        self.assertEqual(self.char2.pending_notices,
                         [f"|g<Armor>|n Warden changed your armor note #{number} Goblin-made Mail (storyteller: "
                          f"bashing 2, lethal 2) to #{number} Old <Mail> (storyteller: bashing 3)."])
        self.assertContains(self.client.get("/admin/fray/armornotes/"), "Old &lt;Mail&gt;")
        self.char2.pending_notices = []
        self.assertEqual(self.post_notes(**{f"revoke_{number}": "on", "reason": "Lost it."}).status_code, 302)
        self.assertEqual(armor.notes_of(self.char2), [])
        self.assertEqual(armor.get_request(number)["status"], "revoked")
        self.assertEqual(self.char2.pending_notices,
                         [f"|g<Armor>|n Warden revoked your armor note #{number} Old <Mail> (storyteller: "
                          f"bashing 3): Lost it."])


class TestStaffWithoutBuilder(AdminTest):
    """A Django staff account that is not Builder or above in the game may look, not change:
    +stat and +armor/revoke refuse it in the game too."""

    def test_sheets_and_notes_are_read_only(self):
        number = self.file("goblin")
        armor.approve(self.char1, number, "")
        update_sheet(self.char2, "storyteller", traits={"Strength": 2})
        narr = create.create_account("Narr", "narr@example.com", "Fr4y-narr-pw")
        self.addCleanup(narr.delete)
        narr.is_staff = True
        narr.save()
        web = Client()
        web.force_login(narr)
        before = (traits_of(self.char2, "storyteller"), armor.notes_of(self.char2))
        for model in ("fraysheet", "armornotes"):
            url = f"/admin/fray/{model}/{self.char2.id}/change/"
            page = web.get(url)
            self.assertEqual(page.status_code, 200, model)
            self.assertNotContains(page, 'name="_save"')
            self.assertNotContains(page, "View on site")
            self.assertEqual(web.post(url, {"trait_0": "5", f"soak_{number}": "bashing:3"}).status_code, 403, model)
        self.assertEqual((traits_of(self.char2, "storyteller"), armor.notes_of(self.char2)), before)
        self.assertNotContains(self.client.get(f"/admin/fray/fraysheet/{self.char2.id}/change/"), "View on site")
