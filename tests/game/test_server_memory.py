"""The Server's memory and database: SQLite's page cache bounded and its write-ahead log
(``server/conf/settings.py``), and the benchmarks' memory log (``FRAY_BENCH_MEMORY``,
``server/conf/at_server_startstop.py``)."""

import os
import sqlite3
import tempfile
from unittest import mock

from django.conf import settings
from django.test import SimpleTestCase, override_settings

from server.conf import at_server_startstop


class TestSqlitePageCache(SimpleTestCase):
    def test_the_page_cache_is_8_mb_and_evennias_other_pragmas_stay(self):
        self.assertEqual(settings.SQLITE3_PRAGMAS, ("PRAGMA cache_size=-8192", "PRAGMA synchronous=OFF",
                                                    "PRAGMA count_changes=OFF", "PRAGMA temp_store=2",
                                                    "PRAGMA journal_mode=WAL"))

    def test_a_connection_given_the_pragmas_caches_8192_kib(self):
        connection = sqlite3.connect(":memory:")
        self.addCleanup(connection.close)
        self.assertEqual(connection.execute("PRAGMA cache_size").fetchone()[0], -2000)   # SQLite's own
        for pragma in settings.SQLITE3_PRAGMAS:   # as Evennia's Server does as it starts
            connection.execute(pragma)
        self.assertEqual(connection.execute("PRAGMA cache_size").fetchone()[0], -8192)


class TestSqliteWriteAheadLog(SimpleTestCase):
    """The Server's database file in write-ahead-log mode: a commit appends to the log, and a
    web page reading the fight (a read transaction open) never blocks the reactor's commit."""

    def connect(self, path):
        connection = sqlite3.connect(path, timeout=0, isolation_level=None)
        self.addCleanup(connection.close)
        return connection

    def file_with_pragmas(self, pragmas):
        path = os.path.join(tempfile.mkdtemp(), "evennia.db3")
        server = self.connect(path)
        for pragma in pragmas:   # as Evennia's Server does as it starts
            server.execute(pragma)
        server.execute("CREATE TABLE fight (id INTEGER PRIMARY KEY, seq INTEGER)")
        server.execute("INSERT INTO fight VALUES (1, 1)")
        return path, server

    def commit_while_a_page_reads(self, pragmas) -> int:
        path, server = self.file_with_pragmas(pragmas)
        page = self.connect(path)
        page.execute("BEGIN")
        self.assertEqual(page.execute("SELECT seq FROM fight").fetchone(), (1,))   # the page's read, still open
        server.execute("BEGIN")
        server.execute("UPDATE fight SET seq = 2")
        server.execute("COMMIT")   # "database is locked" under the rollback journal
        self.assertEqual(page.execute("SELECT seq FROM fight").fetchone(), (1,))   # its own snapshot
        page.execute("COMMIT")
        return page.execute("SELECT seq FROM fight").fetchone()[0]

    def test_the_file_is_in_wal_mode(self):
        path, server = self.file_with_pragmas(settings.SQLITE3_PRAGMAS)
        self.assertEqual(server.execute("PRAGMA journal_mode").fetchone(), ("wal",))
        self.assertTrue(os.path.exists(path + "-wal"))

    def test_a_commit_goes_through_while_a_page_reads(self):
        self.assertEqual(self.commit_while_a_page_reads(settings.SQLITE3_PRAGMAS), 2)

    def test_under_sqlites_default_journal_the_same_commit_is_locked_out(self):
        rollback_journal = [p for p in settings.SQLITE3_PRAGMAS if "journal_mode" not in p]
        with self.assertRaisesRegex(sqlite3.OperationalError, "locked"):
            self.commit_while_a_page_reads(rollback_journal)


class TestMemoryLog(SimpleTestCase):
    def test_each_sample_logs_what_the_collector_tracks_and_the_types_that_changed(self):
        game_dir = tempfile.mkdtemp()
        os.makedirs(os.path.join(game_dir, "server", "logs"))
        path = os.path.join(game_dir, "server", "logs", "fray-memory.log")
        with override_settings(GAME_DIR=game_dir), mock.patch("twisted.internet.task.LoopingCall") as looping:
            at_server_startstop._log_memory(2)
            sample = looping.call_args.args[0]
            looping.return_value.start.assert_called_once_with(120, now=False)
            sample()
            kept = [type("Kept", (), {})() for _ in range(5)]   # 5 more objects of a new type
            sample()
        text = open(path).read()
        self.assertEqual(text.count("== "), 2)
        self.assertIn("tracked ", text)
        second = text.split("== ")[2].splitlines()
        self.assertIn("        +5        5 Kept", second[1:])
        del kept
