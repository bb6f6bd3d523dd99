"""Where listing every legal option of a decision spends its time, by choice,
and how much of it remembering listings could save.

An environment's action mask needs every legal option of each decision
(`Game.offer`): each candidate of the choice's sources that passes its
`where` (the candidates) is tested against the choice's restrictions, and
the legal ones are given their texts.  This plays random games with every
decision listed, as `benchmarks/env_speed.py`'s interpreter-alone way does
(after one warm-up game of another seed), and times each listing by choice:

  * the listing in all (Game.offer);
  * the candidates (sources and `where`: for `activate`, an activation cost
    for each space and mode);
  * the restriction tests (Game._not_forbidden: the generated checker,
    once per candidate).

It also says, for each choice, how often its listing gave the very options
its previous listing gave (`same`: the most a listing reused whole, while
nothing it read has changed, could ever save), and how much listing time
those decisions took (`same time`).

    python benchmarks/listing_costs.py                       # historical, 2 games
    python benchmarks/listing_costs.py --scenario campaign --games 3

It says too how much of the games' time Python's cycle collector took
(`gc.callbacks`): `simulate` plays with the collector set for games
(pogdsl.sim.collector_set_for_games), an environment's caller with Python's
defaults, as here; `--collector games` plays these games as `simulate` does.

Each part is timed by the wall clock (`perf_counter`), about a microsecond
added per candidate, more under load: read the shares, not the figures, and
compare two versions side by side.  Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


class ListingTimer:
    """Timing wrappers set on the Game class for the games played, the
    interpreter's code left as it is (`close` puts the class back)."""

    def __init__(self):
        from pogdsl.runtime.interpreter import Game

        self.by_choice: dict[str, dict] = defaultdict(lambda: dict.fromkeys(
            ("listings", "time", "candidates", "tests", "candidate count", "same", "same time"), 0))
        self.last_options: dict[str, tuple] = {}
        self._game = Game
        self._saved = {name: getattr(Game, name) for name in ("offer", "_candidates", "_not_forbidden")}
        self._listing: str | None = None
        # (plain functions on the class, so that each is bound to the game: the timer is `timer`)
        Game.offer = lambda game, spec, frame: self._offer(game, spec, frame)
        Game._candidates = lambda game, spec, l, sampled=False: self._candidates(game, spec, l, sampled)
        Game._not_forbidden = lambda game, spec, candidates: self._not_forbidden(game, spec, candidates)

    def close(self) -> None:
        for name, func in self._saved.items():
            setattr(self._game, name, func)

    def _offer(timer, game, spec, frame):
        clock = time.perf_counter
        timer._listing = spec.name
        start = clock()
        try:
            return timer._saved["offer"](game, spec, frame)
        finally:
            spent = clock() - start
            timer._listing = None
            row = timer.by_choice[spec.name]
            row["listings"] += 1
            row["time"] += spent
            p = game.s["pending"]
            options = tuple(p["options"]) if p is not None and p["choice"] == spec.name else None
            if options is not None and timer.last_options.get(spec.name) == options:
                row["same"] += 1
                row["same time"] += spent
            timer.last_options[spec.name] = options

    def _candidates(timer, game, spec, l, sampled=False):
        start = time.perf_counter()
        found = timer._saved["_candidates"](game, spec, l, sampled)
        if timer._listing == spec.name and not sampled:
            row = timer.by_choice[spec.name]
            row["candidates"] += time.perf_counter() - start
            row["candidate count"] += len(found)
        return found

    def _not_forbidden(timer, game, spec, candidates):
        start = time.perf_counter()
        try:
            return timer._saved["_not_forbidden"](game, spec, candidates)
        finally:
            timer.by_choice[spec.name]["tests"] += time.perf_counter() - start


class CollectorTimer:
    """The CPU time of Python's cycle collector's runs, by gc.callbacks."""

    def __init__(self):
        self.runs, self.seconds, self._start = 0, 0.0, 0.0
        gc.callbacks.append(self._note)

    def _note(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._start = time.process_time()
        else:
            self.runs += 1
            self.seconds += time.process_time() - self._start

    def close(self) -> None:
        gc.callbacks.remove(self._note)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default="historical", help="the scenario (default: %(default)s)")
    ap.add_argument("--games", type=int, default=2, help="games measured (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=0, help="the games' seeds, as simulate --seed (default: %(default)s)")
    ap.add_argument("--top", type=int, default=12, help="choices shown, the costliest first (default: %(default)s)")
    ap.add_argument("--collector", choices=("default", "games"), default="default",
                    help="Python's cycle collector as it is by default, or set as simulate sets it for its games "
                    "(default: %(default)s)")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")
    from env_speed import listed_games

    from pogdsl.errors import UsageError
    from pogdsl.opening import ScenarioError, open_scenario
    from pogdsl.sim import collector_set_for_games, game_seed

    from pogdsl.project import find_root

    # A .pog file's project is found from its own folder, as `pogdsl play` finds it.
    path = Path(args.scenario)
    root = find_root(path.resolve().parent) if args.scenario.endswith(".pog") and path.exists() else None
    try:
        opened = open_scenario(args.scenario, root)
    except (UsageError, ScenarioError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    listed_games(opened, [game_seed(args.seed, args.games)])  # warm: what the value cache learns, in place
    setting = collector_set_for_games() if args.collector == "games" else contextlib.nullcontext()
    with setting:  # (its own full collection first, before the count starts)
        timer, collecting = ListingTimer(), CollectorTimer()
        try:
            decisions, cpu = listed_games(opened, [game_seed(args.seed, i) for i in range(args.games)])
        finally:
            timer.close()
            collecting.close()
    rows = sorted(timer.by_choice.items(), key=lambda kv: -kv[1]["time"])
    total = sum(r["time"] for _, r in rows) or 1e-9
    print(f"{args.scenario}: {args.games} games, {decisions} decisions listed in {cpu:.2f} CPU s (the players' "
          f"own picks left out); listings {total:.2f} s of wall clock")
    print(f"  {'choice':<22} {'listings':>8} {'share':>6} {'µs each':>8} {'candidates':>10} {'tests':>6} "
          f"{'cands each':>10} {'same':>5} {'same time':>9}")
    for name, r in rows[:args.top]:
        n = max(r["listings"], 1)
        print(f"  {name:<22} {r['listings']:8d} {100 * r['time'] / total:5.1f}% {1e6 * r['time'] / n:8.0f} "
              f"{100 * r['candidates'] / max(r['time'], 1e-9):9.0f}% {100 * r['tests'] / max(r['time'], 1e-9):5.0f}% "
              f"{r['candidate count'] / n:10.1f} {r['same']:5d} {100 * r['same time'] / total:8.1f}%")
    print(f"  Python's cycle collector ({args.collector} setting): {collecting.runs} collections, "
          f"{collecting.seconds:.3f} CPU s, {100 * collecting.seconds / max(cpu, 1e-9):.1f}% of the games' CPU time")
    same = sum(r["same time"] for _, r in rows)
    print(f"  listings giving the very options of their choice's previous listing: "
          f"{sum(r['same'] for _, r in rows)} of {sum(r['listings'] for _, r in rows)}, "
          f"{100 * same / total:.1f}% of the listings' time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
