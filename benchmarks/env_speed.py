"""How fast the reinforcement-learning environment plays, against `simulate`.

For each scenario (Historical and the Campaign by default), on one core,
round after round, each of three ways in a fresh process of its own (after
one warm-up game of another seed), as a user runs either a simulation or a
training run, never both in one process — in one process, what the first
way's games teach the value cache about which values are worth remembering
would carry over to the next way's:

  * `simulate`'s games: random players answering inside the interpreter
    (runtime/sampling.py: an option drawn without listing them all, no
    log, the cycle collector set for games), as `pogdsl simulate --ap random
    --cp random` plays them — its decisions per CPU second;
  * the environment's games of the same seeds, the very same games: each
    step observes the side to move (`env.last()`: the observation vector and
    the mask), pogdsl's random player picks from the listed decision as it
    would have drawn inside the interpreter, and `env.step` answers it — its
    steps per CPU second without the random player's own time (what a
    learner's policy replaces);
  * the interpreter alone on the same games, every decision's legal options
    listed (as the mask needs them), no environment: the most an
    environment step could reach with an observation costing nothing.

All three run with Python's cycle collector set for games (sim.
collector_set_for_games): `simulate` sets it itself, and
docs/environments.rst tells a training run to set it around its loop.

The ratio of the first two is issue 34's target (at least 80%).  The three
play the same games (the script stops if their decision counts differ), so
the ratio compares the same work; each figure is over whole games, so long
and short games weigh as they should.
CPU time, not wall time: the machine may be loaded.

    python benchmarks/env_speed.py                              # historical, campaign
    python benchmarks/env_speed.py --scenario campaign --games 3 --rounds 2
    python benchmarks/env_speed.py --profile campaign           # where an env step's time goes
    python benchmarks/env_speed.py --breakdown campaign         # microseconds of each part of a step

`--profile` runs the environment's games under cProfile and prints the
functions taking the most time, grouped into the parts of a step (the
interpreter's run to the next decision, listing the options, the
observation, the mask, PettingZoo's bookkeeping).

`--breakdown` plays the environment's games (no profiler) with a timer
around each part of a step and prints CPU microseconds per step: the
interpreter's `Game.choose` (running to the next decision and listing its
options; the listing, `Game.offer`, apart), and the environment's own part —
the observation vector, the mask, the options' features, the infos, and the
rest (PettingZoo's `last()`, `step()`'s bookkeeping).  Then simulate's same
games in the same process, CPU microseconds per decision, its random
players' draws (`Game._offer_sampled`, where simulate takes a decision that
the environment lists) apart, and the step that 80% of simulate's rate
allows.  Each part is timed by the wall clock
(`perf_counter_ns`: reading the CPU clock costs a microsecond, more than
some parts), and the games' CPU time is shared out in proportion: on a
loaded machine the wall clock runs on while the process waits, about
evenly across the parts.  Each timed part adds about 0.2 µs of its own.
Compare two versions side by side, not with a figure from another day.

Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def simulate_games(opened, seeds: list[int]) -> tuple[int, float]:
    """(decisions, CPU seconds) of random games of SEEDS, as simulate plays them."""
    from pogdsl.agents import RandomAgent, agent_seed
    from pogdsl.runtime.errors import GameError
    from pogdsl.sim import collector_set_for_games

    decisions, cpu = 0, 0.0
    with collector_set_for_games():
        for gs in seeds:
            start = time.process_time()
            g = opened.new_game(gs, log=False)
            g.samplers = {s.key: RandomAgent(agent_seed(gs, s.key)) for s in opened.world.sides}
            try:
                g.run()
            except GameError:
                pass
            cpu += time.process_time() - start
            decisions += g.s["decisions"]
    return decisions, cpu


def listed_games(opened, seeds: list[int]) -> tuple[int, float]:
    """(decisions, CPU seconds without the players' own) of the interpreter
    alone with every decision's legal options listed (as the mask needs
    them), the random players picking from the list: what an environment
    step costs before its observation."""
    from types import SimpleNamespace

    from pogdsl.agents import RandomAgent, agent_seed
    from pogdsl.runtime.errors import GameError

    decisions, cpu = 0, 0.0
    for gs in seeds:
        start = time.process_time()
        g = opened.new_game(gs, log=False)
        g.list_weights = False
        players = {s.key: RandomAgent(agent_seed(gs, s.key)) for s in opened.world.sides}
        session = SimpleNamespace(game=g)
        try:
            d = g.run()
            while d is not None:
                p0 = time.process_time()
                answer = players[d.by].choose(session, d)
                start += time.process_time() - p0
                d = g.choose(answer)
        except GameError:
            pass
        cpu += time.process_time() - start
        decisions += g.s["decisions"]
    return decisions, cpu


def env_games(env, seeds: list[int], wall: list | None = None) -> tuple[int, float]:
    """(steps, CPU seconds without the random players' own) of the AEC
    environment's games of SEEDS, each side answered by pogdsl's random
    player from the listed decision: simulate's very games.  WALL, a list,
    is given the wall-clock seconds of the same (--breakdown's scale)."""
    from pogdsl.agents import RandomAgent, agent_seed
    from pogdsl.runtime.record import Session

    steps, cpu, elapsed = 0, 0.0, 0.0
    for gs in seeds:
        start, wall_start = time.process_time(), time.perf_counter()
        env.reset(seed=gs)
        players = {s: RandomAgent(agent_seed(gs, s)) for s in env.possible_agents}
        session = Session(env.opened, env.game)
        for agent in env.agent_iter():
            _, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            p0, w0 = time.process_time(), time.perf_counter()
            action = players[agent].choose(session, env.game.decision()) - 1
            start += time.process_time() - p0
            wall_start += time.perf_counter() - w0
            env.step(action)
            steps += 1
        cpu += time.process_time() - start
        elapsed += time.perf_counter() - wall_start
    if wall is not None:
        wall.append(elapsed)
    return steps, cpu


WAYS = ("simulate", "env", "listed")


def play_one_way(way: str, scenario: str, games: int, seed: int, option_features: bool) -> tuple[int, float]:
    """(decisions or steps, CPU seconds) of GAMES games of SCENARIO played
    one WAY, in this process, after one warm-up game of another seed (what
    a long run has learnt — which values are worth remembering, the
    layout — in place, as in a training run or a long simulation)."""
    import pogdsl.env
    from pogdsl.sim import game_seed

    from pogdsl.sim import collector_set_for_games

    seeds = [game_seed(seed, i) for i in range(games)]
    warm = [game_seed(seed, games)]
    env = pogdsl.env.aec_env(scenario, with_option_features=option_features)  # (opens SCENARIO for all three)
    # every way with the cycle collector set for games: simulate sets it
    # itself, and docs/environments.rst tells a training run to set it
    with collector_set_for_games():
        if way == "env":
            env_games(env, warm)
            return env_games(env, seeds)
        play = simulate_games if way == "simulate" else listed_games
        play(env.opened, warm)
        return play(env.opened, seeds)


def one_way_in_a_fresh_process(way: str, scenario: str, args) -> tuple[int, float]:
    """play_one_way in a process of its own: each way starts from nothing,
    as a user's process does (a simulation and a training run never share
    one), so what one way's games teach the value cache never helps or
    hinders another's."""
    argv = [sys.executable, __file__, "--one-way", way, "--scenario", scenario, "--games", str(args.games),
            "--seed", str(args.seed)] + (["--option-features"] if args.option_features else [])
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"error: the {way} games of {scenario} failed:\n{done.stderr.strip()}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return result["decisions"], result["cpu"]


def measure(scenario: str, args) -> dict:
    import pogdsl.env

    pogdsl.env.aec_env(scenario)  # a bad name or the rl extra missing: one line here (main), not per process
    rounds = []
    for r in range(args.rounds):
        (d, d_cpu), (s, s_cpu), (n, n_cpu) = (one_way_in_a_fresh_process(way, scenario, args) for way in WAYS)
        if not d == s == n:
            raise SystemExit(f"error: not the same games: simulate {d} decisions, the environment {s} steps, "
                             f"the interpreter listing {n} decisions")
        sim_rate, env_rate, listed_rate = (x / max(t, 1e-9) for x, t in ((d, d_cpu), (s, s_cpu), (n, n_cpu)))
        rounds.append((sim_rate, env_rate, env_rate / sim_rate, listed_rate))
        print(f"  round {r + 1}: simulate {d:6d} decisions in {d_cpu:6.2f} CPU s = {sim_rate:6.0f}/s;  "
              f"env {s:6d} steps in {s_cpu:6.2f} CPU s = {env_rate:6.0f}/s ({100 * env_rate / sim_rate:5.1f}%);  "
              f"options listed {n:6d} in {n_cpu:6.2f} CPU s = {listed_rate:6.0f}/s", flush=True)
    ratios = [x[2] for x in rounds]
    return {"scenario": scenario, "simulate": statistics.median(x[0] for x in rounds),
            "env": statistics.median(x[1] for x in rounds), "ratio": statistics.median(ratios),
            "low": min(ratios), "high": max(ratios), "listed": statistics.median(x[3] for x in rounds)}


# The parts of an environment step, by the function that does each: the
# first in the profile's call stack wins (cumulative time).
PARTS = [
    ("interpreter: run to the next decision, listing its legal options", "interpreter.py", "run"),
    ("observation vector (layout.observe)", "layout.py", "observe"),
    ("option features", "options.py", "option_features"),
    ("action mask", "aec.py", "action_mask"),
    ("rewards and infos (PogAEC._fill_infos)", "aec.py", "_fill_infos"),
    ("PettingZoo's last(), the observation and mask included (aec_env adds no wrapper)", "", "last"),
]


def profile(scenario: str, args) -> None:
    import pogdsl.env
    from pogdsl.sim import game_seed

    env = pogdsl.env.aec_env(scenario, with_option_features=args.option_features)
    seeds = [game_seed(args.seed, i) for i in range(args.games)]
    env_games(env, seeds[:1])  # warm: the layout and the caches
    prof = cProfile.Profile(time.process_time)  # CPU time, as the rates: the machine may be loaded
    prof.enable()
    steps, cpu = env_games(env, seeds)
    prof.disable()
    stats = pstats.Stats(prof)
    total = stats.total_tt
    print(f"{scenario}: {steps} environment steps in {cpu:.2f} CPU s under cProfile ({total:.2f} s profiled)")
    print("  by part of a step (cumulative time of the function doing it):")
    for name, file, func in PARTS:
        cum = sum(v[3] for k, v in stats.stats.items() if k[2] == func and k[0].endswith(file))
        print(f"    {100 * cum / total:5.1f}%  {name}")
    print("  the functions taking the most time of their own:")
    stats.sort_stats("tottime").print_stats(args.top)


class StepTimer:
    """Wall-clock nanoseconds spent in each part of ENV's steps, by timing
    wrappers set on the environment object (and on each new game's
    `choose`), the environment's code left as it is."""

    PARTS = [("interpreter", "Game.choose: run to the next decision, listing its options"),
             ("listing", "of which the listing (Game.offer)"),
             ("observation", "observation vector (layout.observe)"),
             ("mask", "action mask"),
             ("features", "option features"),
             ("infos", "infos (PogAEC._fill_infos)")]

    def __init__(self, env):
        from pogdsl.env import aec

        self.ns = dict.fromkeys(["total", *(name for name, _ in self.PARTS)], 0)
        env.last = self._timed("total", env.last)
        env.step = self._timed("total", env.step)
        env.action_mask = self._timed("mask", env.action_mask)
        env._fill_infos = self._timed("infos", env._fill_infos)
        from pogdsl.runtime.interpreter import Game

        self._restore = [(aec, "observe", aec.observe), (aec, "option_features", aec.option_features),
                         (Game, "offer", Game.offer)]
        aec.observe = self._timed("observation", aec.observe)
        aec.option_features = self._timed("features", aec.option_features)
        Game.offer = self._timed("listing", Game.offer)  # (on the class: the rule steps call g.offer)
        reset = env.reset

        def timed_reset(*args, **kw):
            reset(*args, **kw)
            env.game.choose = self._timed("interpreter", env.game.choose)

        env.reset = timed_reset

    def _timed(self, part: str, func):
        ns, clock = self.ns, time.perf_counter_ns

        def timed(*args, **kw):
            start = clock()
            try:
                return func(*args, **kw)
            finally:
                ns[part] += clock() - start

        return timed

    def clear(self) -> None:
        for part in self.ns:
            self.ns[part] = 0

    def close(self) -> None:
        for module, name, func in self._restore:
            setattr(module, name, func)


def breakdown(scenario: str, args) -> None:
    import pogdsl.env
    from pogdsl.sim import game_seed

    env = pogdsl.env.aec_env(scenario, with_option_features=args.option_features)
    seeds = [game_seed(args.seed, i) for i in range(args.games)]
    env_games(env, seeds[:1])  # warm: the layout and the caches
    timer = StepTimer(env)
    rounds = []
    try:
        for _ in range(args.rounds):
            timer.clear()
            wall: list = []
            steps, cpu = env_games(env, seeds, wall)
            scale = cpu / max(wall[0], 1e-9)  # (CPU seconds per wall second: 1 on a quiet machine)
            per = {part: scale * ns / 1000 / max(steps, 1) for part, ns in timer.ns.items()}
            per["own"] = per["total"] - per["interpreter"]
            per["rest"] = per["own"] - sum(per[p] for p, _ in StepTimer.PARTS[2:])
            per["scale"] = scale
            rounds.append(per)
    finally:
        timer.close()
    med = {part: statistics.median(r[part] for r in rounds) for part in rounds[0]}
    print(f"{scenario}: {steps} environment steps a round, {args.rounds} rounds; CPU microseconds per step "
          f"(median of the rounds; the process had {100 * med['scale']:.0f}% of a core):")
    print(f"  {med['total']:8.1f}  the step: env.last() and env.step()")
    print(f"  {med['interpreter']:8.1f}    {StepTimer.PARTS[0][1]}")
    print(f"  {med['listing']:8.1f}      {StepTimer.PARTS[1][1]}")
    print(f"  {med['own']:8.1f}    the environment's own part:")
    for part, meaning in StepTimer.PARTS[2:]:
        if part != "features" or args.option_features:
            print(f"  {med[part]:8.1f}      {meaning}")
    print(f"  {med['rest']:8.1f}      the rest: PettingZoo's last(), step()'s bookkeeping, rewards")
    sim = simulate_breakdown(env.opened, seeds, args.rounds)
    print(f"  simulate's same games, CPU microseconds per decision (median of {args.rounds} rounds, the "
          f"process had {100 * sim['scale']:.0f}% of a core):")
    print(f"  {sim['total']:8.1f}  a decision")
    print(f"  {sim['draw']:8.1f}    of which the random players' draws inside the interpreter "
          f"(Game._offer_sampled)")
    print(f"  80% of simulate's rate allows {sim['total'] / 0.8:.1f} µs a step")


def simulate_breakdown(opened, seeds: list[int], rounds: int) -> dict:
    """CPU microseconds per decision of simulate's games of SEEDS (median
    of ROUNDS), and of those the random players' draws (`_offer_sampled`,
    where simulate's decisions are taken instead of listed), shared out as
    --breakdown shares out the step."""
    from pogdsl.runtime.interpreter import Game

    drawn = [0]
    saved = Game._offer_sampled
    clock = time.perf_counter_ns

    def timed(game, *args):
        start = clock()
        try:
            return saved(game, *args)
        finally:
            drawn[0] += clock() - start

    simulate_games(opened, seeds[:1])  # warm
    out = []
    Game._offer_sampled = timed
    try:
        for _ in range(rounds):
            drawn[0] = 0
            wall_start = time.perf_counter()
            decisions, cpu = simulate_games(opened, seeds)
            scale = cpu / max(time.perf_counter() - wall_start, 1e-9)
            out.append({"total": 1e6 * cpu / max(decisions, 1),
                        "draw": scale * drawn[0] / 1000 / max(decisions, 1), "scale": scale})
    finally:
        Game._offer_sampled = saved
    return {part: statistics.median(r[part] for r in out) for part in out[0]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Environment steps per CPU second (PettingZoo AEC, random legal "
                                 "actions from the mask, both sides) against simulate's decisions per CPU second "
                                 "with random players, on the same scenarios and seeds, each in a fresh process.")
    ap.add_argument("--scenario", action="append", help="a scenario to measure (repeatable; default: historical "
                    "and campaign)")
    ap.add_argument("--games", type=int, default=3, help="games per scenario and round (default: %(default)s)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds, alternating the two (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=0, help="the games' seeds, as simulate --seed (default: %(default)s)")
    ap.add_argument("--option-features", action="store_true",
                    help="build the options' features too (with_option_features=True)")
    ap.add_argument("--profile", metavar="SCENARIO", help="profile the environment's games of SCENARIO instead")
    ap.add_argument("--breakdown", metavar="SCENARIO", help="microseconds per step of each part of the "
                    "environment's games of SCENARIO instead")
    ap.add_argument("--top", type=int, default=25, help="functions listed by --profile (default: %(default)s)")
    ap.add_argument("--one-way", choices=WAYS, help=argparse.SUPPRESS)  # a round's process (measure)
    args = ap.parse_args(argv)
    if args.games < 1 or args.rounds < 1:
        ap.error("--games and --rounds must be at least 1")
    try:  # (without the rl extra, making the environment says which extra to install)
        if args.one_way:
            decisions, cpu = play_one_way(args.one_way, args.scenario[0], args.games, args.seed,
                                          args.option_features)
            print(json.dumps({"decisions": decisions, "cpu": cpu}))
            return 0
        if args.profile:
            profile(args.profile, args)
            return 0
        if args.breakdown:
            breakdown(args.breakdown, args)
            return 0
        print(f"Python {sys.version.split()[0]}; {args.games} games a round, {args.rounds} rounds; CPU time")
        results = []
        for scenario in args.scenario or ["historical", "campaign"]:
            print(f"{scenario}:", flush=True)
            results.append(measure(scenario, args))
    except ValueError as err:  # EnvError: a bad scenario name, the rl extra missing
        print(f"error: {err}", file=sys.stderr)
        return 1
    print("median of the rounds:")
    for r in results:
        print(f"  {r['scenario']:<12} simulate {r['simulate']:7.0f} decisions/s, env {r['env']:7.0f} steps/s: "
              f"{100 * r['ratio']:.1f}% (rounds {100 * r['low']:.1f} to {100 * r['high']:.1f}%; target 80%); "
              f"options listed {r['listed']:.0f} decisions/s ({100 * r['listed'] / r['simulate']:.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
