"""`pogdsl play`, `replay` and `simulate`, run as a user runs them: exit
codes, clear messages, never a traceback."""

from __future__ import annotations

import json
import shutil

import pytest

from .conftest import GAMES, REPO, RULES, TOY, run_cli

TIMING = ("seconds", "decisions_per_second", "agent_speed")  # (a look-ahead player's speed)


# ------------------------------------------------------------------ help
@pytest.mark.parametrize("command, words", [
    ("play", ["--seed", "--ap", "--cp", "--save", "--load", "--trace", "--log", "human", "script:FILE"]),
    ("simulate", ["--games", "--seed", "--workers", "--json", "--max-steps", "--backend", "--progress"]),
    ("replay", ["FILE", "--log", "--script", "expect"]),
])
def test_help_is_complete(command, words):
    proc = run_cli(command, "--help")
    assert proc.returncode == 0
    for w in words:
        assert w in proc.stdout, w


# ------------------------------------------------------------------ play
def test_random_agents_play_a_game_and_save_it(tmp_path):
    save, record = tmp_path / "g.json", tmp_path / "g.txt"
    proc = run_cli("play", "toy_rules", "--root", RULES, "--seed", "3", "--ap", "random", "--cp", "random:5",
                   "--save", save, "--record", record)
    assert proc.returncode == 0, proc.stderr
    assert "Game over" in proc.stdout and "cp (random:5):" in proc.stdout
    again = run_cli("replay", save, "--root", RULES)
    assert again.returncode == 0 and again.stdout.startswith(f"OK {save}")
    again = run_cli("replay", record, "--root", RULES)
    assert again.returncode == 0, again.stderr


def test_play_with_log_and_trace_shows_rules():
    proc = run_cli("play", "toy_rules", "--root", RULES, "--seed", "1", "--ap", "random", "--cp", "random",
                   "--log", "--trace")
    assert proc.returncode == 0, proc.stderr
    assert "[trace] forbid no_three (rule 3.2)" in proc.stdout
    assert "[trace] modifier big_pick (rule 3.4)" in proc.stdout
    assert "rolled" in proc.stdout and "[6.1, 6.2]" in proc.stdout


def test_a_human_at_the_terminal(tmp_path):
    save = tmp_path / "h.json"
    lines = ["help", "space sedan", "hand", "tracks all", "why pick 3", "1", "1", "log 2", "1", "undo", "options",
             "2", "quit"]
    proc = run_cli("play", "toy_rules", "--root", RULES, "--seed", "1", "--ap", "human", "--cp", "random",
                   "--save", save, input="\n".join(lines) + "\n")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "ap to choose: play_card" in out and "  1. play " in out
    assert "Commands:" in out
    assert "Sedan: nation fr" in out
    assert "ap's hand (2 cards)" in out
    assert "vp = 10" in out
    assert "'pick 3' is not an option of this decision (play_card)" in out  # asked at play_card: no pick here
    assert "took back" in out
    assert "stopped at turn" in out
    assert save.exists()
    assert run_cli("replay", save, "--root", RULES).returncode == 0
    cont = run_cli("play", "--load", save, "--root", RULES, "--ap", "random", "--cp", "random")
    assert cont.returncode == 0 and "Game over" in cont.stdout, cont.stderr


def test_scripted_agents_play_the_hand_written_opening():
    opening = GAMES / "opening.txt"
    proc = run_cli("play", "toy_rules", "--root", RULES, "--seed", "7", "--ap", f"script:{opening}", "--cp",
                   f"script:{opening}")
    # The opening has 4 decisions; then the scripts run out and say so.
    assert proc.returncode == 1
    assert "no more decisions for cp" in proc.stderr


def test_a_script_agent_with_an_illegal_line_names_it(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("cp: stay\ncp: fly\n")
    proc = run_cli("play", "toy_rules", "--root", RULES, "--seed", "7", "--ap", "random", "--cp", f"script:{bad}")
    assert proc.returncode == 1
    assert f"{bad}:2: 'fly' is not legal" in proc.stderr


@pytest.mark.parametrize("args, code, fragment", [
    (["play", "nowhere"], 2, "unknown scenario 'nowhere'"),
    (["play", "toy_rules", "--ap", "wizard"], 2, "unknown agent 'wizard'"),
    (["play", "toy_rules", "--agent", "xx=random"], 2, "no side 'xx'"),
    (["play", "toy_rules", "--ap", "script:/no/such/file"], 1, "cannot read /no/such/file"),
    (["play", "--load", "/no/such/save.json"], 1, "cannot read /no/such/save.json"),
    (["play"], 2, "which scenario?"),
    (["play", "dead_end", "--seed", "41102796781512", "--ap", "random"], 1, "no option is legal"),
])
def test_play_refuses_clearly(args, code, fragment):
    proc = run_cli(*args, "--root", RULES)
    assert proc.returncode == code, proc.stderr
    assert fragment in proc.stderr


# ------------------------------------------------------------------ replay
def _save(tmp_path):
    """What `pogdsl play toy_rules --seed 2 --ap random --cp random --save FILE` writes."""
    import io

    from pogdsl.agents import make_agent, play
    from pogdsl.opening import open_scenario
    from pogdsl.runtime.record import Session, write_save

    session = Session.new(open_scenario("toy_rules", RULES), 2)
    play(session, {side: make_agent("random", side, 2) for side in ("ap", "cp")}, out=io.StringIO())
    save = tmp_path / "g.json"
    write_save(session, save)
    return save


def test_replay_a_good_script():
    proc = run_cli("replay", GAMES / "opening.txt", "--root", RULES)
    assert proc.returncode == 0, proc.stderr
    assert "4 decisions" in proc.stdout and "not over" in proc.stdout


@pytest.mark.parametrize("damage, fragment", [
    (lambda t: t.replace('"turn":3', '"turn":2', 1), "edited or damaged since it was saved"),
    (lambda t: t[: len(t) // 2], "truncated"),
    (lambda t: "not json at all", "bad JSON"),
    (lambda t: t.replace('"scenario": "toy_rules"', '"scenario": "toy_roolz"', 1), "edited or damaged"),
    (lambda t: t.replace('"scenario": "toy_rules"', '"scenario": "/etc/passwd"', 1), "edited or damaged"),
    (lambda t: t.replace('"option":"stay"', '"option":"fly"', 1), "edited or damaged"),
])
def test_replay_a_damaged_save_fails_clearly(tmp_path, damage, fragment):
    save = _save(tmp_path)
    text = save.read_text()
    changed = damage(text)
    assert changed != text
    save.write_text(changed)
    proc = run_cli("replay", save, "--root", RULES)
    assert proc.returncode == 1, proc.stdout
    assert fragment in proc.stderr


def test_replay_a_script_with_a_bad_option(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("scenario toy_rules\nseed 7\ncp: stay\n\ncp: march on Paris\n")
    proc = run_cli("replay", bad, "--root", RULES)
    assert proc.returncode == 1
    assert f"{bad}:5: 'march on Paris' is not one of the 2 options now" in proc.stderr


def test_replay_a_save_under_other_rules(tmp_path):
    save = _save(tmp_path)
    other = tmp_path / "other"
    shutil.copytree(RULES, other)
    pog = other / "scenarios" / "toy_rules.pog"
    pog.write_text(pog.read_text().replace("track vp 0..20 start 10", "track vp 0..20 start 11"))
    proc = run_cli("replay", save, "--root", other)
    assert proc.returncode == 1
    assert "saved under other rules than these (changed: scenarios/toy_rules.pog)" in proc.stderr
    assert f"pogdsl replay --under-current-rules {save}" in proc.stderr
    # Asked for, its decisions are played again under these rules (all still legal here).
    proc = run_cli("replay", "--under-current-rules", save, "--root", other)
    assert proc.returncode == 0, proc.stderr
    assert "legal under the current rules" in proc.stderr and proc.stdout.startswith("OK ")
    proc = run_cli("play", "--load", save, "--under-current-rules", "--root", other, "--ap", "random",
                   "--cp", "random")
    assert proc.returncode == 0, proc.stderr


def test_under_current_rules_names_the_decision_no_longer_legal(tmp_path):
    save = tmp_path / "opening.json"
    proc = run_cli("play", "--load", GAMES / "opening.txt", "--save", save, "--ap", "random", "--cp", "random",
                   "--root", RULES)
    assert proc.returncode == 0 and save.is_file(), proc.stderr
    other = tmp_path / "other"
    shutil.copytree(RULES, other)
    pog = other / "scenarios" / "toy_rules.pog"
    pog.write_text(pog.read_text().replace("forbid pick(n) when n == 3", "forbid pick(n) when n == 2"))
    proc = run_cli("replay", save, "--root", other)
    assert proc.returncode == 1 and "--under-current-rules" in proc.stderr
    proc = run_cli("replay", "--under-current-rules", save, "--root", other)
    assert proc.returncode == 1
    assert "(ap: pick 2) is no longer legal under the current rules" in proc.stderr
    assert "forbidden by no_three (rule 3.2)" in proc.stderr


def test_a_save_replays_from_any_folder_and_from_a_copy_of_the_project(tmp_path):
    save = tmp_path / "g.json"
    proc = run_cli("play", "toy_rules", "--seed", "5", "--ap", "random", "--cp", "random", "--save", save,
                   "--root", RULES)
    assert proc.returncode == 0, proc.stderr
    elsewhere = tmp_path / "somewhere" / "else"
    elsewhere.mkdir(parents=True)
    proc = run_cli("replay", save, "--root", RULES, cwd=elsewhere)
    assert proc.returncode == 0, proc.stderr
    copy = tmp_path / "moved" / "project"
    shutil.copytree(RULES, copy)
    for cwd in (copy, tmp_path, REPO):
        proc = run_cli("replay", save, "--root", copy, cwd=cwd)
        assert proc.returncode == 0, (cwd, proc.stderr)
    # A game in progress, saved at a decision from one folder, continues from another.
    mid = tmp_path / "mid.json"
    proc = run_cli("play", "toy_rules", "--seed", "5", "--save", mid, "--root", RULES, input="1\nquit\n")
    assert proc.returncode == 0 and mid.is_file(), proc.stderr
    proc = run_cli("play", "--load", mid, "--root", copy, "--ap", "random", "--cp", "random", cwd=elsewhere)
    assert proc.returncode == 0, proc.stderr


def test_a_saves_scenario_is_a_name_even_where_a_file_bears_it(tmp_path):
    save = tmp_path / "g.json"
    assert run_cli("play", "toy_rules", "--seed", "3", "--ap", "random", "--cp", "random", "--save", save,
                   "--root", RULES).returncode == 0
    here = tmp_path / "here"
    (here / "toy_rules").mkdir(parents=True)  # a folder named like the scenario: never read as one
    (here / "toy_rules" / "x.pog").write_text("this is not pog\n")
    proc = run_cli("replay", save, "--root", RULES, cwd=here)
    assert proc.returncode == 0, proc.stderr


def test_a_save_of_a_scenario_of_ones_own_needs_its_file_on_the_command_line(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    pog = tmp_path / "mine" / "toy.pog"
    pog.parent.mkdir()
    pog.write_text((TOY / "scenarios" / "toy.pog").read_text())
    save = tmp_path / "g.json"
    proc = run_cli("play", pog, "--ap", "random", "--cp", "random", "--save", save, "--root", empty)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(save.read_text())["scenario"] == "toy"
    proc = run_cli("replay", save, "--root", empty)
    assert proc.returncode == 1 and "give its .pog file on the command line" in proc.stderr
    proc = run_cli("replay", save, "--root", empty, "--scenario", pog)
    assert proc.returncode == 0, proc.stderr
    proc = run_cli("play", pog, "--load", save, "--root", empty, "--ap", "random", "--cp", "random", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr


def test_replay_a_missing_file_is_a_usage_error():
    proc = run_cli("replay", "/no/such/file.json")
    assert proc.returncode == 2 and "no such file" in proc.stderr


# ------------------------------------------------------------------ simulate
def _simulate(*args):
    proc = run_cli("simulate", *args, "--json")
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    return proc, summary


def test_simulate_json_and_determinism():
    proc, a = _simulate("toy", "--root", TOY, "--games", "40", "--seed", "9", "--workers", "1")
    assert proc.returncode == 0, proc.stderr
    for key in ("scenario", "seed", "games", "finished", "decisions", "seconds", "decisions_per_second",
                "results"):
        assert key in a
    assert a["scenario"] == "toy" and a["seed"] == 9 and a["games"] == 40 and a["finished"] == 40
    assert set(a["results"]) == {"ap", "cp", "draw"} and sum(a["results"].values()) == 40
    assert a["decisions"] > 0 and a["failures"] == []
    _, b = _simulate("toy", "--root", TOY, "--games", "40", "--seed", "9", "--workers", "3")
    _, c = _simulate("toy", "--root", TOY, "--games", "40", "--seed", "10", "--workers", "1")
    strip = lambda s: {k: v for k, v in s.items() if k not in TIMING}
    assert strip(a) == strip(b)
    assert strip(a) != strip(c)
    assert "\x1b" not in proc.stderr and "it/s" not in proc.stderr  # no progress bar off a terminal


def test_simulate_reports_dead_ends_with_their_seeds():
    proc, s = _simulate("dead_end", "--root", RULES, "--games", "12", "--seed", "1", "--workers", "2")
    assert proc.returncode == 1
    assert s["failed"] > 0 and s["finished"] + s["failed"] == 12
    f = s["failures"][0]
    assert f["kind"] == "dead_end" and "no option is legal" in f["error"] and "(rule 9.1)" in f["error"]
    # The seed reproduces the failure on its own.
    again = run_cli("play", "dead_end", "--root", RULES, "--seed", f["seed"], "--ap", "random", "--cp", "random")
    assert again.returncode == 1 and "no option is legal" in again.stderr


def test_simulate_stops_a_runaway_loop_at_the_step_budget():
    proc, s = _simulate("runaway", "--root", RULES, "--games", "10", "--seed", "1", "--workers", "1",
                        "--max-steps", "5000")
    assert proc.returncode == 1
    assert s["failed"] > 0
    assert {f["kind"] for f in s["failures"]} == {"step_budget"}
    assert all("more than 5000 steps" in f["error"] and isinstance(f["seed"], int) for f in s["failures"])


def test_simulate_text_summary_and_progress():
    proc = run_cli("simulate", "toy", "--root", TOY, "--games", "10", "--workers", "1", "--progress")
    assert proc.returncode == 0
    assert "10 finished, 0 failed" in proc.stdout and "decisions/s" in proc.stdout
    assert "10/10" in proc.stderr  # the bar, forced on


@pytest.mark.parametrize("args, fragment", [
    (["--games", "0"], "--games must be at least 1"),
    (["--workers", "0"], "--workers must be at least 1"),
    (["--max-steps", "0"], "--max-steps must be at least 1"),
    (["--max-decisions", "-3"], "--max-decisions must be at least 1"),
])
def test_simulate_usage_errors(args, fragment):
    proc = run_cli("simulate", "toy", "--root", TOY, *args)
    assert proc.returncode == 2 and fragment in proc.stderr


@pytest.mark.parametrize("backend, module", [("ray", "ray"), ("dask", "dask.distributed")])
def test_a_missing_cluster_backend_names_the_extra(backend, module):
    # The package is hidden from the child process (None in sys.modules:
    # importing it fails), whether it is installed or not.
    import subprocess
    import sys

    top = module.split(".")[0]
    proc = subprocess.run([sys.executable, "-c", f"import sys; sys.modules['{top}'] = None; "
                           "from pogdsl.cli import main; sys.exit(main())", "simulate", "toy", "--root", str(TOY),
                           "--games", "2", "--backend", backend], capture_output=True, text=True)
    assert proc.returncode == 2, proc.stderr
    assert f"pip install 'pogdsl[{backend}]'" in proc.stderr


def test_the_benchmark_runs():
    import subprocess
    import sys

    from .conftest import REPO

    proc = subprocess.run([sys.executable, str(REPO / "benchmarks" / "bench_runtime.py"), "--games", "3"],
                          check=False, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "decisions/s" in proc.stdout and "p99" in proc.stdout and "runtime modules compiled:" in proc.stdout


def test_the_instruction_benchmark_plays_its_games():
    """The part run under valgrind plays the measured games and reports them
    (valgrind itself is too slow for the suite; without it, the switch to
    start counting does nothing)."""
    import subprocess
    import sys

    from .conftest import REPO, TOY

    proc = subprocess.run([sys.executable, str(REPO / "benchmarks" / "bench_instructions.py"), "--inside",
                           "--root", str(TOY), "--scenario", "toy", "--games", "2", "--warm", "1"],
                          check=False, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    decisions, state, compiled = proc.stdout.split()
    assert int(decisions) > 0 and len(state) == 12 and compiled


def test_play_on_from_where_a_script_leads(tmp_path):
    out = tmp_path / "again.txt"
    proc = run_cli("play", "--load", GAMES / "opening.txt", "--root", RULES, "--ap", "random", "--cp", "random",
                   "--record", out)
    assert proc.returncode == 0, proc.stderr
    assert "loaded" in proc.stderr and "Game over" in proc.stdout
    text = out.read_text()
    assert text.count("dice 6 2") == 1 and "hand ap Snow, Fog" in text and "cp: move GE 1 to Sedan" in text
    replayed = run_cli("replay", out, "--root", RULES, "--script", tmp_path / "third.txt")
    assert replayed.returncode == 0, replayed.stderr
    assert (tmp_path / "third.txt").read_text().splitlines()[3:] == text.splitlines()[2:]
