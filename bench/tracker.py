"""Server CPU of the web tracker: open pages following a fight by push, and its web requests,
against a real Fray server.

    .venv/bin/python bench/tracker.py [--rounds N] [--pages P] [--quiet S]

Starts a real server in a temp game dir (``tests/e2e/harness.py``), starts a storyteller
fight with two NPCs over telnet, logs the admin in on the website (a Django session, with
its CSRF token) and reads the fight page's ticket. Then:

- **Open pages** (``world/live.py``): ``--pages`` (100) websocket connections to the game,
  each following the fight as a tracker page does (``fray_track`` with the ticket; the
  admin runs the fight, so each page also gets the roll log, the heaviest page there is).
  *Quiet*: the CPU of the Server (and of the Portal) over ``--quiet`` seconds (10) with
  nothing happening, as a share of one core. *A change*: the ST's ``+combat/next`` typed over
  telnet, measured from before it is sent until every page has its push, with the pages open
  and again with none; the difference is what the pages cost per change. The time until the
  last page has the change is the push's delay.
- **Requests**, one at a time: ``look`` and ``+combat`` over telnet, the JSON state
  (``/fights/<id>/state?after=<seq>``, what a page polled twice a second before the push; it
  is kept for other clients), the fight's page and the list.

Web requests run in the Server's thread pool, so the CPU is that of every thread of the
Server process (``/proc/<pid>/task/*/schedstat``, nanoseconds). Figures are ratios to
``look`` in the same run (the machine is shared and noisy). Prints Markdown tables
(``docs/performance.md`` keeps the last ones).
"""

from __future__ import annotations

import argparse
import base64
import http.cookiejar
import json
import os
import re
import select
import socket
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


class Page:
    """One open tracker page: a websocket to the game (RFC 6455, text frames; enough for
    Evennia's webclient protocol), following the fight with the page's ticket."""

    def __init__(self, host: str, port: int, ticket: str):
        self.sock = socket.create_connection((host, port), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           f"Sec-WebSocket-Version: 13\r\nOrigin: http://{host}\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(4096)
        head, self.buffer = head.split(b"\r\n\r\n", 1)
        assert b" 101 " in head.split(b"\r\n")[0], head
        self.ticket = ticket
        self.tracking = False
        self.pushes: list[dict] = []

    def send(self, message) -> None:
        data = json.dumps(message).encode()
        mask = os.urandom(4)
        size = len(data)
        head = bytes([0x81]) + (bytes([0x80 | size]) if size < 126 else bytes([0x80 | 126]) + size.to_bytes(2, "big"))
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def read(self) -> None:
        """Take what arrived; follow the fight once the game has spoken (its connection screen)."""
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed")
        self.buffer += chunk
        while len(self.buffer) >= 2:
            size, at = self.buffer[1] & 0x7F, 2
            if size == 126:
                size, at = int.from_bytes(self.buffer[2:4], "big"), 4
            elif size == 127:
                size, at = int.from_bytes(self.buffer[2:10], "big"), 10
            if len(self.buffer) < at + size:
                return
            payload, self.buffer = self.buffer[at:at + size], self.buffer[at + size:]
            message = json.loads(payload)
            if message[0] == "fray_fight":
                self.pushes.append(json.loads(message[1][0]))
            if not self.tracking:
                self.tracking = True
                self.send(["fray_track", [self.ticket, 0, 0], {}])


def read_until(pages: list[Page], done, timeout: float = 60.0) -> None:
    """Read every page's socket until ``done()``."""
    end = time.monotonic() + timeout
    by_socket = {page.sock: page for page in pages}
    while not done():
        if time.monotonic() > end:
            raise TimeoutError("the pages did not get it")
        ready, _, _ = select.select(list(by_socket), [], [], 0.5)
        for sock in ready:
            by_socket[sock].read()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100, help="requests of each kind (default 100)")
    parser.add_argument("--pages", type=int, default=100, help="open tracker pages (default 100)")
    parser.add_argument("--quiet", type=float, default=10.0, help="seconds of a quiet fight measured (default 10)")
    args = parser.parse_args(argv)
    n = args.rounds
    live: dict[str, float] = {}
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
        ticket = re.search(r'data-ticket="([^"]+)"', web.get(f"/fights/{fight}/")).group(1)
        portal = int(server.portal_pidfile.read_text().split()[0])

        def change() -> tuple[float, float, float]:
            """One +combat/next: (Server CPU ms, Portal CPU ms, s until every page has it)."""
            before, portal_before = process_cpu_ns(pid), process_cpu_ns(portal)
            counts = [len(page.pushes) for page in pages]
            sent = time.monotonic()
            st.send("+combat/next")
            st.expect(r"to act\.|Round \d+ begins|everyone has acted", timeout=60)
            read_until(pages, lambda: all(len(page.pushes) > count for page, count in zip(pages, counts)))
            delay = time.monotonic() - sent
            st.read_for(0.05)
            return (process_cpu_ns(pid) - before) / 1e6, (process_cpu_ns(portal) - portal_before) / 1e6, delay

        pages: list[Page] = []
        alone = [change()[0] for _ in range(n)]
        pages = [Page(server.host, server.websocket_port, ticket) for _ in range(args.pages)]
        read_until(pages, lambda: all(page.pushes for page in pages))
        st.read_for(1.0)
        before, portal_before, started = process_cpu_ns(pid), process_cpu_ns(portal), time.monotonic()
        read_until(pages, lambda: time.monotonic() - started >= args.quiet)
        quiet = time.monotonic() - started
        live["quiet server %"] = 100 * (process_cpu_ns(pid) - before) / 1e9 / quiet
        live["quiet portal %"] = 100 * (process_cpu_ns(portal) - portal_before) / 1e9 / quiet
        live["pushes while quiet"] = sum(len(page.pushes) for page in pages) - len(pages)
        measured = [change() for _ in range(n)]
        live["change alone"] = statistics.median(alone)
        live["change with pages"] = statistics.median(cpu for cpu, _, _ in measured)
        live["portal per change"] = statistics.median(cpu for _, cpu, _ in measured)
        live["delay median"] = statistics.median(delay for _, _, delay in measured)
        live["delay max"] = max(delay for _, _, delay in measured)
        for page in pages:
            page.sock.close()

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
    pages = args.pages
    print(f"{pages} open tracker pages on one fight (the Storyteller's: HUD, narration and roll log)\n")
    print("| measure | value |")
    print("| --- | ---: |")
    print(f"| Server CPU while the fight is quiet ({args.quiet:.0f} s) | "
          f"{live['quiet server %']:.2f} % of a core |")
    print(f"| Portal CPU while quiet | {live['quiet portal %']:.2f} % of a core |")
    print(f"| pushes sent while quiet | {live['pushes while quiet']} |")
    print(f"| `+combat/next`, no page open: Server CPU | {live['change alone']:.2f} ms ({live['change alone'] / look:.2f} × look) |")
    print(f"| `+combat/next`, {pages} pages: Server CPU | {live['change with pages']:.2f} ms "
          f"({live['change with pages'] / look:.2f} × look) |")
    extra = live["change with pages"] - live["change alone"]
    print(f"| the push to {pages} pages, per change: Server CPU | {extra:.2f} ms ({extra / look:.2f} × look; "
          f"{extra / pages:.3f} ms a page) |")
    print(f"| the push, per change: Portal CPU | {live['portal per change']:.2f} ms |")
    print(f"| from the command sent to the last page's push | median {1000 * live['delay median']:.0f} ms, "
          f"max {1000 * live['delay max']:.0f} ms |")
    print()
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
