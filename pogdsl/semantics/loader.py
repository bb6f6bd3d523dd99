"""Finding and reading `.pog` files: the project library and a user's own files.

The library is the project's `rules/`, `cards/` and `scenarios/`.  A modder's
file is always checked together with the library, so a card can name Paris
without redeclaring France.  Reading never raises for a user's mistake: a
missing, binary or undecodable file becomes a diagnostic.
"""

from __future__ import annotations

import os
from pathlib import Path

from attrs import define, field

from ..diagnostics import Reporter, Sources
from ..syntax import ast as A
from ..syntax.parser import ParseCache

LIBRARY_DIRS = ("rules", "cards", "scenarios")


def _looks_like_root(path: Path) -> bool:
    return (path / "rules").is_dir() and (path / "scenarios").is_dir()


def find_root(start: Path | None = None) -> Path:
    """The project root: $POGDSL_HOME, else the nearest folder up from the
    current one holding rules/ and scenarios/, else the checkout this package
    was installed from."""
    env = os.environ.get("POGDSL_HOME")
    if env:
        return Path(env).resolve()
    here = (start or Path.cwd()).resolve()
    for candidate in (here, *here.parents):
        if _looks_like_root(candidate):
            return candidate
    return Path(__file__).resolve().parents[2]


def display_path(path: Path, cwd: Path | None = None) -> str:
    """A path as users should see it: relative to the current folder if inside it."""
    cwd = cwd or Path.cwd().resolve()
    absolute = path if path.is_absolute() else cwd / path
    try:
        return str(Path(os.path.normpath(absolute)).relative_to(cwd))
    except ValueError:
        return str(path)


def library_files(root: Path) -> list[Path]:
    files: list[Path] = []
    for sub in LIBRARY_DIRS:
        folder = root / sub
        if folder.is_dir():
            files.extend(sorted(folder.rglob("*.pog")))
    return files


def expand(paths: list[Path]) -> tuple[list[Path], list[Path]]:
    """Files named or found under folders; and the paths that do not exist."""
    found: list[Path] = []
    missing: list[Path] = []
    for p in paths:
        if p.is_dir():
            found.extend(sorted(p.rglob("*.pog")))
        elif p.exists():
            found.append(p)
        else:
            missing.append(p)
    return found, missing


@define
class Loaded:
    modules: list[A.Module] = field(factory=list)
    sources: Sources = field(factory=Sources)
    reporter: Reporter = field(factory=Reporter)
    files: list[str] = field(factory=list)


def read_source(path: Path, shown: str, reporter: Reporter) -> str | None:
    try:
        data = path.read_bytes()
    except OSError as err:
        reporter.error("E0001", f"cannot read the file: {err.strerror or err}", A.Span(shown, 0, 0, 0, 0))
        return None
    if b"\0" in data:
        reporter.error("E0001", "this is a binary file, not a .pog source", A.Span(shown, 0, 0, 0, 0),
                       "only text files written in the pogdsl language can be checked")
        return None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        reporter.error("E0001", "the file is not valid UTF-8 text", A.Span(shown, line, 1, line, 2),
                       "save the file as UTF-8")
        return None
    return text


def load(paths: list[Path], loaded: Loaded | None = None) -> Loaded:
    """Parse files (each once), collecting their modules and diagnostics."""
    loaded = loaded or Loaded()
    seen = set(loaded.files)
    cwd = Path.cwd().resolve()
    cache = ParseCache()
    for path in paths:
        shown = display_path(path, cwd)
        if shown in seen:
            continue
        seen.add(shown)
        loaded.files.append(shown)
        text = read_source(path, shown, loaded.reporter)
        if text is None:
            continue
        loaded.sources.add(shown, text)
        if not text.strip():
            loaded.reporter.warning("W0704", "the file is empty", A.Span(shown, 0, 0, 0, 0))
            continue
        module, diags = cache.parse(text, shown)
        loaded.reporter.extend(diags)
        loaded.modules.append(module)
    cache.save()
    return loaded
