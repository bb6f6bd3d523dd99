"""How much work the interpreter does per decision, in CPU instructions.

Timings on a shared machine vary by 10-20% from run to run; instruction
counts do not (two runs of the same code agree to about 0.5%), so this is
the measure to compare two versions of the code by.  It runs itself under
valgrind's callgrind with collection off, plays warm-up games (so what the
process learns over many games, like which values are not worth
remembering, is in place), switches collection on with `callgrind_control`
for the measured games only, and prints instructions per decision.

    python benchmarks/bench_instructions.py                  # 1 game after 8 warm-up games
    python benchmarks/bench_instructions.py --games 2 --warm 4 --root /other/checkout
    python benchmarks/bench_instructions.py --out cg.out   # then callgrind_annotate --inclusive=yes cg.out

`--root` may name a checkout whose runtime modules are compiled (a scratch
copy after `pogdsl build-native`): without POGDSL_PURE=1 its compiled
modules run, and the line "runtime modules compiled" says which.

`--listed` measures the other way to play: every decision's legal options
listed (Game.offer, as an environment's action mask needs them), the
answers the random players gave in the same games played beforehand
outside valgrind, so only the interpreter and its listing are counted (not
the players' own picks).  The warm-up games are listed games too.

    python benchmarks/bench_instructions.py --listed --scenario historical --games 2 --warm 2

`--env` plays the same listed games through the reinforcement-learning
environment (pogdsl.env's AEC environment): each step observes the side to
move (`env.last()`: the observation vector and the mask) and answers with
`env.step`, the random players' answers replayed as with `--listed`, so the
count is an environment step's own (the interpreter, its listing, and the
environment's part), to set beside `simulate`'s decision (no flag) and the
listed decision (`--listed`).  The warm-up games are environment games too.

    python benchmarks/bench_instructions.py --env --scenario historical --games 2 --warm 1

Needs valgrind (Debian: `apt install valgrind`); about a minute per game.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def play(root: Path, scenario: str, games: int, warm: int, seed: int, answers: Path | None = None,
         env: bool = False) -> None:
    """The measured part, run inside valgrind: prints 'decisions hash
    compiled-modules'.
    `root` is a checkout (its own code is measured) or a project of rules
    alone (this checkout's code plays it).  `answers`: the listed games'
    answers (`record`), replayed with every decision listed; with ENV,
    replayed as an environment's steps."""
    sys.path.insert(0, str(root if (root / "pogdsl").is_dir() else ROOT))
    if env:
        play_env(root, scenario, games, warm, seed, json.loads(answers.read_text()))
        return
    from pogdsl.agents import RandomAgent, agent_seed
    from pogdsl.opening import open_scenario
    from pogdsl.sim import game_seed

    opened = open_scenario(scenario, root)

    def game(i: int):
        s = game_seed(seed, i)
        g = opened.new_game(s, log=False)
        g.samplers = {side.key: RandomAgent(agent_seed(s, side.key)) for side in opened.world.sides}
        return g

    if answers is not None:
        replies = json.loads(answers.read_text())
        for i in range(warm):
            listed_game(opened, game_seed(seed, 1000 + i))
        measured = [listed_start(opened, game_seed(seed, i)) for i in range(games)]
    else:
        for i in range(warm):
            game(1000 + i).run()  # other games than the measured ones
        measured = [game(i) for i in range(games)]
    switch = ["callgrind_control", "-i"]
    subprocess.run([*switch, "on", str(os.getpid())], capture_output=True, check=False)
    decisions = 0
    for i, g in enumerate(measured):
        if answers is not None:
            replay(g, replies[i])
        else:
            g.run()
        decisions += g.s["decisions"]
    subprocess.run([*switch, "off", str(os.getpid())], capture_output=True, check=False)
    from pogdsl.runtime import native

    print(decisions, measured[-1].state_hash()[:12], ",".join(native.compiled_modules()) or "none")


def play_env(root: Path, scenario: str, games: int, warm: int, seed: int, replies: list) -> None:
    """The --env games: the warm-up games through the environment, random
    answers from its listed decisions; then the measured games, REPLIES
    replayed step by step, only these counted."""
    import pogdsl.env
    from pogdsl.sim import game_seed

    env = pogdsl.env.aec_env(scenario, root=root)
    opened = env.opened
    for i in range(warm):
        gs = game_seed(seed, 1000 + i)
        env_steps(env, gs, listed_game(opened, gs))
    switch = ["callgrind_control", "-i"]
    subprocess.run([*switch, "on", str(os.getpid())], capture_output=True, check=False)
    decisions = 0
    for i in range(games):
        decisions += env_steps(env, game_seed(seed, i), replies[i])
    subprocess.run([*switch, "off", str(os.getpid())], capture_output=True, check=False)
    from pogdsl.runtime import native

    print(decisions, env.game.state_hash()[:12], ",".join(native.compiled_modules()) or "none")


def env_steps(env, game_seed: int, answers: list[int]) -> int:
    """The game of GAME_SEED played through ENV with ANSWERS (1-based, as
    the listed game gave them): each step `last()` then `step()`, as a
    learner's loop.  Returns the game's decisions."""
    env.reset(seed=game_seed)
    replies = iter(answers)
    for _ in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(next(replies) - 1)
    return env.game.s["decisions"]


def listed_start(opened, game_seed: int):
    """A game whose decisions are listed (no samplers), as an environment plays it."""
    g = opened.new_game(game_seed, log=False)
    g.list_weights = False  # (as pogdsl.env: its learner picks, no weights needed)
    return g


def listed_game(opened, game_seed: int) -> list[int]:
    """A random game with every decision listed: the random players' answers (1-based)."""
    from types import SimpleNamespace

    from pogdsl.agents import RandomAgent, agent_seed
    from pogdsl.runtime.errors import GameError

    g = listed_start(opened, game_seed)
    players = {side.key: RandomAgent(agent_seed(game_seed, side.key)) for side in opened.world.sides}
    session = SimpleNamespace(game=g)
    answers = []
    try:
        d = g.run()
        while d is not None:
            answers.append(players[d.by].choose(session, d))
            d = g.choose(answers[-1])
    except GameError:
        pass
    return answers


def replay(g, answers: list[int]) -> None:
    from pogdsl.runtime.errors import GameError

    try:
        d = g.run()
        for answer in answers:
            if d is None:
                break
            d = g.choose(answer)
    except GameError:
        pass


def record(root: Path, scenario: str, games: int, seed: int, out: Path) -> None:
    """The answers of the listed games measured, played outside valgrind."""
    sys.path.insert(0, str(root if (root / "pogdsl").is_dir() else ROOT))
    from pogdsl.opening import open_scenario
    from pogdsl.sim import game_seed

    opened = open_scenario(scenario, root)
    out.write_text(json.dumps([listed_game(opened, game_seed(seed, i)) for i in range(games)]))


def counted(out: Path) -> int | None:
    """The instructions counted, from the totals of callgrind's output file.
    (Not from the "Collected" line valgrind prints at exit: on runs of a few
    minutes, collection switched on and off by callgrind_control, valgrind
    3.19 printed "Collected : 0" while the file held the count.)"""
    try:
        with out.open(encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("totals:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="campaign")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to measure (default: this one)")
    parser.add_argument("--games", type=int, default=1, help="games measured (default 1)")
    parser.add_argument("--warm", type=int, default=8, help="warm-up games first, not measured (default 8)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--listed", action="store_true",
                        help="list every decision's legal options (as an environment does), replaying the random "
                        "players' answers recorded beforehand: counts the interpreter and its listing")
    parser.add_argument("--env", action="store_true",
                        help="play the --listed games through the AEC environment (pogdsl.env): counts an "
                        "environment step (last() and step()), the answers replayed as --listed replays them")
    parser.add_argument("--out", type=Path,
                        help="keep callgrind's output file here (for callgrind_annotate --inclusive=yes)")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--answers", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--record", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.record:
        record(args.root.resolve(), args.scenario, args.games, args.seed, args.record)
        return 0
    if args.inside:
        play(args.root.resolve(), args.scenario, args.games, args.warm, args.seed, args.answers, args.env)
        return 0
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        print("bench_instructions: valgrind is not installed (Debian: apt install valgrind)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        common = ["--root", str(args.root), "--scenario", args.scenario, "--games", str(args.games),
                  "--seed", str(args.seed)]
        listed = []
        if args.listed or args.env:
            answers = Path(tmp) / "answers.json"
            subprocess.run([sys.executable, __file__, "--record", str(answers), *common], check=True)
            listed = ["--answers", str(answers)] + ["--env"] * args.env
        cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={tmp}/cg.out",
               sys.executable, __file__, "--inside", *common, "--warm", str(args.warm), *listed]
        run = subprocess.run(cmd, capture_output=True, text=True, check=False)
        collected = counted(Path(tmp) / "cg.out")
        if args.out is not None and collected is not None:
            shutil.copyfile(Path(tmp) / "cg.out", args.out)
    played = run.stdout.split()
    if run.returncode != 0 or not collected or len(played) != 3:
        print(f"bench_instructions: the run failed (exit {run.returncode}):\n{run.stderr[-2000:]}", file=sys.stderr)
        return 1
    instructions, decisions = collected, int(played[0])
    way = " environment" if args.env else " listed" if args.listed else ""
    print(f"{args.root} {args.scenario}{way}: {args.games} game(s) after {args.warm} warm-up, "
          f"{decisions} decisions, final state {played[1]}")
    # (compiled modules run other instructions than their source: POGDSL_PURE=1 counts the source's)
    print(f"runtime modules compiled: {played[2].replace(',', ', ')}")
    print(f"{instructions:,} instructions, {instructions / max(decisions, 1):,.0f} per decision")
    return 0


if __name__ == "__main__":
    sys.exit(main())
