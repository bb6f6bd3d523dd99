"""simulate's progress, game by game, and Ctrl-C: it stops a run at once,
prints the summary of the games finished, and leaves no worker behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pogdsl import sim

REPO = Path(__file__).resolve().parents[1]
TOY = REPO / "tests" / "fixtures" / "toy"

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")


def processes_in_group(group: int) -> dict[int, str]:
    """The processes (pid → state letter) whose process group is `group`,
    zombies left out (an ended process its parent has not reaped yet)."""
    found = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()  # state, ppid, pgrp, ...
        if int(fields[2]) == group and fields[0] != "Z":
            found[int(name)] = fields[0]
    return found


def start_simulate(*args) -> subprocess.Popen:
    """`pogdsl simulate` in a process group of its own, as a shell starts a
    command: a terminal's Ctrl-C sends SIGINT to the whole group."""
    env = {k: v for k, v in os.environ.items() if k != "POGDSL_HOME"}
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.Popen([sys.executable, "-m", "pogdsl.cli", "simulate", *map(str, args)], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


def wait_for_workers(proc, count: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while len(processes_in_group(proc.pid)) < 1 + count:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the workers never started"
        time.sleep(0.1)


def ctrl_c(proc, times: int = 1) -> tuple[str, str, float]:
    """SIGINT to the run's process group `times` times (0.2 s apart); its
    output and how long it took to end after the first."""
    start = time.monotonic()
    for i in range(times):
        if i:
            time.sleep(0.2)
        os.killpg(proc.pid, signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail("simulate did not stop within 15 s of Ctrl-C")
    return out, err, time.monotonic() - start


def no_process_left(group: int) -> dict[int, str]:
    deadline = time.monotonic() + 2  # (a killed worker is reaped by init a moment after its parent ends)
    while (left := processes_in_group(group)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def test_ctrl_c_stops_a_pool_at_once_with_the_summary_of_the_games_finished():
    proc = start_simulate("campaign", "--games", "200", "--workers", "2", "--seed", "3")
    wait_for_workers(proc, 2)
    time.sleep(3)  # a few games finish (each takes a fraction of a second)
    out, err, seconds = ctrl_c(proc)
    assert seconds < 3, f"took {seconds:.1f} s to stop"
    assert proc.returncode == 130, err
    first, second = out.splitlines()[:2]
    assert first.startswith("interrupted (Ctrl-C): the summary is of the ") and "of 200 games" in first
    played = int(first.split("of the ")[1].split()[0])
    assert 0 < played < 200
    assert second.startswith(f"campaign: {played} games, seed 3")
    assert "Traceback" not in err
    assert no_process_left(proc.pid) == {}


def test_a_second_ctrl_c_does_not_hang_the_pool_and_json_says_the_run_was_interrupted():
    proc = start_simulate("campaign", "--games", "200", "--workers", "2", "--json")
    wait_for_workers(proc, 2)
    time.sleep(1)
    out, err, seconds = ctrl_c(proc, times=2)
    assert seconds < 3, f"took {seconds:.1f} s to stop"
    assert proc.returncode == 130, err
    summary = json.loads(out.splitlines()[-1])
    assert summary["interrupted"] is True and summary["games_asked"] == 200
    assert summary["games"] == summary["finished"] + summary["failed"] < 200
    assert no_process_left(proc.pid) == {}


def test_interrupted_in_one_process_the_games_finished_are_summarised(monkeypatch):
    real = sim.play_random

    def playing(opened, seed, **limits):
        if len(seen) == 3:
            raise KeyboardInterrupt  # as Ctrl-C does during the fourth game
        seen.append(seed)
        return real(opened, seed, **limits)

    seen: list[int] = []
    monkeypatch.setattr(sim, "play_random", playing)
    summary = sim.simulate("toy", games=10, seed=1, root=TOY, workers=1)
    assert summary["interrupted"] is True and summary["games_asked"] == 10
    assert summary["games"] == 3 and [f["seed"] for f in summary["failures"]] == []
    assert sum(summary["results"].values()) == summary["finished"] == 3


def test_progress_and_each_game_come_one_game_at_a_time_from_the_pool():
    steps, groups = [], []
    summary = sim.simulate("toy", games=7, seed=2, root=TOY, workers=2, progress=steps.append,
                           on_results=groups.append)
    assert steps == [1] * 7 and [len(g) for g in groups] == [1] * 7
    assert sorted(g[0]["game"] for g in groups) == list(range(7))
    assert summary["interrupted"] is False and "games_asked" not in summary
    # the same games as in one process
    alone = sim.simulate("toy", games=7, seed=2, root=TOY, workers=1)
    assert alone["digest"] == summary["digest"]
