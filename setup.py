"""The runtime's hottest modules, compiled with Cython when the project is
installed (everything else is in pyproject.toml).

The modules stay plain Python: Cython compiles the same source files, and
pogdsl/runtime/native.py uses a compiled module only while it was built from
the source beside it as that source is now.  Without a C compiler the build
of a module fails quietly and its source runs, only slower (docs/playing.rst,
Speed)."""

import hashlib
import json
import os
import shutil
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

try:
    from Cython.Build import cythonize
except ImportError:  # (Cython is a build requirement; without it, nothing is compiled)
    cythonize = None

# The modules where a game spends its time (measured: 9-12% more decisions per
# second compiled than interpreted, on the machine kind CI runs on).
COMPILED = ["builtins", "interpreter", "sampling", "rng", "effects", "compile", "values"]
BUILT = "_built.json"  # beside the modules: the source each extension was built from


class BuildAndRecord(build_ext):
    """build_ext, then a record of the sha256 of each source built."""

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:  # one compiler per core: compile.py alone takes half a minute
            self.parallel = os.cpu_count() or 1

    def build_extension(self, ext):
        # An extension already built, in place, from this very source (an
        # earlier `pip install -e .`) is taken again rather than recompiled.
        ready = _built_from_source(ext)
        if ready is None:
            super().build_extension(ext)
            return
        target = self.get_ext_fullpath(ext.name)
        if os.path.abspath(ready) != os.path.abspath(target):
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(ready, target)

    def run(self):
        super().run()
        built = {}
        folder = None
        for ext in self.extensions:
            target = self.get_ext_fullpath(ext.name)
            folder = os.path.dirname(target)
            if os.path.exists(target):  # (an optional extension that failed is not there)
                built[ext.name.rpartition(".")[2]] = _sha256(ext.origin_source)
        if folder is not None:
            with open(os.path.join(folder, BUILT), "w", encoding="utf-8") as f:
                json.dump(built, f, indent=1, sort_keys=True)


def _sha256(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _built_from_source(ext) -> str | None:
    """The extension module beside the source, if the record there says it
    was built from the source as it is now."""
    folder = os.path.dirname(ext.origin_source)
    name = ext.name.rpartition(".")[2]
    try:
        with open(os.path.join(folder, BUILT), encoding="utf-8") as f:
            recorded = json.load(f).get(name)
    except (OSError, ValueError, AttributeError):
        return None
    path = os.path.join(folder, name + sysconfig.get_config_var("EXT_SUFFIX"))
    if recorded is None or not os.path.isfile(path) or recorded != _sha256(ext.origin_source):
        return None
    return path


def extensions():
    if cythonize is None or os.environ.get("POGDSL_PURE"):
        return []
    exts = []
    for name in COMPILED:
        source = f"pogdsl/runtime/{name}.py"
        # -O2 -g0 after the interpreter's own flags (-O3 -g): a third less
        # time to compile, and games ran as fast as with the -O3 build.
        ext = Extension(f"pogdsl.runtime.{name}", [source], optional=True, extra_compile_args=["-O2", "-g0"])
        ext.origin_source = source
        exts.append(ext)
    built = cythonize(exts, build_dir="build/cython", nthreads=os.cpu_count() or 1, quiet=True,
                      compiler_directives={"language_level": 3, "annotation_typing": False})
    for ext, original in zip(built, exts):  # (cythonize makes new extensions, without these two)
        ext.origin_source = original.origin_source
        ext.optional = True
    return built


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildAndRecord})
