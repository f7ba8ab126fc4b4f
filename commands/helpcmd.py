"""Evennia's ``help`` command as Fray shows it: a page's subtopics as one wrapped list of
names. The pages themselves come from ``commands.help`` (command help by rule system) and
``world.help_entries`` (the system topics). Imported only by the cmdsets: Evennia's help
module needs Evennia set up first."""

from evennia.commands.default.help import CmdHelp as EvenniaCmdHelp


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
