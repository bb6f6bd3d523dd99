"""simulate's progress, game by game, and Ctrl-C: it stops a run at once,
prints the summary of the games finished, and leaves no worker behind; so
does SIGTERM, and `kill -9` of the run leaves no worker running either; a
run of a trillion games plays in memory that does not grow (issue 35)."""

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


def wait_for_records(proc, path: Path, count: int = 1, timeout: float = 120) -> None:
    """Until COUNT games are written to PATH (simulate --out)."""
    deadline = time.monotonic() + timeout
    while not path.exists() or len(path.read_bytes().splitlines()) < count:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no game finished"
        time.sleep(0.1)


def test_ctrl_c_stops_a_pool_at_once_with_the_summary_of_the_games_finished(tmp_path):
    out_file = tmp_path / "games.jsonl"
    proc = start_simulate("campaign", "--games", "200", "--workers", "2", "--seed", "3", "--out", out_file)
    wait_for_workers(proc, 2)
    wait_for_records(proc, out_file)  # a game finished (each takes a fraction of a second on a quiet machine)
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


def rss_peak_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def test_sigterm_ends_the_run_as_ctrl_c_does(tmp_path):
    out_file = tmp_path / "games.jsonl"
    proc = start_simulate("toy", "--root", TOY, "--games", "100000", "--workers", "2", "--seed", "3",
                          "--out", out_file)
    wait_for_workers(proc, 2)
    wait_for_records(proc, out_file)
    start = time.monotonic()
    proc.send_signal(signal.SIGTERM)  # to the run only, as `kill PID` does
    out, err = proc.communicate(timeout=15)
    assert time.monotonic() - start < 5
    assert proc.returncode == 143, err
    assert "Traceback" not in err and err.strip() == "", err
    first = out.splitlines()[0]
    assert first.startswith("interrupted (SIGTERM): the summary is of the ") and "of 100000 games" in first
    played = int(first.split("of the ")[1].split()[0])
    assert played >= len(out_file.read_text().splitlines()) - 2  # (a game or two may be written as it stops)
    assert no_process_left(proc.pid) == {}


def test_sigterm_to_the_whole_process_group_ends_the_run_without_a_hang(tmp_path):
    # as `timeout` or a service manager stops a command: the workers get it too, and die at once
    out_file = tmp_path / "games.jsonl"
    proc = start_simulate("toy", "--root", TOY, "--games", "100000", "--workers", "2", "--out", out_file)
    wait_for_workers(proc, 2)
    wait_for_records(proc, out_file)
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        out, err = proc.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("simulate hung after SIGTERM to its process group")
    assert "Traceback" not in err
    assert out.startswith("interrupted (SIGTERM)")
    assert no_process_left(proc.pid) == {}


def test_no_worker_outlives_a_kill_9_of_the_run(tmp_path):
    out_file = tmp_path / "games.jsonl"
    proc = start_simulate("campaign", "--games", "200", "--workers", "2", "--out", out_file)
    wait_for_workers(proc, 2)
    workers = set(processes_in_group(proc.pid)) - {proc.pid}
    assert len(workers) == 2
    proc.kill()  # SIGKILL: the run cannot stop its workers; they must notice
    proc.communicate()
    deadline = time.monotonic() + 5
    while (left := set(processes_in_group(proc.pid)) & workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left, f"workers {left} still running after the run was killed"


def test_a_trillion_games_play_in_bounded_memory_and_stop_on_ctrl_c(tmp_path):
    """`--games 1000000000000` used to build a task for every game before
    playing any (MemoryError): games are handed out as workers ask, and the
    summary is kept as counts."""
    out_file = tmp_path / "games.jsonl"
    proc = start_simulate("toy", "--root", TOY, "--games", "1000000000000", "--workers", "2", "--json",
                          "--out", out_file)
    wait_for_workers(proc, 2)
    wait_for_records(proc, out_file, 300)
    early = rss_peak_kb(proc.pid)
    wait_for_records(proc, out_file, 1500)
    late = rss_peak_kb(proc.pid)
    out, err, _ = ctrl_c(proc)
    assert proc.returncode == 130, err
    summary = json.loads(out.splitlines()[-1])
    assert summary["games_asked"] == 1_000_000_000_000 and summary["games"] >= 1500
    assert late - early < 10_000, f"memory grew by {late - early} KB over 1,200 games"
    assert no_process_left(proc.pid) == {}


def test_a_worker_killed_during_a_game_fails_that_game_and_the_run_goes_on(tmp_path):
    out_file = tmp_path / "games.jsonl"
    proc = start_simulate("campaign", "--games", "6", "--workers", "2", "--json", "--out", out_file)
    wait_for_workers(proc, 2)
    victim = min(set(processes_in_group(proc.pid)) - {proc.pid})
    os.kill(victim, signal.SIGKILL)  # as the out-of-memory killer would
    out, err = proc.communicate(timeout=600)
    summary = json.loads(out.splitlines()[-1])
    assert summary["games"] == 6 and summary["interrupted"] is False
    lost = [f for f in summary["failures"] if "worker process" in f["error"]]
    assert len(lost) == 1 and "killed by signal 9" in lost[0]["error"], summary["failures"]
    assert proc.returncode == 1  # a game failed
    assert no_process_left(proc.pid) == {}
