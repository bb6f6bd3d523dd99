"""The designer's statistics of `pogdsl simulate`: Wilson intervals, the
distributions of final VP and game length, per-game records (--out), `pogdsl
report` on saved records, and `--against` comparing a variant with its base."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pogdsl.sim import TIMING_FIELDS, simulate
from pogdsl.sim.records import RecordWriter, card_labels, read_records
from pogdsl.sim.stats import distribution, histogram, newcombe, quantile, wilson

REPO = Path(__file__).resolve().parents[1]
RULES = REPO / "tests" / "fixtures" / "toy_rules"
# toy_rules with the VP track starting 3 nearer the Centrals' win (VP 18)
GUNS = REPO / "tests" / "fixtures" / "toy_stats" / "toy_rules_guns.pog"


def cli(*args, cwd: Path = REPO, env_extra: dict | None = None):
    env = dict(os.environ)
    env.update(env_extra or {})
    env.pop("POGDSL_HOME", None)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-m", "pogdsl.cli", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=180, check=False)
    for stream in (proc.stdout, proc.stderr):
        assert "Traceback" not in stream, stream
    return proc


def last_json(proc):
    return json.loads(proc.stdout.strip().splitlines()[-1])


def without_timings(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in TIMING_FIELDS}


# ------------------------------------------------------------ the formulas
def test_wilson_interval_of_5_in_20():
    low, high = wilson(5, 20)
    assert low == pytest.approx(0.1119, abs=5e-4) and high == pytest.approx(0.4687, abs=5e-4)


def test_wilson_interval_at_the_edges_stays_inside_0_and_1():
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=5e-4)
    low, high = wilson(10, 10)
    assert high == 1.0 and low == pytest.approx(0.7225, abs=5e-4)


def test_newcombe_interval_matches_the_published_example():
    # Newcombe (1998), example (a): 56/70 against 48/80, method 10: 0.0524 to 0.3339
    d, low, high = newcombe(48, 80, 56, 70)
    assert d == pytest.approx(0.2)
    assert low == pytest.approx(0.0524, abs=5e-4) and high == pytest.approx(0.3339, abs=5e-4)


def test_distribution_quartiles_and_histogram():
    d = distribution([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 100])
    assert (d["min"], d["median"], d["max"], d["n"]) == (1, 6, 100, 11)
    assert d["q1"] == 3.5 and d["q3"] == 8.5 and d["mean"] == pytest.approx(155 / 11, abs=1e-3)
    assert quantile([2, 4], 0.5) == 3
    bins = histogram([1, 1, 2, 9, 10])
    assert sum(b["count"] for b in bins) == 5
    assert bins[0]["low"] == 1 and bins[-1]["high"] == 10
    assert histogram([7, 7]) == [{"low": 7, "high": 7, "count": 2}]


# ------------------------------------------------------------ the summary
def test_summary_has_intervals_and_distributions():
    s = simulate("toy_rules", games=40, seed=3, root=RULES, workers=1)
    n = s["finished"]
    for side, count in s["results"].items():
        ci = s["win_intervals"][side]
        low, high = wilson(count, n)
        assert ci["count"] == count and ci["low"] == round(low, 4) and ci["high"] == round(high, 4)
    assert set(s["reason_intervals"]) == set(s["reasons"])
    assert sum(v["count"] for v in s["reason_intervals"].values()) == n
    for key in ("final_vp", "turns", "decisions_per_game"):
        d = s[key]
        assert d["n"] == n and d["min"] <= d["q1"] <= d["median"] <= d["q3"] <= d["max"]
        assert sum(b["count"] for b in d["histogram"]) == n
    assert s["turns"]["mean"] == pytest.approx(s["mean_turns"], abs=0.01)
    # the toy's VP track starts at 10 and a game ends at 18 or 2 at the latest
    assert 2 <= s["final_vp"]["min"] and s["final_vp"]["max"] <= 20


def test_text_summary_prints_intervals_and_a_histogram():
    proc = cli("simulate", "toy_rules", "--root", RULES, "--games", "20", "--seed", "1", "--workers", "1")
    assert proc.returncode == 0, proc.stderr
    assert "95% CI" in proc.stdout
    for label in ("final VP", "last turn", "decisions"):
        line = next(x for x in proc.stdout.splitlines() if x.strip().startswith(label))
        assert "median" in line and "|" in line


# ------------------------------------------------------------ records
@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    out = tmp_path_factory.mktemp("records") / "games.jsonl"
    proc = cli("simulate", "toy_rules", "--root", RULES, "--games", "12", "--seed", "5", "--workers", "1",
               "--json", "--out", out)
    assert proc.returncode == 0, proc.stderr
    return out, last_json(proc)


def test_records_file_has_one_line_per_game_with_the_schema(recorded):
    out, summary = recorded
    lines = out.read_text().splitlines()
    assert len(lines) == 12
    recs = [json.loads(x) for x in lines]
    for field in ("seed", "winner", "result", "reason", "final_vp", "turn", "decisions", "vp_by_turn",
                  "events", "error", "kind", "hash", "scenario", "options"):
        assert all(field in r for r in recs), field
    assert [r["game"] for r in recs] == list(range(12))
    assert sum(r["decisions"] for r in recs) == summary["decisions"]
    for r in recs:
        assert r["scenario"] == "toy_rules" and r["error"] is None
        assert len(r["vp_by_turn"]) == r["turn"] and r["vp_by_turn"][-1] == r["final_vp"]
        assert all(k.split()[0] in ("AP", "CP") for k in r["events"])
    # the events of the records add up to the summary's card events
    for label, v in summary["card_events"].items():
        assert sum(r["events"].get(label, 0) for r in recs) == v["played"]


def test_a_record_seed_replays_the_same_game(recorded):
    out, _ = recorded
    rec = json.loads(out.read_text().splitlines()[7])
    proc = cli("play", "toy_rules", "--root", RULES, "--seed", rec["seed"], "--ap", rec["players"]["ap"],
               "--cp", rec["players"]["cp"])
    assert proc.returncode == 0, proc.stderr
    assert f"final state {rec['hash'][:16]}" in proc.stdout
    assert f"{rec['decisions']} decisions" in proc.stdout


def test_report_gives_the_summary_simulate_gave(recorded):
    out, summary = recorded
    proc = cli("report", out, "--root", RULES, "--json")
    assert proc.returncode == 0, proc.stderr
    again = last_json(proc)
    assert without_timings(again) == without_timings(summary)
    text = cli("report", out, "--root", RULES)
    assert text.returncode == 0 and "95% CI" in text.stdout and "final VP" in text.stdout


def test_csv_records_flatten_events_and_report_the_same(recorded, tmp_path):
    _, summary = recorded
    out = tmp_path / "games.csv"
    proc = cli("simulate", "toy_rules", "--root", RULES, "--games", "12", "--seed", "5", "--workers", "1",
               "--out", out)
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(out.open(newline="")))
    assert len(rows) == 12
    assert all(":" in item for r in rows for item in r["events"].split(";") if item)
    assert rows[0]["events"].startswith(("AP ", "CP "))
    again = last_json(cli("report", out, "--root", RULES, "--json"))
    assert without_timings(again) == without_timings(summary)


def test_records_are_written_as_games_finish(tmp_path):
    """A run stopped (Ctrl-C) after its first game keeps that game on disk:
    records are written and flushed a game at a time, and the summary is of
    the games written."""
    from pogdsl.opening import open_scenario

    opened = open_scenario("toy_rules", RULES)
    out = tmp_path / "partial.jsonl"
    writer = RecordWriter(out, card_labels(opened.world), "toy_rules", {}, 9)

    def stop(n):
        raise KeyboardInterrupt

    summary = simulate("toy_rules", games=8, seed=9, root=RULES, workers=1, on_results=writer.write, progress=stop)
    kept = out.read_text().splitlines()  # before closing: flushed per game
    writer.close()
    assert summary["interrupted"] and summary["games_asked"] == 8
    assert 0 < len(kept) < 8 and len(kept) == summary["games"]
    assert [json.loads(x)["game"] for x in kept] == list(range(len(kept)))


@pytest.mark.parametrize("target", ["dir", "/dev/null"])
def test_out_refuses_a_directory_or_a_device(tmp_path, target):
    path = tmp_path if target == "dir" else Path(target)
    proc = cli("simulate", "toy_rules", "--root", RULES, "--games", "2", "--workers", "1", "--out", path)
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and str(path) in proc.stderr
    assert proc.stdout == ""


# ------------------------------------------------------------ bad records
@pytest.mark.parametrize("text, says", [
    ('{"seed": 1}\nnot json\n', "line 1: no field"),
    ("hello\n", "line 1: not JSON"),
    ("[1, 2]\n", "line 1: a record is a JSON object"),
])
def test_report_names_the_bad_line(tmp_path, text, says):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(text)
    proc = cli("report", bad, "--root", RULES)
    assert proc.returncode == 1
    assert len(proc.stderr.strip().splitlines()) == 1 and says in proc.stderr


def test_report_names_a_field_of_the_wrong_type(recorded, tmp_path):
    out, _ = recorded
    lines = out.read_text().splitlines()
    rec = json.loads(lines[2])
    rec["decisions"] = "many"
    lines[2] = json.dumps(rec)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    proc = cli("report", bad, "--root", RULES)
    assert proc.returncode == 1
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "line 3" in proc.stderr and "decisions" in proc.stderr


def test_report_refuses_a_directory(tmp_path):
    proc = cli("report", tmp_path)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1


def test_read_records_refuses_mixed_scenarios(recorded, tmp_path):
    out, _ = recorded
    lines = out.read_text().splitlines()
    rec = json.loads(lines[1])
    rec["scenario"] = "campaign"
    bad = tmp_path / "mixed.jsonl"
    bad.write_text("\n".join([lines[0], json.dumps(rec)]) + "\n")
    with pytest.raises(Exception, match="record 2"):
        read_records(bad)


# ------------------------------------------------------------ comparison
@pytest.fixture(scope="module")
def compared():
    proc = cli("simulate", "toy_rules", "--root", RULES, "--against", GUNS, "--games", "60", "--seed", "2",
               "--workers", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    return last_json(proc)


def test_compare_plays_the_same_seeds(compared):
    base, variant = compared["base"], compared["variant"]
    assert base["games"] == variant["games"] == 60 and base["seed"] == variant["seed"] == 2
    alone = simulate("toy_rules", games=60, seed=2, root=RULES, workers=1)
    assert without_timings(alone) == without_timings(base)


def test_compare_finds_the_shift_the_variant_makes(compared):
    diffs = {d["key"]: d for d in compared["differences"]}
    cp = diffs["win_rate:cp"]
    # the variant starts the VP track 3 nearer the Centrals' win: they win more
    assert cp["difference"] > 0 and cp["low"] > 0 and cp["significant"]
    assert cp["text"].startswith("the Centrals win ") and "more often (95% CI" in cp["text"]
    assert cp["text"].endswith(": significant")
    n1, n2 = compared["base"]["finished"], compared["variant"]["finished"]
    k1, k2 = compared["base"]["results"]["cp"], compared["variant"]["results"]["cp"]
    d, low, high = newcombe(k1, n1, k2, n2)
    assert (cp["low"], cp["high"]) == (round(low, 4), round(high, 4))
    vp = diffs["final_vp"]
    assert vp["difference"] > 0 and vp["significant"] and "higher on average" in vp["text"]


def test_compare_says_not_significant_when_nothing_moved(compared):
    ap = {d["key"]: d for d in compared["differences"]}["win_rate:ap"]
    # the Allies never win the toy (VP 2 is out of reach in three turns), in either
    assert ap["difference"] == 0 and not ap["significant"]
    assert "not significant" in ap["text"]


def test_compare_text_output():
    proc = cli("simulate", "toy_rules", "--root", RULES, "--against", GUNS, "--games", "30", "--seed", "2",
               "--workers", "1")
    assert proc.returncode == 0, proc.stderr
    tail = proc.stdout[proc.stdout.index("against toy_rules"):]
    assert "the Centrals win" in tail and "95% CI" in tail


def test_compare_of_a_scenario_with_itself_shows_no_difference():
    proc = cli("simulate", "toy_rules", "--root", RULES, "--against", "toy_rules", "--games", "20",
               "--workers", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    for d in last_json(proc)["differences"]:
        assert d["difference"] == 0 and not d["significant"], d


def test_against_an_unknown_scenario_is_an_error():
    proc = cli("simulate", "toy_rules", "--root", RULES, "--against", "no_such", "--games", "2", "--workers", "1")
    assert proc.returncode == 2 and "no_such" in proc.stderr and proc.stdout == ""


def test_compare_writes_the_variants_records_beside_the_base(tmp_path):
    out = tmp_path / "games.jsonl"
    proc = cli("simulate", "toy_rules", "--root", RULES, "--against", GUNS, "--games", "6", "--seed", "2",
               "--workers", "1", "--out", out)
    assert proc.returncode == 0, proc.stderr
    base, variant = read_records(out), read_records(tmp_path / "games-against.jsonl")
    assert [r["seed"] for r in base] == [r["seed"] for r in variant]
    assert base[0]["scenario"] == "toy_rules" and variant[0]["scenario"] == str(GUNS)


def test_out_in_a_missing_folder_is_refused_before_playing(tmp_path):
    path = tmp_path / "no" / "such" / "games.jsonl"
    proc = cli("simulate", "toy_rules", "--root", RULES, "--games", "2", "--workers", "1", "--out", path)
    assert proc.returncode == 2 and "does not exist" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and proc.stdout == ""


def test_report_of_an_empty_file(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    proc = cli("report", empty, "--root", RULES)
    assert proc.returncode == 1 and "no records" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_compare_counts_declared_results():
    """A result the scenarios declare (the tournament's both_lose) is compared too."""
    from pogdsl.sim.compare import compare

    def summary(counts, both_lose):
        from pogdsl.sim.stats import proportion

        n = sum(counts.values()) + both_lose
        return {"finished": n, "win_intervals": {k: proportion(v, n) for k, v in counts.items()},
                "result_intervals": {"both_lose": proportion(both_lose, n)}}

    diffs = compare(summary({"ap": 50, "cp": 50, "draw": 0}, 0),
                    summary({"ap": 40, "cp": 40, "draw": 0}, 20), {"ap": "Allies", "cp": "Centrals"})
    lose = {d["key"]: d for d in diffs}["result:both_lose"]
    assert lose["difference"] == pytest.approx(0.2) and lose["significant"]
    assert lose["text"].startswith("games end as both_lose 20.0 points more often")


def test_histogram_falls_back_to_ascii_where_the_output_cannot_print_bars():
    proc = cli("simulate", "toy_rules", "--root", RULES, "--games", "10", "--workers", "1",
               env_extra={"PYTHONIOENCODING": "ascii"})
    assert proc.returncode == 0, proc.stderr
    line = next(x for x in proc.stdout.splitlines() if x.strip().startswith("final VP"))
    assert line.isascii() and "|" in line


def test_failed_games_are_recorded_with_their_failure_and_reported_alike(tmp_path):
    out = tmp_path / "dead.jsonl"
    proc = cli("simulate", "dead_end", "--root", RULES, "--games", "10", "--workers", "1", "--json", "--out", out)
    assert proc.returncode == 1  # some games reach a dead end
    summary = last_json(proc)
    recs = read_records(out)
    failed = [r for r in recs if r["error"] is not None]
    assert len(failed) == summary["failed"] > 0
    assert all(r["kind"] == "dead_end" and r["final_vp"] is None and r["winner"] is None for r in failed)
    assert [r["seed"] for r in failed] == [f["seed"] for f in summary["failures"]]
    again = last_json(cli("report", out, "--root", RULES, "--json"))
    assert without_timings(again) == without_timings(summary)


def test_simulate_plays_the_heuristic_player_on_both_sides_by_default():
    """Balance is measured with players that play the war: with no --ap/--cp,
    both sides are the heuristic player, and the summary says so."""
    proc = cli("simulate", "toy_rules", "--root", RULES, "--games", "2", "--workers", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    assert last_json(proc)["agents"] == {"ap": "greedy", "cp": "greedy"}
    text = cli("simulate", "toy_rules", "--root", RULES, "--games", "2", "--workers", "1")
    assert "players: ap greedy, cp greedy" in text.stdout
