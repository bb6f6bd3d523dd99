"""How strong and how fast the search player is: ismcts:N against other players.

Plays GAMES seeded games of SCENARIO for each opponent (by default mcts:8
and random), half with the search player as the first side and half as the
second, on the same seeds (the seeds `pogdsl simulate SCENARIO --seed S`
uses, so game i of a seat is `pogdsl play --seed <its seed>` with the same
players).  For each pairing it prints the search player's wins, losses and
draws on each side, its share of the decisive games with a 95% Wilson
interval (pogdsl/sim/stats.py), and the searched decisions a second (the
decisions with more than one option, which are the only ones searched) of
each search player.

    python benchmarks/ismcts.py [--scenario S] [--games N] [--player ismcts:N[:H]]
                                [--against mcts:8,random] [--seed S] [--first K] [--workers W] [--root DIR]

`--first K` plays each seat's games from game K of the seed: a pairing of
hours in parts (a seat's games K.. are those a run of more games plays there).

A Campaign game between two search players is long (a few hundred searched
decisions a side, each N iterations of up to H+1 decisions played): measure
seconds a decision first (a game or two) and pick the scenario and the
number of games to fit the time you have.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from pogdsl.opening import open_scenario
from pogdsl.sim import simulate
from pogdsl.sim.stats import proportion


def seat_runs(scenario: str, player: str, opponent: str, games: int, seed: int, workers: int,
              root=None, first: int = 0) -> list[tuple]:
    """[(the player's side, the run's summary)]: GAMES // 2 games with the
    player on each side (the first side gets the odd game), the other side
    played by OPPONENT."""
    sides = [s.key for s in open_scenario(scenario, root).world.sides]
    if len(sides) != 2:
        raise SystemExit(f"{scenario}: a pairing needs a scenario of two sides, not {len(sides)}")
    runs = []
    for k, side in enumerate(sides):
        n = games // 2 + (games % 2 if k == 0 else 0)
        if n == 0:
            continue
        other = sides[1 - k]
        agents = {side: player}
        if opponent != "random":
            agents[other] = opponent
        summary = simulate(scenario, games=n, seed=seed, workers=workers, agents=agents, root=root, first=first,
                           progress=lambda n: print("." * n, end="", file=sys.stderr, flush=True))
        runs.append((side, other, summary))
    print(file=sys.stderr)
    return runs


def speed(runs: list[tuple], seat: int, decisions: str = "decisions", seconds: str = "seconds") -> tuple[int, float]:
    """(decisions, seconds) of the player in seat 0 (ours) or 1 (the
    opponent): those it answered, or with "searched", "search_seconds"
    those it searched (a player that searches only some)."""
    n, secs = 0, 0.0
    for side, other, summary in runs:
        st = (summary.get("agent_speed") or {}).get((side, other)[seat])
        if st:
            n += st.get(decisions, 0)
            secs += st.get(seconds, 0.0)
    return n, secs


def report(scenario: str, player: str, opponent: str, runs: list[tuple], seconds: float) -> None:
    total = sum(s["games"] for _, _, s in runs)
    print(f"{scenario}: {player} against {opponent}, {total} games ({seconds:.0f} s)")
    won = lost = drawn = failed = 0
    for side, other, s in runs:
        r = s["results"]
        w, l, d = r.get(side, 0), r.get(other, 0), r.get("draw", 0)
        won, lost, drawn, failed = won + w, lost + l, drawn + d, failed + s["failed"]
        print(f"  as {side}: won {w}, lost {l}, drawn {d}" + (f", failed {s['failed']}" if s["failed"] else ""))
    decisive = won + lost
    if decisive:
        p = proportion(won, decisive)
        print(f"  won {p['rate']:.0%} of the {decisive} decisive games (95% interval {p['low']:.0%} to "
              f"{p['high']:.0%}); draws {drawn}" + (f", failed {failed}" if failed else ""))
    else:
        print(f"  no decisive game; draws {drawn}" + (f", failed {failed}" if failed else ""))
    endings: dict[str, int] = {}
    for _, _, s in runs:
        for reason, n in s["reasons"].items():
            endings[reason] = endings.get(reason, 0) + n
    print("  endings: " + ", ".join(f"{reason} {n}" for reason, n in sorted(endings.items(), key=lambda x: -x[1])))
    for seat, name in ((0, player), (1, opponent)):
        n, secs = speed(runs, seat)
        if not n:
            continue
        searched, search_secs = speed(runs, seat, "searched", "search_seconds")
        if searched:  # it searched only some: what a search costs, and a decision on average
            print(f"  {name}: {searched / search_secs:.2f} searched decisions a second ({searched} searched in "
                  f"{search_secs:.0f} s, of {n} decisions with a choice in {secs:.0f} s: {n / secs:.1f} a second)")
        else:
            print(f"  {name}: {n / secs:.2f} searched decisions a second ({n} decisions in {secs:.0f} s)")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", default="campaign")
    parser.add_argument("--games", "-n", type=int, default=100, help="games a pairing, half on each side")
    parser.add_argument("--player", default="ismcts:16")
    parser.add_argument("--against", default="mcts:8,random", help="opponents, comma-separated")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, metavar="K",
                        help="play each seat's games from game K of the seed (a long pairing in parts)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--root", type=Path, default=None,
                        help="the folder of a scenario of your own (e.g. tests/fixtures/duel)")
    args = parser.parse_args(argv)
    for opponent in [o.strip() for o in args.against.split(",") if o.strip()]:
        start = time.perf_counter()
        runs = seat_runs(args.scenario, args.player, opponent, args.games, args.seed, args.workers, args.root,
                         args.first)
        report(args.scenario, args.player, opponent, runs, time.perf_counter() - start)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
