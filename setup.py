"""What a build does beyond pyproject.toml: the library (the top-level
rules/, cards/ and scenarios/) is copied into the package, as
pogdsl/library/.

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

Installing compiles nothing: the runtime's hottest modules are compiled with
Cython by an opt-in step after it, `pogdsl build-native`
(pogdsl/runtime/native.py), so that an install stays quick (docs/playing.rst,
Speed)."""

import json
import os

from setuptools import setup
from setuptools.command.build_py import build_py

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


setup(cmdclass={"build_py": BuildWithLibrary})
