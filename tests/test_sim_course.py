"""The designer's statistics of how games went (pogdsl/sim/course.py), on
hand-built records: who won by the turn the game ended and by how it ended,
the ending-turn bands, the break-even VP read from the games, lead changes,
the turn the winner led for good, how well each turn's leader foretells the
winner, and the VP by turn of each outcome's games; then the same from
`simulate --json` and `report` of saved records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pogdsl.cli import main
from pogdsl.sim.course import (
    break_even,
    by_end_turn,
    by_reason,
    course_summary,
    turn_bands,
    vp_by_winner,
    vp_course,
)

SIDES = ["ap", "cp"]
DUEL = Path(__file__).parent / "fixtures" / "duel"


def game(winner, vp_by_turn, reason="VP", result=None, error=None):
    return {"winner": winner, "result": result, "reason": reason, "turn": len(vp_by_turn) or None,
            "final_vp": vp_by_turn[-1] if vp_by_turn and not error else None, "vp_by_turn": list(vp_by_turn),
            "error": error}


# cp wins end high on the track, ap wins low: the cut between them is 10.5
GAMES = [
    game("cp", [10, 12, 14]),              # ap ahead (10 is below the cut), then cp: decided on turn 2
    game("cp", [9, 8, 11, 12]),            # ap, ap, cp, cp: one change, decided on turn 3
    game("ap", [11, 9, 12, 8]),            # cp, ap, cp, ap: three changes, decided on turn 4
    game("ap", [8, 7], reason="surrender"),  # ap all along, ended early by another way: decided on turn 1
    game(None, [10, 10, 10]),              # a draw, below the cut throughout
    game(None, [12, 13], result="both_lose", reason="peace"),
    game("cp", [13], error="dead end"),    # failed: left out by course_summary
]


def test_by_end_turn_counts_each_outcome_on_the_turn_the_game_ended():
    done = [g for g in GAMES if g["error"] is None]
    rows = by_end_turn(done, SIDES)
    assert [r["turn"] for r in rows] == [2, 3, 4]
    assert rows[0] == {"turn": 2, "games": 2, "outcomes": {"ap": 1, "cp": 0, "draw": 0, "both_lose": 1}}
    assert rows[1]["outcomes"] == {"ap": 0, "cp": 1, "draw": 1, "both_lose": 0}
    assert rows[2]["outcomes"] == {"ap": 1, "cp": 1, "draw": 0, "both_lose": 0}
    assert sum(r["games"] for r in rows) == len(done)


def test_by_reason_counts_each_outcome_of_each_way_the_games_ended():
    rows = by_reason([g for g in GAMES if g["error"] is None], SIDES)
    assert rows["VP"] == {"games": 4, "outcomes": {"ap": 1, "cp": 2, "draw": 1, "both_lose": 0}}
    assert rows["surrender"]["outcomes"]["ap"] == 1 and rows["peace"]["outcomes"]["both_lose"] == 1


def test_turn_bands_share_the_games_by_the_turn_they_ended_with_intervals():
    done = [g for g in GAMES if g["error"] is None]
    bands = turn_bands(done, [("before 3", None, 2), ("3 to 3", 3, 3), ("after 3", 4, None)])
    assert {k: v["count"] for k, v in bands.items()} == {"before 3": 2, "3 to 3": 2, "after 3": 2}
    assert bands["before 3"]["rate"] == pytest.approx(2 / 6, abs=1e-4)
    assert bands["before 3"]["low"] < 2 / 6 < bands["before 3"]["high"]


def test_break_even_is_the_cut_that_best_parts_the_two_sides_wins():
    even = break_even([g for g in GAMES if g["error"] is None], SIDES)
    assert even["high"] == "cp" and even["low"] == "ap"
    assert even["cut"] == 10.5 and even["misplaced"] == 0 and even["games"] == 4
    # with wins of one side only, no cut can be read
    assert break_even([game("cp", [12])], SIDES) is None


def test_lead_changes_the_turn_decided_and_the_foretelling_of_each_turn():
    course = vp_course([g for g in GAMES if g["error"] is None], SIDES)
    # lead changes: 1, 1, 3, 0, 0 (the draw) and 0 (the both_lose game, cp ahead throughout)
    assert course["lead_changes"]["n"] == 6 and course["lead_changes"]["max"] == 3
    assert course["lead_changes"]["mean"] == pytest.approx(5 / 6, abs=1e-3)
    # the four decisive games were decided on turns 2, 3, 4 and 1
    assert course["decided_turn"]["n"] == 4 and course["decided_turn"]["mean"] == pytest.approx(10 / 4)
    assert course["won_from_behind"] == 0
    foretold = {x["turn"]: (x["count"], x["rate"]) for x in course["leader_wins"]}
    # turn 1: ahead ap, ap, cp, ap; winners cp, cp, ap, ap → 1 of 4
    assert foretold[1] == (1, 0.25)
    assert foretold[2] == (3, 0.75)  # cp, ap, ap, ap ahead → 3 of 4
    assert foretold[3] == (2, pytest.approx(0.6667, abs=1e-4)) and foretold[4] == (2, 1.0)


def test_a_winner_behind_on_the_last_turn_won_from_behind():
    games = [game("cp", [12, 14]), game("ap", [8, 6]), game("ap", [9, 15], reason="capital taken")]
    course = vp_course(games, SIDES)
    assert course["won_from_behind"] == 1 and course["decided_turn"]["n"] == 2


def test_vp_by_winner_averages_each_outcomes_games_turn_by_turn():
    split = vp_by_winner([g for g in GAMES if g["error"] is None], SIDES)
    assert split["cp"] == {"games": 2, "mean": [9.5, 10.0, 12.5, 12.0], "count": [2, 2, 2, 1]}
    assert split["ap"]["mean"] == [9.5, 8.0, 12.0, 8.0] and split["ap"]["count"] == [2, 2, 1, 1]
    assert split["draw"]["mean"] == [10.0, 10.0, 10.0] and split["both_lose"]["games"] == 1


def test_course_summary_leaves_failed_games_out():
    summary = course_summary(GAMES, SIDES)
    assert sum(r["games"] for r in summary["by_end_turn"]) == 6
    assert "cp" in summary["vp_by_winner"] and summary["vp_by_winner"]["cp"]["games"] == 2


# ------------------------------------------------------------------ through the command line
def test_simulate_and_report_give_the_statistics_and_name_the_players(tmp_path, capsys):
    out = tmp_path / "games.csv"
    code = main(["simulate", "duel", "--root", str(DUEL), "--games", "12", "--workers", "1", "--ap", "random",
                 "--cp", "mcts:2", "--out", str(out), "--json"])
    assert code == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["agents"] == {"ap": "random", "cp": "mcts:2"}
    assert sum(r["games"] for r in summary["by_end_turn"]) == summary["finished"] == 12
    assert sum(sum(r["outcomes"].values()) for r in summary["by_reason"].values()) == 12
    for side in ("ap", "cp"):
        if summary["results"][side]:
            row = summary["vp_by_winner"][side]
            assert row["games"] == summary["results"][side] and len(row["mean"]) == 6  # six turns a game
    assert main(["report", str(out), "--root", str(DUEL), "--json"]) == 0
    again = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert again["agents"] == summary["agents"]  # the records name the players (a CSV column)
    for key in ("by_end_turn", "by_reason", "vp_course", "vp_by_winner"):
        assert again[key] == summary[key], key
    assert main(["report", str(out), "--root", str(DUEL)]) == 0
    text = capsys.readouterr().out
    assert "players: ap random, cp mcts:2" in text and "mean VP at the end of each turn, by outcome" in text


def test_report_refuses_records_of_other_players_mixed_in(tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    assert main(["simulate", "duel", "--root", str(DUEL), "--games", "3", "--workers", "1", "--ap", "random",
                 "--cp", "random", "--out", str(out), "--json"]) == 0
    capsys.readouterr()
    lines = out.read_text().splitlines()
    other = json.loads(lines[2])
    assert other["players"] == {"ap": "random", "cp": "random"}
    other["players"] = {"ap": "mcts:8", "cp": "random"}
    out.write_text("\n".join(lines[:2] + [json.dumps(other)]) + "\n")
    assert main(["report", str(out), "--root", str(DUEL)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "record 3: other players than the first record's" in err[0]
