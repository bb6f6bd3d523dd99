"""How simulate scales on one machine: games per second with 1 and 2 workers.

Both runs play the same games (the same --seed: game i has the seed derived
from it and i whatever the number of workers), so they do the same work, and
the benchmark checks that they give the same results (the summary's digest).
Figures printed, for each number of workers: wall-clock seconds, games per
second, decisions per second, the speed-up of each over one worker (the aim:
two workers give at least 1.8 times one worker's games per second), and the
CPU seconds a game costs (this process and its workers; what a pool adds to
the work shows there, even on a busy machine).

    python benchmarks/bench_scale.py                        # campaign, 20 games
    python benchmarks/bench_scale.py --games 100 --repeat 3 # steadier figures
    python benchmarks/bench_scale.py --workers 1 2 4 --json

The scenario is compiled before the clock starts (the workers of a pool
inherit it); a pool's start is timed, as a run pays it.  The load average is
printed before and after: on a machine busy with other work the figures (the
speed-up above all) are noise; measure on an idle one.  Timings are printed,
never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _cpu_seconds() -> float:
    """CPU time (user + system) of this process and of its children that have
    ended (a pool's workers, once joined): the work done, whatever else the
    machine runs, where wall-clock time counts the waits for a busy core too."""
    import resource

    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure(scenario: str, games: int, seed: int, workers: int, root=None) -> dict:
    from pogdsl.sim import simulate

    cpu = _cpu_seconds()
    start = time.perf_counter()
    summary = simulate(scenario, games=games, seed=seed, workers=workers, root=root)
    seconds = time.perf_counter() - start
    cpu = _cpu_seconds() - cpu
    return {"workers": workers, "games": summary["games"], "failed": summary["failed"],
            "seconds": round(seconds, 3), "games_per_second": round(summary["games"] / seconds, 3),
            "cpu_seconds": round(cpu, 3), "cpu_seconds_per_game": round(cpu / summary["games"], 4),
            "decisions_per_second": round(summary["decisions"] / seconds, 1), "digest": summary["digest"]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", default="campaign")
    parser.add_argument("--root", type=Path, default=None)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=1, help="runs of each; the best is kept (default 1)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    from pogdsl.opening import open_scenario

    open_scenario(args.scenario, args.root)  # compiled once, before any clock
    load_before = os.getloadavg()
    rows = []
    for w in args.workers:
        runs = [measure(args.scenario, args.games, args.seed, w, args.root) for _ in range(args.repeat)]
        best = min(runs, key=lambda r: r["seconds"])
        best["all_seconds"] = [r["seconds"] for r in runs]
        rows.append(best)
    load_after = os.getloadavg()
    base = rows[0]["games_per_second"]
    for r in rows:
        r["speedup"] = round(r["games_per_second"] / base, 2)
    same = len({r["digest"] for r in rows}) == 1
    out = {"python": platform.python_version(), "cpus": os.cpu_count(), "scenario": args.scenario,
           "games": args.games, "seed": args.seed, "repeat": args.repeat, "same_results": same,
           "load_before": [round(x, 2) for x in load_before], "load_after": [round(x, 2) for x in load_after],
           "runs": rows}
    if args.json:
        print(json.dumps(out))
        return 0 if same else 1
    print(f"{args.scenario}: {args.games} games, seed {args.seed}, best of {args.repeat}; Python "
          f"{out['python']}, {out['cpus']} cores; load average {out['load_before'][0]} before, "
          f"{out['load_after'][0]} after")
    for r in rows:
        print(f"  {r['workers']} worker{'s' * (r['workers'] != 1)}: {r['seconds']:7.2f} s  "
              f"{r['games_per_second']:6.2f} games/s  {r['decisions_per_second']:9,.0f} decisions/s  "
              f"x{r['speedup']:.2f}  {r['cpu_seconds_per_game']:.3f} CPU s/game  "
              f"({', '.join(f'{s:.2f}' for s in r['all_seconds'])} s)")
    print("  same results with every number of workers" if same else "  RESULTS DIFFER between runs")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
