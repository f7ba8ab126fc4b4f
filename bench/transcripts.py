"""Two versions' e2e fights, compared line by line: what every telnet client received.

    FRAY_E2E_TRANSCRIPTS=/tmp/before .venv/bin/python -m pytest tests/e2e/test_storyteller_fight.py ...
    (the same tests in the other version's checkout, into /tmp/after)
    .venv/bin/python bench/transcripts.py /tmp/before /tmp/after

The e2e harness keeps each client's transcript when ``FRAY_E2E_TRANSCRIPTS`` names a
directory (``tests/e2e/harness.py``, ``keep_transcript``). What differs from run to run is
masked before comparing: seeds, commitments and passwords (long hex), the random suffix of the tests' names, clock times and dates,
durations, ports, dbrefs of objects made at run time and random dice where a test does not
force them. Prints, for each file in both directories, ``same`` or its differing lines (a
unified diff of the masked text), and a summary; exits 0 when every file is the same, 1
otherwise. A tool for a reviewer, not a test.
"""

from __future__ import annotations

import difflib
import re
import sys
from pathlib import Path

MASKS = (
    (re.compile(r"[0-9a-f]{12,}"), "~hex~"),   # dice seeds and commitments, passwords
    (re.compile(r"(?m)^(\s+)[0-9a-f]{4,}$"), r"\1~hex~"),   # a seed's end, wrapped to its own line
    (re.compile(r"(?<=[A-Za-z])[0-9a-f]{6}(?![0-9a-f])"), "~name~"),   # the tests' name suffixes
    (re.compile(r"\d{4}-\d\d-\d\d"), "~date~"),
    (re.compile(r"\d\d?:\d\d(:\d\d)?(\.\d+)?"), "~time~"),
    (re.compile(r"\b\d+(\.\d+)? ?(ms|s|seconds?|minutes?)\b"), "~duration~"),
    (re.compile(r"(?i)\b(idle|on for|conn)\S*\s+\S+"), "~idle~"),
)


def masked(text: str) -> list[str]:
    """``text``'s lines with what differs from run to run masked."""
    for pattern, mask in MASKS:
        text = pattern.sub(mask, text)
    return text.splitlines()


def stem(path: Path) -> str:
    return MASKS[2][0].sub("~name~", path.stem)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[0])
        print("usage: bench/transcripts.py <before-dir> <after-dir>")
        return 2
    before, after = ({stem(p): p for p in Path(d).glob("*.txt")} for d in argv)
    differing = 0
    for name in sorted(before.keys() & after.keys()):
        old, new = masked(before[name].read_text()), masked(after[name].read_text())
        if old == new:
            print(f"same  {name} ({len(new)} lines)")
            continue
        differing += 1
        print(f"DIFF  {name}")
        for line in difflib.unified_diff(old, new, "before", "after", n=1, lineterm=""):
            print(f"      {line}")
    for name in sorted(before.keys() ^ after.keys()):
        print(f"ONLY  {name} ({'before' if name in before else 'after'})")
    both = len(before.keys() & after.keys())
    print(f"{both - differing} of {both} transcripts the same; {differing} differ; "
          f"{len(before.keys() ^ after.keys())} in one only")
    return 0 if differing == 0 and before.keys() == after.keys() else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
