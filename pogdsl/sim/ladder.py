"""A ladder: every pairing of some players, each on both sides, on the same
seeds; the score of each player against each other with its interval, a
rating for each (Bradley–Terry, on the Elo scale) with its interval, and the
seat bias — how much of a side's win rate comes from the side, not the
player.

Scoring: a win is 1, a loss 0, and a game with no winner (a draw, or a
declared result no side wins, `both_lose`) ½ to each player.  Failed games
are left out (and counted).

The rating model (Bradley–Terry with a side term, fitted by maximum
likelihood): the player on the first side scores against the player on the
second with probability σ(r_first − r_second + h), σ the logistic function,
r a player's rating and h the first side's advantage.  A draw counts as half
a win in the likelihood.  The first player listed is the anchor (rating 0):
a rating says how much stronger a player is than it.  The intervals come from
the Fisher information (the inverse of the log-likelihood's Hessian at its
maximum).  A player who wins every game would have an infinite rating, so
the fit adds one virtual drawn game between each two players and one for
the side term (the prior BayesElo uses): ratings stay finite and in order,
and the virtual games weigh little once real games number in the tens.
Ratings are shown on the Elo scale (400/ln 10 points a logit: a 200-point
lead is a 76% expected score).

Seat bias is shown three ways: the model's side term h (the first side's
expected score between equal players), each player's self-play games (the
same player on both sides: whatever one side wins more is the side's), and
the first side's score over all games.
"""

from __future__ import annotations

import math
import time

from .stats import Z95, wilson

ELO_PER_LOGIT = 400 / math.log(10)
VIRTUAL_DRAWS = 1.0  # virtual drawn games between each two players, and for the side term


class LadderError(Exception):
    """A ladder that cannot be played as asked (a one-line message)."""


def points(result: dict, side: str) -> float:
    """What a finished game scores for SIDE: 1 a win, 0 a loss, ½ no winner."""
    winner = result.get("winner")
    return 0.5 if winner is None else float(winner == side)


def same_player_twice(players: list[str]) -> str | None:
    """The one-line message when PLAYERS name one player twice, by the same
    spec or two spellings of it (agents.player_identity), or None."""
    from ..agents import player_identity

    seen: dict[str, str] = {}
    for spec in players:
        identity = player_identity(spec)
        first = seen.get(identity)
        if first is not None:
            same = "twice" if first == spec else f"twice: {first} and {spec} are one player ({identity})"
            return f"--players names a player {same}"
        seen[identity] = spec
    return None


def pairings(players: list[str]) -> list[tuple[str, str]]:
    """Every ordered pairing (first side's player, second side's), self-play
    included: each player meets each other on both sides."""
    return [(a, b) for a in players for b in players]


def play_ladder(spec: str, players: list[str], *, games: int, seed: int, root=None, workers: int | None = None,
                options: dict[str, str] | None = None, max_steps: int | None = None,
                max_decisions: int | None = None, progress=None, on_pairing=None) -> dict:
    """Play every pairing of `players` on SPEC's two sides, `games` games
    each on the seeds of `simulate --seed SEED` (the same seeds for every
    pairing), and summarise them (`summarise_ladder`).  `progress(n)` is
    called as games finish, `on_pairing(pairing)` as each pairing ends.
    Ctrl-C stops the ladder within about a second: the summary is of the
    pairings finished so far (and the one stopped), with "interrupted"."""
    from ..opening import open_scenario
    from . import DEFAULT_MAX_DECISIONS, simulate

    opened = open_scenario(spec, root, options=options)
    sides = [s.key for s in opened.world.sides]
    if len(sides) != 2:
        raise LadderError(f"a ladder pairs players on two sides; {spec} has {len(sides)} ({', '.join(sides)})")
    if len(players) < 2:
        raise LadderError("a ladder needs at least two different players (--players A,B[,C...])")
    twice = same_player_twice(players)
    if twice:
        raise LadderError(twice)
    start = time.perf_counter()
    played, interrupted = [], False
    for first, second in pairings(players):
        try:
            summary = simulate(spec, games=games, seed=seed, root=root, workers=workers, max_steps=max_steps,
                               max_decisions=max_decisions or DEFAULT_MAX_DECISIONS, progress=progress,
                               options=options, agents={sides[0]: first, sides[1]: second})
        except KeyboardInterrupt:  # between two pairings (simulate itself stops within a pairing)
            interrupted = True
            break
        pairing = {"players": {sides[0]: first, sides[1]: second}, "games": summary["games"],
                   "finished": summary["finished"], "failed": summary["failed"],
                   "outcomes": {k: v for k, v in summary["results"].items()},
                   "points": _first_points(summary, sides), "decisions": summary["decisions"],
                   "failures": summary["failures"][:5]}
        played.append(pairing)
        if on_pairing:
            on_pairing(pairing)
        if summary.get("interrupted"):
            interrupted = True
            break
    out = summarise_ladder(players, sides, played)
    out.update(scenario=spec, seed=seed, games_a_pairing=games, options=opened.options_text(),
               seconds=round(time.perf_counter() - start, 3), interrupted=interrupted)
    return out


class RecordsRead:
    """The games of some `simulate --out` files, as a ladder's pairings:
    one pairing for each pair of players (first side's, second side's),
    joining the files that hold parts of it (`simulate --first`).  A player
    is known by its identity (agents.player_identity), so the records of
    `ismcts:16:::2` and of `ismcts:16:40:0:2` are one player's, named as the
    first record read names it."""

    def __init__(self, scenario: str, sides: list[str], options: dict[str, str]):
        self.scenario, self.sides, self.options = scenario, sides, options
        self.pairings: dict[tuple[str, str], dict] = {}  # by the players' identities
        self.names: dict[str, str] = {}  # identity → the name first read
        self.seen: dict[tuple[str, str, int], str] = {}  # (players, seed) → where it was read first
        self.run_seeds: set = set()
        self.records = 0

    def add(self, rec: dict, where: str) -> None:
        """Count one record (read at WHERE, "FILE record N")."""
        from ..agents import player_identity

        players = rec.get("players") or {}
        if any(side not in players for side in self.sides):  # (records.py has checked they are texts)
            raise LadderError(f"{where}: the record does not say who played each side ({', '.join(self.sides)}); "
                              "records written by `simulate` before it recorded its players cannot be laddered")
        named = (players[self.sides[0]], players[self.sides[1]])
        pair = (player_identity(named[0]), player_identity(named[1]))
        for identity, name in zip(pair, named):
            self.names.setdefault(identity, name)
        game = (*pair, rec["seed"])
        if game in self.seen:
            raise LadderError(f"{where}: the game of seed {rec['seed']} between {named[0]} and {named[1]} is already "
                              f"in {self.seen[game]}: a game counts once (do the files overlap?)")
        self.seen[game] = where
        self.records += 1
        self.run_seeds.add(rec.get("run_seed"))
        p = self.pairings.get(pair)
        if p is None:
            p = self.pairings[pair] = {
                "players": {self.sides[0]: pair[0], self.sides[1]: pair[1]}, "games": 0, "finished": 0,
                "failed": 0, "outcomes": {self.sides[0]: 0, self.sides[1]: 0, "draw": 0}, "points": 0.0,
                "decisions": 0, "failures": []}
        p["games"] += 1
        p["decisions"] += rec["decisions"]
        if rec["error"] is not None:
            p["failed"] += 1
            if len(p["failures"]) < 5:
                p["failures"].append({"seed": rec["seed"], "error": rec["error"]})
            return
        p["finished"] += 1
        winner = rec["winner"]
        key = winner if winner in p["outcomes"] and winner != "draw" else "draw"
        p["outcomes"][key] += 1
        p["points"] += points(rec, self.sides[0])

    def players(self) -> list[str]:
        """Every player met, by the name first read, in the order first met."""
        seen: dict[str, None] = {}
        for first, second in self.pairings:
            seen.setdefault(self.names[first])
            seen.setdefault(self.names[second])
        return list(seen)


def ladder_of_records(read: RecordsRead, players: list[str] | None = None) -> dict:
    """The ladder of the games READ: of PLAYERS only, in that order (the
    first the ratings' anchor) and by those names, when given (any spelling
    of a player finds its games); else of every player met, in the order
    first met.  Pairings of a player not in PLAYERS are left out (and
    counted); a pairing with no game shows no score."""
    from ..agents import player_identity

    if players:
        twice = same_player_twice(players)
        if twice:
            raise LadderError(twice)
    chosen = players or read.players()
    if len(chosen) < 2:
        raise LadderError("the records hold games of one player only: a ladder needs at least two")
    shown = {player_identity(name): name for name in chosen}
    kept = [{**p, "players": {side: shown[who] for side, who in p["players"].items()}}
            for (a, b), p in read.pairings.items() if a in shown and b in shown]
    left_out = sum(p["games"] for (a, b), p in read.pairings.items() if a not in shown or b not in shown)
    order = {p: i for i, p in enumerate(chosen)}
    kept.sort(key=lambda p: (order[p["players"][read.sides[0]]], order[p["players"][read.sides[1]]]))
    out = summarise_ladder(chosen, read.sides, kept)
    sizes = sorted({p["games"] for p in kept})
    seeds = read.run_seeds - {None}
    out.update(scenario=read.scenario, options=read.options, games_a_pairing=sizes[0] if len(sizes) == 1 else None, pairing_sizes=sizes,
               seed=seeds.pop() if len(seeds) == 1 and None not in read.run_seeds else None,
               records=read.records, left_out=left_out, seconds=None, interrupted=False)
    return out


def _first_points(summary: dict, sides: list[str]) -> float:
    """The first side's points over a pairing's finished games."""
    first = summary["results"].get(sides[0], 0)
    second = summary["results"].get(sides[1], 0)
    return first + 0.5 * (summary["finished"] - first - second)


# ------------------------------------------------------------------ summary
def summarise_ladder(players: list[str], sides: list[str], played: list[dict]) -> dict:
    """The matrix, ratings and seat bias of the pairings played: each a dict
    {"players": {side: spec}, "finished", "points" (the first side's)...}."""
    return {"players": list(players), "sides": list(sides), "pairings": played,
            "games": sum(p["games"] for p in played), "finished": sum(p["finished"] for p in played),
            "failed": sum(p["failed"] for p in played),
            "matrix": score_matrix(players, sides, played),
            "ratings": bradley_terry(players, sides, played),
            "seat_bias": seat_bias(players, sides, played)}


def _interval(k: float, n: int) -> dict:
    low, high = wilson(k, n)
    return {"points": k, "games": n, "rate": round(k / n, 4) if n else None,
            "low": round(low, 4), "high": round(high, 4)}


def score_matrix(players: list[str], sides: list[str], played: list[dict]) -> dict:
    """row player → column player → the row player's score against the
    column player over both sides ({"points", "games", "rate", "low",
    "high"}, a 95% Wilson interval); self-play is left out."""
    tally = {a: {b: [0.0, 0] for b in players if b != a} for a in players}
    for p in played:
        first, second = p["players"][sides[0]], p["players"][sides[1]]
        if first == second:
            continue
        tally[first][second][0] += p["points"]
        tally[first][second][1] += p["finished"]
        tally[second][first][0] += p["finished"] - p["points"]
        tally[second][first][1] += p["finished"]
    return {a: {b: _interval(k, n) for b, (k, n) in row.items()} for a, row in tally.items()}


def bradley_terry(players: list[str], sides: list[str], played: list[dict]) -> dict:
    """Each player's rating on the Elo scale (the first player 0) with its
    95% interval, and the first side's advantage, fitted by maximum
    likelihood (scipy.optimize) with a virtual draw between each two players
    and one for the side term.  {"players": {spec: {"elo", "low", "high",
    "se"}}, "side": {"elo", "low", "high", "se", "expected", "expected_low",
    "expected_high"}} — "expected" is the first side's expected score
    between equal players."""
    import numpy as np
    from scipy.optimize import minimize

    k = len(players)
    index = {p: i for i, p in enumerate(players)}
    rows, wins, counts = [], [], []  # each: a design row (ratings 1..k-1, side), points, games

    def design(first: int | None, second: int | None, side: float) -> np.ndarray:
        x = np.zeros(k)  # [r_1 .. r_{k-1}, h]; r_0 is the anchor
        if first:
            x[first - 1] += 1.0
        if second:
            x[second - 1] -= 1.0
        x[k - 1] = side
        return x

    for p in played:
        if p["finished"]:
            rows.append(design(index[p["players"][sides[0]]], index[p["players"][sides[1]]], 1.0))
            wins.append(p["points"])
            counts.append(p["finished"])
    for i in range(k):
        for j in range(i + 1, k):
            rows.append(design(i, j, 0.0))
            wins.append(VIRTUAL_DRAWS / 2)
            counts.append(VIRTUAL_DRAWS)
    rows.append(design(None, None, 1.0))
    wins.append(VIRTUAL_DRAWS / 2)
    counts.append(VIRTUAL_DRAWS)
    x, s, n = np.array(rows), np.array(wins), np.array(counts)

    def negative_log_likelihood(theta):
        d = x @ theta
        # log σ(d) and log(1 − σ(d)), written to stay finite for large |d|
        return -float(np.sum(-s * np.logaddexp(0.0, -d) - (n - s) * np.logaddexp(0.0, d)))

    def gradient(theta):
        p = 1.0 / (1.0 + np.exp(-(x @ theta)))
        return -(x.T @ (s - n * p))

    def hessian(theta):
        p = 1.0 / (1.0 + np.exp(-(x @ theta)))
        return (x.T * (n * p * (1 - p))) @ x

    fit = minimize(negative_log_likelihood, np.zeros(k), jac=gradient, hess=hessian, method="trust-exact")
    theta = fit.x
    covariance = np.linalg.inv(hessian(theta))
    se = np.sqrt(np.maximum(np.diag(covariance), 0.0))

    def on_elo(value: float, error: float) -> dict:
        return {"elo": round(value * ELO_PER_LOGIT, 1), "se": round(error * ELO_PER_LOGIT, 1),
                "low": round((value - Z95 * error) * ELO_PER_LOGIT, 1),
                "high": round((value + Z95 * error) * ELO_PER_LOGIT, 1)}

    ratings = {players[0]: {"elo": 0.0, "se": 0.0, "low": 0.0, "high": 0.0}}
    for i in range(1, k):
        ratings[players[i]] = on_elo(theta[i - 1], se[i - 1])
    h, h_se = theta[k - 1], se[k - 1]
    side = on_elo(h, h_se)
    side.update(expected=round(_logistic(h), 4), expected_low=round(_logistic(h - Z95 * h_se), 4),
                expected_high=round(_logistic(h + Z95 * h_se), 4))
    return {"players": ratings, "side": side, "anchor": players[0], "converged": bool(fit.success)}


def _logistic(v: float) -> float:
    return 1.0 / (1.0 + math.exp(-v))


def seat_bias(players: list[str], sides: list[str], played: list[dict]) -> dict:
    """The first side's score in each player's self-play games and over all
    games, each with its 95% Wilson interval."""
    own = {}
    total_points = total_games = 0
    for p in played:
        total_points += p["points"]
        total_games += p["finished"]
        first, second = p["players"][sides[0]], p["players"][sides[1]]
        if first == second and p["finished"]:
            own[first] = _interval(p["points"], p["finished"])
    return {"side": sides[0], "self_play": own,
            "all_games": _interval(total_points, total_games) if total_games else None}
