"""Several rulebooks: citations naming their rulebook (`cites soe 12.4.6,
12.4.3`), a variant's own rule index beside the main one, `same_as`, the
`pogdsl rules` report per rulebook, test markers naming another rulebook's
rule, and scenario names written with hyphens.

The project is tests/fixtures/rulebooks: a made-up game whose main rulebook
`base` is in rules/, and a variant `two_books` in scenarios/two-books/ with
its own rulebook `variant`.  The checker's diagnostics for these (E0601 naming
the rulebook, E0605, E0606) are golden cases in tests/diagnostics.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pogdsl.compiler import compile_paths, resolve_scenario, scenario_name
from pogdsl.opening import open_scenario
from pogdsl.syntax import ast as A
from pogdsl.syntax.parser import parse_text
from pogdsl.testindex import marked_tests

REPO = Path(__file__).resolve().parents[1]
FIX = REPO / "tests" / "fixtures" / "rulebooks"


def run(*args: str, cwd: Path = REPO):
    env = dict(os.environ)
    env.pop("POGDSL_HOME", None)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-m", "pogdsl.cli", *args, "--root", str(FIX)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    return proc


# ------------------------------------------------------------ syntax

def test_a_rulebook_name_applies_to_the_one_number_it_precedes():
    module, diags = parse_text("flag f cites soe 12.4.6, 12.4.3, soe 10.1\n", "x.pog")
    assert diags == []
    (flag,) = module.decls
    assert [c.number for c in flag.cites] == ["soe 12.4.6", "12.4.3", "soe 10.1"]
    assert [(c.rulebook, c.rule) for c in flag.cites] == [("soe", "12.4.6"), (None, "12.4.3"), ("soe", "10.1")]
    # the span of a named citation covers the name and the number
    first = flag.cites[0]
    assert (first.span.col, first.span.end_col) == (14, 24)


def test_a_statement_and_remove_cites_take_a_named_citation():
    text = ('procedure p cites soe 1.1 {\n  call q() cites soe 1.2\n}\n'
            'scenario s extends t {\n  remove cites soe 1.3\n}\n')
    module, diags = parse_text(text, "x.pog")
    assert diags == []
    proc, scen = module.decls
    assert [c.number for c in proc.body.body[0].cites] == ["soe 1.2"]
    assert scen.overrides[0].rule.number == "soe 1.3"


def test_rule_entry_same_as():
    text = 'rulebook soe "SoE" {\n  rule 10.1 "Stacking" same_as 10.1\n  rule 10.2 same_as 10.3 not_applicable "no"\n}\n'
    module, diags = parse_text(text, "x.pog")
    assert diags == []
    a, b = module.decls[0].entries
    assert (a.number, a.title, a.same_as.number, a.not_applicable) == ("10.1", "Stacking", "10.1", None)
    assert (b.number, b.title, b.same_as.number, b.not_applicable) == ("10.2", None, "10.3", "no")


def test_split_citation():
    assert A.split_citation("soe 12.4.6") == ("soe", "12.4.6")
    assert A.split_citation("12.4.6") == (None, "12.4.6")
    assert A.citation_text("soe", "1.1") == "soe 1.1" and A.citation_text(None, "1.1") == "1.1"


# ------------------------------------------------------------ the model

def test_each_rulebook_has_its_index_and_the_one_in_rules_is_the_main_one():
    comp = compile_paths(None, root=FIX)
    assert [d.message for d in comp.reporter.items] == []
    program = comp.base
    assert program.main_rulebook == "base"
    assert set(program.rulebooks) == {"base", "variant"}
    assert program.rule_index is program.rulebooks["base"]
    assert program.rule_entry("2.1").title == "Pushing"
    assert program.rule_entry("variant 11.1").title == "Pushing twice as hard"
    assert program.rule_entry("base 2.1").title == "Pushing"  # the main rulebook by its name
    assert program.rule_entry("variant 2.1") is None and program.rule_entry("nobook 1.1") is None
    assert program.rulebooks["variant"]["10.0"].same_as.number == "1.0"


def test_the_same_number_in_two_rulebooks_is_no_duplicate():
    comp = compile_paths(None, root=FIX)
    assert "11.0" not in comp.base.rule_index and "11.0" in comp.base.rulebooks["variant"]
    assert not [d for d in comp.reporter.items if d.code == "E0603"]


# ------------------------------------------------------------ citations flow on

def test_graph_and_log_show_a_named_citation():
    comp, program = resolve_scenario("two_books", root=FIX)
    from pogdsl.graph.build import build_graph

    g = build_graph(program)
    rule = g.nodes["rule:variant 11.1"]
    assert (rule["kind"], rule["title"]) == ("rule", "Pushing twice as hard")
    assert g.nodes["procedure:push"]["cites"] == ["variant 11.1", "2.1"]
    opened = open_scenario("two_books", FIX)
    game = opened.new_game(1)
    assert game.run() is None  # the fixture asks nobody anything
    pushes = [e for e in game.s["log"] if e["text"] == "a push of two"]
    assert pushes and all(e["rules"][0] == "variant 11.1" for e in pushes)


def test_diff_names_both_rulebooks():
    proc = run("diff", "base_game", "two_books")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    # a variant written to its own rulebook is read against it: the change is
    # listed under the variant's number, with the main rule it replaces
    assert lines[1] == "variant 11.1  Pushing twice as hard"
    assert lines[2].endswith("(also cites 2.1)")


# ------------------------------------------------------------ pogdsl rules

def test_rules_text_has_a_section_per_rulebook():
    proc = run("rules", "two_books")
    assert proc.returncode == 0, proc.stderr
    lines = [line.rstrip() for line in proc.stdout.splitlines()]
    # the main rulebook's section, as for a scenario with one rulebook
    assert lines[0] == "scenario two_books: 5 rule numbers cited, 1 marked not applicable, 2 leaf rules not yet covered"
    assert not any(line.strip().startswith("variant 11") for line in lines[:6])
    at = lines.index("rulebook variant \"The variant's rules\": 2 cited, 3 same as base, 1 not applicable, "
                     "1 not yet covered")
    rows = {line.split()[0]: line for line in lines[at + 1:]}
    assert list(rows) == ["10.0", "10.1", "11.0", "11.1", "11.2", "11.3", "12.0"]
    assert rows["10.0"].endswith("same as base 1.0")
    assert rows["11.0"].endswith("scenarios/two-books/scenario.pog:3; same as base 2.0")
    assert rows["11.1"].endswith("scenarios/two-books/scenario.pog:4 (+2)")
    assert rows["11.2"].endswith("same as base 2.2, not covered there")  # base 2.2 is cited by nothing
    assert rows["11.3"].endswith("not yet covered")
    assert rows["12.0"].endswith("not applicable: commentary; no rule of play")


def test_rules_json_keeps_the_main_shape_and_adds_the_rulebooks():
    data = json.loads(run("rules", "two_books", "--json").stdout)
    assert set(data["cited"]) == {"1.0", "1.1", "2.0", "2.1", "3.0"}  # only the main rulebook's numbers
    assert data["uncovered"] == ["2.2", "3.1"] and data["not_applicable"] == {"9.9": "no rule of play"}
    assert data["main_rulebook"] == "base"
    book = data["rulebooks"]["variant"]
    assert book["counts"] == {"cited": 2, "same": 3, "not_applicable": 1, "uncovered": 1, "parent": 0}
    assert book["uncovered"] == ["11.3"]
    assert book["rules"]["10.1"] == {"title": "Victory points", "status": "same", "same_as": "1.1",
                                     "same_as_covered": True}
    assert book["rules"]["11.1"]["status"] == "cited" and len(book["rules"]["11.1"]["cited"]) == 3
    assert book["rules"]["12.0"] == {"title": "Designer's notes", "status": "not_applicable",
                                     "reason": "commentary; no rule of play"}


def test_a_scenario_citing_no_other_rulebook_reports_only_the_main_one():
    data = json.loads(run("rules", "base_game", "--json").stdout)
    assert "rulebooks" not in data and "main_rulebook" not in data
    assert "rulebook variant" not in run("rules", "base_game").stdout


def _marked(tmp_path: Path) -> Path:
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_two.py").write_text(
        'import pytest\n\n\n'
        '@pytest.mark.rule("variant  11.1")\n@pytest.mark.rule("2.1")\ndef test_push():\n    pass\n\n\n'
        '@pytest.mark.rule("variant 99.1")\n@pytest.mark.rule("nobook 1.0")\ndef test_stray():\n    pass\n',
        encoding="utf-8")
    return tests


def test_a_marker_names_another_rulebooks_rule(tmp_path):
    tests = _marked(tmp_path)
    index = marked_tests(tests, "rule")
    assert [t.id for t in index["variant 11.1"]] == ["tests/test_two.py::test_push"]  # spaces written one way
    data = json.loads(run("rules", "two_books", "--tests", "--tests-dir", str(tests), "--json").stdout)
    row = data["rules"]["variant 11.1"]
    assert row["title"] == "Pushing twice as hard" and row["tests"] == ["tests/test_two.py::test_push"]
    assert row["cited"][0].endswith("scenarios/two-books/scenario.pog:4")
    assert data["unknown_in_tests"] == ["nobook 1.0", "variant 99.1"]


def test_a_marker_of_a_rulebook_the_scenario_does_not_use_is_left_out(tmp_path):
    tests = _marked(tmp_path)
    data = json.loads(run("rules", "base_game", "--tests", "--tests-dir", str(tests), "--json").stdout)
    assert "variant 11.1" not in data["rules"]
    assert data["unknown_in_tests"] == ["nobook 1.0", "variant 99.1"]


# ------------------------------------------------------------ scenario names with hyphens

def test_scenario_name_reads_hyphens_as_underscores():
    assert scenario_name("suicide-of-europe") == "suicide_of_europe"
    assert scenario_name("campaign-tournament+tournament-bid") == "campaign_tournament+tournament_bid"
    assert scenario_name("my-variant.pog") == "my-variant.pog"  # a file is left as it is
    assert scenario_name("two-books", by_name=True) == "two_books"


@pytest.mark.parametrize("command", [("rules",), ("rules", "--json"), ("cards", "--json"), ("show",),
                                     ("graph", "--format", "json")])
def test_a_hyphenated_name_is_the_same_scenario(command):
    verb, *rest = command
    hyphen, underscore = run(verb, "two-books", *rest), run(verb, "two_books", *rest)
    assert hyphen.returncode == underscore.returncode == 0, hyphen.stderr
    assert hyphen.stdout == underscore.stdout


def test_a_hyphenated_name_in_diff_simulate_and_open():
    assert run("diff", "base-game", "two-books").stdout == run("diff", "base_game", "two_books").stdout
    proc = run("simulate", "two-books", "--games", "2", "--seed", "1", "--workers", "1")
    assert proc.returncode == 0 and "0 failed" in proc.stdout, proc.stderr
    assert open_scenario("two-books", FIX).key == "two_books"


def test_an_unknown_hyphenated_name_is_a_usage_error():
    proc = run("rules", "two-bokks")
    assert proc.returncode == 2
    assert "unknown scenario 'two_bokks'" in proc.stderr and "two_books" in proc.stderr
