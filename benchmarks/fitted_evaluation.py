"""Does an evaluation fitted by `pogdsl fit-evaluation` make a stronger
player?  `greedy` judging by the fitted weights (a variant file written by
`--out`) against `greedy` judging by the declared ones, on the same seeds,
each seed played twice so that each evaluation plays each side once.

    python benchmarks/fitted_evaluation.py historical fitted.pog --games 50 --seed 2 --out ab.jsonl

`--player` names the player that judges by the fitted weights and
`--against` the one that judges by the declared weights (both `greedy` by
default): `--player ismcts:16 --against greedy` asks whether the search
gains from judging by the fitted weights against the declared `greedy`.
`--first` starts at another seed's index, to play a run in parts.

The command line has no way to give the two sides different evaluations
(`simulate` plays both sides' players on one scenario), and the players
take theirs from the game's world; this measurement gives the fitted side
the variant's term list for the time it decides, and the declared list back
afterwards (the terms' values are the same in both: only the weights
differ, and only the evaluation reads them).  The game itself is always
the SCENARIO's, and so is the scale: a variant written with `--scale` keeps
its weights' proportions, which is all a greedy player reads (it takes the
best-scored option, and the logistic keeps the order).  A line a game goes to --out as it ends (nothing is lost if
stopped); the summary is the fitted player's score over the decisive
games, with its 95% Wilson interval, over both seats and in each.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pogdsl.agents import make_agent  # noqa: E402
from pogdsl.cli.common import whole_number  # noqa: E402
from pogdsl.opening import open_scenario  # noqa: E402
from pogdsl.runtime.errors import GameError  # noqa: E402
from pogdsl.sim import game_seed  # noqa: E402
from pogdsl.sim.stats import wilson  # noqa: E402


class WithTerms:
    """A player that judges with TERMS (another world's, same names and
    values, other weights) while it decides."""

    def __init__(self, agent, terms):
        self.agent, self.terms = agent, terms

    def choose(self, session, decision):
        world = session.game.w
        kept, world.terms = world.terms, self.terms
        try:
            return self.agent.choose(session, decision)
        finally:
            world.terms = kept


def play(opened, seed: int, fitted_side: str, fitted_terms, player: str, against: str | None = None) -> dict:
    game = opened.new_game(seed, log=False)
    players = {}
    for s in opened.world.sides:
        agent = make_agent(player if s.key == fitted_side or against is None else against, s.key, seed)
        players[s.key] = WithTerms(agent, fitted_terms) if s.key == fitted_side else agent
    session = SimpleNamespace(game=game)
    start = time.process_time()
    error = None
    try:
        d = game.run()
        while d is not None:
            d = game.choose(players[str(d.by)].choose(session, d))
    except GameError as err:
        error = str(err)
    outcome = game.outcome if error is None else None
    return {"seed": seed, "fitted": fitted_side, "winner": outcome.winner if outcome else None,
            "reason": outcome.reason if outcome else None, "turn": game.s["turn"], "error": error,
            "hash": game.state_hash(),
            "cpu_seconds": round(time.process_time() - start, 2)}


def summarise(results: list[dict], sides: list[str]) -> dict:
    def score(rs):
        decisive = [r for r in rs if r["winner"] in sides]
        won = sum(r["winner"] == r["fitted"] for r in decisive)
        rate = won / len(decisive) if decisive else None
        low, high = wilson(won, len(decisive)) if decisive else (None, None)
        return {"won": won, "decisive": len(decisive), "games": len(rs), "rate": rate, "low": low, "high": high}

    return {"both": score(results), **{side: score([r for r in results if r["fitted"] == side]) for side in sides}}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("scenario")
    p.add_argument("fitted", type=Path, help="the variant file `fit-evaluation --out` wrote")
    p.add_argument("--games", type=whole_number, default=50, help="seeds; each is played twice (default 50)")
    p.add_argument("--seed", type=whole_number, default=2, help="simulate's run seed the game seeds come from (default 2)")
    p.add_argument("--player", default="greedy", help="the player judging by the fitted weights (default greedy)")
    p.add_argument("--against", help="the player judging by the declared weights (default: the same as --player)")
    p.add_argument("--first", type=whole_number, default=0, help="the first seed's index (to play a run in parts)")
    p.add_argument("--out", type=Path, help="one JSON line a game, written as it ends")
    p.add_argument("--summarise", type=Path, help="only summarise an earlier --out file")
    args = p.parse_args()
    opened = open_scenario(args.scenario)
    sides = [s.key for s in opened.world.sides]
    if args.first < 0 or args.games < 0:
        print("--first and --games count games: neither may be negative", file=sys.stderr)
        return 2
    for spec in {args.player, args.against or args.player}:
        try:
            make_agent(spec, sides[0], 0)
        except ValueError as err:  # (a player unknown, or its numbers out of range: said in one line)
            print(err, file=sys.stderr)
            return 2
    if args.summarise:
        results = [json.loads(line) for line in args.summarise.read_text().splitlines() if line.strip()]
    else:
        fitted_terms = open_scenario(str(args.fitted), cache=False).world.terms
        if [t.value for t in fitted_terms] != [t.value for t in opened.world.terms]:
            print("the fitted variant's terms are not the scenario's (names or values differ)", file=sys.stderr)
            return 2
        out = open(args.out, "a") if args.out else None
        results = []
        for i in range(args.first, args.first + args.games):
            for side in sides:
                r = play(opened, game_seed(args.seed, i), side, fitted_terms, args.player, args.against)
                r["game"] = i
                results.append(r)
                if out:
                    out.write(json.dumps(r) + "\n")
                    out.flush()
    summary = summarise(results, sides)
    for name, s in summary.items():
        if s["rate"] is None:
            print(f"{name}: no decisive game of {s['games']}")
            continue
        print(f"fitted evaluation, {'both seats' if name == 'both' else 'as ' + name}: won {s['won']} of "
              f"{s['decisive']} decisive games ({s['games']} played): {100 * s['rate']:.1f}% "
              f"(95% CI {100 * s['low']:.1f} to {100 * s['high']:.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
