"""The heuristic player `greedy` (pogdsl/agents/greedy.py): its strength
against random players, its speed, and its think time.

Plays N seeded games of a scenario (the Campaign by default) in each of
three pairings — greedy Allies against random Central Powers, random Allies
against greedy Central Powers, greedy against greedy — on the same game
seeds `pogdsl simulate SCENARIO --games N --seed S` uses, and prints:

* for each pairing, each side's wins and the draws, and for the two pairings
  against random the greedy player's share of the decisive games, all with
  Wilson 95% intervals;
* CPU seconds per game (process time, so a machine shared with other work
  does not inflate it) and decisions per game;
* greedy's CPU cost per decision it answers, beside a random player's
  (measured on a few random-against-random games of the same seeds), and
  its think time at the 50th and 95th percentiles and the slowest: what a
  person playing against it waits for (`pogdsl play … --cp greedy`).

    python benchmarks/greedy.py [--scenario campaign] [--games N] [--seed S] [--workers W] [--progress] [--minutes M]

Strength and speed are measured here, never asserted in tests.  About 2-3
CPU seconds a game against random, twice that greedy against greedy.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from multiprocessing import get_context
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's pogdsl, not an installed one

from pogdsl.agents import RandomAgent, make_agent  # noqa: E402
from pogdsl.opening import open_scenario  # noqa: E402
from pogdsl.sim import collector_set_for_games, game_seed  # noqa: E402
from pogdsl.sim.stats import quantile, wilson  # noqa: E402

PAIRINGS = (("greedy", "random"), ("random", "greedy"), ("greedy", "greedy"))
_opened = {}


def play_one(task: tuple) -> dict:
    """One game: (scenario, game seed, Allied spec, Central spec) → its result,
    CPU seconds, decisions, and the CPU seconds of each greedy decision."""
    scenario, seed, ap, cp = task
    opened = _opened.get(scenario)
    if opened is None:
        opened = _opened[scenario] = open_scenario(scenario, ROOT)
    players = {"ap": make_agent(ap, "ap", seed), "cp": make_agent(cp, "cp", seed)}
    game = opened.new_game(seed, log=False)
    game.samplers = {k: a for k, a in players.items() if isinstance(a, RandomAgent)}
    game.max_decisions = 100_000
    thinks: list[float] = []
    start = time.process_time()
    with collector_set_for_games():
        d = game.run()
        while d is not None:
            side = str(d.by)
            t = time.process_time()
            option = players[side].pick(game, side)
            thinks.append(time.process_time() - t)
            d = game.choose(option + 1)
    return {"seed": seed, "ap": ap, "cp": cp, "winner": game.s["result"]["winner"],
            "reason": game.s["result"]["reason"], "turn": game.s["turn"], "decisions": game.s["decisions"],
            "cpu": time.process_time() - start, "thinks": thinks}


def _share(k: int, n: int) -> str:
    if n == 0:
        return "  -   (no games)"
    low, high = wilson(k, n)
    return f"{100 * k / n:5.1f}%  (95% CI {100 * low:5.1f} to {100 * high:5.1f}%)"


def _random_cost(scenario: str, seeds: list[int]) -> float:
    """CPU seconds per decision of random-against-random games (the
    interpreter's samplers answering, as `simulate` plays them)."""
    from pogdsl.sim import play_random

    opened = _opened.get(scenario) or open_scenario(scenario, ROOT)
    decisions, start = 0, time.process_time()
    with collector_set_for_games():
        for seed in seeds:
            decisions += play_random(opened, seed)["decisions"]
    return (time.process_time() - start) / max(1, decisions)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", default="campaign")
    parser.add_argument("--games", type=int, default=20, help="games per pairing (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=max(1, min(2, os.cpu_count() or 1)))
    parser.add_argument("--progress", action="store_true", help="a line for each game as it ends")
    parser.add_argument("--minutes", type=float, default=None,
                        help="stop after this many minutes of wall time and print the figures of the games "
                             "finished (the games are taken seed by seed, the three pairings together)")
    args = parser.parse_args(argv)
    seeds = [game_seed(args.seed, i) for i in range(args.games)]
    tasks = [(args.scenario, s, ap, cp) for s in seeds for ap, cp in PAIRINGS]  # a stopped run has all three
    start = time.perf_counter()
    results = []

    def done(r: dict) -> None:  # one line a game as it ends, so a long run shows its progress
        results.append(r)
        if args.progress:
            print(f"  game {len(results)}/{len(tasks)}: {r['ap']} v {r['cp']}, seed {r['seed']}: "
                  f"{r['winner'] or 'draw'} ({r['reason']}, turn {r['turn']}), {r['cpu']:.1f} CPU s", flush=True)

    deadline = None if args.minutes is None else start + 60 * args.minutes

    def out_of_time() -> bool:
        if deadline is None or time.perf_counter() < deadline:
            return False
        print(f"  out of time: {len(results)} of {len(tasks)} games finished", flush=True)
        return True

    try:
        if args.workers > 1:
            with get_context("fork").Pool(args.workers) as pool:  # leaving it stops the games still running
                for r in pool.imap_unordered(play_one, tasks, chunksize=1):
                    done(r)
                    if out_of_time():
                        break
        else:
            for t in tasks:
                done(play_one(t))
                if out_of_time():
                    break
    except KeyboardInterrupt:  # Ctrl-C (or kill -INT): the figures of the games finished so far
        print(f"  stopped: {len(results)} of {len(tasks)} games finished", flush=True)
    wall = time.perf_counter() - start
    random_cost = _random_cost(args.scenario, seeds[:min(5, len(seeds))])

    print(f"{args.scenario}: {args.games} games a pairing asked, {len(results)} played, seed {args.seed}, "
          f"{args.workers} workers, {wall:.0f} s wall")
    thinks: list[float] = []
    for ap, cp in PAIRINGS:
        games = [r for r in results if r["ap"] == ap and r["cp"] == cp]
        n = len(games)
        if not n:
            continue
        wins = {side: sum(r["winner"] == side for r in games) for side in ("ap", "cp")}
        draws = n - wins["ap"] - wins["cp"]
        cpu = sum(r["cpu"] for r in games) / n
        decisions = sum(r["decisions"] for r in games) / n
        print(f"\n  {ap} (ap) against {cp} (cp): {n} games, {cpu:.2f} CPU s a game, {decisions:.0f} decisions a game")
        print(f"    ap wins   {wins['ap']:4d}  {_share(wins['ap'], n)}")
        print(f"    cp wins   {wins['cp']:4d}  {_share(wins['cp'], n)}")
        print(f"    draws     {draws:4d}  {_share(draws, n)}")
        for side, spec in (("ap", ap), ("cp", cp)):
            other = "cp" if side == "ap" else "ap"
            if spec == "greedy" and (ap, cp).count("greedy") == 1:
                decisive = wins[side] + wins[other]
                print(f"    greedy's share of the decisive games: {wins[side]}/{decisive}  "
                      f"{_share(wins[side], decisive)}")
        endings: dict[str, int] = {}
        for r in games:
            endings[r["reason"]] = endings.get(r["reason"], 0) + 1
        for reason, count in sorted(endings.items(), key=lambda t: -t[1]):
            print(f"      {count:4d}  {reason}")
        if "greedy" in (ap, cp):
            thinks += [t for r in games for t in r["thinks"]]
    # random decisions are answered inside the interpreter: only greedy's are timed
    greedy_cost = sum(thinks) / max(1, len(thinks))
    print(f"\n  greedy: {len(thinks)} decisions, {1000 * greedy_cost:.2f} ms CPU each (think only); a random "
          f"decision costs {1000 * random_cost:.3f} ms CPU (the whole game's work per decision): "
          f"{greedy_cost / random_cost:.0f}x")
    if thinks:
        thinks.sort()
        print(f"  think time (CPU): p50 {1000 * quantile(thinks, 0.5):.1f} ms, p95 {1000 * quantile(thinks, 0.95):.1f} ms, "
              f"max {1000 * max(thinks):.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
