"""The web tracker's live channel: a fight's changes pushed to every open page over the game's
own websocket (the webclient's, ``WEBSOCKET_CLIENT_PORT``), and the players' actions taken
from it.

A tracker page (``web/templates/website/fight_detail.html``) opens a websocket to the game,
as the webclient does, but does not log in: its session stays at the connection screen and
takes no command. It sends the out-of-band input ``fray_track`` (``server/conf/inputfuncs.py``)
with a signed ticket (:func:`ticket`: the account and the fight, made by the page's view with
Django's signing) and the last event and roll-log entry it shows. The Server checks the
ticket, notes the session as a watcher of the fight, and sends it (``fray_fight``) what it
missed: the HUD, the narration after its event, and for the fight's Storyteller and staff the
roll-log entries after its entry. From then on nothing is sent while the fight is quiet, and
after each command that changed the fight, on the tracker's tick that writes the narration
(``world.tracker.flush``), every watcher of it gets one ``fray_fight`` message: the fight's
``seq`` (its last event), the HUD, the new narration (and for those who run it, the new roll
log), and ``mine``, the page's own controls (:func:`controls`).

A message is ``["fray_fight", [<shared JSON>, <the watcher's own JSON>], {}]``: the part every
page shares is encoded once per change. A page that reconnects sends its last ``seq`` and is
caught up the same way; with more narration missed than :data:`CATCH_UP`, it gets ``"full":
true`` and the newest lines only, and redraws.

``fray_act`` is a player's press of a button (attack, a defense, pass, split, cast, move) on
a page that watches the fight: the same service as the command (``world.tracker.play``), in
the reactor thread, in one unit. A refusal, a forged ticket, an action on a fight the
session does not watch: ``["fray_refused", ["<one line>"], {}]``, nothing changed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.core import signing
from evennia.utils import logger

from rules.systems import CombatError
from world import fights, reactor, tracker
from world.models import Fight

#: The salt of the tracker's tickets (``django.core.signing``) and how long one holds (s).
SALT = "fray.tracker.watch"
TICKET_AGE = 24 * 3600
#: The most narration lines a page is sent to catch up; with more missed it redraws them.
CATCH_UP = 500
#: The most roll-log entries a page is sent at once.
LOG_SHOWN = 200


@dataclass
class Watcher:
    """One open tracker page: its session, the account that opened it, and the last roll-log
    entry it was sent (only for those who run the fight)."""

    session: object
    account: object
    fight: int
    log: int = 0


_watchers: dict[int, dict[int, Watcher]] = {}   # fight id -> session id -> watcher


def ticket(account, fight_id: int) -> str:
    """The signed ticket a tracker page shows the game to watch fight ``fight_id``."""
    return signing.dumps({"a": account.id, "f": int(fight_id)}, salt=SALT, compress=False)


def _account(account_id: int):
    from evennia.accounts.models import AccountDB

    return AccountDB.objects.filter(id=account_id).first()


def refuse(session, text: str) -> None:
    session.msg(fray_refused=text)


def watchers(fight_id: int) -> list[Watcher]:
    return list(_watchers.get(fight_id, {}).values())


def forget(session) -> None:
    """The session closed: it watches nothing any more."""
    sessid = getattr(session, "sessid", None)
    for fight_id in list(_watchers):
        _watchers[fight_id].pop(sessid, None)
        if not _watchers[fight_id]:
            del _watchers[fight_id]


def _number(value) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return 0
    return max(0, number)


# --------------------------------------------------------------------------------- watch
def watch(session, text: str, seq=0, log=0) -> None:
    """``fray_track``: the page shows a valid ticket; it watches the fight from now on and is
    sent what it missed after event ``seq`` (and roll-log entry ``log``). Reactor thread."""
    try:
        data = signing.loads(str(text), salt=SALT, max_age=TICKET_AGE)
        account_id, fight_id = int(data["a"]), int(data["f"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        refuse(session, "This page's ticket is not valid: reload the page.")
        return
    account = _account(account_id)
    if account is None or not account.is_active:   # deleted or disabled since the page was made
        refuse(session, "This page's ticket is not valid: reload the page.")
        return
    row = Fight.objects.filter(pk=fight_id).first()
    if row is None:
        refuse(session, f"There is no fight #{fight_id}.")
        return
    watcher = Watcher(session, account, fight_id, _number(log))
    if row.ended is None:
        _watchers.setdefault(fight_id, {})[session.sessid] = watcher
    _send(watcher, _catch_up(row, watcher, _number(seq)), _mine(row, watcher))
    if row.ended is not None:
        forget(session)


def _catch_up(row, watcher: Watcher, after: int) -> str:
    """The shared part of a catch-up: everything since event ``after``."""
    running = tracker.running_row(row.pk)
    seq = tracker.written_seq(row.pk, running.seq if running is not None else row.seq)
    lines = tracker.narration(row.pk, after, limit=CATCH_UP + 1)
    full = len(lines) > CATCH_UP
    return json.dumps({"fight": row.pk, "seq": seq, "ended": running is None, "full": full,
                       "hud": tracker.hud(row.pk) if running is not None else None,
                       "narration": lines[-CATCH_UP:]})


def _mine(row, watcher: Watcher, entries: list[dict] | None = None, runs: bool | None = None) -> str:
    """The watcher's own part: its controls, and the roll log for those who run the fight
    (from ``entries``, the fight's new entries read once for every page, else read now)."""
    running = tracker.running_row(row.pk)
    mine = {"runs": tracker.may_run(watcher.account, row) if runs is None else runs}
    if mine["runs"]:
        if entries is None:
            entries = tracker.log_after(row.pk, watcher.log, LOG_SHOWN)
        entries = [entry for entry in entries if entry["number"] > watcher.log]
        if entries:
            watcher.log = entries[-1]["number"]
        mine["log"] = entries
    mine["controls"] = tracker.controls(running, watcher.account) if running is not None else None
    return json.dumps(mine)


def _send(watcher: Watcher, shared: str, own: str) -> None:
    watcher.session.msg(fray_fight=(shared, own))


# ---------------------------------------------------------------------------------- push
def changed(fights_changed: dict[int, int], narration: dict[int, list[dict]]) -> None:
    """After the tracker wrote a tick's narration: each fight that changed ({fight id: its
    last event written}) goes to its watchers, with its new lines. Reactor thread; never
    fails the caller."""
    for fight_id, seq in fights_changed.items():
        found = _watchers.get(fight_id)
        if not found:
            continue
        try:
            running = tracker.running_row(fight_id)
            with fights.unit("tracker push"):
                shared = json.dumps({"fight": fight_id, "seq": seq, "ended": running is None, "full": False,
                                     "hud": tracker.hud(fight_id) if running is not None else None,
                                     "narration": narration.get(fight_id, [])})
                row = running or Fight.objects.filter(pk=fight_id).first()
                pages = [(watcher, tracker.may_run(watcher.account, row)) for watcher in found.values()]
                first = min((watcher.log for watcher, runs in pages if runs), default=None)
                entries = tracker.log_after(fight_id, first, LOG_SHOWN) if first is not None else []
                for watcher, runs in pages:
                    _send(watcher, shared, _mine(row, watcher, entries, runs))
        except Exception:  # noqa: BLE001 - logged; the fight goes on, the pages catch up later
            logger.log_trace("Fray tracker: could not push a change")
        if running is None:
            _watchers.pop(fight_id, None)


# ----------------------------------------------------------------------------------- act
def act(session, **fields) -> None:
    """``fray_act``: a press of one of the page's buttons (``world.tracker.play``), for a
    session that watches the fight. Refused (``fray_refused``) otherwise, or when the rules
    say no; nothing changes then. Reactor thread."""
    fight_id = _number(fields.get("fight"))
    watcher = _watchers.get(fight_id, {}).get(getattr(session, "sessid", None))
    if watcher is None:
        refuse(session, "This page does not follow that fight: reload the page.")
        return
    if _account(watcher.account.id) is None or not _account(watcher.account.id).is_active:
        forget(session)   # deleted or disabled since the page began to follow the fight
        refuse(session, "This page's ticket is not valid: reload the page.")
        return
    if fields.get("seen") is None:   # every press says which state of the fight it was made on
        refuse(session, "The fight moved on: look again before you act.")
        return
    action = str(fields.get("action", ""))[:20]
    try:
        reactor.call(f"web {action}", tracker.play, fight_id, watcher.account, action,
                     target=str(fields.get("target", "") or ""), option=str(fields.get("option", "") or ""),
                     seen=fields.get("seen"))
    except CombatError as err:
        refuse(session, str(err).splitlines()[0] if str(err) else "That did not work.")
