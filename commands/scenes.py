"""Scene logs (``+scene``), the scene-aware ``@emit`` and Evennia's ``pose`` with Fray's help
(MUSH codes, ``$pron()``). The docstrings are the in-game help (a ``%`` is written ``%%``:
help text is parsed like any message); the work is in ``world/scenes.py``.
"""

from __future__ import annotations

from evennia.commands.default.admin import CmdEmit as EvenniaEmit
from evennia.commands.default.general import CmdPose as EvenniaPose

from commands.command import Command
from world import poses, scenes
from world.text import escape, free_text, literal, literal_for_room, unformatted


class CmdScene(Command):
    """
    Record a scene: poses, says, emits and fight narration in this room.

    Usage:
      +scene/start [<title>]     start recording this room
      +scene/stop                stop recording it
      +scene/log [<page>]        this room's running or last scene
      +scene/log #<id>[=<page>]  any scene by its id
      +scene/list                recent scenes with their ids
      +scene/order               who is to pose next here
      +scene                     the same as +scene/log

    Switches:
      /start   start a scene here (one per room at a time)
      /stop    stop the scene running here
      /log     read a scene, 20 recorded lines a page (default: the last)
      /list    the 15 most recent scenes
      /order   the players here, who posed (say, pose, emit) longest ago first

    Anyone in a room may start or stop its scene, and anyone may read any
    scene. While a scene runs, every say, pose (: and emote), @emit to the
    room and line of fight narration is kept, once, in order, in the game's
    database: it survives a reload and a restart. Pages, whispers, OOC and
    system lines, +roll lines and lines told to one person are not kept.
    A fight's narration line and its dice count as one recorded line. A
    title is one line of at most 60 characters; the MUSH colour codes
    colour it (%%ch%%cr ... %%cn, see help mush), ||r codes are refused.
    The web site shows every scene at /scenes/ to a logged-in account,
    with a plain text download.

    Examples:
      +scene/start The ambush at the docks
      +scene/log
      +scene/log 2
      +scene/log #14=3
      +scene/stop
    """

    key = "+scene"
    aliases = ["+scenes"]
    allowed_switches = ("start", "stop", "log", "list", "order")
    syntax = "+scene/start [<title>], +scene/stop, +scene/log [#<id>=][<page>], +scene/list"
    locks = "cmd:all()"

    def run(self):
        caller = self.caller
        switch = self.switches[0] if self.switches else "log"
        if switch == "start":
            scene = scenes.start(caller, self.args)
            title = f": {free_text(scene.title)}" if scene.title else ""
            self.msg(f"Scene #{scene.id}{title} is recording this room. +scene/stop ends it.")
            others = [obj for obj in caller.location.contents if obj != caller]
            for obj in others:
                obj.msg(f"{escape(caller.key)} starts scene #{scene.id}{title}: "
                        "this room is being recorded (+scene/log).")
        elif switch == "stop":
            if self.args.strip():
                self.fail("Usage: +scene/stop (it stops the scene running in your room).")
                return
            scene = scenes.stop(caller)
            for obj in caller.location.contents:
                obj.msg(f"{escape(caller.key)} stops scene #{scene.id} ({scene.entry_count} lines). "
                        f"+scene/log #{scene.id} reads it.")
        elif switch == "list":
            if self.args.strip():
                self.fail("Usage: +scene/list")
                return
            self.msg("\n".join(literal(line) for line in scenes.list_view()))
        elif switch == "order":
            room = caller.location
            if self.args.strip() or room is None:
                self.fail("Usage: +scene/order (the pose order of the room you are in)")
                return
            lines = poses.order_lines(room) or ["Nobody here to pose."]
            self.msg("\n".join(literal(line) for line in [f"Pose order in {room.key} (next to pose first):", *lines]))
        else:
            self.show_log()

    def show_log(self):
        args = self.args.strip()
        if "=" in args:
            ident, page = args.split("=", 1)
            scene = scenes.find(ident)
        elif args.startswith("#"):
            scene, page = scenes.find(args), ""
        else:
            scene = scenes.last_scene_in(getattr(self.caller, "location", None)) \
                if getattr(self.caller, "location", None) else None
            if scene is None:
                self.fail("No scene has run here. +scene/list shows them all; +scene/start starts one.")
                return
            page = args
        number = scenes.parse_page(page, scenes.pages_of(scene))
        self.msg("\n".join(literal(line) for line in scenes.log_view(scene, number)))


class CmdEmit(EvenniaEmit):
    """
    Send a message without your name (staff: Builder and above).

    Usage:
      @emit <message>                  to everyone here, as on a MUSH
      @remit [<room>, <room>, ... =] <message>
      @emit/contents [<obj>, <obj>, ... =] <message>
      @pemit <name>[, <name>, ...]=<message>

    Switches:
      /contents  send to everyone inside the objects named (default: here)
      /accounts  only to characters with a player

    @emit, @remit and @emit/contents reach everyone in a room: a scene running
    there (+scene) keeps the message. @pemit tells characters only; that
    is private and not kept. The MUSH codes act in the message (%%r a
    line break, %%ch%%cr bright red ... %%cn; help mush).

    Examples:
      @emit The lights go out.
      @remit Thunder rolls over the harbour.
      @remit Tavern=A bell rings somewhere.
      @pemit Ann=You feel watched.
    """

    def func(self):
        here = self.caller.location
        to_rooms = self.cmdstring.lstrip("@") == "remit" or "contents" in self.switches
        with scenes.emitting():
            if (self.cmdstring.lstrip("@") == "emit" and not self.switches and self.rhs is None
                    and self.args.strip() and here is not None):
                here.msg_contents(unformatted(self.args))   # a MUSH's @emit: everyone here hears it, once
                return
            if to_rooms:   # the room formats what it sends: braces are shown as typed
                if self.rhs is None:
                    self.args = unformatted(self.args)
                else:
                    self.rhs = unformatted(self.rhs)
            super().func()


class CmdPose(EvenniaPose):
    """
    Strike a pose: your name, then what you do.

    Usage:
      pose <text>
      :<text>
      ;<text>            (no space after your name: ;'s hat falls.)
      pose's <text>      (no space after your name: Ann's hat falls.)

    Everyone here reads it; a scene running here (+scene) keeps it. The
    MUSH codes act (%%r a line break, %%t a tab, %%b a space, %%ch%%cr
    bright red ... %%cn normal; help mush), and Evennia's $pron() and
    $conj(): $pron(your,f) reads "your" to you and "her" to the others
    (m: his, p: their; without one: its), $conj(smile) reads "smile" to
    you and "smiles" to them.

    Examples:
      :draws $pron(your,f) sword.%%r%%ch%%crThe blade glows.%%cn
      pose's hat falls off.
    """

    aliases = [":", ";", "emote"]

    def parse(self):
        """A semipose (``;``) puts no space after the name; the others as Evennia's pose."""
        if self.cmdstring == ";":
            self.args = self.args.strip()
            return
        super().parse()

    def func(self):
        if not self.args or self.caller.location is None:
            super().func()
            return
        # the room formats what it sends ({key} from its mapping): braces are shown as typed;
        # the poser's name is shown as typed (a staff @name may hold codes), the pose's codes act
        name = literal_for_room(literal(self.caller.name))
        self.caller.location.msg_contents(text=(name + unformatted(self.args), {"type": "pose"}),
                                          from_obj=self.caller)
