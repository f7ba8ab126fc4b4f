"""Server CPU of the web tracker's pages and its poll, against a real Fray server.

    .venv/bin/python bench/tracker.py [--rounds N]

Starts a real server in a temp game dir (``tests/e2e/harness.py``), starts a storyteller
fight with two NPCs over telnet, logs the admin in on the website (a Django session, with
its CSRF token) and asks, one request at a time, for: the poll when nothing changed
(``/fights/<id>/state?after=<seq>``, what every open tracker page sends twice a second), the
poll after a change (``after=0``: the HUD, the narration and the roll log), the fight's page
and the list. Web requests run in the Server's thread pool, so the CPU is that of every
thread of the Server process (``/proc/<pid>/task/*/schedstat``, nanoseconds), read around
each request; ``look`` and ``+combat`` typed over telnet are measured the same way. Figures
are ratios to ``look`` in the same run (the machine is shared and noisy). Prints a Markdown
table (``docs/performance.md`` keeps the last one).
"""

from __future__ import annotations

import argparse
import http.cookiejar
import os
import re
import statistics
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.e2e.harness import FrayServer  # noqa: E402


def process_cpu_ns(pid: int) -> int:
    """Nanoseconds every thread of process ``pid`` has run."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (FileNotFoundError, ProcessLookupError):  # a thread that just ended
            pass
    return total


class Web:
    """A logged-in website session (cookies, CSRF) on ``base``."""

    def __init__(self, base: str, user: str, password: str):
        self.base = base
        jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        form = self.get("/auth/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "username": user,
                                       "password": password}).encode()
        request = urllib.request.Request(f"{base}/auth/login/", data=body, headers={"Referer": f"{base}/auth/login/"})
        self.opener.open(request, timeout=60).read()

    def get(self, path: str) -> str:
        with self.opener.open(f"{self.base}{path}", timeout=60) as answer:
            return answer.read().decode()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100, help="requests of each kind (default 100)")
    args = parser.parse_args(argv)
    n = args.rounds
    server = FrayServer(extra_settings="MAX_CONNECTION_RATE = 1000\nMAX_COMMAND_RATE = 100000\n")
    samples: dict[str, list[float]] = {}
    try:
        server.start()
        server.wait_for_login()
        pid = int(server.server_pidfile.read_text().split()[0])
        st = server.client("st", timeout=60)
        st.login(server.admin_user, server.admin_password, create=False)
        started = st.command("+combat/start storyteller", r"Fight #\d+")
        fight = int(re.search(r"Fight #(\d+)", started).group(1))
        st.command("+npc/init Ann=3+3", r"Ann rolls initiative")
        st.command("+npc/init Bob=2+2", r"Bob rolls initiative")
        st.read_for(0.5)
        web = Web(f"http://{server.host}:{server.web_port}", server.admin_user, server.admin_password)
        seq = int(re.search(r'"seq": (\d+)', web.get(f"/fights/{fight}/state?after=0")).group(1))

        def measure(label, work):
            for _ in range(n):
                before = process_cpu_ns(pid)
                work()
                samples.setdefault(label, []).append((process_cpu_ns(pid) - before) / 1e6)

        def typed(line, expect):
            def work():
                st.command(line, expect, timeout=60)
                st.read_for(0.05)
            return work

        measure("look (telnet)", typed("look", r"Limbo"))
        measure("+combat (telnet)", typed("+combat", r"Bob"))
        measure("poll, nothing changed", lambda: web.get(f"/fights/{fight}/state?after={seq}"))
        measure("poll after a change", lambda: web.get(f"/fights/{fight}/state?after=0"))
        measure("fight page", lambda: web.get(f"/fights/{fight}/"))
        measure("fight list", lambda: web.get("/fights/"))
    finally:
        server.cleanup()
    look = statistics.median(samples["look (telnet)"])
    print(f"Server CPU per request, every thread (median of {n}, ms) and as a ratio to look\n")
    print("| request | CPU ms | × look |")
    print("| --- | ---: | ---: |")
    for label, values in samples.items():
        median = statistics.median(values)
        print(f"| {label} | {median:.2f} | {median / look:.2f} |")
    print(f"\n{os.cpu_count()} CPUs; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
