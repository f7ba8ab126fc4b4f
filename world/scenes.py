"""Scene logs: a room's poses, says, emits and fight narration, in one ordered record kept in
the database (``world.models.Scene`` and ``SceneEntry``) while a scene runs there.

What is recorded, once per message (not once per listener), as the room's bystanders read it
(third person, colour codes stripped):

* ``say`` and ``pose`` (``:``, ``emote``): Evennia sends them to the room with
  ``msg_contents`` and a ``type`` of "say" or "pose"; the room (``typeclasses.rooms``) hands
  them here after they are delivered;
* ``emit``: ``@emit``/``@remit`` to a room (``commands.scenes.CmdEmit`` marks its messages);
* ``narration``: the fight's narration events (``world.fights`` event stream: this module
  subscribes to it, beside the telnet narrator), the head line and its dice lines together.

Nothing else: arrivals, OOC and system lines, ``+roll`` lines, pages, whispers and lines
told to one character are not recorded. When no scene runs in a room the cost of a message
is one cached check (``room.ndb.fray_scene``).

Raises ``CombatError`` (one player-facing line) and changes nothing when it refuses.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from evennia.utils import logger
from evennia.utils.ansi import strip_ansi

from rules.systems import CombatError
from rules.text import quote, visible
from world import fights, narration
from world.models import Scene, SceneEntry
from world.text import NARROW, screen_width

MAX_TITLE = 60
MAX_TITLE_CODED = 80  # the database's column
PAGE_SIZE = 20
WIDTH = 78
RECENT = 15
RECORDED_TYPES = frozenset({"say", "pose"})

_emitting: ContextVar[bool] = ContextVar("fray_scene_emit", default=False)




# ------------------------------------------------------------------------- finding
def scene_in(room) -> Scene | None:
    """The scene running in ``room``, or None; the answer is kept on the room (``ndb``:
    False for "none"), so a message in a room without a scene costs one attribute look-up."""
    if room is None:
        return None
    known = room.ndb.fray_scene
    if known is False:
        return None
    if known is not None:
        return known
    found = Scene.objects.filter(room_id=room.id, stopped__isnull=True).order_by("-id").first()
    room.ndb.fray_scene = found or False
    return found


def last_scene_in(room) -> Scene | None:
    """The scene running in ``room``, else the last one that ran there."""
    return scene_in(room) or Scene.objects.filter(room_id=room.id).order_by("-id").first()


def find(ident: str) -> Scene:
    """A scene by its id (``12`` or ``#12``)."""
    text = str(ident).strip().lstrip("#")
    if not text.isdigit() or len(text) > 12:
        raise CombatError(f"'{quote(ident)}' is not a scene id. +scene/list shows them.")
    scene = Scene.objects.filter(pk=int(text)).first()
    if scene is None:
        raise CombatError(f"There is no scene #{int(text)}. +scene/list shows them.")
    return scene


# -------------------------------------------------------------------- start and stop
def clean_title(title: str) -> str:
    """A title as given, or one clear refusal: at most 60 printable characters as shown, no
    line breaks (``%r``), no ``|`` colour codes; MUSH colour codes (``%ch%cr``, ``%cn``) and
    ``%b`` are kept (at most 80 characters with them)."""
    title = " ".join(str(title or "").replace("\t", " ").split(" ")).strip()
    shown = strip_ansi(title.replace("|", "||"))  # what the MUSH codes leave to read
    if any(ch in shown for ch in "\r\n") or "|/" in title:
        raise CombatError("A scene title is one line: no line breaks.")
    if "|" in title:
        raise CombatError("A scene title takes no colour codes but the MUSH ones (%ch%cr, not '|').")
    if any(not ch.isprintable() for ch in title):
        raise CombatError("A scene title takes printable characters only.")
    shown = shown.replace("\t", " ")
    if len(shown) > MAX_TITLE:
        raise CombatError(f"A scene title is at most {MAX_TITLE} characters (that one has {len(shown)}).")
    if len(title) > MAX_TITLE_CODED:
        raise CombatError(f"A scene title with its colour codes is at most {MAX_TITLE_CODED} characters "
                          f"(that one has {len(title)}).")
    return title


def start(caller, title: str = "") -> Scene:
    """Start recording the caller's room. Anyone standing in a room may start its scene;
    one scene per room at a time."""
    room = getattr(caller, "location", None)
    if room is None:
        raise CombatError("You must be in a room to start a scene.")
    title = clean_title(title)
    running = scene_in(room)
    if running is not None:
        raise CombatError(f"Scene #{running.id} is already running here (+scene/stop ends it).")
    scene = Scene.objects.create(room=room, room_name=room.key[:80], title=title, started_by=caller.key[:80])
    room.ndb.fray_scene = scene
    return scene


def stop(caller) -> Scene:
    """Stop the scene running in the caller's room. Anyone in the room may stop it."""
    room = getattr(caller, "location", None)
    scene = scene_in(room)
    if scene is None:
        raise CombatError("No scene is running here. +scene/start <title> starts one.")
    scene.stopped = timezone.now()
    scene.stopped_by = caller.key[:80]
    Scene.objects.filter(pk=scene.pk).update(stopped=scene.stopped, stopped_by=scene.stopped_by)
    room.ndb.fray_scene = False
    return scene


def room_deleted(room) -> None:
    """The room is being destroyed: its running scene stops (the log stays)."""
    scene = scene_in(room)
    if scene is not None:
        Scene.objects.filter(pk=scene.pk).update(stopped=timezone.now(), stopped_by="(room destroyed)")
    room.ndb.fray_scene = False


# ------------------------------------------------------------------------- recording
@contextmanager
def emitting() -> Iterator[None]:
    """Messages sent to a room inside this block are emits (``@emit``)."""
    token = _emitting.set(True)
    try:
        yield
    finally:
        _emitting.reset(token)


def kind_of(text) -> str | None:
    """What a message handed to ``msg_contents`` is for the log ("say", "pose", "emit"), or
    None when it is not recorded."""
    if _emitting.get():
        return "emit"
    if isinstance(text, (tuple, list)) and len(text) > 1 and isinstance(text[1], dict):
        kind = text[1].get("type")
        return kind if kind in RECORDED_TYPES else None
    return None


def render(template: str, from_obj=None, mapping: dict | None = None, room=None) -> str:
    """``template`` as a bystander reads it (``$You()`` in the third person, ``{key}`` as
    names), colour codes stripped (``world.narration.bystander``)."""
    return strip_ansi(narration.bystander(template, from_obj, mapping, room))


def record(room, kind: str, speaker: str, text: str) -> SceneEntry | None:
    """Add one entry to the scene running in ``room`` (None when no scene runs there)."""
    scene = scene_in(room)
    if scene is None:
        return None
    # control characters (a NUL, a bell) are never kept: what a say or pose carried raw
    text = "".join(ch for ch in str(text).replace("\t", " ") if ch == "\n" or ch.isprintable()).rstrip()
    if not text.strip():
        return None
    with transaction.atomic():
        Scene.objects.filter(pk=scene.pk).update(entry_count=F("entry_count") + 1)
        number = Scene.objects.filter(pk=scene.pk).values_list("entry_count", flat=True).first()
        if number is None:  # the scene was deleted (admin): stop recording here
            room.ndb.fray_scene = None
            return None
        scene.entry_count = number
        return SceneEntry.objects.create(scene=scene, number=number, kind=kind, speaker=str(speaker or "")[:80],
                                         text=text)


def heard(room, text, from_obj=None, mapping=None) -> None:
    """Called by the room after it delivered ``text`` to its contents: record it when it is a
    say, pose or emit and a scene runs there. Never raises: a log must not stop a pose."""
    kind = kind_of(text)
    if kind is None or room.ndb.fray_scene is False:
        return
    try:
        template = text[0] if isinstance(text, (tuple, list)) else text
        if template is None:
            return
        record(room, kind, getattr(from_obj, "key", ""), render(template, from_obj, mapping, room))
    except Exception:  # noqa: BLE001 - logged; the message itself went out
        logger.log_trace("scene log: could not record a line")


def on_fight_event(event: fights.FightEvent) -> None:
    """The fight's event stream: each narration event becomes one entry (its head line and
    its dice lines), once, however many are in the room."""
    room = event.room
    if event.kind != "said" or room is None or room.ndb.fray_scene is False:
        return
    try:
        record(room, "narration", getattr(event.actor, "key", ""), narration_text(event))
    except Exception:  # noqa: BLE001
        logger.log_trace("scene log: could not record a narration")


def narration_text(event: fights.FightEvent) -> str:
    """A narration event as a bystander read it (``world.narration.narration_text``): the
    scene log and the web tracker keep it so."""
    return narration.narration_text(event)


# ------------------------------------------------------------------------- reading
def parse_page(text, pages: int) -> int | None:
    """A page number from 1 to ``pages`` (None: not given)."""
    text = str(text or "").strip()
    if not text:
        return None
    if not text.isdigit() or len(text) > 9 or int(text) < 1:
        raise CombatError(f"'{quote(text)}' is not a page: give a whole number from 1 to {pages}.")
    if int(text) > pages:
        raise CombatError(f"There {'is' if pages == 1 else 'are'} only {pages} page{'s' * (pages != 1)}"
                          " in that scene.")
    return int(text)


def pages_of(scene: Scene) -> int:
    return max(1, -(-scene.entry_count // PAGE_SIZE))


def entries(scene: Scene, page: int | None = None) -> tuple[list[SceneEntry], int, int]:
    """The entries of ``page`` (default: the last page), the page and the page count."""
    scene.refresh_from_db(fields=["entry_count", "stopped", "stopped_by"])
    pages = pages_of(scene)
    page = pages if page is None else page
    first = (page - 1) * PAGE_SIZE
    rows = list(SceneEntry.objects.filter(scene=scene, number__gt=first, number__lte=first + PAGE_SIZE)
                .order_by("number"))
    return rows, page, pages


def status(scene: Scene) -> str:
    if scene.stopped is None:
        return "running"
    return f"stopped {scene.stopped:%Y-%m-%d %H:%M}"


def heading(scene: Scene) -> str:
    title = scene.plain_title or "untitled"
    return (f"Scene #{scene.id}: {title} ({scene.room_name}), started by {scene.started_by} "
            f"{scene.started:%Y-%m-%d %H:%M} UTC, {status(scene)}.")


def wrap(text: str, width: int = WIDTH) -> list[str]:
    """Plain text wrapped to ``width`` columns (continuations indented by 2)."""
    out = []
    for line in printable_lines(text):
        indent = " " * (len(line) - len(line.lstrip(" ")))
        out.extend(textwrap.wrap(line, width=width, subsequent_indent=indent + "  ", break_long_words=True,
                                 break_on_hyphens=False) or [""])
    return out


def printable_lines(text: str) -> list[str]:
    return [visible(line) for line in str(text).split("\n")]


def log_view(scene: Scene, page: int | None = None) -> list[str]:
    """A page of the scene for the game, plain lines of at most 78 columns."""
    rows, page, pages = entries(scene, page)
    lines = wrap(heading(scene))
    if not rows:
        lines.append("Nothing recorded yet." if scene.stopped is None else "Nothing was recorded.")
    for entry in rows:
        lines.extend(wrap(entry.text))
    more = f" +scene/log #{scene.id}=<page> for another." if pages > 1 else ""
    lines.extend(wrap(f"Page {page} of {pages} ({scene.entry_count} line"
                      f"{'s' * (scene.entry_count != 1)}).{more}"))
    return lines


def recent(limit: int = RECENT) -> list[Scene]:
    return list(Scene.objects.order_by("-id")[:limit])


def list_view(limit: int = RECENT) -> list[str]:
    scenes = recent(limit)
    if not scenes:
        return ["No scenes yet. +scene/start <title> starts one in your room."]
    width = screen_width()
    narrow = width < NARROW   # the start and the room left out
    lines = [f"{'#':>5}  " + ("" if narrow else f"{'Started':<16}  ") + f"{'Lines':>5}  "
             + ("" if narrow else f"{'Room':<16}  ") + "Title"]
    for scene in scenes:
        state = "" if scene.stopped else " (running)"
        title = (scene.plain_title or "untitled") + state
        line = (f"{scene.id:>5}  " + ("" if narrow else f"{scene.started:%Y-%m-%d %H:%M}  ") + f"{scene.entry_count:>5}  "
                + ("" if narrow else f"{visible(scene.room_name)[:16]:<16}  ") + visible(title))
        lines.append(line[:width])
    lines.append("+scene/log #<id> reads one.")
    return lines


def as_text(scene: Scene) -> str:
    """The whole scene as plain text (the download)."""
    out = [heading(scene), ""]
    for entry in SceneEntry.objects.filter(scene=scene).order_by("number").iterator(chunk_size=500):
        out.append(entry.text)
    return "\n".join(out) + "\n"
