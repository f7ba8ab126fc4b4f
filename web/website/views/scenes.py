"""Scene logs on the web (``world.scenes``): ``/scenes/`` lists them, ``/scenes/<id>/`` shows
one, ``/scenes/<id>/text`` downloads it as plain text.

Who may read: any logged-in account (an anonymous visitor is sent to the login page), as
anyone may read any scene in the game (``+scene/log #<id>``). Only GET and HEAD are served
(anything else: 405). Player text goes through Django's template escaping.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from world import scenes
from world.models import Scene, SceneEntry

SCENES_PER_PAGE = 50
ENTRIES_PER_PAGE = 500


def _scene(scene_id: int) -> Scene:
    scene = Scene.objects.filter(pk=scene_id).first()
    if scene is None:
        raise Http404("No such scene.")
    return scene


@require_safe
@login_required
def scene_list(request):
    page = Paginator(Scene.objects.order_by("-id"), SCENES_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "website/scene_list.html", {"page_obj": page, "scenes": page.object_list,
                                                       "page_title": "Scenes"})


@require_safe
@login_required
def scene_detail(request, scene_id: int):
    scene = _scene(scene_id)
    page = Paginator(SceneEntry.objects.filter(scene=scene).order_by("number"),
                     ENTRIES_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "website/scene_detail.html", {
        "scene": scene, "page_obj": page, "entries": page.object_list, "status": scenes.status(scene),
        "page_title": f"Scene #{scene.id}"})


@require_safe
@login_required
def scene_text(request, scene_id: int):
    scene = _scene(scene_id)
    response = HttpResponse(scenes.as_text(scene), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="scene-{scene.id}.txt"'
    return response
