"""The chargen page (``/chargen/<system>/``): a logged-in player builds their character's sheet
of a rule system on the web, with the rules and refusals of ``+chargen`` (``world.chargen``,
called in the reactor thread by ``world.reactor.call``, one unit, as a command).

The character is the account's (the one it puppets, else its first). Answers: an anonymous
visitor is sent to the login page; an unknown system or an account without a character is a
404; the wrong method 405; bad form input 400; a rule's refusal 409 with its one line; a
missing or forged CSRF token Django's 403. A refused POST changes nothing.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from rules.systems import CombatError, get_system, system_keys
from world import chargen, reactor, tracker

MAX_FIELD = 80
ACTIONS = ("set", "submit", "withdraw", "roll")


def _system(key: str):
    if key not in system_keys():
        raise Http404(f"No rule system '{key}'.")
    return get_system(key)


def _character(account):
    characters = tracker.characters_of(account)
    if not characters:
        raise Http404("This account has no character.")
    return characters[0]


def _page(request, system, *, error: str = "", status: int = 200):
    character = _character(request.user)
    data = reactor.call("web chargen", chargen.page, character, system)
    return render(request, "website/chargen.html",
                  {"character": character, "sheet": data, "error": error,
                   "systems": system_keys(), "page_title": f"Chargen: {system.key}"}, status=status)


@require_safe
@login_required
def chargen_index(request):
    return HttpResponseRedirect(reverse("chargen", args=[getattr(settings, "FRAY_DEFAULT_SYSTEM", "storyteller")]))


@require_safe
@login_required
def chargen_page(request, system: str):
    return _page(request, _system(system))


@require_POST
@login_required
def chargen_action(request, system: str, action: str):
    system = _system(system)
    character = _character(request.user)
    field = request.POST.get("trait", "")
    value = request.POST.get("rating", "")
    if len(field) > MAX_FIELD or len(value) > MAX_FIELD or any(not ch.isprintable() for ch in field + value):
        return _page(request, system, status=400, error=f"A trait and a rating: one line of at most {MAX_FIELD} characters.")
    if action == "set" and (not field.strip() or not value.strip()):
        return _page(request, system, status=400, error="Choose a trait and give it a rating.")
    try:
        if action == "set":
            line = reactor.call("web chargen/set", chargen.set_value, character, system, field, value)
        elif action == "submit":
            row = reactor.call("web chargen/submit", chargen.submit, character, system)
            line = f"Your {system.key} sheet is submitted (#{row.id})."
        elif action == "withdraw":
            reactor.call("web chargen/withdraw", chargen.withdraw, character, system)
            line = f"Your {system.key} sheet is withdrawn."
        else:
            line = reactor.call("web chargen/roll", chargen.roll, character, system)
    except CombatError as error:
        return _page(request, system, status=409, error=str(error).splitlines()[0] if str(error) else "Refused.")
    messages.success(request, line)
    return HttpResponseRedirect(reverse("chargen", args=[system.key]), status=303)
