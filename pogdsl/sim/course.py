"""How the games went, for a designer: who won by the turn a game ended
and by how it ended, how early the VP track foretold the winner, how often
the lead changed hands, and the VP over turns of the games each side won.

Everything is read from per-game results or records (sim.play_random,
sim/records.py): "winner", "result", "reason", "turn", "final_vp",
"vp_by_turn" (the VP at the end of each turn played, the first turn first)
and "error" (failed games are left out).  Nothing here knows a game: which
side the VP track favours, and where on it neither side is ahead, are read
from the games themselves (`break_even`).
"""

from __future__ import annotations

from collections import Counter

from .stats import distribution, proportion


def outcome(result: dict) -> str:
    """How a finished game ended: the winning side, else the declared result
    it ended as (`both_lose`), else "draw"."""
    return result.get("winner") or result.get("result") or "draw"


def outcomes_in_order(results: list[dict], sides: list[str]) -> list[str]:
    """The sides, "draw", then every other outcome the games had."""
    seen = {outcome(r) for r in results}
    return list(sides) + ["draw"] + sorted(seen - set(sides) - {"draw"})


def by_end_turn(results: list[dict], sides: list[str]) -> list[dict]:
    """For each turn a finished game ended on, in turn order: {"turn",
    "games", "outcomes": {outcome: count}} (every side and "draw" listed,
    with 0 when none)."""
    names = outcomes_in_order(results, sides)
    counts: dict[int, Counter] = {}
    for r in results:
        if r.get("turn") is not None:
            counts.setdefault(r["turn"], Counter())[outcome(r)] += 1
    return [{"turn": t, "games": sum(c.values()), "outcomes": {k: c.get(k, 0) for k in names}}
            for t, c in sorted(counts.items())]


def by_reason(results: list[dict], sides: list[str]) -> dict[str, dict]:
    """For each way the games ended (its reason as the rules say it):
    {"games", "outcomes": {outcome: count}}."""
    names = outcomes_in_order(results, sides)
    counts: dict[str, Counter] = {}
    for r in results:
        counts.setdefault(r.get("reason") or "", Counter())[outcome(r)] += 1
    return {k: {"games": sum(c.values()), "outcomes": {n: c.get(n, 0) for n in names}}
            for k, c in sorted(counts.items())}


def turn_bands(results: list[dict], bands: list[tuple[str, int | None, int | None]]) -> dict[str, dict]:
    """The share of the finished games that ended in each band of turns,
    given as (label, first turn or None, last turn or None), each with its
    95% Wilson interval: {label: {"count", "rate", "low", "high"}}."""
    turns = [r["turn"] for r in results if r.get("turn") is not None]
    out = {}
    for label, low, high in bands:
        n = sum(1 for t in turns if (low is None or t >= low) and (high is None or t <= high))
        out[label] = proportion(n, len(turns)) if turns else {"count": 0, "rate": None, "low": 0.0, "high": 1.0}
    return out


def break_even(results: list[dict], sides: list[str]) -> dict | None:
    """Where on the VP track neither side is ahead, read from the games:
    the side whose wins end on the higher VP ("high"; the other is "low"),
    and the cut (a half-point, so no VP is on it) that best parts the final
    VP of the two sides' wins — the middle one of the cuts that misplace the
    fewest games.  None without wins of both sides that carry a final VP."""
    if len(sides) != 2:
        return None
    finals = {s: [r["final_vp"] for r in results if r.get("winner") == s and r.get("final_vp") is not None]
              for s in sides}
    if not all(finals.values()):
        return None
    mean = {s: sum(v) / len(v) for s, v in finals.items()}
    high, low = sorted(sides, key=lambda s: -mean[s])
    values = finals[high] + finals[low]
    cuts = [k + 0.5 for k in range(min(values) - 1, max(values) + 1)]
    misplaced = [sum(v <= c for v in finals[high]) + sum(v > c for v in finals[low]) for c in cuts]
    fewest = min(misplaced)
    best = [c for c, m in zip(cuts, misplaced) if m == fewest]
    return {"high": high, "low": low, "cut": best[len(best) // 2], "misplaced": fewest,
            "games": len(values)}


def leaders(vp_by_turn: list[int], even: dict) -> list[str]:
    """The side ahead on the VP track at the end of each turn."""
    return [even["high"] if v > even["cut"] else even["low"] for v in vp_by_turn]


def vp_course(results: list[dict], sides: list[str]) -> dict | None:
    """Decisiveness and lead changes from the VP at the end of each turn,
    with the side ahead read against `break_even`:

    - "break_even": that cut and the side above it;
    - "lead_changes": the distribution of how many times a game's lead
      changed hands (games with VP by turn);
    - "decided_turn": the distribution of the turn from which the winner
      led to the end (decisive games; a winner who was behind on the last
      turn — it won by another way — has none, and is counted in
      "won_from_behind");
    - "leader_wins": for each turn, of the decisive games that reached it,
      the share won by the side then ahead ({"turn", "count", "rate",
      "low", "high"}): how well the VP at that turn foretells the winner.

    None when `break_even` is (no wins of both sides)."""
    even = break_even(results, sides)
    if even is None:
        return None
    changes, decided, behind = [], [], 0
    foretold: dict[int, list[int]] = {}  # turn → [games, the leader won]
    for r in results:
        track = r.get("vp_by_turn") or []
        if not track:
            continue
        ahead = leaders(track, even)
        changes.append(sum(1 for a, b in zip(ahead, ahead[1:]) if a != b))
        winner = r.get("winner")
        if winner not in sides:
            continue
        for t, side in enumerate(ahead, start=1):
            seen = foretold.setdefault(t, [0, 0])
            seen[0] += 1
            seen[1] += side == winner
        if ahead[-1] != winner:
            behind += 1
            continue
        t = len(ahead)
        while t > 1 and ahead[t - 2] == winner:
            t -= 1
        decided.append(t)
    return {"break_even": even, "lead_changes": distribution(changes), "decided_turn": distribution(decided),
            "won_from_behind": behind,
            "leader_wins": [{"turn": t, **proportion(k, n)} for t, (n, k) in sorted(foretold.items())]}


def vp_by_winner(results: list[dict], sides: list[str]) -> dict[str, dict]:
    """The VP trajectory split by outcome: for each outcome (each side's
    wins, draws...), {"games", "mean": [mean VP at the end of turn 1, 2...],
    "count": [games that reached that turn]}; the means are of the games of
    that outcome that played the turn."""
    out = {}
    for name in outcomes_in_order(results, sides):
        tracks = [r["vp_by_turn"] for r in results if outcome(r) == name and r.get("vp_by_turn")]
        if not tracks:
            continue
        longest = max(len(t) for t in tracks)
        means, counts = [], []
        for i in range(longest):
            at = [t[i] for t in tracks if len(t) > i]
            means.append(round(sum(at) / len(at), 3))
            counts.append(len(at))
        out[name] = {"games": len(tracks), "mean": means, "count": counts}
    return out


def course_summary(results: list[dict], sides: list[str]) -> dict:
    """The four of them for a summary, of the finished games in `results`."""
    done = [r for r in results if r.get("error") is None]
    return {"by_end_turn": by_end_turn(done, sides), "by_reason": by_reason(done, sides),
            "vp_course": vp_course(done, sides), "vp_by_winner": vp_by_winner(done, sides)}
