"""Compile-time blow-ups (issue 35): sources that double on every level, a
project of hundreds of scenarios or a chain of extends hundreds long, a text
with thousands of `{…}`, a text of megabytes.  Each is answered in a
moment by a located error or a bound, never a hang or a MemoryError.

The sources are written here, small: each test takes a few seconds at most
(before the fixes, the doubling values and the `original` chain hung, the
chain of extends took minutes and a 4 MiB text 27 s and 1.5 GB)."""

from __future__ import annotations

import pytest

from pogdsl.compiler import compile_paths
from pogdsl.runtime.errors import LimitExceeded

from .test_budget import BODY_LINE, play, scenario

FORTY = 40


def doubling(kind: str, n: int = FORTY) -> str:
    first = "value v0 = [1, 2]" if kind == "list" else "value v0 = 1"
    return "\n".join([first] + [f"value v{i} = v{i - 1} + v{i - 1}" for i in range(1, n + 1)])


def errors_of(root, code: str) -> list:
    comp = compile_paths(root=root)
    return [d for d in comp.reporter.sorted() if d.code == code]


def test_values_that_double_on_every_level(tmp_path):
    """Forty values, each the one before twice: 2^40 calls if each were
    worked out anew (and 2^40 characters of code if each were written in
    place of its call)."""
    root = scenario(tmp_path, f"  set big to v{FORTY}", decls=doubling("int"))
    assert play(root).s["vars"]["big"] == 2 ** FORTY


def test_lists_that_double_on_every_level_stop_at_the_list_size(tmp_path):
    decls = doubling("list")
    root = scenario(tmp_path, f"  set big to len(v{FORTY})", decls=decls)
    with pytest.raises(LimitExceeded) as info:
        play(root)
    assert info.value.limit == "list_size" and "w.pog:" in str(info.value)


def test_a_chain_of_originals_that_doubles_on_every_level(tmp_path):
    """Thirty variants (about the longest chain of extends there may be),
    each replacing a value by its original twice."""
    from pogdsl.runtime.record import open_scenario

    root = scenario(tmp_path, "  set big to v", decls="value v = 1")
    chain, parent = [], "w"
    for i in range(30):
        chain.append(f'scenario s{i} "S{i}" extends {parent} {{\n  replace value v = original + original\n}}\n')
        parent = f"s{i}"
    (root / "scenarios" / "chain.pog").write_text("\n".join(chain), encoding="utf-8")
    game = open_scenario(parent, root, cache=False).new_game(1, log=False)
    d = game.run()
    while d is not None:
        d = game.choose(1)
    assert game.s["vars"]["big"] == 2 ** 30


def test_hundreds_of_scenarios_are_one_located_error(tmp_path):
    from pogdsl.compiler import MAX_SCENARIOS

    root = scenario(tmp_path, "  set big to 1")
    extra = "".join(f'scenario s{i} "S{i}" extends w {{\n  limit steps {1000 + i}\n}}\n'
                    for i in range(MAX_SCENARIOS + 50))
    (root / "scenarios" / "many.pog").write_text(extra, encoding="utf-8")
    (d,) = errors_of(root, "E0526")
    assert d.message.startswith(f"more than {MAX_SCENARIOS} scenarios to check: 's")
    named = d.message.split("'")[1]  # located at the first scenario past the bound, which it names
    lines = (root / "scenarios" / "many.pog").read_text(encoding="utf-8").splitlines()
    assert d.span.file.endswith("many.pog") and lines[d.span.line - 1].startswith(f"scenario {named} ")


def test_a_chain_of_extends_hundreds_long_is_a_located_error(tmp_path):
    from pogdsl.semantics.variants import MAX_EXTENDS

    root = scenario(tmp_path, "  set big to 1")
    chain = "".join(f'scenario s{i} "S{i}" extends {"w" if i == 0 else f"s{i - 1}"} {{\n  limit steps {1000 + i}\n}}\n'
                    for i in range(150))
    (root / "scenarios" / "chain.pog").write_text(chain, encoding="utf-8")
    found = errors_of(root, "E0503")
    first = found[0]
    assert f"extends a chain of more than {MAX_EXTENDS} scenarios" in first.message
    # s0 extends w: s{MAX_EXTENDS - 1} is the first whose chain is too long
    assert first.span.file.endswith("chain.pog") and first.span.line == 3 * (MAX_EXTENDS - 1) + 1


def test_a_text_showing_thousands_of_values(tmp_path):
    from pogdsl.syntax.template import MAX_INTERPOLATIONS

    root = scenario(tmp_path, '  log "' + "{big}" * 3000 + '"')
    (d,) = [d for d in errors_of(root, "E0101") if "`{…}` in one text" in d.message]
    assert d.span.line == BODY_LINE and d.span.col == len('  log "') + 1 + 5 * MAX_INTERPOLATIONS
    ok = scenario(tmp_path / "ok", '  log "' + "{big}" * MAX_INTERPOLATIONS + '"')
    assert not [d for d in compile_paths(root=ok).reporter.sorted() if d.is_error]


def test_a_text_longer_than_a_source_may_hold(tmp_path):
    """A text of 4 MiB took 27 s and 1.5 GB to read; a source past 4 MiB is
    refused before it is read (safe_io), and a text past MAX_TEXT (quotes and
    escapes counted as written) is E0105
    at its opening quote, found before the file is parsed.  (The bound is
    shown with a text just over it; the 1 GB literal was tried by hand.)"""
    from pogdsl.syntax.parser import MAX_TEXT

    root = scenario(tmp_path, '  log "' + "x" * (MAX_TEXT + 1) + '"')
    (d,) = errors_of(root, "E0105")
    assert (d.span.line, d.span.col) == (BODY_LINE, len("  log ") + 1)
    assert d.message == f"a text longer than {MAX_TEXT:,} characters"
    # (escapes count as written: half as many of them took half a minute)
    with_escapes = scenario(tmp_path / "esc", '  log "' + '\\"' * (MAX_TEXT // 2) + '"')
    assert len(errors_of(with_escapes, "E0105")) == 1
    ok = scenario(tmp_path / "ok", '  log "' + "x" * (MAX_TEXT - 2) + '"  # a "quoted" comment ' + '"' * 10)
    assert not [d for d in compile_paths(root=ok).reporter.sorted() if d.is_error]
