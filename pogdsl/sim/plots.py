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
  of the games that played that turn.

A comparison draws the runs side by side in each figure, on shared axes,
each panel titled with its run.  A figure whose data no record carries (no
"final_vp", no "vp_by_turn") is left out.  The same records give the same
bytes: the SVG's ids are salted with a constant and its date left out, and
matplotlib's Agg renderer (no screen needed) draws the PNG.
"""

from __future__ import annotations

import io
from pathlib import Path

from ..safe_io import write_file

FIGURES = ("win-by-turn", "final-vp", "vp-by-turn")
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


def plot_records(records: list[dict], folder, *, label: str | None = None) -> list[Path]:
    """The figures of one run's records, written into `folder` (made if
    needed); `label` names the run (default: the records' scenario).
    Returns the paths written, PNG and SVG of each figure."""
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
        for name, draw in zip(FIGURES, (_win_by_turn, _final_vp, _vp_by_turn)):
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


# ------------------------------------------------------------------ helpers
def _default_label(records: list[dict]) -> str:
    names = sorted({str(r["scenario"]) for r in records if r.get("scenario")})
    return ", ".join(names) or "games"


def _finished(records: list[dict]) -> list[dict]:
    return [r for r in records if not r.get("error")]


def _panel_title(label: str, records: list[dict]) -> str:
    failed = len(records) - len(_finished(records))
    return f"{label}: {len(records)} game{'s' * (len(records) != 1)}" + (
        f" ({failed} failed, left out)" if failed else "")


def _figure(runs, title: str):
    """A figure with one panel a run, on shared axes, drawn by Agg."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(_PANEL_WIDTH * len(runs), _HEIGHT), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.subplots(1, len(runs), sharex=True, sharey=True, squeeze=False)[0]
    figure.suptitle(title)
    for ax, (label, records) in zip(axes, runs):
        ax.set_title(_panel_title(label, records), fontsize="medium")
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
    winners = sorted({r["winner"] for _, rs in runs for r in _finished(rs) if r.get("winner")})
    results = sorted({r["result"] for _, rs in runs for r in _finished(rs)
                      if r.get("result") and not r.get("winner")})
    seen = {outcome(r) for _, rs in runs for r in _finished(rs)}
    return winners + (["draw"] if "draw" in seen else []) + [k for k in results if k != "draw"]


def _outcome_label(name: str, winners: set[str]) -> str:
    return f"{name} wins" if name in winners else name


# ------------------------------------------------------------------ figures
def _win_by_turn(runs):
    if not any(_finished(rs) for _, rs in runs):
        return None
    names = _outcomes(runs)
    winners = {r["winner"] for _, rs in runs for r in _finished(rs) if r.get("winner")}
    turns = [r["turn"] for _, rs in runs for r in _finished(rs) if r.get("turn") is not None]
    first, last = min(turns), max(turns)
    xs = list(range(first, last + 1))
    colours = _colours(names)
    figure, axes = _figure(runs, "Who won, by the turn the game ended")
    for ax, (_label, records) in zip(axes, runs):
        done = _finished(records)
        bottom = [0.0] * len(xs)
        for name in names:
            heights = [0.0] * len(xs)
            for r in done:
                if outcome(r) == name and r.get("turn") is not None:
                    heights[r["turn"] - first] += 100.0 / len(done)
            ax.bar(xs, heights, bottom=bottom, color=colours[name], label=_outcome_label(name, winners),
                   width=0.8)
            bottom = [b + h for b, h in zip(bottom, heights)]
        ax.set_xlabel("turn the game ended (game turn)")
        ax.set_xticks(xs if len(xs) <= 25 else xs[::2])
    axes[0].set_ylabel("share of the finished games (%)")
    axes[-1].legend(title="outcome", loc="upper left")
    return figure


def _final_vp(runs):
    values = [[r["final_vp"] for r in _finished(rs) if r.get("final_vp") is not None] for _, rs in runs]
    if not any(values):
        return None
    low = min(v for vs in values for v in vs)
    high = max(v for vs in values for v in vs)
    bins = [x - 0.5 for x in range(low, high + 2)]
    figure, axes = _figure(runs, "Final VP")
    for i, (ax, vs) in enumerate(zip(axes, values)):
        if not vs:
            ax.text(0.5, 0.5, "no VP in these records", ha="center", transform=ax.transAxes)
            continue
        colour = f"C{i}"
        ax.hist(vs, bins=bins, weights=[100.0 / len(vs)] * len(vs), color=colour, alpha=0.8,
                label=f"finished games ({len(vs)})")
        mean = sum(vs) / len(vs)
        ax.axvline(mean, color="black", linestyle="--", linewidth=1, label=f"mean {mean:.1f}")
        ax.set_xlabel("final VP (victory points)")
        ax.legend(loc="upper right")
    axes[0].set_ylabel("share of the games (%)")
    return figure


def _vp_by_turn(runs):
    series = [[list(r["vp_by_turn"]) for r in _finished(rs) if r.get("vp_by_turn")] for _, rs in runs]
    if not any(series):
        return None
    import numpy
    from matplotlib.ticker import MaxNLocator

    figure, axes = _figure(runs, "VP over turns: mean and spread")
    for i, (ax, games) in enumerate(zip(axes, series)):
        if not games:
            ax.text(0.5, 0.5, "no VP by turn in these records", ha="center", transform=ax.transAxes)
            continue
        longest = max(len(g) for g in games)
        xs, means, lows, highs = [], [], [], []
        for t in range(longest):
            at = [g[t] for g in games if len(g) > t]
            xs.append(t + 1)
            means.append(float(numpy.mean(at)))
            lows.append(float(numpy.percentile(at, 10)))
            highs.append(float(numpy.percentile(at, 90)))
        colour = f"C{i}"
        ax.fill_between(xs, lows, highs, color=colour, alpha=0.25, linewidth=0,
                        label="10%–90% of the games")
        ax.plot(xs, means, color=colour, marker="o", markersize=3, label="mean")
        ax.set_xlabel("turn (game turn; VP at its end)")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.legend(loc="upper left")
    axes[0].set_ylabel("VP (victory points)")
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
