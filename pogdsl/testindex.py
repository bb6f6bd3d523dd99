"""Which tests name which rule (or card): a static scan of test sources.

Tests say what they check with pytest markers whose first argument is a
string, e.g. ``@pytest.mark.rule("12.4.3")`` or ``@pytest.mark.card("AP 33")``.
A rule of a rulebook other than the main one is written as a citation shows
it: the rulebook's name, a space, the number (``@pytest.mark.rule("soe 12.4.6")``).
This module reads the test files with :mod:`ast` -- it never imports or runs
them -- and maps every value of one marker to the tests carrying it::

    >>> index = marked_tests(Path("tests"), "rule")
    >>> [t.id for t in index["12.4.3"]]
    ['tests/rules/test_combat.py::test_12_4_3_...']

Understood forms, for any marker name ``m``:

* a decorator on a test function or method: ``@pytest.mark.m("x")``, also
  ``@mark.m("x")`` after ``from pytest import mark``;
* a decorator on a test class (every test method of the class carries it);
* a module-level ``pytestmark = pytest.mark.m("x")`` or a list/tuple of
  markers (every test of the module carries them);
* ``pytest.param(..., marks=pytest.mark.m("x"))`` in a parametrize, written
  in the decorator or in a module-level list the decorator names (the whole
  test function counts as naming it).

Markers built at run time (computed values, fixtures) are not seen: write
the value literally.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, order=True)
class MarkedTest:
    path: str  # the test file, relative to the scanned folder's base (posix)
    name: str  # "test_x" or "TestClass::test_x"
    line: int

    @property
    def id(self) -> str:
        """The pytest node id: ``path::name``."""
        return f"{self.path}::{self.name}"


def marker_values(node: ast.expr, marker: str) -> list[str]:
    """The string arguments of every ``<...>.mark.<marker>("...")`` call in
    a decorator or ``pytestmark`` expression (lists and tuples are opened)."""
    if isinstance(node, (ast.List, ast.Tuple)):
        return [v for elt in node.elts for v in marker_values(elt, marker)]
    if not isinstance(node, ast.Call):
        return []
    f = node.func
    if not (isinstance(f, ast.Attribute) and f.attr == marker and _is_mark(f.value)):
        return []
    return [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]


def _is_mark(node: ast.expr) -> bool:
    return (isinstance(node, ast.Name) and node.id == "mark") or (
        isinstance(node, ast.Attribute) and node.attr == "mark")


def scan_source(source: str, path: str, marker: str) -> list[tuple[str, MarkedTest]]:
    """(value, test) pairs for one test file's source text."""
    tree = ast.parse(source, filename=path)
    module_values: list[str] = []
    assigned: dict[str, ast.expr] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign):
            for t in stmt.targets:
                if isinstance(t, ast.Name):
                    assigned[t.id] = stmt.value
            if any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in stmt.targets):
                module_values += marker_values(stmt.value, marker)
    found: list[tuple[str, MarkedTest]] = []

    def decorator_values(decorators) -> list[str]:
        # Markers anywhere in a decorator, pytest.param(..., marks=...) of a
        # parametrize included, and in a module-level list of cases the
        # decorator names (`@pytest.mark.parametrize("x", CASES)`).
        nodes = list(decorators)
        for d in decorators:
            nodes += [assigned[n.id] for n in ast.walk(d) if isinstance(n, ast.Name) and n.id in assigned]
        return [v for node in nodes for sub in ast.walk(node) for v in marker_values(sub, marker)
                if not isinstance(sub, (ast.List, ast.Tuple))]

    def visit(body, prefix: str, inherited: list[str]) -> None:
        for stmt in body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name.startswith("test"):
                values = inherited + decorator_values(stmt.decorator_list)
                test = MarkedTest(path, prefix + stmt.name, stmt.lineno)
                for v in dict.fromkeys(values):
                    found.append((v, test))
            elif isinstance(stmt, ast.ClassDef) and stmt.name.startswith("Test"):
                values = inherited + decorator_values(stmt.decorator_list)
                visit(stmt.body, f"{prefix}{stmt.name}::", values)

    visit(tree.body, "", module_values)
    return found


def marker_value(value: str) -> str:
    """A marker's argument written the one way: surrounding space dropped and
    inner runs of space made one, so ``rule("soe  12.4.6")`` and
    ``rule("soe 12.4.6")`` (a rule of rulebook soe, as `cites soe 12.4.6`
    shows it) name the same rule."""
    return " ".join(str(value).split())


def test_files(folder: Path) -> list[Path]:
    """The files pytest would collect by default under `folder`."""
    folder = Path(folder)
    if folder.is_file():
        return [folder]
    files = set(folder.rglob("test_*.py")) | set(folder.rglob("*_test.py"))
    return sorted(f for f in files if not any(part.startswith(".") for part in f.relative_to(folder).parts))


def scan_folder(folder: Path, marker: str, base: Path | None = None):
    """(value, test) pairs of every test file under `folder`, and the files
    that could not be read ("path: why").  Paths are relative to `base`
    (default: the parent of `folder`, so ids start with "tests/")."""
    folder = Path(folder)
    base = Path(base) if base is not None else folder.resolve().parent
    pairs: list[tuple[str, MarkedTest]] = []
    unreadable: list[str] = []
    for f in test_files(folder) if folder.exists() else []:
        try:
            rel = f.resolve().relative_to(base.resolve()).as_posix()
        except ValueError:
            rel = f.as_posix()
        try:
            pairs += scan_source(f.read_text(encoding="utf-8"), rel, marker)
        except (SyntaxError, UnicodeDecodeError, OSError) as err:
            unreadable.append(f"{rel}: {err}")
    return pairs, unreadable


def marked_tests(folder: Path, marker: str, base: Path | None = None) -> dict[str, list[MarkedTest]]:
    """For every test file under `folder`, map each value of `marker` to the
    tests naming it (sorted by path, then line); files that do not parse are
    skipped."""
    index: dict[str, list[MarkedTest]] = {}
    for value, test in scan_folder(folder, marker, base)[0]:
        index.setdefault(marker_value(value), []).append(test)
    for tests in index.values():
        tests.sort(key=lambda t: (t.path, t.line))
    return index
