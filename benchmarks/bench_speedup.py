"""How much faster this tree plays than a baseline revision: random games,
measured side by side in one run.

A figure of decisions per second means little on a shared machine (the same
code has measured 1,950 and 2,730 an hour apart), but a ratio measured in
the same minutes does: this script checks out the baseline revision with
`git worktree add` into a temporary folder (removed afterwards), then plays
the same seeded random games (as `pogdsl simulate` plays them: random
players answering inside the interpreter, no log, the cycle collector set
for games) alternately with the baseline and with this tree, each batch in
a fresh subprocess on one core, for several rounds.  It prints each tree's
decisions per second, round by round, and the ratio's median with its
range; the ratio of each round compares two runs taken one after the other,
so a load that comes and goes moves both.

The games must be the same games: the final state hash of every game is
compared between the two trees, and a difference is reported (the speed of
different games is no comparison).

    python benchmarks/bench_speedup.py                          # vs 7de5adf, from source
    python benchmarks/bench_speedup.py --baseline HEAD~3 --rounds 7 --games 4
    python benchmarks/bench_speedup.py --compiled               # both trees built with Cython

By default both trees run from their Python source (POGDSL_PURE=1).  With
`--compiled`, each tree is copied to a scratch folder and its runtime
modules are compiled there with Cython (the tree's `pogdsl build-native`, or
`python setup.py build_ext --inplace` in a tree older than that command;
about a minute and a half each on two quiet cores, Cython must be
installed); the working tree is left as it is.

Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Run inside each tree, with only the API both trees share: the games of
# `simulate` (sim.play_random plays them the same way, with more bookkeeping).
WORKER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from pogdsl.agents import RandomAgent, agent_seed
from pogdsl.opening import open_scenario
from pogdsl.runtime.errors import GameError
from pogdsl.sim import collector_set_for_games, game_seed
from pathlib import Path

scenario, seed, first, games = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
opened = open_scenario(scenario, Path(sys.argv[1]))
world = opened.world
decisions, hashes, failed = 0, [], 0
with collector_set_for_games():
    start, cpu = time.perf_counter(), time.process_time()
    for i in range(first, first + games):
        gs = game_seed(seed, i)
        g = opened.new_game(gs, log=False)
        g.samplers = {s.key: RandomAgent(agent_seed(gs, s.key)) for s in world.sides}
        try:
            d = g.run()
            if d is not None:
                raise GameError(f"a decision for {d.by}, which is not a side")
        except GameError:
            failed += 1
        decisions += g.s["decisions"]
        hashes.append(g.state_hash())
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
from pogdsl.runtime import native
print(json.dumps({"decisions": decisions, "seconds": seconds, "cpu": cpu, "hashes": hashes, "failed": failed,
                  "compiled": native.compiled_modules()}))
"""


def git(*args: str, cwd: Path = ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def build_compiled(tree: Path) -> None:
    """Compile the tree's runtime modules with Cython, in place: with the
    tree's own `pogdsl build-native`, or, in a tree older than that command
    (such as 7de5adf), with `setup.py build_ext --inplace`."""
    env = {k: v for k, v in os.environ.items() if k != "POGDSL_PURE"}
    if (tree / "pogdsl" / "cli" / "build_native.py").is_file():
        command = [sys.executable, "-m", "pogdsl.cli", "build-native"]
    else:
        command = [sys.executable, "setup.py", "-q", "build_ext", "--inplace"]
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"error: building {tree} failed:\n{done.stderr[-2000:]}")


def play(tree: Path, args, compiled: bool) -> dict:
    env = dict(os.environ)
    if compiled:
        env.pop("POGDSL_PURE", None)
    else:
        env["POGDSL_PURE"] = "1"
    env["PYTHONHASHSEED"] = "0"
    done = subprocess.run([sys.executable, "-c", WORKER, str(tree), args.scenario, str(args.seed),
                           str(args.first), str(args.games)], cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"error: the games failed in {tree}:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="7de5adf", help="the revision to compare with (default 7de5adf)")
    parser.add_argument("--scenario", default="historical", help="scenario (default historical)")
    parser.add_argument("--games", type=int, default=3, help="games a batch (default 3)")
    parser.add_argument("--rounds", type=int, default=5, help="batches of each tree, taken turn about (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, help="index of the first game (default 0)")
    parser.add_argument("--compiled", action="store_true",
                        help="compile both trees' runtime modules with Cython in scratch copies (default: source)")
    args = parser.parse_args()

    revision = git("rev-parse", "--short", args.baseline)
    head = git("rev-parse", "--short", "HEAD")
    dirty = " (with uncommitted changes)" if git("status", "--porcelain", "--untracked-files=no") else ""
    scratch = Path(tempfile.mkdtemp(prefix="pogdsl-speedup-"))
    base_tree = scratch / "baseline"
    git("worktree", "add", "--detach", str(base_tree), revision)
    try:
        current = ROOT
        if args.compiled:
            current = scratch / "current"
            shutil.copytree(ROOT, current, ignore=shutil.ignore_patterns(".git", "build", "*.so", "_built.json",
                                                                          "__pycache__", "_build"))
            for tree in (base_tree, current):
                print(f"compiling {tree} ...", flush=True)
                build_compiled(tree)
        mode = "compiled (Cython)" if args.compiled else "from source (POGDSL_PURE=1)"
        print(f"{args.scenario}: {args.games} random games a batch (seed {args.seed}, games {args.first}.."
              f"{args.first + args.games - 1}), {args.rounds} rounds, {mode}")
        print(f"baseline {revision}, current {head}{dirty}; {sys.executable}")
        rates = {"baseline": [], "current": []}
        ratios, cpu_ratios = [], []
        hashes = {}
        for r in range(args.rounds):
            # Turn about, the first of a round alternating, so neither tree
            # always runs just after the other.
            order = [("baseline", base_tree), ("current", current)]
            if r % 2:
                order.reverse()
            got = {}
            for name, tree in order:
                out = play(tree, args, args.compiled)
                if out["failed"]:
                    print(f"  warning: {out['failed']} games failed with {name}")
                if args.compiled and not out["compiled"]:
                    raise SystemExit(f"error: {name} ran from source although compiled was asked")
                got[name] = out["decisions"] / out["seconds"]
                got[name + " cpu"] = out["decisions"] / out["cpu"]
                rates[name].append(got[name])
                hashes.setdefault(name, out["hashes"])
            ratios.append(got["current"] / got["baseline"])
            cpu_ratios.append(got["current cpu"] / got["baseline cpu"])
            print(f"  round {r + 1}: baseline {got['baseline']:7,.0f}  current {got['current']:7,.0f} "
                  f"decisions/s  ratio {ratios[-1]:.3f} (by CPU time {cpu_ratios[-1]:.3f})", flush=True)
        same = hashes["baseline"] == hashes["current"]
        print(f"decisions a batch: {out['decisions']}; same final states: "
              f"{'yes' if same else 'NO: the games differ'}")
        print(f"median decisions/s: baseline {statistics.median(rates['baseline']):,.0f}, current "
              f"{statistics.median(rates['current']):,.0f}")
        print(f"ratio current/baseline: median {statistics.median(ratios):.3f} "
              f"(min {min(ratios):.3f}, max {max(ratios):.3f}, {len(ratios)} rounds)")
        # On a machine others load, the CPU time each process got is steadier
        # than the wall clock (which counts the time it waited for a core).
        print(f"ratio by CPU time: median {statistics.median(cpu_ratios):.3f} "
              f"(min {min(cpu_ratios):.3f}, max {max(cpu_ratios):.3f}); load average now "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        return 0 if same else 1
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(base_tree)], cwd=ROOT, capture_output=True)
        shutil.rmtree(scratch, ignore_errors=True)
        subprocess.run(["git", "worktree", "prune"], cwd=ROOT, capture_output=True)


if __name__ == "__main__":
    raise SystemExit(main())
