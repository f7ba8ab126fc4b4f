"""The Server's memory: SQLite's page cache bounded (``server/conf/settings.py``) and the
benchmarks' memory log (``FRAY_BENCH_MEMORY``, ``server/conf/at_server_startstop.py``)."""

import os
import sqlite3
import subprocess
import sys
import tempfile
from unittest import mock

from django.conf import settings
from django.test import SimpleTestCase, override_settings

from server.conf import at_server_startstop


class TestSqlitePageCache(SimpleTestCase):
    def test_the_page_cache_is_8_mb_the_journal_persists_and_evennias_other_pragmas_stay(self):
        self.assertEqual(settings.SQLITE3_PRAGMAS, ("PRAGMA cache_size=-8192", "PRAGMA synchronous=OFF",
                                                    "PRAGMA count_changes=OFF", "PRAGMA temp_store=2",
                                                    "PRAGMA journal_mode=PERSIST"))

    def test_a_connection_given_the_pragmas_caches_8192_kib(self):
        connection = sqlite3.connect(":memory:")
        self.addCleanup(connection.close)
        self.assertEqual(connection.execute("PRAGMA cache_size").fetchone()[0], -2000)   # SQLite's own
        for pragma in settings.SQLITE3_PRAGMAS:   # as Evennia's Server does as it starts
            connection.execute(pragma)
        self.assertEqual(connection.execute("PRAGMA cache_size").fetchone()[0], -8192)

    def test_a_commit_keeps_the_journal_file(self):
        path = os.path.join(tempfile.mkdtemp(), "game.db3")
        connection = sqlite3.connect(path, isolation_level=None)
        for pragma in settings.SQLITE3_PRAGMAS:
            connection.execute(pragma)
        connection.execute("CREATE TABLE t (n INTEGER)")
        connection.execute("INSERT INTO t VALUES (1)")
        connection.close()
        self.assertTrue(os.path.exists(path + "-journal"))   # the default mode deletes it

    def test_a_writer_killed_after_its_pages_reached_the_file_is_rolled_back(self):
        path = os.path.join(tempfile.mkdtemp(), "game.db3")
        script = ("import os, sqlite3, sys\n"
                  "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
                  "for pragma in sys.argv[2:]: c.execute(pragma)\n"
                  "c.execute('CREATE TABLE t (n INTEGER, pad BLOB)'); c.execute('INSERT INTO t VALUES (1, x\\'00\\')')\n"
                  "c.execute('PRAGMA cache_size=2')\n"   # so the transaction's pages spill to the file
                  "c.execute('BEGIN')\n"
                  "for n in range(2, 500): c.execute('INSERT INTO t VALUES (?, zeroblob(4000))', (n,))\n"
                  "c.execute('UPDATE t SET n = n + 1000')\n"
                  "os._exit(9)\n")   # killed mid-transaction, as kill -9 would
        size = os.path.getsize
        run = subprocess.run([sys.executable, "-c", script, path, *settings.SQLITE3_PRAGMAS])
        self.assertEqual(run.returncode, 9)
        self.assertGreater(size(path), 100 * 4096)   # the uncommitted pages are in the file
        connection = sqlite3.connect(path)
        self.addCleanup(connection.close)
        self.assertEqual(connection.execute("SELECT n FROM t").fetchall(), [(1,)])


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
