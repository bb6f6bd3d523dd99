"""The statistics of a batch of games: proportions with 95% Wilson
intervals, distributions (mean, quartiles, a histogram), and the difference
between two batches (a variant against its base) with its interval.

Written by hand, not taken from scipy or statsmodels: each is a few lines of
textbook formulas, and the package keeps no heavy dependency for them.

- Wilson score interval for a proportion k/n (Wilson 1927): unlike the
  "±1.96·sqrt(p(1-p)/n)" interval it stays inside 0..1 and is honest when k
  is 0 or n, as win counts of a lopsided scenario often are.
- Difference of two proportions: Newcombe's hybrid score interval (method 10
  of Newcombe 1998), built from the two Wilson intervals.  The two batches
  play the same seeds, but random players make the games part at the first
  decision, so the pairs are nearly independent and the unpaired interval is
  the right (slightly conservative) one.
- Difference of two means: the normal approximation with each batch's own
  variance (Welch's standard error, 1.96 for 95%), fine for the hundreds of
  games a comparison plays.
"""

from __future__ import annotations

import math
from collections import Counter

Z95 = 1.959963984540054  # the 97.5% point of the standard normal


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of the proportion k/n, as (low, high)."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    if k == 0:
        return (0.0, min(1.0, centre + half))
    if k == n:
        return (max(0.0, centre - half), 1.0)
    return (max(0.0, centre - half), min(1.0, centre + half))


def proportion(k: int, n: int) -> dict:
    """{"count", "rate", "low", "high"}: k of n games, with its 95% interval."""
    low, high = wilson(k, n)
    return {"count": k, "rate": round(k / n, 4) if n else None, "low": round(low, 4), "high": round(high, 4)}


def newcombe(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> tuple[float, float, float]:
    """The difference p2 - p1 of two proportions with Newcombe's interval:
    (difference, low, high)."""
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p2 - p1
    low = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    high = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return d, max(-1.0, low), min(1.0, high)


def quantile(values: list[float], q: float) -> float:
    """The q-quantile of sorted values, interpolated linearly (numpy's default)."""
    if not values:
        raise ValueError("no values")
    pos = (len(values) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (pos - lo)


def histogram(values: list[int | float], bins: int = 10) -> list[dict]:
    """Counts of values in at most `bins` equal ranges [low, high) (the last
    one closed); whole-number values get whole-number bounds."""
    if not values:
        return []
    lo, hi = min(values), max(values)
    whole = all(isinstance(v, int) for v in values)
    if lo == hi:
        return [{"low": lo, "high": hi, "count": len(values)}]
    width = (hi - lo) / bins
    if whole:
        width = max(1, math.ceil((hi - lo + 1) / bins))
        edges = [lo + i * width for i in range(math.ceil((hi - lo + 1) / width) + 1)]
    else:
        edges = [lo + i * width for i in range(bins + 1)]
    counts = [0] * (len(edges) - 1)
    for v in values:
        i = int((v - lo) // width) if v < edges[-1] else len(counts) - 1
        counts[min(i, len(counts) - 1)] += 1
    out = []
    for i, c in enumerate(counts):
        high = edges[i + 1] - 1 if whole else edges[i + 1]
        out.append({"low": round(edges[i], 4), "high": round(min(high, hi) if whole else high, 4), "count": c})
    return out


def distribution(values: list[int | float]) -> dict | None:
    """Mean, standard deviation, min, quartiles, max and a histogram."""
    return distribution_of_counts(Counter(values))


def distribution_of_counts(counts: Counter) -> dict | None:
    """`distribution` of the values counted in COUNTS (value → how many
    times): what a run of any length keeps of a measure, since the game's
    measures (final VP, last turn, decisions) take few distinct values, so
    the quartiles stay exact in bounded memory."""
    counts = {v: c for v, c in counts.items() if c > 0}
    if not counts:
        return None
    values = sorted(counts)
    n = sum(counts.values())
    mean = sum(v * c for v, c in counts.items()) / n
    sd = math.sqrt(sum((v - mean) ** 2 * c for v, c in counts.items()) / (n - 1)) if n > 1 else 0.0
    return {"n": n, "mean": round(mean, 3), "sd": round(sd, 3), "min": values[0],
            "q1": round(_counted_quantile(values, counts, n, 0.25), 3),
            "median": round(_counted_quantile(values, counts, n, 0.5), 3),
            "q3": round(_counted_quantile(values, counts, n, 0.75), 3), "max": values[-1],
            "histogram": _counted_histogram(values, counts)}


def _counted_quantile(values: list, counts: dict, n: int, q: float) -> float:
    """`quantile` of the n values counted, without listing them."""
    pos = (n - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, n - 1)
    return _nth(values, counts, lo) + (_nth(values, counts, hi) - _nth(values, counts, lo)) * (pos - lo)


def _nth(values: list, counts: dict, index: int):
    seen = 0
    for v in values:
        seen += counts[v]
        if index < seen:
            return v
    return values[-1]


def _counted_histogram(values: list, counts: dict, bins: int = 10) -> list[dict]:
    """`histogram` of the values counted."""
    lo, hi = values[0], values[-1]
    if lo == hi:
        return [{"low": lo, "high": hi, "count": counts[lo]}]
    whole = all(isinstance(v, int) for v in values)
    width = (hi - lo) / bins
    if whole:
        width = max(1, math.ceil((hi - lo + 1) / bins))
        edges = [lo + i * width for i in range(math.ceil((hi - lo + 1) / width) + 1)]
    else:
        edges = [lo + i * width for i in range(bins + 1)]
    tally = [0] * (len(edges) - 1)
    for v in values:
        i = int((v - lo) // width) if v < edges[-1] else len(tally) - 1
        tally[min(i, len(tally) - 1)] += counts[v]
    out = []
    for i, c in enumerate(tally):
        high = edges[i + 1] - 1 if whole else edges[i + 1]
        out.append({"low": round(edges[i], 4), "high": round(min(high, hi) if whole else high, 4), "count": c})
    return out


def mean_difference(a: dict, b: dict, z: float = Z95) -> tuple[float, float, float]:
    """b's mean minus a's, with the normal-approximation interval, from two
    `distribution` results: (difference, low, high)."""
    d = b["mean"] - a["mean"]
    se = math.sqrt(a["sd"] ** 2 / a["n"] + b["sd"] ** 2 / b["n"])
    return d, d - z * se, d + z * se
