"""The live combat tracker on the web (``world.tracker``).

``/fights/`` lists the running fights; ``/fights/<id>/`` is a fight's HUD and narration,
kept live by the changes the game pushes over its websocket (``world.live``; the page carries
a signed ticket for it); ``/fights/<id>/state?after=<seq>`` is the same as JSON, for other
clients (the page does not poll it); ``/fights/<id>/verify`` is
``+combat/verify <id>``'s report; ``/fights/colours.css`` the webclient's colours for the
narration (which the game renders as HTML with ``color-NNN`` classes, ``world.narration``); ``/fights/<id>/<next|resolve|add|npc|end>`` (POST, with
Django's CSRF token) are the Storyteller's buttons.

Who may: any logged-in account sees every fight, as anyone in the room sees ``+combat``
(an anonymous visitor is sent to the login page). The roll log and the buttons are for the
account whose character is the fight's Storyteller, and staff. Answers: an unknown fight is
a 404, a button pressed by another a 403, a rule's refusal (``CombatError``) a 409 showing
its text, a fight that has ended a 409, bad form input a 400, the wrong method a 405, a
missing or forged CSRF token Django's 403. A refused request changes nothing. Player text is
escaped by Django's templates and sent as JSON data the page inserts as text; the narration's
HTML is the game's own rendering, every character of it escaped (``world.narration.web_html``).
"""

from __future__ import annotations

import re
from functools import cache

from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import Http404, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe
from evennia.utils.ansi import strip_ansi

from rules.systems import CombatError
from world import live, reactor, tracker
from world.models import Fight
from world.verify import verify

#: A rule of Evennia's webclient stylesheet that colours text: ``.color-NNN``, ``.bgcolor-NNN``.
COLOUR_RULE = re.compile(r"^\.(?:bg)?color-\d{3} \{[^}]*\}$", re.M)

#: The roll-log entries the page shows (the newest).
LOG_SHOWN = 200
#: The longest name or numbers a button's form takes.
MAX_FIELD = 80


def _fight(fight_id: int) -> Fight:
    row = Fight.objects.filter(pk=fight_id).first()
    if row is None:
        raise Http404(f"There is no fight #{fight_id}.")
    return row


def _log(row: Fight, after: int = 0) -> list[dict]:
    return tracker.log_after(row.pk, after, LOG_SHOWN)


def _hud(row: Fight, account) -> dict | None:
    viewer = tracker.viewer_in(account, row)
    return reactor.call("web hud", tracker.hud, row.pk, viewer)


@require_safe
@login_required
def fight_list(request):
    rows = reactor.call("web fights", tracker.running)
    ended = Fight.objects.filter(ended__isnull=False).order_by("-ended")[:20]
    return render(request, "website/fight_list.html", {"fights": rows, "ended": ended, "page_title": "Fights"})


def _detail(request, row: Fight, *, error: str = "", status: int = 200):
    runs = tracker.may_run(request.user, row)
    hud = _hud(row, request.user) if row.ended is None else None
    return render(request, "website/fight_detail.html", {
        "fight": row, "hud": hud, "ended": hud is None, "runs": runs,
        "seq": row.seq if tracker.caught_up(row.pk, row.seq) else 0,
        "narration": tracker.narration(row.pk), "log": _log(row) if runs else None,
        "ticket": live.ticket(request.user, row.pk) if row.ended is None else "",
        "error": error, "page_title": f"Fight #{row.pk}"}, status=status)


@require_safe
@login_required
def fight_detail(request, fight_id: int):
    return _detail(request, _fight(fight_id))


@require_safe
@login_required
def fight_state(request, fight_id: int):
    """JSON for the page's poll: ``{"seq", "ended", "changed"}``, and when the fight changed
    since event ``after``: ``hud`` (``world.tracker.hud``; null once ended), ``narration``
    after ``after``, and for the Storyteller and staff ``log``, the roll-log entries after
    ``log``. One small query when nothing changed."""
    after = _number(request.GET.get("after", "0"))
    known = Fight.objects.filter(pk=fight_id).values_list("seq", "ended").first()
    if known is None:
        return JsonResponse({"error": f"There is no fight #{fight_id}."}, status=404)
    seq, ended = known
    if after is None:
        return JsonResponse({"error": "'after' is the number of an event: a whole number."}, status=400)
    if seq <= after:
        return JsonResponse({"seq": seq, "ended": ended is not None, "changed": False})
    row = _fight(fight_id)
    complete = tracker.caught_up(row.pk, row.seq)
    data = {"seq": row.seq if complete else after, "ended": row.ended is not None, "changed": True,
            "hud": _hud(row, request.user) if row.ended is None else None,
            "narration": tracker.narration(row.pk, after)}
    if tracker.may_run(request.user, row):
        data["log"] = _log(row, _number(request.GET.get("log", "0")) or 0)
    return JsonResponse(data)


def _number(text: str) -> int | None:
    text = str(text or "").strip()
    if not text.isascii() or not text.isdigit() or len(text) > 18:
        return None
    return int(text)


@require_safe
@login_required
def fight_verify(request, fight_id: int):
    row = _fight(fight_id)
    report = strip_ansi(verify(None, str(row.pk)))
    return render(request, "website/fight_verify.html", {"fight": row, "report": report,
                                                         "page_title": f"Fight #{row.pk}: dice"})


@require_POST
@login_required
def fight_action(request, fight_id: int, action: str):
    """A Storyteller's button: the same service as the command (``world.tracker.act``). The form
    carries ``seen``, the fight's event number the page showed: a press made on a page that no
    longer shows the fight as it is (a second click, another Storyteller's press first) is
    refused, so two presses of Next turn pass one turn."""
    row = _fight(fight_id)
    if row.ended is not None:
        return _detail(request, row, error=f"Fight #{row.pk} has ended.", status=409)
    if not tracker.may_run(request.user, row):
        return _detail(request, row, status=403,
                       error=f"Only this fight's Storyteller or staff can {tracker.ACTIONS[action]}.")
    name = request.POST.get("name", "")
    numbers = request.POST.get("numbers", "").strip() or None
    if len(name) > MAX_FIELD or len(numbers or "") > MAX_FIELD or any(ch in name + (numbers or "") for ch in "\r\n"):
        return _detail(request, row, status=400, error=f"A name or numbers: one line of at most {MAX_FIELD} characters.")
    if action in ("add", "npc") and not name.strip():
        return _detail(request, row, status=400, error="Give a name.")
    seen = _number(request.POST.get("seen", ""))
    if seen is None:
        return _detail(request, row, status=400, error="The form is out of date: reload the page.")
    try:
        reactor.call(f"web {action}", tracker.act, row.pk, request.user, action, name, numbers, seen)
    except CombatError as err:
        row.refresh_from_db()
        return _detail(request, row, status=409, error=str(err).splitlines()[0] if str(err) else "That did not work.")
    return HttpResponseRedirect(reverse("fight-detail", args=[row.pk]), status=303)


@cache
def _colours() -> str:
    with open(finders.find("webclient/css/webclient.css"), encoding="utf-8") as sheet:
        rules = COLOUR_RULE.findall(sheet.read())
    return "\n".join(f"#fray-narration {rule}" for rule in rules) + "\n"


@require_safe
def colours(request):
    """The xterm colours of Evennia's webclient (``webclient/css/webclient.css``), for the
    narration box alone: the tracker shows the game's colour codes as the webclient does."""
    response = HttpResponse(_colours(), content_type="text/css; charset=utf-8")
    response["Cache-Control"] = "public, max-age=86400"
    return response
