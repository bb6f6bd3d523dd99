"""Where things are: the project's folders, its `.pog` files, the user's cache.

Kept free of heavy imports: `pogdsl check` answers from its result cache with
only this module, the CLI and the standard library loaded.
"""

from __future__ import annotations

import os
from pathlib import Path

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
    return Path(__file__).resolve().parents[1]


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
        if p.is_dir():
            found.extend(sorted(p.rglob("*.pog")))
        elif p.exists():
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
