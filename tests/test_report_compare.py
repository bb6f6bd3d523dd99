"""`pogdsl report A.jsonl B.jsonl` (issue 33): two saved runs compared as
`simulate --against` compares the runs it plays — the same differences, from
the records alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TOY = REPO / "docs" / "examples" / "toy"
RUN = ("--root", str(TOY), "--games", "24", "--seed", "4", "--ap", "random", "--cp", "random")


def pogdsl(*args, cwd):
    env = {k: v for k, v in os.environ.items() if k != "POGDSL_HOME"}
    env["PYTHONPATH"] = str(REPO)
    proc = subprocess.run([sys.executable, "-m", "pogdsl.cli", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("runs")
    both = pogdsl("simulate", "toy", "--against", "toy_trenches", *RUN, "--json", cwd=folder)
    assert both.returncode == 0, both.stderr
    for scenario, name in (("toy", "base.jsonl"), ("toy_trenches", "variant.jsonl")):
        proc = pogdsl("simulate", scenario, *RUN, "--out", name, cwd=folder)
        assert proc.returncode == 0, proc.stderr
    return folder, json.loads(both.stdout)


def test_two_saved_runs_give_the_differences_simulate_against_gives(runs):
    folder, played = runs
    proc = pogdsl("report", "base.jsonl", "variant.jsonl", "--root", str(TOY), "--json", cwd=folder)
    assert proc.returncode == 0, proc.stderr
    read = json.loads(proc.stdout)
    assert read["differences"] == played["differences"]
    assert read["base"]["scenario"] == "toy" and read["variant"]["scenario"] == "toy_trenches"
    assert read["base"]["win_intervals"] == played["base"]["win_intervals"]


def test_the_text_names_both_runs_and_each_difference(runs):
    folder, played = runs
    proc = pogdsl("report", "base.jsonl", "variant.jsonl", "--root", str(TOY), cwd=folder)
    assert proc.returncode == 0, proc.stderr
    assert "variant.jsonl against base.jsonl, on the same 24 seeds" in proc.stdout
    for d in played["differences"]:
        assert d["text"] in proc.stdout


def test_three_files_or_a_missing_one_are_refused_in_one_line(runs):
    folder, _ = runs
    proc = pogdsl("report", "base.jsonl", "variant.jsonl", "base.jsonl", "--root", str(TOY), cwd=folder)
    assert proc.returncode == 2 and "two to compare" in proc.stderr
    proc = pogdsl("report", "base.jsonl", "nowhere.jsonl", "--root", str(TOY), cwd=folder)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "nowhere.jsonl" in proc.stderr
