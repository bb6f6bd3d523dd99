"""Which runtime modules run compiled, and compiling them.

`pogdsl build-native` (an opt-in step after installing: `build` below)
compiles the runtime's hottest modules with Cython: the same Python source,
built as extension modules beside it, which Python then prefers.  A compiled
module is used only while it was built from the source beside it as that
source is now (the build records the sha256 of each source it compiled in
`_built.json`, with its `.pxd` of C declarations for Cython when it has one,
as rng.pxd): a module edited since its build runs from its source,
correct and only slower, until `pogdsl build-native` compiles it again.
`POGDSL_PURE=1` runs every module from its source (to profile with py-spy,
which does not see into compiled code, or to compare).  Results never depend
on it: the tests play the same seeded game both ways."""

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

# The modules where a game spends its time (measured: 9-12% more decisions per
# second compiled than interpreted, on the machine kind CI runs on; docs/performance.rst).
COMPILED = ("builtins", "interpreter", "sampling", "rng", "effects", "compile", "values")


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
        if not self.everything_from_source and self.built.get(name) == _digest(source):
            return None  # built from this source: the extension it is
        return importlib.util.spec_from_file_location(fullname, source)


def _has_extension(folder: Path, name: str) -> bool:
    return any((folder / (name + suffix)).is_file() for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _digest(source: Path) -> str:
    """What a build records of a module's source: the sha256 of the `.py`,
    or, when a `.pxd` beside it declares C types for Cython, of both (an
    edited `.pxd` makes the extension stale as an edited source does)."""
    declarations = source.with_suffix(".pxd")
    if not declarations.is_file():
        return _sha256(source)
    return hashlib.sha256(source.read_bytes() + b"\0pxd\0" + declarations.read_bytes()).hexdigest()


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
                  and (folder / f"{name}.py").is_file() and digest == _digest(folder / f"{name}.py"))


def describe() -> str:
    """One line for `pogdsl --version`."""
    fresh = fresh_builds()
    if fresh:
        return f"runtime modules compiled: {', '.join(fresh)}"
    why = "POGDSL_PURE is set" if pure() else \
        "none built from the sources as they are; `pogdsl build-native` compiles them"
    return f"runtime modules compiled: none ({why})"


def compiled_modules() -> list[str]:
    """The modules of the runtime imported so far that run compiled."""
    out = []
    for fullname, module in list(sys.modules.items()):
        if fullname.startswith(PACKAGE + ".") and isinstance(getattr(module, "__loader__", None),
                                                              importlib.machinery.ExtensionFileLoader):
            out.append(fullname.rpartition(".")[2])
    return sorted(out)


# ------------------------------------------------------------------ building

class BuildError(Exception):
    """A module that did not compile: one line to show."""


class CannotBuild(BuildError):
    """A build that cannot start: no Cython, no C compiler or headers, a
    folder it may not write."""


def missing_tools() -> str | None:
    """What a build lacks to start, said with how to get it (None: nothing)."""
    try:
        import Cython  # noqa: F401
        import setuptools  # noqa: F401
    except ImportError as err:
        return (f"{err.name} is not installed: `python -m pip install -e '.[native]'` in the checkout "
                "(or `python -m pip install cython setuptools`) brings it")
    import shutil
    import sysconfig

    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}) found: install one (Debian: `apt-get install gcc`)"
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.is_file():
        return f"Python's C headers are missing ({headers}): install them (Debian: `apt-get install python3-dev`)"
    return None


def stale_modules(folder: Path = HERE, modules=COMPILED) -> list[str]:
    """The modules without an extension built from their source as it is now."""
    built = read_built(folder)
    return [name for name in modules
            if not (_has_extension(folder, name) and built.get(name) == _digest(folder / f"{name}.py"))]


def build(folder: Path = HERE, package: str = PACKAGE, modules=COMPILED, *, force: bool = False,
          jobs: int | None = None, say=print) -> list[str]:
    """Compile `modules` of `package` (whose folder is `folder`) with Cython,
    `jobs` at a time, the largest first; each extension is put in place by a
    rename (a process running the old one keeps it) and recorded with the
    sha256 of the source compiled.  Returns the modules compiled; `say`
    prints the progress.  Raises BuildError."""
    import concurrent.futures
    import tempfile
    import time

    todo = list(modules) if force else stale_modules(folder, modules)
    if not todo:
        say(f"{_count(modules, 'the ')} already compiled from their sources as they are "
            "(--force compiles them again)")
        return []
    problem = missing_tools()
    if problem:
        raise CannotBuild(problem)
    if not os.access(folder, os.W_OK):
        raise CannotBuild(f"cannot write in {folder}: compile as the user who installed pogdsl")
    todo.sort(key=lambda name: (folder / f"{name}.py").stat().st_size, reverse=True)
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(todo)))
    say(f"compiling {_count(todo)} with Cython, {jobs} at a time, into {folder}:")
    root = folder.parents[len(package.split(".")) - 1]  # the folder holding the top-level package
    start = time.monotonic()
    done = []
    with tempfile.TemporaryDirectory(prefix="pogdsl-native-") as work, \
            concurrent.futures.ProcessPoolExecutor(jobs) as pool:
        futures = {pool.submit(_compile_one, package, name, str(root), work): name for name in todo}
        try:
            for future in concurrent.futures.as_completed(futures):
                name = futures[future]
                built, digest, seconds = future.result()
                _put_in_place(Path(built), folder / Path(built).name, folder, name, digest)
                done.append(name)
                say(f"  [{len(done)}/{len(todo)}] {name}.py compiled in {seconds:.1f} s")
        except BaseException:
            for future in futures:
                future.cancel()
            raise
    say(f"compiled {_count(done)} in {time.monotonic() - start:.0f} s; they run compiled from now on "
        "(`pogdsl --version` lists them)")
    return done


def _count(modules, article: str = "") -> str:
    return f"{article}{len(modules)} module{'s' if len(modules) != 1 else ''}" + \
        (" are" if article and len(modules) != 1 else " is" if article else "")


def _put_in_place(built: Path, target: Path, folder: Path, name: str, digest: str) -> None:
    import shutil

    temporary = target.with_name(f".{target.name}.tmp")
    shutil.copyfile(built, temporary)
    os.replace(temporary, target)  # a new file: a process that loaded the old one keeps it
    record = {k: v for k, v in read_built(folder).items() if isinstance(k, str) and isinstance(v, str)}
    record[name] = digest
    written = folder / f".{BUILT}.tmp"
    written.write_text(json.dumps(record, indent=1, sort_keys=True), encoding="utf-8")
    os.replace(written, folder / BUILT)


def _compile_one(package: str, name: str, root: str, work: str) -> tuple[str, str, float]:
    """In a worker process: Cython, then the C compiler, for one module;
    their chatter goes to a log whose end a failure shows."""
    import contextlib
    import time

    print(f"  compiling {name}.py ...", file=sys.stderr, flush=True)
    start = time.monotonic()
    relative = os.path.join(*package.split("."), f"{name}.py")
    digest = _digest(Path(root) / relative)
    log_path = os.path.join(work, f"{name}.log")
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    cwd = os.getcwd()
    try:
        with open(log_path, "w") as log, contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
            os.dup2(log.fileno(), 1)  # (the C compiler, a process of its own, writes there)
            os.dup2(log.fileno(), 2)
            os.chdir(root)  # (Cython names the module after its path from here)
            built = _cython_build(package, name, relative, os.path.join(work, name))
            log.flush()
    except BaseException as err:
        failure = err
    else:
        failure = None
    finally:
        os.chdir(cwd)
        for fd, copy in zip((1, 2), saved):
            os.dup2(copy, fd)
            os.close(copy)
    if failure is not None:
        tail = _log_tail(log_path)
        said = f"; the compiler said: {tail}" if tail else f" ({type(failure).__name__}: {failure})"
        raise BuildError(f"{relative} did not compile{said}")
    return built, digest, time.monotonic() - start


def _cython_build(package: str, name: str, relative: str, work: str) -> str:
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    # -O2 -g0 after the interpreter's own flags (-O3 -g): a third less time
    # to compile, and games ran as fast as with the -O3 build.
    ext = Extension(f"{package}.{name}", [relative], extra_compile_args=["-O2", "-g0"])
    (ext,) = cythonize([ext], build_dir=os.path.join(work, "c"), quiet=True, force=True,
                       compiler_directives={"language_level": 3, "annotation_typing": False})
    command = Distribution({"ext_modules": [ext]}).get_command_obj("build_ext")
    command.build_lib = os.path.join(work, "lib")
    command.build_temp = os.path.join(work, "temp")
    command.ensure_finalized()
    command.run()
    return command.get_ext_fullpath(ext.name)


def _log_tail(path: str, lines: int = 2) -> str:
    """The last lines of a log that say something (not a rule of dashes or
    a caret)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = [line.strip() for line in f if line.strip().strip("-^ ")]
    except OSError:
        return ""
    return " | ".join(text[-lines:])
