"""The fast path (`pogdsl.syntax.lalr`) against Lark's own pipeline.

The fast path drives the LALR tables exported from Lark; for any text both
accept, both must build the same AST, spans included.  Where the fast path
gives up, parse_text falls back on Lark, so only agreement on success matters —
but a text Lark rejects must never be accepted by the fast path either.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_parser import as_data
from test_properties import _op, mutate, seeds

from pogdsl.syntax import lalr
from pogdsl.syntax import parser as P
from pogdsl.syntax.transform import NumberTooLarge, ToAst

REPO = Path(__file__).resolve().parents[1]
SOURCES = sorted(p for d in ("rules", "cards", "scenarios") for p in (REPO / d).rglob("*.pog")) + \
    sorted((REPO / "tests").rglob("*.pog"))


def lark_ast(text: str, path: str):
    """Lark's verdict: the AST through Lark's parser and tree, or None if it rejects the text."""
    from lark.exceptions import UnexpectedInput

    try:
        return ToAst(path).transform(P.get_parser().parse(text))
    except (UnexpectedInput, NumberTooLarge):
        return None


def fast_ast(text: str, path: str):
    try:
        return P.get_fast_parser().parse(text, path)
    except (lalr.FastPathMiss, lalr.NestedTooDeeply, NumberTooLarge):
        return None


def test_shipped_tables_match_the_grammar():
    tables = lalr.load_tables(P.SHIPPED_TABLES, P.grammar_text())
    assert tables is not None, "pog.tables.json is stale: run `python -m pogdsl.syntax.tables`"
    # And they are what Lark computes from the grammar today.
    fresh = lalr.export_tables(P.get_parser(), P.grammar_text())
    assert json.loads(json.dumps(fresh)) == tables


def test_stale_tables_are_ignored(tmp_path):
    stale = tmp_path / "pog.tables.json"
    stale.write_text(P.SHIPPED_TABLES.read_text(encoding="utf-8").replace('"key":"', '"key":"0', 1))
    assert lalr.load_tables(stale, P.grammar_text()) is None
    (tmp_path / "damaged.json").write_text("{not json")
    assert lalr.load_tables(tmp_path / "damaged.json", P.grammar_text()) is None


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(REPO)))
def test_fast_path_builds_what_lark_builds(path):
    text = path.read_bytes().decode("utf-8", "replace")
    shown = str(path.relative_to(REPO))
    slow = lark_ast(text, shown)
    fast = fast_ast(text, shown)
    if slow is None:
        assert fast is None, "the fast path accepted a text Lark rejects"
    elif fast is not None:
        assert as_data(fast) == as_data(slow)
    if path.is_relative_to(REPO / "rules"):
        assert fast is not None, "the project's own files must take the fast path"


@settings(max_examples=300, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_fast_path_agrees_with_lark_on_mutated_sources(data):
    name, original, _ = data.draw(st.sampled_from(seeds()))
    mutated = original
    for op in data.draw(st.lists(_op, min_size=1, max_size=3)):
        mutated = mutate(mutated, op)
    text = mutated.decode("utf-8", "replace")
    slow = lark_ast(text, name)
    fast = fast_ast(text, name)
    if slow is None:
        assert fast is None
    elif fast is not None:
        assert as_data(fast) == as_data(slow)


def test_keywords_are_names_where_the_grammar_takes_a_name():
    # `side` is a keyword at the start of a block, and an ordinary name after `.`.
    text = "value v(u: unit) cites 1.0 { u.side }\nside ap cites 1.0\n"
    assert as_data(fast_ast(text, "k.pog")) == as_data(lark_ast(text, "k.pog"))


def test_spans_cover_what_lark_covers():
    text = "procedure p cites 1.0 {\n  # a comment\n  let x = (1 + 2) * 3\n}\n"
    module = fast_ast(text, "s.pog")
    decl = module.decls[0]
    assert (decl.span.line, decl.span.col, decl.span.end_line, decl.span.end_col) == (1, 1, 4, 2)
    assert as_data(module) == as_data(lark_ast(text, "s.pog"))


def test_deep_nesting_is_a_located_diagnostic_not_a_crash():
    depth = 300
    text = "phase deep cites 5.1 {\n" + "if true {" * depth + 'log "x"' + "}" * depth + "}\n"
    _, diags = P.parse_text(text, "deep.pog")
    assert [d.code for d in diags] == ["E0103"]
    assert "nested too deeply" in diags[0].message
    assert diags[0].span.line == 2 and diags[0].span.col > 1


def test_the_fast_path_does_not_load_lark():
    import subprocess
    import sys

    code = ("import sys\nfrom pogdsl.syntax.parser import parse_text\n"
            "m, d = parse_text('flag f cites 1.0\\n', 'a.pog')\n"
            "assert not d and m.decls\nprint('lark' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ------------------------------------------------------------------ parse_many

def test_parallel_parse_gives_the_serial_result(tmp_path, monkeypatch):
    monkeypatch.setenv("POGDSL_CACHE_DIR", str(tmp_path))
    items = [(p.read_text(encoding="utf-8"), str(p.relative_to(REPO))) for p in SOURCES[:40]]
    items.append(("procedure p cites 1.0 {\n  let = 1\n}\n", "broken.pog"))
    serial = P.ParseCache()
    serial.PARALLEL_FROM = 10 ** 6
    expected = serial.parse_many(items)
    parallel = P.ParseCache()
    parallel.PARALLEL_FROM = 2
    got = parallel.parse_many(items)
    assert [as_data(m) for m, _ in got] == [as_data(m) for m, _ in expected]
    assert [[d.message for d in ds] for _, ds in got] == [[d.message for d in ds] for _, ds in expected]
    assert got[-1][1] and got[-1][1][0].code == "E0101"
    parallel.save()
    # Everything clean went into the cache, from both processes.
    again = P.ParseCache()
    assert len(again.entries) == len(items) - 1


@pytest.mark.parametrize("tail", ["# a last comment\n", "\n# a last comment", "   \n\n"])
def test_text_after_the_last_token_is_skipped(tail):
    text = "flag f cites 1.0\n" + tail
    assert fast_ast(text, "t.pog") is not None


def test_a_brace_inside_a_comment_does_not_close_a_block():
    # A failed match must not backtrack into the comment and read its '}'.
    text = 'procedure p cites 1.0 {\n  log "x"\n# }\n'
    assert fast_ast(text, "c.pog") is None and lark_ast(text, "c.pog") is None
    _, diags = P.parse_text(text, "c.pog")
    assert [d.code for d in diags] == ["E0101"]


# ------------------------------------------------------------------ limits of the input (issue 22)
def _codes(text):
    _, diags = P.parse_text(text, "x.pog")
    return [(d.code, d.span.line, d.span.col) for d in diags], diags


def test_a_long_list_is_read_in_linear_time():
    # Each item used to copy the items before it (O(n²): 40,000 items took 6 s);
    # a quadratic reader would take minutes here, a linear one well under a second.
    n = 50_000
    module, diags = P.parse_text("value many = [" + ", ".join(str(i % 7) for i in range(n)) + "] cites 4.2\n", "x.pog")
    assert not diags
    items = module.decls[0].expr.items
    assert len(items) == n and [i.value for i in items[:8]] == [0, 1, 2, 3, 4, 5, 6, 0]
    assert items[-1].span.col > items[-2].span.col


def test_a_long_list_reads_the_same_through_lark():
    text = "value many = [" + ", ".join(["1", "2", "3"] * 300) + "] cites 4.2\n"
    assert as_data(fast_ast(text, "x.pog")) == as_data(lark_ast(text, "x.pog"))


@pytest.mark.parametrize("expr", [
    " + ".join(["1"] * 500),       # a sum of 500 terms
    "x" + ".a" * 2000,             # a chain of 2,000 attributes
    "x" + "[1]" * 2000,            # a chain of 2,000 indexes
    "(" * 5000 + "1" + ")" * 5000,  # brackets inside brackets
    "[" * 100_000 + "]" * 100_000,
    "-" * 3000 + "1",
], ids=["sum", "attributes", "indexes", "parentheses", "lists", "negations"])
def test_an_expression_nested_too_deeply_is_a_located_error(expr):
    found, diags = _codes(f"value deep = {expr} cites 4.2\n")
    assert len(found) == 1 and found[0][:2] == ("E0103", 1), found
    assert "nested too deeply" in diags[0].message


def test_a_long_and_is_one_level_not_a_deep_one():
    module, diags = P.parse_text("value all = " + " and ".join(["true"] * 400) + " cites 4.2\n", "x.pog")
    assert not diags and module.decls


def test_the_depth_limit_is_found_on_lark_s_path_too():
    # A syntax error first sends the file to Lark's parser, block by block.
    text = "value broken = = 1 cites 4.2\nvalue deep = " + " + ".join(["1"] * 500) + " cites 4.2\n"
    found, diags = _codes(text)
    assert ("E0101", 1, 16) in found
    assert [f for f in found if f[0] == "E0103"] == [("E0103", 2, 14)]


def test_an_expression_under_the_depth_limit_is_read():
    module, diags = P.parse_text("value long = " + " + ".join(["1"] * 90) + " cites 4.2\n", "x.pog")
    assert not diags and module.decls


@pytest.mark.parametrize("text, col", [
    ("value big = " + "9" * 5000 + " cites 4.2\n", 13),
    ("value big = 1 + 1000000000000000 cites 4.2\n", 17),
    ("units nation ge { corps GEc 2-1-3 count 99999999999999999999 }\n", 41),
], ids=["5000-digits", "16-digits", "unit-count"])
def test_a_number_past_15_digits_is_a_located_error(text, col):
    found, diags = _codes(text)
    assert [f[0] for f in found] == ["E0104"], found
    assert "is too large: whole numbers have at most 15 digits" in diags[0].message
    if col is not None:
        assert found[0][1:] == (1, col)


def test_numbers_up_to_15_digits_and_leading_zeros_are_read():
    module, diags = P.parse_text("value big = 999999999999999 + 00000000000000000000007 cites 4.2\n", "x.pog")
    assert not diags
    expr = module.decls[0].expr
    assert (expr.left.value, expr.right.value) == (10**15 - 1, 7)


def test_huge_unit_factors_are_a_located_error():
    text = "units nation fr {\n  army 'FR 9' " + "9" * 30 + "-3-3 / 2-3-3\n}\n"
    found, _ = _codes(text)
    assert [f[0] for f in found] == ["E0104"] and found[0][1] == 2
