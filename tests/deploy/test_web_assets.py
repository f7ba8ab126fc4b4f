"""The website and webclient load third-party files only from the game:
every vendor file a template or the font plugin names is one ``server/vendor.py`` installs,
and no template loads a script, stylesheet or font from elsewhere. (The browser test,
tests/e2e/test_webclient.py, proves it with the network blocked.)"""

import json
import re
from pathlib import Path

from server import vendor

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted((ROOT / "web" / "templates").rglob("*.html"))
FONT_PLUGIN = ROOT / "web" / "static" / "webclient" / "js" / "plugins" / "font.js"


def test_every_vendor_file_named_is_installed():
    named = set()
    for template in TEMPLATES:
        named |= set(re.findall(r'{% static "vendor/([^"]+)" %}', template.read_text()))
    assert named, "the base templates load vendor files"
    assert named <= set(vendor.FILES), named - set(vendor.FILES)
    fonts = set(re.findall(r'"/static/vendor/fonts/([^/"]+)/index\.css"', FONT_PLUGIN.read_text()))
    assert fonts == set(vendor.FONTS)


def test_no_template_loads_anything_from_outside():
    for template in TEMPLATES:
        loads = re.findall(r'<(?:script|link)[^>]*(?:src|href)=["\']?(https?:)?//', template.read_text())
        assert not loads, template
    assert "https://" not in FONT_PLUGIN.read_text()


def test_the_packages_are_pinned_and_locked_with_their_hashes():
    manifest = json.loads((ROOT / "package.json").read_text())
    lock = json.loads((ROOT / "package-lock.json").read_text())
    for name, spec in manifest["dependencies"].items():
        assert re.fullmatch(r"(npm:[\w@/.-]+@)?\d+\.\d+\.\d+(-[\w.]+)?", spec), (name, spec)
        assert lock["packages"][f"node_modules/{name}"]["integrity"].startswith("sha512-"), name
    wanted = {src.split("/")[0] if not src.startswith("@") else "/".join(src.split("/")[:2])
              for src in vendor.FILES.values()} | {f"@fontsource/{font}" for font in vendor.FONTS}
    assert wanted <= set(manifest["dependencies"]), wanted - set(manifest["dependencies"])


def test_a_missing_package_is_one_line(tmp_path):
    try:
        vendor.copy(tmp_path / "node_modules", tmp_path / "vendor")
    except SystemExit as stop:
        assert "is missing; run `npm ci`" in str(stop) and "\n" not in str(stop)
    else:
        raise AssertionError("copy() without node_modules must stop")
    assert not (tmp_path / "vendor").exists()
