"""End to end in a real browser: a player builds an eldritch sheet on the chargen page (a
refusal shown, nothing changed), submits it, and staff approve it in the admin's sheet-review
screen; the player's telnet session is told at once.

Chromium as in ``test_webclient.py`` (skipped without it, a failure under CI)."""

import re

import pytest

from .test_tracker import log_in, text_has
from .test_webclient import CHROMIUM_ARGS, chromium_path

pytestmark = pytest.mark.e2e

ELDRITCH = [("Strength", 4), ("Dexterity", 4), ("Constitution", 3), ("Intelligence", 3), ("Perception", 3),
            ("Willpower", 3), ("Brawl", 5), ("Melee", 4), ("Acrobatics", 3), ("Notice", 3),
            ("Acute Senses", 1), ("Fast Reaction Time", 1), ("Natural Toughness", 1), ("Hard to Kill", 2),
            ("Atemi Grip", 1)]


def test_a_sheet_built_on_the_web_is_approved_in_the_admin(fray_server, fray_client):
    playwright_api = pytest.importorskip("playwright.sync_api")
    executable = chromium_path()
    alice = fray_client()
    site = f"http://{fray_server.host}:{fray_server.web_port}"
    with playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            log_in(page, site, alice.account_name, alice.password)
            page.goto(f"{site}/chargen/eldritch/")
            text_has(page, "eldritch character generation")
            page.select_option("#chargen-set select[name=trait]", "Brawl")
            page.fill("#chargen-set input[name=rating]", "6")
            page.click("#chargen-set button[type=submit]")
            text_has(page, "Brawl 6 is over the creation maximum 5.")
            for trait, rating in ELDRITCH:
                page.select_option("#chargen-set select[name=trait]", trait)
                page.fill("#chargen-set input[name=rating]", str(rating))
                page.click("#chargen-set button[type=submit]")
                text_has(page, f"your {trait} is now {rating}.")
            text_has(page, "Ready to submit.")
            page.click("#chargen-submit button[type=submit]")
            text_has(page, "Your eldritch sheet is submitted (#")
            number = re.search(r"submitted \(#(\d+)\)", page.inner_text("body")).group(1)
            alice.command("+chargen eldritch", r"submitted, waiting for staff")

            staff = browser.new_page(viewport={"width": 1200, "height": 900})
            staff.goto(f"{site}/admin/fray/sheetreview/{number}/change/")
            staff.fill("input[name=username]", fray_server.admin_user)
            staff.fill("input[name=password]", fray_server.admin_password)
            staff.press("input[name=password]", "Enter")
            staff.wait_for_selector("#fray-approve", timeout=30_000)
            staff.fill("#fray-approve input[name=comment]", "Nice maneuver.")
            staff.click("#fray-approve input[type=submit]")
            staff.wait_for_selector(".messagelist .success", timeout=30_000)
            assert f"sheet (#{number}) approved" in staff.inner_text(".messagelist")
            alice.expect(r"Your eldritch sheet is approved by .*Comment: Nice maneuver\.")
            page.goto(f"{site}/chargen/eldritch/")
            text_has(page, "Status: approved")
        finally:
            browser.close()
