"""Figures of simulated games, drawn with matplotlib from per-game records.

A record is one game as `pogdsl simulate --out` writes it (docs/playing.rst):
this module reads its "winner", "result", "turn", "error", "final_vp" and
"vp_by_turn" (VP at the end of each turn played, turn 1 first).  Failed
games (an "error") did not end, so they are left out of every figure (the
panel's title says how many).

Each figure is written as PNG and SVG into a folder:

- ``win-by-turn``: who won, by the turn the game ended — a bar per turn,
  stacked by outcome (each side's wins, draws, each other declared result),
  as a share of the finished games;
- ``final-vp``: the final VP, a histogram (one bar per VP) with its mean;
- ``vp-by-turn``: VP at the end of each turn, the mean and the band 10%–90%
  of the games that played that turn;
- ``vp-by-winner``: the VP trajectory split by outcome: the mean VP at the
  end of each turn of the games each side won (and of the draws...).

A comparison draws the runs side by side in each figure, on shared axes,
each panel titled with its run.  A figure whose data no record carries (no
"final_vp", no "vp_by_turn") is left out.  The same records give the same
bytes: the SVG's ids are salted with a constant and its date left out, and
matplotlib's Agg renderer (no screen needed) draws the PNG.
"""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

from ..safe_io import write_file

FIGURES = ("win-by-turn", "final-vp", "vp-by-turn", "vp-by-winner")
FORMATS = ("png", "svg")

# Rendering settings that make a figure's bytes depend on its data only.
_RC = {
    "svg.hashsalt": "pogdsl",  # ids in the SVG: a fixed salt instead of a random one
    "svg.fonttype": "path",  # glyphs as paths: the SVG looks the same without the fonts
    "figure.dpi": 100,
    "savefig.dpi": 100,
}
_METADATA = {"svg": {"Date": None}, "png": {}}  # no date in an SVG (a PNG carries none)
_PANEL_WIDTH, _HEIGHT = 6.4, 4.4  # inches


def plot_records(records, folder, *, label: str | None = None) -> list[Path]:
    """The figures of one run's records (a list, or a PlotData they were
    added to), written into `folder` (made if needed); `label` names the run
    (default: the records' scenario).  Returns the paths written, PNG and
    SVG of each figure."""
    return plot_runs([(label or _default_label(records), records)], folder)


def plot_comparison(base: list[dict], variant: list[dict], folder, *,
                    labels: tuple[str, str] = ("base", "variant")) -> list[Path]:
    """The figures of two runs (a base and its variant, on the same seeds),
    side by side in each figure; returns the paths written."""
    return plot_runs([(labels[0], base), (labels[1], variant)], folder)


def plot_runs(runs: list[tuple[str, list[dict]]], folder) -> list[Path]:
    """The figures of one or more runs, given as (label, records): one panel
    a run in each figure.  Returns the paths written."""
    from matplotlib import rc_context

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with rc_context(_RC):
        for name, draw in zip(FIGURES, (_win_by_turn, _final_vp, _vp_by_turn, _vp_by_winner)):
            figure = draw(runs)
            if figure is None:
                continue
            for fmt in FORMATS:
                path = folder / f"{name}.{fmt}"
                image = io.BytesIO()  # drawn first, written whole: a full disk leaves no half figure
                figure.savefig(image, format=fmt, metadata=_METADATA[fmt])
                write_file(path, image.getvalue())
                written.append(path)
    return written


# ------------------------------------------------------------------ what the figures read
class PlotData:
    """What the figures read of a run, added game by game in memory that
    does not grow with the number of games: counts of (outcome, turn), of
    final VP, and of the VP at the end of each turn (the band's percentiles
    and the means come exactly from those counts)."""

    def __init__(self, records=()):
        self.games = 0
        self.failed = 0
        self.scenarios: set[str] = set()
        self.by_turn: Counter = Counter()  # (outcome, turn) → finished games
        self.winners: set[str] = set()
        self.results: set[str] = set()
        self.final_vp: Counter = Counter()
        self.vp_at: list[Counter] = []  # turn index → VP → games
        # outcome → turn index → [sum of the VP at its end, games]: vp-by-winner's means
        self.vp_by_outcome: dict[str, list[list[int]]] = {}
        self.games_by_outcome: Counter = Counter()  # the games of an outcome that carry VP by turn
        for r in records:
            self.add(r)

    def add(self, r: dict) -> None:
        self.games += 1
        if r.get("scenario"):
            self.scenarios.add(str(r["scenario"]))
        if r.get("error"):
            self.failed += 1
            return
        if r.get("winner"):
            self.winners.add(r["winner"])
        elif r.get("result"):
            self.results.add(r["result"])
        self.by_turn[(outcome(r), r.get("turn"))] += 1
        if r.get("final_vp") is not None:
            self.final_vp[r["final_vp"]] += 1
        for t, vp in enumerate(r.get("vp_by_turn") or []):
            if t == len(self.vp_at):
                self.vp_at.append(Counter())
            self.vp_at[t][vp] += 1
        track = r.get("vp_by_turn") or []
        if track:
            name = outcome(r)
            self.games_by_outcome[name] += 1
            sums = self.vp_by_outcome.setdefault(name, [])
            for t, vp in enumerate(track):
                if t == len(sums):
                    sums.append([0, 0])
                sums[t][0] += vp
                sums[t][1] += 1

    def __len__(self) -> int:
        return self.games

    @property
    def finished(self) -> int:
        return self.games - self.failed

    def outcomes(self) -> set[str]:
        return {name for name, _ in self.by_turn}


def _data(records) -> PlotData:
    return records if isinstance(records, PlotData) else PlotData(records)


def _default_label(records) -> str:
    return ", ".join(sorted(_data(records).scenarios)) or "games"


def _panel_title(label: str, data: PlotData) -> str:
    return f"{label}: {data.games} game{'s' * (data.games != 1)}" + (
        f" ({data.failed} failed, left out)" if data.failed else "")


def _figure(runs, title: str):
    """A figure with one panel a run, on shared axes, drawn by Agg."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(_PANEL_WIDTH * len(runs), _HEIGHT), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.subplots(1, len(runs), sharex=True, sharey=True, squeeze=False)[0]
    figure.suptitle(title)
    for ax, (label, data) in zip(axes, runs):
        ax.set_title(_panel_title(label, data), fontsize="medium")
        ax.grid(axis="y", alpha=0.3)
        ax.set_axisbelow(True)
    return figure, axes


def outcome(record: dict) -> str:
    """How a finished game ended, as the win-by-turn figure counts it: the
    winning side, else the declared result it ended as, else "draw"."""
    return record.get("winner") or record.get("result") or "draw"


def _outcomes(runs) -> list[str]:
    """Every outcome of the runs, in a fixed order: the sides' wins, draws,
    then the other declared results."""
    winners = sorted(set().union(*(d.winners for _, d in runs)))
    results = sorted(set().union(*(d.results for _, d in runs)))
    seen = set().union(*(d.outcomes() for _, d in runs))
    return winners + (["draw"] if "draw" in seen else []) + [k for k in results if k != "draw"]


def _outcome_label(name: str, winners: set[str]) -> str:
    return f"{name} wins" if name in winners else name


# ------------------------------------------------------------------ figures
def _runs(runs) -> list[tuple[str, PlotData]]:
    return [(label, _data(records)) for label, records in runs]


def _win_by_turn(runs):
    runs = _runs(runs)
    if not any(d.finished for _, d in runs):
        return None
    names = _outcomes(runs)
    winners = set().union(*(d.winners for _, d in runs))
    turns = [t for _, d in runs for (_, t) in d.by_turn if t is not None]
    first, last = min(turns), max(turns)
    xs = list(range(first, last + 1))
    colours = _colours(names)
    figure, axes = _figure(runs, "Who won, by the turn the game ended")
    for ax, (_label, data) in zip(axes, runs):
        bottom = [0.0] * len(xs)
        for name in names:
            heights = [0.0] * len(xs)
            for (what, turn), n in data.by_turn.items():
                if what == name and turn is not None:
                    heights[turn - first] += 100.0 * n / data.finished
            ax.bar(xs, heights, bottom=bottom, color=colours[name], label=_outcome_label(name, winners),
                   width=0.8)
            bottom = [b + h for b, h in zip(bottom, heights)]
        ax.set_xlabel("turn the game ended (game turn)")
        ax.set_xticks(xs if len(xs) <= 25 else xs[::2])
    axes[0].set_ylabel("share of the finished games (%)")
    axes[-1].legend(title="outcome", loc="upper left")
    return figure


def _final_vp(runs):
    runs = _runs(runs)
    counts = [d.final_vp for _, d in runs]
    if not any(counts):
        return None
    low = min(v for c in counts for v in c)
    high = max(v for c in counts for v in c)
    bins = [x - 0.5 for x in range(low, high + 2)]
    figure, axes = _figure(runs, "Final VP")
    for i, (ax, c) in enumerate(zip(axes, counts)):
        if not c:
            ax.text(0.5, 0.5, "no VP in these records", ha="center", transform=ax.transAxes)
            continue
        colour = f"C{i}"
        n = sum(c.values())
        values = sorted(c)
        ax.hist(values, bins=bins, weights=[100.0 * c[v] / n for v in values], color=colour, alpha=0.8,
                label=f"finished games ({n})")
        mean = sum(v * k for v, k in c.items()) / n
        ax.axvline(mean, color="black", linestyle="--", linewidth=1, label=f"mean {mean:.1f}")
        ax.set_xlabel("final VP (victory points)")
        ax.legend(loc="upper right")
    axes[0].set_ylabel("share of the games (%)")
    return figure


def _vp_by_turn(runs):
    runs = _runs(runs)
    if not any(d.vp_at for _, d in runs):
        return None
    from matplotlib.ticker import MaxNLocator

    from .stats import _counted_quantile

    figure, axes = _figure(runs, "VP over turns: mean and spread")
    for i, (ax, (_label, data)) in enumerate(zip(axes, runs)):
        if not data.vp_at:
            ax.text(0.5, 0.5, "no VP by turn in these records", ha="center", transform=ax.transAxes)
            continue
        xs, means, lows, highs = [], [], [], []
        for t, at in enumerate(data.vp_at):
            n = sum(at.values())
            values = sorted(at)
            xs.append(t + 1)
            means.append(sum(v * k for v, k in at.items()) / n)
            lows.append(float(_counted_quantile(values, at, n, 0.10)))  # numpy's linear percentile
            highs.append(float(_counted_quantile(values, at, n, 0.90)))
        colour = f"C{i}"
        ax.fill_between(xs, lows, highs, color=colour, alpha=0.25, linewidth=0,
                        label="10%–90% of the games")
        ax.plot(xs, means, color=colour, marker="o", markersize=3, label="mean")
        ax.set_xlabel("turn (game turn; VP at its end)")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.legend(loc="upper left")
    axes[0].set_ylabel("VP (victory points)")
    return figure


def _vp_by_winner(runs):
    runs = _runs(runs)
    if not any(d.vp_by_outcome for _, d in runs):
        return None
    from matplotlib.ticker import MaxNLocator

    names = _outcomes(runs)
    winners = set().union(*(d.winners for _, d in runs))
    colours = _colours(names)
    figure, axes = _figure(runs, "VP over turns, by who won: the mean of each outcome's games")
    for ax, (_label, data) in zip(axes, runs):
        if not data.vp_by_outcome:
            ax.text(0.5, 0.5, "no VP by turn in these records", ha="center", transform=ax.transAxes)
            continue
        for name in names:
            sums = data.vp_by_outcome.get(name)
            if not sums:
                continue
            means = [total / n for total, n in sums]
            ax.plot(range(1, len(means) + 1), means, color=colours[name], marker="o", markersize=3,
                    label=f"{_outcome_label(name, winners)} ({data.games_by_outcome[name]})")
        ax.set_xlabel("turn (game turn; VP at its end)")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.legend(title="outcome (games)", loc="upper left")
    axes[0].set_ylabel("mean VP (victory points)")
    return figure


def _colours(names: list[str]) -> dict[str, str]:
    """A colour for each outcome: sides first in tab10's order, a draw grey."""
    out, index = {}, 0
    for name in names:
        if name == "draw":
            out[name] = "#9e9e9e"
        else:
            out[name] = f"C{index}"
            index += 1
    return out
