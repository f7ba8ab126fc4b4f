"""End to end in a real browser: a player files +request/armor over telnet, a staff member
approves it in the Django admin (world/admin.py), and the player's telnet session shows the
approval line at once, as +request/approve would. The request's page first refuses a bad soak
value beside its field, changing nothing.

Chromium as in ``test_webclient.py`` (skipped without it, a failure under CI). With
``FRAY_SCREENSHOTS=1`` the pages are saved as ``docs/screenshots/admin-*.png`` for the README.
"""

import os
import re
from pathlib import Path

import pytest

from .test_webclient import CHROMIUM_ARGS, chromium_path

pytestmark = pytest.mark.e2e

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def shot(page, name: str) -> None:
    if os.environ.get("FRAY_SCREENSHOTS") == "1":
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"admin-{name}.png"), full_page=True)


@pytest.fixture
def browser_page(fray_server):
    playwright_api = pytest.importorskip("playwright.sync_api")
    executable = chromium_path()
    with playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 800})
            yield page
        finally:
            browser.close()


def test_a_request_approved_in_the_admin_reaches_the_telnet_player(fray_server, fray_client, browser_page):
    page = browser_page
    site = f"http://{fray_server.host}:{fray_server.web_port}"
    alice = fray_client()
    filed = alice.command("+request/armor troll-hide cloak=Won it from the <b>troll</b>",
                          r"Request #\d+ filed: .*$")
    number = re.search(r"Request #(\d+) filed", filed).group(1)

    page.goto(f"{site}/admin/fray/armorrequest/")
    page.fill("input[name=username]", fray_server.admin_user)
    page.fill("input[name=password]", fray_server.admin_password)
    page.press("input[name=password]", "Enter")
    page.wait_for_selector("#result_list", timeout=30_000)
    assert "troll-hide cloak" in page.inner_text("#result_list")
    shot(page, "requests")

    page.goto(f"{site}/admin/fray/armorrequest/{number}/change/")
    assert "Won it from the <b>troll</b>" in page.inner_text("body")  # shown as typed, not as markup
    page.fill("#fray-approve input[name=soak]", "bashing:99")
    page.click("#fray-approve input[type=submit]")
    page.wait_for_selector(".errorlist", timeout=30_000)
    assert "Soak values are whole numbers 0-10, not '99' for bashing." in page.inner_text(".errorlist")
    shot(page, "request-refused")
    alice.send("+request/view " + number)
    alice.expect(rf"Request #{number}\|?n?\s+armor, open")

    page.fill("#fray-approve input[name=soak]", "bashing:1,lethal:1")
    page.fill("#fray-approve input[name=comment]", "Mind the smell.")
    page.click("#fray-approve input[type=submit]")
    page.wait_for_selector(".messagelist .success", timeout=30_000)
    assert f"Request #{number} approved: troll-hide cloak (bashing 1, lethal 1)." in page.inner_text(".messagelist")
    shot(page, "request-approved")
    alice.expect(rf"Your armor request #{number} is approved by {fray_server.admin_user}: #{number} troll-hide "
                 rf"cloak \(storyteller: bashing 1, lethal 1\)\. Wear it with \+armor/wear {number}\. "
                 rf"Comment: Mind the smell\.")
    alice.command(f"+armor/wear {number}", r"You wear #\d+ troll-hide cloak")

    # The sheet form: +stat's range check beside the field, nothing saved; then a good value.
    page.goto(f"{site}/admin/fray/fraysheet/?q={alice.account_name}")
    page.wait_for_selector("#result_list", timeout=30_000)
    shot(page, "sheets")
    page.click(f"#result_list a:text-is('{alice.account_name}')")
    page.get_by_label("Dexterity:", exact=True).fill("25")
    page.click("input[name=_save]")
    page.wait_for_selector(".errorlist", timeout=30_000)
    assert "Dexterity must be a whole number from 0 to 20, not '25'." in page.inner_text(".errorlist")
    shot(page, "sheet-refused")
    alice.command("+sheet", r"\(no traits set\)")
    page.get_by_label("Dexterity:", exact=True).fill("4")
    page.click("input[name=_save]")
    page.wait_for_selector(".messagelist", timeout=30_000)
    alice.command("+sheet", r"Dexterity: 4")
    page.goto(f"{site}/admin/fray/armornotes/?q={alice.account_name}")
    page.wait_for_selector("#result_list", timeout=30_000)
    assert f"#{number} troll-hide cloak (storyteller: bashing 1, lethal 1)" in page.inner_text("#result_list")
    shot(page, "notes")
