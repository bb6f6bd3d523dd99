"""benchmarks/env_speed.py runs (on the toy game, in seconds): it measures
both ways, profiles, and breaks a step down into its parts (and simulate's decision beside it).  Its figures are printed, never asserted.
And benchmarks/bench_instructions.py --env plays the games it counts."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import REPO, TOY

BENCH = REPO / "benchmarks" / "env_speed.py"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BENCH), *args], cwd=REPO, capture_output=True, text=True,
                          timeout=300, check=False)


def test_measures_the_environment_beside_simulate():
    proc = _run("--scenario", str(TOY), "--games", "2", "--rounds", "1")
    assert proc.returncode == 0, proc.stderr
    summary = proc.stdout.split("median of the rounds:")[1]
    assert "decisions/s, env" in summary and "target 80%" in summary and "options listed" in summary


def test_profiles_a_step():
    proc = _run("--profile", str(TOY), "--games", "2", "--top", "3")
    assert proc.returncode == 0, proc.stderr
    assert "observation vector" in proc.stdout and "environment steps" in proc.stdout


def test_breaks_a_step_down_into_its_parts():
    proc = _run("--breakdown", str(TOY), "--games", "2", "--rounds", "1")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    at_sim = next(i for i, line in enumerate(lines) if line.startswith("  simulate's same games"))
    rows = {line.split(None, 1)[1]: float(line.split(None, 1)[0]) for line in lines[1:at_sim]}
    total = rows["the step: env.last() and env.step()"]
    interpreter = next(v for k, v in rows.items() if k.startswith("Game.choose"))
    listing = rows["of which the listing (Game.offer)"]
    own = rows["the environment's own part:"]
    assert total > 0 and interpreter > 0 and own == pytest.approx(total - interpreter, abs=0.11)
    assert 0 < listing < interpreter
    parts = [v for k, v in rows.items() if k.startswith(("observation", "action mask", "infos", "the rest"))]
    assert len(parts) == 4 and sum(parts) == pytest.approx(own, abs=0.3)
    sim = {line.split(None, 1)[1]: float(line.split(None, 1)[0]) for line in lines[at_sim + 1:at_sim + 3]}
    decision, draws = sim["a decision"], next(v for k, v in sim.items() if k.startswith("of which the random"))
    assert 0 < draws < decision
    assert lines[at_sim + 3].startswith("  80% of simulate's rate allows")


def test_an_unknown_scenario_is_one_line():
    proc = _run("--scenario", "no_such_scenario", "--games", "1", "--rounds", "1")
    assert proc.returncode == 1
    assert proc.stderr.startswith("error: unknown scenario 'no_such_scenario'") and "Traceback" not in proc.stderr


def test_the_instruction_count_of_a_step_plays_the_listed_games(tmp_path):
    # bench_instructions --env replays the listed games' answers through the
    # environment: the same decisions and the same final state as the listed
    # games themselves (the part valgrind runs, here without it: the switch
    # that starts the count then does nothing).
    bench = REPO / "benchmarks" / "bench_instructions.py"
    root = TOY.parent.parent
    common = ["--root", str(root), "--scenario", "toy", "--games", "2"]
    answers = tmp_path / "answers.json"
    subprocess.run([sys.executable, str(bench), "--record", str(answers), *common], check=True, timeout=120)
    played = {}
    for way in ("listed", "env"):
        proc = subprocess.run([sys.executable, str(bench), "--inside", *common, "--warm", "1", "--answers",
                               str(answers), *(["--env"] if way == "env" else [])],
                              capture_output=True, text=True, timeout=120, check=False)
        assert proc.returncode == 0, proc.stderr
        played[way] = proc.stdout.split()[:2]
    assert int(played["env"][0]) > 0 and played["env"] == played["listed"]
