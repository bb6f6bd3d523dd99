"""Figures of simulated games (pogdsl/sim/plots.py) and `simulate --plot`."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from pogdsl.sim import plots  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
TOY = REPO / "tests" / "fixtures" / "toy"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def run_cli(*args):
    env = {k: v for k, v in os.environ.items() if k != "POGDSL_HOME"}
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "pogdsl.cli", *map(str, args)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


def record(seed, winner=None, turn=1, final_vp=None, vp_by_turn=(), result=None, error=None):
    return {"seed": seed, "winner": winner, "result": result, "reason": "a reason", "final_vp": final_vp,
            "turn": turn, "decisions": 10, "vp_by_turn": list(vp_by_turn), "events": {}, "error": error,
            "kind": "game_error" if error else None, "hash": "0", "scenario": "toy", "options": {}}


def made_up_run(n=60, seed=1, drift=0):
    """Games of made-up records: random lengths, VP walks, winners, a few
    declared results and failures."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        turns = rng.randint(2, 9)
        vp, walk = 10, []
        for _ in range(turns):
            vp += rng.randint(-2, 2) + drift
            walk.append(vp)
        winner = rng.choice(["ap", "cp", None])
        out.append(record(i, winner, turns, vp, walk, result="both_lose" if winner is None and i % 3 == 0 else None,
                          error="boom" if i % 17 == 5 else None))
    return out


def texts(figure):
    """Every text a figure shows: titles, axis labels, legend entries."""
    out = {figure.get_suptitle()}
    for ax in figure.axes:
        out |= {ax.get_title(), ax.get_xlabel(), ax.get_ylabel()}
        legend = ax.get_legend()
        if legend:
            out |= {t.get_text() for t in legend.get_texts()} | {legend.get_title().get_text()}
    return out - {""}


def test_plot_records_writes_png_and_svg_of_each_figure(tmp_path):
    written = plots.plot_records(made_up_run(), tmp_path / "new" / "folder", label="toy")
    names = [p.name for p in written]
    assert names == ["win-by-turn.png", "win-by-turn.svg", "final-vp.png", "final-vp.svg",
                     "vp-by-turn.png", "vp-by-turn.svg", "vp-by-winner.png", "vp-by-winner.svg"]
    for path in written:
        data = path.read_bytes()
        if path.suffix == ".png":
            assert data.startswith(PNG_MAGIC)
        else:
            assert b"<svg" in data[:1000] and b"</svg>" in data[-100:]
    # the axis labels are in the SVG (matplotlib keeps each text as a comment above its glyphs)
    svg = (tmp_path / "new" / "folder" / "win-by-turn.svg").read_text()
    assert "turn the game ended (game turn)" in svg and "share of the finished games (%)" in svg


def test_the_same_records_give_the_same_bytes(tmp_path):
    run = made_up_run()
    first = plots.plot_records(run, tmp_path / "a")
    second = plots.plot_records(run, tmp_path / "b")
    for a, b in zip(first, second, strict=True):
        assert a.read_bytes() == b.read_bytes(), a.name
    other = plots.plot_records(made_up_run(seed=2), tmp_path / "c")
    assert other[1].read_bytes() != first[1].read_bytes()  # (the SVG depends on the records)


def test_win_by_turn_stacks_each_outcome_as_a_share_of_the_finished_games():
    run = [record(0, "ap", 2), record(1, "ap", 2), record(2, "cp", 3), record(3, None, 3),
           record(4, None, 4, result="both_lose"), record(5, "cp", 2, error="dead end")]
    figure = plots._win_by_turn([("toy", run)])
    ax = figure.axes[0]
    bars = {}
    for container in ax.containers:
        label = container.get_label()
        bars[label] = {round(b.get_x() + b.get_width() / 2): (b.get_y(), b.get_height()) for b in container}
    assert list(bars) == ["ap wins", "cp wins", "draw", "both_lose"]
    # five finished games (the failed one is left out): 20% each
    assert bars["ap wins"][2] == (0, pytest.approx(40.0))
    assert bars["cp wins"][3] == (0, pytest.approx(20.0)) and bars["cp wins"][2][1] == 0
    assert bars["draw"][3] == (pytest.approx(20.0), pytest.approx(20.0))  # stacked on the cp wins
    assert bars["both_lose"][4][1] == pytest.approx(20.0)
    total = sum(h for per in bars.values() for _, h in per.values())
    assert total == pytest.approx(100.0)
    assert {"Who won, by the turn the game ended", "toy: 6 games (1 failed, left out)",
            "turn the game ended (game turn)", "share of the finished games (%)", "outcome"} <= texts(figure)


def test_final_vp_histogram_counts_each_vp_as_a_share():
    run = [record(0, "ap", 3, 5), record(1, "cp", 3, 5), record(2, "cp", 4, 7), record(3, "ap", 4, 8)]
    figure = plots._final_vp([("toy", run)])
    ax = figure.axes[0]
    heights = {round(p.get_x() + p.get_width() / 2): p.get_height() for p in ax.patches}
    assert heights == {5: pytest.approx(50.0), 6: 0, 7: pytest.approx(25.0), 8: pytest.approx(25.0)}
    assert {"Final VP", "final VP (victory points)", "share of the games (%)", "finished games (4)",
            "mean 6.2"} <= texts(figure)


def test_vp_by_winner_draws_the_mean_vp_of_each_outcomes_games_at_each_turn():
    run = [record(0, "ap", 2, 8, [9, 8]), record(1, "ap", 3, 6, [11, 8, 6]), record(2, "cp", 2, 14, [12, 14]),
           record(3, None, 1, 10, [10]), record(4, "cp", 2, 20, [20, 20], error="dead end")]
    figure = plots._vp_by_winner([("toy", run)])
    lines = {line.get_label(): (list(line.get_xdata()), list(line.get_ydata())) for line in figure.axes[0].lines}
    assert lines == {"ap wins (2)": ([1, 2, 3], [10.0, 8.0, 6.0]), "cp wins (1)": ([1, 2], [12.0, 14.0]),
                     "draw (1)": ([1], [10.0])}  # (the failed game is left out)
    assert "mean VP (victory points)" in texts(figure)


def test_vp_over_turns_draws_the_mean_and_the_10_to_90_band_of_the_games_at_each_turn():
    walks = [[i, 2 * i] for i in range(10)] + [[10, 20, 3]]  # 11 games; one plays a third turn
    run = [record(i, "ap", len(w), w[-1], w) for i, w in enumerate(walks)]
    figure = plots._vp_by_turn([("toy", run)])
    ax = figure.axes[0]
    (mean_line,) = ax.get_lines()
    xs, ys = mean_line.get_data()
    assert list(xs) == [1, 2, 3]
    assert list(ys) == [pytest.approx(5.0), pytest.approx(10.0), pytest.approx(3.0)]
    # the band: VP 0..10 at the end of turn 1 → from 1 (10%) to 9 (90%); one game at turn 3
    band = ax.collections[0].get_paths()[0].vertices
    at = {}
    for x, y in band:
        at.setdefault(round(x, 6), set()).add(round(y, 6))
    assert at[1] == {1.0, 9.0} and at[2] == {2.0, 18.0} and at[3] == {3.0}
    assert {"VP over turns: mean and spread", "VP (victory points)", "mean", "10%–90% of the games",
            "turn (game turn; VP at its end)"} <= texts(figure)


def test_a_comparison_draws_both_runs_side_by_side_each_labelled(tmp_path):
    base, variant = made_up_run(), made_up_run(seed=3, drift=1)
    written = plots.plot_comparison(base, variant, tmp_path, labels=("campaign", "campaign+tournament"))
    assert len(written) == 8  # four figures, PNG and SVG
    for draw in (plots._win_by_turn, plots._final_vp, plots._vp_by_turn):
        figure = draw([("campaign", base), ("campaign+tournament", variant)])
        left, right = figure.axes
        assert left.get_title().startswith("campaign: 60 games")
        assert right.get_title().startswith("campaign+tournament: 60 games")
        assert left.get_shared_y_axes().joined(left, right)  # on the same scale, to compare
    # the variant drifts up: its mean VP at the last turn is higher
    figure = plots._vp_by_turn([("campaign", base), ("campaign+tournament", variant)])
    assert figure.axes[1].get_lines()[0].get_ydata()[-1] > figure.axes[0].get_lines()[0].get_ydata()[-1]


def test_records_without_vp_give_the_win_by_turn_figure_only(tmp_path):
    run = [record(0, "ap", 2), record(1, "cp", 3)]
    written = plots.plot_records(run, tmp_path)
    assert [p.name for p in written] == ["win-by-turn.png", "win-by-turn.svg"]
    assert plots.plot_records([record(0, "ap", 2, error="boom")], tmp_path / "none") == []


def test_simulate_plot_writes_the_figures_and_prints_their_paths(tmp_path):
    folder = tmp_path / "balance"
    proc = run_cli("simulate", "toy", "--root", TOY, "--games", "6", "--workers", "1", "--plot", folder)
    assert proc.returncode == 0, proc.stderr
    assert (folder / "win-by-turn.png").read_bytes().startswith(PNG_MAGIC)
    assert str(folder / "win-by-turn.svg") in proc.stdout
    svg = (folder / "win-by-turn.svg").read_text()
    assert "toy: 6 games" in svg
    proc = run_cli("simulate", "toy", "--root", TOY, "--games", "6", "--workers", "1", "--plot", folder, "--json")
    import json

    summary = json.loads(proc.stdout.splitlines()[-1])
    assert summary["plots"][:2] == [str(folder / "win-by-turn.png"), str(folder / "win-by-turn.svg")]
    assert (folder / "win-by-turn.svg").read_text() == svg  # the same games, the same figure


def test_simulate_refuses_a_plot_folder_it_cannot_write_before_playing(tmp_path):
    taken = tmp_path / "a file"
    taken.write_text("not a folder")
    proc = run_cli("simulate", "toy", "--root", TOY, "--games", "2", "--workers", "1", "--plot", taken / "plots")
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"pogdsl simulate: error: --plot {taken / 'plots'}: {taken} is a file, not a folder"
    assert proc.stdout == ""  # no game played


# ----------------------------------------------- records, report and compare
RULES = REPO / "tests" / "fixtures" / "toy_rules"
GUNS = REPO / "tests" / "fixtures" / "toy_stats" / "toy_rules_guns.pog"


def test_report_plot_draws_from_saved_records_the_figures_simulate_drew(tmp_path):
    """simulate --plot draws from the same per-game records --out writes:
    `report FILE --plot` gives the same figures, byte for byte."""
    out, played, again = tmp_path / "games.jsonl", tmp_path / "played", tmp_path / "again"
    proc = run_cli("simulate", "toy_rules", "--root", RULES, "--games", "8", "--seed", "3", "--workers", "1",
                   "--out", out, "--plot", played)
    assert proc.returncode == 0, proc.stderr
    names = sorted(p.name for p in played.iterdir())
    assert names == sorted(f"{f}.{x}" for f in plots.FIGURES for x in plots.FORMATS)  # the VP figures too
    proc = run_cli("report", out, "--root", RULES, "--plot", again)
    assert proc.returncode == 0, proc.stderr
    assert str(again / "final-vp.svg") in proc.stdout
    for name in names:
        assert (again / name).read_bytes() == (played / name).read_bytes(), name
    import json

    proc = run_cli("report", out, "--root", RULES, "--plot", again, "--json")
    assert json.loads(proc.stdout.splitlines()[-1])["plots"][0] == str(again / "win-by-turn.png")


def test_report_refuses_a_plot_folder_it_cannot_write(tmp_path):
    taken = tmp_path / "a file"
    taken.write_text("not a folder")
    records = tmp_path / "games.jsonl"
    records.write_text("")
    proc = run_cli("report", records, "--root", RULES, "--plot", taken)
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"pogdsl report: error: --plot {taken}: {taken} is a file, not a folder"


def test_against_with_plot_draws_the_base_and_the_variant_side_by_side(tmp_path):
    folder = tmp_path / "compare"
    proc = run_cli("simulate", "toy_rules", "--root", RULES, "--against", GUNS, "--games", "6", "--seed", "2",
                   "--workers", "1", "--plot", folder, "--json")
    assert proc.returncode == 0, proc.stderr
    import json

    out = json.loads(proc.stdout.splitlines()[-1])
    assert out["differences"] and out["plots"][0] == str(folder / "win-by-turn.png")
    for name in plots.FIGURES:
        svg = (folder / f"{name}.svg").read_text()
        assert "toy_rules: 6 games" in svg and "toy_rules_guns.pog: 6 games" in svg, name
    # the comparison's figures are not the base's alone
    alone = tmp_path / "alone"
    run_cli("simulate", "toy_rules", "--root", RULES, "--games", "6", "--seed", "2", "--workers", "1", "--plot", alone)
    assert (alone / "final-vp.svg").read_bytes() != (folder / "final-vp.svg").read_bytes()


def test_figures_are_drawn_from_counts_added_game_by_game_in_any_order(tmp_path):
    """simulate and report add each game to a PlotData as it comes (memory
    that does not grow with --games); the figures are the same bytes as
    from the list, whatever order the games came in."""
    run = made_up_run()
    data = plots.PlotData(reversed(run))
    assert data.games == len(run) and len(data.vp_at) > 1
    from_list = plots.plot_records(run, tmp_path / "list", label="toy")
    from_counts = plots.plot_records(data, tmp_path / "counts", label="toy")
    assert [p.name for p in from_list] == [p.name for p in from_counts]
    for a, b in zip(from_list, from_counts):
        assert a.read_bytes() == b.read_bytes(), a.name
