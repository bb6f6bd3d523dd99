"""Soak: many random games, with the state's invariants checked at every decision.

The games are the ones `pogdsl simulate` plays: the same random players
(agents/random_agent.py, answering inside the interpreter: runtime/sampling.py),
the same per-game seeds (`sim.game_seed(SEED, i)`), the same `sim.play_random`.
Game i of a run can be played again on its own with
`pogdsl play SCENARIO --seed G --ap random --cp random`, G being the seed
printed with a failure or a violation.

The only difference: each game's `offer` (where every decision, a real one
or one with a single legal option, is made) first checks the invariants of
the state as it stands, i.e. after everything the previous decision caused;
the final state is checked once more after the game.  The invariants:

  unit-place    every unit is in exactly one place: off the board (loc None,
                the pool of pieces not in play), or one space or box whose
                occupant list holds it once, and in no other occupant list.
  sides         no space holds units of two sides.  (A besieger shares its
                space with an enemy *fort*, which is a property of the space,
                not a unit; boxes — reserve, eliminated, removed — are per
                side already and are not spaces.)
  stacking      at rest, no space holds more combat units than the rules'
                value `stacking_limit` (3).  See REST below.
  card-pile     every card is in at most one pile, and a card that has been
                in a pile once is in exactly one pile from then on (cards of
                the later war-status decks are in no pile until they are
                added: a card that *leaves* every pile is the violation).
  track-range   every track and counter with a declared range `LOW..HIGH`
                holds an integer within it (for each scope key, when
                declared `per ...`); a track or counter without a range
                holds an integer (never a bool, None or anything else).

REST.  Stacking may be broken for a while: a stack crosses a full space while
it moves (10.1.2), a retreat or an event can leave a space over the limit,
which the opponent corrects once the action is over (10.1.3, the trigger on
`action_taken` in rules/10-stacking.pog).  So "at rest" is told from the
decision, generically, without naming procedures: a decision of one of the
REST choices (default: `take_action`, the choice that starts an action of
the action phase) comes when no action is under way — every movement, SR,
combat, retreat and the 10.1.3 clean-up of the previous action is over.  Only
there is the limit checked.  `--rest-choice` names others (repeatable); a
scenario without such a choice never checks stacking (the report says how
many checks were made at rest).

    python benchmarks/soak.py --games 200 --workers 2
    python benchmarks/soak.py --games 10000 --workers 2 --seed 0 --json out.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

INVARIANTS = ("unit-place", "sides", "stacking", "card-pile", "track-range")
DEFAULT_REST = ("take_action",)
MAX_PER_GAME = 20  # violations kept per game (a broken state stays broken: the rest are repeats)


# ----------------------------------------------------------------- the checks
# Each takes the world and the state (and what it needs more) and returns a
# list of (invariant, detail) pairs; empty when it holds.

def check_unit_places(w, s) -> list[tuple[str, str]]:
    out = []
    loc, occ = s["loc"], s["occ"]
    count = len(occ)
    seen: dict[int, int] = {}
    for where, units in enumerate(occ):
        for ui in units:
            if ui in seen:
                out.append(("unit-place", f"{_unit(w, ui)} is listed in {_place(w, seen[ui])} and in {_place(w, where)}"))
            else:
                seen[ui] = where
    for ui, at in enumerate(loc):
        if at is None:
            if ui in seen:
                out.append(("unit-place", f"{_unit(w, ui)} is off the board but listed in {_place(w, seen[ui])}"))
            continue
        if not isinstance(at, int) or isinstance(at, bool) or not 0 <= at < count:
            out.append(("unit-place", f"{_unit(w, ui)} is at {at!r}, which is no place"))
            continue
        if seen.get(ui) != at:
            found = _place(w, seen[ui]) if ui in seen else "no occupant list"
            out.append(("unit-place", f"{_unit(w, ui)} is at {_place(w, at)} but listed in {found}"))
    for ui in seen:
        if not (isinstance(ui, int) and 0 <= ui < len(loc)):
            out.append(("unit-place", f"occupant list holds {ui!r}, which is no unit"))
    return out


def check_sides(w, s) -> list[tuple[str, str]]:
    out = []
    occ = s["occ"]
    for si in range(len(w.spaces)):
        units = occ[si]
        if len(units) < 2:
            continue
        sides = {_side(w, ui) for ui in units}
        if len(sides) > 1:
            names = ", ".join(f"{_unit(w, ui)} ({_side(w, ui)})" for ui in units)
            out.append(("sides", f"{w.spaces[si].key} holds units of {len(sides)} sides: {names}"))
    return out


def check_stacking(w, s, limit) -> list[tuple[str, str]]:
    out = []
    occ = s["occ"]
    for si in range(len(w.spaces)):
        if len(occ[si]) > limit:
            names = ", ".join(_unit(w, ui) for ui in occ[si])
            out.append(("stacking", f"{w.spaces[si].key} holds {len(occ[si])} units at rest (limit {limit}): {names}"))
    return out


def check_cards(w, s, entered: set) -> list[tuple[str, str]]:
    """`entered`: the cards seen in a pile so far in this game (updated)."""
    out = []
    where: dict[int, str] = {}
    for pile, cards in s["piles"].items():
        for ci in cards:
            if ci in where:
                out.append(("card-pile", f"{_card(w, ci)} is in {where[ci]} and in {pile}"))
            else:
                where[ci] = pile
            if not (isinstance(ci, int) and 0 <= ci < len(w.cards)):
                out.append(("card-pile", f"{pile} holds {ci!r}, which is no card"))
    for ci in entered:
        if ci not in where:
            out.append(("card-pile", f"{_card(w, ci)} has left every pile"))
    entered.update(where)
    return out


def check_tracks(w, s) -> list[tuple[str, str]]:
    out = []
    for name, decl in w.state_decls.items():
        if decl.state_kind not in ("track", "counter"):
            continue
        value = s["vars"].get(name)
        items = value.items() if decl.scope is not None and isinstance(value, dict) else [(None, value)]
        if decl.scope is not None and not isinstance(value, dict):
            out.append(("track-range", f"{name} (per {decl.scope.text}) holds {value!r}, not one value per key"))
            continue
        for key, v in items:
            label = name if key is None else f"{name}[{key}]"
            if not isinstance(v, int) or isinstance(v, bool):
                out.append(("track-range", f"{decl.state_kind} {label} holds {v!r}, not an integer"))
            elif decl.low is not None and not decl.low <= v <= decl.high:
                out.append(("track-range", f"{decl.state_kind} {label} = {v}, outside {decl.low}..{decl.high}"))
    return out


def _unit(w, ui) -> str:
    try:
        return w.units[ui].key
    except (IndexError, TypeError):
        return f"unit #{ui!r}"


def _side(w, ui):
    try:
        side = w.units[ui].data.side
    except (IndexError, TypeError):
        return None
    return side.key if side is not None else None


def _card(w, ci) -> str:
    try:
        return w.cards[ci].key
    except (IndexError, TypeError):
        return f"card #{ci!r}"


def _place(w, loc) -> str:
    e = w.place_entity(loc)
    return e.key if e is not None else f"place #{loc}"


class Checker:
    """The invariants of one game, checked at each of its decisions."""

    def __init__(self, game, rest_choices=DEFAULT_REST):
        self.game = game
        self.rest = frozenset(rest_choices)
        self.entered: set[int] = set()
        self.violations: list[dict] = []
        self.checks = 0
        self.rest_checks = 0
        self._limit = None

    def stacking_limit(self) -> int:
        from pogdsl.runtime import builtins as B

        g = self.game
        if "stacking_limit" in g.w.values:
            return int(B.value_of(g, "stacking_limit", ()))
        return 3

    def check(self, choice: str | None) -> list[tuple[str, str]]:
        g = self.game
        w, s = g.w, g.s
        found = check_unit_places(w, s) + check_sides(w, s) + check_cards(w, s, self.entered) + check_tracks(w, s)
        if choice is not None and choice in self.rest:
            self.rest_checks += 1
            found += check_stacking(w, s, self.stacking_limit())
        self.checks += 1
        for invariant, detail in found:
            if len(self.violations) < MAX_PER_GAME:
                self.violations.append({"decision": s["decisions"], "choice": choice, "turn": s["turn"],
                                        "invariant": invariant, "detail": detail})
        return found

    def install(self) -> None:
        """Check before every offer of the game (an instance attribute: the
        game's own code calls `g.offer`)."""
        g = self.game
        offer = g.offer

        def checked_offer(spec, frame):
            self.check(spec.name)
            return offer(spec, frame)

        g.offer = checked_offer


class _Instrumented:
    """An opened scenario whose new games check their invariants: what
    `sim.play_random` is given, so the games are played exactly as simulate
    plays them."""

    def __init__(self, opened, rest_choices):
        self.opened = opened
        self.world = opened.world
        self.rest = rest_choices
        self.checker: Checker | None = None

    def new_game(self, seed, **options):
        game = self.opened.new_game(seed, **options)
        self.checker = Checker(game, self.rest)
        self.checker.install()
        return game


# ----------------------------------------------------------------- the run
_OPENED_HERE: dict = {}


def soak_game(opened, seed: int, rest_choices=DEFAULT_REST, max_steps=None, max_decisions=None) -> dict:
    from pogdsl.sim import DEFAULT_MAX_DECISIONS, DEFAULT_MAX_STEPS, play_random

    inst = _Instrumented(opened, rest_choices)
    result = play_random(inst, seed, max_steps=max_steps or DEFAULT_MAX_STEPS,
                         max_decisions=max_decisions or DEFAULT_MAX_DECISIONS)
    checker = inst.checker
    checker.check(None)  # the final state
    return {"seed": seed, "decisions": result["decisions"], "error": result["error"], "kind": result["kind"],
            "winner": result["winner"], "checks": checker.checks, "rest_checks": checker.rest_checks,
            "violations": checker.violations}


def run_batch(task) -> list[dict]:
    from pogdsl.runtime.record import open_scenario
    from pogdsl.sim import collector_set_for_games, game_seed

    scenario, base, indices, rest, max_steps, max_decisions = task
    opened = _OPENED_HERE.get(scenario)
    if opened is None:
        opened = _OPENED_HERE[scenario] = open_scenario(scenario, None)
    out = []
    with collector_set_for_games():
        for i in indices:
            r = soak_game(opened, game_seed(base, i), rest, max_steps, max_decisions)
            r["game"] = i
            out.append(r)
    return out


def soak(scenario: str, games: int, seed: int = 0, workers: int = 1, rest=DEFAULT_REST,
         max_steps=None, max_decisions=None, progress=None, deadline: float | None = None) -> dict:
    """Play `games` games (fewer if `deadline`, a time.monotonic() value,
    passes first: the batches not started are dropped) and summarise."""
    size = max(1, min(25, games // max(1, workers * 8) or 1))
    tasks = [(scenario, seed, list(range(i, min(games, i + size))), tuple(rest), max_steps, max_decisions)
             for i in range(0, games, size)]
    start = time.perf_counter()
    results: list[dict] = []

    def take(batch):
        results.extend(batch)
        if progress:
            progress(len(results), time.perf_counter() - start)

    if workers <= 1:
        for t in tasks:
            if deadline is not None and time.monotonic() > deadline:
                break
            take(run_batch(t))
    else:
        from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

        with ProcessPoolExecutor(max_workers=workers) as pool:
            pending = set()
            queue = list(tasks)
            while queue or pending:
                while queue and len(pending) < workers * 2 and (deadline is None or time.monotonic() < deadline):
                    pending.add(pool.submit(run_batch, queue.pop(0)))
                if deadline is not None and time.monotonic() >= deadline:
                    queue.clear()
                if not pending:
                    break
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in done:
                    take(f.result())
    seconds = time.perf_counter() - start
    results.sort(key=lambda r: r["game"])
    return summarise(scenario, seed, results, seconds, games)


def summarise(scenario, seed, results, seconds, asked) -> dict:
    failures = [{"game": r["game"], "seed": r["seed"], "kind": r["kind"], "error": r["error"]}
                for r in results if r["error"]]
    violations = [dict(v, game=r["game"], seed=r["seed"]) for r in results for v in r["violations"]]
    decisions = sum(r["decisions"] for r in results)
    by_invariant = {name: sum(1 for v in violations if v["invariant"] == name) for name in INVARIANTS}
    return {
        "scenario": scenario, "seed": seed, "games_asked": asked, "games": len(results),
        "decisions": decisions, "checks": sum(r["checks"] for r in results),
        "rest_checks": sum(r["rest_checks"] for r in results),
        "seconds": round(seconds, 1),
        "games_per_second": round(len(results) / seconds, 2) if seconds else None,
        "decisions_per_second": round(decisions / seconds) if seconds else None,
        "winners": {w: sum(1 for r in results if str(r["winner"]) == w and not r["error"])
                    for w in sorted({str(r["winner"]) for r in results if not r["error"]})},
        "failures": failures, "violations": violations, "violations_by_invariant": by_invariant,
    }


def report(summary: dict) -> str:
    s = summary
    lines = [
        f"soak {s['scenario']} seed {s['seed']}: {s['games']} games"
        + (f" (of {s['games_asked']} asked; the time ran out)" if s["games"] < s["games_asked"] else ""),
        f"  {s['decisions']} decisions, {s['checks']} invariant checks ({s['rest_checks']} at rest)",
        f"  {s['seconds']} s: {s['games_per_second']} games/s, {s['decisions_per_second']} decisions/s",
        f"  winners: {s['winners']}",
        f"  failures: {len(s['failures'])}",
    ]
    for f in s["failures"][:50]:
        lines.append(f"    game {f['game']} seed {f['seed']} [{f['kind']}]: {f['error']}")
    lines.append(f"  violations: {len(s['violations'])} {s['violations_by_invariant']}")
    for v in s["violations"][:100]:
        lines.append(f"    game {v['game']} seed {v['seed']} decision {v['decision']} ({v['choice']}, turn {v['turn']}) "
                     f"{v['invariant']}: {v['detail']}")
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--scenario", default="campaign")
    p.add_argument("--games", "-n", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", "-w", type=int, default=1)
    p.add_argument("--rest-choice", action="append", default=None, metavar="CHOICE",
                   help="a choice whose decisions are 'at rest' (stacking checked); default take_action")
    p.add_argument("--max-steps", type=int, default=None)
    p.add_argument("--max-decisions", type=int, default=None)
    p.add_argument("--minutes", type=float, default=None,
                   help="stop starting new batches after this many minutes (the count played is reported)")
    p.add_argument("--json", metavar="FILE", help="also write the whole summary as JSON")
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    if args.games < 1 or args.workers < 1:
        p.error("--games and --workers must be at least 1")
    deadline = time.monotonic() + args.minutes * 60 if args.minutes else None

    def progress(n, seconds):
        if not args.quiet:
            print(f"  {n} games, {seconds:.0f} s", file=sys.stderr, flush=True)

    summary = soak(args.scenario, args.games, args.seed, args.workers, tuple(args.rest_choice or DEFAULT_REST),
                   args.max_steps, args.max_decisions, progress, deadline)
    print(report(summary))
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=1))
    return 1 if summary["failures"] or summary["violations"] else 0


if __name__ == "__main__":
    sys.exit(main())
