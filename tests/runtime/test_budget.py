"""A budget on work, not only steps (runtime/limits.py).

Each test is a tiny scenario whose game runs out of one bounded resource; the
game must stop with a LimitExceeded (a located game error naming the limit) —
never a hang, a MemoryError, a RecursionError or a crash — and `pogdsl
simulate` must report it as that game's failure, with its seed, and no
traceback.  A scenario raises a limit with `limit NAME N`."""

from __future__ import annotations

import pytest

from pogdsl.runtime.errors import LimitExceeded, StepBudgetExceeded
from pogdsl.runtime.limits import DEFAULTS, INT_LIMIT, LIMITS
from .conftest import run_cli

WORLD = """\
side ap "Allies"
side cp "Centrals"
nation fr "France" side ap
map europe "Europe"
enum terrain { clear }
enum unit_type { army }
spaces nation fr map europe { space Paris clear control ap at 1 1
  space Sedan clear control ap at 2 2 }
connections { Paris -- Sedan }
units nation fr { army 'FR 1' 3-3-3 / 2-3-3 %(count)s}
counter big start 2
choice pick(n: int) "pick {n}"
choice quad(a: int, b: int, c: int, d: int) "{a} {b} {c} {d}"
procedure deeper(n: int) { call deeper(n + 1) }
%(decls)s
phase action {
  choose pick(n) by ap for n in [1, 2]
  let here = 1
%(body)s
}
sequence turn { action }
scenario w "W" {
  turns 1..1
  sequence turn
%(limits)s
}
"""

# The line of the body's first line in WORLD (for the located errors).
BODY_LINE = WORLD.splitlines().index("%(body)s") + 1


def scenario(tmp_path, body: str, limits: str = "", decls: str = "", count: str = ""):
    root = tmp_path / "w"
    (root / "scenarios").mkdir(parents=True)
    text = WORLD % {"body": body, "limits": limits, "decls": decls, "count": count}
    (root / "scenarios" / "w.pog").write_text(text, encoding="utf-8")
    return root


def play(root):
    """Play the scenario's one game (first option each time) to its end."""
    from pogdsl.runtime.record import open_scenario

    game = open_scenario("w", root, cache=False).new_game(7, log=False)
    d = game.run()
    while d is not None:
        d = game.choose(1)
    return game


def runs_out(root, limit: str, line: int | None = BODY_LINE) -> LimitExceeded:
    with pytest.raises(LimitExceeded) as info:
        play(root)
    err = info.value
    assert err.limit == limit, str(err)
    assert err.span is not None and str(err.span.file).endswith("w.pog"), str(err)
    if line is not None:
        assert err.span.line == line, str(err)
    assert f"w.pog:{err.span.line}:" in str(err)
    return err


def simulate_fails(root, limit: str) -> dict:
    """Through `pogdsl simulate`: the game's failure with its seed and the
    located error, exit 1, no traceback (run_cli checks there is none)."""
    import json

    proc = run_cli("simulate", "w", "--root", root, "--games", 1, "--workers", 1, "--seed", 3, "--json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    failure = json.loads(proc.stdout)["failures"][0]
    assert failure["kind"] == ("step_budget" if limit == "steps" else f"limit:{limit}"), failure
    assert failure["seed"] and "w.pog:" in failure["error"], failure
    return failure


def test_limits_are_documented_with_their_defaults():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "language.rst").read_text(encoding="utf-8")
    section = doc.split("\nLimits\n", 1)[1]
    for name, (default, _) in LIMITS.items():
        assert f"``{name}``" in section and f"{default:,}" in section, name
    assert f"{INT_LIMIT - 1:,}" in section


# ------------------------------------------------------------------ one test per resource
def test_steps(tmp_path):
    root = scenario(tmp_path, "  repeat 1000 { set big to 1 }", limits="  limit steps 100")
    err = runs_out(root, "steps", line=None)
    assert isinstance(err, StepBudgetExceeded) and "more than 100 steps" in str(err)
    simulate_fails(root, "steps")


def test_a_range_longer_than_the_list_size(tmp_path):
    root = scenario(tmp_path, "  for n in 1..100000000 { set big to n }")
    err = runs_out(root, "list_size")
    assert "1..100000000" in str(err) and f"{DEFAULTS['list_size']}" in str(err)
    simulate_fails(root, "list_size")


def test_a_list_doubled_with_plus(tmp_path):
    root = scenario(tmp_path, "  let xs = [1, 2]\n  repeat 60 { let xs = xs + xs }")
    err = runs_out(root, "list_size", line=BODY_LINE + 1)
    assert "more than the limit" in str(err)
    simulate_fails(root, "list_size")


def test_comprehensions_inside_comprehensions(tmp_path):
    # A million lists of a thousand numbers: each list is short, the work is not.
    root = scenario(tmp_path, "  let m = [[x for x in 1..1000] for y in 1..1000000]\n  set big to len(m)",
                    limits="  limit work 2000000")
    err = runs_out(root, "work")
    assert "items walked" in str(err)
    simulate_fails(root, "work")


def test_an_aggregate_walking_too_much(tmp_path):
    # Nothing is built, but 10^12 items would be walked: a hang without the budget.
    root = scenario(tmp_path, "  set big to sum(count(x for x in 1..1000000) for y in 1..1000000)")
    runs_out(root, "work")


def test_an_integer_squared_until_it_is_too_large(tmp_path):
    root = scenario(tmp_path, "  repeat 100 { set big to big * big }")
    err = runs_out(root, "integers")
    assert "at most 18 digits" in str(err)
    simulate_fails(root, "integers")


def test_an_integer_doubled_by_addition_and_by_shift(tmp_path):
    root = scenario(tmp_path, "  repeat 100 { shift big by big }")
    runs_out(root, "integers")
    root = scenario(tmp_path / "b", "  let n = 1\n  repeat 100 { let n = n + n }")
    runs_out(root, "integers", line=BODY_LINE + 1)


def test_a_choice_with_too_many_candidates(tmp_path):
    # 100^4 = 10^8 candidates: over the million allowed.
    root = scenario(tmp_path, "  choose quad(a, b, c, d) by ap for a in 1..100, b in 1..100, c in 1..100, "
                              "d in 1..100", limits="  limit candidates 50000")
    err = runs_out(root, "candidates")
    assert "choice 'quad'" in str(err)
    simulate_fails(root, "candidates")


def test_best_fill_with_a_huge_limit(tmp_path):
    root = scenario(tmp_path, "  set big to best_fill([[1, 2], [3]], 100000000000)")
    err = runs_out(root, "list_size")
    assert "best_fill" in str(err)
    simulate_fails(root, "list_size")


def test_a_unit_count_over_the_limit_is_a_located_error(tmp_path):
    from pogdsl.runtime.record import ScenarioError, open_scenario

    root = scenario(tmp_path, "  set big to 1", count="count 100000000 ")
    with pytest.raises(ScenarioError) as info:
        open_scenario("w", root, cache=False)
    assert "w.pog:" in str(info.value) and "count 100000000" in str(info.value)
    proc = run_cli("simulate", "w", "--root", root, "--games", 1, "--workers", 1)
    assert proc.returncode != 0 and "count 100000000" in proc.stderr


def test_procedures_calling_one_another_too_deeply(tmp_path):
    root = scenario(tmp_path, "  call deeper(1)")
    err = runs_out(root, "depth", line=None)
    assert "procedure" in str(err)
    simulate_fails(root, "depth")


@pytest.mark.parametrize("n", [300, 400])
def test_values_worked_out_inside_one_another_too_deeply(tmp_path, n):
    # A chain of values, each one more than the next: as deep as Python goes
    # (where the runtime runs compiled, deeper: then the game plays on).
    from pogdsl.runtime.record import ScenarioError

    chain = "\n".join(f"value v{i} = v{i + 1} + 1" for i in range(n)) + f"\nvalue v{n} = big"
    root = scenario(tmp_path, "  set big to v0", decls=chain)
    try:
        game = play(root)
    except LimitExceeded as err:
        assert err.limit == "value_depth" and f"w.pog:{BODY_LINE + n}:" in str(err), str(err)
        simulate_fails(root, "value_depth")
    except ScenarioError as err:  # too deep even to build the world
        assert "too deeply" in str(err)
    else:
        assert game.s["vars"]["big"] == 2 + n


def test_a_world_whose_values_nest_too_deeply_to_build(tmp_path):
    from pogdsl.runtime.record import ScenarioError, open_scenario

    chain = "\n".join(f"value v{i} = v{i + 1} + 1" for i in range(3000)) + "\nvalue v3000 = big"
    root = scenario(tmp_path, "  set big to v0", decls=chain)
    with pytest.raises(ScenarioError) as info:
        open_scenario("w", root, cache=False)
    assert "w.pog:" in str(info.value) and "too deeply" in str(info.value)


def test_lists_nested_too_deeply_for_the_state(tmp_path):
    # (a million-deep list crashed the compiled state encoder)
    root = scenario(tmp_path, "  let xs = [1]\n  repeat 1000000 { let xs = [xs] }")
    err = runs_out(root, "nesting", line=BODY_LINE + 1)
    assert "nested" in str(err)
    simulate_fails(root, "nesting")


def test_encoding_a_state_refuses_data_nested_too_deeply():
    from pogdsl.runtime.values import copy_data, encode

    deep = [1]
    for _ in range(100_000):
        deep = [deep]
    for fn in (encode, copy_data):
        with pytest.raises(LimitExceeded):
            fn({"vars": {"x": deep}})


# ------------------------------------------------------------------ raising a limit
def test_a_scenario_raises_a_limit(tmp_path):
    body = "  let xs = [x for x in 1..1500000]\n  set big to len(xs)"
    runs_out(scenario(tmp_path / "a", body), "list_size")
    game = play(scenario(tmp_path / "b", body, limits="  limit list_size 2000000"))
    assert game.over and game.s["vars"]["big"] == 1_500_000
    # a scenario extending it keeps its limits, or sets its own
    root = tmp_path / "b" / "w"
    (root / "scenarios" / "w2.pog").write_text('scenario w2 "W2" extends w { limit steps 50000 }\n',
                                               encoding="utf-8")
    from pogdsl.runtime.record import open_scenario

    world = open_scenario("w2", root, cache=False).world
    assert world.limits["list_size"] == 2_000_000 and world.limits["steps"] == 50_000
    # and lowers one: the steps of the same loop
    loop = "  repeat 50 { set big to 1 }"
    assert play(scenario(tmp_path / "c", loop)).over
    runs_out(scenario(tmp_path / "d", loop, limits="  limit steps 20"), "steps", line=None)


def test_a_raised_step_limit_is_what_simulate_plays_with(tmp_path):
    root = scenario(tmp_path, "  repeat 3000 { set big to 1 }", limits="  limit steps 20000")
    proc = run_cli("simulate", "w", "--root", root, "--games", 1, "--workers", 1)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    proc = run_cli("simulate", "w", "--root", root, "--games", 1, "--workers", 1, "--max-steps", 1000)
    assert proc.returncode == 1 and "more than 1000 steps" in proc.stdout


def test_an_unknown_limit_or_a_limit_below_one_is_a_checker_error(tmp_path):
    root = scenario(tmp_path, "  set big to 1", limits="  limit stepz 10\n  limit work 0")
    proc = run_cli("check", "--root", root, root / "scenarios" / "w.pog")
    assert proc.returncode != 0
    assert "E0224" in proc.stdout + proc.stderr and "unknown limit 'stepz'" in proc.stdout + proc.stderr
    assert "limit work 0" in proc.stdout + proc.stderr


# ------------------------------------------------------------------ a mod that lifts its own limits (issue 35)
def test_a_limit_above_what_a_process_can_afford_is_a_checker_error(tmp_path):
    """Issue 35: a source could raise every limit to 10^18 and then loop or
    recurse until the process hung or died of a MemoryError.  Each limit a
    source may set has a most (limits.MAXIMA); above it is E0304."""
    from pogdsl.runtime.limits import MAXIMA

    lines = "\n".join(f"  limit {name} {most + 1}" for name, most in MAXIMA.items())
    root = scenario(tmp_path, "  set big to 1", limits=lines)
    proc = run_cli("check", "--root", root, root / "scenarios" / "w.pog")
    assert proc.returncode == 1
    for name, most in MAXIMA.items():
        assert f"limit {name} {most + 1}: a source may set it to at most {most:,}" in proc.stderr, name
    at_most = "\n".join(f"  limit {name} {most}" for name, most in MAXIMA.items())
    root = scenario(tmp_path / "b", "  set big to 1", limits=at_most)
    assert run_cli("check", "--root", root, root / "scenarios" / "w.pog").returncode == 0


def test_a_world_is_built_with_at_most_the_maxima():
    from types import SimpleNamespace

    from pogdsl.runtime.limits import MAXIMA, limits_of

    hostile = SimpleNamespace(limits={name: (10 ** 18, None, None) for name in MAXIMA})
    assert limits_of(hostile) == MAXIMA


AT_MOST = "\n".join(f"  limit {name} {most}" for name, most in __import__("pogdsl.runtime.limits", fromlist=["x"])
                    .MAXIMA.items() if name != "steps")


@pytest.mark.parametrize("body, limit, line", [
    ("  call deeper(1)", "depth", None),
    ("  let xs = [x for x in 1..100000000000]", "list_size", BODY_LINE),
    ("  set big to best_fill([[1, 2], [3]], 100000000000)", "list_size", BODY_LINE),
])
def test_with_every_limit_at_its_most_a_runaway_still_ends_located(tmp_path, body, limit, line):
    root = scenario(tmp_path, body, limits=AT_MOST)
    err = runs_out(root, limit, line=line)
    assert f"{limit}" in str(err) or "procedures" in str(err)


# ------------------------------------------------------------------ games that never end (issue 35)
ASKS_FOREVER = "  while true { choose pick(n) by ap for n in [1, 2] }"


def test_a_game_that_asks_decision_after_decision_stops_at_the_cap(tmp_path):
    """Issue 35: each decision starts a new step budget, so a game asking
    decision after decision forever hung `play`.  Past the scenario's
    `decisions` limit (1,000 a turn by default) it stops with a located
    error naming the choice it keeps asking."""
    from pogdsl.runtime.errors import DecisionBudgetExceeded

    root = scenario(tmp_path, ASKS_FOREVER)
    with pytest.raises(DecisionBudgetExceeded) as info:
        play(root)
    err = info.value
    assert err.limit == "decisions" and err.span.line == BODY_LINE, str(err)
    assert f"w.pog:{BODY_LINE}:" in str(err) and "more than 1000 decisions" in str(err)
    assert "it asks 'pick' here" in str(err)


def test_the_decision_cap_scales_with_the_turns_and_is_settable(tmp_path):
    from pogdsl.runtime.record import open_scenario

    root = scenario(tmp_path, "  set big to 1")
    text = (root / "scenarios" / "w.pog").read_text(encoding="utf-8").replace("turns 1..1", "turns 1..20")
    (root / "scenarios" / "w.pog").write_text(text, encoding="utf-8")
    assert open_scenario("w", root, cache=False).world.limits["decisions"] == 20_000
    text = text.replace("turns 1..20", "turns 1..900000000")  # a turn count is no licence
    (root / "scenarios" / "w.pog").write_text(text, encoding="utf-8")
    assert open_scenario("w", root, cache=False).world.limits["decisions"] == 200_000
    root = scenario(tmp_path / "b", ASKS_FOREVER, limits="  limit decisions 30")
    from pogdsl.runtime.errors import DecisionBudgetExceeded

    with pytest.raises(DecisionBudgetExceeded, match="more than 30 decisions"):
        play(root)


def test_play_and_simulate_stop_a_game_that_never_ends(tmp_path):
    """`play` stops with the located error (exit 1, no traceback); `simulate`
    counts the game as failed (too_long), names where it loops, and plays the
    next games; `--max-decisions` sets the cap from the command line."""
    import json

    root = scenario(tmp_path, ASKS_FOREVER)
    proc = run_cli("play", "w", "--root", root, "--ap", "random", "--cp", "random", timeout=60)
    assert proc.returncode == 1, proc.stderr[-500:]
    assert f"w.pog:{BODY_LINE}:" in proc.stderr and "more than 1000 decisions" in proc.stderr
    proc = run_cli("play", "w", "--root", root, "--ap", "random", "--cp", "random", "--max-decisions", 40,
                   timeout=60)
    assert proc.returncode == 1 and "more than 40 decisions" in proc.stderr
    proc = run_cli("simulate", "w", "--root", root, "--games", 3, "--workers", 1, "--json", timeout=60)
    assert proc.returncode == 1
    summary = json.loads(proc.stdout)
    assert summary["failed"] == 3 and len(summary["failures"]) == 3
    for failure in summary["failures"]:
        assert failure["kind"] == "too_long" and f"w.pog:{BODY_LINE}:" in failure["error"], failure
    proc = run_cli("simulate", "w", "--root", root, "--games", 1, "--workers", 1, "--max-decisions", 25,
                   timeout=60)
    assert proc.returncode == 1 and "more than 25 decisions" in proc.stdout


@pytest.mark.parametrize("where", ["setup", "event"])
def test_a_set_up_or_a_card_event_that_asks_forever(tmp_path, where):
    from pogdsl.runtime.errors import DecisionBudgetExceeded

    if where == "setup":
        root = scenario(tmp_path, "  set big to 1")
        path = root / "scenarios" / "w.pog"
        text = path.read_text(encoding="utf-8").replace(
            "  sequence turn\n", "  sequence turn\n  setup {\n    while true { choose pick(n) by ap for n in [1, 2] }\n"
                                 "  }\n")
        path.write_text(text, encoding="utf-8")
    else:
        root = scenario(tmp_path, "  call endless()",
                        decls="procedure endless() { while true { choose pick(n) by cp for n in [3, 4] } }")
    with pytest.raises(DecisionBudgetExceeded) as info:
        play(root)
    assert info.value.span is not None and "w.pog" in str(info.value.span)


def test_the_pieces_of_all_unit_declarations_together_are_bounded(tmp_path):
    """Each declaration under the limit, fifty of them over it many times:
    10 million pieces took 82 s and 2.4 GB to build.  The limit is on the
    world's pieces, reported at the declaration that passes it."""
    from pogdsl.runtime.record import ScenarioError, open_scenario

    root = scenario(tmp_path, "  set big to 1", count="count 60000 ",
                    decls="units nation fr { army 'FR 2' 3-3-3 / 2-3-3 count 60000 }")
    with pytest.raises(ScenarioError) as info:
        open_scenario("w", root, cache=False)
    assert "unit 'FR 2' brings the pieces of the world to 120000, more than the limit of 100000" in str(info.value)
    assert "w.pog:" in str(info.value)
    root = scenario(tmp_path / "b", "  set big to 1", count="count 60000 ", limits="  limit units 120000",
                    decls="units nation fr { army 'FR 2' 3-3-3 / 2-3-3 count 60000 }")
    assert len(open_scenario("w", root, cache=False).world.units) == 120_000
