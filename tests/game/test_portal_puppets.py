"""The Portal is told whom each session puppets (typeclasses/accounts.py), so that a Server
killed outright and restarted by the Portal's watchdog puppets the same characters again
(``ServerSession.at_sync`` reads ``puid`` from the data the Portal hands back)."""

from unittest.mock import Mock, patch

import evennia
from evennia.utils.test_resources import EvenniaTest

from typeclasses.accounts import Account


class TestPortalKnowsPuppets(EvenniaTest):
    def setUp(self):
        super().setUp()
        self.assertIsInstance(self.account, Account)
        self.sync = Mock()
        patches = [
            patch.object(evennia, "EVENNIA_SERVER_SERVICE", Mock(amp_protocol=Mock())),
            patch.object(evennia.SESSION_HANDLER, "session_portal_partial_sync", self.sync),
        ]
        for p in patches:
            p.start()
            self.addCleanup(p.stop)

    def test_puppet_and_unpuppet_are_told_to_the_portal(self):
        sessid = self.session.sessid
        self.account.puppet_object(self.session, self.char1)
        self.assertEqual(self.session.puid, self.char1.id)
        self.sync.assert_called_with({sessid: {"puid": self.char1.id}})

        self.account.unpuppet_object(self.session)
        self.sync.assert_called_with({sessid: {"puid": None}})

    def test_what_the_portal_hands_back_puppets_again(self):
        """The data the Portal now holds, loaded into a new Server's session, gives the same
        puppet with no command typed (what happens after the watchdog's restart)."""
        self.account.puppet_object(self.session, self.char1)
        told = self.sync.call_args.args[0][self.session.sessid]
        portal_data = {**self.session.get_sync_data(), "puid": None, **told}

        session = type(self.session)()
        session.sessionhandler = evennia.SESSION_HANDLER
        session.load_sync_data(portal_data)
        session.account = self.account
        session.at_sync()
        self.assertEqual(session.puppet, self.char1)

    def test_no_portal_no_message(self):
        with patch.object(evennia, "EVENNIA_SERVER_SERVICE", None):
            self.account.puppet_object(self.session, self.char1)
        self.sync.assert_not_called()
