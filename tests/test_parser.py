"""The parser: the grammar in strict mode, the parse cache, per-block recovery."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from lark import Lark

from pogdsl.syntax import ast as A
from pogdsl.syntax import parser as P
from pogdsl.syntax.parser import ParseCache, get_parser, grammar_text, parse_text

REPO = Path(__file__).resolve().parents[1]
EVERYTHING = REPO / "tests" / "fixtures" / "everything.pog"


def as_data(node):
    """A structural, comparable form of an AST (most nodes compare by identity)."""
    if isinstance(node, (list, tuple)):
        return type(node).__name__, tuple(as_data(n) for n in node)
    if isinstance(node, dict):
        return "dict", tuple(sorted((k, as_data(v)) for k, v in node.items()))
    if attrs.has(type(node)):
        return type(node).__name__, tuple((f.name, as_data(getattr(node, f.name))) for f in attrs.fields(type(node)))
    return node


# ------------------------------------------------------------------ grammar

def test_grammar_builds_in_strict_mode():
    # Built from scratch, without any cache: strict mode refuses any LALR
    # conflict and any two terminals that could match the same text.
    lark = Lark(grammar_text(), parser="lalr", strict=True, propagate_positions=True, maybe_placeholders=False)
    assert lark.options.strict is True


def test_the_shared_parser_is_strict_lalr():
    parser = get_parser()
    assert parser.options.parser == "lalr"
    assert parser.options.strict is True
    assert parser.options.propagate_positions is True
    assert get_parser() is parser


def test_every_top_level_keyword_starts_a_block():
    """Recovery cuts files at lines starting with a top-level keyword; each of
    them must really start a declaration in the grammar."""
    text = grammar_text()
    for kw in P.TOP_LEVEL_KEYWORDS:
        assert f'"{kw}"' in text, kw


def test_everything_parses_cleanly():
    module, diags = parse_text(EVERYTHING.read_text(encoding="utf-8"), "everything.pog")
    assert diags == []
    kinds = {d.kind for d in module.decls}
    assert kinds >= {"side", "nation", "map", "enum", "space", "box", "unit", "table", "state", "value", "choice",
                     "signal", "procedure", "phase", "sequence", "restriction", "modifier", "trigger", "card",
                     "scenario", "rulebook"}
    assert len(module.connections) == 2


# ------------------------------------------------------------------ parse cache

@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("POGDSL_CACHE_DIR", str(tmp_path))
    return tmp_path


def test_parse_cache_returns_an_equal_module(cache_dir, monkeypatch):
    text = EVERYTHING.read_text(encoding="utf-8")
    first_cache = ParseCache()
    first, diags = first_cache.parse(text, "everything.pog")
    assert diags == []
    first_cache.save()
    assert first_cache.path is not None and first_cache.path.parent == cache_dir
    assert first_cache.path.exists()

    # A fresh cache reads the file: the second parse must not parse at all.
    def boom(*args, **kwargs):
        raise AssertionError("parse_text called on a cache hit")

    monkeypatch.setattr(P, "parse_text", boom)
    second, diags = ParseCache().parse(text, "everything.pog")
    assert diags == []
    assert second is not first
    assert as_data(second) == as_data(first)


def test_parse_cache_keys_on_path_and_text(cache_dir):
    cache = ParseCache()
    a, _ = cache.parse("flag f cites 1.0\n", "a.pog")
    b, _ = cache.parse("flag f cites 1.0\n", "b.pog")
    c, _ = cache.parse("flag g cites 1.0\n", "a.pog")
    assert a.decls[0].span.file == "a.pog" and b.decls[0].span.file == "b.pog"
    assert c.decls[0].name.text == "g"
    assert cache.parse("flag f cites 1.0\n", "a.pog")[0] is a


def test_parse_cache_does_not_keep_broken_files(cache_dir, monkeypatch):
    text = "procedure p cites 1.0 {\n  let x = = 1\n}\n"
    cache = ParseCache()
    _, diags = cache.parse(text, "broken.pog")
    assert len(diags) == 1
    cache.save()
    calls = []
    real = P.parse_text
    monkeypatch.setattr(P, "parse_text", lambda *a: calls.append(a) or real(*a))
    _, diags = ParseCache().parse(text, "broken.pog")
    assert len(diags) == 1 and len(calls) == 1


def test_damaged_parse_cache_is_a_miss(cache_dir):
    cache = ParseCache()
    cache.parse("flag f cites 1.0\n", "a.pog")
    cache.save()
    cache.path.write_bytes(b"\x80\x04 not a pickle")
    module, diags = ParseCache().parse("flag f cites 1.0\n", "a.pog")
    assert diags == [] and module.decls[0].name.text == "f"


def test_unwritable_cache_dir_is_not_an_error(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("POGDSL_CACHE_DIR", str(blocker / "sub"))
    cache = ParseCache()
    module, diags = cache.parse("flag f cites 1.0\n", "a.pog")
    cache.save()
    assert diags == [] and module.decls


# ------------------------------------------------------------------ recovery

RECOVERY = {
    "one broken block among good ones": (
        ("flag a cites 1.0\n"
         "procedure p cites 1.0 {\n  let = 1\n}\n"
         "flag b cites 1.0\n"),
        [(3, "E0101")], {"a", "b"},
    ),
    "three broken blocks, three errors": (
        ("procedure p cites 1.0 {\n  let x = = 1\n}\n"
         "flag a cites 1.0\n"
         "phase q cites 1.0 {\n  call r(\n}\n"
         "flag b cites 1.0\n"
         "table t cites 1.0 {\n  row 1 2\n}\n"),
        [(2, "E0101"), (7, "E0101"), (10, "E0101")], {"a", "b"},
    ),
    "unclosed block reported at its head": (
        "procedure p cites 1.0 {\n  log \"x\"\n\nflag a cites 1.0\n",
        [(1, "E0101")], {"a"},
    ),
    "unterminated text": (
        "side s \"open\nflag a cites 1.0\n",
        [(1, "E0102")], {"a"},
    ),
    "unterminated quoted name": (
        "phase p cites 1.0 {\n  place 'GE 1 at X\n}\nflag a cites 1.0\n",
        [(2, "E0102")], {"a"},
    ),
    "stray character": (
        "flag a cites 1.0\nflag b @ cites 1.0\nflag c cites 1.0\n",
        [(2, "E0101")], {"a", "c"},
    ),
    "garbage before the first block": (
        "this is not a block\nflag a cites 1.0\n",
        [(1, "E0101")], {"a"},
    ),
    "a keyword that is not at column 1 does not cut": (
        "procedure p cites 1.0 {\n  let x = = 1\n  flag\n}\nflag a cites 1.0\n",
        [(2, "E0101")], {"a"},
    ),
    "comments and blank lines are no blocks": (
        "# a comment\n\n# another\nflag a cites 1.0\n\n\nflag b cites\n",
        [(7, "E0101")], {"a"},
    ),
    "a block broken at end of file": (
        "flag a cites 1.0\nscenario s \"S\" {\n  turns 1..\n",
        [(2, "E0101")], {"a"},
    ),
}


@pytest.mark.parametrize("name", sorted(RECOVERY))
def test_recovery(name):
    text, expected, kept = RECOVERY[name]
    module, diags = parse_text(text, "r.pog")
    assert [(d.span.line, d.code) for d in diags] == expected
    assert {d.name.text for d in module.decls} == kept
    for d in diags:
        assert d.span.file == "r.pog" and d.span.col >= 1
        assert 1 <= d.span.line <= text.count("\n") + 1


@pytest.mark.parametrize("text", ["flag a cites 1.0\nflag b cites\n", "value v = 1 +\n"])
def test_truncated_declaration_without_braces(text):
    _, (diag,) = parse_text(text, "x.pog")
    assert "'}'" not in (diag.hint or "") and "next block" not in diag.message


def test_recovery_reports_each_block_once():
    broken = "procedure p%d cites 1.0 {\n  let x = = 1\n}\n"
    text = "".join(broken % i for i in range(10))
    _, diags = parse_text(text, "r.pog")
    assert [d.span.line for d in diags] == [2 + 3 * i for i in range(10)]


@pytest.mark.parametrize("text", [
    "", "\n\n", "# only a comment\n", "}", "{", "{{{{", "\"", "'", "cites 1.0", "rule 1.0",
    "procedure", "procedure p", "procedure p {", "card", "card cp", "card cp 1 'X' {", "scenario s extends",
    "flag a cites 1.0\n}\n}\n", "\t\tflag a\n", "flag a cites 1.0\r\nflag b cites 1.0\r\n", "\ufeffflag a",
    "value v = ((((((1", "value v = 1 +", "spaces {", "connections { a -- }", "units nation x { army }",
])
def test_parse_text_never_raises(text):
    module, diags = parse_text(text, "x.pog")
    assert isinstance(module, A.Module)
    for d in diags:
        assert d.span is not None and d.span.line >= 1


# ------------------------------------------------------------------ spans

def test_spans():
    text = ("side ap \"Allies\" cites 1.0, 2.0\n"
            "phase p cites 5.1 {\n"
            "  place 'GE 1' at Paris\n"
            "}\n")
    module, diags = parse_text(text, "s.pog")
    assert diags == []
    side, phase = module.decls
    assert side.span == A.Span("s.pog", 1, 1, 1, 32)
    assert side.name.span == A.Span("s.pog", 1, 6, 1, 8)
    assert [(c.number, c.span.col) for c in side.cites] == [("1.0", 24), ("2.0", 29)]
    (effect,) = phase.body.body
    assert effect.span.line == 3 and effect.span.col == 3
    # A quoted name's span covers its quotes; its text does not.
    assert effect.obj.name.text == "GE 1"
    assert (effect.obj.span.col, effect.obj.span.end_col) == (9, 15)
    (prep, where), = effect.args
    assert prep == "at" and (where.span.line, where.span.col) == (3, 19)


def test_block_spans_keep_their_lines_after_recovery():
    text = "procedure bad cites 1.0 {\n  let = 1\n}\n\n\nflag good cites 1.0\n"
    module, _diags = parse_text(text, "s.pog")
    (good,) = module.decls
    assert good.span.line == 6 and good.name.span.col == 6


def test_nested_card_declarations_know_their_card():
    text = ("card cp 1 'X' cites 6.1 {\n  deck d\n  modifier m cites 6.1 { v() += 1 }\n"
            "  restriction r cites 6.1 { forbid c(x) }\n}\n")
    module, diags = parse_text(text, "c.pog")
    assert diags == []
    (card,) = module.decls
    assert card.key == "cp 1"
    assert [(d.kind, d.key, d.owner) for d in card.nested] == [("modifier", "m", "cp 1"), ("restriction", "r", "cp 1")]


def test_text_escapes():
    """Only \\n, \\t, \\" and \\\\ are escapes; any other backslash stays, and
    non-ASCII text is never garbled (both once raised or mangled text)."""
    module, diags = parse_text('side a "Li\u00e8ge \\"fort\\" \\x \\N{x} a\\\\b\\tc" cites 1.0\n', "e.pog")
    assert diags == []
    assert module.decls[0].title == 'Li\u00e8ge "fort" \\x \\N{x} a\\b\tc'
