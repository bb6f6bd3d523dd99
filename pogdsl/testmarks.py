"""Which tests name which card, read from the test sources without running them.

A test says which strategy card it checks with a pytest marker,
``@pytest.mark.card("AP 33")`` (registered in tests/conftest.py).  The test
sources are read by pogdsl.testindex (Python's `ast`, nothing imported or
run; the forms it understands are listed there); this module writes card
keys one way and reports markers that name no card and files that do not
parse.

Used by `pogdsl cards`, the card catalogue of the docs and
benchmarks/card_mutation.py.
"""

from __future__ import annotations

import re
from pathlib import Path

from attrs import define, field

from .testindex import marker_value, scan_folder

_KEY = re.compile(r"^\s*([A-Za-z]+)\s*#?\s*(\d+)\s*$")


def card_key(text: str) -> str | None:
    """A marker's argument written the one way: `ap 33` → `AP 33` (None if it
    is not side and number)."""
    m = _KEY.match(str(text))
    return f"{m.group(1).upper()} {int(m.group(2))}" if m else None


@define
class MarkerScan:
    """What a scan found: marker argument → test node ids (sorted, unique)."""

    tests: dict[str, list[str]] = field(factory=dict)
    bad: list[str] = field(factory=list)       # "file:line: why" for markers that name no card key
    unreadable: list[str] = field(factory=list)  # test files that do not parse

    def for_card(self, key: str) -> list[str]:
        return self.tests.get(key, [])


def scan_tests(folder: Path, relative_to: Path | None = None, name: str = "card") -> MarkerScan:
    """Scan every test_*.py / *_test.py under FOLDER for `pytest.mark.NAME`
    markers (the generic reading of pogdsl.testindex), card markers written
    the one way (`ap 33` → `AP 33`).  Node ids are relative to RELATIVE_TO
    (default: FOLDER's parent, the project root, as pytest writes them)."""
    scan = MarkerScan()
    if not Path(folder).is_dir():
        return scan
    pairs, scan.unreadable = scan_folder(folder, name, relative_to)
    by_key: dict[str, set[str]] = {}
    for arg, test in pairs:
        key = card_key(arg) if name == "card" else marker_value(arg)
        if key is None:
            scan.bad.append(f"{test.id}: marker {name}({arg!r}) is not a card's side and number, "
                            "e.g. \"AP 33\"")
            continue
        by_key.setdefault(key, set()).add(test.id)
    scan.tests = {k: sorted(v) for k, v in sorted(by_key.items())}
    return scan
