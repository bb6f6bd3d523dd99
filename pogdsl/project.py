"""Where things are: the project's folders, its `.pog` files, the user's cache.

Kept free of heavy imports: `pogdsl check` answers from its result cache with
only this module, the CLI and the standard library loaded.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

LIBRARY_DIRS = ("rules", "cards", "scenarios")
SHIPPED = "library"  # pogdsl/library/: the library a built (non-editable) install carries


def _looks_like_root(path: Path) -> bool:
    return os.path.isdir(path / "rules") and os.path.isdir(path / "scenarios")  # (no OSError for a long name)


def _checkout() -> Path | None:
    """The checkout this package runs from (a source tree or an editable
    install), if it is one."""
    folder = Path(__file__).resolve().parents[1]
    return folder if _looks_like_root(folder) else None


def shipped_library() -> Path | None:
    """The library installed with the package: rules/, cards/ and scenarios/
    copied into pogdsl/library/ when the wheel was built (setup.py), found with
    importlib.resources.  None when running from a checkout or an editable
    install, where the checkout's own folders are the library."""
    from importlib.resources import files

    try:
        folder = files(__package__ or "pogdsl").joinpath(SHIPPED)
    except (ModuleNotFoundError, TypeError):
        return None
    # (an install on the file system gives a real path; a zipped one is not supported)
    if isinstance(folder, Path) and (folder / "rules").is_dir():
        return folder.resolve()
    return None


def find_root(start: Path | None = None) -> Path:
    """The project root: $POGDSL_HOME, else the current folder if it holds
    rules/ and scenarios/ (a project) or any of rules/, cards/ and scenarios/
    (a mod, extending the installed library: see `library_files`), else the
    nearest folder up holding rules/ and scenarios/, else the checkout this
    package runs from, else the current folder."""
    env = os.environ.get("POGDSL_HOME")
    if env:
        return Path(env).resolve()
    here = (start or Path.cwd()).resolve()
    # A modder's folder of cards or scenarios extends the library, wherever it
    # lies: one kept inside a checkout (docs/examples/mod) is still its own.
    if _looks_like_root(here) or _own_files(here):
        return here
    for candidate in here.parents:
        if _looks_like_root(candidate):
            return candidate
    return _checkout() or here


def display_path(path: Path, cwd: Path | None = None) -> str:
    """A path as users should see it: relative to the current folder if inside it."""
    cwd = cwd or Path.cwd().resolve()
    absolute = path if path.is_absolute() else cwd / path
    try:
        return str(Path(os.path.normpath(absolute)).relative_to(cwd))
    except ValueError:
        return str(path)


# A game of its own declares the index its citations point into, or its own
# sides: a modder's cards and scenarios do neither, they use the library's.
_OWN_GAME = re.compile(rb"^[ \t]*(?:rulebook|side)[ \t]+[A-Za-z_]", re.MULTILINE)


def is_own_game(root: Path) -> bool:
    """Whether ROOT is a game of its own: its files declare a rulebook (the
    rule index every `cites` refers to), as this checkout does in
    rules/index.pog and docs/examples/toy in rules/world.pog, or sides of
    their own, as a small test game in one scenario file does."""
    from .safe_io import SOURCE_LIMIT, read_bytes

    for path in _own_files(Path(root)):
        try:  # (a FIFO or a device there is skipped, not waited on: the check reports it)
            if _OWN_GAME.search(read_bytes(path, SOURCE_LIMIT, "source")):
                return True
        except OSError:
            continue
    return False


def extended_library(root: Path) -> Path | None:
    """The installed library that ROOT's files extend, if any: the shipped
    library (a built install), or, from a checkout or an editable install,
    the checkout's own folders when ROOT is a modder's folder (it holds `.pog`
    files but not the rules/ and scenarios/ of a project).  None when ROOT is
    that library or a game of its own (`is_own_game`: then ROOT's own folders
    are the whole library)."""
    root = Path(root).resolve()
    base = shipped_library()
    if base is None:
        # (a checkout's library is extended only by a folder that is plainly a
        # mod: a project of its own with rules/ and scenarios/ stands alone)
        checkout = _checkout()
        if checkout is None or _looks_like_root(root) or not _own_files(root):
            return None
        base = checkout
    if root == base or is_own_game(root):
        return None
    return base


def _own_files(root: Path) -> list[Path]:
    files: list[Path] = []
    for sub in LIBRARY_DIRS:
        folder = root / sub
        if folder.is_dir():
            files.extend(sorted(folder.rglob("*.pog")))
    return files


def library_files(root: Path) -> list[Path]:
    """The library's `.pog` files as seen from ROOT: ROOT's rules/, cards/
    and scenarios/, added to the installed library when ROOT extends it
    (`extended_library`); a file of ROOT at the same place as an installed
    one (cards/ap/01-….pog) replaces it."""
    root = Path(root)
    own = _own_files(root)
    base = extended_library(root)
    if base is None:
        return own
    mine = {path.relative_to(root) for path in own}
    return [path for path in _own_files(base) if path.relative_to(base) not in mine] + own


def card_folders(root: Path) -> list[tuple[Path, bool]]:
    """The folders holding the project's own deck, each with whether its
    settings say every card there must have an event: ROOT's cards/, and the
    installed library's when ROOT extends it (with the library's settings)."""
    folders = [Path(root)]
    base = extended_library(root)
    if base is not None:
        folders.append(base)
    return [(folder / "cards", settings(folder).get("require-card-events") is True) for folder in folders]


def settings_files(root: Path) -> list[Path]:
    """The settings files that apply from ROOT (the check's cache keys on them):
    ROOT's, and the installed library's when ROOT extends it."""
    base = extended_library(root)
    files = [settings_file(root)] + ([settings_file(base)] if base is not None else [])
    return [f for f in files if f is not None]


def no_library_hint(root: Path, check: bool = False) -> str:
    """What to do when no `.pog` file was found for ROOT (CHECK: for `pogdsl
    check`, which can also be given files)."""
    hint = ("run pogdsl in a project folder (one holding rules/ and scenarios/), pass --root DIR or set "
            "POGDSL_HOME to a folder holding rules/, cards/ or scenarios/" + (", or name the files to check"
                                                                             if check else ""))
    if _checkout() is None and shipped_library() is None:
        hint += ("; this pogdsl was installed without its library of rules, cards and scenarios: "
                 "reinstall it from a complete checkout (`pip install .`) or from a wheel built from one")
    return hint


def settings(root: Path) -> dict:
    """The project's settings: the `[tool.pogdsl]` table of ROOT/pyproject.toml
    (empty when there is none, or it cannot be read)."""
    path = Path(root) / "pyproject.toml"
    try:
        import tomllib

        from .safe_io import SOURCE_LIMIT, read_text

        data = tomllib.loads(read_text(path, SOURCE_LIMIT, "settings"))
    except (OSError, ValueError):
        return {}
    table = data.get("tool", {}).get("pogdsl", {})
    return table if isinstance(table, dict) else {}


def settings_file(root: Path) -> Path | None:
    """The file `settings` reads, if there is one (the check's cache keys on it)."""
    path = Path(root) / "pyproject.toml"
    return path if path.is_file() else None


def expand(paths: list[Path]) -> tuple[list[Path], list[Path]]:
    """Files named or found under folders; and the paths that do not exist."""
    found: list[Path] = []
    missing: list[Path] = []
    for p in paths:
        if os.path.isdir(p):  # (os.path's tests: a name too long is not there, where Path's raise OSError)
            found.extend(sorted(p.rglob("*.pog")))
        elif os.path.lexists(p):
            found.append(p)
        else:
            missing.append(p)
    return found, missing


def cache_dir() -> Path | None:
    """The user's cache folder ($POGDSL_CACHE_DIR, else $XDG_CACHE_HOME/pogdsl,
    else ~/.cache/pogdsl), or None when it cannot be written: every cache is
    only a speed-up, never needed."""
    base = os.environ.get("POGDSL_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "pogdsl"
    )
    path = Path(base)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return path if os.access(path, os.W_OK) else None
