"""End to end: the README's TinTin++ lines in Debian's TinTin++ (``tt++``,
package ``tintin++``; skipped without it) against a real server. TinTin++ 2.02 refuses the
server's offer of GMCP unless the script's ``IAC WILL GMCP`` event answers it: with the README's
lines the health arrives as a line at login; without that one line, nothing does."""

import fcntl
import os
import pty
import re
import select
import shutil
import signal
import struct
import termios
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

README = Path(__file__).resolve().parents[2] / "README.md"
TINTIN = shutil.which("tt++") or next((p for p in ("/usr/games/tt++",) if os.access(p, os.X_OK)), None)


def readme_script() -> str:
    """The fenced block after the README's TinTin++ paragraph."""
    text = README.read_text(encoding="utf-8")
    found = re.search(r"TinTin\+\+ \(2\.02\) answers.*?\n```\n(.*?)```", text, re.S)
    assert found, "no TinTin++ block in the README"
    return found.group(1)


def run_tintin(script: str, folder: Path, login: str, seconds: float = 12.0) -> str:
    """Start tt++ on ``script`` in a pseudo-terminal, type ``login`` at the connection screen,
    and return what it showed (escape codes removed)."""
    path = folder / "fray.tin"
    path.write_text(script, encoding="utf-8")
    pid, fd = pty.fork()
    if pid == 0:  # the child: TinTin++ in the pseudo-terminal
        os.chdir(folder)
        os.execve(TINTIN, [TINTIN, str(path)], {**os.environ, "TERM": "xterm"})
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 60, 120, 0, 0))   # 60 rows, 120 columns
    out = b""

    def read(until: float, pattern: bytes | None = None) -> None:
        nonlocal out
        while time.time() < until and not (pattern and pattern in out):
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    return
                if not data:
                    return
                out += data

    try:
        read(time.time() + 30, b"connect <username> <password>")
        os.write(fd, login.encode() + b"\r")
        read(time.time() + seconds, b"You become ")
        read(time.time() + 2)   # what follows the login
        os.write(fd, b"#end\r")
        read(time.time() + 2)
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
        os.close(fd)
    return re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", out.decode("utf-8", "replace")).replace("\r", "")


def test_the_readmes_tintin_lines_get_the_health_by_gmcp(fray_server, fray_client, tmp_path):
    if TINTIN is None:
        pytest.skip("TinTin++ is not installed (apt-get install tintin++)")
    player = fray_client()
    player.close()
    script = readme_script()
    assert script.startswith("#event {IAC WILL GMCP} {#send {\\xFF\\xFD\\xC9\\}}\n"), script
    assert "#session fray localhost 4000" in script
    script = script.replace("localhost 4000", f"{fray_server.host} {fray_server.telnet_port}")
    login = f"connect {player.account_name} {player.password}"

    shown = run_tintin(script, tmp_path, login)
    assert f"You become {player.account_name}." in shown, shown
    assert "<Health> Healthy: 7 of 7" in shown, shown

    # without the answer to the server's offer, TinTin++ refuses GMCP: no health line
    refused = run_tintin(script.split("\n", 1)[1], tmp_path, login)
    assert f"You become {player.account_name}." in refused, refused
    assert "<Health>" not in refused, refused
