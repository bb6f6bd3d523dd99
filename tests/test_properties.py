"""Property: no input, however mangled, makes the compiler raise.

Valid sources (the grammar's showcase file, the mini project's files, a few of
the project's own files) are mutated at random — characters, tokens and lines
deleted, inserted, duplicated or swapped; keywords, braces, quotes, NUL bytes
and invalid UTF-8 thrown in; the file cut short — and the whole pipeline runs
in-process: read → parse → build_program → check → each scenario's effective
program (and its re-check) → rule graph.  Every problem must come back as a
diagnostic whose span lies inside the file it names.

The run is derandomized (the same examples every time) and keeps no example
database, so CI is stable and the checkout stays clean.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pogdsl.compiler import compile_paths
from pogdsl.diagnostics import render
from pogdsl.graph.build import build_graph
from pogdsl.semantics.loader import display_path
from pogdsl.syntax.parser import TOP_LEVEL_KEYWORDS, parse_text

REPO = Path(__file__).resolve().parents[1]
PROJECT = REPO / "tests" / "diagnostics" / "project"
EVERYTHING = REPO / "tests" / "fixtures" / "everything.pog"

# Diagnostics about a whole file carry line 0.
FILE_LEVEL = {"E0001", "W0704"}

KEYWORDS = list(TOP_LEVEL_KEYWORDS) + [
    "cites", "extends", "replace", "add", "remove", "setup", "turns", "option", "default", "on", "off",
    "let", "if", "else", "for", "in", "where", "repeat", "as", "while", "choose", "by", "optional", "roll",
    "call", "segment", "return", "set", "shift", "move", "place", "reduce", "eliminate", "restore", "discard",
    "draw", "shuffle", "deal", "destroy", "emit", "log", "end_game", "put", "remove_unit", "to", "from", "at",
    "with", "into", "because", "onto", "not", "and", "or", "true", "false", "none", "any", "all", "count",
    "sum", "min", "max", "row", "columns", "rule", "not_applicable", "forbid", "when", "unless", "event",
    "playable", "deck", "ops", "sr", "rp", "removed", "combat", "per", "of", "list", "start", "only",
]
PUNCTUATION = ["{", "}", "(", ")", "[", "]", "\"", "'", ",", ":", ".", "..", "--", "~~", "+=", "-=", ":=",
               "==", "/", "#", "\n", "\t", "\r", "\\", "1.2.3", "3-3-3", "0", "99999999999999999999"]
BYTES = [b"\x00", b"\xff", b"\xc3", b"\xc3\xa8", b"\xe2\x80", b"\xef\xbb\xbf", b"\x0c", b"\xc2\x85",
         b"\xe2\x80\xa8", b"\x1b[31m"]


@lru_cache(maxsize=1)
def seeds() -> list[tuple[str, bytes, tuple[Path, ...]]]:
    """(file name, its bytes, the other files it is checked with)."""
    out: list[tuple[str, bytes, tuple[Path, ...]]] = [("everything.pog", EVERYTHING.read_bytes(), ())]
    project = sorted(PROJECT.rglob("*.pog"))
    for path in project:
        out.append((path.name, path.read_bytes(), tuple(p for p in project if p != path)))
    # A few of the project's own files, on their own.
    index = REPO / "rules" / "index.pog"
    if index.exists():
        lines = index.read_text(encoding="utf-8").split("\n")
        head = [line for line in lines[:60]]
        out.append(("index-head.pog", ("\n".join(head) + "\n}\n").encode(), ()))
    cards = sorted((REPO / "cards").rglob("*.pog"))
    for card in cards[:1] + cards[-1:]:
        out.append((card.name, card.read_bytes(), ()))
    # Only seeds that are valid to begin with (files other people are editing may not be).
    return [s for s in out if not parse_text(s[1].decode("utf-8"), s[0])[1]]


# ------------------------------------------------------------------ mutations

def _tokens(data: bytes) -> list[bytes]:
    import re

    return re.findall(rb"\s+|[A-Za-z_][A-Za-z0-9_]*|'[^'\n]*'|\"[^\"\n]*\"|[0-9.]+|.", data, re.DOTALL)


def mutate(data: bytes, op: tuple) -> bytes:
    kind, a, b, extra = op
    n = len(data)
    i = a % (n + 1)
    if kind == "delete_chars":
        return data[:i] + data[i + 1 + b % 8:]
    if kind == "insert":
        return data[:i] + extra + data[i:]
    if kind == "duplicate_chars":
        j = min(n, i + 1 + b % 16)
        return data[:j] + data[i:j] + data[j:]
    if kind == "swap_chars":
        if n < 2:
            return data
        i, j = sorted((a % n, b % n))
        return data[:i] + data[j:j + 1] + data[i + 1:j] + data[i:i + 1] + data[j + 1:]
    if kind == "truncate":
        return data[:i]
    lines = data.split(b"\n")
    li, lj = a % len(lines), b % len(lines)
    if kind == "delete_line":
        del lines[li]
        return b"\n".join(lines)
    if kind == "duplicate_line":
        lines.insert(lj, lines[li])
        return b"\n".join(lines)
    if kind == "swap_lines":
        lines[li], lines[lj] = lines[lj], lines[li]
        return b"\n".join(lines)
    if kind == "insert_line":
        lines.insert(li, extra)
        return b"\n".join(lines)
    tokens = _tokens(data)
    if not tokens:
        return data
    ti, tj = a % len(tokens), b % len(tokens)
    if kind == "delete_token":
        del tokens[ti]
    elif kind == "duplicate_token":
        tokens.insert(tj, tokens[ti])
    elif kind == "swap_tokens":
        tokens[ti], tokens[tj] = tokens[tj], tokens[ti]
    elif kind == "replace_token":
        tokens[ti] = extra
    return b"".join(tokens)


_extra = st.one_of(
    st.sampled_from(KEYWORDS).map(lambda k: k.encode()),
    st.sampled_from(KEYWORDS).map(lambda k: f" {k} ".encode()),
    st.sampled_from(PUNCTUATION).map(str.encode),
    st.sampled_from(BYTES),
    st.text(max_size=6).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.binary(max_size=4),
)
_index = st.integers(min_value=0, max_value=1 << 20)
_op = st.tuples(
    st.sampled_from(["delete_chars", "insert", "duplicate_chars", "swap_chars", "truncate", "delete_line",
                     "duplicate_line", "swap_lines", "insert_line", "delete_token", "duplicate_token",
                     "swap_tokens", "replace_token"]),
    _index, _index, _extra,
)


# ------------------------------------------------------------------ the property

def run_pipeline(files: list[Path]):
    comp = compile_paths(files, root=PROJECT, library=False)
    graphs = {}
    for key, (program, _) in comp.scenarios.items():
        graphs[key] = build_graph(program)
    return comp, graphs


def check_diagnostics(comp, texts: dict[str, bytes]) -> None:
    for d in comp.reporter.items:
        s = d.span
        assert s is not None, d
        assert s.file in comp.loaded.files, d
        data = texts.get(s.file)
        if s.line == 0:
            assert d.code in FILE_LEVEL, d
            continue
        if data is not None:
            assert 1 <= s.line <= data.count(b"\n") + 1, d
        assert s.col >= 1, d
        render(d, comp.sources)
        json.dumps(d.to_json())


def texts_of(files: list[Path]) -> dict[str, bytes]:
    return {display_path(f): f.read_bytes() for f in files}


@settings(max_examples=150, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(which=st.integers(min_value=0, max_value=1000), ops=st.lists(_op, min_size=1, max_size=4))
def test_mutated_sources_never_raise(tmp_path_factory, which, ops):
    pool = seeds()
    name, data, others = pool[which % len(pool)]
    for op in ops:
        data = mutate(data, op)
    path = tmp_path_factory.mktemp("mutant") / name
    path.write_bytes(data)
    files = list(others) + [path]
    comp, _ = run_pipeline(files)
    check_diagnostics(comp, texts_of(files))


def test_seeds_are_valid():
    pool = seeds()
    assert len(pool) >= 8
    names = [name for name, _, _ in pool]
    assert "everything.pog" in names and "mini.pog" in names


def _seed(name):
    return next((d, o) for n, d, o in seeds() if n == name)


@pytest.mark.parametrize("name", ["board.pog", "play.pog", "mini.pog"])
def test_unmutated_project_files_are_clean(name):
    _, others = _seed(name)
    path = next(PROJECT.rglob(name))
    comp, graphs = run_pipeline(list(others) + [path])
    assert comp.reporter.items == []
    assert set(graphs) == {"mini", "mini_variant"}


# Hand-picked damage that once looked risky: each must come back as diagnostics.
@pytest.mark.parametrize("name, old, new, code", [
    ("mini.pog", b'scenario mini "Mini scenario" cites', b'scenario mini "Mini scenario" extends mini_variant cites',
     "E0503"),
    ("mini.pog", b"extends mini", b"extends mini_variant", "E0503"),
    ("mini.pog", b"replace phase attrition", b"remove phase attrition\n  replace phase attrition", "E0501"),
    ("mini.pog", b"add flag variant_rules", b"remove flag liege_fallen\n  add flag variant_rules", "E0201"),
    ("play.pog", b"procedure combat", b"\x00procedure combat", "E0001"),
    ("play.pog", b"Liege", b"Li\xe8ge", "E0001"),
    ("board.pog", b"space Liege", b"space Sedan", "E0401"),
    ("state.pog", b"flag liege_fallen", b"phase", "E0101"),
    ("play.pog", b"take_losses(s: space, n) cites 4.2.2 {", b"take_losses(s: space, n) cites 4.2.2", "E0101"),
    ("play.pog", b"  }\n}\n", b"  }\n", "E0101"),
    ("play.pog", b'"take a loss on {u}"', b'"take a loss on {u}', "E0102"),
    ("index.pog", b"rule 4.2 ", b"rule 4.2.9 ", "E0601"),
])
def test_examples(tmp_path, name, old, new, code):
    data, others = _seed(name)
    assert old in data
    data = data.replace(old, new, 1)
    path = tmp_path / name
    path.write_bytes(data)
    files = list(others) + [path]
    comp, _graphs = run_pipeline(files)
    check_diagnostics(comp, texts_of(files))
    assert code in {d.code for d in comp.reporter.items}


@pytest.mark.parametrize("depth", [100, 400, 2000])
def test_deep_nesting(tmp_path, depth):
    """Deeply nested blocks once raised RecursionError from the parse cache."""
    text = ("phase deep cites 5.1 {" + "if true {" * depth + 'log "x"' + "}" * depth + "}\n"
            "sequence deep_turn cites 5.0 { deep }\n")
    path = tmp_path / "deep.pog"
    path.write_text(text, encoding="utf-8")
    files = sorted(PROJECT.rglob("*.pog")) + [path]
    comp, _ = run_pipeline(files)
    check_diagnostics(comp, texts_of(files))
