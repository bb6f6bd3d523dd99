"""How fast the interpreter plays: random games on one core.

Figures printed:
  * decisions per second over whole random games, on one core, two ways: as
    `pogdsl simulate` plays them (random players answer inside the
    interpreter, which tries options in a random order instead of listing
    them all: runtime/sampling.py; no log), and with every decision's legal
    options listed first and a random pick from the list (other games of
    the same kind: the draws differ);
  * the latency of a step of play: one `choose()` call, which runs the game
    from a decision to the next one and lists that decision's legal options
    (p50, p99, max);
  * the cost of listing the legal options alone, two ways: as play lists
    them (the `offer` inside each `choose()`, with the values remembered so
    far), and cold: the pending decision offered again from its state
    (`refresh_decision`) on a copy of the game, with nothing remembered, as
    a game just loaded from a file lists it (p50, p99, max) — the budget is
    p99 under 5 ms;
  * the cost of `copy()` (and of `copy(remember=True)`, which copies the
    remembered values too), `to_json()` and `state_hash()` of a mid-game
    state;
  * the cost of a look-ahead from a copy (as agents/mcts.py plays a
    playout), with the copy inheriting the game's remembered values and
    with it remembering nothing.

    python benchmarks/bench_runtime.py                      # the toy game
    python benchmarks/bench_runtime.py --scenario campaign  # once it has rules
    python benchmarks/bench_runtime.py --games 500 --seed 7

It prints the interpreter it runs on: the same code runs a quarter faster on
Debian's CPython 3.11 (libpython linked in statically, Debian's optimised
build) than on pyenv's default build (libpython as a shared library, built
without `--enable-optimizations`).  To measure another build, install the
project in a virtual environment made with it:

    /usr/bin/python3.11 -m venv /tmp/venv && /tmp/venv/bin/pip install -e .
    /tmp/venv/bin/python benchmarks/bench_runtime.py --scenario campaign

Timings are printed, never asserted: tests only check that games run.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TOY_ROOT = ROOT / "tests" / "fixtures" / "toy"


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def _timed(offer, times: list):
    """`Game.offer`, timed: each listing of options play makes (an offer
    answered at once, a single legal option, is timed too)."""
    def timed(spec, frame):
        t0 = time.perf_counter()
        try:
            return offer(spec, frame)
        finally:
            times.append(time.perf_counter() - t0)
    return timed


def ms(x: float) -> str:
    return f"{x * 1000:8.3f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="toy", help="scenario name or .pog file (default toy)")
    parser.add_argument("--root", type=Path, default=None,
                        help="project root (default: tests/fixtures/toy for `toy`, else this checkout)")
    parser.add_argument("--games", type=int, default=300, help="random games to play (default 300)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log", action="store_true", help="keep the game log on (simulate turns it off)")
    args = parser.parse_args()

    from pogdsl.agents import RandomAgent, agent_seed
    from pogdsl.runtime.errors import GameError
    from pogdsl.opening import open_scenario
    from pogdsl.runtime.record import refresh_decision
    from pogdsl.sim import collector_set_for_games, game_seed

    root = args.root or (TOY_ROOT if args.scenario == "toy" else ROOT)
    start = time.perf_counter()
    opened = open_scenario(args.scenario, root)
    built = time.perf_counter() - start
    world = opened.world
    print(f"scenario {opened.key} (root {root}): compiled and built in {built:.2f} s; "
          f"{len(world.spaces)} spaces, {len(world.units)} units, {len(world.cards)} cards")
    # The same code runs a quarter faster or slower with the build of CPython
    # (see docs/playing.rst, Speed): a figure means little without it.
    print(f"interpreter: {sys.executable} (Python {platform.python_version()}, {platform.python_compiler()})")
    # ... and with the runtime's modules compiled or not (runtime/native.py).
    # (effects and sampling are otherwise imported by the first game: imported here to be listed)
    import pogdsl.runtime.effects
    import pogdsl.runtime.sampling  # noqa: F401
    from pogdsl.runtime import native

    compiled = native.compiled_modules()
    print(f"runtime modules compiled: {', '.join(compiled) if compiled else 'none (all from source)'}"
          f"{' (POGDSL_PURE set)' if native.pure() else ''}")

    # 1. Throughput: whole games, as simulate plays them, then listing every decision.
    for label, listing in (("as simulate plays", False), ("listing every decision", True)):
        decisions = failures = 0
        start = time.perf_counter()
        with collector_set_for_games():  # as simulate's batches play
            for i in range(args.games):
                seed = game_seed(args.seed, i)
                agents = {s.key: RandomAgent(agent_seed(seed, s.key)) for s in world.sides}
                g = opened.new_game(seed, log=args.log)
                if not listing:
                    g.samplers = agents
                try:
                    d = g.run()
                    while d is not None:
                        d = g.choose(agents[d.by].pick(d.options, d.weights) + 1)
                except GameError:
                    failures += 1
                decisions += g.s["decisions"]
        seconds = time.perf_counter() - start
        print(f"\nthroughput, one core, {label}: {args.games} games, {decisions} decisions in {seconds:.2f} s "
              f"= {decisions / seconds:,.0f} decisions/s, {args.games / seconds:,.1f} games/s"
              + (f" ({failures} games failed)" if failures else ""))

    # 2. Latency per decision: the choose() call, and re-listing the options alone.
    step_times: list[float] = []
    offer_times: list[float] = []
    play_offer_times: list[float] = []
    sizes: list[int] = []
    copy_times: list[float] = []
    warm_times: list[float] = []
    json_times: list[float] = []
    hash_times: list[float] = []
    games = max(1, min(args.games, 100))
    for i in range(games):
        seed = game_seed(args.seed, i)
        agents = {s.key: RandomAgent(agent_seed(seed, s.key)) for s in world.sides}
        g = opened.new_game(seed, log=args.log)
        g.offer = _timed(g.offer, play_offer_times)
        try:
            d = g.run()
            while d is not None:
                sizes.append(len(d.options))
                probe = g.copy(remember=False)  # cold: as a game loaded from a file
                t0 = time.perf_counter()
                refresh_decision(probe)
                offer_times.append(time.perf_counter() - t0)
                if len(copy_times) < 2000:
                    t0 = time.perf_counter()
                    g.copy(remember=True)
                    warm_times.append(time.perf_counter() - t0)
                    t0 = time.perf_counter()
                    g.copy()
                    t1 = time.perf_counter()
                    g.to_json()
                    t2 = time.perf_counter()
                    g.state_hash()
                    t3 = time.perf_counter()
                    copy_times.append(t1 - t0)
                    json_times.append(t2 - t1)
                    hash_times.append(t3 - t2)
                answer = agents[d.by].pick(d.options, d.weights) + 1
                t0 = time.perf_counter()
                d = g.choose(answer)
                step_times.append(time.perf_counter() - t0)
        except GameError:
            pass
    print(f"\nlatency over {len(step_times)} decisions of {games} games "
          f"({statistics.mean(sizes) if sizes else 0:.1f} options on average, at most {max(sizes, default=0)}):")
    print(f"  {'':34}{'p50':>11}{'p99':>12}{'max':>12}")
    for label, values in (("choose(): play to the next decision", step_times),
                          ("list the legal options (in play)", play_offer_times),
                          ("list the legal options (cold)", offer_times),
                          ("copy()", copy_times), ("copy(remember=True)", warm_times),
                          ("to_json()", json_times), ("state_hash()", hash_times)):
        print(f"  {label:34}{ms(percentile(values, 50))} {ms(percentile(values, 99))} {ms(max(values, default=0))}")
    for label, values in (("in play", play_offer_times), ("cold", offer_times)):
        p99 = percentile(values, 99)
        print(f"listing options {label}: p99 {p99 * 1000:.3f} ms, {'within' if p99 < 0.005 else 'OVER'} "
              "the 5 ms budget")

    # 3. Look-ahead from a copy, as the look-ahead players play it.
    look_ahead(opened, args)
    return 0


LOOK_AHEAD = 20  # decisions a look-ahead plays from its copy
LOOK_EVERY = 25  # a look-ahead measured at every 25th decision of a game


def look_ahead(opened, args) -> None:
    """The cost of a playout as agents/mcts.py plays one: a copy of the game
    at a decision with the hidden cards dealt afresh (hidden.determinize),
    the random players answering inside the interpreter, LOOK_AHEAD
    decisions; the copy remembering nothing (as agents/mcts.py makes it)
    and the same copy inheriting the game's remembered values
    (`determinize(..., remember=True)`), taken turn about at every
    LOOK_EVERY-th decision of the
    games (per decision played, the copy included; in CPU time, which
    other jobs on the machine disturb less than the wall clock when short
    runs are compared)."""
    from pogdsl.agents import RandomAgent, agent_seed
    from pogdsl.runtime.errors import DecisionBudgetExceeded, GameError
    from pogdsl.runtime.hidden import determinize
    from pogdsl.sim import game_seed

    world = opened.world
    costs = {"inheriting": [0.0, 0], "remembering nothing": [0.0, 0]}
    differ = 0
    games = max(1, min(args.games, 10))
    for i in range(games):
        seed = game_seed(args.seed, i)
        agents = {s.key: RandomAgent(agent_seed(seed, s.key)) for s in world.sides}
        g = opened.new_game(seed, log=False)
        try:
            d = g.run()
            while d is not None:
                if g.s["decisions"] % LOOK_EVERY == LOOK_EVERY - 1:
                    hashes = set()
                    for label in costs:
                        t0 = time.process_time()
                        _, other = determinize(g, d.by, seed, remember=label == "inheriting")
                        other.samplers = {s.key: RandomAgent(seed + k)
                                          for k, s in enumerate(world.sides)}
                        other.max_decisions = other.s["decisions"] + LOOK_AHEAD
                        try:
                            other.choose(1)
                        except (DecisionBudgetExceeded, GameError):
                            pass
                        costs[label][0] += time.process_time() - t0
                        costs[label][1] += other.s["decisions"] - g.s["decisions"]
                        hashes.add(other.state_hash())
                    differ += len(hashes) > 1
                d = g.choose(agents[d.by].pick(d.options, d.weights) + 1)
        except GameError:
            pass
    print(f"\nlook-ahead from a copy ({LOOK_AHEAD} decisions, the hidden cards dealt afresh, at every "
          f"{LOOK_EVERY}th decision of {games} games):")
    if not all(decisions for _, decisions in costs.values()):
        print(f"  none measured: no game reached {LOOK_EVERY} decisions")
        return
    for label, (seconds, decisions) in costs.items():
        print(f"  copy {label:20}: {decisions:6} decisions, {seconds * 1e6 / decisions:8.0f} us of CPU a decision")
    warm, cold = (seconds / decisions for seconds, decisions in costs.values())
    print(f"  inheriting saves {100 * (1 - warm / cold):.0f}% ({cold / warm:.2f}x as many decisions a second)"
          + (f"; {differ} playouts ended differently: A BUG" if differ else "; the same playouts either way"))


if __name__ == "__main__":
    sys.exit(main())
