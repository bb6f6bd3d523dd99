"""The learning example (docs/examples/rl/train_policy.py) runs end to end: it
trains for a few iterations, saves weights a later run loads, evaluates, and
the same seed trains the same policy.  How strong the trained policy is is
measured by running the example itself (docs/environments.rst gives the
figure), never here."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest

from .conftest import REPO

EXAMPLE = REPO / "docs" / "examples" / "rl" / "train_policy.py"
QUICK = ["--iterations", "2", "--batch", "2", "--hidden", "4", "--eval-games", "3", "--log-every", "1"]


@pytest.fixture(scope="module")
def example():
    spec = importlib.util.spec_from_file_location("train_policy", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_help_runs_as_a_script():
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run([sys.executable, str(EXAMPLE), "--help"], capture_output=True, text=True, timeout=60,
                          env=env, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "--iterations" in proc.stdout and "--eval-games" in proc.stdout


def test_trains_saves_and_evaluates(example, tmp_path, capsys):
    out = tmp_path / "policy.npz"
    assert example.main([*QUICK, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "iteration    2" in printed
    for line in ("random player", "untrained policy", "trained policy"):
        row = next(r for r in printed.splitlines() if r.strip().startswith(line))
        assert "of 3:" in row and "95% CI" in row
    with np.load(out) as saved:
        assert {"W_obs", "W_opt", "b1", "w2"} <= set(saved.files)
        assert saved["W_obs"].shape[0] == 4 and np.isfinite(saved["W_obs"]).all()


def test_saved_weights_load_and_play(example, tmp_path):
    out = tmp_path / "policy.npz"
    assert example.main([*QUICK, "--eval-games", "0", "--out", str(out)]) == 0
    args = example.parse([*QUICK, "--load", str(out)])
    learner = example.Learner(args)
    policy = example.Policy.load(out, learner.meta)
    result = example.evaluate(learner, example.highest_scored(policy), 4, args.eval_seed)
    assert result["games"] == 4 and result["wins"] + result["draws"] + result["losses"] == 4
    assert result["low"] <= result["rate"] <= result["high"]
    # The policy plays: the same weights, the same games, the same outcomes.
    assert example.evaluate(learner, example.highest_scored(policy), 4, args.eval_seed) == result


def test_the_same_seed_trains_the_same_policy(example, tmp_path):
    curves, weights = [], []
    for run in range(2):
        args = example.parse([*QUICK, "--seed", "3", "--log-every", "0"])
        learner = example.Learner(args)
        policy = learner.new_policy(args.seed, args.hidden)
        curves.append(example.train(learner, policy, args))
        weights.append(policy.params["W_opt"].copy())
    assert curves[0] == curves[1]
    assert np.array_equal(weights[0], weights[1])


def test_weights_of_another_shape_are_refused_in_a_line(example, tmp_path):
    out = tmp_path / "policy.npz"
    assert example.main([*QUICK, "--eval-games", "0", "--out", str(out)]) == 0
    with pytest.raises(SystemExit) as stop:
        example.main([*QUICK, "--hidden", "5", "--load", str(out)])
    assert "another game or shape" in str(stop.value)
    junk = tmp_path / "junk.npz"
    junk.write_text("not weights")
    with pytest.raises(SystemExit) as stop:
        example.main([*QUICK, "--load", str(junk)])
    assert str(stop.value).startswith("error: cannot read weights")
