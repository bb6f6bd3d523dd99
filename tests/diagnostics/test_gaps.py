"""Mistakes the checker once missed or reported badly.

Each was first written here as a strict xfail stating what the checker
*should* do; once fixed, the mark went and the test stayed.  A new gap goes
here the same way.
"""

from __future__ import annotations

from pogdsl.compiler import compile_paths, compile_scenario_program
from pogdsl.graph.build import build_graph
from pogdsl.syntax.parser import parse_text

from .test_golden import PROJECT, compile_case


def check_snippet(tmp_path, monkeypatch, text: str, name: str = "snippet.pog"):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    comp = compile_paths([path], root=PROJECT)
    return comp, [d for d in comp.reporter.sorted() if d.span and d.span.file == name]


# ------------------------------------------------------------------ wrong codes or places

def test_place_at_unknown_space_is_unknown_space(tmp_path, monkeypatch):
    _, diags = check_snippet(tmp_path, monkeypatch,
                             "card cp 9 'Lost Army' cites 6.1 {\n  deck mobilization\n  ops 1 sr 1\n"
                             "  event cites 6.1 { place 'GE 1' at Leige }\n}\n")
    (d,) = diags
    assert (d.code, d.message, d.hint) == ("E0203", "unknown space 'Leige'", "did you mean 'Liege'?")


def test_empty_turn_range_points_at_turns(monkeypatch):
    _, diags, _ = compile_case("empty_turns", monkeypatch)
    assert [(d.code, d.span.line) for d in diags] == [("E0304", 3)]


def test_repeated_item_points_at_the_repetition(monkeypatch):
    _, diags, _ = compile_case("repeated_item", monkeypatch)
    assert [(d.code, d.span.line) for d in diags] == [("E0405", 5)]


# ------------------------------------------------------------------ wording

def test_article_before_unit(monkeypatch):
    _, diags, _ = compile_case("wrong_kind", monkeypatch)
    assert [d.message for d in diags] == [
        "'Paris' is a space, but a unit or a list of units is wanted here",
        "'GE 1' is a unit, but a space or a box or a pile is wanted here",
    ]


def test_arity_messages_agree_in_number(monkeypatch):
    _, call, _ = compile_case("wrong_arity_call", monkeypatch)
    _, choice, _ = compile_case("wrong_arity_choice", monkeypatch)
    assert call[0].message == "procedure 'combat' takes 1 argument, but 2 are given"
    assert choice[0].message == "choice 'activate' has 1 parameter, but 2 names are given"


def test_syntax_hint_mentions_keywords():
    # Lark's own expected set leaves keywords out; the fast path's is exact.
    _, diags = parse_text("procedure p cites 4.2 {\n  let x = = 1\n}\n", "k.pog")
    (d,) = diags
    assert "'not'" in d.hint and "'true'" in d.hint


def test_syntax_hint_lists_only_possible_tokens():
    # LALR lookahead merging let Lark offer ']' here; each candidate is now
    # followed through its reductions first.
    _, diags = parse_text("phase p cites 5.1 {\n  call f(cp\n}\n", "k.pog")
    (d,) = diags
    assert "']'" not in d.hint


def test_unknown_remove_kind_lists_the_kinds(monkeypatch):
    _, diags, _ = compile_case("unknown_remove_kind", monkeypatch)
    assert diags[0].hint and "restriction" in diags[0].hint


def test_remove_card_by_title_suggests_the_title(tmp_path, monkeypatch):
    _, diags = check_snippet(tmp_path, monkeypatch,
                             "scenario v \"v\" extends mini cites 7.0 {\n  remove card 'Opening Gambitt'\n}\n")
    (d,) = diags
    assert d.code == "E0501" and d.hint == "did you mean 'Opening Gambit'?"


# ------------------------------------------------------------------ mistakes not caught

def test_set_literal_outside_declared_range(tmp_path, monkeypatch):
    _, diags = check_snippet(tmp_path, monkeypatch,
                             "phase p cites 5.1 { set vp to 25 }\nsequence s cites 5.0 { p }\n")
    assert [d.code for d in diags] == ["E0304"]


def test_duplicate_scenario_option(tmp_path, monkeypatch):
    _, diags = check_snippet(tmp_path, monkeypatch,
                             "scenario v \"v\" extends mini cites 7.0 {\n"
                             "  option fast \"a\" default on cites 7.0\n"
                             "  option fast \"b\" default off cites 7.0\n}\n")
    assert [(d.code, d.span.line) for d in diags] == [("E0401", 3)]


# ------------------------------------------------------------------ tracebacks

def test_variant_removing_itself(tmp_path, monkeypatch):
    comp, _ = check_snippet(tmp_path, monkeypatch,
                            "scenario gone \"x\" extends mini cites 7.0 {\n  remove scenario gone\n}\n")
    program = compile_scenario_program(comp, comp.base.get("scenario", "gone"))
    assert comp.reporter.errors or build_graph(program) is not None


# ------------------------------------------------------------------ rendering

def test_quoted_line_after_a_form_feed(tmp_path, monkeypatch):
    from pogdsl.diagnostics import render

    comp, diags = check_snippet(tmp_path, monkeypatch, "flag a cites 3.1\n\f\nflag b @ cites 3.1\n")
    (d,) = diags
    assert d.span.line == 3
    assert render(d, comp.sources).split("\n")[1] == " 3 | flag b @ cites 3.1"


def test_a_long_loop_of_values_is_one_located_error(tmp_path, monkeypatch):
    """Issue: values defined by themselves passed `check` and crashed at run
    time.  A loop through 3,000 values is found without any recursion limit
    and reported once, at its first value."""
    n = 3000
    text = "".join(f"value v{i} cites 3.1 = v{(i + 1) % n} + 1\n" for i in range(n))
    _, diags = check_snippet(tmp_path, monkeypatch, text)
    (d,) = diags
    assert d.code == "E0705" and d.span.line == 1
    assert d.message.startswith("values are defined in terms of each other: v0 → v1 → v2")
    assert d.message.endswith(f"v{n - 1} → v0")


def test_a_variant_that_only_adds_is_checked_for_citations_and_flow(tmp_path, monkeypatch):
    """Issue: a variant with only `add`/`replace` skipped the citation and
    flow checks: an added procedure citing a rule the index does not have,
    and never called, passed."""
    text = ('scenario extra "Extra" extends mini cites 7.0 {\n'
            '  add procedure lonely() cites 99.9 {\n    log "alone"\n  }\n'
            '}\n')
    _, diags = check_snippet(tmp_path, monkeypatch, text)
    codes = sorted((d.code, d.span.line) for d in diags)
    assert ("E0601", 2) in codes      # rule 99.9 is not in the rule index
    assert ("W0703", 2) in codes      # the procedure is never called
    assert all(d.notes and "while checking scenario 'extra'" in d.notes[-1][0] for d in diags)


def test_cr_only_line_ends_give_the_right_line(tmp_path, monkeypatch):
    """Issue 35: a file whose lines end with a lone CR (classic Mac OS) read as
    one long line, so an error on line 4 was reported at line 1, column 109.
    CR LF, CR and LF files give the same place and the same quoted line."""
    from pogdsl.diagnostics import render

    lines = ["flag a cites 3.1", "", "flag b cites 3.1", 'nation xx "X" side zz']
    for ending in ("\r", "\r\n", "\n"):
        path = tmp_path / "snippet.pog"
        path.write_bytes(ending.join(lines).encode() + ending.encode())
        monkeypatch.chdir(tmp_path)
        comp = compile_paths([path], root=PROJECT)
        (d,) = [d for d in comp.reporter.sorted() if d.span and d.span.file == "snippet.pog" and d.code == "E0212"]
        assert (d.span.line, d.span.col) == (4, 20), (repr(ending), d)
        assert render(d, comp.sources).split("\n")[1] == " 4 | nation xx \"X\" side zz"


def test_cr_only_line_ends_locate_a_syntax_error():
    module, diags = parse_text('side ap "Allies"\rside cp "Centrals"\r\rnation xx "X" side ap {\r', "cr.pog")
    (d,) = diags
    assert (d.code, d.span.line, d.span.col) == ("E0101", 4, 23)
