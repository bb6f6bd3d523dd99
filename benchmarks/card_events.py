"""How often random games play each card's event.

Runs `pogdsl simulate SCENARIO --games N --seed S --json` (with the project's
sources, from this checkout) and prints, for every card whose event is written,
how many times its event was played over all the games and in how many games;
then the cards never played as an event, which random play never exercises
(a condition that can never hold, an option never offered, or a rare card).

    python benchmarks/card_events.py [SCENARIO] [--games N] [--seed S] [--workers W] [--option NAME=VALUE] [--json] [--root DIR]

The optional cards (56-65 of each side) are in the decks only with
`--option optional_cards=on` (9.1.2: the players agree to them).

Exit status: that of `pogdsl simulate` (0 every game finished, 1 some failed
or the sources have errors, 2 wrong usage).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def card_events(scenario: str, games: int, seed: int, workers: int | None, root: Path = ROOT,
                options: list[str] = ()) -> tuple[int, dict]:
    """(exit status, the simulate summary)."""
    argv = [sys.executable, "-m", "pogdsl.cli", "simulate", scenario, "--games", str(games), "--seed", str(seed),
            "--json", "--no-progress", "--root", str(root)]
    for option in options:
        argv += ["--option", option]
    if workers:
        argv += ["--workers", str(workers)]
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1) or not done.stdout.strip():
        sys.stderr.write(done.stderr)
        return done.returncode or 1, {}
    return done.returncode, json.loads(done.stdout.strip().splitlines()[-1])


def report(summary: dict, out=sys.stdout) -> None:
    events = summary["card_events"]
    chosen = ", ".join(f"{k}={v}" for k, v in (summary.get("options") or {}).items())
    print(f"{summary['scenario']}: {summary['games']} games, seed {summary['seed']}: {summary['finished']} finished, "
          f"{summary['failed']} failed; {len(events)} cards with an event" + (f" (options: {chosen})" if chosen else ""),
          file=out)
    width = max((len(v["name"]) for v in events.values()), default=0)
    for key, v in events.items():
        print(f"  {key:<6} {v['name']:<{width}}  {v['played']:>5} plays in {v['games']:>4} games", file=out)
    never = [f"{key} {v['name']}" for key, v in events.items() if not v["played"]]
    print(f"never played as an event ({len(never)}):" + ("" if never else " none"), file=out)
    for line in never:
        print(f"  {line}", file=out)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenario", nargs="?", default="campaign")
    parser.add_argument("--games", "-n", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", "-w", type=int, default=None)
    parser.add_argument("--json", action="store_true", help="print only the card_events object as JSON")
    parser.add_argument("--root", type=Path, default=ROOT, help="the project folder (default: this checkout)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a scenario option, as simulate takes it (repeatable): optional_cards=on puts the "
                             "optional cards 56-65 of each side into the decks (9.1.2)")
    args = parser.parse_args(argv)
    status, summary = card_events(args.scenario, args.games, args.seed, args.workers, args.root.resolve(), args.option)
    if not summary:
        return status
    if args.json:
        print(json.dumps(summary["card_events"], indent=1))
    else:
        report(summary)
    return status


if __name__ == "__main__":
    sys.exit(main())
