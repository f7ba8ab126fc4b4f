"""End to end, in a real Chromium beside real telnet: the web tracker gets the fight pushed over
the game's websocket (world/live.py), never polling; a page that reconnects catches up; players
defend and attack from their pages while a telnet player reads the narration; a forged websocket
message is refused; and one account plays on telnet, the webclient and the tracker at once
(``MULTISESSION_MODE`` 1).

Chromium as in ``test_webclient.py`` (skipped without it, a failure under CI).
"""

import re
import time

import pytest

from .conftest import force, guard_fight
from .test_tracker import log_in, text_has
from .test_webclient import CHROMIUM_ARGS, chromium_path

pytestmark = pytest.mark.e2e

#: The longest a change may take from the telnet command to every open page (s).
PUSH_WITHIN = 0.3


def received(page) -> list[dict]:
    return page.evaluate("window.frayTracker.received")


def wait_pushes(page, count: int, timeout: int = 15_000) -> list[dict]:
    try:
        page.wait_for_function("n => window.frayTracker.received.length >= n", arg=count, timeout=timeout)
    except Exception as exc:  # the page as it was, for the failure
        state = page.evaluate("[window.frayTracker.socket && window.frayTracker.socket.readyState,"
                              " window.frayTracker.received.length]")
        raise AssertionError(f"{count} pushes not on the page (socket, pushes: {state}):\n"
                             f"{page.inner_text('body')[-3000:]}") from exc
    return received(page)


def test_pages_follow_the_fight_by_push_and_players_fight_from_them(fray_server, fray_client, arena):
    playwright_api = pytest.importorskip("playwright.sync_api")
    executable = chromium_path()
    st, alice, bob = arena
    a, b = alice.account_name, bob.account_name
    guard_fight(st, alice, bob)
    fight = re.search(r"Fight #(\d+)", st.command("+combat/verify", r"Fight #\d+")).group(1)
    base = f"http://{fray_server.host}:{fray_server.web_port}"
    errors: list[str] = []
    requests: list[str] = []

    with playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            pages = {}
            for who in (alice, bob):
                page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
                page.on("pageerror", lambda exc: errors.append(str(exc)))
                page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
                log_in(page, base, who.account_name, who.password)
                page.goto(f"{base}/fights/{fight}/")
                wait_pushes(page, 1)   # caught up on connecting
                page.on("request", lambda request: requests.append(request.url))
                pages[who] = page
            alice_page, bob_page = pages[alice], pages[bob]
            text_has(alice_page, "Round 1, Guard's turn")
            assert alice_page.query_selector("#fray-turn") is None   # not her turn: no buttons

            # The Guard punches Alice over telnet (5 dice: 9 8 7 3 2 -> 3 successes): both pages
            # have it within PUSH_WITHIN, and Alice gets her defense as buttons.
            force(st, [9, 8, 7, 3, 2])
            counts = {who: len(received(page)) for who, page in pages.items()}
            sent = time.time()
            st.send(f"attack Guard={a}")
            for who, page in pages.items():
                arrived = wait_pushes(page, counts[who] + 1)[counts[who]]["at"] / 1000
                assert arrived - sent < PUSH_WITHIN, (who.account_name, arrived - sent)
            alice.expect(r"Answer: defend dodge")
            alice_page.wait_for_selector("#fray-defend-dodge")
            assert bob_page.query_selector("#fray-defend-dodge") is None
            text_has(bob_page, f"Waiting for a defense: Guard \u2192 {a}")

            # Alice dodges from the page (6 3 3 2 2 -> 1; 2 hits: 10 6 2 -> 2; soak 5 1 -> 1):
            # the telnet players read it; it is Bob's turn, and his page gives him his actions.
            force(st, [6, 3, 3, 2, 2, 10, 6, 2, 5, 1])
            alice_page.click("#fray-defend-dodge")
            bob.expect(rf"Round 1: {b} to act\.")
            alice.expect(r"Round 1: .* to act\.")
            text_has(alice_page, "Bruised (0) \u00b7 6/7")
            bob_page.wait_for_selector("#fray-turn")
            assert bob_page.inner_text("#fray-turn").startswith(f"Your turn, {b}:")

            # Alice's page goes away for a moment; Bob attacks the Guard from his page (3 dice:
            # 9 8 7 -> 3 successes; the Guard has acted: no defense; 4 dice 10 9 3 1 -> 2,
            # soak 3 1 -> 0); telnet Alice reads it; her page comes back and catches up.
            alice_page.evaluate("window.frayTracker.disconnect()")
            force(st, [9, 8, 7, 10, 9, 3, 1, 3, 1])
            bob_page.select_option("#fray-target", "Guard")
            bob_page.select_option("#fray-option", "")
            bob_page.click("#fray-attack")
            alice.expect(rf"{b}'s punch at Guard:")
            alice.expect(r"Guard takes 2 levels of bashing")
            text_has(bob_page, "everyone has acted")
            assert bob_page.query_selector("#fray-turn") is None   # his turn is over
            missed = received(alice_page)[-1]["seq"]
            alice_page.evaluate("window.frayTracker.connect()")
            text_has(alice_page, f"{b}'s punch at Guard:")
            text_has(alice_page, "everyone has acted")
            assert received(alice_page)[-1]["seq"] == received(bob_page)[-1]["seq"] > missed
            narration = alice_page.inner_text("#fray-narration")
            assert narration.count(f"{b}'s punch at Guard:") == 1, narration

            # A forged message: Bob's page sends Alice's pass, and a ticket of its own making.
            bob_page.evaluate(f"""window.frayTracker.socket.send(JSON.stringify(
                ["fray_act", [], {{fight: {fight}, action: "pass", seen: 0}}]))""")
            text_has(bob_page, "The fight moved on since your page showed it; nothing was done.")
            bob_page.evaluate("""window.frayTracker.socket.send(JSON.stringify(
                ["fray_track", ["forged:ticket", 0, 0], {}]))""")
            text_has(bob_page, "This page's ticket is not valid: reload the page.")
            last = received(bob_page)[-1]["seq"]
            st.command("+combat", r"Round 1")
            assert received(bob_page)[-1]["seq"] == last   # nothing changed, nothing pushed
            assert requests == [], requests   # nothing asked for: every change was pushed
        finally:
            browser.close()
    assert errors == [], errors


def test_one_account_on_telnet_the_webclient_and_the_tracker_at_once(fray_server, fray_client, arena):
    playwright_api = pytest.importorskip("playwright.sync_api")
    executable = chromium_path()
    st, alice, bob = arena
    a = alice.account_name
    base = f"http://{fray_server.host}:{fray_server.web_port}"
    started = st.command("+combat/start", r"Fight #\d+")
    fight = re.search(r"Fight #(\d+)", started).group(1)
    errors: list[str] = []

    with playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": 1100, "height": 900})
            web = context.new_page()
            web.on("pageerror", lambda exc: errors.append(str(exc)))
            log_in(web, base, a, alice.password)
            web.goto(fray_server.webclient_url)   # logged in already: the website's login
            web.wait_for_selector(".inputfield", timeout=30_000)
            alice.expect(r"is now shared from another of your sessions")   # telnet stays connected
            tracker = context.new_page()
            tracker.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
            tracker.goto(f"{base}/fights/{fight}/")
            wait_pushes(tracker, 1)

            web.fill(".inputfield", "+combat/join")
            web.press(".inputfield", "Enter")
            web.wait_for_function("document.body.innerText.includes('You join the fight')", timeout=15_000)
            alice.expect(r"You join the fight")    # the same character's output reaches telnet too
            bob.expect(rf"{a} joins the fight")
            text_has(tracker, f"{a} joins the fight")

            alice.send("+combat/init")   # typed on telnet: the webclient and the tracker see it
            web.wait_for_function(f"document.body.innerText.includes({a + ' rolls initiative'!r})", timeout=15_000)
            text_has(tracker, f"{a} rolls initiative")

            web.close()   # the webclient goes; telnet still plays the character, not idle
            alice.command("look", r"Arena")
            seen = len(received(tracker))
            time.sleep(1.0)   # an "idle" mark would have been pushed by now
            row = tracker.evaluate(f"""Array.from(document.querySelectorAll('#fray-fighters tr'))
                .find(r => r.innerText.startsWith({a!r})).innerText""")
            assert "idle" not in row and len(received(tracker)) == seen, (row, received(tracker)[seen:])
        finally:
            browser.close()
    assert errors == [], errors
