"""The website's help pages (Evennia's help views): a Fray command's page shows its whole
help, every rule system's part and every switch page under its own heading
(``commands.help.web_text``), instead of the raw docstring with its subtopic markers; a help
topic's page likewise, dedented, each subtopic under its name. An unknown topic is a 404
(Evennia's view answers 200 with "Failed to find entry.")."""

from django.http import Http404, HttpResponse
from evennia.web.website.views.help import HelpDetailView

from commands.command import Command
from commands.help import web_text


class FrayHelpDetailView(HelpDetailView):
    def get_object(self, queryset=None):
        entry = super().get_object(queryset)
        if isinstance(entry, HttpResponse):  # Evennia's "not found"
            raise Http404("No such help topic.")
        return entry

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        entry = self.get_object()
        if isinstance(entry, Command):
            context["entry_text"] = web_text(entry.__doc__, entry.key)
        else:  # a help topic (a rule system's): dedented, its subtopics under their names
            context["entry_text"] = web_text(context.get("entry_text") or "")
        return context
