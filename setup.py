"""What a build does beyond pyproject.toml: the runtime's hottest modules are
compiled with Cython, and the library (the top-level rules/, cards/ and
scenarios/) is copied into the package, as pogdsl/library/.

The library stays where it is in the repository (docs, tests and users read it
there); `build_py` below copies its `.pog` files into the build folder, so a
wheel (`pip install .`) carries them as package data, found at run time with
importlib.resources (pogdsl/project.py, `shipped_library`).  An editable
install copies nothing: it runs from the checkout, whose own folders are the
library.  (Why a build step rather than `package_dir`: mapping rules/ to a
package `pogdsl.library.rules` would make every folder of the library a
package of its own, listed one by one, and an editable install would map
them too; a copy at build time leaves the package and the checkout as they
are.)

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
from setuptools.command.build_py import build_py

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


LIBRARY_DIRS = ("rules", "cards", "scenarios")  # (as pogdsl/project.py)
LIBRARY = os.path.join("pogdsl", "library")  # where the library goes in the build


class BuildWithLibrary(build_py):
    """build_py, then the library's .pog files (and the [tool.pogdsl]
    settings of this pyproject.toml, which say how strictly its deck is
    checked) copied under pogdsl/library/ in the build folder."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the checkout's own folders
        for source, target in self._library():
            self.mkpath(os.path.dirname(target))
            self.copy_file(source, target, preserve_mode=False)
        settings = os.path.join(self.build_lib, LIBRARY, "pyproject.toml")
        with open(settings, "w", encoding="utf-8") as f:
            f.write(_library_settings())

    def get_outputs(self, include_bytecode=1):
        outputs = super().get_outputs(include_bytecode)
        if getattr(self, "editable_mode", False):
            return outputs
        return outputs + [target for _, target in self._library()] + \
            [os.path.join(self.build_lib, LIBRARY, "pyproject.toml")]

    def _library(self) -> list[tuple[str, str]]:
        here = os.path.dirname(os.path.abspath(__file__))
        if not all(os.path.isdir(os.path.join(here, sub)) for sub in LIBRARY_DIRS):
            # (a wheel without its library would install a pogdsl that knows no game)
            raise SystemExit(f"error: the library is missing: {', '.join(LIBRARY_DIRS)} must be folders beside "
                             "setup.py (build from a complete checkout, or an sdist made with MANIFEST.in)")
        pairs = []
        for sub in LIBRARY_DIRS:
            for folder, dirs, names in os.walk(os.path.join(here, sub)):
                dirs.sort()
                for name in sorted(names):
                    if name.endswith(".pog"):
                        source = os.path.join(folder, name)
                        relative = os.path.relpath(source, here)
                        pairs.append((source, os.path.join(self.build_lib, LIBRARY, relative)))
        return pairs


def _library_settings() -> str:
    """The [tool.pogdsl] table of pyproject.toml, as a file of its own."""
    import tomllib

    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "pyproject.toml"), "rb") as f:
        table = tomllib.load(f).get("tool", {}).get("pogdsl", {})
    lines = ["# The settings of the library shipped with pogdsl: the [tool.pogdsl] table",
             "# of the pyproject.toml it was built from (setup.py).", "[tool.pogdsl]"]
    for key, value in table.items():
        if isinstance(value, bool):
            lines.append(f"{key} = {'true' if value else 'false'}")
        elif isinstance(value, (int, float, str)):
            lines.append(f"{key} = {json.dumps(value)}")
        else:
            raise SystemExit(f"error: setup.py cannot copy the setting {key} of [tool.pogdsl] (a {type(value).__name__})")
    return "\n".join(lines) + "\n"


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


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildAndRecord, "build_py": BuildWithLibrary})
