"""Third-party web assets (jQuery, Bootstrap, Popper, GoldenLayout, favico.js and the
webclient's monospace fonts) served by the game itself, so the website and the webclient work
with no outside network.

``make install`` runs ``npm ci`` on ``package.json`` / ``package-lock.json`` (exact versions;
npm checks every package against the sha512 ``integrity`` in the lock file and refuses a
mismatch), then ``python -m server.vendor``, which copies the files below from
``node_modules/`` into ``web/static/vendor/`` (untracked), where Django's static files (and
Evennia's ``collectstatic`` at start) find them. ``web/templates/*/base.html`` load them from
there, and the webclient's font plugin (``web/static/webclient/js/plugins/font.js``) loads the
fonts from ``vendor/fonts/<font>/index.css``. Nothing third-party is committed. See docs/architecture.md, "Web assets".

Raises SystemExit with one line naming the missing file when ``npm ci`` has not run.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NODE_MODULES = ROOT / "node_modules"
TARGET = ROOT / "web" / "static" / "vendor"

#: static path under vendor/ -> file under node_modules/ (the package versions are the ones
#: Evennia 5's templates name: the webclient's Bootstrap 4.0.0-beta and Popper 1.11.0, the
#: website's Bootstrap 4.6.0 with the Popper it needs, 1.16.1).
FILES = {
    "jquery/jquery.min.js": "jquery/dist/jquery.min.js",
    "jquery/jquery.slim.min.js": "jquery/dist/jquery.slim.min.js",
    "bootstrap/css/bootstrap.min.css": "bootstrap/dist/css/bootstrap.min.css",
    "bootstrap/js/bootstrap.min.js": "bootstrap/dist/js/bootstrap.min.js",
    "popper/popper.min.js": "popper.js/dist/umd/popper.min.js",
    "webclient/bootstrap.min.css": "bootstrap-webclient/dist/css/bootstrap.min.css",
    "webclient/bootstrap.min.js": "bootstrap-webclient/dist/js/bootstrap.min.js",
    "webclient/popper.min.js": "popper.js-webclient/dist/umd/popper.min.js",
    "golden-layout/goldenlayout.min.js": "golden-layout/dist/goldenlayout.min.js",
    "golden-layout/goldenlayout-base.css": "golden-layout/src/css/goldenlayout-base.css",
    "golden-layout/goldenlayout-dark-theme.css": "golden-layout/src/css/goldenlayout-dark-theme.css",
    "favico/favico.min.js": "favico.js/favico-0.3.10.min.js",
}

#: The webclient's font choices (its font plugin): Fontsource packages, each an ``index.css``
#: (weight 400, every subset) and the files it names, under vendor/fonts/<package>/.
FONTS = ("b612-mono", "fira-mono", "inconsolata", "roboto-mono", "source-code-pro", "ubuntu-mono")
_FONT_FILE = re.compile(r"url\(\./(files/[^)]+)\)")


def font_files(node_modules: Path = NODE_MODULES) -> dict[str, str]:
    """``FILES``-style entries for every font: index.css and each file it names (empty for a
    font whose package is missing: ``copy`` then names its index.css)."""
    entries = {}
    for font in FONTS:
        css = node_modules / "@fontsource" / font / "index.css"
        entries[f"fonts/{font}/index.css"] = f"@fontsource/{font}/index.css"
        if css.is_file():
            for name in sorted(set(_FONT_FILE.findall(css.read_text(encoding="utf-8")))):
                entries[f"fonts/{font}/{name}"] = f"@fontsource/{font}/{name}"
    return entries


def copy(node_modules: Path = NODE_MODULES, target: Path = TARGET) -> list[Path]:
    """Copy every file of ``FILES`` and the fonts; returns the written paths. Raises SystemExit
    (one line) when a source file is missing."""
    files = {**FILES, **font_files(node_modules)}
    missing = [src for src in files.values() if not (node_modules / src).is_file()]
    if missing:
        raise SystemExit(f"!!! web assets: {node_modules / missing[0]} is missing; run `npm ci` "
                         "in the game dir (make install does).")
    written = []
    for dest, src in files.items():
        path = target / dest
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(node_modules / src, path)
        written.append(path)
    return written


if __name__ == "__main__":
    paths = copy()
    print(f">>> web assets: {len(paths)} files in {TARGET.relative_to(ROOT)}/", file=sys.stderr)
