"""Account-level commands Fray changes: ``quit`` warns a fighter before leaving; ``ooc`` with
a message is a MUSH's out-of-character say."""

from evennia.commands.default.account import CmdOOC as EvenniaCmdOOC
from evennia.commands.default.account import CmdQuit as EvenniaCmdQuit

from world import fights
from world.text import COMBAT, escape_for_room


class CmdQuit(EvenniaCmdQuit):
    """
    quit the game

    Usage:
      quit
      quit/all

    Switch:
      all - disconnect all connected sessions

    Gracefully disconnect your current session from the game. If your
    character is in a fight, the first quit warns you: you stay in the
    fight, marked idle, and the Storyteller may resolve attacks on you with
    no defense. Type quit again to leave; logging back in shows you the fight.
    """

    def func(self):
        puppet = self.session.puppet if self.session else None
        if puppet is not None and fights.fight_of(puppet) is not None and not self.session.ndb.fray_quit_warned:
            self.session.ndb.fray_quit_warned = True
            self.msg(f"{COMBAT} You are in a fight here. If you quit you stay in it, marked idle, and the "
                     "Storyteller may resolve attacks on you with no defense. Type quit again to leave.")
            return
        super().func()


class CmdOOC(EvenniaCmdOOC):
    """
    say something out of character, or leave your character

    Usage:
      ooc <message>     an out-of-character remark to the room
      ooc :<pose>       ... as a pose (ooc ;'s pose for no space)
      ooc               leave your character (also: unpuppet)

    As on a MUSH, ooc with a message is an out-of-character say to the
    room: <OOC> Alice says, "brb, phone". It is not recorded in a scene.
    Alone, ooc takes you out of your character (in a fight: marked idle);
    ic brings you back.

    Examples:
      ooc brb, phone
      ooc :waves to the new player.
    """

    def func(self):
        puppet = self.session.puppet if self.session else None
        text = self.args.strip()
        if self.cmdstring.lower() != "ooc" or not text or puppet is None or puppet.location is None:
            super().func()
            return
        if text[0] in ":;":
            spaced = " " if text[0] == ":" else ""
            said = f"{escape_for_room(puppet.key)}{spaced}{escape_for_room(text[1:].strip())}"
        else:
            said = f'{escape_for_room(puppet.key)} says, "{escape_for_room(text)}"'
        puppet.location.msg_contents(f"|w<OOC>|n {said}")
