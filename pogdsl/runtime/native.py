"""Which runtime modules run compiled.

Installing the project compiles the runtime's hottest modules with Cython
(setup.py): the same Python source, built as extension modules beside it,
which Python then prefers.  A compiled module is used only while it was
built from the source beside it as that source is now (setup.py records the
sha256 of each source it built in `_built.json`): a module edited since the
last install runs from its source, correct and only slower, until
`pip install -e .` builds it again.  `POGDSL_PURE=1` runs every module from
its source (to profile with py-spy, which does not see into compiled code,
or to compare).  Results never depend on it: the tests play the same seeded
game both ways."""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGE = __name__.rpartition(".")[0]
BUILT = "_built.json"


def pure() -> bool:
    """Whether POGDSL_PURE asks for every module from its source."""
    return os.environ.get("POGDSL_PURE", "") not in ("", "0")


class SourceWhenStale(importlib.abc.MetaPathFinder):
    """For the modules of one package: the source file, unless an extension
    module built from that very source (its sha256 recorded in `built`)
    stands beside it; then Python's own finder takes the extension."""

    def __init__(self, package: str, folder: Path, built: dict[str, str], everything_from_source: bool):
        self.package = package
        self.folder = folder
        self.built = built
        self.everything_from_source = everything_from_source

    def find_spec(self, fullname: str, path=None, target=None):
        package, _, name = fullname.rpartition(".")
        if package != self.package or not _has_extension(self.folder, name):
            return None
        source = self.folder / f"{name}.py"
        if not source.is_file():
            return None
        if not self.everything_from_source and self.built.get(name) == _sha256(source):
            return None  # built from this source: the extension it is
        return importlib.util.spec_from_file_location(fullname, source)


def _has_extension(folder: Path, name: str) -> bool:
    return any((folder / (name + suffix)).is_file() for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_built(folder: Path) -> dict[str, str]:
    """The sources the extensions beside them were built from (empty when
    nothing was built, or the record is unreadable: then every module runs
    from its source)."""
    try:
        built = json.loads((folder / BUILT).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return built if isinstance(built, dict) else {}


def install() -> None:
    """Put the finder first, once (pogdsl.runtime's __init__ calls it before
    any module of the package is imported)."""
    if not any(isinstance(f, SourceWhenStale) and f.package == PACKAGE for f in sys.meta_path):
        sys.meta_path.insert(0, SourceWhenStale(PACKAGE, HERE, read_built(HERE), pure()))


def fresh_builds(folder: Path = HERE) -> list[str]:
    """The modules that run compiled when imported: an extension built from
    the source beside it as it is now (none with POGDSL_PURE set)."""
    if pure():
        return []
    return sorted(name for name, digest in read_built(folder).items()
                  if isinstance(name, str) and _has_extension(folder, name)
                  and (folder / f"{name}.py").is_file() and digest == _sha256(folder / f"{name}.py"))


def describe() -> str:
    """One line for `pogdsl --version`."""
    fresh = fresh_builds()
    if fresh:
        return f"runtime modules compiled: {', '.join(fresh)}"
    why = "POGDSL_PURE is set" if pure() else "none built from the sources as they are; reinstall to build them"
    return f"runtime modules compiled: none ({why})"


def compiled_modules() -> list[str]:
    """The modules of the runtime imported so far that run compiled."""
    out = []
    for fullname, module in list(sys.modules.items()):
        if fullname.startswith(PACKAGE + ".") and isinstance(getattr(module, "__loader__", None),
                                                              importlib.machinery.ExtensionFileLoader):
            out.append(fullname.rpartition(".")[2])
    return sorted(out)
