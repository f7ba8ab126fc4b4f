"""The Server's memory: SQLite's page cache bounded (``server/conf/settings.py``) and the
benchmarks' memory log (``FRAY_BENCH_MEMORY``, ``server/conf/at_server_startstop.py``)."""

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
                                                    "PRAGMA count_changes=OFF", "PRAGMA temp_store=2"))

    def test_a_connection_given_the_pragmas_caches_8192_kib(self):
        connection = sqlite3.connect(":memory:")
        self.addCleanup(connection.close)
        self.assertEqual(connection.execute("PRAGMA cache_size").fetchone()[0], -2000)   # SQLite's own
        for pragma in settings.SQLITE3_PRAGMAS:   # as Evennia's Server does as it starts
            connection.execute(pragma)
        self.assertEqual(connection.execute("PRAGMA cache_size").fetchone()[0], -8192)


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
            kept = [type("SampledTwice", (), {})() for _ in range(5)]   # 5 objects of a type no other test names
            sample()
        text = open(path).read()
        self.assertEqual(text.count("== "), 2)
        self.assertIn("tracked ", text)
        second = text.split("== ")[2].splitlines()
        self.assertIn("        +5        5 SampledTwice", second[1:])
        del kept
