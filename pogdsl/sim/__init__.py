"""Batch simulation: many games between computer players.

Game i of a run with seed S plays with the game seed `game_seed(S, i)` and
players made from their specs (`random`, `mcts:N`... agents.make_agent),
each seeded from that game seed and its side (the same seeds `pogdsl play
--seed G --ap SPEC --cp SPEC` uses), so any game of a run, failed or not,
can be played again on its own, move for move.  A side with no spec plays
DEFAULT_PLAYER.  Random players answer inside the interpreter without
listing the options (runtime/sampling.py), and draw the same way from a
listed decision; every other player is asked at each decision.

On the local process pool (the default) every game is a task of its own, so
progress advances game by game and a worker that finishes early takes the next
game; a worker builds the scenario's world once (it inherits the one this
process opened, or opens it on its first game) and keeps it.  Ctrl-C stops the
pool at once: its workers ignore SIGINT and are terminated, and the games
finished so far are summarised.  Ray and Dask run batches of games on a
cluster when asked.
"""

from __future__ import annotations

import gc
import hashlib
import math
import os
import signal
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
# None: the scenario's `decisions` limit (runtime/limits.py: 1,000 a turn
# unless the scenario sets it), scaled to the game, not one figure for all.
DEFAULT_MAX_DECISIONS = None
BACKENDS = ("local", "ray", "dask")
# The player of a side `simulate` is given no spec for (--ap, --cp, --agent):
# every balance figure names the players it was made with.
DEFAULT_PLAYER = "random"
EXTRAS = {"ray": ("ray", "ray"), "dask": ("dask.distributed", "dask")}


class BackendMissing(Exception):
    """A --backend whose package is not installed."""


def game_seed(seed: int, index: int) -> int:
    from ..runtime.record import derive_seed

    return derive_seed(seed, "game", index)


def play_random(opened, seed: int, *, max_steps: int | None = None,
                max_decisions: int | None = DEFAULT_MAX_DECISIONS, agents: dict[str, str] | None = None) -> dict:
    """One game, as a plain result (never raises for a problem of the
    game: it is reported in "error").  `agents` gives each side its player
    by its spec (`random`, `mcts:200`... agents.make_agent; a side not
    given plays DEFAULT_PLAYER), seeded from the game's seed and its side as
    `play --seed` seeds it."""
    from types import SimpleNamespace

    from ..agents import RandomAgent, make_agent

    world = opened.world
    players = {s.key: make_agent((agents or {}).get(s.key, DEFAULT_PLAYER), s.key, seed) for s in world.sides}
    game = opened.new_game(seed, log=False, step_budget=max_steps)
    result = {"seed": seed, "winner": None, "reason": None, "decisions": 0, "turn": None, "hash": None,
              "error": None, "kind": None,
              "players": {s.key: (agents or {}).get(s.key, DEFAULT_PLAYER) for s in world.sides}}
    # random players answer inside run(), without listing (runtime/sampling.py); the others are asked
    game.samplers = {k: a for k, a in players.items() if isinstance(a, RandomAgent)}
    game.vp_by_turn = []  # the interpreter appends the VP at the end of each turn
    if max_decisions is not None:
        game.max_decisions = max_decisions
    max_decisions = game.max_decisions
    try:
        d = game.run()
        session = SimpleNamespace(game=game)
        while d is not None:
            agent = players.get(str(d.by))
            if agent is None or isinstance(agent, RandomAgent):
                raise GameError(f"a decision for '{d.by}', which is not a side")
            if max_decisions is not None and game.s["decisions"] >= max_decisions:
                raise DecisionBudgetExceeded(f"more than {max_decisions} decisions and the game is not over",
                                             None, d.rules)
            d = game.choose(agent.choose(session, d))
        outcome = game.outcome
        result.update(winner=outcome.winner, reason=outcome.reason)
        if outcome.result is not None:
            result["result"] = outcome.result
    except DecisionBudgetExceeded as err:  # (located: where the game asks again and again)
        result.update(error=str(err), kind="too_long")
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
    # a player that keeps `stats` {"decisions", "seconds"} (what it searched, the time it took)
    looked = {k: a.stats for k, a in players.items()
              if isinstance(getattr(a, "stats", None), dict) and {"decisions", "seconds"} <= a.stats.keys()}
    if looked:  # the look-ahead players' decisions and the seconds they took
        result["agent_stats"] = {k: {"decisions": v["decisions"], "seconds": round(v["seconds"], 3)}
                                 for k, v in looked.items()}
    result["events"] = dict(game.events_played)
    result["turn"] = game.s["turn"]
    # The VP track ("vp", when the scenario has one) at the end of each turn
    # played, the last entry being the VP the game ended with (also when it
    # ended inside a turn); a game that failed has no final VP, only those
    # of the turns it completed.
    final_vp = _vp(game.s["vars"].get("vp"))
    by_turn = [_vp(v) for v in game.vp_by_turn]
    if final_vp is None:
        by_turn = []
    elif result["error"] is not None:
        final_vp = None
    elif game.s["turn"] is not None and len(by_turn) < game.s["turn"] - game.w.first_turn + 1:
        by_turn.append(final_vp)
    result["final_vp"] = final_vp
    result["vp_by_turn"] = by_turn
    try:
        result["hash"] = game.state_hash()
    except Exception as err:  # noqa: BLE001 - a state that cannot be hashed fails this game, not the run
        if result["error"] is None:
            result.update(winner=None, reason=None, kind="internal",
                          error=f"the final state cannot be hashed: {type(err).__name__}: {err}")
    return result


def _vp(value):
    return value if isinstance(value, int) and not isinstance(value, bool) else None


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
    pairs]) → one result per game.  The worker builds the world with those
    options (once a process: open_scenario keeps it)."""
    return list(iter_batch(task))


def iter_batch(task: tuple):
    """The results of run_batch's task, one as each game ends."""
    from ..opening import open_scenario

    spec, root, base, indices, max_steps, max_decisions, options, *more = task
    agents = dict(more[0]) if more else None  # (SIDE, SPEC) pairs: the other sides play DEFAULT_PLAYER
    opened = open_scenario(spec, Path(root) if root else None, options=dict(options))
    with collector_set_for_games():
        for i in indices:
            r = play_random(opened, game_seed(base, i), max_steps=max_steps, max_decisions=max_decisions,
                            agents=agents)
            r["game"] = i
            yield r


def _pool_worker_start() -> None:
    """Each worker of the local pool, as it starts: Ctrl-C reaches the whole
    process group, but stopping is the parent's business (it terminates the
    workers), so a worker ignores SIGINT; and it plays all its games inside
    one collector setting (collector_set_for_games), as one process does."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    global _worker_collector
    _worker_collector = collector_set_for_games()
    _worker_collector.__enter__()  # for the process's lifetime: it ends with the pool


_worker_collector = None


def batches(games: int, workers: int) -> list[list[int]]:
    size = max(1, min(64, math.ceil(games / max(1, workers * 4))))
    return [list(range(i, min(games, i + size))) for i in range(0, games, size)]


def simulate(spec: str, *, games: int, seed: int, root: Path | None = None, workers: int | None = None,
             max_steps: int | None = None, max_decisions: int | None = DEFAULT_MAX_DECISIONS,
             backend: str = "local", progress=None, options: dict[str, str] | None = None,
             on_results=None, agents: dict[str, str] | None = None) -> dict:
    """Play `games` games and summarise them.  As games finish (in the
    order they finish), `progress(n)` is called with how many did and
    `on_results(list)` with their results: one game a call, except on Ray
    and Dask, which report a batch at a time.  `options` sets the
    scenario's options (NAME → value as typed) for every game; `agents` the
    player of some sides (SIDE → spec, e.g. "mcts:200"; the others play
    DEFAULT_PLAYER).  The summary's "agents" names every side's player.

    Ctrl-C (KeyboardInterrupt) stops the run within about a second: no worker
    is left behind, and the summary is of the games finished so far, with
    "interrupted": true."""
    from ..opening import open_scenario

    # compile once here: errors (and unknown options) are reported before any work
    opened = open_scenario(spec, root, options=options)
    given = tuple(sorted((options or {}).items()))
    workers = workers or os.cpu_count() or 1
    root_text = str(Path(root).resolve()) if root is not None else None
    chosen = {s.key: (agents or {}).get(s.key, DEFAULT_PLAYER) for s in opened.world.sides}
    players = tuple(sorted(chosen.items()))
    start = time.perf_counter()
    results: list[dict] = []

    def take(result):
        results.append(result)
        if on_results:
            on_results([result])
        if progress:
            progress(1)

    def tasks_of(groups):
        return [(spec, root_text, seed, g, max_steps, max_decisions, given, players) for g in groups]

    interrupted = False
    try:
        if backend in ("ray", "dask"):
            for batch in (_run_ray if backend == "ray" else _run_dask)(tasks_of(batches(games, workers))):
                results.extend(batch)
                if on_results:
                    on_results(batch)
                if progress:
                    progress(len(batch))
        elif workers <= 1 or games <= 1:
            with collector_set_for_games():  # once for every batch (each batch's own then changes nothing)
                for t in tasks_of(batches(games, workers)):
                    for r in iter_batch(t):
                        take(r)
        else:
            _run_local_pool(tasks_of([i] for i in range(games)), min(workers, games), take)
    except KeyboardInterrupt:
        interrupted = True
    seconds = time.perf_counter() - start
    results.sort(key=lambda r: r["game"])
    summary = summarise(opened, spec, seed, results, seconds)
    summary["interrupted"] = interrupted
    if interrupted:
        summary["games_asked"] = games
    summary["agents"] = chosen
    if any(r.get("agent_stats") for r in results):
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


def _run_local_pool(tasks, workers: int, take) -> None:
    """The tasks on a pool of `workers` processes, one game a task, each
    result given to `take` as it comes.  On KeyboardInterrupt (or any other
    error here) the workers are terminated before it goes on: a game being
    played is abandoned, none is waited for, and no process stays behind.
    A second Ctrl-C while they are being stopped is ignored."""
    import multiprocessing

    pool = multiprocessing.get_context().Pool(workers, initializer=_pool_worker_start)
    finished = False
    try:
        for batch in pool.imap_unordered(run_batch, tasks, chunksize=1):
            for r in batch:
                take(r)
        finished = True
    finally:
        import threading

        main = threading.current_thread() is threading.main_thread()  # (only it may set a handler)
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            if finished:
                pool.close()
            else:
                pool.terminate()
            pool.join()
        finally:
            if main:
                signal.signal(signal.SIGINT, previous)


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
    from .course import course_summary
    from .stats import distribution, proportion

    rates = {**{s: wins.get(s, 0) for s in sides}, "draw": wins.get("draw", 0)}
    kind_counts = {**{k: kinds.get(k, 0) for k in declared}, **{k: v for k, v in kinds.items() if k not in declared}}
    vps = [r["final_vp"] for r in finished if r.get("final_vp") is not None]
    played_by = next((r["players"] for r in results if r.get("players")), None)
    return {
        "scenario": spec,
        "seed": seed,
        "options": opened.options_text(),
        # each side's player (its spec), as the games were played: a balance
        # figure is a figure of these players
        **({"agents": dict(played_by)} if played_by else {}),
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
        **({"result_kinds": kind_counts} if declared or kinds else {}),
        "win_rates": {k: round(v / n, 4) for k, v in
                      {**{s: wins.get(s, 0) for s in sides}, "draw": wins.get("draw", 0)}.items()} if n else {},
        "reasons": dict(sorted(reasons.items())),
        "mean_decisions": round(sum(r["decisions"] for r in finished) / n, 2) if n else None,
        "mean_turns": round(sum(r["turn"] for r in finished) / n, 2) if n else None,
        "digest": digest,
        # The same counts, each with its rate and 95% Wilson interval
        # ({"count", "rate", "low", "high"}, of the finished games).
        "win_intervals": {k: proportion(v, n) for k, v in rates.items()} if n else {},
        "result_intervals": {k: proportion(v, n) for k, v in kind_counts.items()} if n else {},
        "reason_intervals": {k: proportion(v, n) for k, v in sorted(reasons.items())} if n else {},
        # Distributions over the finished games: mean, sd, min, q1, median,
        # q3, max and a histogram [{"low", "high", "count"}].
        "final_vp": distribution(vps),
        "turns": distribution([r["turn"] for r in finished]),
        "decisions_per_game": distribution([r["decisions"] for r in finished]),
        "failures": [{"game": r["game"], "seed": r["seed"], "kind": r["kind"], "error": r["error"]}
                     for r in results if r["error"] is not None],
        "card_events": card_events(opened.world, results),
        # who won by the turn the game ended and by how it ended, the VP
        # course (decisiveness, lead changes) and the VP by turn of each
        # side's wins (sim/course.py)
        **course_summary(finished, sides),
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
