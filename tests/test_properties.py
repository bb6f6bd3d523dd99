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
from hypothesis import HealthCheck, Phase, given, settings
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


# ------------------------------------------------------------------ hostile inputs (issue 22)
# Inputs built to break a reader rather than mutated at random: numbers of any
# size, long chains, deep nesting, long lists, bytes that are not text, device
# files.  Each must give diagnostics (sources) or the project's own one-line
# error (scripts, saves, command lines), never a traceback.  Example counts are
# small: benchmarks/fuzz.py runs the long version.

import os
import subprocess
import sys

from pogdsl.runtime.errors import BadSave, GameError, IllegalOption
from pogdsl.errors import SourceErrors, UsageError

CLEAN_ERRORS = (BadSave, GameError, IllegalOption, UsageError, SourceErrors)
HOSTILE = settings(max_examples=5, deadline=None, derandomize=True, database=None, phases=[Phase.generate],
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _hostile_source(tmp_path, body: str):
    path = tmp_path / "hostile.pog"
    path.write_text(body, encoding="utf-8")
    files = sorted(PROJECT.rglob("*.pog")) + [path]
    comp, _ = run_pipeline(files)
    check_diagnostics(comp, texts_of(files))
    return comp


@HOSTILE
@given(digits=st.integers(min_value=4250, max_value=6000), where=st.sampled_from(["value", "track", "negative"]))
def test_huge_numbers_in_a_source(tmp_path_factory, digits, where):
    n = "9" * digits
    body = {"value": f"value huge cites 5.1 = {n}\n",
            "track": f"track huge 0..{n} start 0 cites 5.1\n",
            "negative": f"value huge cites 5.1 = -{n} + 1\n"}[where]
    comp = _hostile_source(tmp_path_factory.mktemp("huge"), body)
    assert comp.reporter.items  # a number that size is out of the language's range: located error


@HOSTILE
@given(n=st.integers(min_value=400, max_value=2500), form=st.sampled_from(["sum", "attr", "index", "and"]))
def test_long_expressions_in_a_source(tmp_path_factory, n, form):
    expr = {"sum": " + ".join(["1"] * n), "attr": "vp" + ".a" * n, "index": "x" + "[1]" * n,
            "and": " and ".join(["true"] * n)}[form]
    _hostile_source(tmp_path_factory.mktemp("long"), f"value long cites 5.1 = {expr}\n")


@HOSTILE
@given(depth=st.integers(min_value=500, max_value=5000), bracket=st.sampled_from(["()", "[]"]))
def test_deep_brackets_in_a_source(tmp_path_factory, depth, bracket):
    expr = bracket[0] * depth + "1" + bracket[1] * depth
    _hostile_source(tmp_path_factory.mktemp("deep"), f"value deep cites 5.1 = {expr}\n")


@HOSTILE
@given(n=st.integers(min_value=100, max_value=3000))
def test_long_lists_in_a_source(tmp_path_factory, n):
    items = ", ".join(str(i % 7) for i in range(n))
    _hostile_source(tmp_path_factory.mktemp("list"), f"value many cites 5.1 = [{items}]\n")


@HOSTILE
@given(junk=st.lists(st.sampled_from(BYTES + [b"\x00" * 3, b"\xff" * 100, b"\xed\xa0\x80", b"\x80"]),
                     min_size=1, max_size=4),
       at=st.integers(min_value=0, max_value=1 << 16))
def test_bytes_that_are_not_text_in_a_source(tmp_path_factory, junk, at):
    data = _seed("mini.pog")[0]
    i = at % (len(data) + 1)
    path = tmp_path_factory.mktemp("bytes") / "mini.pog"
    path.write_bytes(data[:i] + b"".join(junk) + data[i:])
    files = list(_seed("mini.pog")[1]) + [path]
    comp, _ = run_pipeline(files)
    check_diagnostics(comp, texts_of(files))


# ---- scripts and saves: a few moves of a random Campaign game, written by the project's own writers

@lru_cache(maxsize=1)
def _recorded():
    from pogdsl.agents import RandomAgent, agent_seed
    from pogdsl.runtime.record import Session, open_scenario, save_text, script_text

    opened = open_scenario("campaign", None)
    session = Session.new(opened, 7)
    agents = {s.key: RandomAgent(agent_seed(7, s.key)) for s in opened.world.sides}
    while session.decisions_made < 12 and session.decision is not None:
        d = session.decision
        session.choose(agents[d.by].choose(session, d))
    return opened, save_text(session), script_text(session)


def _outcome(call):
    """'ok' or 'refused' (the project's own error, one line); anything else raises."""
    try:
        call()
    except CLEAN_ERRORS as err:
        assert str(err).strip(), err
        return "refused"
    return "ok"


SCRIPT_HOSTILE = [
    "dice " + "5" * 5000, "dice ²", "dice 0", "seed " + "9" * 5000, "seed -" + "9" * 5000,
    "expect vp " + "9" * 5000, "expect illegal nonsense", "expect legal", "hand ap 'No Such Card'",
    "ap: " + "x" * 50000, "cp: " + "9" * 5000, "ap: 0", "expect options a|b", "option x y", "\x00", "\ufffe",
    "dice " + " ".join(["6"] * 20000),
]


@HOSTILE
@given(lines=st.lists(st.sampled_from(SCRIPT_HOSTILE), min_size=1, max_size=3),
       at=st.integers(min_value=0, max_value=100))
def test_hostile_lines_in_a_script(tmp_path_factory, lines, at):
    from pogdsl.runtime.record import read_script, replay_script

    opened, _, script = _recorded()
    rows = script.split("\n")
    i = 3 + at % max(1, len(rows) - 3)  # after the header
    rows[i:i] = lines
    path = tmp_path_factory.mktemp("script") / "game.txt"
    path.write_text("\n".join(rows), encoding="utf-8", errors="surrogatepass")
    assert _outcome(lambda: replay_script(read_script(path), opened=opened)) == "refused"


@HOSTILE
@given(data=st.binary(max_size=200))
def test_any_bytes_as_a_script(tmp_path_factory, data):
    from pogdsl.runtime.record import read_script

    path = tmp_path_factory.mktemp("script") / "bytes.txt"
    path.write_bytes(data)
    _outcome(lambda: read_script(path))


SAVE_HOSTILE = ["9" * 5000, "-" + "9" * 5000, "[" * 100000 + "]" * 100000, "1e999999", "NaN", "null", "[]",
                '"/etc/passwd"', '"/dev/zero"', '"' + "x" * 100000 + '"', '"\\u0000"', "true", "{}"]


def _save_paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _save_paths(v, prefix + (k,))
    elif isinstance(value, list) and value:
        yield from _save_paths(value[-1], prefix + (len(value) - 1,))


@HOSTILE
@given(which=st.integers(min_value=0, max_value=10_000), hostile=st.sampled_from(SAVE_HOSTILE))
def test_hostile_values_in_a_save(tmp_path_factory, which, hostile):
    from pogdsl.runtime.record import load_save

    opened, save, _ = _recorded()
    data = json.loads(save)
    paths = [p for p in _save_paths(data) if p and p[0] != "scenario"]
    path = paths[which % len(paths)]
    target = data
    for k in path[:-1]:
        target = target[k]
    target[path[-1]] = "\x01here\x01"
    text = json.dumps(data).replace('"\\u0001here\\u0001"', hostile)
    file = tmp_path_factory.mktemp("save") / "game.json"
    file.write_text(text, encoding="utf-8")
    assert _outcome(lambda: load_save(file, opened=opened)) == "refused"


def test_the_recorded_save_and_script_load_unchanged(tmp_path):
    from pogdsl.runtime.record import load_save, read_script, replay_script

    opened, save, script = _recorded()
    (tmp_path / "g.json").write_text(save, encoding="utf-8")
    (tmp_path / "g.txt").write_text(script, encoding="utf-8")
    assert load_save(tmp_path / "g.json", opened=opened).decisions_made == 12
    assert replay_script(read_script(tmp_path / "g.txt"), opened=opened).decisions_made == 12


# ---- device-like inputs, through the command line (in a subprocess: a reader that reads /dev/zero
# to the end would take the memory of the test run; the child gets a memory cap and a time limit)

def _cli(args: list[str], cwd) -> subprocess.CompletedProcess:
    def cap():
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "pogdsl.cli", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=60, preexec_fn=cap)


def _fifo(tmp_path):
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return str(path)


DEVICES = {
    "zero": lambda tmp: "/dev/zero",
    "urandom": lambda tmp: "/dev/urandom",
    "null": lambda tmp: "/dev/null",
    "folder": lambda tmp: str(tmp),
    "fifo": _fifo,
}
READERS = {
    "check": lambda f: ["check", f],
    "replay": lambda f: ["replay", f],
    "load": lambda f: ["play", "--load", f],
}


@pytest.mark.parametrize("device, reader", [(d, r) for d in sorted(DEVICES) for r in sorted(READERS)])
def test_device_files_are_refused_in_one_line(tmp_path, device, reader):
    path = DEVICES[device](tmp_path)
    try:
        done = _cli(READERS[reader](path), tmp_path)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{reader} {path}: no answer after 60 s")
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    if (device, reader) == ("folder", "check"):  # a folder is a fine argument to check, but one with no .pog file
        assert done.returncode == 2 and "no .pog file" in done.stderr, done.stderr[-2000:]
        return
    assert done.returncode in (1, 2), (done.returncode, done.stderr[-2000:])  # a device is no source, save or script
    assert 0 < len(done.stderr.strip().splitlines()) <= 3, done.stderr[-2000:]
