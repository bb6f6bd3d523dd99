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
