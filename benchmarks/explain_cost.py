"""What an explanation costs when it is asked (pogdsl/explain).

Play never pays for explanations: the runtime does not import the explain
module, and a condition is walked as a tree only when `why` or `pogdsl
explain` asks.  This measures what asking costs, over the decisions of
seeded random games: at each decision, `forbidden_options` (every forbidden
option with its reasons, what `why` alone prints) and `explain_option` on
each of up to three legal options and on one text naming no option (the
slowest case: the choice's domain is widened source by source to look for
it).  It also checks, at each decision, that the game is left as it was and
that every option listed as forbidden is refused by the game by the same
restrictions.

    python benchmarks/explain_cost.py [--scenario campaign] [--games 2] [--decisions 300]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pogdsl.explain import explain_option, forbidden_options  # noqa: E402
from pogdsl.opening import open_scenario  # noqa: E402


def one_game(opened, seed: int, limit: int) -> tuple[list[float], int]:
    game = opened.new_game(seed)
    pick = random.Random(seed)
    d, times, checked = game.run(), [], 0
    while d is not None and len(times) < limit:
        before = game.state_hash()
        start = time.perf_counter()
        forbidden = forbidden_options(game)
        for text in pick.sample(d.options, min(3, len(d.options))) + ["no such option here"]:
            explain_option(game, text).to_text()
        times.append(time.perf_counter() - start)
        for e in forbidden:
            _, legal, forbidding = game.match_candidate(e.shown)
            assert not legal and {r.block.name for r in e.reasons if r.decides} == {x.key for x in forbidding}
            checked += 1
        assert game.state_hash() == before
        d = game.choose(pick.randrange(len(d.options)) + 1)
    return times, checked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="campaign")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--decisions", type=int, default=300, help="at most this many decisions a game")
    args = parser.parse_args()
    opened = open_scenario(args.scenario)
    times, checked = [], 0
    for seed in range(1, args.games + 1):
        t, c = one_game(opened, seed, args.decisions)
        times += t
        checked += c
    times.sort()
    print(f"{args.scenario}: {len(times)} decisions, {checked} forbidden options checked against the game's refusals")
    print(f"per decision (forbidden_options + 4 explain_option): median {statistics.median(times) * 1000:.0f} ms, "
          f"90th percentile {times[int(len(times) * 0.9)] * 1000:.0f} ms, worst {times[-1] * 1000:.0f} ms")


if __name__ == "__main__":
    main()
