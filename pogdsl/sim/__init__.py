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
process opened, or opens it on its first game) and keeps it.  Ctrl-C (and
SIGTERM, with stop_on_sigterm) stops the pool at once: its workers ignore
SIGINT and are killed, and the games finished so far are summarised; a worker
also ends when this process ends by `kill -9`.  Games are made as workers ask
for them and summarised as they come (Tally), so a run's memory does not grow
with --games.  Ray and Dask run batches of games on a cluster when asked.
"""

from __future__ import annotations

import gc
import hashlib
import heapq
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
# the heuristic player, so that balance is measured with players that play
# the war (docs/balance.rst); every balance figure names its players.
DEFAULT_PLAYER = "greedy"
# A look-ahead player's `stats` summed over a run: the decisions it answered
# and their seconds; a player that searches only some of them counts those too.
SPEED_STATS = ("decisions", "seconds", "searched", "search_seconds")
# The player of a side play_random is given none for: the fast baseline.
RANDOM_PLAYER = "random"
EXTRAS = {"ray": ("ray", "ray"), "dask": ("dask.distributed", "dask")}


class BackendMissing(Exception):
    """A --backend whose package is not installed."""


class RunStopped(Exception):
    """Raised by an `on_results` callback to end a run before its last game
    (its records can no longer be written): the games finished so far are
    summarised, with "interrupted" true and "stopped_by" the reason."""


class Terminated(KeyboardInterrupt):
    """SIGTERM, turned into an interrupt by `stop_on_sigterm`: the run ends
    as Ctrl-C ends it (workers terminated, the games finished summarised)."""


def stop_on_sigterm():
    """Make SIGTERM end a run as Ctrl-C does, in this process only (a worker
    forked with the handler dies at once, as SIGTERM's default does).
    Returns the previous handler (None when not on the main thread)."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None
    me = os.getpid()

    def handler(signum, frame):
        if os.getpid() != me:  # a forked worker, before _pool_worker_start put the default back
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)
            return
        raise Terminated()

    return signal.signal(signal.SIGTERM, handler)


def game_seed(seed: int, index: int) -> int:
    from ..runtime.record import derive_seed

    return derive_seed(seed, "game", index)


def play_random(opened, seed: int, *, max_steps: int | None = None,
                max_decisions: int | None = DEFAULT_MAX_DECISIONS, agents: dict[str, str] | None = None,
                record_terms: bool = False) -> dict:
    """One game, as a plain result (never raises for a problem of the
    game: it is reported in "error").  `agents` gives each side its player
    by its spec (`random`, `mcts:200`... agents.make_agent; a side not
    given plays RANDOM_PLAYER), seeded from the game's seed and its side as
    `play --seed` seeds it.  `record_terms`: the result's "terms_by_turn"
    holds each side's evaluation terms at the end of each turn played
    (sim/evalfit.py)."""
    from types import SimpleNamespace

    from ..agents import RandomAgent, make_agent

    world = opened.world
    players = {s.key: make_agent((agents or {}).get(s.key, RANDOM_PLAYER), s.key, seed) for s in world.sides}
    game = opened.new_game(seed, log=False, step_budget=max_steps)
    result = {"seed": seed, "winner": None, "reason": None, "decisions": 0, "turn": None, "hash": None,
              "error": None, "kind": None,
              "players": {s.key: (agents or {}).get(s.key, RANDOM_PLAYER) for s in world.sides}}
    # random players answer inside run(), without listing (runtime/sampling.py); the others are asked
    game.samplers = {k: a for k, a in players.items() if isinstance(a, RandomAgent)}
    game.vp_by_turn = []  # the interpreter appends the VP at the end of each turn
    if record_terms:
        from .evalfit import record_terms_by_turn

        result["terms_by_turn"] = record_terms_by_turn(game)
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
        # (a player that searches only some decisions also counts those: `searched`, `search_seconds`)
        result["agent_stats"] = {k: {name: round(v[name], 3) for name in SPEED_STATS if name in v}
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
    record_terms = len(more) > 1 and bool(more[1])  # each turn's evaluation terms (sim/evalfit.py)
    opened = open_scenario(spec, Path(root) if root else None, options=dict(options))
    with collector_set_for_games():
        for i in indices:
            r = play_random(opened, game_seed(base, i), max_steps=max_steps, max_decisions=max_decisions,
                            agents=agents, record_terms=record_terms)
            r["game"] = i
            yield r


def _pool_worker_start(parent: int | None = None) -> None:
    """Each worker of the local pool, as it starts: Ctrl-C reaches the whole
    process group, but stopping is the parent's business (it terminates the
    workers), so a worker ignores SIGINT; SIGTERM (how the parent terminates
    it) ends it at once, without a traceback; it ends when its parent ends,
    even by `kill -9` (_die_with_parent); and it plays all its games inside
    one collector setting (collector_set_for_games), as one process does."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with_parent(parent)
    global _worker_collector
    _worker_collector = collector_set_for_games()
    _worker_collector.__enter__()  # for the process's lifetime: it ends with the pool


_worker_collector = None
PARENT_CHECK_SECONDS = 0.5


def _die_with_parent(parent: int | None) -> None:
    """End this worker when its parent process PARENT ends, however it ends
    (`kill -9` gives it no chance to stop its pool): on Linux the kernel
    sends SIGKILL at once (prctl PR_SET_PDEATHSIG); everywhere a thread
    checks every PARENT_CHECK_SECONDS that the parent is the same (an orphan
    is adopted by another process).  PARENT None: the process that forked
    this one (a fork server, which ends with the run)."""
    import threading

    parent = parent or os.getppid()
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG = 1
    except (OSError, AttributeError):
        pass  # not Linux: the thread below does it
    if os.getppid() != parent:  # (it ended before prctl took effect)
        os._exit(1)

    def watch():
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="pogdsl-parent-watch", daemon=True).start()


def batches(games: int, workers: int, first: int = 0) -> list[list[int]]:
    return list(iter_batches(games, workers, first))


def iter_batches(games: int, workers: int, first: int = 0):
    """The game numbers first..first+games-1 in batches, made as they are asked for."""
    size = max(1, min(64, math.ceil(games / max(1, workers * 4))))
    end = first + games
    return (list(range(i, min(end, i + size))) for i in range(first, end, size))


def simulate(spec: str, *, games: int, seed: int, root: Path | None = None, workers: int | None = None,
             max_steps: int | None = None, max_decisions: int | None = DEFAULT_MAX_DECISIONS,
             backend: str = "local", progress=None, options: dict[str, str] | None = None,
             on_results=None, agents: dict[str, str] | None = None, record_terms: bool = False,
             first: int = 0) -> dict:
    """Play `games` games and summarise them.  As games finish (in the
    order they finish), `progress(n)` is called with how many did and
    `on_results(list)` with their results: one game a call, except on Ray
    and Dask, which report a batch at a time.  `options` sets the
    scenario's options (NAME → value as typed) for every game; `agents` the
    player of some sides (SIDE → spec, e.g. "mcts:200"; the others play
    DEFAULT_PLAYER).  The summary's "agents" names every side's player.
    `record_terms`: each result carries "terms_by_turn" (play_random).

    Ctrl-C (KeyboardInterrupt) stops the run within about a second: no worker
    is left behind, and the summary is of the games finished so far, with
    "interrupted": true and "stopped_by" ("Ctrl-C", "SIGTERM" with
    stop_on_sigterm, or the message of a RunStopped an `on_results` raised).

    Memory does not grow with `games`: games are handed to the workers a few
    at a time and summarised as they come (Tally), none is kept.

    `first`: the run plays games first..first+games-1 of the seed, the very
    games a run of first+games plays last, so a long run can be played in
    parts (on several machines, or after a stop) and its records joined."""
    from ..opening import open_scenario

    # compile once here: errors (and unknown options) are reported before any work
    opened = open_scenario(spec, root, options=options)
    given = tuple(sorted((options or {}).items()))
    workers = workers or os.cpu_count() or 1
    root_text = str(Path(root).resolve()) if root is not None else None
    chosen = {s.key: (agents or {}).get(s.key, DEFAULT_PLAYER) for s in opened.world.sides}
    players = tuple(sorted(chosen.items()))
    start = time.perf_counter()
    tally = Tally(opened, first)
    agent_speed: dict[str, dict] = {}

    def take(result):
        tally.add(result)
        for side, st in (result.get("agent_stats") or {}).items():
            total = agent_speed.setdefault(side, {"decisions": 0, "seconds": 0.0})
            for name, v in st.items():
                total[name] = total.get(name, 0) + v
        if on_results:
            on_results([result])
        if progress:
            progress(1)

    def tasks_of(groups):  # made as they are handed out: `games` may be more than memory holds
        extra = (record_terms,) if record_terms else ()
        return ((spec, root_text, seed, g, max_steps, max_decisions, given, players, *extra) for g in groups)

    stopped_by = None
    try:
        if backend in ("ray", "dask"):
            # (a cluster is given every batch at once: its scheduler holds them)
            for batch in (_run_ray if backend == "ray" else _run_dask)(list(tasks_of(iter_batches(games, workers, first)))):
                for r in batch:
                    tally.add(r)
                if on_results:
                    on_results(batch)
                if progress:
                    progress(len(batch))
        elif workers <= 1 or games <= 1:
            with collector_set_for_games():  # once for every batch (each batch's own then changes nothing)
                for t in tasks_of(iter_batches(games, workers, first)):
                    for r in iter_batch(t):
                        take(r)
        else:
            _run_local_pool(tasks_of([i] for i in range(first, first + games)), min(workers, games), take)
    except Terminated:
        stopped_by = "SIGTERM"
    except KeyboardInterrupt:
        stopped_by = "Ctrl-C"
    except RunStopped as err:
        stopped_by = str(err)
    seconds = time.perf_counter() - start
    summary = tally.summary(spec, seed, seconds)
    summary["interrupted"] = stopped_by is not None
    if stopped_by is not None:
        summary["games_asked"] = games
        summary["stopped_by"] = stopped_by
    summary["agents"] = chosen
    if agent_speed:
        speed = agent_speed
        # each look-ahead player's own speed: the decisions it searched (more than one option) a second
        summary["agent_speed"] = {side: {**{k: round(x, 3) for k, x in v.items()},
                                         "decisions_per_second": round(v["decisions"] / v["seconds"], 2)
                                         if v["seconds"] > 0 else None} for side, v in speed.items()}
    return summary


def _run_local_pool(tasks, workers: int, take) -> None:
    """The tasks on `workers` processes of our own, one game a task, each
    result given to `take` as it comes.

    Each worker has a pipe of its own and plays one task at a time, so at
    most `workers` tasks are out (a trillion games are made one at a time,
    as workers ask), and stopping never waits on a lock a worker holds
    (multiprocessing.Pool hangs in terminate() if a worker died waiting for
    its shared queue, as a SIGTERM to the process group does).  On
    KeyboardInterrupt, Terminated, or any other error here (a `take` that
    raised) the workers are killed before it goes on: a game being played is
    abandoned, none is waited for, and no process stays behind; a second
    Ctrl-C or SIGTERM while they are being stopped is ignored.  A worker
    that dies on its own (the system's out-of-memory killer) fails its game
    with the reason, and another takes its place.  A worker ends with this
    process, even after `kill -9` (_die_with_parent)."""
    import multiprocessing
    import threading
    from multiprocessing.connection import wait

    context = multiprocessing.get_context()
    # (started by a fork server, a worker's parent is that server, which ends with this process)
    parent = os.getpid() if context.get_start_method() in ("fork", "spawn") else None
    pool: list[_Worker] = []
    finished = False
    try:
        pool.extend(_Worker(context, parent) for _ in range(workers))
        tasks = iter(tasks)
        again: list = []  # tasks a worker that died had been given but not begun
        more = True
        while True:
            for worker in pool:
                while more and len(worker.tasks) < AHEAD:
                    task = again.pop() if again else next(tasks, None)
                    if task is None:
                        more = False
                        break
                    worker.give(task)
            out = {w.conn: w for w in pool if w.tasks}
            if not out:
                break
            for conn in wait(list(out)):
                worker = out[conn]
                try:
                    batch = conn.recv()
                    worker.tasks.popleft()
                except (EOFError, OSError):
                    lost = worker.tasks.popleft()
                    batch = [_lost_game(lost, i, worker.ended()) for i in lost[3]]
                    again.extend(worker.tasks)
                    more = more or bool(again)
                    pool[pool.index(worker)] = _Worker(context, parent)
                for r in batch:
                    take(r)
        finished = True
    finally:
        main = threading.current_thread() is threading.main_thread()  # (only it may set a handler)
        previous = [(n, signal.signal(n, signal.SIG_IGN)) for n in (signal.SIGINT, signal.SIGTERM)] if main else []
        try:
            for worker in pool:
                worker.stop(finished)
            for worker in pool:
                worker.process.join()
        finally:
            for number, handler in previous:
                signal.signal(number, handler)


AHEAD = 2  # tasks given to a worker at a time: the next waits in its pipe while it plays one


class _Worker:
    """A worker process of _run_local_pool, its end of a pipe, and the tasks
    it was given and has not answered, in order."""

    def __init__(self, context, parent: int | None):
        from collections import deque

        self.tasks = deque()
        self.conn, there = context.Pipe()
        self.process = context.Process(target=_worker_main, args=(there, parent), daemon=True,
                                       name="pogdsl-worker")
        self.process.start()
        there.close()

    def give(self, task) -> None:
        self.tasks.append(task)
        try:
            self.conn.send(task)
        except OSError:  # it has ended: its pipe says so at the next wait, and its tasks are handed again
            pass

    def stop(self, politely: bool) -> None:
        if politely:
            try:
                self.conn.send(None)
                return
            except OSError:
                pass
        self.process.kill()

    def ended(self) -> str:
        self.process.join(1)
        code = self.process.exitcode
        how = (f"killed by signal {-code}" if code is not None and code < 0
               else f"with status {code}" if code is not None else "")
        return f"the worker process playing this game ended {how}".rstrip()


def _worker_main(conn, parent: int | None) -> None:
    _pool_worker_start(parent)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):  # the parent closed its end or ended
            break
        if task is None:
            break
        try:
            batch = run_batch(task)
        except Exception as err:  # noqa: BLE001 - opening the scenario failed here: each game says why
            batch = [_lost_game(task, i, f"internal error: {type(err).__name__}: {err}") for i in task[3]]
        conn.send(batch)
    conn.close()


def _lost_game(task: tuple, index: int, why: str) -> dict:
    """A game's result when its worker could not play it."""
    return {"game": index, "seed": game_seed(task[2], index), "winner": None, "reason": None, "decisions": 0,
            "turn": None, "hash": "", "error": why, "kind": "internal", "events": {}, "final_vp": None,
            "vp_by_turn": []}


FAILURES_KEPT = 1000  # the failures a summary lists (those of the lowest game numbers); it counts them all
DIGEST_WINDOW = 100_000  # games that may wait, out of order, for the digest (see Tally)
# The finished games the VP course statistics read (sim/course.py: a break-even
# VP read from every game, then each game's lead changes against it), kept as
# the few fields they need; a run longer than that is summarised over its
# first COURSE_KEPT finished games, and the summary says so.
COURSE_KEPT = 5_000
COURSE_FIELDS = ("winner", "result", "reason", "turn", "final_vp", "vp_by_turn", "error")


class Tally:
    """A run's summary built game by game, in memory that does not grow with
    the number of games (`--games 1000000000000`, `report` of a file of
    gigabytes): counts, the measures as value → count (stats.distribution_of_counts),
    card events per card, the first FAILURES_KEPT failures, the digest of
    the final hashes in game order, fed as the games come (those that finish
    before an earlier one wait, at most DIGEST_WINDOW of them), and what the
    VP course statistics read of the first COURSE_KEPT finished games."""

    def __init__(self, opened, first: int = 0):
        self.opened = opened
        self.first = first  # the number of the run's first game (simulate's `first`)
        self.sides = [s.key for s in opened.world.sides]
        self.games = 0
        self.wins, self.kinds, self.reasons = Counter(), Counter(), Counter()
        self.measures = {"final_vp": Counter(), "turn": Counter(), "decisions": Counter()}
        self.decisions = 0
        self.failed = 0
        self.failures: list = []  # a max-heap (by game number) of the FAILURES_KEPT first failures
        self.card_plays: dict[str, list[int]] = {}  # card key → [plays, games]
        self._digest = hashlib.sha256()
        self._next_game = first
        self._waiting: dict[int, str] = {}
        self.players: dict | None = None  # each side's player, as the first game names them
        self.course_games: list[dict] = []
        self.course_finished = 0

    def add(self, r: dict) -> None:
        self.games += 1
        if self.players is None and r.get("players"):
            self.players = dict(r["players"])
        self.decisions += r["decisions"]
        if r["error"] is None:
            if r.get("result"):
                self.kinds[r["result"]] += 1
                if r["winner"]:
                    self.wins[r["winner"]] += 1
            else:
                self.wins[r["winner"] or "draw"] += 1
            self.reasons[r["reason"] or ""] += 1
            if r.get("final_vp") is not None:
                self.measures["final_vp"][r["final_vp"]] += 1
            self.measures["turn"][r["turn"]] += 1
            self.measures["decisions"][r["decisions"]] += 1
            self.course_finished += 1
            if len(self.course_games) < COURSE_KEPT:
                self.course_games.append({k: r.get(k) for k in COURSE_FIELDS})
        else:
            self.failed += 1
            entry = (-r["game"], self.games, {"game": r["game"], "seed": r["seed"], "kind": r["kind"],
                                               "error": r["error"]})
            if len(self.failures) < FAILURES_KEPT:
                heapq.heappush(self.failures, entry)
            elif entry > self.failures[0]:
                heapq.heapreplace(self.failures, entry)
        for key, n in (r.get("events") or {}).items():
            if n:
                plays = self.card_plays.setdefault(key, [0, 0])
                plays[0] += n
                plays[1] += 1
        self._hash(r["game"], r["hash"])

    def _hash(self, game, text: str) -> None:
        if game != self._next_game or not isinstance(game, int):
            self._waiting[game] = text
            if len(self._waiting) > DIGEST_WINDOW:  # far out of order (a hand-made file): go on past a gap
                first = min(self._waiting, key=_game_order)
                self._digest.update(self._waiting.pop(first).encode())
                self._next_game = first + 1 if isinstance(first, int) else self._next_game
            else:
                return
        else:
            self._digest.update(text.encode())
            self._next_game += 1
        while self._next_game in self._waiting:
            self._digest.update(self._waiting.pop(self._next_game).encode())
            self._next_game += 1

    def digest(self) -> str:
        final = self._digest.copy()
        for game in sorted(self._waiting, key=_game_order):
            final.update(self._waiting[game].encode())
        return final.hexdigest()

    def summary(self, spec: str, seed: int, seconds: float) -> dict:
        from .course import course_summary
        from .stats import distribution_of_counts, proportion

        sides, wins, kinds, reasons = self.sides, self.wins, self.kinds, self.reasons
        declared = [x.name.text for x in getattr(self.opened.world.scenario, "results", [])]
        n = self.games - self.failed
        decisions = self.decisions
        rates = {**{s: wins.get(s, 0) for s in sides}, "draw": wins.get("draw", 0)}
        kind_counts = {**{k: kinds.get(k, 0) for k in declared},
                       **{k: v for k, v in kinds.items() if k not in declared}}
        turns, per_game = self.measures["turn"], self.measures["decisions"]
        return {
            "scenario": spec,
            "seed": seed,
            **({"first": self.first} if self.first else {}),
            "options": self.opened.options_text(),
            # each side's player (its spec), as the games were played: a balance
            # figure is a figure of these players
            **({"agents": dict(self.players)} if self.players else {}),
            "games": self.games,
            "finished": n,
            "failed": self.failed,
            "decisions": decisions,
            "seconds": round(seconds, 3),
            "decisions_per_second": round(decisions / seconds, 1) if seconds > 0 else None,
            "results": {**{s: wins.get(s, 0) for s in sides}, "draw": wins.get("draw", 0),
                        **{k: v for k, v in wins.items() if k not in sides and k != "draw"}},
            # Games that ended as a declared result: each counted once under its
            # name (a graded win counts for its side in `results` too).
            **({"result_kinds": kind_counts} if declared or kinds else {}),
            "win_rates": {k: round(v / n, 4) for k, v in rates.items()} if n else {},
            "reasons": dict(sorted(reasons.items())),
            "mean_decisions": round(sum(v * c for v, c in per_game.items()) / n, 2) if n else None,
            "mean_turns": round(sum(v * c for v, c in turns.items()) / n, 2) if n else None,
            "digest": self.digest(),
            # The same counts, each with its rate and 95% Wilson interval
            # ({"count", "rate", "low", "high"}, of the finished games).
            "win_intervals": {k: proportion(v, n) for k, v in rates.items()} if n else {},
            "result_intervals": {k: proportion(v, n) for k, v in kind_counts.items()} if n else {},
            "reason_intervals": {k: proportion(v, n) for k, v in sorted(reasons.items())} if n else {},
            # Distributions over the finished games: mean, sd, min, q1, median,
            # q3, max and a histogram [{"low", "high", "count"}].
            "final_vp": distribution_of_counts(self.measures["final_vp"]),
            "turns": distribution_of_counts(turns),
            "decisions_per_game": distribution_of_counts(per_game),
            # the first FAILURES_KEPT failures by game number ("failed" counts them all)
            "failures": [f for _, _, f in sorted(self.failures, reverse=True)],
            "card_events": self.card_events(),
            # who won by the turn the game ended and by how it ended, the VP
            # course (decisiveness, lead changes) and the VP by turn of each
            # side's wins (sim/course.py)
            **course_summary(self.course_games, sides),
            **({"course_games": len(self.course_games)} if self.course_finished > len(self.course_games) else {}),
        }

    def card_events(self) -> dict:
        """For every card whose event is written (in side and number order),
        keyed `AP 6`: its name, how many times its event was played over all
        the games (finished or not), and in how many games."""
        out = {}
        for card in self.opened.world.cards:
            data = card.data
            if data.event is None:
                continue
            plays, games = self.card_plays.get(card.key, (0, 0))
            out[f"{data.side.text.upper()} {data.number}"] = {"name": data.name.text, "played": plays,
                                                              "games": games}
        return out


def _game_order(game):
    return (0, game, "") if isinstance(game, int) else (1, 0, str(game))


def summarise(opened, spec: str, seed: int, results, seconds: float) -> dict:
    """The summary of RESULTS (any iterable of play_random's results, each
    with its "game" number), built by a Tally."""
    tally = Tally(opened)
    for r in results:
        tally.add(r)
    return tally.summary(spec, seed, seconds)


def card_events(world, results: list[dict]) -> dict:
    """Tally.card_events of RESULTS."""
    from types import SimpleNamespace

    tally = Tally(SimpleNamespace(world=world))
    for r in results:
        for key, n in (r.get("events") or {}).items():
            if n:
                plays = tally.card_plays.setdefault(key, [0, 0])
                plays[0] += n
                plays[1] += 1
    return tally.card_events()


# What a summary measures of the machine, not of the games (records keep none
# of it: a records file gives the same summary less these):
TIMING_FIELDS = ("seconds", "decisions_per_second", "agent_speed")


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
