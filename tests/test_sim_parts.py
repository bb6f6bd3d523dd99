"""A long run played in parts: `simulate --first K` plays games K..K+N-1 of
the seed, the very games a whole run plays there, so the parts' records
joined are the whole run's (pogdsl/sim/__init__.py, `first`)."""

from __future__ import annotations

import json
from pathlib import Path

from pogdsl.cli import main
from pogdsl.sim import simulate

TOY = Path(__file__).parent / "fixtures" / "toy"
KEPT = ("game", "seed", "winner", "reason", "turn", "decisions", "hash")


def records(**run) -> list[dict]:
    out: list[dict] = []
    simulate("toy", root=TOY, workers=1, on_results=lambda rs: out.extend({k: r[k] for k in KEPT} for r in rs),
             agents={"ap": "random", "cp": "random"}, **run)
    return sorted(out, key=lambda r: r["game"])


def test_a_part_plays_the_games_the_whole_run_plays_there():
    whole = records(games=6, seed=7)
    assert [r["game"] for r in whole] == list(range(6))
    assert records(games=2, seed=7, first=0) + records(games=4, seed=7, first=2) == whole
    assert records(games=1, seed=7, first=5) == whole[5:]


def test_the_parts_records_joined_report_as_the_whole_run(tmp_path, capsys):
    common = ["simulate", "toy", "--root", str(TOY), "--seed", "3", "--workers", "1", "--ap", "random",
              "--cp", "random", "--json"]
    assert main(common + ["--games", "5", "--out", str(tmp_path / "whole.jsonl")]) == 0
    whole = json.loads(capsys.readouterr().out)
    assert main(common + ["--games", "2", "--out", str(tmp_path / "a.jsonl")]) == 0
    assert main(common + ["--games", "3", "--first", "2", "--out", str(tmp_path / "b.jsonl")]) == 0
    part = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert part["first"] == 2 and part["games"] == 3
    joined = tmp_path / "joined.jsonl"
    joined.write_text((tmp_path / "a.jsonl").read_text() + (tmp_path / "b.jsonl").read_text())
    assert main(["report", str(joined), "--root", str(TOY), "--json"]) == 0
    reported = json.loads(capsys.readouterr().out)
    for key in ("games", "results", "decisions", "reasons", "digest", "final_vp", "card_events"):
        assert reported[key] == whole[key], key


def test_first_is_refused_below_zero_in_one_line(capsys):
    assert main(["simulate", "toy", "--root", str(TOY), "--games", "1", "--first", "-1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--first must be 0 or more" in err[0]
