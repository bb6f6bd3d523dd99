"""Which tests name which card, read from the test sources without running them.

A test says which strategy card it checks with a pytest marker,
``@pytest.mark.card("AP 33")`` (registered in tests/conftest.py).  This module
reads ``tests/**/*.py`` with Python's `ast` and finds those markers on test
functions, on test classes (they apply to every test of the class) and in a
module's ``pytestmark`` (every test of the module), also inside
``pytest.param(..., marks=...)`` of a parametrize, written in the decorator
or in a module-level list it names (the whole test function is then counted).  Nothing is imported or executed, so it is fast and safe on a
broken test file (a file that does not parse is skipped and reported).

Used by `pogdsl cards`, the card catalogue of the docs and
benchmarks/card_mutation.py.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

from attrs import define, field

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


def _is_mark(node: ast.AST, name: str) -> bool:
    """`pytest.mark.NAME` or `mark.NAME` (the callee of a marker call)."""
    return isinstance(node, ast.Attribute) and node.attr == name and (
        (isinstance(node.value, ast.Attribute) and node.value.attr == "mark")
        or (isinstance(node.value, ast.Name) and node.value.id == "mark"))


def _marks_in(node: ast.AST, name: str) -> Iterable[ast.Call]:
    """Every `pytest.mark.NAME(...)` call anywhere inside `node`."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and _is_mark(sub.func, name):
            yield sub


def _arguments(calls: Iterable[ast.Call], path: str, bad: list[str]) -> list[str]:
    out = []
    for call in calls:
        for arg in call.args:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                out.append(arg.value)
            else:
                bad.append(f"{path}:{call.lineno}: the marker's argument is not a plain string")
    return out


def scan_file(path: Path, shown: str, name: str = "card") -> tuple[dict[str, set[str]], list[str]]:
    """node id → marker arguments, for one test file; and the problems."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    bad: list[str] = []
    module_level: list[str] = []
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark"
                                                for t in stmt.targets):
            module_level += _arguments(_marks_in(stmt.value, name), shown, bad)
    found: dict[str, set[str]] = {}
    # A parametrize often takes its cases from a list written at module level
    # (`CASES = [pytest.param(..., marks=pytest.mark.card("AP 1")), ...]`):
    # a name in a decorator is followed to that list.
    module_values = {t.id: stmt.value for stmt in tree.body if isinstance(stmt, ast.Assign)
                     for t in stmt.targets if isinstance(t, ast.Name)}

    def decorator_marks(decorators) -> list[str]:
        nodes = list(decorators)
        for d in decorators:
            nodes += [module_values[n.id] for n in ast.walk(d)
                      if isinstance(n, ast.Name) and n.id in module_values]
        return _arguments((c for node in nodes for c in _marks_in(node, name)), shown, bad)

    def visit(body, prefix: str, inherited: list[str]) -> None:
        for stmt in body:
            if isinstance(stmt, ast.ClassDef) and stmt.name.startswith("Test"):
                own = decorator_marks(stmt.decorator_list)
                visit(stmt.body, f"{prefix}::{stmt.name}", inherited + own)
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name.startswith("test"):
                own = decorator_marks(stmt.decorator_list)
                args = inherited + own
                if args:
                    found.setdefault(f"{prefix}::{stmt.name}", set()).update(args)

    visit(tree.body, shown, module_level)
    return found, bad


def scan_tests(folder: Path, relative_to: Path | None = None, name: str = "card") -> MarkerScan:
    """Scan every test_*.py / *_test.py under FOLDER for `pytest.mark.NAME`
    markers.  Node ids are relative to RELATIVE_TO (default: FOLDER's parent,
    the project root, as pytest writes them)."""
    scan = MarkerScan()
    folder = Path(folder)
    base = Path(relative_to) if relative_to is not None else folder.resolve().parent
    if not folder.is_dir():
        return scan
    by_key: dict[str, set[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        if not (path.name.startswith("test_") or path.name.endswith("_test.py")):
            continue
        try:
            shown = path.resolve().relative_to(base.resolve()).as_posix()
        except ValueError:
            shown = path.as_posix()
        try:
            found, bad = scan_file(path, shown, name)
        except (SyntaxError, UnicodeDecodeError, OSError) as err:
            scan.unreadable.append(f"{shown}: {err}")
            continue
        scan.bad += bad
        for node, args in found.items():
            for arg in args:
                key = card_key(arg) if name == "card" else arg.strip()
                if key is None:
                    scan.bad.append(f"{node}: marker {name}({arg!r}) is not a card's side and number, "
                                    "e.g. \"AP 33\"")
                    continue
                by_key.setdefault(key, set()).add(node)
    scan.tests = {k: sorted(v) for k, v in sorted(by_key.items())}
    return scan
