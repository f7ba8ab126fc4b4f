"""Evennia commands Fray changes: ``quit`` warns a fighter before leaving; ``help`` lists a
page's subtopics compactly (the pages themselves: ``commands.help``)."""

from evennia.commands.default.account import CmdQuit as EvenniaCmdQuit
from evennia.commands.default.help import CmdHelp as EvenniaCmdHelp

from world.encounters import fighters
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
        encounter = getattr(puppet, "encounter", None) if puppet else None
        if encounter is not None and puppet in fighters(encounter) and not self.session.ndb.fray_quit_warned:
            self.session.ndb.fray_quit_warned = True
            self.msg(f"{COMBAT} You are in a fight here. If you quit you stay in it, marked idle, and the "
                     "Storyteller may resolve attacks on you with no defense. Type quit again to leave.")
            return
        super().func()


class CmdHelp(EvenniaCmdHelp):
    # Evennia's help command, with the subtopic index as one wrapped list of names
    # ("Subtopics (help +combat/<name>): aeon, eldritch, log ...") instead of a grid of full
    # paths: +combat's twenty subtopics would push its page into the pager.
    __doc__ = EvenniaCmdHelp.__doc__

    def format_help_entry(self, topic="", help_text="", aliases=None, suggested=None,
                          subtopics=None, click_topics=True):
        text = super().format_help_entry(topic, help_text, aliases, suggested, None, click_topics)
        if not subtopics:
            return text
        width = self.client_width()
        lines, line = [], f"|CSubtopics|n (help {topic}/<name>):"
        shown = len(f"Subtopics (help {topic}/<name>):")
        for number, name in enumerate(subtopics):
            word = name + ("," if number < len(subtopics) - 1 else ".")
            if shown + 1 + len(word) > width:
                lines.append(line)
                line, shown = " ", 1
            link = f"|lchelp {topic}/{name}|lt|w{name}|n|le" if click_topics else f"|w{name}|n"
            line += f" {link}{word[len(name):]}"
            shown += 1 + len(word)
        body, _, separator = text.rpartition("\n")
        return "\n".join((body, *lines, line, separator))
