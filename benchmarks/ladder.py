"""The players' ladder: how strong each computer player is, measured.

Plays every ordered pairing of the players (each against each other on both
sides, and against itself) on the same seeds, as `pogdsl ladder` does, and
prints the score matrix with its intervals, the Bradley–Terry ratings (Elo
scale, the first player 0) with their intervals, and the seat bias.  Strength
claims about the players (docs/players.rst, docs/balance.rst) are made from
its output, never from timed tests.

    python benchmarks/ladder.py [--scenario historical] [--players random,greedy,ismcts:16] [--games N]
                                [--seed S] [--workers W] [--out ladder.json]

Cost: (players)² × N games; a random Historical game takes about a second on
one core, a greedy one a few seconds, an ismcts:16 side 50 to 110 CPU
seconds, an mcts:8 side about a hundred times a random one.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from pogdsl.cli.ladder import print_ladder
from pogdsl.sim.ladder import play_ladder

DEFAULT_PLAYERS = "random,greedy,ismcts:16"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", default="historical")
    parser.add_argument("--players", default=DEFAULT_PLAYERS, help=f"comma-separated specs (default {DEFAULT_PLAYERS})")
    parser.add_argument("--games", type=int, default=50, help="games a pairing (default 50)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--out", help="also write the ladder as JSON to this file")
    args = parser.parse_args(argv)
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    done = [0]

    def progress(n: int) -> None:
        done[0] += n
        print(f"\r{done[0]} of {len(players) ** 2 * args.games} games", end="", file=sys.stderr, flush=True)

    start = time.perf_counter()
    summary = play_ladder(args.scenario, players, games=args.games, seed=args.seed, workers=args.workers,
                          progress=progress)
    print(file=sys.stderr)
    print_ladder(summary)
    print(f"  wall time {time.perf_counter() - start:.0f} s")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(summary, f, indent=1)
    return 130 if summary["interrupted"] else 0


if __name__ == "__main__":
    sys.exit(main())
