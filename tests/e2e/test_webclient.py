"""End to end in a real browser: the webclient and the website load every
script and stylesheet from the game itself, so they work with the outside network blocked.

Debian's ``chromium`` driven by Playwright through ``executable_path`` (Playwright's own browser
download does not work here). Every request that is not to the game's own address is aborted
and recorded; the test fails on any such request and on any console error. Without Chromium the
test is skipped, except under CI (``CI=true``), where ``.ci/run`` installs it and a missing
browser is a failure.
"""

import os
import re
import shutil
import uuid
from urllib.parse import urlsplit

import pytest

from .conftest import force

pytestmark = pytest.mark.e2e

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path:
        return path
    if os.environ.get("CI") == "true":
        pytest.fail("Chromium is not installed (apt-get install chromium): .ci/run installs it.")
    pytest.skip("Chromium is not installed (apt-get install chromium).")


@pytest.fixture
def offline_page(fray_server):
    """A Chromium page that may reach only the game: (page, outside requests, errors: console
    errors, uncaught exceptions and HTTP error responses)."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    executable = chromium_path()
    outside: list[str] = []
    errors: list[str] = []

    def only_the_game(route):
        if urlsplit(route.request.url).hostname in (fray_server.host, "localhost"):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    with playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.route("**/*", only_the_game)
            page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on("response", lambda r: r.status >= 400 and errors.append(f"HTTP {r.status} {r.url}"))
            yield page, outside, errors
        finally:
            browser.close()


def test_the_webclient_plays_with_the_network_blocked(fray_server, fray_client, offline_page):
    page, outside, errors = offline_page
    admin = fray_client(superuser=True)
    name, password = f"web{uuid.uuid4().hex[:6]}", f"Fr4y-{uuid.uuid4().hex[:12]}"
    fray_client(name, password).close()  # the account and its character

    page.goto(fray_server.webclient_url)
    page.wait_for_selector(".inputfield", timeout=30_000)
    page.wait_for_function("document.body.innerText.includes('connect')", timeout=30_000)
    for line in (f"connect {name} {password}",):
        page.fill(".inputfield", line)
        page.press(".inputfield", "Enter")
    page.wait_for_function(f"document.body.innerText.includes({name!r})", timeout=30_000)

    force(admin, [8, 7, 2])
    page.fill(".inputfield", "+roll 3 vs 6")
    page.press(".inputfield", "Enter")
    page.wait_for_function("/3 dice vs 6: 8 7 2/.test(document.body.innerText)", timeout=30_000)
    text = page.inner_text("body")
    assert re.search(rf"{name} rolls .*3 dice vs 6: 8 7 2", text), text[-2000:]
    # the game sends Char.Vitals and Fray.Combat at login (world/gmcp.py): taken quietly by
    # the fray_oob plugin, not printed as "Error or Unhandled event" blocks
    assert "Unhandled event" not in text, text[-2000:]

    assert page.evaluate("typeof jQuery") == "function"
    assert page.evaluate("typeof GoldenLayout") == "function"
    assert page.evaluate("typeof Favico") == "function"
    # the font choices are the game's own files, and the browser can use them
    fonts = page.evaluate("Array.from(document.querySelectorAll('link[rel=stylesheet]'), l => l.href)")
    assert sum("/static/vendor/fonts/" in href for href in fonts) == 6, fonts
    assert page.evaluate("document.fonts.load(\"12px 'Fira Mono'\").then(f => f.length)") >= 1
    assert outside == [], outside
    assert errors == [], errors


def test_the_website_loads_only_its_own_files(fray_server, offline_page):
    page, outside, errors = offline_page
    seen: list[str] = []
    page.on("requestfinished", lambda request: seen.append(request.url))
    page.goto(f"http://{fray_server.host}:{fray_server.web_port}/")
    page.wait_for_load_state("networkidle")
    assert any("/static/vendor/bootstrap/css/bootstrap.min.css" in url for url in seen), seen
    assert page.evaluate("typeof jQuery") == "function"
    assert outside == [], outside
    assert errors == [], errors
