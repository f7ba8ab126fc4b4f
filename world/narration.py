"""The words of a fight: its events (``rules.engine.events``, data) rendered from the
message catalogue (``world/messages/*.toml``), and the telnet narrator.

A ``said`` event is one ``<Combat>`` line to the fight's room: the catalogue's entry for its
``key``, its ``values`` put in as literal text, its ``refs`` left as ``{name}`` for Evennia's
``msg_contents`` to show each viewer as that viewer sees them, ``$You()``/``$conj()`` for the
actor; then its ``lines`` (the dice and arithmetic), the same for everyone. A ``notice`` goes
to one reader. A system's own entries, and its own wording of a shared one, are
``[<system>.<area>]`` (``world/messages/<system>.toml``), looked up before ``[<area>]``.
"""

from __future__ import annotations

from world import catalogue as messages
from world.text import COMBAT, ROLL, escape, escape_for_room

entry = messages.entry


class _Fill(dict):
    """Values as given; any other ``{name}`` left in place (a ref, for ``msg_contents``)."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def template(event, system: str = "") -> str:
    """The event's line for ``msg_contents``: values literal, refs ``{name}``, ``$You()``."""
    text = entry(event.key, system)
    values = {name: escape_for_room(str(value)) for name, value in event.values.items()}
    return text.format_map(_Fill(values))


def notice_text(event, system: str = "") -> str:
    """A notice's text for ``msg`` (values escaped; a notice names no refs)."""
    values = {name: escape(str(value)) for name, value in event.values.items()}
    text = entry(event.key, system).format_map(_Fill(values))
    if event.lines:
        text = "\n".join([text, *(f"  {escape(line)}" for line in event.lines)])
    return text


def system_key(event) -> str:
    from world.fights import running

    row = next((row for row in running() if row.pk == event.fight), None)
    return row.system_key if row is not None else ""


def obj(obj_id):
    from world.fights import obj as lookup

    return lookup(obj_id)


def narrate(event) -> None:
    """The telnet narrator (a subscriber of ``world.fights``): a fight's events as
    ``<Combat>`` lines, per viewer."""
    room = event.room
    if event.kind == "said" and room is not None:
        room.msg_contents(f"{COMBAT} {template(event, system_key(event))}", from_obj=event.actor,
                          mapping=dict(event.refs))
        if event.lines:  # the same literal text for every viewer: no per-viewer parsing
            text = "\n".join(f"  {escape(line)}" for line in event.lines)
            for viewer in room.contents:
                viewer.msg(text=(text, {}))
    elif event.kind == "notice" and event.to is not None:
        event.to.msg(f"{COMBAT} {notice_text(event, system_key(event))}")
    elif event.kind == "rolled":
        line = event.values["line"]
        if event.data.get("private"):
            shown = f"{ROLL} (private) {escape(line)}"
            for reader in dict.fromkeys(filter(None, (event.to, obj(event.data.get("gm"))))):
                reader.msg(shown)
        elif room is not None:
            room.msg_contents(f"{ROLL} {escape_for_room(line)}")
    elif event.kind == "ended" and room is not None and event.data.get("seed"):
        revealed = entry("fight.dice_revealed").format_map(_Fill(fight=event.fight))
        seed = entry("fight.seed").format_map(_Fill(seed=escape_for_room(str(event.data["seed"]))))
        room.msg_contents(f"{COMBAT} {revealed}\n  {seed}")


def tell_room(room, key: str, *, actor=None, refs=None, values=None, lines=()) -> None:
    """Message ``key`` to a room with no fight (an NPC removed from the scene): as a fight's
    ``said`` event would be told."""
    from rules.engine import Event

    if room is None:
        return
    event = Event("said", key=key, values=dict(values or {}), lines=tuple(lines))
    room.msg_contents(f"{COMBAT} {template(event)}", from_obj=actor, mapping=dict(refs or {}))
    if lines:
        text = "\n".join(f"  {escape(line)}" for line in lines)
        for viewer in room.contents:
            viewer.msg(text=(text, {}))


def check() -> list[str]:
    """Problems with the message catalogue, Fray's and the game's own file, one line each
    (``world.catalogue.problems``): the Server does not start with any."""
    return messages.problems()
