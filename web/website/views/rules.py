"""The rules reference on the website: ``/rules/`` is ``docs/rules.md`` (the index) and
``/rules/<system>/`` is ``docs/rules/<system>.md`` (``storyteller``, ``aeon``, ``eldritch``,
``elethril``), the pages the in-game help names (``world/help_entries.py``).

The Markdown is rendered by markdown-it-py (CommonMark, with tables) with raw HTML off: any HTML
in a page is shown as text, and links with a script scheme are not made. Headings get the ids
GitHub gives them, so a page's ``(#data-options)`` links work; a link to another rules page
(``rules/aeon.md``, ``aeon.md``) goes to its page here. Only those files are served; anything
else is a 404. Anyone may read them, as anyone may read the help.
"""

from __future__ import annotations

import re
from pathlib import Path

from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe
from markdown_it import MarkdownIt

GAME_DIR = Path(__file__).resolve().parents[3]
#: The pages served: a system's key (or "" for the index) → its Markdown file in the game dir.
PAGES = {"": Path("docs/rules.md"),
         **{path.stem: path.relative_to(GAME_DIR) for path in sorted((GAME_DIR / "docs/rules").glob("*.md"))}}
#: A link to another rules page: ``rules/aeon.md``, ``aeon.md`` or ``../rules.md``, with an anchor.
PAGE_LINK = re.compile(r"^(?:\.\./|rules/)?(?P<name>[a-z0-9_-]+)\.md(?P<anchor>#[\w-]*)?$")


def _slug(text: str, taken: dict[str, int]) -> str:
    """GitHub's heading id: lower case, punctuation dropped, spaces to hyphens; a repeat gets -1, -2..."""
    slug = re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")
    count = taken.get(slug, 0)
    taken[slug] = count + 1
    return f"{slug}-{count}" if count else slug


def _page_url(name: str) -> str | None:
    key = "" if name == "rules" else name
    if key not in PAGES:
        return None
    return reverse("rules-index") if key == "" else reverse("rules-page", args=[key])


def _ids_links_tables(state) -> None:
    """markdown-it core rule: heading ids, rules-page links to their pages, Bootstrap tables."""
    taken: dict[str, int] = {}
    for index, token in enumerate(state.tokens):
        if token.type == "heading_open":
            inline = state.tokens[index + 1]
            text = "".join(child.content for child in inline.children or () if child.type in ("text", "code_inline"))
            token.attrSet("id", _slug(text, taken))
        elif token.type == "table_open":
            token.attrSet("class", "table table-sm table-bordered")
        elif token.type == "inline":
            for child in token.children or ():
                if child.type == "link_open" and (found := PAGE_LINK.match(str(child.attrGet("href") or ""))):
                    url = _page_url(found["name"])
                    if url is not None:
                        child.attrSet("href", url + (found["anchor"] or ""))


MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")
MARKDOWN.core.ruler.push("fray_rules_pages", _ids_links_tables)


def render_page(key: str) -> tuple[str, str]:
    """The page's title (its first heading) and its HTML. Raises KeyError for an unknown page."""
    text = (GAME_DIR / PAGES[key]).read_text(encoding="utf-8")
    title = next((line.lstrip("#").strip().replace("`", "") for line in text.splitlines() if line.startswith("# ")), "Rules")
    return title, MARKDOWN.render(text)


@require_safe
def rules_page(request, system: str = ""):
    if system not in PAGES:
        raise Http404("No such rules page.")
    title, html = render_page(system)
    return render(request, "website/rules.html", {
        "title": title, "html": html, "system": system, "systems": [key for key in PAGES if key],
        "source": PAGES[system].as_posix(), "page_title": title})
