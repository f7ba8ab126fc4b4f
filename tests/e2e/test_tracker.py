"""End to end: the web combat tracker in a real Chromium while the fight is
played over real telnet. A player's page shows the new narration, turn and health without a
reload (a mark set on the page survives); the Storyteller's "Next turn" button in the browser
moves the fight on and the telnet players are told.

With ``FRAY_SCREENSHOTS=1`` the player's page is saved to ``docs/screenshots/tracker.png``.
Chromium as in ``test_webclient.py`` (skipped without it, a failure under CI).
"""

import os
import re
from pathlib import Path

import pytest

from .conftest import force, guard_fight
from .test_webclient import CHROMIUM_ARGS, chromium_path

pytestmark = pytest.mark.e2e

SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "tracker.png"


def log_in(page, base: str, name: str, password: str) -> None:
    page.goto(f"{base}/auth/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", password)
    page.click("form button[type=submit], form input[type=submit]")
    page.wait_for_load_state("networkidle")


def text_has(page, text: str, timeout: int = 30_000) -> None:
    """Wait until the page shows ``text`` (30 s: a loaded machine answers a form post late)."""
    try:
        page.wait_for_function("t => document.body.innerText.includes(t)", arg=text, timeout=timeout)
    except Exception as exc:  # the page as it was, for the failure
        raise AssertionError(f"{text!r} not on the page:\n{page.inner_text('body')[-3000:]}") from exc


def test_the_tracker_follows_a_telnet_round_live(fray_server, fray_client, arena):
    playwright_api = pytest.importorskip("playwright.sync_api")
    executable = chromium_path()
    st, alice, bob = arena
    a, b = alice.account_name, bob.account_name
    guard_fight(st, alice, bob)
    fight = re.search(r"Fight #(\d+)", st.command("+combat/verify", r"Fight #\d+")).group(1)
    base = f"http://{fray_server.host}:{fray_server.web_port}"
    errors: list[str] = []

    with playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
            log_in(page, base, a, alice.password)
            listing = page.goto(f"{base}/fights/")
            assert listing.status == 200
            row = page.inner_text(f"#fray-fights tr:has(a[href='/fights/{fight}/'])")
            assert "storyteller" in row and f"{a}, {b}, Guard" in row, row
            page.goto(f"{base}/fights/{fight}/")
            text_has(page, "Round 1, Guard's turn")
            assert "Roll log" not in page.inner_text("body")   # a player: no roll log, no buttons
            assert page.query_selector("#fray-controls") is None
            page.evaluate("window.__marker = 1")

            # Over telnet: the Guard punches Alice (5 dice: 9 8 7 3 2 -> 3 successes); she dodges
            # (5 dice: 6 3 3 2 2 -> 1); 2 hits: Strength 2 + rollover 1 = 3 dice: 10 6 2 -> 2;
            # soak Stamina 2 vs 5: 5 1 -> 1. Alice takes 1 bashing: 6 of 7 health levels left.
            force(st, [9, 8, 7, 3, 2])
            st.send(f"attack Guard={a}")
            alice.expect(r"Answer: defend dodge")
            text_has(page, f"Waiting for a defense: Guard \u2192 {a}")
            text_has(page, "attacks you (punch)")   # her own waiting defense
            force(st, [6, 3, 3, 2, 2, 10, 6, 2, 5, 1])
            alice.send("dodge")
            bob.expect(rf"Round 1: {b} to act\.")
            text_has(page, f"Round 1, {b}'s turn")
            text_has(page, "Bruised (0) \u00b7 6/7")
            text_has(page, f"Round 1: {b} to act.")
            narration = page.inner_text("#fray-narration")
            assert f"<Combat> Guard attacks {a} with punch." in narration, narration
            assert narration.count(f"Guard attacks {a} with punch.") == 1, narration
            # the catalogue's words as the webclient shows them: the prefix a coloured span
            prefix = page.evaluate("""(() => { const span = document.querySelector('#fray-narration .fray-line span');
                return [span.textContent, getComputedStyle(span).color]; })()""")
            assert prefix == ["<Combat>", "rgb(255, 255, 0)"], prefix
            assert "|y" not in narration and "|n" not in narration
            assert page.evaluate("window.__marker") == 1   # no reload
            width = page.evaluate(f"""Array.from(document.querySelectorAll('#fray-fighters tr'))
                .find(r => r.innerText.startsWith({a!r})).querySelector('.progress-bar').style.width""")
            assert width == "86%", width
            if os.environ.get("FRAY_SCREENSHOTS") == "1":
                SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SCREENSHOT), full_page=True)

            # The Storyteller (the admin) presses "Next turn" in a browser of their own.
            staff = browser.new_context().new_page()
            staff.on("pageerror", lambda exc: errors.append(str(exc)))
            log_in(staff, base, fray_server.admin_user, fray_server.admin_password)
            staff.goto(f"{base}/fights/{fight}/")
            assert "Roll log" in staff.inner_text("body")
            assert "Guard: punch" in staff.inner_text("#fray-log")
            staff.click("#fray-next")
            staff.wait_for_load_state("networkidle")
            alice.expect(rf"{b} passes\.")
            bob.expect(r"Round 2 begins\.")
            text_has(page, "Round 2 begins.")
            assert page.evaluate("window.__marker") == 1
            # newest first (a polled entry goes on top), in a box that scrolls
            lines = page.evaluate("Array.from(document.querySelectorAll('#fray-narration .fray-line'))"
                                  ".map(n => n.innerText)")
            newer = next(i for i, text in enumerate(lines) if "Round 2 begins." in text)
            older = next(i for i, text in enumerate(lines) if f"Guard attacks {a} with punch." in text)
            assert newer < older, lines
            box = page.evaluate("[getComputedStyle(document.getElementById('fray-narration')).overflowY,"
                                " getComputedStyle(document.getElementById('fray-narration')).maxHeight]")
            assert box[0] == "auto" and box[1].endswith("px"), box
            assert "Round 2" in staff.inner_text("#fray-now")

            # A player's forged press of the button: refused, nothing changes.
            refused = page.request.post(f"{base}/fights/{fight}/end")
            assert refused.status == 403, refused.status
            st.command("+combat", r"Round 2")
        finally:
            browser.close()
    assert errors == [], errors
