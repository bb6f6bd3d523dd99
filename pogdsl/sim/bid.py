"""The tournament bid (5.6.1): the VP one side gives the other at the end of
the game that brings the two sides closest to even, with its interval.

A scenario takes a bid through two options — the side that won the bid and
the VP it gives away — that the rule set `tournament_bid`
(scenarios/tournament.pog) declares and reads only where the end of the
game is counted (`final_vp`).  A scenario that declares them itself is
played as it is; another is played as `SCENARIO+tournament_bid`.

A bid is written as a signed number of VP: +b the first side gives b VP,
-b the second side does, 0 no bid.  Each bid is played on the same seeds
(`simulate --seed`), and scored by the first side's score — its wins, plus
half of the games no side won, over the finished games — with its 95%
Wilson interval; even is ½.  The walk starts at no bid and steps toward the
side the games favour while the score stays on the same side of ½; the bid
closest to even is the one whose score is nearest ½.  It then goes on
outward on both sides of that bid while the score's interval still holds ½:
the bids it holds are the interval of the bid (those the games cannot tell
from even), its ends the first bids the games show unbalanced, or the
option's range.

Why play each bid again rather than rescore recorded games: the bid counts
only at the end, but a player may read it (its evaluation may weigh the
VP the end of the game counts), so only a game played with the bid is
that bid's game; and rescoring would need Python to know where the
scenario's VP levels lie (they are `.pog` procedures: 11 or 13 VP in the
Historical scenario, depending on an event), which Python must not.  The
cost is a few runs instead of one: the walk plays each bid once, typically
three to five bids.  Players that do not read the bid play the same games
on the same seeds, so the bids' scores differ only by the games the bid
turns (paired, nearly noiseless); each bid reports how many of its games
went otherwise than with no bid (another length or VP course), which says
whether the players read it.
"""

from __future__ import annotations

from .stats import wilson

BID_RULESET = "tournament_bid"  # the rule set that adds the options (scenarios/tournament.pog)
BID_SIDE = "bid_side"  # its option: the side that won the bid (none: no bid)
BID_VP = "vp_bid"  # its option: the VP that side gives the other at the end


class BidError(Exception):
    """A scenario that takes no bid (a one-line message)."""


def bid_scenario(spec: str, root=None, options: dict | None = None):
    """The scenario that takes the bid, opened: SPEC when it declares both
    options, else SPEC+tournament_bid.  Returns (spec played, opened, the
    side option's declaration, the VP option's)."""
    from ..errors import UsageError
    from ..opening import open_scenario

    tried = []
    for candidate in (spec, f"{spec}+{BID_RULESET}" if "+" not in spec.split(" without ")[0]
                      else spec.replace(" without ", f"+{BID_RULESET} without ", 1)):
        try:
            opened = open_scenario(candidate, root, options=options)
        except UsageError as err:
            tried.append(str(err))
            continue
        declared = {o.name.text: o for o in opened.world.scenario.options}
        if BID_SIDE in declared and BID_VP in declared:
            return candidate, opened, declared[BID_SIDE], declared[BID_VP]
    raise BidError(f"{spec} takes no tournament bid: it declares no options {BID_SIDE} and {BID_VP}, and the rule "
                   f"set {BID_RULESET} cannot be applied to it" + (f" ({tried[-1]})" if tried else ""))


def bid_options(bid: int, sides: list[str]) -> dict[str, str]:
    """The options of a signed bid: +b the first side gives b VP, -b the second."""
    if bid == 0:
        return {BID_SIDE: "none", BID_VP: "0"}
    return {BID_SIDE: sides[0] if bid > 0 else sides[1], BID_VP: str(abs(bid))}


def describe_bid(bid: int, titles: dict[str, str], sides: list[str]) -> str:
    if bid == 0:
        return "no bid"
    side = sides[0] if bid > 0 else sides[1]
    return f"{titles.get(side, side)} give {abs(bid)} VP"


def score(summary: dict, sides: list[str]) -> dict:
    """The first side's score over a run's finished games, with its 95%
    Wilson interval: {"points", "games", "rate", "low", "high"}."""
    n = summary["finished"]
    first = summary["results"].get(sides[0], 0)
    second = summary["results"].get(sides[1], 0)
    k = first + 0.5 * (n - first - second)
    low, high = wilson(k, n)
    return {"points": k, "games": n, "rate": round(k / n, 4) if n else None, "low": round(low, 4),
            "high": round(high, 4)}


def holds_even(s: dict) -> bool:
    return s["games"] > 0 and s["low"] <= 0.5 <= s["high"]


def walk(measure, low: int, high: int) -> tuple[int, dict[int, dict]]:
    """The bid closest to even and every bid measured, by `measure(bid)` →
    the first side's score (`score`), within low..high.  Steps from 0 toward
    even, then outward from the best bid while the score's interval holds
    ½ (see the module's note)."""
    seen: dict[int, dict] = {}

    def at(bid: int) -> dict:
        if bid not in seen:
            seen[bid] = measure(bid)
        return seen[bid]

    bid = 0
    first = at(0)
    if first["games"] and first["rate"] != 0.5:
        step = 1 if first["rate"] > 0.5 else -1  # the first side favoured: it should give VP
        while low <= bid + step <= high:
            nxt = at(bid + step)
            bid += step
            if not nxt["games"] or (nxt["rate"] - 0.5) * (first["rate"] - 0.5) <= 0:
                break
    best = min(seen, key=lambda b: (abs(seen[b]["rate"] - 0.5) if seen[b]["games"] else 1.0, abs(b)))
    for step in (1, -1):
        b = best
        while low <= b + step <= high and holds_even(at(b)):
            b += step
            at(b)
    return best, seen


def interval_of(best: int, seen: dict[int, dict], low: int, high: int) -> dict:
    """The bids around the best one whose score's interval holds even, and
    whether each end is the option's limit (the interval may go further)."""
    lo = hi = best
    while lo - 1 in seen and holds_even(seen[lo - 1]):
        lo -= 1
    while hi + 1 in seen and holds_even(seen[hi + 1]):
        hi += 1
    return {"low": lo, "high": hi, "low_is_limit": lo == low and holds_even(seen[lo]),
            "high_is_limit": hi == high and holds_even(seen[hi])}


def played_otherwise(results: list[dict], baseline: dict[int, dict]) -> int:
    """How many games went otherwise than the same seed's game with no bid:
    another number of decisions or another VP course."""
    n = 0
    for r in results:
        other = baseline.get(r["seed"])
        if other is not None and (r["decisions"], r.get("vp_by_turn")) != (other["decisions"],
                                                                           other.get("vp_by_turn")):
            n += 1
    return n


def find_bid(spec: str, *, games: int, seed: int, root=None, workers: int | None = None,
             options: dict | None = None, agents: dict | None = None, progress=None) -> dict:
    """Play the walk of bids on SPEC (see the module's note) and summarise it."""
    from . import simulate

    played_spec, opened, side_option, vp_option = bid_scenario(spec, root, options)
    sides = [s.key for s in opened.world.sides]
    if len(sides) != 2:
        raise BidError(f"a bid is between two sides; {spec} has {len(sides)}")
    titles = {s.key: str(getattr(s.data.title, "text", s.data.title) or s.key) for s in opened.world.sides}
    low, high = -(vp_option.high or 0), vp_option.high or 0
    allowed = {n.text for n in side_option.names}
    if sides[0] not in allowed:
        low = 0
    if sides[1] not in allowed:
        high = 0
    low, high = min(low, high), max(low, high)
    runs: dict[int, dict] = {}
    baseline: dict[int, dict] = {}
    stopped = []

    def measure(bid: int) -> dict:
        if stopped:
            return {"points": 0, "games": 0, "rate": None, "low": 0.0, "high": 1.0}
        results: list[dict] = []
        given = {**(options or {}), **bid_options(bid, sides)}
        summary = simulate(played_spec, games=games, seed=seed, root=root, workers=workers, options=given,
                           agents=agents, progress=progress, on_results=results.extend)
        if bid == 0:
            baseline.update({r["seed"]: r for r in results})
        s = score(summary, sides)
        runs[bid] = {"bid": bid, "text": describe_bid(bid, titles, sides), "options": bid_options(bid, sides),
                     "results": summary["results"], "finished": summary["finished"], "failed": summary["failed"],
                     "score": s, "played_otherwise": played_otherwise(results, baseline) if bid else 0,
                     "agents": summary.get("agents")}
        if summary.get("interrupted"):
            stopped.append(bid)
            return {"points": 0, "games": 0, "rate": None, "low": 0.0, "high": 1.0}
        return s

    try:
        best, seen = walk(measure, low, high)
    except KeyboardInterrupt:
        stopped.append(None)
        best, seen = None, {}
    measured = [runs[b] for b in sorted(runs)]
    out = {"scenario": spec, "played_as": played_spec, "seed": seed, "games": games, "sides": sides,
           "titles": titles, "agents": measured[0]["agents"] if measured else dict(agents or {}),
           "range": [low, high], "bids": measured, "interrupted": bool(stopped)}
    if best is not None and not stopped:
        out["best"] = {"bid": best, "text": describe_bid(best, titles, sides), "score": runs[best]["score"],
                       "interval": interval_of(best, seen, low, high)}
    return out
