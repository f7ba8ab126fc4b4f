"""The project names its own things: code, tests and docs say which seed rule, which page of
``docs/`` or which behaviour they mean, never an entry of a tracker outside the repository
(the word "issue" and its number)."""

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUFFIXES = {".py", ".md", ".toml", ".js", ".html", ".cfg"}
#: Third-party or generated trees, not the project's words.
SKIPPED = {".venv", "node_modules", "vendor", ".git", "__pycache__"}
#: The word ("issue", "Issues") and a number after it, or on the next line of a ``#`` comment.
TRACKER_ENTRY = re.compile(r"\bissues?(?:[ \t]*\n[ \t]*#)?[ \t]+[0-9]", re.IGNORECASE)


def project_files():
    for folder, subfolders, names in os.walk(ROOT):
        subfolders[:] = sorted(name for name in subfolders if name not in SKIPPED)
        for name in sorted(names):
            if Path(name).suffix in SUFFIXES or name == "Makefile":
                yield Path(folder) / name


def test_no_file_points_to_a_tracker_entry():
    found = []
    for path in project_files():
        text = path.read_text(errors="replace")
        found += [f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, entry.start()) + 1}: {entry.group()!r}"
                  for entry in TRACKER_ENTRY.finditer(text)]
    assert found == []


def test_the_check_sees_a_tracker_entry_across_a_line_break_too():
    assert TRACKER_ENTRY.search("the damage intended for the Boss (Issue\n        # 17 item 4)")
    assert TRACKER_ENTRY.search("played in full (issues" " 17 and 18)")
    assert not TRACKER_ENTRY.search("evennia issue #3857; an issue of taste; 2 issues\n3 more")
