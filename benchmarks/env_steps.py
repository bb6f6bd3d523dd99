"""How fast pogdsl.env steps, against `simulate`'s decisions, on the same games.

For each seed, the game is played twice on one core, by pogdsl's random
players (seeded from the game's seed, as `simulate` seeds them):

  * as `simulate` plays it (sim.play_random: the random players answer
    inside the interpreter, without listing a decision's options);
  * through the AEC environment: each step observes the side to move
    (`env.last()`: the observation vector and the mask), the random player
    picks from the listed decision, and `env.step` answers it.

The two play the same game (the script checks the decision counts agree).
Printed: simulate's decisions per CPU second, the environment's steps per
CPU second without the random player's own time (what a learner's policy
would replace) and with it, and the ratio; then the interpreter alone
listing every decision (the environment's floor: the mask needs every legal
option), and the environment without observing.  CPU seconds, so that a
machine shared with other work still gives comparable figures.

    python benchmarks/env_steps.py                       # the Campaign, 4 games
    python benchmarks/env_steps.py --scenario suicide-of-europe --games 8
"""

from __future__ import annotations

import argparse
import time
from types import SimpleNamespace


def env_games(env, seeds, observe: bool = True) -> tuple[int, float, float]:
    """(steps, CPU seconds, of which the random players' own)."""
    from pogdsl.agents import make_agent
    from pogdsl.runtime.record import Session

    steps, cpu, players_cpu = 0, 0.0, 0.0
    for seed in seeds:
        t0 = time.process_time()
        env.reset(seed=seed)
        players = {s: make_agent("random", s, seed) for s in env.possible_agents}
        session = Session(env.opened, env.game)
        for agent in env.agent_iter():
            if observe:
                _, _, terminated, truncated, _ = env.last()
            else:
                terminated, truncated = env.terminations[agent], env.truncations[agent]
            if terminated or truncated:
                env.step(None)
                continue
            p0 = time.process_time()
            action = players[agent].choose(session, env.game.decision()) - 1
            players_cpu += time.process_time() - p0
            env.step(action)
            steps += 1
        cpu += time.process_time() - t0
    return steps, cpu, players_cpu


def listed_games(opened, seeds) -> tuple[int, float]:
    """(decisions, CPU seconds without the players' own) of the interpreter
    listing every decision, the random players picking from the list."""
    from pogdsl.agents import make_agent

    decisions, cpu = 0, 0.0
    for seed in seeds:
        game = opened.new_game(seed, log=False)
        game.list_weights = False
        players = {s.key: make_agent("random", s.key, seed) for s in opened.world.sides}
        session = SimpleNamespace(game=game)
        t0 = time.process_time()
        d = game.run()
        while d is not None:
            p0 = time.process_time()
            answer = players[d.by].choose(session, d)
            t0 += time.process_time() - p0
            d = game.choose(answer)
            decisions += 1
        cpu += time.process_time() - t0
    return decisions, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="campaign")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed (then seed+1, …)")
    args = parser.parse_args()

    import pogdsl.env as E
    from pogdsl.sim import play_random

    env = E.aec_env(args.scenario)
    seeds = range(args.seed, args.seed + args.games)
    sim_decisions, sim_cpu = 0, 0.0
    for seed in seeds:
        t0 = time.process_time()
        result = play_random(env.opened, seed)
        sim_cpu += time.process_time() - t0
        sim_decisions += result["decisions"]
    steps, cpu, players_cpu = env_games(env, seeds)
    if steps != sim_decisions:
        raise SystemExit(f"the environment played other games ({steps} steps, {sim_decisions} decisions)")
    bare_steps, bare_cpu, bare_players = env_games(env, seeds, observe=False)
    listed, listed_cpu = listed_games(env.opened, seeds)
    sim_rate = sim_decisions / sim_cpu
    env_rate = steps / (cpu - players_cpu)
    print(f"{args.scenario}, {args.games} games from seed {args.seed}, one core, CPU seconds:")
    print(f"  simulate      {sim_decisions} decisions, {sim_rate:,.0f} a second")
    print(f"  environment   {steps} steps, {env_rate:,.0f} a second without the random players' time "
          f"({steps / cpu:,.0f} with it): {env_rate / sim_rate:.0%} of simulate")
    print(f"  listed        {listed} decisions, {listed / listed_cpu:,.0f} a second (the interpreter listing "
          f"every decision: {env_rate / (listed / listed_cpu):.0%} of it is the environment's)")
    print(f"  no observing  {bare_steps / (bare_cpu - bare_players):,.0f} steps a second")


if __name__ == "__main__":
    main()
