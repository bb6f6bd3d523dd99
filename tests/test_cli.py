"""The `pogdsl` command, run as a user runs it: in a subprocess.

Exit status is part of the contract (0 clean, 1 errors in the sources, 2 wrong
usage), and no input, however bad, may end in a Python traceback.  Every run
here goes through `run()`, which asserts that.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

import pogdsl
from pogdsl.graph.build import EDGE_KINDS

REPO = Path(__file__).resolve().parents[1]
DIAG = REPO / "tests" / "diagnostics"
PROJECT = DIAG / "project"
CASES = DIAG / "cases"

_HEAD = re.compile(r"^(?P<file>\S+?):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning)\[(?P<code>[EW]\d{4})\]: (?P<msg>.+)$")


def run(*args: str, cwd: Path = DIAG, root: bool = True, command: list[str] | None = None):
    """Run pogdsl with `--root project` (relative to tests/diagnostics) and
    check that nothing like a traceback reached the user."""
    argv = list(command or [sys.executable, "-m", "pogdsl.cli"]) + list(args)
    if root:
        argv += ["--root", str(PROJECT)]
    env = dict(os.environ)
    env.pop("POGDSL_HOME", None)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=120,
                          check=False)
    for stream in (proc.stdout, proc.stderr):
        assert "Traceback" not in stream, stream
        assert "most recent call last" not in stream, stream
    return proc


# ------------------------------------------------------------------ basics

def test_console_script_is_declared():
    scripts = {ep.name: ep.value for ep in metadata.entry_points(group="console_scripts")}
    assert scripts.get("pogdsl") == "pogdsl.cli:main"


@pytest.mark.skipif(shutil.which("pogdsl") is None, reason="the package is not installed with its scripts")
def test_console_script_runs():
    proc = run("--version", root=False, command=[shutil.which("pogdsl")])
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[0] == f"pogdsl {pogdsl.__version__}"  # (then whether it runs compiled)


def test_version():
    proc = run("--version", root=False)
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[0] == f"pogdsl {pogdsl.__version__}"  # (then whether it runs compiled)


def test_no_command_is_usage():
    proc = run(root=False)
    assert proc.returncode == 2
    assert "usage" in (proc.stdout + proc.stderr).lower()


def test_unknown_option_is_usage():
    proc = run("check", "--bogus")
    assert proc.returncode == 2
    assert "unrecognized arguments: --bogus" in proc.stderr
    assert proc.stderr.startswith("usage:")


def test_unknown_command_is_usage():
    proc = run("frobnicate", root=False)
    assert proc.returncode == 2
    assert "invalid choice" in proc.stderr


def test_bad_format_is_usage():
    proc = run("graph", "mini", "--format", "svg")
    assert proc.returncode == 2
    assert "invalid choice: 'svg'" in proc.stderr


@pytest.mark.parametrize("command", ["check", "graph", "rules", "cards"])
def test_help(command):
    proc = run(command, "--help", root=False)
    assert proc.returncode == 0
    assert proc.stdout.startswith(f"usage: pogdsl {command}")


def test_every_commands_help_reads_its_percent_signs_once():
    """argparse formats an option's help with `%`, so it is written `%%`
    there; a command's description is printed as written, so a `%%` in it
    would reach the reader doubled (as `95%% interval` did)."""
    import argparse

    from pogdsl.cli import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    assert len(commands) > 20
    for name, command in commands.items():
        text = command.format_help()
        assert "%%" not in text, name
        assert "%(" not in text, name


# ------------------------------------------------------------------ check

def test_check_clean_project():
    proc = run("check")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""
    assert proc.stderr == "checked 6 files: 0 errors, 0 warnings\n"


def test_check_quiet_clean_project_prints_nothing():
    proc = run("check", "-q")
    assert proc.returncode == 0
    assert proc.stdout == proc.stderr == ""


def test_check_bad_file_reports_in_the_documented_format():
    proc = run("check", "cases/unknown_space.pog")
    assert proc.returncode == 1
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert lines[0] == "cases/unknown_space.pog:5:29: error[E0203]: unknown space 'Leige'"
    assert lines[1] == " 5 |   event cites 6.1 { destroy Leige }"
    assert lines[2] == "   |                             ^^^^^"
    assert lines[3] == "   = hint: did you mean 'Liege'?"
    assert lines[-1] == "checked 7 files: 1 error, 0 warnings"


def test_check_output_equals_the_golden_file():
    """The CLI prints exactly what the golden tests render."""
    proc = run("check", "-q", "cases/three_broken_blocks.pog")
    assert proc.returncode == 1
    assert proc.stderr == (CASES / "three_broken_blocks.expected").read_text(encoding="utf-8")


def test_check_every_diagnostic_line_parses():
    proc = run("check", "cases/wrong_kind.pog", "cases/wrong_preposition.pog", "cases/flag_never_written.pog")
    assert proc.returncode == 1
    heads = [m.groupdict() for m in map(_HEAD.match, proc.stderr.splitlines()) if m]
    assert [(h["file"], h["line"], h["code"]) for h in heads] == [
        ("cases/flag_never_written.pog", "4", "W0701"),
        ("cases/wrong_kind.pog", "5", "E0301"),
        ("cases/wrong_kind.pog", "5", "E0301"),
        ("cases/wrong_preposition.pog", "4", "E0303"),
        ("cases/wrong_preposition.pog", "4", "E0303"),
    ]
    assert proc.stderr.splitlines()[-1] == "checked 9 files: 4 errors, 1 warning"


def test_check_warnings_only_is_clean_unless_strict():
    proc = run("check", "cases/phase_unreachable.pog")
    assert proc.returncode == 0
    assert "warning[W0702]" in proc.stderr
    assert run("check", "--strict", "cases/phase_unreachable.pog").returncode == 1


def test_check_folder():
    proc = run("check", "-q", "cases")
    assert proc.returncode == 1
    assert "cases/unknown_space.pog:5:29: error[E0203]" in proc.stderr
    assert "cases/binary.pog: error[E0001]" in proc.stderr


def test_check_standalone_file():
    proc = run("check", "--standalone", "project/rules/board.pog", root=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.endswith("checked 1 file: 0 errors, 0 warnings\n")


def test_check_missing_path_is_usage():
    proc = run("check", "no/such/file.pog")
    assert proc.returncode == 2
    assert proc.stderr == "pogdsl check: error: no such file or directory: no/such/file.pog\n"


def test_check_json():
    proc = run("check", "--json", "cases/duplicate_space.pog", "cases/empty.pog")
    assert proc.returncode == 1
    data = json.loads(proc.stdout)
    assert data["files"] == 8 and data["errors"] == 1 and data["warnings"] == 1
    by_code = {d["code"]: d for d in data["diagnostics"]}
    dup = by_code["E0401"]
    assert dup == {
        "severity": "error", "code": "E0401", "message": "space 'Sedan' is defined twice",
        "file": "cases/duplicate_space.pog", "line": 3, "column": 9, "end_line": 3, "end_column": 14,
        "hint": "rename one of them, or use `replace` in a scenario to change it",
        "notes": [{"message": "first defined here", "at": "project/rules/board.pog:18:9"}],
    }
    assert by_code["W0704"]["severity"] == "warning"
    assert proc.stderr == ""


def test_check_json_clean():
    proc = run("check", "--json")
    assert proc.returncode == 0
    assert json.loads(proc.stdout) == {"files": 6, "errors": 0, "warnings": 0, "diagnostics": []}


# ------------------------------------------------------------------ bad files never end in a traceback

@pytest.mark.parametrize("case, status, code", [
    ("binary", 1, "E0001"),
    ("non_utf8", 1, "E0001"),
    ("empty", 0, "W0704"),
    ("cyclic_extends", 1, "E0503"),
    ("unknown_extends", 1, "E0216"),
    ("syntax_error", 1, "E0101"),
    ("unterminated_text", 1, "E0102"),
])
def test_check_bad_files(case, status, code):
    proc = run("check", f"cases/{case}.pog")
    assert proc.returncode == status
    assert f"cases/{case}.pog" in proc.stderr and f"[{code}]" in proc.stderr


def test_check_an_empty_root(tmp_path):
    """Checking no file at all would pass anything: a usage error, with a hint
    (issue 22; it was "checked 0 files", exit 0)."""
    proc = run("check", "--root", str(tmp_path), root=False)
    assert proc.returncode == 2
    assert f"error: no .pog file found in the rules/, cards/ or scenarios/ of {tmp_path.resolve()}" in proc.stderr
    assert "hint: " in proc.stderr and "--root DIR" in proc.stderr


# ------------------------------------------------------------------ graph

def _graph_json(*args):
    proc = run("graph", *args, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_graph_json():
    data = _graph_json("mini")
    assert data["scenario"] == "mini"
    ids = [n["id"] for n in data["nodes"]]
    assert len(ids) == len(set(ids))
    assert {"sequence:turn", "phase:action", "procedure:combat", "card:cp 1", "scenario:mini",
            "rule:4.2", "space:Liege"} <= set(ids)
    kinds = {e["kind"] for e in data["edges"]}
    assert kinds <= set(EDGE_KINDS)
    assert {"next", "calls", "cites", "reads", "writes"} <= kinds
    for e in data["edges"]:
        assert e["source"] in ids and e["target"] in ids


def test_graph_dot():
    proc = run("graph", "mini", "--format", "dot")
    assert proc.returncode == 0
    assert proc.stdout.startswith('digraph "mini" {')
    assert proc.stdout.rstrip().endswith("}")
    assert '"sequence:turn" -> "phase:action" [label="next"];' in proc.stdout


def test_graph_dot_is_the_default_and_kinds_filter():
    proc = run("graph", "mini", "--kinds", "phase", "sequence")
    assert proc.returncode == 0 and proc.stdout.startswith("digraph")
    assert "procedure:" not in proc.stdout and '"phase:attrition"' in proc.stdout


def test_graph_output_file(tmp_path):
    out = tmp_path / "g.json"
    proc = run("graph", "mini_variant", "--format", "json", "-o", str(out))
    assert proc.returncode == 0 and proc.stdout == ""
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["scenario"] == "mini_variant"
    assert any(e["kind"] == "overrides" for e in data["edges"])


def test_graph_scenario_given_as_a_path(tmp_path):
    path = tmp_path / "extra.pog"
    path.write_text('scenario extra "Extra" extends mini cites 7.0 {\n  turns 1..1\n}\n', encoding="utf-8")
    data = _graph_json(str(path))
    assert data["scenario"] == "extra"
    node = next(n for n in data["nodes"] if n["id"] == "scenario:extra")
    assert node["turns"] == [1, 1] and node["sequence"] == "turn"


def test_graph_library_scenario_given_as_a_path():
    assert _graph_json("project/scenarios/mini.pog")["scenario"] == "mini"


def test_graph_unknown_scenario_is_usage():
    proc = run("graph", "minii")
    assert proc.returncode == 2
    assert "unknown scenario 'minii'" in proc.stderr
    assert "did you mean 'mini'?" in proc.stderr
    assert proc.stdout == ""


def test_graph_missing_file_is_usage():
    proc = run("graph", "nowhere.pog")
    assert proc.returncode == 2
    assert proc.stderr == "pogdsl graph: error: no such file: nowhere.pog\n"


def test_graph_scenario_with_errors():
    proc = run("graph", "cases/cyclic_extends.pog")
    assert proc.returncode == 1
    assert "error[E0503]" in proc.stderr and proc.stdout == ""


@pytest.mark.parametrize("case", ["binary", "empty", "non_utf8"])
def test_graph_unreadable_or_empty_file(case):
    proc = run("graph", f"cases/{case}.pog")
    assert proc.returncode in (1, 2)
    assert proc.stdout == ""
    assert proc.stderr.strip()


def test_graph_scenario_file_with_syntax_error(tmp_path):
    path = tmp_path / "broken.pog"
    path.write_text('scenario broken "b" extends mini cites 7.0 {\n  turns 1..\n}\n', encoding="utf-8")
    proc = run("graph", str(path))
    assert proc.returncode == 1
    assert "error[E0101]" in proc.stderr


def test_graph_binary_file_says_binary(tmp_path):
    path = tmp_path / "data.pog"
    path.write_bytes((CASES / "binary.pog").read_bytes())
    proc = run("graph", str(path))
    assert "binary file" in proc.stderr or "E0001" in proc.stderr


def test_graph_variant_removing_itself(tmp_path):
    path = tmp_path / "gone.pog"
    path.write_text('scenario gone "g" extends mini cites 7.0 {\n  remove scenario gone\n}\n', encoding="utf-8")
    proc = run("graph", str(path), "--format", "json")
    assert proc.returncode in (0, 1)


# ------------------------------------------------------------------ rules

def _cites_on(line: str) -> list[str]:
    m = re.search(r"\bcites\s+([0-9A-H.]+(?:\s*,\s*[0-9A-H.]+)*)", line)
    return [n.strip() for n in m.group(1).split(",")] if m else []


def test_rules_json():
    proc = run("rules", "mini", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert set(data) >= {"cited", "not_applicable"}
    assert data["scenario"] == "mini"
    assert data["not_applicable"] == {"8.1": "how to write to the publisher; nothing to play"}
    assert set(data["cited"]) == {"1.0", "2.1", "2.2", "2.3", "3.1", "3.2", "4.1", "4.2", "4.2.1", "4.2.2",
                                  "5.0", "5.1", "5.2", "6.1", "7.0", "7.1"}
    for number, where in data["cited"].items():
        assert isinstance(where, list) and where
        for location in where:
            file, line = location.rsplit(":", 1)
            text = (DIAG / file).read_text(encoding="utf-8").splitlines()[int(line) - 1]
            assert number in _cites_on(text), (number, location, text)
    assert "project/scenarios/mini.pog:8" in data["cited"]["7.1"]
    assert data.get("uncovered") == []


def test_rules_of_a_variant_count_its_own_overrides():
    data = json.loads(run("rules", "mini_variant", "--json").stdout)
    # The variant's replaced attrition phase is what cites 5.2 now.
    assert data["cited"]["5.2"] == ["project/scenarios/mini.pog:22"]


def test_rules_text():
    proc = run("rules", "mini")
    assert proc.returncode == 0
    first = proc.stdout.splitlines()[0]
    assert first == "scenario mini: 16 rule numbers cited, 1 marked not applicable, 0 leaf rules not yet covered"


def test_rules_unknown_scenario_is_usage():
    proc = run("rules", "mini_varient", "--json")
    assert proc.returncode == 2
    assert "did you mean 'mini_variant'?" in proc.stderr
    assert proc.stdout == ""


@pytest.mark.parametrize("case, status", [("cyclic_extends", 1), ("binary", 1), ("empty", 2)])
def test_rules_bad_files(case, status):
    """Sources with errors show them (exit 1); a file declaring nothing is a usage error (exit 2)."""
    proc = run("rules", f"cases/{case}.pog", "--json")
    assert proc.returncode == status
    assert proc.stdout == ""
    if case == "binary":
        assert "E0001" in proc.stderr


def test_rules_locations_are_listed_once():
    data = json.loads(run("rules", "mini", "--json").stdout)
    for number, where in data["cited"].items():
        assert len(where) == len(set(where)), number


def _rule_tests(tmp_path):
    """A tests folder naming rules of the mini project: 7.1 twice, 5.0 once,
    and 99.9, which is not in the index."""
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_mini.py").write_text(
        'import pytest\n\n\n'
        '@pytest.mark.rule("7.1")\n@pytest.mark.rule("5.0")\ndef test_one():\n    pass\n\n\n'
        '@pytest.mark.rule("7.1")\ndef test_two():\n    pass\n\n\n'
        '@pytest.mark.rule("99.9")\ndef test_stray():\n    pass\n', encoding="utf-8")
    return tests


def test_rules_tests_json(tmp_path):
    tests = _rule_tests(tmp_path)
    proc = run("rules", "mini", "--tests", "--tests-dir", str(tests), "--json", "--uncovered")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["rules"]["7.1"]["tests"] == ["tests/test_mini.py::test_one", "tests/test_mini.py::test_two"]
    assert "project/scenarios/mini.pog:8" in data["rules"]["7.1"]["cited"]
    assert data["rules"]["5.0"]["tests"] == ["tests/test_mini.py::test_one"]
    assert data["rules"]["99.9"] == {"title": None, "cited": [], "tests": ["tests/test_mini.py::test_stray"]}
    assert data["unknown_in_tests"] == ["99.9"]
    # every leaf rule is cited by the mini project; only 7.1 is named by a test
    assert all(lacks == ["test"] for lacks in data["uncovered"].values())
    assert "7.1" not in data["uncovered"] and "8.1" not in data["uncovered"]  # 8.1 is not applicable
    assert data["uncovered"]


def test_rules_tests_text(tmp_path):
    tests = _rule_tests(tmp_path)
    proc = run("rules", "mini", "--tests", "--tests-dir", str(tests), "--uncovered")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("scenario mini: 16 rule numbers cited, 3 named by tests; 1 of ")
    at = lines.index(next(line for line in lines if line.strip().startswith("7.1 ")))
    assert lines[at + 1].strip() == "cited  project/scenarios/mini.pog:8"
    assert "test   tests/test_mini.py::test_two" in [line.strip() for line in lines[at:at + 6]]
    assert "named by tests but not in the rule index: 99.9" in lines
    assert any(line.startswith("leaf rules not covered (") for line in lines)
    assert any(line.rstrip().endswith("no test") for line in lines)


def test_rules_tests_without_a_tests_folder():
    """The mini project has no tests/ folder: no rule is named by a test."""
    data = json.loads(run("rules", "mini", "--tests", "--json").stdout)
    assert all(entry["tests"] == [] for entry in data["rules"].values())
    assert data["unknown_in_tests"] == []


def test_check_text_with_odd_escapes(tmp_path):
    """Once a traceback (an unknown escape such as \\x in a text): now kept as written."""
    path = tmp_path / "esc.pog"
    path.write_text('side xx "bad \\x \\N{nope} Li\u00e8ge" cites 1.0\n', encoding="utf-8")
    proc = run("check", str(path))
    assert proc.returncode == 0, proc.stderr


# ------------------------------------------------------------------ the result cache of `check`

def _project_copy(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(PROJECT, root)
    return root


def test_check_replays_an_unchanged_result(tmp_path):
    root = _project_copy(tmp_path)
    cache = tmp_path / "cache"
    env_args = ["--root", str(root)]
    first = run_with_cache(cache, "check", *env_args)
    assert list((cache / "check").glob("*.json")), "the result was not kept"
    # Poison the parse step: a replayed result must not parse anything.
    second = run_with_cache(cache, "check", *env_args, extra_env={"POGDSL_FAIL_IF_PARSING": "1"})
    assert (second.returncode, second.stdout, second.stderr) == (first.returncode, first.stdout, first.stderr)


def test_check_result_follows_the_sources(tmp_path):
    root = _project_copy(tmp_path)
    cache = tmp_path / "cache"
    clean = run_with_cache(cache, "check", "--root", str(root))
    assert clean.returncode == 0
    card = next(root.rglob("*.pog"))
    card.write_text(card.read_text(encoding="utf-8") + "\nflag broken cites\n", encoding="utf-8")
    broken = run_with_cache(cache, "check", "--root", str(root))
    assert broken.returncode == 1 and "E0101" in broken.stderr
    # Options are part of the key too.
    as_json = run_with_cache(cache, "check", "--json", "--root", str(root))
    assert json.loads(as_json.stdout)["errors"] >= 1


def test_check_no_cache_runs_the_check(tmp_path):
    root = _project_copy(tmp_path)
    cache = tmp_path / "cache"
    run_with_cache(cache, "check", "--root", str(root))
    poisoned = run_with_cache(cache, "check", "--no-cache", "--root", str(root),
                              extra_env={"POGDSL_FAIL_IF_PARSING": "1"}, allow_failure=True)
    assert poisoned.returncode != 0  # it really parsed (and the poison stopped it)


# ------------------------------------------------------------------ attacks on the caches (issue 35)

# A pickle that, when loaded, leaves a file behind: the proof that reading
# the cache ran code.
_PLANTED_PICKLE = """
import os, pickle, sys
class Payload:
    def __reduce__(self):
        return (os.system, ("touch " + sys.argv[2],))
data = pickle.dumps(Payload(), protocol=4)
open(sys.argv[1], "wb").write(data)
"""


def _plant_pickle(path: Path, marker: Path) -> None:
    subprocess.run([sys.executable, "-c", _PLANTED_PICKLE, str(path), str(marker)], check=True, timeout=60)


def _with_an_error(tmp_path: Path) -> Path:
    root = _project_copy(tmp_path)
    card = next(root.rglob("*.pog"))
    card.write_text(card.read_text(encoding="utf-8") + "\nflag broken cites\n", encoding="utf-8")
    return root


def test_a_pickle_planted_in_the_cache_runs_no_code(tmp_path):
    """Issue 35: the parse cache was a pickle, so a file planted in the cache
    folder ran code as soon as `check` read it.  The caches hold plain JSON;
    a pickle at any of their names (or at the old ones) is a miss."""
    from pogdsl.syntax.parser import grammar_digest

    root = _project_copy(tmp_path)
    cache = tmp_path / "cache"
    (cache / "check").mkdir(parents=True)
    marker = tmp_path / "ran"
    digest = grammar_digest()
    for name in (f"ast-{digest}.pickle", f"ast-{digest}.json", f"lalr-{digest}.cache"):
        _plant_pickle(cache / name, marker)
    clean = run_with_cache(cache, "check", "--root", str(root))
    assert not marker.exists(), "a planted pickle ran"
    assert clean.returncode == 0, clean.stderr
    for result in (cache / "check").glob("*.json"):  # the result files too
        _plant_pickle(result, marker)
    again = run_with_cache(cache, "check", "--root", str(root))
    assert not marker.exists() and (again.returncode, again.stderr) == (0, clean.stderr)


def test_a_rewritten_result_does_not_pass_a_file_with_errors(tmp_path):
    """Issue 35: a cached result rewritten to say "no errors" (or one copied
    from a clean check) made `check` pass a file with errors.  A result is
    sealed with its key: an edited or moved one is ignored and rebuilt."""
    root = _with_an_error(tmp_path)
    cache = tmp_path / "cache"
    broken = run_with_cache(cache, "check", "--root", str(root))
    assert broken.returncode == 1 and "E0101" in broken.stderr
    (result,) = (cache / "check").glob("*.json")
    *head, content = result.read_bytes().split(b"\n")  # (the JSON last, after any seal)
    data = json.loads(content)
    data.update(exit=0, stderr="", stdout="")
    for forged in (b"\n".join([*head, json.dumps(data).encode()]), json.dumps(data).encode()):
        result.write_bytes(forged)
        again = run_with_cache(cache, "check", "--root", str(root))
        assert (again.returncode, again.stderr) == (1, broken.stderr)
    # a genuine result of another key, copied over this one
    clean_root = _project_copy(tmp_path / "clean")
    run_with_cache(cache, "check", "--root", str(clean_root))
    other = next(p for p in (cache / "check").glob("*.json") if p != result)
    shutil.copy(other, result)
    again = run_with_cache(cache, "check", "--root", str(root))
    assert (again.returncode, again.stderr) == (1, broken.stderr)


def test_a_rewritten_parse_cache_is_parsed_again(tmp_path):
    root = _project_copy(tmp_path)
    cache = tmp_path / "cache"
    run_with_cache(cache, "check", "--root", str(root))
    (ast_file,) = cache.glob("ast-*")
    data = ast_file.read_bytes()
    ast_file.write_bytes(data.replace(b'"', b"'", 1))  # any edit at all
    # (--no-cache: the result is not replayed, the parsed files are read)
    poisoned = run_with_cache(cache, "check", "--no-cache", "--root", str(root),
                              extra_env={"POGDSL_FAIL_IF_PARSING": "1"}, allow_failure=True)
    assert poisoned.returncode != 0 and "parsed although" in poisoned.stderr


def test_a_fifo_where_a_cache_file_should_be_is_passed_over(tmp_path):
    """Issue 35: a FIFO in place of a cache file made `check` wait forever
    for a writer.  It is passed over, without opening it."""
    root = _with_an_error(tmp_path)
    cache = tmp_path / "cache"
    broken = run_with_cache(cache, "check", "--root", str(root))
    paths = list((cache / "check").glob("*.json")) + list(cache.glob("ast-*"))
    assert len(paths) == 2
    for path in paths:
        path.unlink()
        os.mkfifo(path)
    again = run_with_cache(cache, "check", "--root", str(root), timeout=30)
    assert (again.returncode, again.stderr) == (1, broken.stderr)


def test_a_secret_others_can_read_turns_the_caches_off(tmp_path):
    """The seal is only as good as its secret: one that is not private to
    its owner (planted, or loosened) is not used, and nothing is replayed."""
    root = _project_copy(tmp_path)
    cache = tmp_path / "cache"
    first = run_with_cache(cache, "check", "--root", str(root))
    (cache / "secret").chmod(0o644)
    poisoned = run_with_cache(cache, "check", "--root", str(root),
                              extra_env={"POGDSL_FAIL_IF_PARSING": "1"}, allow_failure=True)
    assert poisoned.returncode != 0 and "parsed although" in poisoned.stderr
    again = run_with_cache(cache, "check", "--root", str(root))
    assert (again.returncode, again.stderr) == (first.returncode, first.stderr)


def run_with_cache(cache: Path, *args: str, extra_env: dict | None = None, allow_failure: bool = False,
                   timeout: int = 120):
    argv = [sys.executable, "-c", _POISONED_CLI] + list(args)
    env = dict(os.environ, POGDSL_CACHE_DIR=str(cache), **(extra_env or {}))
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")  # this checkout's pogdsl
    env.pop("POGDSL_HOME", None)
    proc = subprocess.run(argv, cwd=DIAG, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    if not allow_failure:
        assert "Traceback" not in proc.stderr, proc.stderr
    return proc


# The CLI, except that with POGDSL_FAIL_IF_PARSING set, parsing a file raises:
# how the tests see that a replayed result did no work.
_POISONED_CLI = """
import os, sys
if os.environ.get("POGDSL_FAIL_IF_PARSING"):
    import pogdsl.syntax.parser as P
    def refuse(*args, **kwargs):
        raise SystemExit("parsed although the result was cached")
    P.ParseCache.parse_many = refuse
from pogdsl.cli import main
sys.exit(main(sys.argv[1:]))
"""
