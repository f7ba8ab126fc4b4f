"""One word, one meaning, in the texts players read: *rollover* is the
storyteller seed's "rollover successes", a hit's net successes beyond the first (the damage
roll's "(rollover)"); a wound that a full chart turns lethal is said to *turn lethal*, never to
"roll over" (the aeon seed's words, quoted, are the only exception)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEXTS = [ROOT / "README.md", ROOT / "docs" / "rules.md", *sorted((ROOT / "docs" / "rules").glob("*.md")),
         *sorted((ROOT / "rules" / "systems").glob("*/help.toml")), ROOT / "world" / "help_entries.py"]
QUOTED = re.compile(r'"[^"]*"')
ROLLS_OVER = re.compile(r"\broll(s|ed|ing)?\s+over\b", re.IGNORECASE)


def test_no_text_says_a_wound_rolls_over():
    assert len(TEXTS) >= 10
    found = [(path.name, match.group(0)) for path in TEXTS
             for match in ROLLS_OVER.finditer(QUOTED.sub("", path.read_text(encoding="utf-8")))]
    assert found == []


def test_rollover_is_the_storytellers_extra_successes():
    storyteller = (ROOT / "docs" / "rules" / "storyteller.md").read_text(encoding="utf-8")
    assert "*rollover* is\nthe net successes of a hit beyond the first" in storyteller
    aeon = (ROOT / "docs" / "rules" / "aeon.md").read_text(encoding="utf-8")
    assert "which turns the highest remaining bashing wound lethal" in aeon
