"""The documentation: it builds without a warning, its examples parse, and the
Pygments lexer colours the language without error tokens.

Convention for examples in ``docs/*.rst``
-----------------------------------------

Every ``.. code-block:: pog`` block is extracted and parsed with
``pogdsl.syntax.parser.parse_text``; it must give no diagnostic.  A block is a
list of declarations unless the line before its directive (blank lines
aside) is an rst comment naming what it is instead:

``.. fragment: statements``
    the block is statements; the test wraps it in ``procedure _doc_example() { … }``.
``.. fragment: expressions``
    each non-blank, non-comment line is one expression; the test wraps each
    as ``let _doc_value = …`` inside a procedure.
``.. fragment: broken``
    the block shows a mistake on purpose and must *not* parse.

An rst comment is invisible in the built pages, so the marker costs readers
nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
FIXTURE = ROOT / "tests" / "fixtures" / "everything.pog"

_DIRECTIVE = re.compile(r"^(?P<indent>[ \t]*)\.\. code-block:: pog[ \t]*$")
_MARKER = re.compile(r"^[ \t]*\.\. fragment: (?P<kind>[a-z]+)[ \t]*$")


def doc_examples() -> list[tuple[str, int, str, str]]:
    """(file, line, kind, code) for every pog code block of docs/*.rst."""
    found = []
    for path in sorted(DOCS.glob("*.rst")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            m = _DIRECTIVE.match(line)
            if not m:
                continue
            kind = "declarations"
            j = i - 1
            while j >= 0 and not lines[j].strip():
                j -= 1
            if j >= 0 and (marker := _MARKER.match(lines[j])):
                kind = marker.group("kind")
            base = len(m.group("indent"))
            k = i + 1
            while k < len(lines) and lines[k].strip().startswith(":") and lines[k].strip() != ":":
                k += 1  # directive options
            body: list[str] = []
            for text in lines[k:]:
                if text.strip() and len(text) - len(text.lstrip()) <= base:
                    break
                body.append(text)
            code_lines = list(body)
            while code_lines and not code_lines[0].strip():
                code_lines.pop(0)
            while code_lines and not code_lines[-1].strip():
                code_lines.pop()
            width = min((len(t) - len(t.lstrip()) for t in code_lines if t.strip()), default=0)
            code = "\n".join(t[width:] for t in code_lines) + "\n"
            found.append((path.name, i + 1, kind, code))
    return found


def wrap(kind: str, code: str) -> str:
    if kind == "statements":
        body = "\n".join("  " + line for line in code.splitlines())
        return f"procedure _doc_example() {{\n{body}\n}}\n"
    if kind == "expressions":
        exprs = [line.strip() for line in code.splitlines() if line.strip() and not line.strip().startswith("#")]
        body = "\n".join(f"  let _doc_value = {e}" for e in exprs)
        return f"procedure _doc_example() {{\n{body}\n}}\n"
    return code


EXAMPLES = doc_examples()


def test_examples_are_found():
    kinds = {kind for _, _, kind, _ in EXAMPLES}
    assert len(EXAMPLES) >= 30
    assert {"declarations", "statements", "expressions"} <= kinds
    assert kinds <= {"declarations", "statements", "expressions", "broken"}


@pytest.mark.parametrize("name,line,kind,code", EXAMPLES, ids=[f"{n}:{ln}" for n, ln, _, _ in EXAMPLES])
def test_doc_example_parses(name, line, kind, code):
    from pogdsl.diagnostics import Sources, render
    from pogdsl.syntax.parser import parse_text

    text = wrap(kind, code)
    module, diags = parse_text(text, f"docs/{name}:{line}")
    if kind == "broken":
        assert diags, f"docs/{name}:{line}: this example is marked broken but parses"
        return
    sources = Sources()
    sources.add(f"docs/{name}:{line}", text)
    assert not diags, "\n".join(render(d, sources) for d in diags)
    assert module.decls or module.connections, "the example declares nothing"


def test_every_construct_has_an_example():
    """Each keyword of the grammar appears in at least one example of the
    language reference, so no construct is left undocumented."""
    from pygments.token import Comment, String

    from pogdsl.highlight import KEYWORDS, rule_keywords

    text = "\n".join(code for name, _, _, code in EXAMPLES if name == "language.rst")
    # Words in code only: a keyword inside a "text" or a comment does not count.
    words = {v for t, v in _tokens(text) if t not in String and t not in Comment}
    # The effect verbs are documented, each with an example, on the generated
    # vocabulary page (see test_vocabulary_examples_parse).  `from` and `onto`
    # are prepositions the grammar reserves but no verb takes yet: an example
    # using them would parse but not check.
    exempt = set(rule_keywords("verb")) | {"from", "onto"}
    missing = sorted(k for k in KEYWORDS - exempt if k not in words)
    assert not missing, f"keywords with no example in docs/language.rst: {missing}"


# ----------------------------------------------------------------- vocabulary
def test_vocabulary_examples_parse():
    """The examples shown on the generated vocabulary page parse too."""
    from pogdsl.semantics.vocabulary import FUNCTIONS, VERBS
    from pogdsl.syntax.parser import parse_text

    for verb in VERBS.values():
        _, diags = parse_text(wrap("statements", verb.example), f"<verb {verb.name}>")
        assert not diags, (verb.name, verb.example, diags)
    for fn in FUNCTIONS.values():
        _, diags = parse_text(wrap("expressions", fn.example), f"<function {fn.name}>")
        assert not diags, (fn.name, fn.example, diags)


# ------------------------------------------------------------ toy example game
def test_toy_game_checks_clean():
    """docs/examples/toy is a whole project the pages include and run; it has
    no error and no warning."""
    from pogdsl.compiler import compile_paths

    comp = compile_paths(None, root=DOCS / "examples" / "toy")
    assert len(comp.loaded.files) >= 5
    assert not comp.reporter.items, [f"{d.code} {d.message} {d.span}" for d in comp.reporter.items]
    assert {"toy", "toy_trenches"} <= set(comp.scenarios)


def test_mistakes_example_reports_its_two_mistakes():
    from pogdsl.compiler import compile_paths

    comp = compile_paths([DOCS / "examples" / "mistakes.pog"], root=ROOT, library=False)
    assert sorted(d.code for d in comp.reporter.items) == ["E0201", "E0203"]


def test_graph_page_names_every_node_kind_and_step():
    """graph.rst describes every node kind of a real graph and every step op
    the lowering emits."""
    from pogdsl.compiler import scenario_graph

    page = (DOCS / "graph.rst").read_text(encoding="utf-8")
    _, graph = scenario_graph("toy", root=DOCS / "examples" / "toy")
    assert graph is not None
    kinds = {d["kind"] for _, d in graph.nodes(data=True)}
    lower = (ROOT / "pogdsl" / "graph" / "lower.py").read_text(encoding="utf-8")
    ops = set(re.findall(r'emit\("([a-z_]+)"', lower))
    assert ops and kinds
    missing = sorted(w for w in kinds | ops if f"``{w}``" not in page)
    assert not missing, f"not described in docs/graph.rst: {missing}"


# ----------------------------------------------------------------- rule index
def test_rule_index_page_lists_every_rule_with_its_sources_and_tests():
    """The generated rule index has a row for each rule of rules/index.pog,
    with the sources citing it and the tests naming it (as `pogdsl rules
    --tests` finds them), and it is linked from the front page."""
    import sys

    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        from ruleindex import rule_index_lines
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    from pogdsl.compiler import resolve_scenario

    text = "\n".join(rule_index_lines("campaign", ROOT))
    _, program = resolve_scenario("campaign", root=ROOT)
    rows = set(re.findall(r"^   \* - \**([0-9][0-9A-H.]*)\**$", text, re.M))
    assert rows >= set(program.rule_index)
    assert "``tests/rules/test_losses.py::test_12_4_3_example_exact_loss_number_through_a_replacement_corps``" in text
    assert "``rules/12-losses.pog:" in text
    assert "rule-index" in (DOCS / "index.rst").read_text(encoding="utf-8")
    assert ".. pog-rule-index:: campaign" in (DOCS / "rule-index.rst").read_text(encoding="utf-8")


# ----------------------------------------------------------------- the build
def test_sphinx_build_has_no_warnings(tmp_path):
    # sphinx and furo are in the `test` extra: a missing one is a failure, not a skip.
    from sphinx.cmd.build import build_main

    status = build_main(["-W", "-q", "-b", "html", str(DOCS), str(tmp_path / "html")])
    assert status == 0
    html = (tmp_path / "html" / "vocabulary.html").read_text(encoding="utf-8")
    from pogdsl.semantics.vocabulary import EVENTS, FUNCTIONS, VERBS

    for name in [*VERBS, *FUNCTIONS, *EVENTS]:
        assert name in html, f"{name} missing from the generated vocabulary page"
    diagnostics = (tmp_path / "html" / "diagnostics.html").read_text(encoding="utf-8")
    from pogdsl.diagnostics import CODES

    for code in CODES:
        assert code in diagnostics
    cli = (tmp_path / "html" / "cli.html").read_text(encoding="utf-8")
    for command in ("check", "graph", "diff", "rules", "cards"):
        assert f"pogdsl {command}" in cli
    variants = (tmp_path / "html" / "variants.html").read_text(encoding="utf-8")
    assert "pogdsl diff toy toy_trenches" in variants and "terrain forest -&gt; clear" in variants
    index = (tmp_path / "html" / "rule-index.html").read_text(encoding="utf-8")
    assert "12.4.3" in index and "test_12_4_3_example_exact_loss_number_through_a_replacement_corps" in index
    cards = (tmp_path / "html" / "cards.html").read_text(encoding="utf-8")
    assert 'id="card-ap-6"' in cards and "AP 6 — Withdrawal" in cards and "CP 56 — Withdrawal" in cards
    assert 'href="cards.html"' in (tmp_path / "html" / "index.html").read_text(encoding="utf-8")


# ------------------------------------------------------------ the card catalogue
def _catalogue():
    import sys

    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        from pogcards import catalogue_lines
    finally:
        sys.path.pop(0)
    return catalogue_lines("campaign", ROOT)


def test_card_catalogue_has_every_card_with_its_values_rules_and_tests():
    from pogdsl.compiler import resolve_scenario

    lines = _catalogue()
    _, program = resolve_scenario("campaign", root=ROOT)
    titles = [line for line in lines if re.match(r"^[AC]P \d+ — ", line)]
    assert len(titles) == len(program.all("card")) == 130
    # One card in full: values, condition with its rules, event note, the
    # rules it cites with their titles from the index, source and tests.
    start = lines.index("AP 6 — Withdrawal")
    block = lines[start:lines.index("", start + 5)]
    text = "\n".join(block)
    assert ":Values: mobilization deck · OPS 2 · SR 2 · RP fr 1, br 1, ru 1" in text
    assert ":Flags: combat card, removed after its event" in text
    assert ":Playable when: ``withdrawal_playable(ap)`` (rule 12.6.2, 9.5.4.1)" in text
    assert ":Event: The Allied defenders get ready to fall back" in text
    assert "12.6.3 Withdrawal restores one corps step" in text
    assert ":Source: ``cards/ap/06-withdrawal.pog:14``" in text
    assert "``test_withdrawal_only_for_the_defender``" in text
    # A card with rules nested in it lists them as in play.
    start = lines.index("AP 4 — Pleve")
    text = "\n".join(lines[start:lines.index("", start + 5)])
    assert ":In play: modifier ``pleve_drm``" in text
    # A card whose event is not written (if any is left) says so.
    for decl in program.all("card"):
        if decl.event is None:
            start = lines.index(f"{decl.side.text.upper()} {decl.number} — {decl.name.text}")
            assert any(line.startswith(":Event: not written yet") for line in lines[start:start + 12])


# ------------------------------------------------------------------ the lexer
def _tokens(text: str):
    from pogdsl.highlight import PogLexer

    return list(PogLexer().get_tokens(text))


def test_lexer_is_registered_with_pygments():
    from pygments.lexers import get_lexer_by_name, get_lexer_for_filename

    from pogdsl.highlight import PogLexer

    assert isinstance(get_lexer_by_name("pog"), PogLexer)
    assert isinstance(get_lexer_by_name("pogdsl"), PogLexer)
    assert isinstance(get_lexer_for_filename("guns-of-august.pog"), PogLexer)


def test_lexer_has_no_error_tokens_on_the_fixture():
    from pygments.token import Error

    tokens = _tokens(FIXTURE.read_text(encoding="utf-8"))
    errors = [(t, v) for t, v in tokens if t in Error]
    assert not errors
    assert "".join(v for _, v in tokens) == FIXTURE.read_text(encoding="utf-8").rstrip("\n") + "\n"


@pytest.mark.parametrize("folder", ["rules", "cards", "scenarios", "docs/examples"])
def test_lexer_has_no_error_tokens_on_real_sources(folder):
    from pygments.token import Error

    for path in sorted((ROOT / folder).rglob("*.pog")):
        errors = [(t, v) for t, v in _tokens(path.read_text(encoding="utf-8")) if t in Error]
        assert not errors, (path, errors[:5])


def test_lexer_token_types():
    from pygments.token import Comment, Keyword, Name, Number, Operator, String

    tokens = [(t, v) for t, v in _tokens(FIXTURE.read_text(encoding="utf-8")) if v.strip()]
    types: dict[str, set] = {}
    for t, v in tokens:
        types.setdefault(v, set()).add(t)

    for number in ("1.0", "12.2.7", "9.5.1.1", "6.0.E.2", "12.4.3"):
        assert types[number] == {Name.Label}, number
    assert types["3-3-3"] == {Number.Other}
    assert types["'Le Havre'"] == {Name.Entity}
    assert types["# sample"] == {Comment.Single}
    assert Keyword.Declaration in types["card"]
    assert Keyword.Declaration in types["procedure"]
    assert Keyword.Declaration in types["space"]
    assert types["cites"] == {Keyword}
    assert types["choose"] == {Keyword}
    assert types["place"] == {Keyword.Pseudo}
    assert types["shift"] == {Keyword.Pseudo}
    assert types["at"] == {Keyword.Reserved}
    assert types["true"] == {Keyword.Constant}
    assert types["and"] == {Operator.Word}
    assert types["count"] == {Name.Builtin}
    assert types["units_in"] == {Name.Builtin}
    assert String.Interpol in types["{s}"]
    assert types["=="] == {Operator}
    assert types["--"] == {Operator}
    assert types["~~"] == {Operator}
    # attributes after a dot stay attributes even when they are keywords
    assert Name.Attribute in types["nation"]
    assert Name.Attribute in types["capital"]


def test_lexer_keywords_come_from_the_grammar():
    """Every double-quoted word of the grammar is a keyword of the lexer, and
    the effect verbs, prepositions and aggregators have their own types."""
    from pygments.token import Keyword, Name

    from pogdsl.highlight import (
        KEYWORD_TYPES,
        KEYWORDS,
        grammar_keywords,
        rule_keywords,
    )
    from pogdsl.semantics.vocabulary import VERBS
    from pogdsl.syntax.parser import TOP_LEVEL_KEYWORDS, grammar_text

    grammar = grammar_text()
    quoted = set(re.findall(r'"([A-Za-z_][A-Za-z0-9_]*)"',
                            "\n".join(line for line in grammar.splitlines()
                                      if not line.lstrip().startswith("//"))))
    assert KEYWORDS == quoted == grammar_keywords()
    assert set(rule_keywords("verb")) == set(VERBS)
    for verb in VERBS:
        assert KEYWORD_TYPES[verb] is Keyword.Pseudo
    for word in ("any", "all", "count", "sum", "min", "max"):
        assert KEYWORD_TYPES[word] is Name.Builtin
    assert set(rule_keywords("prep")) >= {"to", "at", "by", "with", "into"}
    for kw in TOP_LEVEL_KEYWORDS:
        tokens = [(t, v) for t, v in _tokens(f"{kw} x\n") if v.strip()]
        assert tokens[0] == (Keyword.Declaration, kw)


def test_lexer_on_every_keyword_has_no_errors():
    from pygments.token import Error, Name

    from pogdsl.highlight import KEYWORDS

    for word in sorted(KEYWORDS):
        tokens = _tokens(f"  let x = {word}\n")
        assert not [t for t, _ in tokens if t in Error]
        assert (Name, word) not in tokens, f"keyword {word} lexed as a plain name"


def test_lexer_error_tokens_on_unclosed_text():
    from pygments.token import Error

    tokens = _tokens('log "no end\nlet x = 1\n')
    assert any(t in Error for t, _ in tokens)
    # and the next line is lexed normally again
    assert ("Token.Keyword", "let") in [(str(t), v) for t, v in tokens]
