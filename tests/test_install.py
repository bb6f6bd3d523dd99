"""Installed anywhere (issue 22).

A built install (`pip install .`, not editable) carries the library — the
top-level rules/, cards/ and scenarios/, copied into pogdsl/library/ by
setup.py — and finds it with importlib.resources wherever it runs; a user's
own folder of `.pog` files extends it; `check` that finds no file is a usage
error with a hint.

The first tests check how the files are chosen, in this process, with the
checkout standing in for an installed library.  The last one builds a real
wheel from a copy of the checkout, installs it into a fresh venv and runs it
from an unrelated folder (about 15 s: a build compiles nothing, the compiled
runtime is the opt-in `pogdsl build-native`, tested in
tests/runtime/test_native.py).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from pogdsl import project
from pogdsl.compiler import compile_paths

REPO = Path(__file__).resolve().parents[1]
TOY = REPO / "docs" / "examples" / "toy"
LIBRARY = [p.relative_to(REPO) for sub in project.LIBRARY_DIRS for p in sorted((REPO / sub).rglob("*.pog"))]

USER_SCENARIO = """\
# A user's own scenario, in a folder of their own, extending the installed Campaign.
scenario short_war "A short war" extends campaign cites 5.5 {
  "The Campaign, as a user's own scenario beside the installed library."
}
"""


@pytest.fixture
def installed(monkeypatch):
    """The checkout stands in for the library a built install carries."""
    monkeypatch.setattr(project, "shipped_library", lambda: REPO)
    return REPO


def _mod(tmp_path: Path) -> Path:
    root = tmp_path / "mymod"
    (root / "scenarios").mkdir(parents=True)
    (root / "scenarios" / "short.pog").write_text(USER_SCENARIO, encoding="utf-8")
    return root


# ------------------------------------------------------------ choosing the files
def test_a_user_folder_extends_the_installed_library(installed, tmp_path):
    root = _mod(tmp_path)
    files = project.library_files(root)
    assert [p.relative_to(REPO) for p in files[:-1]] == LIBRARY
    assert files[-1] == root / "scenarios" / "short.pog"
    comp = compile_paths(root=root)
    assert comp.ok, [d.message for d in comp.reporter.errors]
    assert {"campaign", "short_war"} <= set(comp.base.decls["scenario"])
    assert len(comp.base.decls["card"]) == 130


def test_a_user_file_at_the_place_of_an_installed_one_replaces_it(installed, tmp_path):
    root = tmp_path / "mymod"
    card = next(p for p in LIBRARY if p.parts[0] == "cards")
    (root / card).parent.mkdir(parents=True)
    (root / card).write_text((REPO / card).read_text(encoding="utf-8") + "\n# the user's copy\n", encoding="utf-8")
    files = project.library_files(root)
    assert root / card in files and REPO / card not in files
    assert len(files) == len(LIBRARY)
    comp = compile_paths(root=root, check_scenarios=False)
    assert comp.ok, [d.message for d in comp.reporter.errors]  # (not declared twice)


def test_a_game_of_its_own_is_not_mixed_with_the_installed_library(installed):
    # docs/examples/toy declares its own rulebook (rules/world.pog): its files are the whole game
    assert project.is_own_game(TOY) and project.is_own_game(REPO)
    assert project.extended_library(TOY) is None
    assert project.library_files(TOY) == sorted(TOY.glob("rules/*.pog")) + sorted(TOY.glob("cards/*.pog")) \
        + sorted(TOY.glob("scenarios/*.pog"))
    assert compile_paths(root=TOY).ok


def test_the_installed_library_is_the_root_when_no_folder_is_found(installed, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(project, "_checkout", lambda: None)
    root = project.find_root()
    assert root == tmp_path  # the current folder, which extends the library
    assert [p.relative_to(REPO) for p in project.library_files(root)] == LIBRARY


def test_the_installed_deck_follows_the_installed_settings(tmp_path, monkeypatch):
    """A card without an event in the installed deck is an error when the
    library's settings require events; in the user's folder, which has no
    such setting, it is only a warning-free own card."""
    shipped = tmp_path / "shipped"
    shutil.copytree(TOY, shipped)
    (shipped / "pyproject.toml").write_text("[tool.pogdsl]\nrequire-card-events = true\n", encoding="utf-8")
    monkeypatch.setattr(project, "shipped_library", lambda: shipped)
    monkeypatch.setattr(project, "is_own_game", lambda root: False)
    card = "card ap 9 'Plain Card' cites 5.1 {\n  \"A card with no event.\"\n  ops 2 sr 2\n}\n"
    (shipped / "cards" / "plain.pog").write_text(card, encoding="utf-8")
    user = tmp_path / "user"
    (user / "cards").mkdir(parents=True)
    (user / "cards" / "mine.pog").write_text(card.replace("ap 9", "ap 8").replace("Plain", "Mine"),
                                             encoding="utf-8")
    comp = compile_paths(root=user, check_scenarios=False)
    by_code = {(d.code, d.span.file.rpartition("/")[2]) for d in comp.reporter.items}
    assert ("E0901", "plain.pog") in by_code
    assert not any(name == "mine.pog" for _, name in by_code)


MOD_CARD = """\
# A modder's card, in a folder holding only cards/.
card ap 66 'Sacred Way' cites 9.1 {
  "A card of the user's own, beside the installed deck."
  deck mobilization
  ops 2 sr 2
}
"""


def test_a_mod_folder_extends_the_checkout_of_an_editable_install(tmp_path):
    """Issue 33: the README installs pogdsl editable, so its library is the
    checkout's; a folder holding only the user's cards/ must still be seen by
    `check` and the other commands run from inside it."""
    mod = tmp_path / "mymod"
    (mod / "cards").mkdir(parents=True)
    (mod / "cards" / "sacred-way.pog").write_text(MOD_CARD, encoding="utf-8")
    env = {"PYTHONPATH": str(REPO)}
    proc = _cli(sys.executable, "-m", "pogdsl.cli", "cards", "campaign", "AP 66", cwd=mod, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "Sacred Way" in proc.stdout and "cards/sacred-way.pog" in proc.stdout
    proc = _cli(sys.executable, "-m", "pogdsl.cli", "check", "--strict", cwd=mod, env=env)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    said = proc.stdout + proc.stderr
    checked = int(said.split("checked ")[1].split()[0])
    assert checked == len(LIBRARY) + 1  # the whole library and the user's card


def test_a_mod_folder_inside_a_checkout_is_its_own_root(tmp_path, monkeypatch):
    """A mod kept in a subfolder of a project (as docs/examples/mod is) is
    the root when run from: the project further up is the library it extends,
    not the folder the commands work in."""
    project_dir = tmp_path / "project"
    for sub in ("rules", "scenarios"):
        (project_dir / sub).mkdir(parents=True)
    mod = project_dir / "docs" / "mymod"
    (mod / "cards").mkdir(parents=True)
    (mod / "cards" / "sacred-way.pog").write_text(MOD_CARD, encoding="utf-8")
    monkeypatch.delenv("POGDSL_HOME", raising=False)
    monkeypatch.chdir(mod)
    assert project.find_root() == mod
    monkeypatch.chdir(project_dir / "docs")  # no folder of its own here: the project above
    assert project.find_root() == project_dir


def test_the_documented_mod_checks_and_its_position_test_passes():
    """docs/modding.rst's example: the card is seen beside the library's 130
    and its script, which sets Verdun's trench by hand, replays."""
    mod = REPO / "docs" / "examples" / "mod"
    env = {"PYTHONPATH": str(REPO)}
    proc = _cli(sys.executable, "-m", "pogdsl.cli", "check", "--strict", cwd=mod, env=env)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    assert f"checked {len(LIBRARY) + 1} files" in proc.stdout + proc.stderr
    proc = _cli(sys.executable, "-m", "pogdsl.cli", "replay", "scripts/ap-66-sacred-way.script", cwd=mod, env=env)
    assert proc.returncode == 0 and proc.stdout.startswith("OK"), proc.stderr + proc.stdout


def test_a_project_of_its_own_is_not_extended_by_the_checkout(tmp_path):
    """A folder with rules/ and scenarios/ is a project: only its own files."""
    root = tmp_path / "game"
    for sub in ("rules", "scenarios"):
        (root / sub).mkdir(parents=True)
    (root / "scenarios" / "s.pog").write_text("# nothing yet\n", encoding="utf-8")
    assert project.extended_library(root) is None
    assert project.library_files(root) == [root / "scenarios" / "s.pog"]


# ------------------------------------------------------------ check with no file
def _cli(*args, cwd, env=None):
    full = {k: v for k, v in os.environ.items() if k not in ("POGDSL_HOME", "PYTHONPATH")}
    full.update(env or {})
    return subprocess.run(args, cwd=cwd, env=full, capture_output=True, text=True, timeout=600)


def test_check_that_finds_no_file_is_a_usage_error_with_a_hint(tmp_path):
    empty = tmp_path / "empty"
    (empty / "cards").mkdir(parents=True)
    env = {"PYTHONPATH": str(REPO)}
    for args in (("--root", str(empty)), ("--strict", "--root", str(empty)), ("--standalone",), (str(empty / "cards"),)):
        proc = _cli(sys.executable, "-m", "pogdsl.cli", "check", *args, cwd=tmp_path, env=env)
        assert proc.returncode == 2, (args, proc.stderr)
        assert "error: " in proc.stderr and "hint: " in proc.stderr and "checked 0 files" not in proc.stderr
    proc = _cli(sys.executable, "-m", "pogdsl.cli", "simulate", "campaign", "--root", str(empty), cwd=tmp_path, env=env)
    assert proc.returncode == 2
    assert "unknown scenario 'campaign': no .pog file found" in proc.stderr and "--root DIR" in proc.stderr


# ------------------------------------------------------------ a real wheel, installed
def _copy_checkout(target: Path) -> Path:
    """The checkout as a clean one would be: no build products, no caches."""
    ignore = shutil.ignore_patterns(".git", "build", "dist", "*.egg-info", "__pycache__", "*.so", "*.pyd",
                                    "_built.json", ".pytest_cache", ".hypothesis", ".venv", "_build")
    shutil.copytree(REPO, target, ignore=ignore)
    return target


@pytest.mark.slow
def test_a_built_install_runs_anywhere_with_the_whole_library(tmp_path):
    src = _copy_checkout(tmp_path / "checkout")
    dist = tmp_path / "dist"
    build = _cli(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                 "--disable-pip-version-check", "-q", "-w", str(dist), ".", cwd=src)
    assert build.returncode == 0, build.stderr
    (wheel,) = dist.glob("pogdsl-*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")  # pure Python: installing compiles nothing

    # A fresh venv; lark, attrs and networkx come from this environment (no network).
    env_dir = tmp_path / "venv"
    venv.create(env_dir, system_site_packages=True, with_pip=False)
    python = env_dir / "bin" / "python"
    install = _cli(str(python), "-m", "pip", "install", "--no-deps", "--no-index", "--ignore-installed",
                   "--disable-pip-version-check", "-q", str(wheel), cwd=tmp_path)
    assert install.returncode == 0, install.stderr
    where = _cli(str(python), "-c", "import pogdsl; print(pogdsl.__file__)", cwd=tmp_path)
    package = Path(where.stdout.strip()).parent
    assert package.is_relative_to(env_dir), where.stdout  # the installed copy, not the checkout
    shipped = sorted(p.relative_to(package / "library") for p in (package / "library").rglob("*.pog"))
    assert shipped == sorted(LIBRARY)
    static = REPO / "pogdsl" / "web" / "static"  # the browser's page of `pogdsl serve` and `view`
    assert sorted(p.name for p in (package / "web" / "static").iterdir()) == sorted(p.name for p in static.iterdir())
    assert project.settings(package / "library") == project.settings(REPO)  # how strictly its deck is checked

    pogdsl = str(env_dir / "bin" / "pogdsl")
    cache = {"POGDSL_CACHE_DIR": str(tmp_path / "cache")}
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = _cli(pogdsl, "check", "--strict", cwd=elsewhere, env=cache)
    assert proc.returncode == 0, proc.stderr
    assert f"checked {len(LIBRARY)} files: 0 errors, 0 warnings" in proc.stderr
    proc = _cli(pogdsl, "rules", "campaign", cwd=elsewhere, env=cache)
    assert proc.returncode == 0, proc.stderr
    proc = _cli(pogdsl, "cards", "campaign", "--json", cwd=elsewhere, env=cache)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)["summary"]
    assert summary["cards"] == 130 and summary["events"] == 130
    proc = _cli(pogdsl, "simulate", "campaign", "--games", "2", "--workers", "1", "--json", cwd=elsewhere, env=cache)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["failed"] == 0

    # A user's own folder extends the installed library: found as the current
    # folder, or by --root, or by $POGDSL_HOME.
    mod = _mod(tmp_path)
    for cwd, more, env in ((mod, (), {}), (elsewhere, ("--root", str(mod)), {}),
                           (elsewhere, (), {"POGDSL_HOME": str(mod)})):
        proc = _cli(pogdsl, "check", *more, cwd=cwd, env={**cache, **env})
        assert proc.returncode == 0, proc.stderr
        assert f"checked {len(LIBRARY) + 1} files: 0 errors, 0 warnings" in proc.stderr
    proc = _cli(pogdsl, "simulate", "short_war", "--games", "1", "--workers", "1", "--json", cwd=mod, env=cache)
    assert proc.returncode == 0, proc.stderr

    # In a checkout, its own folders are the library (not added to the installed one).
    proc = _cli(pogdsl, "check", cwd=src, env=cache)
    assert proc.returncode == 0, proc.stderr
    assert f"checked {len(LIBRARY)} files: 0 errors, 0 warnings" in proc.stderr

    # An install without its library, in an empty folder: a usage error with a hint.
    shutil.rmtree(package / "library")
    empty = tmp_path / "empty"
    empty.mkdir()
    proc = _cli(pogdsl, "check", "--strict", cwd=empty, env=cache)
    assert proc.returncode == 2, proc.stderr
    assert "no .pog file found" in proc.stderr and "installed without its library" in proc.stderr
    proc = _cli(pogdsl, "simulate", "campaign", "--games", "1", cwd=empty, env=cache)
    assert proc.returncode == 2 and "installed without its library" in proc.stderr
