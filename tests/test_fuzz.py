"""benchmarks/fuzz.py itself: cases are reproducible from (seed, index), clean
results pass, and an escaping exception or a hang is reported as a finding
(otherwise a fuzz run finding nothing would prove nothing)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import fuzz  # noqa: E402


def test_cases_are_reproducible_and_mutated():
    a, info = fuzz.make_case("source", 3, 17)
    b, _ = fuzz.make_case("source", 3, 17)
    assert a == b
    assert a != fuzz.corpus("source").data[info["which"]]
    assert fuzz.make_case("source", 3, 18)[0] != a


def test_mutated_sources_come_back_clean():
    outcomes = [fuzz.run_case(("source", 0, i))["outcome"] for i in range(1, 30)]
    assert outcomes.count("ok") >= 25  # a hostile piece may still find a bug of another part


def test_an_escaping_exception_is_a_finding(monkeypatch):
    def broken(*args):
        raise ValueError("boom")

    monkeypatch.setattr(fuzz, "run_source", broken)
    res = fuzz.run_case(("source", 0, 1))
    assert res["outcome"] == "traceback"
    assert res["signature"].startswith("ValueError")
    assert res["data"]


def test_a_hang_is_a_finding(monkeypatch):
    monkeypatch.setattr(fuzz, "SOURCE_TIMEOUT", 0.2)
    monkeypatch.setattr(fuzz, "run_source", lambda *args: time.sleep(5))
    res = fuzz.run_case(("source", 0, 1))
    assert res["outcome"] == "hang" and res["signature"] == "hang"
    assert res["seconds"] < 2


def test_a_run_writes_a_reproducer(tmp_path, monkeypatch):
    real = fuzz.run_source

    def sometimes(corpus, data, which, library):
        if b"\x00" not in data and len(data) % 5 == 0:
            raise KeyError("planted")
        return real(corpus, data, which, library)

    monkeypatch.setattr(fuzz, "run_source", sometimes)
    summary = fuzz.fuzz(0, sources=40, records=0, workers=1, out=tmp_path, deadline=None)
    assert summary["tried"]["source"] == 40
    planted = [f for f in summary["findings"] if "KeyError" in f["signature"]]
    assert planted and Path(planted[0]["reproducer"]).exists()
    assert "planted" in Path(planted[0]["reproducer"].rsplit(".", 1)[0] + ".traceback.txt").read_text()
    assert "tracebacks and hangs" in fuzz.report(summary)


def test_a_run_in_this_process_leaves_its_memory_cap_behind(tmp_path):
    # workers=1 runs the cases here, under the fuzzer's memory cap; the cap
    # must not outlive the run (it once stayed on the test suite's process,
    # which then ran out of address space in later tests)
    import resource

    before = resource.getrlimit(resource.RLIMIT_AS)
    assert before[0] != fuzz.MEMORY_LIMIT  # (an earlier run left no cap either)
    fuzz.fuzz(0, sources=2, records=0, workers=1, out=tmp_path, deadline=None)
    assert resource.getrlimit(resource.RLIMIT_AS) == before


def test_a_small_round_reaches_play_the_command_line_and_resealed_saves(tmp_path):
    """The round-3 surfaces (issue 35): mutants that compile are played, the
    CLI is driven with hostile paths and arguments, saves are re-sealed after
    their mutation.  A few cases of each, all clean."""
    summary = fuzz.fuzz(5, sources=0, records=0, workers=1, out=tmp_path, deadline=None, plays=8, cli=24,
                        reseals=4)
    assert summary["tried"]["play"] == 8 and summary["tried"]["cli"] == 24 and summary["tried"]["reseal"] == 4
    crashes = [f for f in summary["findings"] if f["kind"] != "accepted-changed"]
    assert crashes == [], fuzz.report(summary)
    assert any(k.startswith("cli/exit:") for k in summary["counts"])


def test_a_clean_mutant_is_played(tmp_path):
    corpus = fuzz.corpus("play")
    folder = tmp_path / "game"
    folder.mkdir()
    # the file itself compiles clean: it is built and played
    assert fuzz.run_play(corpus, corpus.data[0], 0, folder) in ("played", "ended")
    folder = tmp_path / "broken"
    folder.mkdir()
    assert fuzz.run_play(corpus, corpus.data[0][:200], 0, folder) == "refused"


def test_the_cli_cases_use_hostile_paths(tmp_path):
    import os
    import stat

    c = fuzz.corpus("cli")
    assert stat.S_ISFIFO(os.stat(c.path("fifo", 0)).st_mode)
    assert os.path.isdir(c.path("directory", 0))
    assert len(os.path.basename(c.path("long", 0))) > 255
    argvs = [fuzz.make_case("cli", 0, i)[1]["argv"] for i in range(40)]
    assert {a[0] for a in argvs} >= {"play", "replay", "simulate"}


def test_a_cli_case_that_prints_a_control_character_is_a_finding(monkeypatch):
    from pogdsl import safe_io

    monkeypatch.setattr(safe_io, "_CONTROL", __import__("re").compile("(?!)"))  # an escaper that escapes nothing
    monkeypatch.setattr(fuzz, "cli_argv", lambda c, rng, index: ["play", "toy", "--root", str(fuzz.TOY),
                                                                  "--agent", "\x1b[2J"])
    res = fuzz.run_case(("cli", 0, 1))
    assert res["outcome"] == "traceback" and "control character" in res["traceback"]


def test_a_resealed_save_is_sealed_again():
    import json

    from pogdsl.runtime.record import save_seal

    sealed = 0
    for i in range(20):
        data, _ = fuzz.make_case("reseal", 0, i)
        try:
            value = json.loads(data)
        except (ValueError, RecursionError):
            continue  # (a mutation that is no JSON any more, or too deep to read: there is nothing to seal)
        if isinstance(value, dict) and "seal" in value:
            try:
                seal = save_seal(value)
            except (ValueError, RecursionError):
                continue  # (half a surrogate pair, deep nesting: no seal can be computed, the loader refuses it)
            assert value["seal"] == seal
            sealed += 1
    assert sealed >= 5
