"""Round-3 attacks on files, writes and the terminal (issue 35): paths that
are FIFOs, directories, devices or too long; a full disk or a file size limit
while writing; Ctrl-C while `play --save` plays; text from files that tries
to drive the terminal; what a save's seal proves.  Every error is one line
with no traceback (`run_cli` asserts there is none), never a hang (its
timeout)."""

from __future__ import annotations

import errno
import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pogdsl.runtime.record import load_save, save_seal
from pogdsl.safe_io import EscapingStream, escape_controls, write_file, write_problem

from .conftest import GAMES, REPO, RULES, TOY, run_cli

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
LONG_NAME = "x" * 300 + ".json"  # longer than the 255 bytes of a name on common file systems


def err_lines(proc) -> list[str]:
    return [line for line in proc.stderr.splitlines() if line.strip()]


def error_line(proc) -> str:
    errors = [line for line in err_lines(proc) if "error:" in line]
    assert proc.returncode != 0 and len(errors) == 1, proc.stderr
    return errors[0]


def toy_save(folder: Path, name: str = "game.json", seed: int = 2) -> Path:
    path = folder / name
    proc = run_cli("play", "toy", "--root", TOY, "--ap", "random", "--cp", "random", "--seed", seed,
                   "--save", path)
    assert proc.returncode == 0, proc.stderr
    return path


def targets(tmp_path) -> dict[str, tuple[Path, str]]:
    """Places a file cannot be written, with what the refusal says."""
    (tmp_path / "folder").mkdir()
    found = {"directory": (tmp_path / "folder", "it is a directory"),
             "missing folder": (tmp_path / "nowhere" / "game.json", "does not exist"),
             "long name": (tmp_path / LONG_NAME, "longer than the file system allows")}
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "pipe")
        found["fifo"] = (tmp_path / "pipe", "it is a FIFO (named pipe)")
    if Path("/dev/null").exists():
        found["device"] = (Path("/dev/null"), "it is a device")
    return found


# ------------------------------------------------------------------ paths
KINDS = ["directory", "fifo", "device", "missing folder", "long name"]


@pytest.mark.parametrize("kind", KINDS)
def test_write_file_refuses_what_is_not_a_file_without_blocking(tmp_path, kind):
    found = targets(tmp_path)
    if kind not in found:
        pytest.skip(f"no {kind} here")
    path, said = found[kind]
    assert said in write_problem(path) if kind != "long name" else "longer" in write_problem(path)
    with pytest.raises(OSError) as caught:
        write_file(path, "{}")
    assert said.split(" (")[0] in caught.value.strerror and "\n" not in caught.value.strerror


@pytest.mark.parametrize("kind", KINDS)
def test_play_refuses_a_save_or_record_path_before_the_game(tmp_path, kind):
    found = targets(tmp_path)
    if kind not in found:
        pytest.skip(f"no {kind} here")
    path, said = found[kind]
    for flag in ("--save", "--record"):
        proc = run_cli("play", "toy", "--root", TOY, "--ap", "random", "--cp", "random", flag, path, timeout=60)
        assert proc.returncode == 2
        line = error_line(proc)
        assert line.startswith(f"pogdsl play: error: {flag} ") and (said in line or "longer" in line)
        assert "Game over" not in proc.stdout  # refused before playing, not after


@pytest.mark.parametrize("kind", ["directory", "fifo", "long name"])
def test_replay_script_and_graph_outputs_are_refused_in_one_line(tmp_path, kind):
    found = targets(tmp_path)
    if kind not in found:
        pytest.skip(f"no {kind} here")
    path, said = found[kind]
    save = toy_save(tmp_path)
    proc = run_cli("replay", save, "--root", TOY, "--script", path, timeout=60)
    assert f"cannot write {path}" in error_line(proc)
    proc = run_cli("graph", "toy", "--root", TOY, "-o", path, timeout=60)
    assert f"cannot write {path}" in error_line(proc)


@pytest.mark.parametrize("kind", ["directory", "fifo", "long name"])
def test_simulate_out_is_refused_in_one_line(tmp_path, kind):
    found = targets(tmp_path)
    if kind not in found:
        pytest.skip(f"no {kind} here")
    path, _ = found[kind]
    proc = run_cli("simulate", "toy", "--root", TOY, "--games", "2", "--workers", "1", "--out", path, timeout=60)
    assert proc.returncode == 2 and len(err_lines(proc)) == 1, proc.stderr


@needs_fifo
def test_a_fifo_in_the_projects_rules_is_skipped_not_waited_on(tmp_path):
    """is_own_game reads rules/*.pog to find a rulebook: a FIFO there used to
    block it for ever (in an installed pogdsl, on every command)."""
    root = tmp_path / "project"
    shutil.copytree(TOY, root)
    (root / "rules").mkdir(exist_ok=True)
    os.mkfifo(root / "rules" / "pipe.pog")
    code = f"from pogdsl.project import is_own_game; print(is_own_game({str(root)!r}))"
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    # (answered, not blocked: the toy game declares sides of its own, so it is a game of its own)
    assert proc.returncode == 0 and proc.stdout.strip() == "True", proc.stderr
    proc = run_cli("check", "--root", root, timeout=60)
    assert proc.returncode == 1 and "pipe.pog: error[E0001]: cannot read the file: it is a FIFO" in proc.stderr


def test_a_scripts_scenario_line_naming_a_system_file_is_refused_unread(tmp_path):
    script = tmp_path / "evil.txt"
    script.write_text("scenario /etc/passwd\nseed 1\n", encoding="utf-8")
    line = error_line(run_cli("replay", script))
    assert f"{script}:1: `scenario` names a scenario" in line and "/etc/passwd" in line
    assert "root:" not in line
    proc = run_cli("play", "toy", "--root", TOY, "--ap", f"script:{script}", "--cp", "random")
    assert proc.returncode != 0 and "root:" not in proc.stderr
    # a name and a .pog file are what it takes
    script.write_text("scenario toy\nseed 1\n", encoding="utf-8")
    assert run_cli("replay", script, "--root", TOY).returncode == 0


# ------------------------------------------------------------------ writing under faults
def _limit_file_size(limit: int):
    def set_limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return set_limit


def run_limited(limit: int, *args, timeout: int = 300):
    """`pogdsl ARGS` with a file size limit of LIMIT bytes (ulimit -f)."""
    env = {k: v for k, v in os.environ.items() if k != "POGDSL_HOME"}
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    proc = subprocess.run([sys.executable, "-m", "pogdsl.cli", *map(str, args)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=timeout, preexec_fn=_limit_file_size(limit))
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def test_a_save_past_the_file_size_limit_keeps_the_save_that_was_there(tmp_path):
    path = toy_save(tmp_path, seed=2)
    before = path.read_bytes()
    assert len(before) > 1024
    proc = run_limited(1024, "play", "toy", "--root", TOY, "--ap", "random", "--cp", "random", "--seed", "3",
                       "--save", path)
    line = error_line(proc)
    assert f"cannot write {path}" in line and "file size limit" in line
    assert path.read_bytes() == before  # it used to be cut at the limit: a truncated save
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary file left behind
    assert load_save(path, TOY).game.s["seed"] == 2


def test_a_full_disk_leaves_the_old_file_and_says_so(tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    path.write_text("the old save", encoding="utf-8")

    def full(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(OSError) as caught:
        write_file(path, "x" * 100)
    monkeypatch.undo()
    assert caught.value.strerror == "the disk is full (No space left on device)"
    assert path.read_text(encoding="utf-8") == "the old save"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_dev_full_as_an_output_is_refused_as_a_device(tmp_path):
    proc = run_cli("graph", "toy", "--root", TOY, "-o", "/dev/full", timeout=60)
    assert "cannot write /dev/full: it is a device" in error_line(proc)


def test_simulate_out_past_the_file_size_limit_stops_in_one_line_with_the_summary(tmp_path):
    out = tmp_path / "games.jsonl"
    proc = run_limited(3000, "simulate", "toy", "--root", TOY, "--games", "200", "--workers", "1", "--out", out)
    assert proc.returncode == 1
    line = error_line(proc)
    assert f"cannot write {out}" in line and "file size limit" in line and "the run stopped after" in line
    assert proc.stdout.startswith("stopped: the summary is of the ")
    kept = out.read_text(encoding="utf-8").splitlines()
    assert kept and all(json.loads(r)["scenario"] == "toy" for r in kept[:-1])


def test_figures_past_the_file_size_limit_are_a_one_line_error(tmp_path):
    pytest.importorskip("matplotlib")
    proc = run_limited(2000, "simulate", "toy", "--root", TOY, "--games", "4", "--workers", "1",
                       "--plot", tmp_path / "figures")
    assert proc.returncode == 1
    assert "cannot write the figures" in error_line(proc) and "file size limit" in proc.stderr


@pytest.mark.parametrize("where", ["between two decisions", "after a decision, before its record"])
def test_ctrl_c_in_play_saves_the_game_played_so_far(tmp_path, monkeypatch, capsys, where):
    """Ctrl-C reaches the engine wherever it is: in the middle of running to
    the next decision (no decision pending: nothing used to be saved), or
    once a decision is answered but before the session records it (the save
    would not replay).  The save is of the game at its last decision."""
    from pogdsl.cli import main
    from pogdsl.runtime.interpreter import Game

    real = Game.choose
    calls = []

    def interrupted(self, answer):
        calls.append(answer)
        nxt = real(self, answer)
        if len(calls) == 4:
            if where == "between two decisions":
                self.s["pending"] = None  # as if stopped inside run()
            raise KeyboardInterrupt
        return nxt

    monkeypatch.setattr(Game, "choose", interrupted)
    path = tmp_path / "game.json"
    code = main(["play", "toy_rules", "--root", str(RULES), "--ap", "random", "--cp", "random", "--seed", "1",
                 "--save", str(path)])
    err = capsys.readouterr().err
    monkeypatch.undo()
    assert code == 130 and f"saved to {path}" in err, err
    session = load_save(path, RULES)  # it replays to its recorded state
    assert session.decisions_made == 3 and not session.game.over


# ------------------------------------------------------------------ the terminal
def test_control_characters_are_escaped_and_the_rest_kept():
    assert escape_controls("a\x1b[2Jb\rOK\u202e\tc\n") == "a\\x1b[2Jb\\x0dOK\\u202e\tc\n"
    assert escape_controls("one\ntwo\tthree", keep_lines=False) == "one\\ntwo\\tthree"

    class Sink:
        text = ""

        def write(self, s):
            self.text += s
            return len(s)

    sink = Sink()
    EscapingStream(sink).write("\x07\x9b31m plain é ✓\n")
    assert sink.text == "\\x07\\x9b31m plain é ✓\n"


def _resealed(path: Path, change) -> Path:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    data["seal"] = save_seal(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_save_cannot_clear_the_screen_or_forge_an_ok(tmp_path):
    save = _resealed(toy_save(tmp_path), lambda d: d["decisions"].__setitem__(
        0, {"by": "cp", "option": "\x1b[2J\x1b[H\nOK game.json: toy, seed 2, 99 decisions\r"}))
    for proc in (run_cli("replay", save, "--root", TOY),
                 run_cli("play", "toy", "--root", TOY, "--load", save)):
        assert proc.returncode == 1
        text = proc.stdout + proc.stderr
        assert "\x1b" not in text and "\r" not in text
        assert not any(line.startswith("OK") for line in text.splitlines())
        assert "\\x1b[2J" in error_line(proc) and "\\nOK game.json" in error_line(proc)


def test_a_source_cannot_drive_the_terminal(tmp_path):
    root = tmp_path / "project"
    shutil.copytree(TOY, root)
    scenario = root / "scenarios" / "toy.pog"
    text = scenario.read_text(encoding="utf-8")
    assert 'scenario toy "Toy"' in text
    scenario.write_text(text.replace('scenario toy "Toy"', 'scenario toy "Toy\x1b]0;owned\x07\x1b[2J"'),
                        encoding="utf-8")
    proc = run_cli("play", "toy", "--root", root, "--ap", "random", "--cp", "random")
    text = proc.stdout + proc.stderr
    assert "\x1b" not in text and "\x07" not in text
    assert "\\x1b]0;owned\\x07" in text or "error" in proc.stderr  # shown escaped (or refused by the checker)


def test_a_records_file_cannot_drive_the_terminal(tmp_path):
    out = tmp_path / "games.jsonl"
    assert run_cli("simulate", "toy", "--root", TOY, "--games", "3", "--workers", "1", "--out", out).returncode == 0
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    records[1].update(error="\x1b[2J\nOK all games finished\r", kind="internal", winner=None)
    out.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    proc = run_cli("report", out, "--root", TOY)
    assert "\x1b" not in proc.stdout and "\r" not in proc.stdout
    assert "\\x1b[2J\\nOK all games finished" in proc.stdout
    assert not any(line.startswith("OK") for line in proc.stdout.splitlines())


# ------------------------------------------------------------------ the seal
def test_a_resealed_edit_of_the_sources_field_is_refused(tmp_path):
    save = toy_save(tmp_path)
    _resealed(save, lambda d: d["sources"].__setitem__(next(iter(d["sources"])), "0" * 16))
    line = error_line(run_cli("replay", save, "--root", TOY))
    assert 'its "sources" do not match its "sources_digest"' in line


def test_a_resealed_edit_of_the_state_is_refused_by_replaying(tmp_path):
    """Whatever the seal says, replay plays the decisions from the seed and
    compares the state reached with the recorded one."""
    from pogdsl.runtime.interpreter import state_hash

    def edit(d):
        d["state"]["vars"]["vp"] = d["state"]["vars"].get("vp", 0) + 5
        d["hash"] = state_hash(d["state"])

    save = _resealed(toy_save(tmp_path), edit)
    assert "its decisions do not lead to its state" in error_line(run_cli("replay", save, "--root", TOY))


def test_forced_dice_and_hands_are_named_in_the_verdict(tmp_path):
    proc = run_cli("replay", GAMES / "opening.txt", "--root", RULES)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("OK, with forced dice: 6 2; hand set by hand: ap: ")
    save = tmp_path / "opening.json"
    assert run_cli("replay", GAMES / "opening.txt", "--root", RULES, "--script", tmp_path / "x.txt").returncode == 0
    proc = run_cli("play", "--root", RULES, "--load", GAMES / "opening.txt", "--ap", "random", "--cp", "random",
                   "--save", save)
    assert "with forced dice: 6 2; hand set by hand: ap" in proc.stderr
    again = run_cli("replay", save, "--root", RULES)
    assert again.returncode == 0 and again.stdout.startswith("OK, with forced dice: 6 2;")
    plain = run_cli("replay", toy_save(tmp_path), "--root", TOY)
    assert plain.returncode == 0 and plain.stdout.startswith("OK ")


def test_the_docs_say_what_a_save_proves():
    playing = (REPO / "docs" / "playing.rst").read_text(encoding="utf-8")
    assert "any\nfield edited by hand" not in playing and "is a checksum, not a signature" in playing
    assert "OK, with forced dice" in playing



# ------------------------------------------------------------------ sizes a user can type
def test_report_reads_a_large_records_file_in_bounded_memory(tmp_path):
    """A records file is summarised a record at a time: 50,000 games (16 MB
    of records, several times that as parsed dicts) in under 4 MB (0.1 MB
    measured); a multi-gigabyte file used to end in MemoryError."""
    import tracemalloc

    from pogdsl.cli import main

    small = tmp_path / "some.jsonl"
    assert run_cli("simulate", "toy", "--root", TOY, "--games", "4", "--workers", "1", "--seed", "1",
                   "--out", small).returncode == 0
    samples = [json.loads(line) for line in small.read_text(encoding="utf-8").splitlines()]
    big = tmp_path / "many.jsonl"
    count = 50_000
    with big.open("w", encoding="utf-8") as f:
        for i in range(count):
            rec = dict(samples[i % 4], game=i, seed=i)
            rec["reason"] = f"VP {i % 7}"  # (a few distinct endings)
            f.write(json.dumps(rec) + "\n")
    assert main(["report", str(small), "--root", str(TOY), "--json"]) == 0  # (the scenario compiled, and kept)
    tracemalloc.start()
    try:
        code = main(["report", str(big), "--root", str(TOY), "--json"])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert code == 0
    assert peak < 4 * 1024 * 1024, f"report of {count} records peaked at {peak / 1e6:.1f} MB"


def test_the_streamed_summary_is_the_summary_of_the_list(tmp_path):
    """sim.Tally, fed game by game in any order, gives what summarising the
    whole list gave: counts, exact quartiles, the digest in game order."""
    from pogdsl.opening import open_scenario
    from pogdsl.sim import Tally, play_random
    from pogdsl.sim.stats import distribution

    opened = open_scenario("toy_rules", RULES)
    results = []
    for i in range(40):
        r = play_random(opened, 1000 + i)
        r["game"] = i
        results.append(r)
    forward, backward = Tally(opened), Tally(opened)
    for r in results:
        forward.add(r)
    for r in reversed(results):
        backward.add(r)
    a, b = forward.summary("toy_rules", 0, 1.0), backward.summary("toy_rules", 0, 1.0)
    assert a == b
    finished = [r for r in results if r["error"] is None]
    assert a["turns"] == distribution([r["turn"] for r in finished])
    assert a["decisions_per_game"] == distribution([r["decisions"] for r in finished])
    import hashlib

    assert a["digest"] == hashlib.sha256("".join(r["hash"] for r in results).encode()).hexdigest()


def test_a_name_too_long_to_look_at_is_a_one_line_error_everywhere(tmp_path):
    """Found by benchmarks/fuzz.py: Path.exists() raises for a name longer
    than the file system allows (it does not say False), and check, replay,
    report, --plot and a scenario given by its file let it escape."""
    long = tmp_path / LONG_NAME
    for args in (("replay", long, "--root", TOY), ("report", long, "--root", TOY),
                 ("play", str(long)[:-5] + ".pog", "--root", TOY, "--ap", "random", "--cp", "random")):
        proc = run_cli(*args, timeout=60)
        assert proc.returncode != 0 and len(err_lines(proc)) == 1, proc.stderr
    proc = run_cli("check", "--root", TOY, long, timeout=60)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr


def test_a_source_line_with_a_control_character_is_shown_escaped_with_its_caret_under_it(tmp_path):
    source = tmp_path / "esc.pog"
    source.write_bytes(b"value x = \x1b[2J + nope\n")
    proc = run_cli("check", "--root", TOY, source)
    assert proc.returncode == 1 and "\x1b" not in proc.stderr
    lines = proc.stderr.splitlines()
    shown = next(i for i, line in enumerate(lines) if line.startswith(" 1 | "))
    assert lines[shown] == " 1 | value x = \\x1b[2J + nope"
    assert lines[shown + 1].index("^") == lines[shown].index("\\x1b")
