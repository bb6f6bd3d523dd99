"""Batch simulation: many games with random agents.

Game i of a run with seed S plays with the game seed `game_seed(S, i)` and
random agents seeded from that game seed and their side (the same seeds
`pogdsl play --seed G --ap random --cp random` uses), so any game of a run,
failed or not, can be played again on its own, move for move: the agents
answer inside the interpreter without listing the options
(runtime/sampling.py), and draw the same way from a listed decision.

Games are grouped in batches; a batch is one task for a worker, which builds
the scenario's world once and keeps it.  The local process pool is the
default; Ray and Dask run the same tasks on a cluster when asked.
"""

from __future__ import annotations

import gc
import hashlib
import math
import os
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

from ..runtime.errors import (
    DeadEnd,
    DecisionBudgetExceeded,
    GameError,
    LimitExceeded,
    StepBudgetExceeded,
)

DEFAULT_MAX_STEPS = 2_000_000  # the default `steps` limit (runtime/limits.py); None: the scenario's
DEFAULT_MAX_DECISIONS = 100_000
BACKENDS = ("local", "ray", "dask")
EXTRAS = {"ray": ("ray", "ray"), "dask": ("dask.distributed", "dask")}


class BackendMissing(Exception):
    """A --backend whose package is not installed."""


def game_seed(seed: int, index: int) -> int:
    from ..runtime.record import derive_seed

    return derive_seed(seed, "game", index)


def play_random(opened, seed: int, *, max_steps: int | None = None,
                max_decisions: int = DEFAULT_MAX_DECISIONS, agents: dict[str, str] | None = None) -> dict:
    """One game with random agents, as a plain result (never raises for a
    problem of the game: it is reported in "error").  `agents` gives a side
    another player by its spec (`mcts:200`, agents.make_agent), seeded from
    the game's seed and its side as `play --seed` seeds it."""
    from types import SimpleNamespace

    from ..agents import RandomAgent, agent_seed, make_agent

    world = opened.world
    players = {s.key: make_agent(agents[s.key], s.key, seed) if agents and s.key in agents
               else RandomAgent(agent_seed(seed, s.key)) for s in world.sides}
    game = opened.new_game(seed, log=False, step_budget=max_steps)
    result = {"seed": seed, "winner": None, "reason": None, "decisions": 0, "turn": None, "hash": None,
              "error": None, "kind": None}
    # random players answer inside run(), without listing (runtime/sampling.py); the others are asked
    game.samplers = {k: a for k, a in players.items() if isinstance(a, RandomAgent)}
    game.max_decisions = max_decisions
    try:
        d = game.run()
        session = SimpleNamespace(game=game)
        while d is not None:
            agent = players.get(str(d.by))
            if agent is None or isinstance(agent, RandomAgent):
                raise GameError(f"a decision for '{d.by}', which is not a side")
            if game.s["decisions"] >= max_decisions:
                raise DecisionBudgetExceeded(f"more than {max_decisions} decisions and the game is not over",
                                             None, d.rules)
            d = game.choose(agent.choose(session, d))
        outcome = game.outcome
        result.update(winner=outcome.winner, reason=outcome.reason)
        if outcome.result is not None:
            result["result"] = outcome.result
    except DecisionBudgetExceeded as err:
        result.update(error=err.message, kind="too_long")
    except DeadEnd as err:
        result.update(error=str(err), kind="dead_end")
    except StepBudgetExceeded as err:
        result.update(error=str(err), kind="step_budget")
    except LimitExceeded as err:  # another limit of runtime/limits.py: its name says which
        result.update(error=str(err), kind=f"limit:{err.limit}")
    except GameError as err:
        result.update(error=str(err), kind="game_error")
    except RecursionError:  # (the interpreter stops at its own limits first: a bug if it gets here)
        result.update(error="the game nested procedures too deeply", kind="internal")
    except Exception as err:  # noqa: BLE001 - a bug of the interpreter: report it with its seed, go on
        result.update(error=f"internal error: {type(err).__name__}: {err}", kind="internal")
    result["decisions"] = game.s["decisions"]
    looked = {k: a.stats for k, a in players.items() if getattr(a, "stats", None)}
    if looked:  # the look-ahead players' decisions and the seconds they took
        result["agent_stats"] = {k: {"decisions": v["decisions"], "seconds": round(v["seconds"], 3)}
                                 for k, v in looked.items()}
    result["events"] = dict(game.events_played)
    result["turn"] = game.s["turn"]
    try:
        result["hash"] = game.state_hash()
    except Exception as err:  # noqa: BLE001 - a state that cannot be hashed fails this game, not the run
        if result["error"] is None:
            result.update(winner=None, reason=None, kind="internal",
                          error=f"the final state cannot be hashed: {type(err).__name__}: {err}")
    return result


# Allocations between two collections of the youngest generation while games
# are played in a batch (Python's default is 700).
YOUNG_COLLECTION_AFTER = 20_000


@contextmanager
def collector_set_for_games():
    """Python's cycle collector, set for playing games one after another,
    and put back as it was afterwards.  A game allocates and frees small
    tuples, lists and dicts by the million, and almost none of them form
    cycles (reference counting frees them), while the world and the cache of
    remembered values are large and live long.  With the default settings
    the collector spends about 3% of a game walking them; here the world,
    built before, is frozen (never walked again), and the youngest
    generation is collected after 20,000 allocations instead of 700, so it
    runs a few times a game instead of a hundred (measured: 3.1% of the
    time → 0.3%).  Cycles are still collected, only less often.

    Nested inside another, it changes nothing: simulate plays all the batches
    of one process inside one setting, since the full collection that starts
    each costs 25 ms, 2% of a ten-game run of four batches."""
    global _collector_depth
    if _collector_depth:
        _collector_depth += 1
        try:
            yield
        finally:
            _collector_depth -= 1
        return
    threshold = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION_AFTER, *threshold[1:])
    _collector_depth = 1
    try:
        yield
    finally:
        _collector_depth = 0
        gc.set_threshold(*threshold)
        gc.unfreeze()


_collector_depth = 0  # how many collector_set_for_games are open in this process


def run_batch(task: tuple) -> list[dict]:
    """A worker's task: (scenario, root, base seed, game numbers, max steps,
    max decisions, options as (NAME, VALUE) pairs[, agents as (SIDE, SPEC)
    pairs]) → one result per game.
    The worker builds the world with those options."""
    from ..opening import open_scenario

    spec, root, base, indices, max_steps, max_decisions, options, *more = task
    agents = dict(more[0]) if more else None  # (SIDE, SPEC) pairs: the sides not played at random
    opened = open_scenario(spec, Path(root) if root else None, options=dict(options))
    out = []
    with collector_set_for_games():
        for i in indices:
            r = play_random(opened, game_seed(base, i), max_steps=max_steps, max_decisions=max_decisions,
                            agents=agents)
            r["game"] = i
            out.append(r)
    return out


def batches(games: int, workers: int) -> list[list[int]]:
    size = max(1, min(64, math.ceil(games / max(1, workers * 4))))
    return [list(range(i, min(games, i + size))) for i in range(0, games, size)]


def simulate(spec: str, *, games: int, seed: int, root: Path | None = None, workers: int | None = None,
             max_steps: int | None = None, max_decisions: int = DEFAULT_MAX_DECISIONS,
             backend: str = "local", progress=None, options: dict[str, str] | None = None,
             agents: dict[str, str] | None = None) -> dict:
    """Run `games` random games and summarise them.  `progress(n)` is called
    with the number of games each finished batch held.  `options` sets the
    scenario's options (NAME → value as typed) for every game; `agents` a
    player other than random for some sides (SIDE → spec, e.g. "mcts:200")."""
    from ..opening import open_scenario

    # compile once here: errors (and unknown options) are reported before any work
    opened = open_scenario(spec, root, options=options)
    given = tuple(sorted((options or {}).items()))
    workers = workers or os.cpu_count() or 1
    root_text = str(Path(root).resolve()) if root is not None else None
    players = tuple(sorted((agents or {}).items()))
    tasks = [(spec, root_text, seed, b, max_steps, max_decisions, given, *((players,) if players else ()))
             for b in batches(games, workers)]
    start = time.perf_counter()
    results: list[dict] = []

    def take(batch):
        results.extend(batch)
        if progress:
            progress(len(batch))

    if backend == "ray":
        for batch in _run_ray(tasks):
            take(batch)
    elif backend == "dask":
        for batch in _run_dask(tasks):
            take(batch)
    elif workers <= 1 or len(tasks) <= 1:
        with collector_set_for_games():  # once for every batch (each run_batch's own then changes nothing)
            for t in tasks:
                take(run_batch(t))
    else:
        from concurrent.futures import ProcessPoolExecutor, as_completed

        with ProcessPoolExecutor(max_workers=min(workers, len(tasks))) as pool:
            futures = [pool.submit(run_batch, t) for t in tasks]
            for f in as_completed(futures):
                take(f.result())
    seconds = time.perf_counter() - start
    results.sort(key=lambda r: r["game"])
    summary = summarise(opened, spec, seed, results, seconds)
    if players:
        summary["agents"] = {s.key: (agents or {}).get(s.key, "random") for s in opened.world.sides}
        speed = {}
        for r in results:
            for side, st in (r.get("agent_stats") or {}).items():
                total = speed.setdefault(side, {"decisions": 0, "seconds": 0.0})
                total["decisions"] += st["decisions"]
                total["seconds"] += st["seconds"]
        # each look-ahead player's own speed: the decisions it searched (more than one option) a second
        summary["agent_speed"] = {side: {**v, "seconds": round(v["seconds"], 3),
                                         "decisions_per_second": round(v["decisions"] / v["seconds"], 2)
                                         if v["seconds"] > 0 else None} for side, v in speed.items()}
    return summary


def summarise(opened, spec: str, seed: int, results: list[dict], seconds: float) -> dict:
    sides = [s.key for s in opened.world.sides]
    wins = Counter()
    kinds = Counter()  # the declared results (`result NAME` of the scenario) games ended as
    reasons = Counter()
    finished = [r for r in results if r["error"] is None]
    for r in finished:
        if r.get("result"):
            kinds[r["result"]] += 1
            if r["winner"]:
                wins[r["winner"]] += 1
        else:
            wins[r["winner"] or "draw"] += 1
        reasons[r["reason"] or ""] += 1
    declared = [x.name.text for x in getattr(opened.world.scenario, "results", [])]
    decisions = sum(r["decisions"] for r in results)
    digest = hashlib.sha256("".join(r["hash"] for r in results).encode()).hexdigest()
    n = len(finished)
    return {
        "scenario": spec,
        "seed": seed,
        "options": opened.options_text(),
        "games": len(results),
        "finished": n,
        "failed": len(results) - n,
        "decisions": decisions,
        "seconds": round(seconds, 3),
        "decisions_per_second": round(decisions / seconds, 1) if seconds > 0 else None,
        "results": {**{s: wins.get(s, 0) for s in sides}, "draw": wins.get("draw", 0),
                    **{k: v for k, v in wins.items() if k not in sides and k != "draw"}},
        # Games that ended as a declared result: each counted once under its
        # name (a graded win counts for its side in `results` too).
        **({"result_kinds": {**{k: kinds.get(k, 0) for k in declared},
                             **{k: v for k, v in kinds.items() if k not in declared}}} if declared or kinds else {}),
        "win_rates": {k: round(v / n, 4) for k, v in
                      {**{s: wins.get(s, 0) for s in sides}, "draw": wins.get("draw", 0)}.items()} if n else {},
        "reasons": dict(sorted(reasons.items())),
        "mean_decisions": round(sum(r["decisions"] for r in finished) / n, 2) if n else None,
        "mean_turns": round(sum(r["turn"] for r in finished) / n, 2) if n else None,
        "digest": digest,
        "failures": [{"game": r["game"], "seed": r["seed"], "kind": r["kind"], "error": r["error"]}
                     for r in results if r["error"] is not None],
        "card_events": card_events(opened.world, results),
    }


def card_events(world, results: list[dict]) -> dict:
    """For every card whose event is written (in side and number order),
    keyed `AP 6`: its name, how many times its event was played over all the
    games (finished or not), and in how many games."""
    out = {}
    for card in world.cards:
        data = card.data
        if data.event is None:
            continue
        counts = [r.get("events", {}).get(card.key, 0) for r in results]
        out[f"{data.side.text.upper()} {data.number}"] = {
            "name": data.name.text, "played": sum(counts), "games": sum(1 for n in counts if n)}
    return out


TIMING_FIELDS = ("seconds", "decisions_per_second")


# ----------------------------------------------------------------- clusters
def require_backend(backend: str) -> None:
    if backend not in EXTRAS:
        return
    module, extra = EXTRAS[backend]
    import importlib.util

    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        raise BackendMissing(f"--backend {backend} needs the '{module.split('.')[0]}' package, which is not "
                             f"installed: pip install 'pogdsl[{extra}]'")


def _run_ray(tasks):
    """Tasks on a Ray cluster: the one in $RAY_ADDRESS, else a local one.
    The scenario (and --root) must be readable at the same path on every node."""
    import ray

    if not ray.is_initialized():
        ray.init(address=os.environ.get("RAY_ADDRESS"), log_to_driver=False)
    remote = ray.remote(run_batch)
    pending = [remote.remote(t) for t in tasks]
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            yield ray.get(ref)


def _run_dask(tasks):
    """Tasks on a Dask cluster: the scheduler in $DASK_SCHEDULER_ADDRESS, else
    a local one.  The scenario must be readable at the same path on every worker."""
    from dask.distributed import Client, as_completed

    address = os.environ.get("DASK_SCHEDULER_ADDRESS")
    with (Client(address) if address else Client(processes=True)) as client:
        futures = client.map(run_batch, tasks, pure=False)
        for f in as_completed(futures):
            yield f.result()
