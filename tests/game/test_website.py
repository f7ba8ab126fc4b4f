"""The website (issue 13, item 2): the home page says what Fray is and links to the webclient
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
