"""Account-level commands Fray changes: ``quit`` warns a fighter before leaving."""

from evennia.commands.default.account import CmdQuit as EvenniaCmdQuit

from world import fights
from world.text import COMBAT


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
