"""Calibration against people: computer games of the Historical scenario
beside the human tournament figures of issue 31 (WBC 2023, Historical
scenario, 27 games: the Central Powers won 15, the Allies 12; 15 games ended
before turn 10, 4 after turn 15).

Plays N games (the seeds `pogdsl simulate historical --games N --seed S`
uses, so the games are the same) with the players given, or reads saved
records (`--records FILE`, from `simulate --out`), and prints, for the
computer games and for the people: each side's win rate, and the share of
games that ended before turn 10, on turns 10 to 15, and after turn 15 —
each with its 95% Wilson interval — and the difference, computer minus
people, with Newcombe's interval and whether it is significant.
`--rst` prints the rows of the table in docs/balance.rst.

    python benchmarks/calibration.py [--games N] [--seed S] [--ap SPEC --cp SPEC] [--workers W]
    python benchmarks/calibration.py --records games.jsonl [--rst]

About a second a random game on one core; a heuristic player's game costs
what its decisions cost (docs/players.rst).
"""

from __future__ import annotations

import argparse
import sys

from pogdsl.sim.course import turn_bands
from pogdsl.sim.stats import newcombe, proportion

# WBC 2023, the Historical scenario (issue 31): 27 games
PEOPLE = {"games": 27, "wins": {"cp": 15, "ap": 12},
          "bands": {"before turn 10": 15, "turns 10 to 15": 27 - 15 - 4, "after turn 15": 4}}
BANDS = [("before turn 10", None, 9), ("turns 10 to 15", 10, 15), ("after turn 15", 16, None)]


def computer_games(args) -> tuple[list[dict], dict]:
    """The finished games' results and who played them."""
    if args.records:
        from pogdsl.sim.records import read_records

        records = read_records(args.records)
        return [r for r in records if r["error"] is None], records[0].get("players") or {}
    from pogdsl.sim import simulate

    results: list[dict] = []
    agents = {k: v for k, v in (("ap", args.ap), ("cp", args.cp)) if v}
    summary = simulate(args.scenario, games=args.games, seed=args.seed, workers=args.workers, agents=agents,
                       on_results=results.extend)
    if summary["failed"]:
        print(f"({summary['failed']} games failed, left out)", file=sys.stderr)
    return [r for r in results if r["error"] is None], summary["agents"]


def rows(finished: list[dict]) -> list[dict]:
    """Each figure for the computer and for the people, with the difference."""
    n = len(finished)
    out = []
    for side, title in (("cp", "Central Powers win"), ("ap", "Allies win")):
        k = sum(1 for r in finished if r.get("winner") == side)
        out.append((title, k, n, PEOPLE["wins"][side]))
    shares = turn_bands(finished, BANDS)
    for label, _, _ in BANDS:
        out.append((f"ended {label}", shares[label]["count"], n, PEOPLE["bands"][label]))
    table = []
    for title, k, n, people in out:
        d, low, high = newcombe(people, PEOPLE["games"], k, n) if n else (None, None, None)
        table.append({"figure": title, "computer": proportion(k, n), "people": proportion(people, PEOPLE["games"]),
                      "difference": d, "low": low, "high": high,
                      "significant": bool(n) and (low > 0 or high < 0)})
    return table


def pct(p: dict) -> str:
    return f"{100 * p['rate']:.0f}% ({100 * p['low']:.0f}–{100 * p['high']:.0f})" if p["rate"] is not None else "—"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", default="historical")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--ap", help="the Allies' player (default: simulate's)")
    parser.add_argument("--cp", help="the Central Powers' player (default: simulate's)")
    parser.add_argument("--records", help="read these saved records instead of playing")
    parser.add_argument("--rst", action="store_true", help="print the rows of docs/balance.rst's table")
    args = parser.parse_args(argv)
    finished, players = computer_games(args)
    who = ", ".join(f"{k} {v}" for k, v in players.items()) or "as recorded"
    table = rows(finished)
    if args.rst:
        for row in table:
            print(f"   * - {row['figure']}\n     - {pct(row['people'])}\n     - {pct(row['computer'])}")
        return 0
    print(f"{args.scenario}: {len(finished)} computer games ({who}) beside {PEOPLE['games']} games of people "
          "(WBC 2023); 95% intervals")
    print(f"  {'':<26}{'people':>18}{'computer':>18}   computer − people")
    for row in table:
        diff = ("" if row["difference"] is None else
                f"{100 * row['difference']:+.0f} points ({100 * row['low']:+.0f} to {100 * row['high']:+.0f})"
                + (": significant" if row["significant"] else ""))
        print(f"  {row['figure']:<26}{pct(row['people']):>18}{pct(row['computer']):>18}   {diff}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
