"""`pogdsl fmt`: one canonical layout, comments kept, idempotent, and the
compiled program unchanged (pogdsl/syntax/format.py, pogdsl/cli/fmt.py)."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pogdsl.cli import main
from pogdsl.syntax.format import FormatError, format_text

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(p for folder in ("rules", "cards", "scenarios", "docs/examples")
                 for p in (ROOT / folder).rglob("*.pog"))
IDS = [str(p.relative_to(ROOT)) for p in SHIPPED]


@pytest.fixture(scope="module")
def formatted():
    return {p: format_text(p.read_text(encoding="utf-8"), str(p.relative_to(ROOT))) for p in SHIPPED}


# ------------------------------------------------------------------ the project

def test_every_shipped_source_is_found():
    assert len(SHIPPED) > 190
    assert any("docs/examples" in i for i in IDS)


@pytest.mark.parametrize("path", SHIPPED, ids=IDS)
def test_formatting_twice_changes_nothing(formatted, path):
    once = formatted[path]
    assert format_text(once, str(path)) == once


def _without_locations(data):
    """A graph's JSON with every source location left out (they move when
    the layout does)."""
    if isinstance(data, dict):
        return {k: _without_locations(v) for k, v in data.items() if k not in ("line", "span", "file")}
    if isinstance(data, list):
        return [_without_locations(v) for v in data]
    if isinstance(data, str):
        return re.sub(r"\S+\.pog:\d+(:\d+)?", "<at>", data)
    return data


def _graphs(root: Path) -> dict:
    from pogdsl.compiler import compile_paths
    from pogdsl.graph.build import build_graph
    from pogdsl.graph.export import to_json_data

    comp = compile_paths(None, root=root)
    assert not comp.reporter.errors
    return {name: json.dumps(_without_locations(to_json_data(build_graph(program))), sort_keys=True)
            for name, (program, _) in sorted(comp.scenarios.items())}


def test_the_formatted_project_compiles_to_the_same_rule_graphs(formatted, tmp_path, monkeypatch):
    monkeypatch.setenv("POGDSL_CACHE_DIR", str(tmp_path / "cache"))
    copy = tmp_path / "project"
    for folder in ("rules", "cards", "scenarios"):
        shutil.copytree(ROOT / folder, copy / folder)
    for path, text in formatted.items():
        relative = path.relative_to(ROOT)
        if relative.parts[0] in ("rules", "cards", "scenarios"):
            (copy / relative).write_text(text, encoding="utf-8")
    before, after = _graphs(ROOT), _graphs(copy)
    assert sorted(before) == sorted(after) and len(before) >= 7
    for name in before:
        assert before[name] == after[name], name


# ------------------------------------------------------------------ layout

def test_layout_does_not_depend_on_how_the_author_spaced_it():
    one = 'value  reach_ok( s : space )cites 12.1=\n  s.vp   and\n not s.fort_destroyed\n"Our own words."\n'
    two = 'value reach_ok(s: space) cites 12.1 = s.vp and not s.fort_destroyed "Our own words."\n'
    assert format_text(one) == format_text(two) == (
        'value reach_ok(s: space) cites 12.1 = s.vp and not s.fort_destroyed\n  "Our own words."\n')


def test_a_block_is_indented_two_spaces_a_statement_a_line():
    text = "procedure p(s: space) cites 1.1 { \"Note.\" if s.vp { set vp to vp + 1 } else { log \"no\" } }\n"
    assert format_text(text) == (
        "procedure p(s: space) cites 1.1 {\n"
        "  \"Note.\"\n"
        "  if s.vp {\n"
        "    set vp to vp + 1\n"
        "  } else {\n"
        "    log \"no\"\n"
        "  }\n"
        "}\n")


def test_a_long_condition_breaks_after_the_equals_then_before_and():
    conds = " and ".join(f"condition_number_{i}(s)" for i in range(6))
    out = format_text(f"value v(s: space) cites 1.1 = {conds}\n")
    # as many operands a line as fit in 100 columns, each new line starting with `and`
    assert out == ("value v(s: space) cites 1.1 =\n"
                   "  condition_number_0(s) and condition_number_1(s) and condition_number_2(s)\n"
                   "  and condition_number_3(s) and condition_number_4(s) and condition_number_5(s)\n")
    short = " and ".join(f"c{i}" for i in range(6))
    assert format_text(f"value v(s: space) cites 1.1 =\n  {short}\n") == f"value v(s: space) cites 1.1 = {short}\n"


def test_an_operand_too_long_for_any_line_starts_a_new_line_after_a_long_start():
    # The rule (docs/modding.rst, "Formatting"): an operand that fits no line
    # goes to a new line, so that its own breaks are not pushed against the
    # right margin; every line then stays within 100 columns.
    text = ("value v(s: space) cites 1.1 = s.control == cp and commitment[cp] == total_war_level "
            "and first_long_condition(s) and len([t for t in adjacent(s) where t != s and t.nation in [fr, be] "
            "and t.control == cp and t.supply and not t.besieged]) >= 2\n")
    out = format_text(text)
    assert out == (
        "value v(s: space) cites 1.1 =\n"
        "  s.control == cp and commitment[cp] == total_war_level and first_long_condition(s)\n"
        "  and len([t for t in adjacent(s)\n"
        "           where t != s and t.nation in [fr, be] and t.control == cp and t.supply\n"
        "                 and not t.besieged])\n"
        "      >= 2\n")
    assert max(len(line) for line in out.splitlines()) <= 100


def test_a_long_operand_after_a_short_start_breaks_where_it_stands():
    # a lone short operand is not left behind as a stub
    text = ("value v(s: space) cites 1.1 = ok and any(first_long_condition_of(t, s) and second_long_condition_of(t, s) "
            "and third_long_condition_of(t, s) for t in adjacent(s))\n")
    assert format_text(text) == (
        "value v(s: space) cites 1.1 =\n"
        "  ok and any(first_long_condition_of(t, s) and second_long_condition_of(t, s)\n"
        "             and third_long_condition_of(t, s)\n"
        "             for t in adjacent(s))\n")


def test_an_aggregate_breaks_before_for_and_where_but_not_after_a_lone_name():
    text = ("value v(p: side) cites 1.1 = sum(first_long_measure(u) + second_long_measure(u) for u in units_of(p) "
            "where u.on_map and not u.eliminated)\n"
            "value w(p: side) cites 1.1 = count(b for b in [first_long_flag_name, second_long_flag_name, "
            "third_long_flag_name, fourth_flag] where b)\n")
    assert format_text(text) == (
        "value v(p: side) cites 1.1 =\n"
        "  sum(first_long_measure(u) + second_long_measure(u)\n"
        "      for u in units_of(p)\n"
        "      where u.on_map and not u.eliminated)\n"
        "value w(p: side) cites 1.1 =\n"
        "  count(b for b in [first_long_flag_name, second_long_flag_name, third_long_flag_name, fourth_flag]\n"
        "        where b)\n")


def test_a_choose_puts_its_bindings_one_a_line_in_a_column():
    bindings = ("for p in [player], s in candidate_spaces_of(player), n in [none] + numbers_allowed_for(player), "
                "m in modes_allowed_for(player)")
    text = f"procedure p(player: side) cites 1.1 {{\n  choose pick(p, s, n, m) by player {bindings} where s != none\n}}\n"
    assert format_text(text) == (
        "procedure p(player: side) cites 1.1 {\n"
        "  choose pick(p, s, n, m) by player\n"
        "    for p in [player],\n"
        "        s in candidate_spaces_of(player),\n"
        "        n in [none] + numbers_allowed_for(player),\n"
        "        m in modes_allowed_for(player)\n"
        "    where s != none\n"
        "}\n")
    # bindings that fit stay on the clause's line
    short = "procedure p(player: side) cites 1.1 {\n  choose pick(p, s) by player for p in [player], s in spaces\n}\n"
    assert format_text(short) == short


def test_a_chain_of_cases_reads_as_a_list():
    text = ("value v(n: nation) cites 1.1 = (if n == ge then first_long_answer_here else (if n == ah then "
            "second_long_answer_here else (if n == tu then third_long_answer else fourth_long_answer)))\n")
    assert format_text(text) == (
        "value v(n: nation) cites 1.1 =\n"
        "  (if n == ge then first_long_answer_here\n"
        "   else (if n == ah then second_long_answer_here\n"
        "   else (if n == tu then third_long_answer\n"
        "   else fourth_long_answer)))\n")


def test_table_rows_and_units_are_set_in_columns():
    text = ("table t cites 1.1 {\n  columns a b\n  row 1: 1 10\n  row 10..12: -2 3\n}\n"
            "units nation ge cites 2.2 {\n  army 'GE 1' 5-3-3/3-3-3\n  corps GEc 1-1-3/0-1-3 count 20\n}\n")
    assert format_text(text) == (
        "table t cites 1.1 {\n  columns a b\n  row 1:       1 10\n  row 10..12: -2  3\n}\n"
        "units nation ge cites 2.2 {\n"
        "  army   'GE 1'  5-3-3 / 3-3-3\n"
        "  corps  GEc     1-1-3 / 0-1-3  count 20\n}\n")


def test_blank_lines_are_kept_at_most_one():
    text = "flag a cites 1.1\n\n\n\nflag b cites 1.2\nflag c cites 1.3\n"
    assert format_text(text) == "flag a cites 1.1\n\nflag b cites 1.2\nflag c cites 1.3\n"


def test_texts_and_quoted_names_are_kept_exactly():
    text = "card x 1 'A  odd   name' cites 9.1 {\n  \"  spaced   note \\\" quoted \"\n  ops 2 sr 2\n}\n"
    out = format_text(text)
    assert "'A  odd   name'" in out and '"  spaced   note \\" quoted "' in out and "  ops 2 sr 2\n" in out


# ------------------------------------------------------------------ comments

def test_comments_stay_where_they_were():
    text = ("# the file's head\n\n"
            "procedure p() cites 1.1 {   # after the brace\n"
            "  # before a statement\n"
            "  set vp to 1      # after it\n"
            "\n"
            "  # before the second, after a blank line\n"
            "  set vp to 2\n"
            "  # at the block's end\n"
            "}\n"
            "# at the file's end\n")
    assert format_text(text) == (
        "# the file's head\n\n"
        "procedure p() cites 1.1 {  # after the brace\n"
        "  # before a statement\n"
        "  set vp to 1  # after it\n"
        "\n"
        "  # before the second, after a blank line\n"
        "  set vp to 2\n"
        "  # at the block's end\n"
        "}\n"
        "# at the file's end\n")


def test_a_comment_after_code_ends_the_line_that_code_is_laid_out_on():
    text = "value v() cites 1.1 =\n  a  # first\n  and b\n"
    out = format_text(text)
    assert out == "value v() cites 1.1 = a and b  # first\n"
    assert format_text(out) == out


def test_trailing_comments_of_consecutive_lines_are_aligned():
    text = "flag a cites 1.1 # one\nflag bbbbbb cites 1.2 # two\n"
    assert format_text(text) == "flag a cites 1.1       # one\nflag bbbbbb cites 1.2  # two\n"


# ------------------------------------------------------------------ any layout of a real source

_TOKENS = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'[^\'\n]+\'|#[^\n]*|\s+|[^\s"\'#]+')


def _respaced(text: str, rnd) -> str:
    """TEXT with every run of white space between tokens replaced by another:
    spaces, tabs and single line breaks at random; a blank line stays a
    blank line, and the line end after a comment (or before an own-line
    one) stays a line end, since those are what the layout keeps."""
    pieces = _TOKENS.findall(text)
    out = []
    for i, piece in enumerate(pieces):
        if not piece.isspace():
            out.append(piece)
            continue
        blank = piece.count("\n") >= 2
        after_comment = i > 0 and pieces[i - 1].startswith("#")
        before_comment = i + 1 < len(pieces) and pieces[i + 1].startswith("#")
        if before_comment and "\n" not in piece:  # (a comment after code stays after it)
            out.append(rnd.choice((" ", "   ", "\t")))
        elif blank:
            out.append("\n" + rnd.choice((["", "  ", "\t"])) + "\n" + rnd.choice((["", "    "])))
        elif after_comment or before_comment:
            out.append("\n" + rnd.choice((["", " ", "      "])))
        else:
            out.append(rnd.choice(([" ", "  ", "\t", "\n", "\n    ", " \n "])))
    return "".join(out)


SAMPLES = [ROOT / "rules/12-combat.pog", ROOT / "cards/ap/02-blockade.pog", ROOT / "rules/tables.pog",
           ROOT / "rules/units/ge.pog", ROOT / "scenarios/suicide-of-europe/rulebook.pog"]


@pytest.mark.parametrize("path", SAMPLES, ids=[p.name for p in SAMPLES])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_any_spacing_of_a_source_formats_the_same(formatted, path, seed):
    text = path.read_text(encoding="utf-8")
    respaced = _respaced(text, random.Random(seed))
    assert respaced != text
    assert format_text(respaced) == formatted[path]


# ------------------------------------------------------------------ bad input

@pytest.mark.parametrize("text, message", [
    ("card x 1 'A' cites 9.1 {\n  ops\n}\n", "unexpected"),
    ("value v() cites 1.1 = " + "(" * 150 + "1" + ")" * 150 + "\n", "nested too deeply"),
    ('flag f cites 1.1 "' + "x" * 60_000 + '"\n', "longer than"),
    ("flag f cites 1.1\n" * 40_000, "too large to format"),
    ("flag f cites 1.1  # a NUL \0 in a comment\n", "binary file"),
])
def test_what_does_not_parse_is_refused_with_a_located_error(text, message):
    with pytest.raises(FormatError) as err:
        format_text(text, "bad.pog")
    assert message in str(err.value)
    assert all(d.span.file == "bad.pog" and d.span.line >= 1 for d in err.value.diagnostics)


# ------------------------------------------------------------------ the command

def _project(tmp_path: Path) -> Path:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "a.pog").write_text("flag  a   cites 1.1\n", encoding="utf-8")
    (tmp_path / "rules" / "b.pog").write_text("flag b cites 1.2\n", encoding="utf-8")
    return tmp_path


def test_check_lists_what_would_change_and_writes_nothing(tmp_path, monkeypatch, capsys):
    root = _project(tmp_path)
    monkeypatch.chdir(root)
    assert main(["fmt", "--check"]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == ["would reformat rules/a.pog"]
    assert "2 files: would reformat 1" in err
    assert (root / "rules" / "a.pog").read_text() == "flag  a   cites 1.1\n"


def test_diff_prints_a_unified_diff(tmp_path, monkeypatch, capsys):
    root = _project(tmp_path)
    monkeypatch.chdir(root)
    assert main(["fmt", "--diff", "rules"]) == 0
    out = capsys.readouterr().out
    assert "--- rules/a.pog (as written)" in out and "+++ rules/a.pog (formatted)" in out
    assert "-flag  a   cites 1.1" in out and "+flag a cites 1.1" in out
    assert (root / "rules" / "a.pog").read_text() == "flag  a   cites 1.1\n"


def test_fmt_writes_then_check_passes(tmp_path, monkeypatch, capsys):
    root = _project(tmp_path)
    monkeypatch.chdir(root)
    assert main(["fmt"]) == 0
    assert (root / "rules" / "a.pog").read_text() == "flag a cites 1.1\n"
    assert main(["fmt", "--check"]) == 0
    assert "would reformat 0" in capsys.readouterr().err


def test_a_file_that_does_not_parse_is_reported_and_left_alone(tmp_path, monkeypatch, capsys):
    root = _project(tmp_path)
    bad = root / "rules" / "c.pog"
    bad.write_text("flag   c cites 1.3\nset trench[Verdun] = 2\n", encoding="utf-8")
    monkeypatch.chdir(root)
    assert main(["fmt"]) == 1
    err = capsys.readouterr().err
    assert re.search(r"rules/c\.pog:2:1: error\[E0101\]", err)
    assert "Traceback" not in err
    assert bad.read_text() == "flag   c cites 1.3\nset trench[Verdun] = 2\n"
    assert (root / "rules" / "a.pog").read_text() == "flag a cites 1.1\n"  # the others are formatted


def test_non_utf8_binary_and_device_files_get_one_line_errors(tmp_path, monkeypatch, capsys):
    root = _project(tmp_path)
    (root / "rules" / "latin.pog").write_bytes("flag \xe9 cites 1.1\n".encode("latin-1"))
    (root / "rules" / "bin.pog").write_bytes(b"flag\0\0")
    monkeypatch.chdir(root)
    assert main(["fmt", "rules", "/dev/null"] + (["/dev/zero"] if os.path.exists("/dev/zero") else [])) == 1
    err = capsys.readouterr().err
    assert "not valid UTF-8" in err and "binary file" in err
    assert "Traceback" not in err
    assert (root / "rules" / "latin.pog").read_bytes() == "flag \xe9 cites 1.1\n".encode("latin-1")


def test_missing_path_and_no_source_are_usage_errors(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["fmt", "nowhere.pog"]) == 2
    assert main(["fmt", "--root", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "no such file or folder: nowhere.pog" in err and "no .pog file found" in err


def test_the_docs_example_is_what_fmt_makes_of_it():
    page = (ROOT / "docs" / "modding.rst").read_text(encoding="utf-8")
    section = page.split("A long value, before and after", 1)[1].split("In an editor", 1)[0]
    before, after = [textwrap.dedent(block.split("\n\n", 1)[1]).strip("\n") + "\n"
                     for block in section.split(".. code-block:: pog")[1:]]
    assert before != after and format_text(before) == after


def test_the_docs_fixture_is_unformatted_and_formats_cleanly():
    # docs/modding.rst shows `fmt --check` and `fmt --diff` on it: it must stay unformatted
    fixture = ROOT / "tests" / "fixtures" / "fmt" / "sacred-way.pog"
    text = fixture.read_text(encoding="utf-8")
    out = format_text(text)
    assert out != text and format_text(out) == out
    assert "  playable when war_status[ap] >= 4 and not besieged[Verdun]  # only while Verdun holds\n" in out
