"""Finding and reading `.pog` files: the project library and a user's own files.

The library is the project's `rules/`, `cards/` and `scenarios/`.  A modder's
file is always checked together with the library, so a card can name Paris
without redeclaring France.  Reading never raises for a user's mistake: a
missing, binary or undecodable file becomes a diagnostic.
"""

from __future__ import annotations

from pathlib import Path

from attrs import define, field

from ..diagnostics import Reporter, Sources
from ..project import LIBRARY_DIRS, display_path, expand, find_root, library_files
from ..safe_io import SOURCE_LIMIT, read_bytes
from ..syntax import ast as A
from ..syntax.parser import ParseCache, normalise_line_ends

__all__ = ["LIBRARY_DIRS", "Loaded", "display_path", "expand", "find_root", "library_files", "load"]

@define
class Loaded:
    modules: list[A.Module] = field(factory=list)
    sources: Sources = field(factory=Sources)
    reporter: Reporter = field(factory=Reporter)
    files: list[str] = field(factory=list)


def read_source(path: Path, shown: str, reporter: Reporter, unsaved: str | None = None) -> str | None:
    """The file's text; `unsaved`: an editor's buffer read in its place (the
    language server), held to the same limits as the file."""
    try:
        if unsaved is not None:
            data = unsaved.encode("utf-8", "replace")
            if len(data) > SOURCE_LIMIT:
                raise OSError(f"the text is larger than a source may be ({SOURCE_LIMIT // (1024 * 1024)} MiB)")
        else:
            data = read_bytes(path, SOURCE_LIMIT, "source")
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
    return normalise_line_ends(text)


def load(paths: list[Path], loaded: Loaded | None = None, unsaved: dict[Path, str] | None = None) -> Loaded:
    """Parse files (each once), collecting their modules and diagnostics.
    `unsaved`: text to read instead of a file's, by the file's resolved path."""
    loaded = loaded or Loaded()
    seen = set(loaded.files)
    cwd = Path.cwd().resolve()
    cache = ParseCache()
    to_parse: list[tuple[str, str]] = []
    for path in paths:
        shown = display_path(path, cwd)
        if shown in seen:
            continue
        seen.add(shown)
        loaded.files.append(shown)
        text = read_source(path, shown, loaded.reporter, unsaved.get(path.resolve()) if unsaved else None)
        if text is None:
            continue
        loaded.sources.add(shown, text)
        if not text.strip():
            loaded.reporter.warning("W0704", "the file is empty", A.Span(shown, 0, 0, 0, 0))
            continue
        to_parse.append((text, shown))
    for module, diags in cache.parse_many(to_parse):
        loaded.reporter.extend(diags)
        loaded.modules.append(module)
    cache.save()
    return loaded
