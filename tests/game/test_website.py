"""The website: the home page says what Fray is and links to the webclient
and the help; a command's help page on the web shows every rule system's part under its
heading, escaped, without the subtopic markers."""

from django.test import Client
from evennia.utils.test_resources import EvenniaTest


class TestWebsite(EvenniaTest):
    def setUp(self):
        super().setUp()
        # the web help lists the commands of the account's characters (Evennia's test
        # settings give them Evennia's default cmdset)
        self.char1.cmdset.add_default("commands.default_cmdsets.CharacterCmdSet")
        self.account.characters.add(self.char1)
    def test_the_home_page_says_what_fray_is(self):
        page = Client().get("/")
        self.assertEqual(page.status_code, 200)
        text = page.content.decode()
        self.assertIn("A combat server for MUSH roleplay", text)
        for system in ("Storyteller", "Aeon", "Eldritch", "Elethril"):
            self.assertIn(f"<strong>{system}</strong>", text)
        self.assertIn('href="/webclient/"', text)
        self.assertIn('href="/help/"', text)
        self.assertIn('href="/scenes/"', text)
        self.assertIn('<a href="/rules/">Rules</a>: the full rules reference', text)
        self.assertNotIn("Welcome to Evennia", text)
        self.assertNotIn("The Python MUD/MU* creation system", text)   # Fray's own slogan in the header

    def test_a_commands_help_shows_every_system(self):
        client = Client()
        client.force_login(self.account)
        page = client.get("/help/fray/attack/")
        self.assertEqual(page.status_code, 200)
        text = page.content.decode()
        for heading in ("Storyteller\n-----------", "Aeon\n----", "Eldritch\n--------",
                        "Elethril\n--------"):
            self.assertIn(heading, text)
        self.assertNotIn("# subtopics", text)
        self.assertNotIn("## aeon", text)

    def test_an_unknown_topic_is_not_found(self):
        client = Client()
        client.force_login(self.account)
        self.assertEqual(client.get("/help/fray/no-such-command/").status_code, 404)
        self.assertEqual(client.get("/help/fray/%3Cscript%3E/").status_code, 404)

    def test_pages_are_not_framed_by_other_sites_and_say_nosniff(self):
        client = Client()
        client.force_login(self.account)
        for url in ("/", "/fights/", "/admin/", "/webclient/"):
            response = client.get(url)
            self.assertEqual(response["X-Frame-Options"], "SAMEORIGIN", url)
            self.assertEqual(response["X-Content-Type-Options"], "nosniff", url)

    def test_a_rule_systems_topic_reads_as_text(self):
        client = Client()
        client.force_login(self.account)
        page = client.get("/help/rule-systems/storyteller/")
        self.assertEqual(page.status_code, 200)
        text = page.content.decode()
        self.assertIn("\nA round: everyone rolls initiative once", text)   # dedented
        self.assertIn("Dice\n----\nA pool of d10", text)
        self.assertNotIn("# subtopics", text)
        self.assertNotIn("## dice", text)


class TestRulesPages(EvenniaTest):
    """The rules reference (docs/rules.md, docs/rules/<system>.md) on the
    website, for anyone; Markdown rendered with any raw HTML shown as text."""

    def test_the_index_links_each_systems_page_and_the_menu_links_the_index(self):
        page = Client().get("/rules/")
        self.assertEqual(page.status_code, 200)
        text = page.content.decode()
        self.assertIn("<h1 id=\"frays-rules-reference\">Fray's rules reference</h1>", text)
        for system in ("storyteller", "aeon", "eldritch", "elethril"):
            self.assertIn(f'<a href="/rules/{system}/">{system}</a>', text)
        self.assertIn('<a class="nav-link" href="/rules/">Rules</a>', text)
        self.assertIn("<title>", text)

    def test_a_systems_page_has_its_tables_headings_and_anchors(self):
        text = Client().get("/rules/eldritch/").content.decode()
        self.assertIn('<h1 id="eldritch-rules-eldritch">Eldritch rules (<code>eldritch</code>)</h1>', text)
        self.assertIn('<h2 id="data-options">Data options</h2>', text)
        self.assertIn('href="#data-options"', text)
        self.assertIn('<table class="table table-sm table-bordered">', text)
        self.assertIn("<strong>eldritch</strong>", text)            # the page's own name in the row
        self.assertIn('<a href="/rules/aeon/">aeon</a>', text)      # the others linked
        aeon = Client().get("/rules/aeon/").content.decode()
        self.assertIn("<td>Mauled</td>", aeon)

    def test_unknown_pages_are_not_found_and_only_get_is_answered(self):
        for url in ("/rules/nope/", "/rules/rules/", "/rules/..%2Frules/", "/rules/aeon.md/",
                    "/rules/%3Cscript%3E/", "/rules/aeon/x/"):
            self.assertEqual(Client().get(url).status_code, 404, url)
        self.assertEqual(Client().post("/rules/aeon/").status_code, 405)

    def test_raw_html_and_script_links_in_a_page_are_text(self):
        from pathlib import Path
        from tempfile import TemporaryDirectory
        from unittest import mock

        from web.website.views import rules

        with TemporaryDirectory() as folder:
            page = Path(folder) / "evil.md"
            page.write_text('# Evil <b>bold</b>\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1)) '
                            '<img src=x onerror=alert(1)> [back](../rules.md#top) [other](aeon.md)\n',
                            encoding="utf-8")
            with mock.patch.dict(rules.PAGES, {"evil": page}):
                text = Client().get("/rules/evil/").content.decode()
        self.assertIn("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>", text)
        self.assertIn("[x](javascript:alert(1))", text)          # no link made
        self.assertIn("&lt;img src=x onerror=alert(1)&gt;", text)
        self.assertIn('<a href="/rules/#top">back</a> <a href="/rules/aeon/">other</a>', text)
        self.assertIn('<h1 id="evil-bboldb">Evil &lt;b&gt;bold&lt;/b&gt;</h1>', text)
        self.assertNotIn("<script>alert", text)
