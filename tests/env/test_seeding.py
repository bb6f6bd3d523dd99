"""Same seed and same actions, same game: in one process and in two."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

from .conftest import REPO

TRAJECTORY = """
import hashlib, json, sys
import numpy as np
import pogdsl.env as E
env = E.aec_env(sys.argv[1], max_cycles=int(sys.argv[3]))
env.reset(seed=int(sys.argv[2]))
digest = hashlib.sha256()
steps = 0
for agent in env.agent_iter():
    obs, reward, terminated, truncated, info = env.last()
    digest.update(agent.encode()); digest.update(obs["observation"].tobytes()); digest.update(obs["action_mask"].tobytes())
    if terminated or truncated:
        env.step(None)
        continue
    legal = np.flatnonzero(obs["action_mask"])
    env.step(int(legal[(steps * 7919) % len(legal)]))  # the actions: a fixed function of the step and the mask
    steps += 1
print(json.dumps({"steps": steps, "observations": digest.hexdigest(), "state": env.game.state_hash()}))
"""


def _run(scenario: str, seed: int, cycles: int, hash_seed: str) -> dict:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed, PYTHONPATH=str(REPO))
    proc = subprocess.run([sys.executable, "-c", TRAJECTORY, scenario, str(seed), str(cycles)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_same_seed_same_trajectory_in_two_processes():
    first = _run("campaign", 11, 80, "1")
    second = _run("campaign", 11, 80, "2")
    assert first["steps"] > 50
    assert first == second


def test_another_seed_another_game():
    assert _run("campaign", 11, 30, "0")["state"] != _run("campaign", 12, 30, "0")["state"]


def test_reset_without_a_seed_plays_the_next_game_of_the_last_seed():
    import pogdsl.env as E

    env = E.aec_env("campaign")
    env.reset(seed=3)
    first = env.game.state_hash()
    env.reset()
    second = env.game.state_hash()
    assert second != first
    again = E.aec_env("campaign")
    again.reset(seed=3)
    assert again.game.state_hash() == first
    again.reset()
    assert again.game.state_hash() == second


def test_the_seed_is_the_games_own():
    # Seeded by reset, the game is the one `pogdsl play --seed` starts: its
    # set-up is drawn by the game's own generator, nothing else.
    import pogdsl.env as E
    from pogdsl.opening import open_scenario

    env = E.aec_env("campaign")
    env.reset(seed=21)
    game = open_scenario("campaign").new_game(21)
    game.run()
    assert env.game.s["piles"] == game.s["piles"] and env.game.s["rng"] == game.s["rng"]
    assert hashlib.sha256(json.dumps(env.game.s["pending"]["options"]).encode()).digest() == \
        hashlib.sha256(json.dumps(game.s["pending"]["options"]).encode()).digest()
