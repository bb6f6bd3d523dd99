"""Fitting the declared evaluation's term weights to game outcomes
(`pogdsl fit-evaluation`).

The computer players judge a position by the scenario's `term`s
(agents/evaluation.py): the first side's win expectation is

    P(first side wins) = logistic(sum_i w_i * (t_i(a) - t_i(b)) / scale)

with a and b the two playing sides.  Played games say how well that
predicts: each side's terms are recorded at the end of every turn
(record_terms_by_turn, through the interpreter's `at_turn_end`), each
position is labelled with who won the game it comes from, and the weights
that make the outcomes most likely (a logistic regression on the term
differences) are the fitted ones.  The regression also fits an intercept,
the seat term: the first side's edge whoever plays it, which the
evaluation itself does not weigh (a side's terms say nothing of which side
it is), so that the weights are not bent to carry the seat's share.

Nothing here knows a game: the terms are whatever the scenario declares.
"""

from __future__ import annotations

from ..runtime.errors import GameError


def term_snapshot(game) -> dict[str, list[int]] | None:
    """Each playing side's term values in GAME (side key → values in the
    terms' source order); None when a term cannot be worked out here."""
    from ..agents.evaluation import term_values

    try:
        return {s.key: [v for _, _, v in term_values(game, s)] for s in game.w.sides}
    except GameError:
        return None


def record_terms_by_turn(game) -> list:
    """A list that fills, as GAME is played, with each side's terms at the
    end of each turn (term_snapshot)."""
    kept: list = []
    game.at_turn_end = lambda g: kept.append(term_snapshot(g))
    return kept


class FitError(Exception):
    """The fit is undefined for these games (a one-line reason)."""


BOOTSTRAP = 200  # resamples of the games for the weights' intervals
FOLDS = 5  # cross-validation folds, by game


def positions(records: list[dict], sides: list[str]) -> tuple:
    """(X, y, game) of the recorded positions of the decisive games: X a row
    per position of each term's difference between the first and the second
    side, y 1 where the first side won that position's game, game the game's
    number in RECORDS.  Draws and failed games are left out: a draw says
    nothing of which side the terms favour."""
    import numpy as np

    first, second = sides
    rows, won, game = [], [], []
    for g, r in enumerate(records):
        if r.get("error") or r.get("winner") not in (first, second):
            continue
        for snap in r.get("terms_by_turn") or []:
            if snap is None or first not in snap or second not in snap:
                continue
            rows.append([a - b for a, b in zip(snap[first], snap[second])])
            won.append(1.0 if r["winner"] == first else 0.0)
            game.append(g)
    k = len(rows[0]) if rows else 0
    return np.array(rows, dtype=float).reshape(len(rows), k), np.array(won), np.array(game, dtype=int)


def fit_weights(x, y, scale: float, columns=None):
    """fit_terms with no seat term: the weights alone."""
    return fit_terms(x, y, scale, columns, seat=False)[0]


def fit_terms(x, y, scale: float, columns=None, seat: bool = True):
    """(w, b): the weights w (on SCALE) and the seat term b that maximise
    the likelihood of Y under P(y = 1) = logistic(x · w / scale + b).  Each
    weight is at least 0 (a term's weight is a whole number of at least 0
    in the language: a term that favours the side that goes on to lose is
    given 0, not turned against itself); only the COLUMNS given are fitted
    (the others stay 0).  The seat term b (0 unless SEAT) is the first
    side's edge at an even evaluation: the evaluation itself has none (both
    sides judge by the same terms), and without it the terms that happen to
    lean toward the side that wins more often would take its edge as their
    own.  Raises FitError when the maximum does not exist (every game won
    by the same side, or outcomes the terms part perfectly)."""
    import numpy as np
    from scipy.optimize import minimize

    if len(y) == 0:
        raise FitError("no position of a decisive game was recorded")
    if y.min() == y.max():
        raise FitError("every decisive game was won by the same side: nothing tells the terms apart")
    columns = np.flatnonzero(x.std(axis=0) > 0) if columns is None else columns
    if len(columns) == 0:
        raise FitError("no term ever differed between the two sides")
    # standardised columns: the optimiser sees terms of like size
    spread = x[:, columns].std(axis=0)
    z = x[:, columns] / spread
    bounds = [(0.0, None)] * len(columns)
    if seat:
        z = np.hstack([z, np.ones((len(y), 1))])
        bounds.append((None, None))
    signs = 2 * y - 1

    def negative_log_likelihood(beta):
        return float(np.sum(np.logaddexp(0.0, -signs * (z @ beta))))

    def gradient(beta):
        p = 1.0 / (1.0 + np.exp(-(z @ beta)))
        return -(z.T @ (y - p))

    fit = minimize(negative_log_likelihood, np.zeros(z.shape[1]), jac=gradient, method="L-BFGS-B", bounds=bounds)
    beta = fit.x
    # parted perfectly: the likelihood still rises as the weights grow without end
    if not fit.success or np.max(np.abs(beta)) > SEPARATED:
        raise FitError("the terms part the winners from the losers perfectly: the likelihood has no maximum "
                       "(play more games)")
    w = np.zeros(x.shape[1])
    w[columns] = beta[:len(columns)] / spread * scale
    return w, (float(beta[-1]) if seat else 0.0)


SEPARATED = 30.0  # a standardised weight this large: the outcomes are parted perfectly, not fitted


def best_scale(x, y, declared, scale: float) -> tuple[float, float]:
    """The scale that makes the DECLARED weights (on SCALE) predict Y best,
    their proportions kept, and the seat term fitted with it."""
    import numpy as np

    lead = (x @ np.asarray(declared, dtype=float)).reshape(-1, 1)
    (factor,), seat = fit_terms(lead, y, scale, np.array([0]))
    if factor <= 0:
        raise FitError("the declared evaluation favours the side that goes on to lose")
    return scale / factor, seat


def predict(x, weights, scale: float, seat: float = 0.0):
    """P(first side wins) of each position under WEIGHTS on SCALE (and the
    seat term SEAT)."""
    import numpy as np

    return 1.0 / (1.0 + np.exp(-np.clip(x @ np.asarray(weights, dtype=float) / scale + seat, -60, 60)))


def log_loss(p, y) -> float:
    import numpy as np

    p = np.clip(p, 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def brier(p, y) -> float:
    import numpy as np

    return float(np.mean((p - y) ** 2))


def folds_of(games, folds: int, seed: int) -> list:
    """The distinct games, shuffled by SEED and dealt into FOLDS folds (a
    game's positions are never split)."""
    import numpy as np

    distinct = np.unique(games)
    np.random.default_rng(seed).shuffle(distinct)
    return [distinct[i::folds] for i in range(folds)]


HELD_OUT = ("declared", "declared, scale fitted", "fitted", "base rate")


def cross_validate(x, y, games, declared, scale: float, folds: int, seed: int) -> dict:
    """Held-out log-loss and Brier score, each position predicted by a fit
    that never saw its game, of: the declared weights as the players use
    them; the declared weights' proportions with the scale and the seat
    term fitted (how much of the gain the scale alone gives); the weights
    and seat term fitted (the weights rounded to whole numbers, as the
    language takes them); the seat term alone (the share of first-side
    wins: a guess that reads no term)."""
    import numpy as np

    held = {name: np.zeros(len(y)) for name in HELD_OUT}
    for fold in folds_of(games, folds, seed):
        test = np.isin(games, fold)
        train = ~test
        held["declared"][test] = predict(x[test], declared, scale)
        try:
            rescaled, seat = best_scale(x[train], y[train], declared, scale)
            held["declared, scale fitted"][test] = predict(x[test], declared, rescaled, seat)
        except FitError:  # the declared weights point the wrong way here: no scale helps
            held["declared, scale fitted"][test] = y[train].mean()
        w, seat = fit_terms(x[train], y[train], scale)
        held["fitted"][test] = predict(x[test], np.round(w), scale, seat)
        held["base rate"][test] = y[train].mean()
    return {name: {"log_loss": log_loss(p, y), "brier": brier(p, y)} for name, p in held.items()}


def bootstrap(x, y, games, scale: float, resamples: int, seed: int):
    """The 2.5% and 97.5% percentiles of each fitted weight (and of the seat
    term, last) over RESAMPLES resamples of whole games (a game's positions
    move together: they share its outcome), and how many resamples could
    not be fitted."""
    import numpy as np

    rng = np.random.default_rng(seed)
    distinct = np.unique(games)
    rows_of = {g: np.flatnonzero(games == g) for g in distinct}
    columns = np.flatnonzero(x.std(axis=0) > 0)
    fitted, failed = [], 0
    for _ in range(resamples):
        pick = np.concatenate([rows_of[g] for g in rng.choice(distinct, size=len(distinct))])
        try:
            w, seat = fit_terms(x[pick], y[pick], scale, columns)
        except FitError:
            failed += 1
            continue
        fitted.append(np.append(w, seat))
    if not fitted:
        return None, failed
    return np.percentile(np.array(fitted), [2.5, 97.5], axis=0), failed


def fit_records(records: list[dict], terms: list[tuple[str, int]], sides: list[str], scale: float, *,
                declared_scale: float | None = None, folds: int = FOLDS, resamples: int = BOOTSTRAP,
                seed: int = 0) -> dict:
    """The fit of TERMS' weights (name, declared weight) to the outcomes of
    RECORDS (results with "terms_by_turn", sim.play_random), on SCALE (the
    declared evaluation_scale, DECLARED_SCALE, unless another is asked):
    each term's declared, fitted (exact and whole) weight and 95% bootstrap
    interval, and the held-out scores of the declared and fitted weights.
    Raises FitError when the fit is undefined."""
    import numpy as np

    if len(sides) != 2:
        raise FitError(f"the fit needs a scenario of two playing sides, not {len(sides)}")
    if not terms:
        raise FitError("the scenario declares no evaluation term (`term NAME(p) weight W cites ... = ...`)")
    declared_scale = scale if declared_scale is None else declared_scale
    x, y, games = positions(records, sides)
    wins = {side: sum(1 for r in records if not r.get("error") and r.get("winner") == side) for side in sides}
    if not sum(wins.values()):
        raise FitError(f"none of the {len(records)} games was won by a side: the fit needs decisive games")
    decisive = len(np.unique(games))
    if not decisive:
        raise FitError("no decisive game recorded a position: each ended before its first turn did")
    if x.shape[1] != len(terms):
        raise FitError(f"the records hold {x.shape[1]} terms, the scenario declares {len(terms)}: "
                       "they were recorded with other sources")
    exact, seat = fit_terms(x, y, scale)
    try:
        declared_best_scale, _ = best_scale(x, y, np.array([w for _, w in terms], dtype=float), declared_scale)
    except FitError:
        declared_best_scale = None
    interval, failed = bootstrap(x, y, games, scale, resamples, seed)
    varies = x.std(axis=0) > 0
    # the declared weights, put on the fit's scale, for the held-out comparison
    declared = np.array([w for _, w in terms], dtype=float) * scale / declared_scale
    table = []
    for i, (name, weight) in enumerate(terms):
        row = {"term": name, "declared": weight, "identified": bool(varies[i])}
        if varies[i]:
            row.update(fitted=int(round(exact[i])), exact=round(float(exact[i]), 3))
            if interval is not None:
                row.update(low=round(float(interval[0][i]), 3), high=round(float(interval[1][i]), 3))
        else:  # never differed between the sides: the games say nothing of it, the declared weight stays
            row.update(fitted=int(round(declared[i])), exact=None)
        table.append(row)
    folds = min(folds, decisive)
    held_out, why = None, None
    if folds >= 2:
        try:
            held_out = cross_validate(x, y, games, declared, scale, folds, seed)
        except FitError as err:
            why = f"a fold's training games cannot be fitted: {err}"
    else:
        why = "cross-validation needs at least 2 decisive games"
    seat_row = {"logit": round(seat, 3), "low": None, "high": None}
    if interval is not None:
        seat_row.update(low=round(float(interval[0][-1]), 3), high=round(float(interval[1][-1]), 3))
    return {"sides": sides, "games": len(records), "decisive": decisive, "wins": wins, "positions": int(len(y)),
            "scale": scale, "declared_scale": declared_scale, "terms": table, "seat": seat_row,
            "resamples": resamples, "resamples_failed": failed, "folds": folds, "held_out": held_out,
            "held_out_missing": why, "declared_best_scale": declared_best_scale, "seed": seed}


def fragment(scenario: str, title: str, cites: list[str], fit: dict, scale_cites: list[str] | None = None) -> str:
    """A scenario extending SCENARIO with the fitted weights, as `.pog`
    source: an `edit term NAME weight N` line for each term whose weight
    changes (and the scale, when the fit was on another)."""
    title = title.replace('"', "'")  # (a title is a plain string in the source)
    lines = [f"# The evaluation's term weights fitted to {fit['decisive']} decisive games ({fit['positions']} "
             f"positions) by `pogdsl fit-evaluation`.",
             f"scenario {scenario}_fitted \"{title}, evaluation fitted\" extends {scenario} cites "
             f"{', '.join(cites)} {{"]
    rescaled = fit["scale"] != fit["declared_scale"]  # then every weight is written, on the new scale
    changed = [row for row in fit["terms"] if rescaled or row["fitted"] != row["declared"]]
    lines += [f"  edit term {row['term']} weight {row['fitted']}" for row in changed]
    if rescaled:
        lines.append(f"  replace value evaluation_scale cites {', '.join(scale_cites or cites)} = "
                     f"{int(fit['scale'])}")
        lines.append('    "The lead in weighted terms that makes a win about e times as likely as a loss, on the '
                     'scale the weights were fitted on."')
    lines.append("}")
    return "\n".join(lines) + "\n"
