"""How often the Illusions of Glory mechanics fire in random games.

Plays N games of the `illusions` scenario with random players (the seeds
`pogdsl simulate illusions --games N --seed S` uses, so the games are the same)
and reads the state at the end of every turn: which nations were ever
demoralized (National Will 2 or less), how many uprisings were ever on the
map, the highest Russian Revolution stage reached, which nations collapsed,
and the lowest the Armistice marker went.

    python benchmarks/illusions_mechanics.py [--games N] [--seed S]

Single process; about a second a game.
"""

from __future__ import annotations

import argparse
from collections import Counter

from pogdsl.agents import RandomAgent, agent_seed
from pogdsl.opening import open_scenario
from pogdsl.sim import game_seed

NATIONS = ("ru", "ge", "ah")


class _TurnEnds(list):
    """Stands in for the game's VP-by-turn list: its append runs at each turn's end."""

    def __init__(self, game, seen):
        super().__init__()
        self.game, self.seen = game, seen

    def append(self, value):
        super().append(value)
        v, w = self.game.s["vars"], self.game.w
        for n in NATIONS:
            if (v["national_will"].get(n, 12) or 0) <= 2:
                self.seen["demoralized"].add(n)
            if v["collapsed"].get(n):
                self.seen["collapsed"].add(n)
        rebels = sum(1 for u in w.units if u.data.nation and str(getattr(u.data.nation, "key", u.data.nation)).endswith("_rising")
                     and self.game.s["loc"][u.index] is not None and self.game.s["loc"][u.index] < len(w.spaces))
        self.seen["uprisings"] = max(self.seen["uprisings"], rebels)
        self.seen["stage"] = max(self.seen["stage"], v["revolution_stage"])
        self.seen["armistice"] = min(self.seen["armistice"], v["armistice_marker"])


def play(opened, seed: int) -> dict:
    seen = {"demoralized": set(), "collapsed": set(), "uprisings": 0, "stage": -1, "armistice": 40}
    game = opened.new_game(seed, log=False)
    game.samplers = {s.key: RandomAgent(agent_seed(seed, s.key)) for s in opened.world.sides}
    game.vp_by_turn = _TurnEnds(game, seen)
    game.max_decisions = 100_000
    game.run()
    return seen


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", "-n", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    opened = open_scenario("illusions")
    games = [play(opened, game_seed(args.seed, i)) for i in range(args.games)]
    n = len(games)
    demoralized = Counter(x for g in games for x in g["demoralized"])
    collapsed = Counter(x for g in games for x in g["collapsed"])
    stages = Counter(g["stage"] for g in games)
    print(f"illusions: {n} games, seed {args.seed}")
    for nation in NATIONS:
        print(f"  {nation} demoralized in {demoralized[nation]} games, collapsed in {collapsed[nation]}")
    print(f"  uprisings on the map at a turn's end in {sum(1 for g in games if g['uprisings'])} games "
          f"(most at once: {max((g['uprisings'] for g in games), default=0)})")
    print("  highest revolution stage: " + ", ".join(
        f"{'none' if k < 0 else k}: {stages[k]}" for k in sorted(stages)))
    print(f"  Armistice marker moved below 40 in {sum(1 for g in games if g['armistice'] < 40)} games")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
