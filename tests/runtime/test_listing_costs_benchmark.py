"""benchmarks/listing_costs.py runs (on the toy game, in seconds): it times the
listings by choice, says how often a listing repeated its choice's previous
one, and what the cycle collector took.  Its figures are printed, never asserted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BENCH = REPO / "benchmarks" / "listing_costs.py"
TOY = REPO / "docs" / "examples" / "toy" / "scenarios" / "toy.pog"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BENCH), *args], cwd=REPO, capture_output=True, text=True,
                          timeout=300, check=False)


def test_times_the_listings_by_choice():
    proc = _run("--scenario", str(TOY), "--games", "2")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert "decisions listed" in lines[0] and lines[1].split()[:2] == ["choice", "listings"]
    assert any("cycle collector (default setting)" in line for line in lines)
    assert lines[-1].startswith("  listings giving the very options of their choice's previous listing:")


def test_an_unknown_scenario_is_one_line():
    proc = _run("--scenario", "no_such_scenario")
    assert proc.returncode == 1
    assert proc.stderr.startswith("error: unknown scenario") and "Traceback" not in proc.stderr
