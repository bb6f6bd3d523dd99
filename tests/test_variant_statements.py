"""The variant language's statements (issue 23): `cites` on every statement,
texts that show any expression, phases and procedure steps inserted by a
variant, replacements that use what they replace, and declared game results.

Golden tests: a small source (the fixture game under
tests/fixtures/variant_stmts, plus a few lines per case) and the result or the
diagnostic it must give.  The fixture's rule numbers are made up.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pogdsl.compiler import compile_paths
from pogdsl.diagnostics import render
from pogdsl.graph.build import build_graph
from pogdsl.opening import open_scenario
from pogdsl.runtime.interpreter import Game

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "variant_stmts"


def play(root: Path, scenario: str = "base", **options) -> Game:
    opened = open_scenario(scenario, root, cache=False, options=options or None)
    game = Game.new(opened.world, 1)
    game.run()
    assert game.over
    return game


def with_extra(tmp_path: Path, extra: str) -> Path:
    """A copy of the fixture with `extra` as one more file, scenarios/extra.pog."""
    root = tmp_path / "game"
    shutil.copytree(FIXTURE, root)
    (root / "scenarios" / "extra.pog").write_text(extra, encoding="utf-8")
    return root


def diagnostics(tmp_path: Path, extra: str) -> tuple[list[tuple], str]:
    """(severity, code, line, column, message) of each diagnostic of the extra
    file, and their rendered text (paths relative to the game folder)."""
    root = with_extra(tmp_path, extra)
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        comp = compile_paths(None, root=Path("."))
        diags = comp.reporter.sorted()
        rendered = "".join(render(d, comp.sources) + "\n" for d in diags)
    return [(d.severity, d.code, d.span.line, d.span.col, d.message) for d in diags], rendered


def log_lines(game: Game, starting: str) -> list[dict]:
    return [e for e in game.s["log"] if e["text"].startswith(starting)]


def test_fixture_is_clean(monkeypatch):
    monkeypatch.chdir(FIXTURE)
    comp = compile_paths(None, root=Path("."))
    assert [render(d, comp.sources) for d in comp.reporter.items] == []


# ------------------------------------------------------------ 1. cites on every statement

def test_call_cites_name_the_rule_in_the_callee_log_lines():
    game = play(FIXTURE)
    scored = log_lines(game, "scored")
    assert len(scored) == 2
    # The procedure's own rule and the rule the call implements (9.9).
    assert all(e["rules"] == ["2.3", "9.9"] for e in scored)
    # A phase that calls nothing cited keeps its own rule only.
    assert all(e["rules"] == ["2.2"] for e in log_lines(game, "supply"))


def test_call_cites_are_on_the_graph_step(monkeypatch):
    monkeypatch.chdir(FIXTURE)
    comp = compile_paths(None, root=Path("."))
    g = build_graph(comp.scenarios["base"][0])
    (call,) = [n for n, d in g.nodes(data=True) if d.get("kind") == "step" and d.get("op") == "call"]
    assert g.nodes[call]["cites"] == ["2.1", "9.9"]
    assert ("rule:9.9", "cites") in [(v, d["kind"]) for _, v, d in g.out_edges(call, data=True)]


def test_turns_cites_name_the_end_of_the_last_turn():
    game = play(FIXTURE)
    assert game.outcome.winner is None
    assert game.outcome.rules == ["3.1"]


def test_every_statement_takes_cites(tmp_path):
    extra = """
procedure all_cited(n: int) cites 2.3 {
  let x = n + 1 cites 2.4
  if x > 1 cites 2.4 { log "big" cites 2.4 }
  for s in [Paris, Sedan] cites 2.2 { log "at {s}" }
  repeat 2 as r cites 2.2 { log "r{r}" }
  while false cites 2.2 { log "never" }
  call score(x) cites 9.9
  return cites 2.3
}
"""
    got, _ = diagnostics(tmp_path, extra)
    assert [d for d in got if d[0] == "error"] == []


def test_statement_cites_must_be_in_the_rule_index(tmp_path):
    got, rendered = diagnostics(tmp_path, "phase extra_phase cites 2.1 {\n  call score(1) cites 9.8\n}\n")
    assert ("error", "E0601", 2, 23, "rule 9.8 is not in the rule index") in got
    assert "call score(1) cites 9.8" in rendered


# ------------------------------------------------------------ 2. texts that show expressions

def test_log_text_shows_any_expression():
    game = play(FIXTURE)
    texts = [e["text"] for e in log_lines(game, "scored")]
    # vp starts at 10 and the bonus (1) is scored each turn; two of the three
    # spaces are allied; {{ }} write braces.
    assert texts == ["scored 1: vp 11, low, 2 allied, {braces}",
                     "scored 1: vp 12, high, 2 allied, {braces}"]


def test_unknown_name_in_braces_is_reported_at_its_column(tmp_path):
    got, rendered = diagnostics(tmp_path, 'procedure shows cites 2.3 {\n  log "vp is {vp + bonsu()} now"\n}\n')
    assert ("error", "E0217", 2, 20, "unknown function 'bonsu'") in got or \
        ("error", "E0201", 2, 20, "unknown name 'bonsu'") in got, got
    assert "did you mean 'bonus'?" in rendered


def test_broken_braces_are_syntax_errors_inside_the_text(tmp_path):
    extra = 'procedure shows cites 2.3 {\n  log "a {vp +} b"\n  log "c {vp"\n  log "d {} e"\n}\n'
    got, _ = diagnostics(tmp_path, extra)
    errors = [d for d in got if d[0] == "error"]
    assert errors == [
        ("error", "E0101", 2, 15, "in the braces of a text: the expression ends before it is complete"),
        ("error", "E0101", 3, 10, "a `{` in this text is never closed: write `{{` for a brace itself"),
        ("error", "E0101", 4, 10, "empty braces in a text: put an expression in them, or write `{{}}` for braces"),
    ]


# ------------------------------------------------------------ 3. insertions

def test_inserted_phase_and_steps_run_where_they_were_put():
    game = play(FIXTURE, "inserts")
    turn1 = [(e["phase"], e["text"]) for e in game.s["log"] if e["turn"] == 1]
    assert turn1 == [
        ("supply", "first"),                       # at start of phase supply
        ("supply", "supply"),
        ("mobilise", "mobilise"),                  # the phase inserted after supply
        ("scoring", "before gain 10"),             # before segment gain of score
        ("scoring", "vp +1 → 11"),
        ("scoring", "after gain 11"),              # after it
        ("scoring", "scored 1: vp 11, low, 2 allied, {braces}"),
    ]
    # The insertion's own rule is on its lines, with the procedure's.
    (before,) = [e for e in log_lines(game, "before gain") if e["turn"] == 1]
    assert "10.2" in before["rules"] and "2.3" in before["rules"]


def test_insertions_leave_the_base_scenario_alone():
    game = play(FIXTURE, "base")
    assert not log_lines(game, "mobilise") and not log_lines(game, "before gain")


def test_insertions_change_the_graph_of_their_targets(monkeypatch):
    monkeypatch.chdir(FIXTURE)
    comp = compile_paths(None, root=Path("."))
    program, changes = comp.scenarios["inserts"]
    assert [p.text for p in program.decls["sequence"]["turn"].phases] == ["supply", "mobilise", "scoring", "ending"]
    assert [p.text for p in comp.base.decls["sequence"]["turn"].phases] == ["supply", "scoring", "ending"]
    assert ("insert", "sequence", "turn") in [c[:3] for c in changes]
    assert ("insert", "procedure", "score") in [c[:3] for c in changes]
    g = build_graph(program)
    # The graph credits the variant with what it plays differently: the
    # sequence, procedure and phase it inserted into, and the phase it added.
    targets = {v for _, v, d in g.out_edges("scenario:inserts", data=True) if d["kind"] == "overrides"}
    assert targets == {"sequence:turn", "procedure:score", "phase:supply", "phase:mobilise"}


BAD_INSERTS = {
    "unknown_phase": ("insert phase mobilis after supply in turn", ("error", "E0210", 3, 16, "unknown phase 'mobilis'")),
    "unknown_sequence": ("insert phase mobilise after supply in trun",
                         ("error", "E0219", 3, 41, "unknown sequence 'trun'")),
    "unknown_anchor_phase": ("insert phase mobilise after suply in turn",
                             ("error", "E0520", 3, 31, "sequence 'turn' has no phase 'suply'")),
    "phase_twice": ("insert phase supply after scoring in turn",
                    ("error", "E0521", 3, 16, "phase 'supply' is already in sequence 'turn'")),
    "unknown_procedure": ("insert into procedure scor after gain { log \"x\" }",
                          ("error", "E0205", 3, 25, "unknown procedure 'scor'")),
    "unknown_segment": ("insert into procedure score after gian { log \"x\" }",
                        ("error", "E0520", 3, 37, "procedure 'score' has no segment 'gian'")),
    "at_what": ("insert into procedure score at middle { log \"x\" }",
                ("error", "E0520", 3, 34, "`at middle`: an insertion goes `at start` or `at end`")),
    "segment_twice": ("insert into procedure score after gain { segment gain { log \"x\" } }",
                      ("error", "E0521", 3, 52, "procedure 'score' already has a segment 'gain'")),
    "inserted_then_removed": ("insert into procedure score after gain { log \"x\" }\n  remove procedure score",
                              ("error", "E0522", 4, 3,
                               "this removes procedure 'score', into which the scenario inserts")),
}


@pytest.mark.parametrize("case", sorted(BAD_INSERTS))
def test_bad_insertions_are_located_errors(tmp_path, case):
    line, expected = BAD_INSERTS[case]
    extra = f"scenario bad \"Bad\" extends base cites 10.1 {{\n  add phase mobilise cites 10.1 {{ log \"m\" }}\n  {line}\n}}\n"
    got, rendered = diagnostics(tmp_path, extra)
    assert expected in got, got
    assert "hint" in rendered


# ------------------------------------------------------------ 4. `original`

def test_replacements_call_what_they_replace():
    game = play(FIXTURE, "doubled")
    turn1 = [e["text"] for e in game.s["log"] if e["turn"] == 1]
    # bonus is the base's 1 plus 1; score runs the base's procedure twice;
    # supply runs the base's phase, then its own line.
    assert turn1 == ["supply", "more supply", "double scoring",
                     "vp +2 → 12", "scored 2: vp 12, high, 2 allied, {braces}",
                     "vp +2 → 14", "scored 2: vp 14, high, 2 allied, {braces}"]
    # The phase's `call score(...) cites 9.9` holds in the replaced procedure
    # the replacement calls too (a cited call's rules hold however deep).
    assert all("9.9" in e["rules"] for e in log_lines(game, "scored"))


def test_original_of_a_replaced_replacement_is_the_parents():
    game = play(FIXTURE, "tripled")
    # tripled's bonus doubles doubled's (1 + 1): 4 per scoring.
    assert {e["text"].split(":")[0] for e in log_lines(game, "scored")} == {"scored 4"}


def test_the_kept_original_is_not_a_name_sources_write(monkeypatch):
    monkeypatch.chdir(FIXTURE)
    comp = compile_paths(None, root=Path("."))
    program, _ = comp.scenarios["tripled"]
    assert {"bonus__original", "bonus__original2"} <= set(program.decls["value"])
    assert "score__original" in program.decls["procedure"] and "supply__original" in program.decls["procedure"]
    # The base is untouched.
    assert "bonus__original" not in comp.base.decls["value"]


@pytest.mark.parametrize("source, column", [
    ("procedure p cites 2.3 {\n  call original()\n}\n", 8),
    ("value v() = original + 1 cites 2.4\n", 13),
    ("value w(n: int) = original(n) cites 2.4\n", 19),
    # `add` is no replacement: there is nothing to call
    ("scenario a \"A\" extends base cites 10.3 {\n  add procedure fresh() cites 10.3 { call original() }\n}\n", 43),
])
def test_original_outside_a_replacement_is_an_error(tmp_path, source, column):
    got, rendered = diagnostics(tmp_path, source)
    line = 1 if source.startswith("value") else 2
    assert ("error", "E0523", line, column,
            "`original` means something only in a replacement of a procedure, phase or value") in got
    assert "hint: use it inside `replace procedure|phase NAME" in rendered


# ------------------------------------------------------------ 5. declared game results

def test_both_players_lose_is_a_result_of_its_own():
    game = play(FIXTURE, "stalemate")
    o = game.outcome
    # vp 10 → 11 → 12 on turn 2: the stalemate rule ends the game, no winner, not a draw.
    assert (o.winner, o.result, o.kind, o.reason) == (None, "both_lose", "both_lose", "stalemate")
    assert o.text() == "both_lose"
    assert game.s["log"][-1]["text"] == "game over: both_lose (stalemate)"


def test_a_graded_victory_is_a_win_of_its_side():
    o = play(FIXTURE, "graded").outcome
    assert (o.winner, o.result, o.text()) == ("cp", "decisive", "cp wins (decisive)")


def test_plain_results_are_unchanged():
    game = play(FIXTURE, "base")
    assert game.outcome.result is None and game.outcome.kind == "draw" and game.outcome.text() == "a draw"
    assert "result" not in game.s["result"]  # a plain ending is saved as it always was


def test_a_save_carries_the_result():
    game = play(FIXTURE, "stalemate")
    again = Game.from_json(game.w, game.to_json())
    assert again.outcome == game.outcome and again.outcome.result == "both_lose"


def test_simulate_counts_each_declared_result():
    from pogdsl.sim import simulate

    s = simulate("stalemate", games=3, seed=1, root=FIXTURE, workers=1)
    assert s["failed"] == 0
    assert s["result_kinds"] == {"both_lose": 3}
    assert s["results"] == {"ap": 0, "cp": 0, "draw": 0}  # both lost: nobody won, and it was no draw
    assert s["win_rates"]["draw"] == 0
    g = simulate("graded", games=2, seed=1, root=FIXTURE, workers=1)
    assert g["result_kinds"] == {"decisive": 2} and g["results"]["cp"] == 2
    plain = simulate("base", games=2, seed=1, root=FIXTURE, workers=1)
    assert "result_kinds" not in plain and plain["results"]["draw"] == 2


def test_simulate_prints_the_declared_results(capsys):
    from pogdsl.cli.simulate import print_summary
    from pogdsl.sim import simulate

    print_summary(simulate("stalemate", games=2, seed=1, root=FIXTURE, workers=1), None)
    out = capsys.readouterr().out
    assert "results the scenario declares:" in out
    assert [line.split()[:2] for line in out.splitlines() if line.strip().startswith("both_lose")] == \
        [["both_lose", "2"]]


@pytest.mark.parametrize("source, expected", [
    # a result no scenario declares
    ("phase p1 cites 3.1 {\n  end_game none as both_loose because \"x\"\n}\n",
     ("error", "E0524", 2, 20, "game result 'both_loose' is not declared")),
])
def test_undeclared_results_are_errors(tmp_path, source, expected):
    got, rendered = diagnostics(tmp_path, source)
    assert expected in got, got
    assert "did you mean 'both_lose'?" in rendered


def test_a_result_is_declared_by_the_scenario_that_plays_it(tmp_path):
    # `base` does not declare both_lose: a variant of it ending a game so is an error
    got, rendered = diagnostics(tmp_path, 'scenario odd "Odd" extends base cites 10.4 {\n'
                                          '  replace phase ending cites 10.4 { end_game none as both_lose }\n}\n')
    assert ("error", "E0524", 2, 54, "game result 'both_lose' is not declared") in got, got
    assert "hint: scenario 'odd' does not declare it; a scenario declares the results" in rendered


def test_a_game_record_expects_the_result():
    from pogdsl.runtime.record import ScriptError, parse_script, replay_script, script_text

    session = replay_script(parse_script("scenario stalemate\nseed 1\nexpect winner draw\nexpect result both_lose\n"),
                            FIXTURE)
    assert session.game.outcome.result == "both_lose"
    assert "expect result both_lose" in script_text(session)
    with pytest.raises(ScriptError, match="result both_lose"):
        replay_script(parse_script("scenario stalemate\nseed 1\nexpect result none\n"), FIXTURE)


# ------------------------------------------------------------ golden rendering

GOLDEN = FIXTURE / "cases" / "misuse.expected"
MISUSE = """\
scenario misuse "Misuse" extends base cites 10.1 {
  insert phase supply after scoring in turn
  insert into procedure score after gian { log "x" }
  replace value bonus() = original + 1 cites 2.4
  add value twice() = original * 2 cites 2.4
}
procedure shows cites 2.3 {
  log "vp {vp + bonsu()} and {vp"
  end_game none as both_loose
}
"""


def test_misuse_renders_as_the_golden_file(tmp_path):
    """Every mistake of the variant statements, as a user reads it.  Regenerate
    with POGDSL_UPDATE_GOLDEN=1 and read the change: it must be right."""
    import os

    _, rendered = diagnostics(tmp_path, MISUSE)
    if os.environ.get("POGDSL_UPDATE_GOLDEN", "") not in ("", "0"):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(rendered, encoding="utf-8")
    assert rendered == GOLDEN.read_text(encoding="utf-8")
