"""`pogdsl show`: the board after the Campaign set-up, as a person checking it
by eye reads it.  A few runs go through a subprocess, as a user runs the
command (exit status, no traceback); the rest call the CLI in-process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pogdsl.cli import main

REPO = Path(__file__).resolve().parents[1]


def run(*args: str):
    env = dict(os.environ)
    env.pop("POGDSL_HOME", None)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-m", "pogdsl.cli", "show", *args, "--root", str(REPO)],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    for stream in (proc.stdout, proc.stderr):
        assert "Traceback" not in stream, stream
    return proc


def show(capsys, *args: str):
    """(exit status, stdout, stderr) of an in-process run."""
    code = main(["show", *args, "--root", str(REPO)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def show_json(capsys, *args: str) -> dict:
    code, out, err = show(capsys, *args, "--json")
    assert code == 0, err
    return json.loads(out)


def _facts(block: str) -> dict[str, str]:
    """`  key   value` lines of a printed space, as a dict."""
    facts = {}
    for line in block.splitlines():
        if line.startswith("  ") and not line.startswith("    ") and "  " in line.strip():
            key, _, value = line.strip().partition("  ")
            facts[key.strip()] = value.strip()
    return facts


# ----------------------------------------------------------------- subprocess
def test_sedan_as_a_user_runs_it():
    proc = run("campaign", "--space", "Sedan")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith("# campaign, seed 0: turn 1, set-up, waiting for cp to choose 'start_with_guns'")
    facts = _facts(out)
    assert facts["nation"] == "fr"
    assert facts["terrain"] == "forest"
    assert facts["VP space"] == "no"  # not a VP space in the Campaign (5.7.2)
    assert facts["fort"] == "none"
    assert facts["capital"] == "no"
    assert facts["supply source"] == "no"
    assert facts["ports"] == "none"
    assert facts["coordinates"] == "444, 652"
    assert facts["control"] == "ap"
    assert facts["trench"] == "0"
    assert "units (1):" in out
    assert "FR 5         fr   army   full     3-3-3" in out
    assert "-- Metz" in out and "-- Koblenz" in out and "-- Verdun" in out


def test_unknown_space_exits_2_with_did_you_mean():
    proc = run("campaign", "--space", "Sedna")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "pogdsl show: error: no space named 'Sedna' in campaign (did you mean 'Sedan'?)" in proc.stderr


def test_unknown_scenario_exits_2():
    proc = run("campain", "--space", "Sedan")
    assert proc.returncode == 2
    assert "unknown scenario 'campain'" in proc.stderr
    assert "did you mean 'campaign'?" in proc.stderr


def test_help_names_every_selector():
    proc = run("--help")
    assert proc.returncode == 0
    for word in ("--space", "--unit", "--box", "--hand", "--tracks", "--json", "--seed", "--answer",
                 "Exit status", "did-you-mean"):
        assert word in proc.stdout, word


# ----------------------------------------------------------------- in-process
def test_paris(capsys):
    code, out, _ = show(capsys, "campaign", "--space", "Paris")
    assert code == 0
    facts = _facts(out)
    assert facts["VP space"] == "yes"
    assert facts["capital"] == "yes"
    assert facts["fort"] == "1"
    assert facts["control"] == "ap"
    assert facts["trench"] == "1"
    assert "FR 6         fr   army   reduced  2-3-3 (full 3-3-3)" in out


def test_names_are_case_insensitive(capsys):
    lower = show_json(capsys, "campaign", "--space", "paris", "--space", "LIEGE", "--space", "bar-le-duc")
    assert [s["name"] for s in lower["spaces"]] == ["Paris", "Liege", "Bar le Duc"]


def test_liege_as_json(capsys):
    data = show_json(capsys, "campaign", "--space", "Liege")
    assert data["scenario"] == "campaign"
    assert data["decision"]["by"] == "cp" and data["decision"]["choice"] == "start_with_guns"
    (liege,) = data["spaces"]
    assert liege["nation"] == "be"
    assert liege["terrain"] == "clear"
    assert liege["fort"] == 3
    assert liege["capital"] is False
    assert liege["control"] == "ap"
    assert liege["units"] == []
    assert liege["state"]["trench"] == 0
    neighbours = {c["space"]: c for c in liege["connections"]}
    assert set(neighbours) == {"Aachen", "Brussels", "Koblenz", "Sedan"}
    assert all(c["line"] == "solid" and c["only"] is None for c in neighbours.values())
    assert neighbours["Aachen"]["control"] == "cp"


def test_sedan_units_as_json(capsys):
    (sedan,) = show_json(capsys, "campaign", "--space", "Sedan")["spaces"]
    (fr5,) = sedan["units"]
    assert (fr5["name"], fr5["nation"], fr5["type"], fr5["strength"], fr5["factors"]) == \
        ("FR 5", "fr", "army", "full", "3-3-3")
    assert sedan["at"] == [444, 652]


def test_dotted_connections_name_their_nations(capsys):
    data = show_json(capsys, "campaign", "--space", "Petrograd")
    dotted = [c for c in data["spaces"][0]["connections"] if c["line"] == "dotted"]
    assert dotted and all(c["only"] for c in dotted)
    code, out, _ = show(capsys, "campaign", "--space", "Petrograd")
    assert "~~ " in out and "dotted: only" in out


def test_reserve_box_of_the_central_powers(capsys):
    code, out, _ = show(capsys, "campaign", "--box", "reserve[cp]")
    assert code == 0
    assert "reserve[cp]  (box, Reserve Box)" in out
    assert "units (12):" in out
    assert " 8 × GEc          ge   corps  full     2-1-4" in out
    assert " 4 × AHc          ah   corps  full     1-1-3" in out
    data = show_json(capsys, "campaign", "--box", "RESERVE[CP]")
    names = sorted(u["name"] for u in data["boxes"][0]["units"])
    assert names == ["AHc"] * 4 + ["GEc"] * 8


def test_a_box_kept_per_side_shows_both(capsys):
    data = show_json(capsys, "campaign", "--box", "reserve")
    assert [b["name"] for b in data["boxes"]] == ["reserve[ap]", "reserve[cp]"]
    assert len(data["boxes"][0]["units"]) == 17


def test_unit_and_corps_pool(capsys):
    data = show_json(capsys, "campaign", "--unit", "ge 7", "--unit", "gec")
    ge7, gec = data["units"]
    (piece,) = ge7["pieces"]
    assert (piece["location"], piece["strength"], piece["factors"]) == ("Mulhouse", "reduced", "3-3-3")
    where = sorted(p["location"] or "-" for p in gec["pieces"] if p["in_play"])
    assert where == ["Bremen", "Insterberg", "Oppeln"] + ["reserve[cp]"] * 8


def test_hands_after_the_guns_of_august_choice(capsys):
    empty = show_json(capsys, "campaign", "--hand", "cp")
    assert empty["hands"][0]["cards"] == []  # dealt only after the first decision
    yes = show_json(capsys, "campaign", "--hand", "cp", "--hand", "AP", "--answer", "1")
    cp, ap = yes["hands"]
    assert len(cp["cards"]) == 7 and len(ap["cards"]) == 7
    assert "Guns of August" in [c["name"] for c in cp["cards"]]
    no = show_json(capsys, "campaign", "--hand", "cp", "--answer", "2")
    assert "Guns of August" not in [c["name"] for c in no["hands"][0]["cards"]]


def test_tracks(capsys):
    code, out, _ = show(capsys, "campaign", "--tracks")
    assert code == 0
    assert "turn 1 (of 1..20), phase set-up" in out
    assert "vp = 10" in out
    data = show_json(capsys, "campaign", "--tracks")
    trench = data["tracks"]["state"]["trench"]["values"]
    assert trench["Verdun"] == 1 and "Sedan" not in trench


def test_overview_without_a_selection(capsys):
    code, out, _ = show(capsys, "campaign")
    assert code == 0
    assert "cp units:" in out and "reserve[cp] 12" in out


@pytest.mark.parametrize("args, message", [
    (["--unit", "GE 99"], "no unit named 'GE 99' in campaign (did you mean 'GE 9'?)"),
    (["--hand", "xx"], "no side named 'xx' in campaign (sides: ap, cp)"),
    (["--box", "reserv"], "no box named 'reserv' in campaign (did you mean 'reserve'?)"),
    (["--space", "sedna"], "(did you mean 'Sedan'?)"),
    (["--answer", "maybe"], "'maybe' is not one of the 2 options now"),
])
def test_usage_mistakes_exit_2(capsys, args, message):
    code, out, err = show(capsys, "campaign", *args)
    assert code == 2
    assert out == ""
    assert message in err


def test_sources_with_errors_exit_1(capsys, tmp_path):
    bad = tmp_path / "bad.pog"
    bad.write_text('scenario bad "Bad" extends campaign cites 5.5 {\n'
                   '  replace space Sedan forest nation fr map europe control ap fort 9 fort 9 at 1 2\n}\n')
    code, out, err = show(capsys, str(bad), "--space", "Sedan")
    assert code == 1
    assert "error" in err
