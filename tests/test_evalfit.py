"""`pogdsl fit-evaluation`: the declared evaluation's term weights fitted to
game outcomes (pogdsl/sim/evalfit.py).  The fit is checked on positions
drawn from a known evaluation (it must find those weights again), end to
end on the card duel of tests/fixtures/duel (random players, a few dozen
games), and on bad input: every refusal is one line, never a traceback."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from pogdsl.cli import main
from pogdsl.opening import open_scenario
from pogdsl.sim.evalfit import FitError, cross_validate, fit_records, fit_weights, fragment, positions

FIXTURES = Path(__file__).parent / "fixtures"
DUEL = FIXTURES / "duel"
TOY = Path(__file__).parent.parent / "docs" / "examples" / "toy"
SIDES = ["ap", "cp"]


def synthetic_records(weights, scale: float, games: int, seed: int, turns: int = 1) -> list[dict]:
    """Games whose outcome is drawn from the evaluation WEIGHTS on SCALE:
    each side's terms at random, the first side winning with probability
    logistic(sum w * (t(ap) - t(cp)) / scale) of the game's one position
    (TURNS > 1 repeats that position, as a game would record it turn after
    turn)."""
    rng = np.random.default_rng(seed)
    records = []
    for g in range(games):
        ap = rng.integers(-20, 21, size=len(weights))
        cp = rng.integers(-20, 21, size=len(weights))
        p = 1 / (1 + np.exp(-(np.dot(weights, ap - cp)) / scale))
        winner = "ap" if rng.random() < p else "cp"
        snap = {"ap": [int(v) for v in ap], "cp": [int(v) for v in cp]}
        records.append({"game": g, "winner": winner, "error": None, "terms_by_turn": [snap] * turns})
    return records


# ------------------------------------------------------------------ the fit
def test_the_fit_finds_the_weights_the_outcomes_were_drawn_with():
    true = [5, 1, 0, 12]
    records = synthetic_records(true, 40.0, games=6000, seed=3)
    terms = [("a", 1), ("b", 1), ("c", 1), ("d", 1)]
    fit = fit_records(records, terms, SIDES, 40.0, resamples=40, seed=1)
    exact = [row["exact"] for row in fit["terms"]]
    assert exact == pytest.approx(true, abs=1.2)
    assert [row["fitted"] for row in fit["terms"]] == pytest.approx(true, abs=1)
    # each true weight inside its interval (a weight of 0 sits on the bound: its interval starts there)
    for row, w in zip(fit["terms"], true):
        assert row["low"] <= w <= row["high"] + 1e-9
    # the true weights predict held-out games better than weights of 1 (the "declared" here)
    held = fit["held_out"]
    assert held["fitted"]["log_loss"] < held["declared"]["log_loss"] < held["base rate"]["log_loss"]
    assert held["fitted"]["brier"] < held["declared"]["brier"]


def test_the_seat_term_takes_the_first_sides_edge_not_the_terms():
    """The first side wins more often whatever the terms say: the seat term
    takes that edge (about logit 1 here), the weights stay the ones drawn."""
    rng = np.random.default_rng(11)
    records = []
    for g in range(6000):
        ap, cp = rng.integers(-20, 21, size=2), rng.integers(-20, 21, size=2)
        p = 1 / (1 + np.exp(-(np.dot([4, 2], ap - cp) / 40 + 1.0)))
        records.append({"winner": "ap" if rng.random() < p else "cp",
                        "terms_by_turn": [{"ap": [int(v) for v in ap], "cp": [int(v) for v in cp]}]})
    fit = fit_records(records, [("a", 1), ("b", 1)], SIDES, 40.0, resamples=20, seed=1)
    assert [row["fitted"] for row in fit["terms"]] == pytest.approx([4, 2], abs=1)
    assert fit["seat"]["logit"] == pytest.approx(1.0, abs=0.15)
    assert fit["seat"]["low"] < 1.0 < fit["seat"]["high"]


def test_a_scale_twice_as_large_gives_weights_twice_as_large():
    records = synthetic_records([3, 1], 40.0, games=3000, seed=5)
    x, y, games = positions(records, SIDES)
    on_40 = fit_weights(x, y, 40.0)
    on_80 = fit_weights(x, y, 80.0)
    assert on_80 == pytest.approx(2 * on_40, rel=1e-3)


def test_a_term_that_favours_the_loser_is_given_no_weight_not_a_negative_one():
    """The language's weights are whole numbers of at least 0."""
    records = synthetic_records([4, -3], 40.0, games=3000, seed=7)
    x, y, _ = positions(records, SIDES)
    w = fit_weights(x, y, 40.0)
    assert w[1] == 0.0 and w[0] > 2


def test_draws_and_failed_games_are_left_out_and_a_game_is_never_split_across_folds():
    records = synthetic_records([2, 1], 10.0, games=50, seed=1, turns=4)
    records[0]["winner"] = None
    records[1]["error"] = "too long"
    x, y, games = positions(records, SIDES)
    assert len(y) == 48 * 4 and 0 not in games and 1 not in games
    from pogdsl.sim.evalfit import folds_of

    folds = folds_of(games, 5, seed=2)
    assert sorted(np.concatenate(folds)) == sorted(set(games))  # each game in exactly one fold
    held = cross_validate(x, y, games, [2, 1], 10.0, 5, 2)
    assert set(held) == {"declared", "declared, scale fitted", "fitted", "base rate"}


def test_a_term_whose_difference_never_changes_keeps_its_declared_weight():
    records = synthetic_records([3, 1], 20.0, games=400, seed=2)
    for r in records:
        for snap in r["terms_by_turn"]:
            snap["ap"].append(7)
            snap["cp"].append(7)
    fit = fit_records(records, [("a", 1), ("b", 1), ("same", 9)], SIDES, 20.0, resamples=0)
    same = fit["terms"][2]
    assert same["fitted"] == 9 and same["exact"] is None and not same["identified"]


@pytest.mark.parametrize("change, message", [
    (lambda rs: [dict(r, winner=None) for r in rs], "none of the"),
    (lambda rs: [dict(r, winner="ap") for r in rs], "won by the same side"),
])
def test_a_fit_with_no_decisive_game_or_one_winner_is_undefined(change, message):
    records = change(synthetic_records([1, 1], 10.0, games=30, seed=1))
    with pytest.raises(FitError, match=message):
        fit_records(records, [("a", 1), ("b", 1)], SIDES, 10.0, resamples=0)


def test_outcomes_the_terms_part_perfectly_have_no_fit():
    records = synthetic_records([1, 0], 10.0, games=40, seed=1)
    for r in records:  # the winner is whoever leads in the first term
        snap = r["terms_by_turn"][0]
        r["winner"] = "ap" if snap["ap"][0] > snap["cp"][0] else "cp"
        if snap["ap"][0] == snap["cp"][0]:
            r["winner"] = None
    with pytest.raises(FitError, match="perfectly"):
        fit_records(records, [("a", 1), ("b", 1)], SIDES, 10.0, resamples=0)


def test_the_fragment_edits_only_the_weights_that_change_and_compiles(tmp_path):
    fit = {"decisive": 10, "positions": 60, "scale": 10.0, "declared_scale": 10.0,
           "terms": [{"term": "vp_lead", "declared": 1, "fitted": 3}]}
    path = tmp_path / "fitted.pog"
    path.write_text(fragment("duel", "Card duel", ["4.3"], fit))
    assert "edit term vp_lead weight 3" in path.read_text()
    world = open_scenario(str(path), DUEL, cache=False).world
    assert [(t.name, t.weight) for t in world.terms] == [("vp_lead", 3)]


# ------------------------------------------------------------------ end to end
def test_fit_evaluation_end_to_end_on_the_card_duel(tmp_path, capsys):
    """Random players on the duel: the VP lead foretells the winner, the more
    so the later the turn; the fit weighs it, predicts held-out games better
    than the base rate, and writes a variant that compiles and carries the
    fitted weight.  The records it saved fit again to the same weights."""
    out, records = tmp_path / "fitted.pog", tmp_path / "games.jsonl"
    assert main(["fit-evaluation", "duel", "--root", str(DUEL), "--games", "30", "--seed", "1", "--workers", "1",
                 "--ap", "random", "--cp", "random", "--bootstrap", "30", "--records", str(records),
                 "--out", str(out), "--json"]) == 0
    fit = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    (row,) = fit["terms"]
    assert row["term"] == "vp_lead" and row["declared"] == 1 and row["fitted"] >= 1
    assert row["low"] <= row["exact"] <= row["high"]
    assert fit["held_out"]["fitted"]["log_loss"] < fit["held_out"]["base rate"]["log_loss"]
    assert fit["decisive"] == sum(fit["wins"].values()) and fit["agents"] == {"ap": "random", "cp": "random"}
    world = open_scenario(str(out), DUEL, cache=False).world
    assert [(t.name, t.weight) for t in world.terms] == [("vp_lead", row["fitted"])]
    lines = records.read_text().splitlines()
    assert len(lines) == 30 and all(len(json.loads(line)["terms_by_turn"]) >= 1 for line in lines)
    # the records fit again, without playing, to the same weights
    assert main(["fit-evaluation", "duel", "--root", str(DUEL), "--from", str(records), "--seed", "1",
                 "--bootstrap", "30", "--json"]) == 0
    again = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert again["terms"] == fit["terms"] and again["agents"] == {"ap": "random", "cp": "random"}
    # the table a person reads
    assert main(["fit-evaluation", "duel", "--root", str(DUEL), "--from", str(records), "--bootstrap", "0"]) == 0
    text = capsys.readouterr().out
    assert "vp_lead" in text and "held out" in text and "log-loss" in text and "Brier" in text


def test_the_terms_recorded_are_those_at_the_end_of_each_turn():
    """The interpreter's turn-end hook: a duel game ends after its sixth
    turn, so six records, the last one's VP lead the final VP's."""
    from pogdsl.sim import play_random

    opened = open_scenario("duel", DUEL)
    r = play_random(opened, 11, record_terms=True)
    assert len(r["terms_by_turn"]) == 6 == len(r["vp_by_turn"])
    for snap, vp in zip(r["terms_by_turn"], r["vp_by_turn"]):
        assert snap == {"ap": [20 - vp], "cp": [vp - 20]}
    # recording changes nothing of the game
    assert play_random(opened, 11)["hash"] == r["hash"]


# ------------------------------------------------------------------ bad input
def one_line_error(capsys, argv, status) -> str:
    assert main(argv) == status
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in captured.err, captured.err
    return err[0]


def test_bad_input_is_refused_in_one_line(tmp_path, capsys):
    assert "--games must be at least 1" in one_line_error(capsys, ["fit-evaluation", "duel", "--root", str(DUEL),
                                                                   "--games", "0"], 2)
    assert "unknown scenario 'nope'" in one_line_error(capsys, ["fit-evaluation", "nope", "--root", str(DUEL)], 2)
    assert "declares no evaluation term" in one_line_error(capsys, ["fit-evaluation", "toy", "--root", str(TOY),
                                                                     "--games", "1"], 2)
    assert "cannot read" in one_line_error(capsys, ["fit-evaluation", "duel", "--root", str(DUEL), "--from",
                                                    str(tmp_path / "none.jsonl")], 2)
    assert "no folder" in one_line_error(capsys, ["fit-evaluation", "duel", "--root", str(DUEL), "--out",
                                                   str(tmp_path / "nowhere" / "fitted.pog")], 2)
    junk = tmp_path / "junk.jsonl"
    junk.write_text('{"terms_by_turn": [], "terms": ["vp_lead"]}\n[1, 2\n')
    assert ":2: not a JSON record" in one_line_error(capsys, ["fit-evaluation", "duel", "--root", str(DUEL),
                                                               "--from", str(junk)], 2)
    junk.write_text('{"terms_by_turn": [{"ap": ["x"]}], "terms": ["vp_lead"]}\n')
    assert "whole numbers" in one_line_error(capsys, ["fit-evaluation", "duel", "--root", str(DUEL),
                                                      "--from", str(junk)], 2)
    for value in ("1" + "0" * 400, "true", "1.5"):
        junk.write_text('{"winner": "ap", "terms_by_turn": [{"ap": [%s], "cp": [0]}], "terms": ["vp_lead"]}\n'
                        % value)
        assert "whole numbers" in one_line_error(capsys, ["fit-evaluation", "duel", "--root", str(DUEL),
                                                          "--from", str(junk)], 2)
    junk.write_text('{"terms_by_turn": [], "terms": ["other"]}\n')
    assert "play the games again" in one_line_error(capsys, ["fit-evaluation", "duel", "--root", str(DUEL),
                                                             "--from", str(junk)], 2)


def test_a_fifo_a_device_or_a_huge_line_is_refused_without_waiting_on_it(tmp_path, capsys):
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)  # opened for reading, it would wait for a writer; for writing, for a reader
    base = ["fit-evaluation", "duel", "--root", str(DUEL)]
    assert "FIFO" in one_line_error(capsys, base + ["--from", str(fifo)], 2)
    assert "device" in one_line_error(capsys, base + ["--from", "/dev/zero"], 2)
    assert "FIFO" in one_line_error(capsys, base + ["--games", "1", "--records", str(fifo)], 2)
    huge = tmp_path / "huge.jsonl"
    huge.write_text("[" * (3 * 1024 * 1024) + "\n")
    assert "longer than" in one_line_error(capsys, base + ["--from", str(huge)], 2)


def test_all_games_drawn_or_one_sided_is_a_one_line_error(tmp_path, capsys):
    path = tmp_path / "games.jsonl"
    snap = {"ap": [1], "cp": [-1]}
    for winner, words in ((None, "was won by a side"), ("cp", "won by the same side")):
        path.write_text("".join(json.dumps({"winner": winner, "terms": ["vp_lead"], "terms_by_turn": [snap]}) + "\n"
                                for _ in range(5)))
        assert words in one_line_error(capsys, ["fit-evaluation", "duel", "--root", str(DUEL), "--from", str(path)],
                                       1)


def test_the_help_says_what_is_fitted_and_how(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["fit-evaluation", "--help"])
    assert stop.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    for words in ("usage: pogdsl fit-evaluation", "--games", "--out", "--from", "--records", "--scale", "decisive",
                  "held out", "Exit status"):
        assert words in text
