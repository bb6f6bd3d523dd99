"""Shared pieces of the runtime tests: the toy worlds, a random player, and
running `pogdsl` in a subprocess the way a user does (never a traceback)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TOY = REPO / "tests" / "fixtures" / "toy"
RULES = REPO / "tests" / "fixtures" / "toy_rules"
GAMES = RULES / "games"


@pytest.fixture(scope="session")
def toy():
    from pogdsl.opening import open_scenario

    return open_scenario("toy", TOY)


@pytest.fixture(scope="session")
def rules():
    from pogdsl.opening import open_scenario

    return open_scenario("toy_rules", RULES)


@pytest.fixture(scope="session")
def campaign_scenario():
    from pogdsl.opening import open_scenario

    return open_scenario("campaign", REPO)


def random_choices(game, seed: int, limit: int = 10_000):
    """Play a game to its end with a seeded random agent; yields before each
    decision (so a test can look at every decision point)."""
    from pogdsl.agents import RandomAgent

    agent = RandomAgent(seed)
    d = game.run() if game.s["pending"] is None and not game.over else game.decision()
    n = 0
    while d is not None and n < limit:
        yield d
        d = game.choose(agent.pick(d.options) + 1)
        n += 1


def run_cli(*args, cwd: Path = REPO, input: str = "", env: dict | None = None, timeout: int = 120):
    argv = [sys.executable, "-m", "pogdsl.cli", *map(str, args)]
    full_env = dict(os.environ)
    full_env.pop("POGDSL_HOME", None)
    full_env["PYTHONPATH"] = str(REPO) + os.pathsep + full_env.get("PYTHONPATH", "")
    full_env.update(env or {})
    proc = subprocess.run(argv, cwd=cwd, env=full_env, check=False, capture_output=True, text=True, input=input,
                          timeout=timeout)
    for stream in (proc.stdout, proc.stderr):
        assert "Traceback" not in stream, stream
        assert "most recent call last" not in stream, stream
    return proc
