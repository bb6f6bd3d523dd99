"""The compiled runtime modules (runtime/native.py, `pogdsl build-native`):
the build compiles a module and records the source it compiled, a compiled
module runs only while it was built from its source as that source is now,
POGDSL_PURE=1 runs every module from its source, and a game is the same
either way.  CI compiles the runtime first (.ci/run) and sets
POGDSL_EXPECT_COMPILED, so the comparison there is never pure against pure."""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import subprocess
import sys

import pytest

from pogdsl.runtime import native

from .conftest import REPO

SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


@pytest.fixture()
def package(tmp_path):
    """A module `hot` with its source and a (fake) extension beside it."""
    (tmp_path / "hot.py").write_text("X = 1\n", encoding="utf-8")
    (tmp_path / ("hot" + SUFFIX)).write_bytes(b"not really an extension")
    (tmp_path / "cold.py").write_text("Y = 2\n", encoding="utf-8")
    return tmp_path


def sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_an_extension_built_from_the_source_as_it_is_is_left_to_python(package):
    finder = native.SourceWhenStale("pkg", package, {"hot": sha(package / "hot.py")}, False)
    assert finder.find_spec("pkg.hot") is None  # Python's own finder then takes the extension


@pytest.mark.parametrize("built", [{}, {"hot": "0" * 64}])
def test_a_module_edited_since_its_build_runs_from_its_source(package, built):
    spec = native.SourceWhenStale("pkg", package, built, False).find_spec("pkg.hot")
    assert spec is not None and spec.origin == str(package / "hot.py")


def test_the_pure_setting_runs_even_a_fresh_extension_from_source(package):
    spec = native.SourceWhenStale("pkg", package, {"hot": sha(package / "hot.py")}, True).find_spec("pkg.hot")
    assert spec.origin == str(package / "hot.py")


@pytest.mark.parametrize("name", ["pkg.cold", "other.hot"])
def test_modules_without_an_extension_or_of_other_packages_are_not_its_business(package, name):
    assert native.SourceWhenStale("pkg", package, {}, False).find_spec(name) is None


def test_the_fresh_builds_are_the_extensions_of_unchanged_sources(package, monkeypatch):
    monkeypatch.delenv("POGDSL_PURE", raising=False)
    (package / native.BUILT).write_text(json.dumps({"hot": sha(package / "hot.py"), "gone": "0" * 64}),
                                        encoding="utf-8")
    assert native.fresh_builds(package) == ["hot"]
    (package / "hot.py").write_text("X = 2\n", encoding="utf-8")  # edited since
    assert native.fresh_builds(package) == []


def test_a_declarations_file_edited_since_the_build_makes_the_module_stale(package, monkeypatch):
    monkeypatch.delenv("POGDSL_PURE", raising=False)
    (package / "hot.pxd").write_text("cdef int X\n", encoding="utf-8")
    assert native.stale_modules(package, ("hot",)) == ["hot"]  # built before the .pxd was there
    (package / native.BUILT).write_text(json.dumps({"hot": native._digest(package / "hot.py")}), encoding="utf-8")
    assert native.fresh_builds(package) == ["hot"]
    (package / "hot.pxd").write_text("cdef long X\n", encoding="utf-8")
    assert native.fresh_builds(package) == [] and native.stale_modules(package, ("hot",)) == ["hot"]


def test_an_unreadable_record_of_builds_counts_as_nothing_built(tmp_path):
    assert native.read_built(tmp_path) == {}
    (tmp_path / native.BUILT).write_text("{not json", encoding="utf-8")
    assert native.read_built(tmp_path) == {}
    (tmp_path / native.BUILT).write_text("[1, 2]", encoding="utf-8")
    assert native.read_built(tmp_path) == {}


# ------------------------------------------------------------------ in a process of its own

PLAY = """
import json
from pogdsl.runtime import native
from pogdsl.opening import open_scenario
from pogdsl.sim import game_seed, play_random
import pogdsl.runtime.effects, pogdsl.runtime.sampling
opened = open_scenario("campaign", None)
hashes = [play_random(opened, game_seed(3, i))["hash"] for i in range(2)]
print(json.dumps({"compiled": native.compiled_modules(), "hashes": hashes}))
"""


def run(pure: bool) -> dict:
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("POGDSL_PURE", None)
    if pure:
        env["POGDSL_PURE"] = "1"
    out = subprocess.run([sys.executable, "-c", PLAY], cwd=REPO, env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.splitlines()[-1])


def test_compiled_and_pure_runtimes_play_the_same_games():
    """Two whole Campaign games, compiled and from source: the same final
    states; and the compiled run used exactly the extensions built from the
    sources as they are (none when nothing is built)."""
    compiled, pure = run(pure=False), run(pure=True)
    assert pure["compiled"] == []
    assert set(compiled["compiled"]) == set(native.fresh_builds()) & set(native.COMPILED)
    if os.environ.get("POGDSL_EXPECT_COMPILED"):
        assert sorted(compiled["compiled"]) == sorted(native.COMPILED), \
            "nothing or not all compiled: run `pogdsl build-native` first (as .ci/run does)"
    assert compiled["hashes"] == pure["hashes"]


def test_version_says_whether_the_runtime_runs_compiled():
    from .conftest import run_cli

    proc = run_cli("--version")
    assert proc.returncode == 0 and proc.stdout.startswith("pogdsl ")
    fresh = native.fresh_builds()
    assert f"runtime modules compiled: {', '.join(fresh) if fresh else 'none'}" in proc.stdout
    pure = run_cli("--version", env={"POGDSL_PURE": "1"})
    assert "runtime modules compiled: none (POGDSL_PURE is set)" in pure.stdout


# ------------------------------------------------------------------ building

@pytest.fixture()
def tiny(tmp_path):
    """A package `tinypkg` of two small modules to compile (seconds, not the
    minute the runtime takes)."""
    folder = tmp_path / "tinypkg"
    folder.mkdir()
    (folder / "__init__.py").write_text("", encoding="utf-8")
    (folder / "hot.py").write_text("def twice(x):\n    return 2 * x\n", encoding="utf-8")
    (folder / "warm.py").write_text("NAME = 'warm'\n", encoding="utf-8")
    return folder


def loaded_from(folder, name) -> str:
    """Where a fresh process imports tinypkg.NAME from, and what it computes."""
    code = f"import tinypkg.{name} as m; print(m.__file__); print(getattr(m, 'twice', lambda x: x)(21))"
    out = subprocess.run([sys.executable, "-c", code], cwd=folder.parent, capture_output=True, text=True, check=True)
    return out.stdout


@pytest.mark.slow
def test_the_build_compiles_records_and_leaves_fresh_modules_alone(tiny):
    pytest.importorskip("Cython", reason="the build needs Cython (the test extra brings it)")
    if native.missing_tools():
        pytest.skip(native.missing_tools())
    said = []
    assert sorted(native.build(tiny, "tinypkg", ("hot", "warm"), jobs=2, say=said.append)) == ["hot", "warm"]
    assert said[0].startswith("compiling 2 modules with Cython, 2 at a time")
    assert any(line.startswith("  [2/2] ") for line in said)
    assert native.read_built(tiny) == {"hot": sha(tiny / "hot.py"), "warm": sha(tiny / "warm.py")}
    assert native.fresh_builds(tiny) == ["hot", "warm"]
    where, result = loaded_from(tiny, "hot").split()
    assert where.endswith(SUFFIX) and result == "42"  # the extension, and it computes what its source says
    assert not list(tiny.glob(".*.tmp"))

    said.clear()
    assert native.build(tiny, "tinypkg", ("hot", "warm"), say=said.append) == []  # nothing is stale
    assert "already compiled" in said[0]

    (tiny / "hot.py").write_text("def twice(x):\n    return x + x + 0\n", encoding="utf-8")
    assert native.stale_modules(tiny, ("hot", "warm")) == ["hot"]
    assert native.build(tiny, "tinypkg", ("hot", "warm"), say=said.append) == ["hot"]  # only the edited one
    assert native.read_built(tiny)["hot"] == sha(tiny / "hot.py")


@pytest.mark.slow
def test_a_module_that_does_not_compile_is_named_with_the_compilers_words(tiny):
    pytest.importorskip("Cython", reason="the build needs Cython (the test extra brings it)")
    if native.missing_tools():
        pytest.skip(native.missing_tools())
    (tiny / "hot.py").write_text("def twice(x):\n    return 2 * x\ndef broken(:\n    pass\n", encoding="utf-8")
    with pytest.raises(native.BuildError, match=r"tinypkg/hot.py did not compile; the compiler said: .*"
                                                r"hot.py:3:11: Expected '\)', found ':'"):
        native.build(tiny, "tinypkg", ("hot",), say=lambda text: None)
    assert native.read_built(tiny) == {}  # nothing recorded: it keeps running from its source


def test_a_build_without_its_tools_says_what_to_install(monkeypatch, tiny):
    monkeypatch.setattr(native, "missing_tools", lambda: "Cython is not installed: install it")
    with pytest.raises(native.CannotBuild, match="Cython is not installed"):
        native.build(tiny, "tinypkg", ("hot",), say=lambda text: None)


def test_build_native_on_the_command_line(monkeypatch):
    from .conftest import run_cli

    proc = run_cli("build-native", "--help")
    assert proc.returncode == 0 and "--force" in proc.stdout and "Cython" in proc.stdout
    proc = run_cli("build-native", "--jobs", "0")
    assert proc.returncode == 2 and "expected a number of compilers from 1 to 64" in proc.stderr
    if not native.stale_modules():  # (where the runtime is compiled, as in CI: nothing to do, at once)
        proc = run_cli("build-native")
        assert proc.returncode == 0 and "already compiled" in proc.stderr
