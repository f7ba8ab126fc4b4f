"""
This reroutes from an URL to a python view-function/class.

The main web/urls.py includes these routes for all urls (the root of the url)
so it can reroute to all website pages.

"""

from django.urls import path

from evennia.web.website.urls import urlpatterns as evennia_website_urlpatterns

from web.website.views import chargen, fights
from web.website.views import help as fray_help
from web.website.views import rules, scenes

# add patterns here
urlpatterns = [
    # a Fray command's help page: every system's part under its heading (commands/help.py)
    path("help/<str:category>/<str:topic>/", fray_help.FrayHelpDetailView.as_view(),
         name="help-entry-detail"),
    # the rules reference (docs/rules.md and docs/rules/<system>.md)
    path("rules/", rules.rules_page, name="rules-index"),
    path("rules/<slug:system>/", rules.rules_page, name="rules-page"),
    # scene logs (world/scenes.py)
    path("scenes/", scenes.scene_list, name="scene-list"),
    path("scenes/<int:scene_id>/", scenes.scene_detail, name="scene-detail"),
    path("scenes/<int:scene_id>/text", scenes.scene_text, name="scene-text"),
    # the live combat tracker (world/tracker.py)
    path("chargen/", chargen.chargen_index, name="chargen-index"),
    path("chargen/<slug:system>/", chargen.chargen_page, name="chargen"),
    *(path(f"chargen/<slug:system>/{action}", chargen.chargen_action, {"action": action}, name=f"chargen-{action}")
      for action in chargen.ACTIONS),
    path("fights/", fights.fight_list, name="fight-list"),
    path("fights/colours.css", fights.colours, name="fight-colours"),
    path("fights/<int:fight_id>/", fights.fight_detail, name="fight-detail"),
    path("fights/<int:fight_id>/state", fights.fight_state, name="fight-state"),
    path("fights/<int:fight_id>/verify", fights.fight_verify, name="fight-verify"),
    *(path(f"fights/<int:fight_id>/{action}", fights.fight_action, {"action": action}, name=f"fight-{action}")
      for action in fights.tracker.ACTIONS),
    # path("url-pattern", imported_python_view),
]

# read by Django
urlpatterns = urlpatterns + evennia_website_urlpatterns
